// The pipeline, end to end: discover -> parse -> evidence -> check -> decide -> report.
// I/O happens in loadMemory / gatherEvidence / gatherUsage; checks and decide are pure.
import { sortFindings } from './report/findings.js';
import { manifestProblemNotes } from './report/manifest-problems.js';
import { resolve } from 'node:path';
import { loadConfig } from './config/load.js';
import { loadMemory } from './memory/load.js';
import { gatherEvidence } from './evidence/index.js';
import { gatherUsage, startBlame, type EarlyBlame } from './evidence/usage.js';
import { repoInfo } from './evidence/git.js';
import { runChecksAsync, runEarlyChecks } from './checks/registry.js';
import { decide, healthWarnings } from './policy/decide.js';
import { buildReport } from './report/json.js';
import type { Config } from './config/types.js';
import type { CheckContext, Entry, Evidence, Finding, MemoryFile, PlanItem, Report } from './types.js';

export interface AuditOptions {
  root: string;
  /** Memory paths (files, folders, globs); overrides config.memory and auto-detection. */
  memory?: string[];
  config?: Config;
  configPath?: string;
  token?: string;
  now?: Date;
  repoSlug?: string;
  apiUrl?: string;
  /** Only run these check ids. */
  checks?: string[];
}

export interface AuditResult {
  report: Report;
  files: MemoryFile[];
  entries: Entry[];
  findings: Finding[];
  plan: PlanItem[];
  evidence: Evidence;
  config: Config;
  timings: Record<string, number>;
}

/** Resolves the run's clock: explicit option, then config.now, then SOURCE_DATE_EPOCH, then the wall clock. */
export function resolveNow(explicit: Date | undefined, config: Config): Date {
  return resolveClock(explicit, config).now;
}

/** The run's clock, and whether it was pinned (then the report is reproducible byte for byte). */
export function resolveClock(explicit: Date | undefined, config: Config): { now: Date; pinned: boolean } {
  if (explicit) return { now: explicit, pinned: true };
  if (config.now) {
    const d = new Date(config.now);
    if (!Number.isNaN(d.getTime())) return { now: d, pinned: true };
  }
  const epoch = process.env.SOURCE_DATE_EPOCH;
  if (epoch && /^\d+$/.test(epoch)) return { now: new Date(Number(epoch) * 1000), pinned: true };
  return { now: new Date(), pinned: false };
}

export async function audit(opts: AuditOptions): Promise<AuditResult> {
  const timings: Record<string, number> = {};
  const time = async <T>(stage: string, fn: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      timings[stage] = round(performance.now() - t0 + (timings[stage] ?? 0));
    }
  };

  const root = resolve(opts.root);
  const config = opts.config ?? (await time('config', () => loadConfig(root, opts.configPath)));
  const { now, pinned } = resolveClock(opts.now, config);

  // Memory parsing (CPU in this process) and the git passes (child processes on the other core)
  // overlap: evidence needs the entries only for its last step, the GitHub look-ups.
  const t0 = performance.now();
  const loadedP = loadMemory({ root, config, paths: opts.memory && opts.memory.length > 0 ? opts.memory : undefined }).then(
    (l) => {
      timings.memory = round(performance.now() - t0);
      return l;
    },
  );
  const infoP = repoInfo(root);
  const evidenceP = gatherEvidence({
    root,
    info: infoP,
    config,
    entries: loadedP.then((l) => l.entries),
    now,
    token: opts.token ?? config.github.token,
    repoSlug: opts.repoSlug ?? config.github.repo,
    apiUrl: opts.apiUrl,
  }).then((r) => {
    timings.evidence = round(performance.now() - t0);
    return r;
  });
  // The checks that need only memory run as soon as it is parsed, while git is still running.
  const earlyP = loadedP.then((l) => {
    // Token counts are lazy (only reports and budgets read them): count them now, beside git.
    for (const f of l.files) void f.tokens;
    return runEarlyChecks({ files: l.files, entries: l.entries, config, now }, opts.checks, timings).then(() => {
      timings.early = round(performance.now() - t0);
    });
  });
  // Blame (line dates) of the files that need it starts as soon as the memory is known.
  const blameP: Promise<EarlyBlame | undefined> = Promise.all([infoP, loadedP]).then(([info, l]) =>
    info.isRepo && info.head ? startBlame(root, l.files) : undefined,
  );
  // Settle all before looking at any, so that a failure of one never leaves another unobserved.
  const [loadedR, evidenceR, earlyR, blameR] = await Promise.allSettled([loadedP, evidenceP, earlyP, blameP]);
  if (loadedR.status === 'rejected') throw loadedR.reason;
  if (evidenceR.status === 'rejected') throw evidenceR.reason;
  if (earlyR.status === 'rejected') throw earlyR.reason;
  const loaded = loadedR.value;
  const { evidence, findings: evidenceFindings } = evidenceR.value;
  for (const [k, v] of Object.entries(loaded.timings ?? {})) timings[k] = round(v);
  for (const [k, v] of Object.entries(evidence.timings ?? {})) timings[`evidence:${k}`] = round(v);

  const early = blameR.status === 'fulfilled' ? blameR.value : undefined;
  await time('usage', () => gatherUsage({ root, files: loaded.files, entries: loaded.entries, config, evidence, early }));

  const ctx: CheckContext = { files: loaded.files, entries: loaded.entries, evidence, config };
  const checkFindings = await time('checks', () => runChecksAsync(ctx, opts.checks, timings));
  // Manifests unreadable at HEAD: notes (never contract findings), one per file.
  const manifestNotes = manifestProblemNotes(evidence.manifests?.problems ?? [], root);
  const findings = sortFindings([...loaded.findings, ...evidenceFindings, ...manifestNotes, ...checkFindings]);

  const plan = await time('decide', () => decide(ctx, findings));
  const health = healthWarnings(ctx, findings, plan);

  // Wall-clock timings would make a pinned-date report differ from run to run: leave them out then.
  const report = buildReport({
    root,
    evidence,
    files: loaded.files,
    entries: loaded.entries,
    findings,
    plan,
    health,
    timings: pinned ? undefined : timings,
  });
  return { report, files: loaded.files, entries: loaded.entries, findings, plan, evidence, config, timings };
}

const round = (ms: number): number => Math.round(ms * 100) / 100;
