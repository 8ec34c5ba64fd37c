// The retention score (after the Knowl article), made Git-native:
//   score = w.priority · priority/10 + w.recency · recency + w.frequency · frequency
// - priority: frontmatter / slot `priority` (5 / 8 / 10), else scoring.defaultPriority;
// - recency: 0.5^(age / halfLifeDays), age = days since the latest sign of life: the last edit of
//   the entry's lines (git blame; uncommitted = today), its last read (access log), its own
//   `modified` / `last_updated`, and the last commit touching a path it names;
// - frequency: how often the paths it names were touched in history, plus recorded reads,
//   log-scaled and normalised by the busiest entry (repository touch counts are heavy-tailed).
// `pinned` entries are exempt: scored for information, never archived for budget or use.
import type { CheckContext, Entry } from '../types.js';

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
const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** Repository paths an entry names (as written and resolved against its context folder). */
export function namedPaths(entry: Entry): string[] {
  const out = new Set<string>();
  for (const r of entry.refs) {
    if (r.kind !== 'path' && r.kind !== 'import') continue;
    if (r.glob) continue;
    let v = r.value;
    if (v.startsWith('./')) v = v.slice(2);
    while (v.endsWith('/')) v = v.slice(0, -1);
    if (!v || v.startsWith('/') || v.startsWith('~')) continue;
    out.add(v);
    if (r.base) out.add(`${r.base.replace(/\/+$/, '')}/${v}`);
  }
  return [...out].sort();
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

  // Many entries name the same paths: one history lookup per distinct path.
  const pathCache = new Map<string, { t?: number; n: number }>();
  const pathInfo = (p: string) => {
    let v = pathCache.get(p);
    if (!v) {
      const c = evidence.history.lastTouched(p);
      v = { t: c ? Date.parse(c.time || c.date) : undefined, n: evidence.history.touchCount(p) };
      pathCache.set(p, v);
    }
    return v;
  };
  const raw = ctx.entries.map((e) => {
    const u = usage?.entries.get(e.id);
    const signals: Array<{ t: number; src: ScoreParts['activitySource'] }> = [];
    if (u?.uncommitted) signals.push({ t: now, src: 'uncommitted' });
    if (u?.lastEditedTime !== undefined) signals.push({ t: u.lastEditedTime, src: 'edit' });
    const lr = parseDate(u?.lastRead);
    if (lr !== undefined) signals.push({ t: lr, src: 'read' });
    const fm = parseDate(e.meta.lastUpdated) ?? parseDate(e.meta.modified);
    if (fm !== undefined) signals.push({ t: fm, src: 'frontmatter' });
    let touches = 0;
    if (evidence.history?.available) {
      for (const p of namedPaths(e)) {
        if (!evidence.files.files.has(p) && !evidence.files.dirs.has(p)) continue;
        const info = pathInfo(p);
        if (info.t !== undefined) signals.push({ t: info.t, src: 'path' });
        touches += info.n;
      }
    }
    const valid = signals.filter((s) => !Number.isNaN(s.t));
    // Latest signal wins; ties resolved by the order pushed (stable).
    let best: (typeof valid)[number] | undefined;
    for (const s of valid) if (!best || s.t > best.t) best = s;
    return { e, best, touches, reads: u?.reads ?? 0 };
  });

  const maxTouches = Math.max(0, ...raw.map((r) => r.touches));
  const maxReads = Math.max(0, ...raw.map((r) => r.reads));
  const norm = (n: number, max: number) => (max > 0 ? Math.log1p(n) / Math.log1p(max) : 0);

  const out = new Map<string, ScoreParts>();
  for (const { e, best, touches, reads } of raw) {
    const pr = Math.min(10, Math.max(0, e.meta.priority ?? defaultPriority)) / 10;
    let recency = 0.5;
    if (best) {
      const age = Math.max(0, (now - best.t) / DAY);
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
      lastActivity: best ? new Date(best.t).toISOString().slice(0, 10) : undefined,
      activitySource: best?.src,
      touches,
      reads,
      pinned: e.meta.pinned === true,
      unknownRecency: !best,
    });
  }
  return out;
}
