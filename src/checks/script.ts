// script-missing: `npm run x`, `pnpm x`, `yarn x`, `bun run x`, `make x`, `just x`, the Python
// runners, `composer [run-script] x`, `deno task x` and `task x` (go-task) whose script, target,
// recipe or task is not defined in the manifest that applies.
import type { Check, CheckContext, CommitInfo, Entry, Evidence, Finding, PackageHistoryEvent, Reference, ScriptHistoryEvent } from '../types.js';
import { BUILTINS, COMPOSER_BUILTINS, GRADLE_COMMAND, isPlaceholderScript, MAVEN_COMMAND } from '../memory/refs/commands.js';
import { dirname, joinPath } from '../memory/refs/paths.js';
import { describedAsPast, commitEvidence, describeCommit, escapeRe, exists, finding, joinDir, memDirOf, refsOf, upwards, workspaceFolder } from './stale-common.js';
import { makeSetIncludes, makeTargetDefined, pythonRunners, taskNameDefined, taskTables, type TaskTable } from '../evidence/manifests.js';
import { DENO_CONFIG_NAMES, manifestKind as fileManifestKind, NX_NAME_KEY, TASKFILE_NAMES } from '../evidence/manifests/kinds.js';

const MAKEFILES = ['Makefile', 'makefile', 'GNUmakefile'];
const JUSTFILES = ['justfile', 'Justfile', '.justfile', 'JUSTFILE'];

interface Lookup {
  /** The manifest the command reads (repository-relative). */
  manifest: string;
  /** Names defined there at HEAD. */
  names: Set<string> | undefined;
  kind: 'npm' | 'make' | 'just';
}

const everCache = new WeakMap<object, Set<string>>();
/** Manifests that ever defined a script, target or recipe (indexed once per run). */
function everHad(ev: Evidence, manifest: string): boolean {
  let set = everCache.get(ev.manifests);
  if (!set) {
    set = new Set();
    for (const k of ev.manifests.scriptHistory.keys()) set.add(k.slice(0, k.lastIndexOf('#')));
    everCache.set(ev.manifests, set);
  }
  return set.has(manifest);
}


/**
 * The folder a command runs in when it names one (`cd dir &&`, `pnpm -C dir`, `npm --prefix dir`):
 * relative to the memory file's folder, else to the root. A folder that is gone is followed to
 * its successor when history shows it was moved (the script is then looked up in the folder the
 * command would have to name now); `null` when it was deleted or never existed: the command
 * fails for its folder, which the path check reports, and walking up to an unrelated manifest
 * would only guess. Folders outside the repository (`~`, `$VAR`, absolute) keep the old walk.
 * `..` steps up from the memory file's folder: to the root at most (`cd ..` in `web/AGENTS.md`);
 * a folder above the root (`cd ../other-repo`) is another repository: `null`.
 */
function commandFolder(ev: Evidence, base: string, memDir: string): string | null {
  const b = base.replace(/\/+$/, '');
  const legacy = joinDir(memDir, b).replace(/^\/+/, '');
  if (!b || /^[~$/]|\$/.test(b)) return legacy;
  if (joinPath(memDir, b) === '') return '';
  const cands: string[] = [];
  for (const c of [joinPath(memDir, b), joinPath('', b)]) if (c !== null && c !== '' && !cands.includes(c)) cands.push(c);
  if (!cands.length) return b.split('/').includes('..') ? null : legacy;
  for (const c of cands) if (exists(ev, c)) return c;
  if (!ev.history.available) return legacy;
  for (const c of cands) {
    const f = ev.history.fate(c);
    if (f.status === 'renamed' && f.successor && exists(ev, f.successor)) return f.successor;
  }
  return null;
}

function findLookup(ev: Evidence, ref: Reference, memDir: string): Lookup | null {
  const tool = ref.tool;
  const start = ref.base ? commandFolder(ev, ref.base, memDir) : memDir;
  if (start === null) return null;
  if (tool === 'make' || tool === 'just') {
    const names = tool === 'make' ? MAKEFILES : JUSTFILES;
    const map = tool === 'make' ? ev.manifests.makeTargets : ev.manifests.justRecipes;
    if (ref.manifest) {
      const m = joinDir(start, ref.manifest.replace(/^\.\//, ''));
      // a file the index does not read as one (`make -f ci.makefile`): its targets are not known
      if (!map.has(m) && exists(ev, m)) return null;
      return { manifest: m, names: map.get(m), kind: tool };
    }
    for (const d of upwards(start)) {
      for (const n of names) {
        const m = joinDir(d, n);
        if (map.has(m)) return { manifest: m, names: map.get(m), kind: tool };
      }
    }
    // None at HEAD: one that existed before (deleted since)?
    for (const d of upwards(start)) for (const n of names) if (everHad(ev, joinDir(d, n))) return { manifest: joinDir(d, n), names: undefined, kind: tool };
    return null;
  }
  if (tool === 'npm' || tool === 'pnpm' || tool === 'yarn' || tool === 'bun') {
    if (ref.workspace) {
      if (/[*{!]/.test(ref.workspace)) return null;
      const dir = workspaceFolder(ev, ref.workspace);
      if (dir === undefined) return null;
      const m = joinDir(dir, 'package.json');
      return { manifest: m, names: ev.manifests.scripts.get(m), kind: 'npm' };
    }
    for (const d of upwards(start)) {
      const m = joinDir(d, 'package.json');
      if (ev.manifests.scripts.has(m)) return { manifest: m, names: ev.manifests.scripts.get(m), kind: 'npm' };
    }
    for (const d of upwards(start)) if (everHad(ev, joinDir(d, 'package.json'))) return { manifest: joinDir(d, 'package.json'), names: undefined, kind: 'npm' };
    return null;
  }
  return null;
}

/** Binaries that package managers run directly, and the packages that ship them. */
const KNOWN_BINS = new Set(['tsc', 'eslint', 'prettier', 'vitest', 'jest', 'tsx', 'ts-node', 'biome', 'turbo', 'nx', 'next', 'vite', 'playwright', 'changeset', 'lerna', 'tsup', 'tsdown', 'rimraf', 'knip', 'oxlint', 'nodemon', 'drizzle-kit', 'prisma', 'wrangler', 'astro', 'nuxt', 'svelte-kit', 'storybook', 'cypress', 'mocha', 'ava', 'c8', 'nyc', 'esbuild', 'rollup', 'webpack', 'concurrently', 'cross-env', 'husky', 'lint-staged', 'semantic-release', 'typedoc', 'vue-tsc', 'electron', 'electron-builder', 'expo', 'react-native']);

function isBinary(ev: Evidence, name: string): boolean {
  const n = name.toLowerCase();
  return KNOWN_BINS.has(n) || ev.manifests.dependencies.has(n) || ev.manifests.everDependencies.has(n);
}

function lastEvent(ev: Evidence, manifest: string, name: string): ScriptHistoryEvent | undefined {
  const list = ev.manifests.scriptHistory.get(`${manifest}#${name}`);
  return list && list.length ? list[list.length - 1] : undefined;
}

interface ScriptChange {
  name: string;
  command?: string;
}
interface CommitScripts {
  added: ScriptChange[];
  removed: ScriptChange[];
}

const commitCache = new WeakMap<object, Map<string, CommitScripts>>();
/** Scripts, targets and recipes each commit added to / removed from each manifest (indexed once per run). */
function changesOf(ev: Evidence, manifest: string, sha: string): CommitScripts {
  let idx = commitCache.get(ev.manifests);
  if (!idx) {
    idx = new Map();
    for (const list of ev.manifests.scriptHistory.values()) {
      // A project.json's own name is kept beside its targets (NX_NAME_KEY): no target to pair.
      if (list[0]?.name.startsWith(NX_NAME_KEY)) continue;
      for (const e of list) {
        const k = `${e.commit.sha}\0${e.manifest}`;
        let c = idx.get(k);
        if (!c) idx.set(k, (c = { added: [], removed: [] }));
        (e.type === 'added' ? c.added : c.removed).push({ name: e.name, ...(e.command ? { command: e.command } : {}) });
      }
    }
    commitCache.set(ev.manifests, idx);
  }
  return idx.get(`${sha}\0${manifest}`) ?? { added: [], removed: [] };
}

function words(s: string): Set<string> {
  return new Set(s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1));
}

/** How alike two command lines are: the share of their whitespace-separated tokens in common (1 = the same). */
export function commandSimilarity(a: string, b: string): number {
  const ta = new Set(a.trim().split(/\s+/).filter(Boolean));
  const tb = new Set(b.trim().split(/\s+/).filter(Boolean));
  if (!ta.size || !tb.size) return 0;
  let common = 0;
  for (const t of ta) if (tb.has(t)) common++;
  return common / (ta.size + tb.size - common);
}

/** Commands at least this alike pair a removed script with an added one. */
const SIMILAR = 0.5;

/**
 * The script that took the place of `removed` in the commit that removed it, when the pairing is
 * unambiguous; `undefined` otherwise. Two ways to pair:
 * - by command: the added script whose command is the same or similar (`test:e2e` -> `e2e`, both
 *   `playwright test`), when it is the single best match and no other script the commit removed
 *   matches it as well;
 * - one for one: the commit removed only this script and added only one, unless both command lines
 *   are known and have nothing in common, nor do the names (`legacy:sync` running a node script
 *   and `e2e` running Playwright are unrelated).
 * A commit that removes several and adds fewer leaves the others without a successor.
 */
function renamedTo(ev: Evidence, manifest: string, removed: ScriptHistoryEvent, names: Set<string> | undefined, same: (name: string) => boolean = () => true): string | undefined {
  if (!names) return undefined;
  const c = changesOf(ev, manifest, removed.commit.sha);
  // `same`: the names that can take its place (a Python runner's own, in the same Hatch env).
  const added = c.added.filter((a) => a.name !== removed.name && same(a.name));
  const peers = c.removed.filter((r) => r.name !== removed.name && same(r.name));
  if (removed.command) {
    let best: ScriptChange | undefined;
    let bestScore = 0;
    let tie = false;
    for (const a of added) {
      const sc = a.command ? commandSimilarity(removed.command, a.command) : 0;
      if (sc > bestScore) [best, bestScore, tie] = [a, sc, false];
      else if (sc === bestScore && sc > 0) tie = true;
    }
    if (best && !tie && bestScore >= SIMILAR && !peers.some((r) => r.command && commandSimilarity(r.command, best.command!) >= bestScore))
      return names.has(best.name) ? best.name : undefined;
  }
  if (added.length !== 1 || peers.length) return undefined;
  const only = added[0]!;
  if (removed.command && only.command) {
    const cw = words(only.command);
    const nw = words(only.name);
    const unrelated = ![...words(removed.command)].some((w) => cw.has(w)) && ![...words(removed.name)].some((w) => nw.has(w));
    if (unrelated) return undefined;
  }
  return names.has(only.name) ? only.name : undefined;
}

function otherRunner(ev: Evidence, dir: string, name: string, except: Lookup['kind']): string | undefined {
  if (except !== 'just') for (const n of JUSTFILES) if (ev.manifests.justRecipes.get(joinDir(dir, n))?.has(name)) return `just ${name}`;
  if (except !== 'make') for (const n of MAKEFILES) if (ev.manifests.makeTargets.get(joinDir(dir, n))?.has(name)) return `make ${name}`;
  return undefined;
}

function definedElsewhere(ev: Evidence, name: string, kind: Lookup['kind']): string | undefined {
  const map = kind === 'npm' ? ev.manifests.scripts : kind === 'make' ? ev.manifests.makeTargets : ev.manifests.justRecipes;
  // Another Makefile counts on evidence it defines the name (a rule, a pattern with literal text),
  // not because its target set is open (`%`, an unreadable include): that says nothing of this name.
  for (const [m, set] of map) if (kind === 'make' ? makeTargetDefined(set, name, true) : set.has(name)) return m;
  return undefined;
}

const definersCache = new WeakMap<object, Map<string, Set<string>>>();
/**
 * `${kind}\0${name}` -> every manifest of that kind that defines the name at HEAD or did at some
 * point of history (indexed once per run).
 */
function definers(ev: Evidence): Map<string, Set<string>> {
  let idx = definersCache.get(ev.manifests);
  if (idx) return idx;
  idx = new Map();
  const add = (manifest: string, name: string) => {
    const kind = manifestKind(manifest);
    if (!kind) return;
    const k = `${kind}\0${name}`;
    const set = idx!.get(k);
    if (set) set.add(manifest);
    else idx!.set(k, new Set([manifest]));
  };
  for (const list of ev.manifests.scriptHistory.values()) if (list.length) add(list[0]!.manifest, list[0]!.name);
  for (const map of [ev.manifests.scripts, ev.manifests.makeTargets, ev.manifests.justRecipes]) for (const [m, names] of map) for (const n of names) add(m, n);
  definersCache.set(ev.manifests, idx);
  return idx;
}

function manifestKind(manifest: string): Lookup['kind'] | undefined {
  const base = manifest.slice(manifest.lastIndexOf('/') + 1);
  return base === 'package.json' ? 'npm' : MAKEFILES.includes(base) ? 'make' : JUSTFILES.includes(base) ? 'just' : undefined;
}

/**
 * The manifest a command is checked against instead of the nearest one, when the nearest never
 * defined the name in its history and exactly one other manifest of the repository did, and
 * no longer does: a nested memory file (`frontend/src-tauri/AGENTS.md`) telling to run
 * `npm run version:bump` "from the repository root" means the root package.json, which
 * renamed it. With several candidates there is no telling which was meant: `undefined`.
 */
function soleFormerDefiner(ev: Evidence, look: Lookup, name: string): Lookup | undefined {
  const set = definers(ev).get(`${look.kind}\0${name}`);
  if (!set || set.size !== (set.has(look.manifest) ? 2 : 1)) return undefined;
  let other: string | undefined;
  for (const m of set) if (m !== look.manifest) other = m;
  const map = look.kind === 'npm' ? ev.manifests.scripts : look.kind === 'make' ? ev.manifests.makeTargets : ev.manifests.justRecipes;
  const names = map.get(other!);
  if (names && (look.kind === 'make' ? makeTargetDefined(names, name) : names.has(name))) return undefined; // defined there now: the command runs there, not stale
  return { manifest: other!, names, kind: look.kind };
}

/**
 * No manifest of the tool up from the memory file's folder, now or before (`make develop` in a
 * root CLAUDE.md of a repository whose only Makefile is `python/Makefile`): when exactly one
 * manifest of the repository ever defined the name and history shows it removed there, the
 * command is checked as if an empty manifest stood in the memory file's folder, so the sole
 * former definer applies (see `soleFormerDefiner`). Not for a command naming its folder,
 * workspace or file.
 */
function noManifestUpwards(ev: Evidence, ref: Reference, memDir: string, name: string): Lookup | null {
  if (ref.base || ref.workspace || ref.manifest) return null;
  const kind = ref.tool === 'make' ? 'make' : ref.tool === 'just' ? 'just' : ref.tool === 'npm' || ref.tool === 'pnpm' || ref.tool === 'yarn' || ref.tool === 'bun' ? 'npm' : undefined;
  if (!kind) return null;
  const here: Lookup = { manifest: joinDir(memDir, kind === 'npm' ? 'package.json' : kind === 'make' ? 'Makefile' : 'justfile'), names: new Set(), kind };
  const sole = soleFormerDefiner(ev, here, name);
  return sole && lastEvent(ev, sole.manifest, name)?.type === 'removed' ? here : null;
}

/**
 * A make target is defined by a rule of that name, a pattern rule matching it (`release-%`, the
 * catch-all `%`), a rule whose target holds a variable the index could not resolve, or nothing
 * the index can know (an include it could not read, `$(eval …)`): see `makeTargetDefined`.
 */
function makePattern(names: Set<string>, target: string): boolean {
  return makeTargetDefined(names, target);
}

// ------------------------------------------------------------------ workspace filters

/** A workspace selector that names one package: `@acme/web`, `web` (no globs, paths or `...`/`^` graph suffixes). */
const PLAIN_WORKSPACE = /^(?:@[\w.-]+\/)?[\w-][\w.-]*$/;

interface NameIndex {
  /** `${sha}\0${manifest}` -> the name that commit gave that manifest. */
  addedBy: Map<string, string>;
  /** Unscoped name -> the scoped names ever declared with it (`web` -> `@acme/web`). */
  byTail: Map<string, string[]>;
}
const nameIndexCache = new WeakMap<object, NameIndex>();
/** Indexes the history of manifest `name` fields once per run (no git call: the manifest pass collected it). */
function nameIndex(ev: Evidence): NameIndex {
  let idx = nameIndexCache.get(ev.manifests);
  if (idx) return idx;
  idx = { addedBy: new Map(), byTail: new Map() };
  for (const [key, list] of ev.manifests.everProjectNames ?? []) {
    for (const e of list) if (e.type === 'added') idx.addedBy.set(`${e.commit.sha}\0${e.manifest}`, e.name);
    const slash = key.indexOf('/');
    if (key.startsWith('@') && slash > 0) {
      const tail = key.slice(slash + 1);
      const l = idx.byTail.get(tail);
      if (l) l.push(key);
      else idx.byTail.set(tail, [key]);
    }
  }
  nameIndexCache.set(ev.manifests, idx);
  return idx;
}

/**
 * Whether a workspace package answers to a plain selector now. `pnpm --filter`, `yarn workspace`
 * and `bun --filter` match package names (an unscoped name also the tail of a scoped one:
 * `web` for `@acme/web`); they select a folder only by a path (`./docs`, `{docs}`), which is not a
 * plain selector, so a folder that happens to be called `docs` does not answer to `--filter docs`.
 * `npm -w` also takes a workspace's folder, as a path from the root (`-w docs` for `docs/`).
 */
function selectsPackageNow(ev: Evidence, ws: string, tool: Reference['tool']): boolean {
  const w = ws.toLowerCase();
  for (const [name, dir] of ev.manifests.workspaces) {
    const n = name.toLowerCase();
    if (n === w || n.endsWith('/' + w)) return true;
    if (tool === 'npm' && dir === ws) return true;
  }
  return false;
}

/**
 * `pnpm --filter @acme/web dev`, `npm -w @acme/web run dev`, `yarn workspace @acme/web dev` whose
 * package name no workspace package has any more. Reported only on evidence: the history of the
 * manifests' `name` fields shows a package.json declared that name and every manifest that did
 * has dropped it (renamed or deleted); a name never seen may be a selector this check does not
 * understand, so it is left alone. The successor is the name the same commit gave the same
 * package.json (`@acme/web` -> `@acme/site`); the command is rewritten only when that package
 * defines the script and the selector is written inside the reference.
 */
function checkWorkspaceGone(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  const ws = ref.workspace!.replace(/^["']|["']$/g, '');
  if (!PLAIN_WORKSPACE.test(ws) || ws.includes('..')) return null;
  if (selectsPackageNow(ev, ws, ref.tool)) return null;
  const hist = ev.manifests.everProjectNames;
  // A shallow history may lack the commits that added a name still in use: no verdict then.
  if (!hist || !ev.history.available || ev.history.shallow) return null;
  const idx = nameIndex(ev);
  let key = ws.toLowerCase();
  const scoped = key.startsWith('@');
  if (!hist.get(key)?.length && !scoped) {
    // pnpm matches an unscoped selector against scoped names when only one package has that tail.
    const tails = idx.byTail.get(key);
    if (tails?.length !== 1) return null;
    key = tails[0]!;
  }
  const events = hist.get(key);
  if (!events?.length) return null;
  // The name must be gone from every manifest that declared it: as many removals as additions
  // (a manifest moved with its name unchanged records nothing; one moved and renamed records both).
  let net = 0;
  for (const e of events) net += e.type === 'added' ? 1 : -1;
  if (net > 0) return null;
  // Events come oldest first: the last one is the latest removal.
  const removal = events[events.length - 1];
  if (!removal || !/(?:^|\/)package\.json$/.test(removal.manifest)) return null;
  // The successor: the name the same commit gave the same package.json, or the package.json git
  // history follows it to (a moved folder whose manifest changed too much to pair as a rename).
  let succ = idx.addedBy.get(`${removal.commit.sha}\0${removal.manifest}`);
  if (succ === undefined) {
    const f = ev.history.fate(removal.manifest);
    if (f.status === 'renamed' && f.successor) succ = idx.addedBy.get(`${removal.commit.sha}\0${f.successor}`);
    else if (removal.manifest.includes('/')) {
      // The package's folder moved (its other files paired as renames) while its package.json did not.
      const d = ev.history.fate(removal.manifest.slice(0, removal.manifest.lastIndexOf('/')));
      if (d.status === 'renamed' && d.successor) succ = idx.addedBy.get(`${removal.commit.sha}\0${joinDir(d.successor, 'package.json')}`);
    }
  }
  const succDir = succ !== undefined ? ev.manifests.workspaces.get(succ) : undefined;
  const succManifest = succDir !== undefined ? joinDir(succDir, 'package.json') : undefined;
  // turbo runs a package's script of the task's name, or a task turbo.json defines for the package.
  const task = ref.tool === 'turbo' ? turboTaskOf(ref.script!) : ref.script!;
  const hasScript =
    succManifest !== undefined &&
    (!!ev.manifests.scripts.get(succManifest)?.has(task) || (ref.tool === 'turbo' && [...(ev.manifests.turboTasks?.values() ?? [])].some((keys) => keys.has(`${succ}#${task}`))));
  // Written in full (`@trigger.dev/cli`), also where the entry wrote an unscoped name: pnpm would
  // match the tail, but a filter a script passes on to Turborepo (`pnpm run build --filter x` with
  // `"build": "turbo run build"`) must name the package exactly since Turborepo 2.
  const written = succ !== undefined && succDir !== undefined ? succ : undefined;
  // The selector's value, wherever it stands (`pnpm --filter x dev`, `pnpm run dev --filter=x`,
  // `npm -w x`, `yarn workspace x`, `turbo run build -F x`): the token right after the option.
  const tokenRe = new RegExp(`(?<=(?:^|\\s)(?:--filter|-F|--workspace|-w|workspace)(?:=|\\s+)["']?)${escapeRe(ws)}(?=["']?(?:\\s|$))`);
  const replaceWith = written && hasScript && tokenRe.test(ref.raw) ? ref.raw.replace(tokenRe, written) : undefined;
  const what = succ === undefined || succDir === undefined
    ? `it was removed from \`${removal.manifest}\` in ${describeCommit(removal.commit)}`
    : `it was renamed to \`${succ}\` in ${describeCommit(removal.commit)}${hasScript ? '' : `, and \`${succManifest}\` defines no \`${task}\` script`}`;
  const advice = replaceWith ? `use \`${replaceWith}\` instead` : 'update or remove the command';
  return finding(
    entry, ref, 'script-missing', 'warning',
    `\`${ref.raw}\` no longer works: no workspace package is named \`${ws}\` any more: ${what}; ${advice}.`,
    { ...commitEvidence(removal.commit), now: succ ?? removal.manifest, manifest: removal.manifest, script: task, workspace: ws, ...(succ !== undefined ? { successor: succ } : {}) },
    replaceWith ? { replace: replaceWith } : undefined,
  );
}

// ------------------------------------------------------------------ Turborepo and Nx

/** The task of a turbo key or of a task as written: `web#build` and `//#build` are `build`. */
function turboTaskOf(key: string): string {
  return key.slice(key.lastIndexOf('#') + 1);
}

interface TurboIndex {
  /** Task names some turbo.json key defines at HEAD (`web#build` defines `build`). */
  now: Set<string>;
  /** Task name -> the history of every turbo.json key for it, oldest first. */
  events: Map<string, ScriptHistoryEvent[]>;
}
const turboCache = new WeakMap<object, TurboIndex>();
function turboIndex(ev: Evidence): TurboIndex {
  let idx = turboCache.get(ev.manifests);
  if (idx) return idx;
  idx = { now: new Set(), events: new Map() };
  for (const keys of ev.manifests.turboTasks?.values() ?? []) for (const k of keys) idx.now.add(turboTaskOf(k));
  for (const list of ev.manifests.scriptHistory.values()) {
    if (list[0]?.source !== 'turbo') continue;
    const task = turboTaskOf(list[0].name);
    const l = idx.events.get(task);
    if (l) l.push(...list);
    else idx.events.set(task, [...list]);
  }
  for (const l of idx.events.values()) l.sort((a, b) => (a.commit.time < b.commit.time ? -1 : a.commit.time > b.commit.time ? 1 : 0));
  turboCache.set(ev.manifests, idx);
  return idx;
}

/** `raw` with the word `old` (a whole word, the first one after `from`) replaced by `next`; undefined when not there. */
function swapWord(raw: string, old: string, next: string, from = 0): string | undefined {
  const re = new RegExp(`(?<=^|[\\s:="'])${escapeRe(old)}(?=$|[\\s:"'])`, 'g');
  re.lastIndex = from;
  const m = re.exec(raw);
  return m ? raw.slice(0, m.index) + next + raw.slice(m.index + old.length) : undefined;
}

/**
 * `turbo run <task> [--filter sel]` (also through npx, pnpm, pnpm exec, yarn, bunx), checked when
 * a turbo.json is at HEAD. The selector first, as pnpm's (`checkWorkspaceGone`: a package name
 * history shows renamed or removed; the successor written in place of the old name). Then the
 * task: turbo runs a task some turbo.json key names (`build`, `web#build`) and, for a package,
 * the script of that name, so a task is missing only when no turbo.json key and no package.json
 * script has it; even then it is reported only on evidence: history shows a turbo.json key for
 * it was removed (a name never seen may be a task of some other configuration). The successor
 * is the key the same commit added in its place (paired as npm scripts are: same or similar
 * configuration, or one for one), when it is defined now.
 */
function checkTurboRef(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  if (!ev.manifests.turboTasks?.size) return null;
  const written = ref.script!;
  const task = turboTaskOf(written);
  if (!task || isPlaceholderScript(task)) return null;
  if (ref.workspace) {
    const gone = checkWorkspaceGone(entry, ref, ev);
    if (gone) return gone;
  }
  const idx = turboIndex(ev);
  if (idx.now.has(task)) return null;
  for (const names of ev.manifests.scripts.values()) if (names.has(task)) return null;
  const events = idx.events.get(task);
  const last = events?.[events.length - 1];
  if (!last || last.type !== 'removed') return null;
  const keysNow = ev.manifests.turboTasks.get(last.manifest);
  const succKey = renamedTo(ev, last.manifest, last, keysNow);
  const to = succKey === undefined ? undefined : turboTaskOf(succKey);
  let replaceWith: string | undefined;
  let tail: string;
  let named = false;
  if (to && entry.refs.some((r) => r !== ref && r.kind === 'command' && r.tool === 'turbo' && turboTaskOf(r.script ?? '') === to)) {
    tail = `the \`${task}\` task of \`${last.manifest}\` was renamed to \`${to}\` in ${describeCommit(last.commit)}, which the entry already names`;
    named = true;
  } else if (to) {
    // The task as written keeps its package prefix (`web#typecheck` -> `web#check-types`).
    const next = written.slice(0, written.length - task.length) + to;
    const runner = /(?:^|\s)\S*turbo(?:@\S*)?(?=\s)/.exec(ref.raw);
    replaceWith = ref.raw === written ? next : swapWord(ref.raw, written, next, runner ? runner.index + runner[0].length : 0);
    tail = `the \`${task}\` task of \`${last.manifest}\` was renamed to \`${to}\` in ${describeCommit(last.commit)}`;
  } else tail = `the \`${task}\` task was removed from \`${last.manifest}\` in ${describeCommit(last.commit)}, and no package defines a \`${task}\` script`;
  const advice = replaceWith ? `use \`${replaceWith}\` instead` : named ? `remove \`${ref.raw}\`` : 'update or remove the command';
  return finding(
    entry, ref, 'script-missing', 'warning',
    `\`${ref.raw}\` no longer works: ${tail}; ${advice}.`,
    { ...commitEvidence(last.commit), now: last.manifest, manifest: last.manifest, script: task },
    replaceWith ? { replace: replaceWith } : undefined,
  );
}

interface NxNames {
  /** Project name -> project.json name events (kept under NX_NAME_KEY), oldest first. */
  events: Map<string, ScriptHistoryEvent[]>;
  /** `${sha}\0${manifest}` -> the name that commit gave that project.json. */
  addedBy: Map<string, string>;
}
const nxNamesCache = new WeakMap<object, NxNames>();
function nxNames(ev: Evidence): NxNames {
  let idx = nxNamesCache.get(ev.manifests);
  if (idx) return idx;
  idx = { events: new Map(), addedBy: new Map() };
  for (const list of ev.manifests.scriptHistory.values()) {
    if (!list[0]?.name.startsWith(NX_NAME_KEY)) continue;
    const name = list[0].name.slice(NX_NAME_KEY.length);
    const l = idx.events.get(name);
    if (l) l.push(...list);
    else idx.events.set(name, [...list]);
    for (const e of list) if (e.type === 'added') idx.addedBy.set(`${e.commit.sha}\0${e.manifest}`, name);
  }
  for (const l of idx.events.values()) l.sort((a, b) => (a.commit.time < b.commit.time ? -1 : a.commit.time > b.commit.time ? 1 : 0));
  nxNamesCache.set(ev.manifests, idx);
  return idx;
}

/**
 * The name the commit of `removal` gave the same manifest, or the one git history follows it
 * to: the file paired as moved, or the same file name in the folder its other files moved to.
 */
function nameTakenBy(ev: Evidence, addedBy: Map<string, string>, removal: { commit: CommitInfo; manifest: string }): string | undefined {
  const at = (m: string) => addedBy.get(`${removal.commit.sha}\0${m}`);
  const same = at(removal.manifest);
  if (same !== undefined) return same;
  const f = ev.history.fate(removal.manifest);
  if (f.status === 'renamed' && f.successor) return at(f.successor);
  const slash = removal.manifest.lastIndexOf('/');
  if (slash < 0) return undefined;
  const d = ev.history.fate(removal.manifest.slice(0, slash));
  return d.status === 'renamed' && d.successor ? at(joinDir(d.successor, removal.manifest.slice(slash + 1))) : undefined;
}

/**
 * The target an Nx reference runs. `nx <target> <project>` names it whole; `nx run
 * <project>:<spec>` splits the spec once after the project, then takes the longest prefix of the
 * rest (at `:` boundaries) that `known` says is or was a target of the project, the remainder
 * being the configuration (`api:database:init:prod` runs `database:init` when that is a target,
 * `database:init:prod` when that is one). When no prefix is known: `web:build:production` is
 * target `build` with configuration `production`; with more parts the reference is not read
 * (undefined).
 */
function nxRunTarget(ref: Reference, project: string, known: (target: string) => boolean): string | undefined {
  if (!ref.value.startsWith('nx run ')) return ref.script;
  const spec = /\S+$/.exec(ref.raw)?.[0];
  if (!spec?.startsWith(`${project}:`)) return ref.script;
  const rest = spec.slice(project.length + 1).split(':');
  for (let n = rest.length; n >= 1; n--) {
    const t = rest.slice(0, n).join(':');
    if (known(t)) return t;
  }
  return rest.length <= 2 ? rest[0] : undefined;
}

/**
 * `nx run <project>:<target>[:<config>]` and `nx <target> <project>`, checked when an nx.json is
 * at HEAD (`ManifestIndex.nx`).
 * - The project: Nx projects are named by project.json `name`, else package.json `nx.name` /
 *   `name`. A name no project has now is reported only on evidence: history shows a project.json
 *   (or package.json) declared it and every one that did dropped it. The successor is the name the
 *   same commit gave the same file (or the file it moved to); it is written in place of the old
 *   name when that project has the target.
 * - The target, for a project that exists: Nx runs its project.json `targets`, package.json
 *   `nx.targets` and scripts, and nx.json `targetDefaults`; plugins declared in nx.json infer
 *   targets no file lists, so with plugins a target is never reported. Otherwise it is missing
 *   only when history shows the project's file had it and removed it (the successor paired as
 *   npm scripts are).
 */
function checkNxRef(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  const nx = ev.manifests.nx;
  const project = ref.workspace;
  if (!nx || !project || !ev.history.available || ev.history.shallow) return null;
  const proj = nx.projects.get(project);
  // The files that declare (or declared) the project: their targets, now and in history, tell a
  // target name holding colons from a configuration after it (`nx run api:db:init:prod`).
  const declaring = new Set<string>();
  if (proj) for (const f of [proj.manifest, joinDir(proj.dir, 'package.json')]) declaring.add(f);
  else {
    const pkgs = (ev.manifests.everProjectNames?.get(project.toLowerCase()) ?? []).filter((e) => /(?:^|\/)package\.json$/.test(e.manifest));
    for (const e of [...(nxNames(ev).events.get(project) ?? []), ...pkgs]) {
      const dir = e.manifest.includes('/') ? e.manifest.slice(0, e.manifest.lastIndexOf('/')) : '';
      for (const f of [e.manifest, joinDir(dir, 'project.json'), joinDir(dir, 'package.json')]) declaring.add(f);
    }
  }
  const known = (t: string) => (proj?.targets.has(t) ?? false) || nx.targetDefaults.has(t) || [...declaring].some((f) => lastEvent(ev, f, t) !== undefined);
  const target = nxRunTarget(ref, project, known);
  if (target === undefined) return null;
  const hasTarget = (p: { targets: Set<string> }) => nx.plugins || p.targets.has(target) || nx.targetDefaults.has(target);
  if (proj) {
    if (hasTarget(proj)) return null;
    const files = [...declaring].filter((f, i, a) => a.indexOf(f) === i);
    let last: ScriptHistoryEvent | undefined;
    for (const f of files) {
      const e = lastEvent(ev, f, target);
      if (e && (!last || e.commit.time > last.commit.time)) last = e;
    }
    if (!last || last.type !== 'removed') return null;
    const to = renamedTo(ev, last.manifest, last, proj.targets);
    let replaceWith: string | undefined;
    let tail: string;
    if (to && entry.refs.some((r) => r !== ref && r.kind === 'command' && r.tool === 'nx' && r.workspace === project && nxRunTarget(r, project, known) === to)) {
      tail = `it was renamed to \`${to}\` in \`${last.manifest}\` in ${describeCommit(last.commit)}, which the entry already names`;
    } else if (to) {
      replaceWith = swapWord(ref.raw, target, to, ref.raw.indexOf(ref.value.startsWith('nx run ') ? `${project}:` : ' ') + 1);
      tail = `it was renamed to \`${to}\` in \`${last.manifest}\` in ${describeCommit(last.commit)}`;
    } else tail = `it was removed from \`${last.manifest}\` in ${describeCommit(last.commit)}`;
    const advice = replaceWith ? `use \`${replaceWith}\` instead` : 'update or remove the command';
    return finding(
      entry, ref, 'script-missing', 'warning',
      `\`${ref.raw}\` no longer works: the Nx project \`${project}\` has no \`${target}\` target: ${tail}; ${advice}.`,
      { ...commitEvidence(last.commit), now: last.manifest, manifest: last.manifest, script: target, workspace: project },
      replaceWith ? { replace: replaceWith } : undefined,
    );
  }
  // The project's name is gone. Its history: project.json names, and package.json names (a
  // package.json project); the name must be dropped by every file that declared it.
  const names = nxNames(ev);
  const own = names.events.get(project) ?? [];
  const pkg = (ev.manifests.everProjectNames?.get(project.toLowerCase()) ?? []).filter((e) => /(?:^|\/)package\.json$/.test(e.manifest));
  let net = 0;
  for (const e of own) net += e.type === 'added' ? 1 : -1;
  for (const e of pkg) net += e.type === 'added' ? 1 : -1;
  if (net > 0 || (!own.length && !pkg.length)) return null;
  let removal: { commit: CommitInfo; manifest: string } | undefined;
  for (const e of [...own, ...pkg]) if (e.type === 'removed' && (!removal || e.commit.time > removal.commit.time)) removal = e;
  if (!removal) return null;
  let succ = nameTakenBy(ev, names.addedBy, removal);
  if (succ === undefined && /(?:^|\/)package\.json$/.test(removal.manifest)) succ = nameTakenBy(ev, nameIndex(ev).addedBy, removal);
  const next = succ !== undefined ? nx.projects.get(succ) : undefined;
  const ok = next !== undefined && hasTarget(next);
  const written = ok ? swapWord(ref.raw, project, succ!, ref.raw.indexOf(ref.value.startsWith('nx run ') ? ' run ' : ` ${target} `) + 1) : undefined;
  const replaceWith = written !== ref.raw ? written : undefined;
  const what = next === undefined
    ? `it was removed from \`${removal.manifest}\` in ${describeCommit(removal.commit)}`
    : `it was renamed to \`${succ}\` in ${describeCommit(removal.commit)}${ok ? '' : `, and \`${next.manifest}\` defines no \`${target}\` target`}`;
  const advice = replaceWith ? `use \`${replaceWith}\` instead` : 'update or remove the command';
  return finding(
    entry, ref, 'script-missing', 'warning',
    `\`${ref.raw}\` no longer works: no Nx project is named \`${project}\` any more: ${what}; ${advice}.`,
    { ...commitEvidence(removal.commit), now: next?.manifest ?? removal.manifest, manifest: removal.manifest, script: target, workspace: project, ...(next !== undefined ? { successor: succ } : {}) },
    replaceWith ? { replace: replaceWith } : undefined,
  );
}

/** Package-manager options whose value is the next token (commands.ts `targetOption`). */
const PM_VALUE_OPTIONS = new Set(['--filter', '-F', '--workspace', '-w', '--prefix', '-C', '--dir', '--cwd']);

/**
 * Where the script name stands in the text of an npm-family command reference: the first word
 * after the package manager, its options (with their values), `yarn workspace <x>` and `run`,
 * as the parser reads it. The text may go on past the name (a selector written after it:
 * `pnpm run dev --filter web`), so the name is found by position, not at the end. -1 when that
 * word is not the name (`npm t` for `test`).
 */
function scriptAt(raw: string, name: string): number {
  const toks = [...raw.matchAll(/\S+/g)];
  const pm = toks[0]?.[0];
  let k = 1;
  const options = () => {
    while (k < toks.length && toks[k]![0].startsWith('-')) {
      const o = toks[k]![0];
      k += !o.includes('=') && PM_VALUE_OPTIONS.has(o) && !(o === '-w' && pm === 'pnpm') ? 2 : 1;
    }
  };
  options();
  if (pm === 'yarn' && toks[k]?.[0] === 'workspace') k += 2;
  if (toks[k]?.[0] === 'run' || toks[k]?.[0] === 'run-script') {
    k++;
    options();
  }
  const t = toks[k];
  return t && t[0].replace(/^["']|["']$/g, '') === name ? t.index! + (t[0].length - t[0].replace(/^["']/, '').length) : -1;
}

export function checkScriptRef(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  if (ref.kind !== 'command' || !ref.script) return null;
  if (ref.tool === 'turbo' || ref.tool === 'nx') return describedAsPast(entry, ref) ? null : ref.tool === 'turbo' ? checkTurboRef(entry, ref, ev) : checkNxRef(entry, ref, ev);
  const name = ref.script;
  // (Placeholders such as `...` or `SCRIPT` are not extracted; references made elsewhere are skipped too.)
  if (!/^[\w:.@/+-]+$/.test(name) || name.includes('$') || isPlaceholderScript(name)) return null;
  if (describedAsPast(entry, ref)) return null;
  if (ref.tool === 'other' && GRADLE_COMMAND.test(ref.value.slice(0, ref.value.indexOf(' ')))) return checkGradleProjectRef(entry, ref, ev) ?? checkGradleTaskRef(entry, ref, ev);
  if (ref.tool === 'other' && MAVEN_COMMAND.test(ref.value.slice(0, ref.value.indexOf(' ')))) return checkMavenGoalRef(entry, ref, ev);
  if (ref.tool === 'other') return checkPythonRunnerRef(entry, ref, ev);
  if (ref.tool === 'composer' || ref.tool === 'deno' || ref.tool === 'task') return checkTaskRunnerRef(entry, ref, ev, ref.tool);
  if (ref.workspace && ref.workspace !== '*' && (ref.tool === 'npm' || ref.tool === 'pnpm' || ref.tool === 'yarn' || ref.tool === 'bun')) {
    const gone = checkWorkspaceGone(entry, ref, ev);
    if (gone) return gone;
  }
  const memDir = memDirOf(entry.file);
  let look = findLookup(ev, ref, memDir) ?? noManifestUpwards(ev, ref, memDir, name);
  if (!look) return null;
  const what = look.kind === 'npm' ? 'script' : look.kind === 'make' ? 'target' : 'recipe';
  if (look.names?.has(name)) return null;
  if (look.kind === 'make' && look.names && makePattern(look.names, name)) return null;
  let last = lastEvent(ev, look.manifest, name);
  // `pnpm vitest`, `yarn eslint`: a binary of a dependency, not a script (the package check owns it),
  // unless this manifest once had a script of that name.
  // `run` counts only right after the package manager (`pnpm run x` runs scripts only): in
  // `pnpm turbo run lint` it is turbo's.
  if (look.kind === 'npm' && ref.tool !== 'npm' && !/^\S+\s+run(?:-script)?\s/.test(ref.value) && !last && isBinary(ev, name)) return null;
  let dir = look.manifest.includes('/') ? look.manifest.slice(0, look.manifest.lastIndexOf('/')) : '';
  let alt = otherRunner(ev, dir, name, look.kind);
  // The nearest manifest never had it: the one manifest that did is meant (only when the command
  // names no folder, workspace or file of its own: those say which manifest, and fixing the name
  // against another one would be wrong).
  let former = false;
  if (!last && !alt && look.names && !ref.base && !ref.workspace && !ref.manifest) {
    const sole = soleFormerDefiner(ev, look, name);
    if (sole) {
      look = sole;
      last = lastEvent(ev, look.manifest, name);
      dir = look.manifest.includes('/') ? look.manifest.slice(0, look.manifest.lastIndexOf('/')) : '';
      alt = otherRunner(ev, dir, name, look.kind);
      former = true;
    }
  }
  const of = former ? ` of \`${look.manifest}\`` : '';
  let replaceWith: string | undefined;
  let tail: string;
  let named = false;
  let verb = 'no longer works';
  if (!look.names) {
    // The whole manifest is gone.
    const gone = lastManifestRemoval(ev, look.manifest);
    tail = `\`${look.manifest}\` no longer exists${gone ? ` (removed in ${describeCommit(gone)})` : ''}`;
  } else if (last && last.type === 'removed') {
    const to = renamedTo(ev, look.manifest, last, look.names);
    // The entry already runs the successor (`npm run e2e` next to `npm run test:e2e`): the rename is
    // said, but writing it over the old command would only repeat the entry.
    if (to && entry.refs.some((r) => r !== ref && r.kind === 'command' && r.script === to)) {
      tail = `the ${what}${of} was renamed to \`${to}\` in ${describeCommit(last.commit)}, which the entry already names`;
      named = true;
    } else if (to) {
      const at = scriptAt(ref.raw, name);
      const before = at < 0 ? ref.raw : ref.raw.slice(0, at);
      const needsRun = (look.kind === 'npm' && ref.tool && ref.tool !== 'npm' && BUILTINS[ref.tool as 'pnpm' | 'yarn' | 'bun']?.has(to)) || (ref.tool === 'npm' && !/\brun(?:-script)?\b/.test(before));
      const next = needsRun && !/\brun(?:-script)?\s+(?:\S+\s+)*$/.test(before) ? `run ${to}` : to;
      if (at >= 0) replaceWith = before + next + ref.raw.slice(at + name.length);
      tail = `the ${what}${of} was renamed to \`${to}\` in ${describeCommit(last.commit)}`;
    } else tail = `the ${what} was removed from \`${look.manifest}\` in ${describeCommit(last.commit)}`;
  } else {
    // Never defined in this manifest. When another package defines it, the command is run there: not stale.
    if (!alt && definedElsewhere(ev, name, look.kind)) return null;
    // `make`/`just` in running prose, not code: a target it never had is the English verb ("always
    // make self-contained commits", "we make non-breaking releases"), not a command that fails.
    if (ref.in === 'prose' && !last && (look.kind === 'make' || look.kind === 'just')) return null;
    tail = `\`${look.manifest}\` defines no \`${name}\` ${what}`;
    // A make target nothing shows was ever removed: the command does not work, it did not stop
    // working. With the Makefile's full target history read, it never had the target.
    if (look.kind === 'make') {
      verb = 'does not work';
      // A Makefile that includes others: their history is not read, so "never" cannot be claimed.
      if (!last && ev.history.available && !ev.history.shallow && everHad(ev, look.manifest) && !makeSetIncludes(look.names)) tail += ', and never did';
    } else if (look.kind === 'npm' && !last && ev.history.available && !ev.history.shallow && everHad(ev, look.manifest)) {
      // A package.json whose full script history was read and never had the script: the command
      // never worked, it did not stop working (a shallow history may lack the commit that removed it).
      verb = 'does not work';
    }
  }
  if (alt && !replaceWith && !named) replaceWith = alt;
  const advice = replaceWith ? `use \`${replaceWith}\` instead` : named ? `remove \`${ref.raw}\`` : 'update or remove the command';
  return finding(
    entry, ref, 'script-missing', 'warning',
    `\`${ref.raw}\` ${verb}: ${tail}${alt && replaceWith === alt ? ` (\`${alt}\` exists)` : ''}; ${advice}.`,
    { ...(last?.type === 'removed' ? commitEvidence(last.commit) : {}), now: look.manifest, manifest: look.manifest, script: name },
    replaceWith ? { replace: replaceWith } : undefined,
  );
}

// ------------------------------------------------------------------ Python runners

type PyRunner = 'hatch' | 'pdm' | 'poe' | 'entry';
const PY_RUNNER: Record<string, PyRunner> = { hatch: 'hatch', pdm: 'pdm', poe: 'poe', poethepoet: 'poe', uv: 'entry', poetry: 'entry' };
/** Poe reads tasks from these files next to pyproject.toml as well. */
const POE_TASK_FILES = ['poe_tasks.toml', 'poe_tasks.yaml', 'poe_tasks.yml', 'poe_tasks.json'];

const pyFormerCache = new WeakMap<object, Map<string, Set<string>>>();
/** `<runner> <name>` -> the pyproject.toml / hatch.toml files whose history ever had it (indexed once per run). */
function pyFormerDefiners(ev: Evidence): Map<string, Set<string>> {
  let idx = pyFormerCache.get(ev.manifests);
  if (idx) return idx;
  idx = new Map();
  for (const list of ev.manifests.scriptHistory.values()) {
    const e = list[0];
    if (!e || !/(?:^|\/)(?:pyproject|hatch)\.toml$/.test(e.manifest)) continue;
    const set = idx.get(e.name);
    if (set) set.add(e.manifest);
    else idx.set(e.name, new Set([e.manifest]));
  }
  pyFormerCache.set(ev.manifests, idx);
  return idx;
}

const entryCache = new WeakMap<object, Set<string>>();
/** Every entry point a pyproject defines at HEAD (indexed once per run). */
function entryPointsNow(ev: Evidence): Set<string> {
  let set = entryCache.get(ev.manifests);
  if (!set) {
    set = new Set();
    for (const names of pythonRunners(ev.manifests).values()) for (const n of names) if (n.startsWith('entry ')) set.add(n.slice(6));
    entryCache.set(ev.manifests, set);
  }
  return set;
}

/**
 * `hatch run [env:]x`, `pdm run x`, `poe x`, `uv run x` / `poetry run x` (tool `other`, the runner
 * is the value's first word), checked against the tables of the nearest pyproject.toml (and
 * hatch.toml for Hatch) like npm scripts against package.json, with one difference: Hatch, PDM,
 * uv and Poetry also run any executable, so a name the table lacks is stale only when its history
 * shows it was that runner's script (or entry point) and was removed, and it is not now an entry
 * point of any pyproject, a dependency or a known binary. Poe runs only tasks: a name its table
 * never had is reported as npm's are, when that table is complete (no `include`, no
 * `poe_tasks.*` file) and no other pyproject defines it. No pyproject, or an open table (Hatch
 * environment collectors, Poe includes): nothing is said.
 */
function checkPythonRunnerRef(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  const runner = PY_RUNNER[ref.value.slice(0, ref.value.indexOf(' '))];
  const written = ref.script!;
  if (!runner) return null;
  const tables = pythonRunners(ev.manifests);
  if (!tables.size) return null;
  let env = '';
  let script = written;
  if (runner === 'hatch') {
    const colon = written.indexOf(':');
    env = colon > 0 ? written.slice(0, colon) : ref.workspace ?? 'default';
    script = colon > 0 ? written.slice(colon + 1) : written;
    // Hatch's internal environments have scripts of their own without any configuration.
    if (!script || env.startsWith('hatch-')) return null;
  }
  // A matrix environment (`test.py3.12`) has the scripts of the environment it is made from.
  const keys = runner === 'hatch' ? [`hatch ${env}:${script}`, ...(env.includes('.') ? [`hatch ${env.slice(0, env.indexOf('.'))}:${script}`] : [])] : [`${runner} ${written}`];
  // Entry points of every pyproject count (a uv workspace runs its members' ones), and, for runners
  // that run any executable, so do dependencies and known binaries.
  if (entryPointsNow(ev).has(script)) return null;
  if (runner !== 'poe' && isBinary(ev, script)) return null;
  const start = ref.base ? commandFolder(ev, ref.base, memDirOf(entry.file)) : memDirOf(entry.file);
  if (start === null) return null;
  let files: string[] = [];
  let dir = '';
  for (const d of upwards(start)) {
    files = (runner === 'hatch' ? ['pyproject.toml', 'hatch.toml'] : ['pyproject.toml']).map((n) => joinDir(d, n)).filter((f) => tables.has(f));
    if (files.length) {
      dir = d;
      break;
    }
  }
  if (!files.length) return null; // no pyproject: its configuration cannot be read
  if (files.some((f) => tables.get(f)!.has(`${runner} ?`))) return null;
  if (runner === 'poe' && POE_TASK_FILES.some((n) => ev.files.files.has(joinDir(dir, n)))) return null;
  if (files.some((f) => keys.some((k) => tables.get(f)!.has(k)))) return null;
  // The latest event of the name in the project's files; for entry points, in the one pyproject
  // that ever had it when the nearest never did (a uv workspace member's).
  let last: ScriptHistoryEvent | undefined;
  let key = keys[0]!;
  const latest = (fs: Iterable<string>) => {
    for (const f of fs) for (const k of keys) {
      const e = lastEvent(ev, f, k);
      if (e && (!last || e.commit.date > last.commit.date)) [last, key] = [e, k];
    }
  };
  latest(files);
  if (!last && runner === 'entry') {
    const former = pyFormerDefiners(ev).get(key);
    if (former?.size === 1) latest(former);
  }
  const what = runner === 'poe' ? 'task' : runner === 'entry' ? 'entry point' : 'script';
  if (!last) {
    // Never defined: only Poe's complete task table says the command cannot run.
    if (runner !== 'poe' || !files.some((f) => [...tables.get(f)!].some((n) => n.startsWith('poe ')))) return null;
    for (const [f, names] of tables) if (names.has(key) && !files.includes(f)) return null; // defined in another project
    if (pyFormerDefiners(ev).has(key)) return null; // another project had it: which one is meant is not known
    return finding(
      entry, ref, 'script-missing', 'warning',
      `\`${ref.raw}\` does not work: \`${files[0]}\` defines no \`${written}\` ${what}; update or remove the command.`,
      { now: files[0]!, manifest: files[0]!, script: written },
    );
  }
  const ended: ScriptHistoryEvent = last;
  if (ended.type !== 'removed') return null;
  const manifest = ended.manifest;
  const prefix = runner === 'hatch' ? key.slice(0, key.indexOf(':') + 1) : `${runner} `;
  const to = renamedTo(ev, manifest, ended, tables.get(manifest), (n) => n.startsWith(prefix));
  let replaceWith: string | undefined;
  let tail: string;
  let named = false;
  if (to) {
    const bare = to.slice(prefix.length);
    const shown = runner === 'hatch' && written.includes(':') ? `${env}:${bare}` : bare;
    if (entry.refs.some((r) => r !== ref && r.kind === 'command' && r.tool === 'other' && r.script === shown)) {
      tail = `the ${what} was renamed to \`${shown}\` in ${describeCommit(ended.commit)}, which the entry already names`;
      named = true;
    } else {
      replaceWith = ref.raw.replace(new RegExp(`${escapeRe(written)}$`), shown);
      if (replaceWith === ref.raw) replaceWith = undefined;
      tail = `the ${what} was renamed to \`${shown}\` in ${describeCommit(ended.commit)}`;
    }
  } else tail = `the ${what} was removed from \`${manifest}\` in ${describeCommit(ended.commit)}`;
  const advice = replaceWith ? `use \`${replaceWith}\` instead` : named ? `remove \`${ref.raw}\`` : 'update or remove the command';
  return finding(
    entry, ref, 'script-missing', 'warning',
    `\`${ref.raw}\` no longer works: ${tail}; ${advice}.`,
    { ...commitEvidence(ended.commit), now: manifest, manifest, script: written },
    replaceWith ? { replace: replaceWith } : undefined,
  );
}

// ------------------------------------------------------------------ Composer, Deno, go-task

type TaskTool = 'composer' | 'deno' | 'task';
const RUNNER_FILES: Record<TaskTool, string[]> = { composer: ['composer.json'], deno: DENO_CONFIG_NAMES, task: TASKFILE_NAMES };

/**
 * The file a Composer, Deno or go-task command reads: the one its option names (`deno task -c
 * x/deno.json`, `task -t ci/`: a folder means the file the tool looks for in it), else the
 * nearest one up from the folder the command runs in, by the tool's own names in its order. A
 * file is found by the work tree, not by whether it could be read: one that could not be is the
 * one that applies, and nothing is said (`undefined` then, as when there is none).
 */
function runnerManifest(ev: Evidence, tool: TaskTool, start: string, written: string | undefined): string | undefined {
  const names = RUNNER_FILES[tool];
  if (written) {
    const m = joinPath(start, written.replace(/^["']|["']$/g, ''));
    if (m === null) return undefined;
    if (ev.files.files.has(m)) return m;
    if (m === '' || ev.files.dirs.has(m)) for (const n of names) if (ev.files.files.has(joinDir(m, n))) return joinDir(m, n);
    return undefined;
  }
  for (const d of upwards(start)) for (const n of names) if (ev.files.files.has(joinDir(d, n))) return joinDir(d, n);
  return undefined;
}

/**
 * Whether `composer x` runs some command although x is no script: Composer (Symfony Console)
 * runs a command by an unambiguous abbreviation (`composer dump` is `dump-autoload`, `composer
 * lint` runs the one script `lint:fix`; several matches fail, but not for want of the name), each
 * `:`-part a prefix, case-sensitive first. `run-script` takes the exact name only.
 */
function composerRunsOther(name: string, table: TaskTable): boolean {
  const expr = name.split(':').map(escapeRe).join('[^:]*:') + '[^:]*';
  const all = [...COMPOSER_BUILTINS, ...table.names];
  const re = new RegExp(`^${expr}`);
  if (all.some((c) => re.test(c))) return true;
  const ci = new RegExp(`^${expr}`, 'i');
  return all.some((c) => ci.test(c));
}

const runnerTablesCache = new WeakMap<object, Map<TaskTool, TaskTable[]>>();
/**
 * Whether some table of the tool defines `name` by evidence: the name, or a wildcard task matching
 * it (an open table says nothing of this name). Tables are grouped by tool once per run; the
 * caller's own table lacks the name, so it need not be left out.
 */
function definedByAnother(ev: Evidence, tool: TaskTool, name: string): boolean {
  let byTool = runnerTablesCache.get(ev.manifests);
  if (!byTool) {
    byTool = new Map();
    for (const t of taskTables(ev.manifests).values()) {
      const l = byTool.get(t.tool);
      if (l) l.push(t);
      else byTool.set(t.tool, [t]);
    }
    runnerTablesCache.set(ev.manifests, byTool);
  }
  return (byTool.get(tool) ?? []).some((t) => t.names.has(name) || (t.pattern !== undefined && t.pattern.test(name)));
}

/**
 * `composer run-script x` / `composer x`, `deno task x`, `task x` (go-task), checked like npm
 * scripts against the file that applies (see `runnerManifest`) and its history: a name renamed
 * (the successor paired as npm's are: same or similar command, or one for one) or removed is
 * reported with the commit; a name the file never had, when no other file of the tool defines it.
 * Nothing is said when the file is absent or could not be read, or its names are open: a Deno
 * workspace member, a Taskfile include the index could not read (every `ns:*` under it), a
 * wildcard task matching the name. Deno also runs package.json scripts: a script of a
 * package.json up from the folder counts; so does, for `task x`, a script of a pyproject.toml up
 * from the folder (taskipy runs `task x` too). A go-task name under an include (`docs:build`) is
 * followed in the included Taskfile's history, and its successor keeps the namespace. `composer
 * x` without `run-script` may be a plugin's command: reported only when history shows x was a
 * script of this composer.json and was removed, and x does not run another command now (see
 * `composerRunsOther`).
 */
function checkTaskRunnerRef(entry: Entry, ref: Reference, ev: Evidence, tool: TaskTool): Finding | null {
  const tables = taskTables(ev.manifests);
  if (!tables.size) return null;
  const name = ref.script!;
  const memDir = memDirOf(entry.file);
  const start = ref.base ? commandFolder(ev, ref.base, memDir) : memDir;
  if (start === null) return null;
  const manifest = runnerManifest(ev, tool, start, ref.manifest);
  const table = manifest !== undefined ? tables.get(manifest) : undefined;
  if (!manifest || !table || table.tool !== tool) return null;
  if (taskNameDefined(table, name)) return null;
  const bare = tool === 'composer' && !/^composer run(?:-script)? /.test(ref.value);
  if (bare && composerRunsOther(name, table)) return null;
  if (tool === 'deno') for (const d of upwards(start)) if (ev.manifests.scripts.get(joinDir(d, 'package.json'))?.has(name)) return null;
  // taskipy's command is `task` too: a name a pyproject up from the folder defines may be its task.
  if (tool === 'task') for (const d of upwards(start)) if (ev.manifests.scripts.get(joinDir(d, 'pyproject.toml'))?.has(name)) return null;
  // The latest event of the name in the files the table is made of (a namespaced name in its include's).
  let last: ScriptHistoryEvent | undefined;
  let prefix = '';
  for (const src of table.sources) {
    if (!name.startsWith(src.prefix) || name === src.prefix) continue;
    const e = lastEvent(ev, src.file, name.slice(src.prefix.length));
    if (e && (!last || e.commit.date > last.commit.date)) [last, prefix] = [e, src.prefix];
  }
  const what = tool === 'composer' ? 'script' : 'task';
  if (!last || last.type !== 'removed') {
    // Never defined here. `composer x` may be a plugin's command; another file defining the name
    // is where the command is run.
    if (bare || definedByAnother(ev, tool, name)) return null;
    return finding(
      entry, ref, 'script-missing', 'warning',
      `\`${ref.raw}\` does not work: \`${manifest}\` defines no \`${name}\` ${what}; update or remove the command.`,
      { now: manifest, manifest, script: name },
    );
  }
  const removed: ScriptHistoryEvent = last;
  // The included file's names now: the table's under its prefix.
  const own = new Set<string>();
  for (const n of table.names) if (n.startsWith(prefix)) own.add(n.slice(prefix.length));
  const next = renamedTo(ev, removed.manifest, removed, own);
  const to = next === undefined ? undefined : prefix + next;
  let replaceWith: string | undefined;
  let tail: string;
  let named = false;
  if (to && entry.refs.some((r) => r !== ref && r.kind === 'command' && r.tool === tool && r.script === to)) {
    tail = `the ${what} was renamed to \`${to}\` in ${describeCommit(removed.commit)}, which the entry already names`;
    named = true;
  } else if (to) {
    replaceWith = ref.raw.replace(new RegExp(`${escapeRe(name)}$`), bare && COMPOSER_BUILTINS.has(to) ? `run-script ${to}` : to);
    if (replaceWith === ref.raw) replaceWith = undefined;
    tail = `the ${what} was renamed to \`${to}\` in ${describeCommit(removed.commit)}`;
  } else tail = `the ${what} was removed from \`${removed.manifest}\` in ${describeCommit(removed.commit)}`;
  const advice = replaceWith ? `use \`${replaceWith}\` instead` : named ? `remove \`${ref.raw}\`` : 'update or remove the command';
  return finding(
    entry, ref, 'script-missing', 'warning',
    `\`${ref.raw}\` no longer works: ${tail}; ${advice}.`,
    { ...commitEvidence(removed.commit), now: manifest, manifest: removed.manifest, script: name },
    replaceWith ? { replace: replaceWith } : undefined,
  );
}

// ------------------------------------------------------------------ Gradle tasks of removed plugins

/**
 * Tasks Gradle and the Android Gradle plugin define themselves (`assemble*`, `test*`, `lint*`,
 * `connected*`…): whatever plugin left the build, they stay, so they are never tied to one.
 */
const GRADLE_OWN_TASK = /^(?:(?:assemble|test|lint|connected|bundle|install|uninstall|publish|compile)(?![a-z])|(?:build|check|clean|dependencies|dependencyInsight|tasks|help|wrapper|jar|javadoc|run|bootRun|init|projects|properties|buildEnvironment|signingReport)$)/;

interface GonePlugin {
  /** The plugin's name as history follows it (the last id segment or the catalog alias: `spotless`; a Maven artifact id). */
  name: string;
  /** The latest removal of it from a build script or catalog. */
  removal: PackageHistoryEvent;
}

const gonePluginsCache = new WeakMap<object, Map<string, GonePlugin>>();

/**
 * Plugin names that are words of other plugins' and Gradle's own task names (`compileKotlin`,
 * kotlinter's `formatKotlin`, `generateDebugResources`, `packageRelease`): a catalog alias such as
 * `kotlin` (for `org.jetbrains.kotlin.jvm`) or `android` dropped while the plugin is applied some
 * other way (`kotlin("jvm")`) would otherwise claim those tasks.
 */
const TASK_WORDS = new Set([
  'kotlin', 'java', 'android', 'groovy', 'scala', 'jvm', 'js', 'wasm', 'native', 'multiplatform', 'compose', 'debug', 'release',
  'resources', 'sources', 'classes', 'javadoc', 'docs', 'test', 'tests', 'lint', 'library', 'application', 'app', 'base', 'jar',
  'publish', 'publishing', 'maven', 'signing', 'distribution', 'plugin', 'gradle', 'build', 'check', 'clean', 'assemble', 'bundle',
  'install', 'run', 'kts', 'dsl', 'kotlin-dsl', 'java-library', 'java-platform',
]);

const GRADLE_KINDS: ReadonlySet<string> = new Set(['gradle-build', 'gradle-catalog']);
const MAVEN_KINDS: ReadonlySet<string> = new Set(['maven']);

/**
 * The latest removal of a dependency that history shows declared as a build plugin (field
 * `plugins`) in a manifest of `kinds`, when its last event anywhere is that removal; undefined
 * otherwise (never a plugin there, or declared again since).
 */
function pluginRemoval(events: PackageHistoryEvent[], kinds: ReadonlySet<string>): PackageHistoryEvent | undefined {
  let removal: PackageHistoryEvent | undefined;
  let plugin = false;
  for (const e of events) {
    if (!kinds.has(fileManifestKind(e.manifest) ?? '')) continue;
    if (e.field === 'plugins') plugin = true;
    if (e.type === 'removed' && (!removal || e.commit.time >= removal.commit.time)) removal = e;
  }
  return plugin && removal && events[events.length - 1]?.type === 'removed' ? removal : undefined;
}

/**
 * Gradle plugins history shows applied or declared (`id("com.diffplug.spotless")`, a catalog's
 * `[plugins]` entry) and removed, which no manifest declares at HEAD in any spelling (id, last id
 * segment, catalog alias, the group of a plugin artifact on the build classpath), keyed by the
 * name lower-cased without hyphens (`google-services` -> `googleservices`, as a task name writes
 * it). Only one-word names (not a whole id: a generic last segment such as `application` names no
 * task family), of three characters or more, and not a word of other tasks' names (TASK_WORDS).
 * Built once per run.
 */
function gonePlugins(ev: Evidence): Map<string, GonePlugin> {
  let out = gonePluginsCache.get(ev.manifests);
  if (out) return out;
  out = new Map();
  for (const [key, events] of ev.manifests.everDependencies) {
    if (ev.manifests.dependencies.has(key) || !/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/.test(key) || key.length < 3 || TASK_WORDS.has(key)) continue;
    const removal = pluginRemoval(events, GRADLE_KINDS);
    if (removal) out.set(key.replace(/-/g, ''), { name: removal.displayName ?? key, removal });
  }
  gonePluginsCache.set(ev.manifests, out);
  return out;
}

/**
 * The removed plugin a task name belongs to, matched case-insensitively at a word boundary (the
 * next letter not lower-case): the name starts with the plugin's (`spotlessApply`, `detekt`,
 * `koverHtmlReport`), or a lower-case verb comes first and the plugin's name follows, capitalised
 * (`verifyRoborazziDemoDebug`, `recordRoborazziDebug`).
 */
function pluginOfTask(task: string, gone: Map<string, GonePlugin>): GonePlugin | undefined {
  const lower = task.toLowerCase();
  const boundary = (i: number) => i >= task.length || !/[a-z]/.test(task[i]!);
  const verb = /^[a-z]+(?=[A-Z])/.exec(task)?.[0].length;
  for (const [key, p] of gone) {
    if (lower.startsWith(key) && boundary(key.length)) return p;
    if (verb !== undefined && lower.startsWith(key, verb) && boundary(verb + key.length)) return p;
  }
  return undefined;
}

/**
 * `./gradlew spotlessApply`, `gradle :app:detekt`, `./gradlew verifyRoborazziDemoDebug`: a task
 * whose name belongs to a Gradle plugin (see `pluginOfTask`) that history shows removed and that
 * no build script or catalog declares now (see `gonePlugins`) no longer exists: `script-missing`,
 * naming the commit that removed the plugin. Gradle's and the Android plugin's own tasks (see
 * GRADLE_OWN_TASK) never; not without history or with a shallow one (a plugin declared before
 * the clone's first commit has no removal to show). No replacement: what replaced the plugin's
 * task is not known.
 */
function checkGradleTaskRef(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  const task = ref.script!.slice(ref.script!.lastIndexOf(':') + 1);
  if (!task || GRADLE_OWN_TASK.test(task) || !ev.history.available || ev.history.shallow) return null;
  const plugin = pluginOfTask(task, gonePlugins(ev));
  if (!plugin) return null;
  const r = plugin.removal;
  return finding(
    entry, ref, 'script-missing', 'warning',
    `\`${ref.raw}\` no longer works: \`${task}\` is a task of the \`${plugin.name}\` Gradle plugin, which was removed from \`${r.manifest}\` in ${describeCommit(r.commit)}; no build script or version catalog declares it any more; update or remove the command.`,
    { ...commitEvidence(r.commit), now: r.manifest, manifest: r.manifest, script: task, plugin: plugin.name },
  );
}

// ------------------------------------------------------------------ Gradle project paths

const GRADLE_SETTINGS = ['settings.gradle.kts', 'settings.gradle'];
const GRADLE_BUILD_SCRIPTS = ['build.gradle.kts', 'build.gradle'];
/** Tasks every Gradle project has, one without a build script included. */
const GRADLE_HELP_TASK = /^(?:help|tasks|projects|dependencies|dependencyInsight|properties|buildEnvironment|outgoingVariants|resolvableConfigurations|javaToolchains|components|dependentComponents|model|init|wrapper|prepareKotlinBuildScriptModel)$/;

/**
 * Whether a project path as written (`:app`, `:fD` for `:featureDetail`) names one of `declared`:
 * the same path, or one whose every segment matches Gradle's name abbreviation (each camel-case
 * or kebab-case word a prefix of the name's, letter case aside).
 */
function gradlePathDeclared(declared: Iterable<string>, written: string): boolean {
  const segs = written.slice(1).split(':');
  const res = segs.map((w) => new RegExp('^' + w.split(/(?=[A-Z])|[-_]/).filter((x) => x).map((x) => escapeRe(x) + '[a-z0-9]*').join('[-_]?') + '$', 'i'));
  for (const d of declared) {
    if (d === written) return true;
    const ds = d.slice(1).split(':');
    if (ds.length === segs.length && ds.every((x, k) => res[k]!.test(x))) return true;
  }
  return false;
}

/**
 * `./gradlew :app:assembleDebug`, `gradle :core:data:test`: the project a task path names
 * (everything before the task; a path without the leading `:` only when the command runs in the
 * build's root folder) against the `settings.gradle(.kts)` up from that folder. A project it
 * includes (or an abbreviation of one, as Gradle reads them) is fine; so is everything when that
 * file's includes are built by code, or when there is none. A project the file no longer
 * includes, whose build script (`<folder>/build.gradle.kts` or `build.gradle`, the folder from the
 * path) history shows moved or deleted, is `script-missing` naming that commit; so is a project
 * only left as the parent of included ones (`:feature:foryou` after its script moved into
 * `feature/foryou/impl`), for any task but Gradle's help tasks. When the script moved into the
 * folder of a project the file includes, the command is rewritten with that project's path
 * (`:app:test` -> `:android:app:test`). Not without history or with a shallow one.
 */
function checkGradleProjectRef(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  const written = ref.script!;
  const absolute = written.startsWith(':');
  const segs = (absolute ? written.slice(1) : written).split(':');
  if (segs.length < 2 || !ev.history.available || ev.history.shallow) return null;
  const task = segs.pop()!;
  const memDir = memDirOf(entry.file);
  const start = ref.base ? commandFolder(ev, ref.base, memDir) : memDir;
  if (start === null) return null;
  let settings: string | undefined;
  for (const d of upwards(start)) {
    settings = GRADLE_SETTINGS.map((n) => joinDir(d, n)).find((f) => ev.files.files.has(f));
    if (settings) break;
  }
  const declared = settings === undefined ? undefined : ev.manifests.gradleSettings?.get(settings);
  if (!settings || !declared || declared.open) return null;
  const root = dirname(settings);
  if (!absolute && start !== root) return null; // relative to a subproject: which one is not guessed
  const project = ':' + segs.join(':');
  if (gradlePathDeclared(declared.paths, project)) return null;
  const parentOnly = gradlePathDeclared(declared.ancestors, project);
  if (parentOnly && GRADLE_HELP_TASK.test(task)) return null;
  const folder = joinDir(root, segs.join('/'));
  if (GRADLE_BUILD_SCRIPTS.some((n) => ev.files.files.has(joinDir(folder, n)))) return null;
  let gone: { script: string; fate: ReturnType<typeof ev.history.fate> } | undefined;
  for (const n of GRADLE_BUILD_SCRIPTS) {
    const f = ev.history.fate(joinDir(folder, n));
    if (f.existed !== false && (f.status === 'renamed' || f.status === 'deleted') && f.commit && (!gone || f.commit.date > gone.fate.commit!.date)) gone = { script: joinDir(folder, n), fate: f };
  }
  if (!gone) return null;
  const { script, fate } = gone;
  // where the build script went: the project of that folder, when the settings file includes it
  let successor: string | undefined;
  if (fate.status === 'renamed' && fate.successor && ev.files.files.has(fate.successor)) {
    const dir = dirname(fate.successor);
    const rel = root === '' ? dir : dir.startsWith(root + '/') ? dir.slice(root.length + 1) : undefined;
    // the project split into several included ones (`:feature:foryou:api` and `:impl`): which one is meant is not known
    let children = 0;
    for (const d of declared.paths) if (d.startsWith(project + ':')) children++;
    if (rel && children <= 1) {
      const q = ':' + rel.split('/').join(':');
      if (declared.paths.has(q)) successor = q;
    }
  }
  const now = `\`${settings}\` ${parentOnly ? `only includes projects below \`${project}\`` : `includes no project \`${project}\``}`;
  const went = fate.status === 'renamed' && fate.successor ? `its build script \`${script}\` moved to \`${fate.successor}\`` : `its build script \`${script}\` was deleted`;
  let replaceWith: string | undefined;
  if (successor) {
    const at = ref.raw.lastIndexOf(written);
    if (at >= 0) replaceWith = ref.raw.slice(0, at) + (absolute ? successor : successor.slice(1)) + ':' + task + ref.raw.slice(at + written.length);
  }
  const advice = replaceWith ? `use \`${replaceWith}\` instead` : 'update or remove the command';
  return finding(
    entry, ref, 'script-missing', 'warning',
    `\`${ref.raw}\` no longer works: ${now}; ${went} in ${describeCommit(fate.commit)}; ${advice}.`,
    { ...commitEvidence(fate.commit), now: successor ?? settings, manifest: settings, script: written, project },
    replaceWith ? { replace: replaceWith } : undefined,
  );
}

// ------------------------------------------------------------------ Maven goals of removed plugins

const goneMavenCache = new WeakMap<object, Map<string, GonePlugin>>();

/**
 * Maven plugins history shows declared in a POM's build plugins and removed, which no manifest
 * declares at HEAD in any spelling, keyed by their goal prefix: Maven's naming convention,
 * `X-maven-plugin` -> `X` (`spotless-maven-plugin` -> `spotless:apply`), also `X-maven` (`pitest-maven`,
 * `jooq-codegen-maven`). Plugins of the groups
 * Maven searches by default (`org.apache.maven.plugins`, `org.codehaus.mojo`: `dependency:tree`,
 * `exec:java`) are left out: their goals run without any declaration. Built once per run.
 */
function goneMavenPlugins(ev: Evidence): Map<string, GonePlugin> {
  let out = goneMavenCache.get(ev.manifests);
  if (out) return out;
  out = new Map();
  for (const [key, events] of ev.manifests.everDependencies) {
    const prefix = /^([a-z0-9][a-z0-9.-]*?)-maven(?:-plugin)?$/.exec(key)?.[1];
    if (!prefix || ev.manifests.dependencies.has(key)) continue;
    const removal = pluginRemoval(events, MAVEN_KINDS);
    if (removal) out.set(prefix, { name: removal.displayName ?? key, removal });
  }
  goneMavenCache.set(ev.manifests, out);
  return out;
}

/**
 * Goal prefixes of the plugins `spring-boot-starter-parent` manages (its `pluginManagement`): a
 * project with that parent runs them whether or not its own POM declares them.
 */
const SPRING_BOOT_PARENT_PREFIXES = new Set([
  'spring-boot', 'flyway', 'liquibase', 'jooq-codegen', 'native', 'kotlin', 'git-commit-id', 'cyclonedx', 'xml', 'versions',
  'build-helper', 'flatten', 'exec', 'graphql',
]);

/**
 * `mvn spotless:apply`, `./mvnw jib:build`, `mvnd airstyle:format`: a prefix goal of a Maven plugin
 * (see `goneMavenPlugins`) that history shows removed from the POMs and that none declares now no
 * longer runs: `script-missing`, naming the commit that removed it. A fully-qualified goal
 * (`group:artifact[:version]:goal`) runs without a declaration and is never reported; nor a
 * prefix Spring Boot's parent manages while a POM inherits from it.
 * Lifecycle phases (`mvn verify`) are no goals and never reach here; not without history or with
 * a shallow one. No replacement: what replaced the plugin's goal is not known.
 */
function checkMavenGoalRef(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  const goal = ref.script!;
  const parts = goal.split(':');
  // `group:artifact[:version]:goal` runs without any declaration (OpenRewrite's one-off runs): only prefix goals.
  if (parts.length !== 2 || !ev.history.available || ev.history.shallow) return null;
  const prefix = parts[0]!.toLowerCase();
  // A parent from outside the repository manages plugins of its own: Spring Boot's manages these.
  if (SPRING_BOOT_PARENT_PREFIXES.has(prefix) && ev.manifests.dependencies.has('spring-boot-starter-parent')) return null;
  const plugin = goneMavenPlugins(ev).get(prefix);
  if (!plugin) return null;
  const r = plugin.removal;
  return finding(
    entry, ref, 'script-missing', 'warning',
    `\`${ref.raw}\` no longer works: \`${goal}\` is a goal of the \`${plugin.name}\` Maven plugin, which was removed from \`${r.manifest}\` in ${describeCommit(r.commit)}; no POM declares it any more; update or remove the command.`,
    { ...commitEvidence(r.commit), now: r.manifest, manifest: r.manifest, script: goal, plugin: plugin.name },
  );
}

function lastManifestRemoval(ev: Evidence, manifest: string): CommitInfo | undefined {
  if (!ev.history.available) return undefined;
  const f = ev.history.fate(manifest);
  return f.status === 'deleted' || f.status === 'renamed' ? f.commit : undefined;
}


export const scriptCheck: Check = {
  id: 'script',
  kinds: ['script-missing'],
  severity: 'warning',
  description: 'npm/pnpm/yarn/bun scripts, make targets, just recipes, Python runner scripts, tasks and entry points, Composer scripts, Deno tasks and go-task tasks named in memory that the manifest no longer defines.',
  run(ctx: CheckContext): Finding[] {
    const out: Finding[] = [];
    const { entries, refs } = refsOf(ctx.entries, 'command');
    for (let i = 0; i < refs.length; i++) {
      const f = checkScriptRef(entries[i]!, refs[i]!, ctx.evidence);
      if (f) out.push(f);
    }
    return out;
  },
};
