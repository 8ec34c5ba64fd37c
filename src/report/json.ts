// The JSON report (schema 1, ../shared/design/REPORT-FORMAT.md): a public contract.
import { VERSION } from '../version.js';
import { redactDeep, redactSecrets } from './redact.js';
import { CONTRACT_KINDS } from './findings.js';
import type { Entry, Evidence, Finding, MemoryFile, PlanItem, Report } from '../types.js';

export interface ReportInput {
  root: string;
  evidence: Evidence;
  files: MemoryFile[];
  entries: Entry[];
  findings: Finding[];
  plan: PlanItem[];
  health: string[];
  /** Stage timings in ms; left out of the report when undefined. */
  timings?: Record<string, number>;
}

export function buildReport(input: ReportInput): Report {
  const byKind: Record<string, number> = {};
  const bySeverity: Record<string, number> = { error: 0, warning: 0, info: 0 };
  const findings = input.findings.filter((f) => CONTRACT_KINDS.has(f.kind));
  const notes = input.findings.filter((f) => !CONTRACT_KINDS.has(f.kind));
  for (const f of findings) {
    byKind[f.kind] = (byKind[f.kind] ?? 0) + 1;
    bySeverity[f.severity] = (bySeverity[f.severity] ?? 0) + 1;
  }
  const tokens = input.files.reduce((n, f) => n + f.tokens, 0);
  return {
    schemaVersion: 1,
    tool: { name: 'memory-audit', version: VERSION },
    repo: { root: input.root, head: input.evidence.head },
    files: input.files.map((f) => ({ path: f.path, format: f.format, lines: f.lines, bytes: f.bytes, tokens: f.tokens })),
    entries: input.entries.map((e) => ({
      id: e.id,
      file: e.file,
      line: e.line,
      endLine: e.endLine,
      type: e.type,
      protected: e.protected,
      text: redactSecrets(e.text),
    })),
    findings: findings.map((f) => redactDeep(f)),
    notes: notes.map((f) => redactDeep(f)),
    plan: input.plan.map((p) => redactDeep(p)),
    summary: {
      entries: input.entries.length,
      findings: findings.length,
      notes: notes.length,
      byKind,
      bySeverity,
      tokens,
      health: input.health,
      ...(input.timings ? { timings: input.timings } : {}),
    },
  };
}

/** The report as printed by `--format json`: one object, two-space indent, trailing newline. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
