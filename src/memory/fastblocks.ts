// A fast path for the plain Markdown that makes up most agent memory.
//
// micromark (remark-parse) is exact but slow: ~0.3-1 MB/s on a CI runner, so a 10,000-entry
// CLAUDE.md takes seconds. Most memory is a narrow subset of Markdown: ATX headings, tight
// bullet / ordered lists of one-paragraph items, plain paragraphs, with `code` spans and
// [text](url) links inline. `fastBlocks` builds the SAME mdast nodes remark-parse +
// remark-gfm would (types, values, urls, exact positions) for a region made only of that
// subset, and returns `undefined` as soon as it meets anything else (emphasis, escapes,
// entities, HTML, autolinks, tables, fences, quotes, loose or nested lists, trailing
// whitespace, tabs...), so that the caller parses that region with the real processor.
// It never guesses: the subset is proven equal to remark by a differential test
// (test/memory/fastblocks.test.ts).
import type { Code, Heading, Link, List, ListItem, Paragraph, PhrasingContent, RootContent, Strong, Text, InlineCode } from 'mdast';

interface Point {
  line: number;
  column: number;
  offset: number;
}

type Inline = Text | InlineCode | Link | Strong;

const ASCII_PUNCT = /[!-/:-@[-`{-~]/;
const ENTITY = /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/;
/** CommonMark: Unicode whitespace and punctuation (P and S categories), as micromark tests them. */
const WHITESPACE = /\s/;
const PUNCT = /[\p{P}\p{S}]/u;
/** GFM autolink literals (www., scheme://, e-mail) would become links: not in the subset. */
const AUTOLINK_HINT = /www\.|:\/\/|[\p{L}\p{N}._+-]@|mailto:|xmpp:/iu;
const WWW = /www\./i;

/**
 * AUTOLINK_HINT.test(value), cheaper: every alternative needs a `:`, an `@` or `www.`, and
 * most text has none of them, so the Unicode-aware pattern only runs on text that may match.
 */
function autolinkHint(value: string): boolean {
  if (value.indexOf(':') === -1 && value.indexOf('@') === -1 && !WWW.test(value)) return false;
  return AUTOLINK_HINT.test(value);
}
const WORD = /[\p{L}\p{N}]/u;

class Bail extends Error {}
/** Deeper list nesting than this goes to the real parser. */
const MAX_DEPTH = 32;
const BAIL = new Bail('not in the fast subset');

/**
 * Parse text.slice(from, to) (which must start at a line start, outside any container, and
 * end at a line start or the end of text) into top-level mdast nodes with absolute
 * positions. `line` is the 1-based line of `from`. Undefined when the region is not entirely
 * in the supported subset.
 */
export function fastBlocks(text: string, from = 0, to = text.length, line = 1): RootContent[] | undefined {
  try {
    return new FastParser(text, from, to, line).run();
  } catch (e) {
    // Bail: outside the subset. RangeError: pathological nesting; the real parser decides.
    if (e instanceof Bail || e instanceof RangeError) return undefined;
    throw e;
  }
}

interface Line {
  start: number;
  /** End of content (before the line ending). */
  end: number;
  /** Start of the next line. */
  next: number;
  line: number;
}

const BULLET = /^([-*+]) (?=\S)/;
const ORDERED = /^(\d{1,9})([.)]) (?=\S)/;
const HEADING = /^(#{1,6}) +(?=\S)/;
/** Starts of blocks a continuation line may not begin with (after its indentation). */
const BLOCK_START = /^(?:\+\+\+|[-*+](?: |$)|\d{1,9}[.)](?: |$)|#{1,6}(?: |$)|>|```|~~~|<|\||=+ *$|-+ *$|\*\*\*|___|\[[^\]]*\]:)/;
const TASK = /^\[[ xX]\](?: |$)/;
const FENCE = /^(`{3,}|~{3,})(.*)$/;
const DEFINITION = /^\[[^\]]*\]:/;
/** A GFM table delimiter row at column 1 (`| --- | :-: |`, `-|-`). */
const DELIMITER_ROW = /^\|?(?: *:?-+:? *\|)* *:?-+:? *\|?$/;
const THEMATIC_BREAK = /^(?:- *){3,}$|^(?:\* *){3,}$|^(?:_ *){3,}$/;

// Line tests on offsets, without cutting the line out: the parser asks them of every line.
// Each is the regular expression named in its comment, applied to text.slice(pos, end).

/** First characters of what BLOCK_START, TASK, DEFINITION and THEMATIC_BREAK match: `+-*#>\`~<|=_[` and digits. */
const BLOCK_LEAD = new Uint8Array(128);
for (const ch of '+-*#>`~<|=_[0123456789') BLOCK_LEAD[ch.charCodeAt(0)] = 1;

/** Whether a line (or the rest of one) starting with code unit `c` may open a block: the regular expressions are run only then. */
function mayOpenBlock(c: number): boolean {
  return c < 128 && BLOCK_LEAD[c] === 1;
}

/** `\s` of a regular expression, by UTF-16 code unit. */
export function isSpaceCode(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Length of BULLET's match (`- ` before a non-blank), else 0. */
function bulletLen(text: string, pos: number, end: number): number {
  const c = text.charCodeAt(pos);
  if ((c !== 45 && c !== 42 && c !== 43) || pos + 2 >= end || text.charCodeAt(pos + 1) !== 32) return 0;
  return isSpaceCode(text.charCodeAt(pos + 2)) ? 0 : 2;
}

/** Length of ORDERED's match (`12. ` before a non-blank), else 0. */
function orderedLen(text: string, pos: number, end: number): number {
  let k = pos;
  while (k < end && k - pos < 10 && text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57) k++;
  const digits = k - pos;
  const d = text.charCodeAt(k);
  if (digits === 0 || digits > 9 || (d !== 46 && d !== 41) || k + 2 >= end || text.charCodeAt(k + 1) !== 32) return 0;
  return isSpaceCode(text.charCodeAt(k + 2)) ? 0 : digits + 2;
}

/** /^1[.)] (?=\S)/: an ordered item that may interrupt a paragraph. */
function startsAtOne(text: string, pos: number, end: number): boolean {
  const d = text.charCodeAt(pos + 1);
  return text.charCodeAt(pos) === 49 && (d === 46 || d === 41) && orderedLen(text, pos, end) === 3;
}

/** Number of spaces that start text[pos, end) (/^ * /). */
function spacesAt(text: string, pos: number, end: number): number {
  let k = pos;
  while (k < end && text.charCodeAt(k) === 32) k++;
  return k - pos;
}

/** /[ \t]$/: a line ending in white space. */
function endsBlank(text: string, ln: Line): boolean {
  const c = ln.end > ln.start ? text.charCodeAt(ln.end - 1) : 0;
  return c === 32 || c === 9;
}

/** FENCE.exec of text[pos, end), cut out only when it starts with a fence character. */
function fenceExec(text: string, pos: number, end: number): RegExpExecArray | null {
  const c = text.charCodeAt(pos);
  return pos < end && (c === 96 || c === 126) ? FENCE.exec(text.slice(pos, end)) : null;
}

/** HEADING.test of text[pos, end). */
function headingTest(text: string, pos: number, end: number): boolean {
  return pos < end && text.charCodeAt(pos) === 35 && HEADING.test(text.slice(pos, end));
}

/**
 * The first offset at or after `from` of one character in a text, or -1. A file is parsed
 * region by region and line by line, in increasing order: `indexOf` alone would rescan the
 * rest of the file on every call (quadratic on a large CLAUDE.md without that character), so
 * the last answer is reused while it still holds (same text, `from` not before the previous
 * one nor past the character found).
 */
class NextChar {
  private text: string | undefined;
  private from = 0;
  private at = -1;

  constructor(private readonly ch: string) {}

  find(text: string, from: number): number {
    if (text !== this.text || from < this.from || (this.at !== -1 && from > this.at)) {
      this.text = text;
      this.from = from;
      this.at = text.indexOf(this.ch, from);
    }
    return this.at;
  }

  /** Whether text[from, to) holds the character. */
  within(text: string, from: number, to: number): boolean {
    const at = this.find(text, from);
    return at !== -1 && at < to;
  }
}

const NUL = new NextChar('\0');
const TAB = new NextChar('\t');
const CR = new NextChar('\r');

class FastParser {
  private lines: Line[] = [];
  private i = 0;
  /** Set when a line had a backtick run without a closing run (it could close on another line). */
  private openTicks = false;

  constructor(
    private readonly text: string,
    private readonly from: number,
    private readonly to: number,
    private readonly firstLine: number,
  ) {}

  run(): RootContent[] {
    // micromark turns NUL into U+FFFD in values: never in the subset.
    if (NUL.within(this.text, this.from, this.to)) throw BAIL;
    // micromark drops a byte order mark at the start of the document.
    if (this.from === 0 && this.text.charCodeAt(0) === 0xfeff) throw BAIL;
    this.split();
    const out: RootContent[] = [];
    let prevList: { kind: string; blankAfter: boolean } | undefined;
    if (this.from === 0 && this.lines.length > 0) {
      const fm = this.frontmatter();
      if (fm) out.push(fm);
    }
    while (this.i < this.lines.length) {
      const ln = this.lines[this.i];
      const s = this.text.slice(ln.start, ln.end);
      if (s.length === 0) {
        if (prevList) prevList.blankAfter = true;
        this.i++;
        continue;
      }
      if (endsBlank(this.text, ln) || s.charCodeAt(0) === 32) throw BAIL;
      if (s.startsWith('<!--')) {
        out.push(this.comment());
        prevList = undefined;
        continue;
      }
      const f = fenceExec(this.text, ln.start, ln.end);
      if (f) {
        out.push(this.fenceAt(0, f[1], f[2]));
        prevList = undefined;
        continue;
      }
      const h = s.charCodeAt(0) === 35 ? HEADING.exec(s) : null;
      if (h) {
        out.push(this.heading(ln, h[1].length, h[0].length));
        this.i++;
        prevList = undefined;
        continue;
      }
      if (bulletLen(this.text, ln.start, ln.end) || orderedLen(this.text, ln.start, ln.end)) {
        const list = this.listAt(0, []);
        const kind = list.ordered ? `o${this.delimiterOf(list)}` : `b${this.text[list.position!.start.offset!]}`;
        // A blank line then an item of the same list kind continues a loose list: not in the subset.
        if (prevList && prevList.blankAfter && prevList.kind === kind) throw BAIL;
        out.push(list);
        prevList = { kind, blankAfter: false };
        continue;
      }
      if (s.includes('|') && this.i + 1 < this.lines.length && (s[0] === '|' || this.paragraphStart(s))) {
        const d = this.lines[this.i + 1];
        const dt = this.text.slice(d.start, d.end);
        if (dt.includes('|') && DELIMITER_ROW.test(dt)) {
          out.push(this.table());
          prevList = undefined;
          continue;
        }
      }
      if (!this.paragraphStart(s)) throw BAIL;
      out.push(this.paragraph());
      prevList = undefined;
    }
    return out;
  }

  /**
   * A GFM table: header row, delimiter row, then body rows until a blank line. Only rows at
   * column 1 that contain a pipe, non-empty cells, no more cells than the header, and cell
   * content the inline subset reads (a pipe inside `code` would split the cell: declined).
   */
  private table(): RootContent {
    const header = this.lines[this.i];
    const delim = this.lines[this.i + 1];
    const dt = this.text.slice(delim.start, delim.end);
    const align = this.splitRow(delim, false).map((c) => {
      const t = this.text.slice(c.cs, c.ce);
      const l = t.startsWith(':');
      const r = t.endsWith(':');
      return l && r ? 'center' : l ? 'left' : r ? 'right' : null;
    });
    if (!DELIMITER_ROW.test(dt)) throw BAIL;
    if (DELIMITER_ROW.test(this.text.slice(header.start, header.end))) throw BAIL;
    const rows: Array<Record<string, unknown>> = [];
    const headerRow = this.row(header, align.length, true);
    rows.push(headerRow);
    this.i += 2;
    let last = headerRow;
    while (this.i < this.lines.length) {
      const ln = this.lines[this.i];
      const t = this.text.slice(ln.start, ln.end);
      if (t.length === 0) break;
      if (!t.includes('|') || t.charCodeAt(0) === 32 || /[ \t]$/.test(t) || DELIMITER_ROW.test(t)) throw BAIL;
      if (t[0] !== '|' && !this.paragraphStart(t)) throw BAIL; // another block starts here
      last = this.row(ln, align.length, false);
      rows.push(last);
      this.i++;
    }
    return {
      type: 'table',
      align,
      children: rows,
      // With no body row, the table ends with its delimiter row.
      position: {
        start: this.point(header.start, header),
        end: rows.length === 1 ? this.point(delim.end, delim) : { ...(last.position as { end: Point }).end },
      },
    } as unknown as RootContent;
  }

  /** Cells of a row: [start, end) of each cell (pipes included as remark has them) and its trimmed content. */
  private splitRow(ln: Line, allowEmpty: boolean): Array<{ s: number; e: number; cs: number; ce: number }> {
    const { text } = this;
    const pipes: number[] = [];
    for (let k = ln.start; k < ln.end; k++) if (text.charCodeAt(k) === 124) pipes.push(k);
    const lead = text.charCodeAt(ln.start) === 124;
    const trail = ln.end > ln.start && text.charCodeAt(ln.end - 1) === 124 && !(lead && pipes.length === 1);
    const bounds: number[] = [];
    if (!lead) bounds.push(ln.start);
    for (const p of pipes) bounds.push(p);
    const cells: Array<{ s: number; e: number; cs: number; ce: number }> = [];
    const n = trail ? bounds.length - 1 : bounds.length;
    for (let k = 0; k < n; k++) {
      const s = bounds[k];
      const isLast = k === n - 1;
      const e = isLast ? ln.end : bounds[k + 1];
      const innerS = text.charCodeAt(s) === 124 ? s + 1 : s;
      const innerE = isLast && trail ? ln.end - 1 : e;
      let cs = innerS;
      let ce = innerE;
      while (cs < ce && text.charCodeAt(cs) === 32) cs++;
      while (ce > cs && text.charCodeAt(ce - 1) === 32) ce--;
      if (cs === ce && !allowEmpty) throw BAIL;
      cells.push({ s, e, cs, ce });
    }
    return cells;
  }

  private row(ln: Line, columns: number, isHeader: boolean): Record<string, unknown> {
    const t = this.text.slice(ln.start, ln.end);
    if (t.charCodeAt(0) === 32 || /[ \t]$/.test(t)) throw BAIL;
    const cells = this.splitRow(ln, false);
    if (cells.length > columns || (isHeader && cells.length !== columns)) throw BAIL;
    const children = cells.map((c) => {
      this.openTicks = false;
      const inl = this.inlineLine(c.cs, c.ce, ln, null);
      if (this.openTicks) throw BAIL; // a code span may hold the pipe that split this cell
      return {
        type: 'tableCell',
        children: inl,
        position: { start: this.point(c.s, ln), end: this.point(c.e, ln) },
      };
    });
    return { type: 'tableRow', children, position: { start: this.point(ln.start, ln), end: this.point(ln.end, ln) } };
  }

  /** An HTML comment block (`<!-- PROTECTED -->`) starting at column 1: runs to the line holding `-->`. */
  private comment(): RootContent {
    const open = this.lines[this.i];
    if (/^<!---?>/.test(this.text.slice(open.start, open.end))) throw BAIL; // `<!-->`: an empty comment
    let k = this.i;
    for (; k < this.lines.length; k++) {
      const ln = this.lines[k];
      const t = this.text.slice(ln.start, ln.end);
      if (t.includes('\r')) throw BAIL;
      if (t.indexOf('-->', k === this.i ? 4 : 0) !== -1) break;
    }
    if (k >= this.lines.length) throw BAIL; // unclosed: runs past the region
    const close = this.lines[k];
    this.i = k + 1;
    return {
      type: 'html',
      value: this.text.slice(open.start, close.end),
      position: { start: this.point(open.start, open), end: this.point(close.end, close) },
    };
  }

  /** YAML (---) or TOML (+++) frontmatter at the very start of the document, as remark-frontmatter reads it. */
  private frontmatter(): RootContent | undefined {
    const first = this.text.slice(this.lines[0].start, this.lines[0].end);
    if (first !== '---' && first !== '+++') return undefined;
    let k = 1;
    let blankOnly = true;
    for (; k < this.lines.length; k++) {
      const t = this.text.slice(this.lines[k].start, this.lines[k].end);
      if (t === first) break;
      if (t.includes('\r')) throw BAIL;
      if (/^[-+]{3}[ \t]*$/.test(t)) throw BAIL; // a fence with trailing blanks: keep it simple
      if (t.trim() !== '') blankOnly = false;
    }
    if (k >= this.lines.length) throw BAIL; // unclosed: remark reads a thematic break or text
    if (k > 1 && blankOnly) throw BAIL;
    const close = this.lines[k];
    const value = k === 1 ? '' : this.text.slice(this.lines[1].start, this.lines[k - 1].end);
    this.i = k + 1;
    const node = {
      type: first === '---' ? 'yaml' : 'toml',
      value,
      position: { start: { line: this.firstLine, column: 1, offset: 0 }, end: this.point(close.end, close) },
    };
    return node as RootContent;
  }

  /**
   * A fenced code block whose fence starts `col` spaces in (0 at top level; an item's content
   * column inside a list item), closed inside the region. Content lines lose `col` spaces.
   */
  private fenceAt(col: number, marks: string, info: string): Code {
    const open = this.lines[this.i];
    const ch = marks[0];
    if (ch === '`' && info.includes('`')) throw BAIL;
    if (/[\\&]/.test(info)) throw BAIL; // escapes and entities are decoded in info strings
    const closeRe = ch === '`' ? /^(`{3,}) *$/ : /^(~{3,}) *$/;
    const nearClose = ch === '`' ? /^ {1,3}`{3,} *$/ : /^ {1,3}~{3,} *$/;
    const pad = ' '.repeat(col);
    let value = '';
    let k = this.i + 1;
    for (; k < this.lines.length; k++) {
      const ln = this.lines[k];
      const t = this.text.slice(ln.start, ln.end);
      if (t.includes('\r')) throw BAIL; // a bare CR is a line ending to micromark
      if (col > 0) {
        if (t.length === 0) throw BAIL; // blank lines in an item's fence: keep it simple
        if (!t.startsWith(pad)) throw BAIL; // less indented: the item (and the fence) would end
      }
      const rest = col > 0 ? t.slice(col) : t;
      const m = closeRe.exec(rest);
      if (m && m[1].length >= marks.length) break;
      if (nearClose.test(rest)) throw BAIL;
      if (k > this.i + 1) value += this.text.slice(this.lines[k - 1].end, this.lines[k - 1].next);
      value += rest;
    }
    if (k >= this.lines.length) throw BAIL; // unclosed: would run past the region
    const close = this.lines[k];
    const trimmed = info.trim();
    const sp = trimmed.search(/[ \t]/);
    const lang = trimmed === '' ? null : sp === -1 ? trimmed : trimmed.slice(0, sp);
    const meta = sp === -1 ? null : trimmed.slice(sp).trim() || null;
    this.i = k + 1;
    return {
      type: 'code',
      lang,
      meta,
      value,
      position: { start: this.point(open.start + col, open), end: this.point(close.end, close) },
    };
  }

  private delimiterOf(list: List): string {
    const s = list.position!.start.offset!;
    const m = ORDERED.exec(this.text.slice(s, s + 12));
    return m ? m[2] : '.';
  }

  private split(): void {
    const { text, to } = this;
    let pos = this.from;
    let line = this.firstLine;
    while (pos < to) {
      let nl = text.indexOf('\n', pos);
      if (nl === -1 || nl >= to) nl = to;
      let end = nl;
      if (end > pos && text.charCodeAt(end - 1) === 13) end--;
      const next = nl < to ? nl + 1 : to;
      this.lines.push({ start: pos, end, next, line });
      pos = next;
      line++;
    }
  }

  private point(offset: number, ln: Line): Point {
    return { line: ln.line, column: offset - ln.start + 1, offset };
  }

  private heading(ln: Line, depth: number, contentOffset: number): Heading {
    const cs = ln.start + contentOffset;
    const s = this.text.slice(cs, ln.end);
    if (/(^| )#+$/.test(s)) throw BAIL; // closing sequence
    const children = this.inline([{ ln, start: cs }]) as PhrasingContent[];
    return {
      type: 'heading',
      depth: depth as Heading['depth'],
      children,
      position: { start: this.point(ln.start, ln), end: this.point(ln.end, ln) },
    };
  }

  /** A line may open a paragraph when it cannot be read as any other block. */
  private paragraphStart(s: string): boolean {
    if (!mayOpenBlock(s.charCodeAt(0))) return true;
    if (BLOCK_START.test(s) || DEFINITION.test(s)) return false;
    if (THEMATIC_BREAK.test(s)) return false;
    return true;
  }

  /**
   * Continuation lines of the paragraph starting at this.lines[this.i]; advances this.i.
   * `item` is set inside a list item: its content column and the indents of every enclosing
   * list (where sibling / ancestor items start).
   */
  private continuation(item: { contentCol: number; itemIndents: number[] } | null): Array<{ ln: Line; start: number }> {
    const pieces: Array<{ ln: Line; start: number }> = [{ ln: this.lines[this.i], start: -1 }];
    this.i++;
    const { text } = this;
    while (this.i < this.lines.length) {
      const ln = this.lines[this.i];
      const { end } = ln;
      if (end === ln.start) break;
      if (endsBlank(text, ln)) throw BAIL;
      const indent = spacesAt(text, ln.start, end);
      const at = ln.start + indent; // the line without its indentation: `rest`
      if (item) {
        if (bulletLen(text, at, end) || orderedLen(text, at, end)) {
          if (item.itemIndents.includes(indent)) break; // a sibling or an ancestor's next item
          if (indent === item.contentCol && (bulletLen(text, at, end) || startsAtOne(text, at, end))) break; // a sub-list
          throw BAIL;
        }
        if (indent === 0 && (headingTest(text, at, end) || fenceExec(text, at, end) || text.startsWith('<!--', at))) break;
        if (indent === item.contentCol && fenceExec(text, at, end)) break; // a fence inside the item
      } else if (
        indent === 0 &&
        (headingTest(text, at, end) || bulletLen(text, at, end) || fenceExec(text, at, end) || text.startsWith('<!--', at) || startsAtOne(text, at, end))
      ) {
        break; // interrupts the paragraph (an ordered list only when it starts at 1)
      }
      const c0 = text.charCodeAt(at);
      if (mayOpenBlock(c0)) {
        const rest = text.slice(at, end);
        if (BLOCK_START.test(rest) || THEMATIC_BREAK.test(rest)) throw BAIL;
      }
      // An indented continuation that starts with a token: where the text node ends is subtle.
      if (indent > 0 && (c0 === 96 || c0 === 91 || c0 === 42)) throw BAIL;
      pieces.push({ ln, start: at });
      this.i++;
    }
    return pieces;
  }

  private paragraph(): Paragraph {
    const first = this.lines[this.i];
    const pieces = this.continuation(null);
    pieces[0].start = first.start;
    return this.paragraphOf(pieces);
  }

  private paragraphOf(pieces: Array<{ ln: Line; start: number }>): Paragraph {
    if (pieces.length > 1) {
      for (const p of pieces) if (this.text.slice(p.start, p.ln.end).includes('|')) throw BAIL; // could be a table
    }
    const children = this.inline(pieces) as PhrasingContent[];
    const first = pieces[0];
    const last = pieces[pieces.length - 1];
    return {
      type: 'paragraph',
      children,
      position: { start: this.point(first.start, first.ln), end: this.point(last.ln.end, last.ln) },
    };
  }

  /**
   * A tight list whose markers start `indent` spaces in (this.lines[this.i] is its first
   * item). Items hold one paragraph, then optionally fences and sub-lists at their content
   * column; anything else ends the item.
   */
  private listAt(indent: number, ancestors: number[]): List {
    if (ancestors.length >= MAX_DEPTH) throw BAIL;
    const firstLn = this.lines[this.i];
    const firstRest = this.text.slice(firstLn.start + indent, firstLn.end);
    const o = ORDERED.exec(firstRest);
    const b = o ? null : BULLET.exec(firstRest);
    if (!o && !b) throw BAIL;
    const ordered = o !== null;
    const marker = (o ? o[2] : b![1]).charCodeAt(0);
    const itemIndents = [...ancestors, indent];
    const items: ListItem[] = [];
    const { text } = this;
    while (this.i < this.lines.length) {
      const ln = this.lines[this.i];
      if (spacesAt(text, ln.start, ln.end) !== indent) break;
      const at = ln.start + indent;
      // The marker: `12.` / `-` and the space after it.
      const len = ordered ? orderedLen(text, at, ln.end) : bulletLen(text, at, ln.end);
      if (len === 0 || text.charCodeAt(ordered ? at + len - 2 : at) !== marker) break;
      if (endsBlank(text, ln)) throw BAIL;
      const contentCol = indent + len;
      const cs = ln.start + contentCol;
      const c0 = text.charCodeAt(cs);
      if (mayOpenBlock(c0)) {
        const content = text.slice(cs, ln.end);
        if (TASK.test(content) || BLOCK_START.test(content) || THEMATIC_BREAK.test(content)) throw BAIL;
      }
      if (c0 === 32) throw BAIL;
      const pieces = this.continuation({ contentCol, itemIndents });
      pieces[0].start = cs;
      const children: ListItem['children'] = [this.paragraphOf(pieces)];
      // Fences and sub-lists at the content column belong to the item.
      while (this.i < this.lines.length) {
        const nl = this.lines[this.i];
        if (nl.end === nl.start || spacesAt(text, nl.start, nl.end) !== contentCol) break;
        const nat = nl.start + contentCol;
        const f = fenceExec(text, nat, nl.end);
        if (f) {
          children.push(this.fenceAt(contentCol, f[1], f[2]));
          continue;
        }
        if (bulletLen(text, nat, nl.end) || orderedLen(text, nat, nl.end)) {
          children.push(this.listAt(contentCol, itemIndents));
          continue;
        }
        break;
      }
      items.push({
        type: 'listItem',
        spread: false,
        checked: null,
        children,
        position: { start: this.point(ln.start + indent, ln), end: { ...children[children.length - 1].position!.end } },
      });
    }
    const firstItem = items[0];
    const lastItem = items[items.length - 1];
    return {
      type: 'list',
      ordered,
      start: ordered ? Number.parseInt(o![1], 10) : null,
      spread: false,
      children: items,
      position: { start: { ...firstItem.position!.start }, end: { ...lastItem.position!.end } },
    };
  }

  /** Inline content over one or more line pieces (continuation lines joined by their line endings). */
  private inline(pieces: Array<{ ln: Line; start: number }>): Inline[] {
    this.openTicks = false;
    if (pieces.length === 1) return this.inlineLine(pieces[0].start, pieces[0].ln.end, pieces[0].ln, null);
    const out: Inline[] = [];
    for (let k = 0; k < pieces.length; k++) {
      const { ln, start } = pieces[k];
      const toks = this.inlineLine(start, ln.end, ln, null);
      if (k > 0) {
        // The previous line's ending joins the text around it.
        const prev = pieces[k - 1].ln;
        const eolStart = prev.end;
        const eolEnd = prev.next;
        const eol = this.text.slice(eolStart, eolEnd);
        const last = out[out.length - 1];
        const firstTok = toks[0];
        if (last && last.type === 'text') {
          last.value += eol;
          last.position!.end = { line: ln.line, column: 1, offset: eolEnd };
          if (firstTok && firstTok.type === 'text') {
            last.value += firstTok.value;
            last.position!.end = { ...firstTok.position!.end };
            toks.shift();
          } else if (start !== ln.start) throw BAIL;
        } else if (firstTok && firstTok.type === 'text') {
          firstTok.value = eol + firstTok.value;
          firstTok.position!.start = this.point(eolStart, prev);
        } else {
          out.push({
            type: 'text',
            value: eol,
            position: { start: this.point(eolStart, prev), end: { line: ln.line, column: 1, offset: eolEnd } },
          });
        }
      }
      out.push(...toks);
    }
    // A code span may run across lines: only single-line content may keep unmatched backticks.
    if (this.openTicks && pieces.length > 1) throw BAIL;
    return out;
  }

  private textNode(s: number, e: number, ln: Line): Text {
    const value = this.text.slice(s, e);
    if (autolinkHint(value)) throw BAIL;
    for (let i = value.indexOf('_'); i !== -1; i = value.indexOf('_', i + 1)) {
      // Only intraword underscores (snake_case) can never open emphasis.
      const before = s + i > ln.start ? this.text[s + i - 1] : '';
      const after = this.text[s + i + 1] ?? '';
      if (!WORD.test(before) || !WORD.test(after)) throw BAIL;
    }
    return { type: 'text', value, position: { start: this.point(s, ln), end: this.point(e, ln) } };
  }

  /**
   * Tokens of text.slice(s, e) on one line. `inside` forbids nesting: no links inside a
   * link, no strong inside strong, no strong inside a link.
   */
  private inlineLine(s: number, e: number, ln: Line, inside: 'link' | 'strong' | null): Inline[] {
    const { text } = this;
    const out: Inline[] = [];
    // A tab or a bare CR anywhere in inline text may start something outside the subset.
    if (TAB.within(text, s, e) || CR.within(text, s, e)) throw BAIL;
    let textStart = s;
    let i = s;
    while (i < e) {
      const c = text.charCodeAt(i);
      if (c === 96 /* ` */) {
        let n = 1;
        while (i + n < e && text.charCodeAt(i + n) === 96) n++;
        const close = this.findBackticks(i + n, e, n);
        if (close === -1) {
          // Unmatched backticks are literal text.
          this.openTicks = true;
          i += n;
          continue;
        }
        if (i > textStart) out.push(this.textNode(textStart, i, ln));
        let value = text.slice(i + n, close);
        if (value.length >= 2 && value[0] === ' ' && value[value.length - 1] === ' ' && value.trim() !== '') value = value.slice(1, -1);
        out.push({ type: 'inlineCode', value, position: { start: this.point(i, ln), end: this.point(close + n, ln) } });
        i = close + n;
        textStart = i;
        continue;
      }
      if (c === 91 /* [ */) {
        if (inside === 'link') throw BAIL;
        const link = this.link(i, e, ln);
        if (i > textStart) out.push(this.textNode(textStart, i, ln));
        out.push(link);
        i = link.position!.end.offset!;
        textStart = i;
        continue;
      }
      if (c === 42 /* * */) {
        if (inside !== null) throw BAIL;
        const strong = this.strong(i, e, ln);
        if (i > textStart) out.push(this.textNode(textStart, i, ln));
        out.push(strong);
        i = strong.position!.end.offset!;
        textStart = i;
        continue;
      }
      if (c === 93 /* ] */) throw BAIL;
      if (c === 33 /* ! */ && text.charCodeAt(i + 1) === 91) throw BAIL;
      if (c === 126 /* ~ */) throw BAIL; // GFM strikethrough
      if (c === 92 /* \\ */) {
        // An escape (backslash + ASCII punctuation) or a hard break (backslash at line end).
        const nx = text[i + 1];
        if (nx === undefined || i + 1 >= ln.end || ASCII_PUNCT.test(nx)) throw BAIL;
      }
      if (c === 38 /* & */ && ENTITY.test(text.slice(i, Math.min(e, i + 40)))) throw BAIL;
      if (c === 60 /* < */ && /[A-Za-z/!?]/.test(text[i + 1] ?? '')) throw BAIL; // HTML or autolink
      i++;
    }
    if (e > textStart) out.push(this.textNode(textStart, e, ln));
    return out;
  }

  /** `**strong**` starting at i, on one line, when the runs are unambiguously an opener and a closer. */
  private strong(i: number, e: number, ln: Line): Strong {
    const { text } = this;
    if (text.charCodeAt(i + 1) !== 42 || text.charCodeAt(i + 2) === 42) throw BAIL;
    if (!this.flank(i, 2, ln, 'open')) throw BAIL;
    // The closer: the next asterisk outside code spans.
    let j = i + 2;
    while (j < e) {
      const c = text.charCodeAt(j);
      if (c === 96) {
        let n = 1;
        while (j + n < e && text.charCodeAt(j + n) === 96) n++;
        const close = this.findBackticks(j + n, e, n);
        if (close === -1) throw BAIL;
        j = close + n;
        continue;
      }
      if (c === 42) break;
      j++;
    }
    if (j >= e || j === i + 2) throw BAIL;
    if (text.charCodeAt(j + 1) !== 42 || text.charCodeAt(j + 2) === 42) throw BAIL;
    if (!this.flank(j, 2, ln, 'close')) throw BAIL;
    const children = this.inlineLine(i + 2, j, ln, 'strong') as Strong['children'];
    return { type: 'strong', children, position: { start: this.point(i, ln), end: this.point(j + 2, ln) } };
  }

  /** True when the `*` run at i (length n) can only open (or only close) emphasis. */
  private flank(i: number, n: number, ln: Line, want: 'open' | 'close'): boolean {
    const { text } = this;
    const prev = i > ln.start ? text[i - 1] : '\n';
    const next = i + n < ln.end ? text[i + n] : '\n';
    const wsP = WHITESPACE.test(prev);
    const wsN = WHITESPACE.test(next);
    const puP = PUNCT.test(prev);
    const puN = PUNCT.test(next);
    const left = !wsN && (!puN || wsP || puP);
    const right = !wsP && (!puP || wsN || puN);
    return want === 'open' ? left && !right : right && !left;
  }

  /** Offset of a run of exactly n backticks in [from, e), or -1. */
  private findBackticks(from: number, e: number, n: number): number {
    const { text } = this;
    let j = from;
    while (j < e) {
      if (text.charCodeAt(j) !== 96) {
        j++;
        continue;
      }
      let m = 1;
      while (j + m < e && text.charCodeAt(j + m) === 96) m++;
      if (m === n) return j;
      j += m;
    }
    return -1;
  }

  /** `[text](dest)` starting at i, all on one line; anything fancier bails. */
  private link(i: number, e: number, ln: Line): Link {
    const { text } = this;
    // Find the closing bracket, skipping code spans.
    let k = i + 1;
    while (k < e) {
      const c = text.charCodeAt(k);
      if (c === 96) {
        let n = 1;
        while (k + n < e && text.charCodeAt(k + n) === 96) n++;
        const close = this.findBackticks(k + n, e, n);
        if (close === -1) throw BAIL;
        k = close + n;
        continue;
      }
      if (c === 91) throw BAIL;
      if (c === 93) break;
      k++;
    }
    if (k >= e || k === i + 1) throw BAIL;
    if (text.charCodeAt(k + 1) !== 40 /* ( */) throw BAIL;
    const ds = k + 2;
    let de = ds;
    while (de < e && text.charCodeAt(de) !== 41 /* ) */) {
      const c = text[de];
      if (c === ' ' || c === '(' || c === '"' || c === "'" || c === '<' || c === '>' || c === '`' || c === '[' || c === ']') throw BAIL;
      de++;
    }
    if (de >= e || de === ds) throw BAIL;
    const children = this.inlineLine(i + 1, k, ln, 'link') as Link['children'];
    return {
      type: 'link',
      title: null,
      url: text.slice(ds, de),
      children,
      position: { start: this.point(i, ln), end: this.point(de + 1, ln) },
    };
  }
}
