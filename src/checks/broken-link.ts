// broken-link: links between memory files that lead nowhere — markdown links to memory files
// that do not exist, `[[name]]` links to unknown names, MEMORY.md index lines whose topic file is
// gone, topic files the index never mentions (orphans: never loaded), and `@imports` that are
// missing, circular or deeper than Claude Code's limit of four hops. Code spans and fences are
// skipped. Links to ordinary repository files are left to the path checks. Files brought in by
// imports are memory files themselves (loadMemory loads them), so the import graph seen here
// spans every file Claude Code loads, not only the ones auto-detection finds.
import type { Check, CheckContext, Entry, Finding } from '../types.js';
import { MAX_IMPORT_HOPS } from '../memory/discover.js';
import { checkPathRef } from './path.js';
import {
  baseName,
  dirOf,
  fileMap,
  isAutoMemory,
  isExternal,
  joinPath,
  linkPath,
  lineInEntry,
  stemOf,
  textsOf,
} from './fidelity/text.js';

/** Claude Code follows @imports at most this many hops deep (defined with the loader that follows them). */
export { MAX_IMPORT_HOPS };

const LINK_RE = /!?\[((?:[^\]\\\n]|\\.)*)\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const REF_DEF_RE = /^[ \t]{0,3}\[([^\]\n]+)\]:[ \t]*(<[^>\n]*>|\S+)/gm;
const WIKI_RE = /\[\[([^\]\n|#]+)(?:#[^\]\n|]*)?(?:\|[^\]\n]*)?\]\]/g;
const IMPORT_RE = /(?<![\w.\/@`:-])@((?:~\/|\.{1,2}\/|\/)?[\w.~-]+(?:\/[\w.~-]+)*)/g;
/** Names of markdown files anywhere in an index line (what the index mentions); found by `mdNames`. */
export const MD_NAME_RE = /[\w./-]+\.md\b/g;
const MEMORY_BASENAMES = /^(?:CLAUDE(?:\.local)?\.md|AGENTS\.md|GEMINI\.md|MEMORY\.md|copilot-instructions\.md|\.cursorrules|.*\.mdc)$/i;

interface LinkHit {
  raw: string;
  target: string;
  index: number;
}

/** `[\w./-]`: a character of a markdown file name. */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 47 || c === 45;
}

/** `\w`. */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * Each match of `MD_NAME_RE` in `text`, in order, without the expression: tried at every
 * position, its greedy run backtracks over whole words (quadratic in a run's length), and index
 * lines are read in full. A match starts where its run of name characters does (or where the
 * previous match ended) and ends at the run's last `.md` that ends a word and has a character
 * before it; a run without one holds no match.
 */
export function mdNames(text: string, each: (name: string) => void): void {
  const n = text.length;
  let from = 0;
  for (;;) {
    const dot = text.indexOf('.md', from);
    if (dot < 0) return;
    let start = dot;
    while (start > from && isNameChar(text.charCodeAt(start - 1))) start--;
    let runEnd = dot + 3;
    while (runEnd < n && isNameChar(text.charCodeAt(runEnd))) runEnd++;
    let end = -1;
    for (let k = text.lastIndexOf('.md', runEnd - 3); k > start; k = text.lastIndexOf('.md', k - 1)) {
      if (k + 3 === n || !isWordChar(text.charCodeAt(k + 3))) {
        end = k + 3;
        break;
      }
    }
    if (end < 0) {
      from = runEnd;
      continue;
    }
    each(text.slice(start, end));
    from = end;
  }
}

function links(text: string): LinkHit[] {
  const out: LinkHit[] = [];
  for (const re of [LINK_RE, REF_DEF_RE]) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      const url = m[2];
      if (!url || url.startsWith('#') || isExternal(url.replace(/^</, ''))) continue;
      out.push({ raw: url.replace(/^<|>$/g, ''), target: linkPath(url), index: m.index + m[0].lastIndexOf(url) });
    }
  }
  return out;
}

function imports(text: string): LinkHit[] {
  const out: LinkHit[] = [];
  IMPORT_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = IMPORT_RE.exec(text))) {
    const raw = m[1].replace(/[.,;:]+$/, '');
    const prefixed = /^(?:~\/|\.{1,2}\/|\/)/.test(raw);
    const hasExt = /\.[A-Za-z0-9]{1,8}$/.test(raw);
    if (!prefixed && !hasExt) continue; // @scope/package, @mention
    if (/^\d/.test(raw)) continue; // @2x, versions
    out.push({ raw, target: raw, index: m.index });
  }
  return out;
}

/**
 * A missing `@import` is reported once. When git history explains it (renamed, with the
 * successor, or deleted, with the commit) the `path` check reports it as `path-renamed` /
 * `path-missing` on the same reference and this check stays quiet; otherwise (never existed,
 * no history, or the path check switched off) it is `broken-link` / `import-missing` here.
 */
function pathCheckReports(ctx: CheckContext, e: Entry, hit: LinkHit): boolean {
  if (ctx.config?.checks?.['path'] === false || e.type === 'superseded' || !ctx.evidence?.history) return false;
  const ref = e.refs?.find((r) => r.kind === 'import' && r.raw === '@' + hit.raw);
  if (!ref) return false;
  try {
    return checkPathRef(e, ref, ctx.evidence) !== null;
  } catch {
    return false;
  }
}

/**
 * The same for a markdown link to a memory file: when the path check explains the missing
 * target from history (`path-renamed` with the successor, `path-missing` with the commit, a
 * case-only difference), the link is reported once, there. A target the path check only
 * calls unverified (never in history) stays a broken link here.
 */
function pathCheckExplainsLink(ctx: CheckContext, e: Entry, hit: LinkHit): boolean {
  if (ctx.config?.checks?.['path'] === false || e.type === 'superseded' || !ctx.evidence?.history) return false;
  // the path reference of the link: its destination as written, or without `#anchor` / `?query`
  const ref = e.refs?.find((r) => r.kind === 'path' && (r.raw === hit.raw || r.raw === hit.target));
  if (!ref) return false;
  try {
    const f = checkPathRef(e, ref, ctx.evidence);
    return f !== null && f.kind !== 'path-unverified';
  } catch {
    return false;
  }
}

export function findBrokenLinks(ctx: CheckContext): Finding[] {
  const { entries, files, evidence } = ctx;
  const out: Finding[] = [];
  const byPath = fileMap(files);
  const repoFiles = evidence?.files?.files;
  const repoDirs = evidence?.files?.dirs;
  const exists = (p: string) => byPath.has(p) || !!repoFiles?.has(p) || !!repoDirs?.has(p.endsWith('/') ? p.slice(0, -1) : p);
  const memoryDirs = new Set(files.map((f) => f.memoryDir).filter((d): d is string => !!d));
  const inMemoryDir = (p: string) => {
    for (const d of memoryDirs) if (p === d || p.startsWith(d + '/')) return true;
    return false;
  };

  // names a [[wikilink]] may use: topic `name`s and file stems of memory files (built on the first wikilink)
  let names: Set<string> | undefined;
  const wikiNames = () => {
    if (names) return names;
    names = new Set<string>();
    for (const f of files) {
      names.add(stemOf(f.path).toLowerCase());
      names.add(baseName(f.path).toLowerCase());
      const n = f.frontmatter?.name;
      if (typeof n === 'string') names.add(n.toLowerCase());
    }
    for (const e of entries) if (e.meta?.name) names.add(e.meta.name.toLowerCase());
    return names;
  };
  // memory files by folder and frontmatter `name` (lower case), for [[name]] links
  let named: Map<string | undefined, Map<string, string[]>> | undefined;
  const filesNamed = (mdir: string | undefined, key: string): string[] => {
    if (!named) {
      named = new Map();
      for (const f of files) {
        const name = f.frontmatter?.name;
        if (typeof name !== 'string') continue;
        const n = name.toLowerCase();
        let byName = named.get(f.memoryDir);
        if (!byName) named.set(f.memoryDir, (byName = new Map()));
        const l = byName.get(n);
        if (l) l.push(f.path);
        else byName.set(n, [f.path]);
      }
    }
    return named.get(mdir)?.get(key) ?? [];
  };

  const mentioned = new Map<string, Set<string>>(); // memoryDir -> resolved targets mentioned by its MEMORY.md
  const importEdges = new Map<string, Array<{ to: string; entry: Entry; hit: LinkHit }>>();

  const push = (e: Entry, index: number, ref: string, message: string, severity: Finding['severity'], ev: Record<string, unknown>) => {
    out.push({ entryId: e.id, file: e.file, line: lineInEntry(e, index), kind: 'broken-link', severity, ref, message, evidence: ev });
  };

  const texts = textsOf(entries);
  let laterImports: number[] | undefined;
  const importsOf = (i: number, text: string) => {
    const e = entries[i];
    const dir = dirOf(e.file);
    for (const hit of imports(text)) {
      if (hit.target.startsWith('~/') || hit.target.startsWith('/')) continue; // outside the repository
      const resolved = joinPath(dir, hit.target);
      if (!exists(resolved)) {
        if (pathCheckReports(ctx, e, hit)) continue; // renamed or deleted in history: the path check says so, once
        push(e, hit.index, '@' + hit.raw, `The import @${hit.raw} points to a file that does not exist, so ${e.format === 'gemini-md' ? 'Gemini CLI' : 'Claude Code'} loads nothing; fix the path or remove it.`, 'warning', { target: resolved, reason: 'import-missing' });
        continue;
      }
      const list = importEdges.get(e.file) ?? [];
      list.push({ to: resolved, entry: e, hit });
      importEdges.set(e.file, list);
    }
  };
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e.kind === 'frontmatter-field') continue;
    const file = byPath.get(e.file);
    const isIndex = e.format === 'auto-memory-index' || file?.format === 'auto-memory-index';
    const mdir = file?.memoryDir ?? (isIndex ? dirOf(e.file) : undefined);
    let seen: Set<string> | undefined;
    if (isIndex && mdir !== undefined) {
      seen = mentioned.get(mdir) ?? new Set();
      mentioned.set(mdir, seen);
    }
    // What the entry can hold, from its raw text: the prose is the text with parts blanked, so
    // a literal absent from the text is absent from the prose (most entries have no link at all)
    const raw = e.text;
    const hasMd = seen !== undefined && raw.includes('.md');
    const hasLink = raw.includes('](') || raw.includes(']:');
    const hasWiki = raw.includes('[[');
    // GEMINI.md: Gemini CLI's import processor follows `@file.md` the same way.
    const hasImport = (e.format === 'claude-md' || e.format === 'gemini-md') && raw.includes('@');
    // Another format's imports count only once a CLAUDE.md-style file imports that file (then
    // Claude Code follows them): decided after this loop, when the import edges are known.
    if (!hasImport && raw.includes('@')) (laterImports ??= []).push(i);
    const indexTarget = isIndex && e.kind === 'index-line' && !!e.meta?.target;
    if (!hasMd && !hasLink && !hasWiki && !hasImport && !indexTarget) continue;
    const text = texts.proseNoCode(i);
    const dir = dirOf(e.file);
    if (hasMd) {
      const mentions = seen!;
      mdNames(text, (name) => mentions.add(joinPath(mdir!, name)));
    }

    // markdown links
    const ls = hasLink ? links(text) : [];
    for (const l of ls) {
      const resolved = l.target.startsWith('/') && !l.target.startsWith(dir) ? joinPath('', l.target.slice(1)) : joinPath(dir, l.target);
      seen?.add(resolved);
      if (resolved.startsWith('../') || resolved === '..') continue; // outside the repository: not ours to check
      const ours =
        isAutoMemory(e.format) || inMemoryDir(resolved) || MEMORY_BASENAMES.test(baseName(resolved));
      if (!ours || !/\.md$|\.mdc$|^[^.]*$/.test(baseName(resolved))) continue;
      if (exists(resolved)) continue;
      if (isIndex && e.kind === 'index-line') {
        push(e, l.index, l.raw, `The index links to ${l.raw}, which no longer exists; remove this index line or restore the topic file.`, 'warning', { target: resolved, reason: 'index-target-missing' });
      } else {
        if (pathCheckExplainsLink(ctx, e, l)) continue; // renamed or deleted in history: the path check says so, once
        push(e, l.index, l.raw, `The link to ${l.raw} points to a memory file that does not exist; fix the link or remove it.`, 'warning', { target: resolved, reason: 'missing' });
      }
    }
    // index line with a target but no markdown link
    if (isIndex && e.kind === 'index-line' && e.meta?.target && ls.length === 0) {
      const resolved = joinPath(mdir ?? dir, e.meta.target);
      seen?.add(resolved);
      if (!exists(resolved))
        push(e, 0, e.meta.target, `The index names ${e.meta.target}, which no longer exists; remove this index line or restore the topic file.`, 'warning', { target: resolved, reason: 'index-target-missing' });
    }

    // [[wikilinks]]
    WIKI_RE.lastIndex = 0;
    let w: RegExpExecArray | null;
    while (hasWiki && (w = WIKI_RE.exec(text))) {
      const name = w[1].trim();
      const key = name.toLowerCase();
      if (seen) seen.add(joinPath(mdir ?? dir, name.endsWith('.md') ? name : name + '.md'));
      const known = wikiNames();
      if (known.has(key) || known.has(key.replace(/\.md$/, '')) || known.has(stemOf(key))) {
        // mark the topic with that name as mentioned
        if (seen) for (const path of filesNamed(mdir, key)) seen.add(path);
        continue;
      }
      push(e, w.index, w[0], `[[${name}]] names no memory file or topic; fix the name or remove the link.`, 'warning', { name, reason: 'unknown-name' });
    }

    // @imports (CLAUDE.md-style files; others once imported, below)
    if (hasImport) importsOf(i, text);
  }
  // Files of other formats that a CLAUDE.md-style file imports (`@AGENTS.md`): Claude Code
  // follows their imports too. Repeated until no further file is reached.
  for (let pending = laterImports; pending && pending.length > 0; ) {
    const reached = new Set<string>();
    for (const l of importEdges.values()) for (const x of l) reached.add(x.to);
    const still: number[] = [];
    const now: number[] = [];
    for (const i of pending) (reached.has(entries[i].file) ? now : still).push(i);
    if (now.length === 0) break;
    for (const i of now) importsOf(i, texts.proseNoCode(i));
    pending = still;
  }

  // orphans: topic files the index never mentions
  const logBase = ctx.config?.log ? baseName(ctx.config.log) : 'pruning-log.md';
  // the entry to report an orphan on: the file's topic entry, else its first entry (built on the first orphan)
  let entryOfFile: Map<string, Entry> | undefined;
  const orphanEntry = (path: string): Entry | undefined => {
    if (!entryOfFile) {
      entryOfFile = new Map();
      for (const x of entries) if (!entryOfFile.has(x.file) || (x.kind === 'topic' && entryOfFile.get(x.file)!.kind !== 'topic')) entryOfFile.set(x.file, x);
    }
    return entryOfFile.get(path);
  };
  for (const [mdir, seen] of mentioned) {
    for (const f of files) {
      if (f.format !== 'auto-memory-topic' || f.memoryDir !== mdir) continue;
      if (seen.has(f.path)) continue;
      const b = baseName(f.path);
      if (b === logBase || b === 'pruning-log.md' || /^readme\.md$/i.test(b)) continue;
      const e = orphanEntry(f.path);
      out.push({
        entryId: e?.id ?? null,
        file: f.path,
        line: 1,
        kind: 'broken-link',
        severity: 'info',
        ref: b,
        message: `No line of ${mdir ? mdir + '/' : ''}MEMORY.md mentions ${b}, so the agent never loads it; add an index line or delete the file.`,
        evidence: { reason: 'orphan', index: joinPath(mdir, 'MEMORY.md') },
      });
    }
  }

  // circular and too-deep imports
  const importedBy = new Set<string>();
  for (const l of importEdges.values()) for (const x of l) importedBy.add(x.to);
  const roots = files.filter((f) => f.format === 'claude-md' && !importedBy.has(f.path)).map((f) => f.path);
  const reported = new Set<string>();
  const reached = new Set<string>();
  // Each file is walked once per depth: what lies below a file depends on its depth, and walking
  // every path instead could take exponential time on a dense import graph. A cycle is still
  // reported (on the import that closes it on the first path that meets it).
  const walked = new Set<string>();
  const walk = (file: string, depth: number, stack: string[]) => {
    reached.add(file);
    const memo = `${depth}\0${file}`;
    if (walked.has(memo)) return;
    walked.add(memo);
    for (const edge of importEdges.get(file) ?? []) {
      const hop = depth + 1;
      const key = `${edge.entry.id}:${edge.hit.index}`;
      if (stack.includes(edge.to)) {
        if (!reported.has(key)) {
          reported.add(key);
          const cycle = [...stack.slice(stack.indexOf(edge.to)), edge.to].join(' -> ');
          push(edge.entry, edge.hit.index, '@' + edge.hit.raw, `The import @${edge.hit.raw} is circular (${cycle}); remove one of the imports.`, 'warning', { target: edge.to, reason: 'import-circular', cycle });
        }
        continue;
      }
      if (hop > MAX_IMPORT_HOPS) {
        if (!reported.has(key)) {
          reported.add(key);
          push(edge.entry, edge.hit.index, '@' + edge.hit.raw, `The import @${edge.hit.raw} is ${hop} hops from ${stack[0]}, beyond Claude Code's limit of ${MAX_IMPORT_HOPS}, so it is never loaded; import it from a shallower file.`, 'warning', { target: edge.to, reason: 'import-too-deep', now: MAX_IMPORT_HOPS, hops: hop });
        }
        continue;
      }
      walk(edge.to, hop, [...stack, edge.to]);
    }
  };
  for (const r of roots) walk(r, 0, [r]);
  // cycles with no root (every file imported by another)
  for (const f of importEdges.keys()) if (!reached.has(f)) walk(f, 0, [f]);
  return out;
}

export const brokenLinkCheck: Check = {
  id: 'broken-link',
  kinds: ['broken-link'],
  severity: 'warning',
  description:
    'Links between memory files that lead nowhere: markdown links, [[name]] links, MEMORY.md index lines whose topic is gone, orphan topic files, and @imports that are missing, circular or deeper than four hops.',
  run: findBrokenLinks,
};
