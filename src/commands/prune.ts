// `memory-audit prune`: audit, then turn the plan into edits, SUPERSEDED records, a pruning-log
// entry and archive records. Dry run by default (`write: false`): everything is computed, diff
// and log text included, and nothing is written.
import path from 'node:path';
import { audit, resolveNow, type AuditOptions, type AuditResult } from '../audit.js';
import { loadConfig } from '../config/load.js';
import { applyPlan } from '../apply/index.js';
import { decide } from '../policy/decide.js';
import type { PlanItem } from '../types.js';

export interface PruneOptions extends AuditOptions {
  write: boolean;
  now?: Date;
}

export interface PruneResult {
  audit: AuditResult;
  plan: PlanItem[];
  /** Every path the prune changes: memory files, deleted topic files (after: null), SUPERSEDED records, log, archive. */
  changes: Array<{ file: string; before: string | null; after: string | null }>;
  diff: string;
  logEntry: string;
  logPath: string;
  archivePath: string;
  /** Archive records appended (removed entries, updates, relinks, removed headings). */
  archived: number;
  supersededFiles: string[];
  written: boolean;
  /** Topic / rule files that lost more than half their content: candidates to fold into the index. */
  foldCandidates: string[];
  /** Edits skipped for safety (e.g. one that would have touched a protected entry). */
  warnings: string[];
  summary: { audited: number; pruned: number; updated: number; archived: number; inoculated: number; review: number };
}

export async function runPrune(opts: PruneOptions): Promise<PruneResult> {
  const root = path.resolve(opts.root);
  const config = opts.config ?? (await loadConfig(root, opts.configPath));
  const now = resolveNow(opts.now, config);
  const result = await audit({ ...opts, root, config, now });
  return applyAudit(result, { root, now, write: opts.write });
}

/** Applies an audit result (exposed so callers holding an AuditResult need not audit twice). */
export async function applyAudit(result: AuditResult, opts: { root: string; now: Date; write: boolean }): Promise<PruneResult> {
  const ctx = { files: result.files, entries: result.entries, evidence: result.evidence, config: result.config };
  const plan =
    result.plan.length === result.entries.length ? result.plan : decide(ctx, result.findings);
  const applied = await applyPlan({
    root: opts.root,
    files: result.files,
    entries: result.entries,
    findings: result.findings,
    plan,
    config: result.config,
    evidence: result.evidence,
    now: opts.now,
    write: opts.write,
  });
  // Entries whose change apply refused (a credential, a failed re-parse) are not counted as done.
  const notApplied = new Set(applied.skipped);
  const count = (...actions: string[]) => plan.filter((p) => actions.includes(p.action) && !notApplied.has(p.entryId)).length;
  return {
    audit: result,
    plan,
    changes: applied.changes,
    diff: applied.diff,
    logEntry: applied.logEntry,
    logPath: applied.logPath,
    archivePath: applied.archivePath,
    archived: applied.records.length,
    supersededFiles: applied.supersededFiles,
    written: applied.written,
    foldCandidates: applied.foldCandidates,
    warnings: applied.warnings,
    summary: {
      audited: result.entries.length,
      pruned: count('delete', 'archive', 'merge'),
      updated: count('update'),
      archived: count('archive'),
      inoculated: applied.supersededFiles.length,
      // A change apply refused is left for a human: it counts as review.
      review: count('review') + plan.filter((p) => notApplied.has(p.entryId) && ['delete', 'archive', 'merge', 'update'].includes(p.action)).length,
    },
  };
}
