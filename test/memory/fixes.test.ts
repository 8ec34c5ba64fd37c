// Regression tests: symlinked memory outside the repository, a leading horizontal rule taken
// for frontmatter, and pathologically deep nesting.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { discoverMemory } from '../../src/memory/discover.js';
import { parseMemoryText } from '../../src/memory/parse.js';
import { loadMemory } from '../../src/memory/load.js';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';

describe('symlinks leading outside the repository during auto-detection', () => {
  let tmp: string;
  let root: string;
  let elsewhere: string;
  const put = (abs: string, content = '- x\n') => {
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  };
  beforeAll(() => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ma-links-')));
    root = join(tmp, 'repo');
    elsewhere = join(tmp, 'elsewhere');
    put(join(root, 'CLAUDE.md'));
    put(join(elsewhere, 'memory', 'MEMORY.md'), '- [A](a.md) — a\n');
    put(join(elsewhere, 'memory', 'a.md'), '---\nname: a\n---\n\nA fact.\n');
    put(join(elsewhere, 'rules', 'x.md'), '- rule\n'); // no memory name, but linked from .claude/
    put(join(elsewhere, 'pkg', 'AGENTS.md'));
    put(join(elsewhere, 'assets', 'logo.txt'), 'x');
    put(join(elsewhere, 'GEMINI.md'));
    put(join(root, 'inside', 'MEMORY.md'), '- [B](b.md) — b\n');
    put(join(root, 'inside', 'b.md'), 'B.\n');
    symlinkSync(join(elsewhere, 'memory'), join(root, '.claude-memory-link')); // holds MEMORY.md
    mkdirSync(join(root, '.claude'), { recursive: true });
    symlinkSync(join(elsewhere, 'memory'), join(root, '.claude', 'memory')); // the usual setup
    symlinkSync(join(elsewhere, 'rules'), join(root, '.claude', 'rules')); // a memory location
    symlinkSync(join(elsewhere, 'pkg'), join(root, 'vendor-pkg')); // holds AGENTS.md
    symlinkSync(join(elsewhere, 'assets'), join(root, 'assets')); // not memory: no finding
    symlinkSync(join(root, 'inside'), join(root, 'inside-link')); // inside the repository: as before
    symlinkSync(join(elsewhere, 'GEMINI.md'), join(root, 'GEMINI.md')); // a memory file
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test('each would-be-memory link is a malformed finding naming it and how to audit it; others are quiet', async () => {
    const { files, findings } = await discoverMemory({ root });
    expect(files.map((f) => f.path)).toEqual(['CLAUDE.md', 'inside/MEMORY.md', 'inside/b.md']);
    expect(findings.map((f) => [f.file, f.kind, f.severity])).toEqual([
      ['.claude-memory-link', 'malformed', 'error'],
      ['.claude/memory', 'malformed', 'error'],
      ['.claude/rules', 'malformed', 'error'],
      ['GEMINI.md', 'malformed', 'error'],
      ['vendor-pkg', 'malformed', 'error'],
    ]);
    const mem = join(elsewhere, 'memory');
    expect(findings[1].message).toBe(
      `.claude/memory: symbolic link to a folder outside the repository (${mem}); not followed, its memory is not audited (to audit it, pass --memory ${mem})`,
    );
    expect(findings[1].evidence).toEqual({ target: mem, audit: `--memory ${mem}` });
    expect(findings[3].message).toBe(`GEMINI.md: symbolic link leads outside the repository (to ${join(elsewhere, 'GEMINI.md')}); not read`);
    expect(findings[3].evidence).toMatchObject({ audit: `--memory ${join(elsewhere, 'GEMINI.md')}` });
  });

  test('the suggested --memory audits the target', async () => {
    const { files, findings } = await discoverMemory({ root, paths: [join(elsewhere, 'memory')] });
    expect(findings).toEqual([]);
    expect(files.map((f) => [f.format, f.path.endsWith('/memory/MEMORY.md') || f.path.endsWith('/memory/a.md')])).toEqual([
      ['auto-memory-index', true],
      ['auto-memory-topic', true],
    ]);
  });

  test('config ignore globs silence a link', async () => {
    const { findings } = await discoverMemory({ root, ignore: ['.claude/**', '.claude-memory-link', 'vendor-pkg', 'GEMINI.md'] });
    expect(findings).toEqual([]);
  });

  test('loadMemory reports the link and goes on', async () => {
    const r = await loadMemory({ root, config: DEFAULT_CONFIG });
    expect(r.findings.filter((f) => f.file === '.claude/memory').map((f) => f.kind)).toEqual(['malformed']);
    expect(r.files.map((f) => f.path)).toEqual(['CLAUDE.md', 'inside/MEMORY.md', 'inside/b.md']);
  });
});

describe('a leading horizontal rule is not an unclosed frontmatter fence', () => {
  test('no warning when ordinary Markdown follows `---`', () => {
    for (const t of [
      '---\n\n# Project\n\n- Run `pnpm test` before pushing.\n',
      '---\n# Project\n\n- item\n',
      '---\n- item one\n- item two\n',
      '---\r\n\r\nSome intro paragraph.\r\n',
      '---\n',
      '+++\n\n# Notes\n',
    ]) {
      const r = parseMemoryText('CLAUDE.md', t, 'claude-md');
      expect(r.findings, JSON.stringify(t)).toEqual([]);
      expect(r.entries.length, JSON.stringify(t)).toBeGreaterThanOrEqual(t.includes('item') || t.includes('Run') || t.includes('intro') ? 1 : 0);
    }
  });

  test('still warns when YAML keys follow an opening fence that is never closed', () => {
    for (const t of ['---\nname: x\n\nbody\n', '---\n\ndescription: rules\nglobs: src/**\n\n- body\n', '---\r\ntype: project\r\n']) {
      const r = parseMemoryText('CLAUDE.md', t, 'claude-md');
      expect(r.findings.map((f) => [f.line, f.severity, f.message]), JSON.stringify(t)).toEqual([
        [1, 'warning', 'CLAUDE.md:1: frontmatter fence is never closed; the file is read as plain Markdown'],
      ]);
    }
    expect(parseMemoryText('x.md', '+++\ntitle = "x"\n', 'other').findings).toHaveLength(1);
  });
});

describe('pathologically deep nesting', () => {
  const cases: Record<string, string> = {
    '2,000 nested > on one line': '>'.repeat(2000) + ' deep\n',
    '2,000 nested lists on one line': '- '.repeat(2000) + 'x\n',
    '2,000 nested blockquote lines': Array.from({ length: 2000 }, (_, i) => '>'.repeat(i + 1) + ' x').join('\n') + '\n',
    '2,000 nested list items, indented': Array.from({ length: 2000 }, (_, i) => '  '.repeat(i) + '- x').join('\n') + '\n',
  };
  for (const [name, deep] of Object.entries(cases)) {
    test(`${name}: parsed in well under a second, reported, the rest of the file intact`, () => {
      const t = '# Notes\n\n- first item\n\n' + deep + '\n- last item\n';
      const t0 = performance.now();
      const r = parseMemoryText('CLAUDE.md', t, 'claude-md');
      const ms = performance.now() - t0;
      expect(ms).toBeLessThan(1000);
      expect(r.findings).toHaveLength(1);
      expect(r.findings[0]).toMatchObject({ kind: 'malformed', severity: 'warning', file: 'CLAUDE.md' });
      expect(r.findings[0].message).toMatch(/^CLAUDE\.md:\d+: nesting 2000 levels deep is too deep to parse; lines 5-\d+ are kept as one entry, not parsed as Markdown$/);
      expect(r.entries.map((e) => e.text)).toEqual(['- first item', deep.trimEnd(), '- last item']);
      expect(r.entries[1]).toMatchObject({ kind: 'paragraph', line: 5, start: t.indexOf(deep) });
    });
  }

  test('many moderately deep blocks in one file are bounded too', () => {
    const stair = Array.from({ length: 120 }, (_, i) => '  '.repeat(i) + '- x').join('\n') + '\n';
    const t = Array.from({ length: 20 }, () => stair).join('\n');
    const t0 = performance.now();
    const r = parseMemoryText('CLAUDE.md', t, 'claude-md', { skipTokens: true });
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(r.entries).toHaveLength(20);
    expect(r.findings).toHaveLength(20);
  });

  test('ordinary nesting is parsed as before', () => {
    const t = '- a\n  - b\n    - c\n      > q\n';
    const r = parseMemoryText('CLAUDE.md', t, 'claude-md');
    expect(r.findings).toEqual([]);
    expect(r.entries.map((e) => [e.kind, e.text])).toEqual([['item', t.trimEnd()]]);
  });
});
