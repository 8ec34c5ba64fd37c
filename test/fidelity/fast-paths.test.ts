// The fast paths under the fidelity checks: the keyword gate (one scan for many literals), the
// one-pass word scanner, the typed hash sets and the radix sort. Each is pinned against a plain
// reference implementation.
import { describe, expect, it } from 'vitest';
import { KeywordGate } from '../../src/checks/fidelity/keywords.js';
import { hashWord, HashSets, jaccardOf, shingles, sortByHash, words } from '../../src/checks/fidelity/similarity.js';
import { joinPath, normalise, normaliseSource, scanWords, Words } from '../../src/checks/fidelity/text.js';

/** Reference: which groups have a literal in `text` (case-insensitive, a digit stands for any digit). */
function naiveGate(groups: string[][], text: string): number {
  const fold = (s: string) => s.toLowerCase().replace(/[0-9]/g, '0');
  const t = text.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/[0-9]/g, '0');
  let bits = 0;
  groups.forEach((g, k) => {
    if (g.some((l) => t.includes(fold(l)))) bits |= 1 << k;
  });
  return bits;
}

describe('KeywordGate', () => {
  const groups = [['he', 'she'], ['hers'], ['his'], ['00:00'], ['npm err! '], ["don't"]];
  const gate = new KeywordGate(groups);

  it('finds every group with a literal in the text, overlapping literals included', () => {
    for (const text of ['ushers', 'this', 'HERS and HIS', 'at 12:30 today', 'npm ERR! code 1', "Don't", 'nothing here', 'sh', '', 'h\u00e9rs', 'she\nhis'])
      expect(gate.scan(text), text).toBe(naiveGate(groups, text));
  });

  it('matches random texts like the reference', () => {
    let x = 7;
    const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const alphabet = "hesirnpmHESR0123456789:! 'dotÉ";
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: Math.floor(rnd() * 30) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
      expect(gate.scan(text), text).toBe(naiveGate(groups, text));
    }
  });

  it('shares bits between lists past 31 groups, still a necessary condition for each', () => {
    const lists = Array.from({ length: 40 }, (_, k) => [`w${String.fromCharCode(97 + (k % 26))}${k >= 26 ? 'x' : ''}`]);
    const { gate: g, bits } = KeywordGate.forLists(lists);
    lists.forEach((l, k) => expect(g.scan(`.. ${l[0]} ..`) & bits[k]).toBe(bits[k]));
    expect(g.scan('none of them')).toBe(0);
  });
});

/** Reference: the word splitting `normalise` has always done, one string per word. */
function naiveWords(t: string): string[] {
  const out: string[] = [];
  for (const run of t.match(/[a-z0-9@./:+#\-\p{L}\p{N}]+/gu) ?? []) {
    const w = run.replace(/[.:]+$/, '');
    if (w && /[^.:/+#@-]/.test(w)) out.push(w);
  }
  return out;
}

/** Reference: markdown syntax to spaces, every pattern tried at every line start. */
function naiveSource(text: string): string {
  let t = text.toLowerCase();
  t = t.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
  t = t.replace(/\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]/g, '$1');
  t = t.replace(/<[^>\n]+>/g, ' ');
  t = t.replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm, ' ');
  t = t.replace(/^\s*#{1,6}\s+/gm, ' ');
  return t.replace(/^\s*>\s?/gm, ' ');
}

describe('normaliseSource', () => {
  it('strips markdown like the reference, on one line or many', () => {
    for (const s of ['- [x] done', '  12. step one', '## Title', '> quoted', '-\n# x', 'a - b', '* [ ] task\n> q\n### h', '1) one\r2) two', '[link](a.md) and [[wiki|w]]', '-no space', '\u2028- after'])
      expect(normaliseSource(s), JSON.stringify(s)).toBe(naiveSource(s));
  });
});

describe('scanWords', () => {
  const samples = [
    'Use pnpm, not npm: npm rewrites the lockfile.',
    '- [x] done: ship v1.2.3 … then @scope/pkg#123 -- ok',
    'naïve café façade — 日本語 テキスト 🚀 launch 𝟘𝟙',
    '... --- ::: /// +++ ### @@@ end.',
    'a.b.c: d::e.. f. g',
    'trailing dot.',
  ];

  it('splits like the reference, with each word hashed as hashWord would', () => {
    const w = new Words();
    for (const s of samples) {
      const t = normaliseSource(s);
      scanWords(t, w);
      const got = Array.from({ length: w.count }, (_, k) => t.slice(w.start[k], w.end[k]));
      expect(got, s).toEqual(naiveWords(t));
      for (let k = 0; k < w.count; k++) expect(w.hash[k]).toBe(hashWord(got[k]));
      expect(normalise(s)).toBe(naiveWords(t).join(' '));
    }
  });
});

describe('HashSets and sortByHash', () => {
  let x = 99;
  const rnd = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);

  it('measures the same similarity as Sets of numbers', () => {
    const texts = ['the nightly job compares stripe balance transactions with our ledger', 'the nightly job compares stripe payouts with our ledger', 'a b', 'x y z w'];
    const sets = texts.map((t) => shingles(words(t)));
    const hs = HashSets.from(sets);
    for (let a = 0; a < sets.length; a++)
      for (let b = 0; b < sets.length; b++) {
        expect(hs.size(a)).toBe(sets[a].size);
        expect(hs.similarity(a, b)).toEqual(jaccardOf(sets[a], sets[b]));
      }
  });

  it('sorts by hash, stable, leaving its inputs unchanged', () => {
    const n = 5000;
    const hash = Uint32Array.from({ length: n }, () => rnd() % 700);
    const doc = Int32Array.from({ length: n }, (_, i) => i);
    const before = [hash.slice(), doc.slice()];
    const [h, d] = sortByHash(hash, doc);
    const expected = [...doc].sort((p, q) => hash[p] - hash[q] || p - q);
    expect([...d]).toEqual(expected);
    expect([...h]).toEqual(expected.map((i) => hash[i]));
    expect([hash, doc]).toEqual(before);
  });
});

/** Reference: posix join and normalise, segment by segment. */
function naiveJoin(dir: string, rel: string): string {
  const abs = rel.startsWith('/');
  const out: string[] = [];
  for (const p of (abs ? rel : (dir ? dir + '/' : '') + rel).split('/')) {
    if (!p || p === '.') continue;
    if (p === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else out.push('..');
    } else out.push(p);
  }
  return (abs || dir.startsWith('/') ? '/' : '') + out.join('/');
}

describe('joinPath', () => {
  it('joins like the reference, plain names included', () => {
    const dirs = ['', '/', '/a', 'a', 'a/b', 'a/../..', '../x', 'a//b/', './a', 'a/.', '.claude/memory'];
    const rels = ['x.md', '.hidden', '..x', '...', 'a/b.md', '../c.md', './d.md', '/abs.md', '', '.', '..'];
    for (const d of dirs) for (const r of rels) expect(joinPath(d, r), `${d} + ${r}`).toBe(naiveJoin(d, r));
  });
});
