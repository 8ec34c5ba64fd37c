// The shared vocabulary of memory-audit: plain data passed between the stages
// discover -> parse -> evidence -> check -> decide -> apply -> publish.
// Nothing in here does I/O. See ../shared/design/REPORT-FORMAT.md for the JSON contract.

export type MemoryFormat =
  | 'claude-md'
  | 'auto-memory-index'
  | 'auto-memory-topic'
  | 'agents-md'
  | 'gemini-md'
  | 'copilot'
  | 'cursor-rule'
  | 'other';

export type EntryType =
  | 'project'
  | 'decision'
  | 'pattern'
  | 'reference'
  | 'feedback'
  | 'user'
  | 'ephemeral'
  | 'superseded'
  | 'unknown';

export type Severity = 'error' | 'warning' | 'info';

export type FindingKind =
  | 'path-missing'
  | 'path-renamed'
  | 'path-unverified'
  | 'script-missing'
  | 'package-missing'
  | 'package-renamed'
  | 'version-drift'
  | 'count-drift'
  | 'status-drift'
  | 'status-unchecked'
  | 'expired'
  | 'superseded'
  | 'ephemeral'
  | 'duplicate'
  | 'contradiction'
  | 'broken-link'
  | 'secret'
  | 'budget'
  | 'malformed'
  | 'shallow-history'
  | 'manifest-unreadable';

export type PlanAction = 'delete' | 'update' | 'merge' | 'archive' | 'inoculate' | 'keep' | 'review';

/** A memory file as read from disk. `text` is the exact decoded content (UTF-8). */
export interface MemoryFile {
  /** Repository-relative, forward slashes (or absolute when outside the repository). */
  path: string;
  absPath: string;
  format: MemoryFormat;
  text: string;
  lines: number;
  bytes: number;
  tokens: number;
  /** Parsed YAML frontmatter, when present and valid. */
  frontmatter?: Record<string, unknown>;
  /** [start, end) byte-free character offsets of the frontmatter block including fences. */
  frontmatterRange?: [number, number];
  /** For auto-memory files: the repository-relative folder holding MEMORY.md. */
  memoryDir?: string;
  /**
   * True when the file on disk starts with a UTF-8 byte order mark. `text` never contains it
   * (all offsets are into the BOM-less text); writers put it back in front when saving.
   */
  bom?: boolean;
  /** The dominant line ending of the file ('\r\n' for CRLF files), for writers inserting lines. */
  eol?: '\n' | '\r\n';
}

/**
 * A piece of an entry's source as the markdown parser saw it. References are
 * extracted from spans so that code, links and prose are told apart.
 * Offsets are character offsets into MemoryFile.text; `line` is 1-based.
 */
export interface Span {
  kind: 'text' | 'inlineCode' | 'link' | 'code' | 'html' | 'frontmatter';
  /** The decoded value (for links: the link text). */
  value: string;
  start: number;
  end: number;
  line: number;
  /** Links and images: the destination as written. */
  url?: string;
  /** Fenced code: the info string's language ('sh', 'bash', 'console', ...). */
  lang?: string;
}

export interface EntryMeta {
  name?: string;
  description?: string;
  /** 5 / 8 / 10 in the claude-mem convention; any number 0..10 accepted. */
  priority?: number;
  pinned?: boolean;
  /** ISO date strings as written. */
  modified?: string;
  lastUpdated?: string;
  validUntil?: string;
  scope?: string;
  /** For MEMORY.md index lines: the linked topic file (relative to the memory folder). */
  target?: string;
  /** The frontmatter `type` as written when it is not one of the known entry types. */
  rawType?: string;
  /** Why the type was chosen: the classifier rule id (e.g. 'heading:decision', 'text:ephemeral'). */
  typeRule?: string;
  /** The reason given in `<!-- protected: reason -->`, or 'config' / 'frontmatter'. */
  protectedReason?: string;
  /** Structured slot `id` (claude-mem convention), when the frontmatter has one. */
  slotId?: string;
}

export type RefKind =
  | 'path'
  | 'url'
  | 'import'
  | 'wikilink'
  | 'link'
  | 'command'
  | 'package'
  | 'version'
  | 'issue'
  | 'count';

export interface Reference {
  kind: RefKind;
  /** The exact token as written in the memory file. */
  raw: string;
  /** Normalised value: a path without ./ or trailing punctuation, a package name, a script name... */
  value: string;
  /** 1-based line of the file where `raw` is written. */
  line: number;
  /** Character offsets of `raw` in MemoryFile.text. */
  start: number;
  end: number;
  /** Where it was found. */
  in: 'prose' | 'inlineCode' | 'link' | 'code' | 'frontmatter';
  /** Paths: a directory prefix implied by context (heading, tree diagram) for bare names. */
  base?: string;
  /** Paths: true when written as a glob. */
  glob?: boolean;
  /** Commands: the tool and script / target / recipe. */
  tool?: 'npm' | 'pnpm' | 'yarn' | 'bun' | 'npx' | 'make' | 'just' | 'pip' | 'cargo' | 'go' | 'composer' | 'deno' | 'task' | 'turbo' | 'nx' | 'other';
  script?: string;
  /** pnpm --filter / npm -w / yarn workspace / turbo --filter target; for `nx`, the Nx project. */
  workspace?: string;
  /** Versions: the thing versioned and the version as written. */
  subject?: string;
  version?: string;
  /** Counts. */
  count?: number;
  noun?: string;
  bound?: 'exact' | 'atLeast' | 'approx';
  /** Issues / PRs. */
  number?: number;
  repo?: string;
  issueKind?: 'issue' | 'pr' | 'unknown';
  /** True when the surrounding text says it is open / in progress / WIP / pending / blocked. */
  describedOpen?: boolean;
  /** Paths: how `base` was found (ASCII tree, section heading, list intro line, the entry's first line). */
  via?: 'tree' | 'heading' | 'list' | 'entry';
  /** Low-confidence token (a prose word that may be a package, a path without a clear shape). */
  weak?: boolean;
  /** Commands: an explicit Makefile / justfile (`make -f x`). */
  manifest?: string;
  /** Packages: fetched from a registry on demand (`npx foo@latest`, `pnpm dlx foo@1`), not a project dependency. */
  fetched?: boolean;
}

export interface Entry {
  /** `e_` + 8 hex chars of a hash of file path + normalised text (+ occurrence index for repeats). */
  id: string;
  file: string;
  format: MemoryFormat;
  /** 1-based, inclusive. */
  line: number;
  endLine: number;
  /** Character offsets into MemoryFile.text, [start, end). */
  start: number;
  end: number;
  kind:
    | 'topic'
    | 'index-line'
    | 'item'
    | 'paragraph'
    | 'section'
    | 'frontmatter-field'
    /** A fenced or indented code block. */
    | 'code'
    /** A blockquote. */
    | 'quote'
    /** One body row of a GFM table. */
    | 'table-row';
  type: EntryType;
  /** Where the type came from. */
  typeSource: 'frontmatter' | 'heuristic' | 'default';
  /** Why: 'frontmatter:type' or the classifier rule id ('heading:decisions', 'text:ephemeral-session', 'none'). */
  typeReason?: string;
  protected: boolean;
  /** Exact source text of the entry (secrets are redacted before any output, never here). */
  text: string;
  /** Section heading path, outermost first. */
  headings: string[];
  meta: EntryMeta;
  spans: Span[];
  refs: Reference[];
}

export interface Finding {
  entryId: string | null;
  file: string;
  line: number;
  kind: FindingKind;
  severity: Severity;
  ref?: string;
  message: string;
  evidence?: Record<string, unknown>;
  suggestion?: { replace?: string; delete?: boolean; text?: string };
}

export interface PlanItem {
  entryId: string;
  action: PlanAction;
  rule: number;
  reason: string;
  file?: string;
  line?: number;
  /** For update: the new text of the entry. */
  replacement?: string;
  /** For merge / duplicate: the entry that is kept. */
  keep?: string;
  /** For inoculate: the SUPERSEDED file to write. */
  superseded?: string;
  /** For inoculate (a reversed decision): the newer entry that reverses it. */
  supersededBy?: string;
  score?: number;
}

// ---------------------------------------------------------------- evidence

export interface CommitInfo {
  sha: string;
  /** YYYY-MM-DD (author date, UTC). */
  date: string;
  /** ISO timestamp. */
  time: string;
  author: string;
  subject: string;
}

export interface PathEvent {
  type: 'added' | 'deleted' | 'renamed-from' | 'renamed-to' | 'modified';
  path: string;
  /** For renames: the other side. */
  other?: string;
  similarity?: number;
  commit: CommitInfo;
  /** Blob id of the content (added/renamed-to: after; deleted/renamed-from: before). Evidence-internal. */
  blob?: string;
}

export interface PathFate {
  /** Final state: renamed (with successor), deleted (with commit), or present. */
  status: 'renamed' | 'deleted' | 'present' | 'unknown';
  /** Final successor after following rename chains (and directory renames). */
  successor?: string;
  /** The commit that renamed away or deleted the path (the last relevant one). */
  commit?: CommitInfo;
  /** Every rename hop, oldest first. */
  chain?: Array<{ from: string; to: string; commit: CommitInfo }>;
  isDirectory?: boolean;
  /**
   * How the successor was found when git did not pair it directly:
   * 'directory' (the path never existed itself; its folder was renamed),
   * 'readded' (deleted, then a file with the same content or a distinctive same basename was
   * added elsewhere within READD_WINDOW commits), 'case' (matched case-insensitively).
   */
  inferred?: 'directory' | 'readded' | 'case';
  /** False when the exact path never appeared in history (nor as a directory). */
  existed?: boolean;
  /** Directories: where the files that left it went (new folder, file count), most first. */
  destinations?: Array<{ path: string; files: number }>;
  /** Deleted after renames: the last name the file had before it was deleted. */
  lastPath?: string;
  /** The case-insensitive history match that was followed. */
  caseOf?: string;
}

export interface FileIndex {
  /** Tracked files at HEAD, repository-relative. */
  files: Set<string>;
  /** Directories implied by tracked files (no trailing slash). */
  dirs: Set<string>;
  /** Lower-cased path -> real path, to notice case-only mismatches. */
  lower: Map<string, string>;
  /** basename -> repository-relative paths with that basename. */
  byBasename: Map<string, string[]>;
  /** Untracked files that are not ignored (included in `files`); absent when none. */
  untracked?: Set<string>;
  /** Where the list came from: `git ls-files`, or a filesystem walk outside git. */
  source?: 'git' | 'filesystem';
  /** Per-folder counts, built with the index ('' = the root). */
  stats?: DirStats;
}

/** Immediate children per folder, and folders by lower-cased name. */
export interface DirStats {
  files: Map<string, number>;
  dirs: Map<string, number>;
  byDirName: Map<string, string[]>;
}

export interface HistoryIndex {
  available: boolean;
  shallow: boolean;
  commits: number;
  /** Every path that ever existed -> ordered events (oldest first). */
  events: Map<string, PathEvent[]>;
  /** Resolve what became of a path (file or directory) that is not at HEAD. */
  fate(path: string): PathFate;
  /** Last commit touching a path or anything under it (for recency scores). */
  lastTouched(path: string): CommitInfo | undefined;
  touchCount(path: string): number;
  /** Every path that ever existed under a directory (sorted). */
  pathsUnder?(dir: string): string[];
  /** The history path or directory equal ignoring case (undefined when none, or exact). */
  caseMatch?(path: string): string | undefined;
  /** Whether the exact path is a file or a directory somewhere in history. */
  known?(path: string): 'file' | 'dir' | undefined;
  /** Warnings git printed during the log pass (e.g. inexact rename detection skipped). */
  warnings?: string[];
  /** All commits of the pass, oldest first. */
  commitList?: CommitInfo[];
}

export interface ManifestDependency {
  name: string;
  /** Range or version as written in the manifest. */
  spec: string;
  /** Exact version from a lockfile, when one says. */
  locked?: string;
  manifest: string;
  field: string;
}

export interface PackageHistoryEvent {
  name: string;
  manifest: string;
  type: 'added' | 'removed';
  commit: CommitInfo;
  /** The range as written (at the add, or just before the removal). */
  spec?: string;
  /** The dependency field (dependencies, devDependencies, [project].dependencies, ...). */
  field?: string;
  /** For removals: dependency names added to the same manifest in the same commit (rename candidates). */
  addedInSameCommit?: string[];
  /** For removals: names added to any other manifest in the same commit. */
  addedElsewhereInSameCommit?: Array<{ name: string; manifest: string }>;
  /** The name as written (everDependencies keys are lower-cased). */
  displayName?: string;
}

/** A dependency whose range changed in a manifest. */
export interface DependencyVersionEvent {
  name: string;
  manifest: string;
  from: string;
  to: string;
  commit: CommitInfo;
}

export interface ScriptHistoryEvent {
  name: string;
  /** package.json / Makefile / justfile path. */
  manifest: string;
  type: 'added' | 'removed';
  commit: CommitInfo;
  /**
   * What defines it: an npm script, a make target, a just recipe, a Composer script
   * (composer.json), a Deno task (deno.json / deno.jsonc) or a go-task task (Taskfile.yml).
   */
  source?: 'npm' | 'make' | 'just' | 'composer' | 'deno' | 'task' | 'turbo' | 'nx';
  /**
   * npm scripts and the other runners' tasks: the command line (at the add, or just before the
   * removal); make targets and just recipes: their recipe lines joined with ` && `, whitespace
   * collapsed, cut to the first 200 characters (enough to pair renames, bounded in memory).
   */
  command?: string;
  /** For removals: names added to the same manifest in the same commit (rename candidates). */
  addedInSameCommit?: string[];
  /** For removals: an added script with the identical command (a likely rename). */
  renamedTo?: string;
}

export interface ManifestIndex {
  /** All dependency names at HEAD (lower-cased) -> where. */
  dependencies: Map<string, ManifestDependency[]>;
  /** Every dependency name any manifest ever had (lower-cased) -> history events. */
  everDependencies: Map<string, PackageHistoryEvent[]>;
  /**
   * Optional: every project / workspace package name a manifest ever declared in its own
   * `name` field (lower-cased) -> events ('added' when a manifest took the name, 'removed'
   * when it dropped it or was deleted). Lets the package check see renamed workspace packages.
   */
  everProjectNames?: Map<string, PackageHistoryEvent[]>;
  /** package.json path -> script names at HEAD. */
  scripts: Map<string, Set<string>>;
  /** Makefile path -> targets; justfile path -> recipes. */
  makeTargets: Map<string, Set<string>>;
  justRecipes: Map<string, Set<string>>;
  /** Script / target history, keyed by `${manifest}#${name}`. */
  scriptHistory: Map<string, ScriptHistoryEvent[]>;
  /** Workspace package name -> folder. */
  workspaces: Map<string, string>;
  /** Runtime constraints: node (engines / .nvmrc / .node-version), python (requires-python), ... */
  runtimes: Map<string, { spec: string; source: string }>;
  /** The project's own name and version per manifest. */
  projectVersions: Array<{ name?: string; version: string; manifest: string }>;
  /** Problems met while parsing manifests (never fatal). */
  problems: Array<{ file: string; message: string; line?: number }>;
  /** Range changes of each dependency (lower-cased name -> changes, oldest first). */
  dependencyVersions?: Map<string, DependencyVersionEvent[]>;
  /** Every runtime constraint found (runtimes keeps the first, most authoritative one). */
  runtimeAll?: Array<{ name: string; spec: string; source: string }>;
  /** Python versions from `Programming Language :: Python :: X.Y` classifiers, per pyproject. */
  pythonClassifiers?: Map<string, string[]>;
  /** package.json path -> script name -> command, at HEAD. */
  scriptCommands?: Map<string, Map<string, string>>;
  /** Workspace globs (package.json workspaces, pnpm-workspace.yaml packages, Cargo members). */
  workspaceGlobs?: Array<{ glob: string; source: string }>;
  /** pnpm catalogs: catalog name ('default' for `catalog:`) -> package -> spec. */
  catalogs?: Map<string, Map<string, string>>;
  /** Every manifest read at HEAD and its kind. */
  manifestFiles?: Map<string, ManifestKind>;
  /** Lockfiles read at HEAD. */
  lockfiles?: string[];
  /** Names the lockfiles at HEAD install and their dependency edges (lock-graph.ts), built on first use. */
  lockGraph?: () => import('./evidence/manifests/lock-graph.js').LockGraph;
  /** go.mod module paths -> go.mod file. */
  goModules?: Map<string, string>;
  /** How many historic manifest versions were read (one cat-file --batch process). */
  historyBlobs?: number;
  /** turbo.json / turbo.jsonc path -> its task keys at HEAD (`build`, `web#build`, `//#lint`). */
  turboTasks?: Map<string, Set<string>>;
  /** Nx at HEAD: set when an nx.json was read (see `NxIndex`). */
  nx?: NxIndex;
  /**
   * settings.gradle(.kts) path -> the project paths it includes at HEAD (`:app`, `:core:data`,
   * included builds), the ancestors those make projects without including them (`:core`), and
   * whether the set is open (see `parseGradleSettings`).
   */
  gradleSettings?: Map<string, { paths: Set<string>; ancestors: Set<string>; open: boolean }>;
}

/** An Nx workspace at HEAD: its nx.json and the projects Nx would find. */
export interface NxIndex {
  /** The nx.json read. */
  config: string;
  /** nx.json declares plugins: they infer targets (and projects) that no file lists. */
  plugins: boolean;
  /** nx.json `targetDefaults` keys. */
  targetDefaults: Set<string>;
  /**
   * Project name -> its folder, the file that names it (project.json, else package.json) and
   * its targets: project.json `targets`, package.json `nx.targets` and scripts (Nx runs them).
   */
  projects: Map<string, { dir: string; manifest: string; targets: Set<string> }>;
}

export type ManifestKind =
  | 'package.json'
  | 'pnpm-workspace'
  | 'package-lock'
  | 'pnpm-lock'
  | 'yarn-lock'
  | 'requirements'
  | 'pyproject'
  // setuptools' setup.py (literal keyword arguments of `setup(...)`) and setup.cfg
  // (`[options]`, `[options.extras_require]`): dependencies, `python_requires`, `name`, with history
  | 'setup-py'
  | 'setup-cfg'
  | 'cargo'
  | 'go.mod'
  | 'gemfile'
  | 'makefile'
  | 'justfile'
  // deno.json / deno.jsonc (tasks) and go-task's Taskfile.yml (tasks): scripts only
  | 'deno'
  | 'taskfile'
  | 'runtime-file'
  // dependencies only (see docs/evidence.md): Gradle version catalogs and build scripts,
  // composer.json, mix.exs, pubspec.yaml, MSBuild project and props files
  | 'gradle-catalog'
  | 'gradle-build'
  // Maven's pom.xml: dependencies, managed dependencies, parent, plugins, the Java level
  | 'maven'
  | 'composer'
  | 'mix'
  | 'pubspec'
  | 'msbuild'
  // Package.swift (SwiftPM): its `.package(...)` dependencies, with history
  | 'swift-package'
  // Turborepo's turbo.json (task keys, with history), Nx's project.json (name and targets, with
  // history) and nx.json (plugins, target defaults: HEAD only)
  | 'turbo'
  | 'nx-project'
  | 'nx';

export interface IssueState {
  number: number;
  repo: string;
  kind: 'issue' | 'pr';
  state: 'open' | 'closed';
  merged?: boolean;
  closedAt?: string;
  title?: string;
  url?: string;
}

export interface GitHubState {
  /** owner/name the issue numbers refer to, when known. */
  repo?: string;
  checked: boolean;
  /** Why not checked: no token, API error... */
  reason?: string;
  issues: Map<string, IssueState | { error: string }>;
}

export interface Evidence {
  root: string;
  head: string | null;
  now: Date;
  files: FileIndex;
  history: HistoryIndex;
  manifests: ManifestIndex;
  github: GitHubState;
  /** Milliseconds per evidence part (files, history, manifests, github, total). */
  timings?: Record<string, number>;
  /** Blame dates and access-log reads of memory entries (src/evidence/usage.ts, gatherUsage). */
  usage?: UsageIndex;
  /** Import aliases (`compilerOptions.paths`) of the tsconfig / jsconfig files (src/evidence/tsconfig-paths.ts); absent when none. */
  pathAliases?: import('./evidence/tsconfig-paths.js').PathAliases;
}

export interface CheckContext {
  files: MemoryFile[];
  entries: Entry[];
  evidence: Evidence;
  config: import('./config/types.js').Config;
}

/**
 * What a check can see before git has finished: the memory and the configuration (and the
 * audit's clock). Checks that need nothing more run on it while the git passes stream.
 */
export interface MemoryContext {
  files: MemoryFile[];
  entries: Entry[];
  config: import('./config/types.js').Config;
  now: Date;
}

/** A check is data plus one function; the engine owns traversal order and timing. */
export interface Check {
  id: string;
  /** Finding kinds this check may emit. */
  kinds: FindingKind[];
  severity: Severity;
  description: string;
  /** Optional async preparation (e.g. a secret scanner warming up); awaited before `run`. */
  prepare?(ctx: CheckContext | MemoryContext): Promise<void>;
  /**
   * `memory`: the check reads nothing from the evidence but its clock (`evidence.now`), so the
   * audit runs it on the memory alone while git is still running. Default `evidence`.
   */
  needs?: 'memory' | 'evidence';
  /**
   * Optional memory-only part of an evidence check, run early like a `memory` check; `run`
   * reuses what it left (and must give the same findings without it).
   */
  early?(ctx: MemoryContext): void;
  run(ctx: CheckContext): Finding[];
}

export interface Report {
  schemaVersion: 1;
  tool: { name: 'memory-audit'; version: string };
  repo: { root: string; head: string | null };
  files: Array<Pick<MemoryFile, 'path' | 'format' | 'lines' | 'bytes' | 'tokens'>>;
  entries: Array<{
    id: string;
    file: string;
    line: number;
    endLine: number;
    type: EntryType;
    protected: boolean;
    text: string;
  }>;
  findings: Finding[];
  /** What could not be verified and remarks about the run: same shape, not findings (src/report/findings.ts). */
  notes?: Finding[];
  plan: PlanItem[];
  summary: {
    entries: number;
    findings: number;
    notes?: number;
    byKind: Record<string, number>;
    bySeverity: Record<string, number>;
    tokens: number;
    health?: string[];
    timings?: Record<string, number>;
  };
}

// ---------------------------------------------------------------- usage (scoring input)

/** How an entry has been used: when its lines were last edited (git blame) and read (access log). */
export interface EntryUsage {
  /** YYYY-MM-DD (UTC) of the most recent committed edit of any of its lines. */
  lastEdited?: string;
  /** Epoch milliseconds of that edit. */
  lastEditedTime?: number;
  /** YYYY-MM-DD (UTC) of the oldest committed line: when the entry was first written. */
  firstEdited?: string;
  /** True when some of its lines are not committed yet (edited in the working tree). */
  uncommitted?: boolean;
  /** Reads recorded by the access log (entry-level reads plus reads of its file). */
  reads: number;
  /** ISO timestamp of the last recorded read. */
  lastRead?: string;
}

export interface UsageIndex {
  /**
   * Blamed memory file path -> author time (epoch ms) of each line, index 0 = line 1; null = not
   * committed. Topic files are not blamed: their dates come from the history pass.
   */
  lines: Map<string, Array<number | null>>;
  /** Entry id -> usage. */
  entries: Map<string, EntryUsage>;
  /** The access log, when configured. */
  accessLog?: { path: string; found: boolean; records: number; skipped: number };
  /** Files whose blame failed or that git does not track (no edit dates). */
  unblamed: string[];
}
