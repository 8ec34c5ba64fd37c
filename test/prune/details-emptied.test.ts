// A `<details>` block whose entries the prune all removed goes like an emptied section: its
// opening (tag + summary) and its `</details>` are archived and come back with its entries.
import { afterAll, describe, expect, test } from 'vitest';
import { applyAudit } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { audit } from '../../src/audit.js';
import { decide } from '../../src/policy/decide.js';
import type { Finding } from '../../src/types.js';
import { NOW, cleanup, config, entry, finding, makeRepo, type Repo } from './helpers.js';

afterAll(cleanup);

async function prune(repo: Repo, needles: string[]) {
  const a = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
  const findings: Finding[] = needles.map((n) => finding('ephemeral', entry(a, n)));
  const plan = decide({ ...a }, findings);
  const res = await applyAudit({ ...a, plan }, { root: repo.dir, now: NOW, write: true });
  return { a, res };
}

const records = async (repo: Repo) => parseArchive(await repo.read('.memory-audit/archive.jsonl')).records;

describe('an emptied <details> block', () => {
  const TEXT = [
    '# CLAUDE.md',
    '',
    '## Notes',
    '',
    '- Indent with two spaces.',
    '',
    '<details>',
    '<summary>Session notes</summary>',
    '',
    '- Currently working on the importer, WIP.',
    '',
    '</details>',
    '',
    '## Other',
    '',
    '- Tabs in Makefiles.',
    '',
  ].join('\n');

  test('loses its opening and closing blocks; restoring its entry brings all three back, byte for byte; twice changes nothing', async () => {
    const repo = await makeRepo({ 'CLAUDE.md': TEXT });
    const { a, res } = await prune(repo, ['Currently working']);
    expect(res.warnings).toEqual([]);
    expect(await repo.read('CLAUDE.md')).toBe('# CLAUDE.md\n\n## Notes\n\n- Indent with two spaces.\n\n## Other\n\n- Tabs in Makefiles.\n');
    const recs = await records(repo);
    const open = entry(a, '<summary>');
    const close = a.entries.find((e) => e.text === '</details>')!;
    expect(recs.map((r) => [r.kind, r.entryId, r.action, r.line, r.endLine, r.text])).toEqual([
      ['details', open.id, 'reintegrate', 7, 8, '<details>\n<summary>Session notes</summary>'],
      ['details-end', close.id, 'reintegrate', 12, 12, '</details>'],
      ['item', entry(a, 'Currently working').id, 'delete', 10, 10, '- Currently working on the importer, WIP.'],
    ]);
    expect(recs[0].group).toEqual([recs[2].entryId]);
    expect(recs[0].reason).toBe('<details> block left without content');
    const item = recs[2];
    const r1 = await runRestore({ root: repo.dir, id: item.entryId, config: config() });
    expect(r1.restored).toEqual([
      { file: 'CLAUDE.md', line: 7 },
      { file: 'CLAUDE.md', line: 10 },
      { file: 'CLAUDE.md', line: 12 },
    ]);
    expect(await repo.read('CLAUDE.md')).toBe(TEXT);
    const r2 = await runRestore({ root: repo.dir, id: item.entryId, config: config() });
    expect(r2.restored).toEqual([]);
    expect(r2.skipped.map((s) => s.reason)).toEqual(Array(3).fill('already restored: the lines are back in place'));
    expect(await repo.read('CLAUDE.md')).toBe(TEXT);
  });

  test('a section holding nothing but the emptied block loses its heading too; restore brings everything back', async () => {
    const text = '# CLAUDE.md\n\n## Notes\n\n- Keep.\n\n## Session\n\n<details><summary>Notes</summary>\n\n- Right now I am debugging the login.\n\n</details>\n';
    const repo = await makeRepo({ 'CLAUDE.md': text });
    await prune(repo, ['Right now']);
    expect(await repo.read('CLAUDE.md')).toBe('# CLAUDE.md\n\n## Notes\n\n- Keep.\n');
    const recs = await records(repo);
    expect(recs.map((r) => r.kind)).toEqual(['heading', 'details', 'details-end', 'item']);
    await runRestore({ root: repo.dir, id: recs[3].entryId, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe(text);
  });

  test('nested: the inner block emptied empties the outer one; an entry left inside keeps the block', async () => {
    const nested =
      '# P\n\n<details>\n<summary>Outer</summary>\n\n<details>\n<summary>Inner</summary>\n\n- Currently on it, WIP.\n\n</details>\n\n</details>\n\n- Keep.\n';
    const repo = await makeRepo({ 'CLAUDE.md': nested });
    await prune(repo, ['Currently on it']);
    expect(await repo.read('CLAUDE.md')).toBe('# P\n\n- Keep.\n');
    const recs = await records(repo);
    for (const r of [...recs].reverse()) await runRestore({ root: repo.dir, id: r.id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe(nested);

    const kept = '# P\n\n<details>\n<summary>S</summary>\n\n- Currently on it, WIP.\n- Tabs in Makefiles.\n\n</details>\n';
    const repo2 = await makeRepo({ 'CLAUDE.md': kept });
    await prune(repo2, ['Currently on it']);
    expect(await repo2.read('CLAUDE.md')).toBe('# P\n\n<details>\n<summary>S</summary>\n\n- Tabs in Makefiles.\n\n</details>\n');
  });

  test('not taken: an opening block with more than a summary, a protected opening', async () => {
    const cases = [
      '# P\n\n<details>\n<summary>S</summary>\n<p>Intro kept.</p>\n\n- Currently on it, WIP.\n\n</details>\n',
      '# P\n\n<!-- PROTECTED -->\n<details>\n<summary>S</summary>\n\n- Currently on it, WIP.\n\n</details>\n',
    ];
    for (const text of cases) {
      const repo = await makeRepo({ 'CLAUDE.md': text });
      await prune(repo, ['Currently on it']);
      expect(await repo.read('CLAUDE.md')).toBe(text.replace('- Currently on it, WIP.\n\n', ''));
    }
  });
});
