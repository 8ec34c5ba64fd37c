// Near-duplicate search without comparing every pair: word shingles, MinHash signatures and
// LSH banding find candidate pairs with a high Jaccard similarity; an inverted index over rare
// shingles finds short texts contained in longer ones (containment, which Jaccard misses).
// Candidates are then verified exactly on their shingle sets.
//
// Sets of hashes are stored as `HashSets`: each set sorted and without repeats, all sets back to
// back in one Uint32Array. No number is boxed, a set costs no allocation of its own, and two
// sets are compared by one merge pass.

const HASHES = 32; // a multiple of 4: `signatureInto` takes four seeds per pass
const BANDS = 8; // 8 bands x 4 rows: LSH candidates from Jaccard ~0.6 upwards (the postings pass covers containment)
const ROWS = HASHES / BANDS;
/** Shingles shared by more documents than this are ignored by the containment index. */
const MAX_DF = 8;
/** Buckets larger than this are templates, not duplicates: skipped (exact duplicates are found separately). */
const MAX_BUCKET = 64;

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A 32-bit hash of one word (for bag-of-words sets). */
export function hashWord(w: string): number {
  return fnv1a(w);
}

function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

const SEEDS = Uint32Array.from({ length: HASHES }, (_, i) => mix(0x9e3779b9 + i * 0x632be5ab));

export function words(normalised: string): string[] {
  return normalised.split(' ').filter((w) => w.length > 0);
}

/** Shingle size: 3 words for long texts, 2 for short ones, single words for very short ones. */
function shingleSize(words: number): number {
  return words >= 30 ? 3 : words >= 4 ? 2 : 1;
}

/**
 * Writes the hashed word k-shingles of the word hashes `h[0..n)` into `out` (which must hold
 * `n` values) and returns how many there are (with repeats).
 */
export function shingleHashes(h: ArrayLike<number>, n: number, out: Uint32Array): number {
  const k = shingleSize(n);
  let c = 0;
  for (let i = 0; i + k <= n; i++) {
    let x = h[i];
    for (let j = 1; j < k; j++) x = mix(x ^ Math.imul(h[i + j], 0x9e3779b1 + j));
    out[c++] = x >>> 0;
  }
  return c;
}

/** Hashed word k-shingles (k = 3 for long texts, 2 for short ones, words for very short ones). */
export function shingles(ws: string[], hashes?: number[]): Set<number> {
  const h = hashes ?? ws.map(fnv1a);
  const out = new Uint32Array(h.length);
  return new Set(out.subarray(0, shingleHashes(h, h.length, out)));
}

/** Sorted sets of 32-bit values, stored back to back: set `i` is `values[start[i] .. start[i + 1])`. */
export class HashSets {
  constructor(
    readonly values: Uint32Array,
    readonly start: Int32Array,
  ) {}

  get length(): number {
    return this.start.length - 1;
  }

  size(i: number): number {
    return this.start[i + 1] - this.start[i];
  }

  /** Jaccard similarity and containment (|A ∩ B| / min(|A|, |B|)) of sets `a` and `b`. */
  similarity(a: number, b: number): { jaccard: number; containment: number } {
    const v = this.values;
    let x = this.start[a];
    const xe = this.start[a + 1];
    let y = this.start[b];
    const ye = this.start[b + 1];
    const na = xe - x;
    const nb = ye - y;
    let inter = 0;
    while (x < xe && y < ye) {
      const p = v[x];
      const q = v[y];
      if (p === q) {
        inter++;
        x++;
        y++;
      } else if (p < q) x++;
      else y++;
    }
    const union = na + nb - inter;
    const small = Math.min(na, nb);
    return { jaccard: union ? inter / union : 0, containment: small ? inter / small : 0 };
  }

  /** `HashSets` holding the given sets (or any iterables) of 32-bit unsigned values. */
  static from(sets: Iterable<number>[]): HashSets {
    const b = new HashSetsBuilder();
    for (const s of sets) {
      const list = [...s];
      const arr = Uint32Array.from(list);
      if (!list.every((x, k) => arr[k] === x)) throw new Error('HashSets hold 32-bit unsigned values only');
      b.push(arr, arr.length);
    }
    return b.build();
  }
}

/** Builds `HashSets` one set at a time, from unsorted values with repeats. */
export class HashSetsBuilder {
  private values: Uint32Array = new Uint32Array(4096);
  private start: number[] = [0];
  private end = 0;

  /** Adds the set of `vals[0..n)` (sorted in place). */
  push(vals: Uint32Array, n: number): void {
    const s = sortPrefix(vals, n);
    if (this.end + n > this.values.length) {
      let cap = this.values.length * 2;
      while (cap < this.end + n) cap *= 2;
      const grown = new Uint32Array(cap);
      grown.set(this.values.subarray(0, this.end));
      this.values = grown;
    }
    const out = this.values;
    let e = this.end;
    for (let i = 0; i < n; i++) if (i === 0 || s[i] !== s[i - 1]) out[e++] = s[i];
    this.end = e;
    this.start.push(e);
  }

  build(): HashSets {
    return new HashSets(this.values.slice(0, this.end), Int32Array.from(this.start));
  }
}

/** Sorts `vals[0..n)` in place: insertion sort for the short sets most texts have (no call into the native sort). */
function sortPrefix(vals: Uint32Array, n: number): Uint32Array {
  if (n > 48) return vals.subarray(0, n).sort();
  for (let i = 1; i < n; i++) {
    const x = vals[i];
    let j = i - 1;
    while (j >= 0 && vals[j] > x) {
      vals[j + 1] = vals[j];
      j--;
    }
    vals[j + 1] = x;
  }
  return vals;
}

/** Radix sort digit: three passes of 11 bits cover 32-bit keys. */
const RADIX_BITS = 11;
const RADIX = 1 << RADIX_BITS;

/**
 * Stable LSD radix sort of parallel (hash, doc) arrays by the 32-bit hash: three 11-bit passes,
 * no comparisons, no boxing. Equal hashes keep their input (doc) order. The inputs are left as
 * they are: the passes go input -> A -> B -> A.
 */
export function sortByHash(hash: Uint32Array, doc: Int32Array): [Uint32Array, Int32Array] {
  const len = hash.length;
  const hA = new Uint32Array(len);
  const dA = new Int32Array(len);
  const hB = new Uint32Array(len);
  const dB = new Int32Array(len);
  const count = new Int32Array(RADIX);
  radixPass(hash, doc, hA, dA, 0, count);
  radixPass(hA, dA, hB, dB, RADIX_BITS, count);
  radixPass(hB, dB, hA, dA, 2 * RADIX_BITS, count);
  return [hA, dA];
}

/** One stable counting pass on the digit of `h` at `shift`, from (h, d) into (toH, toD). */
function radixPass(h: Uint32Array, d: Int32Array, toH: Uint32Array, toD: Int32Array, shift: number, count: Int32Array): void {
  const len = h.length;
  count.fill(0);
  for (let i = 0; i < len; i++) count[(h[i] >>> shift) & (RADIX - 1)]++;
  let sum = 0;
  for (let b = 0; b < RADIX; b++) {
    const c = count[b];
    count[b] = sum;
    sum += c;
  }
  for (let i = 0; i < len; i++) {
    const at = count[(h[i] >>> shift) & (RADIX - 1)]++;
    toH[at] = h[i];
    toD[at] = d[i];
  }
}

/**
 * Per seed, the first step of `mix(x ^ seed)` that depends on the seed alone: since shifts and
 * xors distribute, `y ^ (y >>> 16)` for `y = x ^ seed` is `(x ^ (x >>> 16)) ^ SEED_HALF[i]`.
 */
const SEED_HALF = Int32Array.from(SEEDS, (s) => s ^ (s >>> 16));

/** `mix(x ^ SEEDS[i])` from its second step on (`half`: `x ^ (x >>> 16)`), with the sign bit flipped. */
function seeded(half: number, seedHalf: number): number {
  let y = Math.imul(half ^ seedHalf, 0x7feb352d);
  y = Math.imul(y ^ (y >>> 15), 0x846ca68b);
  return y ^ (y >>> 16) ^ 0x80000000;
}

/**
 * MinHash signature of one set into row `row` of `sig`: `sig[row + i]` is the least
 * `mix(x ^ SEEDS[i])` over the set's values (given as `half`, each value's seed-independent
 * first step). Values are kept with the sign bit flipped so every step is int32 arithmetic and
 * every comparison a plain int32 one (order-preserving for the unsigned values). Four seeds per
 * pass over the values: four independent hash chains, their minimums kept in registers.
 */
function signatureInto(half: Int32Array, n: number, sig: Int32Array, row: number): void {
  for (let i = 0; i < HASHES; i += 4) {
    const s0 = SEED_HALF[i];
    const s1 = SEED_HALF[i + 1];
    const s2 = SEED_HALF[i + 2];
    const s3 = SEED_HALF[i + 3];
    let m0 = 0x7fffffff;
    let m1 = 0x7fffffff;
    let m2 = 0x7fffffff;
    let m3 = 0x7fffffff;
    for (let k = 0; k < n; k++) {
      const h = half[k];
      const y0 = seeded(h, s0);
      const y1 = seeded(h, s1);
      const y2 = seeded(h, s2);
      const y3 = seeded(h, s3);
      if (y0 < m0) m0 = y0;
      if (y1 < m1) m1 = y1;
      if (y2 < m2) m2 = y2;
      if (y3 < m3) m3 = y3;
    }
    sig[row + i] = m0;
    sig[row + i + 1] = m1;
    sig[row + i + 2] = m2;
    sig[row + i + 3] = m3;
  }
}

/** The MinHash signature of every doc: row `k` (`sig[k * HASHES + i]`) is that of `docs[k]`. */
function signatures(sets: HashSets, docs: Int32Array): Int32Array {
  const { values, start } = sets;
  const sig = new Int32Array(docs.length * HASHES);
  let half = new Int32Array(256);
  for (let k = 0; k < docs.length; k++) {
    const from = start[docs[k]];
    const n = start[docs[k] + 1] - from;
    if (n > half.length) half = new Int32Array(Math.max(n, half.length * 2));
    for (let v = 0; v < n; v++) {
      const x = values[from + v];
      half[v] = x ^ (x >>> 16);
    }
    signatureInto(half, n, sig, k * HASHES);
  }
  return sig;
}

/**
 * A set of (a, b) index pairs: open addressing over two Int32Arrays, so no number is boxed
 * (pair keys above 2^31 would be heap numbers in a Set) and nothing is allocated per pair.
 */
export class PairSet {
  private a: Int32Array;
  private b: Int32Array;
  private mask: number;
  private n = 0;
  constructor(capacity = 1024) {
    let cap = 1024;
    while (cap < capacity * 2) cap *= 2;
    this.a = new Int32Array(cap).fill(-1);
    this.b = new Int32Array(cap);
    this.mask = cap - 1;
  }
  get size(): number {
    return this.n;
  }
  private slot(a: number, b: number): number {
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b);
    h ^= h >>> 15;
    return h & this.mask;
  }
  has(a: number, b: number): boolean {
    for (let i = this.slot(a, b); ; i = (i + 1) & this.mask) {
      const x = this.a[i];
      if (x === -1) return false;
      if (x === a && this.b[i] === b) return true;
    }
  }
  /** Adds the pair; false when it was already there. */
  add(a: number, b: number): boolean {
    if ((this.n + 1) * 2 > this.mask + 1) this.grow();
    for (let i = this.slot(a, b); ; i = (i + 1) & this.mask) {
      const x = this.a[i];
      if (x === -1) {
        this.a[i] = a;
        this.b[i] = b;
        this.n++;
        return true;
      }
      if (x === a && this.b[i] === b) return false;
    }
  }
  private grow(): void {
    const oa = this.a;
    const ob = this.b;
    const cap = (this.mask + 1) * 2;
    this.a = new Int32Array(cap).fill(-1);
    this.b = new Int32Array(cap);
    this.mask = cap - 1;
    this.n = 0;
    for (let i = 0; i < oa.length; i++) if (oa[i] !== -1) this.add(oa[i], ob[i]);
  }
}

export interface SimilarPair {
  a: number;
  b: number;
  jaccard: number;
  /** |A ∩ B| / min(|A|, |B|). */
  containment: number;
}

export function jaccardOf(a: Set<number>, b: Set<number>): { jaccard: number; containment: number } {
  let small = a;
  let big = b;
  if (a.size > b.size) {
    small = b;
    big = a;
  }
  let inter = 0;
  for (const x of small) if (big.has(x)) inter++;
  const union = a.size + b.size - inter;
  return { jaccard: union ? inter / union : 0, containment: small.size ? inter / small.size : 0 };
}

/** The most sets the index takes (doc ids stay small integers). */
const DOC = 2 ** 21;

/**
 * Candidate pairs (a < b, indexes into `sets`) whose Jaccard similarity may reach about 0.5 (by
 * LSH) or where the smaller set may be mostly contained in the larger (by the rare-shingle
 * index); each candidate is verified and returned with its exact scores.
 */
export function similarPairs(
  input: HashSets | Set<number>[],
  accept: (p: SimilarPair) => boolean,
  minShingles = 3,
  lsh = true,
): SimilarPair[] {
  const sets = input instanceof HashSets ? input : HashSets.from(input);
  if (sets.length >= DOC) throw new Error('too many entries for the similarity index');
  const seen = new PairSet();
  const out: SimilarPair[] = [];
  const consider = (a: number, b: number) => {
    if (a === b) return;
    if (a > b) {
      const t = a;
      a = b;
      b = t;
    }
    if (!seen.add(a, b)) return;
    const s = sets.similarity(a, b);
    const p: SimilarPair = { a, b, jaccard: s.jaccard, containment: s.containment };
    if (accept(p)) out.push(p);
  };
  const docs = eligible(sets, minShingles);
  const ids = valueIds(sets, docs);
  if (lsh) lshCandidates(docs, bandKeys(signatures(sets, docs), docs.length), consider);
  containmentCandidates(sets, docs, ids, consider);
  return out;
}

/** The sets with at least `minShingles` values, in ascending order. */
function eligible(sets: HashSets, minShingles: number): Int32Array {
  const { start } = sets;
  let count = 0;
  for (let i = 0; i < sets.length; i++) if (start[i + 1] - start[i] >= minShingles) count++;
  const docs = new Int32Array(count);
  let k = 0;
  for (let i = 0; i < sets.length; i++) if (start[i + 1] - start[i] >= minShingles) docs[k++] = i;
  return docs;
}

/** LSH banding: per band, sort (bucket key, doc); equal keys are a bucket. */
function lshCandidates(docs: Int32Array, keys: Uint32Array[], consider: (a: number, b: number) => void): void {
  // docs in ascending order, so a stable sort by key orders each band by (key, doc)
  for (const band of keys) {
    const [hs, ds] = sortByHash(band, docs);
    for (let x = 0; x < hs.length; ) {
      const h = hs[x];
      let y = x + 1;
      while (y < hs.length && hs[y] === h) y++;
      if (y - x >= 2 && y - x <= MAX_BUCKET)
        for (let p = x; p < y; p++) for (let q = p + 1; q < y; q++) consider(ds[p], ds[q]);
      x = y;
    }
  }
}

/** The LSH bucket key of every doc (signature row) in every band. */
function bandKeys(sig: Int32Array, rows: number): Uint32Array[] {
  const keys: Uint32Array[] = Array.from({ length: BANDS }, () => new Uint32Array(rows));
  for (let k = 0; k < rows; k++) {
    for (let b = 0; b < BANDS; b++) {
      let key = 0x811c9dc5;
      for (let r = 0; r < ROWS; r++) key = mix(key ^ ((sig[k * HASHES + b * ROWS + r] ^ 0x80000000) >>> 0));
      keys[b][k] = key;
    }
  }
  return keys;
}

/**
 * Containment, over the docs' (value, doc) postings grouped by value: values held by at most
 * MAX_DF docs are "rare"; count rare values shared per pair, keep pairs sharing most of one
 * side's rare ones. Pairs are considered in (a, b) order.
 */
function containmentCandidates(sets: HashSets, docs: Int32Array, valueIds: ValueIds, consider: (a: number, b: number) => void): void {
  const n = sets.length;
  const { start } = sets;
  const { valueOf, df, ids } = valueIds;
  const rare = new Uint32Array(n);
  // the docs of each value shared by 2..MAX_DF docs, back to back by value id (in doc order)
  const from = new Int32Array(ids + 1);
  for (let id = 0; id < ids; id++) from[id + 1] = from[id] + (df[id] >= 2 && df[id] <= MAX_DF ? df[id] : 0);
  const holders = new Int32Array(from[ids]);
  const fill = from.slice(0, ids);
  let p = 0;
  for (let k = 0; k < docs.length; k++) {
    const doc = docs[k];
    for (let v = start[doc]; v < start[doc + 1]; v++) {
      const id = valueOf[p++];
      const f = df[id];
      if (f > MAX_DF) continue;
      rare[doc]++;
      if (f >= 2) holders[fill[id]++] = doc;
    }
  }
  // one (a, b) per rare value shared, a < b
  let pairCount = 0;
  for (let id = 0; id < ids; id++) {
    const c = from[id + 1] - from[id];
    pairCount += (c * (c - 1)) / 2;
  }
  const firsts = new Int32Array(pairCount);
  const seconds = new Int32Array(pairCount);
  pairCount = 0;
  for (let id = 0; id < ids; id++)
    for (let x = from[id]; x < from[id + 1]; x++)
      for (let y = x + 1; y < from[id + 1]; y++) {
        const a = holders[x];
        const b = holders[y];
        if (a === b) continue;
        firsts[pairCount] = a < b ? a : b;
        seconds[pairCount++] = a < b ? b : a;
      }
  // sorted by (a, b): by b, then stably by a
  const [bySecond, firstsBySecond] = countingSort(seconds, firsts, pairCount, n);
  const [sortedFirsts, sortedSeconds] = countingSort(firstsBySecond, bySecond, pairCount, n);
  for (let x = 0; x < pairCount; ) {
    const a = sortedFirsts[x];
    const b = sortedSeconds[x];
    let y = x + 1;
    while (y < pairCount && sortedFirsts[y] === a && sortedSeconds[y] === b) y++;
    const minRare = Math.min(rare[a], rare[b]);
    if (minRare >= 2 && (y - x) / minRare >= 0.6) consider(a, b);
    x = y;
  }
}

/** The distinct values of some docs' sets, numbered: `ids` of them. */
interface ValueIds {
  /** The id of each posting: the docs' values, doc after doc. */
  valueOf: Int32Array;
  /** By id: how many of the docs hold the value. */
  df: Int32Array;
  ids: number;
}

/**
 * The values of the docs numbered in order of first sight, by an open-addressing table of
 * (value, id) slots: grouping the postings by value needs no sort of them all (most values
 * recur: the table stays small next to the postings).
 */
function valueIds(sets: HashSets, docs: Int32Array): ValueIds {
  const { values, start } = sets;
  let total = 0;
  for (let k = 0; k < docs.length; k++) total += start[docs[k] + 1] - start[docs[k]];
  const valueOf = new Int32Array(total);
  const df = new Int32Array(total);
  // room for `total / 4` distinct values without growing (texts share many of their values)
  let bits = 12;
  while (1 << bits < total / 2) bits++;
  // slot i: its value at 2 * i, its id + 1 at 2 * i + 1 (0: empty), one cache line
  let slots: Int32Array = new Int32Array(2 << bits);
  let ids = 0;
  let p = 0;
  for (let k = 0; k < docs.length; k++) {
    const doc = docs[k];
    for (let v = start[doc]; v < start[doc + 1]; v++) {
      const x = values[v] | 0;
      let i = Math.imul(x, 0x9e3779b1) >>> (32 - bits);
      const mask = (1 << bits) - 1;
      let id: number;
      for (;;) {
        const at = slots[2 * i + 1];
        if (at === 0) {
          id = ids++;
          slots[2 * i] = x;
          slots[2 * i + 1] = id + 1;
          break;
        }
        if (slots[2 * i] === x) {
          id = at - 1;
          break;
        }
        i = (i + 1) & mask;
      }
      valueOf[p++] = id;
      df[id]++;
      if (ids * 2 > 1 << bits) slots = rehashed(slots, ++bits);
    }
  }
  return { valueOf, df, ids };
}

/** The (value, id + 1) slots of `valueIds` in a table of 2^bits slots. */
function rehashed(old: Int32Array, bits: number): Int32Array {
  const slots = new Int32Array(2 << bits);
  const mask = (1 << bits) - 1;
  for (let j = 0; j < old.length; j += 2) {
    if (old[j + 1] === 0) continue;
    let i = Math.imul(old[j], 0x9e3779b1) >>> (32 - bits);
    while (slots[2 * i + 1] !== 0) i = (i + 1) & mask;
    slots[2 * i] = old[j];
    slots[2 * i + 1] = old[j + 1];
  }
  return slots;
}

/**
 * Stable counting sort of the parallel arrays `key[0..len)` (values in [0, n)) and
 * `other[0..len)` by key; returns the sorted (key, other). The inputs are left as they are.
 */
function countingSort(key: Int32Array, other: Int32Array, len: number, n: number): [Int32Array, Int32Array] {
  const at = new Int32Array(n + 1);
  for (let i = 0; i < len; i++) at[key[i] + 1]++;
  for (let k = 0; k < n; k++) at[k + 1] += at[k];
  const sortedKey = new Int32Array(len);
  const sortedOther = new Int32Array(len);
  for (let i = 0; i < len; i++) {
    const to = at[key[i]]++;
    sortedKey[to] = key[i];
    sortedOther[to] = other[i];
  }
  return [sortedKey, sortedOther];
}
