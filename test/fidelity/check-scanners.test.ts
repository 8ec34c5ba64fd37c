// Hand-written scanners in the checks, pinned against the regular expressions they replace:
// contradiction's sentence splitter, broken-link's markdown-name scanner, and the ASCII
// pre-test of `namesSuccessor`. Random and adversarial texts from a seeded generator.
import { describe, expect, it } from 'vitest';
import { SENTENCE_RE, sentencesOf } from '../../src/checks/contradiction.js';
import { MD_NAME_RE, mdNames } from '../../src/checks/broken-link.js';
import { namesSuccessor } from '../../src/checks/stale-common.js';
import type { Entry, Reference } from '../../src/types.js';
import { rng } from '../rng.js';

function randomText(rnd: () => number, alphabet: string, max: number): string {
  return Array.from({ length: Math.floor(rnd() * max) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
}

function regexSentences(text: string): Array<[number, string]> {
  const re = new RegExp(SENTENCE_RE.source, 'g');
  const out: Array<[number, string]> = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    out.push([m.index, m[0]]);
  }
  return out;
}

describe('contradiction sentences', () => {
  it('splits like the expression on hand-picked texts', () => {
    for (const text of [
      '', '.', '. ', 'a', 'a.', 'a. b', 'a.b. c!', 'a.. b?! c', 'x;\ny', '\n\n', 'Use pnpm. Never npm!\n- v1.2.3 is out', 'a .\u00a0b', 'a.\u2028b',
      'end;', ' . ', '!!!', 'a!!! b', 'e.g. this', '...\n', 'a\r\nb', 'tab.\tx', 'feff.\ufeffx', 'a.\u200bb',
    ])
      expect(sentencesOf(text), JSON.stringify(text)).toEqual(regexSentences(text));
  });

  it('splits like the expression on random texts', () => {
    const rnd = rng(11);
    const alphabet = 'ab .!?;\n\r\t\u00a0\u2028\u3000\u200b1,';
    for (let n = 0; n < 5000; n++) {
      const text = randomText(rnd, alphabet, 40);
      expect(sentencesOf(text), JSON.stringify(text)).toEqual(regexSentences(text));
    }
  });
});

describe('broken-link markdown names', () => {
  function regexNames(text: string): string[] {
    return [...text.matchAll(new RegExp(MD_NAME_RE.source, 'g'))].map((m) => m[0]);
  }
  function scanned(text: string): string[] {
    const out: string[] = [];
    mdNames(text, (name) => out.push(name));
    return out;
  }

  it('finds the names the expression finds on hand-picked texts', () => {
    for (const text of [
      '', '.md', 'a.md', '- [Gauge](gauge-target-1.md) — ref', 'a.md.md', 'a.md/b.md', 'a.md-x', 'a.mdx', 'a.mdx.md', 'x .md', '/.md', 'a.md_b.md',
      'see docs/a.md, b.MD and c.md.', 'a.md-b.md', '..md', 'a..md', '.md.md', 'é.md', 'a.md\u00e9', 'one.md two.md', 'a.md.', 'a.md-',
    ])
      expect(scanned(text), JSON.stringify(text)).toEqual(regexNames(text));
  });

  it('finds the names the expression finds on random texts', () => {
    const rnd = rng(12);
    const alphabet = 'md.a/-_ xé.md';
    for (let n = 0; n < 5000; n++) {
      const text = randomText(rnd, alphabet, 30);
      expect(scanned(text), JSON.stringify(text)).toEqual(regexNames(text));
    }
  });
});

describe('namesSuccessor pre-test', () => {
  /**
   * The expression alone, as `namesSuccessor` was before its pre-test (a one-word successor in
   * another letter case counts only inside an inline code span).
   */
  function reference(text: string, from: number, to: number, successor: string): boolean {
    const want = successor.trim();
    if (!want) return false;
    const esc = want.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const m of text.matchAll(new RegExp(`(?<![\\w@/.-])${esc}(?![\\w/-]|\\.\\w)`, 'gi'))) {
      const a = m.index ?? 0;
      if (a < to && a + m[0].length > from) continue;
      if (/^[A-Za-z]+$/.test(want) && m[0] !== want && (text.slice(text.lastIndexOf('\n', a - 1) + 1, a).split('`').length - 1) % 2 === 0) continue;
      return true;
    }
    return false;
  }

  it('counts a one-word successor in another letter case only in code: "the reader" is not `Reader`', () => {
    const text = '- `ReaderFeature` - the reader';
    expect(namesSuccessor(entryOf(text), refAt(3, 16), 'Reader')).toBe(false);
    expect(namesSuccessor(entryOf('- `ReaderFeature` - see `reader`'), refAt(3, 16), 'Reader')).toBe(true);
    expect(namesSuccessor(entryOf('- `ReaderFeature` - the Reader module'), refAt(3, 16), 'Reader')).toBe(true);
  });
  const entryOf = (text: string) => ({ text, start: 100 }) as unknown as Entry;
  const refAt = (from: number, to: number) => ({ start: 100 + from, end: 100 + to }) as unknown as Reference;

  it('answers like the expression alone', () => {
    const rnd = rng(13);
    const alphabet = 'abAB/.-@ `K\u212a\u017fsS\u0130i\u03c3\u03c2\u03a3k';
    for (let n = 0; n < 5000; n++) {
      const text = randomText(rnd, alphabet, 30);
      const want = rnd() < 0.5 && text.length > 2 ? text.slice(Math.floor(rnd() * text.length), Math.floor(rnd() * text.length) + 3) : randomText(rnd, alphabet, 4);
      const from = Math.floor(rnd() * text.length);
      const to = from + Math.floor(rnd() * 4);
      for (const w of [want, want.toUpperCase(), want.toLowerCase()])
        expect(namesSuccessor(entryOf(text), refAt(from, to), w), JSON.stringify([text, w])).toBe(reference(text, from, to, w));
    }
  });
});
