import { describe, expect, it } from 'vitest';
import { colorEnabled, renderText } from '../../src/report/text.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { Report } from '../../src/types.js';

const report: Report = {
  schemaVersion: 1,
  tool: { name: 'memory-audit', version: '0.3.0' },
  repo: { root: '/r', head: null },
  files: [{ path: 'CLAUDE.md', format: 'claude-md', lines: 3, bytes: 90, tokens: 20 }],
  entries: [{ id: 'e_00000001', file: 'CLAUDE.md', line: 3, endLine: 3, type: 'project', protected: false, text: '- x' }],
  findings: [
    { entryId: 'e_00000001', file: 'CLAUDE.md', line: 3, kind: 'path-missing', severity: 'warning', ref: 'a.ts', message: '`a.ts` was deleted.' },
    { entryId: 'e_00000001', file: 'CLAUDE.md', line: 3, kind: 'path-missing', severity: 'warning', ref: 'b.ts', message: '`b.ts` was deleted | @team <!-- x' },
  ],
  plan: [{ entryId: 'e_00000001', action: 'delete', rule: 4, reason: 'stale with no remaining value' }],
  summary: { entries: 1, findings: 2, byKind: { 'path-missing': 2 }, bySeverity: { error: 0, warning: 2, info: 0 }, tokens: 20 },
};

describe('text report', () => {
  it('prints every finding and the entry plan once, under its last finding', () => {
    expect(renderText(report, { color: false })).toBe(
      [
        'memory-audit 0.3.0 — 1 file(s), 1 entries, ~20 tokens loaded',
        '  CLAUDE.md  claude-md, 3 lines, 90 bytes, ~20 tokens',
        '',
        'CLAUDE.md',
        '    3  warning path-missing     `a.ts` was deleted.',
        '    3  warning path-missing     `b.ts` was deleted | @team <!-- x',
        '       plan: delete (rule 4: stale with no remaining value)',
        '',
        '0 error(s), 2 warning(s), 0 info',
        'Plan: 1 delete. Run `memory-audit prune` to preview the edits, `--write` to apply them.',
        '',
      ].join('\n'),
    );
  });

  it('uses colour only when asked, and strips control characters from memory text', () => {
    const evil = { ...report, findings: [{ ...report.findings[0], message: 'bad \u001b[2J clear' }] };
    expect(renderText(evil, { color: false })).toContain('bad [2J clear');
    expect(renderText(report, { color: true })).toContain('\u001b[33mwarning');
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
  });
});

describe('markdown report', () => {
  it('escapes table cells and neutralises mentions and comments', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('| 🟠 | `CLAUDE.md:3` | path-missing | `b.ts` was deleted \\| @\u200bteam &lt;!-- x | delete (rule 4) |');
    expect(md).not.toContain('@team');
    expect(md).not.toContain('<!--');
  });
});
