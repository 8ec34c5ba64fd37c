// Which folders holding a MEMORY.md are auto-memory folders. A design document named MEMORY.md
// (`docs/MEMORY.md` on a program's memory management, as thousands of repositories keep) is not
// memory, and the documents beside it are not topic files; a real index elsewhere still is, as
// is anything in a memory location (`.claude/…`) or named with --memory / `memory:`.
import { afterAll, describe, expect, test } from 'vitest';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { discoverMemory, hasMemoryFrontmatter, indexShape } from '../../src/memory/discover.js';
import { runPrune } from '../../src/commands/prune.js';
import { NOW, cleanup, config, makeRepo, tempDir } from '../prune/helpers.js';

afterAll(cleanup);

const DESIGN_DOC = `# Phase 4 — bounded working context and durable memory deposits

Version 0.5.0. Research and alternatives were reviewed before implementation;
see [research decision](MEMORY_DESIGN.md). No external memory service is required.

## Commands

\`\`\`sh
build/cogg-cli recall subject.db explorer 'workshop access code'
build/cogg-cli verify subject.db explorer
\`\`\`

Reproduce with the pinned model from \`.github/workflows/llama.yml\`:

\`\`\`sh
python3 tests/model_crash_test.py build/cogg-cli /path/model.gguf
\`\`\`
`;

const DOCS: Record<string, string> = {
  'docs/ARCHITECTURE.md': '# Architecture\n\nThe kernel admits proposals and commits them in one SQLite transaction.\n',
  'docs/MEMORY_DESIGN.md': '# Memory design decision\n\nWe chose FTS5.\nThe store lives in `src/store.cpp`.\n',
  'docs/BUILD.md': '# Building\n\nThe CLI entry point is `tools/cogg-cli.cpp`.\n',
};

const INDEX = '# Memory\n\n- [Store](store.md) — where deposits live\n- [CLI](cli.md) — the entry point\n';
const TOPIC = (name: string, body: string) => `---\nname: ${name}\ndescription: ${name} notes\ntype: project\n---\n\n${body}\n`;

const BASE: Record<string, string> = {
  'CMakeLists.txt': 'project(cogg)\n',
  'src/store.cpp': '// store\n',
  'tools/cogg-cli.cpp': '// cli\n',
  'CLAUDE.md': '# cogg\n\n- Design notes live in `docs/` (see `docs/MEMORY.md` for the memory subsystem).\n',
};

const shape = (files: Array<{ path: string; format: string; memoryDir?: string }>) => files.map((f) => [f.path, f.format, f.memoryDir]);

describe('a design document named MEMORY.md is not auto memory', () => {
  test('docs/MEMORY.md of prose and code: neither it nor the documents beside it are memory; why is kept, not reported', async () => {
    const repo = await makeRepo({ ...BASE, ...DOCS, 'docs/MEMORY.md': DESIGN_DOC, 'docs/guide/setup.md': '# Setup\n' });
    const r = await discoverMemory({ root: repo.dir });
    expect(shape(r.files)).toEqual([['CLAUDE.md', 'claude-md', undefined]]);
    expect(r.findings).toEqual([]);
    expect(r.notMemory).toEqual([
      {
        path: 'docs/MEMORY.md',
        reason:
          'docs/MEMORY.md reads as a document, not a memory index (0 of its 10 lines link to a Markdown file beside it) and the Markdown files beside it carry no memory frontmatter (name, description, type), and it is not in a memory location; its folder is not auto memory',
      },
    ]);
  });

  test('end to end: renamed paths in the documents are not corrected, nothing is written to docs/', async () => {
    const repo = await makeRepo({ ...BASE, ...DOCS, 'docs/MEMORY.md': DESIGN_DOC }, '2025-05-01');
    await repo.git.mv('src/store.cpp', 'src/deposit_store.cpp');
    await repo.commit('Move the store', '2025-12-01');
    const dry = await runPrune({ root: repo.dir, now: NOW, write: false });
    expect(dry.audit.files.map((f) => f.path)).toEqual(['CLAUDE.md']);
    expect(dry.audit.findings.filter((f) => f.kind === 'broken-link' || f.kind === 'path-renamed')).toEqual([]);
    expect(dry.changes).toEqual([]);
    const w = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(w.changes).toEqual([]);
    expect(existsSync(path.join(repo.dir, 'docs/pruning-log.md'))).toBe(false);
    expect(await repo.read('docs/MEMORY_DESIGN.md')).toBe(DOCS['docs/MEMORY_DESIGN.md']);
  });

  test('an example index inside a code fence does not make a document an index', async () => {
    const doc = '# Memory system\n\nThe index looks like this:\n\n```markdown\n- [Auth](auth.md) — tokens\n- [Db](db.md) — pool\n- [Ci](ci.md) — runners\n```\n\nIt is capped at 200 lines.\n';
    expect(indexShape(doc)).toEqual({ lines: 7, indexLines: 0 });
    const repo = await makeRepo({ 'docs/MEMORY.md': doc, 'docs/auth.md': '# Auth\n' });
    const r = await discoverMemory({ root: repo.dir });
    expect(r.files).toEqual([]);
    expect(r.notMemory.map((n) => n.path)).toEqual(['docs/MEMORY.md']);
  });

  test('a symlinked folder outside the repository holding a design MEMORY.md is not reported as unaudited memory', async () => {
    const outside = await tempDir();
    mkdirSync(path.join(outside, 'docs'));
    writeFileSync(path.join(outside, 'docs', 'MEMORY.md'), DESIGN_DOC);
    mkdirSync(path.join(outside, 'mem'));
    writeFileSync(path.join(outside, 'mem', 'MEMORY.md'), INDEX);
    const repo = await makeRepo({ 'CLAUDE.md': '- x\n' });
    symlinkSync(path.join(outside, 'docs'), path.join(repo.dir, 'shared-docs'));
    symlinkSync(path.join(outside, 'mem'), path.join(repo.dir, 'shared-mem'));
    const r = await discoverMemory({ root: repo.dir });
    expect(r.findings.map((f) => f.file)).toEqual(['shared-mem']);
  });

  test('a root MEMORY.md that is a document does not turn every Markdown file of the repository into a topic', async () => {
    const repo = await makeRepo({ 'MEMORY.md': '# Memory layout\n\nThe heap starts at 0x8000.\nStacks grow down.\n', 'README.md': '# x\n', 'AGENTS.md': '- Use make.\n' });
    const r = await discoverMemory({ root: repo.dir });
    expect(shape(r.files)).toEqual([['AGENTS.md', 'agents-md', undefined]]);
    expect(r.notMemory.map((n) => n.path)).toEqual(['MEMORY.md']);
  });
});

describe('real auto memory is still found', () => {
  test('an index elsewhere (headings, index lines, a short note) is an auto-memory folder with its topic files', async () => {
    const repo = await makeRepo({
      ...BASE,
      ...DOCS,
      'docs/MEMORY.md': DESIGN_DOC,
      'notes/agent/MEMORY.md': INDEX + '\nKeep this index short.\n',
      'notes/agent/store.md': 'The store lives in `src/store.cpp`.\n',
      'notes/agent/cli.md': 'The CLI is `tools/cogg-cli.cpp`.\n',
      'notes/agent/pruning-log.md': '# Pruning log\n',
    });
    const r = await discoverMemory({ root: repo.dir });
    expect(shape(r.files)).toEqual([
      ['CLAUDE.md', 'claude-md', undefined],
      ['notes/agent/MEMORY.md', 'auto-memory-index', 'notes/agent'],
      ['notes/agent/cli.md', 'auto-memory-topic', 'notes/agent'],
      ['notes/agent/store.md', 'auto-memory-topic', 'notes/agent'],
    ]);
    expect(r.notMemory.map((n) => n.path)).toEqual(['docs/MEMORY.md']);
  });

  test('end to end: a renamed path in a topic of a real index is corrected', async () => {
    const repo = await makeRepo({ ...BASE, 'memory/MEMORY.md': INDEX, 'memory/store.md': TOPIC('store', 'The store lives in `src/store.cpp`.'), 'memory/cli.md': TOPIC('cli', 'Build it first.') }, '2025-05-01');
    await repo.git.mv('src/store.cpp', 'src/deposit_store.cpp');
    await repo.commit('Move the store', '2025-12-01');
    const dry = await runPrune({ root: repo.dir, now: NOW, write: false });
    expect(dry.audit.findings.filter((f) => f.kind === 'path-renamed').map((f) => [f.file, f.line, f.ref])).toEqual([['memory/store.md', 7, 'src/store.cpp']]);
    expect(dry.changes.map((c) => c.file)).toContain('memory/store.md');
  });

  test('prose MEMORY.md whose neighbours carry Claude Code topic frontmatter is auto memory', async () => {
    const repo = await makeRepo({
      'kb/MEMORY.md': '# Project memory\n\nThe user prefers small PRs. Tests run with make test.\n',
      'kb/prs.md': TOPIC('prs', 'Small PRs.'),
      'kb/tests.md': TOPIC('tests', 'make test'),
      'kb/old.md': 'No frontmatter here.\n',
    });
    const r = await discoverMemory({ root: repo.dir });
    expect(shape(r.files)).toEqual([
      ['kb/MEMORY.md', 'auto-memory-index', 'kb'],
      ['kb/old.md', 'auto-memory-topic', 'kb'],
      ['kb/prs.md', 'auto-memory-topic', 'kb'],
      ['kb/tests.md', 'auto-memory-topic', 'kb'],
    ]);
    expect(r.notMemory).toEqual([]);
  });

  test('any MEMORY.md below .claude/ is memory, whatever it holds (.claude/memory, .claude/agent-memory/<agent>)', async () => {
    const repo = await makeRepo({
      '.claude/memory/MEMORY.md': DESIGN_DOC,
      '.claude/memory/notes.md': 'Plain notes.\n',
      '.claude/agent-memory/reviewer/MEMORY.md': 'Reviews take two passes.\n',
      'apps/web/.claude/memory/MEMORY.md': '',
      'apps/web/.claude/memory/t.md': 'x\n',
    });
    const r = await discoverMemory({ root: repo.dir });
    expect(shape(r.files)).toEqual([
      ['.claude/agent-memory/reviewer/MEMORY.md', 'auto-memory-index', '.claude/agent-memory/reviewer'],
      ['.claude/memory/MEMORY.md', 'auto-memory-index', '.claude/memory'],
      ['.claude/memory/notes.md', 'auto-memory-topic', '.claude/memory'],
      ['apps/web/.claude/memory/MEMORY.md', 'auto-memory-index', 'apps/web/.claude/memory'],
      ['apps/web/.claude/memory/t.md', 'auto-memory-topic', 'apps/web/.claude/memory'],
    ]);
    expect(r.notMemory).toEqual([]);
  });

  test('many memory folders, nested ones too: each index is judged once, topics go to the nearest real one', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      files[`mem/p${i}/MEMORY.md`] = `- [T](deep/t.md) — t${i}\n`;
      files[`mem/p${i}/deep/t.md`] = '- x\n';
    }
    files['mem/p3/deep/inner/MEMORY.md'] = '- [V](v.md) — v\n';
    files['mem/p3/deep/inner/v.md'] = '- v\n';
    files['mem/p5/deep/MEMORY.md'] = '# Allocator\n\nA design note, not an index.\n';
    files['mem/p5/deep/u.md'] = '- u\n';
    const repo = await makeRepo(files);
    const r = await discoverMemory({ root: repo.dir });
    const byPath = new Map(r.files.map((f) => [f.path, f]));
    expect(r.files.length).toBe(40 * 2 + 2 + 1);
    expect(byPath.get('mem/p3/deep/inner/v.md')?.memoryDir).toBe('mem/p3/deep/inner');
    expect(byPath.get('mem/p3/deep/t.md')?.memoryDir).toBe('mem/p3');
    // The design note's folder is not a memory folder of its own: its files stay topics of mem/p5.
    expect(byPath.get('mem/p5/deep/u.md')?.memoryDir).toBe('mem/p5');
    expect(byPath.has('mem/p5/deep/MEMORY.md')).toBe(false);
    expect(r.notMemory.map((n) => n.path)).toEqual(['mem/p5/deep/MEMORY.md']);
  });
});

describe('folders named explicitly', () => {
  test('a folder given with --memory (or `memory:`) is an auto-memory folder whatever its MEMORY.md holds', async () => {
    const repo = await makeRepo({ ...DOCS, 'docs/MEMORY.md': DESIGN_DOC, 'docs/sub/MEMORY.md': 'A design note.\n', 'docs/sub/x.md': '# x\n' });
    const r = await discoverMemory({ root: repo.dir, paths: ['docs'] });
    expect(shape(r.files)).toEqual([
      ['docs/ARCHITECTURE.md', 'auto-memory-topic', 'docs'],
      ['docs/BUILD.md', 'auto-memory-topic', 'docs'],
      ['docs/MEMORY.md', 'auto-memory-index', 'docs'],
      ['docs/MEMORY_DESIGN.md', 'auto-memory-topic', 'docs'],
      ['docs/sub/x.md', 'auto-memory-topic', 'docs'],
    ]);
    expect(r.notMemory.map((n) => n.path)).toEqual(['docs/sub/MEMORY.md']);
  });

  test('configured `memory:` folders go through the same path (audit)', async () => {
    const repo = await makeRepo({ ...BASE, ...DOCS, 'docs/MEMORY.md': DESIGN_DOC });
    const dry = await runPrune({ root: repo.dir, now: NOW, write: false, config: config({ memory: ['docs'] }) });
    expect(dry.audit.files.map((f) => [f.path, f.format])).toEqual([
      ['docs/ARCHITECTURE.md', 'auto-memory-topic'],
      ['docs/BUILD.md', 'auto-memory-topic'],
      ['docs/MEMORY.md', 'auto-memory-index'],
      ['docs/MEMORY_DESIGN.md', 'auto-memory-topic'],
    ]);
  });

  test('a file named alone beside a design doc is not a topic; a MEMORY.md named alone is an index', async () => {
    const repo = await makeRepo({ ...DOCS, 'docs/MEMORY.md': DESIGN_DOC });
    const a = await discoverMemory({ root: repo.dir, paths: ['docs/BUILD.md'] });
    expect(shape(a.files)).toEqual([['docs/BUILD.md', 'other', undefined]]);
    const g = await discoverMemory({ root: repo.dir, paths: ['docs/*.md'] });
    expect(shape(g.files)).toEqual([
      ['docs/ARCHITECTURE.md', 'other', undefined],
      ['docs/BUILD.md', 'other', undefined],
      ['docs/MEMORY.md', 'other', undefined],
      ['docs/MEMORY_DESIGN.md', 'other', undefined],
    ]);
    expect(g.notMemory.map((n) => n.path)).toEqual(['docs/MEMORY.md']);
    const m = await discoverMemory({ root: repo.dir, paths: ['docs/MEMORY.md'] });
    expect(shape(m.files)).toEqual([['docs/MEMORY.md', 'auto-memory-index', 'docs']]);
    expect(m.notMemory).toEqual([]);
  });

  test('a topic file named alone still knows its real memory folder', async () => {
    const repo = await makeRepo({ 'notes/MEMORY.md': INDEX, 'notes/store.md': 'x\n' });
    const r = await discoverMemory({ root: repo.dir, paths: ['notes/store.md'] });
    expect(shape(r.files)).toEqual([['notes/store.md', 'auto-memory-topic', 'notes']]);
  });
});

describe('reading a MEMORY.md', () => {
  test('index lines: list items or table rows linking to a .md file in the folder; continuation lines belong to their item', () => {
    expect(indexShape(INDEX)).toEqual({ lines: 2, indexLines: 2 });
    expect(indexShape('---\nname: x\n---\n# M\n\n<!-- PROTECTED -->\n- [A](a.md) — a\n  wrapped hook\n  - nested detail\n- [[b]]\n- [C](sub/c.md#part)\n')).toEqual({ lines: 3, indexLines: 3 });
    // Outside the folder, URLs and non-Markdown targets are not index lines.
    expect(indexShape('- [A](../a.md)\n- [B](https://x.dev/b.md)\n- [C](/c.md)\n- [D](d.txt)\n- plain\n')).toEqual({ lines: 5, indexLines: 0 });
    expect(indexShape('| Topic | Hook |\n| --- | --- |\n| [A](a.md) | a |\n')).toEqual({ lines: 2, indexLines: 1 });
    expect(indexShape('')).toEqual({ lines: 0, indexLines: 0 });
  });

  test('memory frontmatter: name, description and type, as Claude Code writes topic files', () => {
    expect(hasMemoryFrontmatter(TOPIC('a', 'b'))).toBe(true);
    expect(hasMemoryFrontmatter('---\nmetadata:\n  name: a\n  description: b\n  type: user\n---\nx\n')).toBe(true);
    expect(hasMemoryFrontmatter('---\ntitle: Setup\ndescription: how\n---\n')).toBe(false);
    expect(hasMemoryFrontmatter('---\nname: skill\ndescription: does x\n---\n')).toBe(false);
    expect(hasMemoryFrontmatter('# name: a\ndescription: b\ntype: c\n')).toBe(false);
  });
});
