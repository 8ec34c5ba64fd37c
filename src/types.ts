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
  | 'shallow-history';

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
  tool?: 'npm' | 'pnpm' | 'yarn' | 'bun' | 'npx' | 'make' | 'just' | 'pip' | 'cargo' | 'go' | 'other';
  script?: string;
  /** pnpm --filter / npm -w / yarn workspace target. */
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
  kind: 'topic' | 'index-line' | 'item' | 'paragraph' | 'section' | 'frontmatter-field';
  type: EntryType;
  /** Where the type came from. */
  typeSource: 'frontmatter' | 'heuristic' | 'default';
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
}

export interface ScriptHistoryEvent {
  name: string;
  /** package.json / Makefile / justfile path. */
  manifest: string;
  type: 'added' | 'removed';
  commit: CommitInfo;
}

export interface ManifestIndex {
  /** All dependency names at HEAD (lower-cased) -> where. */
  dependencies: Map<string, ManifestDependency[]>;
  /** Every dependency name any manifest ever had (lower-cased) -> history events. */
  everDependencies: Map<string, PackageHistoryEvent[]>;
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
  problems: Array<{ file: string; message: string }>;
}

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
}

export interface CheckContext {
  files: MemoryFile[];
  entries: Entry[];
  evidence: Evidence;
  config: import('./config/types.js').Config;
}

/** A check is data plus one function; the engine owns traversal order and timing. */
export interface Check {
  id: string;
  /** Finding kinds this check may emit. */
  kinds: FindingKind[];
  severity: Severity;
  description: string;
  /** Optional async preparation (e.g. a secret scanner warming up); awaited before `run`. */
  prepare?(ctx: CheckContext): Promise<void>;
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
  plan: PlanItem[];
  summary: {
    entries: number;
    findings: number;
    byKind: Record<string, number>;
    bySeverity: Record<string, number>;
    tokens: number;
    health?: string[];
    timings?: Record<string, number>;
  };
}
