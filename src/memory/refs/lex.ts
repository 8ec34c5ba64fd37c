// A small lexer over the raw text of one entry: tells prose, inline code, link
// destinations, fenced code and HTML comments apart with exact offsets into
// MemoryFile.text. It does not depend on the markdown parser's spans, so reference
// extraction stays exact even where the parser normalises text.
import { lineAt, lineStarts } from '../parse.js';

export interface Segment {
  kind: 'prose' | 'inlineCode' | 'linkUrl' | 'code';
  /** Exact source text of the segment (for inline code: the content between backticks). */
  text: string;
  /** Absolute offset of `text` in MemoryFile.text. */
  start: number;
  /** Fenced code: the info string's first word, lower-cased ('' when unlabelled). */
  lang?: string;
}

const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$/;

/**
 * Splits `text` (which starts at absolute offset `base`) into segments. `skip` ranges
 * (absolute) are left out entirely (frontmatter).
 */
export function lex(text: string, base: number, skip?: [number, number]): Segment[] {
  const out: Segment[] = [];
  const lines = splitLines(text);
  let i = 0;
  let prose: { start: number; end: number } | null = null;
  const flushProse = () => {
    if (prose && prose.end > prose.start) lexInline(text.slice(prose.start, prose.end), base + prose.start, out);
    prose = null;
  };
  while (i < lines.length) {
    const ln = lines[i];
    if (skip && base + ln.start < skip[1] && base + ln.end > skip[0]) {
      flushProse();
      i++;
      continue;
    }
    const m = FENCE_OPEN.exec(ln.text);
    if (m) {
      flushProse();
      const fence = m[2];
      const lang = (m[3] || '').toLowerCase().replace(/^\{?\.?/, '').replace(/[},].*$/, '');
      let j = i + 1;
      while (j < lines.length) {
        const t = lines[j].text.trim();
        if (t.startsWith(fence[0].repeat(fence.length)) && /^(`{3,}|~{3,})\s*$/.test(t)) break;
        j++;
      }
      const bodyStart = i + 1 < lines.length ? lines[i + 1].start : ln.end;
      const bodyEnd = j < lines.length ? lines[j].start : text.length;
      if (bodyEnd > bodyStart) out.push({ kind: 'code', text: text.slice(bodyStart, bodyEnd), start: base + bodyStart, lang });
      i = j + 1;
      continue;
    }
    if (!prose) prose = { start: ln.start, end: ln.end };
    else prose.end = ln.end;
    i++;
  }
  flushProse();
  return out;
}

interface Line { text: string; start: number; end: number }

export function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let s = 0;
  for (let k = 0; k <= text.length; k++) {
    if (k === text.length || text[k] === '\n') {
      out.push({ text: text.slice(s, k).replace(/\r$/, ''), start: s, end: Math.min(k + 1, text.length) });
      s = k + 1;
      if (k === text.length) break;
    }
  }
  return out;
}

/** Inline pass: backtick code, HTML comments, link destinations; the rest is prose. */
function lexInline(text: string, base: number, out: Segment[]): void {
  let proseStart = 0;
  const pushProse = (end: number) => {
    if (end > proseStart) out.push({ kind: 'prose', text: text.slice(proseStart, end), start: base + proseStart });
  };
  let k = 0;
  while (k < text.length) {
    const c = text[k];
    if (c === '\\' && k + 1 < text.length) {
      k += 2;
      continue;
    }
    if (c === '`') {
      let n = 1;
      while (text[k + n] === '`') n++;
      const ticks = '`'.repeat(n);
      let close = text.indexOf(ticks, k + n);
      while (close !== -1 && text[close + n] === '`') close = text.indexOf(ticks, close + n + 1);
      if (close !== -1) {
        pushProse(k);
        let cs = k + n;
        let ce = close;
        // One leading and trailing space are stripped when both are present.
        if (ce - cs >= 2 && text[cs] === ' ' && text[ce - 1] === ' ') {
          cs++;
          ce--;
        }
        out.push({ kind: 'inlineCode', text: text.slice(cs, ce), start: base + cs });
        k = close + n;
        proseStart = k;
        continue;
      }
      k += n;
      continue;
    }
    if (c === '<' && text.startsWith('<!--', k)) {
      const close = text.indexOf('-->', k + 4);
      const end = close === -1 ? text.length : close + 3;
      pushProse(k);
      k = end;
      proseStart = k;
      continue;
    }
    if (c === '<') {
      // Autolink <https://...>
      const m = /^<(https?:\/\/[^>\s]+)>/.exec(text.slice(k, k + 2048));
      if (m) {
        pushProse(k);
        out.push({ kind: 'linkUrl', text: m[1], start: base + k + 1 });
        k += m[0].length;
        proseStart = k;
        continue;
      }
    }
    if (c === ']' && text[k + 1] === '(') {
      // Link destination: ](url "title")
      let e = k + 2;
      let depth = 0;
      const angle = text[e] === '<';
      if (angle) e++;
      const us = e;
      while (e < text.length) {
        const ch = text[e];
        if (angle ? ch === '>' : (ch === ')' && depth === 0) || /\s/.test(ch)) break;
        if (ch === '(') depth++;
        if (ch === ')') depth--;
        if (ch === '\n') break;
        e++;
      }
      const url = text.slice(us, e);
      let close = text.indexOf(')', e);
      if (close === -1 || text.slice(e, close).includes('\n')) close = e;
      pushProse(k + 1);
      if (url) out.push({ kind: 'linkUrl', text: url, start: base + us });
      k = close + 1;
      proseStart = k;
      continue;
    }
    k++;
  }
  pushProse(text.length);
}

/** Line-start table for a file, cached per text. */
const lineTables = new Map<string, number[]>();
export function lineOf(fileText: string, offset: number): number {
  let table = lineTables.get(fileText);
  if (!table) {
    table = lineStarts(fileText);
    if (lineTables.size > 64) lineTables.clear();
    lineTables.set(fileText, table);
  }
  return lineAt(table, offset);
}
