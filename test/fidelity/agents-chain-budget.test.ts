// Budgets as each agent loads its files: Codex's AGENTS.md chain (root down to the working folder,
// cut at project_doc_max_bytes), the per-format budgets (no line count for AGENTS.md, 500 lines for
// Cursor rules), through the check and through the CLI on a real repository.
import { afterAll, describe, expect, it } from 'vitest';
import { findBudget } from '../../src/checks/budget.js';
import { cleanupAll, cli, makeRepo } from '../integration/helpers.js';
import { config, context, parseFiles } from './helpers.js';

afterAll(cleanupAll);

/** `n` bullet lines of exactly 100 bytes each (with the newline). */
function bullets(n: number, tag: string): string {
  return Array.from({ length: n }, (_, i) => `- ${tag} rule ${String(i).padStart(4, '0')} `.padEnd(99, 'x') + '\n').join('');
}

const rows = (f: ReturnType<typeof findBudget>) => f.map((x) => [x.file, x.line, x.evidence?.limit, x.evidence?.now, x.evidence?.unseen]);

describe('budget: AGENTS.md as Codex loads it', () => {
  it('cuts a root AGENTS.md past 32 KiB at the line holding byte 32,768', () => {
    // 400 lines of 100 bytes: byte 32,768 falls in line 328 (bytes 32,701..32,800).
    const { files, entries } = parseFiles({ 'AGENTS.md': bullets(400, 'root') });
    const f = findBudget(context(files, entries));
    expect(rows(f)).toEqual([['AGENTS.md', 328, 'bytes', 32768, 73]]);
    expect(f[0].message).toBe(
      'Codex stops reading AGENTS.md at line 328: it reads at most 32 KB of AGENTS.md (project_doc_max_bytes), so 73 entries are never seen; move detail into files read on demand, or raise project_doc_max_bytes and set budgets.agentsChain to match.',
    );
  });

  it('charges the files above a nested AGENTS.md, prefers AGENTS.override.md, and skips whitespace-only files', () => {
    const { files, entries } = parseFiles({
      'AGENTS.md': bullets(300, 'root'), // 30,000 bytes: 2,768 left
      'packages/AGENTS.md': '\n\n   \n', // only whitespace: Codex skips it, no bytes used
      'packages/web/AGENTS.md': bullets(50, 'web'), // 5,000 bytes: cut in line 28
      'packages/api/AGENTS.md': bullets(50, 'api-plain'), // not read: the override wins in this folder
      'packages/api/AGENTS.override.md': bullets(20, 'api'), // 2,000 bytes: fits
    });
    const f = findBudget(context(files, entries));
    expect(rows(f)).toEqual([['packages/web/AGENTS.md', 28, 'bytes', 32768, 23]]);
    expect(f[0].message).toBe(
      'Codex stops reading packages/web/AGENTS.md at line 28: it reads at most 32 KB of AGENTS.md (project_doc_max_bytes) after the files above it (AGENTS.md: 29.3 KB), so 23 entries are never seen; move detail into files read on demand, or raise project_doc_max_bytes and set budgets.agentsChain to match.',
    );
    expect(f[0].evidence?.bytesAbove).toBe(30000);
  });

  it('says a nested file is never read when the files above use the whole budget', () => {
    const { files, entries } = parseFiles({ 'AGENTS.md': bullets(330, 'root'), 'web/AGENTS.md': bullets(3, 'web') });
    const f = findBudget(context(files, entries));
    expect(rows(f)).toEqual([
      ['AGENTS.md', 328, 'bytes', 32768, 3],
      ['web/AGENTS.md', 1, 'bytes', 32768, 3],
    ]);
    expect(f[1].message).toBe(
      'Codex never reads web/AGENTS.md: it stops at 32 KB of AGENTS.md (project_doc_max_bytes), used up by the files above it (AGENTS.md: 32.2 KB), so 3 entries are never seen; shorten those or move detail into files read on demand.',
    );
  });

  it('counts UTF-8 bytes, not characters, and never cuts inside a character', () => {
    // 'é' is two bytes: 20,000 of them are 40,000 bytes; the cut is after 16,384 of them.
    const text = '- ' + 'é'.repeat(20000) + '\n';
    const { files, entries } = parseFiles({ 'AGENTS.md': text });
    const cfg = config();
    cfg.budgets.agentsChain = { bytes: 32767 }; // odd: the last whole character ends at 32,766
    const f = findBudget(context(files, entries, undefined, cfg));
    expect(rows(f)).toEqual([['AGENTS.md', 1, 'bytes', 32767, 1]]);
  });

  it('has no line budget for an ordinary AGENTS.md, 500 lines for Cursor rules, 200 for CLAUDE.md; all configurable', () => {
    const long = bullets(238, 'x'); // 23,800 bytes: within Codex's budget
    const input = { 'AGENTS.md': long, 'CLAUDE.md': long, '.cursor/rules/style.mdc': `---\ndescription: style\nalwaysApply: true\n---\n${long}` };
    const { files, entries } = parseFiles(input);
    expect(findBudget(context(files, entries)).map((x) => [x.file, x.evidence?.now])).toEqual([['CLAUDE.md', 200]]);
    const cfg = config();
    cfg.budgets.formats = { ...cfg.budgets.formats, 'agents-md': { lines: 150 }, 'cursor-rule': { lines: 200 } };
    cfg.budgets.agentsChain = { bytes: 0 }; // off, as Codex's project_doc_max_bytes = 0 turns AGENTS.md off
    expect(findBudget(context(files, entries, undefined, cfg)).map((x) => [x.file, x.evidence?.now])).toEqual([
      ['AGENTS.md', 150],
      ['CLAUDE.md', 200],
      ['.cursor/rules/style.mdc', 200],
    ]);
  });

  it('reports the cut through the CLI on a real repository, and a config file can move the limit', async () => {
    const repo = await makeRepo({ 'AGENTS.md': bullets(400, 'root'), 'src/index.ts': 'export {};\n' });
    const run = await cli(repo.dir, ['--repo', repo.dir, '--format', 'json', '--fail-on', 'never', '--check', 'budget']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.findings.map((x: { file: string; line: number; kind: string }) => [x.file, x.line, x.kind])).toEqual([['AGENTS.md', 328, 'budget']]);
    repo.write('.memory-audit.yml', 'budgets:\n  agentsChain: { bytes: 65536 }\n');
    const again = JSON.parse((await cli(repo.dir, ['--repo', repo.dir, '--format', 'json', '--fail-on', 'never', '--check', 'budget'])).stdout);
    expect(again.findings).toEqual([]);
    repo.write('.memory-audit.yml', 'budgets:\n  formats: { agent-md: { lines: 10 } }\n');
    const bad = await cli(repo.dir, ['--repo', repo.dir, '--format', 'json', '--fail-on', 'never']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('budgets.formats.agent-md');
  });
});
