// Near-duplicate search without comparing every pair: word shingles, MinHash signatures and
// LSH banding find candidate pairs with a high Jaccard similarity; an inverted index over rare
// shingles finds short texts contained in longer ones (containment, which Jaccard misses).
// Candidates are then verified exactly on their shingle sets.

const HASHES = 32;
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

const SEEDS: number[] = Array.from({ length: HASHES }, (_, i) => mix(0x9e3779b9 + i * 0x632be5ab));

export function words(normalised: string): string[] {
  return normalised.split(' ').filter((w) => w.length > 0);
}

/** Hashed word k-shingles (k = 3 for long texts, 2 for short ones, words for very short ones). */
export function shingles(ws: string[], hashes?: number[]): Set<number> {
  const k = ws.length >= 30 ? 3 : ws.length >= 4 ? 2 : 1;
  const h = hashes ?? ws.map(fnv1a);
  const out = new Set<number>();
  for (let i = 0; i + k <= h.length; i++) {
    let x = h[i];
    for (let j = 1; j < k; j++) x = mix(x ^ Math.imul(h[i + j], 0x9e3779b1 + j));
    out.add(x >>> 0);
  }
  return out;
}

/**
 * Stable LSD radix sort of parallel (hash, doc) arrays by the 32-bit hash: four 8-bit passes,
 * no comparisons, no boxing. Equal hashes keep their input (doc) order.
 */
export function sortByHash(hash: Uint32Array, doc: Int32Array): [Uint32Array, Int32Array] {
  const len = hash.length;
  let h = hash.slice();
  let d = doc.slice();
  let h2 = new Uint32Array(len);
  let d2 = new Int32Array(len);
  const count = new Int32Array(256);
  for (let shift = 0; shift < 32; shift += 8) {
    count.fill(0);
    for (let i = 0; i < len; i++) count[(h[i] >>> shift) & 255]++;
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = count[b];
      count[b] = sum;
      sum += c;
    }
    for (let i = 0; i < len; i++) {
      const at = count[(h[i] >>> shift) & 255]++;
      h2[at] = h[i];
      d2[at] = d[i];
    }
    [h, h2] = [h2, h];
    [d, d2] = [d2, d];
  }
  return [h, d];
}

function signatureInto(sh: Set<number>, sig: Uint32Array): void {
  sig.fill(0xffffffff);
  for (const x of sh) {
    for (let i = 0; i < HASHES; i++) {
      const v = mix(x ^ SEEDS[i]);
      if (v < sig[i]) sig[i] = v;
    }
  }
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

/**
 * Candidate pairs (a < b, indexes into `sets`) whose Jaccard similarity may reach about 0.5 (by
 * LSH) or where the smaller set may be mostly contained in the larger (by the rare-shingle
 * index); each candidate is verified and returned with its exact scores.
 */
export function similarPairs(
  sets: Set<number>[],
  accept: (p: SimilarPair) => boolean,
  minShingles = 3,
  lsh = true,
): SimilarPair[] {
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
    const s = jaccardOf(sets[a], sets[b]);
    const p: SimilarPair = { a, b, jaccard: s.jaccard, containment: s.containment };
    if (accept(p)) out.push(p);
  };

  const n = sets.length;
  const DOC = 2 ** 21; // doc ids packed under a 32-bit hash in one float64 (exact below 2^53)
  if (n >= DOC) throw new Error('too many entries for the similarity index');

  // 1. MinHash + LSH banding: per band, sort (bucket hash, doc) keys; equal hashes are a bucket
  if (lsh) {
    const sig = new Uint32Array(HASHES);
    const eligible: number[] = [];
    for (let i = 0; i < n; i++) if (sets[i].size >= minShingles) eligible.push(i);
    // (bucket hash, doc) per band; `eligible` is in ascending doc order, so a stable sort by
    // hash orders each band by (hash, doc)
    const keys: Uint32Array[] = Array.from({ length: BANDS }, () => new Uint32Array(eligible.length));
    const docs = Int32Array.from(eligible);
    eligible.forEach((i, k) => {
      signatureInto(sets[i], sig);
      for (let b = 0; b < BANDS; b++) {
        let key = 0x811c9dc5;
        for (let r = 0; r < ROWS; r++) key = mix(key ^ sig[b * ROWS + r]);
        keys[b][k] = key;
      }
    });
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

  // 2. containment: sort (shingle, doc) keys; shingles held by at most MAX_DF entries are
  // "rare"; count rare shingles shared per pair, keep pairs sharing most of one side's rare ones
  let total = 0;
  for (let i = 0; i < n; i++) if (sets[i].size >= minShingles) total += sets[i].size;
  // (shingle, doc) in doc order; a stable sort by shingle orders them by (shingle, doc)
  const hashes = new Uint32Array(total);
  const owners = new Int32Array(total);
  let k = 0;
  let uint32 = true;
  for (let i = 0; i < n; i++) {
    if (sets[i].size < minShingles) continue;
    for (const x of sets[i]) {
      if (x >>> 0 !== x) uint32 = false;
      hashes[k] = x;
      owners[k++] = i;
    }
  }
  let hs: ArrayLike<number>;
  let ds: ArrayLike<number>;
  if (uint32) [hs, ds] = sortByHash(hashes, owners);
  else {
    // values that are not 32-bit hashes (hand-built sets): sort (value, doc) as doubles
    const all = new Float64Array(total);
    k = 0;
    for (let i = 0; i < n; i++) {
      if (sets[i].size < minShingles) continue;
      for (const x of sets[i]) all[k++] = x * DOC + i;
    }
    all.sort();
    hs = Float64Array.from(all, (v) => Math.floor(v / DOC));
    ds = Int32Array.from(all, (v) => v % DOC);
  }
  const rare = new Uint32Array(n);
  const pairKeys: number[] = [];
  for (let x = 0; x < total; ) {
    const h = hs[x];
    let y = x + 1;
    while (y < total && hs[y] === h) y++;
    if (y - x <= MAX_DF) {
      for (let p = x; p < y; p++) rare[ds[p]]++;
      for (let p = x; p < y; p++)
        for (let q = p + 1; q < y; q++) {
          const a = ds[p];
          const b = ds[q];
          if (a !== b) pairKeys.push(a < b ? a * DOC + b : b * DOC + a);
        }
    }
    x = y;
  }
  const pk = Float64Array.from(pairKeys);
  pk.sort();
  for (let x = 0; x < pk.length; ) {
    let y = x + 1;
    while (y < pk.length && pk[y] === pk[x]) y++;
    const a = Math.floor(pk[x] / DOC);
    const b = pk[x] % DOC;
    const minRare = Math.min(rare[a], rare[b]);
    if (minRare >= 2 && (y - x) / minRare >= 0.6) consider(a, b);
    x = y;
  }
  return out;
}
