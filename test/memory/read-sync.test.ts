// readMemoryFileSync (what loadMemory uses) gives the same results and findings as readMemoryFile.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMemoryFile, readMemoryFileSync } from '../../src/memory/read.js';

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

test('same text, sizes, BOM flag and findings as the promise version', async () => {
  for (const name of ['ok.md', 'empty.md', 'big.md', 'bin.md', 'latin.md', 'folder.md', 'dangling.md', 'missing.md']) {
    const abs = join(dir, name);
    expect(readMemoryFileSync(abs, name, 1024), name).toEqual(await readMemoryFile(abs, name, 1024));
  }
  expect(readMemoryFileSync(join(dir, 'ok.md'), 'ok.md', 1024)).toMatchObject({ text: '- item\r\n', bom: true, bytes: 11 });
});

test('a FIFO is reported, not waited on', () => {
  const abs = join(dir, 'fifo.md');
  const r = readMemoryFileSync(abs, 'fifo.md', 1024);
  if (r.finding) expect(r.finding.message).toBe('fifo.md: not a regular file; not read');
});
