// Parsing one memory file into entries. Pure: text in, data out, no I/O.
//
// Markdown is parsed by ONE unified processor (remark-parse + remark-frontmatter + remark-gfm)
// built once at module level. Long files are parsed in chunks cut at top-level block
// boundaries (a blank line followed by a line starting in column 1, outside fenced code,
// HTML blocks and frontmatter): micromark re-copies its whole event list each time a
// container (list item, blockquote) closes, which makes one huge list quadratic. Chunk
// positions are shifted back so every offset and line is into the whole file.
import * as nodeCrypto from 'node:crypto';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import type { Nodes, Root, RootContent, List, Table, Heading, Html } from 'mdast';
import type { Entry, EntryMeta, EntryType, Finding, MemoryFile, MemoryFormat, Span } from '../types.js';
import { classify, headingVerdict, type HeadingVerdict } from './classify.js';
import { field, frontmatterProtected, frontmatterType, metaFromFrontmatter, parseFrontmatter } from './frontmatter.js';
import { countTokens } from './tokens.js';
import { fastBlocks, isSpaceCode } from './fastblocks.js';

const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm).freeze();
// The same without frontmatter, for pieces that do not start the file and for files whose
// opening `---` is never closed: remark-frontmatter's failed attempt at an unclosed fence
// corrupts the parse of the whole rest of the document (e.g. a blockquote no longer
// interrupts a paragraph).
const bodyProcessor = unified().use(remarkParse).use(remarkGfm).freeze();

const FM_OPEN_RE = /^(---|\+\+\+)[ \t]*\r?\n/;

/** Whether `text` starts with a frontmatter fence that is never closed. */
const FM_CLOSE_YAML = /\n---[ \t]*(?:\r?\n|$)/g;
const FM_CLOSE_TOML = /\n\+\+\+[ \t]*(?:\r?\n|$)/g;

function unclosedFrontmatter(text: string): boolean {
  const fm = FM_OPEN_RE.exec(text);
  if (!fm) return false;
  const close = fm[1] === '---' ? FM_CLOSE_YAML : FM_CLOSE_TOML;
  close.lastIndex = fm[0].length - 1;
  return close.exec(text) === null;
}

const YAML_KEY_LINE_RE = /^[A-Za-z_][\w-]*\s*:/;
const TOML_KEY_LINE_RE = /^(?:\[|[A-Za-z_"'][\w.\-"' ]*=)/;
// The first line of a Markdown block (heading, quote, list item, fence, table, HTML, rule).
const MD_BLOCK_LINE_RE = /^ {0,3}(?:#{1,6}(?:[ \t]|$)|>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|`{3,}|~{3,}|\||<|\*\*\*|___|={3,}|-{3,})/;

/**
 * Whether an opening `---` / `+++` that is never closed was meant as frontmatter (and deserves
 * a warning), rather than a horizontal rule opening ordinary Markdown: the first non-empty
 * line after it looks like a YAML key (`name:`; TOML: `key =`), or plain text follows the
 * fence directly (no blank line) that is not the start of a Markdown block.
 */
function looksLikeUnclosedFrontmatter(text: string): boolean {
  const fm = FM_OPEN_RE.exec(text);
  if (!fm) return false;
  const rest = text.slice(fm[0].length, fm[0].length + 4096);
  const lines = rest.split(/\r?\n/);
  const first = lines.find((l) => l.trim() !== '');
  if (first === undefined) return false;
  if ((fm[1] === '---' ? YAML_KEY_LINE_RE : TOML_KEY_LINE_RE).test(first)) return true;
  return lines[0].trim() !== '' && !MD_BLOCK_LINE_RE.test(lines[0]);
}

export interface ParseOptions {
  /** Repository-relative folder holding MEMORY.md, for auto-memory files. */
  memoryDir?: string;
  /** Regular expression sources; an entry whose text matches one is protected. */
  protectPatterns?: string[];
  /** The file's size in bytes when the caller knows it (it is not measured then). */
  bytes?: number;
  /** Skip token counting (MemoryFile.tokens = 0). */
  skipTokens?: boolean;
  /** false: parse with the remark processor only (no fast path); for differential tests. */
  fast?: boolean;
  /**
   * Auto-memory index: the type an index line linking to `target` takes from that topic file's
   * frontmatter, when known (load.ts parses topics first); such a line is not classified.
   */
  indexLineType?: (target: string) => { type: EntryType; rule: string } | undefined;
}

export interface ParseResult {
  file: MemoryFile;
  entries: Entry[];
  findings: Finding[];
}

/** Files shorter than this are parsed in one piece. */
const CHUNK_MIN = 4096;

// `<!-- PROTECTED -->`, `<!-- protected: reason -->`, case-insensitive.
const PROTECT_RE = /<!--\s*protected\b\s*(?:[:\-\u2013\u2014]\s*([\s\S]*?))?\s*-->/i;
const COMMENT_ONLY_RE = /^\s*<!--[\s\S]*?-->\s*$/;

// ---------------------------------------------------------------------------- line index

/** Offsets at which each line starts (line n starts at starts[n-1]). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  let i = text.indexOf('\n');
  while (i !== -1) {
    starts.push(i + 1);
    i = text.indexOf('\n', i + 1);
  }
  return starts;
}

/** 1-based line of an offset, by binary search in `lineStarts`. */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Number of lines as an editor shows them (a final newline does not open a new line). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  let i = text.indexOf('\n');
  while (i !== -1) {
    n++;
    i = text.indexOf('\n', i + 1);
  }
  return text.endsWith('\n') ? n : n + 1;
}

// ---------------------------------------------------------------------------- chunking

const FENCE_OPEN_RE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HTML_BLOCK_STARTS: Array<[RegExp, RegExp]> = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
  [/^ {0,3}<![A-Za-z]/, />/],
];

/**
 * Safe cut points of `text`: offsets of lines that start a new top-level block after a blank
 * line (a line beginning in column 1), outside frontmatter, fenced code and HTML blocks that
 * may hold blank lines. Parsing the pieces separately gives the same entries as parsing the
 * whole text. Cuts closer than `minGap` characters to the previous one are skipped.
 */
export function safeCuts(
  text: string,
  minGap = 0,
): { cuts: number[]; frontmatterEnd: number; frontmatter?: RootContent; deep?: Array<{ at: number; depth: number }> } {
  const cuts: number[] = [];
  let deep: Array<{ at: number; depth: number }> | undefined;
  let heavy: Array<{ at: number; depth: number; cost: number }> | undefined;
  let total = 0;
  let cost = 0; // nesting work of the current piece
  let maxDepth = 0;
  let deepAt = 0;
  let pos = 0;
  let frontmatterEnd = 0;
  let frontmatter: RootContent | undefined;
  // Never cut inside frontmatter.
  const fm = text.charCodeAt(0) === 45 || text.charCodeAt(0) === 43 ? FM_OPEN_RE.exec(text) : null;
  if (fm) {
    const close = fm[1] === '---' ? FM_CLOSE_YAML : FM_CLOSE_TOML;
    close.lastIndex = fm[0].length - 1;
    const m = close.exec(text);
    if (m) {
      pos = frontmatterEnd = m.index + m[0].length;
      // The node remark-frontmatter builds: value between the fences (without the line ending
      // before the closing fence), position from the opening fence to the end of the closing one.
      const eolLen = m[0].endsWith('\r\n') ? 2 : m[0].endsWith('\n') ? 1 : 0;
      const fenceEnd = frontmatterEnd - eolLen;
      const valueEnd = m.index > 0 && text.charCodeAt(m.index - 1) === 13 ? m.index - 1 : m.index;
      let line = 1;
      for (let i = text.indexOf('\n'); i !== -1 && i <= m.index; i = text.indexOf('\n', i + 1)) line++;
      frontmatter = {
        type: fm[1] === '---' ? 'yaml' : ('toml' as 'yaml'),
        value: text.slice(fm[0].length, Math.max(fm[0].length, valueEnd)),
        position: {
          start: { line: 1, column: 1, offset: 0 },
          end: { line, column: fenceEnd - (m.index + 1) + 1, offset: fenceEnd },
        },
      };
    }
  }
  let last = 0;
  let prevBlank = false;
  let fence: { ch: string; len: number } | null = null;
  let htmlEnd: RegExp | null = null;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 ? text.length : nl;
    const next = nl < 0 ? text.length : nl + 1;
    const contentEnd = lineEnd > pos && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
    // First non-space character (column of up to 3 spaces matters for fences and HTML).
    let k = pos;
    while (k < contentEnd && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
    const blank = k === contentEnd;
    const lead = blank ? 0 : text.charCodeAt(k);
    // Only lines that may open or close a fence or an HTML block are looked at closely.
    const special = lead === 96 || lead === 126 || lead === 60 || fence !== null || htmlEnd !== null;
    const line = special ? text.slice(pos, contentEnd) : '';
    if (fence) {
      const m = /^ {0,3}(`{3,}|~{3,})[ \t]*\r?$/.exec(line);
      if (m && m[1][0] === fence.ch && m[1].length >= fence.len) fence = null;
    } else if (htmlEnd) {
      if (htmlEnd.test(line)) htmlEnd = null;
    } else if (!blank) {
      if (prevBlank && k === pos && pos > 0) {
        if (cost > NESTING_PIECE_MIN) {
          (heavy ??= []).push({ at: deepAt, depth: maxDepth, cost });
          total += cost;
        }
        cost = maxDepth = 0;
        if (pos - last >= minGap) {
          cuts.push(pos);
          last = pos;
        }
      }
      // Container markers (`>`, list markers) nest: micromark's work grows with the square
      // of the depth of each line; pieces over budget are not given to it.
      if (lead === 62 || lead === 45 || lead === 42 || lead === 43 || (lead >= 48 && lead <= 57)) {
        const depth = lineNesting(text, pos, contentEnd);
        if (depth > 1) {
          cost += depth * depth;
          if (depth > maxDepth) {
            maxDepth = depth;
            deepAt = pos;
          }
        }
      }
      if (!special) {
        prevBlank = false;
        pos = next;
        continue;
      }
      const f = FENCE_OPEN_RE.exec(line);
      if (f && !(f[1][0] === '`' && f[2].includes('`'))) {
        fence = { ch: f[1][0], len: f[1].length };
      } else {
        for (const [open, end] of HTML_BLOCK_STARTS) {
          const m = open.exec(line);
          if (m) {
            if (!end.test(line.slice(m[0].length))) htmlEnd = end;
            break;
          }
        }
      }
    }
    prevBlank = blank;
    pos = next;
  }
  if (cost > NESTING_PIECE_MIN) {
    (heavy ??= []).push({ at: deepAt, depth: maxDepth, cost });
    total += cost;
  }
  if (heavy) {
    // A block over budget is not parsed; nor, when the file as a whole is, any heavy block.
    const min = total > NESTING_BUDGET * 4 ? NESTING_PIECE_MIN : NESTING_BUDGET;
    for (const h of heavy) if (h.cost > min) (deep ??= []).push({ at: h.at, depth: h.depth });
  }
  const res: { cuts: number[]; frontmatterEnd: number; frontmatter?: RootContent; deep?: Array<{ at: number; depth: number }> } = {
    cuts,
    frontmatterEnd,
  };
  if (frontmatter) res.frontmatter = frontmatter;
  if (deep) res.deep = deep;
  return res;
}

/**
 * Nesting depth of blockquotes and lists at the start of the line [pos, end): the container
 * markers in its prefix, plus half its indentation when it has any (nested lists indent by at
 * least two columns a level). An upper-bound estimate, cheap, only to catch pathological files.
 */
export function lineNesting(text: string, pos: number, end: number): number {
  let depth = 0;
  let ws = 0;
  let lead = -1;
  let i = pos;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      ws++;
      i++;
    } else if (c === 9) {
      ws += 4;
      i++;
    } else if (c === 62) {
      if (lead < 0) lead = ws;
      depth++;
      i++;
    } else if ((c === 45 || c === 42 || c === 43) && (i + 1 === end || text.charCodeAt(i + 1) === 32 || text.charCodeAt(i + 1) === 9)) {
      if (lead < 0) lead = ws;
      depth++;
      i++;
    } else if (c >= 48 && c <= 57) {
      let j = i + 1;
      while (j < end && j - i < 9 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      const d = text.charCodeAt(j);
      if (j < end && (d === 46 || d === 41) && (j + 1 === end || text.charCodeAt(j + 1) === 32 || text.charCodeAt(j + 1) === 9)) {
        if (lead < 0) lead = ws;
        depth++;
        i = j + 1;
      } else break;
    } else break;
  }
  return depth === 0 ? 0 : depth + (lead >> 1);
}

/**
 * Budget of nesting work per top-level block: the sum over its lines of (nesting depth)^2.
 * micromark's time grows with it (a 1,000-level line or a staircase of ~150 levels is about a
 * second); a block over budget is kept as one unparsed paragraph instead. Ordinary memory
 * (a few levels) stays far below.
 */
export const NESTING_BUDGET = 1_000_000;
/** Blocks above this much nesting work count towards a file-wide budget of 4 x NESTING_BUDGET. */
const NESTING_PIECE_MIN = 50_000;

/** Start offsets of the chunks a long file is parsed in by micromark (always begins with 0). */
export function chunkStarts(text: string, cuts?: number[]): number[] {
  if (text.length < CHUNK_MIN * 2) return [0];
  if (!cuts) return [0, ...safeCuts(text, CHUNK_MIN).cuts];
  // The same cuts safeCuts(text, CHUNK_MIN) keeps: the first of all cuts at least CHUNK_MIN on.
  const out = [0];
  let last = 0;
  for (const c of cuts) {
    if (c - last >= CHUNK_MIN) {
      out.push(c);
      last = c;
    }
  }
  return out;
}

const DEFINITION_LINE_RE = /^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:[ \t]*\S.*$/gm;

interface Pos {
  line: number;
  offset: number;
}

function shift(root: Nodes, offset: number, line: number): void {
  const stack: Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const p = node.position;
    if (p) {
      p.start.offset = (p.start.offset ?? 0) + offset;
      p.start.line += line;
      p.end.offset = (p.end.offset ?? 0) + offset;
      p.end.line += line;
    }
    if ('children' in node) for (const c of node.children as Nodes[]) stack.push(c);
  }
}

function parseRange(text: string, s: number, e: number, appendix: string, ls: number[], out: BlockSink): void {
  const chunk = s === 0 && e === text.length ? text : text.slice(s, e);
  const proc = s === 0 && !unclosedFrontmatter(text) ? processor : bodyProcessor;
  if (s === 0 && e === text.length) appendix = ''; // every definition is in the text already
  let tree = proc.parse(appendix ? chunk + appendix : chunk) as Root;
  if (appendix && tree.children.some((n) => (n.position?.start.offset ?? 0) < chunk.length && (n.position?.end.offset ?? 0) > chunk.length)) {
    // An unterminated construct (fence, HTML) swallowed the appended definitions: parse as is.
    tree = proc.parse(chunk) as Root;
  }
  const lineBase = s === 0 ? 0 : lineAt(ls, s) - 1;
  for (const node of tree.children) {
    if ((node.position?.start.offset ?? 0) >= chunk.length) break;
    if (s > 0) shift(node, s, lineBase);
    out.push(node);
  }
}

export interface DeepBlock {
  /** 1-based lines of the block kept as one paragraph, and of its deepest line. */
  line: number;
  endLine: number;
  deepLine: number;
  /** Nesting depth of that line (estimated). */
  depth: number;
}

/** Where parseBlocks puts the top-level nodes, in document order (an array, or a consumer). */
export interface BlockSink {
  push(node: RootContent): unknown;
}

export interface BlockOptions {
  /** false: the remark processor only. */
  fast?: boolean;
  /** Receives the blocks kept unparsed for their nesting depth. */
  deep?: DeepBlock[];
  /** lineStarts(text), when the caller has it. */
  lineStarts?: number[];
  /** Receives the nodes while the text is parsed; the returned array is then empty. */
  out?: BlockSink;
}

/**
 * Parses `text` into its top-level mdast nodes, positions absolute. Pieces of plain Markdown
 * go through the fast path (./fastblocks.ts, which builds the very nodes remark would and
 * gives up on anything else); everything else through the remark processor, in chunks of a
 * few KB cut at safe block boundaries.
 */
export function parseBlocks(text: string, opts: BlockOptions = {}): RootContent[] {
  const nodes: RootContent[] = [];
  blocksInto(text, opts, opts.out ?? nodes);
  return nodes;
}

function blocksInto(text: string, opts: BlockOptions, out: BlockSink): void {
  const defs = text.includes(']:') ? text.match(DEFINITION_LINE_RE) : null;
  const sc = safeCuts(text);
  if (sc.deep) return parseDeep(text, sc, defs, opts, out);
  // Link reference definitions reach across pieces: such files take the processor path.
  if (opts.fast === false || defs) {
    const starts = chunkStarts(text, sc.cuts);
    const appendix = defs ? '\n\n' + defs.join('\n') + '\n' : '';
    const ls = opts.lineStarts ?? lineStarts(text);
    for (let i = 0; i < starts.length; i++) {
      parseRange(text, starts[i], i + 1 < starts.length ? starts[i + 1] : text.length, appendix, ls, out);
    }
    return;
  }
  const { cuts, frontmatterEnd, frontmatter } = sc;
  if (frontmatter) out.push(frontmatter);
  const ls = opts.lineStarts ?? lineStarts(text);
  let group = -1; // start of the pending processor group
  // The pieces run from one bound to the next: frontmatterEnd, the cuts, text.length.
  for (let i = -1; i < cuts.length; i++) {
    const s = i < 0 ? frontmatterEnd : cuts[i];
    const e = i + 1 < cuts.length ? cuts[i + 1] : text.length;
    if (s >= e) continue;
    const fast = fastBlocks(text, s, e, lineAt(ls, s));
    if (fast) {
      if (group >= 0) parseRange(text, group, s, '', ls, out);
      group = -1;
      for (const n of fast) out.push(n);
    } else {
      if (group < 0) group = s;
      if (e - group >= CHUNK_MIN) {
        parseRange(text, group, e, '', ls, out);
        group = -1;
      }
    }
  }
  if (group >= 0) parseRange(text, group, text.length, '', ls, out);
}

/**
 * parseBlocks for a file with pathologically deep nesting (over MAX_NESTING levels): micromark
 * is quadratic in the depth (2,000 levels: seconds), so each top-level block holding such a
 * line becomes one plain paragraph of its source, unparsed; the rest is parsed as usual.
 */
function parseDeep(
  text: string,
  sc: ReturnType<typeof safeCuts>,
  defs: RegExpMatchArray | null,
  opts: BlockOptions,
  out: BlockSink,
): void {
  const ls = opts.lineStarts ?? lineStarts(text);
  const appendix = defs ? '\n\n' + defs.join('\n') + '\n' : '';
  const useFast = opts.fast !== false && !defs;
  if (sc.frontmatter) out.push(sc.frontmatter);
  const bounds = [sc.frontmatterEnd, ...sc.cuts, text.length];
  const deep = sc.deep!;
  let d = 0;
  let group = -1;
  const flush = (end: number) => {
    if (group < 0) return;
    parseRange(text, group, end, appendix, ls, out);
    group = -1;
  };
  for (let i = 0; i + 1 < bounds.length; i++) {
    const s = bounds[i];
    const e = bounds[i + 1];
    if (s >= e) continue;
    while (d < deep.length && deep[d].at < s) d++;
    if (d < deep.length && deep[d].at < e) {
      flush(s);
      let end = e;
      while (end > s && /\s/.test(text[end - 1])) end--;
      const line = lineAt(ls, s);
      const endLine = lineAt(ls, end);
      const position = {
        start: { line, column: 1, offset: s },
        end: { line: endLine, column: end - ls[endLine - 1] + 1, offset: end },
      };
      const value = text.slice(s, end);
      out.push({ type: 'paragraph', children: [{ type: 'text', value, position: structuredClone(position) }], position });
      opts.deep?.push({ line, endLine, deepLine: lineAt(ls, deep[d].at), depth: deep[d].depth });
      continue;
    }
    const fast = useFast ? fastBlocks(text, s, e, lineAt(ls, s)) : null;
    if (fast) {
      flush(s);
      for (const n of fast) out.push(n);
    } else {
      if (group < 0) group = s;
      if (e - group >= CHUNK_MIN) flush(e);
    }
  }
  flush(text.length);
}

// ---------------------------------------------------------------------------- spans

function plainText(root: Nodes): string {
  let out = '';
  const stack: Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ('value' in node && typeof node.value === 'string' && node.type !== 'html') out += node.value;
    else if (node.type === 'image') out += node.alt ?? '';
    else if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as Nodes);
  }
  return out;
}

function pos(node: Nodes): { start: number; end: number; line: number; endLine: number } {
  const p = node.position!;
  return { start: p.start.offset ?? 0, end: p.end.offset ?? 0, line: p.start.line, endLine: p.end.line };
}

/** The lines of `s` with their offsets (line endings excluded). */
function splitLinesAt(s: string, base: number): Array<{ text: string; start: number }> {
  const out: Array<{ text: string; start: number }> = [];
  const re = /\r\n|\r|\n/g;
  let at = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    out.push({ text: s.slice(at, m.index), start: base + at });
    at = m.index + m[0].length;
  }
  out.push({ text: s.slice(at), start: base + at });
  return out;
}

/**
 * Spans for `value` pieces written over source lines `raw` (container prefixes such as list
 * indentation or `> ` are in the source but not in the value): one span per line, located
 * exactly where the piece is written. A piece that cannot be found verbatim (escapes,
 * entities) spans its whole source line.
 */
function lineSpans(
  kind: 'text' | 'code',
  value: string,
  rawLines: Array<{ text: string; start: number }>,
  firstLine: number,
  out: Span[],
  lang?: string | null,
): void {
  const pieces = value.split(/\r\n|\r|\n/);
  if (pieces.length !== rawLines.length) {
    const first = rawLines[0];
    const last = rawLines[rawLines.length - 1];
    const span: Span = { kind, value, start: first.start, end: last.start + last.text.length, line: firstLine };
    if (lang) span.lang = lang;
    out.push(span);
    return;
  }
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece === '') continue;
    const raw = rawLines[i];
    let idx = raw.text.startsWith(piece) ? 0 : raw.text.endsWith(piece) ? raw.text.length - piece.length : raw.text.indexOf(piece);
    let len = piece.length;
    if (idx < 0) {
      idx = 0;
      len = raw.text.length;
    }
    const span: Span = { kind, value: piece, start: raw.start + idx, end: raw.start + idx + len, line: firstLine + i };
    if (lang) span.lang = lang;
    out.push(span);
  }
}

const FENCE_LINE_RE = /^[ \t]*(`{3,}|~{3,})/;

/**
 * The spans of `nodes`. They are kept with the entry: copied into an array of their number,
 * as an array grown by push keeps room for 17 (most entries have one to four spans).
 */
function spansOf(nodes: readonly Nodes[], defs: ReadonlyMap<string, string>, src: string): Span[] {
  const spans: Span[] = [];
  for (const n of nodes) collectSpans(n, spans, defs, src);
  return spans.slice();
}

/** Collects the spans of `root` in document order (iterative: deep nesting cannot overflow). */
function collectSpans(root: Nodes, out: Span[], defs: ReadonlyMap<string, string>, src: string): void {
  const stack: Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!node.position) {
      if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as Nodes);
      continue;
    }
    if (!spanOf(node, out, defs, src) && 'children' in node) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as Nodes);
    }
  }
}

/** Pushes the span(s) of a leaf-like node; false when the node's children hold the spans. */
function spanOf(node: Nodes, out: Span[], defs: ReadonlyMap<string, string>, src: string): boolean {
  switch (node.type) {
    case 'text': {
      const p = pos(node);
      if (p.endLine === p.line) {
        out.push({ kind: 'text', value: node.value, start: p.start, end: p.end, line: p.line });
      } else {
        lineSpans('text', node.value, splitLinesAt(src.slice(p.start, p.end), p.start), p.line, out);
      }
      return true;
    }
    case 'inlineCode': {
      // The span covers the code content only (not the backticks).
      const p = pos(node);
      const raw = src.slice(p.start, p.end);
      let n = 0;
      while (n < raw.length && raw.charCodeAt(n) === 96) n++;
      let start = p.start + n;
      let end = Math.max(start, p.end - n);
      const content = src.slice(start, end);
      if (content !== node.value && content.length >= 2 && content.startsWith(' ') && content.endsWith(' ') && content.slice(1, -1) === node.value) {
        start++;
        end--;
      }
      out.push({ kind: 'inlineCode', value: node.value, start, end, line: p.line });
      return true;
    }
    case 'code': {
      // One span per content line (fences and indentation excluded), each with the language.
      const p = pos(node);
      const lines = splitLinesAt(src.slice(p.start, p.end), p.start);
      let first = 0;
      let last = lines.length;
      const open = FENCE_LINE_RE.exec(lines[0].text);
      if (open) {
        first = 1;
        const fenceChar = open[1][0];
        if (lines.length > 1) {
          const close = FENCE_LINE_RE.exec(lines[lines.length - 1].text);
          if (close && close[1][0] === fenceChar && close[1].length >= open[1].length && /^[ \t]*[`~]+[ \t]*$/.test(lines[lines.length - 1].text)) last = lines.length - 1;
        }
      }
      const content = lines.slice(first, last);
      if (node.value === '' || content.length === 0) return true;
      lineSpans('code', node.value, content, p.line + first, out, node.lang);
      return true;
    }
    case 'html': {
      const p = pos(node);
      out.push({ kind: 'html', value: node.value, start: p.start, end: p.end, line: p.line });
      return true;
    }
    case 'link':
    case 'image':
    case 'definition': {
      const p = pos(node);
      const value = node.type === 'definition' ? node.label ?? node.identifier : plainText(node);
      out.push({ kind: 'link', value, start: p.start, end: p.end, line: p.line, url: node.url });
      return true;
    }
    case 'linkReference':
    case 'imageReference': {
      const p = pos(node);
      const url = defs.get(node.identifier.toLowerCase());
      const span: Span = { kind: 'link', value: plainText(node), start: p.start, end: p.end, line: p.line };
      if (url !== undefined) span.url = url;
      out.push(span);
      return true;
    }
    case 'yaml': {
      const p = pos(node);
      out.push({ kind: 'frontmatter', value: node.value, start: p.start, end: p.end, line: p.line });
      return true;
    }
    default:
      if ((node.type as string) === 'toml') {
        const p = pos(node);
        out.push({ kind: 'frontmatter', value: (node as unknown as { value: string }).value, start: p.start, end: p.end, line: p.line });
        return true;
      }
      return false;
  }
}

// ---------------------------------------------------------------------------- frontmatter

interface Frontmatter {
  data?: Record<string, unknown>;
  range: [number, number];
  /** Offset of the frontmatter source (after the opening fence line). */
  srcStart: number;
  lang: 'yaml' | 'toml';
  contentRange?: [number, number];
}

function readFrontmatter(
  node: RootContent,
  text: string,
  path: string,
  format: MemoryFormat,
  ls: number[],
  findings: Finding[],
): Frontmatter | undefined {
  if (node.type !== 'yaml' && (node.type as string) !== 'toml') return undefined;
  const lang = node.type === 'yaml' ? 'yaml' : 'toml';
  const p = pos(node);
  const firstNl = text.indexOf('\n', p.start);
  const srcStart = firstNl < 0 ? p.end : Math.min(firstNl + 1, p.end);
  const srcEnd = Math.max(srcStart, text.lastIndexOf('\n', p.end - 1) + 1);
  const src = text.slice(srcStart, srcEnd);
  const fm: Frontmatter = { range: [p.start, p.end], srcStart, lang };
  // Cursor writes `globs: *.ts` (not valid YAML): read such rule files leniently.
  let res: ReturnType<typeof parseFrontmatter>;
  try {
    res = parseFrontmatter(src, lang, srcStart, lineAt(ls, srcStart), format === 'cursor-rule');
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0];
    res = { problems: [{ line: lineAt(ls, srcStart), message: `invalid ${lang.toUpperCase()} frontmatter: ${msg}` }] };
  }
  for (const pr of res.problems) {
    findings.push({
      entryId: null,
      file: path,
      line: pr.line,
      kind: 'malformed',
      severity: 'error',
      message: `${path}:${pr.line}: ${pr.message}`,
      evidence: { frontmatter: lang },
    });
  }
  if (res.data) fm.data = res.data;
  if (res.contentRange) fm.contentRange = res.contentRange;
  return fm;
}

/** Entry metadata from frontmatter, flat keys first, then the same keys under `metadata:`. */
function fmInfoOf(fm: Record<string, unknown>): { meta: EntryMeta; type?: EntryType } {
  const meta = metaFromFrontmatter(fm);
  const id = field(fm, 'id');
  if (typeof id === 'string' || typeof id === 'number') meta.slotId = String(id);
  const type = frontmatterType(fm);
  if (!type) {
    const raw = field(fm, 'type');
    if (typeof raw === 'string') meta.rawType = raw;
  }
  return type ? { meta, type } : { meta };
}

// ---------------------------------------------------------------------------- ids

/** End of a leading list marker (`^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+`) of `text`, or 0. */
function listMarkerEnd(text: string): number {
  const n = text.length;
  let i = 0;
  while (i < n && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  const c = text.charCodeAt(i);
  if (c === 45 || c === 42 || c === 43) i++;
  else {
    let k = i;
    while (k < n && text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57) k++;
    const d = text.charCodeAt(k);
    if (k === i || k - i > 9 || (d !== 46 && d !== 41)) return 0;
    i = k + 1;
  }
  const spaces = i;
  while (i < n && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i > spaces ? i : 0;
}

/**
 * The runs of white space that are not a single space: replacing them by one space is
 * `.replace(/\s+/g, ' ')`, with far fewer matches (prose has a space every few characters).
 */
const WS_RUN_RE = /\s{2,}|[^\S ]/g;
/** White space that `.replace(/\s+/g, ' ')` would change. */
const COLLAPSE_RE = /[^\S ]| {2}/;

/**
 * Whitespace-normalised text used for ids (a list marker is not part of the identity): the
 * text without its list marker, trimmed, each run of white space one space. Works on offsets
 * and cuts one string (two when white space needs collapsing): it runs for every entry.
 */
export function normaliseForId(text: string): string {
  let a = listMarkerEnd(text);
  let b = text.length;
  // (`\s` is also what String.prototype.trim removes.)
  while (a < b && isSpaceCode(text.charCodeAt(a))) a++;
  while (b > a && isSpaceCode(text.charCodeAt(b - 1))) b--;
  // Most entries are one line with single spaces: nothing to collapse. (A hit in the marker or
  // the white space trimmed away only costs a replace that finds nothing.)
  if (COLLAPSE_RE.test(text)) return text.slice(a, b).replace(WS_RUN_RE, ' ');
  return a === 0 && b === text.length ? text : text.slice(a, b);
}

// One-shot crypto.hash (Node >= 20.12) skips the Hash object; same digest as createHash.
const oneShotHash = (nodeCrypto as { hash?: (alg: string, data: string, enc: 'hex') => string }).hash;

function sha8(s: string): string {
  if (oneShotHash) return oneShotHash('sha1', s, 'hex').slice(0, 8);
  return nodeCrypto.createHash('sha1').update(s).digest('hex').slice(0, 8);
}

/** Assigns stable ids: same path + same normalised text -> same id; repeats get a suffix in the hash. */
export function assignIds(path: string, entries: Entry[]): void {
  const prefix = path + '\0';
  if (entries.length === 1) {
    entries[0].id = 'e_' + sha8(prefix + normaliseForId(entries[0].text));
    return;
  }
  const seen = new Map<string, number>(); // by normalised text (the path is the same for all)
  for (const e of entries) {
    const norm = normaliseForId(e.text);
    const n = seen.get(norm) ?? 0;
    seen.set(norm, n + 1);
    e.id = 'e_' + sha8(n === 0 ? prefix + norm : prefix + norm + '\0' + n);
  }
}

// ---------------------------------------------------------------------------- protection

const regexCache = new Map<string, RegExp[]>();

const NO_PATTERNS: RegExp[] = [];

/** Compiles config.protect patterns (invalid ones are skipped; loadMemory reports them). */
export function compileProtect(patterns: readonly string[] | undefined): RegExp[] {
  if (!patterns || patterns.length === 0) return NO_PATTERNS;
  const key = patterns.join('\0');
  let res = regexCache.get(key);
  if (!res) {
    res = [];
    for (const p of patterns) {
      try {
        res.push(new RegExp(p, 'i'));
      } catch {
        // reported by loadMemory
      }
    }
    regexCache.set(key, res);
  }
  return res;
}

// ---------------------------------------------------------------------------- entries

interface Draft {
  kind: Entry['kind'];
  nodes: Nodes[];
  start: number;
  end: number;
  line: number;
  endLine: number;
  headings: string[];
  protectedReason?: string;
  meta: EntryMeta;
  spans?: Span[];
  type?: EntryType;
}

function isIndexLink(url: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return false;
  return /\.md(?:#.*)?$/i.test(url);
}

function safeDecode(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}

/** MEMORY.md: `- [Title](file.md) — hook` -> meta, or undefined when not an index line. */
function indexLineMeta(item: Nodes, defs: ReadonlyMap<string, string>): EntryMeta | undefined {
  if (!('children' in item)) return undefined;
  const para = (item.children as Nodes[])[0];
  if (!para || para.type !== 'paragraph') return undefined;
  let first: Nodes | undefined = para.children[0];
  // `- **[Title](file.md)** — hook`: the link may be wrapped in strong / emphasis.
  while (first && (first.type === 'strong' || first.type === 'emphasis') && first.children.length === 1) first = first.children[0];
  let url: string | undefined;
  if (first?.type === 'link') url = first.url;
  else if (first?.type === 'linkReference') url = defs.get(first.identifier.toLowerCase());
  if (!first || url === undefined || !isIndexLink(url)) return undefined;
  const target = safeDecode(url.replace(/#.*$/, ''));
  const meta: EntryMeta = { name: plainText(first), target };
  const rest = para.children.slice(1).map(plainText).join('').replace(/^[\s\u2014\u2013:|-]+/, '').trim();
  if (rest) meta.description = rest;
  return meta;
}

/**
 * Parses one memory file. `path` is the repository-relative path used in ids and findings.
 * Never throws on bad content: problems become `malformed` findings.
 */
export function parseMemoryText(path: string, text: string, format: MemoryFormat, opts: ParseOptions = {}): ParseResult {
  try {
    return parseUnsafe(path, text, format, opts);
  } catch (e) {
    // A safety net: whatever went wrong, the run goes on with this file reported.
    const file: MemoryFile = { path, absPath: path, format, text, lines: countLines(text), bytes: Buffer.byteLength(text, 'utf8'), tokens: 0 };
    if (opts.memoryDir !== undefined) file.memoryDir = opts.memoryDir;
    const finding: Finding = {
      entryId: null,
      file: path,
      line: 1,
      kind: 'malformed',
      severity: 'error',
      message: `${path}: could not be parsed (${(e as Error).message}); no entries read`,
    };
    return { file, entries: [], findings: [finding] };
  }
}

function parseUnsafe(path: string, text: string, format: MemoryFormat, opts: ParseOptions): ParseResult {
  const ls = lineStarts(text);
  const firstNl = text.indexOf('\n');
  // countLines(text), from the line starts at hand: a final newline does not open a line.
  const lines = text.length === 0 ? 0 : text.charCodeAt(text.length - 1) === 10 ? ls.length - 1 : ls.length;
  const bytes = opts.bytes ?? Buffer.byteLength(text, 'utf8');
  const file = { path, absPath: path, format, text, lines, bytes } as MemoryFile;
  Object.defineProperty(file, 'tokens', TOKENS);
  if (opts.skipTokens) file.tokens = 0;
  if (firstNl > 0 && text.charCodeAt(firstNl - 1) === 13) file.eol = '\r\n';
  else if (firstNl >= 0) file.eol = '\n';
  if (opts.memoryDir !== undefined) file.memoryDir = opts.memoryDir;

  const deep: DeepBlock[] = [];
  let builder: EntryBuilder | undefined;
  try {
    // Without `]:` the text holds no link reference definition, the one thing entries need
    // the whole file for: its blocks become entries while it is parsed (see EntryBuilder).
    if (format !== 'auto-memory-topic' && !text.includes(']:')) {
      builder = new EntryBuilder(path, text, format, ls, opts, NO_DEFS);
      parseBlocks(text, { fast: opts.fast, deep, lineStarts: ls, out: builder });
    } else {
      const blocks = parseBlocks(text, { fast: opts.fast, deep, lineStarts: ls });
      // Link reference definitions, for linkReference urls.
      let defs: Map<string, string> | undefined;
      for (const b of blocks) if (b.type === 'definition') (defs ??= new Map()).set(b.identifier.toLowerCase(), b.url);
      builder = new EntryBuilder(path, text, format, ls, opts, defs ?? NO_DEFS);
      for (const b of blocks) builder.push(b);
    }
  } catch (e) {
    if (builder?.failure && builder.failure.error === e) throw e; // not a Markdown problem: parseMemoryText reports it
    const message = `${path}: could not be parsed as Markdown: ${(e as Error).message}`;
    return { file, entries: [], findings: [{ entryId: null, file: path, line: 1, kind: 'malformed', severity: 'error', message }] };
  }

  const findings: Finding[] = [];
  for (const b of deep) {
    findings.push({
      entryId: null,
      file: path,
      line: b.deepLine,
      kind: 'malformed',
      severity: 'warning',
      message: `${path}:${b.deepLine}: nesting ${b.depth} levels deep is too deep to parse; lines ${b.line}-${b.endLine} are kept as one entry, not parsed as Markdown`,
      evidence: { depth: b.depth, line: b.line, endLine: b.endLine },
    });
  }
  builder.finish(file);
  for (const f of builder.findings) findings.push(f);
  return { file, entries: builder.entries, findings };
}

/** The link reference definitions of a file that has none (never written to). */
const NO_DEFS: ReadonlyMap<string, string> = new Map();

/** Token counts of parsed files, made on first read of file.tokens (see TOKENS). */
const tokenCounts = new WeakMap<MemoryFile, number>();

/**
 * file.tokens is counted on first read rather than while parsing: only the report and a token
 * budget look at it, and counting is a pass over the whole text as long as parsing it. One
 * shared accessor (no closure per file) keeps the files in V8's fast mode.
 */
const TOKENS: PropertyDescriptor = {
  get(this: MemoryFile): number {
    let n = tokenCounts.get(this);
    if (n === undefined) tokenCounts.set(this, (n = countTokens(this.text)));
    return n;
  },
  set(this: MemoryFile, n: number): void {
    tokenCounts.set(this, n);
  },
  enumerable: true,
  configurable: true,
};

/**
 * Makes the entries of one file from its top-level blocks, pushed in document order. A big
 * file's blocks are pushed while it is parsed, region by region, and each becomes entries at
 * once: its syntax tree dies young. (Kept whole, the tree of a 4,000-item CLAUDE.md outlives
 * several young-generation collections, is copied and promoted, and collecting it costs as
 * much as parsing.)
 */
class EntryBuilder {
  readonly entries: Entry[] = [];
  /** Frontmatter problems. */
  readonly findings: Finding[] = [];
  /** An error thrown while making entries (not while parsing Markdown). */
  failure?: { error: unknown };
  private started = false;
  private fm?: Frontmatter;
  private fmInfo?: { meta: EntryMeta; type?: EntryType };
  /** auto-memory-topic: the whole file is one entry, made by finish(). */
  private topicBlocks?: RootContent[];
  private walker?: SectionWalker;
  private readonly protectRes: RegExp[];
  // Entries of one section share their heading path (the same array): its verdict is computed once.
  private verdictOf?: readonly string[];
  private verdict?: HeadingVerdict;

  constructor(
    private readonly path: string,
    private readonly text: string,
    private readonly format: MemoryFormat,
    private readonly ls: number[],
    private readonly opts: ParseOptions,
    private readonly defs: ReadonlyMap<string, string>,
  ) {
    this.protectRes = compileProtect(opts.protectPatterns);
    if (format === 'auto-memory-topic') this.topicBlocks = [];
    else this.walker = new SectionWalker(format, defs, (d) => this.add(d));
  }

  push(node: RootContent): void {
    try {
      if (!this.started) this.start(node);
      if (this.topicBlocks) this.topicBlocks.push(node);
      else this.walker!.block(node);
    } catch (e) {
      this.failure = { error: e };
      throw e;
    }
  }

  /** Once all blocks are in: frontmatter onto the file, the topic entry, ids. */
  finish(file: MemoryFile): void {
    if (!this.started) this.start(undefined);
    const { fm, fmInfo, text } = this;
    if (fm) {
      file.frontmatterRange = fm.range;
      if (fm.data) file.frontmatter = fm.data;
    }
    if (this.topicBlocks) {
      // One entry for the whole file.
      const blocks = this.topicBlocks;
      const spans = spansOf(blocks, this.defs, text);
      const endLine = file.lines === 0 ? 1 : file.lines; // countLines(text)
      const d: Draft = {
        kind: 'topic',
        nodes: blocks,
        start: 0,
        end: text.length,
        line: 1,
        endLine,
        headings: [],
        meta: fmInfo ? { ...fmInfo.meta } : {},
        spans,
      };
      const m = PROTECT_RE.exec(text);
      if (m) d.protectedReason = m[1]?.trim() || 'marker';
      else if (frontmatterProtected(fm?.data)) d.protectedReason = 'frontmatter';
      if (fmInfo?.type) d.type = fmInfo.type;
      this.entries.push(this.entryOf(d));
    }
    assignIds(this.path, this.entries);
  }

  /** The first block (undefined: there is none): frontmatter, and the slot entry of its `content:`. */
  private start(first: RootContent | undefined): void {
    this.started = true;
    const { text, path, format } = this;
    if (first && (first.type === 'yaml' || (first.type as string) === 'toml')) {
      this.fm = readFrontmatter(first, text, path, format, this.ls, this.findings);
    } else if (looksLikeUnclosedFrontmatter(text)) {
      this.findings.push({
        entryId: null,
        file: path,
        line: 1,
        kind: 'malformed',
        severity: format === 'auto-memory-topic' ? 'error' : 'warning',
        message: `${path}:1: frontmatter fence is never closed; the file is read as plain Markdown`,
      });
    }
    const fm = this.fm;
    const fmInfo = (this.fmInfo = fm?.data ? fmInfoOf(fm.data) : undefined);
    // Structured slot frontmatter (claude-mem): `content:` becomes an entry of its own.
    if (!this.topicBlocks && fm?.data && fm.contentRange && typeof fm.data.content === 'string') {
      const slot = slotEntry(fm.contentRange, String(fm.data.content), this.ls);
      slot.meta = { ...fmInfo!.meta };
      if (fmInfo!.type) slot.type = fmInfo!.type;
      if (frontmatterProtected(fm.data)) slot.protectedReason = 'frontmatter';
      this.add(slot);
    }
  }

  /** A draft of a non-topic file becomes an entry (the file's frontmatter type by default). */
  private add(d: Draft): void {
    if (this.fmInfo?.type && !d.type) d.type = this.fmInfo.type;
    this.entries.push(this.entryOf(d));
  }

  private entryOf(d: Draft): Entry {
    const { text, fm, opts } = this;
    const etext = text.slice(d.start, d.end);
    const spans = d.spans ?? spansOf(d.nodes, this.defs, text);
    let type: EntryType;
    let typeSource: Entry['typeSource'];
    const meta = d.meta;
    const linked = !d.type && d.kind === 'index-line' && meta.target ? opts.indexLineType?.(meta.target) : undefined;
    if (d.type) {
      type = d.type;
      typeSource = 'frontmatter';
    } else if (linked) {
      type = linked.type;
      typeSource = 'frontmatter';
      meta.typeRule = linked.rule;
    } else {
      const basis = d.kind === 'topic' && (meta.name || meta.description)
        ? [meta.name, meta.description, etext.slice(fm ? fm.range[1] : 0)].filter(Boolean).join('\n')
        : etext;
      if (d.headings !== this.verdictOf) {
        this.verdictOf = d.headings;
        this.verdict = headingVerdict(d.headings);
      }
      const c = classify(basis, d.headings, this.verdict);
      type = c.type;
      typeSource = c.type === 'unknown' ? 'default' : 'heuristic';
      meta.typeRule = c.reason;
    }
    let protectedReason = d.protectedReason;
    if (!protectedReason && etext.includes('<!--')) {
      const m = PROTECT_RE.exec(etext);
      if (m) protectedReason = m[1]?.trim() || 'marker';
    }
    if (!protectedReason && this.protectRes.length > 0) {
      for (const re of this.protectRes) {
        if (re.test(etext)) {
          protectedReason = 'config';
          break;
        }
      }
    }
    if (protectedReason) meta.protectedReason = protectedReason;
    return {
      id: '',
      file: this.path,
      format: this.format,
      line: d.line,
      endLine: d.endLine,
      start: d.start,
      end: d.end,
      kind: d.kind,
      type,
      typeSource,
      protected: protectedReason !== undefined,
      text: etext,
      headings: d.headings,
      meta,
      spans,
      refs: [],
    };
  }
}

function slotEntry(range: [number, number], value: string, ls: number[]): Draft {
  const [start, end] = range;
  const line = lineAt(ls, start);
  return {
    kind: 'frontmatter-field',
    nodes: [],
    start,
    end,
    line,
    endLine: lineAt(ls, Math.max(start, end - 1)),
    headings: [],
    meta: {},
    spans: [{ kind: 'frontmatter', value, start, end, line }],
  };
}

function headingText(h: Heading): string {
  return h.children.map(plainText).join('').replace(/\s+/g, ' ').trim();
}

/**
 * Walks the top-level blocks of a (non-topic) file in order, keeping the heading path and
 * PROTECTED markers, and emits the entry drafts they make.
 */
class SectionWalker {
  private readonly stack: Array<{ depth: number; text: string }> = [];
  private headings: string[] = [];
  /** Reason of a PROTECTED marker waiting for its block. */
  private pending: string | undefined;
  private sectionProtect: { depth: number; reason: string } | undefined;

  constructor(
    private readonly format: MemoryFormat,
    private readonly defs: ReadonlyMap<string, string>,
    private readonly emit: (d: Draft) => void,
  ) {}

  private add(kind: Entry['kind'], nodes: Nodes[], at: Nodes, reason: string | undefined, meta: EntryMeta = {}): void {
    const p = pos(at);
    const d: Draft = { kind, nodes, start: p.start, end: p.end, line: p.line, endLine: p.endLine, headings: this.headings, meta };
    const r = reason ?? this.sectionProtect?.reason;
    if (r) d.protectedReason = r;
    this.emit(d);
  }

  block(node: RootContent): void {
    if ((node.type as string) === 'toml') return;
    switch (node.type) {
      case 'yaml':
      case 'thematicBreak':
        break;
      case 'heading': {
        const h = node as Heading;
        const stack = this.stack;
        while (stack.length > 0 && stack[stack.length - 1].depth >= h.depth) stack.pop();
        stack.push({ depth: h.depth, text: headingText(h) });
        this.headings = stack.map((s) => s.text);
        if (this.sectionProtect && h.depth <= this.sectionProtect.depth) this.sectionProtect = undefined;
        if (this.pending) {
          this.sectionProtect = { depth: h.depth, reason: this.pending };
          this.pending = undefined;
        }
        break;
      }
      case 'html': {
        const v = (node as Html).value;
        if (COMMENT_ONLY_RE.test(v)) {
          const m = PROTECT_RE.exec(v);
          if (m) this.pending = m[1]?.trim() || 'marker';
          break; // comments are not entries
        }
        this.add('paragraph', [node], node, this.pending);
        this.pending = undefined;
        break;
      }
      case 'list': {
        // A marker just before a list protects its first item (the entry on the next line);
        // to protect a whole list, put the marker before its section heading.
        for (const item of (node as List).children) {
          const meta = this.format === 'auto-memory-index' ? indexLineMeta(item, this.defs) : undefined;
          this.add(meta ? 'index-line' : 'item', [item], item, this.pending, meta ?? {});
          this.pending = undefined;
        }
        this.pending = undefined;
        break;
      }
      case 'table': {
        const rows = (node as Table).children;
        for (let i = 1; i < rows.length; i++) {
          this.add('table-row', [rows[i]], rows[i], this.pending);
          this.pending = undefined;
        }
        this.pending = undefined;
        break;
      }
      case 'code':
        this.add('code', [node], node, this.pending);
        this.pending = undefined;
        break;
      case 'blockquote':
        this.add('quote', [node], node, this.pending);
        this.pending = undefined;
        break;
      default:
        // paragraph, definition, footnoteDefinition and anything else block-level
        this.add('paragraph', [node], node, this.pending);
        this.pending = undefined;
    }
  }
}
