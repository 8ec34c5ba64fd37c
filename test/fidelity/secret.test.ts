import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../src/checks/secret.js';
import { findSecretRanges, redactDeep, redactSecrets } from '../../src/report/redact.js';
import { runChecks } from '../../src/checks/registry.js';
import { context, parseFiles } from './helpers.js';

// Fake, pattern-valid values built by concatenation: nothing token-shaped is committed.
const GH = 'ghp_' + ('FAKE' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7').slice(0, 36);
const SLACK = 'xoxb-' + '123456789012' + '-' + '1234567890123' + '-' + 'FAKEfakeFAKEfakeFAKEfake';
const STRIPE = 'sk_' + 'live_' + 'FAKE' + '9x8Y7w6V5u4T3s2R1q0P';
const AWS_ID = 'AKIA' + 'Z7Q2M4N6P8R1T3V5';
const AWS_SECRET_LINE = 'aws_secret_access_key = ' + 'Zq8vR2mN5tY1wE4uI7oP' + '0aS3dF6gH9jK2lXcVbNm';
const JWT = 'eyJhbGciOiJIUzI1NiJ9' + '.' + 'eyJzdWIiOiJ0ZXN0LXVzZXIifQ' + '.' + 'ZmFrZS1zaWduYXR1cmUtZm9yLXRlc3Rz';
const PG_PASS = 'Zr8q' + 'Lw2Xv9mT';
const API_KEY_VALUE = 'f9K2mQ7x' + 'L4pR8vT1wZ6y';
const GITLAB = 'glpat-' + 'xY3kL9mN2pQ7rS5tU8vW';
const SENTRY_ORG = 'sntrys_' + 'eyJpYXQiOjE3MDAwMDAwMDAuMCwidXJsIjoiaHR0cHM6Ly9zZW50cnkuaW8ifQ==' + '_' + 'FAKEfake0123456789abcdefFAKEfake0123456789ab';
const SENTRY_USER = 'sntryu_' + '0123456789abcdef'.repeat(4);
const PYPI = 'pypi-' + 'AgEIcHlwaS5vcmc' + 'CJGZha2UtZmFrZS1mYWtlLWZha2UtZmFrZS1mYWtlLWZha2UtZmFrZQ';
const DO = 'dop_v1_' + 'fedcba9876543210'.repeat(4);
const PEM =
  '-----BEGIN ' + 'RSA PRIVATE KEY-----\n' + 'MIIEow' + 'IBAAKCAQEAfakefakefakefakefakefakefakefakefakefakefake' + 'x'.repeat(60) + '\n-----END ' + 'RSA PRIVATE KEY-----';

describe('findSecretRanges / redactSecrets', () => {
  const cases: Array<[string, string, string]> = [
    ['GitHub token', `token ${GH} here`, 'github-token'],
    ['Slack token', `bot ${SLACK}`, 'slack-token'],
    ['Stripe key', `stripe ${STRIPE}`, 'stripe-key'],
    ['AWS access key id', `id ${AWS_ID}`, 'aws-access-key'],
    ['JWT', `auth: Bearer ${JWT}`, 'jwt'],
    ['GitLab token', `ci ${GITLAB}`, 'gitlab-token'],
    ['private key', PEM, 'private-key'],
    ['api_key assignment', `api_key: ${API_KEY_VALUE}`, 'password-assignment'],
    ['Sentry organisation token', `SENTRY_AUTH_TOKEN is ${SENTRY_ORG} for uploads`, 'sentry-token'],
    ['Sentry user token', `user token ${SENTRY_USER}`, 'sentry-token'],
    ['PyPI token', `twine uses ${PYPI}`, 'pypi-token'],
    ['DigitalOcean token', `doctl auth init -t ${DO}`, 'digitalocean-token'],
  ];
  for (const [name, text, rule] of cases) {
    it(`detects a ${name}`, () => {
      const r = findSecretRanges(text);
      expect(r.map((x) => x.rule)).toEqual([rule]);
      expect(redactSecrets(text)).toContain(`[REDACTED:${rule}]`);
    });
  }

  it('redacts only the password of a URL', () => {
    const text = `db: postgres://app:${PG_PASS}@db.internal:5432/app`;
    const out = redactSecrets(text);
    expect(out.includes(PG_PASS)).toBe(false);
    expect(out).toMatch(/^db: (?:postgres:\/\/app:)?\[REDACTED:url-password\]/);
  });

  it('detects an AWS secret access key assignment', () => {
    expect(findSecretRanges(AWS_SECRET_LINE).length).toBe(1);
    expect(redactSecrets(AWS_SECRET_LINE).includes('Zq8vR2mN5tY1')).toBe(false);
  });

  it('leaves placeholders, env references and prose alone', () => {
    for (const t of [
      'Set API_KEY=${API_KEY} in .env',
      'password: <your password>',
      'DATABASE_URL=postgresql://billing:<password>@localhost:5432/billing',
      'use process.env.STRIPE_SECRET_KEY',
      'The access token is valid for 30 minutes.',
      'Run `pnpm --filter api prisma generate` after schema changes.',
      'token: ${{ secrets.GITHUB_TOKEN }}',
      'password=changeme',
      'AWS example key ' + 'AKIA' + 'IOSFODNN7EXAMPLE',
      // an MCP server config with a placeholder, and a local development database
      '"HEROKU_API_KEY": "YOUR_HEROKU_API_KEY"',
      'api_key = "your-openai-api-key-here"',
      'DATABASE_URL=postgresql://arawn:arawn_dev_password@localhost:5432/arawn',
    ])
      expect(findSecretRanges(t)).toEqual([]);
  });

  it('still finds real-looking values next to those placeholders', () => {
    expect(findSecretRanges('DATABASE_URL=postgresql://arawn:Xk39vQ7pLm2@db.internal.acme.io:5432/arawn').length).toBe(1);
    expect(findSecretRanges('DATABASE_URL=postgresql://arawn:arawn_dev_password@db.acme-prod.com:5432/arawn').length).toBe(1);
  });

  it('redacts every string inside a JSON-like value', () => {
    const v = redactDeep({ a: [`x ${GH}`], b: { c: `y ${STRIPE}` }, n: 3 });
    expect(JSON.stringify(v).includes(GH) || JSON.stringify(v).includes(STRIPE)).toBe(false);
    expect(v.n).toBe(3);
  });
});

describe('secret check', () => {
  const memory = {
    '.claude/memory/MEMORY.md': '- [Staging](staging.md) — staging access\n- [CI](ci.md) — CI tokens\n',
    '.claude/memory/staging.md': `---\nname: staging\ndescription: staging access\ntype: reference\n---\n\nStaging DB: postgres://readonly:${PG_PASS}@staging-db.internal:5432/shop\n`,
    '.claude/memory/ci.md': `---\nname: ci\ndescription: CI tokens\ntype: reference\n---\n\nThe release bot uses ${GH} and posts to Slack with ${SLACK}.\n`,
    'CLAUDE.md': `# Project\n\n- Run tests with \`pnpm test\`.\n- Deploy key for staging: ${STRIPE}\n`,
  };

  it('reports each secret at its line with kind and location only, severity error', () => {
    const { files, entries } = parseFiles(memory);
    const findings = findSecrets(context(files, entries));
    expect(findings.map((f) => [f.file, f.line, f.severity, (f.evidence as { rule: string }).rule])).toEqual([
      ['.claude/memory/staging.md', 7, 'error', 'url-password'],
      ['.claude/memory/ci.md', 7, 'error', 'github-token'],
      ['.claude/memory/ci.md', 7, 'error', 'slack-token'],
      ['CLAUDE.md', 4, 'error', 'stripe-key'],
    ]);
    for (const f of findings) {
      expect(f.entryId).toBe(entries.find((e) => e.file === f.file && e.line <= f.line && f.line <= e.endLine && e.kind !== 'section')?.id);
      expect(f.ref).toBeUndefined();
      expect(f.message).toMatch(/^A secret \(.+\) is written at .+:\d+; revoke it, then replace it with a reference to where the secret is stored\.$/);
    }
  });

  it('never writes a secret value into any finding of any fidelity check', () => {
    const { files, entries } = parseFiles(memory);
    const findings = runChecks(context(files, entries), ['ephemeral', 'duplicate', 'contradiction', 'broken-link', 'secret', 'budget']);
    const json = JSON.stringify(findings);
    for (const v of [GH, SLACK, STRIPE, PG_PASS]) expect(json.includes(v)).toBe(false);
    // the redacted entry texts hold no value either
    const texts = JSON.stringify(entries.map((e) => redactSecrets(e.text)));
    for (const v of [GH, SLACK, STRIPE, PG_PASS]) expect(texts.includes(v)).toBe(false);
  });
});
