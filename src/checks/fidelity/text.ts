// Text helpers shared by the fidelity checks: what of an entry is prose, how to normalise it,
// and where a character offset sits. Pure functions, no I/O.
import { lineAt as lineOfOffset, lineStarts } from '../../memory/parse.js';
import type { Entry, MemoryFile } from '../../types.js';

const FENCE_RE = /^[ \t]{0,3}(```+|~~~+)[^\n]*\n[\s\S]*?(?:\n[ \t]{0,3}\1[ \t]*(?=\n|$(?![\s\S]))|(?![\s\S]))/gm;
const FRONTMATTER_RE = /^(?:\uFEFF)?---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const HTML_COMMENT_RE = /<!--[\s\S]*?-->/g;

/** Replace every character of a match by spaces, keeping offsets and newlines. */
export function blank(s: string): string {
  // one space per UTF-16 unit, line by line (no per-character regex replacement)
  let out = '';
  let from = 0;
  for (let nl = s.indexOf('\n'); nl !== -1; nl = s.indexOf('\n', from)) {
    out += ' '.repeat(nl - from) + '\n';
    from = nl + 1;
  }
  return out + ' '.repeat(s.length - from);
}

/** The views of one entry's text, made on first use. */
class Views {
  fm: string | undefined = undefined;
  fmNoDesc: string | undefined = undefined;
  prose: string | undefined = undefined;
  proseNoDesc: string | undefined = undefined;
  noCode: string | undefined = undefined;
  readonly text: string;
  constructor(readonly entry: Entry) {
    this.text = entry.text;
  }
}

/**
 * The views of the entries' text the checks read (frontmatter blanked, prose, prose without
 * code...), for one entry list: computed on first use and shared by every check of a run
 * (ephemeral, duplicate, contradiction and broken-link read the same prose). By entry index,
 * in a plain array: a WeakMap keyed by each entry would cost a hash-table insertion per entry
 * and ephemeron work for the garbage collector. A view is only reused for the same entry
 * object with the same `entry.text`.
 */
export class EntryTexts {
  private readonly views: (Views | undefined)[] = [];

  constructor(private readonly entries: Entry[]) {}

  /** The views of entry `i`, made again if the list or the entry's text changed since. */
  private at(i: number): Views {
    const e = this.entries[i];
    let v = this.views[i];
    if (v === undefined || v.entry !== e || v.text !== e.text) this.views[i] = v = new Views(e);
    return v;
  }

  /** Frontmatter blanked except the values the agent reads: `description` and a slot's `content`. */
  withoutFrontmatter(i: number, keepDescription = true): string {
    const v = this.at(i);
    if (keepDescription) return (v.fm ??= frontmatterBlanked(this.entries[i], true));
    return (v.fmNoDesc ??= frontmatterBlanked(this.entries[i], false));
  }

  /**
   * The entry's text with frontmatter, fenced code and HTML comments blanked out (same length,
   * offsets preserved), so regular expressions only see prose and inline code.
   */
  proseWithOffsets(i: number, keepDescription = true): string {
    const v = this.at(i);
    if (keepDescription) return (v.prose ??= withoutFences(this.withoutFrontmatter(i, true)));
    return (v.proseNoDesc ??= withoutFences(this.withoutFrontmatter(i, false)));
  }

  /** The same, with inline code blanked too (for link, `[[name]]` and `@import` scans). */
  proseNoCode(i: number): string {
    const v = this.at(i);
    if (v.noCode === undefined) {
      v.noCode = blankInlineCode(this.proseWithOffsets(i));
    }
    return v.noCode;
  }

  /** The normalised source (`normaliseSource`) of an entry's comparable content; `scanWords` splits it. */
  comparableSource(i: number): string {
    return normaliseSource(this.comparableText(i));
  }

  /** The prose compared: a topic's description summarises its body, so bodies are compared; no HTML comments. */
  private comparableText(i: number): string {
    const p = this.proseWithOffsets(i, this.entries[i].kind !== 'topic');
    return p.includes('<!--') ? p.replace(/<!--[\s\S]*?-->/g, ' ') : p;
  }

  /**
   * The words of `comparableSource(i)` into `out`; returns the text they index. Of the line
   * markup `normaliseSource` removes last (`- `, `1. `, `- [x] `, `## `, `> ` at line starts),
   * only the number of a numbered item and a task box's `x` are words: most prose has neither
   * (no `[` left, no line starting with a digit) and is scanned without those passes.
   */
  comparableWords(i: number, out: Words): string {
    const t = inlineMarkupRemoved(this.comparableText(i).toLowerCase());
    if (!t.includes('[')) {
      scanWords(t, out);
      if (!numberStartsLine(t, out)) return t;
    }
    const full = lineMarkupRemoved(t);
    scanWords(full, out);
    return full;
  }
}

/**
 * Whether one of the words `w` of `t` starts with a digit at a line start (after white space):
 * where a numbered item's number (`1. `, `2) `) would be, which `normaliseSource` removes.
 */
function numberStartsLine(t: string, w: Words): boolean {
  for (let k = 0; k < w.count; k++) {
    const c = t.charCodeAt(w.start[k]);
    if (c < 48 || c > 57) continue;
    // back over white space (\s) to the text start or a line break: a line start
    for (let j = w.start[k] - 1; ; j--) {
      if (j < 0) return true;
      const s = t.charCodeAt(j);
      if (s === 10 || s === 13 || s === 0x2028 || s === 0x2029) return true;
      if (!jsSpace(s)) break;
    }
  }
  return false;
}

/** A `\s` character of a regular expression (white space or line terminator). */
function jsSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

const TEXTS = new WeakMap<Entry[], EntryTexts>();

/** The text views of an entry list, shared by every check that reads it. */
export function textsOf(entries: Entry[]): EntryTexts {
  let t = TEXTS.get(entries);
  if (!t) TEXTS.set(entries, (t = new EntryTexts(entries)));
  return t;
}

/**
 * The entry's text with its frontmatter blanked, but for the values the agent reads: the
 * `description` (when kept) and a slot's `content`, each where it first appears in the
 * frontmatter. Built in one pass, blank and kept pieces in order.
 */
export function frontmatterBlanked(entry: Entry, keepDescription: boolean): string {
  const t = entry.text;
  // the frontmatter starts the text: `---` (after an optional BOM)
  if (!(t.startsWith('---') || t.startsWith('\uFEFF---'))) return t;
  const fm = FRONTMATTER_RE.exec(t)?.[0]; // anchored: a match starts the text
  if (fm === undefined) return t;
  const kept: Array<[start: number, end: number]> = [];
  const keep = (value: string | undefined) => {
    const i = value ? fm.indexOf(value) : -1;
    if (i >= 0) kept.push([i, i + value!.length]);
  };
  if (keepDescription) keep(entry.meta?.description);
  const content = fm.includes('content:') ? /^content:[ \t]*(.+)$/m.exec(fm) : null;
  if (content) keep(content[1].replace(/^["']|["']$/g, ''));
  kept.sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  for (const [start, end] of kept) {
    if (end <= pos) continue;
    const from = Math.max(start, pos);
    out += blank(fm.slice(pos, from)) + fm.slice(from, end);
    pos = end;
  }
  return out + blank(fm.slice(pos)) + t.slice(fm.length);
}

/** Fenced code and HTML comments blanked (offsets kept). */
export function withoutFences(t: string): string {
  // a fence needs ``` or ~~~, a comment `<!--`: most entries have neither
  if (t.includes('```') || t.includes('~~~')) t = t.replace(FENCE_RE, (m) => blank(m));
  if (t.includes('<!--')) t = t.replace(HTML_COMMENT_RE, (m) => blank(m));
  return t;
}

/**
 * Inline code spans blanked (offsets kept): what `text.replace(/(`+)[^`\n]*?\1/g, blank)` gives,
 * without a regular expression and a callback per span. At a run of `n` backticks that regex
 * first tries all `n` as the opening: closed by the first later backtick on the line if `n`
 * backticks start there. Failing that, a shorter opening can only close inside the run itself:
 * the run's first `2 * floor(n / 2)` backticks, an empty span. A single unclosed backtick is
 * skipped. Returns `text` itself when it has no backtick.
 */
export function blankInlineCode(text: string): string {
  let open = text.indexOf('`');
  if (open === -1) return text;
  let out = '';
  let kept = 0;
  while (open !== -1) {
    const run = backticksAt(text, open);
    let close = open + run;
    while (close < text.length && text.charCodeAt(close) !== 96 && text.charCodeAt(close) !== 10) close++;
    let end = -1;
    if (backticksAt(text, close) >= run) end = close + run;
    else if (run >= 2) end = open + 2 * (run >> 1);
    if (end === -1) {
      open = text.indexOf('`', open + 1);
      continue;
    }
    out += text.slice(kept, open) + ' '.repeat(end - open); // a span holds no line break
    kept = end;
    open = text.indexOf('`', end);
  }
  return out + text.slice(kept);
}

/** How many backticks start at `i`. */
function backticksAt(text: string, i: number): number {
  let n = 0;
  while (text.charCodeAt(i + n) === 96) n++;
  return n;
}

/** Text used for similarity: prose without markdown syntax, lower-cased, whitespace collapsed. */
export function normalise(text: string): string {
  return wordStrings(normaliseSource(text)).join(' ');
}

/** The words of a normalised source, as strings. */
export function wordStrings(t: string): string[] {
  const w = WORD_STRINGS_SCRATCH;
  scanWords(t, w);
  const out: string[] = new Array(w.count);
  for (let k = 0; k < w.count; k++) out[k] = t.slice(w.start[k], w.end[k]);
  return out;
}

/** `text` lower-cased, with markdown syntax (links, tags, bullets, headings, quotes) turned to spaces. */
export function normaliseSource(text: string): string {
  return lineMarkupRemoved(inlineMarkupRemoved(text.toLowerCase()));
}

/** Lower-cased `t` without the corrected marker, with links and wiki links turned to their text, tags to spaces. */
function inlineMarkupRemoved(t: string): string {
  // `[corrected YYYY-MM-DD]` is memory-audit's own edit marker (src/policy/decide.ts), not
  // content: kept, its four words ("corrected", the date's three numbers) are shared by every
  // corrected entry and made two short entries corrected on the same day a reworded duplicate
  // (a second prune then merged what the first had just corrected).
  if (t.includes('[corrected ')) t = t.replace(CORRECTED_MARKER, ' ');
  if (t.includes('](')) t = t.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1'); // [text](url) -> text
  if (t.includes('[[')) t = t.replace(/\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]/g, '$1');
  if (t.includes('<')) t = t.replace(/<[^>\n]+>/g, ' ');
  return t;
}

/** `t` with line-start markup (bullets, task boxes, headings, quotes) turned to spaces. */
function lineMarkupRemoved(t: string): string {
  const lines = LINE_BREAK.test(t);
  t = t.replace(lines ? BULLET : BULLET_FIRST, ' '); // bullets, task boxes
  if (t.includes('#')) t = t.replace(lines ? HEADING : HEADING_FIRST, ' ');
  if (t.includes('>')) t = t.replace(lines ? QUOTE : QUOTE_FIRST, ' ');
  return t;
}

/** The marker `correctedText` appends to a line it rewrote (lower case here). */
const CORRECTED_MARKER = /\[corrected \d{4}-\d{2}-\d{2}\]/g;

// Markdown line prefixes. Each matches only at a line start, so in a text without line breaks
// only at its start: the `_FIRST` forms (anchored, not global) then give the same result
// without trying every position.
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm;
const BULLET_FIRST = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/;
const HEADING = /^\s*#{1,6}\s+/gm;
const HEADING_FIRST = /^\s*#{1,6}\s+/;
const QUOTE = /^\s*>\s?/gm;
const QUOTE_FIRST = /^\s*>\s?/;

/**
 * ASCII characters that belong to words (a-z, 0-9 and @ . / : + # -), by what they do in a word:
 * W_WORD extends the run, W_END may end the word (all but `.` `:`), W_CONTENT makes the run a
 * word (all but `. : / + # @ -`). 0: a separator.
 */
const W_WORD = 1;
const W_END = 2;
const W_CONTENT = 4;
const WORD_CLASS = new Uint8Array(128);
for (const ch of 'abcdefghijklmnopqrstuvwxyz0123456789') WORD_CLASS[ch.charCodeAt(0)] = W_WORD | W_END | W_CONTENT;
for (const ch of '/+#@-') WORD_CLASS[ch.charCodeAt(0)] = W_WORD | W_END;
for (const ch of '.:') WORD_CLASS[ch.charCodeAt(0)] = W_WORD;

/** The words `scanWords` found: `count` of them, word `k` is `text.slice(start[k], end[k])`. */
export class Words {
  count = 0;
  start = new Int32Array(256);
  end = new Int32Array(256);
  /** FNV-1a hash of each word's UTF-16 units (what `hashWord` gives for the word). */
  hash = new Uint32Array(256);

  /** Room for the words of a text of `length` characters (at most one per two characters). */
  reserve(length: number): void {
    const need = (length >> 1) + 1;
    if (need <= this.start.length) return;
    let cap = this.start.length * 2;
    while (cap < need) cap *= 2;
    this.start = new Int32Array(cap);
    this.end = new Int32Array(cap);
    this.hash = new Uint32Array(cap);
  }
}

/** The scratch of `wordStrings` (its three arrays cost more than the scan of a short text). */
const WORD_STRINGS_SCRATCH = new Words();

/**
 * The words of a normalised source (`normaliseSource`, so lower case), in order, into `out`,
 * without making strings. A word is a run of [a-z0-9@./:+#-] and of other letters and digits
 * (dashes and all other punctuation separate words), without trailing `.` / `:`;
 * punctuation-only runs are not words. One pass, no call per ASCII character or word: a loop
 * skips separators, an inner one reads a run, keeping its hash both for the whole run and up
 * to its last character that is not `.` / `:`.
 */
export function scanWords(t: string, out: Words): void {
  out.reserve(t.length);
  const { start: starts, end: ends, hash: hashes } = out;
  const len = t.length;
  let n = 0;
  for (let i = 0; i < len; ) {
    const first = t.charCodeAt(i);
    if (first < 128 ? WORD_CLASS[first] === 0 : wideWordChar(t, i, first) === 0) {
      i++; // a separator (a non-letter code point is skipped one unit at a time: its low surrogate is no letter either)
      continue;
    }
    const from = i;
    let h = 0x811c9dc5;
    /** Hash and end of the run without its trailing `.` / `:`, and the OR of its classes. */
    let kept = h;
    let keptEnd = i;
    let classes = 0;
    while (i < len) {
      const c = t.charCodeAt(i);
      let cls: number;
      if (c < 128) {
        cls = WORD_CLASS[c];
        if (cls === 0) break;
        h = Math.imul(h ^ c, 0x01000193);
        i++;
      } else {
        const width = wideWordChar(t, i, c);
        if (width === 0) break;
        h = Math.imul(h ^ c, 0x01000193);
        if (width === 2) h = Math.imul(h ^ t.charCodeAt(i + 1), 0x01000193);
        i += width;
        cls = W_WORD | W_END | W_CONTENT;
      }
      if (cls & W_END) {
        kept = h;
        keptEnd = i;
        classes |= cls;
      }
    }
    if (classes & W_CONTENT) {
      starts[n] = from;
      ends[n] = keptEnd;
      hashes[n++] = kept;
    }
  }
  out.count = n;
}

/**
 * For the non-ASCII unit `c` at `t[i]`: the width (1, or 2 for a surrogate pair) of the code
 * point it starts if that is a letter or digit, else 0.
 */
function wideWordChar(t: string, i: number, c: number): number {
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < t.length) {
    const lo = t.charCodeAt(i + 1);
    if (lo >= 0xdc00 && lo <= 0xdfff) return letterOrDigit((c - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000) ? 2 : 0;
  }
  return letterOrDigit(c) ? 1 : 0;
}

/** `\p{L}` or `\p{N}`, per code point, cached. */
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const CODEPOINT_CLASS = new Map<number, boolean>();
function letterOrDigit(cp: number): boolean {
  let r = CODEPOINT_CLASS.get(cp);
  if (r === undefined) {
    r = LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
    if (CODEPOINT_CLASS.size > 65_536) CODEPOINT_CLASS.clear();
    CODEPOINT_CLASS.set(cp, r);
  }
  return r;
}


export const STOPWORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto over under as is are was were be been being ' +
    'it its this that these those there here we you he she they them our your their i me my us do does did done has have had ' +
    'not no so than too very can could should would will shall may might must just also only any all each every some such ' +
    'which who whom whose what when where why how about after before while up down out off again further once both few more most ' +
    'other same own s t don now via per use used using'
  ).split(' '),
);

/** Content words of a text: lower-cased, stop words dropped, light stemming. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!raw || STOPWORDS.has(raw) || raw.length < 2) continue;
    out.push(stem(raw));
  }
  return out;
}

/** A tiny stemmer: enough to merge plurals and -ing / -ed forms. */
export function stem(w: string): string {
  if (w.length <= 4) return w;
  if (w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.endsWith('ing') && w.length > 6) return w.slice(0, -3);
  if (w.endsWith('ed') && w.length > 5) return w.slice(0, -2);
  if (w.endsWith('es') && /(?:ss|sh|ch|x)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

/** 1-based line in `file` of a character offset. */
export function lineAt(file: MemoryFile | undefined, offset: number, fallback: number): number {
  if (!file) return fallback;
  let starts = LINE_CACHE.get(file);
  if (!starts) LINE_CACHE.set(file, (starts = lineStarts(file.text)));
  return lineOfOffset(starts, offset);
}

const LINE_CACHE = new WeakMap<MemoryFile, number[]>();

/** Files by path, cached per files array. */
const FILE_MAP = new WeakMap<MemoryFile[], Map<string, MemoryFile>>();
export function fileMap(files: MemoryFile[]): Map<string, MemoryFile> {
  let m = FILE_MAP.get(files);
  if (!m) {
    m = new Map(files.map((f) => [f.path, f]));
    FILE_MAP.set(files, m);
  }
  return m;
}

/** 1-based line of an offset inside the entry (entry.start-based), without the file. */
export function lineInEntry(entry: Entry, offsetInEntry: number): number {
  let n = entry.line;
  const t = entry.text;
  for (let i = t.indexOf('\n'); i !== -1 && i < offsetInEntry; i = t.indexOf('\n', i + 1)) n++;
  return n;
}

/** Short quote for messages: the first `max` characters, one line. */
export function quote(s: string, max = 60): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? one.slice(0, max - 1) + '…' : one;
}

/** Where an entry comes from, for messages: `file:line`. */
export function where(e: Pick<Entry, 'file' | 'line'>): string {
  return `${e.file}:${e.line}`;
}

export function isAutoMemory(format: string): boolean {
  return format === 'auto-memory-index' || format === 'auto-memory-topic';
}

/** Files the agent loads as instructions (CLAUDE.md and friends), as opposed to auto memory. */
export function isInstructionFile(format: string): boolean {
  return (
    format === 'claude-md' ||
    format === 'agents-md' ||
    format === 'gemini-md' ||
    format === 'copilot' ||
    format === 'cursor-rule'
  );
}

/** posix join + normalise (`a/b/../c` -> `a/c`); keeps a leading `/`. */
export function joinPath(dir: string, rel: string): string {
  // a plain name in a folder (an index line's topic file): the folder normalised once
  if (rel && rel !== '.' && rel !== '..' && !rel.includes('/')) {
    const d = normalDir(dir);
    return d === '' ? rel : d === '/' ? '/' + rel : d + '/' + rel;
  }
  return joinPaths(dir, rel);
}

const NORMAL_DIRS = new Map<string, string>();
function normalDir(dir: string): string {
  let d = NORMAL_DIRS.get(dir);
  if (d === undefined) {
    d = joinPaths(dir, '');
    if (NORMAL_DIRS.size > 10_000) NORMAL_DIRS.clear();
    NORMAL_DIRS.set(dir, d);
  }
  return d;
}

function joinPaths(dir: string, rel: string): string {
  const abs = rel.startsWith('/');
  const parts = (abs ? rel : (dir ? dir + '/' : '') + rel).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (!p || p === '.') continue;
    if (p === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else out.push('..');
    } else out.push(p);
  }
  return (abs || dir.startsWith('/') ? '/' : '') + out.join('/');
}

export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function stemOf(path: string): string {
  return baseName(path).replace(/\.[^.]*$/, '');
}

/** Decode a markdown link destination: strip `<>`, `#anchor`, `?query`, percent-escapes. */
export function linkPath(url: string): string {
  let u = url.trim().replace(/^<|>$/g, '');
  u = u.replace(/[#?].*$/, '');
  try {
    u = decodeURIComponent(u);
  } catch {
    /* keep as written */
  }
  return u;
}

/** True for URLs that leave the repository (http, mailto, ...). */
export function isExternal(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');
}

/** For a MEMORY.md index line: the repository path of the topic file it links to, if any. */
export function indexTargetPath(entry: Entry, file: MemoryFile | undefined): string | undefined {
  const dir = file?.memoryDir ?? dirOf(entry.file);
  let target = entry.meta?.target;
  if (!target) {
    const link = entry.spans?.find((s) => s.kind === 'link' && s.url && !isExternal(s.url));
    if (link?.url) target = linkPath(link.url);
  }
  if (!target) return undefined;
  return joinPath(dir, target);
}

/**
 * The folder an entry's instructions apply to: CLAUDE.md / AGENTS.md apply to their folder's
 * subtree; `.claude/rules`, `.github/copilot-instructions.md`, `.cursor/rules` and an auto-memory
 * folder (`<p>/.claude/memory`, `<p>/memory`) apply to the project folder that holds them.
 * Absolute paths (memory outside the repository) apply to the whole repository ('').
 */
export function scopeOf(file: string, memoryDir?: string): string {
  if (file.startsWith('/')) return '';
  if (memoryDir !== undefined) {
    if (memoryDir.startsWith('/')) return '';
    return memoryDir.replace(/(?:^|\/)memory$/, '').replace(/(?:^|\/)\.claude$/, '');
  }
  const m = /^(.*?)(?:^|\/)(?:\.claude|\.github|\.cursor)\//.exec(file);
  if (m) return m[1];
  return dirOf(file);
}

/** Whether two scopes can be loaded together: one holds the other. */
export function scopesOverlap(a: string, b: string): boolean {
  return a === b || a === '' || b === '' || a.startsWith(b + '/') || b.startsWith(a + '/');
}
