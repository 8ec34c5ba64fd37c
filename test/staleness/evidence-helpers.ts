// Hand-built evidence for the pure check tests: the checks only look things up.
import type { CommitInfo, Evidence, FileIndex, HistoryIndex, ManifestIndex, PathFate, PathEvent, PackageHistoryEvent, ScriptHistoryEvent, GitHubState, IssueState } from '../../src/types.js';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/types.js';

export function commit(sha: string, date: string, subject: string, author = 'Dev'): CommitInfo {
  return { sha: sha.padEnd(40, '0'), date, time: `${date}T12:00:00Z`, author, subject };
}

export function fileIndex(paths: string[]): FileIndex {
  const files = new Set(paths);
  const dirs = new Set<string>();
  const lower = new Map<string, string>();
  const byBasename = new Map<string, string[]>();
  for (const p of paths) {
    lower.set(p.toLowerCase(), p);
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      dirs.add(d);
      lower.set(d.toLowerCase(), d);
    }
    const b = parts[parts.length - 1];
    byBasename.set(b, [...(byBasename.get(b) ?? []), p]);
  }
  return { files, dirs, lower, byBasename };
}

export function historyIndex(fates: Record<string, PathFate>, events: Record<string, PathEvent[]> = {}, opts: { available?: boolean; shallow?: boolean } = {}): HistoryIndex {
  return {
    available: opts.available ?? true,
    shallow: opts.shallow ?? false,
    commits: 10,
    events: new Map(Object.entries(events)),
    fate: (p: string) => fates[p.replace(/\/+$/, '')] ?? { status: 'unknown' },
    lastTouched: () => undefined,
    touchCount: () => 0,
  } as HistoryIndex;
}

export interface ManifestSpec {
  deps?: Record<string, Array<{ spec: string; manifest: string; locked?: string }>>;
  ever?: Record<string, PackageHistoryEvent[]>;
  everProjectNames?: Record<string, PackageHistoryEvent[]>;
  scripts?: Record<string, string[]>;
  make?: Record<string, string[]>;
  just?: Record<string, string[]>;
  scriptHistory?: Record<string, ScriptHistoryEvent[]>;
  workspaces?: Record<string, string>;
  runtimes?: Record<string, { spec: string; source: string }>;
  projectVersions?: Array<{ name?: string; version: string; manifest: string }>;
}

export function manifestIndex(m: ManifestSpec = {}): ManifestIndex {
  const deps = new Map<string, Array<{ name: string; spec: string; manifest: string; field: string; locked?: string }>>();
  for (const [k, list] of Object.entries(m.deps ?? {})) deps.set(k, list.map((d) => ({ name: k, field: 'dependencies', ...d })));
  return {
    dependencies: deps,
    everDependencies: new Map(Object.entries(m.ever ?? {})),
    ...(m.everProjectNames ? { everProjectNames: new Map(Object.entries(m.everProjectNames)) } : {}),
    scripts: new Map(Object.entries(m.scripts ?? {}).map(([k, v]) => [k, new Set(v)])),
    makeTargets: new Map(Object.entries(m.make ?? {}).map(([k, v]) => [k, new Set(v)])),
    justRecipes: new Map(Object.entries(m.just ?? {}).map(([k, v]) => [k, new Set(v)])),
    scriptHistory: new Map(Object.entries(m.scriptHistory ?? {})),
    workspaces: new Map(Object.entries(m.workspaces ?? {})),
    runtimes: new Map(Object.entries(m.runtimes ?? {})),
    projectVersions: m.projectVersions ?? [],
    problems: [],
  } as ManifestIndex;
}

export function github(issues: Record<string, IssueState | { error: string }> = {}, opts: Partial<GitHubState> = {}): GitHubState {
  return { repo: 'acme/app', checked: true, issues: new Map(Object.entries(issues)), ...opts };
}

export function evidence(parts: { files?: string[]; history?: HistoryIndex; manifests?: ManifestIndex; github?: GitHubState; now?: Date }): Evidence {
  return {
    root: '/repo',
    head: 'f'.repeat(40),
    now: parts.now ?? new Date('2026-06-01T00:00:00Z'),
    files: fileIndex(parts.files ?? []),
    history: parts.history ?? historyIndex({}),
    manifests: parts.manifests ?? manifestIndex(),
    github: parts.github ?? github(),
  };
}

export function config(over: Partial<Config> = {}): Config {
  return { ...DEFAULT_CONFIG, ...over };
}
