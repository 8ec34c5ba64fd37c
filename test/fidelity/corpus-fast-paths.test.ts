// The fast paths of the shared similarity corpus, pinned against plain reference implementations
// on random and adversarial inputs: the word scanner (one inner loop per run), the candidate
// search of `similarPairs` (MinHash four seeds at a time, containment pairs by counting sort),
// and the corpus's on-demand `norm`.
import { describe, expect, it } from 'vitest';
import { corpusOf } from '../../src/checks/fidelity/corpus.js';
import { HashSets, hashWord, similarPairs, type SimilarPair } from '../../src/checks/fidelity/similarity.js';
import { comparableEntry } from '../../src/checks/fidelity/corpus.js';
import { contentWords, normaliseSource, scanWords, textsOf, Words, wordStrings } from '../../src/checks/fidelity/text.js';
import { rng } from '../rng.js';
import { parseFiles } from './helpers.js';

/** Reference: the character-by-character word scanner `scanWords` replaced (same definition of a word). */
function referenceScan(t: string): Array<[start: number, end: number, hash: number]> {
  const wordChar = (c: number) => (c < 128 ? /[a-z0-9@./:+#-]/.test(String.fromCharCode(c)) : /^[\p{L}\p{N}]$/u.test(String.fromCodePoint(c)));
  const out: Array<[number, number, number]> = [];
  let start = -1;
  let keptEnd = 0;
  let content = false;
  for (let i = 0; i <= t.length; ) {
    let c = i < t.length ? t.charCodeAt(i) : 32;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < t.length) {
      const lo = t.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        c = (c - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    if (wordChar(c)) {
      if (start < 0) {
        start = keptEnd = i;
        content = false;
      }
      if (c !== 46 && c !== 58) {
        keptEnd = i + width;
        if (!'/+#@-'.includes(String.fromCharCode(c)) || c >= 128) content = true;
      }
    } else if (start >= 0) {
      if (content) out.push([start, keptEnd, hashWord(t.slice(start, keptEnd))]);
      start = -1;
    }
    i += width;
  }
  return out;
}

/** Random texts over an alphabet that hits every branch: separators, `. :` ends, lone and paired surrogates, non-ASCII letters, digits and marks. */
function randomText(next: () => number, length: number): string {
  const pieces = ['a', 'z', '0', '9', '.', ':', '/', '+', '#', '@', '-', ' ', '\n', '_', ',', '`', 'é', 'Σ', 'ß', '日', '٣', '\u0301', '—', '\u00a0', '😀', '𝟘', '\ud835', '\udfd8', '\ud800', '\udfff', 'v1.2.3', '...', 'a.b:'];
  let s = '';
  for (let k = 0; k < length; k++) s += pieces[Math.floor(next() * pieces.length)];
  return s;
}

describe('scanWords', () => {
  it('finds the words (offsets and hashes) of the reference scanner on random texts', () => {
    const next = rng(11);
    const w = new Words();
    for (let n = 0; n < 3000; n++) {
      const t = randomText(next, Math.floor(next() * 40));
      scanWords(t, w);
      const got = Array.from({ length: w.count }, (_, k) => [w.start[k], w.end[k], w.hash[k]]);
      expect(got, JSON.stringify(t)).toEqual(referenceScan(t));
    }
  });

  it('handles text edges: empty, separators only, a word at the very end, a lone high surrogate last', () => {
    const w = new Words();
    for (const t of ['', ' ', '...', 'a', 'end.', 'x\ud835', '\ud835', '\udfd8a', '𝟘', 'a😀b', '--a--', ':::b:::']) {
      scanWords(t, w);
      const got = Array.from({ length: w.count }, (_, k) => [w.start[k], w.end[k], w.hash[k]]);
      expect(got, JSON.stringify(t)).toEqual(referenceScan(t));
    }
  });

  it('gives wordStrings the same words on repeated and nested-length calls (shared scratch)', () => {
    const long = 'word '.repeat(2000);
    expect(wordStrings(long)).toHaveLength(2000);
    expect(wordStrings('a b')).toEqual(['a', 'b']);
    expect(wordStrings(long)).toHaveLength(2000);
  });
});

// Reference similarPairs: the same candidate search written plainly (a MinHash value per seed
// and element, buckets and postings in Maps, pairs sorted as strings of numbers), so the
// candidates, their order and their scores must match exactly.
function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}
const SEEDS = Array.from({ length: 32 }, (_, i) => mix(0x9e3779b9 + i * 0x632be5ab));

function referencePairs(sets: number[][], accept: (p: SimilarPair) => boolean, minShingles: number, lsh: boolean): SimilarPair[] {
  const seen = new Set<string>();
  const out: SimilarPair[] = [];
  const consider = (x: number, y: number) => {
    const [a, b] = x < y ? [x, y] : [y, x];
    if (a === b || seen.has(`${a},${b}`)) return;
    seen.add(`${a},${b}`);
    const A = new Set(sets[a]);
    const inter = sets[b].filter((v) => A.has(v)).length;
    const union = sets[a].length + sets[b].length - inter;
    const small = Math.min(sets[a].length, sets[b].length);
    const p = { a, b, jaccard: union ? inter / union : 0, containment: small ? inter / small : 0 };
    if (accept(p)) out.push(p);
  };
  const docs = sets.map((_, i) => i).filter((i) => sets[i].length >= minShingles);
  if (lsh) {
    const sigs = docs.map((d) => SEEDS.map((s) => Math.min(...sets[d].map((x) => mix(x ^ s)))));
    for (let band = 0; band < 8; band++) {
      const buckets = new Map<number, number[]>();
      docs.forEach((d, k) => {
        let key = 0x811c9dc5;
        for (let r = 0; r < 4; r++) key = mix(key ^ sigs[k][band * 4 + r]);
        buckets.set(key, [...(buckets.get(key) ?? []), d]);
      });
      for (const key of [...buckets.keys()].sort((p, q) => p - q)) {
        const ds = buckets.get(key)!;
        if (ds.length >= 2 && ds.length <= 64) for (let p = 0; p < ds.length; p++) for (let q = p + 1; q < ds.length; q++) consider(ds[p], ds[q]);
      }
    }
  }
  const postings = new Map<number, number[]>();
  for (const d of docs) for (const v of sets[d]) postings.set(v, [...(postings.get(v) ?? []), d]);
  const rare = new Map<number, number>();
  const shared = new Map<string, number>();
  for (const v of [...postings.keys()].sort((p, q) => p - q)) {
    const ds = postings.get(v)!;
    if (ds.length > 8) continue;
    for (const d of ds) rare.set(d, (rare.get(d) ?? 0) + 1);
    for (let p = 0; p < ds.length; p++) for (let q = p + 1; q < ds.length; q++) shared.set(`${ds[p]},${ds[q]}`, (shared.get(`${ds[p]},${ds[q]}`) ?? 0) + 1);
  }
  const pairs = [...shared.keys()].map((k) => k.split(',').map(Number)).sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  for (const [a, b] of pairs) {
    const minRare = Math.min(rare.get(a)!, rare.get(b)!);
    if (minRare >= 2 && shared.get(`${a},${b}`)! / minRare >= 0.6) consider(a, b);
  }
  return out;
}

/** Random sets with near copies (edited, cut, merged), exact copies and shared common values, so that every candidate path fires. */
function randomSets(next: () => number, n: number): number[][] {
  const value = () => (next() < 0.3 ? Math.floor(next() * 40) : Math.floor(next() * 2 ** 32)) >>> 0;
  const sets: number[][] = [];
  for (let i = 0; i < n; i++) {
    const r = next();
    let s: number[];
    if (i > 0 && r < 0.45) {
      const base = sets[Math.floor(next() * i)];
      s = base.filter(() => next() < 0.85);
      for (let k = Math.floor(next() * 4); k > 0; k--) s.push(value());
    } else if (i > 0 && r < 0.5) s = [...sets[Math.floor(next() * i)]];
    else s = Array.from({ length: Math.floor(next() * 60) }, value);
    sets.push([...new Set(s)].sort((p, q) => p - q));
  }
  return sets;
}

describe('similarPairs', () => {
  const accepts: Array<[string, (p: SimilarPair) => boolean]> = [
    ['every candidate', () => true],
    ['the corpus bar', (p) => p.jaccard >= 0.4 || p.containment >= 0.6],
  ];
  for (const [name, accept] of accepts)
    it(`finds the reference's candidates, in its order, with its scores (${name})`, () => {
      const next = rng(name.length);
      for (let round = 0; round < 12; round++) {
        const sets = randomSets(next, 20 + Math.floor(next() * 120));
        for (const [minShingles, lsh] of [[3, true], [6, false], [1, true]] as const) {
          const got = similarPairs(HashSets.from(sets), accept, minShingles, lsh);
          expect(got).toEqual(referencePairs(sets, accept, minShingles, lsh));
        }
      }
    });

  it('puts a pair shared by many rare values once, and skips crowded buckets', () => {
    const same = Array.from({ length: 70 }, () => [1, 2, 3, 4, 5]);
    const got = similarPairs(HashSets.from(same), () => true, 3);
    expect(got).toEqual(referencePairs(same, () => true, 3, true));
    expect(got).toHaveLength(0); // 70 identical sets: a bucket over 64, shingles over the rare limit
  });
});

describe('corpus norm', () => {
  it('is the words of the comparable source, made on demand, for every entry', () => {
    const { entries, files } = parseFiles({
      'CLAUDE.md': '# Rules\n\n- Use **pnpm**, not npm: [docs](https://x.y/z).\n- 1. Step one <b>now</b>\n- [x] done: ship v1.2.3\n',
      'mem/MEMORY.md': '- [pnpm](pnpm.md) — package manager\n',
      'mem/pnpm.md': '---\nname: pnpm\ndescription: the package manager\ntype: feedback\n---\n\nOnly use pnpm here; npm rewrites the lockfile.\n',
    });
    const c = corpusOf(entries, files);
    const texts = textsOf(entries);
    entries.forEach((e, i) => {
      const expected = comparableEntry(e) ? wordStrings(texts.comparableSource(i)).join(' ') : '';
      expect(c.norm(i)).toBe(expected);
      expect(c.norm(i)).toBe(c.norm(i));
    });
    expect(normaliseSource('- [X] Done')).toBe(' done');
  });

  it('reads the words of the comparable source, skipping the line-markup pass only where it changes no word', () => {
    // line starts: bullets, numbered items (their number is no word), task boxes, headings,
    // quotes, white space of all kinds; numbers elsewhere; links, tags, comments; other scripts
    const pieces = ['- ', '* ', '+ ', '1. ', '12) ', '1.5 ', '- [x] ', '- [ ] ', '[X] ', '## ', '####### ', '> ', '>', '\n', '\r\n', '\u2028', '\u00a0', '\t', ' ',
      'Use', 'PNPM', 'v2', '2024', 'x', '#tag', 'a-b', '-', '+', '1.', '3)', '[docs](u.md)', '[[Page|p]]', '<b>', '<!-- c -->', 'Ünïcode', 'İ', 'Σ', '日本', '😀', 'end.', ':'];
    const random = rng(7);
    const texts: string[] = [];
    for (let n = 0; n < 400; n++) texts.push(Array.from({ length: 1 + Math.floor(random() * 12) }, () => pieces[Math.floor(random() * pieces.length)]).join(''));
    const { entries } = parseFiles({ 'CLAUDE.md': '# Rules\n' });
    const many = texts.map((text, k) => ({ ...entries[0], kind: 'item' as const, text, start: k, end: k + 1 }));
    const t = textsOf(many);
    const got = new Words();
    const want = new Words();
    many.forEach((e, i) => {
      const source = t.comparableWords(i, got);
      const words = Array.from({ length: got.count }, (_, k) => source.slice(got.start[k], got.end[k]));
      const full = t.comparableSource(i);
      scanWords(full, want);
      expect(words, JSON.stringify(e.text)).toEqual(Array.from({ length: want.count }, (_, k) => full.slice(want.start[k], want.end[k])));
      expect([...got.hash.subarray(0, got.count)]).toEqual([...want.hash.subarray(0, want.count)]);
    });
  });

  it('gives every entry the content words of its own words, across the growth of the word table', () => {
    // 9,000 distinct words: the table grows several times, some while an entry is being read
    const items = Array.from({ length: 900 }, (_, n) =>
      `- the ${Array.from({ length: 10 }, (_, k) => `word${n * 10 + k}s`).join(' ')} and the shared running tests`,
    );
    const { entries, files } = parseFiles({ 'CLAUDE.md': `# Words\n\n${items.join('\n')}\n` });
    const c = corpusOf(entries, files);
    let checked = 0;
    entries.forEach((e, i) => {
      if (c.wordCount[i] < 4) return;
      const expected = [...new Set(c.norm(i).split(' ').flatMap((w) => contentWords(w).map(hashWord)))].sort((p, q) => p - q);
      expect([...c.bags.values.subarray(c.bags.start[i], c.bags.start[i + 1])], e.text).toEqual(expected);
      checked++;
    });
    expect(checked).toBe(900);
  });

  it('calls entries the same exactly when their normalised texts are equal', () => {
    const { entries, files } = parseFiles({
      'CLAUDE.md': '# A\n\n- Use pnpm for every package install here.\n- use **pnpm** for every package install here\n- Use pnpm for every package install there.\n- Use npm.\n- use NPM\n- Use yarn.\n',
    });
    const c = corpusOf(entries, files);
    for (let a = 0; a < entries.length; a++)
      for (let b = 0; b < entries.length; b++) expect(c.same(a, b), `${a} ${b}`).toBe(c.norm(a) === c.norm(b));
  });
});
