// The hand-written text views of the fidelity checks, pinned against the regular expressions
// they replace: random and adversarial texts must give exactly the same string.
import { describe, expect, it } from 'vitest';
import { blank, blankInlineCode, frontmatterBlanked } from '../../src/checks/fidelity/text.js';
import type { Entry } from '../../src/types.js';
import { rng } from '../rng.js';

/** Reference: inline code blanked the way the checks always did it. */
function naiveInlineCode(text: string): string {
  return text.replace(/(`+)[^`\n]*?\1/g, (m) => blank(m));
}

/** A random text over `alphabet`, with runs of the same character (backtick runs matter). */
function randomText(next: () => number, alphabet: string[], max: number): string {
  let s = '';
  const n = Math.floor(next() * max);
  while (s.length < n) s += alphabet[Math.floor(next() * alphabet.length)].repeat(1 + Math.floor(next() * next() * 5));
  return s;
}

describe('blankInlineCode', () => {
  it('blanks like the regular expression on adversarial texts', () => {
    const cases = [
      '', 'no code', '`', '``', '```', '````', '`````', '`a`', '``a``', '``a`', '`a``', '```a``', '`a\nb`', '``\n``', 'a ` b',
      'x `one` y `two` z', '`a` `b', '``a`b``', '```a``b```', '` `', '`\r`', '`é`', '`\u2028`', 'end `', '`` `` ``', '`a`` b`',
    ];
    for (const text of cases) expect(blankInlineCode(text), JSON.stringify(text)).toBe(naiveInlineCode(text));
  });

  it('blanks like the regular expression on random texts', () => {
    const next = rng(11);
    const alphabet = ['`', '`', 'a', ' ', '\n', '\r', 'é', '\u{1F600}'];
    for (let k = 0; k < 20_000; k++) {
      const text = randomText(next, alphabet, 40);
      expect(blankInlineCode(text), JSON.stringify(text)).toBe(naiveInlineCode(text));
    }
  });

  it('returns the text itself when there is no backtick', () => {
    const text = 'plain prose, no code';
    expect(blankInlineCode(text)).toBe(text);
  });
});

/** Reference: the frontmatter blanked, then each kept value written back in turn. */
function naiveFrontmatterBlanked(entry: Entry, keepDescription: boolean): string {
  let t = entry.text;
  if (!(t.startsWith('---') || t.startsWith('\uFEFF---'))) return t;
  const fm = /^(?:\uFEFF)?---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(t);
  if (fm && fm.index === 0) {
    t = blank(fm[0]) + t.slice(fm[0].length);
    const keep = (value: string | undefined) => {
      if (!value) return;
      const i = fm[0].indexOf(value);
      if (i >= 0) t = t.slice(0, i) + value + t.slice(i + value.length);
    };
    if (keepDescription) keep(entry.meta?.description);
    const content = /^content:[ \t]*(.+)$/m.exec(fm[0]);
    if (content) keep(content[1].replace(/^["']|["']$/g, ''));
  }
  return t;
}

describe('frontmatterBlanked', () => {
  const entry = (text: string, description?: string) => ({ text, meta: description === undefined ? {} : { description } }) as unknown as Entry;

  it('keeps the description and content values like the reference', () => {
    const next = rng(12);
    const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)];
    const words = ['a', 'ab', 'b a', 'x', '"q"', "'q", 'content', 'description: a', ''];
    for (let k = 0; k < 20_000; k++) {
      const eol = pick(['\n', '\r\n']);
      const lines = Array.from({ length: Math.floor(next() * 5) }, () =>
        pick(['description: ', 'content: ', 'content:', ' content: ', 'name: ', '']) + pick(words) + (next() < 0.3 ? pick(words) : ''),
      );
      const open = pick(['---', '\uFEFF---', '--- ', '--']);
      const close = pick(['---', '...', '--- ', '']);
      const text = `${open}${eol}${lines.join(eol)}${eol}${close}${pick([eol, ''])}${pick(words)} body ${pick(words)}`;
      const description = pick([undefined, '', ...words, lines[0]?.slice(13)]);
      for (const keepDescription of [true, false])
        expect(frontmatterBlanked(entry(text, description), keepDescription), JSON.stringify([text, description])).toBe(
          naiveFrontmatterBlanked(entry(text, description), keepDescription),
        );
    }
  });

  it('returns the text itself without frontmatter', () => {
    const text = 'no frontmatter here';
    expect(frontmatterBlanked(entry(text, 'here'), true)).toBe(text);
  });
});
