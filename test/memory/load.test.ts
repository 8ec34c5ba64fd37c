import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/types.js';
import { decodeMemoryBytes, firstInvalidUtf8, readMemoryFileSync } from '../../src/memory/read.js';
import { loadMemory } from '../../src/memory/load.js';

let tmp: string;
let root: string;

function put(rel: string, content: string | Buffer): void {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'ma-load-'));
  root = join(tmp, 'repo');
  mkdirSync(root);
  writeFileSync(join(tmp, 'outside.md'), 'outside\n');
  put('CLAUDE.md', '# Project\n\n- Use `pnpm`\n- Tests live in `test/`\n');
  put('AGENTS.md', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# Agents\r\n\r\n- one\r\n- two\r\n')]));
  put('.claude/memory/MEMORY.md', '# Memory\n\n- [Testing](testing.md) — how we test\n- [Broken](broken.md) — bad yaml\n');
  put('.claude/memory/testing.md', '---\nname: testing\ndescription: how we test\ntype: reference\n---\nSee vitest docs.\n');
  put('.claude/memory/broken.md', '---\nname: broken\ntype: [feedback\n---\nStill read.\n');
  put('.claude/memory/binary.md', Buffer.from('line one\nline two\n\0\x01\x02'));
  put('.claude/memory/latin1.md', Buffer.concat([Buffer.from('ok\nok\ncaf'), Buffer.from([0xe9]), Buffer.from('\n')]));
  put('.claude/memory/huge.md', 'x'.repeat(2048));
  mkdirSync(join(root, 'packages/a/GEMINI.md'), { recursive: true }); // a folder where a file is expected
  symlinkSync(join(tmp, 'outside.md'), join(root, 'packages/CLAUDE.md'));
  symlinkSync('missing-target.md', join(root, 'packages/AGENTS.md'));
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const config = (over: Partial<Config> = {}): Config => ({ ...DEFAULT_CONFIG, maxFileBytes: 1024, ...over });

describe('loadMemory', () => {
  test('reads everything it can; every bad input is one malformed finding naming the file and line', async () => {
    const loaded = await loadMemory({ root, config: config() });
    expect(loaded.files.map((f) => [f.path, f.format, f.bytes, f.lines])).toEqual([
      ['.claude/memory/MEMORY.md', 'auto-memory-index', 85, 4],
      ['.claude/memory/broken.md', 'auto-memory-topic', 49, 5],
      ['.claude/memory/testing.md', 'auto-memory-topic', 80, 6],
      ['AGENTS.md', 'agents-md', 29, 4],
      ['CLAUDE.md', 'claude-md', 48, 4],
    ]);
    const f = loaded.findings.map((x) => [x.file, x.line, x.kind, x.severity, x.message]);
    expect(f).toEqual([
      ['.claude/memory/binary.md', 3, 'malformed', 'error', '.claude/memory/binary.md:3: binary content (NUL byte at offset 18); not read as memory'],
      ['.claude/memory/broken.md', 3, 'malformed', 'error', expect.stringMatching(/^\.claude\/memory\/broken\.md:3: invalid YAML frontmatter/)],
      ['.claude/memory/huge.md', 1, 'malformed', 'error', '.claude/memory/huge.md: 2048 bytes is over the 1024-byte limit (maxFileBytes); skipped'],
      ['.claude/memory/latin1.md', 3, 'malformed', 'error', '.claude/memory/latin1.md:3: not valid UTF-8 (first bad byte at offset 9); not read as memory'],
      ['packages/AGENTS.md', 1, 'malformed', 'error', 'packages/AGENTS.md: cannot be read (dangling symbolic link)'],
      ['packages/CLAUDE.md', 1, 'malformed', 'error', `packages/CLAUDE.md: symbolic link leads outside the repository (to ${join(tmp, 'outside.md')}); not read`],
    ]);
    // the broken topic is still an entry (parsed as Markdown)
    const broken = loaded.entries.find((e) => e.file === '.claude/memory/broken.md')!;
    expect([broken.kind, broken.type]).toEqual(['topic', 'unknown']);
    expect(Object.keys(loaded.timings).sort()).toEqual(['discover', 'parse', 'read', 'refs']);
  });

  test('BOM is stripped from text but counted in bytes; CRLF entries are exact', async () => {
    const loaded = await loadMemory({ root, config: config() });
    const agents = loaded.files.find((f) => f.path === 'AGENTS.md')!;
    expect([agents.bom, agents.eol, agents.text.charCodeAt(0)]).toEqual([true, '\r\n', '#'.charCodeAt(0)]);
    const es = loaded.entries.filter((e) => e.file === 'AGENTS.md');
    expect(es.map((e) => [e.line, e.text, agents.text.slice(e.start, e.end)])).toEqual([
      [3, '- one', '- one'],
      [4, '- two', '- two'],
    ]);
  });

  test('index lines take the type of the topic file they link to; refs is set on every entry', async () => {
    const loaded = await loadMemory({ root, config: config() });
    const idx = loaded.entries.filter((e) => e.kind === 'index-line');
    expect(idx.map((e) => [e.meta.target, e.type, e.typeSource])).toEqual([
      ['testing.md', 'reference', 'frontmatter'],
      ['broken.md', 'unknown', 'default'],
    ]);
    for (const e of loaded.entries) expect(Array.isArray(e.refs)).toBe(true);
    expect(loaded.files.every((f) => f.tokens > 0)).toBe(true);
  });

  test('explicit paths override detection; config.memory is used when paths is absent', async () => {
    const a = await loadMemory({ root, config: config(), paths: ['CLAUDE.md'] });
    expect(a.files.map((f) => f.path)).toEqual(['CLAUDE.md']);
    const b = await loadMemory({ root, config: config({ memory: ['AGENTS.md', 'gone.md'] }) });
    expect(b.files.map((f) => f.path)).toEqual(['AGENTS.md']);
    expect(b.findings.map((f) => f.message)).toEqual(['memory path not found: gone.md']);
  });

  test('a folder named where a file is expected is a finding', async () => {
    const r = await loadMemory({ root, config: config(), paths: ['packages/a/GEMINI.md'] });
    // a folder named explicitly is scanned (it holds nothing known): no files, no crash
    expect(r.files).toEqual([]);
    const direct = readMemoryFileSync(join(root, 'packages/a/GEMINI.md'), 'packages/a/GEMINI.md', 1024);
    expect(direct.finding?.message).toBe('packages/a/GEMINI.md: is a directory, not a memory file');
  });

  test('invalid config.protect regexes are reported, not thrown', async () => {
    const r = await loadMemory({ root, config: config({ protect: ['(unclosed'] }), paths: ['CLAUDE.md'] });
    expect(r.findings.map((f) => [f.kind, f.severity])).toEqual([['malformed', 'error']]);
    expect(r.findings[0].message).toMatch(/^config protect: invalid regular expression "\(unclosed"/);
  });
});

describe('decoding', () => {
  test('first invalid UTF-8 byte', () => {
    expect(firstInvalidUtf8(Buffer.from('héllo ✓ 🙂'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0x80]))).toBe(1); // overlong
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xed, 0xa0, 0x80]))).toBe(1); // surrogate
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xe2, 0x82]))).toBe(2); // truncated
  });

  test('BOM only text decodes to empty with bom flag', () => {
    expect(decodeMemoryBytes(Buffer.from([0xef, 0xbb, 0xbf]), 'x.md')).toEqual({ text: '', bytes: 3, bom: true });
  });
});
