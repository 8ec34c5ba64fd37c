import { describe, expect, it } from 'vitest';
import { REPORT_OUTPUT_LIMIT, reportJsonOutput } from '../../src/github/action.js';
import type { Report } from '../../src/types.js';

function report(entries: number): Report {
  return {
    schemaVersion: 1,
    tool: { name: 'memory-audit', version: '0.3.0' },
    repo: { root: '/r', head: null },
    files: [{ path: 'CLAUDE.md', format: 'claude-md', lines: entries, bytes: entries * 80, tokens: entries * 20 }],
    entries: Array.from({ length: entries }, (_, i) => ({
      id: `e_${String(i).padStart(8, '0')}`,
      file: 'CLAUDE.md',
      line: i + 1,
      endLine: i + 1,
      type: 'project' as const,
      protected: false,
      text: `- Entry number ${i} says something about src/module-${i}.ts and its tests.`,
    })),
    findings: [],
    plan: [],
    summary: { entries, findings: 0, byKind: {}, bySeverity: { error: 0, warning: 0, info: 0 }, tokens: entries * 20 },
  };
}

describe('the report-json output', () => {
  it('is the whole report as compact JSON when it fits', () => {
    const r = report(10);
    expect(reportJsonOutput(r, '/tmp/r.json')).toBe(JSON.stringify(r));
  });

  it('leaves out entries and plan, and says so, when the report is larger than the output budget', () => {
    const r = report(20_000);
    expect(JSON.stringify(r).length).toBeGreaterThan(REPORT_OUTPUT_LIMIT);
    const out = JSON.parse(reportJsonOutput(r, '/tmp/r.json'));
    expect(out.entries).toEqual([]);
    expect(out.plan).toEqual([]);
    expect(out.truncated).toBe(true);
    expect(out.reportPath).toBe('/tmp/r.json');
    expect(out.summary).toEqual(r.summary);
  });
});
