// Files brought in by `@imports` are memory: loadMemory loads them (once, inside the repository,
// Markdown only, at most MAX_IMPORT_HOPS hops from a CLAUDE.md-style file) and follows theirs.
import { afterEach, describe, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/types.js';
import { MAX_IMPORTED_FILES, MAX_IMPORT_HOPS } from '../../src/memory/discover.js';
import { loadMemory } from '../../src/memory/load.js';

let tmp: string;
let root: string;

function setup(files: Record<string, string>): void {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ma-imports-')));
  root = join(tmp, 'repo');
  mkdirSync(root);
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const config = (over: Partial<Config> = {}): Config => ({ ...DEFAULT_CONFIG, ...over });
const load = (over: Partial<Config> = {}, paths?: string[]) => loadMemory({ root, config: config(over), paths });
const filesOf = (l: Awaited<ReturnType<typeof load>>) => l.files.map((f) => [f.path, f.format]);

describe('loadMemory follows @imports', () => {
  test('imported files are loaded with their entries, transitively, up to four hops; a cycle loads each file once', async () => {
    const chain: Record<string, string> = {};
    for (let i = 1; i <= 6; i++) chain[`docs/agent/d${i}.md`] = `# d${i}\n@d${i + 1}.md\n`;
    setup({
      'CLAUDE.md': '# P\n@docs/agent/conventions.md\n@docs/agent/d1.md\n- Run `npm test`.\n',
      'docs/agent/conventions.md': '# Conventions\n\n- Helpers live in `src/old.ts`.\n@loop.md\n',
      'docs/agent/loop.md': '# Loop\n@conventions.md\n',
      ...chain,
      'docs/agent/d7.md': '# d7\n- Deep fact.\n',
      'docs/unrelated.md': '# Not imported\n',
    });
    expect(MAX_IMPORT_HOPS).toBe(4);
    const l = await load();
    // d1..d4 are 1..4 hops from CLAUDE.md; d5 would be the fifth: Claude Code never loads it.
    expect(filesOf(l)).toEqual([
      ['CLAUDE.md', 'claude-md'],
      ['docs/agent/conventions.md', 'claude-md'],
      ['docs/agent/d1.md', 'claude-md'],
      ['docs/agent/d2.md', 'claude-md'],
      ['docs/agent/d3.md', 'claude-md'],
      ['docs/agent/d4.md', 'claude-md'],
      ['docs/agent/loop.md', 'claude-md'],
    ]);
    // entries follow the file order, with references extracted
    expect([...new Set(l.entries.map((e) => e.file))]).toEqual(l.files.map((f) => f.path));
    const helpers = l.entries.find((e) => e.file === 'docs/agent/conventions.md' && e.text.includes('old.ts'))!;
    expect([helpers.line, helpers.refs!.filter((r) => r.kind === 'path').map((r) => r.value)]).toEqual([3, ['src/old.ts']]);
    expect(l.findings).toEqual([]);
    expect(l.timings.imports).toBeGreaterThanOrEqual(0);
  });

  test('a file both discovered and imported is loaded once; its imports are followed when a CLAUDE.md imports it', async () => {
    setup({
      'CLAUDE.md': '# P\n@AGENTS.md\n@./docs/a.md\n@docs/a.md\n',
      'AGENTS.md': '# Agents\n- See @docs/from-agents.md\n',
      'docs/a.md': '# A\n- a\n',
      'docs/from-agents.md': '# From agents\n- b\n',
      'GEMINI.md': '# Gemini\n- @docs/gemini-only.md\n', // Gemini CLI's import processor follows GEMINI.md's own @ imports
      'docs/gemini-only.md': '# G\n',
    });
    const l = await load();
    expect(filesOf(l)).toEqual([
      ['AGENTS.md', 'agents-md'],
      ['CLAUDE.md', 'claude-md'],
      ['GEMINI.md', 'gemini-md'],
      ['docs/a.md', 'claude-md'],
      ['docs/from-agents.md', 'claude-md'],
      ['docs/gemini-only.md', 'gemini-md'],
    ]);
    expect(l.findings).toEqual([]);
  });

  test('not followed: code spans and fences, e-mail addresses, scoped packages, non-Markdown, missing files, folders, outside the repository, node_modules', async () => {
    setup({
      'CLAUDE.md': [
        '# P',
        '- Inline `@docs/code.md` is code.',
        '```',
        '@docs/fence.md',
        '```',
        '- Mail user@docs.md or ops@example.com; use @types/node.',
        '- Scripts: @package.json',
        '- Gone: @docs/missing.md',
        '- Folder: @docs/folder.md',
        '- Up: @../outside.md and home @~/.claude/mine.md',
        '- Vendor: @node_modules/pkg/README.md',
        '',
      ].join('\n'),
      'docs/code.md': '# code\n',
      'docs/fence.md': '# fence\n',
      'package.json': '{}\n',
      'docs/folder.md/x.txt': 'a folder named like a file\n',
      'node_modules/pkg/README.md': '# pkg\n',
    });
    writeFileSync(join(tmp, 'outside.md'), '# outside\n');
    const l = await load();
    expect(filesOf(l)).toEqual([['CLAUDE.md', 'claude-md']]);
    expect(l.findings).toEqual([]);
    expect(l.timings.imports).toBeUndefined();
  });

  test('a repository without imports pays nothing: no imports stage, the same files', async () => {
    setup({ 'CLAUDE.md': '# P\n- Use pnpm.\n', 'docs/x.md': '# x\n' });
    const l = await load();
    expect(filesOf(l)).toEqual([['CLAUDE.md', 'claude-md']]);
    expect(Object.keys(l.timings).sort()).toEqual(['discover', 'parse', 'read', 'refs']);
  });

  test('symlinks: a link to a file already loaded is not loaded twice; a link leading outside is a malformed finding, not read', async () => {
    setup({
      'CLAUDE.md': '# P\n@docs/alias.md\n@docs/real.md\n@docs/escape.md\n',
      'docs/real.md': '# Real\n- fact\n',
    });
    symlinkSync('real.md', join(root, 'docs/alias.md'));
    writeFileSync(join(tmp, 'secret.md'), '# outside\n');
    symlinkSync(join(tmp, 'secret.md'), join(root, 'docs/escape.md'));
    const l = await load();
    expect(filesOf(l)).toEqual([
      ['CLAUDE.md', 'claude-md'],
      ['docs/alias.md', 'claude-md'],
    ]);
    expect(l.findings.map((f) => [f.file, f.line, f.kind, f.severity, f.message])).toEqual([
      ['docs/escape.md', 1, 'malformed', 'error', `docs/escape.md: symbolic link leads outside the repository (to ${join(tmp, 'secret.md')}); not read`],
    ]);
  });

  test('explicit --memory paths: imports are followed from a CLAUDE.md given; config ignore globs leave imported files out', async () => {
    setup({
      'CLAUDE.md': '# root, not given\n@docs/never.md\n',
      'pkg/CLAUDE.md': '# P\n@notes/a.md\n@notes/skip.md\n',
      'pkg/notes/a.md': '# a\n@b.md\n',
      'pkg/notes/b.md': '# b\n',
      'pkg/notes/skip.md': '# skip\n',
      'docs/never.md': '# never\n',
    });
    const l = await load({ ignore: ['**/skip.md'] }, ['pkg/CLAUDE.md']);
    expect(filesOf(l)).toEqual([
      ['pkg/CLAUDE.md', 'claude-md'],
      ['pkg/notes/a.md', 'claude-md'],
      ['pkg/notes/b.md', 'claude-md'],
    ]);
  });

  test('bad imported files are reported like any memory file (file and line), the rest is loaded', async () => {
    setup({ 'CLAUDE.md': '# P\n@docs/bin.md\n@docs/ok.md\n', 'docs/ok.md': '# ok\n' });
    writeFileSync(join(root, 'docs/bin.md'), Buffer.from('line one\n\0\x01'));
    const l = await load();
    expect(filesOf(l)).toEqual([
      ['CLAUDE.md', 'claude-md'],
      ['docs/ok.md', 'claude-md'],
    ]);
    expect(l.findings.map((f) => [f.file, f.line, f.kind, f.message])).toEqual([
      ['docs/bin.md', 2, 'malformed', 'docs/bin.md:2: binary content (NUL byte at offset 9); not read as memory'],
    ]);
  });

  test(`at most ${MAX_IMPORTED_FILES} files are loaded through imports; the first import left out is named`, async () => {
    const files: Record<string, string> = {};
    const n = MAX_IMPORTED_FILES + 2;
    const lines = ['# P'];
    for (let i = 0; i < n; i++) {
      const name = `m${String(i).padStart(4, '0')}.md`;
      lines.push(`@docs/${name}`);
      files[`docs/${name}`] = `# ${i}\n`;
    }
    setup({ ...files, 'CLAUDE.md': lines.join('\n') + '\n' });
    const l = await load();
    expect(l.files.length).toBe(1 + MAX_IMPORTED_FILES);
    expect(l.findings.map((f) => [f.file, f.line, f.kind, f.severity, f.ref, f.message])).toEqual([
      [
        'CLAUDE.md',
        MAX_IMPORTED_FILES + 2,
        'malformed',
        'warning',
        `@docs/m0${MAX_IMPORTED_FILES}.md`,
        `CLAUDE.md:${MAX_IMPORTED_FILES + 2}: the import @docs/m0${MAX_IMPORTED_FILES}.md is not audited: more than ${MAX_IMPORTED_FILES} files are imported, and imports past that many are not loaded`,
      ],
    ]);
  });
});
