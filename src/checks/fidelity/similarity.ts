// Near-duplicate search without comparing every pair: word shingles, MinHash signatures and
// LSH banding find candidate pairs with a high Jaccard similarity; an inverted index over rare
// shingles finds short texts contained in longer ones (containment, which Jaccard misses).
// Candidates are then verified exactly on their shingle sets.

const HASHES = 64;
const BANDS = 16; // 16 bands x 4 rows: candidates from Jaccard ~0.5 upwards
const ROWS = HASHES / BANDS;
/** Shingles shared by more documents than this are ignored by the containment index. */
const MAX_DF = 40;
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
export function shingles(ws: string[]): Set<number> {
  const k = ws.length >= 30 ? 3 : ws.length >= 4 ? 2 : 1;
  const out = new Set<number>();
  for (let i = 0; i + k <= ws.length; i++) out.add(fnv1a(ws.slice(i, i + k).join(' ')));
  return out;
}

function signature(sh: Set<number>): Uint32Array {
  const sig = new Uint32Array(HASHES).fill(0xffffffff);
  for (const x of sh) {
    for (let i = 0; i < HASHES; i++) {
      const v = mix(x ^ SEEDS[i]);
      if (v < sig[i]) sig[i] = v;
    }
  }
  return sig;
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
): SimilarPair[] {
  const seen = new Set<string>();
  const out: SimilarPair[] = [];
  const consider = (a: number, b: number) => {
    if (a === b) return;
    if (a > b) [a, b] = [b, a];
    const key = a + ':' + b;
    if (seen.has(key)) return;
    seen.add(key);
    const s = jaccardOf(sets[a], sets[b]);
    const p: SimilarPair = { a, b, ...s };
    if (accept(p)) out.push(p);
  };

  // 1. MinHash + LSH banding
  const buckets = new Map<string, number[]>();
  for (let i = 0; i < sets.length; i++) {
    if (sets[i].size < minShingles) continue;
    const sig = signature(sets[i]);
    for (let b = 0; b < BANDS; b++) {
      let key = b + ':';
      for (let r = 0; r < ROWS; r++) key += sig[b * ROWS + r].toString(36) + ',';
      const list = buckets.get(key);
      if (list) list.push(i);
      else buckets.set(key, [i]);
    }
  }
  for (const list of buckets.values()) {
    if (list.length < 2 || list.length > MAX_BUCKET) continue;
    for (let x = 0; x < list.length; x++) for (let y = x + 1; y < list.length; y++) consider(list[x], list[y]);
  }

  // 2. containment: postings of rare shingles, counted per candidate
  const postings = new Map<number, number[]>();
  for (let i = 0; i < sets.length; i++) {
    if (sets[i].size < minShingles) continue;
    for (const x of sets[i]) {
      const l = postings.get(x);
      if (l) {
        if (l.length <= MAX_DF) l.push(i);
      } else postings.set(x, [i]);
    }
  }
  const counts = new Map<number, number>();
  for (let i = 0; i < sets.length; i++) {
    const s = sets[i];
    if (s.size < minShingles) continue;
    counts.clear();
    for (const x of s) {
      const l = postings.get(x);
      if (!l || l.length > MAX_DF) continue;
      for (const j of l) if (j !== i && sets[j].size >= s.size) counts.set(j, (counts.get(j) ?? 0) + 1);
    }
    for (const [j, c] of counts) if (c / s.size >= 0.6) consider(i, j);
  }
  return out;
}
