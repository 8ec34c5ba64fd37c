// Restoring twice is not an error, for updates as for removals: when an update's corrected text is
// gone and its original text stands in its place, the second restore says "already restored" and
// exits 0 (README: restore exits 0 when the entry is "already back in place").
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { cli } from '../integration/helpers.js';
import { runPrune } from '../../src/commands/prune.js';
import { originalAt, runRestore } from '../../src/commands/restore.js';
import { parseArchive, type ArchiveRecord } from '../../src/apply/archive.js';
import { NOW, cleanup, config, makeRepo } from './helpers.js';

afterAll(cleanup);

const CLAUDE = '# CLAUDE.md\n\n- Server entry: `src/server/index.ts`.\n- Legacy importer: `src/legacy/import.ts`.\n';

describe('restore twice', () => {
  test('an update and a delete restored twice: both "already restored", exit 0, the file back to its original bytes', async () => {
    const repo = await makeRepo({ 'src/server/index.ts': 'x\n', 'src/legacy/import.ts': 'x\n', 'CLAUDE.md': CLAUDE });
    execFileSync('git', ['mv', 'src/server', 'src/http'], { cwd: repo.dir });
    execFileSync('git', ['rm', '-q', 'src/legacy/import.ts'], { cwd: repo.dir });
    await repo.commit('move server; drop importer', '2026-02-01');
    await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe('# CLAUDE.md\n\n- Server entry: `src/http/index.ts`. [corrected 2026-03-10]\n');
    const recs = parseArchive(await repo.read('.memory-audit/archive.jsonl')).records;
    const upd = recs.find((r) => r.action === 'update')!;
    const del = recs.find((r) => r.action === 'delete')!;

    expect(await cli(repo.dir, ['restore', upd.id, '--repo', repo.dir])).toMatchObject({ code: 0, stderr: 'restored CLAUDE.md:3\n' });
    expect(await cli(repo.dir, ['restore', upd.id, '--repo', repo.dir])).toEqual({
      code: 0,
      stdout: '',
      stderr: `not restored CLAUDE.md:3 (${upd.id}): already restored: the original text is back in place (line 3)\n`,
    });
    expect(await cli(repo.dir, ['restore', del.id, '--repo', repo.dir])).toMatchObject({ code: 0, stderr: 'restored CLAUDE.md:4\n' });
    expect(await cli(repo.dir, ['restore', del.id, '--repo', repo.dir])).toMatchObject({ code: 0 });
    // By entry id, after everything is back: the same answer.
    const byEntry = await runRestore({ root: repo.dir, id: upd.entryId, config: config(), write: false });
    expect(byEntry).toMatchObject({ restored: [], diff: '' });
    expect(byEntry.skipped).toEqual([{ id: upd.id, file: 'CLAUDE.md', line: 3, reason: 'already restored: the original text is back in place (line 3)' }]);
    expect(await repo.read('CLAUDE.md')).toBe(CLAUDE);
  });

  test('the corrected text edited away and the original not back: still exit 1 with the old reason', async () => {
    const repo = await makeRepo({ 'src/server/index.ts': 'x\n', 'CLAUDE.md': '# CLAUDE.md\n\n- Server entry: `src/server/index.ts`.\n' });
    execFileSync('git', ['mv', 'src/server', 'src/http'], { cwd: repo.dir });
    await repo.commit('move server', '2026-02-01');
    await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    const [upd] = parseArchive(await repo.read('.memory-audit/archive.jsonl')).records;
    await repo.write('CLAUDE.md', '# CLAUDE.md\n\n- The server starts in `src/http/index.ts`.\n');
    expect(await cli(repo.dir, ['restore', upd.id, '--repo', repo.dir])).toEqual({
      code: 1,
      stdout: '',
      stderr: `not restored CLAUDE.md:3 (${upd.id}): its corrected text is no longer in CLAUDE.md: edited since, or already restored\n`,
    });
  });
});

describe('originalAt', () => {
  const rec = (text: string, line: number) => ({ text, line }) as ArchiveRecord;
  test('whole lines only, nearest to the record line', () => {
    const cur = '# T\n\n- a `x`.\n\n> - a `x`.\n- a `x`. more\n';
    expect(originalAt(cur, rec('- a `x`.', 3))).toBe(3);
    expect(originalAt(cur, rec('- a `x`.', 6))).toBe(5);
    // Inside a longer line (text after it) or after other words: not the original in place.
    expect(originalAt('- b - a `x`.\n- a `x`. more\n', rec('- a `x`.', 1))).toBeUndefined();
    expect(originalAt('x\r\n- a\r\n', rec('- a', 2))).toBe(2);
  });
});
