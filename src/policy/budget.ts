// Budgets (PRODUCT.md job 7): when a loaded file is over its budget after the tree has run,
// the lowest-scoring unprotected entries are archived until it fits (plan rule 8).
// MEMORY.md is measured as Claude Code loads it: frontmatter and HTML comments do not count.
// Other files are archived only when `budgets.files` names them (the default budget only warns).
import picomatch from 'picomatch';
import { indexTarget } from '../apply/paths.js';
import type { Budget } from '../config/types.js';
import type { CheckContext, Entry, MemoryFile, PlanItem } from '../types.js';
import type { EntryFacts } from './decide.js';

const REMOVED = new Set(['delete', 'archive', 'merge']);

export interface LoadedSize {
  lines: number;
  bytes: number;
  tokens: number;
}

/** The size Claude Code loads: frontmatter and HTML comments excluded. */
export function loadedSize(file: MemoryFile): LoadedSize {
  let text = file.text;
  if (file.frontmatterRange) text = text.slice(file.frontmatterRange[1]);
  text = text.replace(/<!--[\s\S]*?-->/g, '');
  const lines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return { lines, bytes: Buffer.byteLength(text, 'utf8'), tokens: file.tokens };
}

/** The budget that applies to a file, or undefined when none is enforced by archiving. */
export function enforcedBudget(file: MemoryFile, budgets: CheckContext['config']['budgets']): Budget | undefined {
  if (file.format === 'auto-memory-index') return budgets.memoryIndex;
  for (const glob of Object.keys(budgets.files).sort()) {
    if (picomatch(glob, { dot: true })(file.path)) return budgets.files[glob];
  }
  return undefined;
}

function over(size: LoadedSize, b: Budget): string | undefined {
  if (b.lines !== undefined && size.lines > b.lines) return `${size.lines}/${b.lines} lines`;
  if (b.bytes !== undefined && size.bytes > b.bytes) return `${size.bytes}/${b.bytes} bytes`;
  if (b.tokens !== undefined && size.tokens > b.tokens) return `${size.tokens}/${b.tokens} tokens`;
  return undefined;
}

function entrySize(e: Entry, file: MemoryFile): LoadedSize {
  const text = e.text.replace(/<!--[\s\S]*?-->/g, '');
  return {
    lines: e.endLine - e.line + 1,
    bytes: Buffer.byteLength(text, 'utf8') + 1,
    tokens: file.text.length ? Math.round((file.tokens * e.text.length) / file.text.length) : 0,
  };
}

/** Mutates `plan`: archives the lowest scores of each over-budget file. */
export function planBudgets(
  ctx: CheckContext,
  plan: Map<string, PlanItem>,
  facts: Map<string, EntryFacts>,
  topicOf: Map<string, Entry>,
  _indexOfTopic: Map<string, Entry>,
): void {
  for (const file of ctx.files) {
    const budget = enforcedBudget(file, ctx.config.budgets);
    if (!budget) continue;
    const size = loadedSize(file);
    const inFile = ctx.entries.filter((e) => e.file === file.path);
    for (const e of inFile) {
      if (REMOVED.has(plan.get(e.id)?.action ?? 'keep')) {
        const s = entrySize(e, file);
        size.lines -= s.lines;
        size.bytes -= s.bytes;
        size.tokens -= s.tokens;
      }
    }
    const initial = over(size, budget);
    if (!initial) continue;
    const topicFor = (e: Entry): Entry | undefined => {
      const target = indexTarget(e);
      return target ? topicOf.get(target) : undefined;
    };
    const candidates = inFile
      .filter((e) => {
        const p = plan.get(e.id);
        if (!p || p.action !== 'keep' || p.rule === 0) return false;
        const topic = topicFor(e);
        const group = topic ? [e, topic] : [e];
        return group.every(
          (g) =>
            !g.protected &&
            g.meta.pinned !== true &&
            !['decision', 'feedback', 'user', 'superseded'].includes(g.type) &&
            (g === e || plan.get(g.id)?.action === 'keep'),
        );
      })
      .map((e) => {
        const topic = topicFor(e);
        const score = Math.max(facts.get(e.id)!.score.score, topic ? facts.get(topic.id)!.score.score : 0);
        return { e, topic, score };
      })
      .sort((a, b) => a.score - b.score || b.e.line - a.e.line || (a.e.id < b.e.id ? -1 : 1));
    for (const c of candidates) {
      const why = over(size, budget);
      if (!why) break;
      const reason = `over budget (${file.path}: ${why}); lowest score ${c.score.toFixed(2)}`;
      plan.set(c.e.id, { ...plan.get(c.e.id)!, action: 'archive', rule: 8, reason });
      if (c.topic) {
        plan.set(c.topic.id, {
          ...plan.get(c.topic.id)!,
          action: 'archive',
          rule: 8,
          reason: `archived with its index line in ${file.path} (${why})`,
        });
      }
      const s = entrySize(c.e, file);
      size.lines -= s.lines;
      size.bytes -= s.bytes;
      size.tokens -= s.tokens;
    }
  }
}

/** Files still over their enforced budget once the plan is applied (for health warnings). */
export function remainingOverBudget(ctx: CheckContext, plan: PlanItem[]): string[] {
  const byId = new Map(plan.map((p) => [p.entryId, p]));
  const out: string[] = [];
  for (const file of ctx.files) {
    const budget = enforcedBudget(file, ctx.config.budgets);
    if (!budget) continue;
    const size = loadedSize(file);
    for (const e of ctx.entries) {
      if (e.file !== file.path || !REMOVED.has(byId.get(e.id)?.action ?? 'keep')) continue;
      const s = entrySize(e, file);
      size.lines -= s.lines;
      size.bytes -= s.bytes;
      size.tokens -= s.tokens;
    }
    const why = over(size, budget);
    if (why) out.push(`${file.path} stays over budget after pruning (${why}): only protected, pinned, decision or feedback entries are left to cut`);
  }
  return out;
}
