// The text helpers of the decision tree take fast paths (no RegExp built per call, no rewrite of
// clean lines). They must answer exactly as the regular expressions they replace, including on
// the characters where ASCII and Unicode case folding differ.
import { describe, expect, test } from 'vitest';
import { _internal } from '../../src/policy/decide.js';

const { stillNamed, oneLine } = _internal;

/** The definition `stillNamed` must keep. */
function stillNamedByRegex(text: string, old: string, replacement: string): boolean {
  const without = replacement ? text.split(replacement).join(' ') : text;
  const esc = old.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^A-Za-z0-9_-])${esc}(?:$|[^A-Za-z0-9_])`, 'i').test(without);
}

/** The definition `oneLine` must keep. */
function oneLineByRegex(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim().replace(/[.;:,]+$/, '');
  return t.length > 140 ? t.slice(0, 139) + '…' : t;
}

/** A small deterministic generator (no flaky random inputs). */
function generator(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

describe('stillNamed', () => {
  test('names as words and path segments, case-insensitively', () => {
    expect(stillNamed('see src/Old.ts for details', 'old.ts', '')).toBe(true);
    expect(stillNamed('see src/bold.ts for details', 'old.ts', '')).toBe(false);
    expect(stillNamed('the pre-old.ts file', 'old.ts', '')).toBe(false); // '-' before: part of a name
    expect(stillNamed('old.ts-x', 'old.ts', '')).toBe(true); // '-' after is a boundary
    expect(stillNamed('use new.ts (was old.ts)', 'old.ts', 'new.ts')).toBe(true);
    expect(stillNamed('use new.ts', 'old', 'new.ts')).toBe(false);
  });

  test('non-ASCII letters never match ASCII ones (Kelvin sign, long s, dotted I)', () => {
    for (const [text, old] of [
      ['\u212Aey', 'key'],
      ['\u017Fecret', 'secret'],
      ['\u0130ndex', 'index'],
      ['x \u0130 index', 'index'],
      ['café', 'CAFÉ'],
    ]) {
      expect(stillNamed(text, old, '')).toBe(stillNamedByRegex(text, old, ''));
    }
  });

  test('agrees with the regex on generated inputs', () => {
    const alphabet = ['a', 'A', 'b', 'B', '-', '_', '/', '.', ' ', '\n', '1', 'ſ', 'K', '\u212A', 'İ', 'ı', 'k', 'é', '(', '$'];
    const rnd = generator(42);
    const str = (n: number) => Array.from({ length: n }, () => alphabet[rnd(alphabet.length)]).join('');
    for (let i = 0; i < 20_000; i++) {
      const text = str(rnd(14));
      const old = str(1 + rnd(3));
      const replacement = rnd(3) === 0 ? str(rnd(3)) : '';
      expect(stillNamed(text, old, replacement), JSON.stringify({ text, old, replacement })).toBe(
        stillNamedByRegex(text, old, replacement),
      );
    }
  });
});

describe('oneLine', () => {
  test('agrees with the regex on generated inputs', () => {
    const alphabet = ['a', 'x', ' ', ' ', '\n', '\t', '.', ';', ',', ':', '\u00A0', '\u2028', '\uFEFF', 'é', '\x7F'];
    const rnd = generator(7);
    for (let i = 0; i < 20_000; i++) {
      const n = rnd(3) === 0 ? 130 + rnd(30) : rnd(12);
      const s = Array.from({ length: n }, () => alphabet[rnd(alphabet.length)]).join('');
      expect(oneLine(s), JSON.stringify(s)).toBe(oneLineByRegex(s));
    }
  });
});
