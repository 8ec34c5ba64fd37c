// The check registry: adding a check is one module in this folder and one line below.
import type { Check, CheckContext, Finding } from '../types.js';
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

/** Runs every enabled check synchronously (checks with `prepare` must have been prepared). */
export function runChecks(ctx: CheckContext, only?: string[], timings?: Record<string, number>): Finding[] {
  const out: Finding[] = [];
  for (const check of enabled(ctx, only)) {
    const t0 = performance.now();
    try {
      out.push(...check.run(ctx));
    } catch (err) {
      out.push(failed(check, err));
    }
    if (timings) timings[`check:${check.id}`] = Math.round((performance.now() - t0) * 100) / 100;
  }
  return out;
}

/** Awaits every check's `prepare`, then runs them all; a check that throws becomes an error finding. */
export async function runChecksAsync(ctx: CheckContext, only?: string[], timings?: Record<string, number>): Promise<Finding[]> {
  const prepFailures: Finding[] = [];
  const skip = new Set<string>();
  for (const check of enabled(ctx, only)) {
    if (!check.prepare) continue;
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
