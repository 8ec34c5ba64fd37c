// bpe.ts counts short ASCII pieces through a table keyed by the packed piece, other pieces
// through the string-keyed piece table. Both caches must give what counting each piece afresh
// gives: checked against the regular-expression path (no cache of either kind) and js-tiktoken,
// with enough distinct short pieces that the short table is cleared many times.
import { describe, expect, it } from 'vitest';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { rng } from '../rng.js';
import { countTokensFast, countTokensRegex } from '../../src/memory/bpe.js';

const ATOMS = [
  'a', 'ab', 'abc', 'abcd', 'abcde', 'helper', ' packages', 'abcdefgh', 'abcdefghi', 'Z', ' x', ' the', '-', '--', '\n', '\r\n', ' ', '  ', '\t', '.md', '`', '](', ')', ':', "'s", '1', '12', '123', '1234',
  '\u007f', '\u0000', 'é', 'aé', ' é', '日', '🎉', '\ud800', '—', ' —', '\u00a0', 'ſ', 'K',
];

/**
 * A random short word of ASCII letters, digits or punctuation: many distinct pieces of 1-10 units,
 * across the table's two key halves (units 0-3 and 4-7) and past its 8-unit limit.
 */
function shortWord(r: () => number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<=>?@[]^_{|}~';
  let w = '';
  const n = 1 + Math.floor(r() * 10);
  for (let k = 0; k < n; k++) w += alphabet[Math.floor(r() * alphabet.length)];
  return w;
}

describe('short-piece table', () => {
  it('counts like the uncached path on random text (20,000 texts)', () => {
    const r = rng(23);
    for (let i = 0; i < 20_000; i++) {
      let t = '';
      const n = 1 + Math.floor(r() * 16);
      for (let k = 0; k < n; k++) t += r() < 0.5 ? ATOMS[Math.floor(r() * ATOMS.length)] : (r() < 0.5 ? ' ' : '') + shortWord(r);
      const fast = countTokensFast(t);
      if (fast !== countTokensRegex(t)) throw new Error(`count mismatch on ${JSON.stringify(t)}: ${fast} vs ${countTokensRegex(t)}`);
    }
  });

  it('counts like js-tiktoken on texts of many distinct short pieces (the table is cleared meanwhile)', () => {
    const enc = new Tiktoken(cl100k);
    const r = rng(29);
    for (let i = 0; i < 40; i++) {
      const words: string[] = [];
      for (let k = 0; k < 2000; k++) words.push(shortWord(r));
      const t = words.join(r() < 0.5 ? ' ' : '\n');
      expect(countTokensFast(t)).toBe(enc.encode(t, [], []).length);
    }
  });
});
