import { describe, expect, test } from 'vitest';
import { deleteEntryEdit, replaceRangeEdit, spliceEdits, verifyEdits } from '../../src/memory/edit.js';
import { parseMemoryText } from '../../src/memory/parse.js';
import type { MemoryFormat } from '../../src/types.js';

function del(text: string, which: (t: string) => boolean, format: MemoryFormat = 'claude-md') {
  const { file, entries } = parseMemoryText('CLAUDE.md', text, format, { skipTokens: true });
  const targets = entries.filter((e) => which(e.text));
  expect(targets.length).toBeGreaterThan(0);
  const after = spliceEdits(text, targets.map((e) => deleteEntryEdit(file, e)));
  const v = verifyEdits(file, after, { removedIds: targets.map((e) => e.id) });
  expect(v).toEqual({ ok: true, problems: [] });
  return after;
}

describe('deleteEntryEdit + spliceEdits, byte-exact', () => {
  const cases: Array<[string, string, string, string]> = [
    ['middle paragraph', 'para A\n\npara B\n\npara C\n', 'para B', 'para A\n\npara C\n'],
    ['last paragraph', 'para A\n\npara B\n', 'para B', 'para A\n'],
    ['first paragraph', 'para A\n\npara B\n', 'para A', 'para B\n'],
    ['no final newline', 'A\n\nB', 'B', 'A'],
    ['tight list item', '- a\n- b\n- c\n', '- b', '- a\n- c\n'],
    ['item with nested sub-items', '- a\n  - sub\n  - sub2\n- b\n', '- a\n  - sub\n  - sub2', '- b\n'],
    ['CRLF list item', '- a\r\n- b\r\n- c\r\n', '- b', '- a\r\n- c\r\n'],
    ['CRLF last item, no final newline', '# H\r\n\r\n- a\r\n- b', '- b', '# H\r\n\r\n- a'],
    ['CRLF paragraph between blank lines', 'A\r\n\r\nB\r\n\r\nC\r\n', 'B', 'A\r\n\r\nC\r\n'],
    ['loose list item', '- a\n\n- b\n\n- c\n', '- b', '- a\n\n- c\n'],
    ['table row', '| a | b |\n| - | - |\n| 1 | 2 |\n| 3 | 4 |\n', '| 1 | 2 |', '| a | b |\n| - | - |\n| 3 | 4 |\n'],
    ['code block', 'Intro\n\n```sh\nnpm test\n```\n\nOutro\n', '```sh\nnpm test\n```', 'Intro\n\nOutro\n'],
    ['item under a heading, heading stays', '# H\n\n- only\n\n## Next\n', '- only', '# H\n\n## Next\n'],
  ];
  for (const [name, before, target, after] of cases) {
    test(name, () => {
      expect(del(before, (t) => t === target)).toBe(after);
    });
  }

  test('several deletions in one splice, with a protected neighbour untouched', () => {
    const before = '# Rules\n\n- one\n<!-- PROTECTED -->\n- keep me\n- two\n- three\n';
    const after = del(before, (t) => t === '- one' || t === '- three');
    expect(after).toBe('# Rules\n\n<!-- PROTECTED -->\n- keep me\n- two\n');
  });

  test('a topic entry deletes the whole text', () => {
    const t = '---\nname: x\n---\nbody\n';
    const { file, entries } = parseMemoryText('m/x.md', t, 'auto-memory-topic', { skipTokens: true });
    expect(deleteEntryEdit(file, entries[0])).toEqual({ start: 0, end: t.length, text: '' });
  });
});

describe('spliceEdits', () => {
  test('replaces ranges in any order; everything else is byte-identical', () => {
    const t = 'Use `src/auth.ts` and `src/db.ts`.\r\n';
    const a = t.indexOf('src/auth.ts');
    const b = t.indexOf('src/db.ts');
    const out = spliceEdits(t, [replaceRangeEdit(b, b + 9, 'lib/db.ts'), replaceRangeEdit(a, a + 11, 'src/session.ts')]);
    expect(out).toBe('Use `src/session.ts` and `lib/db.ts`.\r\n');
    expect(spliceEdits(t, [])).toBe(t);
    expect(spliceEdits('ab', [{ start: 1, end: 1, text: 'X' }, { start: 1, end: 1, text: 'Y' }])).toBe('aXYb');
  });

  test('throws on overlap and out-of-range edits', () => {
    expect(() => spliceEdits('abcdef', [{ start: 0, end: 3, text: '' }, { start: 2, end: 4, text: '' }])).toThrow(
      'edits overlap at offset 2 (previous edit ends at 3)',
    );
    expect(() => spliceEdits('abc', [{ start: 2, end: 9, text: '' }])).toThrow('edit [2, 9) is out of range for a text of 3 characters');
  });
});

describe('verifyEdits', () => {
  const text = '- alpha\n- beta\n<!-- PROTECTED -->\n- gamma\n';
  const { file, entries } = parseMemoryText('CLAUDE.md', text, 'claude-md', { skipTokens: true });
  const [alpha, beta, gamma] = entries;

  test('a planned change passes; an unplanned change is caught', () => {
    const changed = spliceEdits(text, [replaceRangeEdit(beta.start + 2, beta.end, 'BETA')]);
    expect(verifyEdits(file, changed, { changedIds: [beta.id] })).toEqual({ ok: true, problems: [] });
    expect(verifyEdits(file, changed, {})).toEqual({
      ok: false,
      problems: [`entry ${beta.id} (line 2) was not planned to change but is no longer present byte-identical`],
    });
  });

  test('a planned removal that did not happen, a protected entry in the plan, an unknown id', () => {
    const r = verifyEdits(file, text, { removedIds: [alpha.id, gamma.id, 'e_00000000'] });
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([
      'planned entry e_00000000 is not in CLAUDE.md',
      `protected entry ${gamma.id} (line 4) was planned to be removed`,
      `entry ${alpha.id} (line 1) was planned to be removed but is still present`,
      `entry ${gamma.id} (line 4) was planned to be removed but is still present`,
    ]);
  });

  test('removing one of two identical entries keeps the other', () => {
    const t = '- same\n- other\n- same\n';
    const p = parseMemoryText('CLAUDE.md', t, 'claude-md', { skipTokens: true });
    const second = p.entries[2];
    const after = spliceEdits(t, [deleteEntryEdit(p.file, second)]);
    expect(after).toBe('- same\n- other\n');
    expect(verifyEdits(p.file, after, { removedIds: [second.id] })).toEqual({ ok: true, problems: [] });
  });

  test('an edit that breaks the frontmatter is reported', () => {
    const t = '---\nname: x\n---\n- a\n';
    const p = parseMemoryText('CLAUDE.md', t, 'claude-md', { skipTokens: true });
    const broken = spliceEdits(t, [replaceRangeEdit(4, 11, 'name: [x')]);
    const r = verifyEdits(p.file, broken, {});
    expect(r.ok).toBe(false);
    expect(r.problems[0]).toMatch(/^the edit introduced a problem: CLAUDE\.md:2: invalid YAML frontmatter/);
  });
});
