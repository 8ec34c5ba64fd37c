// Finding the memory files of a repository. I/O only: walks folders, reads .gitignore files,
// expands globs; never reads memory content. Output is sorted by path, deterministic.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync, type Dirent } from 'node:fs';
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
  /**
   * Files named MEMORY.md that were not taken as auto memory (a design document such as
   * `docs/MEMORY.md`), with why. Not reported: such a file is as much memory as README.md.
   */
  notMemory: Array<{ path: string; reason: string }>;
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

// ------------------------------------------------------------------ which MEMORY.md is memory

/*
 * A file named MEMORY.md is not always agent memory: thousands of repositories keep a design
 * document of that name (`docs/MEMORY.md`, on a program's memory management). Taking its folder
 * for an auto-memory folder turned every document beside it into a topic file (broken-link
 * "never loads it" findings, `[corrected]` edits, a pruning log in docs/). So a folder holding
 * MEMORY.md is an auto-memory folder only when it is in a memory location (below `.claude/`, or
 * named with --memory / `memory:`), or when its content says so: MEMORY.md reads as an index,
 * or the files beside it carry the frontmatter Claude Code writes on topic files.
 */

/** Bytes of a candidate MEMORY.md read to judge it (an index is short; 25 KB is Claude's cut). */
const INDEX_SAMPLE_BYTES = 8192;
/** Bytes of a neighbouring Markdown file read for its frontmatter. */
const FRONTMATTER_SAMPLE_BYTES = 1024;
/** At most this many neighbouring Markdown files are read (by name) to judge a folder. */
const FRONTMATTER_SAMPLE_FILES = 16;

/**
 * Claude Code's memory locations: `.claude/memory/`, `.claude/agent-memory/<agent>/`, and
 * `~/.claude/projects/<slug>/memory/` all lie below a `.claude` folder, which is Claude Code's
 * own: a MEMORY.md there is Claude's, whatever it holds. `p` is repository-relative, or absolute
 * outside the repository (forward slashes).
 */
function inClaudeFolder(p: string): boolean {
  return /(?:^|\/)\.claude(?:\/|$)/.test(p);
}

/** The first `max` bytes of a file as text (the last, possibly cut, line dropped when cut), or undefined. */
function readHead(abs: string, max: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(abs, 'r');
    const buf = Buffer.allocUnsafe(max);
    const n = readSync(fd, buf, 0, max, 0);
    const text = buf.toString('utf8', 0, n);
    return n < max ? text : text.slice(0, Math.max(0, text.lastIndexOf('\n')));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A list item (`-`, `*`, `+`, `1.`, `1)`), with an optional task box. */
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
/** Markdown links (`[t](x.md)`, `[t](<x.md>)`) and wiki links (`[[name]]`). */
const LINK = /\]\(\s*<?([^)\s>]*)>?(?:\s+["'][^)]*)?\)|\[\[[^\]\n]+\]\]/g;

/**
 * Whether a link destination is a Markdown file inside the index's folder: relative, not a URL,
 * not leaving the folder (`../`), ending in `.md` (an `#anchor` allowed). Wiki links resolve to
 * `<name>.md` beside the index.
 */
function linksIntoFolder(line: string): boolean {
  LINK.lastIndex = 0;
  for (let m = LINK.exec(line); m; m = LINK.exec(line)) {
    if (m[1] === undefined) return true; // [[name]]
    let url = m[1];
    const hash = url.indexOf('#');
    if (hash >= 0) url = url.slice(0, hash);
    if (!/\.md$/i.test(url)) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('/') || url.startsWith('../') || url.includes('/../')) continue;
    return true;
  }
  return false;
}

/**
 * How a MEMORY.md reads: its content lines (not blank, not headings, rules, HTML comments or
 * frontmatter; lines indented below a list item belong to that item) and how many of them are
 * index lines — a list item (or table row) linking to a `.md` file in its folder, as Claude
 * Code writes them (`- [Title](file.md) — hook`). Prose paragraphs and code blocks are content
 * lines that are not index lines: a design document is mostly those.
 */
export function indexShape(text: string): { lines: number; indexLines: number } {
  const ls = text.split(/\r?\n/);
  let i = 0;
  // Frontmatter (closed within the sample) is not content.
  if (/^(?:---|\+\+\+)\s*$/.test(ls[0] ?? '')) {
    const fence = ls[0].trim();
    for (let j = 1; j < ls.length; j++)
      if (ls[j].trim() === fence) {
        i = j + 1;
        break;
      }
  }
  let lines = 0;
  let indexLines = 0;
  let inItem = false;
  let inComment = false;
  /** The open code fence (its marker run), if any: what is inside is code, never an index line. */
  let fence = '';
  for (; i < ls.length; i++) {
    const l = ls[i];
    if (fence) {
      if (!/^\s*$/.test(l)) lines++;
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(l);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) fence = '';
      continue;
    }
    if (inComment) {
      if (l.includes('-->')) inComment = false;
      continue;
    }
    if (/^\s*$/.test(l)) continue;
    const t = l.trimStart();
    if (t.startsWith('<!--')) {
      if (!t.includes('-->')) inComment = true;
      continue;
    }
    // Continuation and nested lines of a list item are part of it (a wrapped hook, a sub-point).
    if (inItem && (l.startsWith('  ') || l.startsWith('\t'))) continue;
    inItem = false;
    if (/^ {0,3}#{1,6}(?:\s|$)/.test(l) || /^ {0,3}(?:[-=_*]\s*){3,}$/.test(l)) continue; // headings, rules, setext underlines
    if (/^ {0,3}\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(l)) continue; // a table's delimiter row
    lines++;
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(l);
    if (open) {
      fence = open[1];
      continue;
    }
    if (LIST_ITEM.test(l)) {
      inItem = true;
      if (linksIntoFolder(l)) indexLines++;
    } else if (t.startsWith('|') && linksIntoFolder(l)) indexLines++;
  }
  return { lines, indexLines };
}

/**
 * Whether a file starts with the frontmatter Claude Code writes on auto-memory topic files
 * (`name`, `description` and `type`, flat or nested one level as under `metadata:`).
 */
export function hasMemoryFrontmatter(text: string): boolean {
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text.startsWith('\ufeff') ? text.slice(1) : text);
  if (!m) return false;
  const keys = new Set<string>();
  for (const line of m[1].split(/\r?\n/)) {
    const k = /^(?: {0,4})(name|description|type)[ \t]*:/.exec(line);
    if (k) keys.add(k[1]);
  }
  return keys.size === 3;
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
   * repository and would have been memory (its target is an auto-memory folder or holds a known
   * memory file, or the link sits in a Claude / Cursor / Copilot memory location), say so: a finding naming
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
        // A MEMORY.md there counts only when it makes its folder auto memory (not a design document).
        memory = (await readdir(target)).some(
          (n) => MEMORY_NAMES.has(n) && (n !== 'MEMORY.md' || this.isMemoryDir(target, () => markdownIn(target))),
        );
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

  /** Folder (absolute) holding MEMORY.md -> whether it is an auto-memory folder: judged once per run. */
  private readonly verdicts = new Map<string, boolean>();
  /** MEMORY.md files judged not to be memory, with why (sorted by path at the end). */
  readonly notMemory: Array<{ path: string; reason: string }> = [];

  /** A folder named explicitly (--memory, `memory:`) is an auto-memory folder whatever its MEMORY.md holds. */
  trust(dir: string): void {
    this.verdicts.set(dir, true);
  }

  /**
   * Whether `dir`, a folder holding MEMORY.md, is an auto-memory folder. `siblings` lists its
   * other Markdown files (absolute), asked for only when MEMORY.md does not read as an index.
   */
  isMemoryDir(dir: string, siblings: () => string[]): boolean {
    let v = this.verdicts.get(dir);
    if (v === undefined) this.verdicts.set(dir, (v = this.judge(dir, siblings)));
    return v;
  }

  private judge(dir: string, siblings: () => string[]): boolean {
    const shown = this.inRoot(dir) ? this.display(dir) : toSlash(dir);
    if (inClaudeFolder(shown)) return true;
    const text = readHead(join(dir, 'MEMORY.md'), INDEX_SAMPLE_BYTES);
    // Unreadable (a dangling link...): as before, the reader reports it as memory that could not be read.
    if (text === undefined) return true;
    const { lines, indexLines } = indexShape(text);
    // Mostly lines linking to files beside it: an index, as Claude Code writes MEMORY.md.
    if (lines > 0 && indexLines * 2 > lines) return true;
    // Otherwise the files beside it decide: Claude Code writes every topic file with a
    // `name` / `description` / `type` frontmatter; documentation has none of that. Only the
    // first few (by name) are read, and only their first KB.
    const names = siblings()
      .filter((abs) => {
        const base = basename(abs);
        return base !== 'MEMORY.md' && !/^pruning-log\.md$/i.test(base) && formatOf(base) === undefined;
      })
      .sort();
    const n = Math.min(names.length, FRONTMATTER_SAMPLE_FILES);
    let yes = 0;
    let no = 0;
    for (let k = 0; k < n; k++) {
      const head = readHead(names[k], FRONTMATTER_SAMPLE_BYTES);
      if (head !== undefined && hasMemoryFrontmatter(head)) yes++;
      else no++;
      if (yes * 2 > n) return true;
      if (no * 2 >= n) break;
    }
    const file = shown === '.' ? 'MEMORY.md' : `${shown}/MEMORY.md`;
    this.notMemory.push({
      path: file,
      reason:
        `${file} reads as a document, not a memory index (${indexLines} of its ${lines} lines link to a Markdown file beside it)` +
        (n > 0 ? ` and the Markdown files beside it carry no memory frontmatter (name, description, type)` : '') +
        ', and it is not in a memory location; its folder is not auto memory',
    });
    return false;
  }

  /**
   * Keeps the folders of `w.memoryDirs` that are auto-memory folders. The walk records every
   * folder holding a file named MEMORY.md; each is judged once (see isMemoryDir).
   */
  confirmMemoryDirs(w: Walked): void {
    if (w.memoryDirs.size === 0) return;
    let byDir: Map<string, string[]> | undefined;
    const siblings = (dir: string): string[] => {
      // Built once, and only when some MEMORY.md does not read as an index.
      if (!byDir) {
        byDir = new Map();
        for (const abs of w.markdown) {
          const d = dirname(abs);
          if (!w.memoryDirs.has(d)) continue;
          const l = byDir.get(d);
          if (l) l.push(abs);
          else byDir.set(d, [abs]);
        }
      }
      return byDir.get(dir) ?? [];
    };
    for (const dir of [...w.memoryDirs].sort()) if (!this.isMemoryDir(dir, () => siblings(dir))) w.memoryDirs.delete(dir);
  }

  /**
   * The auto-memory folder a file belongs to, looking upwards to `stop`: the nearest folder
   * holding a MEMORY.md that makes it one (a design document's folder is passed over).
   */
  memoryDirAbove(abs: string, stop: string): string | undefined {
    let d = dirname(abs);
    for (;;) {
      if (existsSync(join(d, 'MEMORY.md')) && this.isMemoryDir(d, () => markdownIn(d))) return d;
      if (d === stop) return undefined;
      const up = dirname(d);
      if (up === d) return undefined;
      d = up;
    }
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
      // A MEMORY.md whose folder is not auto memory (confirmMemoryDirs) is not memory at all.
      const md = basename(abs) === 'MEMORY.md' && w.memoryDirs.has(dirname(abs)) ? dirname(abs) : undefined;
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

/** The Markdown files directly in a folder (absolute), for judging a MEMORY.md named on its own. */
function markdownIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => !e.isDirectory() && /\.md$/i.test(e.name))
      .map((e) => join(dir, e.name));
  } catch {
    return [];
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
    const w = await d.walk(root, true, true);
    d.confirmMemoryDirs(w);
    d.collect(w, found);
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
          const md = d.memoryDirAbove(abs, d.inRoot(abs) ? root : dirname(abs));
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
        // A folder named explicitly holding MEMORY.md is an auto-memory folder, whatever its
        // MEMORY.md holds; folders below it with their own MEMORY.md are judged as in detection;
        // others are scanned for known names.
        if (existsSync(join(abs, 'MEMORY.md'))) {
          w.memoryDirs.add(abs);
          d.trust(abs);
        }
        d.confirmMemoryDirs(w);
        d.collect(w, found);
        continue;
      }
      if (found.has(abs)) continue;
      // A MEMORY.md named explicitly makes its folder an auto-memory folder (you said it is memory).
      if (basename(abs) === 'MEMORY.md') d.trust(dirname(abs));
      const md = d.memoryDirAbove(abs, d.inRoot(abs) ? root : dirname(abs));
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
  const notMemory = d.notMemory.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, findings: d.findings, notMemory };
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
