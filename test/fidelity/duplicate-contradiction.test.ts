import { describe, expect, it } from 'vitest';
import { findContradictions } from '../../src/checks/contradiction.js';
import { findDuplicates } from '../../src/checks/duplicate.js';
import { shingles, similarPairs, words } from '../../src/checks/fidelity/similarity.js';
import { config, context, parseFiles } from './helpers.js';

function topic(name: string, type: string, body: string, description = name): string {
  return `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\n${body}\n`;
}

describe('duplicate', () => {
  it('finds exact duplicates after normalising case, whitespace and markdown', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md': '# Rules\n\n- Never log full card numbers, tokens or customer emails.\n- Keep PRs small.\n',
      'AGENTS.md': '# Agents\n\n- never log **full card numbers**, tokens   or customer emails\n',
    });
    const f = findDuplicates(context(files, entries));
    const a = entries.find((e) => e.file === 'AGENTS.md' && e.kind === 'item')!;
    const c = entries.find((e) => e.file === 'CLAUDE.md' && e.text.includes('card'))!;
    expect(f.map((x) => [x.entryId, x.kind, x.evidence?.now, x.evidence?.exact])).toEqual([[a.id, 'duplicate', c.id, true]]);
    // no agent reads both CLAUDE.md and AGENTS.md: a note that the copies may drift, never advice to delete one
    expect(f[0].message).toBe('Also written in CLAUDE.md:3, a file another agent reads; keep both (each agent reads only its own), or share one file between them (an import) so the copies cannot drift apart.');
    expect([f[0].severity, f[0].suggestion, f[0].evidence?.scope]).toEqual(['info', undefined, 'other-agent']);
  });

  it('prefers the topic file over a MEMORY.md line and CLAUDE.md-like files, and names it', () => {
    const { files, entries } = parseFiles({
      'mem/MEMORY.md': '- [pnpm](pnpm.md) — package manager\n- [Tooling](tooling.md) — tools\n',
      'mem/pnpm.md': topic('pnpm', 'feedback', 'Only use pnpm in this repository: npm and yarn rewrite the lockfile and break the workspace links between packages.'),
      'mem/tooling.md': topic('tooling', 'project', 'Only use pnpm in this repository, because npm and yarn rewrite the lockfile and break the workspace links between all the packages.'),
    });
    const f = findDuplicates(context(files, entries));
    expect(f).toHaveLength(1);
    const keep = entries.find((e) => e.id === f[0].evidence?.now)!;
    expect(keep.file).toBe('mem/tooling.md');
    expect(f[0].file).toBe('mem/pnpm.md');
    expect(f[0].message).toBe('Nearly repeats mem/tooling.md:1; keep that entry (it is the more complete version) and delete this one.');
  });

  it('keeps a topic file over a MEMORY.md line that repeats it', () => {
    const { files, entries } = parseFiles({
      'mem/MEMORY.md': '- [Deploy](deploy.md) — releases\n- Releases go out by merging main into release; Argo CD syncs the cluster.\n',
      'mem/deploy.md': topic('deploy', 'project', 'Releases go out by merging main into release; Argo CD syncs the cluster within minutes.'),
    });
    const f = findDuplicates(context(files, entries));
    expect(f.map((x) => [x.file, x.line])).toEqual([['mem/MEMORY.md', 2]]);
    expect(f[0].message).toBe('Nearly repeats the topic file mem/deploy.md:1; keep the topic file (the fuller version) and delete this line.');
  });

  it('never pairs an index line with its own topic file', () => {
    const { files, entries } = parseFiles({
      'mem/MEMORY.md': '- [Checkout totals](checkout.md) — checkout totals are computed on the server, never in the browser\n',
      'mem/checkout.md': topic('checkout', 'decision', 'Checkout totals are computed on the server, never in the browser.'),
    });
    expect(findDuplicates(context(files, entries))).toEqual([]);
  });

  it('leaves near-identical lines with different numbers or opposite rules to contradiction', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md': '- Webhook handlers must return 2xx within 5 seconds or Stripe retries them.\n- Always mock the Stripe client in unit tests.\n',
      'AGENTS.md': '- Webhook handlers must return 2xx within 10 seconds or Stripe retries them.\n- Never mock the Stripe client in unit tests.\n',
    });
    expect(findDuplicates(context(files, entries))).toEqual([]);
    expect(findContradictions(context(files, entries)).map((f) => [f.file, f.line, f.ref])).toEqual([
      ['CLAUDE.md', 1, '5 seconds'],
      ['AGENTS.md', 1, '10 seconds'],
      ['CLAUDE.md', 2, 'Always mock the Stripe client in unit tests'],
      ['AGENTS.md', 2, 'Never mock the Stripe client in unit tests'],
    ]);
  });

  it('leaves CLAUDE.md copies inside auto memory to ephemeral/claude-md-copy unless that filter is off', () => {
    const input = {
      'CLAUDE.md': '- Money is stored as integer cents, never as floats.\n',
      'mem/MEMORY.md': '- [Money](money.md) — cents\n',
      'mem/money.md': topic('money', 'project', 'Money is stored as integer cents, never as floats.'),
    };
    const { files, entries } = parseFiles(input);
    expect(findDuplicates(context(files, entries))).toEqual([]);
    const cfg = config();
    cfg.filters = { 'claude-md-copy': false };
    const f = findDuplicates(context(files, entries, undefined, cfg));
    expect(f.map((x) => x.file)).toEqual(['CLAUDE.md']);
  });

  it('does not call templated lines that name different commands or files duplicates', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md':
        '## Usage\n\n- `pnpm run start daily` - Show daily usage report\n- `pnpm run start monthly` - Show monthly usage report\n- `pnpm run start daily --json` - Show daily usage report in JSON format\n- **Codex CLI Package**: @apps/codex/CLAUDE.md - OpenAI Codex usage tracking CLI\n- **OpenCode CLI Package**: @apps/opencode/CLAUDE.md - OpenCode usage tracking CLI\n\n## Checks\n\n- `pnpm run test` - Run all tests\n\n## After changes\n\n- `pnpm run test` - Run all tests (vitest, watch mode disabled)\n',
    });
    const f = findDuplicates(context(files, entries));
    expect(f.map((x) => [x.line, x.evidence?.line])).toEqual([[11, 15]]);
  });

  it('finds candidates without comparing all pairs (LSH + rare-shingle index)', () => {
    const base = 'the nightly reconciliation job compares stripe balance transactions with our ledger and opens a ticket';
    const texts = [base, base.replace('opens a ticket', 'files a ticket in billing alerts')];
    let x = 12345;
    const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let i = 0; i < 2000; i++)
      texts.push(Array.from({ length: 12 }, () => 'w' + Math.floor(rnd() * 5000).toString(36)).join(' '));
    const sets = texts.map((t) => shingles(words(t)));
    let verified = 0;
    const pairs = similarPairs(sets, (p) => {
      verified++;
      return p.jaccard >= 0.5;
    });
    expect(pairs.map((p) => [p.a, p.b])).toEqual([[0, 1]]);
    expect(verified).toBeLessThan(2000); // all-pairs would be ~2 million
  });
});

describe('contradiction', () => {
  it('reports commands for the same job with different package managers, at both locations', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md': '# acme\n\n- Run the unit tests with `pnpm test`.\n- Lint with `pnpm lint`.\n',
      'packages/web/CLAUDE.md': '- Run the web tests with `npm test` from this folder.\n- Run end-to-end tests with `npm run test:e2e`.\n',
    });
    const f = findContradictions(context(files, entries));
    const web = entries.find((e) => e.file === 'packages/web/CLAUDE.md' && e.text.includes('web tests'))!;
    const root = entries.find((e) => e.file === 'CLAUDE.md' && e.text.includes('unit tests'))!;
    expect(f.map((x) => [x.entryId, x.line, x.ref, x.evidence?.now])).toEqual([
      [root.id, 3, 'pnpm test', web.id],
      [web.id, 1, 'npm test', root.id],
    ]);
    expect(f[0].message).toBe(
      '"pnpm test" contradicts "npm test" at packages/web/CLAUDE.md:1 to run the tests; keep the one that is true and fix or delete the other.',
    );
  });

  it('reports versions of the same tool and numbers with the same unit and subject', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md': '- Use Node 20 locally and in CI.\n- Sessions: the access token is valid for 15 minutes and the refresh token for 7 days.\n',
      'mem/MEMORY.md': '- [Auth](auth.md) — tokens\n',
      'mem/auth.md': topic('auth', 'project', 'The access token is valid for 60 minutes, so cached fragments must not outlive it. CI runs on Node 18.'),
    });
    const f = findContradictions(context(files, entries));
    expect(f.map((x) => [x.file, x.ref, x.evidence?.claim])).toEqual([
      ['CLAUDE.md', 'Node 20', 'version'],
      ['mem/auth.md', 'Node 18', 'version'],
      ['CLAUDE.md', '15 minutes', 'number'],
      ['mem/auth.md', '60 minutes', 'number'],
    ]);
  });

  it('reports Python environment managers that disagree for the same job', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md': '- Run the tests with `uv run pytest -x`.\n- Type-check with `uv run mypy src`.\n',
      'AGENTS.md': '- Tests: `poetry run pytest`.\n- Lint with `uv run ruff check .`.\n',
    });
    expect(findContradictions(context(files, entries)).map((x) => [x.file, x.ref])).toEqual([
      ['CLAUDE.md', 'uv run pytest -x'],
      ['AGENTS.md', 'poetry run pytest'],
    ]);
  });

  it('only compares files loaded together: sibling packages may use different tools', () => {
    const { files, entries } = parseFiles({
      'apps/web/CLAUDE.md': '- Run the tests with `pnpm test`.\n- Keep PRs small and focused on one change.\n',
      'apps/mobile/CLAUDE.md': '- Run the tests with `yarn test`.\n- Keep PRs small and focused on one change.\n',
      'CLAUDE.md': '- Run the tests with `npm test`.\n',
    });
    const f = findContradictions(context(files, entries));
    expect(f.map((x) => `${x.file}>${(x.evidence as { file: string }).file}`)).toEqual([
      'apps/web/CLAUDE.md>CLAUDE.md',
      'CLAUDE.md>apps/web/CLAUDE.md',
      'apps/mobile/CLAUDE.md>CLAUDE.md',
      'CLAUDE.md>apps/mobile/CLAUDE.md',
    ]);
    expect(findDuplicates(context(files, entries))).toEqual([]);
  });

  it('does not report compatible or historical statements', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md':
        '- Use Node 20 (see `.nvmrc`).\n- Unit tests: `pnpm test`; e2e tests: `pnpm test:e2e`.\n- Searches time out after 800 ms.\n- Never commit directly to main.\n',
      'GEMINI.md': '- Always run lint before pushing.\n',
      '.github/copilot-instructions.md': '- Never push without running lint.\n',
      'AGENTS.md':
        '- Node 20.11 is what CI pins.\n- We migrated from Node 16 last year.\n- Install pnpm globally with `npm i -g pnpm`.\n- Endpoints must answer within 200 ms p95.\n- Always open a PR for changes to main.\n',
    });
    expect(findContradictions(context(files, entries))).toEqual([]);
  });

  it('does not read a support matrix or a feature statement as a version claim, but keeps a list of different tools', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md': '- Use Node 20 locally.\n- Python 3.12, Postgres 15, Redis 7.\n',
      'AGENTS.md': '- CI runs the web tests on Node 18 and 22.\n- Also tested on Node 16, 18 or Node 22.\n- Node 18 ships a global fetch.\n- Backups go to Postgres 14.\n',
    });
    const f = findContradictions(context(files, entries));
    expect(f.map((x) => [x.file, x.line, x.ref])).toEqual([
      ['CLAUDE.md', 2, 'Postgres 15'],
      ['AGENTS.md', 4, 'Postgres 14'],
    ]);
  });
});
