// A small lexer over the raw text of one entry: tells prose, inline code, link
// destinations, fenced code and HTML comments apart with exact offsets into
// MemoryFile.text. It does not depend on the markdown parser's spans, so reference
// extraction stays exact even where the parser normalises text.
import { lineAt, lineStarts } from '../parse.js';
import { isSpaceCode } from './chars.js';

export interface Segment {
  kind: 'prose' | 'inlineCode' | 'linkUrl' | 'code';
  /** Exact source text of the segment (for inline code: the content between backticks). */
  text: string;
  /** Absolute offset of `text` in MemoryFile.text. */
  start: number;
  /** Fenced code: the info string's first word, lower-cased ('' when unlabelled). */
  lang?: string;
  /** Link destination written in angle brackets (`](<docs/User Guide.md>)`): it may hold spaces. */
  angle?: boolean;
}

const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$/;

/**
 * Splits `text` (which starts at absolute offset `base`) into segments. `skip` ranges
 * (absolute) are left out entirely (frontmatter).
 */
export function lex(text: string, base: number, skip?: [number, number]): Segment[] {
  const out: Segment[] = [];
  // Nearly every entry has no fence (a fence needs three backticks or tildes in a row).
  const fences = text.indexOf('```') !== -1 || text.indexOf('~~~') !== -1;
  if (!fences && (!skip || base >= skip[1] || base + text.length <= skip[0])) {
    // No line touches `skip` either: the whole text is one inline run.
    if (text.length > 0) lexInline(text, base, out);
    return out;
  }
  if (!fences) {
    // Only `skip` splits the text (the frontmatter at the top of an entry): line by line as
    // below, without building the lines.
    let ps = -1;
    let pe = -1;
    let ls = 0;
    for (;;) {
      const nl = text.indexOf('\n', ls);
      const le = nl === -1 ? text.length : nl + 1;
      if (skip && base + ls < skip[1] && base + le > skip[0]) {
        if (ps !== -1 && pe > ps) lexInline(text.slice(ps, pe), base + ps, out);
        ps = -1;
      } else {
        if (ps === -1) ps = ls;
        pe = le;
        // Past the skipped range: the rest of the text is one run.
        if (!skip || base + ls >= skip[1]) {
          pe = text.length;
          break;
        }
      }
      if (nl === -1) break;
      ls = nl + 1;
    }
    if (ps !== -1 && pe > ps) lexInline(text.slice(ps, pe), base + ps, out);
    return out;
  }
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
  const n = text.length;
  let k = 0;
  // Only \ ` < ] start anything: hop from one to the next (positions of the next of each).
  let nBs = text.indexOf('\\');
  let nTick = text.indexOf('`');
  let nLt = text.indexOf('<');
  let nBr = text.indexOf(']');
  for (;;) {
    if (nBs !== -1 && nBs < k) nBs = text.indexOf('\\', k);
    if (nTick !== -1 && nTick < k) nTick = text.indexOf('`', k);
    if (nLt !== -1 && nLt < k) nLt = text.indexOf('<', k);
    if (nBr !== -1 && nBr < k) nBr = text.indexOf(']', k);
    let q = nBs;
    if (nTick !== -1 && (q === -1 || nTick < q)) q = nTick;
    if (nLt !== -1 && (q === -1 || nLt < q)) q = nLt;
    if (nBr !== -1 && (q === -1 || nBr < q)) q = nBr;
    if (q === -1) break;
    k = q;
    const c = text.charCodeAt(k);
    if (c === 92 /* \\ */) {
      if (k + 1 < n) {
        k += 2;
        continue;
      }
      k++;
      continue;
    }
    if (c === 96 /* ` */) {
      let t = 1;
      while (text.charCodeAt(k + t) === 96) t++;
      const ticks = t === 1 ? '`' : '`'.repeat(t);
      let close = text.indexOf(ticks, k + t);
      while (close !== -1 && text.charCodeAt(close + t) === 96) close = text.indexOf(ticks, close + t + 1);
      if (close !== -1) {
        if (k > proseStart) out.push({ kind: 'prose', text: text.slice(proseStart, k), start: base + proseStart });
        let cs = k + t;
        let ce = close;
        // One leading and trailing space are stripped when both are present.
        if (ce - cs >= 2 && text.charCodeAt(cs) === 32 && text.charCodeAt(ce - 1) === 32) {
          cs++;
          ce--;
        }
        out.push({ kind: 'inlineCode', text: text.slice(cs, ce), start: base + cs });
        k = close + t;
        proseStart = k;
        continue;
      }
      k += t;
      continue;
    }
    if (c === 60 /* < */) {
      if (text.startsWith('<!--', k)) {
        const close = text.indexOf('-->', k + 4);
        const end = close === -1 ? n : close + 3;
        if (k > proseStart) out.push({ kind: 'prose', text: text.slice(proseStart, k), start: base + proseStart });
        k = end;
        proseStart = k;
        continue;
      }
      // Autolink <https://...>
      const m = text.startsWith('<http', k) ? /^<(https?:\/\/[^>\s]+)>/.exec(text.slice(k, k + 2048)) : null;
      if (m) {
        if (k > proseStart) out.push({ kind: 'prose', text: text.slice(proseStart, k), start: base + proseStart });
        out.push({ kind: 'linkUrl', text: m[1], start: base + k + 1 });
        k += m[0].length;
        proseStart = k;
        continue;
      }
      k++;
      continue;
    }
    // c === ']'
    if (text.charCodeAt(k + 1) === 40 /* ( */) {
      // Link destination: ](url "title")
      let e = k + 2;
      let depth = 0;
      const angle = text.charCodeAt(e) === 60;
      if (angle) e++;
      const us = e;
      while (e < n) {
        const ch = text.charCodeAt(e);
        if (angle ? ch === 62 : (ch === 41 && depth === 0) || isSpaceCode(ch)) break;
        if (ch === 40) depth++;
        if (ch === 41) depth--;
        if (ch === 10) break;
        e++;
      }
      const url = text.slice(us, e);
      let close = text.indexOf(')', e);
      if (close === -1 || text.slice(e, close).includes('\n')) close = e;
      if (k + 1 > proseStart) out.push({ kind: 'prose', text: text.slice(proseStart, k + 1), start: base + proseStart });
      if (url) out.push(angle ? { kind: 'linkUrl', text: url, start: base + us, angle: true } : { kind: 'linkUrl', text: url, start: base + us });
      k = close + 1;
      proseStart = k;
      continue;
    }
    k++;
  }
  if (n > proseStart) out.push({ kind: 'prose', text: text.slice(proseStart, n), start: base + proseStart });
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
