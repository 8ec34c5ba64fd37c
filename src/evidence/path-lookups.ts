// Look-ups over the file index and the history index that only some runs need: paths by
// trailing segments (`tags/check_box.rb` -> `actionview/lib/action_view/helpers/tags/check_box.rb`),
// files by folder (glob matching) and names by letter case or history (bare names). Each table is
// built on its first use, in one pass, and kept with the index it was built from: no scan per
// reference.
import type { FileIndex, HistoryIndex } from '../types.js';

const parentOf = (p: string): string => {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
};
const baseOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

function pushTo(m: Map<string, string[]>, k: string, v: string): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

const headChildren = new WeakMap<FileIndex, Map<string, string[]>>();
const headSuffixes = new WeakMap<FileIndex, Map<string, string[]>>();
const headNamesLower = new WeakMap<FileIndex, Set<string>>();

/** Whether some file or folder at HEAD has the name `name`, ignoring letter case (a set of lower-cased names, built once). */
export function nameAtHeadIgnoringCase(index: FileIndex, name: string): boolean {
  let names = headNamesLower.get(index);
  if (!names) {
    names = new Set();
    for (const b of index.byBasename.keys()) names.add(b.toLowerCase());
    for (const d of index.dirs) names.add(baseOf(d).toLowerCase());
    headNamesLower.set(index, names);
  }
  return names.has(name.toLowerCase());
}

/** Files and folders directly in `dir` ('' = the root) at HEAD. */
export function childrenAtHead(index: FileIndex, dir: string): string[] {
  let byDir = headChildren.get(index);
  if (!byDir) {
    byDir = new Map();
    for (const f of index.files) pushTo(byDir, parentOf(f), f);
    for (const d of index.dirs) pushTo(byDir, parentOf(d), d);
    headChildren.set(index, byDir);
  }
  return byDir.get(dir) ?? [];
}

/**
 * Files and folders at HEAD whose trailing segments are `rel` (`a/b.rb` matches `x/a/b.rb`,
 * not `x/ya/b.rb` nor `a/b.rb` itself), from the basename and folder-name tables the index
 * already has; cached per `rel`.
 */
export function headPathsEndingWith(index: FileIndex, rel: string): string[] {
  let cache = headSuffixes.get(index);
  if (!cache) headSuffixes.set(index, (cache = new Map()));
  const hit = cache.get(rel);
  if (hit) return hit;
  const tail = '/' + rel;
  const last = baseOf(rel);
  const out: string[] = [];
  for (const p of index.byBasename.get(last) ?? []) if (p.endsWith(tail)) out.push(p);
  for (const d of index.stats?.byDirName.get(last.toLowerCase()) ?? []) if (d.endsWith(tail)) out.push(d);
  cache.set(rel, out);
  return out;
}

interface HistoryTables {
  byBase: Map<string, string[]>;
  byDir: Map<string, string[]>;
  /** `historyFilesEndingWith` answers. */
  suffixes: Map<string, string[]>;
}
const historyTables = new WeakMap<HistoryIndex, HistoryTables>();

/** Every file path history knows, by basename and by folder (one pass over its paths, on first use). */
function tablesOf(history: HistoryIndex): HistoryTables {
  let t = historyTables.get(history);
  if (!t) {
    t = { byBase: new Map(), byDir: new Map(), suffixes: new Map() };
    for (const p of history.events.keys()) {
      const i = p.lastIndexOf('/');
      pushTo(t.byBase, i < 0 ? p : p.slice(i + 1), p);
      pushTo(t.byDir, i < 0 ? '' : p.slice(0, i), p);
    }
    historyTables.set(history, t);
  }
  return t;
}

/** Files that history knows under some folder, ending with the segments `rel` (see `headPathsEndingWith`). */
export function historyFilesEndingWith(history: HistoryIndex, rel: string): string[] {
  const t = tablesOf(history);
  let out = t.suffixes.get(rel);
  if (!out) {
    const tail = '/' + rel;
    out = (t.byBase.get(baseOf(rel)) ?? []).filter((p) => p.endsWith(tail));
    t.suffixes.set(rel, out);
  }
  return out;
}

/** Files that were ever directly in `dir` according to history. */
export function historyFilesInFolder(history: HistoryIndex, dir: string): string[] {
  return tablesOf(history).byDir.get(dir) ?? [];
}

/** Files that history knows with the basename `name` (any folder, the root included). */
export function historyFilesNamed(history: HistoryIndex, name: string): string[] {
  return tablesOf(history).byBase.get(name) ?? [];
}
