// Extracts the references an entry makes (paths, imports, links, URLs, commands,
// packages, versions, issues, counts) with their exact offsets and lines.
// Pure: reads only the entry and its file. Helpers live in ./refs/.
import type { Entry, MemoryFile, Reference } from '../types.js';
import { lex, lineOf, splitLines, type Segment } from './refs/lex.js';
import { asPath, trimToken, type PathToken } from './refs/paths.js';
import { looksLikeCommand, parseCommandLine, type CommandPiece } from './refs/commands.js';
import { isTree, parseTree } from './refs/tree.js';
import { scanCountsIn, scanProse, eachPackageWord, SCOPED_PACKAGE } from './refs/prose.js';

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console', 'zsh', 'fish', 'shellsession', 'terminal', 'cmd', 'powershell', 'ps1', 'ps', 'bat']);
const PLAIN_LANGS = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'tree', 'none']);
const URL_RE = /\bhttps?:\/\/[^\s<>()`"'\]]+[^\s<>()`"'\].,;:!?]/g;
const HAS_PATH_CHAR = /[./@]/;
const WIKILINK_RE = /\[\[([^\]\n|#]+)(?:[#|][^\]\n]*)?\]\]/g;

class Collector {
  readonly refs: Reference[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly file: MemoryFile) {}
  /** `r` is a fresh object literal at every call site: it becomes the reference (no copy). */
  add(r: Omit<Reference, 'line'> & { line?: number }): void {
    const key = `${r.kind}:${r.start}:${r.end}:${r.value}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    r.raw = this.file.text.slice(r.start, r.end) || r.raw;
    r.line = r.line ?? lineOf(this.file.text, r.start);
    this.refs.push(r as Reference);
  }

  /**
   * A prose word that may name a package (weak): the hot path, one per word. It needs no
   * duplicate check: prose segments are disjoint from every other segment, and within a
   * segment the words scanned here are masked off from scoped names, paths and URLs, so
   * nothing else adds a `package` reference at the same offsets.
   */
  addWeakWord(start: number, end: number, raw: string, value: string): void {
    const text = this.file.text;
    const r = { kind: 'package', raw: text.slice(start, end) || raw, value, start, end, in: 'prose', weak: true, line: lineOf(text, start) };
    this.refs.push(r as Reference);
  }
}

export function extractReferences(entry: Entry, file: MemoryFile): Reference[] {
  const c = new Collector(file);
  const text = entry.text;
  const base = file.text.slice(entry.start, entry.end) === text ? entry.start : locate(file.text, text, entry.start);
  const segments = lex(text, base, file.frontmatterRange);
  const ctxBase = contextBase(entry, file, text, base);

  // The heading right above the first entry of a section (`### Agent System (packages/x/)`).
  const heading = headingAbove(file.text, entry.start);
  if (heading) for (const seg of lex(heading.text, heading.start)) headingPaths(seg, c, file);

  frontmatterGlobs(entry, file, c);
  for (const seg of segments) {
    if (seg.kind === 'prose') prose(seg, c, ctxBase, file);
    else if (seg.kind === 'inlineCode') inlineCode(seg, c, ctxBase, file);
    else if (seg.kind === 'linkUrl') linkUrl(seg, c, file);
    else codeBlock(seg, c);
  }
  // Counts: over the entry with fenced code and link destinations masked.
  const masks: Array<[number, number]> = [];
  for (const seg of segments) if (seg.kind === 'code' || seg.kind === 'linkUrl') masks.push([seg.start - base, seg.start - base + seg.text.length]);
  if (file.frontmatterRange) masks.push([file.frontmatterRange[0] - base, file.frontmatterRange[1] - base]);
  const view = mask(text, masks.map(([a, b]) => [Math.max(0, a), Math.max(0, b)] as [number, number]));
  for (const h of scanCountsIn(view.replace(/<!--[\s\S]*?-->/g, (x) => ' '.repeat(x.length)))) {
    addProseHit(h, { kind: 'prose', text: view, start: base }, c, 'prose');
  }
  c.refs.sort((a, b) => a.start - b.start || a.end - b.end);
  return c.refs;
}

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
      if (p && p.anchor !== 'root' && (p.dir || (!/\.[\w]+$/.test(p.value) && p.value.includes('/'))) && !p.glob) out.push(p.value);
    }
  }
  return [...new Set(out)];
}

function contextBase(entry: Entry, file: MemoryFile, text: string, base: number): CtxBase {
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
  if (/^\s*(?:[-*+]|\d+[.)])\s/.test(text)) {
    const intro = introDirs(file.text)[lineOf(file.text, base) - 1];
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
  return out;
}

const introCache = new Map<string, Array<string | undefined>>();

/**
 * For every line of a file: the folder named by the intro line of the list it belongs to
 * (`Located in \`packages/x/\`:` followed by list items), computed in one pass per file.
 */
function introDirs(fileText: string): Array<string | undefined> {
  let out = introCache.get(fileText);
  if (out) return out;
  out = [];
  let cur: string | undefined;
  for (const l of fileText.split('\n')) {
    out.push(cur);
    if (!l.trim() || /^\s*(?:[-*+]|\d+[.)])\s/.test(l) || /^\s{2,}\S/.test(l)) continue;
    cur = undefined;
    if (/:\s*$/.test(l) && !/^#/.test(l) && /\//.test(l)) {
      const d = dirTokens(l);
      if (d.length === 1) cur = d[0];
    }
  }
  if (introCache.size > 64) introCache.clear();
  introCache.set(fileText, out);
  return out;
}

function headingAbove(fileText: string, start: number): { text: string; start: number } | null {
  // Only when nothing but whitespace separates the heading from the entry.
  let k = start;
  while (k > 0 && /\s/.test(fileText[k - 1])) k--;
  if (k === 0 || k === start) return null;
  const lineStart = fileText.lastIndexOf('\n', k - 1) + 1;
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

function prose(seg: Segment, c: Collector, ctx: CtxBase, file: MemoryFile): void {
  const t = seg.text;
  const taken: Array<[number, number]> = [];
  let m: RegExpExecArray | null;
  URL_RE.lastIndex = 0;
  while ((m = URL_RE.exec(t))) {
    c.add({ kind: 'url', raw: m[0], value: m[0], start: seg.start + m.index, end: seg.start + m.index + m[0].length, in: 'prose' });
    taken.push([m.index, m.index + m[0].length]);
  }
  WIKILINK_RE.lastIndex = 0;
  while ((m = WIKILINK_RE.exec(t))) {
    c.add({ kind: 'wikilink', raw: m[0], value: m[1].trim(), start: seg.start + m.index, end: seg.start + m.index + m[0].length, in: 'prose' });
    taken.push([m.index, m.index + m[0].length]);
  }
  // Issues, versions and counts (URLs keep their issue numbers: scan the raw text).
  for (const h of scanProse(t)) {
    if (h.kind !== 'issue' && taken.some(([a, b]) => h.start < b && h.end > a)) continue;
    addProseHit(h, seg, c, 'prose');
  }
  // Commands written in prose: "run npm run build", "pnpm typecheck", "make check-py".
  // `make` and `just` are English words: in prose their target must look like one (a-b, a_b, a:b).
  const cmd = /(?<![\w./-])(?:(?:npm|pnpm|yarn|bun)\s+run\s+[\w:.-]+|pnpm\s+(?:--filter\s+\S+\s+)?(?:[a-z][\w.]*[-:][\w:.-]+|(?:test|build|dev|start|lint|format|typecheck|check|release|preview|deploy|clean|watch|bench|e2e|coverage|docs|storybook|serve|generate|codegen|migrate|seed|prepare|verify|ci|fmt|tsc)\b)|(?:make|just)\s+[a-z][\w]*[-_:][\w:-]+)(?![\w/-])/g;
  while ((m = cmd.exec(t))) for (const p of parseCommandLine(m[0].replace(/[.:]+$/, ''))) if (p.kind === 'script') addPiece(p, seg.start + m.index, c, 'prose');
  const masked = mask(t, taken);
  // Tokens: imports, scoped packages, paths.
  const tokRe = /[^\s]+/g;
  const pathRanges: Array<[number, number]> = [];
  while ((m = tokRe.exec(masked))) {
    // only imports (@), scoped names and tokens with `.` or `/` are looked at below
    if (!HAS_PATH_CHAR.test(m[0])) continue;
    const [lead, tok] = trimToken(m[0]);
    if (!tok) continue;
    const s = m.index + lead;
    if (tok.startsWith('@') && tok.length > 1) {
      const p = asPath(tok.slice(1), 'import');
      if (p && (p.strong || /\.[\w]+$/.test(p.value) || /^[.~]/.test(tok.slice(1)))) {
        c.add({ kind: 'import', raw: tok, value: p.value, start: seg.start + s, end: seg.start + s + tok.length, in: 'prose' });
        pathRanges.push([s, s + tok.length]);
        continue;
      }
      continue; // scoped package handled below
    }
    if (/[*]{2}/.test(tok) || !/[./]/.test(tok)) continue;
    const p = asPath(tok, 'prose');
    if (p) {
      addPath(p, tok, seg.start + s, c, 'prose', ctx, file);
      pathRanges.push([s, s + tok.length]);
    }
  }
  const masked2 = mask(masked, pathRanges);
  SCOPED_PACKAGE.lastIndex = 0;
  while ((m = SCOPED_PACKAGE.exec(masked2))) {
    c.add({ kind: 'package', raw: m[0], value: m[0].toLowerCase(), start: seg.start + m.index, end: seg.start + m.index + m[0].length, in: 'prose' });
  }
  const masked3 = masked2.replace(SCOPED_PACKAGE, (x) => ' '.repeat(x.length));
  eachPackageWord(masked3, (s, e, raw, value) => c.addWeakWord(seg.start + s, seg.start + e, raw, value));
}

function addProseHit(h: ReturnType<typeof scanProse>[number], seg: Segment, c: Collector, where: Reference['in']): void {
  const start = seg.start + h.start;
  const end = seg.start + h.end;
  if (h.kind === 'issue') {
    c.add({ kind: 'issue', raw: h.raw, value: h.value, start, end, in: where, number: h.number, issueKind: h.issueKind, describedOpen: h.describedOpen, ...(h.repo ? { repo: h.repo } : {}) });
  } else if (h.kind === 'version') {
    c.add({ kind: 'version', raw: h.raw, value: h.value, start, end, in: where, subject: h.subject, version: h.version, bound: h.bound });
  } else if (h.kind === 'count') {
    c.add({ kind: 'count', raw: h.raw, value: h.value, start, end, in: where, count: h.count, noun: h.noun, bound: h.bound, ...(h.where ? { base: h.where } : {}) });
  }
}

function addPath(p: PathToken, tok: string, start: number, c: Collector, where: Reference['in'], ctx: CtxBase, file: MemoryFile, kind: 'path' | 'import' = 'path'): void {
  const bare = !p.value.includes('/') && p.anchor === 'plain';
  const extra: Partial<Reference> = {};
  if (bare) {
    const b = baseFor(ctx, start);
    if (b.base) {
      extra.base = b.base;
      extra.via = b.via;
    }
  }
  if (p.glob) extra.glob = true;
  if (!p.strong) extra.weak = true;
  if (file.format === 'auto-memory-index' && bare && /\.md$/i.test(p.value)) return; // memory topic links are checked as links
  c.add({ kind, raw: tok, value: p.value, start, end: start + tok.length, in: where, ...extra });
}

// ------------------------------------------------------------------ inline code

function inlineCode(seg: Segment, c: Collector, ctx: CtxBase, file: MemoryFile): void {
  const t = seg.text;
  if (!t.trim()) return;
  if (/^https?:\/\//.test(t.trim())) {
    c.add({ kind: 'url', raw: t.trim(), value: t.trim(), start: seg.start + t.indexOf(t.trim()), end: seg.start + t.indexOf(t.trim()) + t.trim().length, in: 'inlineCode' });
    for (const h of scanProse(t, { inCode: true })) if (h.kind === 'issue') addProseHit(h, seg, c, 'inlineCode');
    return;
  }
  if (!/\s/.test(t.trim())) {
    const tok = t.trim();
    const s = seg.start + t.indexOf(tok);
    if (/^@[\w.-]+\/[\w.-]+$/.test(tok) && !/\.(md|mdx|txt|json|ya?ml|toml)$/i.test(tok)) {
      c.add({ kind: 'package', raw: tok, value: tok.toLowerCase(), start: s, end: s + tok.length, in: 'inlineCode' });
      return;
    }
    const viaAt = tok.startsWith('@') ? tok.slice(1) : tok;
    const p = asPath(viaAt, 'code');
    if (p) {
      addPath(p, tok, s, c, 'inlineCode', ctx, file);
      return;
    }
    if (/^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(tok) && !/^\d/.test(tok) && /[a-z]/.test(tok)) {
      c.add({ kind: 'package', raw: tok, value: tok.toLowerCase(), start: s, end: s + tok.length, in: 'inlineCode' });
    }
    for (const h of scanProse(t, { inCode: true })) if (h.kind === 'version' || h.kind === 'issue') addProseHit(h, seg, c, 'inlineCode');
    return;
  }
  if (looksLikeCommand(t)) {
    for (const p of parseCommandLine(t)) addPiece(p, seg.start, c, 'inlineCode');
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
    const [lead, tok] = trimToken(word);
    if (!tok) continue;
    const p = asPath(tok, 'code');
    if (p) addPath(p, tok, seg.start + off + lead, c, 'inlineCode', ctx, file);
  }
  for (const h of scanProse(t, { inCode: true })) if (h.kind === 'version' || h.kind === 'issue') addProseHit(h, seg, c, 'inlineCode');
}

function addPiece(p: CommandPiece, offset: number, c: Collector, where: Reference['in']): void {
  const start = offset + p.start;
  const end = offset + p.end;
  if (p.kind === 'script') {
    c.add({
      kind: 'command', raw: '', value: p.value, start, end, in: where, tool: p.tool, script: p.script,
      ...(p.workspace ? { workspace: p.workspace } : {}), ...(p.cwd ? { base: p.cwd + '/' } : {}), ...(p.makefile ? { manifest: p.makefile } : {}),
    });
  } else if (p.kind === 'package' || p.kind === 'tool') {
    c.add({ kind: 'package', raw: '', value: p.value.toLowerCase(), start, end, in: where, tool: p.tool, ...(p.script === 'registry' ? { fetched: true } : {}) });
  } else if (p.kind === 'path') {
    const v = p.value.replace(/^["']|["']$/g, '');
    const pt = asPath(p.dir && !v.endsWith('/') ? v + '/' : v, 'code');
    if (pt) {
      const s = start + (p.value.startsWith('"') || p.value.startsWith("'") ? 1 : 0);
      c.add({ kind: 'path', raw: v, value: pt.value, start: s, end: s + v.length, in: where, ...(pt.glob ? { glob: true } : {}), ...(pt.strong ? {} : { weak: true }), ...(p.cwd ? { base: p.cwd + '/' } : {}) });
    }
  }
}

// ------------------------------------------------------------------ links

function linkUrl(seg: Segment, c: Collector, file: MemoryFile): void {
  const u = seg.text;
  const start = seg.start;
  if (/^https?:\/\//i.test(u)) {
    c.add({ kind: 'url', raw: u, value: u, start, end: start + u.length, in: 'link' });
    for (const h of scanProse(u, { inCode: true })) if (h.kind === 'issue') addProseHit(h, seg, c, 'link');
    return;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(u) || u.startsWith('#')) return;
  c.add({ kind: 'link', raw: u, value: u.replace(/[#?].*$/, ''), start, end: start + u.length, in: 'link' });
  if (file.format === 'auto-memory-index' || file.format === 'auto-memory-topic') {
    if (!u.includes('/') || u.startsWith('./')) return; // links between memory files: the broken-link check owns them
  }
  let dec = u.replace(/[#?].*$/, '');
  try {
    dec = decodeURI(dec);
  } catch {
    /* keep */
  }
  const p = asPath(dec, 'link');
  if (p) c.add({ kind: 'path', raw: u.replace(/[#?].*$/, ''), value: p.value, start, end: start + u.replace(/[#?].*$/, '').length, in: 'link', ...(p.glob ? { glob: true } : {}) });
}

// ------------------------------------------------------------------ fenced code

function codeBlock(seg: Segment, c: Collector): void {
  const lang = seg.lang ?? '';
  const lines = splitLines(seg.text);
  const shell = SHELL_LANGS.has(lang) || (PLAIN_LANGS.has(lang) && isShellish(lines.map((l) => l.text)));
  if (shell) {
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
        // A comment: paths only.
        commentPaths(trimmed, seg.start + l.start + off + (text.length - trimmed.length), c);
        continue;
      }
      for (const p of parseCommandLine(text)) addPiece(p, seg.start + l.start + off, c, 'code');
      const hash = text.search(/\s#\s/);
      if (hash !== -1) commentPaths(text.slice(hash), seg.start + l.start + off + hash, c);
    }
    return;
  }
  if (PLAIN_LANGS.has(lang) && isTree(seg.text)) {
    const items = parseTree(seg.text);
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
 * `globs:` (Cursor rules) and `paths:` (.claude/rules) in frontmatter: a rule whose globs
 * point at a folder that is gone never applies. Attached to the entry holding the
 * frontmatter, or to the first entry after it.
 */
function frontmatterGlobs(entry: Entry, file: MemoryFile, c: Collector): void {
  const fm = file.frontmatter;
  const range = file.frontmatterRange;
  if (!fm || !range) return;
  const owns = entry.start <= range[0] || (entry.start >= range[1] && /^(?:\s|#[^\n]*(?:\n|$))*$/.test(file.text.slice(range[1], entry.start)));
  if (!owns) return;
  for (const key of ['globs', 'paths', 'applyTo']) {
    const v = fm[key];
    const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
    let from = range[0];
    for (const item of list) {
      const g = String(item).trim();
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
