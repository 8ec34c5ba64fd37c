// The check registry: adding a check is one module in this folder and one line below.
import type { Check, CheckContext, Entry, Evidence, Finding, MemoryContext } from '../types.js';
import { pathCheck } from './path.js';
import { scriptCheck } from './script.js';
import { packageCheck } from './package.js';
import { versionCheck } from './version.js';
import { countCheck } from './count.js';
import { statusCheck } from './status.js';
import { expiredCheck } from './expired.js';
import { supersededCheck } from './superseded.js';

import { ephemeralCheck } from './ephemeral.js';
import { duplicateCheck } from './duplicate.js';
import { contradictionCheck } from './contradiction.js';
import { brokenLinkCheck } from './broken-link.js';
import { secretCheck } from './secret.js';
import { budgetCheck } from './budget.js';
export const CHECKS: Check[] = [
  // staleness checks (history-aware)
  pathCheck,
  scriptCheck,
  packageCheck,
  versionCheck,
  countCheck,
  statusCheck,
  expiredCheck,
  supersededCheck,
  // fidelity and hygiene checks
  ephemeralCheck,
  duplicateCheck,
  contradictionCheck,
  brokenLinkCheck,
  secretCheck,
  budgetCheck,
];

function failed(check: Check, err: unknown): Finding {
  return {
    entryId: null,
    file: '',
    line: 0,
    kind: 'malformed',
    severity: 'error',
    message: `Check ${check.id} failed: ${(err as Error)?.message ?? String(err)}`,
    evidence: { check: check.id },
  };
}

function enabled(ctx: CheckContext, only: string[] | undefined): Check[] {
  return CHECKS.filter((c) => ctx.config.checks[c.id] !== false && (!only || only.includes(c.id)));
}

/** Findings of the checks run early (`runEarlyChecks`), by entry list, until `runChecks` takes them. */
const earlyFindings = new WeakMap<Entry[], Map<string, Finding[]>>();

function timed(timings: Record<string, number> | undefined, id: string, t0: number): void {
  if (timings) timings[`check:${id}`] = Math.round((performance.now() - t0) * 100) / 100;
}

/** Runs every enabled check synchronously (checks with `prepare` must have been prepared). */
export function runChecks(ctx: CheckContext, only?: string[], timings?: Record<string, number>): Finding[] {
  const out: Finding[] = [];
  const early = earlyFindings.get(ctx.entries);
  earlyFindings.delete(ctx.entries);
  for (const check of enabled(ctx, only)) {
    const done = early?.get(check.id);
    if (done) {
      out.push(...done);
      continue;
    }
    const t0 = performance.now();
    try {
      out.push(...check.run(ctx));
    } catch (err) {
      out.push(failed(check, err));
    }
    timed(timings, check.id, t0);
  }
  return out;
}

/**
 * Evidence for the checks that declare `needs: 'memory'`: only the clock. Anything else read
 * from it is a bug in the declaration, reported as that check's failure.
 */
function clockOnlyEvidence(now: Date): Evidence {
  return new Proxy({ now } as Evidence, {
    get(target, prop) {
      if (prop === 'now' || typeof prop === 'symbol' || prop === 'then') return Reflect.get(target, prop);
      throw new Error(`evidence.${String(prop)} is not available to a check that needs only memory`);
    },
  });
}

/**
 * The memory-only work, run while the git passes are still streaming (the audit calls it as soon
 * as the memory is parsed): whole checks that need only memory, and the `early` part of others.
 * `runChecks` / `runChecksAsync` on the same entries then reuse the results. The event loop gets
 * a turn between checks, so git's output keeps flowing.
 */
export async function runEarlyChecks(mem: MemoryContext, only?: string[], timings?: Record<string, number>): Promise<void> {
  const done = new Map<string, Finding[]>();
  const ctx: CheckContext = { files: mem.files, entries: mem.entries, config: mem.config, evidence: clockOnlyEvidence(mem.now) };
  for (const check of enabled(ctx, only)) {
    if (check.needs !== 'memory' && !check.early) continue;
    await new Promise<void>((res) => setImmediate(res));
    const t0 = performance.now();
    if (check.needs !== 'memory') {
      try {
        check.early!(mem);
      } catch {
        // `run` does the whole work again and reports any failure itself
      }
      timed(timings, `${check.id}:early`, t0);
      continue;
    }
    try {
      if (check.prepare) await check.prepare(ctx);
      done.set(check.id, check.run(ctx));
    } catch (err) {
      done.set(check.id, [failed(check, err)]);
    }
    timed(timings, check.id, t0);
  }
  earlyFindings.set(mem.entries, done);
}

/** Awaits every check's `prepare`, then runs them all; a check that throws becomes an error finding. */
export async function runChecksAsync(ctx: CheckContext, only?: string[], timings?: Record<string, number>): Promise<Finding[]> {
  const prepFailures: Finding[] = [];
  const skip = new Set<string>();
  const early = earlyFindings.get(ctx.entries);
  for (const check of enabled(ctx, only)) {
    if (!check.prepare || early?.has(check.id)) continue;
    try {
      await check.prepare(ctx);
    } catch (err) {
      prepFailures.push(failed(check, err));
      skip.add(check.id);
    }
  }
  const ids = enabled(ctx, only).map((c) => c.id).filter((id) => !skip.has(id));
  return [...prepFailures, ...runChecks(ctx, ids, timings)];
}
