// The retention score (after the Knowl article), made Git-native:
//   score = w.priority · priority/10 + w.recency · recency + w.frequency · frequency
// - priority: frontmatter / slot `priority` (5 / 8 / 10), else scoring.defaultPriority;
// - recency: 0.5^(age / halfLifeDays), age = days since the latest sign of life: the last edit of
//   the entry's lines (git blame; uncommitted = today), its last read (access log), its own
//   `modified` / `last_updated`, and the last commit touching a path it names;
// - frequency: how often the paths it names were touched in history, plus recorded reads,
//   log-scaled and normalised by the busiest entry (repository touch counts are heavy-tailed).
// `pinned` entries are exempt: scored for information, never archived for budget or use.
import { makeTargetDefined, manifestKind, taskNameDefined, taskTables } from '../evidence/manifests.js';
import type { CheckContext, Entry, Reference } from '../types.js';
import { configOwnerDir, joinPath } from '../memory/refs/paths.js';

export interface ScoreParts {
  score: number;
  priority: number;
  recency: number;
  frequency: number;
  /** YYYY-MM-DD of the latest sign of life, when any is known. */
  lastActivity?: string;
  /** Which signal set lastActivity. */
  activitySource?: 'edit' | 'read' | 'frontmatter' | 'path' | 'uncommitted';
  touches: number;
  reads: number;
  pinned: boolean;
  /** True when no recency signal at all was available (recency is then 0.5). */
  unknownRecency: boolean;
}

const DAY = 86_400_000;

/** The latest sign of life seen so far for one entry (src undefined: none yet). */
interface Best {
  t: number;
  src: ScoreParts['activitySource'];
}

function offer(best: Best, t: number, src: NonNullable<ScoreParts['activitySource']>): void {
  if (!Number.isNaN(t) && (best.src === undefined || t > best.t)) {
    best.t = t;
    best.src = src;
  }
}
interface PathInfo {
  exists: boolean;
  t?: number;
  n: number;
}
const ABSENT: PathInfo = { exists: false, n: 0 };
const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** Repository paths an entry names (as written and resolved against its context folder). */
export function namedPaths(entry: Entry): string[] {
  return [...namedPathSet(entry)].sort();
}

const NO_PATHS: ReadonlySet<string> = new Set();

/**
 * Whether any manifest defines a script / target / recipe / task of this name: npm scripts, make
 * targets (a pattern rule or an include counts, literal patterns only), just recipes, composer
 * scripts, deno tasks and Taskfile tasks (their includes and wildcards).
 */
function definedAnywhere(ev: CheckContext['evidence'], name: string): boolean {
  const m = ev.manifests;
  for (const set of m.scripts.values()) if (set.has(name)) return true;
  for (const set of m.makeTargets.values()) if (makeTargetDefined(set, name, true)) return true;
  for (const set of m.justRecipes.values()) if (set.has(name)) return true;
  for (const t of taskTables(m).values()) if (!t.open && taskNameDefined(t, name)) return true;
  return false;
}

const unreadCache = new WeakMap<object, boolean>();
/** Whether a manifest (not a tsconfig or .gitignore, which declare no names) could not be read at HEAD. */
function unreadManifest(ev: CheckContext['evidence']): boolean {
  let r = unreadCache.get(ev.manifests);
  if (r === undefined) {
    r = ev.manifests.problems.some((p) => !!p.file && manifestKind(p.file) !== undefined);
    unreadCache.set(ev.manifests, r);
  }
  return r;
}

/**
 * What an entry names that the project still has, as `kind\0name` keys: paths at HEAD, current
 * dependencies, scripts or make targets that are defined. `skip` leaves names out (a path's own
 * text, or a reference); `weak`: prose words that may name a package count too.
 */
export function liveNames(
  e: Entry,
  ctx: CheckContext,
  skip: (name: string, r?: Reference) => boolean = () => false,
  weak = false,
): Set<string> {
  const ev = ctx.evidence;
  const live = new Set<string>();
  for (const p of namedPathSet(e)) if (!skip(p) && (ev.files.files.has(p) || ev.files.dirs.has(p))) live.add(`path\0${p}`);
  const own = ownNames(ev);
  const dir = entryDir(e);
  // A manifest that could not be read (a merge in progress, a broken file) may declare any
  // dependency, script or runtime: what the entry names of these kinds may still be there.
  const unread = unreadManifest(ev);
  for (const r of e.refs) {
    if (unread && !skip(r.value, r) && ((r.kind === 'package' && (weak || !r.weak)) || (r.kind === 'command' && r.script) || r.kind === 'version')) {
      live.add(`${r.kind}\0${r.value}`);
      continue;
    }
    if (r.kind === 'package' && (weak || !r.weak) && !skip(r.value, r)) {
      const name = r.value.toLowerCase();
      if (ev.manifests.dependencies.has(name)) live.add(`package\0${name}`);
      // A workspace member or the project itself (`uv run --package acme-ingest`, `@acme/sdk/v3`).
      else if (own.has(packageRoot(name))) live.add(`package\0${packageRoot(name)}`);
    }
    if (r.kind === 'command' && r.script && !skip(r.value, r)) {
      const script = r.script;
      if (definedAnywhere(ev, script)) live.add(`command\0${r.value}`);
    }
    // A link whose target exists (`[env](mdc:apps/web/env.ts)`, `[guide](docs/guide)`).
    if (r.kind === 'link' && !skip(r.value, r)) {
      const p = existing(ev, normalPath(r.value), dir, r.base);
      if (p) live.add(`path\0${p}`);
    }
    // A glob over a folder the project has (`python/*`, `app/v3/services/**/*.server.ts`).
    if (r.kind === 'path' && r.glob && !skip(r.value, r)) {
      const cut = r.value.search(/[*?[{]/);
      const prefix = normalPath(cut < 0 ? r.value : r.value.slice(0, cut).replace(/[^/]*$/, ''));
      const p = prefix && existing(ev, prefix, dir, r.base);
      if (p && ev.files.dirs.has(p)) live.add(`path\0${p}`);
    }
    // A runtime the project declares or a dependency it has, at any version: "Go 1.22 is required"
    // is about the project's Go (a drifted version is a stale name, left out through `skip`).
    if (r.kind === 'version' && r.subject && r.subject !== '(project)' && !skip(r.value, r)) {
      const subject = r.subject.toLowerCase();
      if (ev.manifests.runtimes.has(subject) || ev.manifests.dependencies.has(subject)) live.add(`version\0${subject}`);
    }
  }
  // Code the entry shows (inline spans and fences): names the reference parser does not type —
  // a workspace member as a command argument (`cargo test -p acme-core`), a folder or file in a
  // command (`go test ./services/api/...`, `go.work`). Only tokens that name something the project
  // has at HEAD count, so a prose word never does.
  if (e.text.includes('`')) {
    CODE.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = CODE.exec(e.text))) {
      const inner = m[0].replace(/^`+|`+$/g, '').trim();
      // A span that is one name, declared as a dependency at HEAD (`Newtonsoft.Json`,
      // `Microsoft.Extensions.Http`, `PyYAML`): the package, whatever else the reference parser
      // read it as. Dotted names are typed as paths there (a file named so), never as packages,
      // so the package lookup above misses them; dependency keys are lower-cased.
      const whole = inner.toLowerCase();
      if (inner && !/\s/.test(inner) && ev.manifests.dependencies.has(whole)) {
        if (!skip(inner)) live.add(`package\0${whole}`);
        continue;
      }
      for (const tok of inner.match(TOKEN) ?? []) {
        const name = tok.toLowerCase();
        if (own.has(packageRoot(name))) {
          if (!skip(tok)) live.add(`package\0${packageRoot(name)}`);
          continue;
        }
        if (!/[/.]/.test(tok) || /^\.+$/.test(tok)) continue;
        const p = existing(ev, normalPath(tok), dir) ?? (weak ? bareName(ev, normalPath(tok)) : undefined);
        if (p && !skip(p) && !skip(tok)) live.add(`path\0${p}`);
      }
    }
  }
  return live;
}

/** Inline code spans and fenced blocks of an entry's text. */
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]+`/g;
/** Word-like tokens of code: names, paths, scoped packages (`@a/b`), `./dir/...`. */
const TOKEN = /[@\w.~$][\w.@/$~-]*/g;

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
function packageRoot(name: string): string {
  const parts = name.split('/');
  return name.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** A written path, bare: no `mdc:` or `./`, no `/...` (Go's package pattern), no trailing `/`, no `#anchor`. */
function normalPath(v: string): string {
  let p = v.replace(/^mdc:/i, '').replace(/[#?].*$/, '');
  while (p.startsWith('./')) p = p.slice(2);
  p = p.replace(/\/\.\.\.$/, '');
  while (p.endsWith('/')) p = p.slice(0, -1);
  return p.startsWith('/') || p.startsWith('~') ? '' : p;
}


/** The folder of the entry's memory file ('' at the root or outside the repository). */
function entryDir(e: Entry): string {
  const slash = e.file.lastIndexOf('/');
  return slash > 0 && !e.file.startsWith('/') ? e.file.slice(0, slash) : '';
}

/**
 * A bare file or folder name (`tools.py`, `toolsets/`) that some file or folder of the project has
 * at HEAD, wherever it lies (the path check resolves such names the same way): its first such path.
 */
function bareName(ev: CheckContext['evidence'], p: string): string | undefined {
  if (!p || p.includes('/') || !/\.[A-Za-z0-9]+$|^[\w-]{3,}$/.test(p)) return undefined;
  return ev.files.byBasename.get(p)?.[0] ?? ev.files.stats?.byDirName.get(p.toLowerCase())?.[0];
}

/** `p` as a file or folder at HEAD: from the root, the memory file's folder or the reference's base. */
function existing(ev: CheckContext['evidence'], p: string, dir: string, base?: string): string | undefined {
  if (!p) return undefined;
  const has = (x: string) => ev.files.files.has(x) || ev.files.dirs.has(x);
  // `../x` from a nested memory file: beside its folder's parent, never above the root
  if (p.startsWith('../')) {
    const j = joinPath(dir, p) || undefined;
    return j && has(j) ? j : undefined;
  }
  if (has(p)) return p;
  if (dir && has(`${dir}/${p}`)) return `${dir}/${p}`;
  const b = base?.replace(/\/+$/, '');
  if (b && has(`${b}/${p}`)) return `${b}/${p}`;
  return undefined;
}

/** Workspace members' and the project's own names at HEAD (lower-cased), once per manifest index. */
const ownCache = new WeakMap<object, ReadonlySet<string>>();
function ownNames(ev: CheckContext['evidence']): ReadonlySet<string> {
  let s = ownCache.get(ev.manifests);
  if (!s) {
    const set = new Set<string>();
    for (const n of ev.manifests.workspaces.keys()) set.add(n.toLowerCase());
    for (const p of ev.manifests.projectVersions) if (p.name) set.add(p.name.toLowerCase());
    ownCache.set(ev.manifests, (s = set));
  }
  return s;
}

/** The distinct paths of `namedPaths`, unsorted (scoring sums over them: order does not matter). */
function namedPathSet(entry: Entry): ReadonlySet<string> {
  let out: Set<string> | undefined;
  // A nested memory file's relative paths (`@d2.md` in docs/agent/, `src/x.ts` in packages/a/
  // CLAUDE.md) name files beside it: the path joined with its folder is tried too.
  const slash = entry.file.lastIndexOf('/');
  const dir = slash > 0 && !entry.file.startsWith('/') ? entry.file.slice(0, slash) : '';
  // A file under a sub-project's `.cursor/`, `.claude/` or `.github/` names paths from that
  // sub-project (`src/x.ts` in apps/web/.cursor/rules/a.mdc is apps/web/src/x.ts).
  const owner = configOwnerDir(entry.file);
  for (const r of entry.refs) {
    if (r.kind !== 'path' && r.kind !== 'import') continue;
    if (r.glob) continue;
    let v = r.value;
    if (v.startsWith('./')) v = v.slice(2);
    while (v.endsWith('/')) v = v.slice(0, -1);
    if (!v || v.startsWith('/') || v.startsWith('~')) continue;
    out ??= new Set();
    out.add(v);
    if (r.base) out.add(`${r.base.replace(/\/+$/, '')}/${v}`);
    if (v.startsWith('../')) {
      // relative to the memory file's folder (or the sub-project's), never above the root
      for (const from of owner && owner !== dir ? [dir, owner] : [dir]) {
        const j = from ? joinPath(from, v) || undefined : undefined;
        if (j) out.add(j);
      }
      continue;
    }
    if (dir) out.add(`${dir}/${v}`);
    if (owner && owner !== dir) out.add(`${owner}/${v}`);
  }
  return out ?? NO_PATHS;
}

function parseDate(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const t = Date.parse(String(s));
  return Number.isNaN(t) ? undefined : t;
}

// decide() and healthWarnings() score the same context: compute once per (entries, evidence, config).
const cache = new WeakMap<object, { evidence: object; config: object; scores: Map<string, ScoreParts> }>();

/** Scores every entry; deterministic for a given context (evidence.now is the clock). */
export function scoreEntries(ctx: CheckContext): Map<string, ScoreParts> {
  const hit = cache.get(ctx.entries);
  if (hit && hit.evidence === ctx.evidence && hit.config === ctx.config) return hit.scores;
  const scores = computeScores(ctx);
  cache.set(ctx.entries, { evidence: ctx.evidence, config: ctx.config, scores });
  return scores;
}

function computeScores(ctx: CheckContext): Map<string, ScoreParts> {
  const { config, evidence } = ctx;
  const { weights, halfLifeDays, defaultPriority } = config.scoring;
  const now = evidence.now.getTime();
  const usage = evidence.usage;
  const logFound = Boolean(usage?.accessLog?.found);

  // Many entries name the same paths: one lookup per distinct path (whether it exists at HEAD,
  // then its history), instead of probing the repository's file sets for every entry.
  const pathCache = new Map<string, PathInfo>();
  const pathInfo = (p: string): PathInfo => {
    let v = pathCache.get(p);
    if (!v) {
      if (!evidence.files.files.has(p) && !evidence.files.dirs.has(p)) v = ABSENT;
      else {
        const c = evidence.history.lastTouched(p);
        v = { exists: true, t: c ? Date.parse(c.time || c.date) : undefined, n: evidence.history.touchCount(p) };
      }
      pathCache.set(p, v);
    }
    return v;
  };
  const history = Boolean(evidence.history?.available);
  // Per entry, in plain arrays (no intermediate object per entry): the latest sign of life,
  // the touches of the paths it names, its recorded reads.
  const entries = ctx.entries;
  const bestT: number[] = [];
  const bestSrc: Array<ScoreParts['activitySource']> = [];
  const touchesOf: number[] = [];
  const readsOf: number[] = [];
  const best: Best = { t: NaN, src: undefined };
  for (const e of entries) {
    const u = usage?.entries.get(e.id);
    // The latest valid signal wins; on a tie the first in this order (uncommitted, edit, read,
    // frontmatter, paths). Paths all share one source, so their order does not matter.
    best.t = NaN;
    best.src = undefined;
    if (u?.uncommitted) offer(best, now, 'uncommitted');
    if (u?.lastEditedTime !== undefined) offer(best, u.lastEditedTime, 'edit');
    const lr = parseDate(u?.lastRead);
    if (lr !== undefined) offer(best, lr, 'read');
    const fm = parseDate(e.meta.lastUpdated) ?? parseDate(e.meta.modified);
    if (fm !== undefined) offer(best, fm, 'frontmatter');
    let touches = 0;
    if (history) {
      for (const p of namedPathSet(e)) {
        const info = pathInfo(p);
        if (!info.exists) continue;
        if (info.t !== undefined) offer(best, info.t, 'path');
        touches += info.n;
      }
    }
    bestT.push(best.t);
    bestSrc.push(best.src);
    touchesOf.push(touches);
    readsOf.push(u?.reads ?? 0);
  }

  // Math.max folded pairwise (the same result as spreading, without one argument per entry).
  const maxTouches = touchesOf.reduce((m, n) => Math.max(m, n), 0);
  const maxReads = readsOf.reduce((m, n) => Math.max(m, n), 0);
  const norm = (n: number, max: number) => (max > 0 ? Math.log1p(n) / Math.log1p(max) : 0);

  // Entries share commit times: format each distinct day stamp once.
  const days = new Map<number, string>();
  const isoDay = (t: number): string => {
    let d = days.get(t);
    if (d === undefined) {
      d = new Date(t).toISOString().slice(0, 10);
      days.set(t, d);
    }
    return d;
  };
  const out = new Map<string, ScoreParts>();
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const src = bestSrc[i];
    const t = bestT[i]!;
    const touches = touchesOf[i]!;
    const reads = readsOf[i]!;
    const pr = Math.min(10, Math.max(0, e.meta.priority ?? defaultPriority)) / 10;
    let recency = 0.5;
    if (src) {
      const age = Math.max(0, (now - t) / DAY);
      recency = Math.pow(0.5, age / halfLifeDays);
    }
    const touchF = norm(touches, maxTouches);
    const frequency = logFound ? (touchF + norm(reads, maxReads)) / 2 : touchF;
    const score = weights.priority * pr + weights.recency * recency + weights.frequency * frequency;
    out.set(e.id, {
      score: round3(score),
      priority: round3(pr),
      recency: round3(recency),
      frequency: round3(frequency),
      lastActivity: src ? isoDay(t) : undefined,
      activitySource: src,
      touches,
      reads,
      pinned: e.meta.pinned === true,
      unknownRecency: !src,
    });
  }
  return out;
}
