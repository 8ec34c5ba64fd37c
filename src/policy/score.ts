// The retention score (after the Knowl article), made Git-native:
//   score = w.priority · priority/10 + w.recency · recency + w.frequency · frequency
// - priority: frontmatter / slot `priority` (5 / 8 / 10), else scoring.defaultPriority;
// - recency: 0.5^(age / halfLifeDays), age = days since the latest sign of life: the last edit of
//   the entry's lines (git blame; uncommitted = today), its last read (access log), its own
//   `modified` / `last_updated`, and the last commit touching a path it names;
// - frequency: how often the paths it names were touched in history, plus recorded reads,
//   log-scaled and normalised by the busiest entry (repository touch counts are heavy-tailed).
// `pinned` entries are exempt: scored for information, never archived for budget or use.
import type { CheckContext, Entry, Reference } from '../types.js';

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
  for (const r of e.refs) {
    if (r.kind === 'package' && (weak || !r.weak) && !skip(r.value, r) && ev.manifests.dependencies.has(r.value.toLowerCase()))
      live.add(`package\0${r.value.toLowerCase()}`);
    if (r.kind === 'command' && r.script && !skip(r.value, r)) {
      const script = r.script;
      const defined = [...ev.manifests.scripts.values(), ...ev.manifests.makeTargets.values()].some((set) => set.has(script));
      if (defined) live.add(`command\0${r.value}`);
    }
  }
  return live;
}

/** The distinct paths of `namedPaths`, unsorted (scoring sums over them: order does not matter). */
function namedPathSet(entry: Entry): ReadonlySet<string> {
  let out: Set<string> | undefined;
  // A nested memory file's relative paths (`@d2.md` in docs/agent/, `src/x.ts` in packages/a/
  // CLAUDE.md) name files beside it: the path joined with its folder is tried too.
  const slash = entry.file.lastIndexOf('/');
  const dir = slash > 0 && !entry.file.startsWith('/') ? entry.file.slice(0, slash) : '';
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
    if (dir && !v.startsWith('../')) out.add(`${dir}/${v}`);
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
