// Extracts the references an entry makes (paths, imports, links, URLs, commands,
// packages, versions, issues, counts) with their exact offsets and lines.
// Pure: reads only the entry and its file. Helpers live in ./refs/.
import type { Entry, MemoryFile, Reference } from '../types.js';
import { lineAt, lineStarts } from './parse.js';
import { isSpaceCode } from './refs/chars.js';
import { lex, splitLines, type Segment } from './refs/lex.js';
import { asPath, asSpacedPath, configOwnerDir, goPackageOfIdent, pytestNodePath, pythonDottedName, splitGlobList, templatedFolder, trimToken, withoutLineSuffix, type PathToken } from './refs/paths.js';
import { looksLikeCommand, parseCommandLine, splitFqcn, type CommandPiece, type ShellState } from './refs/commands.js';
import { isListing, isTree, parseTree, rootedAtRepository } from './refs/tree.js';
import { goImportRef } from './refs/gomod.js';
import {
  COMPOSER_NAME, encodeText, isComposerName, scanCountsIn, scanProse, scanWordsEncoded, SCOPED_PACKAGE, textFlags, T_AT, T_BRACKET, T_COLON, T_DIGIT, T_DOT, T_IMPORT, T_SLASH, T_TOOL,
  wordEndAt, wordRaw, wordStartAt, wordValue,
} from './refs/prose.js';

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console', 'zsh', 'fish', 'shellsession', 'terminal', 'cmd', 'powershell', 'pwsh', 'posh', 'ps1', 'ps', 'bat']);
const PLAIN_LANGS = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'tree', 'none']);
const URL_RE = /\bhttps?:\/\/[^\s<>()`"'\]]+[^\s<>()`"'\].,;:!?]/g;
const WIKILINK_RE = /\[\[([^\]\n|#]+)(?:[#|][^\]\n]*)?\]\]/g;

/** Per file: its line-start table and (lazily) the intro folder of every line, computed once. */
interface FileInfo {
  file: MemoryFile;
  text: string;
  starts: number[];
  intro?: Array<string | undefined>;
}
/**
 * The files looked up last, newest first. Entries come file by file, so a few slots are enough
 * (a WeakMap keyed by file cost more than the lookups it saved: one insertion per file).
 */
const recentInfos: FileInfo[] = [];
const RECENT_MAX = 4;
function fileInfo(file: MemoryFile): FileInfo {
  const first = recentInfos[0];
  if (first !== undefined && first.file === file && first.text === file.text) return first;
  for (let i = 1; i < recentInfos.length; i++) {
    const fi = recentInfos[i];
    if (fi.file === file && fi.text === file.text) {
      recentInfos.splice(i, 1);
      recentInfos.unshift(fi);
      return fi;
    }
  }
  const fi: FileInfo = { file, text: file.text, starts: lineStarts(file.text) };
  recentInfos.unshift(fi);
  if (recentInfos.length > RECENT_MAX) recentInfos.length = RECENT_MAX;
  return fi;
}

function sameNum(a: number, b: number): boolean {
  return a === b || (a !== a && b !== b);
}

/**
 * References added through `add` by the current collector, for the duplicate check: the first
 * `addedCount` slots (the array is not emptied between entries: emptying it freed and grew its
 * storage again for every entry).
 */
const addedScratch: Reference[] = [];
let addedCount = 0;

class Collector {
  readonly refs: Reference[] = [];
  /** The duplicate check's key set, once many references were added (addedScratch before that). */
  private seen: Set<string> | null = null;
  /** Line cursor: index into `starts` of the last line looked up. */
  private li: number;
  constructor(
    readonly file: MemoryFile,
    private readonly starts: number[],
    at: number,
  ) {
    this.li = lineAt(starts, at) - 1;
    addedCount = 0;
  }

  /** 1-based line of an offset (the same answer as `lineAt(starts, offset)`); offsets come in nearly in order. */
  line(offset: number): number {
    const s = this.starts;
    let i = this.li;
    if (s[i] <= offset) {
      const n = s.length;
      let k = 0;
      while (i + 1 < n && s[i + 1] <= offset) {
        i++;
        if (++k === 16) {
          i = lineAt(s, offset) - 1;
          break;
        }
      }
    } else i = lineAt(s, offset) - 1;
    this.li = i;
    return i + 1;
  }

  private duplicate(r: Omit<Reference, 'line'>): boolean {
    if (this.seen) {
      const key = `${r.kind}:${r.start}:${r.end}:${r.value}`;
      if (this.seen.has(key)) return true;
      this.seen.add(key);
      return false;
    }
    const added = addedScratch;
    for (let i = 0; i < addedCount; i++) {
      const x = added[i];
      if (x.kind === r.kind && sameNum(x.start, r.start) && sameNum(x.end, r.end) && x.value === r.value) return true;
    }
    added[addedCount++] = r as Reference;
    if (addedCount > 24) this.seen = new Set(added.slice(0, addedCount).map((x) => `${x.kind}:${x.start}:${x.end}:${x.value}`));
    return false;
  }

  /** False once a reference starts (or ends) before the one added before it. */
  inOrder = true;
  private lastStart = -Infinity;
  private lastEnd = -Infinity;

  /** Appends a reference, keeping track of whether the list is still in (start, end) order. */
  push(r: Reference, start: number, end: number): void {
    if (start < this.lastStart || (start === this.lastStart && end < this.lastEnd) || start !== start || end !== end) this.inOrder = false;
    this.lastStart = start;
    this.lastEnd = end;
    this.refs.push(r);
  }

  /** `r` is a fresh object literal at every call site: it becomes the reference (no copy). */
  add(r: Omit<Reference, 'line'> & { line?: number }): void {
    if (this.duplicate(r)) return;
    r.raw = this.file.text.slice(r.start, r.end) || r.raw;
    r.line = r.line ?? this.line(r.start);
    this.push(r as Reference, r.start, r.end);
  }
}

export function extractReferences(entry: Entry, file: MemoryFile): Reference[] {
  const fileText = file.text;
  const text = entry.text;
  const st = entry.start;
  const en = entry.end;
  const found = fileText.slice(st, en) === text;
  const base = found ? st : locate(fileText, text, st);
  // The entry's text is the file's text at `base`: a word's spelling is the file's text at its offsets.
  const exact =
    Number.isInteger(base) && base >= 0 && ((found && base === st && en === st + text.length) || fileText.slice(base, base + text.length) === text);
  const info = fileInfo(file);
  const c = new Collector(file, info.starts, base);
  const segments = lex(text, base, file.frontmatterRange);
  const ctxBase = contextBase(entry, file, text, base, info);

  // The heading right above the first entry of a section (`### Agent System (packages/x/)`).
  const heading = headingAbove(fileText, entry.start, info.starts);
  if (heading) for (const seg of lex(heading.text, heading.start)) headingPaths(seg, c, file);

  frontmatterGlobs(entry, file, c);
  for (const seg of segments) {
    if (seg.kind === 'prose') prose(seg, c, ctxBase, file, exact);
    else if (seg.kind === 'inlineCode') inlineCode(seg, c, ctxBase, file);
    else if (seg.kind === 'linkUrl') linkUrl(seg, c, file);
    else codeBlock(seg, c);
  }
  // Counts: over the entry with fenced code and link destinations masked (a count needs a digit).
  if (hasDigit(text)) {
    // Masked ranges, flat: [start0, end0, start1, end1, ...] (relative to the entry, clamped at 0).
    const ranges: number[] = [];
    for (const seg of segments) {
      if (seg.kind === 'code' || seg.kind === 'linkUrl') ranges.push(Math.max(0, seg.start - base), Math.max(0, seg.start - base + seg.text.length));
    }
    const fm = file.frontmatterRange;
    if (fm) ranges.push(Math.max(0, fm[0] - base), Math.max(0, fm[1] - base));
    if (mayCount(text, ranges)) {
      const pairs: Array<[number, number]> = [];
      for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i], ranges[i + 1]]);
      const view = mask(text, pairs);
      const unCommented = view.includes('<!--') ? view.replace(/<!--[\s\S]*?-->/g, (x) => ' '.repeat(x.length)) : view;
      for (const h of scanCountsIn(unCommented)) {
        addProseHit(h, { kind: 'prose', text: view, start: base }, c, 'prose');
      }
    }
  }
  // Usually added in order already (prose words are): sort (stable) only when not.
  if (!c.inOrder) c.refs.sort((x, y) => x.start - y.start || x.end - y.end);
  return c.refs;
}

const DIGIT = /\d/;
function hasDigit(s: string): boolean {
  return DIGIT.test(s);
}

/** A count needs a number followed by whitespace (`12 files`, `10+ hooks`). */
const COUNT_HINT = /\d\+?\s/g;

/**
 * Whether `mask(text, ranges)` (comments blanked) can hold a count: a digit left unmasked
 * and followed (after an optional `+`) by whitespace, or by a masked range (blanked to spaces).
 * `ranges` is flat: [start0, end0, start1, end1, ...].
 */
function mayCount(text: string, ranges: number[]): boolean {
  if (text.includes('<!--')) return true; // comments are blanked too: do not guess
  const len = text.length;
  COUNT_HINT.lastIndex = 0;
  while (COUNT_HINT.test(text)) {
    const end = COUNT_HINT.lastIndex;
    const at = text.charCodeAt(end - 2) === 43 /* + */ ? end - 3 : end - 2; // where the digit is
    if (!isMasked(ranges, at, len)) return true;
    COUNT_HINT.lastIndex = at + 1;
  }
  for (let k = 0; k < ranges.length; k += 2) {
    const a = ranges[k];
    if (a >= 1 && a < len && isDigitAt(text, a - 1) && !isMasked(ranges, a - 1, len)) return true;
    if (a >= 2 && a < len && text.charCodeAt(a - 1) === 43 /* + */ && isDigitAt(text, a - 2) && !isMasked(ranges, a - 1, len) && !isMasked(ranges, a - 2, len)) return true;
  }
  return false;
}

function isMasked(ranges: number[], i: number, len: number): boolean {
  for (let k = 0; k < ranges.length; k += 2) if (i >= ranges[k] && i < Math.min(ranges[k + 1], len)) return true;
  return false;
}

function isDigitAt(s: string, i: number): boolean {
  const ch = s.charCodeAt(i);
  return ch >= 48 && ch <= 57;
}

/** Commands in prose name one of these tools, followed by whitespace. */
const COMMAND_HINT = /(?:npm|yarn|bun|make|just)\s/;

function locate(fileText: string, text: string, hint: number): number {
  const i = fileText.indexOf(text, Math.max(0, hint - 16));
  if (i !== -1) return i;
  const j = fileText.indexOf(text);
  return j === -1 ? hint : j;
}

// ------------------------------------------------------------------ context

interface CtxBase {
  /** Folder for bare names on lines after the entry's first line. */
  inner?: string;
  innerFrom?: number;
  /** Folder from an intro line or heading, for bare names anywhere in the entry. */
  outer?: string;
  via?: Reference['via'];
}

/** dirTokens by text: headings repeat for every entry of their section. */
const dirTokenCache = new Map<string, string[]>();
function dirTokens(s: string): string[] {
  let d = dirTokenCache.get(s);
  if (!d) {
    d = dirTokensOf(s);
    if (dirTokenCache.size > 10_000) dirTokenCache.clear();
    dirTokenCache.set(s, d);
  }
  return d;
}

function dirTokensOf(s: string): string[] {
  const out: string[] = [];
  for (const seg of lex(s, 0)) {
    if (seg.kind === 'code' || seg.kind === 'linkUrl') continue;
    for (const raw of seg.text.split(/[\s()[\],]+/)) {
      const [, t] = trimToken(raw);
      const p = asPath(t, seg.kind === 'inlineCode' ? 'code' : 'prose');
      if (!p || p.glob) continue;
      // A folder written from the repository root (`(\`/backend/open_webui\`)`, `/src`) names the
      // same folder as without the `/`: an extension-less root path counts as a folder.
      const folder = p.anchor === 'root' ? !/\.[\w]+$/.test(p.value) && p.value !== '' : p.dir || (!/\.[\w]+$/.test(p.value) && p.value.includes('/'));
      if (folder) out.push(p.value.replace(/^\/+/, ''));
    }
  }
  return [...new Set(out)];
}

const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;

function contextBase(entry: Entry, file: MemoryFile, text: string, base: number, info: FileInfo): CtxBase {
  const out: CtxBase = {};
  const firstNl = text.indexOf('\n');
  if (firstNl !== -1) {
    const d = dirTokens(text.slice(0, firstNl));
    if (d.length === 1) {
      out.inner = d[0];
      out.innerFrom = base + firstNl;
    }
  }
  // An intro line that ends with ':' just above a list ("Located in `packages/x/`:").
  if (LIST_ITEM.test(text)) {
    const intro = introDirs(info)[lineAt(info.starts, base) - 1];
    if (intro) {
      out.outer = intro;
      out.via = 'list';
    }
  }
  if (!out.outer) {
    for (let k = entry.headings.length - 1; k >= 0; k--) {
      const d = dirTokens(entry.headings[k]);
      if (d.length === 1) {
        out.outer = d[0];
        out.via = 'heading';
        break;
      }
      if (d.length > 1) break;
    }
  }
  // A topic file is one entry: its lists and headings are inside it, not around it. The folder
  // its body's list intro lines and headings name (`located in \`builds/scripts/\`:`) applies to
  // the bare names after it, as it does around a CLAUDE.md entry; only when the body names one
  // such folder (several: which list a name belongs to is not tracked here, so none is guessed).
  if (entry.kind === 'topic' && out.inner === undefined && text.length > 0) {
    const t = topicFolder(file, info, base, base + text.length);
    if (t) {
      out.inner = t.dir;
      out.innerFrom = t.from;
    }
  }
  return out;
}

/**
 * The one folder named by list intro lines and headings inside a topic body ([from, to) in the
 * file), and the offset after which it applies (the end of the line before its first list, or
 * of the heading); undefined when none or several folders are named. Frontmatter lines are not
 * read.
 */
function topicFolder(file: MemoryFile, info: FileInfo, from: number, to: number): { dir: string; from: number } | undefined {
  const intro = introDirs(info);
  const starts = info.starts;
  const text = info.text;
  const fm = file.frontmatterRange;
  let found: { dir: string; from: number } | undefined;
  const first = lineAt(starts, from) - 1;
  const last = lineAt(starts, Math.max(from, to - 1)) - 1;
  for (let i = first; i <= last && i < starts.length; i++) {
    const s = starts[i];
    if (fm && s < fm[1] && s >= fm[0]) continue;
    let d: string | undefined = intro[i];
    let at = s - 1;
    if (d === undefined && text.charCodeAt(s) === 35 /* # */) {
      const e = lineEndAt(text, s);
      if (/^#{1,6}\s/.test(text.slice(s, Math.min(e, s + 8)))) {
        const h = dirTokens(text.slice(s, e));
        if (h.length > 1) return undefined;
        if (h.length === 1) {
          d = h[0];
          at = e;
        }
      }
    }
    if (d === undefined) continue;
    if (!found) found = { dir: d, from: at };
    else if (found.dir !== d) return undefined;
  }
  return found;
}

/**
 * For every line of a file: the folder named by the intro line of the list it belongs to
 * (`Located in \`packages/x/\`:` followed by list items), computed in one pass per file.
 */
function introDirs(info: FileInfo): Array<string | undefined> {
  if (info.intro) return info.intro;
  const text = info.text;
  const out: Array<string | undefined> = [];
  let cur: string | undefined;
  let s = 0;
  for (;;) {
    const nl = text.indexOf('\n', s);
    const e = nl === -1 ? text.length : nl;
    out.push(cur);
    // Blank lines, list items and indented lines (two or more whitespace characters) continue the list.
    let p = s;
    while (p < e && isSpaceCode(text.charCodeAt(p))) p++;
    if (p < e && p - s < 2 && !listMarkerAt(text, p, e)) {
      cur = undefined;
      // An intro line: ends with ':', does not start with '#', names a folder.
      let q = e;
      while (q > s && isSpaceCode(text.charCodeAt(q - 1))) q--;
      if (q > s && text.charCodeAt(q - 1) === 58 /* : */ && text.charCodeAt(s) !== 35 /* # */) {
        const line = text.slice(s, e);
        if (line.includes('/')) {
          const d = dirTokens(line);
          if (d.length === 1) cur = d[0];
        }
      }
    }
    if (nl === -1) break;
    s = nl + 1;
  }
  info.intro = out;
  return out;
}

/**
 * Folders a path written at `at` may be relative to, nearest first (computed only when the
 * path does not resolve as written; the path check keeps those that exist as folders):
 * the folders of the list items it is nested under, the folder named by the intro line of
 * its list (a line ending with ':'), and the folder(s) named by the nearest heading that names one.
 * A folder token may be a path (`packages/next`, `src/`) or, in code, a plain name (`codex-rs`).
 */
export function contextFolders(entry: Entry, file: MemoryFile | undefined, at: number): string[] {
  const out: string[] = [];
  const push = (d: string[]) => {
    for (const x of d) if (!out.includes(x)) out.push(x);
  };
  const text = file && file.text.slice(entry.start, entry.end) === entry.text ? file.text : entry.text;
  const off = text === entry.text ? entry.start : 0;
  let s = text.lastIndexOf('\n', at - off - 1) + 1; // start of the reference's line
  let indent = indentAt(text, s);
  let item = listMarkerAt(text, s + indent, lineEndAt(text, s));
  // Parent list items: walk up, each time to the nearest list item indented less.
  for (let n = 0; s > 0 && n < 200 && indent > 0; n++) {
    s = text.lastIndexOf('\n', s - 2) + 1;
    const e = lineEndAt(text, s);
    const ind = indentAt(text, s);
    if (s + ind === e) continue; // blank
    if (ind < indent && listMarkerAt(text, s + ind, e)) {
      push(folderTokens(text.slice(s, e)));
      indent = ind;
      item = true;
    } else if (ind < 2 && !listMarkerAt(text, s + ind, e)) break;
  }
  // The list's intro line (only for list items: "... in `codex-rs`, especially:").
  if (item) {
    for (let n = 0; s > 0 && n < 400; n++) {
      s = text.lastIndexOf('\n', s - 2) + 1;
      const e = lineEndAt(text, s);
      const ind = indentAt(text, s);
      if (s + ind === e || ind >= 2 || listMarkerAt(text, s + ind, e)) continue;
      let q = e;
      while (q > s && isSpaceCode(text.charCodeAt(q - 1))) q--;
      if (q > s && text.charCodeAt(q - 1) === 58 /* : */ && text.charCodeAt(s) !== 35 /* # */) push(folderTokens(text.slice(s, e)));
      break;
    }
  }
  for (let k = entry.headings.length - 1; k >= 0; k--) {
    const d = folderTokens(entry.headings[k]);
    if (d.length) {
      push(d);
      break;
    }
  }
  // Memory kept in a project's config folder (`apps/web/.cursor/rules/x.mdc`,
  // `apps/web/.claude/CLAUDE.md`) is read from that project (`apps/web`): its paths are written
  // from there. Last: the text's own context is nearer.
  const owner = configOwnerDir(entry.file);
  if (owner) push([owner]);
  return out;
}

function lineEndAt(text: string, s: number): number {
  const e = text.indexOf('\n', s);
  return e === -1 ? text.length : e;
}

function indentAt(text: string, s: number): number {
  let p = s;
  while (p < text.length && (text.charCodeAt(p) === 32 || text.charCodeAt(p) === 9)) p++;
  return p - s;
}

/** Folder tokens of a line: `dirTokens`, and plain names in code (`codex-rs`) with no extension. */
function folderTokens(line: string): string[] {
  const d = dirTokens(line);
  if (!line.includes('`')) return d;
  let out: string[] | undefined;
  for (const seg of lex(line, 0)) {
    if (seg.kind !== 'inlineCode') continue;
    const t = seg.text.trim().replace(/\/+$/, '');
    if (/^[A-Za-z_][\w-]*$/.test(t) && !d.includes(t)) (out ??= [...d]).push(t);
  }
  return out ?? d;
}

/** `^\s*(?:[-*+]|\d+[.)])\s` at the first non-space character `p` of a line ending at `e`. */
function listMarkerAt(text: string, p: number, e: number): boolean {
  const ch = text.charCodeAt(p);
  if (ch === 45 || ch === 42 || ch === 43) return p + 1 < e && isSpaceCode(text.charCodeAt(p + 1));
  let q = p;
  while (q < e && text.charCodeAt(q) >= 48 && text.charCodeAt(q) <= 57) q++;
  if (q === p || q >= e) return false;
  const m = text.charCodeAt(q);
  return (m === 46 || m === 41) && q + 1 < e && isSpaceCode(text.charCodeAt(q + 1));
}

function headingAbove(fileText: string, start: number, starts: number[]): { text: string; start: number } | null {
  // Only when nothing but whitespace separates the heading from the entry.
  if (!Number.isInteger(start)) return null; // (fileText[start - 1] is no character)
  let k = start;
  while (k > 0 && isSpaceCode(fileText.charCodeAt(k - 1))) k--;
  if (k === 0 || k === start) return null;
  // The start of the line holding k - 1 (`lastIndexOf('\n', k - 1) + 1`), from the line table.
  const lineStart = k - 1 < fileText.length ? starts[lineAt(starts, k - 1) - 1] : fileText.lastIndexOf('\n', k - 1) + 1;
  if (fileText.charCodeAt(lineStart) !== 35 /* # */) return null;
  const line = fileText.slice(lineStart, k);
  return /^#{1,6}\s/.test(line) ? { text: line, start: lineStart } : null;
}

function baseFor(ctx: CtxBase, at: number): { base?: string; via?: Reference['via'] } {
  if (ctx.inner && ctx.innerFrom !== undefined && at > ctx.innerFrom) return { base: ctx.inner + '/', via: 'entry' };
  if (ctx.outer) return { base: ctx.outer + '/', via: ctx.via };
  return {};
}

// ------------------------------------------------------------------ prose

function mask(s: string, ranges: Array<[number, number]>): string {
  if (!ranges.length) return s;
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [x0, y0] of sorted) {
    const x = Math.max(at, Math.min(x0, s.length));
    const y = Math.min(y0, s.length);
    if (y <= x) continue;
    out += s.slice(at, x) + ' '.repeat(y - x);
    at = y;
  }
  return out + s.slice(at);
}

// Commands written in prose: "run npm run build", "pnpm typecheck", "make check-py".
// `make` and `just` are English words: in prose their target must look like one (a-b, a_b, a:b).
const PROSE_COMMAND = /(?<![\w./-])(?:(?:npm|pnpm|yarn|bun)\s+run\s+[\w:.-]+|pnpm\s+(?:--filter\s+\S+\s+)?(?:[a-z][\w.]*[-:][\w:.-]+|(?:test|build|dev|start|lint|format|typecheck|check|release|preview|deploy|clean|watch|bench|e2e|coverage|docs|storybook|serve|generate|codegen|migrate|seed|prepare|verify|ci|fmt|tsc)\b)|(?:make|just)\s+[a-z][\w]*[-_:][\w:-]+)(?![\w/-])/g;

function prose(seg: Segment, c: Collector, ctx: CtxBase, file: MemoryFile, exact: boolean): void {
  const t = seg.text;
  let taken: Array<[number, number]> | null = null;
  let m: RegExpExecArray | null;
  // Every scan below is skipped when the text cannot match it (no "http", no "[[", no digit...):
  // one pass over the text's bytes says what it holds.
  const f = textFlags(encodeText(t));
  if (f & T_IMPORT && t.includes('import ')) proseImports(seg, c); // `import com.acme.X;` (a class name, see `fqcnRef`)
  if (f & T_COLON && t.includes('http')) {
    URL_RE.lastIndex = 0;
    while ((m = URL_RE.exec(t))) {
      c.add({ kind: 'url', raw: m[0], value: m[0], start: seg.start + m.index, end: seg.start + m.index + m[0].length, in: 'prose' });
      (taken ??= []).push([m.index, m.index + m[0].length]);
    }
  }
  if (f & T_BRACKET && t.includes('[[')) {
    WIKILINK_RE.lastIndex = 0;
    while ((m = WIKILINK_RE.exec(t))) {
      c.add({ kind: 'wikilink', raw: m[0], value: m[1].trim(), start: seg.start + m.index, end: seg.start + m.index + m[0].length, in: 'prose' });
      (taken ??= []).push([m.index, m.index + m[0].length]);
    }
  }
  // Issues, versions and counts (URLs keep their issue numbers: scan the raw text). All need a digit.
  if (f & T_DIGIT) {
    for (const h of scanProse(t)) {
      if (h.kind !== 'issue' && taken && taken.some(([a, b]) => h.start < b && h.end > a)) continue;
      addProseHit(h, seg, c, 'prose');
    }
  }
  if (f & T_TOOL && COMMAND_HINT.test(t)) {
    PROSE_COMMAND.lastIndex = 0;
    while ((m = PROSE_COMMAND.exec(t))) for (const p of parseCommandLine(m[0].replace(/[.:]+$/, ''))) if (p.kind === 'script') addPiece(p, seg.start + m.index, c, 'prose');
  }
  const masked = taken ? mask(t, taken) : t;
  // Composer names (`spatie/laravel-data`, link text `[vendor/name](composer.json)` too), before
  // the path scan masks them: also a relative path, told apart by the package check.
  if (f & T_SLASH) {
    COMPOSER_NAME.lastIndex = 0;
    while ((m = COMPOSER_NAME.exec(masked))) {
      c.add({ kind: 'package', raw: m[0], value: m[0], start: seg.start + m.index, end: seg.start + m.index + m[0].length, in: 'prose', tool: 'composer' });
    }
  }
  // Tokens: imports, scoped packages, paths. Only tokens holding `.`, `/` or `@` are looked at.
  let pathRanges: Array<[number, number]> | null = null;
  const n = masked.length;
  const pathChars = (f & (T_DOT | T_SLASH | T_AT)) !== 0;
  let nd = pathChars ? masked.indexOf('.') : -1;
  let ns = pathChars ? masked.indexOf('/') : -1;
  let na = pathChars ? masked.indexOf('@') : -1;
  let from = 0;
  for (;;) {
    let p = nd;
    if (ns !== -1 && (p === -1 || ns < p)) p = ns;
    if (na !== -1 && (p === -1 || na < p)) p = na;
    if (p === -1) break;
    let s0 = p;
    while (s0 > from && !isSpaceCode(masked.charCodeAt(s0 - 1))) s0--;
    let e0 = p + 1;
    while (e0 < n && !isSpaceCode(masked.charCodeAt(e0))) e0++;
    if (tokenMayBePath(masked, s0, e0)) {
      const r = proseToken(masked.slice(s0, e0), s0, seg, c, ctx, file);
      if (r) (pathRanges ??= []).push(r);
    }
    from = e0;
    if (nd !== -1 && nd < e0) nd = masked.indexOf('.', e0);
    if (ns !== -1 && ns < e0) ns = masked.indexOf('/', e0);
    if (na !== -1 && na < e0) na = masked.indexOf('@', e0);
  }
  const masked2 = pathRanges ? mask(masked, pathRanges) : masked;
  let masked3 = masked2;
  if (f & T_AT && masked2.includes('@')) {
    SCOPED_PACKAGE.lastIndex = 0;
    while ((m = SCOPED_PACKAGE.exec(masked2))) {
      c.add({ kind: 'package', raw: m[0], value: m[0].toLowerCase(), start: seg.start + m.index, end: seg.start + m.index + m[0].length, in: 'prose' });
    }
    masked3 = masked2.replace(SCOPED_PACKAGE, (x) => ' '.repeat(x.length));
  }
  // Words that may name a package (weak): the hot path, one per word. No duplicate check is
  // needed: prose segments are disjoint from every other segment, and within a segment the
  // words scanned here are masked off from scoped names, paths and URLs, so nothing else adds
  // a `package` reference at the same offsets.
  const fileText = file.text;
  const off = seg.start;
  const k = scanWordsEncoded(masked3);
  for (let i = 0; i < k; i++) {
    const start = off + wordStartAt(i);
    const end = off + wordEndAt(i);
    // The word is the file's text at start..end when the entry was found in it.
    const raw = exact ? wordRaw(i) : fileText.slice(start, end) || wordRaw(i);
    c.push({ kind: 'package', raw, value: wordValue(i), start, end, in: 'prose', weak: true, line: c.line(start) } as Reference, start, end);
  }
}

/**
 * Whether the token text[s0, e0) can still hold `.` or `/`, or start with `@`, once trimToken
 * has stripped the punctuation around it (a sentence's last word `done.` cannot): the same
 * stripping as trimToken, on offsets, before any slicing.
 */
function tokenMayBePath(text: string, s0: number, e0: number): boolean {
  let s = s0;
  let e = e0;
  for (;;) {
    const a = text.charCodeAt(s);
    if (!(s < e - 1 && (a === 42 || a === 95) && text.charCodeAt(e - 1) === a)) break;
    s++;
    e--;
  }
  while (s < e && isLeadPunct(text.charCodeAt(s))) s++;
  while (e > s) {
    const z = text.charCodeAt(e - 1);
    if (!isTrailPunct(z)) break;
    if (z === 46 && e - s <= 2) break;
    e--;
  }
  if (s >= e) return false;
  if (text.charCodeAt(s) === 64 /* @ */) return true;
  for (let i = s; i < e; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 46 || ch === 47) return true;
  }
  return false;
}

/** trimToken's leading punctuation: ( " ' “ ‘ * , ; */
function isLeadPunct(c: number): boolean {
  return c === 40 || c === 34 || c === 39 || c === 0x201c || c === 0x2018 || c === 42 || c === 44 || c === 59;
}

/** trimToken's trailing punctuation: ) " ' ” ’ * , ; : ! ? . … */
function isTrailPunct(c: number): boolean {
  return c === 41 || c === 34 || c === 39 || c === 0x201d || c === 0x2019 || c === 42 || c === 44 || c === 59 || c === 58 || c === 33 || c === 63 || c === 46 || c === 0x2026;
}

/** One prose token holding `.`, `/` or `@`: an import or a path. Returns the range to mask, if any. */
function proseToken(token: string, index: number, seg: Segment, c: Collector, ctx: CtxBase, file: MemoryFile): [number, number] | null {
  const [lead, tok] = trimToken(token);
  if (!tok) return null;
  const s = index + lead;
  if (tok.startsWith('@') && tok.length > 1) {
    const p = asPath(tok.slice(1), 'import');
    if (p && (p.strong || /\.[\w]+$/.test(p.value) || /^[.~]/.test(tok.slice(1)))) {
      c.add({ kind: 'import', raw: tok, value: p.value, start: seg.start + s, end: seg.start + s + tok.length, in: 'prose' });
      return [s, s + tok.length];
    }
    return null; // scoped package handled below
  }
  if (tok.includes('**') || (!tok.includes('.') && !tok.includes('/'))) return null;
  const p = asPath(tok, 'prose');
  if (p) {
    addPath(p, tok, seg.start + s, c, 'prose', ctx, file);
    return [s, s + tok.length];
  }
  return null;
}

function addProseHit(h: ReturnType<typeof scanProse>[number], seg: Segment, c: Collector, where: Reference['in']): void {
  const start = seg.start + h.start;
  const end = seg.start + h.end;
  // (Optional keys are set after the others: the same key order as a spread at the end.)
  if (h.kind === 'issue') {
    const r: Omit<Reference, 'line'> = { kind: 'issue', raw: h.raw, value: h.value, start, end, in: where, number: h.number, issueKind: h.issueKind, describedOpen: h.describedOpen };
    if (h.repo) r.repo = h.repo;
    c.add(r);
  } else if (h.kind === 'version') {
    c.add({ kind: 'version', raw: h.raw, value: h.value, start, end, in: where, subject: h.subject, version: h.version, bound: h.bound });
  } else if (h.kind === 'count') {
    const r: Omit<Reference, 'line'> = { kind: 'count', raw: h.raw, value: h.value, start, end, in: where, count: h.count, noun: h.noun, bound: h.bound };
    if (h.where) r.base = h.where;
    c.add(r);
  }
}

function addPath(p: PathToken, tok: string, start: number, c: Collector, where: Reference['in'], ctx: CtxBase, file: MemoryFile, kind: 'path' | 'import' = 'path'): void {
  const bare = !p.value.includes('/') && p.anchor === 'plain';
  if (file.format === 'auto-memory-index' && bare && /\.md$/i.test(p.value)) return; // memory topic links are checked as links
  // Keys in this order: kind raw value start end in [base via] [glob] [weak].
  const r: Omit<Reference, 'line'> = { kind, raw: tok, value: p.value, start, end: start + tok.length, in: where };
  if (bare) {
    const b = baseFor(ctx, start);
    if (b.base) {
      r.base = b.base;
      r.via = b.via;
    }
  }
  if (p.glob) r.glob = true;
  if (!p.strong) r.weak = true;
  c.add(r);
}

// ------------------------------------------------------------------ inline code

/** One name: a word, dots only between word parts (`WordPressFlux`, `codex-rs`, `Acme.Core`); no `/`, no extension-like start. */
const LISTED_NAME = /^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*$/;

/**
 * A bare name in code (`WordPressFlux`) that starts a list item under a list whose intro line
 * or parent item names one folder ("`Modules/Sources/` - Swift packages including:"): the list
 * names that folder's members, so the name is a `path` reference to `base/name` (weak, with the
 * list's `base`). The path check only reports it when `base/name` was a file or folder in
 * history and is gone now: a word that never was there says nothing. Only the span that opens
 * the item (after the marker and optional emphasis) is the item's name; spans later in the item
 * are what it says about it. The package reference of the same span is still made (below).
 */
function listedName(tok: string, s: number, c: Collector, ctx: CtxBase, file: MemoryFile): void {
  if (!LISTED_NAME.test(tok) || tok.length > 100) return;
  const b = baseFor(ctx, s);
  if (!b.base || (b.via !== 'list' && b.via !== 'entry')) return;
  // The span opens its line's list item: `- `, `* `, `+ `, `1. ` then optional `**` / `*` / `_`, then the backtick.
  const text = file.text;
  const ls = text.lastIndexOf('\n', s - 1) + 1;
  if (!/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?:\*\*|__|\*|_)?`+$/.test(text.slice(ls, s))) return;
  c.add({ kind: 'path', raw: tok, value: tok, start: s, end: s + tok.length, in: 'inlineCode', base: b.base, via: b.via, weak: true });
}

/** A Rust path's crate (`codex_utils_cargo_bin::cargo_bin(..)`, `insta::assert_snapshot!`), not `std::` and the like. */
const RUST_CRATE_PATH = /(?<![\w:$.@/-])([a-z][a-z0-9]*(?:_[a-z0-9]+)*)::(?=[A-Za-z_{*<])/g;
const RUST_NOT_CRATES = new Set(['std', 'core', 'alloc', 'crate', 'self', 'super', 'proc_macro', 'test', 'parent', 'static', 'this']);

/** The crates of Rust paths in a span of inline code: package references (`cargo`), checked against Cargo manifests only. */
function rustCratePaths(seg: Segment, c: Collector): void {
  if (!seg.text.includes('::')) return;
  RUST_CRATE_PATH.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = RUST_CRATE_PATH.exec(seg.text))) {
    if (RUST_NOT_CRATES.has(m[1]!)) continue;
    c.add({ kind: 'package', raw: m[1]!, value: m[1]!, start: seg.start + m.index, end: seg.start + m.index + m[1]!.length, in: 'inlineCode', tool: 'cargo' });
  }
}

/** A relative Windows path: name segments joined by `\`, a file extension last (no drive, no escape such as `\n`). */
const WINDOWS_RELATIVE = /^(?:\.\\)?[A-Za-z0-9_][\w.-]*(?:\\[A-Za-z0-9_][\w.-]*)*\\[A-Za-z0-9_][\w-]*\.[A-Za-z0-9]{1,8}$/;

function inlineCode(seg: Segment, c: Collector, ctx: CtxBase, file: MemoryFile): void {
  const t = seg.text;
  const tt = t.trim();
  if (!tt) return;
  rustCratePaths(seg, c);
  if (/^https?:\/\//.test(tt)) {
    c.add({ kind: 'url', raw: tt, value: tt, start: seg.start + t.indexOf(tt), end: seg.start + t.indexOf(tt) + tt.length, in: 'inlineCode' });
    for (const h of scanProse(t, { inCode: true })) if (h.kind === 'issue') addProseHit(h, seg, c, 'inlineCode');
    return;
  }
  if (!/\s/.test(tt)) {
    const tok = tt;
    const s = seg.start + t.indexOf(tok);
    const goRef = goImportRef(tok, s); // a Go module / import path is also a `go` package reference (refs/gomod.ts)
    if (goRef) c.add(goRef);
    // A Composer name (`spatie/laravel-data`) is also a relative path: both references, the package
    // check tells them apart (see COMPOSER_NAME).
    else if (tok.includes('/') && isComposerName(tok)) c.add({ kind: 'package', raw: tok, value: tok, start: s, end: s + tok.length, in: 'inlineCode', tool: 'composer' });
    if (tok.charCodeAt(0) === 64 /* @ */ && /^@[\w.-]+\/[\w.-]+$/.test(tok) && !/\.(md|mdx|txt|json|ya?ml|toml)$/i.test(tok)) {
      c.add({ kind: 'package', raw: tok, value: tok.toLowerCase(), start: s, end: s + tok.length, in: 'inlineCode' });
      return;
    }
    // A Windows relative path (`scripts\test-integration.bat`, `.\build\run.ps1`): read with `/`,
    // kept as written (a correction is written back with `\`).
    if (WINDOWS_RELATIVE.test(tok)) {
      const w = asPath(tok.replace(/\\/g, '/'), 'code');
      if (w) addPath(w, tok, s, c, 'inlineCode', ctx, file);
      return;
    }
    fqcnRef(tok, s, c);
    folderOfCode(tok, s, c); // `pkg/x.New(…)`, `pkg/register/<name>.go`: the folder part
    const nodeTok = pytestNodePath(tok); // `tests/x.py::TestX::test_y`: the file part (see `pytestNodePath`)
    const pathTok = nodeTok === tok ? withoutLineSuffix(tok) : nodeTok; // `tests/x.py:42`: the file part
    const viaAt = pathTok.startsWith('@') ? pathTok.slice(1) : pathTok;
    const p = asPath(viaAt, 'code');
    if (p) {
      addPath(p, pathTok, s, c, 'inlineCode', ctx, file);
      return;
    }
    listedName(tok, s, c, ctx, file);
    pythonModuleRef(tok, s, c, 'inlineCode');
    if (/^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(tok) && !/^\d/.test(tok) && /[a-z]/.test(tok)) {
      c.add({ kind: 'package', raw: tok, value: tok.toLowerCase(), start: s, end: s + tok.length, in: 'inlineCode' });
    }
    for (const h of scanProse(t, { inCode: true })) if (h.kind === 'version' || h.kind === 'issue') addProseHit(h, seg, c, 'inlineCode');
    return;
  }
  // A whole span naming one path with spaces (`docs/User Guide.md`).
  const spaced = asSpacedPath(tt, 'code');
  if (spaced) {
    addPath(spaced, tt, seg.start + t.indexOf(tt), c, 'inlineCode', ctx, file);
    return;
  }
  if (looksLikeCommand(t)) {
    const cwd = file.text.startsWith(t, seg.start) ? folderNamedAfter(file.text, seg.start + t.length) : undefined;
    for (const p of parseCommandLine(t, cwd ? { cwd } : undefined)) addPiece(p, seg.start, c, 'inlineCode');
    return;
  }
  // Several words, not a command: look for paths and versions.
  const tokRe = /[^\s]+/g;
  let m: RegExpExecArray | null;
  while ((m = tokRe.exec(t))) {
    let word = m[0];
    let off = m.index;
    const env = /^[A-Z_][A-Z0-9_]*=/.exec(word);
    if (env) {
      word = word.slice(env[0].length);
      off += env[0].length;
    }
    fqcnRef(word, seg.start + off, c);
    const [lead, tok] = trimToken(word);
    if (!tok) continue;
    const p = asPath(tok, 'code');
    if (p) addPath(p, tok, seg.start + off + lead, c, 'inlineCode', ctx, file);
    else if (!folderOfCode(word, seg.start + off, c)) pythonModuleRef(word, seg.start + off, c, 'inlineCode');
  }
  for (const h of scanProse(t, { inCode: true })) if (h.kind === 'version' || h.kind === 'issue') addProseHit(h, seg, c, 'inlineCode');
}

/**
 * A fully-qualified class name in inline code (`com.acme.app.login.LoginViewModelTest`, also with
 * a method or wildcard: `…Test#shouldLogIn`, `…Test.*`), the whole span or one word of it (`import
 * com.acme.X;`, `--tests=com.acme.XTest`, quotes and closing punctuation around it dropped): a weak
 * `path` reference to the class part, which the path check looks up as the source file the
 * class lives in (`com/acme/app/login/LoginViewModelTest.kt` under any source root; see
 * `fqcnFinding` in checks/path.ts).
 */
function fqcnRef(word: string, at: number, c: Collector): void {
  if (word.length < 5 || !word.includes('.')) return;
  const m = /^(?:[("'\[]*|--tests=|-Dtest=)["']?([\w.#$*]+?)["')\],;:.]*$/.exec(word);
  const f = m && splitFqcn(m[1]!);
  if (!f) return;
  const s = at + word.indexOf(m![1]!);
  c.add({ kind: 'path', raw: f.name, value: f.name, start: s, end: s + f.name.length, in: 'inlineCode', weak: true });
}

/**
 * A dotted Python name a word of code starts with (`celery._state.get_current_app()`, the module
 * of `python -m acme.tools.migrate`, `acme.wsgi` of the entry point `acme.wsgi:app`; see
 * `pythonDottedName`): a weak `path` reference covering the whole dotted chain (the call, `[…]`
 * or `:func` after it stays outside). Any dotted name has that shape (`os.path.join`,
 * `self.x`): the path check reads it as a module only when its first segment is one of the
 * repository's own import packages and the module file it names was renamed or deleted (see
 * `pythonModuleFinding` in checks/path.ts); every other one says nothing.
 */
function pythonModuleRef(word: string, at: number, c: Collector, where: Reference['in']): void {
  const d = pythonDottedName(word);
  if (!d) return;
  const s = at + d.at;
  c.add({ kind: 'path', raw: d.name, value: d.name, start: s, end: s + d.name.length, in: where, weak: true });
}

/**
 * The folder a word of code names before what it says is in it: a Go package followed by one of
 * its identifiers (`runtime/esutils/resolvers.SecretKeyRef(…)`: `runtime/esutils/resolvers`, see
 * `goPackageOfIdent`) or a templated path's literal folder (`pkg/register/` of
 * `pkg/register/<name>.go`, see `templatedFolder`). A weak `path` reference to that folder alone,
 * so a correction keeps `.SecretKeyRef(…)` or `<name>.go`; the path check reports it only when
 * history had that folder and it is gone now. True when one was added.
 */
function folderOfCode(word: string, at: number, c: Collector, where: Reference['in'] = 'inlineCode'): boolean {
  if (!word.includes('/')) return false; // (both shapes are folder paths)
  const lead = /^[("'\[]*/.exec(word)![0].length;
  const w = lead ? word.slice(lead) : word;
  const dir = goPackageOfIdent(w) ?? templatedFolder(w.replace(/[)"'\],;:.]+$/, ''));
  if (!dir) return false;
  const s = at + lead;
  c.add({ kind: 'path', raw: dir, value: dir.replace(/\/+$/, ''), start: s, end: s + dir.length, in: where, weak: true });
  return true;
}

/**
 * The words of a shell line that hold a `<word>` placeholder after a `/` with no space before the
 * `<` (`starlight_help/src/content/docs/<topic>.md`, `zerver/webhooks/<integration>`): one word,
 * not a redirect. Each whose literal folder is a reference (see `folderOfCode`) is added, and the
 * line is given back with that word blanked (same length, so offsets hold) for the command parser.
 */
function templatedWords(text: string, at: number, c: Collector): string {
  let out = text;
  const re = /(^|[\s=])([^\s<>|&;=]*\/[^\s<>|&;]*<[A-Za-z][\w-]*>[^\s|&;]*)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const start = m.index + m[1]!.length;
    const word = m[2]!;
    if (folderOfCode(word, at + start, c, 'code')) out = out.slice(0, start) + ' '.repeat(word.length) + out.slice(start + word.length);
  }
  return out;
}

/**
 * A Java or Kotlin import written in prose (`import com.acme.app.login.LoginViewModel;`, `import
 * static …`): its class name, as in inline code (see `fqcnRef`).
 */
function proseImports(seg: Segment, c: Collector): void {
  const re = /(?<![\w.])import\s+(?:static\s+)?((?:[a-z][a-z0-9_]*\.){2,}[A-Z][\w$]*)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(seg.text))) {
    const s = seg.start + m.index + m[0].length - m[1]!.length;
    c.add({ kind: 'path', raw: m[1]!, value: m[1]!, start: s, end: s + m[1]!.length, in: 'prose', weak: true });
  }
}

/**
 * The folder a sentence says a command in inline code runs in, right after it: "run `pnpm run x`
 * in `apps/www`" (also `from`, `inside`, `within`, with or without `the`, the folder in code or
 * plain). Only a folder path: it holds a `/` (or is `dir/`) and has no file extension, glob or
 * placeholder; a plain word (`in \`watch\` mode`) is not taken.
 */
function folderNamedAfter(fileText: string, at: number): string | undefined {
  if (fileText.charCodeAt(at) !== 96 /* ` */) return undefined;
  const m = /^`+[ \t]+(?:in|from|inside|within)[ \t]+(?:the[ \t]+)?(?:`([^`\s]+)`|([\w.@/-]+?)(?=[,;:.)!?]*(?:\s|$)))/.exec(fileText.slice(at, at + 160));
  if (!m) return undefined;
  const tok = m[1] ?? m[2];
  if (!tok.includes('/') || tok.startsWith('/')) return undefined;
  const p = asPath(tok, 'code');
  if (!p || p.glob || p.anchor === 'root' || p.anchor === 'parent' || (!p.dir && /\.\w+$/.test(p.value))) return undefined;
  return p.value;
}

/** The repository-relative folder of a memory file ('' at the root, or for a file outside the repository). */
function fileFolder(path: string): string {
  if (path.startsWith('/') || /^[a-z]:[\\/]/i.test(path)) return '';
  const i = path.lastIndexOf('/');
  return i === -1 ? '' : path.slice(0, i);
}

function addPiece(p: CommandPiece, offset: number, c: Collector, where: Reference['in']): void {
  const start = offset + p.start;
  const end = offset + p.end;
  // (Optional keys are set after the others: the same key order as a spread at the end.)
  if (p.kind === 'script') {
    const r: Omit<Reference, 'line'> = { kind: 'command', raw: '', value: p.value, start, end, in: where, tool: p.tool, script: p.script };
    if (p.workspace) r.workspace = p.workspace;
    if (p.cwd) r.base = p.cwd + '/';
    if (p.makefile) r.manifest = p.makefile;
    c.add(r);
  } else if (p.kind === 'package' || p.kind === 'tool') {
    const r: Omit<Reference, 'line'> = { kind: 'package', raw: '', value: p.value.toLowerCase(), start, end, in: where, tool: p.tool };
    if (p.script === 'registry') r.fetched = true;
    c.add(r);
  } else if (p.kind === 'path' && p.fqcn) {
    c.add({ kind: 'path', raw: p.value, value: p.value, start, end, in: where, weak: true }); // a class name: see `fqcnRef`
  } else if (p.kind === 'path') {
    const v = p.value.replace(/^["']|["']$/g, '');
    const pt = asPath(p.dir && !v.endsWith('/') ? v + '/' : v, 'code');
    // `python -m acme.tools.migrate`, `gunicorn acme.wsgi:app`: a dotted module name, no path shape.
    if (!pt && !p.dir) pythonModuleRef(p.value, start, c, where);
    if (pt) {
      const s = start + (p.value.startsWith('"') || p.value.startsWith("'") ? 1 : 0);
      const r: Omit<Reference, 'line'> = { kind: 'path', raw: v, value: pt.value, start: s, end: s + v.length, in: where };
      if (pt.glob) r.glob = true;
      if (!pt.strong || p.weak) r.weak = true;
      // A path's `base` is repository-relative (scripts resolve theirs in the script check): the
      // folder the command runs in (normalised, below the memory file's folder: see `insideFolder`),
      // from the memory file's folder.
      if (p.cwd) {
        const dir = fileFolder(c.file.path);
        r.base = (dir ? `${dir}/${p.cwd}` : p.cwd) + '/';
      } else if (p.workspace) r.workspace = p.workspace; // relative to that workspace package's folder
      c.add(r);
    }
  }
}

// ------------------------------------------------------------------ links

function linkUrl(seg: Segment, c: Collector, file: MemoryFile): void {
  let u = seg.text;
  let start = seg.start;
  if (/^https?:\/\//i.test(u)) {
    c.add({ kind: 'url', raw: u, value: u, start, end: start + u.length, in: 'link' });
    for (const h of scanProse(u, { inCode: true })) if (h.kind === 'issue') addProseHit(h, seg, c, 'link');
    return;
  }
  // `[name](mdc:apps/web/x.ts)`, the file link Cursor's own rule generator writes: `mdc:` marks
  // a repository path, not a URL scheme. The references cover the path after the prefix, so a
  // correction replaces the path and keeps `mdc:`.
  if (u.length > 4 && /^mdc:/i.test(u)) {
    u = u.slice(4);
    start += 4;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(u) || u.startsWith('#')) return;
  const target = withoutQueryOrFragment(u);
  c.add({ kind: 'link', raw: u, value: target, start, end: start + u.length, in: 'link' });
  if (file.format === 'auto-memory-index' || file.format === 'auto-memory-topic') {
    if (!u.includes('/') || u.startsWith('./')) return; // links between memory files: the broken-link check owns them
  }
  let dec = target;
  try {
    dec = decodeURI(dec);
  } catch {
    /* keep */
  }
  // A target in angle brackets (`<docs/User Guide.md>`) or percent-encoded (`User%20Guide.md`)
  // is one path even with spaces in it: the link syntax delimits it.
  const p = asPath(dec, 'link') ?? (seg.angle || dec !== target ? asSpacedPath(dec, 'link') : null);
  if (p) c.add({ kind: 'path', raw: target, value: p.value, start, end: start + target.length, in: 'link', ...(p.glob ? { glob: true } : {}) });
}

/** `u.replace(/[#?].*$/, '')`: a link's target without its query or fragment. */
function withoutQueryOrFragment(u: string): string {
  return u.includes('#') || u.includes('?') ? u.replace(/[#?].*$/, '') : u;
}

// ------------------------------------------------------------------ fenced code

function codeBlock(seg: Segment, c: Collector): void {
  const lang = seg.lang ?? '';
  const lines = splitLines(seg.text);
  const shell = SHELL_LANGS.has(lang) || (PLAIN_LANGS.has(lang) && isShellish(lines.map((l) => l.text)));
  if (shell) {
    // The folder `cd web` on a line of its own moves the fence's shell to, for the lines below.
    const state: ShellState = {};
    for (const l of lines) {
      let text = l.text;
      let off = 0;
      const pm = /^(\s*(?:\$|>|%|#\s*\$)\s+)/.exec(text);
      if (pm && !/^\s*#\s*[A-Za-z]/.test(text)) {
        off = pm[1].length;
        text = text.slice(off);
      }
      const trimmed = text.trimStart();
      if (trimmed.startsWith('#')) {
        const at = seg.start + l.start + off + (text.length - trimmed.length);
        // An alternative written as a comment (`# or: pnpm --filter web run test`, `# e.g. make x`):
        // a command like the fence's lines, from the fence's current folder; a copy of the state,
        // since a `cd` in a command that is not run does not move the lines below.
        const alt = commentCommand(trimmed);
        if (alt) {
          for (const p of parseCommandLine(alt.text, { ...state })) addPiece(p, at + alt.at, c, 'code');
          continue;
        }
        // A comment: paths only.
        commentPaths(trimmed, at, c);
        continue;
      }
      // `cat docs/<topic>.md`: a placeholder attached to a path is part of the word, no redirect;
      // its literal folder is the reference (as inline), and the command reads the word as blank.
      if (text.includes('<')) text = templatedWords(text, seg.start + l.start + off, c);
      for (const p of parseCommandLine(text, state)) addPiece(p, seg.start + l.start + off, c, 'code');
      const hash = text.search(/\s#\s/);
      if (hash !== -1) commentPaths(text.slice(hash), seg.start + l.start + off + hash, c);
    }
    return;
  }
  // A directory diagram, or a layout listing (paths one per line, optional `# comment`; see isListing).
  const tree = PLAIN_LANGS.has(lang) && isTree(seg.text);
  const listing = !tree && PLAIN_LANGS.has(lang) && isListing(seg.text);
  if (tree || listing) {
    // A root line `./` or `/project` is the repository (see rootedAtRepository).
    const items = rootedAtRepository(parseTree(seg.text, listing));
    const rootHome = new Set<number>();
    for (const it of items) {
      if (/^[~$]/.test(it.path) || it.path.startsWith('/')) {
        rootHome.add(it.depth);
        continue;
      }
      const top = it.path.split('/')[0];
      if (/^[~$]/.test(top) || /^<|>$/.test(top)) continue;
      const p = asPath(it.path + (it.dir ? '/' : ''), 'code');
      if (!p || p.anchor !== 'plain') continue;
      if (listing && !it.base) {
        // A listing line at the top holds the whole path as written: an ordinary code path
        // (resolved like inline code, and corrected in place when it was renamed).
        c.add({ kind: 'path', raw: it.raw, value: p.value, start: seg.start + it.offset, end: seg.start + it.offset + it.raw.length, in: 'code', ...(p.glob ? { glob: true } : {}) });
        continue;
      }
      c.add({
        kind: 'path', raw: it.raw, value: p.value, start: seg.start + it.offset, end: seg.start + it.offset + it.raw.length, in: 'code',
        via: 'tree', ...(it.base ? { base: it.base } : {}), ...(p.glob ? { glob: true } : {}),
      });
    }
    return;
  }
  if (PLAIN_LANGS.has(lang)) {
    let m: RegExpExecArray | null;
    SCOPED_PACKAGE.lastIndex = 0;
    while ((m = SCOPED_PACKAGE.exec(seg.text))) {
      c.add({ kind: 'package', raw: m[0], value: m[0].toLowerCase(), start: seg.start + m.index, end: seg.start + m.index + m[0].length, in: 'code' });
    }
  }
}

function isShellish(lines: string[]): boolean {
  const body = lines.map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  if (!body.length) return false;
  const cmd = body.filter((l) => looksLikeCommand(l.replace(/^[$>%]\s+/, ''))).length;
  return cmd / body.length >= 0.6;
}

/**
 * A cue that introduces another way to run what the fence shows: `or`, `alternatively`, `e.g.`,
 * `i.e.`, `for example`, `equivalently`, `same as` (then `run` / `use` / `with` and `:` or `,`),
 * right after the `#`.
 */
const COMMENT_CUE = /^#+\s*(?:or|alternatively|alternative|e\.g\.?|eg|i\.e\.?|for example|equivalently|equivalent|same as)(?:\s+(?:run|use|with|via))?\s*[:,]?\s+/i;

/**
 * The command of a comment line that offers one after a cue (see COMMENT_CUE), and its offset in
 * the line; undefined when the rest does not start like a command (`# or press Ctrl+C`). The
 * command ends before a code span's closing backtick, a parenthesis, a dash between spaces or two
 * spaces (`# or: make test (slower)`), and loses a sentence's closing punctuation: what follows is
 * prose about the command, not its arguments.
 */
function commentCommand(line: string): { text: string; at: number } | undefined {
  const m = COMMENT_CUE.exec(line);
  if (!m) return undefined;
  let at = m[0].length;
  let rest = line.slice(at);
  if (rest.startsWith('`')) {
    const close = rest.indexOf('`', 1);
    if (close === -1) return undefined;
    rest = rest.slice(1, close);
    at += 1;
  } else {
    const stop = rest.search(/\s+\(|\s[—–-]\s|\s{2,}|\s#/);
    if (stop !== -1) rest = rest.slice(0, stop);
    rest = rest.replace(/[.,;:!?]+$/, '');
  }
  const prompt = /^\$\s+/.exec(rest); // `# or: $ make x`
  if (prompt) {
    rest = rest.slice(prompt[0].length);
    at += prompt[0].length;
  }
  if (!rest.trim() || !looksLikeCommand(rest)) return undefined;
  // A sentence that starts with a tool's name is prose (`# or make sure the db is up`, `# or use yarn if
  // you prefer`): an English function word outside quotes means the comment is not a command line.
  if (COMMENT_PROSE.test(rest.replace(/"[^"]*"|'[^']*'/g, ' '))) return undefined;
  return { text: rest, at };
}

/** Words a command line does not hold unquoted, but a sentence does. */
const COMMENT_PROSE =
  /\s(?:the|a|an|is|are|was|be|if|you|your|we|our|sure|to|that|this|it|its|for|of|and|but|when|then|than|so|not|please|want|need|prefer|should|will|would|can|could|may|might|instead|also|first|before|after|once|which|who|by|with|without|into|on|in|at)(?=\s|$|[.,;:!?])/i;

function commentPaths(text: string, start: number, c: Collector): void {
  const re = /[^\s]+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const [lead, tok] = trimToken(m[0]);
    if (!tok || tok === '#') continue;
    const p = asPath(tok, 'prose');
    if (p && p.strong) c.add({ kind: 'path', raw: tok, value: p.value, start: start + m.index + lead, end: start + m.index + lead + tok.length, in: 'code' });
  }
}

function headingPaths(seg: Segment, c: Collector, file: MemoryFile): void {
  if (seg.kind !== 'prose' && seg.kind !== 'inlineCode') return;
  const re = /[^\s]+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(seg.text))) {
    const [lead, tok] = trimToken(m[0]);
    if (!tok || /^#+$/.test(tok)) continue;
    const p = asPath(tok, seg.kind === 'inlineCode' ? 'code' : 'prose');
    if (p && p.value.includes('/')) addPath(p, tok, seg.start + m.index + lead, c, seg.kind === 'inlineCode' ? 'inlineCode' : 'prose', {}, file);
  }
}

/**
 * `globs:` (Cursor rules), `paths:` (.claude/rules) and `applyTo:` (Copilot instructions) in
 * frontmatter: a rule whose globs point at a folder that is gone never applies. Attached to the
 * entry holding the frontmatter, or to the first entry after it: only blank lines, headings and
 * HTML comments (`<!-- generated by … -->`, `<!-- PROTECTED -->`, which are not entries) may
 * come between. A protected first entry still carries them (they are not its text; the plan
 * never edits a protected entry nor frontmatter through an entry).
 */
function frontmatterGlobs(entry: Entry, file: MemoryFile, c: Collector): void {
  const fm = file.frontmatter;
  const range = file.frontmatterRange;
  if (!fm || !range) return;
  const owns = entry.start <= range[0] || (entry.start >= range[1] && /^(?:\s|#[^\n]*(?:\n|$)|<!--(?:[^-]|-(?!->))*-->)*$/.test(file.text.slice(range[1], entry.start)));
  if (!owns) return;
  for (const key of ['globs', 'paths', 'applyTo']) {
    const v = fm[key];
    const list = Array.isArray(v) ? v : typeof v === 'string' ? splitGlobList(v) : [];
    let from = range[0];
    for (const item of list) {
      let g = String(item).trim();
      // A negated glob (`!src/**/*.test.ts`) names the same folders.
      if (g.startsWith('!')) g = g.slice(1).trimStart();
      if (!g) continue;
      const idx = file.text.indexOf(g, from);
      if (idx === -1 || idx >= range[1]) continue;
      from = idx + g.length;
      const p = asPath(g, 'code');
      if (!p || p.anchor === 'root') continue;
      c.add({ kind: 'path', raw: g, value: p.value, start: idx, end: idx + g.length, in: 'frontmatter', ...(p.glob ? { glob: true } : {}) });
    }
  }
}
