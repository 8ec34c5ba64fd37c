import { expect, test } from 'vitest';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import { fastBlocks } from '../../src/memory/fastblocks.js';
const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm).freeze();
const PIECES = [
  '---', '+++', '\n', '\r\n', '\r', ' ', '\t', '- ', '1. ', '> ', '# ', '```', '~~~', '|', '<!--', '-->', '<div>', '[', ']', '(', ')',
  '`', '*', '_', '\\', '&amp;', '&#0;', '\u0000', '\uFEFF', '\u2028', '🙂', 'name: x', 'type: [', ': ', '[x]: y', '[^1]', '![a](b)',
  'https://x.y', 'a@b.c', '[[wiki]]', '@import', 'text', '    ', '===', '***', '<!-- PROTECTED -->', '{{', '%', '\u000b', '\f', '\u00a0', '\u0085',
];
test('fastblocks on garbage', () => {
  let seed = Number(process.env.SEED ?? 1);
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  let acc = 0;
  for (let d = 0; d < 20000; d++) {
    let t = '';
    const n = Math.floor(rnd() * 30);
    for (let i = 0; i < n; i++) t += PIECES[Math.floor(rnd() * PIECES.length)];
    const f = fastBlocks(t);
    if (f) { acc++; expect(JSON.parse(JSON.stringify(f)), JSON.stringify(t)).toEqual(JSON.parse(JSON.stringify(processor.parse(t).children))); }
  }
  console.log('accepted', acc);
  const deep = '> '.repeat(2000) + 'deep\n' + '- '.repeat(2000) + 'x\n';
  expect(fastBlocks(deep)).toBeUndefined();
  const deep2 = Array.from({ length: 3000 }, (_, i) => ' '.repeat(2 * i) + '- x').join('\n') + '\n';
  const t0 = performance.now(); const r = fastBlocks(deep2); console.log('deep2', r === undefined ? 'declined' : 'accepted', (performance.now() - t0).toFixed(0), 'ms');
});
