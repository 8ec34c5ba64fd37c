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

describe('log, archive, idempotence, restore', () => {
  test('the pruning-log entry has the exact format', () => {
    const id = (s: string) => before.entries.find((e) => e.text.includes(s) || e.file === s)!.id;
    const dbg = id('.claude/memory/debug.md');
    expect(first.logPath).toBe('.claude/memory/pruning-log.md');
    expect(first.logEntry).toBe(`## 2026-03-10 audit

- **Entries audited**: ${before.entries.length}
- **Entries pruned**: 6 (${((6 / before.entries.length) * 100).toFixed(1)}%)
- **Entries updated**: 1
- **Staleness found**: path-renamed ×1
- **Fidelity failures**: none
- **SUPERSEDED written**: \`.claude/memory/superseded-${dbg.slice(2)}.md\` (with the delete of ${dbg})

| Entry (summary) | Type | Reason |
| --- | --- | --- |
| "Debug — debugging the login timeout" | pattern | rule 1, delete: index line of .claude/memory/debug.md (deleted: rule 1) |
| "Links — fetch docs" | reference | rule 7, delete: index line of .claude/memory/links.md (deleted: rule 7) |
| "debugging the login timeout" | pattern | rule 1, delete: ephemeral: reasoning; SUPERSEDED record written |
| "fetch docs" | reference | rule 7, delete: freely available reference (developer.mozilla.org); findable with a search |
| "Start the server from src/server.ts." | project | rule 4, update: stale, corrected: src/server.ts was renamed to src/app-server.ts (2026-02-01) |
| "Currently working on issue #42, WIP." | ${before.entries.find((e) => e.text.includes('issue #42'))!.type} | rule 1, delete: ephemeral: session-state |
| "I think the rate limit is 100/min." | ${before.entries.find((e) => e.text.includes('I think'))!.type} | rule 1, delete: ephemeral: unverified |

`);
    const log = first.changes.find((c) => c.file === first.logPath)!.after!;
    expect(log.startsWith('# Pruning log\n\nWritten by `memory-audit prune`')).toBe(true);
    expect(log.endsWith(first.logEntry)).toBe(true);
  });

  test('every removed or changed entry is in the archive with its full text', () => {
    const archive = first.changes.find((c) => c.file === '.memory-audit/archive.jsonl')!.after!;
    const { records, skipped } = parseArchive(archive);
    expect(skipped).toBe(0);
    const removedOrChanged = first.plan.filter((p) => p.action !== 'keep' && p.action !== 'review' && p.action !== 'inoculate');
    for (const p of removedOrChanged) {
      const e = before.entries.find((x) => x.id === p.entryId)!;
      const r = records.find((x) => x.entryId === p.entryId)!;
      expect(r).toMatchObject({ file: e.file, line: e.line, endLine: e.endLine, rule: p.rule, reason: p.reason, date: '2026-03-10', text: e.text });
    }
    expect(records.filter((r) => r.kind === 'link').map((r) => r.file)).toEqual(['.claude/memory/deploy.md']);
  });

  test('write, then the result re-parses cleanly, a second prune is a no-op, and restore brings every line back', async () => {
    const w = await applyAudit(before, { root: repo.dir, now: NOW, write: true });
    expect(w.written).toBe(true);
    expect(w.diff).toBe(first.diff);
    for (const c of w.changes) {
      if (c.after === null) expect(await repo.exists(c.file)).toBe(false);
      else expect(await repo.read(c.file)).toBe(c.after);
    }
    // Re-parse: the same protected entry, byte for byte; no link or index line to a deleted file.
    const again = await auditWith(repo);
    const prot = before.entries.filter((e) => e.protected);
    expect(prot.length).toBe(1);
    expect(again.entries.filter((e) => e.protected).map((e) => e.text)).toEqual(prot.map((e) => e.text));
    const claude = await repo.read('CLAUDE.md');
    expect(claude.slice(claude.indexOf('<!-- PROTECTED -->'))).toBe(CLAUDE.slice(CLAUDE.indexOf('<!-- PROTECTED -->')));
    const linkCheck = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['broken-link'] });
    expect(linkCheck.findings.filter((f) => f.kind === 'broken-link')).toEqual([]);
    for (const c of w.changes.filter((x) => x.after !== null && x.file.endsWith('.md')))
      expect(c.after).not.toMatch(/\]\((?:debug|links)\.md\)|\[\[debug\]\]/);
    // Second prune: nothing to do, no new log entry.
    const second = await applyAudit(again, { root: repo.dir, now: new Date('2026-04-01T00:00:00Z'), write: true });
    expect(second.changes).toEqual([]);
    expect(second.diff).toBe('');
    expect(second.logEntry).toBe('');
    expect(second.plan.every((p) => p.action === 'keep')).toBe(true);

    // Restore every archived entry (in file order): all original lines come back.
    const { records } = parseArchive(await repo.read('.memory-audit/archive.jsonl'));
    const ids = [...new Set(records.filter((r) => r.entryId.startsWith('e_')).map((r) => r.entryId))];
    for (const id of ids) await runRestore({ root: repo.dir, id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe(CLAUDE);
    expect(await repo.read('.claude/memory/debug.md')).toBe(DEBUG);
    expect(await repo.read('.claude/memory/links.md')).toBe(LINKS);
    expect(await repo.read('.claude/memory/deploy.md')).toBe(DEPLOY);
    const dbgId = before.entries.find((e) => e.file === '.claude/memory/debug.md')!.id.slice(2);
    expect(await repo.read('.claude/memory/MEMORY.md')).toBe(
      MEMORY + `- [superseded-${dbgId}](superseded-${dbgId}.md) — Counter-memory preventing re-derivation of debugging the login timeout\n`,
    );
    // Restoring twice changes nothing, and says why for each record of the selection.
    const twice = await runRestore({ root: repo.dir, id: ids[0], config: config() });
    const rec = (file: string, kind: string) => records.find((r) => r.file === file && r.kind === kind)!;
    expect(ids[0]).toBe(rec('.claude/memory/MEMORY.md', 'index-line').entryId);
    expect(twice).toEqual({
      restored: [],
      skipped: [
        { id: rec('.claude/memory/debug.md', 'topic').id, file: '.claude/memory/debug.md', line: 1, reason: 'already restored: .claude/memory/debug.md is back in place' },
        { id: rec('.claude/memory/MEMORY.md', 'index-line').id, file: '.claude/memory/MEMORY.md', line: 4, reason: 'already restored: the lines are back in place' },
        {
          id: rec('.claude/memory/deploy.md', 'link').id,
          file: '.claude/memory/deploy.md',
          line: 1,
          reason: 'already restored: the original text is back in place (line 1)',
        },
      ],
      diff: '',
      warnings: [],
    });
  });

  test('output is identical across runs with the same now', async () => {
    const other = await fixture();
    const r = await applyAudit(await auditWith(other), { root: other.dir, now: NOW, write: false });
    expect(r.diff).toBe(first.diff);
    expect(r.logEntry).toBe(first.logEntry);
    expect(r.changes).toEqual(first.changes);
  });
});

describe('restore', () => {
  test('a moved anchor falls back to the same heading, else the end of the file with the heading recreated', async () => {
    const text = `# Notes\n\n## Build\n\n- Alpha.\n- Beta is flaky, tried retries.\n\n## Other\n\n- Gamma.\n`;
    const r = await makeRepo({ 'CLAUDE.md': text });
    const a = await audit({ root: r.dir, now: NOW, config: config(), checks: [] });
    const beta = entry(a, 'Beta');
    const plan = decide({ ...a }, [finding('ephemeral', beta)]);
    await applyAudit({ ...a, plan }, { root: r.dir, now: NOW, write: true });
    expect(await r.read('CLAUDE.md')).toBe(`# Notes\n\n## Build\n\n- Alpha.\n\n## Other\n\n- Gamma.\n`);
    // Someone rewrote the line before it: restore goes to the end of its section.
    await r.write('CLAUDE.md', `# Notes\n\n## Build\n\n- Alpha, reworded.\n\n## Other\n\n- Gamma.\n`);
    const res = await runRestore({ root: r.dir, id: beta.id, config: config(), write: false });
    expect(res.restored).toEqual([{ file: 'CLAUDE.md', line: 6 }]);
    expect(res.diff).toContain('+- Beta is flaky, tried retries.');
    await runRestore({ root: r.dir, id: beta.id, config: config() });
    expect(await r.read('CLAUDE.md')).toBe(`# Notes\n\n## Build\n\n- Alpha, reworded.\n- Beta is flaky, tried retries.\n\n## Other\n\n- Gamma.\n`);
    // Section gone entirely: end of file, heading recreated.
    await r.write('CLAUDE.md', `# Notes\n\n- Delta.\n`);
    await runRestore({ root: r.dir, id: beta.id, config: config() });
    expect(await r.read('CLAUDE.md')).toBe(`# Notes\n\n- Delta.\n\n## Build\n\n- Beta is flaky, tried retries.\n`);
  });

  test('an unknown id is an error', async () => {
    const r = await makeRepo({ 'CLAUDE.md': '- a\n' });
    await expect(runRestore({ root: r.dir, id: 'e_00000000', config: config() })).rejects.toThrow(/no archive at \.memory-audit\/archive\.jsonl/);
  });
});
