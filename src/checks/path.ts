// path-missing / path-renamed / path-unverified: a path written in memory that is not in
// the repository at HEAD, explained from history (renamed, with the final successor; or
// deleted, with the commit). Resolved against the memory file's folder and the repository
// root, whichever matches the history.
import type { Check, CheckContext, Entry, Evidence, Finding, MemoryFile, PathEvent, PathFate, Reference } from '../types.js';
import { dirname, joinPath } from '../memory/refs/paths.js';
import { contextFolders } from '../memory/references.js';
import { splitFqcn } from '../memory/refs/commands.js';
import picomatch from 'picomatch';
import { builtinModules } from 'node:module';
import { checkable, describedAsPast, commitEvidence, describeCommit, exists, finding, memDirOf, refsOf, relativeTo, short, workspaceFolder } from './stale-common.js';
import { untrackedOnPurpose } from '../evidence/untracked-on-purpose.js';
import { childrenAtHead, headPathsEndingWith, historyFilesEndingWith, historyFilesInFolder, historyFilesNamed, nameAtHeadIgnoringCase } from '../evidence/path-lookups.js';
import type { PathAlias } from '../evidence/tsconfig-paths.js';

const GLOB = /[*?[\]{}]/;
const BUILD_DIRS = new Set(['dist', 'build', 'out', 'target', 'node_modules', '.venv', 'venv', 'coverage', '.next', '.nuxt', '.turbo', '.cache', '__pycache__', 'site', '.output', '.svelte-kit', 'tmp', '.tmp']);

interface Candidate {
  path: string;
  /** How the candidate relates to what was written. */
  from: 'base' | 'memdir' | 'root' | 'tree-stripped' | 'context' | 'name' | 'alias';
  /** 'context': the folder the text around the path names. 'alias': the alias's target (`packages/front-end/`). */
  base?: string;
  /** 'name': how its successor is written (set once resolved). 'alias': the alias prefix (`@/`). */
  as?: string;
  /** A module file found for a specifier written without its extension: the successor is written without one too. */
  module?: boolean;
}

/**
 * A path with a folder in it that resolves nowhere as written, tried against the folders its
 * context names (parent list items, the list's intro line, the nearest heading; see
 * `contextFolders`) that exist at HEAD as folders. `a/b` under folder `x/a` is also `x/a/b`.
 */
function contextCandidates(entry: Entry, ref: Reference, ev: Evidence, value: string, file: MemoryFile | undefined, cands: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  for (const dir of contextFolders(entry, file, ref.start)) {
    if (!ev.files.dirs.has(dir)) continue;
    const push = (p: string | null) => {
      if (p && !cands.some((c) => c.path === p) && !out.some((c) => c.path === p)) out.push({ path: p, from: 'context', base: dir });
    };
    push(joinPath(dir, value));
    // Overlap: the path repeats the folder's last segments (`workbench/browser` under `src/vs/workbench`).
    const ds = dir.split('/');
    const vs = value.split('/');
    for (let k = Math.min(ds.length, vs.length - 1); k >= 1; k--) {
      if (ds.slice(ds.length - k).join('/') === vs.slice(0, k).join('/')) push(joinPath(ds.slice(0, ds.length - k).join('/'), value));
    }
  }
  return out;
}

type Anchor = 'plain' | 'dot' | 'parent' | 'root';

function anchorOf(ref: Reference): { anchor: Anchor; at: boolean } {
  let r = ref.raw;
  const at = ref.kind === 'import' || r.startsWith('@');
  if (at && r.startsWith('@')) r = r.slice(1);
  if (ref.via === 'tree') return { anchor: 'plain', at };
  if (r.startsWith('/')) return { anchor: 'root', at };
  if (r.startsWith('./')) return { anchor: 'dot', at };
  if (r.startsWith('../')) return { anchor: 'parent', at };
  return { anchor: 'plain', at };
}

export function candidates(ref: Reference, memDir: string, value: string): Candidate[] {
  const { anchor } = anchorOf(ref);
  const out: Candidate[] = [];
  const push = (p: string | null, from: Candidate['from']) => {
    if (p === null || p === '') return;
    if (!out.some((c) => c.path === p)) out.push({ path: p, from });
  };
  const base = ref.base && ref.via !== 'tree' ? ref.base.replace(/\/+$/, '') : '';
  if (anchor === 'root') push(joinPath('', value), 'root');
  else if (anchor === 'parent') push(joinPath(memDir, value), 'memdir');
  else {
    if (base) push(joinPath(base, value), 'base');
    push(joinPath(memDir, value), 'memdir');
    push(joinPath('', value), 'root');
  }
  return out;
}

function globPrefix(v: string): string {
  const segs = v.split('/');
  const out: string[] = [];
  for (const s of segs) {
    if (GLOB.test(s)) break;
    out.push(s);
  }
  return out.join('/');
}

interface Resolution {
  kind: 'present' | 'case' | 'renamed' | 'deleted' | 'never' | 'unknown-history';
  cand?: Candidate;
  fate?: PathFate;
  real?: string;
}

function stale(f: PathFate): boolean {
  return f.status === 'renamed' || f.status === 'deleted';
}

export function resolvePath(ev: Evidence, cands: Candidate[]): Resolution {
  for (const c of cands) if (exists(ev, c.path)) return { kind: 'present', cand: c };
  for (const c of cands) {
    const real = ev.files.lower.get(c.path.toLowerCase());
    if (real && real !== c.path) {
      // A real rename (history) beats a case-only match; so does a case-only rename history
      // records (`git mv Readme.md README.md`): the old spelling is a stale name, not a typo.
      const f = ev.history.available ? ev.history.fate(c.path) : undefined;
      if (f && f.status === 'renamed' && f.successor && exists(ev, f.successor) && (f.successor !== real || (f.commit && !f.inferred))) return { kind: 'renamed', cand: c, fate: f };
      return { kind: 'case', cand: c, real };
    }
  }
  if (!ev.history.available) return { kind: 'unknown-history' };
  for (const c of cands) {
    const f = ev.history.fate(c.path);
    if (!stale(f)) continue;
    if (f.status === 'renamed' && f.successor !== undefined && f.successor !== '' && exists(ev, f.successor)) {
      if ((f as { inferred?: string }).inferred === 'case') return { kind: 'case', cand: c, real: f.successor };
      return { kind: 'renamed', cand: c, fate: f };
    }
    return { kind: 'deleted', cand: c, fate: f };
  }
  return { kind: ev.history.shallow ? 'unknown-history' : 'never' };
}

/** The deepest folder holding every path ('' when they share none). */
function commonFolder(paths: string[]): string {
  let common = paths[0]!.slice(0, Math.max(0, paths[0]!.lastIndexOf('/')));
  for (const p of paths) {
    while (common && !p.startsWith(common + '/')) {
      const i = common.lastIndexOf('/');
      common = i < 0 ? '' : common.slice(0, i);
    }
  }
  return common;
}

/**
 * A relative path of two or more segments found nowhere as written, tried as the trailing
 * segments of a longer path: memory often writes paths relative to a component folder
 * (`lib/action_view/helpers/form_helper.rb` in rails, for
 * `actionview/lib/action_view/helpers/form_helper.rb`). 'found' when it ends one path at HEAD,
 * or several that lie under one folder (the same tolerance bare names found elsewhere in the
 * tree get). When it ends nothing at HEAD but exactly one file history knows, and that file
 * was renamed or deleted, that is the path's fate (reported with the full path in
 * parentheses, the successor written relative to the same component folder); only for
 * references that are clearly paths (`fromHistory`: not a weak prose token).
 */
function resolveBySuffix(ev: Evidence, value: string, fromHistory: boolean): Resolution | 'found' | undefined {
  const rel = value.replace(/\/+$/, '');
  const slash = rel.indexOf('/');
  if (slash <= 0) return undefined;
  const first = rel.slice(0, slash);
  if (first === '.' || first === '..') return undefined;
  const now = headPathsEndingWith(ev.files, rel);
  if (now.length === 1 || (now.length > 1 && commonFolder(now) !== '')) return 'found';
  // several unrelated paths end so (ambiguous), or a history that cannot tell renames apart
  if (now.length > 0 || !fromHistory || !ev.history.available || ev.history.shallow) return undefined;
  const then = historyFilesEndingWith(ev.history, rel);
  if (then.length !== 1) return undefined;
  const full = then[0]!;
  const r = resolvePath(ev, [{ path: full, from: 'context', base: full.slice(0, full.length - rel.length - 1) }]);
  return r.kind === 'renamed' || r.kind === 'deleted' ? r : undefined;
}

/**
 * A bare file name (`temporary.xml`) found nowhere as written, nor in history at the root or
 * the folders tried: memory names deep files by their name alone. When no file or folder at
 * HEAD has that name (any letter case) and the history paths that had it are one file (renames
 * between them followed: one path that was not renamed to another of them), that file's rename
 * or deletion is the name's fate (candidate `from: 'name'`: shown with the full path; the
 * successor written as a bare name while that names one file at HEAD, else in full). Not when
 * the memory file was added after that rename or deletion: the text was written without that
 * file, so the name means something else (a local or generated file).
 */
function resolveByName(entry: Entry, ev: Evidence, name: string): Resolution | undefined {
  if (nameAtHeadIgnoringCase(ev.files, name)) return undefined;
  const then = historyFilesNamed(ev.history, name);
  if (!then.length) return undefined;
  const members = new Set(then);
  // The paths whose last event is not a rename to another path of the same name: one when the
  // paths are one file moved between folders, more when history had different files so named.
  let end: string | undefined;
  for (const p of then) {
    const evs = ev.history.events.get(p);
    const last = evs?.[evs.length - 1];
    if (last?.type === 'renamed-from' && last.other && members.has(last.other)) continue;
    if (end !== undefined) return undefined;
    end = p;
  }
  if (end === undefined) return undefined;
  const r = resolvePath(ev, [{ path: end, from: 'name' }]);
  if (r.kind !== 'renamed' && r.kind !== 'deleted') return undefined;
  const succ = r.kind === 'renamed' ? r.fate?.successor : undefined;
  if (succ && r.cand) {
    const base = succ.slice(succ.lastIndexOf('/') + 1);
    r.cand.as = ev.files.byBasename.get(base)?.length === 1 ? base : succ;
  }
  const first = ev.history.events.get(entry.file)?.[0];
  const gone = r.fate?.commit;
  if (first?.type === 'added' && gone && Date.parse(first.commit.time) > Date.parse(gone.time)) return undefined;
  return r;
}

/**
 * A glob naming files of one folder (`src/llama-model-loader.*`: wildcards in the last
 * segment only) whose folder exists: stale when it matches no file at HEAD although it
 * matched tracked files in history, and each of them was renamed or deleted. When every one
 * was renamed the same way (to one folder, with the same change to the literal part of the
 * name), the glob with that change applied is the successor; otherwise `path-missing`. Globs
 * that still match something, never matched a tracked file, or whose matches' fate history
 * cannot tell stay silent.
 */
function globMatchesGone(entry: Entry, ref: Reference, ev: Evidence, memDir: string, cand: Candidate): Finding | null {
  const seg = ref.value.slice(globPrefix(ref.value).length + 1);
  if (!seg || seg.includes('/') || seg.includes('**') || !GLOB.test(seg)) return null;
  const dir = cand.path;
  if (!ev.files.dirs.has(dir) || !ev.history.available || ev.history.shallow) return null;
  let match: (name: string) => boolean;
  try {
    match = picomatch(seg);
  } catch {
    return null;
  }
  // A name that exists as written is no glob (`app/blog/[slug]`, a Next.js route folder).
  if (exists(ev, `${dir}/${seg}`)) return null;
  const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  for (const f of childrenAtHead(ev.files, dir)) if (match(baseOf(f))) return null;
  const former = historyFilesInFolder(ev.history, dir).filter((p) => match(baseOf(p))).sort();
  if (!former.length) return null;
  // Untracked since, but git-ignored now (`config/*.local.json`): the files live on, out of git.
  if (former.some((p) => untrackedOnPurpose(ev.files, p))) return null;
  const fates: PathFate[] = [];
  for (const p of former) {
    const f = ev.history.fate(p);
    if (f.status === 'renamed' ? !f.successor || !exists(ev, f.successor) : f.status !== 'deleted') return null;
    fates.push(f);
  }
  // the most recent of the commits that renamed or deleted the former matches
  let last = fates[0]!.commit;
  for (const f of fates) if (f.commit && (!last || f.commit.time > last.time)) last = f.commit;
  const written = `${dir}/${seg}`;
  const list = former.slice(0, 3).map((p) => `\`${p}\``).join(', ') + (former.length > 3 ? ` and ${former.length - 3} more` : '');
  const what = former.length === 1 ? `the file it matched (${list}) was` : `the ${former.length} files it matched (${list}) were`;
  const pairs = fates.every((f) => f.status === 'renamed') ? former.map((p, i) => [p, fates[i]!.successor!] as const) : [];
  const successor = pairs.length ? renamedGlob(seg, pairs, match) : undefined;
  // the text already says so, or an arrow points at the rewritten glob (`a.*` → `b.*`)
  if (describedAsPast(entry, ref, successor)) return null;
  if (successor) {
    const replace = styled({ ...ref, glob: false }, cand, successor, memDir, false);
    return finding(
      entry, ref, 'path-renamed', 'warning',
      `\`${ref.raw}\` matches no file any more: ${what} renamed to \`${successor}\` in ${describeCommit(last)}; update the reference.`,
      { ...commitEvidence(last), path: written, now: successor, matched: former },
      replace ? { replace } : undefined,
    );
  }
  const how = fates.every((f) => f.status === 'deleted') ? 'deleted' : 'renamed or deleted, not all in one way';
  const by = how === 'deleted' && last?.author ? ` by ${last.author}` : '';
  return finding(
    entry, ref, 'path-missing', 'warning',
    `\`${ref.raw}\` matches no file any more: ${what} ${how} (the last in ${describeCommit(last)}${by}); remove the reference or point it at what replaced ${former.length === 1 ? 'it' : 'them'}.`,
    { ...commitEvidence(last), path: written, now: last ? short(last.sha) : undefined, matched: former },
  );
}

/**
 * The glob `seg` rewritten for renames `old -> new` (full paths): all into one folder, each
 * name changed by the same edit (`llama-model-loader.cpp -> llama-loader.cpp` and `.h -> .h`:
 * `model-` removed) at the same place of the literal start or end of the glob. Undefined when
 * no single edit explains every rename, or the rewritten glob misses one of the new names.
 */
function renamedGlob(seg: string, pairs: ReadonlyArray<readonly [string, string]>, oldMatch: (name: string) => boolean): string | undefined {
  const dirOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));
  const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  const newDir = dirOf(pairs[0]![1]);
  if (pairs.some(([, n]) => dirOf(n) !== newDir)) return undefined;
  // each rename as old = P + x + S, new = P + y + S (longest common prefix P, then suffix S)
  let x: string | undefined;
  let y = '';
  const starts = new Set<number>();
  const ends = new Set<number>();
  for (const [o, n] of pairs) {
    const ob = baseOf(o);
    const nb = baseOf(n);
    let p = 0;
    while (p < ob.length && p < nb.length && ob[p] === nb[p]) p++;
    let q = 0;
    while (q < ob.length - p && q < nb.length - p && ob[ob.length - 1 - q] === nb[nb.length - 1 - q]) q++;
    const ox = ob.slice(p, ob.length - q);
    const ny = nb.slice(p, nb.length - q);
    if (x === undefined) {
      x = ox;
      y = ny;
    } else if (x !== ox || y !== ny) return undefined;
    starts.add(p);
    ends.add(q);
  }
  let newSeg = seg;
  if (x || y) {
    // the literal text before the first wildcard and after the last one
    const firstWild = seg.search(/[*?[\]{}]/);
    const lastWild = Math.max(...['*', '?', '[', ']', '{', '}'].map((c) => seg.lastIndexOf(c)));
    const head = seg.slice(0, firstWild);
    const tail = seg.slice(lastWild + 1);
    const p = starts.size === 1 ? [...starts][0]! : -1;
    const q = ends.size === 1 ? [...ends][0]! : -1;
    if (p >= 0 && p + x!.length <= head.length && head.slice(p, p + x!.length) === x) newSeg = seg.slice(0, p) + y + seg.slice(p + x!.length);
    else if (q >= 0 && q + x!.length <= tail.length && tail.slice(tail.length - q - x!.length, tail.length - q) === x) {
      const at = seg.length - q - x!.length;
      newSeg = seg.slice(0, at) + y + seg.slice(at + x!.length);
    } else return undefined;
  }
  let newMatch: (name: string) => boolean;
  try {
    newMatch = newSeg === seg ? oldMatch : picomatch(newSeg);
  } catch {
    return undefined;
  }
  if (!newSeg || pairs.some(([, n]) => !newMatch(baseOf(n)))) return undefined;
  return newDir ? `${newDir}/${newSeg}` : newSeg;
}

function styled(ref: Reference, cand: Candidate, successor: string, memDir: string, dir: boolean): string | undefined {
  const { anchor, at } = anchorOf(ref);
  if (ref.via === 'tree') return undefined;
  let out: string;
  if (cand.from === 'alias') {
    // written back through the same alias; a successor outside the alias's folder has no such spelling
    const target = cand.base ?? '';
    if (!successor.startsWith(target) || cand.as === undefined) return undefined;
    out = cand.as + successor.slice(target.length);
  } else if (cand.from === 'name') {
    if (!cand.as) return undefined;
    out = cand.as;
  } else if (cand.from === 'base' || cand.from === 'context') {
    const base = cand.from === 'context' ? cand.base ?? '' : (ref.base ?? '').replace(/\/+$/, '');
    if (!successor.startsWith(base + '/')) return undefined;
    out = successor.slice(base.length + 1);
  } else if (anchor === 'root') out = '/' + successor;
  else if (cand.from === 'memdir' && memDir) {
    out = relativeTo(memDir, successor);
    if (anchor === 'dot' && !out.startsWith('.')) out = './' + out;
  } else {
    out = successor;
    if (anchor === 'dot') out = './' + out;
  }
  if (cand.module) out = moduleSpecifierOf(out, ref.value) ?? out;
  const globTail = ref.glob ? ref.value.slice(globPrefix(ref.value).length) : '';
  if (globTail) out += globTail;
  if (dir && ref.raw.endsWith('/') && !out.endsWith('/')) out += '/';
  if (at && cand.from !== 'alias') out = '@' + out;
  // A link target is written the way the link was: percent-encoded when it was, and a new name
  // with spaces encoded unless the target sat in angle brackets (the only place a raw space can).
  if (ref.in === 'link') {
    if (/%[0-9a-f]{2}/i.test(ref.raw)) out = encodeURI(out);
    else if (out.includes(' ') && !ref.raw.includes(' ')) out = out.replace(/ /g, '%20');
  }
  // A Windows path (`scripts\test.bat`) is written back with backslashes.
  if (ref.raw.includes('\\') && !ref.raw.includes('/')) out = (ref.raw.startsWith('.\\') && !out.startsWith('.') ? '.\\' : '') + out.replace(/\//g, '\\');
  return out;
}

function bareName(ref: Reference): boolean {
  return !ref.value.includes('/') && anchorOf(ref).anchor === 'plain';
}

/**
 * A Go import path inside one of the repository's own modules (`github.com/acme/svc/internal/store`
 * with `module github.com/acme/svc` in go.mod) names a folder: the rest of the path under the
 * go.mod's folder. The longest module prefix wins (a nested module, `…/svc/tools`); `/...` is the
 * same folder. Written back through the module path, like an alias.
 */
function ownGoPackage(ev: Evidence, ref: Reference): Candidate | undefined {
  const mods = ev.manifests.goModules;
  if (!mods?.size || !ref.value.includes('/')) return undefined;
  const v = ref.value.replace(/\/(?:\.\.\.)?$/, '');
  let best: string | undefined;
  for (const m of mods.keys()) if (v.startsWith(m + '/') && (best === undefined || m.length > best.length)) best = m;
  if (best === undefined) return undefined;
  const gomod = mods.get(best)!;
  const base = gomod.includes('/') ? gomod.slice(0, gomod.lastIndexOf('/') + 1) : '';
  const rest = joinPath('', v.slice(best.length + 1));
  return rest ? { path: base + rest, from: 'alias', base, as: best + '/' } : undefined;
}

export function checkPathRef(entry: Entry, ref: Reference, ev: Evidence, memDir = memDirOf(entry.file), file?: MemoryFile): Finding | null {
  // A fully-qualified class name (`--tests com.acme.app.login.LoginViewModelTest`): its source file.
  const fq = ref.kind === 'path' && ref.weak && !ref.via ? fqcnFinding(entry, ref, ev) : null;
  if (fq) return fq;
  // A dotted Python name of the project's own package (`celery._state.get_current_app`): its module file.
  const py = ref.kind === 'path' && ref.weak && !ref.via ? pythonModuleFinding(entry, ref, ev) : null;
  if (py) return py;
  const goPackage = ref.kind === 'package' ? ownGoPackage(ev, ref) : undefined;
  if (ref.kind !== 'path' && ref.kind !== 'import' && !goPackage) return null;
  // `app/[locale]/page.tsx`, `docs/[...slug]/`, `(marketing)/`: route folders, when the repository has (had) them so named.
  const route = !goPackage ? routeSegments(ev, ref.value) : undefined;
  if (route === 'literal') ref = { ...ref, glob: false };
  else if (route === 'unknown') return null;
  const isGlob = !goPackage && route !== 'literal' && (!!ref.glob || GLOB.test(ref.value));
  let value = goPackage ? goPackage.path : ref.value;
  if (isGlob) {
    value = globPrefix(ref.value);
    if (!value) return null;
  }
  const listed = listedName(ref);
  let cands = goPackage ? [goPackage] : listed !== undefined ? listedCandidates(listed, memDir, value) : candidates(ref, memDir, value);
  // A path argument of a command run in one workspace package (`pnpm --filter web lint src/c.ts`)
  // is relative to that package's folder, not to the memory file's or the root: when the package
  // is known, its folder is the only place to look (the root's own `src/c.ts` says nothing).
  if (ref.kind === 'path' && ref.workspace && !ref.base && !value.startsWith('/')) {
    const dir = workspaceFolder(ev, ref.workspace);
    const inPackage = dir === undefined ? null : joinPath(dir, value);
    if (dir !== undefined && inPackage) cands = [{ path: inPackage, from: 'context', base: dir }];
  }
  if (!cands.length) return null;
  // A tree whose top line is the project's own folder name (`my-app/`): try without it.
  if (ref.via === 'tree' && value.includes('/')) {
    const top = value.slice(0, value.indexOf('/'));
    if (!exists(ev, top) && !(ev.history.available && ev.history.fate(top).status !== 'unknown')) {
      const stripped = value.slice(top.length + 1);
      if (!cands.some((c) => c.path === stripped)) cands.push({ path: stripped, from: 'tree-stripped' });
    }
  }
  const alias = ref.kind === 'path' && ref.via !== 'tree' ? resolveAlias(ref, ev, memDir, isGlob, cands) : undefined;
  if (alias === null) return null;
  let res = alias ? alias.res : resolvePath(ev, cands);
  if (alias) cands = alias.tried;
  if (listed && !listedGone(ev, ref, res)) return null;
  // Not found as written, nor ever in history: try the folders the context names.
  if (!alias && (res.kind === 'never' || res.kind === 'unknown-history') && ref.kind === 'path' && ref.via !== 'tree' && value.includes('/') && !isGlob) {
    const anchor = anchorOf(ref).anchor;
    if (anchor === 'plain' || anchor === 'dot') {
      const more = contextCandidates(entry, ref, ev, value, file, cands);
      if (more.length) {
        const r2 = resolvePath(ev, more);
        if (r2.kind === 'present') return null;
        if (res.kind === 'never' && r2.kind !== 'never' && r2.kind !== 'unknown-history') res = r2;
      }
    }
  }
  // A package of the own module that never was a folder: generated code, or not a package path at all.
  if (goPackage && (res.kind === 'never' || res.kind === 'unknown-history')) return null;
  // `../../docs/api.md` in a memory file that moved since it was written: relative to where it was.
  if (res.kind === 'never' && ref.kind === 'path' && !isGlob && (ref.value.startsWith('../') || ref.value.startsWith('./'))) {
    const moved = movedWithMemoryFile(entry, ref, ev);
    if (moved) return moved;
  }
  const shown = ref.raw;
  const resolvedNote = (c: Candidate | undefined) => (c && c.path !== ref.value.replace(/\/+$/, '') && (goPackage || c.path !== value) ? ` (${c.path})` : '');
  const dirRef = ref.raw.endsWith('/');

  if (res.kind === 'never' || res.kind === 'unknown-history') {
    // Left out of git on purpose: git-ignored (build output such as `build-rel/`, `dist/`),
    // inside a submodule, or installed dependencies. Absent from the index and from history
    // by design, so neither a typo nor a rename. (A tracked file that was renamed or deleted
    // resolved above, from history, and keeps that finding.)
    if (cands.some((c) => untrackedOnPurpose(ev.files, c.path, isGlob || dirRef))) return null;
    // `@/x` or `~/x` with no config mapping the alias: it names a module through an alias this
    // audit cannot see (a bundler's or framework's own), not a path at the root; nothing to say.
    if (!alias && ref.kind === 'path' && UNMAPPED_ALIAS.test(ref.raw)) return null;
    // `/api/v2/`, `/users/:id`: a URL route of the app, written like a root-absolute path.
    if (!alias && looksLikeRoute(ref)) return null;
    if (!alias && !isGlob && ref.kind === 'path' && ref.via !== 'tree' && anchorOf(ref).anchor === 'plain') {
      const bySuffix = resolveBySuffix(ev, value, !ref.weak);
      if (bySuffix === 'found') return null;
      if (bySuffix) res = bySuffix;
      // A bare file name of a file deep in the tree: its one file in history (not with a shallow
      // history, which is 'unknown-history'; not for a weak token without an extension).
      else if (res.kind === 'never' && !value.includes('/') && !dirRef && (!ref.weak || /[^.]\.[^.]+$/.test(value))) {
        const byName = resolveByName(entry, ev, value);
        if (byName) res = byName;
      }
    }
    // `@scope/name/sub/path` (`name/sub/path`): a file of the workspace package of that name, or of
    // an installed dependency (nothing to check there).
    if (!alias && res.kind === 'never' && ref.kind === 'path' && !isGlob) {
      const sub = packageSubpath(ev, ref.raw.startsWith('@') && !ref.raw.startsWith('@/') ? ref.raw : value);
      if (sub === 'dependency') return null;
      if (sub) {
        const r2 = resolvePath(ev, [sub]);
        if (r2.kind === 'present') return null;
        if (r2.kind !== 'never' && r2.kind !== 'unknown-history') res = r2;
      }
    }
    // A module specifier written without its extension (`shared/composables/useBranding`).
    if (!alias && res.kind === 'never' && moduleSpecifierRef(entry, ref, ev, isGlob, dirRef)) {
      const m = resolveModule(entry, ev, ref, cands, value);
      if (m === 'found') return null;
      if (m) res = m;
    }
  }
  if (res.kind === 'present') return isGlob && ref.kind === 'path' && res.cand ? globMatchesGone(entry, ref, ev, memDir, res.cand) : null;
  // `pkg/x.Ident`: the package it names is a folder; a file of that name that history renamed is another thing.
  if ((res.kind === 'renamed' || res.kind === 'deleted') && !res.fate?.isDirectory && goIdentFolder(entry, ref)) return null;
  // the text already says it is gone or replaced (tested once the path is known to be missing);
  // an arrow to where history took it (`old.ts` → `new.ts`) records that change
  if (describedAsPast(entry, ref, [res.real, res.fate?.successor, ...(res.fate?.chain ?? []).map((h) => h.to)])) return null;
  if (res.kind === 'case') {
    const real = res.real!;
    return finding(
      entry, ref, 'path-renamed', 'info',
      `\`${shown}\`${resolvedNote(res.cand)} differs only in letter case from \`${real}\`, which fails on case-sensitive file systems; write \`${real}\`.`,
      { now: real, path: res.cand!.path, case: true },
      styled(ref, res.cand!, real, memDir, dirRef) ? { replace: styled(ref, res.cand!, real, memDir, dirRef) } : undefined,
    );
  }
  // Bare names that exist somewhere else in the tree are not confidently stale.
  if (bareName(ref) && !ref.via && (res.kind === 'deleted' || res.kind === 'never')) {
    const name = ref.value.split('/').pop()!;
    if (ev.files.byBasename.get(name)?.length) return null;
  }
  if (res.kind === 'renamed') {
    const f = res.fate!;
    const succ = f.successor!;
    const hops = f.chain && f.chain.length > 1 ? ` (via ${f.chain.slice(0, -1).map((h) => `\`${h.to}\``).join(', ')})` : '';
    const replace = styled(ref, res.cand!, succ, memDir, !!f.isDirectory || dirRef);
    const inferred = (f as { inferred?: string }).inferred;
    const dests = (f as { destinations?: Array<{ path: string; files: number }> }).destinations ?? [];
    if (f.isDirectory && dests.length >= 2) {
      const total = dests.reduce((a, d) => a + d.files, 0);
      const second = [...dests].sort((a, b) => b.files - a.files)[1];
      if (second.files >= Math.max(2, total * 0.1)) {
        // Split across several folders: no single successor to write.
        const list = [...dests].sort((a, b) => b.files - a.files).slice(0, 3);
        const shownList = list.map((d) => `\`${d.path}/\` (${d.files} file${d.files === 1 ? '' : 's'})`).join(', ');
        return finding(
          entry, ref, 'path-missing', 'warning',
          `Directory \`${shown}\`${resolvedNote(res.cand)} was split up in ${describeCommit(f.commit)}: its files moved to ${shownList}${dests.length > 3 ? ' and more' : ''}; point the reference at the part you mean.`,
          { ...commitEvidence(f.commit), path: res.cand!.path, now: f.commit ? short(f.commit.sha) : undefined, destinations: dests },
        );
      }
    }
    if (inferred === 'readded') {
      const del = f.chain?.find((h) => h.to === succ) ?? f.chain?.[f.chain.length - 1];
      const added = ev.history.events.get(succ)?.find((e) => (e.type === 'added' || e.type === 'renamed-to') && (!del || e.commit.time >= del.commit.time));
      return finding(
        entry, ref, 'path-renamed', 'warning',
        `\`${shown}\`${resolvedNote(res.cand)} was deleted in ${describeCommit(del?.commit ?? f.commit)} and re-added as \`${succ}\`${added ? ` in ${describeCommit(added.commit)}` : ''}; update the reference.`,
        { ...commitEvidence(added?.commit ?? f.commit), path: res.cand!.path, now: succ, readded: true },
        replace ? { replace } : undefined,
      );
    }
    return finding(
      entry, ref, 'path-renamed', 'warning',
      `${f.isDirectory ? 'Directory ' : ''}\`${shown}\`${resolvedNote(res.cand)} was ${f.isDirectory ? 'moved' : 'renamed'} to \`${succ}${f.isDirectory ? '/' : ''}\`${hops} in ${describeCommit(f.commit)}; update the reference.`,
      { ...commitEvidence(f.commit), path: res.cand!.path, now: succ, ...(f.chain ? { chain: f.chain.map((h) => ({ from: h.from, to: h.to, commit: h.commit.sha })) } : {}) },
      replace ? { replace } : undefined,
    );
  }
  if (res.kind === 'deleted') {
    const f = res.fate!;
    // Build output and local environments are regenerated, not tracked: gone from git is not gone.
    if (BUILD_DIRS.has(res.cand!.path.split('/')[0].toLowerCase())) return null;
    // Removed from git and ignored since (a file that became generated or local-only, such as
    // `generated/schema.json` or `config/local.json`): gone from the index on purpose, not gone.
    if (untrackedOnPurpose(ev.files, res.cand!.path, !!f.isDirectory || dirRef)) return null;
    const c = f.commit;
    const moved = f.chain && f.chain.length ? ` after moving to \`${f.chain[f.chain.length - 1].to}\`` : '';
    const by = c?.author ? ` by ${c.author}` : '';
    const msg = f.isDirectory
      ? `Directory \`${shown}\`${resolvedNote(res.cand)} no longer exists${moved}: its last files were removed or split up by ${describeCommit(c)}${by}; remove the reference or point it at the new location.`
      : `\`${shown}\`${resolvedNote(res.cand)} was deleted${moved} in ${describeCommit(c)}${by}; remove the reference or point it at what replaced it.`;
    return finding(entry, ref, 'path-missing', 'warning', msg, { ...commitEvidence(c), path: res.cand!.path, now: c ? short(c.sha) : undefined });
  }
  if (res.kind === 'unknown-history') {
    if (ref.weak || ref.via || !ref.value.includes('/') || ref.in === 'prose') return null;
    const why = !ev.history.available ? 'git history is not available' : 'the clone is shallow (use actions/checkout with fetch-depth: 0)';
    return finding(entry, ref, 'path-missing', 'warning', `\`${shown}\` does not exist at HEAD and ${why}, so its rename or deletion cannot be traced; fix or remove the reference.`, { path: cands[0].path });
  }
  // Never existed: report as unverified only when it is clearly meant as a repository path.
  if (ref.weak || ref.via || isGlob || !ref.value.includes('/') || ref.in === 'prose' || ref.in === 'code') return null;
  // `ggml-org/llama.cpp`, `vercel/next.js`: a repository's `owner/name`, not a path.
  if (repositorySlug(ev, ref, cands)) return null;
  // `/dashboard/[teamSlug]/settings`, `/api/users/[id]`: a URL route with its parameters (a leading
  // `/`, a bracketed segment, no file extension), not a file of the repository.
  if (ref.raw.startsWith('/') && /\/\[[^\]/]+\](?:\/|$)/.test(ref.raw) && !/\.[A-Za-z0-9]+$/.test(ref.raw)) return null;
  // An example (`e.g. `x``, `(e.g., `./stories/Button.stories.tsx`)`, `for example: `x``): a shape, not a file of this repository.
  if (/\b(?:e\.g\.?|for example|for instance|such as|like)\s*[,:;\u2013\u2014-]?\s*[("'`]*$/i.test(entry.text.slice(0, Math.max(0, ref.start - entry.start)))) return null;
  // A path the line tells the reader to create ("create `src/features/<x>/index.ts`", "(create
  // the folder when you first need one)", "(example)"): not meant to exist yet.
  if (TO_BE_CREATED.test(lineWithoutCode(entry, ref))) return null;
  return finding(
    entry, ref, 'path-unverified', 'info',
    `\`${shown}\` is not in the repository and never was in its history; check whether it is a typo or describes another project.`,
    { path: cands[cands.length - 1].path },
  );
}

/**
 * Suffixes project names take after a language or platform (`llama.cpp`, `next.js`, `socket.io`,
 * `lazy.nvim`, `Humanizer.NET`); never a data, config or docs extension (`conf/app.yaml` stays a path).
 */
const PROJECT_SUFFIXES = new Set(['js', 'ts', 'cpp', 'c', 'io', 'rs', 'py', 'rb', 'go', 'jl', 'nvim', 'vim', 'el', 'sh', 'net', 'css', 'php', 'dart', 'swift', 'kt', 'zig', 'nim', 'ex', 'lua', 'ml', 'hs', 'cr', 'nix']);

const headExtensions = new WeakMap<object, Set<string>>();

/** Whether some file at HEAD ends in `.ext` (lower case; a set built once per index). */
function extensionAtHead(ev: Evidence, ext: string): boolean {
  let set = headExtensions.get(ev.files);
  if (!set) {
    set = new Set();
    for (const f of ev.files.files) {
      const base = f.slice(f.lastIndexOf('/') + 1);
      const dot = base.lastIndexOf('.');
      if (dot > 0) set.add(base.slice(dot + 1).toLowerCase());
    }
    headExtensions.set(ev.files, set);
  }
  return set.has(ext);
}

/** Folder names of builds and sources, never a repository owner in a slug. */
const FOLDER_WORDS = new Set([
  'dist', 'build', 'out', 'output', 'src', 'lib', 'libs', 'app', 'apps', 'packages', 'pkg', 'bin', 'test', 'tests', 'spec', 'docs', 'doc',
  'public', 'static', 'assets', 'scripts', 'tools', 'vendor', 'target', 'www', 'web', 'client', 'server', 'api', 'core', 'common',
  'shared', 'internal', 'cmd', 'examples', 'example', 'config', 'configs', 'modules', 'components', 'pages', 'routes', 'utils', 'types',
]);
/** A file's usual names (`index.js`, `main.rs`), never a project in a slug. */
const FILE_STEMS = new Set([
  'index', 'main', 'app', 'server', 'client', 'cli', 'bundle', 'config', 'setup', 'build', 'test', 'tests', 'utils', 'util', 'lib',
  'mod', 'init', 'entry', 'worker', 'sw', 'styles', 'style', 'types', 'constants', 'helpers', 'handler', 'routes', 'api', 'core',
]);

/**
 * An inline `owner/name` of a repository (`ggml-org/llama.cpp`, `vercel/next.js`, `socketio/socket.io`)
 * that is not in the tree nor in history: exactly two segments, written plain, the name a project
 * name with a language suffix (`llama.cpp`, see PROJECT_SUFFIXES) that is no extension of a file at HEAD or is the name of
 * a folder at HEAD (a vendored copy: `llama/llama.cpp/`), and the owner no folder at HEAD (by that
 * name anywhere) nor in history where the path resolves. `src/app.js` has its folder; it is a path.
 */
function repositorySlug(ev: Evidence, ref: Reference, cands: Candidate[]): boolean {
  if (ref.in !== 'inlineCode' || ref.raw !== ref.value) return false;
  const m = /^([A-Za-z0-9][\w.-]*)\/([A-Za-z][\w-]*)\.([A-Za-z]{1,4})$/.exec(ref.value);
  if (!m) return false;
  const [, owner, stem, ext] = m;
  if (!PROJECT_SUFFIXES.has(ext!.toLowerCase())) return false;
  // `dist/index.js`, `src/main.rs`: a build or source folder and a file's usual name are a path
  if (FOLDER_WORDS.has(owner!.toLowerCase()) || FILE_STEMS.has(stem!.toLowerCase())) return false;
  const name = ref.value.slice(owner!.length + 1);
  const vendored = !!ev.files.stats?.byDirName.get(name.toLowerCase())?.length;
  if (!vendored && extensionAtHead(ev, ext!.toLowerCase())) return false;
  if (ev.files.stats?.byDirName.get(owner!.toLowerCase())?.length || exists(ev, owner!)) return false;
  for (const c of cands) {
    const dir = dirname(c.path);
    if (dir && (exists(ev, dir) || (ev.history.available && ev.history.fate(dir).status !== 'unknown'))) return false;
  }
  return true;
}

/** Bracketed or parenthesised names (`[locale]`, `[...slug]`, `(auth)`, `[id].vue`) of the files and folders at HEAD and in history. */
const literalNames = new WeakMap<object, Set<string>>();

function bracketNames(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    if (!/[[(]/.test(p)) continue;
    for (const seg of p.split('/')) if (/[[(]/.test(seg)) out.add(seg);
  }
  return out;
}

function namedLiterally(ev: Evidence, seg: string): boolean {
  let head = literalNames.get(ev.files);
  if (!head) literalNames.set(ev.files, (head = bracketNames(ev.files.files)));
  if (head.has(seg)) return true;
  if (!ev.history.available) return false;
  let past = literalNames.get(ev.history);
  if (!past) literalNames.set(ev.history, (past = bracketNames(ev.history.events.keys())));
  return past.has(seg);
}

/**
 * Route folders of file-system routers (Next.js, SvelteKit, Nuxt, Remix) written in a path:
 * `[environmentId]`, `[...slug]`, `[[...opt]]`, `(marketing)`, `[id].vue`. A segment with
 * brackets or parentheses is a real name when the repository has, or once had, a file or folder
 * of exactly that name: the path is then 'literal' (no glob, checked as written). Otherwise
 * `[name]` stays a glob or placeholder (undefined), and a path that only a route reading would
 * make one (`(group)`, `[...rest]`) is 'unknown': nothing to check. Undefined for other paths.
 */
function routeSegments(ev: Evidence, value: string): 'literal' | 'unknown' | undefined {
  if (!value.includes('[') && !value.includes('(')) return undefined;
  let bracketed = false;
  let routeOnly = false;
  let literal = true;
  for (const seg of value.split('/')) {
    if (!/[[(]/.test(seg)) continue;
    // a glob's own brackets and wildcards (`src/[a-z]*.ts`, `**/*.{ts,tsx}`) are no names
    if (/[*?{}]/.test(seg)) return undefined;
    bracketed = true;
    if (seg.startsWith('(') || seg.includes('...')) routeOnly = true;
    if (literal && !namedLiterally(ev, seg)) literal = false;
  }
  if (!bracketed) return undefined;
  return literal ? 'literal' : routeOnly ? 'unknown' : undefined;
}

/**
 * A relative path (`../../docs/api.md`, `./scripts/dev.sh`) that names nothing from where its
 * memory file is now, but named a file from where the memory file was before a rename
 * (`packages/api/CLAUDE.md` moved to `services/backend/api/CLAUDE.md`): the move broke it.
 * `path-renamed` with the path rewritten relative to the file's new folder, to the target as it
 * is at HEAD (followed through its own renames). The memory file's former paths are tried from
 * the most recent; undefined when none of them explains the path.
 */
function movedWithMemoryFile(entry: Entry, ref: Reference, ev: Evidence): Finding | undefined {
  if (!ev.history.available || entry.file.startsWith('/')) return undefined;
  const seen = new Set([entry.file]);
  let cur = entry.file;
  for (let hops = 0; hops < 10; hops++) {
    const evs = ev.history.events.get(cur);
    let from: PathEvent | undefined;
    for (let i = (evs?.length ?? 0) - 1; i >= 0 && !from; i--) if (evs![i]!.type === 'renamed-to' && evs![i]!.other) from = evs![i];
    if (!from || seen.has(from.other!)) return undefined;
    const prev = from.other!;
    seen.add(prev);
    const target = joinPath(dirname(prev), ref.value.replace(/\/+$/, ''));
    if (target) {
      let now = exists(ev, target) ? target : undefined;
      if (!now) {
        const f = ev.history.fate(target);
        if (f.status === 'renamed' && f.successor && exists(ev, f.successor)) now = f.successor;
      }
      if (now) {
        let rel = relativeTo(dirname(entry.file), now);
        if (ref.value.startsWith('./') && !rel.startsWith('../')) rel = `./${rel}`;
        if (ref.value.endsWith('/')) rel += '/';
        const replace = ref.raw.startsWith(ref.value) ? rel + ref.raw.slice(ref.value.length) : undefined;
        return finding(
          entry, ref, 'path-renamed', 'warning',
          `\`${ref.raw}\` was written relative to \`${prev}\`, where it named \`${target}\`; that memory file moved to \`${entry.file}\` in ${describeCommit(from.commit)}, so the path now names nothing: write \`${rel}\`.`,
          { ...commitEvidence(from.commit), path: target, now },
          replace ? { replace } : undefined,
        );
      }
    }
    cur = prev;
  }
  return undefined;
}

/**
 * The file a package subpath names (`@tldraw/editor/editor.css`, `tldraw/tldraw.css`): inside the
 * folder of the workspace package of that name ('dependency' when a manifest declares it as a
 * dependency instead: installed code), undefined when the first segments name no package.
 */
function packageSubpath(ev: Evidence, value: string): Candidate | 'dependency' | undefined {
  const m = /^(@[\w.-]+\/[\w.-]+|[\w.-]+)\/(.+)$/.exec(value);
  if (!m) return undefined;
  const name = m[1]!;
  const dir = ev.manifests.workspaces.get(name);
  if (dir !== undefined) {
    const path = joinPath(dir, m[2]!);
    // written back through the package name, like an alias (`@tldraw/editor/themes.css`)
    return path ? { path, from: 'alias', base: dir ? `${dir}/` : '', as: `${name}/` } : undefined;
  }
  return name.startsWith('@') && (ev.manifests.dependencies.has(name.toLowerCase()) || ev.manifests.everDependencies.has(name.toLowerCase())) ? 'dependency' : undefined;
}

/**
 * Whether a weak path reference is the package folder of a Go identifier written after it
 * (`runtime/esutils/resolvers` of `runtime/esutils/resolvers.SecretKeyRef(…)`; see
 * `goPackageOfIdent` in memory/refs/paths.ts): the text right after it is `.` and a capital.
 */
function goIdentFolder(entry: Entry, ref: Reference): boolean {
  if (ref.kind !== 'path' || !ref.weak || !ref.value.includes('/')) return false;
  const j = ref.end - entry.start;
  return entry.text.charCodeAt(j) === 46 /* . */ && /^[A-Z]/.test(entry.text.slice(j + 1, j + 2));
}

// ------------------------------------------------------------------ Python modules

/** Identifiers joined by dots: the whole of a dotted Python name (see `pythonDottedName`). */
const PY_MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;
const PY_IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

const pythonPackagesOf = new WeakMap<Evidence, Map<string, string[]>>();

/**
 * The repository's own top-level Python import packages at HEAD, each with the folders that hold
 * it (its import roots): a folder with an `__init__.py` directly in a project root (the
 * repository's root or the folder of a pyproject.toml / setup.py / setup.cfg) or in that root's
 * `src/` (the src layout); and a project's own name (`[project] name`, setup.py `name`, `-` read
 * as `_`) when a folder so named is there (a namespace package, no `__init__.py`). Only packages
 * at HEAD: a name the project no longer has as a package (a vendored copy removed) imports an
 * installed distribution. Computed once per run.
 */
function ownPythonPackages(ev: Evidence): Map<string, string[]> {
  let out = pythonPackagesOf.get(ev);
  if (out) return out;
  out = new Map();
  const roots = new Set<string>(['']);
  const pyManifests = new Set<string>();
  for (const [m, kind] of ev.manifests.manifestFiles ?? []) {
    if (kind !== 'pyproject' && kind !== 'setup-py' && kind !== 'setup-cfg') continue;
    pyManifests.add(m);
    roots.add(m.includes('/') ? m.slice(0, m.lastIndexOf('/')) : '');
  }
  const holders = new Set<string>();
  for (const r of roots) {
    holders.add(r);
    holders.add(r ? `${r}/src` : 'src');
  }
  const add = (name: string, holder: string) => {
    const l = out!.get(name);
    if (!l) out!.set(name, [holder]);
    else if (!l.includes(holder)) l.push(holder);
  };
  for (const f of ev.files.files) {
    if (!f.endsWith('/__init__.py')) continue;
    const dir = f.slice(0, -'/__init__.py'.length);
    const slash = dir.lastIndexOf('/');
    const holder = slash < 0 ? '' : dir.slice(0, slash);
    const name = dir.slice(slash + 1);
    if (holders.has(holder) && PY_IDENT.test(name)) add(name, holder);
  }
  for (const pv of ev.manifests.projectVersions) {
    if (!pv.name || !pyManifests.has(pv.manifest)) continue;
    const name = pv.name.replace(/[-.]/g, '_');
    if (!PY_IDENT.test(name)) continue;
    const r = pv.manifest.includes('/') ? pv.manifest.slice(0, pv.manifest.lastIndexOf('/')) : '';
    for (const holder of [r, r ? `${r}/src` : 'src']) if (ev.files.dirs.has(holder ? `${holder}/${name}` : name)) add(name, holder);
  }
  pythonPackagesOf.set(ev, out);
  return out;
}

/**
 * A dotted Python name (a weak path reference covering a whole dotted chain in code, see
 * `pythonModuleRef` in memory/references.ts: `celery._state.get_current_app`, `acme.tools.migrate`
 * of `python -m acme.tools.migrate`) whose first segment is one of the repository's own import
 * packages (see `ownPythonPackages`) names a module: `<root>/a/b.py` or `<root>/a/b/__init__.py`
 * for its longest prefix that is a module file, the segments after it being attributes (a
 * function, a class, a method). From the longest prefix down: a module file at HEAD means the
 * name is fine (silent); else a module file history had (one: two are ambiguous, silent) is the
 * one named, and its fate is the name's. Renamed: `path-renamed`, the successor written dotted
 * when it is a module of the same import package (`celery/app/_state.py` -> `celery.app._state`),
 * the attribute tail kept; otherwise no replacement. Deleted: `path-missing` (not when the file
 * is git-ignored now: generated, such as a setuptools-scm `_version.py`). A name whose first
 * segment is no own package (`os.path.join`, `django.db.models`, `np.linalg`) or that never was
 * a module file (an attribute chain, `app.conf`) says nothing; neither does a shallow history.
 */
function pythonModuleFinding(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  if (ref.base || ref.raw !== ref.value || !PY_MODULE_NAME.test(ref.value)) return null;
  // The whole chain as written: not the middle of a longer one (`x.acme.y`, a class name cut from `acme.models.User.objects`).
  const i = ref.start - entry.start;
  const t = entry.text;
  if (i < 0 || t.slice(i, i + ref.raw.length) !== ref.raw) return null;
  if (i > 0 && /[\w.]/.test(t[i - 1]!)) return null;
  const j = i + ref.raw.length;
  if (j < t.length && (/\w/.test(t[j]!) || (t[j] === '.' && /[A-Za-z_]/.test(t[j + 1] ?? '')))) return null;
  const segs = ref.value.split('.');
  const holders = ownPythonPackages(ev).get(segs[0]!);
  if (!holders || !ev.history.available || ev.history.shallow) return null;
  let file: string | undefined;
  let k = segs.length;
  for (; k >= 2 && file === undefined; k--) {
    const rel = segs.slice(0, k).join('/');
    const hits: string[] = [];
    for (const h of holders) {
      const b = h ? `${h}/${rel}` : rel;
      for (const f of [`${b}.py`, `${b}/__init__.py`]) {
        if (ev.files.files.has(f)) return null; // the module is there: the rest are its attributes
        if (ev.history.events.has(f)) hits.push(f);
      }
    }
    if (hits.length > 1) return null;
    if (hits.length === 1) file = hits[0];
  }
  if (file === undefined) return null;
  const tail = segs.slice(k + 1);
  const res = resolvePath(ev, [{ path: file, from: 'context', base: '' }]);
  if (res.kind !== 'renamed' && res.kind !== 'deleted') return null;
  const f = res.fate!;
  const c = f.commit;
  const shown = ref.raw;
  if (res.kind === 'renamed') {
    const succ = f.successor!;
    const mod = dottedModuleOf(succ, segs[0]!, holders);
    const name = mod === undefined ? undefined : [mod, ...tail].join('.');
    if (describedAsPast(entry, ref, [name, mod, succ])) return null;
    return finding(
      entry, ref, 'path-renamed', 'warning',
      `\`${shown}\` (module \`${file}\`) was renamed to \`${succ}\` in ${describeCommit(c)}; ${mod ? `the module is now \`${mod}\`: update the reference` : `update the reference by hand (the new file is no module of the \`${segs[0]}\` package)`}.`,
      { ...commitEvidence(c), path: file, now: name ?? succ },
      name ? { replace: name } : undefined,
    );
  }
  if (untrackedOnPurpose(ev.files, file, false)) return null;
  if (describedAsPast(entry, ref)) return null;
  return finding(
    entry, ref, 'path-missing', 'warning',
    `\`${shown}\` (module \`${file}\`) was deleted in ${describeCommit(c)}${c?.author ? ` by ${c.author}` : ''}; remove the reference or point it at what replaced it.`,
    { ...commitEvidence(c), path: file, now: c ? short(c.sha) : undefined },
  );
}

/**
 * The dotted module name of file `p` in package `pkg` held by one of `holders` (`celery/app/_state.py`
 * -> `celery.app._state`, `src/acme/db/__init__.py` -> `acme.db`); undefined when `p` is no `.py`
 * file of that package or a folder on the way is no identifier.
 */
function dottedModuleOf(p: string, pkg: string, holders: string[]): string | undefined {
  const m = p.endsWith('/__init__.py') ? p.slice(0, -'/__init__.py'.length) : p.endsWith('.py') ? p.slice(0, -3) : undefined;
  if (m === undefined) return undefined;
  for (const h of holders) {
    const pre = h ? `${h}/` : '';
    if (!m.startsWith(`${pre}${pkg}/`)) continue;
    const segs = m.slice(pre.length).split('/');
    if (segs.every((x) => PY_IDENT.test(x))) return segs.join('.');
  }
  return undefined;
}

// ------------------------------------------------------------------ class names

/** Source files a JVM class lives in, by extension: the file is `<package folders>/<Class>.<ext>` under a source root. */
const JVM_SOURCE_EXTS = ['java', 'kt', 'kts', 'scala', 'groovy'];

/** A Gradle / Maven source root (`src/main/java/`, `app/src/test/kotlin/`, `src/integrationTest/groovy/`): the folders before the package's. */
const SOURCE_ROOT = /(?:^|\/)src\/[^/]+\/(?:java|kotlin|scala|groovy)\//;

/**
 * A fully-qualified class name (a weak `path` reference whose value is one, see `splitFqcn`:
 * `com.acme.app.login.LoginViewModelTest` in a test filter, inline code or an import) names the
 * source file `…/com/acme/app/login/LoginViewModelTest.{java,kt,kts,scala,groovy}` under some
 * source root. Reported only when that is certain: no file at HEAD ends with that path (the
 * class is still there, in whichever module), history holds exactly one file that did (a library
 * class such as `org.junit.jupiter.api.Test`, a placeholder or generated code never was a file
 * of the repository: silent), and that file was renamed or deleted; not with a shallow history,
 * not when the memory file was added after that change (it was written without the file), not
 * when a file at HEAD is literally named so. The successor is written as a class name when the
 * class kept its name and the new path has the same source-root shape (`src/<set>/<language>/`
 * then the package folders, or the same root folder as before): the new package folders as
 * dots (`com.acme.feature.login.LoginViewModelTest`; a method or wildcard after it stays, being
 * outside the reference); otherwise no replacement is offered (the finding is for review).
 */
function fqcnFinding(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  const fq = splitFqcn(ref.value);
  if (!fq || fq.tail || fq.name !== ref.raw) return null;
  if (!ev.history.available || ev.history.shallow || ev.files.byBasename.has(ref.value)) return null;
  const segs = fq.name.split('.');
  const cls = segs.pop()!;
  const pkg = segs.join('/');
  let full: string | undefined;
  let rel = '';
  for (const x of JVM_SOURCE_EXTS) {
    const r = `${pkg}/${cls}.${x}`;
    if (ev.files.files.has(r) || headPathsEndingWith(ev.files, r).length) return null;
    const then = historyFilesEndingWith(ev.history, r);
    for (const p of ev.history.events.has(r) ? [r, ...then] : then) {
      if (full !== undefined) return null; // two files of history had that class path: which one is meant is not known
      full = p;
      rel = r;
    }
  }
  if (full === undefined) return null;
  const res = resolvePath(ev, [{ path: full, from: 'context', base: full.slice(0, full.length - rel.length).replace(/\/$/, '') }]);
  if (res.kind !== 'renamed' && res.kind !== 'deleted') return null;
  const f = res.fate!;
  const c = f.commit;
  const first = ev.history.events.get(entry.file)?.[0];
  if (first?.type === 'added' && c && Date.parse(first.commit.time) > Date.parse(c.time)) return null;
  const shown = ref.raw;
  if (res.kind === 'renamed') {
    const succ = f.successor!;
    const name = successorClassName(full, rel, cls, succ);
    if (describedAsPast(entry, ref, [name, succ])) return null;
    return finding(
      entry, ref, 'path-renamed', 'warning',
      `\`${shown}\` (${full}) was renamed to \`${succ}\` in ${describeCommit(c)}; ${name ? `the class is now \`${name}\`: update the reference` : 'update the reference by hand (no class name of the same form follows from the new path)'}.`,
      { ...commitEvidence(c), path: full, now: name ?? succ },
      name ? { replace: name } : undefined,
    );
  }
  if (describedAsPast(entry, ref)) return null;
  return finding(
    entry, ref, 'path-missing', 'warning',
    `\`${shown}\` (${full}) was deleted in ${describeCommit(c)}${c?.author ? ` by ${c.author}` : ''}; remove the reference or point it at what replaced it.`,
    { ...commitEvidence(c), path: full, now: c ? short(c.sha) : undefined },
  );
}

/**
 * The class name of `succ`, the file `full` (`<root><rel>`) became: undefined unless it is the
 * same class (`<cls>.<jvm ext>`) under a root of the same shape — `src/<set>/<language>/` when
 * the old root ended so (the last such folder run of the new path), else the old root itself —
 * and its package folders are lower-case Java identifiers.
 */
function successorClassName(full: string, rel: string, cls: string, succ: string): string | undefined {
  const slash = succ.lastIndexOf('/');
  const base = succ.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || base.slice(0, dot) !== cls || !JVM_SOURCE_EXTS.includes(base.slice(dot + 1))) return undefined;
  const oldRoot = full.slice(0, full.length - rel.length);
  const newDir = succ.slice(0, slash + 1);
  let pkgDir: string | undefined;
  if (new RegExp(SOURCE_ROOT.source + '$').test(oldRoot)) {
    const re = new RegExp(SOURCE_ROOT.source, 'g');
    let m: RegExpExecArray | null;
    let end = -1;
    while ((m = re.exec(newDir))) {
      end = m.index + m[0].length;
      re.lastIndex = end - 1; // the next run may start at this one's last `/`
    }
    if (end >= 0) pkgDir = newDir.slice(end);
  } else if (newDir.startsWith(oldRoot)) pkgDir = newDir.slice(oldRoot.length);
  if (!pkgDir) return undefined;
  const segs = pkgDir.replace(/\/$/, '').split('/');
  if (!segs.every((x) => /^[a-z][a-z0-9_]*$/.test(x))) return undefined;
  return [...segs, cls].join('.');
}

/** An alias-like prefix written at the start of a path (`@/`, `~/`): Next.js, Nuxt and Vite's conventions. */
const UNMAPPED_ALIAS = /^[@~]\//;

/**
 * Whether a root-absolute path that is nowhere in the repository or its history reads as a URL
 * route (an API endpoint, a page) rather than a file: it starts with `/api/`, `/auth/` or a
 * version segment (`/v2/`), has a `:param` or `{param}` segment, or ends with `/` without a
 * file extension. Real root-absolute paths (`/src/index.ts`) resolve from the tree or history
 * before this is asked.
 */
function looksLikeRoute(ref: Reference): boolean {
  const raw = ref.raw;
  if (!raw.startsWith('/') || raw.startsWith('//') || ref.via === 'tree') return false;
  if (/^\/(?:api|auth|v\d+)(?:\/|$)/i.test(raw)) return true;
  if (/\/(?::[A-Za-z_][\w-]*|\{[A-Za-z_][\w-]*\})(?=\/|$)/.test(raw)) return true;
  if (!raw.endsWith('/')) return false;
  const last = raw.replace(/\/+$/, '');
  return !/\.[A-Za-z0-9]+$/.test(last.slice(last.lastIndexOf('/') + 1));
}

/** Extensions and index files TypeScript's module resolution tries for an import specifier. */
const MODULE_EXTS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.vue', '.svelte', '.json'];

/** Whether `p` exists as written, or as a module specifier resolves (`@/lib/db` -> `lib/db.ts`, `lib/db/index.ts`). */
function moduleExists(ev: Evidence, p: string): boolean {
  if (exists(ev, p)) return true;
  const files = ev.files.files;
  for (const x of MODULE_EXTS) if (files.has(p + x) || files.has(`${p}/index${x}`)) return true;
  return false;
}

/**
 * Module files TypeScript and bundlers resolve a specifier written without its extension to
 * (`x.ts`, `x/index.ts`): the ones a memory file's module path is looked up as in history (the
 * declaration-only `.d.ts` and `.json` count as present at HEAD through MODULE_EXTS, never as
 * the module a path named).
 */
const MODULE_FILE_EXTS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.vue', '.svelte'];

/**
 * The specifier of module file `p` (`a/b.ts` -> `a/b`, `a/b/index.js` -> `a/b`), keeping a
 * trailing `/index` when the written specifier `written` had one; undefined when `p` is no
 * module file.
 */
function moduleSpecifierOf(p: string, written: string): string | undefined {
  if (p.endsWith('.d.ts')) return undefined;
  const x = MODULE_FILE_EXTS.find((e) => p.endsWith(e));
  if (!x) return undefined;
  const s = p.slice(0, p.length - x.length);
  return s.endsWith('/index') && !/(?:^|\/)index$/.test(written) ? s.slice(0, -'/index'.length) : s;
}

/**
 * Whether a path reference is a relative module specifier written without its extension, as
 * JS/TS memory names modules (import specifiers: `shared/composables/useBranding`): a whole
 * inline code span (no spaces), with a `/`, no known file extension (a weak token), not a
 * folder (`x/`), glob, root-absolute path (`/api/users`, a URL route), alias or scoped package
 * (`@scope/name`, `~/x`), nor a dependency a manifest names (`vendor/name`, a composer package)
 * or a subpath of one (`firebase/auth`, `next/router`) or of a Node.js core module
 * (`fs/promises`): those name installed code, whatever file of the repository ends alike.
 * Such a span is looked up as the module files it resolves to (see `resolveModule`).
 */
function moduleSpecifierRef(entry: Entry, ref: Reference, ev: Evidence, isGlob: boolean, dirRef: boolean): boolean {
  if (ref.kind !== 'path' || ref.in !== 'inlineCode' || !ref.weak || ref.via || isGlob || dirRef || !ref.value.includes('/')) return false;
  const { anchor, at } = anchorOf(ref);
  if (anchor === 'root' || at || /^[@~#$]/.test(ref.raw)) return false;
  const i = ref.start - entry.start;
  const t = entry.text;
  if (t.charCodeAt(i - 1) !== 96 /* ` */ || t.charCodeAt(i + ref.raw.length) !== 96 || t.slice(i, i + ref.raw.length) !== ref.raw) return false;
  const name = ref.value.toLowerCase();
  const first = name.slice(0, name.indexOf('/'));
  const dep = (n: string) => ev.manifests.dependencies.has(n) || ev.manifests.everDependencies.has(n);
  return !dep(name) && !dep(first) && !NODE_CORE.has(first);
}

/** Node.js core module names (`fs`, `stream`, …): `fs/promises` is one of their subpaths. */
const NODE_CORE = new Set(builtinModules.filter((m) => !m.startsWith('_') && !m.includes('/')));

/**
 * A module specifier (see `moduleSpecifierRef`) found nowhere as a file or folder: 'found' when
 * it resolves at HEAD to a module file (`x.ts`, `x/index.ts`) from a candidate folder, or (a
 * plain path) when such a file ends with its segments somewhere (`shared/x` for
 * `app/javascript/shared/x.js`, a bundler's module root). Otherwise the module files history
 * knows for it, from the first candidate that has any, else by trailing segments; they must be
 * one module (one specifier: `x.js` converted to `x.ts` is one; `a/x.js` and `b/x.js` ending
 * alike are two, and say nothing), all renamed to one module or all deleted. That fate is the
 * specifier's, its successor written without the extension (the candidate's `module`). A match
 * by trailing segments is not taken by a memory file added after that rename or deletion.
 */
function resolveModule(entry: Entry, ev: Evidence, ref: Reference, cands: Candidate[], value: string): Resolution | 'found' | undefined {
  for (const c of cands) if (moduleExists(ev, c.path)) return 'found';
  const plain = anchorOf(ref).anchor === 'plain';
  if (plain) {
    for (const x of MODULE_EXTS) if (headPathsEndingWith(ev.files, value + x).length || headPathsEndingWith(ev.files, `${value}/index${x}`).length) return 'found';
  }
  if (!ev.history.available || ev.history.shallow) return undefined;
  const events = ev.history.events;
  for (const c of cands) {
    const files: string[] = [];
    for (const x of MODULE_FILE_EXTS) for (const f of [c.path + x, `${c.path}/index${x}`]) if (events.has(f)) files.push(f);
    if (files.length) return moduleFate(ev, files, c);
  }
  if (!plain) return undefined;
  // By trailing segments: the module path each file stands for (its folder prefix + what was written).
  let key: string | undefined;
  const files: string[] = [];
  for (const x of MODULE_FILE_EXTS) {
    for (const rel of [value + x, `${value}/index${x}`]) {
      for (const f of historyFilesEndingWith(ev.history, rel)) {
        const k = f.slice(0, f.length - rel.length - 1);
        if (key !== undefined && key !== k) return undefined; // files of two modules end alike
        key = k;
        files.push(f);
      }
    }
  }
  if (key === undefined) return undefined;
  const r = moduleFate(ev, files, { path: '', from: 'context', base: key });
  // A memory file first added after that rename or deletion was written without that file:
  // the specifier names something else (as for bare names, see `resolveByName`).
  const first = ev.history.events.get(entry.file)?.[0];
  const gone = r?.fate?.commit;
  if (first?.type === 'added' && gone && Date.parse(first.commit.time) > Date.parse(gone.time)) return undefined;
  return r;
}

/** The common fate of the files of one module (see `resolveModule`), with candidate `tmpl` for the one reported. */
function moduleFate(ev: Evidence, files: string[], tmpl: Candidate): Resolution | undefined {
  let out: Resolution | undefined;
  let succ: string | undefined;
  for (const f of files) {
    const r = resolvePath(ev, [{ ...tmpl, path: f, module: true }]);
    if (r.kind !== 'renamed' && r.kind !== 'deleted') return undefined;
    if (out && out.kind !== r.kind) return undefined;
    if (r.kind === 'renamed') {
      const m = moduleSpecifierOf(r.fate!.successor!, '');
      if (m === undefined || (succ !== undefined && succ !== m)) return undefined;
      succ = m;
    }
    // the most recent rename or deletion is the one reported
    const t = r.fate?.commit?.time;
    if (!out || (t && (!out.fate?.commit || t > out.fate.commit.time))) out = r;
  }
  return out;
}

/**
 * The list folder of a bare name that opens a list item under a folder (see `listedName` in
 * src/memory/references.ts): a weak bare path in code with a `base` from the list's intro line
 * or parent item, written without a trailing `/` (a name that is no file name). Undefined for
 * every other reference.
 */
function listedName(ref: Reference): string | undefined {
  if (ref.kind !== 'path' || !ref.weak || ref.in !== 'inlineCode' || (ref.via !== 'list' && ref.via !== 'entry') || !ref.base) return undefined;
  if (ref.value.includes('/') || ref.raw !== ref.value) return undefined;
  return ref.base.replace(/\/+$/, '');
}

/**
 * Where a listed name is looked for: under its list's folder from the root, and (a nested memory
 * file) from the memory file's folder; present in either is fine (see `resolvePath`).
 */
function listedCandidates(base: string, memDir: string, name: string): Candidate[] {
  const out: Candidate[] = [];
  const atRoot = joinPath(base, name);
  if (atRoot) out.push({ path: atRoot, from: 'base' });
  const nested = memDir && atRoot ? joinPath(memDir, atRoot) : null;
  if (nested && nested !== atRoot) out.push({ path: nested, from: 'context', base: joinPath(memDir, base) ?? memDir });
  return out;
}

/**
 * Whether a listed name (see `listedName`) is stale: `base/name` itself was a file or folder in
 * history (not a letter-case match, not a path only implied by a renamed parent folder) and
 * was renamed or deleted. A name deleted there that still names a file or folder elsewhere at
 * HEAD may have moved where history cannot pair it: not confidently stale.
 */
function listedGone(ev: Evidence, ref: Reference, res: Resolution): boolean {
  if (res.kind !== 'renamed' && res.kind !== 'deleted') return false;
  const f = res.fate!;
  if (f.existed !== true || f.caseOf || f.inferred === 'case' || f.inferred === 'directory') return false;
  return res.kind === 'renamed' || !nameAtHeadIgnoringCase(ev.files, ref.value);
}

/** Paths tried through the aliases start with a sigil (`@/`, `~/`, `@app/`, `#lib/`, `$lib/`): a prefix that is a plain folder name (`components/*`) is a path as written. */
const ALIAS_SIGIL = /^[@~#$]/;

/**
 * A path written through an import alias of the repository's tsconfig / jsconfig files
 * (`compilerOptions.paths`; src/evidence/tsconfig-paths.ts): `@/components/Radix/` under
 * `"@/*": ["./*"]` in packages/front-end/tsconfig.json is packages/front-end/components/Radix.
 * Each config contributes its longest matching prefix (as TypeScript picks). Undefined when no
 * config maps the path's prefix; null to stay silent. The path is fine when any mapping (or
 * the path as written at the root) exists now, as a module specifier included. A memory file
 * inside a package whose config maps the prefix reads it through that config first (the
 * nearest holding it), then through the others; at the root, all mappings alike (a monorepo
 * whose packages map `@/` differently). Per group: silent when a candidate exists now; a fate
 * only when exactly one candidate has one in history (more is ambiguous: silent). Never in
 * history: reported only when a single candidate was tried, else silent.
 */
function resolveAlias(ref: Reference, ev: Evidence, memDir: string, isGlob: boolean, plain: Candidate[]): { res: Resolution; tried: Candidate[] } | null | undefined {
  const list = ev.pathAliases;
  const raw = ref.raw;
  if (!list?.length || !ALIAS_SIGIL.test(raw)) return undefined;
  const best = new Map<string, PathAlias>();
  for (const a of list) {
    if (!raw.startsWith(a.prefix)) continue;
    const cur = best.get(a.config);
    if (!cur || a.prefix.length > cur.prefix.length) best.set(a.config, a);
  }
  if (!best.size) return undefined;
  const inScope = (s: string) => s === '' || memDir === s || memDir.startsWith(s + '/');
  let nearScope: string | undefined;
  for (const a of best.values()) if (inScope(a.scope) && (nearScope === undefined || a.scope.length > nearScope.length)) nearScope = a.scope;
  const near: Candidate[] = [];
  const others: Candidate[] = [];
  const seen = new Set<string>();
  for (const a of best.values()) {
    let rest = raw.slice(a.prefix.length);
    if (isGlob) rest = globPrefix(rest);
    rest = rest.replace(/\/+$/, '');
    for (const t of a.targets) {
      const p = joinPath('', t + rest);
      if (p === null || seen.has(p)) continue;
      seen.add(p);
      (a.scope === nearScope ? near : others).push({ path: p || '', from: 'alias', base: t, as: a.prefix });
    }
  }
  const tried = [...near, ...others];
  if (!tried.length || plain.some((c) => exists(ev, c.path))) return null;
  // A package's own config governs the memory files inside it; at the root, every mapping counts alike.
  for (const group of nearScope ? [near, others] : [tried]) {
    if (group.some((c) => moduleExists(ev, c.path))) {
      const c = group.find((x) => exists(ev, x.path));
      return c ? { res: { kind: 'present', cand: c }, tried } : null;
    }
    const hits: Resolution[] = [];
    for (const c of group) {
      const r = resolvePath(ev, [c]);
      if (r.kind === 'case' || r.kind === 'renamed' || r.kind === 'deleted') hits.push(r);
    }
    if (hits.length > 1) return null;
    if (hits.length === 1) return { res: hits[0]!, tried };
  }
  return tried.length === 1 ? { res: resolvePath(ev, tried), tried } : null;
}

/** Words that say a path is to be made, or only an example. */
const TO_BE_CREATED = /\b(?:created?|creating|scaffold|scaffolding|generated?|add a new|new file|(?:an? |for )?example|placeholder|when (?:you )?(?:first )?need)\b/i;

/** The memory line holding a reference, with its inline code spans blanked (a path's own words do not count). */
function lineWithoutCode(entry: Entry, ref: Reference): string {
  const at = Math.max(0, ref.start - entry.start);
  const from = entry.text.lastIndexOf('\n', at - 1) + 1;
  let to = entry.text.indexOf('\n', at);
  if (to === -1) to = entry.text.length;
  return entry.text.slice(from, to).replace(/`[^`\n]*`/g, ' ');
}

/** What makes two path references of one entry the same finding. */
function sameRefKey(ref: Reference): string {
  return `${ref.line}\0${ref.via === 'tree' ? ref.value : ref.raw.replace(/^@/, '')}\0${ref.base ?? ''}`;
}

export const pathCheck: Check = {
  id: 'path',
  kinds: ['path-missing', 'path-renamed', 'path-unverified'],
  severity: 'warning',
  description: 'Paths named in memory that no longer exist: renamed (with the final successor) or deleted (with the commit).',
  run(ctx: CheckContext): Finding[] {
    const out: Finding[] = [];
    const ev = ctx.evidence;
    let memDirFile: string | undefined;
    let memDir = '';
    let file: MemoryFile | undefined;
    let byPath: Map<string, MemoryFile> | undefined;
    // The same path twice on one line (`x.sh`, then `bash x.sh`) is one finding. Most entries
    // name one path at most: the keys are only made from the second one on.
    let current: Entry | undefined;
    let first: Reference | undefined;
    let seen: Set<string> | undefined;
    const check = (entry: Entry, ref: Reference) => {
      if (entry !== current) {
        current = entry;
        first = ref;
        seen = undefined;
      } else {
        seen ??= new Set([sameRefKey(first!)]);
        const key = sameRefKey(ref);
        if (seen.has(key)) return;
        seen.add(key);
      }
      if (memDirFile !== entry.file) {
        memDirFile = entry.file; // entries come file by file: one folder computation per file
        memDir = memDirOf(entry.file);
        byPath ??= new Map(ctx.files.map((x) => [x.path, x]));
        file = byPath.get(entry.file);
      }
      const f = checkPathRef(entry, ref, ev, memDir, file);
      if (f) out.push(f);
    };
    if (ev.manifests.goModules?.size) {
      // Go import paths of the repository's own modules are package references: every reference is looked at.
      for (const entry of ctx.entries) {
        if (!checkable(entry)) continue;
        for (const ref of entry.refs) {
          // (a package reference outside them is not looked at: it must not take the place of the
          // path reference on the same text, `caddyconfig/httpcaddyfile` read as `vendor/name` too)
          if (ref.kind === 'path' || ref.kind === 'import' || (ref.kind === 'package' && ref.value.includes('/') && ownGoPackage(ev, ref))) check(entry, ref);
        }
      }
      return out;
    }
    const { entries, refs } = refsOf(ctx.entries, 'path');
    for (let i = 0; i < refs.length; i++) check(entries[i]!, refs[i]!);
    return out;
  },
};
