// Text helpers shared by the fidelity checks: what of an entry is prose, how to normalise it,
// and where a character offset sits. Pure functions, no I/O.
import { lineAt as lineOfOffset, lineStarts } from '../../memory/parse.js';
import type { Entry, MemoryFile } from '../../types.js';

const FENCE_RE = /^[ \t]{0,3}(```+|~~~+)[^\n]*\n[\s\S]*?(?:\n[ \t]{0,3}\1[ \t]*(?=\n|$(?![\s\S]))|(?![\s\S]))/gm;
const FRONTMATTER_RE = /^(?:\uFEFF)?---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const HTML_COMMENT_RE = /<!--[\s\S]*?-->/g;

/** Replace every character of a match by spaces, keeping offsets and newlines. */
export function blank(s: string): string {
  return s.replace(/[^\n]/g, ' ');
}

/**
 * Per-entry views of the text, computed once and shared by every check of a run (ephemeral,
 * duplicate, contradiction, broken-link all read the same prose). Keyed by the entry object;
 * a view is only reused while `entry.text` is the same string.
 */
interface Views {
  text: string;
  fm?: string;
  fmNoDesc?: string;
  prose?: string;
  proseNoDesc?: string;
  noCode?: string;
}
const VIEWS = new WeakMap<Entry, Views>();
function views(entry: Entry): Views {
  let v = VIEWS.get(entry);
  if (!v || v.text !== entry.text) {
    v = { text: entry.text };
    VIEWS.set(entry, v);
  }
  return v;
}

/**
 * The entry's text with frontmatter, fenced code and HTML comments blanked out (same length,
 * offsets preserved), so regular expressions only see prose and inline code.
 */
export function proseWithOffsets(entry: Entry, keepDescription = true): string {
  const v = views(entry);
  if (keepDescription) return (v.prose ??= withoutFences(withoutFrontmatter(entry, true)));
  return (v.proseNoDesc ??= withoutFences(withoutFrontmatter(entry, false)));
}

/** Frontmatter blanked except the values the agent reads: `description` and a slot's `content`. */
export function withoutFrontmatter(entry: Entry, keepDescription = true): string {
  const v = views(entry);
  if (keepDescription) return (v.fm ??= frontmatterBlanked(entry, true));
  return (v.fmNoDesc ??= frontmatterBlanked(entry, false));
}

function frontmatterBlanked(entry: Entry, keepDescription: boolean): string {
  let t = entry.text;
  // the frontmatter starts the text: `---` (after an optional BOM)
  if (!(t.startsWith('---') || t.startsWith('\uFEFF---'))) return t;
  const fm = FRONTMATTER_RE.exec(t);
  if (fm && fm.index === 0) {
    t = blank(fm[0]) + t.slice(fm[0].length);
    const keep = (value: string | undefined) => {
      if (!value) return;
      const i = fm[0].indexOf(value);
      if (i >= 0) t = t.slice(0, i) + value + t.slice(i + value.length);
    };
    if (keepDescription) keep(entry.meta?.description);
    const content = /^content:[ \t]*(.+)$/m.exec(fm[0]);
    if (content) keep(content[1].replace(/^["']|["']$/g, ''));
  }
  return t;
}

/** Fenced code and HTML comments blanked (offsets kept). */
export function withoutFences(t: string): string {
  // a fence needs ``` or ~~~, a comment `<!--`: most entries have neither
  if (t.includes('```') || t.includes('~~~')) t = t.replace(FENCE_RE, (m) => blank(m));
  if (t.includes('<!--')) t = t.replace(HTML_COMMENT_RE, (m) => blank(m));
  return t;
}

const INLINE_CODE_RE = /(`+)[^`\n]*?\1/g;

/** The same, with inline code blanked too (for link, `[[name]]` and `@import` scans). */
export function proseNoCode(entry: Entry): string {
  const v = views(entry);
  if (v.noCode === undefined) {
    const p = proseWithOffsets(entry);
    v.noCode = p.includes('`') ? p.replace(INLINE_CODE_RE, (m) => blank(m)) : p;
  }
  return v.noCode;
}

/** Text used for similarity: prose without markdown syntax, lower-cased, whitespace collapsed. */
export function normalise(text: string): string {
  let t = text.toLowerCase();
  if (t.includes('](')) t = t.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1'); // [text](url) -> text
  if (t.includes('[[')) t = t.replace(/\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]/g, '$1');
  if (t.includes('<')) t = t.replace(/<[^>\n]+>/g, ' ');
  t = t.replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm, ' '); // bullets, task boxes
  if (t.includes('#')) t = t.replace(/^\s*#{1,6}\s+/gm, ' ');
  if (t.includes('>')) t = t.replace(/^\s*>\s?/gm, ' ');
  // A word is a run of [a-z0-9@./:+#-] in ASCII text, of letters, digits and @./:+#- in other
  // text (dashes and all other punctuation separate words); scanned once, no intermediate strings.
  const out: string[] = [];
  const ascii = ASCII.test(t);
  let start = -1;
  for (let i = 0; i <= t.length; ) {
    let c = i < t.length ? t.charCodeAt(i) : 32;
    let width = 1;
    let inWord: boolean;
    if (c < 128) {
      inWord = (c >= 97 && c <= 122) || (c >= 48 && c <= 58) || c === 64 || c === 46 || c === 47 || c === 43 || c === 35 || c === 45 || (!ascii && c >= 65 && c <= 90);
    } else {
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < t.length) {
        const lo = t.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          c = (c - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
          width = 2;
        }
      }
      inWord = letterOrDigit(c);
    }
    if (inWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      keepWord(t.slice(start, i), out);
      start = -1;
    }
    i += width;
  }
  return out.join(' ');
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

/** Drops trailing sentence punctuation and punctuation-only tokens. */
function keepWord(w: string, out: string[]): void {
  const last = w.charCodeAt(w.length - 1);
  if (last === 46 || last === 58) w = w.replace(/[.:]+$/, ''); // '.' ':'
  if (!w) return;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    // not one of . : / + # @ -
    if (c !== 46 && c !== 58 && c !== 47 && c !== 43 && c !== 35 && c !== 64 && c !== 45) {
      out.push(w);
      return;
    }
  }
}
const ASCII = /^[\x00-\x7f]*$/;

/** The entry's comparable content: normalised prose (frontmatter and comments dropped). */
export function comparable(entry: Entry): string {
  // a topic's description summarises its body; compare bodies
  const p = proseWithOffsets(entry, entry.kind !== 'topic');
  return normalise(p.includes('<!--') ? p.replace(/<!--[\s\S]*?-->/g, ' ') : p);
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
