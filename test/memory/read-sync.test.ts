// readMemoryFileSync (what loadMemory uses): text, sizes, BOM flag and the exact finding for each kind of bad file.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMemoryFileSync } from '../../src/memory/read.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ma-read-'));
  writeFileSync(join(dir, 'ok.md'), '\ufeff- item\r\n');
  writeFileSync(join(dir, 'empty.md'), '');
  writeFileSync(join(dir, 'big.md'), 'x'.repeat(2000));
  writeFileSync(join(dir, 'bin.md'), Buffer.from([0x61, 0x0a, 0x00]));
  writeFileSync(join(dir, 'latin.md'), Buffer.from('caf\xe9\n', 'latin1'));
  mkdirSync(join(dir, 'folder.md'));
  symlinkSync(join(dir, 'nowhere.md'), join(dir, 'dangling.md'));
  try {
    execFileSync('mkfifo', [join(dir, 'fifo.md')]);
  } catch {
    // no mkfifo: that case is skipped
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bad = (file: string, line: number, message: string, evidence?: Record<string, unknown>) => ({
  entryId: null,
  file,
  line,
  kind: 'malformed',
  severity: 'error',
  message,
  ...(evidence ? { evidence } : {}),
});

test('text, sizes, BOM flag and the finding for each kind of file', () => {
  const read = (name: string) => readMemoryFileSync(join(dir, name), name, 1024);
  expect(read('ok.md')).toEqual({ text: '- item\r\n', bytes: 11, bom: true });
  expect(read('empty.md')).toEqual({ text: '', bytes: 0, bom: false });
  expect(read('big.md')).toEqual({
    bytes: 2000,
    bom: false,
    finding: bad('big.md', 1, 'big.md: 2000 bytes is over the 1024-byte limit (maxFileBytes); skipped', { bytes: 2000, limit: 1024 }),
  });
  expect(read('bin.md')).toEqual({ bytes: 3, bom: false, finding: bad('bin.md', 2, 'bin.md:2: binary content (NUL byte at offset 2); not read as memory', { offset: 2 }) });
  expect(read('latin.md')).toEqual({
    bytes: 5,
    bom: false,
    finding: bad('latin.md', 1, 'latin.md:1: not valid UTF-8 (first bad byte at offset 3); not read as memory', { offset: 3 }),
  });
  expect(read('folder.md')).toEqual({ bytes: 0, bom: false, finding: bad('folder.md', 1, 'folder.md: is a directory, not a memory file') });
  expect(read('dangling.md')).toEqual({ bytes: 0, bom: false, finding: bad('dangling.md', 1, 'dangling.md: cannot be read (dangling symbolic link)', { code: 'ENOENT' }) });
  expect(read('missing.md')).toEqual({ bytes: 0, bom: false, finding: bad('missing.md', 1, 'missing.md: cannot be read (no such file)', { code: 'ENOENT' }) });
});

test('a FIFO is reported, not waited on', () => {
  const abs = join(dir, 'fifo.md');
  const r = readMemoryFileSync(abs, 'fifo.md', 1024);
  if (r.finding) expect(r.finding.message).toBe('fifo.md: not a regular file; not read');
});
