import { describe, expect, it } from 'vitest';
import { findBrokenLinks } from '../../src/checks/broken-link.js';
import { findBudget, loadedCut } from '../../src/checks/budget.js';
import { config, context, parseFiles } from './helpers.js';

function topic(name: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${name}\ntype: project\n---\n\n${body}\n`;
}

const reason = (f: { evidence?: Record<string, unknown> }) => f.evidence?.reason;

describe('broken-link', () => {
  it('reports missing topic files, unknown [[names]], dead links between memory files and orphans', () => {
    const { files, entries } = parseFiles({
      'mem/MEMORY.md':
        '# Index\n\n- [Deploy](deploy.md) — releases\n- [Flaky tests](flaky.md) — known flakes\n- See [[deploy]] and [[team-contacts]].\n',
      'mem/deploy.md': topic('deploy', 'Releases merge `main` into `release`; see [the checklist](checklist.md) and [[deploy]].\n\n`[[not-a-link]]` in code, and a fence:\n\n```\n[[also-code]]\n```'),
      'mem/orphan.md': topic('orphan', 'Nobody links here.'),
      'mem/pruning-log.md': '# Pruning log\n',
    });
    const f = findBrokenLinks(context(files, entries));
    expect(f.map((x) => [x.file, x.line, x.ref, reason(x), x.severity])).toEqual([
      ['mem/MEMORY.md', 4, 'flaky.md', 'index-target-missing', 'warning'],
      ['mem/MEMORY.md', 5, '[[team-contacts]]', 'unknown-name', 'warning'],
      ['mem/deploy.md', 7, 'checklist.md', 'missing', 'warning'],
      ['mem/orphan.md', 1, 'orphan.md', 'orphan', 'info'],
    ]);
    expect(f[0].message).toBe('The index links to flaky.md, which no longer exists; remove this index line or restore the topic file.');
    expect(f[3].message).toBe('No line of mem/MEMORY.md mentions orphan.md, so the agent never loads it; add an index line or delete the file.');
  });

  it('leaves links to ordinary repository files to the path checks', () => {
    const { files, entries } = parseFiles({ 'CLAUDE.md': '- See [the API guide](docs/api.md) and [site](https://example.com).\n' });
    expect(findBrokenLinks(context(files, entries, ['CLAUDE.md']))).toEqual([]);
  });

  it('reports @imports that are missing, circular or deeper than four hops, never inside code', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md': '# Root\n\n- Payments: @a/CLAUDE.md\n- Old notes: @docs/old.md\n- Mention of `@docs/gone.md` in code and npm scope @types/node.\n',
      'a/CLAUDE.md': '- Next: @b/CLAUDE.md\n',
      'a/b/CLAUDE.md': '- Next: @c/CLAUDE.md\n',
      'a/b/c/CLAUDE.md': '- Next: @d/CLAUDE.md\n',
      'a/b/c/d/CLAUDE.md': '- Deep: @notes.md\n- Back to the root: @../../../../CLAUDE.md\n',
    });
    const all = [...files.map((x) => x.path), 'a/b/c/d/notes.md'];
    const f = findBrokenLinks(context(files, entries, all));
    expect(f.map((x) => [x.file, x.line, x.ref, reason(x)])).toEqual([
      ['CLAUDE.md', 4, '@docs/old.md', 'import-missing'],
      ['a/b/c/d/CLAUDE.md', 1, '@notes.md', 'import-too-deep'],
      ['a/b/c/d/CLAUDE.md', 2, '@../../../../CLAUDE.md', 'import-circular'],
    ]);
    expect(f[1].evidence?.hops).toBe(5);
    expect(f[1].message).toBe(
      "The import @notes.md is 5 hops from CLAUDE.md, beyond Claude Code's limit of 4, so it is never loaded; import it from a shallower file.",
    );
  });
});

describe('budget', () => {
  it('cuts MEMORY.md at 200 lines not counting frontmatter and HTML comments, and reports the unseen entries', () => {
    const lines = ['---', 'description: index', '---', '<!-- maintained by Claude', 'across lines -->'];
    for (let i = 1; i <= 205; i++) lines.push(`- [Topic ${i}](t${i}.md) — hook ${i}`);
    const text = lines.join('\n') + '\n';
    const cut = loadedCut({ text }, { lines: 200, bytes: 25 * 1024 });
    expect([cut.by, cut.line, cut.countedLines]).toEqual(['lines', 206, 200]);
    const { files, entries } = parseFiles({ 'mem/MEMORY.md': text });
    const f = findBudget(context(files, entries));
    expect(f[0]).toMatchObject({ entryId: null, file: 'mem/MEMORY.md', line: 206, kind: 'budget', severity: 'warning' });
    expect(f[0].message).toBe(
      'Claude Code stops reading mem/MEMORY.md at line 206 (200 lines, frontmatter and comments not counted), so 5 entries are never seen; move detail into topic files or prune the index.',
    );
    expect(f.slice(1).map((x) => [x.line, x.evidence?.unseen, x.evidence?.partial])).toEqual([
      [206, true, false],
      [207, true, false],
      [208, true, false],
      [209, true, false],
      [210, true, false],
    ]);
  });

  it('cuts MEMORY.md at 25 KB when that comes first', () => {
    const long = 'x'.repeat(300);
    const lines: string[] = [];
    for (let i = 1; i <= 100; i++) lines.push(`- [T${i}](t${i}.md) — ${long}`);
    const text = lines.join('\n') + '\n';
    const cut = loadedCut({ text }, { lines: 200, bytes: 25 * 1024 });
    expect(cut.by).toBe('bytes');
    expect(cut.countedBytes).toBeLessThanOrEqual(25 * 1024);
    expect(Buffer.byteLength(text.slice(0, cut.offset))).toBe(25 * 1024);
  });

  it('warns on other files over config.budgets and errors over errorBytes', () => {
    const big = Array.from({ length: 230 }, (_, i) => `- rule ${i}`).join('\n') + '\n';
    const cfg = config();
    cfg.budgets = { ...cfg.budgets, files: { 'AGENTS.md': { lines: 500, tokens: 10 } } };
    const { files, entries } = parseFiles({ 'CLAUDE.md': big, 'AGENTS.md': big, 'mem/MEMORY.md': '- [a](a.md) — a\n', 'mem/a.md': big });
    files.find((x) => x.path === 'AGENTS.md')!.tokens = 900;
    const f = findBudget(context(files, entries, undefined, cfg));
    expect(f.map((x) => [x.file, x.severity, x.evidence?.limit, x.evidence?.now])).toEqual([
      ['CLAUDE.md', 'warning', 'lines', 200],
      ['AGENTS.md', 'warning', 'tokens', 10],
    ]);
    expect(f[0].message).toBe('CLAUDE.md is 230 lines (budget 200) and is loaded into every session; prune it or move detail into files loaded on demand.');
    files.find((x) => x.path === 'CLAUDE.md')!.bytes = 5 * 1024 * 1024;
    const g = findBudget(context(files, entries, undefined, cfg));
    expect(g[0]).toMatchObject({ file: 'CLAUDE.md', severity: 'error', evidence: { now: 4 * 1024 * 1024, limit: 'bytes' } });
  });

  it('says when a scoped or nested file is loaded instead of "every session"', () => {
    const body = Array.from({ length: 230 }, (_, i) => `- rule ${i}`).join('\n') + '\n';
    const cfg = config();
    const all = { lines: 200 };
    cfg.budgets = { ...cfg.budgets, files: { '**/*.md': all, '**/*.mdc': all } };
    const { files, entries } = parseFiles({
      '.github/instructions/mcp.instructions.md': `---\napplyTo: 'packages/mcp/**'\n---\n${body}`,
      '.claude/rules/db.md': `---\npaths:\n  - packages/db/**\n  - prisma/**\n---\n${body}`,
      'packages/web/CLAUDE.md': body,
      '.cursor/rules/always.mdc': `---\nalwaysApply: true\n---\n${body}`,
    });
    const f = findBudget(context(files, entries, undefined, cfg));
    expect(f.map((x) => x.message.replace(/^.* and (is loaded [^;]*);.*$/, `${x.file}: $1`))).toEqual([
      '.github/instructions/mcp.instructions.md: is loaded whenever files matching `packages/mcp/**` are in context',
      '.claude/rules/db.md: is loaded whenever files matching `packages/db/**, prisma/**` are in context',
      'packages/web/CLAUDE.md: is loaded whenever the agent works in `packages/web/`',
      '.cursor/rules/always.mdc: is loaded into every session',
    ]);
  });
});
