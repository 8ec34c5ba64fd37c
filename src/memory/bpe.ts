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
/** Token counts of LONG_PIECE-byte slices of long pieces (as latin1 byte strings). */
const sliceCache = new Map<string, number>();
/** Pieces longer than this (bytes) are counted in slices. */
const LONG_PIECE = 256;
const PIECE_CACHE_MAX = 100_000;

// ------------------------------------------------------------------ pre-tokenizer
// A hand-written scanner for cl100k's split pattern
//   (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
// giving exactly the regex's pieces (differential test in test/memory/bpe.test.ts), several
// times faster on ASCII. Classes of code points: letter, number, CR/LF, other white space, other.

const C_L = 1;
const C_N = 2;
const C_NL = 3; // \r or \n
const C_WS = 4; // other \s
const C_P = 5; // anything else

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_CLASS[c] =
    (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
      ? C_L
      : c >= 48 && c <= 57
        ? C_N
        : c === 10 || c === 13
          ? C_NL
          : c === 9 || c === 11 || c === 12 || c === 32
            ? C_WS
            : C_P;
}
const wideClass = new Map<number, number>();
const RE_L = /^\p{L}$/u;
const RE_N = /^\p{N}$/u;
const RE_S = /^\s$/u;

function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_CLASS[c];
  const cp = text.codePointAt(i)!;
  let k = wideClass.get(cp);
  if (k === undefined) {
    const ch = String.fromCodePoint(cp);
    k = RE_L.test(ch) ? C_L : RE_N.test(ch) ? C_N : RE_S.test(ch) ? C_WS : C_P;
    wideClass.set(cp, k);
  }
  return k;
}

/** UTF-16 length of the code point at i. */
function cpLen(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

/** End of the run of class `cls` starting at i (ASCII inline: most memory text is ASCII). */
function runOf(text: string, i: number, cls: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (ASCII_CLASS[c] !== cls) return i;
      i++;
    } else {
      if (classAt(text, i) !== cls) return i;
      i += cpLen(text, i);
    }
  }
  return i;
}

/** End of the piece starting at i (the split pattern's leftmost-alternative match). */
function pieceEnd(text: string, i: number): number {
  const n = text.length;
  const c = text.charCodeAt(i);
  // (?i:'s|'t|'re|'ve|'m|'ll|'d)
  if (c === 39 && i + 1 < n) {
    const a = text.charCodeAt(i + 1) | 0x20;
    if (a === 115 || a === 116 || a === 109 || a === 100) return i + 2;
    if (i + 2 < n) {
      const b = text.charCodeAt(i + 2) | 0x20;
      if ((a === 114 && b === 101) || (a === 118 && b === 101) || (a === 108 && b === 108)) return i + 3;
    }
  }
  const k = classAt(text, i);
  const len = cpLen(text, i);
  // [^\r\n\p{L}\p{N}]?\p{L}+
  if (k === C_L) return runOf(text, i + len, C_L);
  if (k !== C_N && k !== C_NL && i + len < n && classAt(text, i + len) === C_L) return runOf(text, i + len, C_L);
  // \p{N}{1,3}
  if (k === C_N) {
    let j = i + len;
    for (let d = 1; d < 3 && j < n && classAt(text, j) === C_N; d++) j += cpLen(text, j);
    return j;
  }
  //  ?[^\s\p{L}\p{N}]+[\r\n]*
  let p = -1;
  if (k === C_P) p = i;
  else if (c === 32 && i + 1 < n && classAt(text, i + 1) === C_P) p = i + 1;
  if (p >= 0) {
    let j = runOf(text, p, C_P);
    while (j < n && (text.charCodeAt(j) === 10 || text.charCodeAt(j) === 13)) j++;
    return j;
  }
  // White space (k is C_NL or C_WS): \s*[\r\n]+ | \s+(?!\S) | \s+
  let j = i;
  let lastNl = -1;
  while (j < n) {
    const kj = classAt(text, j);
    if (kj === C_NL) lastNl = j;
    else if (kj !== C_WS) break;
    j += cpLen(text, j);
  }
  if (lastNl >= 0) return lastNl + 1;
  if (j === n) return j;
  // Leave the last white space character to the next piece (` word`), unless it is alone.
  // (White space is always one UTF-16 unit, so the last character is at j - 1.)
  return j - 1 > i ? j - 1 : j;
}

/** The pieces of `text` under the split pattern, by the scanner (for tests). */
export function splitPieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const e = pieceEnd(text, i);
    out.push(text.slice(i, e));
    i = e;
  }
  return out;
}

/** The pieces of `text` under the split pattern, by js-tiktoken's regular expression (for tests). */
export function splitPiecesRegex(text: string): string[] {
  load();
  return text.match(pattern!) ?? [];
}

// U+017F (long s) matches `'s` case-insensitively under Unicode case folding; U+212A (Kelvin)
// would too for a `k`. Texts holding them take the regular expression.
const FOLDS_RE = /[\u017f\u212a]/;

// ------------------------------------------------------------------ piece table
// Counts of pieces seen before, looked up by the piece's place in the text: a file of
// 100,000 pieces would otherwise cut 100,000 short strings only to look each up in a Map.
// Open addressing over a hash of the piece's UTF-16 units; a slot matches when its stored
// piece equals the text there. Cleared when half full (words repeat: it rarely is).

const SLOT_BITS = 15;
const SLOTS = 1 << SLOT_BITS;
const slotHash = new Int32Array(SLOTS);
const slotCount = new Int32Array(SLOTS);
const slotPiece: Array<string | undefined> = new Array<string | undefined>(SLOTS).fill(undefined);
let slotsUsed = 0;

/** Whether `text` holds `piece` at offset i (pieces are short: a loop beats a builtin call). */
function samePiece(piece: string, text: string, i: number): boolean {
  for (let k = 0; k < piece.length; k++) if (piece.charCodeAt(k) !== text.charCodeAt(i + k)) return false;
  return true;
}

// Short ASCII pieces (` the`, `-`, `\n`, `.md`, ` helpers`: nine pieces of ten in memory text)
// are keyed by their code units packed into two integers, which ARE the piece: a hit needs no
// string comparison and touches no string. `lo`: the length (1-8) in the top 4 bits above
// units 0-3 (7 bits each), never 0 (the empty slot); `hi`: units 4-7 (0 for shorter pieces).
const SHORT_MAX = 8;
const SHORT_BITS = 14;
const SHORT_SLOTS = 1 << SHORT_BITS;
const shortLo = new Int32Array(SHORT_SLOTS);
const shortHi = new Int32Array(SHORT_SLOTS);
const shortCount = new Int32Array(SHORT_SLOTS);
let shortUsed = 0;

/** Token count of text.slice(i, e): short ASCII pieces by their packed key, others through the piece table. */
function countAt(text: string, i: number, e: number, map: Map<string, number>): number {
  const len = e - i;
  if (len <= SHORT_MAX) {
    // Units 0-3 into lo, 4-7 into hi; any non-ASCII unit sends the piece to the string table.
    let lo = 0;
    let hi = 0;
    let bad = 0;
    const mid = len < 4 ? e : i + 4;
    for (let k = i; k < mid; k++) {
      const c = text.charCodeAt(k);
      bad |= c;
      lo = (lo << 7) | c;
    }
    for (let k = mid; k < e; k++) {
      const c = text.charCodeAt(k);
      bad |= c;
      hi = (hi << 7) | c;
    }
    if (bad < 128) return countShort((len << 28) | lo, hi, text, i, e, map);
  }
  return countLong(text, i, e, map);
}

/** First slot of a short key (Fibonacci hashing of the two halves mixed). */
function shortSlot(lo: number, hi: number): number {
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> (32 - SHORT_BITS);
}

function countShort(lo: number, hi: number, text: string, i: number, e: number, map: Map<string, number>): number {
  let slot = shortSlot(lo, hi);
  for (;;) {
    const k = shortLo[slot];
    if (k === lo && shortHi[slot] === hi) return shortCount[slot];
    if (k === 0) break;
    slot = (slot + 1) & (SHORT_SLOTS - 1);
  }
  const n = pieceCount(text.slice(i, e), map);
  if (shortUsed >= SHORT_SLOTS >> 1) {
    shortLo.fill(0);
    shortUsed = 0;
    slot = shortSlot(lo, hi);
  }
  shortLo[slot] = lo;
  shortHi[slot] = hi;
  shortCount[slot] = n;
  shortUsed++;
  return n;
}

/** Token count of text.slice(i, e), through the piece table. */
function countLong(text: string, i: number, e: number, map: Map<string, number>): number {
  let h = 0x811c9dc5;
  for (let k = i; k < e; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  const len = e - i;
  let slot = h & (SLOTS - 1);
  for (;;) {
    const p = slotPiece[slot];
    if (p === undefined) break;
    if (slotHash[slot] === h && p.length === len && samePiece(p, text, i)) return slotCount[slot];
    slot = (slot + 1) & (SLOTS - 1);
  }
  const piece = text.slice(i, e);
  const n = pieceCount(piece, map);
  if (slotsUsed >= SLOTS >> 1) {
    slotPiece.fill(undefined);
    slotsUsed = 0;
    slot = h & (SLOTS - 1);
  }
  slotPiece[slot] = piece;
  slotHash[slot] = h;
  slotCount[slot] = n;
  slotsUsed++;
  return n;
}

/** cl100k_base token count of `text` (special tokens counted as text). */
export function countTokensFast(text: string): number {
  if (text.length === 0) return 0;
  const map = load();
  if (FOLDS_RE.test(text)) return countWithRegex(text, map);
  let count = 0;
  for (let i = 0; i < text.length; ) {
    const e = pieceEnd(text, i);
    count += countAt(text, i, e, map);
    i = e;
  }
  return count;
}

function countWithRegex(text: string, map: Map<string, number>): number {
  const re = pattern!;
  re.lastIndex = 0;
  let count = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) count += pieceCount(m[0], map);
  return count;
}

function pieceCount(piece: string, map: Map<string, number>): number {
  {
    let n = pieceCache.get(piece);
    if (n === undefined) {
      const bytes = ASCII.test(piece) ? piece : Buffer.from(piece, 'utf8').toString('latin1');
      if (bytes.length <= LONG_PIECE) n = mergeCount(bytes, map);
      else {
        // The merge is quadratic in the piece length: a 100 KB run of letters (a blob pasted
        // into memory) would take minutes. Count such pieces in LONG_PIECE-byte slices: an
        // estimate within a few tokens per slice, exact for every piece of ordinary text.
        // Slices repeat (runs of spaces, of `>`...): their counts are cached too.
        n = 0;
        for (let k = 0; k < bytes.length; k += LONG_PIECE) {
          const slice = bytes.slice(k, k + LONG_PIECE);
          let c = sliceCache.get(slice);
          if (c === undefined) {
            c = mergeCount(slice, map);
            if (sliceCache.size >= PIECE_CACHE_MAX) sliceCache.clear();
            sliceCache.set(slice, c);
          }
          n += c;
        }
      }
      if (pieceCache.size >= PIECE_CACHE_MAX) pieceCache.clear();
      pieceCache.set(piece, n);
    }
    return n;
  }
}

/** Milliseconds spent building the rank table (0 once built); for measurements. */
export function warmTokenizer(): number {
  if (ranks) return 0;
  const t0 = performance.now();
  load();
  return performance.now() - t0;
}

/** The same count through the split pattern's regular expression (for tests and measurements). */
export function countTokensRegex(text: string): number {
  return text.length === 0 ? 0 : countWithRegex(text, load());
}
