// Lockfiles, read at HEAD only, for exact versions of the dependencies the manifests name.
// package-lock.json (v1-v3) is JSON; pnpm-lock.yaml is YAML, of which only the top-level
// sections that map manifests to versions (importers / dependencies...) are parsed, so a
// 50 MB lockfile does not cost a full YAML parse; yarn.lock (classic and berry) is read
// through its entry grammar: unindented descriptor lines, then an indented `version`.
import { parse as parseYaml } from 'yaml';
import { jsonErrorLine } from './parse.js';

export interface LockIndex {
  file: string;
  /** Folder holding the lockfile ('' at the root). */
  dir: string;
  /** Exact version of `name` for the manifest in `manifestDir` (repository-relative). */
  lookup(manifestDir: string, name: string, spec: string): string | undefined;
}

export interface LockResult {
  lock?: LockIndex;
  problem?: { message: string; line?: number };
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const relTo = (dir: string, p: string) => (dir === '' ? p : p === dir ? '' : p.startsWith(dir + '/') ? p.slice(dir.length + 1) : null);

export function parseLockfile(kind: 'package-lock' | 'pnpm-lock' | 'yarn-lock', file: string, text: string): LockResult {
  try {
    if (kind === 'package-lock') return packageLock(file, text);
    if (kind === 'pnpm-lock') return pnpmLock(file, text);
    return yarnLock(file, text);
  } catch (err) {
    return { problem: { message: `could not be read: ${(err as Error).message}` } };
  }
}

function packageLock(file: string, text: string): LockResult {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    const m = (err as Error).message;
    return { problem: { message: `invalid JSON: ${m}`, line: jsonErrorLine(m, text) } };
  }
  const dir = dirOf(file);
  const packages = (data.packages ?? {}) as Record<string, { version?: string }>;
  const v1 = (data.dependencies ?? {}) as Record<string, { version?: string }>;
  return {
    lock: {
      file,
      dir,
      lookup(manifestDir, name) {
        const rel = relTo(dir, manifestDir);
        if (rel === null) return undefined;
        const local = rel ? packages[`${rel}/node_modules/${name}`]?.version : undefined;
        return local ?? packages[`node_modules/${name}`]?.version ?? (rel === '' ? v1[name]?.version : undefined);
      },
    },
  };
}

/** Extracts the named top-level YAML sections (key at column 0) as text. */
function topLevelSections(text: string, keys: Set<string>): string {
  const out: string[] = [];
  let keep = false;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    const c = line.charCodeAt(0);
    if (line.length && c !== 32 && c !== 9 && c !== 35 /* # */ && c !== 45 /* - */) {
      const colon = line.indexOf(':');
      const key = colon > 0 ? line.slice(0, colon).replace(/^['"]|['"]$/g, '') : '';
      keep = keys.has(key);
    }
    if (keep) out.push(line);
    start = end + 1;
  }
  return out.join('\n');
}

const cleanPnpmVersion = (v: unknown): string | undefined => {
  const s = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  if (!s || s.startsWith('link:') || s.startsWith('file:') || s.startsWith('workspace:')) return undefined;
  // 18.2.0(react@18.2.0) (v6+), 1.0.0_react@18.2.0 (v5), /name/1.0.0 (old paths)
  return s.replace(/\(.*$/, '').replace(/_.*$/, '').replace(/^\/.*\//, '');
};

function pnpmLock(file: string, text: string): LockResult {
  const section = topLevelSections(text, new Set(['lockfileVersion', 'importers', 'dependencies', 'devDependencies', 'optionalDependencies']));
  let data: Record<string, unknown>;
  try {
    data = (parseYaml(section, { uniqueKeys: false }) ?? {}) as Record<string, unknown>;
  } catch (err) {
    const line = (err as { linePos?: Array<{ line: number }> }).linePos?.[0]?.line;
    return { problem: { message: `invalid YAML: ${(err as Error).message.split('\n')[0]}`, line } };
  }
  const dir = dirOf(file);
  const importers = (data.importers ?? { '.': data }) as Record<string, Record<string, Record<string, unknown>>>;
  return {
    lock: {
      file,
      dir,
      lookup(manifestDir, name) {
        const rel = relTo(dir, manifestDir);
        if (rel === null) return undefined;
        const imp = importers[rel === '' ? '.' : rel];
        if (!imp) return undefined;
        for (const f of ['dependencies', 'devDependencies', 'optionalDependencies']) {
          const e = imp[f]?.[name];
          if (e === undefined) continue;
          const v = typeof e === 'object' && e ? (e as { version?: unknown }).version : e;
          const c = cleanPnpmVersion(v);
          if (c) return c;
        }
        return undefined;
      },
    },
  };
}

function unquote(s: string): string {
  return s.trim().replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');
}

/** name@range (classic) or name@npm:range (berry) -> version; also name -> versions. */
function yarnLock(file: string, text: string): LockResult {
  const byDescriptor = new Map<string, string>();
  const byName = new Map<string, Set<string>>();
  let pending: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue;
    if (!line.startsWith(' ')) {
      pending = [];
      if (!line.endsWith(':')) continue;
      const head = line.slice(0, -1);
      if (head === '__metadata') continue;
      for (const d of head.split(/,\s*/)) pending.push(unquote(d));
      continue;
    }
    if (pending.length === 0) continue;
    const m = /^ {2}version:?\s+(.+)$/.exec(line);
    if (!m) continue;
    const version = unquote(m[1]!);
    for (const d of pending) {
      byDescriptor.set(d, version);
      const at = d.indexOf('@', 1);
      const name = at > 0 ? d.slice(0, at) : d;
      let set = byName.get(name);
      if (!set) byName.set(name, (set = new Set()));
      set.add(version);
    }
    pending = [];
  }
  const dir = dirOf(file);
  return {
    lock: {
      file,
      dir,
      lookup(manifestDir, name, spec) {
        if (relTo(dir, manifestDir) === null) return undefined;
        const exact = byDescriptor.get(`${name}@${spec}`) ?? byDescriptor.get(`${name}@npm:${spec}`);
        if (exact) return exact;
        const all = byName.get(name);
        return all && all.size === 1 ? [...all][0] : undefined;
      },
    },
  };
}
