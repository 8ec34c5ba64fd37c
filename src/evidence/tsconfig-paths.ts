// Import aliases of TypeScript / JavaScript projects: the `compilerOptions.paths` of every
// tracked tsconfig.json / jsconfig.json (and `tsconfig.*.json`, `jsconfig.*.json`), read once
// per audit from the working tree like the other manifests. Memory names modules the way the
// code imports them (`@/components/Radix/Button.tsx` for `packages/front-end/components/Radix/Button.tsx`
// under `"@/*": ["./*"]`); the path check resolves those through this table.
import path from 'node:path';
import type { FileIndex } from '../types.js';
import { MISSING, RepoReader, type FileProblem } from './repo-file.js';

/** One `"prefix*": ["target*", …]` mapping of one config file. */
export interface PathAlias {
  /** The config file that declares (or inherits) it, repository-relative. */
  config: string;
  /** The config's folder ('' = the root): the files it governs. */
  scope: string;
  /** The pattern before its `*` (`@/`, `~/`, `@app/`). */
  prefix: string;
  /** Repository-relative path prefixes the rest goes after, in the config's order ('' = the
   *  root, else ending with `/`: `packages/front-end/`), each inside the repository. */
  targets: string[];
}

export type PathAliases = PathAlias[];

const CONFIG_NAME = /^[jt]sconfig(?:\.[\w-]+)*\.json$/;
/** More config files than this are a vendored or generated tree, not the project's: the first ones (shallowest) are read. */
const MAX_CONFIGS = 400;
const MAX_BYTES = 1024 * 1024;
const MAX_EXTENDS = 5;

/**
 * The aliases of a repository: every tracked config file whose name is a tsconfig / jsconfig,
 * with `extends` of local files followed (up to 5 hops; package names, which live in
 * node_modules, are not). Targets resolve against `baseUrl` (relative to the config that sets
 * it) or, without one, against the config that sets `paths`, as TypeScript does. Only
 * patterns with one trailing `*` whose targets end with `*` are kept (`"@/*": ["./src/*"]`):
 * exact patterns and `*`-in-the-middle forms name single modules, not folders memory writes.
 */
export async function readPathAliases(root: string, files: FileIndex, problems?: FileProblem[]): Promise<PathAliases> {
  const found: string[] = [];
  for (const [name, list] of files.byBasename) if (CONFIG_NAME.test(name)) for (const f of list) if (files.files.has(f)) found.push(f);
  if (!found.length) return [];
  found.sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  found.length = Math.min(found.length, MAX_CONFIGS);
  const texts = new Map<string, Promise<Record<string, unknown> | null>>();
  const reader = new RepoReader(root, MAX_BYTES, (f) => files.files.has(f));
  const load = (file: string) => {
    let p = texts.get(file);
    if (!p) texts.set(file, (p = readConfig(reader, file, problems)));
    return p;
  };
  const out: PathAliases = [];
  const seen = new Set<string>();
  const resolved = await Promise.all(found.map(async (file) => ({ file, opts: await effectiveOptions(file, load, 0, new Set()) })));
  for (const { file, opts } of resolved) {
    if (!opts.paths) continue;
    const scope = dirOf(file);
    const base = opts.baseUrl ?? opts.paths.dir;
    for (const [key, value] of Object.entries(opts.paths.map)) {
      const star = key.indexOf('*');
      // `prefix*` only; a bare `*` (everything: `"*": ["node_modules/*"]`) is no alias memory writes
      if (star !== key.length - 1 || star === 0 || key.indexOf('*') !== key.lastIndexOf('*')) continue;
      const targets: string[] = [];
      for (const t of Array.isArray(value) ? value : []) {
        if (typeof t !== 'string' || !t.endsWith('*') || t.indexOf('*') !== t.length - 1) continue;
        const pre = t.slice(0, -1);
        // `./*`, `src/*`: a folder; `src/lib-*`: a name prefix inside one
        const folder = pre === '' || pre === '.' || pre.endsWith('/');
        let dir = path.posix.normalize(path.posix.join(base || '.', pre || '.')).replace(/\/+$/, '');
        if (dir === '.') dir = '';
        if (dir === '..' || dir.startsWith('../') || path.posix.isAbsolute(dir)) continue;
        if (folder && dir) dir += '/';
        if (/(?:^|\/)node_modules\//.test(dir)) continue;
        if (!targets.includes(dir)) targets.push(dir);
      }
      if (!targets.length) continue;
      const prefix = key.slice(0, -1);
      const sig = `${scope}\0${prefix}\0${targets.join('\0')}`;
      if (seen.has(sig)) continue;
      seen.add(sig);
      out.push({ config: file, scope, prefix, targets });
    }
  }
  return out;
}

interface Options {
  /** Repository-relative folder `baseUrl` names. */
  baseUrl?: string;
  paths?: { map: Record<string, unknown>; dir: string };
}

/** `compilerOptions.baseUrl` and `paths` of `file`, merged over what it extends (later wins). */
async function effectiveOptions(file: string, load: (f: string) => Promise<Record<string, unknown> | null>, hops: number, seen: Set<string>): Promise<Options> {
  const json = await load(file);
  if (!json) return {};
  seen.add(file);
  const dir = dirOf(file);
  let out: Options = {};
  const ext = json.extends;
  const parents = typeof ext === 'string' ? [ext] : Array.isArray(ext) ? ext.filter((e): e is string => typeof e === 'string') : [];
  if (hops < MAX_EXTENDS) {
    for (const e of parents) {
      // local files only: a package name (`@tsconfig/next`, `expo/tsconfig.base`) is in node_modules
      if (!e.startsWith('./') && !e.startsWith('../')) continue;
      let target = path.posix.normalize(path.posix.join(dir || '.', e));
      if (target.startsWith('..')) continue;
      if (!target.endsWith('.json')) target += '.json';
      if (seen.has(target)) continue;
      const p = await effectiveOptions(target, load, hops + 1, new Set(seen));
      out = { ...out, ...(p.baseUrl !== undefined ? { baseUrl: p.baseUrl } : {}), ...(p.paths ? { paths: p.paths } : {}) };
    }
  }
  const co = json.compilerOptions;
  if (co && typeof co === 'object' && !Array.isArray(co)) {
    const c = co as Record<string, unknown>;
    if (typeof c.baseUrl === 'string') {
      const b = path.posix.normalize(path.posix.join(dir || '.', c.baseUrl));
      if (!b.startsWith('..')) out.baseUrl = b === '.' ? '' : b.replace(/\/+$/, '');
    }
    if (c.paths && typeof c.paths === 'object' && !Array.isArray(c.paths)) out.paths = { map: c.paths as Record<string, unknown>, dir };
  }
  return out;
}

/**
 * A config file's object, or null. Each file is read once (`load` memoises), so a problem is
 * recorded once: a symlink leading outside the repository, a file too large or not regular,
 * text that is no JSON with comments. A file missing from the work tree (an `extends` target
 * never written, a tracked file deleted) says nothing worth a note.
 */
async function readConfig(reader: RepoReader, file: string, problems: FileProblem[] | undefined): Promise<Record<string, unknown> | null> {
  const t = await reader.read(file);
  if ('error' in t) {
    if (t.error !== MISSING) problems?.push({ file, message: t.error });
    return null;
  }
  const v = parseJsonc(t.text);
  if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  problems?.push({ file, message: v === undefined ? 'invalid JSON (with comments)' : 'tsconfig is not a JSON object' });
  return null;
}

/**
 * JSON with comments, as tsconfig files are written: `//` and `/* *\/` comments and trailing
 * commas removed outside strings, then `JSON.parse`. Undefined when it still does not parse.
 */
export function parseJsonc(text: string): unknown {
  let out = '';
  let i = 0;
  const n = text.length;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      out += ' ';
    } else {
      out += c;
      i++;
    }
  }
  // trailing commas: a `,` followed only by blanks before `}` or `]`, outside strings
  let cleaned = '';
  for (let k = 0; k < out.length; k++) {
    const c = out[k]!;
    if (c === '"') {
      let j = k + 1;
      while (j < out.length && out[j] !== '"') j += out[j] === '\\' ? 2 : 1;
      cleaned += out.slice(k, j + 1);
      k = j;
    } else if (c === ',' && /^\s*[}\]]/.test(out.slice(k + 1, k + 200))) continue;
    else cleaned += c;
  }
  try {
    return JSON.parse(cleaned);
  } catch {
    return undefined;
  }
}

const depth = (p: string) => p.split('/').length;
const dirOf = (p: string) => {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
};
