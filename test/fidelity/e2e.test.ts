// End to end: a fixture project committed into a real git repository in a temp folder, audited
// through the whole pipeline (discover, parse, evidence with blame, checks, JSON report).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';

const FIXTURE = join(__dirname, '../../eval/fixtures/fidelity/billing-api');
const SECRETS: Record<string, string> = {
  jwt: 'eyJhbGciOiJIUzI1NiJ9' + '.' + 'eyJzdWIiOiJlMmUtdGVzdCJ9' + '.' + 'ZmFrZS1zaWduYXR1cmUtZTJlLXRlc3Q',
  github: 'ghp_' + ('FAKE' + 'e2eE2eE2eE2eE2eE2eE2eE2eE2eE2eE2eE2e').slice(0, 36),
};

function materialise(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fidelity-e2e-'));
  cpSync(FIXTURE, dir, { recursive: true });
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else writeFileSync(p, readFileSync(p, 'utf8').replace(/\{\{SECRET:(\w+)\}\}/g, (_, k: string) => SECRETS[k]));
    }
  };
  walk(dir);
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    GIT_AUTHOR_DATE: '2026-03-02T10:00:00Z',
    GIT_COMMITTER_DATE: '2026-03-02T10:00:00Z',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'memory');
  return dir;
}

describe('fidelity checks through the whole pipeline', () => {
  const root = materialise();
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds the labelled problems, dates relative phrases from blame, and leaks no secret', async () => {
    const res = await audit({
      root,
      now: new Date('2026-03-10T00:00:00Z'),
      checks: ['ephemeral', 'duplicate', 'contradiction', 'broken-link', 'secret', 'budget'],
    });
    const kinds = (k: string) => res.findings.filter((f) => f.kind === k);
    const rel = res.findings.find((f) => f.kind === 'ephemeral' && f.evidence?.filter === 'relative-date');
    expect(rel).toMatchObject({ file: 'CLAUDE.md', ref: 'Yesterday', evidence: { date: '2026-03-02', absolute: '2026-03-01' }, suggestion: { replace: '2026-03-01' } });
    expect(kinds('secret').map((f) => f.file).sort()).toEqual(['.claude/memory/env-vars.md', '.claude/memory/token-handling.md']);
    expect(kinds('broken-link').map((f) => [f.file, f.evidence?.reason])).toEqual([['.claude/memory/stale-notes.md', 'orphan']]);
    expect(kinds('duplicate').length).toBeGreaterThanOrEqual(4);
    expect(kinds('contradiction').length).toBeGreaterThanOrEqual(8);
    const json = JSON.stringify(res.report);
    for (const v of Object.values(SECRETS)) expect(json.includes(v)).toBe(false);
  });
});
