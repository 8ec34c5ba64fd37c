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

/** GitHub rejects a step summary over 1 MiB of UTF-8; stay well below. In bytes. */
export const SUMMARY_LIMIT = 900 * 1024;

/**
 * The longest prefix of `text` that is at most `maxBytes` bytes of UTF-8, cut between two
 * characters: the limits GitHub puts on step summaries and outputs count bytes, and a
 * character of CJK text is three of them.
 */
export function utf8Prefix(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  // step back over continuation bytes (10xxxxxx) to the start of the character that did not fit
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

export function renderSummary(s: SummaryInput): string {
  const out: string[] = [];
  out.push(`# memory-audit (${s.mode}${s.dryRun ? ', dry run' : ''})`, '');
  for (const a of s.actions) out.push(`- ${a}`);
  if (s.actions.length > 0) out.push('');
  for (const e of s.extra ?? []) out.push(e, '');
  out.push(renderMarkdown(s.report, { maxRows: 300, title: 'Findings' }));
  if (s.overflow) out.push(s.overflow, '');
  let md = out.join('\n');
  const tail = '\n\n…(summary truncated; the JSON report has everything)\n';
  if (Buffer.byteLength(md, 'utf8') > SUMMARY_LIMIT) md = `${utf8Prefix(md, SUMMARY_LIMIT - Buffer.byteLength(tail, 'utf8'))}${tail}`;
  return md;
}
