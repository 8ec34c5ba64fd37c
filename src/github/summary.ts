// The job summary: what the run did (mode, pull request or comment), then the audit report.
import { renderMarkdown } from '../report/markdown.js';
import type { Report } from '../types.js';

export interface SummaryInput {
  mode: string;
  dryRun: boolean;
  report: Report;
  /** One line per thing done or noticed ("Created pull request #3", degradation notices). */
  actions: string[];
  /** Markdown that did not fit in a pull request body or comment. */
  overflow?: string | null;
  /** Extra sections (the comment body preview). */
  extra?: string[];
}

/** GitHub rejects a step summary over 1 MiB; stay well below. */
export const SUMMARY_LIMIT = 900 * 1024;

export function renderSummary(s: SummaryInput): string {
  const out: string[] = [];
  out.push(`# memory-audit (${s.mode}${s.dryRun ? ', dry run' : ''})`, '');
  for (const a of s.actions) out.push(`- ${a}`);
  if (s.actions.length > 0) out.push('');
  for (const e of s.extra ?? []) out.push(e, '');
  out.push(renderMarkdown(s.report, { maxRows: 300, title: 'Findings' }));
  if (s.overflow) out.push(s.overflow, '');
  let md = out.join('\n');
  if (md.length > SUMMARY_LIMIT) md = `${md.slice(0, SUMMARY_LIMIT)}\n\n…(summary truncated; the JSON report has everything)\n`;
  return md;
}
