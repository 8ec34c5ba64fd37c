// Health warnings for the report summary (PRODUCT.md job 8): protection too loose, drift too
// wide to patch, cold entries (cold from disuse vs cold from irrelevance), budgets that cannot be met.
import type { CheckContext, Entry, Finding, PlanItem } from '../types.js';
import { indexTarget } from '../apply/paths.js';
import { remainingOverBudget } from './budget.js';
import { liveNames, scoreEntries } from './score.js';
import { STALE_KINDS } from './signals.js';

const COLD_EXEMPT = new Set(['decision', 'feedback', 'user', 'superseded']);
const STANDING_RULE = /\b(?:always|never|must(?:n't| not)?|don't|do not)\b/i;

const pct = (n: number, d: number) => `${Math.round((n / d) * 1000) / 10}%`;

/**
 * Cold entry classification for survivors scoring under the threshold:
 * - disuse: it names something the project still has (a path at HEAD, a dependency, a script) —
 *   the phase that produced it has passed; keep it, it may matter again;
 * - irrelevance: it names nothing the project has — a one-off or marginal topic; candidate for
 *   deletion in the next pruning cycle.
 */
export function coldKind(e: Entry, ctx: CheckContext): 'disuse' | 'irrelevance' {
  return liveNames(e, ctx, undefined, true).size > 0 ? 'disuse' : 'irrelevance';
}

export function healthWarnings(ctx: CheckContext, findings: Finding[], plan: PlanItem[]): string[] {
  const out: string[] = [];
  const entries = ctx.entries;
  const total = entries.length;
  if (total === 0) return out;

  const prot = entries.filter((e) => e.protected).length;
  if (prot / total > 0.3)
    out.push(
      `${prot} of ${total} entries (${pct(prot, total)}) are protected: the protection criteria are too loose — protect irreplaceable context (architecture decisions, explicit user preferences, audit results, migration records), not merely important facts.`,
    );

  const drifted = new Set(findings.filter((f) => f.entryId && STALE_KINDS.has(f.kind) && f.severity !== 'info').map((f) => f.entryId!));
  if (drifted.size / total > 0.2)
    out.push(
      `Drift touches ${drifted.size} of ${total} entries (${pct(drifted.size, total)}): rebuild the memory rather than patch it — archive it, start fresh and re-import only the entries that verify.`,
    );

  const byId = new Map(plan.map((p) => [p.entryId, p]));
  const scores = scoreEntries(ctx);
  const threshold = ctx.config.scoring.threshold;
  const cold: Record<'disuse' | 'irrelevance', string[]> = { disuse: [], irrelevance: [] };
  for (const e of entries) {
    const p = byId.get(e.id);
    if (!p || p.action !== 'keep' || p.rule === 0) continue;
    // An index line is as cold as its topic file (listed itself); decisions, feedback and facts
    // about the user are kept on principle, so they are no candidates for the next cycle.
    if (e.kind === 'index-line' || COLD_EXEMPT.has(e.type)) continue;
    // A standing rule ("always…", "never…") names nothing by design: no git activity makes it cold.
    if (STANDING_RULE.test(e.text)) continue;
    // A file's preamble (a paragraph under its title at most: "This file provides guidance to…",
    // what the project is) is lasting context, not a topic that can fall out of use.
    if (e.kind === 'paragraph' && e.headings.length <= 1 && e.format !== 'auto-memory-topic') continue;
    const s = scores.get(e.id);
    if (!s || s.pinned || s.unknownRecency || s.score >= threshold) continue;
    cold[coldKind(e, ctx)].push(`${e.file}:${e.line}`);
  }
  const list = (xs: string[]) => xs.slice(0, 5).join(', ') + (xs.length > 5 ? `, … (+${xs.length - 5})` : '');
  if (cold.disuse.length)
    out.push(
      `${cold.disuse.length} cold from disuse (score < ${threshold}, but what they name is still in the project; keep): ${list(cold.disuse)}`,
    );
  if (cold.irrelevance.length)
    out.push(
      `${cold.irrelevance.length} cold from irrelevance (score < ${threshold}, naming nothing the project still has; delete next cycle unless still wanted): ${list(cold.irrelevance)}`,
    );

  out.push(...remainingOverBudget(ctx, plan));

  const log = ctx.evidence.usage?.accessLog;
  if (log && !log.found) out.push(`Access log ${log.path} was not found; frequency uses git history only.`);

  const removedTopics = new Set(
    plan.filter((p) => ['delete', 'archive', 'merge'].includes(p.action)).map((p) => p.entryId),
  );
  let topicOf: Map<string, Entry> | undefined; // first topic entry per file, built on first need
  for (const e of entries) {
    if (e.kind !== 'index-line' || !e.protected || !e.meta.target) continue;
    const target = indexTarget(e);
    topicOf ??= firstTopicByFile(entries);
    const topic = target ? topicOf.get(target) : undefined;
    if (topic && removedTopics.has(topic.id))
      out.push(`${e.file}:${e.line} is protected but its topic file ${topic.file} is removed: the index line will dangle.`);
  }
  return out;
}

function firstTopicByFile(entries: Entry[]): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const t of entries) if (t.kind === 'topic' && !out.has(t.file)) out.set(t.file, t);
  return out;
}
