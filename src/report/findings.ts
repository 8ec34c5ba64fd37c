// Which findings the JSON report lists under `findings` (the kinds of the public contract,
// ../shared/design/REPORT-FORMAT.md) and which under `notes`: what the audit could not verify
// (a path never seen in history, an issue it had no token to check) and remarks about the run
// itself (a shallow clone, no git). Notes carry the same fields; they are not findings about
// memory, so they neither count in `summary.findings` nor fail `--fail-on`.
import type { Finding, Report } from '../types.js';

export const CONTRACT_KINDS: ReadonlySet<string> = new Set([
  'path-missing',
  'path-renamed',
  'script-missing',
  'package-missing',
  'package-renamed',
  'version-drift',
  'count-drift',
  'status-drift',
  'expired',
  'superseded',
  'ephemeral',
  'duplicate',
  'contradiction',
  'broken-link',
  'secret',
  'budget',
  'malformed',
]);

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Deterministic order: file, line, severity, kind, ref. */
export function sortFindings(findings: Finding[]): Finding[] {
  const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
  return [...findings].sort(
    (a, b) =>
      cmp(a.file, b.file) ||
      a.line - b.line ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      cmp(a.kind, b.kind) ||
      cmp(a.ref ?? '', b.ref ?? ''),
  );
}

/** Findings and notes together, in report order: what the human-readable outputs show. */
export function findingsAndNotes(report: Pick<Report, 'findings' | 'notes'>): Finding[] {
  return report.notes?.length ? sortFindings([...report.findings, ...report.notes]) : report.findings;
}
