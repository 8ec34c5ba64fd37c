// Bad or strange input never throws: whatever the text, parsing returns entries and findings.
import { expect, test } from 'vitest';
import { parseMemoryText } from '../../src/memory/parse.js';
import type { MemoryFormat } from '../../src/types.js';

const PIECES = [
  '---', '+++', '\n', '\r\n', '\r', ' ', '\t', '- ', '1. ', '> ', '# ', '```', '~~~', '|', '<!--', '-->', '<div>', '[', ']', '(', ')',
  '`', '*', '_', '\\', '&amp;', '&#0;', '\u0000', '\uFEFF', '\u2028', '🙂', 'name: x', 'type: [', ': ', '[x]: y', '[^1]', '![a](b)',
  'https://x.y', 'a@b.c', '[[wiki]]', '@import', 'text', '    ', '===', '***', '<!-- PROTECTED -->', '{{', '%',
];
const FORMATS: MemoryFormat[] = ['claude-md', 'auto-memory-index', 'auto-memory-topic', 'cursor-rule', 'other'];

test('random garbage never throws and entries stay within the text', () => {
  let seed = 1;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let d = 0; d < 100; d++) {
    let t = '';
    const n = Math.floor(rnd() * 40);
    for (let i = 0; i < n; i++) t += PIECES[Math.floor(rnd() * PIECES.length)];
    for (const f of FORMATS) {
      const r = parseMemoryText('x.md', t, f, { skipTokens: true });
      for (const e of r.entries) {
        expect([e.start >= 0, e.end <= t.length, e.start <= e.end, e.line <= e.endLine], `${f} ${JSON.stringify(t)} ${JSON.stringify(e)}`).toEqual([true, true, true, true]);
        expect(t.slice(e.start, e.end)).toBe(e.text);
        for (const s of e.spans) expect(s.start >= 0 && s.end <= t.length && s.start <= s.end).toBe(true);
      }
    }
  }
});

test('deep nesting does not overflow', () => {
  const t = '> '.repeat(500) + 'deep\n' + '- '.repeat(500) + 'x\n';
  const r = parseMemoryText('CLAUDE.md', t, 'claude-md', { skipTokens: true });
  expect(r.entries.map((e) => [e.kind, e.line])).toEqual([
    ['quote', 1],
    ['item', 2],
  ]);
});
