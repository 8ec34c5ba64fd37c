// secret: credential-like strings in memory (cloud keys, GitHub / GitLab / Slack / Stripe tokens,
// private key blocks, JWTs, URLs with passwords, `password=` / `api_key=` with a high-entropy
// value). The value is never written: findings name the location and the kind only, and every
// report passes text through src/report/redact.ts. Entries with secrets are for human review,
// never silent deletion.
import type { Check, CheckContext, Entry, Finding } from '../types.js';
import { detectSecrets } from './fidelity/secrets.js';
import { fileMap, lineAt } from './fidelity/text.js';

const KIND_LABEL: Record<string, string> = {
  'github-token': 'GitHub token',
  'gitlab-token': 'GitLab token',
  'slack-token': 'Slack token',
  'slack-webhook': 'Slack webhook URL',
  'stripe-key': 'Stripe API key',
  'stripe-webhook-secret': 'Stripe webhook secret',
  'aws-access-key': 'AWS access key id',
  'aws-secret-key': 'AWS secret access key',
  'google-api-key': 'Google API key',
  'private-key': 'private key block',
  jwt: 'JSON Web Token',
  'url-password': 'password inside a URL',
  'password-assignment': 'hard-coded password or API key',
  'npm-token': 'npm token',
  'openai-key': 'OpenAI API key',
  'anthropic-key': 'Anthropic API key',
  'vault-token': 'HashiCorp Vault token',
  'sentry-token': 'Sentry auth token',
  'pypi-token': 'PyPI upload token',
  'digitalocean-token': 'DigitalOcean token',
};

export function secretLabel(rule: string): string {
  return KIND_LABEL[rule] ?? `${rule.replace(/-/g, ' ')} credential`;
}

export function findSecrets(ctx: CheckContext): Finding[] {
  const out: Finding[] = [];
  const files = fileMap(ctx.files);
  // scan each file once (in the order of their first entry) and hand ranges to the entries
  // that hold them; most files hold no secret, so entries are grouped by file only once one does
  const paths = new Set<string>();
  for (const e of ctx.entries) paths.add(e.file);
  let byFile: Map<string, Entry[]> | undefined;
  const entriesOf = (path: string): Entry[] => (byFile ??= groupByFile(ctx.entries)).get(path)!;
  for (const path of paths) {
    const file = files.get(path);
    if (file) {
      const ranges = detectSecrets(file.text);
      if (!ranges.length) continue;
      const entries = entriesOf(path);
      const seen = new Set<string>();
      // innermost entry holding the range (items inside sections)
      for (const r of ranges) {
        let best: Entry | undefined;
        for (const e of entries)
          if (e.start <= r.start && r.start < e.end && (!best || e.end - e.start < best.end - best.start)) best = e;
        const line = lineAt(file, r.start, best?.line ?? 1);
        const key = `${best?.id}:${line}:${r.rule}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(finding(best?.id ?? null, path, line, r.rule));
      }
    } else {
      for (const e of entriesOf(path))
        for (const r of detectSecrets(e.text)) {
          let line = e.line;
          for (let i = e.text.indexOf('\n'); i !== -1 && i < r.start; i = e.text.indexOf('\n', i + 1)) line++;
          out.push(finding(e.id, path, line, r.rule));
        }
    }
  }
  return out;
}

/** Entries by file, in order. */
function groupByFile(entries: Entry[]): Map<string, Entry[]> {
  const byFile = new Map<string, Entry[]>();
  for (const e of entries) {
    const l = byFile.get(e.file);
    if (l) l.push(e);
    else byFile.set(e.file, [e]);
  }
  return byFile;
}

function finding(entryId: string | null, file: string, line: number, rule: string): Finding {
  return {
    entryId,
    file,
    line,
    kind: 'secret',
    severity: 'error',
    message: `A secret (${secretLabel(rule)}) is written at ${file}:${line}; revoke it, then replace it with a reference to where the secret is stored.`,
    evidence: { rule, review: true },
  };
}

export const secretCheck: Check = {
  needs: 'memory',
  id: 'secret',
  kinds: ['secret'],
  severity: 'error',
  description:
    'Credential-like strings (secretlint recommended rules plus JWTs, Stripe and Google keys, URLs with passwords, high-entropy password= / api_key= values); never echoes the value.',
  run: findSecrets,
};
