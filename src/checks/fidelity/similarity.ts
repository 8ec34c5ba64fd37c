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

function signatureInto(sh: Set<number>, sig: Uint32Array): void {
  sig.fill(0xffffffff);
  for (const x of sh) {
    for (let i = 0; i < HASHES; i++) {
      const v = mix(x ^ SEEDS[i]);
      if (v < sig[i]) sig[i] = v;
    }
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
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
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
  const seen = new Set<number>();
  const out: SimilarPair[] = [];
  const consider = (a: number, b: number) => {
    if (a === b) return;
    if (a > b) [a, b] = [b, a];
    const key = a * 2 ** 21 + b;
    if (seen.has(key)) return;
    seen.add(key);
    const s = jaccardOf(sets[a], sets[b]);
    const p: SimilarPair = { a, b, ...s };
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
    const keys: Float64Array[] = Array.from({ length: BANDS }, () => new Float64Array(eligible.length));
    eligible.forEach((i, k) => {
      signatureInto(sets[i], sig);
      for (let b = 0; b < BANDS; b++) {
        let key = 0x811c9dc5;
        for (let r = 0; r < ROWS; r++) key = mix(key ^ sig[b * ROWS + r]);
        keys[b][k] = key * DOC + i;
      }
    });
    for (const arr of keys) {
      arr.sort();
      for (let x = 0; x < arr.length; ) {
        const h = Math.floor(arr[x] / DOC);
        let y = x + 1;
        while (y < arr.length && Math.floor(arr[y] / DOC) === h) y++;
        if (y - x >= 2 && y - x <= MAX_BUCKET)
          for (let p = x; p < y; p++) for (let q = p + 1; q < y; q++) consider(arr[p] % DOC, arr[q] % DOC);
        x = y;
      }
    }
  }

  // 2. containment: sort (shingle, doc) keys; shingles held by at most MAX_DF entries are
  // "rare"; count rare shingles shared per pair, keep pairs sharing most of one side's rare ones
  let total = 0;
  for (let i = 0; i < n; i++) if (sets[i].size >= minShingles) total += sets[i].size;
  const all = new Float64Array(total);
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (sets[i].size < minShingles) continue;
    for (const x of sets[i]) all[k++] = x * DOC + i;
  }
  all.sort();
  const rare = new Uint32Array(n);
  const pairKeys: number[] = [];
  for (let x = 0; x < all.length; ) {
    const h = Math.floor(all[x] / DOC);
    let y = x + 1;
    while (y < all.length && Math.floor(all[y] / DOC) === h) y++;
    if (y - x <= MAX_DF) {
      for (let p = x; p < y; p++) rare[all[p] % DOC]++;
      for (let p = x; p < y; p++)
        for (let q = p + 1; q < y; q++) {
          const a = all[p] % DOC;
          const b = all[q] % DOC;
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
