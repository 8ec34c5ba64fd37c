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
import type { Heading, Link, List, ListItem, Paragraph, PhrasingContent, RootContent, Text, InlineCode } from 'mdast';

interface Point {
  line: number;
  column: number;
  offset: number;
}

type Inline = Text | InlineCode | Link;

/** Characters that may start something outside the subset anywhere in inline text. */
const BAIL_CHAR = /[\\&<*~\t\r]/;
/** GFM autolink literals (www., scheme://, e-mail) would become links: not in the subset. */
const AUTOLINK_HINT = /www\.|:\/\/|[\p{L}\p{N}._+-]@|mailto:|xmpp:/iu;
const WORD = /[\p{L}\p{N}]/u;

class Bail extends Error {}
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
    if (e instanceof Bail) return undefined;
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
const DEFINITION = /^\[[^\]]*\]:/;

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
    this.split();
    const out: RootContent[] = [];
    let prevList: { kind: string; blankAfter: boolean } | undefined;
    while (this.i < this.lines.length) {
      const ln = this.lines[this.i];
      const s = this.text.slice(ln.start, ln.end);
      if (s.length === 0) {
        if (prevList) prevList.blankAfter = true;
        this.i++;
        continue;
      }
      if (/[ \t]$/.test(s) || s.charCodeAt(0) === 32) throw BAIL;
      const h = HEADING.exec(s);
      if (h) {
        out.push(this.heading(ln, h[1].length, h[0].length));
        this.i++;
        prevList = undefined;
        continue;
      }
      if (BULLET.test(s) || ORDERED.test(s)) {
        const list = this.list();
        const kind = list.ordered ? `o${this.delimiterOf(list)}` : `b${this.text[list.position!.start.offset!]}`;
        // A blank line then an item of the same list kind continues a loose list: not in the subset.
        if (prevList && prevList.blankAfter && prevList.kind === kind) throw BAIL;
        out.push(list);
        prevList = { kind, blankAfter: false };
        continue;
      }
      if (!this.paragraphStart(s)) throw BAIL;
      out.push(this.paragraph());
      prevList = undefined;
    }
    return out;
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
    if (BLOCK_START.test(s) || DEFINITION.test(s)) return false;
    if (/^(?:- *){3,}$|^(?:\* *){3,}$|^(?:_ *){3,}$/.test(s)) return false;
    return true;
  }

  /** Continuation lines of a paragraph starting at this.lines[this.i]; advances this.i. */
  private continuation(inList: boolean): Array<{ ln: Line; start: number }> {
    const pieces: Array<{ ln: Line; start: number }> = [{ ln: this.lines[this.i], start: -1 }];
    this.i++;
    while (this.i < this.lines.length) {
      const ln = this.lines[this.i];
      const s = this.text.slice(ln.start, ln.end);
      if (s.length === 0) break;
      if (/[ \t]$/.test(s)) throw BAIL;
      const indent = /^ */.exec(s)![0].length;
      const rest = s.slice(indent);
      if (indent === 0 && (HEADING.test(s) || BULLET.test(s))) break; // interrupts the paragraph
      if (indent === 0 && inList && ORDERED.test(s)) break; // the next item (or a new list)
      if (BLOCK_START.test(rest) || /^(?:- *){3,}$|^(?:\* *){3,}$|^(?:_ *){3,}$/.test(rest)) throw BAIL;
      // An indented continuation that starts with a token: where the text node ends is subtle.
      if (indent > 0 && (rest[0] === '`' || rest[0] === '[')) throw BAIL;
      pieces.push({ ln, start: ln.start + indent });
      this.i++;
    }
    return pieces;
  }

  private paragraph(): Paragraph {
    const first = this.lines[this.i];
    const pieces = this.continuation(false);
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

  private list(): List {
    const firstLn = this.lines[this.i];
    const firstS = this.text.slice(firstLn.start, firstLn.end);
    const o = ORDERED.exec(firstS);
    const b = o ? null : BULLET.exec(firstS);
    const ordered = o !== null;
    const marker = o ? o[2] : b![1];
    const items: ListItem[] = [];
    while (this.i < this.lines.length) {
      const ln = this.lines[this.i];
      const s = this.text.slice(ln.start, ln.end);
      const m = ordered ? ORDERED.exec(s) : BULLET.exec(s);
      if (!m || (ordered ? m[2] : m[1]) !== marker) break;
      if (/[ \t]$/.test(s)) throw BAIL;
      const cs = ln.start + m[0].length;
      const content = this.text.slice(cs, ln.end);
      if (TASK.test(content) || BLOCK_START.test(content) || /^(?:- *){3,}$|^(?:\* *){3,}$|^(?:_ *){3,}$/.test(content)) throw BAIL;
      if (content.charCodeAt(0) === 32) throw BAIL;
      const pieces = this.continuation(true);
      pieces[0].start = cs;
      const para = this.paragraphOf(pieces);
      items.push({
        type: 'listItem',
        spread: false,
        checked: null,
        children: [para],
        position: { start: this.point(ln.start, ln), end: { ...para.position!.end } },
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
    const out: Inline[] = [];
    this.openTicks = false;
    for (let k = 0; k < pieces.length; k++) {
      const { ln, start } = pieces[k];
      const toks = this.inlineLine(start, ln.end, ln, false);
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
    if (AUTOLINK_HINT.test(value)) throw BAIL;
    for (let i = value.indexOf('_'); i !== -1; i = value.indexOf('_', i + 1)) {
      // Only intraword underscores (snake_case) can never open emphasis.
      const before = s + i > ln.start ? this.text[s + i - 1] : '';
      const after = this.text[s + i + 1] ?? '';
      if (!WORD.test(before) || !WORD.test(after)) throw BAIL;
    }
    return { type: 'text', value, position: { start: this.point(s, ln), end: this.point(e, ln) } };
  }

  /** Tokens of text.slice(s, e) on one line; inLink forbids nested links. */
  private inlineLine(s: number, e: number, ln: Line, inLink: boolean): Inline[] {
    const { text } = this;
    const out: Inline[] = [];
    if (BAIL_CHAR.test(text.slice(s, e))) throw BAIL;
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
        if (inLink) throw BAIL;
        const link = this.link(i, e, ln);
        if (i > textStart) out.push(this.textNode(textStart, i, ln));
        out.push(link);
        i = link.position!.end.offset!;
        textStart = i;
        continue;
      }
      if (c === 93 /* ] */) throw BAIL;
      if (c === 33 /* ! */ && text.charCodeAt(i + 1) === 91) throw BAIL;
      i++;
    }
    if (e > textStart) out.push(this.textNode(textStart, e, ln));
    return out;
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
    const children = this.inlineLine(i + 1, k, ln, true) as Link['children'];
    return {
      type: 'link',
      title: null,
      url: text.slice(ds, de),
      children,
      position: { start: this.point(i, ln), end: this.point(de + 1, ln) },
    };
  }
}
