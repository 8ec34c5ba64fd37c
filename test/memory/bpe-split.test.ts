// Differential test of bpe.ts's hand-written pre-tokenizer against cl100k's split pattern
// (the regular expression js-tiktoken uses): the same pieces on random text.
import { describe, expect, it } from 'vitest';
import { rng } from '../rng.js';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { countTokensFast, splitPieces, splitPiecesRegex } from '../../src/memory/bpe.js';

const ATOMS = [
  'a', 'Z', 'word', 'The', ' ', '  ', '   ', '\t', '\n', '\r\n', '\r', '\n\n', ' \n', '\u000b', '\f', "'", "'s", "'S", "'re", "'Ve", "'LL", "'d", "'m", "'t", "'x",
  '1', '12', '1234', '0.5', '-', '--', '`', '**', '(', ')', '.', ',', ';', '#', '/', '\\', '"', '-x', '_', '@', '\u0000', '\u001f', '\u007f',
  'é', 'café', 'Ω', '日本', '²', '٣', '\u00a0', '\u2028', '\u3000', '\u0085', '🎉', '🚀x', '\ud800', '\udc00', '\u0301', 'ſ', 'K', '—', '–', '“', '\ufeff',
];

describe('pre-tokenizer', () => {
  it('splits exactly like the cl100k regular expression (20,000 random texts)', () => {
    const r = rng(11);
    for (let i = 0; i < 20_000; i++) {
      const n = 1 + Math.floor(r() * 12);
      let t = '';
      for (let k = 0; k < n; k++) t += ATOMS[Math.floor(r() * ATOMS.length)];
      const a = splitPieces(t);
      const b = splitPiecesRegex(t);
      if (a.join('\u0001') !== b.join('\u0001') || a.length !== b.length) {
        throw new Error(`split mismatch on ${JSON.stringify(t)}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      }
    }
  });

  it('counts like js-tiktoken on memory-shaped text', () => {
    const enc = new Tiktoken(cl100k);
    const texts = [
      '# Memory index\n\n- [Gauge Target](gauge-target-1.md) — folder palette reference\n',
      "---\nname: a-b-1\ndescription: Static listener\ntype: project\n---\n\nDon't run `npm run build:prod` twice; it's 3x slower (see #1234).\r\n",
      '  - nested\n    ```sh\n    pnpm --filter web test\n    ```\n\n\n   trailing   \n',
      "Unicode: naïve façade, 日本語, emoji 🎉🚀, nbsp\u00a0here, long s ſ's.",
    ];
    for (const t of texts) expect(countTokensFast(t), JSON.stringify(t)).toBe(enc.encode(t, [], []).length);
  });
});
