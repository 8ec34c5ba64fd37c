// The check registry: adding a check is one module in this folder and one line below.
import type { Check, CheckContext, Finding } from '../types.js';

export const CHECKS: Check[] = [
  // staleness checks (history-aware)
  // fidelity and hygiene checks
];

/** Runs every enabled check; a check that throws becomes an error finding, never a crash. */
export function runChecks(ctx: CheckContext, only?: string[]): Finding[] {
  const out: Finding[] = [];
  for (const check of CHECKS) {
    if (ctx.config.checks[check.id] === false) continue;
    if (only && !only.includes(check.id)) continue;
    try {
      out.push(...check.run(ctx));
    } catch (err) {
      out.push({
        entryId: null,
        file: '',
        line: 0,
        kind: 'malformed',
        severity: 'error',
        message: `Check ${check.id} failed: ${(err as Error).message}`,
        evidence: { check: check.id },
      });
    }
  }
  return out;
}
