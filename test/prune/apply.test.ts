// Plan -> edits on a real repository: byte-exact files, the pruning log, SUPERSEDED records,
// reintegration, the archive and restore. Findings are injected (the checks have their own tests),
// the plan comes from the real decision tree.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { audit, type AuditResult } from '../../src/audit.js';
import { applyAudit, type PruneResult } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { decide } from '../../src/policy/decide.js';
import { parseArchive } from '../../src/apply/archive.js';
import type { Finding } from '../../src/types.js';
import { NOW, cleanup, config, entry, finding, makeRepo, type Repo } from './helpers.js';

const CLAUDE = `# Project

## Build

- Run tests with \`npm test\`.
- Start the server from \`src/server.ts\`.
- Currently working on issue #42, WIP.

## Notes

- I think the rate limit is 100/min.

<!-- PROTECTED -->
- Never push to main without review.
`;

const MEMORY = `# Memory

- [Deploy](deploy.md) — how deploys go
- [Debug](debug.md) — debugging the login timeout
- [Links](links.md) — fetch docs
`;

const DEPLOY = `---
name: deploy
description: how deploys go
type: project
---

Deploys go through staging first. See [the debugging notes](debug.md) and [[debug]] for the timeout.
`;

const DEBUG = `---
name: debug
description: debugging the login timeout
type: pattern
---

Login timeout: tried raising the connection pool size, it didn't work; the pool is not the bottleneck.
`;

const LINKS = `---
name: links
description: fetch docs
type: reference
---

Fetch API docs: https://developer.mozilla.org/en-US/docs/Web/API/fetch
`;

const FILES = {
  'package.json': '{"name":"demo","scripts":{"test":"vitest"}}\n',
  'src/server.ts': 'export {}\n',
  'CLAUDE.md': CLAUDE,
  '.claude/memory/MEMORY.md': MEMORY,
  '.claude/memory/deploy.md': DEPLOY,
  '.claude/memory/debug.md': DEBUG,
  '.claude/memory/links.md': LINKS,
};

async function fixture(): Promise<Repo> {
  const repo = await makeRepo(FILES, '2026-01-05');
  await repo.git.mv('src/server.ts', 'src/app-server.ts');
  await repo.commit('move the server', '2026-02-01');
  return repo;
}

/** Audit with no checks, then the findings a real run would have for this fixture. */
async function auditWith(repo: Repo): Promise<AuditResult> {
  const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
  const extra: Finding[] = [];
  const has = (s: string) => r.entries.find((e) => e.text.includes(s));
  const eph = has('Currently working on issue #42');
  if (eph) extra.push(finding('ephemeral', eph, { evidence: { filter: 'session-state' } }));
  const think = has('I think the rate limit');
  if (think) extra.push(finding('ephemeral', think, { evidence: { filter: 'unverified' } }));
  const dbg = r.entries.find((e) => e.file === '.claude/memory/debug.md');
  if (dbg) extra.push(finding('ephemeral', dbg, { evidence: { filter: 'reasoning' } }));
  const srv = r.entries.find((e) => e.refs.some((x) => x.raw === 'src/server.ts'));
  if (srv)
    extra.push(
      finding('path-renamed', srv, {
        ref: 'src/server.ts',
        line: 6,
        message: 'src/server.ts was renamed to src/app-server.ts (2026-02-01)',
        suggestion: { replace: 'src/app-server.ts' },
      }),
    );
  const findings = [...r.findings, ...extra];
  const plan = decide({ files: r.files, entries: r.entries, evidence: r.evidence, config: r.config }, findings);
  return { ...r, findings, plan };
}

let repo: Repo;
let first: PruneResult;
let before: AuditResult;

beforeAll(async () => {
  repo = await fixture();
  before = await auditWith(repo);
  first = await applyAudit(before, { root: repo.dir, now: NOW, write: false });
});
afterAll(cleanup);

describe('prune apply', () => {
  test('a dry run computes everything and writes nothing', async () => {
    expect(first.written).toBe(false);
    expect(first.changes.map((c) => [c.file, c.before === null ? 'new' : c.after === null ? 'deleted' : 'changed'])).toEqual([
      ['.claude/memory/MEMORY.md', 'changed'],
      ['.claude/memory/debug.md', 'deleted'],
      ['.claude/memory/deploy.md', 'changed'],
      ['.claude/memory/links.md', 'deleted'],
      ['.claude/memory/pruning-log.md', 'new'],
      [`.claude/memory/superseded-${before.entries.find((e) => e.file === '.claude/memory/debug.md')!.id.slice(2)}.md`, 'new'],
      ['.memory-audit/archive.jsonl', 'new'],
      ['CLAUDE.md', 'changed'],
    ]);
    expect(await repo.read('CLAUDE.md')).toBe(CLAUDE);
    expect(await repo.exists('.claude/memory/pruning-log.md')).toBe(false);
    expect(first.diff.startsWith('diff --git a/.claude/memory/MEMORY.md b/.claude/memory/MEMORY.md\n--- a/.claude/memory/MEMORY.md\n+++ b/.claude/memory/MEMORY.md\n@@')).toBe(true);
    expect(first.summary).toEqual({ audited: before.entries.length, pruned: 6, updated: 1, archived: 0, inoculated: 1, review: 0 });
  });

  test('the edited files are byte-exact; protected entries untouched', async () => {
    const after = (f: string) => first.changes.find((c) => c.file === f)!.after;
    const dbgId = before.entries.find((e) => e.file === '.claude/memory/debug.md')!.id.slice(2);
    expect(after('CLAUDE.md')).toBe(`# Project

## Build

- Run tests with \`npm test\`.
- Start the server from \`src/app-server.ts\`. [corrected 2026-03-10]

## Notes

<!-- PROTECTED -->
- Never push to main without review.
`);
    expect(after('.claude/memory/MEMORY.md')).toBe(`# Memory

- [Deploy](deploy.md) — how deploys go
- [superseded-${dbgId}](superseded-${dbgId}.md) — Counter-memory preventing re-derivation of debugging the login timeout
`);
    expect(after('.claude/memory/deploy.md')).toBe(DEPLOY.replace('See [the debugging notes](debug.md) and [[debug]] for', 'See the debugging notes and debug for'));
    expect(after(`.claude/memory/superseded-${dbgId}.md`)).toBe(`---
name: superseded-${dbgId}
description: Counter-memory preventing re-derivation of debugging the login timeout
type: superseded
---

SUPERSEDED 2026-03-10
Pattern: Login timeout: tried raising the connection pool size, it didn't work; the pool is not the bottleneck.
Period: 2026-01-05 to 2026-03-10
Evidence: recorded in .claude/memory/debug.md:7: "Login timeout: tried raising the connection pool size, it didn't work; the pool is not the bottleneck."
Abandonment reason: ephemeral: reasoning
Do not re-derive from: the observations that produced this pattern entry in .claude/memory/debug.md
Supersedes: .claude/memory/debug.md
`);
  });
});
