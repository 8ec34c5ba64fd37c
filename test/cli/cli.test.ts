import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP, main, type CliIO } from '../../src/cli.js';
import { VERSION } from '../../src/version.js';
// @ts-expect-error plain ESM script without types
import { buildDemo } from '../../examples/build-demo.mjs';

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; tty?: boolean } = {}): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: { write: (s: string) => (stdout += s), isTTY: opts.tty },
    stderr: { write: (s: string) => (stderr += s) },
    env: opts.env ?? {},
    cwd: opts.cwd ?? process.cwd(),
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

let scratch: string;
let demo: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ma-cli-'));
  demo = buildDemo(join(scratch, 'demo')) as string;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('memory-audit CLI', () => {
  it('prints help and version', async () => {
    expect(await run(['--help'])).toEqual({ code: 0, stdout: HELP, stderr: '' });
    expect(await run(['-v'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('exits 2 with a clear message on usage errors', async () => {
    const bad = await run(['--format', 'yaml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('memory-audit: --format must be text, markdown or json (got yaml)\nRun memory-audit --help for usage.\n');
    expect((await run(['--bogus'])).code).toBe(2);
    expect((await run(['frobnicate'])).stderr).toContain('unknown command: frobnicate');
    expect((await run(['--repo', join(scratch, 'nope')])).stderr).toContain('--repo: no such directory');
    expect((await run(['--fail-on', 'sometimes'])).code).toBe(2);
    expect((await run(['--now', 'not-a-date', '--repo', demo])).stderr).toContain('--now: not a date: not-a-date');
  });

  it('prints a schema-1 JSON report on stdout and nothing else', async () => {
    const r = await run(['--repo', demo, '--format', 'json', '--now', '2026-11-29', '--fail-on', 'never']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.schemaVersion).toBe(1);
    expect(report.tool).toEqual({ name: 'memory-audit', version: VERSION });
    expect(report.repo.root).toBe(demo);
    expect(report.repo.head).toMatch(/^[0-9a-f]{40}$/);
    expect(report.files.map((f: { path: string }) => f.path)).toContain('CLAUDE.md');
    expect(report.files.map((f: { path: string }) => f.path)).toContain('.claude/memory/MEMORY.md');
    expect(report.entries.length).toBeGreaterThan(20);
    expect(report.summary.entries).toBe(report.entries.length);
    expect(report.summary.findings).toBe(report.findings.length);
    for (const f of report.findings) {
      expect(Object.keys(f)).toEqual(expect.arrayContaining(['entryId', 'file', 'line', 'kind', 'severity', 'message']));
    }
    // The staging password never leaves the process.
    expect(r.stdout).not.toContain('Xk29vQpL7tRw4mZs');
  });

  it('exit code follows --fail-on', async () => {
    const never = await run(['--repo', demo, '--format', 'json', '--fail-on', 'never']);
    const report = JSON.parse(never.stdout);
    expect(never.code).toBe(0);
    const hasWarning = report.findings.some((f: { severity: string }) => f.severity !== 'info');
    expect((await run(['--repo', demo, '--format', 'json', '--fail-on', 'info'])).code).toBe(report.findings.length > 0 ? 1 : 0);
    expect((await run(['--repo', demo, '--format', 'json', '--fail-on', 'warning'])).code).toBe(hasWarning ? 1 : 0);
  });

  it('text output has colour only on a TTY and honours NO_COLOR', async () => {
    const plain = await run(['--repo', demo, '--fail-on', 'never']);
    expect(plain.stdout).not.toContain('\u001b[');
    expect(plain.stdout).toContain('CLAUDE.md');
    const tty = await run(['--repo', demo, '--fail-on', 'never'], { tty: true });
    expect(tty.stdout).toContain('\u001b[');
    const noColor = await run(['--repo', demo, '--fail-on', 'never'], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain('\u001b[');
  });

  it('markdown output and --output write the same report', async () => {
    const out = join(scratch, 'report.md');
    const r = await run(['--repo', demo, '--format', 'markdown', '--output', out, '--fail-on', 'never']);
    expect(r.stdout.startsWith('## Memory audit\n')).toBe(true);
    expect(readFileSync(out, 'utf8')).toBe(r.stdout);
  });

  it('defaults --repo to the repository holding the current directory', async () => {
    const a = await run(['--format', 'json', '--fail-on', 'never'], { cwd: join(demo, 'src', 'billing') });
    expect(JSON.parse(a.stdout).repo.root).toBe(demo);
  });

  it('works on a folder that is not a git repository', async () => {
    const plain = join(scratch, 'plain');
    rmSync(plain, { recursive: true, force: true });
    (await import('node:fs')).mkdirSync(plain);
    writeFileSync(join(plain, 'AGENTS.md'), '# Agents\n\n- Run `make test` before pushing.\n');
    const r = await run(['--repo', plain, '--format', 'json', '--fail-on', 'never']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.repo.head).toBeNull();
    expect(report.files).toEqual([expect.objectContaining({ path: 'AGENTS.md', format: 'agents-md' })]);
  });
});
