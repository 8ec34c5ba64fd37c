// Editing memory files by splicing the original text at source offsets. Everything outside
// the edited ranges stays byte-identical; verifyEdits re-parses the result to prove it.
import type { Entry, MemoryFile } from '../types.js';
import { parseMemoryText, type ParseResult } from './parse.js';

export interface TextEdit {
  /** [start, end) character offsets into MemoryFile.text. */
  start: number;
  end: number;
  /** Replacement text ('' to delete). */
  text: string;
}

/**
 * Applies edits to `text`. Edits may come in any order; they are sorted by start and must not
 * overlap (two insertions at the same offset are applied in the given order). Throws on an
 * overlap or an out-of-range edit.
 */
export function spliceEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = edits
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.start - b.e.start || a.e.end - b.e.end || a.i - b.i)
    .map((x) => x.e);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (!(Number.isInteger(e.start) && Number.isInteger(e.end)) || e.start < 0 || e.end > text.length || e.end < e.start) {
      throw new Error(`edit [${e.start}, ${e.end}) is out of range for a text of ${text.length} characters`);
    }
    if (e.start < at) throw new Error(`edits overlap at offset ${e.start} (previous edit ends at ${at})`);
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** An edit replacing [start, end) with `text`. */
export function replaceRangeEdit(start: number, end: number, text: string): TextEdit {
  return { start, end, text };
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset just after the line ending of the line holding offset `at` (or the text's end). */
function afterLineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl === -1 ? text.length : nl + 1;
}

function isBlankLine(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) return false;
  }
  return true;
}

/**
 * An edit removing the entry's whole lines: from the start of its first line through the line
 * ending of its last line. When that leaves two blank lines in a row (or blank lines at the
 * start or end of the file) one blank line goes with it. A file without a final newline keeps
 * having none. A topic entry (the whole file) becomes an empty text; callers delete the file.
 */
export function deleteEntryEdit(file: MemoryFile, entry: Entry): TextEdit {
  const text = file.text;
  if (entry.kind === 'topic') return { start: 0, end: text.length, text: '' };
  let start = lineStartOf(text, entry.start);
  const lastChar = Math.max(entry.start, entry.end - 1);
  let end = text.charCodeAt(lastChar) === 10 ? lastChar + 1 : afterLineEnd(text, entry.end);

  if (end >= text.length) {
    // Deleting through the end of the file: also drop the blank lines before, and keep the
    // file's final-newline convention.
    const endsWithNewline = text.endsWith('\n');
    let s = start;
    while (s > 0) {
      const prevStart = lineStartOf(text, s - 1);
      if (!isBlankLine(text, prevStart, s)) break;
      s = prevStart;
    }
    if (!endsWithNewline && s > 0) {
      // Remove the line ending that precedes, so the last kept line ends the file as before.
      let p = s - 1; // the '\n'
      if (p > 0 && text.charCodeAt(p - 1) === 13) p--;
      s = p;
    }
    return { start: s, end: text.length, text: '' };
  }

  const prevBlank = start === 0 || isBlankLine(text, lineStartOf(text, start - 1), start);
  const nextEnd = afterLineEnd(text, end);
  const nextBlank = isBlankLine(text, end, nextEnd);
  if (prevBlank && nextBlank) end = nextEnd;
  return { start, end, text: '' };
}

/** The parse of a file's original text that verifyEdits compares with (pass it as `parsed`). */
export function parseForVerify(before: MemoryFile, opts: { protectPatterns?: string[] } = {}): ParseResult {
  return parseMemoryText(before.path, before.text, before.format, { memoryDir: before.memoryDir, protectPatterns: opts.protectPatterns, skipTokens: true });
}

export interface VerifyResult {
  ok: boolean;
  problems: string[];
}

/**
 * Re-parses `after` and proves the edit is what was planned: every entry of `before` that is
 * not in removedIds / changedIds is still present with byte-identical text (as many times as
 * before), removed entries are gone, changed entries no longer have their old text, protected
 * entries were not planned, and the edit introduced no new parse problem.
 */
export function verifyEdits(
  before: MemoryFile,
  after: string,
  expected: { removedIds?: string[]; changedIds?: string[] },
  opts: { protectPatterns?: string[]; parsed?: ParseResult } = {},
): VerifyResult {
  const problems: string[] = [];
  const ctx = { memoryDir: before.memoryDir, protectPatterns: opts.protectPatterns, skipTokens: true };
  // `parsed` (parseForVerify with the same patterns): several candidate edits of one file are
  // checked against one parse of its original text.
  const old = opts.parsed ?? parseMemoryText(before.path, before.text, before.format, ctx);
  const now = parseMemoryText(before.path, after, before.format, ctx);
  const removed = new Set(expected.removedIds ?? []);
  const changed = new Set(expected.changedIds ?? []);
  const known = new Set(old.entries.map((e) => e.id));
  for (const id of [...removed, ...changed]) if (!known.has(id)) problems.push(`planned entry ${id} is not in ${before.path}`);

  const count = (list: Entry[], pred: (e: Entry) => boolean) => {
    const m = new Map<string, number>();
    for (const e of list) if (pred(e)) m.set(e.text, (m.get(e.text) ?? 0) + 1);
    return m;
  };
  const kept = count(old.entries, (e) => !removed.has(e.id) && !changed.has(e.id));
  const afterCounts = count(now.entries, () => true);
  for (const e of old.entries) {
    if ((removed.has(e.id) || changed.has(e.id)) && e.protected) {
      problems.push(`protected entry ${e.id} (line ${e.line}) was planned to be ${removed.has(e.id) ? 'removed' : 'changed'}`);
    }
  }
  for (const [t, n] of kept) {
    const have = afterCounts.get(t) ?? 0;
    if (have < n) {
      const e = old.entries.find((x) => x.text === t && !removed.has(x.id) && !changed.has(x.id))!;
      problems.push(`entry ${e.id} (line ${e.line}) was not planned to change but is no longer present byte-identical`);
    }
  }
  for (const e of old.entries) {
    if (!removed.has(e.id) && !changed.has(e.id)) continue;
    const keptN = kept.get(e.text) ?? 0;
    const have = afterCounts.get(e.text) ?? 0;
    if (have > keptN) {
      problems.push(`entry ${e.id} (line ${e.line}) was planned to be ${removed.has(e.id) ? 'removed' : 'changed'} but is still present`);
    }
  }
  const oldProblems = new Set(old.findings.map((f) => f.message.replace(/:\d+:/, ':')));
  for (const f of now.findings) {
    if (!oldProblems.has(f.message.replace(/:\d+:/, ':'))) problems.push(`the edit introduced a problem: ${f.message}`);
  }
  return { ok: problems.length === 0, problems };
}
