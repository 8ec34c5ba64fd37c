// Terminal output: readable, colour only on a TTY and never with NO_COLOR.
import type { Finding, PlanItem, Report } from '../types.js';
import { termSafe } from './escape.js';
import { findingsAndNotes } from './findings.js';

export interface TextOptions {
  color: boolean;
  /** Show info findings too (default true). */
  info?: boolean;
}

const CODES = { red: 31, yellow: 33, blue: 34, gray: 90, bold: 1, green: 32, cyan: 36 } as const;

export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}

export function renderText(report: Report, opts: TextOptions): string {
  const paint = (code: keyof typeof CODES, s: string): string => (opts.color ? `\u001b[${CODES[code]}m${s}\u001b[0m` : s);
  const sevColor = { error: 'red', warning: 'yellow', info: 'blue' } as const;
  const lines: string[] = [];
  const planByEntry = new Map<string, PlanItem>();
  for (const p of report.plan) planByEntry.set(p.entryId, p);

  const byFile = new Map<string, Finding[]>();
  for (const f of findingsAndNotes(report)) {
    if (opts.info === false && f.severity === 'info') continue;
    const list = byFile.get(f.file) ?? [];
    list.push(f);
    byFile.set(f.file, list);
  }
  const tokens = report.summary.tokens;
  lines.push(
    paint('bold', `memory-audit ${report.tool.version}`) +
      paint('gray', ` — ${report.files.length} file(s), ${report.summary.entries} entries, ~${tokens} tokens loaded`),
  );
  for (const file of report.files) {
    lines.push(paint('gray', `  ${termSafe(file.path)}  ${file.format}, ${file.lines} lines, ${file.bytes} bytes, ~${file.tokens} tokens`));
  }
  lines.push('');
  for (const [file, findings] of byFile) {
    lines.push(paint('bold', termSafe(file || '(run)')));
    // The plan of an entry is shown once, under the last of its findings.
    const lastOfEntry = new Map<string, number>();
    findings.forEach((f, i) => f.entryId && lastOfEntry.set(f.entryId, i));
    findings.forEach((f, i) => {
      const loc = paint('gray', `${String(f.line).padStart(5)}`);
      const sev = paint(sevColor[f.severity], f.severity.padEnd(7));
      const kind = paint('cyan', f.kind.padEnd(16));
      lines.push(`${loc}  ${sev} ${kind} ${termSafe(f.message)}`);
      const plan = f.entryId && lastOfEntry.get(f.entryId) === i ? planByEntry.get(f.entryId) : undefined;
      if (plan && plan.action !== 'keep') {
        lines.push(paint('gray', `${' '.repeat(7)}plan: ${plan.action} (rule ${plan.rule}: ${termSafe(plan.reason)})`));
      }
    });
    lines.push('');
  }
  const sev = report.summary.bySeverity;
  const notes = report.notes?.length ?? 0;
  const noted = notes ? ` (${notes} note${notes === 1 ? '' : 's'} above on what could not be checked)` : '';
  const counts = `${sev.error ?? 0} error(s), ${sev.warning ?? 0} warning(s), ${sev.info ?? 0} info${noted}`;
  lines.push(report.findings.length === 0 ? paint('green', `No findings: memory matches the repository${noted}.`) : paint('bold', counts));
  const actions: Record<string, number> = {};
  for (const p of report.plan) if (p.action !== 'keep') actions[p.action] = (actions[p.action] ?? 0) + 1;
  const planLine = Object.entries(actions)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([a, n]) => `${n} ${a}`)
    .join(', ');
  if (planLine) lines.push(`Plan: ${planLine}. Run \`memory-audit prune\` to preview the edits, \`--write\` to apply them.`);
  for (const h of report.summary.health ?? []) lines.push(paint('yellow', `Health: ${termSafe(h)}`));
  return `${lines.join('\n')}\n`;
}
