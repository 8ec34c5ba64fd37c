// One similarity pass shared by `duplicate` and the `claude-md-copy` filter of `ephemeral`:
// normalised text, shingles, exact groups and verified near pairs, computed once per entry list.
import type { Entry, MemoryFile } from '../../types.js';
import { comparable, contentWords, normalise, stem, STOPWORDS } from './text.js';
import { hashWord, jaccardOf, PairSet, shingles, similarPairs, words, type SimilarPair } from './similarity.js';

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
/** Reworded (content-word) matches must share at least this many content words. */
export const MIN_SHARED_CONTENT = 6;

const NEGATION = /\b(?:never|not|no|don't|dont|avoid|without)\b/;
const AFFIRM = /\b(?:always|must|do)\b/;

/** Per-word flags, computed once per distinct word (the regexes are the definitions). */
const F_NUM = 1;
const F_NEG = 2;
const F_AFF = 4;
const F_IDENT = 8;
const WORD_FLAGS = new Map<string, number>();
function flagsOf(w: string): number {
  let f = WORD_FLAGS.get(w);
  if (f === undefined) {
    f = (/\d/.test(w) ? F_NUM : 0) | (NEGATION.test(w) ? F_NEG : 0) | (AFFIRM.test(w) ? F_AFF : 0) | (IDENT.test(w) ? F_IDENT : 0);
    if (WORD_FLAGS.size > 200_000) WORD_FLAGS.clear();
    WORD_FLAGS.set(w, f);
  }
  return f;
}

/** The distinct words of a normalised text with their flags, cached per text. */
interface WordInfo {
  words: string[];
  set: Set<string>;
  flags: number[];
}
const WORD_INFO = new Map<string, WordInfo>();
function wordInfo(norm: string): WordInfo {
  let wi = WORD_INFO.get(norm);
  if (!wi) {
    const set = new Set(norm.split(' '));
    const words = [...set];
    wi = { words, set, flags: words.map(flagsOf) };
    if (WORD_INFO.size > 100_000) WORD_INFO.clear();
    WORD_INFO.set(norm, wi);
  }
  return wi;
}

/** OR of the flags of the words of `a` that `b` does not have. */
function onlyFlags(a: WordInfo, b: WordInfo): number {
  let f = 0;
  for (let k = 0; k < a.words.length; k++) if (!b.set.has(a.words[k])) f |= a.flags[k];
  return f;
}

/**
 * Near-identical texts that state different numbers or opposite rules are a contradiction, not a
 * duplicate: `contradiction` reports them.
 */
export function conflicting(a: string, b: string): boolean {
  const wa = wordInfo(a);
  const wb = wordInfo(b);
  const fa = onlyFlags(wa, wb);
  const fb = onlyFlags(wb, wa);
  if (fa & F_NUM && fb & F_NUM) return true;
  return (!!(fa & F_NEG) && !!(fb & F_AFF)) || (!!(fb & F_NEG) && !!(fa & F_AFF));
}

/** Identifier-like tokens: paths, names with `/ . _ @ $ :`, numbers. */
const IDENT = /[\/._@$:]|\d/;

/**
 * Templated lines that differ in what they name ("`pnpm run start daily`" / "`... monthly`",
 * "@apps/codex/CLAUDE.md" / "@apps/opencode/CLAUDE.md") are distinct facts: each side names an
 * identifier (a word written in code, or path-like) that the other does not.
 */
function distinctIdentifiers(c: Pick<Corpus, 'norm' | 'code'>, i: number, j: number): boolean {
  const unique = (spans: Set<string>, otherSpans: Set<string>, w: WordInfo, other: WordInfo) => {
    for (const s of spans) if (!otherSpans.has(s)) return true;
    return (onlyFlags(w, other) & F_IDENT) !== 0;
  };
  if (!unique(c.code[i], c.code[j], wordInfo(c.norm[i]), wordInfo(c.norm[j]))) return false;
  return unique(c.code[j], c.code[i], wordInfo(c.norm[j]), wordInfo(c.norm[i]));
}

/** Near-identical entries that are not duplicates: they name different things, say different values, or one reverses the other. */
export function conflictingPair(c: Pick<Corpus, 'norm' | 'code'>, i: number, j: number): boolean {
  return distinctIdentifiers(c, i, j) || conflicting(c.norm[i], c.norm[j]) || opposed(c.norm[i], c.norm[j]);
}

/**
 * Markers after which the next word is what the sentence turns away from: "Vitest, not Jest",
 * "instead of Jest", "no longer Jest", "replaced Jest with Vitest", "switched from Jest to Vitest".
 */
const REVERSAL = /^(?:not|instead of|rather than|no longer|replaced|replace|replacing|switched from|switching from|switch from|migrated from|migrating from|moved from|moving from|dropped|removed)$/;
/** Wider negations: a word after these is not asserted by its own entry either. */
const NEGATED = /^(?:never|no|don't|dont|do not|avoid|without|stop|stopped)$/;
/** Words skipped between a marker and its object ("no longer use the Jest runner"). */
const FILLER = new Set(['use', 'using', 'used', 'run', 'running', 'call', 'calling', 'need', 'needs', 'rely', 'relying', 'on', 'depend', 'depending', 'the', 'a', 'an', 'our', 'its', 'their', 'any', 'to', 'with', 'be', 'is', 'are']);

interface Stance {
  /** Words the entry turns away from (REVERSAL markers). */
  reversed: Set<string>;
  /** Content words the entry states positively (not after any negation or reversal). */
  asserted: Set<string>;
}
const STANCE = new Map<string, Stance>();

function stanceOf(norm: string): Stance {
  let st = STANCE.get(norm);
  if (st) return st;
  const ws = norm.split(' ');
  const reversed = new Set<string>();
  const negated = new Set<string>();
  for (let k = 0; k < ws.length; k++) {
    const one = ws[k];
    const two = k + 1 < ws.length ? one + ' ' + ws[k + 1] : '';
    let skip = 0;
    let rev = false;
    if (two && REVERSAL.test(two)) [skip, rev] = [2, true];
    else if (REVERSAL.test(one)) [skip, rev] = [1, true];
    else if (two && NEGATED.test(two)) skip = 2;
    else if (NEGATED.test(one)) skip = 1;
    if (!skip) continue;
    let x = k + skip;
    while (x < ws.length && (FILLER.has(ws[x]) || STOPWORDS.has(ws[x]))) x++;
    if (x >= ws.length) continue;
    negated.add(ws[x]);
    if (rev) reversed.add(ws[x]);
  }
  const asserted = new Set<string>();
  for (const w of ws) if (w.length > 1 && !STOPWORDS.has(w) && !negated.has(w)) asserted.add(w);
  st = { reversed, asserted };
  if (STANCE.size > 50_000) STANCE.clear();
  STANCE.set(norm, st);
  return st;
}

/**
 * One entry turns away from what the other asserts ("We use Jest…" / "We use Vitest, not Jest…",
 * "switched from Jest to Vitest"): a reversed decision, possibly a contradiction, never a duplicate.
 */
export function opposed(a: string, b: string): boolean {
  if (a === b) return false;
  const sa = stanceOf(a);
  const sb = stanceOf(b);
  for (const w of sb.reversed) if (sa.asserted.has(w)) return true;
  for (const w of sa.reversed) if (sb.asserted.has(w)) return true;
  return false;
}

/** The near-duplicate bar used by `duplicate`. */
export function isNearDuplicate(p: SimilarPair, c: Pick<Corpus, 'sets' | 'bags'>): boolean {
  if (p.jaccard >= NEAR_JACCARD) return true;
  if (p.containment >= NEAR_CONTAINMENT && Math.min(c.sets[p.a].size, c.sets[p.b].size) >= 5) return true;
  // the same content words, reworded: most of the smaller entry's words, a fair overlap overall,
  // and enough shared content words that the match is more than a common topic ("we decided to
  // use X for unit tests because ...": five shared words are a template, not a copy)
  const bag = jaccardOf(c.bags[p.a], c.bags[p.b]);
  const small = Math.min(c.bags[p.a].size, c.bags[p.b].size);
  return bag.containment >= 0.75 && bag.jaccard >= 0.5 && small >= 6 && Math.round(bag.containment * small) >= MIN_SHARED_CONTENT;
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
  const have = new PairSet(near.length);
  for (const p of near) have.add(p.a, p.b);
  for (const p of similarPairs(bags, (q) => norm[q.a] !== norm[q.b] && q.containment >= 0.75 && q.jaccard >= 0.5, 6, false)) {
    if (have.has(p.a, p.b)) continue;
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
