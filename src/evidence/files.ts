// The file index: what exists now. One `git ls-files -z -t --cached --others --deleted --exclude-standard`
// (tracked files plus untracked files that are not ignored), or a filesystem walk when the
// root is not a git repository.
import { glob } from 'tinyglobby';
import ignore from 'ignore';
import type { DirStats, FileIndex } from '../types.js';
import { streamGitTokens } from './git.js';
import { loadIgnoreRules, MAX_GITIGNORE_BYTES } from './untracked-on-purpose.js';
import { RepoReader } from './repo-file.js';

/** Builds the lookup maps from a list of repository-relative paths (forward slashes). */
export function indexFromPaths(paths: Iterable<string>, untracked?: Set<string>, source: 'git' | 'filesystem' = 'git'): FileIndex {
  const files = new Set<string>();
  const dirs = new Set<string>();
  const lower = new Map<string, string>();
  const byBasename = new Map<string, string[]>();
  for (const p of paths) {
    if (!p || files.has(p)) continue;
    files.add(p);
    const lp = p.toLowerCase();
    if (!lower.has(lp)) lower.set(lp, p);
    const slash = p.lastIndexOf('/');
    const base = slash < 0 ? p : p.slice(slash + 1);
    const list = byBasename.get(base);
    if (list) list.push(p);
    else byBasename.set(base, [p]);
    // implied directories, stop as soon as one is known (its ancestors are too)
    let end = slash;
    while (end > 0) {
      const d = p.slice(0, end);
      if (dirs.has(d)) break;
      dirs.add(d);
      const ld = d.toLowerCase();
      if (!lower.has(ld)) lower.set(ld, d);
      end = d.lastIndexOf('/');
    }
  }
  // per-folder counts for the count check, built now (beside git) rather than on its first query
  const index: FileIndex = { files, dirs, lower, byBasename, source, stats: folderStats(files, dirs) };
  if (untracked && untracked.size) index.untracked = untracked;
  return index;
}

/** Immediate children per folder ('' = the root) and folders by lower-cased name. */
export function folderStats(files: Iterable<string>, dirs: Iterable<string>): DirStats {
  const stats: DirStats = { files: new Map(), dirs: new Map(), byDirName: new Map() };
  for (const f of files) {
    const i = f.lastIndexOf('/');
    const parent = i === -1 ? '' : f.slice(0, i);
    stats.files.set(parent, (stats.files.get(parent) ?? 0) + 1);
  }
  for (const d of dirs) {
    const i = d.lastIndexOf('/');
    const parent = i === -1 ? '' : d.slice(0, i);
    stats.dirs.set(parent, (stats.dirs.get(parent) ?? 0) + 1);
    const name = d.slice(i + 1).toLowerCase();
    const named = stats.byDirName.get(name);
    if (named) named.push(d);
    else stats.byDirName.set(name, [d]);
  }
  return stats;
}

/**
 * One git call: tracked files and untracked-but-not-ignored files, relative to `root`, less
 * tracked files deleted from the working tree (what the agent would find is what exists now).
 * Untracked `node_modules/` folders are skipped even when nothing ignores them. The .gitignore
 * files listed are read too (see `untracked-on-purpose.ts`).
 */
export async function gitFileIndex(root: string): Promise<{ index: FileIndex; error?: string }> {
  const paths: string[] = [];
  // `-t` tags each line: 'H ' (cached), '? ' (other/untracked), 'R ' (deleted from the working
  // tree; such a path is listed a second time, after its 'H ' line), and others for special states.
  const r = await streamGitTokens(root, ['ls-files', '-z', '-t', '--cached', '--others', '--deleted', '--exclude-standard', '--exclude=node_modules/'], (tok) => {
    if (tok) paths.push(tok);
  });
  if (r.code !== 0) return { index: indexFromPaths([]), error: r.stderr.trim() || `git ls-files exited with ${r.code}` };
  const untracked = new Set<string>();
  const deleted = new Set<string>();
  const clean: string[] = new Array(paths.length);
  let n = 0;
  for (const tok of paths) {
    const tag = tok.charCodeAt(0);
    const p = tok.length > 2 && tok.charCodeAt(1) === 32 ? tok.slice(2) : tok;
    if (tag === 82 /* R */) {
      deleted.add(p);
      continue;
    }
    if (tag === 63 /* ? */) untracked.add(p);
    clean[n++] = p;
  }
  clean.length = n;
  if (deleted.size > 0) {
    let m = 0;
    for (let i = 0; i < n; i++) if (!deleted.has(clean[i])) clean[m++] = clean[i];
    clean.length = m;
  }
  const index = indexFromPaths(clean, untracked, 'git');
  // The .gitignore rules, for paths memory names that git leaves out on purpose (build output)
  await loadIgnoreRules(root, index);
  return { index };
}

const WALK_IGNORE = ['**/node_modules/**', '**/.git/**', '**/.hg/**', '**/.svn/**'];

/** Not a git repository: walk the filesystem, honouring a root `.gitignore` when present. */
export async function walkFileIndex(root: string): Promise<FileIndex> {
  let found: string[] = [];
  try {
    found = await glob('**/*', { cwd: root, dot: true, ignore: WALK_IGNORE, onlyFiles: true, followSymbolicLinks: false });
  } catch {
    found = [];
  }
  // the root .gitignore, read as loadIgnoreRules reads every one (its problem is reported there)
  const gi = found.includes('.gitignore') ? await new RepoReader(root, MAX_GITIGNORE_BYTES).read('.gitignore') : undefined;
  if (gi && 'text' in gi) {
    const ig = ignore().add(gi.text);
    found = found.filter((f) => !ig.ignores(f));
  }
  found.sort();
  const index = indexFromPaths(found, undefined, 'filesystem');
  await loadIgnoreRules(root, index);
  return index;
}

/** Exact lookup of a file or directory; `''` and `.` mean the root. */
export function existsInIndex(index: FileIndex, p: string): 'file' | 'dir' | undefined {
  const q = p.replace(/\/+$/, '');
  if (q === '' || q === '.') return 'dir';
  if (index.files.has(q)) return 'file';
  if (index.dirs.has(q)) return 'dir';
  return undefined;
}
