// Finding the memory files of a repository. I/O only: walks folders, reads .gitignore files,
// expands globs; never reads memory content. Output is sorted by path, deterministic.
import { existsSync, readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { glob, isDynamicPattern } from 'tinyglobby';
import type { Finding, MemoryFormat } from '../types.js';

export interface DiscoveredFile {
  /** Repository-relative with forward slashes, or absolute (forward slashes) outside the repository. */
  path: string;
  absPath: string;
  format: MemoryFormat;
  /** Auto-memory files: the folder holding MEMORY.md, in the same form as `path`. */
  memoryDir?: string;
}

export interface DiscoverOptions {
  root: string;
  /** Explicit files, folders or globs (override auto-detection). */
  paths?: string[];
  /** Globs (repository-relative) of memory files to leave out. */
  ignore?: string[];
  /** The pruning log path when configured elsewhere than `pruning-log.md` (never a topic file). */
  logPath?: string;
}

export interface DiscoverResult {
  files: DiscoveredFile[];
  findings: Finding[];
}

/** File names that can be memory at all (every format below is one of these). */
const MAYBE_MEMORY = /\.mdc?$|^\.cursorrules$/i;

/** The walk yields to the event loop after this many milliseconds of synchronous reading. */
const YIELD_MS = 8;

/** Folders never entered. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn']);

const isClaudeRule = picomatch('**/.claude/rules/**/*.md', { dot: true });
const isCursorRule = picomatch('**/.cursor/rules/**/*.mdc', { dot: true });
const isCopilotInstructions = picomatch('.github/instructions/**/*.instructions.md', { dot: true });

const toSlash = (p: string) => (sep === '\\' ? p.split(sep).join('/') : p);

/**
 * The format of a memory file from its path, or undefined when the path is not a known
 * memory file name. `inMemoryDir` says whether the file lies in an auto-memory folder.
 */
export function formatOf(rel: string, inMemoryDir = false): MemoryFormat | undefined {
  const base = rel.slice(rel.lastIndexOf('/') + 1);
  if (base === 'MEMORY.md' && inMemoryDir) return 'auto-memory-index';
  if (base === 'CLAUDE.md' || base === 'CLAUDE.local.md') return 'claude-md';
  if (base === 'AGENTS.md' || base === 'AGENTS.override.md') return 'agents-md';
  if (base === 'GEMINI.md') return 'gemini-md';
  if (base === '.cursorrules' || (rel.includes('.cursor/') && isCursorRule(rel))) return 'cursor-rule';
  if (rel === '.github/copilot-instructions.md' || (rel.startsWith('.github/') && isCopilotInstructions(rel))) return 'copilot';
  if (rel.includes('.claude/') && isClaudeRule(rel)) return 'claude-md';
  if (inMemoryDir && /\.md$/i.test(base)) return 'auto-memory-topic';
  return undefined;
}

/** Whether a file in an auto-memory folder is one of its topic files. */
export function isTopicFile(relToMemoryDir: string, logPath?: string): boolean {
  if (!/\.md$/i.test(relToMemoryDir)) return false;
  const parts = relToMemoryDir.split('/');
  const base = parts[parts.length - 1];
  if (base === 'MEMORY.md') return false;
  if (/^pruning-log\.md$/i.test(base)) return false;
  if (parts.slice(0, -1).some((p) => p.toLowerCase() === 'archive')) return false;
  if (logPath && relToMemoryDir === logPath) return false;
  return true;
}

interface Walked {
  /** Absolute paths of files with a known memory name. */
  known: string[];
  /**
   * Absolute paths of the *.md files (topic file candidates): every one in an explicit folder,
   * and those below a folder with an entry named MEMORY.md in auto-detection.
   */
  markdown: string[];
  /** Absolute folders holding MEMORY.md. */
  memoryDirs: Set<string>;
}

interface GitIgnoreLayer {
  /** Absolute folder holding the .gitignore. */
  dir: string;
  ig: Ignore;
}

/** The text of an ignore file, or undefined when missing or without a single rule (comments only). */
function readIgnoreFile(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  // `git init` writes .git/info/exclude with comments only: testing every path against an
  // empty rule set cost as much as a real one.
  return /^[ \t]*[^#\s]/m.test(text) ? text : undefined;
}

/** Whether a folder's entries hold one named `name` (a plain loop: called for every folder). */
function hasEntry(ents: Dirent[], name: string): boolean {
  for (let i = 0; i < ents.length; i++) if (ents[i].name === name) return true;
  return false;
}

/** Whether a folder's entries hold a .gitignore file (a plain loop: called for every folder). */
function hasIgnoreFile(ents: Dirent[]): boolean {
  for (let i = 0; i < ents.length; i++) if (ents[i].name === '.gitignore' && !ents[i].isDirectory()) return true;
  return false;
}

function ignoredBy(layers: GitIgnoreLayer[], abs: string, isDir: boolean): boolean {
  let ignored = false;
  for (const layer of layers) {
    const prefix = layer.dir.endsWith(sep) ? layer.dir : layer.dir + sep;
    let rel = abs.startsWith(prefix) ? toSlash(abs.slice(prefix.length)) : toSlash(relative(layer.dir, abs));
    if (rel === '' || rel.startsWith('..')) continue;
    if (isDir) rel += '/';
    const t = layer.ig.test(rel);
    if (t.ignored) ignored = true;
    else if (t.unignored) ignored = false;
  }
  return ignored;
}

function linkFinding(display: string, message: string, evidence?: Record<string, unknown>): Finding {
  const f: Finding = { entryId: null, file: display, line: 1, kind: 'malformed', severity: 'error', message };
  if (evidence) f.evidence = evidence;
  return f;
}

/** File names that make a folder memory (or that are memory themselves). */
const MEMORY_NAMES = new Set(['MEMORY.md', 'CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', 'AGENTS.override.md', 'GEMINI.md', '.cursorrules']);

/** Repository-relative paths where any symlink is memory (Claude, Cursor, Copilot locations). */
function inMemoryLocation(rel: string): boolean {
  return (
    /(?:^|\/)\.(?:claude|cursor)(?:\/|$)/.test(rel) ||
    rel === '.github/copilot-instructions.md' ||
    rel === '.github/instructions' ||
    rel.startsWith('.github/instructions/')
  );
}

class Discoverer {
  readonly findings: Finding[] = [];
  private realRoot = '';
  /** Auto-detection: files found by walking that are symbolic links (the only ones realpath'd). */
  private readonly linkFiles = new Set<string>();
  private auto = false;
  /** The root with a trailing separator. */
  private readonly rootPrefix: string;
  private readonly userIgnore: picomatch.Matcher | undefined;

  constructor(
    readonly root: string,
    ignoreGlobs: string[] | undefined,
    readonly logPath: string | undefined,
  ) {
    this.userIgnore = ignoreGlobs && ignoreGlobs.length > 0 ? picomatch(ignoreGlobs, { dot: true }) : undefined;
    this.rootPrefix = root.endsWith(sep) ? root : root + sep;
  }

  async init(): Promise<void> {
    try {
      this.realRoot = await realpath(this.root);
    } catch {
      this.realRoot = this.root;
    }
  }

  display(abs: string): string {
    // Fast path: a path built under the root by joining names.
    if (abs.length > this.rootPrefix.length && abs.startsWith(this.rootPrefix) && !abs.includes(`${sep}..`)) {
      return toSlash(abs.slice(this.rootPrefix.length));
    }
    const rel = relative(this.root, abs);
    if (rel === '') return '.';
    if (rel.startsWith('..') || isAbsolute(rel)) return toSlash(abs);
    return toSlash(rel);
  }

  inRoot(abs: string): boolean {
    if (abs.length > this.rootPrefix.length && abs.startsWith(this.rootPrefix) && !abs.includes(`${sep}..`)) return true;
    const rel = relative(this.root, abs);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  }

  userIgnored(abs: string): boolean {
    return this.userIgnore !== undefined && this.inRoot(abs) && this.userIgnore(this.display(abs));
  }

  /** False when `abs` surely does not lead outside the repository (no realpath needed). */
  mayBeLinkOut(abs: string): boolean {
    if (!this.inRoot(abs)) return false;
    // Detection never enters symlinked folders: a file that is not a link itself is inside.
    return !(this.auto && !this.linkFiles.has(abs));
  }

  /**
   * For a symlinked file: true when it may be read. A link inside the repository whose target
   * lies outside it gives a finding and is not read.
   */
  async symlinkAllowed(abs: string): Promise<boolean> {
    if (!this.mayBeLinkOut(abs)) return true;
    let target: string;
    try {
      target = await realpath(abs);
    } catch {
      return true; // dangling: readMemoryFileSync reports it
    }
    if (!this.insideRealRoot(target)) {
      const d = this.display(abs);
      this.findings.push(
        linkFinding(d, `${d}: symbolic link leads outside the repository (to ${toSlash(target)}); not read`, {
          target: toSlash(target),
          audit: `--memory ${toSlash(target)}`,
        }),
      );
      return false;
    }
    return true;
  }

  /**
   * A symlinked memory file whose target is itself memory found by the walk (`CLAUDE.md ->
   * AGENTS.md`, a common layout) is one file: it is read once, under the target's name (the file
   * prune would write), so it is neither audited twice nor reported as a copy of itself.
   */
  async withoutLinksToKnown(files: DiscoveredFile[]): Promise<DiscoveredFile[]> {
    const links = files.filter((f) => this.linkFiles.has(f.absPath));
    if (links.length === 0) return files;
    const byPath = new Set(files.filter((f) => !this.linkFiles.has(f.absPath)).map((f) => f.path));
    const drop = new Set<string>();
    for (const f of links) {
      let target: string;
      try {
        target = await realpath(f.absPath);
      } catch {
        continue; // dangling: the reader reports it
      }
      const rel = toSlash(relative(this.realRoot, target));
      if (byPath.has(rel)) drop.add(f.absPath);
    }
    return drop.size ? files.filter((f) => !drop.has(f.absPath)) : files;
  }

  private insideRealRoot(target: string): boolean {
    const rel = relative(this.realRoot, target);
    return !(rel.startsWith('..') || isAbsolute(rel));
  }

  /**
   * Auto-detection meets a symlinked folder (never entered). When it leads outside the
   * repository and would have been memory (its target holds MEMORY.md or a known memory file,
   * or the link sits in a Claude / Cursor / Copilot memory location), say so: a finding naming
   * the link, never a silent skip. Other symlinked folders are left alone (no noise).
   */
  async reportLinkedFolder(abs: string): Promise<void> {
    if (!this.inRoot(abs) || this.userIgnored(abs)) return;
    let target: string;
    try {
      target = await realpath(abs);
    } catch {
      return;
    }
    if (this.insideRealRoot(target)) return;
    const rel = this.display(abs);
    let memory = inMemoryLocation(rel);
    if (!memory) {
      try {
        memory = (await readdir(target)).some((n) => MEMORY_NAMES.has(n));
      } catch {
        memory = false;
      }
    }
    if (!memory) return;
    const t = toSlash(target);
    this.findings.push(
      linkFinding(
        rel,
        `${rel}: symbolic link to a folder outside the repository (${t}); not followed, its memory is not audited` +
          ` (to audit it, pass --memory ${t})`,
        { target: t, audit: `--memory ${t}` },
      ),
    );
  }

  /**
   * Recursive walk collecting memory candidates. Symlinked folders are not entered.
   *
   * Folders are read synchronously from an explicit stack: a promise per folder (10,000+ in a
   * large work tree) cost several times the reads themselves, in time and in garbage. The walk
   * still yields to the event loop every few milliseconds, so that the git processes started
   * beside it (evidence) are not left waiting on a full pipe.
   */
  async walk(start: string, useGitignore: boolean, auto = false): Promise<Walked> {
    this.auto = auto;
    const out: Walked = { known: [], markdown: [], memoryDirs: new Set() };
    const layers: GitIgnoreLayer[] = [];
    if (useGitignore) {
      const exclude = readIgnoreFile(join(this.root, '.git', 'info', 'exclude'));
      if (exclude) layers.push({ dir: this.root, ig: ignore().add(exclude) });
      // .gitignore files of the folders above `start` (inside the repository) apply too.
      if (this.inRoot(start) && start !== this.root) {
        let d = this.root;
        for (const part of relative(this.root, start).split(sep)) {
          const gi = readIgnoreFile(join(d, '.gitignore'));
          if (gi) layers.push({ dir: d, ig: ignore().add(gi) });
          d = join(d, part);
        }
      }
    }
    // Folders still to read, each with the ignore layers that apply to it and whether a folder
    // above it has an entry named MEMORY.md (only then can its Markdown be topic files).
    const dirs: string[] = [start];
    const dirLayers: GitIgnoreLayer[][] = [layers];
    const dirInMemory: boolean[] = [!auto];
    let sliceStart = performance.now();
    while (dirs.length > 0) {
      const dir = dirs.pop()!;
      const parentLayers = dirLayers.pop()!;
      let inMemory = dirInMemory.pop()!;
      if (performance.now() - sliceStart > YIELD_MS) {
        await new Promise<void>((res) => setImmediate(res));
        sliceStart = performance.now();
      }
      let ents: Dirent[];
      try {
        ents = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      let here = parentLayers;
      if (useGitignore && hasIgnoreFile(ents)) {
        const gi = readIgnoreFile(join(dir, '.gitignore'));
        if (gi) here = [...parentLayers, { dir, ig: ignore().add(gi) }];
      }
      // A superset of the memory folders (collect() keeps the real ones): in a large work tree
      // most Markdown is documentation that need not be listed at all.
      if (!inMemory && hasEntry(ents, 'MEMORY.md')) inMemory = true;
      const under = dir.endsWith(sep) ? dir : dir + sep;
      // Indexed: `for…of` allocates an iterator result per entry until the optimiser steps in.
      for (let i = 0; i < ents.length; i++) {
        const e = ents[i];
        let isDir = e.isDirectory();
        let isFile = e.isFile();
        // Only Markdown, Cursor rules (.mdc) and .cursorrules can be memory: other files cost nothing.
        if (isFile && !MAYBE_MEMORY.test(e.name)) continue;
        const abs = under + e.name;
        if (e.isSymbolicLink()) {
          // Symlinked folders are not entered (no cycles, no escaping the repository).
          try {
            const st = statSync(abs);
            isDir = false;
            isFile = st.isFile();
            if (st.isDirectory() && auto && !SKIP_DIRS.has(e.name)) await this.reportLinkedFolder(abs);
          } catch {
            isFile = true; // dangling: kept when its name is a memory name, reported on read
          }
          if (isFile) this.linkFiles.add(abs);
        }
        if (isDir) {
          if (SKIP_DIRS.has(e.name)) continue;
          if (useGitignore && ignoredBy(here, abs, true)) continue;
          dirs.push(abs);
          dirLayers.push(here);
          dirInMemory.push(inMemory);
          continue;
        }
        if (!isFile) continue;
        const rel = this.inRoot(abs) ? this.display(abs) : toSlash(relative(start, abs));
        const isMd = /\.md$/i.test(e.name);
        const known = e.name === 'MEMORY.md' || formatOf(rel) !== undefined;
        if (!known && !isMd) continue;
        // CLAUDE.local.md is meant to be git-ignored and is still loaded by Claude Code.
        if (useGitignore && e.name !== 'CLAUDE.local.md' && ignoredBy(here, abs, false)) continue;
        if (e.name === 'MEMORY.md') out.memoryDirs.add(dir);
        if (known) out.known.push(abs);
        if (isMd && inMemory) out.markdown.push(abs);
      }
    }
    return out;
  }

  /** Turns walk results into discovered files (memory folders expanded into their topic files). */
  collect(w: Walked, into: Map<string, DiscoveredFile>): void {
    const nearestMemoryDir = nearestIn(w.memoryDirs);
    // Per memory folder, computed once: its display form and the pruning log relative to it.
    const shown = new Map<string, string>();
    const logRel = new Map<string, string | undefined>();
    const add = (abs: string, format: MemoryFormat, memoryDir?: string) => {
      if (into.has(abs)) return;
      const f: DiscoveredFile = { path: this.display(abs), absPath: abs, format };
      if (memoryDir !== undefined) {
        let d = shown.get(memoryDir);
        if (d === undefined) shown.set(memoryDir, (d = this.display(memoryDir)));
        f.memoryDir = d;
      }
      into.set(abs, f);
    };
    for (const abs of w.known) {
      const rel = this.inRoot(abs) ? this.display(abs) : toSlash(abs);
      const md = basename(abs) === 'MEMORY.md' ? dirname(abs) : undefined;
      const fmt = formatOf(rel, md !== undefined);
      if (fmt) add(abs, fmt, md);
    }
    for (const abs of w.markdown) {
      if (into.has(abs)) continue;
      const md = nearestMemoryDir(abs);
      if (md === undefined) continue;
      if (!logRel.has(md)) logRel.set(md, this.logRelTo(md));
      if (isTopicFile(relUnder(md, abs), logRel.get(md))) add(abs, 'auto-memory-topic', md);
    }
  }

  private logRelTo(memoryDir: string): string | undefined {
    if (!this.logPath) return undefined;
    const abs = resolve(this.root, this.logPath);
    return toSlash(relative(memoryDir, abs));
  }
}

/**
 * The nearest folder of `memoryDirs` holding a path (its deepest ancestor in the set). Every
 * Markdown file of the work tree asks: with the usual handful of memory folders, comparing
 * prefixes (longest first) allocates nothing, where climbing with dirname() built a string per
 * level of every file.
 */
function nearestIn(memoryDirs: Set<string>): (abs: string) => string | undefined {
  if (memoryDirs.size === 0) return () => undefined;
  if (memoryDirs.size > 32) {
    return (abs) => {
      let d = dirname(abs);
      for (;;) {
        if (memoryDirs.has(d)) return d;
        const up = dirname(d);
        if (up === d) return undefined;
        d = up;
      }
    };
  }
  const byDepth = [...memoryDirs].sort((a, b) => b.length - a.length);
  const prefixes = byDepth.map((d) => (d.endsWith(sep) ? d : d + sep));
  return (abs) => {
    for (let i = 0; i < prefixes.length; i++) if (abs.startsWith(prefixes[i])) return byDepth[i];
    return undefined;
  };
}

/** `abs` relative to its ancestor folder `dir`, forward slashes (path.relative without its cost). */
function relUnder(dir: string, abs: string): string {
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  return abs.startsWith(prefix) ? toSlash(abs.slice(prefix.length)) : toSlash(relative(dir, abs));
}

/** The memory folder (holding MEMORY.md) a file belongs to, looking upwards to `stop`. */
function memoryDirOnDisk(abs: string, stop: string): string | undefined {
  let d = dirname(abs);
  for (;;) {
    if (existsSync(join(d, 'MEMORY.md'))) return d;
    if (d === stop) return undefined;
    const up = dirname(d);
    if (up === d) return undefined;
    d = up;
  }
}

/**
 * Discovers the memory files under `root`, or the explicit `paths` (files, folders or globs,
 * relative to `root` or absolute) when given.
 */
export async function discoverMemory(opts: DiscoverOptions): Promise<DiscoverResult> {
  const root = resolve(opts.root);
  const d = new Discoverer(root, opts.ignore, opts.logPath);
  await d.init();
  const found = new Map<string, DiscoveredFile>();

  if (!opts.paths || opts.paths.length === 0) {
    d.collect(await d.walk(root, true, true), found);
  } else {
    for (const given of opts.paths) {
      // `~/` means the home folder (memory often lives in ~/.claude/projects/<p>/memory).
      const p = given === '~' || given.startsWith('~/') ? homedir() + given.slice(1) : given;
      if (isDynamicPattern(p)) {
        let matches: string[] = [];
        try {
          matches = await glob(p, {
            cwd: root,
            dot: true,
            absolute: true,
            onlyFiles: true,
            followSymbolicLinks: true,
            ignore: ['**/node_modules/**', '**/.git/**'],
          });
        } catch (e) {
          d.findings.push(linkFinding(p, `memory path ${p}: invalid glob (${(e as Error).message})`));
          continue;
        }
        if (matches.length === 0) {
          d.findings.push(linkFinding(p, `memory path ${p} matched no files`, { path: p }));
          continue;
        }
        for (const m of matches) {
          const abs = resolve(m);
          if (found.has(abs)) continue;
          const md = memoryDirOnDisk(abs, d.inRoot(abs) ? root : dirname(abs));
          const rel = d.inRoot(abs) ? d.display(abs) : toSlash(abs);
          let fmt: MemoryFormat | undefined;
          if (md && basename(abs) === 'MEMORY.md' && dirname(abs) === md) fmt = 'auto-memory-index';
          else if (md && isTopicFile(toSlash(relative(md, abs)))) fmt = formatOf(rel) ?? 'auto-memory-topic';
          else fmt = formatOf(rel) ?? 'other';
          const f: DiscoveredFile = { path: rel, absPath: abs, format: fmt };
          if (md && (fmt === 'auto-memory-index' || fmt === 'auto-memory-topic')) f.memoryDir = d.display(md);
          found.set(abs, f);
        }
        continue;
      }
      const abs = resolve(root, p);
      let isDir = false;
      try {
        isDir = (await stat(abs)).isDirectory();
      } catch {
        // missing, or a dangling symlink
        let dangling = false;
        try {
          const { lstat } = await import('node:fs/promises');
          dangling = (await lstat(abs)).isSymbolicLink();
        } catch {
          // missing
        }
        if (!dangling) {
          d.findings.push(linkFinding(d.display(abs), `memory path not found: ${p}`, { path: p }));
          continue;
        }
      }
      if (isDir) {
        const w = await d.walk(abs, false);
        // A folder holding MEMORY.md is an auto-memory folder; others are scanned for known names.
        if (existsSync(join(abs, 'MEMORY.md'))) w.memoryDirs.add(abs);
        d.collect(w, found);
        continue;
      }
      if (found.has(abs)) continue;
      const md = memoryDirOnDisk(abs, d.inRoot(abs) ? root : dirname(abs));
      const rel = d.inRoot(abs) ? d.display(abs) : toSlash(abs);
      let fmt: MemoryFormat;
      if (md && basename(abs) === 'MEMORY.md' && dirname(abs) === md) fmt = 'auto-memory-index';
      else if (md && isTopicFile(toSlash(relative(md, abs)))) fmt = formatOf(rel) ?? 'auto-memory-topic';
      else fmt = formatOf(rel) ?? 'other';
      const f: DiscoveredFile = { path: rel, absPath: abs, format: fmt };
      if (fmt === 'auto-memory-index' || fmt === 'auto-memory-topic') f.memoryDir = d.display(md!);
      found.set(abs, f);
    }
  }

  let files: DiscoveredFile[] = [];
  for (const f of found.values()) {
    if (d.userIgnored(f.absPath)) continue;
    // Awaited only for possible links: thousands of files otherwise pay a turn each for nothing.
    if (d.mayBeLinkOut(f.absPath) && !(await d.symlinkAllowed(f.absPath))) continue;
    files.push(f);
  }
  files = await d.withoutLinksToKnown(files);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  d.findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { files, findings: d.findings };
}

// ------------------------------------------------------------------ @imports

/**
 * Claude Code follows `@path` imports of CLAUDE.md-style files recursively, at most this many
 * hops from the file it loaded first (CLAUDE.md itself is hop 0; a file four imports away is
 * still loaded, a fifth is not). The `broken-link` check reports imports past it.
 */
export const MAX_IMPORT_HOPS = 4;

/**
 * At most this many files are loaded through imports in one audit. Import graphs are a handful
 * of files in practice; the bound keeps a pathological or generated graph from turning the
 * audit into a crawl of the repository. Past it, one finding names the first import left out.
 */
export const MAX_IMPORTED_FILES = 500;

/** Folders an import is never followed into: not the project's own text (and never pruned). */
const IMPORT_SKIP_SEGMENT = /(?:^|\/)(?:node_modules|\.git|\.hg|\.svn)(?:\/|$)/;

export type ImportResolution =
  /** A file inside the repository that is not memory yet: load it. */
  | { kind: 'new'; file: DiscoveredFile }
  /** Already memory (discovered, or imported before), possibly under another name (symlink, case). */
  | { kind: 'known'; path: string }
  /** Not followed: outside the repository, not Markdown, missing (other checks report those), or refused (finding). */
  | { kind: 'skip'; finding?: Finding };

/**
 * Resolves `@imports` to files (I/O on paths only, like discovery). Created once per audit and
 * only when some memory file holds an import: a repository without imports pays nothing.
 */
export class ImportResolver {
  private readonly d: Discoverer;
  private ready: Promise<void> | undefined;
  /** Absolute path -> memory path of every known file. */
  private readonly byAbs = new Map<string, string>();
  /** Real path -> memory path, built on the first import not found by its absolute path. */
  private byReal: Map<string, string> | undefined;

  constructor(
    readonly root: string,
    known: Iterable<{ path: string; absPath: string }>,
    ignoreGlobs?: string[],
  ) {
    this.d = new Discoverer(resolve(root), ignoreGlobs, undefined);
    for (const k of known) this.byAbs.set(k.absPath, k.path);
  }

  /**
   * `target` is the import as written without its `@` (`docs/x.md`, `./x.md`, `../x.md`,
   * `~/x.md`, `/abs/x.md`), relative to the folder of the importing file `fromAbs`. A new file
   * without a memory name of its own gets `format`: the format of the file the import chain
   * starts from (CLAUDE.md content for Claude Code, GEMINI.md content for Gemini CLI).
   */
  async resolve(fromAbs: string, target: string, format: MemoryFormat = 'claude-md'): Promise<ImportResolution> {
    // `~/…` (the home folder) and absolute paths lie outside the repository: Claude Code loads
    // them, but they are not the repository's to audit (pass them with --memory).
    if (target.startsWith('~') || isAbsolute(target)) return { kind: 'skip' };
    // Only Markdown is memory to parse: `@package.json` is loaded by Claude Code as it is, and
    // stays a reference (the path checks verify it exists).
    if (!/\.md$/i.test(target)) return { kind: 'skip' };
    const abs = resolve(dirname(fromAbs), target);
    if (!this.d.inRoot(abs)) return { kind: 'skip' };
    const rel = this.d.display(abs);
    if (IMPORT_SKIP_SEGMENT.test(rel)) return { kind: 'skip' };
    const hit = this.byAbs.get(abs);
    if (hit !== undefined) return { kind: 'known', path: hit };
    this.ready ??= this.d.init();
    await this.ready;
    try {
      if (!(await stat(abs)).isFile()) return { kind: 'skip' }; // a folder: not a file to load
    } catch {
      return { kind: 'skip' }; // missing or dangling: broken-link / path report the import
    }
    let real: string;
    try {
      real = await realpath(abs);
    } catch {
      return { kind: 'skip' };
    }
    // The same file under another name (a symlink, or other letter case on a case-insensitive
    // file system) is loaded once, under the name it was first known by.
    const byReal = await this.realIndex();
    const same = byReal.get(real);
    if (same !== undefined) {
      this.byAbs.set(abs, same);
      return { kind: 'known', path: same };
    }
    if (this.d.userIgnored(abs)) return { kind: 'skip' };
    if (!(await this.d.symlinkAllowed(abs))) return { kind: 'skip', finding: this.d.findings.pop() };
    const file: DiscoveredFile = { path: rel, absPath: abs, format: formatOf(rel) ?? format };
    this.byAbs.set(abs, rel);
    byReal.set(real, rel);
    return { kind: 'new', file };
  }

  private async realIndex(): Promise<Map<string, string>> {
    if (this.byReal) return this.byReal;
    const known = [...this.byAbs];
    const reals = await Promise.all(known.map(([abs]) => realpath(abs).catch(() => undefined))); // unreadable: reported by the reader
    const m = new Map<string, string>();
    // In the order the files were known (sorted discovery first): deterministic when two share a target.
    for (let i = 0; i < known.length; i++) {
      const r = reals[i];
      if (r !== undefined && !m.has(r)) m.set(r, known[i][1]);
    }
    this.byReal ??= m;
    return this.byReal;
  }
}
