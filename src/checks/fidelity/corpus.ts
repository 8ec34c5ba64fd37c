// One similarity pass shared by `duplicate` and the `claude-md-copy` filter of `ephemeral`:
// normalised text, shingles, exact groups and verified near pairs, computed once per entry list.
import type { Entry, MemoryFile } from '../../types.js';
import { comparable, contentWords, normalise, stem, STOPWORDS } from './text.js';
import { hashWord, jaccardOf, shingles, similarPairs, words, type SimilarPair } from './similarity.js';

export interface Corpus {
  norm: string[];
  wordCount: number[];
  sets: Set<number>[];
  /** Inline code spans of each entry, normalised. */
  code: Set<string>[];
  /** Hashed content words (stop words dropped, stemmed): catches reworded and reordered copies. */
  bags: Set<number>[];
  /** Exact groups (after normalisation), only groups of two or more. */
  exact: number[][];
  /** Verified candidate pairs (not exact), a < b, loose: each check applies its own thresholds. */
  near: SimilarPair[];
  /** Entries whose range lies inside another entry of the same file (a section and its items). */
  contains(a: number, b: number): boolean;
}

/** Thresholds for a near duplicate. */
export const NEAR_JACCARD = 0.6;
export const NEAR_CONTAINMENT = 0.85;
export const MIN_WORDS = 4;

const NEGATION = /\b(?:never|not|no|don't|dont|avoid|without)\b/;
const AFFIRM = /\b(?:always|must|do)\b/;

/**
 * Near-identical texts that state different numbers or opposite rules are a contradiction, not a
 * duplicate: `contradiction` reports them.
 */
export function conflicting(a: string, b: string): boolean {
  const wa = new Set(a.split(' '));
  const wb = new Set(b.split(' '));
  const onlyA = [...wa].filter((w) => !wb.has(w));
  const onlyB = [...wb].filter((w) => !wa.has(w));
  const num = (w: string) => /\d/.test(w);
  if (onlyA.some(num) && onlyB.some(num)) return true;
  const neg = (ws: string[]) => ws.some((w) => NEGATION.test(w));
  const aff = (ws: string[]) => ws.some((w) => AFFIRM.test(w));
  return (neg(onlyA) && aff(onlyB)) || (neg(onlyB) && aff(onlyA));
}

/** Identifier-like tokens: paths, names with `/ . _ @ $ :`, numbers. */
const IDENT = /[\/._@$:]|\d/;

/**
 * Templated lines that differ in what they name ("`pnpm run start daily`" / "`... monthly`",
 * "@apps/codex/CLAUDE.md" / "@apps/opencode/CLAUDE.md") are distinct facts: each side names an
 * identifier (a word written in code, or path-like) that the other does not.
 */
function distinctIdentifiers(c: Pick<Corpus, 'norm' | 'code'>, i: number, j: number): boolean {
  const wa = new Set(c.norm[i].split(' '));
  const wb = new Set(c.norm[j].split(' '));
  const unique = (w: Set<string>, other: Set<string>, spans: Set<string>, otherSpans: Set<string>) => {
    for (const s of spans) if (!otherSpans.has(s)) return true;
    for (const x of w) if (!other.has(x) && IDENT.test(x)) return true;
    return false;
  };
  return unique(wa, wb, c.code[i], c.code[j]) && unique(wb, wa, c.code[j], c.code[i]);
}

/** Near-identical entries that are not duplicates: they name different things, or say different values. */
export function conflictingPair(c: Pick<Corpus, 'norm' | 'code'>, i: number, j: number): boolean {
  return distinctIdentifiers(c, i, j) || conflicting(c.norm[i], c.norm[j]);
}

/** The near-duplicate bar used by `duplicate`. */
export function isNearDuplicate(p: SimilarPair, c: Pick<Corpus, 'sets' | 'bags'>): boolean {
  if (p.jaccard >= NEAR_JACCARD) return true;
  if (p.containment >= NEAR_CONTAINMENT && Math.min(c.sets[p.a].size, c.sets[p.b].size) >= 5) return true;
  // the same content words, reworded: most of the smaller entry's words, and a fair overlap overall
  const bag = jaccardOf(c.bags[p.a], c.bags[p.b]);
  return bag.containment >= 0.75 && bag.jaccard >= 0.5 && Math.min(c.bags[p.a].size, c.bags[p.b].size) >= 6;
}

const CACHE = new WeakMap<Entry[], Corpus>();
const SPLIT = /[^\p{L}\p{N}]/u;

function codeWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    const n = normalise(m[1]);
    if (n) out.add(n);
  }
  return out;
}

/** Hashed content words of normalised tokens (stop words dropped, light stemming). */
function bagOf(ws: string[]): Set<number> {
  const out = new Set<number>();
  for (const w of ws) {
    if (SPLIT.test(w)) {
      for (const x of contentWords(w)) out.add(hashWord(x));
    } else if (w.length >= 2 && !STOPWORDS.has(w)) out.add(hashWord(stem(w)));
  }
  return out;
}

/** Entries worth comparing at all. */
export function comparableEntry(e: Entry): boolean {
  return e.kind !== 'frontmatter-field' && e.type !== 'superseded';
}

export function corpusOf(entries: Entry[], _files: MemoryFile[]): Corpus {
  const cached = CACHE.get(entries);
  if (cached) return cached;
  const norm: string[] = [];
  const wordCount: number[] = [];
  const sets: Set<number>[] = [];
  const bags: Set<number>[] = [];
  const code: Set<string>[] = [];
  const byKey = new Map<string, number[]>();
  // per distinct word: its hash (for shingles) and its content-word hashes (for bags)
  const vocab = new Map<string, { h: number; bag: number[] }>();
  const token = (w: string) => {
    let t = vocab.get(w);
    if (!t) {
      t = { h: hashWord(w), bag: [...bagOf([w])] };
      vocab.set(w, t);
    }
    return t;
  };
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const n = comparableEntry(e) ? comparable(e) : '';
    const ws = words(n);
    norm.push(n);
    wordCount.push(ws.length);
    if (ws.length >= MIN_WORDS) {
      const ts = ws.map(token);
      sets.push(shingles(ws, ts.map((t) => t.h)));
      const bag = new Set<number>();
      for (const t of ts) for (const b of t.bag) bag.add(b);
      bags.push(bag);
    } else {
      sets.push(new Set());
      bags.push(new Set());
    }
    code.push(ws.length >= MIN_WORDS ? codeWords(e.text) : new Set());
    if (ws.length >= MIN_WORDS) {
      const l = byKey.get(n);
      if (l) l.push(i);
      else byKey.set(n, [i]);
    }
  }
  const exact = [...byKey.values()].filter((g) => g.length > 1);
  const near = similarPairs(
    sets,
    (p) =>
      norm[p.a] !== norm[p.b] &&
      (p.jaccard >= 0.4 || (p.containment >= 0.6 && Math.min(sets[p.a].size, sets[p.b].size) >= 4)),
    3,
  );
  // reworded copies: candidate pairs over content-word bags, merged into the shingle candidates
  const have = new Set(near.map((p) => p.a + ':' + p.b));
  for (const p of similarPairs(bags, (q) => norm[q.a] !== norm[q.b] && q.containment >= 0.75 && q.jaccard >= 0.5, 6, false)) {
    if (have.has(p.a + ':' + p.b)) continue;
    const s = jaccardOf(sets[p.a], sets[p.b]);
    near.push({ a: p.a, b: p.b, jaccard: s.jaccard, containment: s.containment });
  }
  const contains = (a: number, b: number) => {
    const x = entries[a];
    const y = entries[b];
    if (x.file !== y.file) return false;
    return (x.start <= y.start && y.end <= x.end) || (y.start <= x.start && x.end <= y.end);
  };
  const corpus: Corpus = { norm, wordCount, sets, bags, code, exact, near, contains };
  CACHE.set(entries, corpus);
  return corpus;
}
