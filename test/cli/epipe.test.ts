// `memory-audit … | head`: the reader goes away after the first chunk. The CLI (the bundle, in a
// child process) stops quietly with status 0, as git and grep do: no stack trace, no
// "Unhandled 'error' event". The report is far bigger than a pipe buffer, so writes do fail.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { cleanup, makeRepo, type Repo } from '../prune/helpers.js';

interface Closed {
  code: number | null;
  signal: NodeJS.Signals | null;
  firstChunk: string;
  stderr: string;
}

/** Runs the CLI with stdout on a pipe whose reader closes after the first chunk. */
function runClosingAfterFirstChunk(args: string[], cwd: string): Promise<Closed> {
  const script = path.join(inject('bundleDir'), 'cli.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let firstChunk = '';
    let stderr = '';
    child.stdout.once('data', (chunk: Buffer) => {
      firstChunk = chunk.toString('utf8');
      child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, firstChunk, stderr }));
  });
}

let repo: Repo;

beforeAll(async () => {
  const notes = Array.from({ length: 2000 }, (_, i) => `- Step ${i + 1} uses \`src/gone${i + 1}.ts\`.\n`).join('');
  repo = await makeRepo({ 'package.json': '{"name":"x"}\n', 'src/main.ts': 'export {}\n', 'big-notes.md': notes });
});
afterAll(cleanup);

describe('a closed stdout (EPIPE)', () => {
  test.each([
    ['json', '{\n  "schemaVersion": 1,'],
    ['text', 'memory-audit '],
  ])('--format %s: exit 0, nothing on stderr', async (format, starts) => {
    const res = await runClosingAfterFirstChunk(
      ['--repo', repo.dir, '--memory', 'big-notes.md', '--now', '2026-06-01', '--format', format, '--fail-on', 'never'],
      repo.dir,
    );
    expect(res.firstChunk.startsWith(starts)).toBe(true);
    expect(res.firstChunk.length).toBeGreaterThan(0);
    expect(res).toMatchObject({ code: 0, signal: null, stderr: '' });
  });

  test('the exit status is 0 even when findings would fail the run: the reader asked for no more', async () => {
    const res = await runClosingAfterFirstChunk(['--repo', repo.dir, '--memory', 'big-notes.md', '--now', '2026-06-01', '--format', 'json', '--fail-on', 'info'], repo.dir);
    expect(res).toMatchObject({ code: 0, signal: null, stderr: '' });
  });
});
