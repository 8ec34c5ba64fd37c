// A fast token COUNTER over js-tiktoken's cl100k_base ranks.
//
// Why not `new Tiktoken(cl100k_base).encode(text).length`? Building js-tiktoken's encoder
// decodes ~100k base64 ranks into byte arrays and keys a Map by `bytes.join(',')`; on a CI
// runner that is ~350 ms (o200k: ~640 ms), most of the Action's cold-start budget. Counting
// needs no token ids for decoding, so this module keys the same ranks by their bytes as a
// latin1 string (one char per byte) and runs the same byte-pair merge over such strings.
// Same ranks, same split pattern, same merge rule -> the same counts as js-tiktoken (tested).
// Special-token look-alikes (`<|endoftext|>`) are counted as plain text.
import cl100k from 'js-tiktoken/ranks/cl100k_base';

interface RankData {
  pat_str: string;
  bpe_ranks: string;
}

let ranks: Map<string, number> | undefined;
let pattern: RegExp | undefined;

function load(): Map<string, number> {
  if (ranks) return ranks;
  const data = cl100k as unknown as RankData;
  const map = new Map<string, number>();
  const text = data.bpe_ranks;
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    if (lineEnd > lineStart) {
      const fields = text.slice(lineStart, lineEnd).split(' ');
      const offset = Number.parseInt(fields[1], 10);
      for (let i = 2; i < fields.length; i++) {
        map.set(atob(fields[i]), offset + i - 2); // binary string: one char per byte
      }
    }
    lineStart = lineEnd + 1;
  }
  pattern = new RegExp(data.pat_str, 'gu');
  ranks = map;
  return map;
}

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/** Number of byte-pair tokens of one pre-tokenised piece (bytes as a latin1 string). */
function mergeCount(bytes: string, map: Map<string, number>): number {
  if (map.has(bytes)) return 1;
  const n = bytes.length;
  if (n <= 1) return n;
  // bounds[i] is the start of part i; the last bound is n.
  const bounds: number[] = [];
  for (let i = 0; i <= n; i++) bounds.push(i);
  // pairRank[i] = rank of parts i and i+1 merged (Infinity when not a token).
  const pairRank: number[] = [];
  for (let i = 0; i < n - 1; i++) pairRank.push(map.get(bytes.slice(i, i + 2)) ?? Infinity);
  while (pairRank.length > 0) {
    let min = Infinity;
    let at = -1;
    for (let i = 0; i < pairRank.length; i++) {
      if (pairRank[i] < min) {
        min = pairRank[i];
        at = i;
      }
    }
    if (at === -1) break;
    // Merge part at and at+1.
    bounds.splice(at + 1, 1);
    pairRank.splice(at, 1);
    if (at > 0) pairRank[at - 1] = map.get(bytes.slice(bounds[at - 1], bounds[at + 1])) ?? Infinity;
    if (at < pairRank.length) pairRank[at] = map.get(bytes.slice(bounds[at], bounds[at + 2])) ?? Infinity;
  }
  return bounds.length - 1;
}

/** Token counts of recently seen pieces (words repeat a lot); cleared when it grows large. */
const pieceCache = new Map<string, number>();
/** Pieces longer than this (bytes) are counted in slices. */
const LONG_PIECE = 256;
const PIECE_CACHE_MAX = 100_000;

/** cl100k_base token count of `text` (special tokens counted as text). */
export function countTokensFast(text: string): number {
  if (text.length === 0) return 0;
  const map = load();
  const re = pattern!;
  re.lastIndex = 0;
  let count = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const piece = m[0];
    let n = pieceCache.get(piece);
    if (n === undefined) {
      const bytes = ASCII.test(piece) ? piece : Buffer.from(piece, 'utf8').toString('latin1');
      if (bytes.length <= LONG_PIECE) n = mergeCount(bytes, map);
      else {
        // The merge is quadratic in the piece length: a 100 KB run of letters (a blob pasted
        // into memory) would take minutes. Count such pieces in LONG_PIECE-byte slices: an
        // estimate within a few tokens per slice, exact for every piece of ordinary text.
        n = 0;
        for (let k = 0; k < bytes.length; k += LONG_PIECE) n += mergeCount(bytes.slice(k, k + LONG_PIECE), map);
      }
      if (pieceCache.size >= PIECE_CACHE_MAX) pieceCache.clear();
      pieceCache.set(piece, n);
    }
    count += n;
  }
  return count;
}

/** Milliseconds spent building the rank table (0 once built); for measurements. */
export function warmTokenizer(): number {
  if (ranks) return 0;
  const t0 = performance.now();
  load();
  return performance.now() - t0;
}
