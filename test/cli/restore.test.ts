// `memory-audit restore` as a user runs it: the bundled CLI in a child process, on a real git
// repository pruned beforehand. Every record that is not put back gets one line saying why, and
// the exit code is 1 when nothing at all was restored.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { audit } from '../../src/audit.js';
import { applyAudit } from '../../src/commands/prune.js';
import { parseArchive, type ArchiveRecord } from '../../src/apply/archive.js';
import { decide } from '../../src/policy/decide.js';
import type { Finding } from '../../src/types.js';
import { NOW, cleanup, config, finding, makeRepo, type Repo } from '../prune/helpers.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd: string): Promise<Run> {
  const script = path.join(inject('bundleDir'), 'cli.js');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }, encoding: 'utf8', timeout: 120_000 },
      (err, stdout, stderr) => {
        const raw = err ? (err as { code?: unknown }).code : 0;
        resolve({ code: typeof raw === 'number' ? raw : err ? 1 : 0, stdout, stderr });
      },
    );
  });
}

const CLAUDE = `# Project

## Build

- Start the server from \`src/server.ts\`.
- Currently working on issue #42, WIP.
- Run tests with \`npm test\`.
`;
const MEMORY = `# Memory

- [Debug](debug.md) — debugging the login timeout
- [Style](style.md) — code style
`;
const DEBUG = `---
name: debug
description: debugging the login timeout
type: pattern
---

Login timeout: tried raising the pool size, it did not help.
`;
const STYLE = `---
name: style
description: code style
type: feedback
---

Two-space indentation everywhere.
`;

let repo: Repo;
let records: ArchiveRecord[];
const rec = (file: string, action: string) => records.find((r) => r.file === file && r.action === action && r.kind !== 'index-line')!;

beforeAll(async () => {
  repo = await makeRepo(
    {
      'package.json': '{"name":"demo","scripts":{"test":"vitest"}}\n',
      'src/server.ts': 'export {}\n',
      'CLAUDE.md': CLAUDE,
      '.claude/memory/MEMORY.md': MEMORY,
      '.claude/memory/debug.md': DEBUG,
      '.claude/memory/style.md': STYLE,
    },
    '2026-01-05',
  );
  await repo.git.mv('src/server.ts', 'src/http.ts');
  await repo.commit('rename the server', '2026-02-01');
  // The prune itself: findings injected (the checks have their own tests), the real decision tree and writer.
  const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
  const by = (s: string) => r.entries.find((e) => e.text.includes(s))!;
  const extra: Finding[] = [
    finding('ephemeral', by('Currently working on issue #42'), { evidence: { filter: 'session-state' } }),
    finding('ephemeral', r.entries.find((e) => e.file === '.claude/memory/debug.md')!, { evidence: { filter: 'reasoning' } }),
    finding('path-renamed', by('src/server.ts'), {
      ref: 'src/server.ts',
      message: 'src/server.ts was renamed to src/http.ts (2026-02-01)',
      suggestion: { replace: 'src/http.ts' },
    }),
  ];
  const findings = [...r.findings, ...extra];
  const plan = decide({ files: r.files, entries: r.entries, evidence: r.evidence, config: r.config }, findings);
  await applyAudit({ ...r, findings, plan }, { root: repo.dir, now: NOW, write: true });
  records = parseArchive(await repo.read('.memory-audit/archive.jsonl')).records;
  expect(await repo.read('CLAUDE.md')).toBe(`# Project

## Build

- Start the server from \`src/http.ts\`. [corrected 2026-03-10]
- Run tests with \`npm test\`.
`);
});
afterAll(cleanup);

describe('memory-audit restore', () => {
  test('restored, then again: one line per record left out; already back in place is not a failure', async () => {
    const del = rec('CLAUDE.md', 'delete');
    const first = await cli(['restore', del.id, '--repo', repo.dir], repo.dir);
    expect(first.stderr).toBe('restored CLAUDE.md:6\n');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('\n+- Currently working on issue #42, WIP.\n');

    const again = await cli(['restore', del.id, '--repo', repo.dir], repo.dir);
    expect(again).toEqual({ code: 0, stdout: '', stderr: `not restored CLAUDE.md:6 (${del.id}): already restored: the lines are back in place\n` });
  });

  test('an update whose corrected text was edited away: named with file, line and why; exit 1; the file is untouched', async () => {
    const upd = rec('CLAUDE.md', 'update');
    // A person reworded the corrected line after the prune.
    const edited = (await repo.read('CLAUDE.md')).replace('- Start the server from `src/http.ts`. [corrected 2026-03-10]', '- The server starts from `src/http.ts`.');
    await repo.write('CLAUDE.md', edited);
    const res = await cli(['restore', upd.id, '--repo', repo.dir], repo.dir);
    expect(res).toEqual({
      code: 1,
      stdout: '',
      stderr: `not restored CLAUDE.md:5 (${upd.id}): its corrected text is no longer in CLAUDE.md: edited since, or already restored\n`,
    });
    expect(await repo.read('CLAUDE.md')).toBe(edited);
    // By entry id: the same record, the same answer.
    const byEntry = await cli(['restore', upd.entryId, '--repo', repo.dir, '--dry-run'], repo.dir);
    expect(byEntry.code).toBe(1);
    expect(byEntry.stderr).toBe(`not restored CLAUDE.md:5 (${upd.id}): its corrected text is no longer in CLAUDE.md: edited since, or already restored\n`);
  });

  test('some records back, others not: exit 0, and the ones left out are still named', async () => {
    const topic = records.find((r) => r.file === '.claude/memory/debug.md' && r.fileDeleted)!;
    const index = records.find((r) => r.file === '.claude/memory/MEMORY.md' && r.kind === 'index-line')!;
    // A dry run says what would come back and writes nothing.
    const dry = await cli(['restore', topic.entryId, '--repo', repo.dir, '--dry-run'], repo.dir);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toBe('restored .claude/memory/debug.md:1\nrestored .claude/memory/MEMORY.md:3\n');
    expect(await repo.exists('.claude/memory/debug.md')).toBe(false);

    // Someone already wrote the topic file back by hand (same text); its index line is still gone.
    await repo.write('.claude/memory/debug.md', DEBUG);
    const res = await cli(['restore', topic.entryId, '--repo', repo.dir], repo.dir);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(
      'restored .claude/memory/MEMORY.md:3\n' +
        `not restored .claude/memory/debug.md:1 (${topic.id}): already restored: .claude/memory/debug.md is back in place\n`,
    );
    const sup = topic.entryId.slice(2);
    expect(await repo.read('.claude/memory/MEMORY.md')).toBe(
      MEMORY + `- [superseded-${sup}](superseded-${sup}.md) — Counter-memory preventing re-derivation of debugging the login timeout\n`,
    );
    expect(index.line).toBe(3);

    // The topic file present with other content is not overwritten, and says so.
    await repo.write('.claude/memory/debug.md', 'Rewritten by hand.\n');
    const other = await cli(['restore', topic.id, '--repo', repo.dir], repo.dir);
    expect(other.code).toBe(1);
    expect(other.stderr).toBe(
      `not restored .claude/memory/debug.md:1 (${topic.id}): .claude/memory/debug.md exists again with other content; not overwritten\n` +
        `not restored .claude/memory/MEMORY.md:3 (${index.id}): already restored: the lines are back in place\n`,
    );
    expect(await repo.read('.claude/memory/debug.md')).toBe('Rewritten by hand.\n');
  });

  test('an update whose corrected line the same prune then removed (a merge): says which record to restore first', async () => {
    const r2 = await makeRepo({ 'CLAUDE.md': '# Sync\n\n- It needs `DB_URL`.\n' });
    const base = { date: '2026-03-10', rule: 4, reason: 'test', headings: ['Sync'], file: 'CLAUDE.md' };
    const archive = [
      { ...base, id: 'a_00000001', entryId: 'e_00000001', action: 'update', line: 3, endLine: 3, kind: 'item', text: '- Sync with `npm run legacy:sync`.', replacement: '- Sync with `npm run e2e`. [corrected 2026-03-10]' },
      { ...base, id: 'a_00000002', entryId: 'e_00000002', action: 'merge', line: 3, endLine: 3, kind: 'item', text: '- Sync with `npm run e2e`. [corrected 2026-03-10]', lines: '- Sync with `npm run e2e`. [corrected 2026-03-10]\n', prevLine: '' },
    ];
    await r2.write('.memory-audit/archive.jsonl', archive.map((x) => JSON.stringify(x) + '\n').join(''));
    const res = await cli(['restore', 'a_00000001', '--repo', r2.dir], r2.dir);
    expect(res).toEqual({
      code: 1,
      stdout: '',
      stderr: 'not restored CLAUDE.md:3 (a_00000001): its corrected text is no longer in CLAUDE.md: the same prune then removed it (a_00000002, merge); restore a_00000002 first\n',
    });
    // In that order both come back.
    expect((await cli(['restore', 'a_00000002', '--repo', r2.dir], r2.dir)).stderr).toBe('restored CLAUDE.md:3\n');
    expect((await cli(['restore', 'a_00000001', '--repo', r2.dir], r2.dir)).stderr).toBe('restored CLAUDE.md:3\n');
    expect(await r2.read('CLAUDE.md')).toBe('# Sync\n\n- Sync with `npm run legacy:sync`.\n- It needs `DB_URL`.\n');
  });

  test('an unknown id stays a usage-level error (exit 2)', async () => {
    const res = await cli(['restore', 'e_00000000', '--repo', repo.dir], repo.dir);
    expect(res).toEqual({
      code: 2,
      stdout: '',
      stderr: 'memory-audit: e_00000000 is not in .memory-audit/archive.jsonl (give an entry id e_… or an archive record id a_…)\n',
    });
  });
});
