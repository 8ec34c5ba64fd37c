import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { discoverMemory, formatOf, isTopicFile } from '../../src/memory/discover.js';

let tmp: string;
let root: string;

function put(rel: string, content = '- x\n'): void {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ma-discover-'));
  root = join(tmp, 'repo');
  mkdirSync(root);
  writeFileSync(join(tmp, 'outside.md'), '- secret outside\n');
  put('.gitignore', 'dist/\n*.log\nCLAUDE.local.md\nignored-memory/\n');
  put('CLAUDE.md');
  put('CLAUDE.local.md');
  put('.claude/CLAUDE.md');
  put('.claude/rules/api.md');
  put('.claude/rules/deep/db.md');
  put('.claude/memory/MEMORY.md', '- [A](a.md) — a\n');
  put('.claude/memory/a.md');
  put('.claude/memory/sub/b.md');
  put('.claude/memory/pruning-log.md');
  put('.claude/memory/archive/old.md');
  put('.claude/memory/CLAUDE.md');
  put('AGENTS.md');
  put('packages/web/AGENTS.md');
  put('packages/web/CLAUDE.md');
  put('packages/api/GEMINI.md');
  put('packages/api/.gitignore', 'local/\n');
  put('packages/api/local/CLAUDE.md');
  put('.github/copilot-instructions.md');
  put('.github/instructions/ts.instructions.md');
  put('.cursor/rules/style.mdc');
  put('.cursorrules', 'plain rules\n');
  put('node_modules/pkg/CLAUDE.md');
  put('dist/CLAUDE.md');
  put('docs/README.md');
  put('ignored-memory/MEMORY.md');
  put('ignored-memory/t.md');
  symlinkSync(join(tmp, 'outside.md'), join(root, 'packages/web/GEMINI.md'));
  symlinkSync('CLAUDE.md', join(root, 'packages/api/AGENTS.md')); // dangling (relative to its folder)
  symlinkSync(join(root, 'CLAUDE.md'), join(root, 'docs/AGENTS.md')); // inside the repository, to a file that is memory: read once, as CLAUDE.md
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('auto-detection', () => {
  test('finds every known memory file, honours .gitignore (nested too), skips node_modules', async () => {
    const { files, findings } = await discoverMemory({ root });
    expect(files.map((f) => [f.path, f.format, f.memoryDir])).toEqual([
      ['.claude/CLAUDE.md', 'claude-md', undefined],
      ['.claude/memory/CLAUDE.md', 'claude-md', undefined],
      ['.claude/memory/MEMORY.md', 'auto-memory-index', '.claude/memory'],
      ['.claude/memory/a.md', 'auto-memory-topic', '.claude/memory'],
      ['.claude/memory/sub/b.md', 'auto-memory-topic', '.claude/memory'],
      ['.claude/rules/api.md', 'claude-md', undefined],
      ['.claude/rules/deep/db.md', 'claude-md', undefined],
      ['.cursor/rules/style.mdc', 'cursor-rule', undefined],
      ['.cursorrules', 'cursor-rule', undefined],
      ['.github/copilot-instructions.md', 'copilot', undefined],
      ['.github/instructions/ts.instructions.md', 'copilot', undefined],
      ['AGENTS.md', 'agents-md', undefined],
      ['CLAUDE.local.md', 'claude-md', undefined],
      ['CLAUDE.md', 'claude-md', undefined],
      ['packages/api/AGENTS.md', 'agents-md', undefined],
      ['packages/api/GEMINI.md', 'gemini-md', undefined],
      ['packages/web/AGENTS.md', 'agents-md', undefined],
      ['packages/web/CLAUDE.md', 'claude-md', undefined],
    ]);
    expect(findings.map((f) => [f.file, f.kind, f.severity])).toEqual([['packages/web/GEMINI.md', 'malformed', 'error']]);
    expect(findings[0].message).toBe(
      `packages/web/GEMINI.md: symbolic link leads outside the repository (to ${join(tmp, 'outside.md')}); not read`,
    );
  });

  test('config ignore globs leave files out', async () => {
    const { files } = await discoverMemory({ root, ignore: ['packages/**', '.claude/memory/**'] });
    expect(files.map((f) => f.path).filter((p) => p.startsWith('packages/') || p.startsWith('.claude/memory'))).toEqual([]);
    expect(files.map((f) => f.path)).toContain('CLAUDE.md');
  });
});

describe('explicit paths', () => {
  test('a memory folder, a file, and a glob; a git-ignored folder named explicitly is read', async () => {
    const { files, findings } = await discoverMemory({
      root,
      paths: ['ignored-memory', 'docs/README.md', '.claude/rules/**/*.md'],
    });
    expect(findings).toEqual([]);
    expect(files.map((f) => [f.path, f.format, f.memoryDir])).toEqual([
      ['.claude/rules/api.md', 'claude-md', undefined],
      ['.claude/rules/deep/db.md', 'claude-md', undefined],
      ['docs/README.md', 'other', undefined],
      ['ignored-memory/MEMORY.md', 'auto-memory-index', 'ignored-memory'],
      ['ignored-memory/t.md', 'auto-memory-topic', 'ignored-memory'],
    ]);
  });

  test('a folder without MEMORY.md is scanned for the known names only', async () => {
    const { files } = await discoverMemory({ root, paths: ['packages/web'] });
    expect(files.map((f) => f.path)).toEqual(['packages/web/AGENTS.md', 'packages/web/CLAUDE.md']);
  });

  test('a topic file named alone keeps its memory folder; an absolute folder outside the repository works', async () => {
    const outsideMem = join(tmp, 'mem');
    mkdirSync(outsideMem, { recursive: true });
    writeFileSync(join(outsideMem, 'MEMORY.md'), '- [x](x.md)\n');
    writeFileSync(join(outsideMem, 'x.md'), 'x\n');
    const { files } = await discoverMemory({ root, paths: ['.claude/memory/a.md', outsideMem] });
    expect(files.map((f) => [f.path, f.format, f.memoryDir])).toEqual([
      ['.claude/memory/a.md', 'auto-memory-topic', '.claude/memory'],
      [`${outsideMem}/MEMORY.md`, 'auto-memory-index', outsideMem],
      [`${outsideMem}/x.md`, 'auto-memory-topic', outsideMem],
    ]);
  });

  test('an absolute glob outside the repository', async () => {
    const dir = join(tmp, 'globbed');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'MEMORY.md'), '- [y](y.md)\n');
    writeFileSync(join(dir, 'y.md'), 'y\n');
    const { files, findings } = await discoverMemory({ root, paths: [`${dir}/*.md`] });
    expect(findings).toEqual([]);
    expect(files.map((f) => [f.path, f.format, f.memoryDir])).toEqual([
      [`${dir}/MEMORY.md`, 'auto-memory-index', dir],
      [`${dir}/y.md`, 'auto-memory-topic', dir],
    ]);
  });

  test('a missing path and a glob matching nothing are findings; the rest is still found', async () => {
    const { files, findings } = await discoverMemory({ root, paths: ['nope/CLAUDE.md', 'nothing/**/*.md', 'AGENTS.md'] });
    expect(files.map((f) => f.path)).toEqual(['AGENTS.md']);
    expect(findings.map((f) => [f.file, f.kind, f.severity, f.message])).toEqual([
      ['nope/CLAUDE.md', 'malformed', 'error', 'memory path not found: nope/CLAUDE.md'],
      ['nothing/**/*.md', 'malformed', 'error', 'memory path nothing/**/*.md matched no files'],
    ]);
  });
});

test('formatOf and isTopicFile', () => {
  expect(formatOf('a/b/CLAUDE.md')).toBe('claude-md');
  expect(formatOf('x/AGENTS.override.md')).toBe('agents-md');
  expect(formatOf('.cursor/rules/a/b.mdc')).toBe('cursor-rule');
  expect(formatOf('docs/notes.md')).toBeUndefined();
  expect(formatOf('docs/notes.md', true)).toBe('auto-memory-topic');
  expect(formatOf('MEMORY.md')).toBeUndefined();
  expect(isTopicFile('a.md')).toBe(true);
  expect(isTopicFile('sub/a.md')).toBe(true);
  expect(isTopicFile('archive/a.md')).toBe(false);
  expect(isTopicFile('Pruning-Log.md')).toBe(false);
  expect(isTopicFile('MEMORY.md')).toBe(false);
  expect(isTopicFile('logs/prune.md', 'logs/prune.md')).toBe(false);
  expect(isTopicFile('a.txt')).toBe(false);
});

describe('auto-memory folders in a larger tree', () => {
  test('a file belongs to its nearest memory folder; a sibling folder sharing a name prefix is not one', async () => {
    const base = mkdtempSync(join(tmpdir(), 'ma-discover-nested-'));
    try {
      const at = (rel: string) => {
        mkdirSync(dirname(join(base, rel)), { recursive: true });
        writeFileSync(join(base, rel), '- x\n');
      };
      at('.claude/memory/MEMORY.md');
      at('.claude/memory/a.md');
      at('.claude/memory/team/MEMORY.md');
      at('.claude/memory/team/b.md');
      at('.claude/memory-old/c.md');
      at('docs/d.md');
      const { files } = await discoverMemory({ root: base });
      expect(files.map((f) => [f.path, f.format, f.memoryDir])).toEqual([
        ['.claude/memory/MEMORY.md', 'auto-memory-index', '.claude/memory'],
        ['.claude/memory/a.md', 'auto-memory-topic', '.claude/memory'],
        ['.claude/memory/team/MEMORY.md', 'auto-memory-index', '.claude/memory/team'],
        ['.claude/memory/team/b.md', 'auto-memory-topic', '.claude/memory/team'],
      ]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test('many memory folders (nested ones too) and hundreds of plain folders', async () => {
    const base = mkdtempSync(join(tmpdir(), 'ma-discover-many-'));
    try {
      const at = (rel: string, text = '- x\n') => {
        mkdirSync(dirname(join(base, rel)), { recursive: true });
        writeFileSync(join(base, rel), text);
      };
      // a MEMORY.md outside .claude/ is a memory index only when it reads as one (links to topics)
      for (let i = 0; i < 40; i++) {
        at(`mem/p${i}/MEMORY.md`, '- [T](deep/t.md) — t\n');
        at(`mem/p${i}/deep/t.md`);
        at(`mem/p${i}x/u.md`); // p1x is not inside p1
      }
      at('mem/p3/deep/inner/MEMORY.md', '- [V](v.md) — v\n');
      at('mem/p3/deep/inner/v.md');
      for (let i = 0; i < 300; i++) at(`src/m${i % 7}/f${i}/README.md`);
      at('src/m1/f8/CLAUDE.md');
      const { files } = await discoverMemory({ root: base });
      expect(files.length).toBe(40 * 2 + 2 + 1);
      const byPath = new Map(files.map((f) => [f.path, f]));
      expect(byPath.get('mem/p3/deep/t.md')?.memoryDir).toBe('mem/p3');
      expect(byPath.get('mem/p3/deep/inner/v.md')?.memoryDir).toBe('mem/p3/deep/inner');
      expect(byPath.get('mem/p39/deep/t.md')?.format).toBe('auto-memory-topic');
      expect(byPath.has('mem/p1x/u.md')).toBe(false);
      expect(byPath.get('src/m1/f8/CLAUDE.md')?.format).toBe('claude-md');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
