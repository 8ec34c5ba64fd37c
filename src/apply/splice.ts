// Line helpers for the apply step. Splicing itself is src/memory/edit.ts (spliceEdits); line
// starts come from the parser (src/memory/parse.ts) so both agree on what a line is.
import { lineAt, lineStarts as parserLineStarts } from '../memory/parse.js';

/** An edit on the ORIGINAL text ([start, end) replaced by text), with why it exists. */
export interface Splice {
  start: number;
  end: number;
  text: string;
  why?: string;
}

/** Offsets where each line starts (index 0 = line 1), plus text.length as the end of the last line. */
export function lineStarts(text: string): number[] {
  const out = parserLineStarts(text);
  if (out[out.length - 1] !== text.length) out.push(text.length);
  return out;
}

/** 1-based line holding offset (the last line for offsets at the very end). */
export function lineOf(ls: number[], offset: number): number {
  return Math.min(lineAt(ls, offset), Math.max(1, ls.length - 1));
}

/** The text of line n (1-based) without its line ending. */
export function lineText(text: string, ls: number[], n: number): string {
  return text.slice(ls[n - 1], ls[n]).replace(/\r?\n$/, '');
}

export const isBlank = (s: string): boolean => /^\s*$/.test(s);
