// Which packages a lockfile at HEAD still installs, and which package depends on which: enough to
// tell a dependency replaced by another from one wrapped by it (the `stripe` gem removed from the
// Gemfile when `pay`, which depends on it, was added: Stripe is still what the project bills
// through). Read with line scanners, not full parsers: only names and dependency edges matter.
//
// Covered: Gemfile.lock, Cargo.lock, poetry.lock, uv.lock, composer.lock, package-lock.json /
// npm-shrinkwrap.json, yarn.lock (classic and berry), pnpm-lock.yaml (names; its edges too).

/** The lockfiles read for installed names, by file name. */
export const LOCK_GRAPH_FILES = new Set([
  'Gemfile.lock',
  'gems.locked',
  'Cargo.lock',
  'poetry.lock',
  'uv.lock',
  'composer.lock',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
]);

export interface LockGraph {
  /** Every package name a lockfile installs (lower-cased). */
  names: Set<string>;
  /** Name -> the file names of the lockfiles listing it (`Gemfile.lock`, `pnpm-lock.yaml`). */
  from: Map<string, Set<string>>;
  /** The lockfile being read (set by `addLockfile`). */
  reading?: string;
  /** Package (lower-cased) -> the names it depends on (lower-cased), over every lockfile. */
  deps: Map<string, Set<string>>;
}

export function emptyLockGraph(): LockGraph {
  return { names: new Set(), deps: new Map(), from: new Map() };
}

/** Adds what lockfile `base` (its file name) says to `g`; unknown or unreadable text adds nothing. */
export function addLockfile(g: LockGraph, base: string, text: string): void {
  g.reading = base;
  switch (base) {
    case 'Gemfile.lock':
    case 'gems.locked':
      return gemLock(g, text);
    case 'Cargo.lock':
    case 'poetry.lock':
    case 'uv.lock':
      return tomlPackages(g, text);
    case 'composer.lock':
      return composerLock(g, text);
    case 'package-lock.json':
    case 'npm-shrinkwrap.json':
      return npmLock(g, text);
    case 'yarn.lock':
      return yarnLock(g, text);
    case 'pnpm-lock.yaml':
      return pnpmLock(g, text);
  }
}

/**
 * The names installed because a dependency declared now needs them (`roots`, lower-cased), through
 * the lockfiles' edges: an entry nothing declared depends on (a lockfile not regenerated after a
 * removal, Gemfile.lock's stale `DEPENDENCIES`) is not installed any more. Memoised per graph.
 */
export function reachableFrom(g: LockGraph, roots: Iterable<string>): Set<string> {
  let r = REACHABLE.get(g);
  if (r) return r;
  r = new Set<string>();
  const queue: string[] = [];
  for (const root of roots) if (g.deps.has(root) && !r.has(root)) {
    r.add(root);
    queue.push(root);
  }
  while (queue.length) {
    for (const c of g.deps.get(queue.pop()!) ?? []) if (!r.has(c)) {
      r.add(c);
      queue.push(c);
    }
  }
  REACHABLE.set(g, r);
  return r;
}
const REACHABLE = new WeakMap<LockGraph, Set<string>>();

/** Whether `parent` depends on `child` in some lockfile (directly or through others, a few levels deep). */
export function dependsOn(g: LockGraph, parent: string, child: string, depth = 4): boolean {
  const seen = new Set<string>([parent]);
  let level = [parent];
  for (let d = 0; d < depth && level.length; d++) {
    const next: string[] = [];
    for (const p of level)
      for (const c of g.deps.get(p) ?? []) {
        if (c === child) return true;
        if (!seen.has(c)) {
          seen.add(c);
          next.push(c);
        }
      }
    level = next;
  }
  return false;
}

/** Records that the lockfile being read installs `name` (lower-cased). */
function named(g: LockGraph, name: string): void {
  g.names.add(name);
  const base = g.reading ?? '';
  const set = g.from.get(name);
  if (set) set.add(base);
  else g.from.set(name, new Set([base]));
}

function edge(g: LockGraph, parent: string | undefined, child: string): void {
  const c = child.toLowerCase();
  named(g, c);
  if (!parent) return;
  let set = g.deps.get(parent);
  if (!set) g.deps.set(parent, (set = new Set()));
  set.add(c);
}

function lines(text: string): string[] {
  return text.split(/\r?\n/);
}

/** `    name (1.2.3)` specs (4 spaces), each followed by `      dep (>= 1)` lines (6 spaces). */
function gemLock(g: LockGraph, text: string): void {
  let inSpecs = false;
  let current: string | undefined;
  for (const line of lines(text)) {
    if (!line.startsWith(' ')) {
      inSpecs = false;
      current = undefined;
      continue;
    }
    if (/^ {2}specs:\s*$/.test(line)) {
      inSpecs = true;
      continue;
    }
    if (!inSpecs) continue;
    const spec = /^ {4}([A-Za-z0-9_.-]+)(?: \(|\s*$)/.exec(line);
    if (spec) {
      current = spec[1]!.toLowerCase();
      named(g, current);
      continue;
    }
    const dep = /^ {6}([A-Za-z0-9_.-]+)(?: \(|\s*$)/.exec(line);
    if (dep) edge(g, current, dep[1]!);
  }
}

/**
 * `[[package]]` tables with `name = "x"` (Cargo.lock, poetry.lock, uv.lock); their dependencies:
 * Cargo's `dependencies = ["a", "b 1.0"]`, uv's `dependencies = [{ name = "a" }, ...]`, poetry's
 * `[package.dependencies]` keys.
 */
function tomlPackages(g: LockGraph, text: string): void {
  let current: string | undefined;
  let inDepTable = false;
  let inDepArray = false;
  for (const line of lines(text)) {
    if (line.startsWith('[')) {
      inDepArray = false;
      inDepTable = /^\[package\.dependencies\]\s*$/.test(line);
      if (/^\[\[package\]\]\s*$/.test(line)) current = undefined;
      continue;
    }
    const name = /^name\s*=\s*"([^"]+)"/.exec(line);
    if (name && !inDepTable) {
      current = name[1]!.toLowerCase();
      named(g, current);
      continue;
    }
    if (inDepTable) {
      const key = /^"?([A-Za-z0-9_.-]+)"?\s*=/.exec(line);
      if (key) edge(g, current, key[1]!);
      continue;
    }
    const arr = /^dependencies\s*=\s*\[(.*)$/.exec(line);
    if (arr) {
      inDepArray = !arr[1]!.includes(']') || /\{[^}]*$/.test(arr[1]!);
      depItems(g, current, arr[1]!);
      continue;
    }
    if (inDepArray) {
      depItems(g, current, line);
      if (/^\s*\]/.test(line)) inDepArray = false;
    }
  }
}

/** Names in one line of a TOML dependency array: `"a 1.0 (registry)"` strings or `{ name = "a" }` tables. */
function depItems(g: LockGraph, parent: string | undefined, s: string): void {
  for (const m of s.matchAll(/name\s*=\s*"([^"]+)"/g)) edge(g, parent, m[1]!);
  if (s.includes('name')) return;
  for (const m of s.matchAll(/"([A-Za-z0-9_.-]+)(?:\s[^"]*)?"/g)) edge(g, parent, m[1]!);
}

function composerLock(g: LockGraph, text: string): void {
  let data: { packages?: unknown; 'packages-dev'?: unknown };
  try {
    data = JSON.parse(text) as typeof data;
  } catch {
    return;
  }
  for (const list of [data.packages, data['packages-dev']]) {
    if (!Array.isArray(list)) continue;
    for (const p of list as Array<{ name?: unknown; require?: unknown }>) {
      if (typeof p?.name !== 'string') continue;
      const parent = p.name.toLowerCase();
      named(g, parent);
      if (p.require && typeof p.require === 'object') for (const r of Object.keys(p.require)) if (r.includes('/')) edge(g, parent, r);
    }
  }
}

function npmLock(g: LockGraph, text: string): void {
  let data: { packages?: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }>; dependencies?: Record<string, { requires?: Record<string, string> }> };
  try {
    data = JSON.parse(text) as typeof data;
  } catch {
    return;
  }
  for (const [path, p] of Object.entries(data.packages ?? {})) {
    const at = path.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const name = path.slice(at + 'node_modules/'.length).toLowerCase();
    named(g, name);
    for (const d of Object.keys({ ...p?.dependencies, ...p?.optionalDependencies })) edge(g, name, d);
  }
  // lockfile v1
  for (const [name, p] of Object.entries(data.dependencies ?? {})) {
    const n = name.toLowerCase();
    named(g, n);
    for (const d of Object.keys(p?.requires ?? {})) edge(g, n, d);
  }
}

/** Unindented descriptor lines (`name@range, name@range:`), then a `  dependencies:` block. */
function yarnLock(g: LockGraph, text: string): void {
  let current: string | undefined;
  let inDeps = false;
  for (const line of lines(text)) {
    if (!line || line.startsWith('#')) continue;
    if (!line.startsWith(' ')) {
      inDeps = false;
      const first = line.replace(/:$/, '').split(/,\s*/)[0]!.replace(/^"|"$/g, '');
      const at = first.indexOf('@', 1);
      current = at > 0 && first !== '__metadata' ? first.slice(0, at).toLowerCase() : undefined;
      if (current) named(g, current);
      continue;
    }
    if (/^ {2}\S/.test(line)) {
      inDeps = /^ {2}(?:dependencies|optionalDependencies):\s*$/.test(line);
      continue;
    }
    if (inDeps) {
      const m = /^ {4}"?((?:@[^@\s"/]+\/)?[^@\s":]+)"?[\s:]/.exec(line);
      if (m) edge(g, current, m[1]!);
    }
  }
}

/**
 * `packages:` (and v9 `snapshots:`) keys: `/name@1.0.0`, `name@1.0.0(peer@1)`, `/name/1.0.0`;
 * their `dependencies:` maps (6-space keys).
 */
function pnpmLock(g: LockGraph, text: string): void {
  let section = '';
  let current: string | undefined;
  let inDeps = false;
  for (const line of lines(text)) {
    if (line && !line.startsWith(' ')) {
      section = line.replace(/:.*$/, '');
      current = undefined;
      continue;
    }
    if (section !== 'packages' && section !== 'snapshots') continue;
    const key = /^ {2}'?\/?((?:@[^@/\s']+\/)?[^@/\s'(]+)[@/]/.exec(line);
    if (key) {
      current = key[1]!.toLowerCase();
      named(g, current);
      inDeps = false;
      continue;
    }
    if (/^ {4}\S/.test(line)) {
      inDeps = /^ {4}(?:dependencies|optionalDependencies):\s*$/.test(line);
      continue;
    }
    if (inDeps) {
      const m = /^ {6}'?((?:@[^@/\s']+\/)?[^@\s':]+)'?:/.exec(line);
      if (m) edge(g, current, m[1]!);
    }
  }
}
