// One similarity pass shared by `duplicate` and the `claude-md-copy` filter of `ephemeral`:
// normalised text, shingles, exact groups and verified near pairs, computed once per entry list.
import type { Entry, MemoryFile } from '../../types.js';
import { contentWords, type EntryTexts, normalise, scanWords, stem, STOPWORDS, textsOf, Words, wordStrings } from './text.js';
import { hashWord, HashSets, HashSetsBuilder, PairSet, shingleHashes, similarPairs, type SimilarPair } from './similarity.js';

export interface Corpus {
  /** The normalised comparable text of an entry ('' for entries not compared), made on demand. */
  norm(i: number): string;
  /** Whether two entries have the same normalised text. */
  same(i: number, j: number): boolean;
  wordCount: Int32Array;
  /** Hashed word shingles of each entry. */
  sets: HashSets;
  /** Inline code spans of an entry, normalised (computed on demand: only candidate pairs need them). */
  code(i: number): Set<string>;
  /** Proper names of an entry's prose, lower-cased: capitalised words inside a sentence (on demand). */
  names?(i: number): Set<string>;
  /** Hashed content words (stop words dropped, stemmed): catches reworded and reordered copies. */
  bags: HashSets;
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
  if (!unique(c.code(i), c.code(j), wordInfo(c.norm(i)), wordInfo(c.norm(j)))) return false;
  return unique(c.code(j), c.code(i), wordInfo(c.norm(j)), wordInfo(c.norm(i)));
}

/** Near-identical entries that are not duplicates: they name different things, say different values, or one reverses the other. */
export function conflictingPair(c: Pick<Corpus, 'norm' | 'code' | 'names'>, i: number, j: number): boolean {
  return distinctIdentifiers(c, i, j) || distinctNames(c, i, j) || conflicting(c.norm(i), c.norm(j)) || opposed(c.norm(i), c.norm(j));
}

/**
 * Templated lines about different products ("use `search-docs` for version-specific Inertia
 * documentation" / "… Laravel documentation" / "… Tailwind CSS documentation"): each side names a
 * proper name the other does not have at all.
 */
function distinctNames(c: Pick<Corpus, 'norm' | 'names'>, i: number, j: number): boolean {
  if (!c.names) return false;
  const unique = (a: number, b: number) => {
    const other = wordInfo(c.norm(b)).set;
    for (const n of c.names!(a)) if (!other.has(n)) return true;
    return false;
  };
  return unique(i, j) && unique(j, i);
}

/** Capitalised words inside a sentence (not its first word, not all capitals: `ALWAYS`, `CRITICAL`), outside code. */
function properNames(text: string): Set<string> {
  const out = new Set<string>();
  const prose = text.replace(/`[^`\n]*`/g, ' ').replace(/\]\([^)]*\)/g, ']');
  for (const m of prose.matchAll(/(?<=[\p{Ll}\p{N},;)\]]["'*_]*\s+["'*_(]*)(\p{Lu}[\p{Ll}\p{N}]+(?:\p{Lu}[\p{Ll}\p{N}]*)*)\b/gu)) out.add(m[1]!.toLowerCase());
  return out;
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
  if (p.containment >= NEAR_CONTAINMENT && Math.min(c.sets.size(p.a), c.sets.size(p.b)) >= 5) return true;
  // the same content words, reworded: most of the smaller entry's words, a fair overlap overall,
  // and enough shared content words that the match is more than a common topic ("we decided to
  // use X for unit tests because ...": five shared words are a template, not a copy)
  const bag = c.bags.similarity(p.a, p.b);
  const small = Math.min(c.bags.size(p.a), c.bags.size(p.b));
  return bag.containment >= 0.75 && bag.jaccard >= 0.5 && small >= 6 && Math.round(bag.containment * small) >= MIN_SHARED_CONTENT;
}

const CACHE = new WeakMap<Entry[], Corpus>();
const SPLIT = /[^\p{L}\p{N}]/u;

function codeWords(text: string): Set<string> {
  const out = new Set<string>();
  if (!text.includes('`')) return out;
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    const n = normalise(m[1]);
    if (n) out.add(n);
  }
  return out;
}

/** Hashed content words of one normalised token (stop words dropped, light stemming). */
function bagOf(w: string): number[] {
  if (!asciiToken(w)) {
    if (SPLIT.test(w)) return contentWords(w).map(hashWord);
    return w.length >= 2 && !STOPWORDS.has(w) ? [hashWord(stem(w))] : [];
  }
  // the same for the common case, without regular expressions: the runs of [a-z0-9] are the
  // content words `contentWords` finds
  const out: number[] = [];
  for (let i = 0; i < w.length; ) {
    while (i < w.length && !asciiAlnum(w.charCodeAt(i))) i++;
    const from = i;
    while (i < w.length && asciiAlnum(w.charCodeAt(i))) i++;
    if (i - from < 2) continue;
    const part = from === 0 && i === w.length ? w : w.slice(from, i);
    if (!STOPWORDS.has(part)) out.push(hashWord(stem(part)));
  }
  return out;
}

function asciiAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/** Only [a-z0-9@./:+#-]: the ASCII word characters of `normalise`. */
function asciiToken(w: string): boolean {
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (!asciiAlnum(c) && c !== 64 && c !== 46 && c !== 47 && c !== 58 && c !== 43 && c !== 35 && c !== 45) return false;
  }
  return true;
}

/** Entries worth comparing at all. */
export function comparableEntry(e: Entry): boolean {
  return e.kind !== 'frontmatter-field' && e.type !== 'superseded';
}

/**
 * The distinct words of one corpus, each hashed once: by the FNV-1a hash of its characters
 * (the word hash of the shingles), in an open-addressing table that compares the characters in
 * place, so no string is made for a word already seen. Each distinct word gets an id (in order
 * of first sight), which keeps its content-word hashes (for bags): equal ids are equal words.
 * Ids, unlike slots, stay valid when the table grows (even in the middle of an entry).
 * A word's characters are kept in a pool of UTF-16 units rather than as a string: a slice of
 * the text would be a sliced string (slower to read, and keeping the whole text alive).
 */
class WordTable {
  private mask = 4095;
  /** The id of the word in each slot, -1 for an empty slot. */
  private slotId = new Int32Array(4096).fill(-1);
  /** By id: its hash, and its characters `chars[charFrom[id] .. charFrom[id + 1])`. */
  private hash: Uint32Array = new Uint32Array(4096);
  private charFrom: Int32Array = new Int32Array(4097);
  private chars: Uint16Array = new Uint16Array(32768);
  private count = 0;
  /** Content-word hashes of word `id`: `bag[bagFrom[id] .. bagFrom[id + 1])`. */
  bagFrom: Int32Array = new Int32Array(4097);
  bag: Uint32Array = new Uint32Array(4096);

  /** The id of the word t[start, end) whose hash is `h`, added if new. */
  id(t: string, start: number, end: number, h: number): number {
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const id = this.slotId[i];
      if (id === -1) return this.add(i, t, start, end, h);
      if (this.hash[id] === h && this.sameChars(id, t, start, end)) return id;
    }
  }

  /** Whether word `id` is t[start, end). */
  private sameChars(id: number, t: string, start: number, end: number): boolean {
    const from = this.charFrom[id];
    if (this.charFrom[id + 1] - from !== end - start) return false;
    const chars = this.chars;
    for (let k = start; k < end; k++) if (chars[from + k - start] !== t.charCodeAt(k)) return false;
    return true;
  }

  /** Adds word t[start, end) (hash `h`) in the empty slot `i`. */
  private add(i: number, t: string, start: number, end: number, h: number): number {
    const id = this.count++;
    if ((id + 1) * 2 > this.mask + 1) {
      this.grow();
      for (i = h & this.mask; this.slotId[i] !== -1; i = (i + 1) & this.mask);
    }
    this.slotId[i] = id;
    if (id >= this.hash.length) this.hash = grow(this.hash, id + 1);
    this.hash[id] = h >>> 0;
    if (id + 2 > this.charFrom.length) this.charFrom = grow(this.charFrom, id + 2);
    let c = this.charFrom[id];
    if (c + end - start > this.chars.length) this.chars = grow(this.chars, c + end - start);
    for (let k = start; k < end; k++) this.chars[c++] = t.charCodeAt(k);
    this.charFrom[id + 1] = c;
    const hs = bagOf(t.slice(start, end));
    let b = this.bagFrom[id];
    if (b + hs.length > this.bag.length) this.bag = grow(this.bag, b + hs.length);
    for (const x of hs) this.bag[b++] = x;
    if (id + 2 > this.bagFrom.length) this.bagFrom = grow(this.bagFrom, id + 2);
    this.bagFrom[id + 1] = b;
    return id;
  }

  /** Twice the slots, the ids placed again by their hashes. */
  private grow(): void {
    const cap = (this.mask + 1) * 2;
    this.mask = cap - 1;
    this.slotId = new Int32Array(cap).fill(-1);
    for (let id = 0; id < this.count; id++) {
      let i = this.hash[id] & this.mask;
      while (this.slotId[i] !== -1) i = (i + 1) & this.mask;
      this.slotId[i] = id;
    }
  }
}

/** A copy of a typed array with room for at least `min` values (capacity doubled). */
function grow<A extends Uint32Array | Int32Array | Uint16Array>(a: A, min: number): A {
  let cap = a.length * 2;
  while (cap < min) cap *= 2;
  const out = (a instanceof Int32Array ? new Int32Array(cap) : a instanceof Uint16Array ? new Uint16Array(cap) : new Uint32Array(cap)) as A;
  out.set(a);
  return out;
}

/** One hash of a whole word-hash sequence (to group identical texts), a small integer. */
function sequenceKey(h: Uint32Array, n: number): number {
  let x = n;
  for (let k = 0; k < n; k++) x = Math.imul(x ^ h[k], 0x9e3779b1) ^ (x >>> 13);
  return x & 0x3fffffff;
}

/**
 * Reads the entries one at a time (`add`, a small method the engine optimises early): words
 * hashed once, shingle and bag sets, each entry's word-hash sequence, exact groups.
 */
class CorpusBuilder {
  readonly wordCount: Int32Array;
  readonly sets = new HashSetsBuilder();
  readonly bags = new HashSetsBuilder();
  /**
   * Each shingled entry's words as word ids, back to back: entry `i`'s are
   * `seq[seqStart[i] .. seqStart[i + 1])`. Equal sequences are equal texts.
   */
  private seq: Int32Array = new Int32Array(65536);
  private readonly seqStart: Int32Array;
  private seqEnd = 0;
  /**
   * Exact groups, found by a key of the word-hash sequence: the first entry of each group (its
   * leader) is listed under its key (`byKey`, then `nextLeader`), the others hang off it
   * (`nextMember`, `lastMember`). Linked lists in typed arrays: no array per entry.
   */
  private readonly byKey = new Map<number, number>();
  private readonly nextLeader: Int32Array;
  private readonly nextMember: Int32Array;
  private readonly lastMember: Int32Array;
  private readonly norms = new Map<number, string>();
  private readonly table = new WordTable();
  private readonly texts: EntryTexts;
  // scratch, reused for every entry
  private readonly words = new Words();
  private scratch: Uint32Array = new Uint32Array(256);

  constructor(private readonly entries: Entry[]) {
    this.wordCount = new Int32Array(entries.length);
    this.seqStart = new Int32Array(entries.length + 1);
    this.nextLeader = new Int32Array(entries.length).fill(-1);
    this.nextMember = new Int32Array(entries.length).fill(-1);
    this.lastMember = new Int32Array(entries.length).fill(-1);
    this.texts = textsOf(entries);
  }

  add(i: number): void {
    const { words, table } = this;
    const t = this.wordsOf(i);
    const count = words.count;
    this.wordCount[i] = count;
    if (count < MIN_WORDS) {
      // short texts are neither shingled nor grouped (their sequence is not kept either)
      this.seqStart[i + 1] = this.seqEnd;
      this.sets.push(this.scratch, 0);
      this.bags.push(this.scratch, 0);
      return;
    }
    if (this.seqEnd + count > this.seq.length) this.seq = grow(this.seq, this.seqEnd + count);
    const seq = this.seq;
    const from = this.seqEnd;
    // the word hashes, read where the scan left them
    const hashes = words.hash;
    let bagSize = 0;
    for (let k = 0; k < count; k++) {
      const id = table.id(t, words.start[k], words.end[k], hashes[k]);
      seq[from + k] = id;
      bagSize += table.bagFrom[id + 1] - table.bagFrom[id];
    }
    this.seqEnd += count;
    this.seqStart[i + 1] = this.seqEnd;
    if (Math.max(count, bagSize) > this.scratch.length) this.scratch = grow(this.scratch, Math.max(count, bagSize));
    const scratch = this.scratch;
    this.sets.push(scratch, shingleHashes(hashes, count, scratch));
    let b = 0;
    for (let k = from; k < this.seqEnd; k++)
      for (let x = table.bagFrom[seq[k]]; x < table.bagFrom[seq[k] + 1]; x++) scratch[b++] = table.bag[x];
    this.bags.push(scratch, b);
    this.groupExact(i, sequenceKey(hashes, count));
  }

  /** Scans entry `i`'s comparable words into `words` (none for an entry not compared); returns the text they index. */
  private wordsOf(i: number): string {
    if (comparableEntry(this.entries[i])) return this.texts.comparableWords(i, this.words);
    scanWords('', this.words);
    return '';
  }

  /**
   * Entry `i`'s normalised source (`normaliseSource`), whose words are compared. Not kept: made
   * again for the few entries whose `norm` is needed, so that the sources of all the others die
   * young (kept, they would all be copied out of the young generation).
   */
  private source(i: number): string {
    return comparableEntry(this.entries[i]) ? this.texts.comparableSource(i) : '';
  }

  /** The normalised comparable text of entry `i`, made on demand (only pairs need it). */
  norm(i: number): string {
    let s = this.norms.get(i);
    if (s === undefined) this.norms.set(i, (s = wordStrings(this.source(i)).join(' ')));
    return s;
  }

  /**
   * Same words. Shingled entries: the same word-id sequences (ids are exact: no string needed).
   * Shorter ones (no sequence kept): the same normalised text.
   */
  same(a: number, b: number): boolean {
    if (a === b) return true;
    const { seq, seqStart } = this;
    const n = this.wordCount[a];
    if (n !== this.wordCount[b]) return false;
    if (n < MIN_WORDS) return this.norm(a) === this.norm(b);
    for (let k = 0; k < n; k++) if (seq[seqStart[a] + k] !== seq[seqStart[b] + k]) return false;
    return true;
  }

  private groupExact(i: number, key: number): void {
    const first = this.byKey.get(key);
    let last = -1;
    for (let g = first ?? -1; g !== -1; g = this.nextLeader[g]) {
      if (this.same(g, i)) {
        const tail = this.lastMember[g];
        this.nextMember[tail === -1 ? g : tail] = i;
        this.lastMember[g] = i;
        return;
      }
      last = g;
    }
    // a new group, led by `i`
    if (last === -1) this.byKey.set(key, i);
    else this.nextLeader[last] = i;
  }

  /** Groups of two or more entries with the same text, by first entry, each in entry order. */
  exactGroups(): number[][] {
    const out: number[][] = [];
    for (let g = 0; g < this.entries.length; g++) {
      if (this.lastMember[g] === -1) continue; // not a leader with members
      const group = [g];
      for (let m = this.nextMember[g]; m !== -1; m = this.nextMember[m]) group.push(m);
      out.push(group);
    }
    return out;
  }
}

export function corpusOf(entries: Entry[], _files: MemoryFile[]): Corpus {
  const cached = CACHE.get(entries);
  if (cached) return cached;
  const built = new CorpusBuilder(entries);
  for (let i = 0; i < entries.length; i++) built.add(i);
  const same = (a: number, b: number) => built.same(a, b);
  const { wordCount } = built;
  const shingleSets = built.sets.build();
  const bagSets = built.bags.build();
  const exact = built.exactGroups();
  const near = similarPairs(
    shingleSets,
    (p) =>
      !same(p.a, p.b) &&
      (p.jaccard >= 0.4 || (p.containment >= 0.6 && Math.min(shingleSets.size(p.a), shingleSets.size(p.b)) >= 4)),
    3,
  );
  // reworded copies: candidate pairs over content-word bags, merged into the shingle candidates
  const have = new PairSet(near.length);
  for (const p of near) have.add(p.a, p.b);
  for (const p of similarPairs(bagSets, (q) => !same(q.a, q.b) && q.containment >= 0.75 && q.jaccard >= 0.5, 6, false)) {
    if (have.has(p.a, p.b)) continue;
    const s = shingleSets.similarity(p.a, p.b);
    near.push({ a: p.a, b: p.b, jaccard: s.jaccard, containment: s.containment });
  }
  const contains = (a: number, b: number) => {
    const x = entries[a];
    const y = entries[b];
    if (x.file !== y.file) return false;
    return (x.start <= y.start && y.end <= x.end) || (y.start <= x.start && x.end <= y.end);
  };
  const codes = new Map<number, Set<string>>();
  const code = (i: number) => {
    let c = codes.get(i);
    if (!c) codes.set(i, (c = wordCount[i] >= MIN_WORDS ? codeWords(entries[i].text) : new Set()));
    return c;
  };
  const norm = (i: number) => built.norm(i);
  const nameSets = new Map<number, Set<string>>();
  const names = (i: number) => {
    let n = nameSets.get(i);
    if (!n) nameSets.set(i, (n = wordCount[i] >= MIN_WORDS ? properNames(entries[i].text) : new Set()));
    return n;
  };
  const corpus: Corpus = { norm, same, wordCount, sets: shingleSets, bags: bagSets, code, names, exact, near, contains };
  CACHE.set(entries, corpus);
  return corpus;
}
