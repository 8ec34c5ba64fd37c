// normaliseForId (the text behind entry ids) works on offsets for speed; it must give exactly
// what the plain regular-expression definition gives, or ids would change.
import { describe, expect, it } from 'vitest';
import { rng } from '../rng.js';
import { normaliseForId } from '../../src/memory/parse.js';

const reference = (text: string): string => text.replace(/^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/, '').replace(/\s+/g, ' ').trim();

const ATOMS = [
  ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u2028', '\u3000', '\ufeff', '\u200b', '\v', '\f',
  '-', '*', '+', '1', '12', '1234567890', '.', ')', 'a', 'word', '`code`', 'é', '日本', '🙂',
];

describe('normaliseForId', () => {
  it('equals the regular-expression definition (50,000 random texts)', () => {
    const r = rng(3);
    for (let i = 0; i < 50_000; i++) {
      let t = '';
      const n = Math.floor(r() * 10);
      for (let k = 0; k < n; k++) t += ATOMS[Math.floor(r() * ATOMS.length)];
      if (normaliseForId(t) !== reference(t)) throw new Error(`mismatch on ${JSON.stringify(t)}: ${JSON.stringify(normaliseForId(t))}`);
    }
  });
  it('strips list markers and collapses white space', () => {
    expect(normaliseForId('- Use `pnpm`  now\n  please ')).toBe('Use `pnpm` now please');
    expect(normaliseForId('12. item')).toBe('item');
    expect(normaliseForId('1234567890. item')).toBe('1234567890. item');
    expect(normaliseForId('-item')).toBe('-item');
    expect(normaliseForId('plain text')).toBe('plain text');
  });
});
