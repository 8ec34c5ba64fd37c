// Minimal splice helpers: edits are [start, end) character ranges of the ORIGINAL text, applied
// back to front, so everything outside them stays byte-identical.

export interface Splice {
  start: number;
  end: number;
  text: string;
  /** Why (for error messages). */
  why?: string;
}

/** Applies non-overlapping edits; throws when two overlap (a planning bug, never silently merged). */
export function applySplices(text: string, edits: Splice[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].start < sorted[i - 1].end)
      throw new Error(`overlapping edits: ${sorted[i - 1].why ?? ''} [${sorted[i - 1].start},${sorted[i - 1].end}) and ${sorted[i].why ?? ''} [${sorted[i].start},${sorted[i].end})`);
  }
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** Offsets where each line starts (index 0 = line 1); one extra entry = text.length. */
export function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) out.push(i + 1);
  if (out[out.length - 1] !== text.length) out.push(text.length);
  return out;
}

/** Number of lines (a final line without newline counts; a trailing newline does not add one). */
export function lineCount(ls: number[]): number {
  return ls.length - 1;
}

/** The text of line n (1-based) without its line ending. */
export function lineText(text: string, ls: number[], n: number): string {
  return text.slice(ls[n - 1], ls[n]).replace(/\r?\n$/, '');
}

/** 1-based line holding offset. */
export function lineOf(ls: number[], offset: number): number {
  let lo = 0;
  let hi = ls.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ls[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return Math.min(lo + 1, Math.max(1, ls.length - 1));
}

export const isBlank = (s: string): boolean => /^\s*$/.test(s);
