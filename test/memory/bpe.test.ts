import { describe, expect, it } from 'vitest';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { countTokensFast, warmTokenizer } from '../../src/memory/bpe.js';

const SAMPLES = [
  '',
  'a',
  'Use `pnpm test` to run the tests in packages/core. Never edit dist/ by hand.\n',
  '# Title\r\n\r\n- item one\r\n  continued `code` here\r\n',
  '日本語のテキストと emoji 🎉🚀 and accents: café, naïve, Ωmega ≠ ∑.',
  '    indented    whitespace\t\ttabs\n\n\n   \n',
  'https://example.com/path?query=1&x=%20 — em dash – en dash “quotes”',
  'const x = { a: 1, "b": [2, 3] }; // 1234567890 12345678901234567890',
  '<|endoftext|> special-looking tokens are plain text here <|fim_prefix|>',
  'supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopic',
  'x'.repeat(250),
  'lone \ud800 surrogate and \udc00 too',
  ' '.repeat(500) + 'a',
  '---\nname: foo\ntype: project\n---\n\nBody with [link](topic.md) and [[wiki]].\n',
];

describe('countTokensFast (cl100k_base)', () => {
  it('builds its rank table quickly', () => {
    const ms = warmTokenizer();
    // Generous bound for slow CI machines; js-tiktoken's own constructor takes ~350 ms here.
    expect(ms).toBeLessThan(250);
  });

  it('counts exactly like js-tiktoken', () => {
    const enc = new Tiktoken(cl100k);
    for (const s of SAMPLES) {
      expect(countTokensFast(s), JSON.stringify(s.slice(0, 40))).toBe(enc.encode(s, [], []).length);
    }
  });

  it('stays fast and close on pathological long pieces (sliced above 256 bytes)', () => {
    const enc = new Tiktoken(cl100k);
    for (const s of ['x'.repeat(3000), 'Supercalifragilistic'.repeat(200)]) {
      const exact = enc.encode(s, [], []).length;
      const fast = countTokensFast(s);
      expect(Math.abs(fast - exact) / exact).toBeLessThan(0.05);
    }
    const t0 = performance.now();
    expect(countTokensFast('a'.repeat(1_000_000))).toBeGreaterThan(0);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it('gives fixed counts for fixed text', () => {
    expect(countTokensFast('')).toBe(0);
    expect(countTokensFast('hello world')).toBe(2);
  });
});
