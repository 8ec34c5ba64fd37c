// Paths a repository leaves out of git on purpose: matched by its .gitignore rules (build
// output, caches, local files), inside a git submodule (tracked by the submodule's own
// repository), or under a folder that package managers install dependencies into. Memory
// names such paths on purpose ("run clang-tidy with `build-rel/compile_commands.json`"),
// so "not in the repository" says nothing about them.
//
// The .gitignore files are read once, with the file index (`loadIgnoreRules`); they are
// compiled on the first query. Look-ups are pure and cached per folder.
import ignore, { type Ignore } from 'ignore';
import type { FileIndex } from '../types.js';
import { MISSING, RepoReader, type FileProblem } from './repo-file.js';

/** A .gitignore larger than this is no hand-written rule file: not read (a note says so). */
export const MAX_GITIGNORE_BYTES = 4 * 1024 * 1024;

interface IgnoreRules {
  /** Folder ('' = the root) -> the text of its .gitignore. */
  texts: Map<string, string>;
  /** Folder -> compiled rules (built on first use). */
  compiled: Map<string, Ignore | null>;
  /** Repository-relative path (folders with a trailing '/') -> ignored? */
  verdicts: Map<string, boolean>;
}

const rulesByIndex = new WeakMap<FileIndex, IgnoreRules>();
const problemsByIndex = new WeakMap<FileIndex, FileProblem[]>();

/**
 * Reads every .gitignore file the index lists (tracked, or untracked and not ignored — the
 * ones git applies) and attaches their rules to the index. One read per file, concurrently,
 * never through a symlink leading outside the repository, never a FIFO or device, never more
 * than MAX_GITIGNORE_BYTES: such a file gives no rules and a problem (`ignoreFileProblems`).
 */
export async function loadIgnoreRules(root: string, index: FileIndex): Promise<void> {
  const paths = index.byBasename.get('.gitignore');
  if (!paths || paths.length === 0) return;
  const texts = new Map<string, string>();
  const problems: FileProblem[] = [];
  const reader = new RepoReader(root, MAX_GITIGNORE_BYTES);
  await Promise.all(
    paths.map(async (p) => {
      const t = await reader.read(p);
      if ('text' in t) texts.set(p.length === 10 ? '' : p.slice(0, -11), t.text);
      // listed but gone (deleted meanwhile): no rules, nothing to say
      else if (t.error !== MISSING) problems.push({ file: p, message: t.error });
    }),
  );
  if (texts.size) rulesByIndex.set(index, { texts, compiled: new Map(), verdicts: new Map() });
  if (problems.length) problemsByIndex.set(index, problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)));
}

/** The .gitignore files `loadIgnoreRules` could not read for this index, by path. */
export function ignoreFileProblems(index: FileIndex): readonly FileProblem[] {
  return problemsByIndex.get(index) ?? [];
}

/** Attaches .gitignore texts directly (folder -> text); for indexes built without a root. */
export function setIgnoreRules(index: FileIndex, texts: Map<string, string>): void {
  rulesByIndex.set(index, { texts, compiled: new Map(), verdicts: new Map() });
}

function compiledAt(rules: IgnoreRules, dir: string): Ignore | null {
  let ig = rules.compiled.get(dir);
  if (ig !== undefined) return ig;
  const text = rules.texts.get(dir);
  ig = null;
  if (text !== undefined) {
    try {
      // git matches case-sensitively unless core.ignorecase (case-insensitive file systems)
      ig = ignore({ ignorecase: false }).add(text);
    } catch {
      ig = null;
    }
  }
  rules.compiled.set(dir, ig);
  return ig;
}

/**
 * What the rules of the .gitignore in `dir` say about `rel` (relative to `dir`; folders end
 * with '/') by a pattern matching `rel` itself: true (excluded), false (re-included by a `!`
 * pattern), undefined (no pattern of this file matches it). `ignore` also reports a path as
 * excluded when one of its parent folders is by this file's rules; the caller has already
 * found every parent folder not excluded (a deeper .gitignore re-included it), so such an
 * inherited verdict is not this file's word on `rel`.
 */
function ownVerdict(ig: Ignore, rel: string): boolean | undefined {
  let r;
  try {
    r = ig.test(rel);
  } catch {
    return undefined; // not a relative path `ignore` accepts
  }
  if (r.unignored) return false;
  if (!r.ignored) return undefined;
  const trimmed = rel.endsWith('/') ? rel.slice(0, -1) : rel;
  const slash = trimmed.lastIndexOf('/');
  if (slash > 0 && ig.test(trimmed.slice(0, slash + 1)).ignored) return undefined;
  return true;
}

/**
 * Whether git would ignore `p` (repository-relative; `isDir`: test it as a folder), applying
 * the root and nested .gitignore files as git does: walking down from the root, each folder
 * and finally the path itself is matched against the .gitignore files of the folders above
 * it, the deepest file with a matching pattern deciding (the last matching pattern within
 * it); once a folder is excluded, everything under it is (git does not look inside).
 */
export function ignoredByGit(index: FileIndex, p: string, isDir = false): boolean {
  const rules = rulesByIndex.get(index);
  if (!rules || !p || p.startsWith('/') || p.startsWith('../')) return false;
  const segs = p.split('/');
  let prefix = '';
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    if (!seg || seg === '.' || seg === '..') return false;
    const parent = prefix;
    prefix = prefix ? `${prefix}/${seg}` : seg;
    const asDir = i < segs.length - 1 || isDir;
    const key = asDir ? prefix + '/' : prefix;
    let v = rules.verdicts.get(key);
    if (v === undefined) {
      v = false;
      // the .gitignore files of `parent` and every folder above it, deepest first
      for (let d = parent; ; ) {
        const ig = compiledAt(rules, d);
        if (ig) {
          const rel = (d ? prefix.slice(d.length + 1) : prefix) + (asDir ? '/' : '');
          const own = ownVerdict(ig, rel);
          if (own !== undefined) {
            v = own;
            break;
          }
        }
        if (!d) break;
        const s = d.lastIndexOf('/');
        d = s < 0 ? '' : d.slice(0, s);
      }
      rules.verdicts.set(key, v);
    }
    if (v) return true;
  }
  return false;
}

/**
 * True when a folder above `p` is a file in the index: a git submodule (its gitlink is listed
 * like a file), whose contents belong to another repository's history.
 */
export function insideSubmodule(index: FileIndex, p: string): boolean {
  for (let end = p.indexOf('/'); end > 0; end = p.indexOf('/', end + 1)) {
    if (index.files.has(p.slice(0, end))) return true;
  }
  return false;
}

/** Folder names package managers install dependencies into (never the project's own files). */
const DEPENDENCY_DIRS = new Set([
  'node_modules', 'bower_components', 'jspm_packages', '.pnpm-store', // npm, pnpm, yarn, bower
  '.venv', 'venv', '__pypackages__', 'site-packages', '.tox', '.nox', // Python
  '.bundle', // Ruby (bundler's local config and install path)
  'Pods', // CocoaPods
]);

/** True when `p` lies under a dependency install folder (`node_modules/`, `.venv/`, `vendor/bundle/`…). */
export function underDependencyFolder(p: string): boolean {
  const segs = p.split('/');
  for (let i = 0; i < segs.length - 1; i++) {
    const s = segs[i]!;
    if (DEPENDENCY_DIRS.has(s)) return true;
    // bundler's `--path vendor/bundle` (a bare `vendor/` is often tracked: Go, PHP, C)
    if (s === 'vendor' && segs[i + 1] === 'bundle' && i + 1 < segs.length - 1) return true;
  }
  return false;
}

/**
 * A path that is absent from the index on purpose: git-ignored, inside a submodule, or under a
 * dependency folder. `isDir`: the path is written as a folder.
 */
export function untrackedOnPurpose(index: FileIndex, p: string, isDir = false): boolean {
  if (!p) return false;
  if (underDependencyFolder(isDir ? p + '/x' : p)) return true;
  if (insideSubmodule(index, p)) return true;
  if (ignoredByGit(index, p, isDir)) return true;
  // A last segment without an extension may be a folder (`build-rel`): git's folder-only
  // patterns (`out/`) then apply too.
  if (!isDir && !/\.[^/]+$/.test(p) && ignoredByGit(index, p, true)) return true;
  return false;
}
