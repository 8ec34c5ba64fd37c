// The manifest index: dependencies, scripts, targets, recipes, workspaces, runtimes and
// project versions at HEAD (read from the working tree), plus their history: which commit
// added or removed every dependency and script, read from the blobs the single log pass
// saw change (one `git cat-file --batch` process for all of them).
import type {
  CommitInfo,
  DependencyVersionEvent,
  FileIndex,
  HistoryIndex,
  ManifestDependency,
  ManifestIndex,
  PackageHistoryEvent,
  ScriptHistoryEvent,
} from '../types.js';
import { BlobStream, readBlobs } from './git.js';
import { LINK_OUT, MISSING, RepoReader } from './repo-file.js';
import type { LogChange } from './history.js';
import { NULL_BLOB } from './history.js';
import { hasHistory, isLockfile, manifestKind, NX_NAME_KEY, SKIP_SEGMENT, TASKFILE_NAMES, type AnyManifestKind } from './manifests/kinds.js';
import { parseLockfile, type LockIndex } from './manifests/lockfiles.js';
import { addLockfile, emptyLockGraph, LOCK_GRAPH_FILES, type LockGraph } from './manifests/lock-graph.js';
import { isMakePattern, makeTargets, parseManifest, parseTaskfile, readMakeParts, type MakeParts, type ParsedManifest } from './manifests/parse.js';

export { manifestKind } from './manifests/kinds.js';
export { parseManifest } from './manifests/parse.js';

/** Files larger than this are not parsed (reported as a problem). */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

export interface ManifestChange {
  commit: CommitInfo;
  kind: AnyManifestKind;
  status: string;
  src: string;
  dst?: string;
  srcBlob: string;
  dstBlob: string;
}

/**
 * Hooked into the log pass: remembers every change to a manifest whose history matters and,
 * when given the repository, streams each new blob to one `git cat-file --batch` process
 * while the log is still running, parsing it into a small summary as it arrives.
 */
export class ManifestChangeCollector {
  readonly changes: ManifestChange[] = [];
  readonly summaries = new Map<string, Summary | null>();
  private readonly kindOfBlob = new Map<string, { kind: AnyManifestKind; path: string }>();
  private readonly stream: BlobStream | null;
  private readonly interned = new Map<string, string>();
  private readonly intern = (s: string): string => {
    const hit = this.interned.get(s);
    if (hit !== undefined) return hit;
    this.interned.set(s, s);
    return s;
  };

  constructor(
    private readonly prefix = '',
    private readonly gitRoot?: string,
  ) {
    this.stream = gitRoot ? new BlobStream(gitRoot, (id, text) => this.summaries.set(id, this.summarizeBlob(id, text)), MAX_MANIFEST_BYTES) : null;
  }

  private summarizeBlob(id: string, text: string | null): Summary | null {
    const k = this.kindOfBlob.get(id);
    if (!k || text === null || text.length > MAX_MANIFEST_BYTES) return null;
    return summarize(parseManifest(k.kind, k.path, text), this.intern);
  }

  private want(id: string, kind: AnyManifestKind, path: string): void {
    if (!id || NULL_BLOB.test(id) || this.kindOfBlob.has(id)) return;
    this.kindOfBlob.set(id, { kind, path });
    this.stream?.request(id);
  }

  private add(c: ManifestChange): void {
    this.changes.push(c);
    if (c.status !== 'A') this.want(c.srcBlob, c.kind, c.src);
    if (c.status !== 'D') this.want(c.dstBlob, c.kind, c.dst ?? c.src);
  }

  onChange = (commit: CommitInfo, ch: LogChange): void => {
    const p = this.prefix;
    const rel = (x: string | undefined) => (x === undefined ? undefined : !p ? x : x.startsWith(p) ? x.slice(p.length) : undefined);
    const src = rel(ch.src);
    const dst = rel(ch.dst);
    const target = dst ?? src;
    if (target === undefined) return;
    const kind = manifestKind(target) ?? (src !== undefined ? manifestKind(src) : undefined);
    if (!kind || !hasHistory(kind)) return;
    if (ch.status === 'R' && (src === undefined || dst === undefined)) {
      // renamed across the root boundary: an add or a delete from our point of view
      if (dst !== undefined) this.add({ commit, kind, status: 'A', src: dst, srcBlob: '0', dstBlob: ch.dstBlob });
      else if (src !== undefined) this.add({ commit, kind, status: 'D', src, srcBlob: ch.srcBlob, dstBlob: '0' });
      return;
    }
    if (ch.status === 'C') {
      if (dst !== undefined) this.add({ commit, kind, status: 'A', src: dst, srcBlob: '0', dstBlob: ch.dstBlob });
      return;
    }
    if (src === undefined) return;
    this.add({ commit, kind, status: ch.status, src, dst, srcBlob: ch.srcBlob, dstBlob: ch.dstBlob });
  };

  /** Waits for (or, without streaming, reads) every blob. */
  async finish(): Promise<{ blobs: number; problems: string[] }> {
    const problems: string[] = [];
    if (this.stream) {
      const r = await this.stream.end();
      if (r.code !== 0) problems.push(`git cat-file --batch failed: ${r.stderr.trim()}`);
    } else if (this.gitRoot === undefined && this.kindOfBlob.size) {
      problems.push('manifest history needs the repository root');
    }
    return { blobs: this.kindOfBlob.size, problems };
  }

  /** Reads blobs in one batch after the fact (no streaming). */
  async readAll(gitRoot: string): Promise<void> {
    const ids = [...this.kindOfBlob.keys()].filter((id) => !this.summaries.has(id));
    await readBlobs(gitRoot, ids, (id, text) => this.summaries.set(id, this.summarizeBlob(id, text)), MAX_MANIFEST_BYTES);
  }
}

export function emptyManifestIndex(): ManifestIndex {
  return {
    dependencies: new Map(),
    everDependencies: new Map(),
    scripts: new Map(),
    makeTargets: new Map(),
    justRecipes: new Map(),
    scriptHistory: new Map(),
    workspaces: new Map(),
    runtimes: new Map(),
    projectVersions: [],
    problems: [],
    dependencyVersions: new Map(),
    everProjectNames: new Map(),
    runtimeAll: [],
    pythonClassifiers: new Map(),
    scriptCommands: new Map(),
    workspaceGlobs: [],
    catalogs: new Map(),
    manifestFiles: new Map(),
    lockfiles: [],
    goModules: new Map(),
  };
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const depth = (p: string) => (p.match(/\//g) ?? []).length;

async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export { LINK_OUT };

/** Runtime files are less authoritative than manifest fields of the same folder. */
// setup.py's `python_requires` is read after pyproject.toml's `requires-python` (which setuptools
// prefers when both are written), setup.cfg's after setup.py's (whose keywords override it).
const RUNTIME_FILE_ORDER: Record<string, number> = { 'package.json': 0, '.nvmrc': 1, '.node-version': 2, '.python-version': 1, pyproject: 0, 'setup-py': 0.2, 'setup-cfg': 0.4, '.tool-versions': 3 };

/** Lockfiles read for the lock graph at most (the shallowest first), and the npm-family text kept for it. */
const MAX_LOCK_GRAPH_FILES = 200;
const MAX_LOCK_GRAPH_PENDING = 64 * 1024 * 1024;

/**
 * The lockfiles' installed names and dependency edges (lock-graph.ts). Gemfile.lock, Cargo.lock,
 * poetry.lock, uv.lock and composer.lock are read and scanned here (line scanners: cheap, no text
 * kept). The npm-family lockfiles, read as manifests already, are parsed on first use only: a
 * large package-lock.json costs a full JSON parse, and only a dependency found removed asks
 * (whether it is still installed, and through what); their text is kept meanwhile, the shallowest
 * first, up to a budget. One that cannot be read adds nothing (the npm ones are reported as
 * manifest problems; the others are no manifests, and say nothing worth a note).
 */
async function lockGraphOf(reader: RepoReader, files: FileIndex, found: Array<{ file: string }>, texts: Array<{ text?: string; error?: string }>): Promise<() => LockGraph> {
  const graph = emptyLockGraph();
  const pending: Array<{ base: string; text: string }> = [];
  let kept = 0;
  const seen = new Set<string>();
  found.forEach(({ file }, i) => {
    const base = file.slice(file.lastIndexOf('/') + 1);
    const t = texts[i]!;
    if (!LOCK_GRAPH_FILES.has(base) || t.text === undefined) return;
    seen.add(file);
    if (seen.size > MAX_LOCK_GRAPH_FILES || kept + t.text.length > MAX_LOCK_GRAPH_PENDING) return;
    kept += t.text.length;
    pending.push({ base, text: t.text });
  });
  const others: string[] = [];
  for (const f of files.files)
    if ((f.endsWith('.lock') || f.endsWith('.json') || f.endsWith('.locked')) && !seen.has(f) && LOCK_GRAPH_FILES.has(f.slice(f.lastIndexOf('/') + 1)) && !SKIP_SEGMENT.test(f)) others.push(f);
  others.sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
  await mapLimit(others.slice(0, Math.max(0, MAX_LOCK_GRAPH_FILES - pending.length)), 4, async (f) => {
    const t = await reader.read(f);
    if ('text' in t) addLockfile(graph, f.slice(f.lastIndexOf('/') + 1), t.text);
  });
  return () => {
    for (const { base, text } of pending.splice(0)) addLockfile(graph, base, text);
    return graph;
  };
}

/** Reads and indexes every manifest at HEAD (working tree). */
export async function readHeadManifests(root: string, files: FileIndex, into = emptyManifestIndex()): Promise<ManifestIndex> {
  const idx = into;
  const found: Array<{ file: string; kind: AnyManifestKind }> = [];
  for (const f of files.files) {
    const kind = manifestKind(f);
    if (kind) found.push({ file: f, kind });
  }
  found.sort((a, b) => depth(a.file) - depth(b.file) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const reader = new RepoReader(root, MAX_MANIFEST_BYTES);
  const texts: Array<{ text?: string; error?: string }> = await mapLimit(found, 32, ({ file }) => reader.read(file));
  const locks: LockIndex[] = [];
  const parsed: Array<{ file: string; p: ParsedManifest }> = [];
  found.forEach(({ file, kind }, i) => {
    const t = texts[i]!;
    if ('error' in t) {
      if (t.error !== MISSING) idx.problems.push({ file, message: t.error! });
      return;
    }
    idx.manifestFiles!.set(file, kind);
    if (isLockfile(kind)) {
      const r = parseLockfile(kind as 'package-lock' | 'pnpm-lock' | 'yarn-lock', file, t.text!);
      if (r.problem) idx.problems.push({ file, ...r.problem });
      if (r.lock) {
        locks.push(r.lock);
        idx.lockfiles!.push(file);
      }
      return;
    }
    const p = parseManifest(kind, file, t.text!);
    for (const pr of p.problems) idx.problems.push({ file, ...pr });
    parsed.push({ file, p });
  });
  idx.lockGraph = await lockGraphOf(reader, files, found, texts);
  const makeSets = await makeTargetSets(reader, files, parsed, idx.problems);
  await readTaskTables(reader, files, parsed, taskTables(idx), idx.problems);
  // nearest lockfile first
  locks.sort((a, b) => depth(b.file) - depth(a.file));
  const runtimeCands: Array<{ name: string; spec: string; source: string; rank: number }> = [];
  for (const { file, p } of parsed) {
    const dir = dirOf(file);
    for (const d of p.deps) {
      const dep: ManifestDependency = { name: d.name, spec: d.spec, manifest: file, field: d.field };
      if (p.kind === 'package.json') {
        for (const l of locks) {
          const v = l.lookup(dir, d.name, d.spec);
          if (v) {
            dep.locked = v;
            break;
          }
        }
      }
      const key = d.name.toLowerCase();
      const list = idx.dependencies.get(key);
      if (list) list.push(dep);
      else idx.dependencies.set(key, [dep]);
      // Another spelling of a declared name: declared, but not a dependency history follows.
      if (d.presence) continue;
      // Every dependency at HEAD is an "ever" dependency, even without history.
      if (!idx.everDependencies.has(key)) idx.everDependencies.set(key, []);
    }
    if (p.name && (p.kind === 'package.json' || p.kind === 'pyproject' || p.kind === 'cargo' || p.kind === 'go.mod' || p.kind === 'setup-py' || p.kind === 'setup-cfg')) {
      const n = p.name.toLowerCase();
      if (!idx.everProjectNames!.has(n)) idx.everProjectNames!.set(n, []);
    }
    if (p.scripts && (p.kind === 'package.json' || p.scripts.size)) {
      idx.scripts.set(file, new Set(p.scripts.keys()));
      idx.scriptCommands!.set(file, p.scripts);
    }
    if (p.targets) idx.makeTargets.set(file, makeSets.get(file) ?? new Set(p.targets));
    if (p.recipes) idx.justRecipes.set(file, new Set(p.recipes));
    if (p.gradleProjects) {
      const paths = new Set(p.gradleProjects.paths);
      const ancestors = new Set<string>();
      for (const x of paths) for (let k = x.indexOf(':', 1); k > 0; k = x.indexOf(':', k + 1)) if (!paths.has(x.slice(0, k))) ancestors.add(x.slice(0, k));
      (idx.gradleSettings ??= new Map()).set(file, { paths, ancestors, open: p.gradleProjects.open });
    }
    if (p.kind === 'pyproject') pythonRunners(idx).set(file, new Set(p.runners?.keys() ?? []));
    if (p.version !== undefined && p.kind !== 'runtime-file') idx.projectVersions.push({ name: p.name, version: p.version, manifest: file });
    if (p.name && dir !== '' && (p.kind === 'package.json' || p.kind === 'cargo' || p.kind === 'pyproject' || p.kind === 'setup-py' || p.kind === 'setup-cfg')) {
      if (!idx.workspaces.has(p.name)) idx.workspaces.set(p.name, dir);
    }
    if (p.workspaces) for (const g of p.workspaces) idx.workspaceGlobs!.push({ glob: g, source: file });
    if (p.catalogs) for (const [name, m] of p.catalogs) idx.catalogs!.set(name, m);
    if (p.goModule) idx.goModules!.set(p.goModule, file);
    if (p.classifiers) idx.pythonClassifiers!.set(file, p.classifiers);
    if (p.runtimes) {
      const base = file.slice(file.lastIndexOf('/') + 1);
      const rank = depth(file) * 10 + (RUNTIME_FILE_ORDER[base] ?? RUNTIME_FILE_ORDER[p.kind] ?? 5);
      for (const r of p.runtimes) runtimeCands.push({ ...r, source: file, rank });
    }
  }
  runtimeCands.sort((a, b) => a.rank - b.rank);
  for (const r of runtimeCands) {
    idx.runtimeAll!.push({ name: r.name, spec: r.spec, source: r.source });
    if (!idx.runtimes.has(r.name)) idx.runtimes.set(r.name, { spec: r.spec, source: r.source });
  }
  monorepoTasks(idx, parsed);
  // A file read both as a manifest and as an include (`common.mk`, a makefile of its own that the
  // Makefile includes) says its problem once.
  const said = new Set<string>();
  idx.problems = idx.problems.filter((pr) => {
    const key = `${pr.file}\0${pr.line ?? ''}\0${pr.message}`;
    return !said.has(key) && !!said.add(key);
  });
  return idx;
}

/**
 * Turborepo and Nx at HEAD: every turbo.json's task keys (`turboTasks`), and, when an nx.json
 * was read, the Nx projects (`nx`). Nx names a project by its project.json `name`, else by its
 * package.json (`nx.name`, else `name`); a project.json without a name is also known by its
 * folder's name and its path with `-` for `/` (how Nx derives one), so that no project is
 * missed. A project's targets: project.json `targets`, package.json `nx.targets` and scripts
 * (Nx runs a package's scripts as targets). A package.json beside a project.json is the same
 * project. The shallowest nx.json is the workspace's.
 */
function monorepoTasks(idx: ManifestIndex, parsed: Array<{ file: string; p: ParsedManifest }>): void {
  const pkgs = new Map<string, ParsedManifest>();
  const projectFiles: Array<{ file: string; p: ParsedManifest }> = [];
  for (const { file, p } of parsed) {
    if (p.kind === 'turbo' && p.tasks) (idx.turboTasks ??= new Map()).set(file, new Set(p.tasks.keys()));
    else if (p.kind === 'nx' && p.nxConfig && !idx.nx) idx.nx = { config: file, plugins: p.nxConfig.plugins, targetDefaults: new Set(p.nxConfig.targetDefaults), projects: new Map() };
    else if (p.kind === 'package.json') pkgs.set(dirOf(file), p);
    else if (p.kind === 'nx-project') projectFiles.push({ file, p });
  }
  const nx = idx.nx;
  if (!nx) return;
  const add = (name: string | undefined, dir: string, manifest: string, targets: Set<string>) => {
    if (name && !nx.projects.has(name)) nx.projects.set(name, { dir, manifest, targets });
  };
  const pkgTargets = (pkg: ParsedManifest | undefined, into: Set<string>) => {
    for (const k of pkg?.scripts?.keys() ?? []) into.add(k);
    for (const k of pkg?.nxTargets ?? []) into.add(k);
    return into;
  };
  const withProject = new Set<string>();
  for (const { file, p } of projectFiles) {
    const dir = dirOf(file);
    withProject.add(dir);
    const pkg = pkgs.get(dir);
    const targets = pkgTargets(pkg, new Set(p.tasks?.keys() ?? []));
    if (p.nxName) add(p.nxName, dir, file, targets);
    else {
      add(pkg?.nxName ?? pkg?.name, dir, file, targets);
      if (dir) {
        add(dir.slice(dir.lastIndexOf('/') + 1), dir, file, targets);
        add(dir.replace(/\//g, '-'), dir, file, targets);
      }
    }
  }
  for (const [dir, pkg] of pkgs) if (!withProject.has(dir)) add(pkg.nxName ?? pkg.name, dir, joinDir(dir, 'package.json'), pkgTargets(pkg, new Set()));
}

// ------------------------------------------------------------------ Python runners

const runnerTables = new WeakMap<ManifestIndex, Map<string, Set<string>>>();

/**
 * pyproject.toml / hatch.toml read at HEAD -> the names their Python runners define, as
 * `<runner> <name>`: `hatch <env>:<script>` (inherited scripts included), `poe <task>`,
 * `pdm <script>`, `entry <name>` (`[project.scripts]`, `gui-scripts`, `[tool.poetry.scripts]`);
 * `<runner> ?` when that runner's table is open. Every file read is listed, with no names when
 * it defines none. Their history is in `scriptHistory` under the same names.
 */
export function pythonRunners(idx: ManifestIndex): Map<string, Set<string>> {
  let m = runnerTables.get(idx);
  if (!m) runnerTables.set(idx, (m = new Map()));
  return m;
}

// ------------------------------------------------------------------ Composer, Deno, go-task

/** The tasks a task runner's file defines at HEAD (see `taskTables`). */
export interface TaskTable {
  tool: 'composer' | 'deno' | 'task';
  /**
   * Names defined: composer.json scripts and script aliases, deno.json tasks, a Taskfile's tasks
   * and task aliases plus, through its includes, `ns:task` (and `ns` when `ns:default` exists).
   */
  names: Set<string>;
  /** No name can be said missing: a Deno workspace member (its workspace's tasks are not read). */
  open: boolean;
  /**
   * Taskfile: namespaces (`ns:`) of includes the index could not read (a `{{.VAR}}` path, a remote
   * Taskfile, a file not in the work tree): every name under them counts as defined. `''` (a
   * flattened include not read) opens the whole table.
   */
  openPrefixes: string[];
  /**
   * Taskfile: its wildcard tasks (`start:*`, namespaced ones included), as one matcher (linear
   * time in the name: see `Wildcard`).
   */
  pattern?: NameMatcher;
  /**
   * The files whose own names make up the table, with the prefix their names are called with
   * (`''`: the file itself and flattened includes; `docs:` for `includes: { docs: ./docs }`):
   * their history is each file's own.
   */
  sources: Array<{ prefix: string; file: string }>;
}

const taskTablesOf = new WeakMap<ManifestIndex, Map<string, TaskTable>>();

/** composer.json / deno.json(c) / Taskfile read at HEAD -> what it defines (absent: the file could not be read). */
export function taskTables(idx: ManifestIndex): Map<string, TaskTable> {
  let m = taskTablesOf.get(idx);
  if (!m) taskTablesOf.set(idx, (m = new Map()));
  return m;
}

/** Whether a table defines `name` (or cannot tell that it does not). */
export function taskNameDefined(t: TaskTable, name: string): boolean {
  if (t.open || t.names.has(name)) return true;
  for (const p of t.openPrefixes) if (name.startsWith(p)) return true;
  return t.pattern !== undefined && t.pattern.test(name);
}

/** Files one Taskfile may include (nested includes counted): beyond, the rest are open namespaces. */
const MAX_TASK_INCLUDES = 256;

/**
 * The file an include names (relative to the including Taskfile's folder; a folder means the
 * Taskfile Task looks for in it), or `null` when the index cannot read it: a template
 * (`{{.DIR}}/x.yml`), a variable, a URL or Git remote, an absolute or home path, a path
 * outside the repository or not in the work tree.
 */
function taskInclude(files: FileIndex, dir: string, written: string | undefined): string | null {
  if (!written || /[{$]|:\/\/|^git@|^[/~]/.test(written)) return null;
  const p = joinRel(dir, written);
  if (p === null) return null;
  if (files.files.has(p)) return p;
  if (p === '' || files.dirs.has(p)) {
    for (const n of TASKFILE_NAMES) if (files.files.has(joinDir(p, n))) return joinDir(p, n);
  }
  return null;
}

const joinDir = (d: string, f: string) => (d ? `${d}/${f}` : f);

/** go-task's wildcard: `*` stands for any text. */
function taskWildcard(name: string): Wildcard {
  const w = new Wildcard();
  name.split('*').forEach((lit, i) => {
    if (i) w.any(0);
    w.lit(lit);
  });
  return w;
}

/** Tests names against patterns (`taskNameDefined`, `TaskTable.pattern`). */
export interface NameMatcher {
  test(name: string): boolean;
}

/**
 * A wildcard pattern matched in linear time: literal pieces with, between them, wildcards
 * standing for any text of at least some length (go-task's `*`: 0; make's `%`: 1, an unresolved
 * `$(V)`: 0). Patterns come from repository files and names from memory files: a backtracking
 * regular expression (`^(?:.*-.*-…)$`) would take exponential time on a name that almost
 * matches. Greedy-leftmost is exact here: the first piece must start the name, the last end it,
 * and each middle piece is best taken at its earliest place past the wildcards before it (an
 * earlier end never leaves less room for what follows). Adjacent wildcards are one (their
 * minimum lengths add up).
 */
class Wildcard implements NameMatcher {
  /** Literal pieces: `lits.length === mins.length + 1` (a piece may be empty). */
  readonly lits: string[] = [''];
  /** The minimum length of the wildcard after `lits[i]`. */
  readonly mins: number[] = [];

  lit(s: string): void {
    this.lits[this.lits.length - 1] += s;
  }

  any(min: number): void {
    const last = this.lits.length - 1;
    // `**`, `%$(V)`: one wildcard of the summed minimum length.
    if (this.mins.length && this.lits[last] === '') this.mins[this.mins.length - 1] += min;
    else {
      this.mins.push(min);
      this.lits.push('');
    }
  }

  /** Some literal text: evidence that a name is defined, not only that nothing says otherwise. */
  get literal(): boolean {
    return this.lits.some((l) => l !== '');
  }

  test(name: string): boolean {
    const { lits, mins } = this;
    if (!mins.length) return name === lits[0];
    const first = lits[0]!;
    const last = lits[lits.length - 1]!;
    const end = name.length - last.length;
    if (end < first.length || !name.startsWith(first) || !name.endsWith(last)) return false;
    let pos = first.length;
    for (let i = 1; i < lits.length - 1; i++) {
      pos += mins[i - 1]!;
      const at = name.indexOf(lits[i]!, pos);
      if (at < 0 || at + lits[i]!.length > end) return false;
      pos = at + lits[i]!.length;
    }
    return pos + mins[mins.length - 1]! <= end;
  }
}

/** Matches a name when any of its patterns does. */
function anyOf(ws: Wildcard[]): NameMatcher {
  return { test: (name) => ws.some((w) => w.test(name)) };
}

/**
 * The task tables at HEAD (`taskTables`): composer.json scripts and deno.json tasks as parsed
 * (a deno.json below one that declares a `workspace` is a member: open), and every Taskfile with
 * its includes followed (nested, each included file read once per audit, from the work tree when
 * it is no Taskfile by name).
 */
async function readTaskTables(
  reader: RepoReader,
  files: FileIndex,
  parsed: Array<{ file: string; p: ParsedManifest }>,
  out: Map<string, TaskTable>,
  problems: ManifestIndex['problems'],
): Promise<void> {
  const taskfiles = new Map<string, ParsedManifest>();
  const denoWorkspaces = new Set<string>();
  for (const { file, p } of parsed) {
    if (!p.tasks) continue;
    if (p.kind === 'composer' || p.kind === 'deno') {
      out.set(file, { tool: p.kind === 'composer' ? 'composer' : 'deno', names: new Set(p.tasks.keys()), open: false, openPrefixes: [], sources: [{ prefix: '', file }] });
      if (p.denoWorkspace) denoWorkspaces.add(dirOf(file));
    } else if (p.kind === 'taskfile') taskfiles.set(file, p);
  }
  // A Deno workspace member: which of the workspace's tasks it runs is not guessed.
  if (denoWorkspaces.size) {
    for (const [file, t] of out) {
      if (t.tool !== 'deno') continue;
      for (let d = dirOf(file); d !== ''; ) {
        d = dirOf(d);
        if (denoWorkspaces.has(d)) {
          t.open = true;
          break;
        }
      }
    }
  }
  if (!taskfiles.size) return;
  const reads = new Map<string, Promise<ParsedManifest | null>>();
  const load = (f: string): Promise<ParsedManifest | null> => {
    const known = taskfiles.get(f);
    if (known) return Promise.resolve(known);
    let r = reads.get(f);
    if (!r) {
      r = (async () => {
        const t = await reader.read(f);
        if ('error' in t) {
          if (t.error === LINK_OUT) problems.push({ file: f, message: t.error });
          return null;
        }
        try {
          const p = parseTaskfile(t.text);
          return p.tasks ? p : null;
        } catch {
          return null;
        }
      })();
      reads.set(f, r);
    }
    return r;
  };
  await mapLimit([...taskfiles], 8, async ([file, top]) => {
    // One table failing (whatever the input did) is a problem naming its Taskfile; the others
    // and the run go on. Its table is left absent: nothing is said of its names.
    try {
      out.set(file, await taskTable(file, top, files, load));
    } catch (err) {
      problems.push({ file, message: `task table not read: ${(err as Error).message}` });
    }
  });
}

/**
 * Names and prefixes one Taskfile's table may hold. Include aliases multiply namespaces at every
 * level (six chained includes with 30 aliases each name 31^5 prefixes), which no real Taskfile
 * needs: past either cap the namespaces below are open (every name under them counts as
 * defined, as for an include not read), and past the cap of open prefixes the whole table is.
 */
const MAX_TASK_NAMES = 100_000;
const MAX_TASK_PREFIXES = 1_000;

/** One Taskfile's table, its includes followed (see `readTaskTables`, `TaskTable`). */
async function taskTable(file: string, top: ParsedManifest, files: FileIndex, load: (f: string) => Promise<ParsedManifest | null>): Promise<TaskTable> {
  const t: TaskTable = { tool: 'task', names: new Set(), open: false, openPrefixes: [], sources: [] };
  const patterns: string[] = [];
  let count = 0;
  let prefixCount = 0;
  // Namespaces not followed: all they hold counts as defined (`''`: everything). Past the cap
  // the whole table is open and nothing more is read (`all`).
  let all = false;
  const openUnder = (prefixes: readonly string[]) => {
    if (all) return;
    if (t.openPrefixes.length + prefixes.length > MAX_TASK_PREFIXES) {
      t.openPrefixes = [''];
      all = true;
    } else t.openPrefixes.push(...prefixes);
  };
  const visit = async (f: string, p: ParsedManifest, prefixes: string[], seen: ReadonlySet<string>) => {
    if (all) return;
    const own = p.tasks!.size + (p.taskPatterns?.length ?? 0);
    if (t.names.size + patterns.length + prefixes.length * own > MAX_TASK_NAMES) {
      openUnder(prefixes);
      return;
    }
    for (const pre of prefixes) {
      t.sources.push({ prefix: pre, file: f });
      for (const n of p.tasks!.keys()) t.names.add(pre + n);
      for (const n of p.taskPatterns ?? []) patterns.push(pre + n);
    }
    for (const inc of p.taskIncludes ?? []) {
      if (all) return;
      // A flattened include's tasks are called without its namespace.
      const width = inc.flatten ? prefixes.length : prefixes.length * (1 + inc.aliases.length);
      if (prefixCount + width > MAX_TASK_PREFIXES) {
        // Too many namespaces: those of the including file stay open instead (they hold these
        // and those of its other includes: nothing more to learn below them).
        openUnder(prefixes);
        return;
      }
      prefixCount += width;
      const sub = inc.flatten ? prefixes : prefixes.flatMap((pre) => [inc.ns, ...inc.aliases].map((ns) => `${pre}${ns}:`));
      const target = taskInclude(files, dirOf(f), inc.taskfile);
      if (target !== null && seen.has(target)) continue; // a cycle: Task refuses it; nothing more to learn
      const ip = target !== null && ++count <= MAX_TASK_INCLUDES ? await load(target) : null;
      if (!ip) {
        openUnder(sub);
        continue;
      }
      await visit(target!, ip, sub, new Set([...seen, target!]));
    }
  };
  await visit(file, top, [''], new Set([file]));
  // `task docs` runs `docs:default`.
  for (const { prefix } of t.sources) if (prefix && t.names.has(`${prefix}default`)) t.names.add(prefix.slice(0, -1));
  if (patterns.length) t.pattern = anyOf(patterns.map(taskWildcard));
  return t;
}

// ------------------------------------------------------------------ make targets

/**
 * Stands in a Makefile's target set for targets the index cannot know: a file it includes that
 * could not be read (a `$(...)` path, a file not in the work tree, an absolute path), a
 * `$(eval ...)`, a `.DEFAULT` rule. As a variable reference it matches every name
 * (`makeTargetDefined`): such a set is open, and no name is missing from it.
 */
export const MAKE_UNKNOWN_TARGETS = '$(unknown)';

/** Files one Makefile may include (nested includes counted): beyond, its target set is open. */
const MAX_MAKE_INCLUDES = 256;

/** `a/b` joined with a relative path (`..` resolved); `null` above the root or absolute. */
function joinRel(dir: string, rel: string): string | null {
  if (rel.startsWith('/') || rel.startsWith('~')) return null;
  const out = dir ? dir.split('/') : [];
  for (const s of rel.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (!out.length) return null;
      out.pop();
    } else out.push(s);
  }
  return out.join('/');
}

/** A shell glob over repository paths (`*`, `?`, `[...]` within one path segment). */
function globRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const e = glob.indexOf(']', i + 2);
      if (e < 0) re += '\\[';
      else {
        re += `[${glob.slice(i + 1, e).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = e;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * The work-tree files an `include` word names, or `null` when it cannot be resolved (the
 * Makefile's target set is then open). A path is relative to the folder make runs in (the
 * Makefile's); for a nested include the including file's folder is tried too, and last the
 * repository root (a Makefile in a subfolder run with `make -f` from the root). Globs (and
 * `$(wildcard ...)` of plain globs) are matched against the file index; one matching nothing
 * may stand for a generated file. Any other `$(...)` is not resolved.
 */
function includedFiles(files: FileIndex, cwd: string, from: string, word: string, globs: Map<string, string[]>): string[] | null {
  const wild = /^\$[({]wildcard\s+([^$]*)[)}]$/.exec(word);
  if (!wild && word.includes('$')) return null;
  const out: string[] = [];
  for (const w of wild ? wild[1]!.trim().split(/\s+/).filter(Boolean) : [word]) {
    if (/[*?[]/.test(w)) {
      const full = joinRel(cwd, w);
      if (full === null) return null;
      let hits = globs.get(full);
      if (!hits) {
        const re = globRegex(full);
        hits = [...files.files].filter((f) => re.test(f)).sort();
        globs.set(full, hits);
      }
      if (!hits.length) return null;
      out.push(...hits);
      continue;
    }
    const p = joinRel(cwd, w);
    const q = from !== cwd ? joinRel(from, w) : null;
    // a Makefile in a subfolder run from the root (`make -f build/Makefile.docker`) includes
    // paths written from the root (`include build/make/common.mk`)
    const r = cwd !== '' ? joinRel('', w) : null;
    if (p !== null && files.files.has(p)) out.push(p);
    else if (q !== null && files.files.has(q)) out.push(q);
    else if (r !== null && files.files.has(r)) out.push(r);
    else return null;
  }
  return out;
}

/**
 * One included file's parts, read from the work tree like the Makefile; `null` when unreadable
 * (a symlink leading outside the repository too: a problem naming it).
 */
async function readMakeInclude(reader: RepoReader, file: string, problems: ManifestIndex['problems']): Promise<MakeParts | null> {
  const t = await reader.read(file);
  if ('error' in t) {
    if (t.error === LINK_OUT) problems.push({ file, message: t.error });
    return null;
  }
  try {
    return readMakeParts(t.text);
  } catch {
    return null;
  }
}

/**
 * Every Makefile's target set at HEAD: its plain targets, pattern targets (`release-%`, `%`,
 * `$(BIN)-%`) and those of the files it includes (`include Makefile.common`, `-include
 * make/*.mk`, nested), with variables resolved across all of them; `MAKE_UNKNOWN_TARGETS` when
 * some target cannot be known. Each included file is read once per audit.
 */
async function makeTargetSets(
  reader: RepoReader,
  files: FileIndex,
  parsed: Array<{ file: string; p: ParsedManifest }>,
  problems: ManifestIndex['problems'],
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  const reads = new Map<string, Promise<MakeParts | null>>();
  const globs = new Map<string, string[]>();
  const read = (f: string) => {
    let r = reads.get(f);
    if (!r) reads.set(f, (r = readMakeInclude(reader, f, problems)));
    return r;
  };
  const makefiles = parsed.filter(({ p }) => p.kind === 'makefile' && p.make);
  await mapLimit(makefiles, 8, async ({ file, p }) => {
    const top = p.make!;
    const cwd = dirOf(file);
    const parts: MakeParts[] = [top];
    const seen = new Set([file]);
    let unknown = top.open;
    const queue: Array<{ parts: MakeParts; file: string }> = [{ parts: top, file }];
    while (queue.length) {
      const cur = queue.shift()!;
      for (const word of cur.parts.includes) {
        const found = includedFiles(files, cwd, dirOf(cur.file), word, globs);
        if (!found) {
          // An optional include of a plain path git does not track (`-include .env`, `-include
          // local.mk`): a developer's local settings, variables as a rule, not the targets the
          // memory names; make goes on without it.
          if (!(cur.parts.optionalIncludes?.has(word) && !/[$*?[]/.test(word))) unknown = true;
          continue;
        }
        for (const f of found) {
          if (seen.has(f)) continue;
          if (seen.size > MAX_MAKE_INCLUDES) {
            unknown = true;
            break;
          }
          seen.add(f);
          const ip = await read(f);
          if (!ip) {
            unknown = true;
            continue;
          }
          if (ip.open) unknown = true;
          parts.push(ip);
          queue.push({ parts: ip, file: f });
        }
      }
    }
    // A prerequisite file may satisfy a match-anything rule's prerequisite (`common-x`).
    const filesLike = (pre: string) => {
      const full = joinRel(cwd, pre);
      if (full === null) return true;
      for (const f of files.files) if (f.startsWith(full)) return true;
      return false;
    };
    const t = makeTargets(parts, filesLike);
    const set = new Set([...t.names, ...t.patterns, ...(unknown ? [MAKE_UNKNOWN_TARGETS] : [])]);
    if (parts.length > 1 || top.includes.length > 0) MAKE_SETS_WITH_INCLUDES.add(set);
    out.set(file, set);
  });
  return out;
}

/** Target sets of Makefiles that include other files (whose history the target history does not cover). */
const MAKE_SETS_WITH_INCLUDES = new WeakSet<ReadonlySet<string>>();

/**
 * Whether a Makefile's target set (`ManifestIndex.makeTargets`) comes in part from included
 * files: the Makefile's own target history then cannot tell that a target was never defined
 * (it may have been defined, and removed, in `Makefile.common`).
 */
export function makeSetIncludes(names: ReadonlySet<string>): boolean {
  return MAKE_SETS_WITH_INCLUDES.has(names);
}

const makeMatchers = new WeakMap<ReadonlySet<string>, NameMatcher | null>();
const makeLiteralMatchers = new WeakMap<ReadonlySet<string>, NameMatcher | null>();

/**
 * Whether a Makefile's target set (`ManifestIndex.makeTargets`) defines `target`: a plain name
 * of the set, or a name one of its patterns matches — `%` a non-empty stem (`release-%`, the
 * catch-all `%`), an unresolved variable reference any text (`$(BIN)-linux`,
 * `MAKE_UNKNOWN_TARGETS`). `literal`: only patterns with some literal text count (`release-%`,
 * `$(X)/bin/promu`, not `%`, `$(BIN)` nor `MAKE_UNKNOWN_TARGETS`): evidence that this set
 * defines the name rather than that nothing says it does not. One matcher per set (and mode),
 * built on first use, linear in the name (`Wildcard`: no backtracking on names from memory).
 */
export function makeTargetDefined(names: ReadonlySet<string>, target: string, literal = false): boolean {
  if (names.has(target)) return true;
  const cache = literal ? makeLiteralMatchers : makeMatchers;
  let re = cache.get(names);
  if (re === undefined) {
    const ws: Wildcard[] = [];
    for (const n of names) {
      if (!isMakePattern(n)) continue;
      const w = makeWildcard(n);
      if (literal && !w.literal) continue;
      ws.push(w);
    }
    re = ws.length ? anyOf(ws) : null;
    cache.set(names, re);
  }
  return re !== null && re.test(target);
}

/** A make target as a pattern: `%` a non-empty stem, an unresolved `$(...)` / `$x` any text, `$$` a `$`. */
function makeWildcard(t: string): Wildcard {
  const w = new Wildcard();
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === '%') w.any(1);
    else if (c === '$' && t[i + 1] === '$') {
      w.lit('$');
      i++;
    } else if (c === '$') {
      const n = t[i + 1];
      if (n === '(' || n === '{') {
        // to the matching close (or the end)
        let depth = 0;
        let j = i + 1;
        for (; j < t.length; j++) {
          if (t[j] === n) depth++;
          else if (t[j] === (n === '(' ? ')' : '}') && --depth === 0) break;
        }
        i = j;
      } else i++;
      w.any(0);
    } else w.lit(c);
  }
  return w;
}

// ------------------------------------------------------------------ history

export interface Summary {
  /** The manifest's own project / package name. */
  name?: string;
  deps: Map<string, { name: string; spec: string; field: string }>;
  /** `py`: a Python runner's script (`pythonRunners` names). */
  scripts: Map<string, { source: ScriptSource; command: string }>;
}

type ScriptSource = 'npm' | 'make' | 'just' | 'py' | 'composer' | 'deno' | 'task' | 'turbo' | 'nx';
/** The history `source` of a task runner's file's names. */
const TASK_SOURCE: Partial<Record<AnyManifestKind, ScriptSource>> = { composer: 'composer', deno: 'deno', taskfile: 'task' };

const EMPTY: Summary = { deps: new Map(), scripts: new Map() };
const NAMED_KINDS = new Set<AnyManifestKind>(['package.json', 'pyproject', 'cargo', 'go.mod', 'setup-py', 'setup-cfg']);

function summarize(p: ParsedManifest, intern: (s: string) => string): Summary | null {
  if (p.problems.length && !p.deps.length && !p.scripts && !p.targets && !p.recipes && !p.runners && !p.tasks) return null;
  // nx.json's history is not followed (kinds.ts `hasHistory`).
  // A setup.py / setup.cfg version with a field built by code: what it declares there is unknown,
  // so the version is not read (as an unreadable one): the history goes from the last version
  // read to the next, and a list moved into a variable or a `read_requirements()` is not taken
  // for its dependencies all removed.
  if (p.partial) return null;
  const deps = new Map<string, { name: string; spec: string; field: string }>();
  for (const d of p.deps) {
    if (d.presence) continue; // HEAD only (ecosystems.ts)
    const key = intern(d.name.toLowerCase());
    if (!deps.has(key)) deps.set(key, { name: intern(d.name), spec: intern(d.spec), field: intern(d.field) });
  }
  const scripts = new Map<string, { source: ScriptSource; command: string }>();
  if (p.scripts && p.kind === 'package.json') for (const [k, v] of p.scripts) scripts.set(intern(k), { source: 'npm', command: v });
  // Python runners' scripts, tasks and entry points, in the same history (open-table markers are not names).
  if (p.runners) for (const [k, v] of p.runners) if (!k.endsWith(' ?')) scripts.set(intern(k), { source: 'py', command: v });
  // Make targets and just recipes with their recipe text (bounded, parse.ts `RecipeText`; interned:
  // most recipes are the same from one version to the next), so renames pair by what they run.
  if (p.targets) for (const t of p.targets) scripts.set(intern(t), { source: 'make', command: intern(p.recipeCommands?.get(t) ?? '') });
  if (p.recipes) for (const t of p.recipes) scripts.set(intern(t), { source: 'just', command: intern(p.recipeCommands?.get(t) ?? '') });
  // Composer scripts, Deno tasks, a Taskfile's own tasks (its includes' are in their own files' history).
  const source = TASK_SOURCE[p.kind];
  if (p.tasks && source) for (const [k, v] of p.tasks) scripts.set(intern(k), { source, command: v });
  // turbo.json task keys and project.json targets, so a task or target renamed there is seen
  // with its commit; a project.json's own name under `NX_NAME_KEY` (Nx project names are not
  // package names: kept out of `everProjectNames`, which the package check reads).
  if (p.tasks && (p.kind === 'turbo' || p.kind === 'nx-project')) {
    const src: ScriptSource = p.kind === 'turbo' ? 'turbo' : 'nx';
    for (const [k, v] of p.tasks) scripts.set(intern(k), { source: src, command: intern(v) });
    if (p.nxName !== undefined && p.kind === 'nx-project') scripts.set(intern(NX_NAME_KEY + p.nxName), { source: 'nx', command: '' });
  }
  const out: Summary = { deps, scripts };
  if (p.name && NAMED_KINDS.has(p.kind)) out.name = intern(p.name);
  return out;
}

/**
 * Turns the manifest changes of the log pass into dependency and script history.
 * `changes` come in log order (newest first); `summaries` hold the parsed blobs.
 */
export function buildManifestHistory(changes: ManifestChange[], summaries: Map<string, Summary | null>, idx: ManifestIndex): void {
  const chrono = changes.slice().reverse();
  const lastGood = new Map<string, Summary>();
  const ever = idx.everDependencies;
  const versions = idx.dependencyVersions!;
  const scriptHist = idx.scriptHistory;
  if (!idx.everProjectNames) idx.everProjectNames = new Map();
  const names = idx.everProjectNames;
  const push = <T>(m: Map<string, T[]>, k: string, v: T) => {
    const l = m.get(k);
    if (l) l.push(v);
    else m.set(k, [v]);
  };

  let i = 0;
  while (i < chrono.length) {
    const commit = chrono[i]!.commit;
    let j = i;
    while (j < chrono.length && chrono[j]!.commit === commit) j++;
    const depAdds = new Map<string, string[]>(); // manifest -> names
    const depRemovals: PackageHistoryEvent[] = [];
    const scriptAdds = new Map<string, Array<{ name: string; command: string }>>();
    const scriptRemovals: ScriptHistoryEvent[] = [];
    for (let k = i; k < j; k++) {
      const c = chrono[k]!;
      const manifest = c.status === 'R' && c.dst ? c.dst : c.src;
      const beforeKey = c.src;
      let before: Summary | undefined;
      if (c.status === 'A') before = EMPTY;
      else before = summaries.get(c.srcBlob) ?? lastGood.get(beforeKey) ?? undefined;
      let after: Summary | undefined;
      if (c.status === 'D') after = EMPTY;
      else after = summaries.get(c.dstBlob) ?? undefined;
      if (c.status === 'R' && c.dst) lastGood.delete(c.src);
      if (!after) continue; // unreadable new version: wait for a good one
      if (c.status !== 'D') lastGood.set(manifest, after);
      else lastGood.delete(manifest);
      if (!before) before = EMPTY;
      if (before.name !== after.name) {
        if (before.name) {
          const gone = { name: before.name, displayName: before.name, manifest, type: 'removed', commit, field: 'name' } as PackageHistoryEvent;
          push(names, before.name.toLowerCase(), gone);
          ownNameChange.set(gone, { status: c.status === 'R' || c.status === 'D' ? c.status : 'M', from: c.src });
        }
        if (after.name) push(names, after.name.toLowerCase(), { name: after.name, displayName: after.name, manifest, type: 'added', commit, field: 'name' } as PackageHistoryEvent);
      }
      for (const [key, d] of after.deps) {
        const old = before.deps.get(key);
        if (!old) {
          push(ever, key, { name: d.name, displayName: d.name, manifest, type: 'added', commit, spec: d.spec, field: d.field });
          push(depAdds, manifest, d.name);
        } else if (old.spec !== d.spec) {
          push<DependencyVersionEvent>(versions, key, { name: d.name, manifest, from: old.spec, to: d.spec, commit });
        }
      }
      for (const [key, d] of before.deps) {
        if (after.deps.has(key)) continue;
        const ev: PackageHistoryEvent = { name: d.name, displayName: d.name, manifest, type: 'removed', commit, spec: d.spec, field: d.field };
        push(ever, key, ev);
        depRemovals.push(ev);
      }
      for (const [name, s] of after.scripts) {
        if (before.scripts.has(name)) continue;
        push<ScriptHistoryEvent>(scriptHist, `${manifest}#${name}`, { name, manifest, type: 'added', commit, ...(s.source !== 'py' ? { source: s.source } : {}), ...(s.command ? { command: s.command } : {}) });
        push(scriptAdds, manifest, { name, command: s.command });
      }
      for (const [name, s] of before.scripts) {
        if (after.scripts.has(name)) continue;
        const ev: ScriptHistoryEvent = { name, manifest, type: 'removed', commit, ...(s.source !== 'py' ? { source: s.source } : {}), ...(s.command ? { command: s.command } : {}) };
        push(scriptHist, `${manifest}#${name}`, ev);
        scriptRemovals.push(ev);
      }
    }
    for (const ev of depRemovals) {
      const same = depAdds.get(ev.manifest);
      if (same?.length) ev.addedInSameCommit = same.slice();
      const elsewhere: Array<{ name: string; manifest: string }> = [];
      for (const [m, names] of depAdds) if (m !== ev.manifest) for (const n of names) elsewhere.push({ name: n, manifest: m });
      if (elsewhere.length) ev.addedElsewhereInSameCommit = elsewhere.slice(0, 50);
    }
    for (const ev of scriptRemovals) {
      const same = scriptAdds.get(ev.manifest);
      if (!same?.length) continue;
      ev.addedInSameCommit = same.map((s) => s.name);
      if (ev.command) {
        const twin = same.find((s) => s.command === ev.command);
        if (twin) ev.renamedTo = twin.name;
      }
    }
    i = j;
  }
  // Every dependency at HEAD is an "ever" dependency, even without history.
}

// ------------------------------------------------------------------ renamed packages

/**
 * How the manifest of an own-name removal changed in its commit: git's status ('M' in place,
 * 'R' paired as moved from `from`, 'D' deleted). Kept beside the event (the event type is shared).
 */
const ownNameChange = new WeakMap<PackageHistoryEvent, { status: string; from: string }>();

/** `${sha}\0${manifest}` -> the own name that commit gave that manifest (from `everProjectNames`). */
const ownNamesAdded = new WeakMap<object, Map<string, string>>();

function ownNameAddedBy(idx: ManifestIndex): Map<string, string> {
  const names = idx.everProjectNames;
  if (!names) return new Map();
  let m = ownNamesAdded.get(names);
  if (m) return m;
  m = new Map();
  for (const list of names.values()) for (const e of list) if (e.type === 'added') m.set(`${e.commit.sha}\0${e.manifest}`, e.name);
  ownNamesAdded.set(names, m);
  return m;
}

/** Files of a folder whose fate is looked at to see where the folder went (sorted, the first ones). */
const FOLDER_VOTERS = 200;
const folderMoves = new WeakMap<HistoryIndex, Map<string, string | null | undefined>>();

/**
 * Where commit `sha` moved folder `dir`, by its files other than manifests: each file the commit
 * took out of `dir` keeping its relative path votes for its new folder, a file it deleted votes
 * for nothing, and a strict majority decides. `undefined` when no such file exists (no evidence),
 * `null` when they disagree. Manifests do not vote: sibling members' manifests are small and
 * alike, and git pairs them crosswise when several members move at once (`hir-ty/Cargo.toml` ->
 * `hir-definitions/Cargo.toml`), while their sources pair with their own.
 */
function folderMovedBy(history: HistoryIndex, dir: string, sha: string): string | null | undefined {
  let memo = folderMoves.get(history);
  if (!memo) folderMoves.set(history, (memo = new Map()));
  const key = `${sha}\0${dir}`;
  if (memo.has(key)) return memo.get(key);
  const pre = `${dir}/`;
  const votes = new Map<string, number>();
  let voters = 0;
  let looked = 0;
  for (const f of history.pathsUnder?.(dir) ?? []) {
    if (manifestKind(f)) continue;
    if (++looked > FOLDER_VOTERS) break;
    const fate = history.fate(f);
    const hop = fate.chain?.[0];
    if (hop && hop.from === f && hop.commit.sha === sha) {
      voters++;
      const rest = f.slice(pre.length);
      if (hop.to.endsWith(`/${rest}`)) {
        const to = hop.to.slice(0, hop.to.length - rest.length - 1);
        if (to !== dir) votes.set(to, (votes.get(to) ?? 0) + 1);
      }
    } else if (fate.status === 'deleted' && !fate.chain && fate.commit?.sha === sha) voters++;
  }
  let res: string | null | undefined;
  if (voters) {
    let best: [string, number] | undefined;
    for (const v of votes) if (!best || v[1] > best[1]) best = v;
    res = best && best[1] * 2 > voters ? best[0] : null;
  }
  memo.set(key, res);
  return res;
}

/**
 * The name a workspace package took when `removal` (an `everProjectNames` removal: a manifest
 * dropping its own `name`) happened, and the manifest that took it. Only a name set by that very
 * commit counts (a package deleted in one commit and another created later is no rename):
 * - manifest changed in place: the name the commit gave the same manifest;
 * - manifest moved or deleted: the name the commit gave the manifest of the same file name in
 *   the folder the commit moved the package's folder to, by its other files (`folderMovedBy`);
 *   git's own pairing of the manifest counts only when no other file says anything (a folder
 *   holding nothing else), because small manifests of sibling packages pair crosswise.
 * No git call: the manifest pass and the history index hold everything.
 */
export function renamedOwnName(idx: ManifestIndex, history: HistoryIndex, removal: PackageHistoryEvent): { name: string; manifest: string } | undefined {
  const addedBy = ownNameAddedBy(idx);
  const sha = removal.commit.sha;
  const at = (manifest: string) => {
    const name = addedBy.get(`${sha}\0${manifest}`);
    return name === undefined ? undefined : { name, manifest };
  };
  const ch = ownNameChange.get(removal);
  if (!ch || ch.status === 'M') {
    const same = at(removal.manifest);
    if (same || ch) return same;
  }
  const from = ch?.from ?? removal.manifest;
  const slash = from.lastIndexOf('/');
  const moved = slash > 0 && history.available ? folderMovedBy(history, from.slice(0, slash), sha) : undefined;
  if (moved === null) return undefined;
  if (moved !== undefined) return at(`${moved ? `${moved}/` : ''}${from.slice(slash + 1)}`);
  return ch?.status === 'R' ? at(removal.manifest) : undefined;
}
