// Loading memory: discover -> read -> parse -> references, for the audit pipeline.
import type { Config } from '../config/types.js';
import type { Entry, Finding, MemoryFile, MemoryFormat } from '../types.js';
import { discoverMemory, ImportResolver, MAX_IMPORT_HOPS, MAX_IMPORTED_FILES, type DiscoveredFile } from './discover.js';
import { parseMemoryText, type ParseOptions, type ParseResult } from './parse.js';
import { readMemoryFileSync } from './read.js';
import { extractReferences } from './references.js';

export interface LoadOptions {
  root: string;
  config: Config;
  /** Explicit memory paths (files, folders, globs); default config.memory, else auto-detect. */
  paths?: string[];
}

export interface LoadedMemory {
  files: MemoryFile[];
  entries: Entry[];
  findings: Finding[];
  /** Milliseconds per stage: discover, read, parse, refs. */
  timings: Record<string, number>;
}

/** Topic entries by file path. */
function topicsByFile(parsed: ReadonlyArray<ParseResult | undefined>): Map<string, Entry> {
  const topics = new Map<string, Entry>();
  for (const p of parsed) if (p) for (const e of p.entries) if (e.kind === 'topic') topics.set(e.file, e);
  return topics;
}

/** The topic an index line of the index in `dir` links to, when that topic's type comes from its frontmatter. */
function typedTopic(topics: Map<string, Entry>, dir: string | undefined, target: string): Entry | undefined {
  const path = normaliseJoin(dir ?? '', target);
  const topic = path ? topics.get(path) : undefined;
  return topic && topic.typeSource === 'frontmatter' ? topic : undefined;
}

/** Index lines take the type of the topic file they link to (when that has a frontmatter type). */
function typeIndexLines(entries: Entry[], files: MemoryFile[], topics: Map<string, Entry>): void {
  if (topics.size === 0) return;
  const dirOf = new Map(files.map((f) => [f.path, f.memoryDir]));
  for (const e of entries) {
    if (e.kind !== 'index-line' || !e.meta.target) continue;
    const topic = typedTopic(topics, dirOf.get(e.file), e.meta.target);
    if (topic) {
      e.type = topic.type;
      e.typeSource = 'frontmatter';
      e.meta.typeRule = `topic:${topic.file}`;
    }
  }
}

function normaliseJoin(dir: string, rel: string): string | undefined {
  // The usual index link is a plain file name beside the index: no segment to resolve.
  if (rel !== '' && rel !== '.' && rel !== '..' && !rel.includes('/')) return dir === '' || dir === '.' ? rel : `${dir}/${rel}`;
  if (rel.startsWith('/')) return undefined;
  const parts = dir === '' || dir === '.' ? [] : dir.split('/');
  for (const p of rel.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(p);
  }
  return parts.join('/');
}

/**
 * Discovers, reads and parses the memory of the repository at `root`. Never throws for bad
 * memory content: every problem is a `malformed` finding and the other files are still read.
 */
/**
 * Parsing runs on the main thread while the evidence stage streams `git log` through it: without a
 * pause now and then, git's output would sit in a full pipe and git would wait for us. `maybe()`
 * yields to the event loop once every few milliseconds of work (a microsecond check otherwise).
 * It returns a promise only then: awaiting its `undefined` would still cost a turn of the
 * microtask queue per file and per entry.
 */
function cooperative(sliceMs = 8): { maybe(): Promise<void> | undefined } {
  let last = performance.now();
  let n = 0;
  return {
    maybe() {
      if (++n % 16 !== 0) return undefined;
      const now = performance.now();
      if (now - last < sliceMs) return undefined;
      last = now;
      return new Promise((res) => setImmediate(res));
    },
  };
}

export async function loadMemory(opts: LoadOptions): Promise<LoadedMemory> {
  const { root, config } = opts;
  const timings: Record<string, number> = {};
  const findings: Finding[] = [];
  const pause = cooperative();
  let t = performance.now();
  const paths = opts.paths && opts.paths.length > 0 ? opts.paths : config.memory.length > 0 ? config.memory : undefined;
  const discovered = await discoverMemory({ root, paths, ignore: config.ignore, logPath: config.log || undefined });
  findings.push(...discovered.findings);
  timings.discover = performance.now() - t;

  for (const p of config.protect) {
    try {
      new RegExp(p, 'i');
    } catch (e) {
      findings.push({
        entryId: null,
        file: '',
        line: 0,
        kind: 'malformed',
        severity: 'error',
        message: `config protect: invalid regular expression ${JSON.stringify(p)} (${(e as Error).message}); ignored`,
      });
    }
  }

  // Index lines take their topic's type before references are extracted (as they always have).
  let { files, entries } = await loadBatch(discovered.files, config, pause, findings, timings, typeIndexLines);

  t = performance.now();
  const imported = await followImports(root, config, files, entries, pause, findings, timings);
  if (imported) {
    // Imported files join the others in path order (the order discovery gives).
    files = [...files, ...imported.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const byFile = new Map<string, Entry[]>();
    for (const e of [...entries, ...imported.entries]) {
      const l = byFile.get(e.file);
      if (l) l.push(e);
      else byFile.set(e.file, [e]);
    }
    entries = [];
    for (const f of files) for (const e of byFile.get(f.path) ?? []) entries.push(e);
    timings.imports = performance.now() - t;
  }
  findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  return { files, entries, findings, timings };
}

/** Reads, parses and extracts the references of `list`; stage times are added to `timings`. */
async function loadBatch(
  list: DiscoveredFile[],
  config: Config,
  pause: ReturnType<typeof cooperative>,
  findings: Finding[],
  timings: Record<string, number>,
  beforeRefs?: (entries: Entry[], files: MemoryFile[], topics: Map<string, Entry>) => void,
): Promise<{ files: MemoryFile[]; entries: Entry[] }> {
  const add = (k: string, t0: number) => (timings[k] = (timings[k] ?? 0) + performance.now() - t0);
  let t = performance.now();
  const maxBytes = config.maxFileBytes > 0 ? config.maxFileBytes : 4 * 1024 * 1024;
  // Synchronous reads: for thousands of small files (usually in the page cache) four system
  // calls each on this thread beat the thread pool's round trips several times over.
  const reads: ReturnType<typeof readMemoryFileSync>[] = [];
  for (const f of list) {
    reads.push(readMemoryFileSync(f.absPath, f.path, maxBytes));
    const y = pause.maybe();
    if (y) await y;
  }
  add('read', t);

  t = performance.now();
  // Topic files first, then the indexes linking to them: an index line takes its topic's
  // frontmatter type (typeIndexLines), so knowing it up front spares classifying the line.
  const parsed: Array<ParseResult | undefined> = [];
  let topics = new Map<string, Entry>();
  for (const indexes of [false, true]) {
    if (indexes) topics = topicsByFile(parsed);
    for (let i = 0; i < list.length; i++) {
      const d = list[i];
      const { text, bytes } = reads[i];
      if (text === undefined || (d.format === 'auto-memory-index') !== indexes) continue;
      const indexLineType: ParseOptions['indexLineType'] = indexes
        ? (target) => {
            const topic = typedTopic(topics, d.memoryDir, target);
            return topic && { type: topic.type, rule: `topic:${topic.file}` };
          }
        : undefined;
      parsed[i] = parseMemoryText(d.path, text, d.format, { memoryDir: d.memoryDir, protectPatterns: config.protect, bytes, indexLineType });
      const y = pause.maybe();
      if (y) await y;
    }
  }
  const files: MemoryFile[] = [];
  const entries: Entry[] = [];
  for (let i = 0; i < list.length; i++) {
    const r = reads[i];
    if (r.finding) findings.push(r.finding);
    const p = parsed[i];
    if (!p) continue;
    p.file.absPath = list[i].absPath;
    p.file.bytes = r.bytes;
    if (r.bom) p.file.bom = true;
    files.push(p.file);
    for (const e of p.entries) entries.push(e);
    for (const f of p.findings) findings.push(f);
  }
  beforeRefs?.(entries, files, topics);
  add('parse', t);

  t = performance.now();
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const e of entries) {
    const file = byPath.get(e.file)!;
    try {
      e.refs = extractReferences(e, file);
    } catch (err) {
      e.refs = [];
      findings.push({
        entryId: e.id,
        file: e.file,
        line: e.line,
        kind: 'malformed',
        severity: 'warning',
        message: `${e.file}:${e.line}: references could not be extracted (${(err as Error).message})`,
      });
    }
    const y = pause.maybe();
    if (y) await y;
  }
  add('refs', t);
  return { files, entries };
}

/**
 * Files brought in by `@imports` are memory too: Claude Code loads them with the file importing
 * them, every session, and follows their own imports in turn; Gemini CLI's memory import
 * processor does the same for GEMINI.md. Starting from the CLAUDE.md-style files (format
 * `claude-md`: CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md, nested CLAUDE.md, .claude/rules)
 * and GEMINI.md files, found by detection or given with --memory, the `import` references of their
 * entries (the extractor leaves out code spans, fences, e-mail addresses and `@scope/package`)
 * are followed breadth first, each file reached at its fewest hops. A file reached that is not
 * memory yet is loaded once (format from its name, else that of the file its chain starts from:
 * `claude-md` or `gemini-md`, whose content it is);
 * a file that already is memory (AGENTS.md imported from CLAUDE.md) is not loaded again, but its
 * imports are followed, as Claude Code does. Files more than MAX_IMPORT_HOPS hops away are never
 * loaded by Claude Code and are not loaded here; the import reaching them is still an entry of a
 * loaded file, so `broken-link` reports it as too deep. Imports leaving the repository, of
 * non-Markdown files (`@package.json`) and of missing files are not followed (the path and
 * broken-link checks report what needs reporting). Returns undefined when nothing was imported
 * (the usual case: no file holding an `@` costs one `includes` per CLAUDE.md-style file).
 */
/** Formats whose `@file.md` lines are imports for their own agent: where import chains start. */
const IMPORTING: ReadonlySet<MemoryFormat> = new Set<MemoryFormat>(['claude-md', 'gemini-md']);

async function followImports(
  root: string,
  config: Config,
  files: MemoryFile[],
  entries: Entry[],
  pause: ReturnType<typeof cooperative>,
  findings: Finding[],
  timings: Record<string, number>,
): Promise<{ files: MemoryFile[]; entries: Entry[] } | undefined> {
  // Import chains start at CLAUDE.md-style files (Claude Code) and at GEMINI.md (Gemini CLI's
  // memory import processor reads the same `@file.md` syntax, relative to the importing file).
  let frontier = files.filter((f) => IMPORTING.has(f.format) && f.text.includes('@'));
  if (frontier.length === 0) return undefined;
  const entriesOf = new Map<string, Entry[]>();
  const indexEntries = (list: Entry[]) => {
    for (const e of list) {
      const l = entriesOf.get(e.file);
      if (l) l.push(e);
      else entriesOf.set(e.file, [e]);
    }
  };
  indexEntries(entries);
  const byPath = new Map(files.map((f) => [f.path, f]));
  /** Memory path -> fewest hops from a CLAUDE.md-style file (those are 0 and already expanded). */
  const hops = new Map<string, number>();
  /** Memory path -> the format its import chain started from (what an imported file is read as). */
  const origin = new Map<string, MemoryFormat>();
  for (const f of files)
    if (IMPORTING.has(f.format)) {
      hops.set(f.path, 0);
      origin.set(f.path, f.format);
    }
  const resolver = new ImportResolver(root, files, config.ignore);
  const out = { files: [] as MemoryFile[], entries: [] as Entry[] };
  const seenFindings = new Set(findings.map((f) => `${f.file}\0${f.message}`));
  let capped = false;
  for (let hop = 1; hop <= MAX_IMPORT_HOPS && frontier.length > 0; hop++) {
    const load: DiscoveredFile[] = [];
    const next: MemoryFile[] = [];
    for (const f of frontier) {
      if (!f.text.includes('@')) continue;
      for (const e of entriesOf.get(f.path) ?? []) {
        for (const r of e.refs ?? []) {
          if (r.kind !== 'import' || !r.raw.startsWith('@')) continue;
          const from = origin.get(f.path) ?? 'claude-md';
          const res = await resolver.resolve(f.absPath, r.raw.slice(1), from);
          if (res.kind === 'skip') {
            if (res.finding && !seenFindings.has(`${res.finding.file}\0${res.finding.message}`)) {
              seenFindings.add(`${res.finding.file}\0${res.finding.message}`);
              findings.push(res.finding);
            }
            continue;
          }
          if (res.kind === 'known') {
            // Already memory: follow its imports once, from the fewest hops it is reached at.
            if (hops.has(res.path)) continue;
            hops.set(res.path, hop);
            origin.set(res.path, from);
            const known = byPath.get(res.path);
            if (known) next.push(known);
            continue;
          }
          if (out.files.length + load.length >= MAX_IMPORTED_FILES) {
            if (!capped) {
              capped = true;
              const line = r.line;
              findings.push({
                entryId: null,
                file: e.file,
                line,
                kind: 'malformed',
                severity: 'warning',
                ref: r.raw,
                message: `${e.file}:${line}: the import ${r.raw} is not audited: more than ${MAX_IMPORTED_FILES} files are imported, and imports past that many are not loaded`,
              });
            }
            continue;
          }
          hops.set(res.file.path, hop);
          origin.set(res.file.path, from);
          load.push(res.file);
        }
        const y = pause.maybe();
        if (y) await y;
      }
    }
    if (load.length > 0) {
      const b = await loadBatch(load, config, pause, findings, timings);
      for (const f of b.files) {
        byPath.set(f.path, f);
        next.push(f);
        out.files.push(f);
      }
      indexEntries(b.entries);
      for (const e of b.entries) out.entries.push(e);
    }
    frontier = next;
  }
  return out.files.length > 0 ? out : undefined;
}
