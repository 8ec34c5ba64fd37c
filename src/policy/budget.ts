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
/** Entry types never archived for budget (kept on principle). */
const NEVER_ARCHIVED = new Set(['decision', 'feedback', 'user', 'superseded']);

export interface LoadedSize {
  lines: number;
  bytes: number;
  tokens: number;
}

/** The size Claude Code loads: frontmatter and HTML comments excluded. */
export function loadedSize(file: MemoryFile): LoadedSize {
  let text = file.text;
  if (file.frontmatterRange) text = text.slice(file.frontmatterRange[1]);
  text = withoutComments(text);
  const lines = text.length === 0 ? 0 : countNewlines(text) + 1 - (text.endsWith('\n') ? 1 : 0);
  return { lines, bytes: Buffer.byteLength(text, 'utf8'), tokens: file.tokens };
}

/** `text` without HTML comments (no copy when there is none). */
function withoutComments(text: string): string {
  return text.includes('<!--') ? text.replace(/<!--[\s\S]*?-->/g, '') : text;
}

/** Counts '\n' without splitting the text into lines. */
function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The budget that applies to a file, or undefined when none is enforced by archiving. */
export function enforcedBudget(file: MemoryFile, budgets: CheckContext['config']['budgets']): Budget | undefined {
  if (file.format === 'auto-memory-index') return budgets.memoryIndex;
  for (const [glob, match] of fileMatchers(budgets.files)) {
    if (match(file.path)) return budgets.files[glob];
  }
  return undefined;
}

// `budgets.files` globs compiled once per config (sorted: the first matching glob wins), not
// once per memory file. Keyed by the object and its globs, so a changed object recompiles.
type Matchers = Array<[string, (p: string) => boolean]>;
const matcherCache = new WeakMap<object, { globs: string; matchers: Matchers }>();
function fileMatchers(files: Record<string, Budget>): Matchers {
  const keys = Object.keys(files);
  if (!keys.length) return [];
  const globs = keys.join('\0');
  const hit = matcherCache.get(files);
  if (hit && hit.globs === globs) return hit.matchers;
  const matchers: Matchers = keys.sort().map((glob) => [glob, picomatch(glob, { dot: true })]);
  matcherCache.set(files, { globs, matchers });
  return matchers;
}

/** Entries grouped by file path, in entry order (one pass instead of a scan per budgeted file). */
function entriesByFile(entries: Entry[]): Map<string, Entry[]> {
  const out = new Map<string, Entry[]>();
  for (const e of entries) {
    const l = out.get(e.file);
    if (l) l.push(e);
    else out.set(e.file, [e]);
  }
  return out;
}

function over(size: LoadedSize, b: Budget): string | undefined {
  if (b.lines !== undefined && size.lines > b.lines) return `${size.lines}/${b.lines} lines`;
  if (b.bytes !== undefined && size.bytes > b.bytes) return `${size.bytes}/${b.bytes} bytes`;
  if (b.tokens !== undefined && size.tokens > b.tokens) return `${size.tokens}/${b.tokens} tokens`;
  return undefined;
}

function entrySize(e: Entry, file: MemoryFile): LoadedSize {
  const text = withoutComments(e.text);
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
  targetOf: (e: Entry) => string | undefined = indexTarget,
): void {
  let byFile: Map<string, Entry[]> | undefined;
  for (const file of ctx.files) {
    const budget = enforcedBudget(file, ctx.config.budgets);
    if (!budget) continue;
    const size = loadedSize(file);
    byFile ??= entriesByFile(ctx.entries);
    const inFile = byFile.get(file.path) ?? [];
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
      const target = targetOf(e);
      return target ? topicOf.get(target) : undefined;
    };
    // Candidates: kept entries (an index line together with its topic file) that may be archived.
    const archivable = (g: Entry) => !g.protected && g.meta.pinned !== true && !NEVER_ARCHIVED.has(g.type);
    const candidates: Array<{ e: Entry; topic: Entry | undefined; score: number }> = [];
    for (const e of inFile) {
      const p = plan.get(e.id);
      if (!p || p.action !== 'keep' || p.rule === 0 || !archivable(e)) continue;
      const topic = topicFor(e);
      if (topic && !(archivable(topic) && (topic === e || plan.get(topic.id)?.action === 'keep'))) continue;
      const score = Math.max(facts.get(e.id)!.score.score, topic ? facts.get(topic.id)!.score.score : 0);
      candidates.push({ e, topic, score });
    }
    candidates.sort((a, b) => a.score - b.score || b.e.line - a.e.line || (a.e.id < b.e.id ? -1 : 1));
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
  let byFile: Map<string, Entry[]> | undefined;
  for (const file of ctx.files) {
    const budget = enforcedBudget(file, ctx.config.budgets);
    if (!budget) continue;
    const size = loadedSize(file);
    byFile ??= entriesByFile(ctx.entries);
    for (const e of byFile.get(file.path) ?? []) {
      if (!REMOVED.has(byId.get(e.id)?.action ?? 'keep')) continue;
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
