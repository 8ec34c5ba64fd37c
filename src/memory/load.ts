// Loading memory: discover -> read -> parse -> references, for the audit pipeline.
import type { Config } from '../config/types.js';
import type { Entry, Finding, MemoryFile } from '../types.js';
import { discoverMemory, type DiscoveredFile } from './discover.js';
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

  t = performance.now();
  const maxBytes = config.maxFileBytes > 0 ? config.maxFileBytes : 4 * 1024 * 1024;
  // Synchronous reads: for thousands of small files (usually in the page cache) four system
  // calls each on this thread beat the thread pool's round trips several times over.
  const reads: ReturnType<typeof readMemoryFileSync>[] = [];
  for (const f of discovered.files as DiscoveredFile[]) {
    reads.push(readMemoryFileSync(f.absPath, f.path, maxBytes));
    const y = pause.maybe();
    if (y) await y;
  }
  timings.read = performance.now() - t;

  t = performance.now();
  // Topic files first, then the indexes linking to them: an index line takes its topic's
  // frontmatter type (typeIndexLines), so knowing it up front spares classifying the line.
  const parsed: Array<ParseResult | undefined> = [];
  let topics = new Map<string, Entry>();
  for (const indexes of [false, true]) {
    if (indexes) topics = topicsByFile(parsed);
    for (let i = 0; i < discovered.files.length; i++) {
      const d = discovered.files[i];
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
  for (let i = 0; i < discovered.files.length; i++) {
    const r = reads[i];
    if (r.finding) findings.push(r.finding);
    const p = parsed[i];
    if (!p) continue;
    p.file.absPath = discovered.files[i].absPath;
    p.file.bytes = r.bytes;
    if (r.bom) p.file.bom = true;
    files.push(p.file);
    for (const e of p.entries) entries.push(e);
    for (const f of p.findings) findings.push(f);
  }
  typeIndexLines(entries, files, topics);
  timings.parse = performance.now() - t;

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
  timings.refs = performance.now() - t;
  findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  return { files, entries, findings, timings };
}
