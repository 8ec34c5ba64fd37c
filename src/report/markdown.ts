// Markdown report: `--format markdown` and the Action's job summary.
import type { Report } from '../types.js';
import { mdCell, mdCode } from './escape.js';
import { findingsAndNotes } from './findings.js';

const ICON = { error: '🔴', warning: '🟠', info: '🔵' } as const;

export interface MarkdownOptions {
  /** Cap on finding rows (the rest are counted). */
  maxRows?: number;
  title?: string;
}

export function renderMarkdown(report: Report, opts: MarkdownOptions = {}): string {
  const maxRows = opts.maxRows ?? 500;
  const out: string[] = [];
  const sev = report.summary.bySeverity;
  out.push(`## ${opts.title ?? 'Memory audit'}`, '');
  out.push(
    `${report.files.length} memory file(s), ${report.summary.entries} entries, ~${report.summary.tokens} tokens loaded; ` +
      `${sev.error ?? 0} error(s), ${sev.warning ?? 0} warning(s), ${sev.info ?? 0} info.`,
    '',
  );
  if (report.files.length > 0) {
    out.push('| File | Format | Lines | Bytes | Tokens |', '| --- | --- | ---: | ---: | ---: |');
    for (const f of report.files) out.push(`| ${mdCode(f.path)} | ${f.format} | ${f.lines} | ${f.bytes} | ${f.tokens} |`);
    out.push('');
  }
  const kinds = Object.entries(report.summary.byKind).sort(([a], [b]) => (a < b ? -1 : 1));
  if (kinds.length > 0) {
    out.push('| Finding | Count |', '| --- | ---: |');
    for (const [k, n] of kinds) out.push(`| ${k} | ${n} |`);
    out.push('');
  }
  const shown = findingsAndNotes(report);
  if (shown.length > 0) {
    out.push('| | Location | Kind | Finding | Plan |', '| --- | --- | --- | --- | --- |');
    const plan = new Map(report.plan.map((p) => [p.entryId, p]));
    for (const f of shown.slice(0, maxRows)) {
      const p = f.entryId ? plan.get(f.entryId) : undefined;
      const planCell = p && p.action !== 'keep' ? `${p.action} (rule ${p.rule})` : '';
      out.push(`| ${ICON[f.severity]} | ${mdCode(`${f.file}:${f.line}`)} | ${f.kind} | ${mdCell(f.message)} | ${planCell} |`);
    }
    if (shown.length > maxRows) out.push('', `…and ${shown.length - maxRows} more finding(s) in the JSON report.`);
    out.push('');
  } else {
    out.push('No findings: memory matches the repository.', '');
  }
  const health = report.summary.health ?? [];
  if (health.length > 0) {
    out.push('### Health', '');
    for (const h of health) out.push(`- ${mdCell(h)}`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}
