// Prune, then restore every archived id, gives back the original bytes: also when the memory file
// ends without a final newline (bitwarden's `.claude/rules/database-ef.md` does) and its last
// entry is removed, in a CRLF file, for the only entry of a file, and for an entry in the middle.
// The archive's `lines` are the exact bytes removed (the last line of a file without a final
// newline has none), and restore adds a line ending only where a line follows the block.
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { NOW, cleanup, config, makeRepo } from './helpers.js';

afterAll(cleanup);

/** A repository whose `src/gone/*.ts` files existed, then were deleted: entries naming them are stale (delete, rule 4). */
async function repoWith(file: string, content: string) {
  const repo = await makeRepo({ 'src/gone/a.ts': 'x\n', 'src/gone/b.ts': 'x\n', 'src/kept.ts': 'x\n', [file]: content });
  execFileSync('git', ['rm', '-q', '-r', 'src/gone'], { cwd: repo.dir });
  await repo.commit('drop src/gone', '2026-02-01');
  return repo;
}

/**
 * Prunes once (expecting `pruned` as the file's bytes), checks a second prune changes nothing, then
 * restores every archived id in `order` and expects the original bytes back; returns the records.
 */
async function roundTrip(file: string, content: string, pruned: string, order: 'newest-first' | 'oldest-first') {
  const repo = await repoWith(file, content);
  await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
  expect(await repo.read(file)).toBe(pruned);
  const again = await runPrune({ root: repo.dir, now: NOW, write: false, config: config() });
  expect(again.diff).toBe('');
  const records = parseArchive(await repo.read('.memory-audit/archive.jsonl')).records;
  const ids = records.map((r) => r.id);
  if (order === 'newest-first') ids.reverse();
  for (const id of ids) await runRestore({ root: repo.dir, id, config: config() });
  expect(await repo.read(file)).toBe(content);
  return records;
}

const ORDERS = ['newest-first', 'oldest-first'] as const;

// Each case builds its own repository: they run concurrently (git processes overlap).
describe.concurrent.each(ORDERS)('restore gives back the exact bytes (%s)', (order) => {
  test('the last paragraph of a rule file without a final newline (the bitwarden case)', async () => {
    const content =
      '---\npaths:\n  - "src/**"\n---\n\n# EF Core migrations\n\nUpdate the entity class first.\n\nTo regenerate one provider, edit `src/gone/a.ts`.';
    const records = await roundTrip('.claude/rules/database-ef.md', content, '---\npaths:\n  - "src/**"\n---\n\n# EF Core migrations\n\nUpdate the entity class first.\n', order);
    // The archive holds the exact bytes: the removed last line has no line ending.
    expect(records.map((r) => [r.action, r.lines])).toEqual([['delete', 'To regenerate one provider, edit `src/gone/a.ts`.']]);
  });

  test('the last two entries of a file without a final newline', async () => {
    const content = '# Notes\n\n- Keep `src/kept.ts` small.\n\nThe importer is `src/gone/a.ts`.\n\nThe exporter is `src/gone/b.ts`.';
    await roundTrip('CLAUDE.md', content, '# Notes\n\n- Keep `src/kept.ts` small.\n', order);
  });

  test('the last entry of a file with a final newline', async () => {
    const content = '# Notes\n\nKeep `src/kept.ts` small.\n\nThe importer is `src/gone/a.ts`.\n';
    await roundTrip('CLAUDE.md', content, '# Notes\n\nKeep `src/kept.ts` small.\n', order);
  });

  test('the last entry of a CRLF file without a final newline', async () => {
    const content = '# Notes\r\n\r\nKeep `src/kept.ts` small.\r\n\r\nThe importer is `src/gone/a.ts`.';
    await roundTrip('CLAUDE.md', content, '# Notes\r\n\r\nKeep `src/kept.ts` small.\r\n', order);
  });

  test('the last list item of a file without a final newline, no blank line before it', async () => {
    const content = '# Notes\n\n- Keep `src/kept.ts` small.\n- The importer is `src/gone/a.ts`.';
    await roundTrip('CLAUDE.md', content, '# Notes\n\n- Keep `src/kept.ts` small.\n', order);
  });

  test('the only entry of a file, without a final newline', async () => {
    await roundTrip('AGENTS.md', 'The importer is `src/gone/a.ts`.', '', order);
  });

  test('the only entry of a CRLF file, two lines, without a final newline', async () => {
    await roundTrip('AGENTS.md', '- The importer is `src/gone/a.ts`.\r\n- The exporter is `src/gone/b.ts`.', '', order);
  });

  test('an entry in the middle of a file without a final newline', async () => {
    const content = '# Notes\n\nThe importer is `src/gone/a.ts`.\n\nKeep `src/kept.ts` small.';
    await roundTrip('CLAUDE.md', content, '# Notes\n\nKeep `src/kept.ts` small.', order);
  });

  test('an entry in the middle, between runs of two blank lines', async () => {
    const content = '# Notes\n\nKeep `src/kept.ts` small.\n\n\nThe importer is `src/gone/a.ts`.\n\n\nAlso keep `src/kept.ts` tidy.\n';
    await roundTrip('CLAUDE.md', content, '# Notes\n\nKeep `src/kept.ts` small.\n\n\nAlso keep `src/kept.ts` tidy.\n', order);
  });

  test('the first paragraph after the frontmatter of a rule without a final newline: back at the top of the body', async () => {
    const content = '---\ndescription: x\n---\n\nThe importer is `src/gone/a.ts`.\n\nKeep `src/kept.ts` small.';
    const records = await roundTrip('.cursor/rules/a.mdc', content, '---\ndescription: x\n---\n\nKeep `src/kept.ts` small.', order);
    // The frontmatter's `---` is no anchor: restore puts the block first in the body.
    expect(records[0].prevLine).toBeUndefined();
    expect(records[0]).toMatchObject({ gapBefore: '\n', gapAfter: '\n', blankAfter: true });
  });

  test('whitespace-only blank lines and trailing blank lines at the end of the file', async () => {
    const content = '# Notes\n\nKeep `src/kept.ts` small.\n  \nThe importer is `src/gone/a.ts`.\n\t\n\n';
    const records = await roundTrip('CLAUDE.md', content, '# Notes\n\nKeep `src/kept.ts` small.\n', order);
    expect(records[0]).toMatchObject({ lines: 'The importer is `src/gone/a.ts`.\n', gapBefore: '  \n', gapAfter: '\t\n\n', last: true });
  });

  test('a section emptied at the end of a file without a final newline: heading and entry back', async () => {
    const content = '# Notes\n\n## Keep\n\nKeep `src/kept.ts` small.\n\n## Legacy\n\nThe importer is `src/gone/a.ts`.';
    await roundTrip('CLAUDE.md', content, '# Notes\n\n## Keep\n\nKeep `src/kept.ts` small.\n', order);
  });

  test('an update and a removal of the last entry in a file without a final newline', async () => {
    const repo = await repoWith('CLAUDE.md', '');
    execFileSync('git', ['mv', 'src/kept.ts', 'src/moved.ts'], { cwd: repo.dir });
    await repo.commit('move kept', '2026-02-02');
    const content = '# Notes\n\nKeep `src/kept.ts` small.\n\nThe importer is `src/gone/a.ts`.';
    await repo.write('CLAUDE.md', content);
    await repo.commit('memory', '2026-02-03');
    await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe('# Notes\n\nKeep `src/moved.ts` small. [corrected 2026-03-10]\n');
    expect((await runPrune({ root: repo.dir, now: NOW, write: false, config: config() })).diff).toBe('');
    const ids = parseArchive(await repo.read('.memory-audit/archive.jsonl')).records.map((r) => r.id);
    if (order === 'newest-first') ids.reverse();
    for (const id of ids) await runRestore({ root: repo.dir, id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe(content);
  });

  test('every section emptied, nothing kept before them: the sections come back in their order', async () => {
    const content = '## One\n\n- The importer is `src/gone/a.ts`.\n## Two\n\n- The exporter is `src/gone/b.ts`.\n## Three\n\n- Also `src/gone/a.ts`.';
    await roundTrip('CLAUDE.md', content, '', order);
  });
});
