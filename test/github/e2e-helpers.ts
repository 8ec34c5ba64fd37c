// Helpers for the end-to-end tests (e2e-*.test.ts). End to end: the bundled Action (scripts/build.mjs -> index.js) runs as a child process with
// the runner's INPUT_* / GITHUB_* environment, against a local bare repository as `origin`
// and a local GitHub REST API (./fake-github.ts) on 127.0.0.1.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, inject, type TestContext } from 'vitest';
import { FakeGitHub } from './fake-github.js';
import { git, makeRepo, type Fixture } from './git-fixture.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** The Action bundle (index.js), built once per run by test/global-setup.ts with the project's build script. */
export function buildBundle(): { dir: string; bundle: string } {
  const dir = inject('bundleDir');
  return { dir, bundle: join(dir, 'index.js') };
}

export const TOKEN = 'ghs_e2eTOKEN0123456789';
export const NOW_EPOCH = String(Date.parse('2026-01-10T12:00:00Z') / 1000);

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** The JSON report the `report-json` output points at. */
  report: any;
}

export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^([^\n<]+)<<(ghadelimiter_[^\n]+)\n([\s\S]*?)\n\2$/gm;
  for (const m of text.matchAll(re)) out[m[1]] = m[3];
  return out;
}

export async function runAction(opts: {
  bundle: string;
  workspace: string;
  inputs: Record<string, string>;
  eventName: string;
  payload: unknown;
  apiUrl: string;
  /** The run's clock (SOURCE_DATE_EPOCH, seconds); default NOW_EPOCH. */
  epoch?: string;
}): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ma-run-'));
  const files = { event: join(dir, 'event.json'), output: join(dir, 'output'), summary: join(dir, 'summary.md') };
  writeFileSync(files.event, JSON.stringify(opts.payload));
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    SOURCE_DATE_EPOCH: opts.epoch ?? NOW_EPOCH,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: opts.eventName,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_API_URL: opts.apiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_WORKSPACE: opts.workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_RUN_ID: '777',
    RUNNER_TEMP: dir,
    'INPUT_TOKEN': TOKEN,
  };
  for (const [k, v] of Object.entries(opts.inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  const t0 = Date.now();
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((res) => {
    execFile(process.execPath, [opts.bundle], { cwd: opts.workspace, env, encoding: 'utf8', timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as unknown as { code: number }).code : 1) : 0;
      res({ code, stdout, stderr });
    });
  });
  if (process.env.MA_TIME) console.log(`action run ${Date.now() - t0}ms`);
  const outputs = parseOutputs(readFileSync(files.output, 'utf8'));
  const reportPath = outputs['report-path'];
  const report = reportPath && existsSync(reportPath) ? JSON.parse(readFileSync(reportPath, 'utf8')) : null;
  // The `report-json` output carries the same report inline (compact) when it fits the output budget.
  if (report && outputs['report-json']) expect(JSON.parse(outputs['report-json'])).toEqual(report);
  const result = { ...r, outputs, summary: readFileSync(files.summary, 'utf8'), report };
  rmSync(dir, { recursive: true, force: true });
  return result;
}

/** A fresh checkout as actions/checkout leaves it: same origin, clean tree at origin/main. */
export function freshCheckout(f: Fixture): void {
  git(f.work, ['fetch', '-q', 'origin']);
  git(f.work, ['checkout', '-q', '-f', 'main']);
  git(f.work, ['reset', '-q', '--hard', 'origin/main']);
  git(f.work, ['clean', '-q', '-fdx']);
}

export const MEMORY = [
  '# Project memory',
  '',
  '## Structure',
  '',
  '- Authentication lives in `src/auth.ts`.',
  '- Run tests with `npm test`.',
  '- Currently working on issue #42, halfway through the refactor.',
  '',
  '## Conventions',
  '',
  '- Indent with two spaces everywhere.',
  '',
].join('\n');

export const FILES = {
  'CLAUDE.md': MEMORY,
  'package.json': '{\n  "name": "widgets",\n  "scripts": {\n    "test": "vitest",\n    "build": "tsc"\n  }\n}\n',
  'src/auth.ts': 'export function login() {\n  return 1;\n}\n',
};

export const PR_CALLS = (c: string) => !/\/issues\/\d+$/.test(c.split('?')[0]); // drop the audit's own issue-status look-ups


// Tests run concurrently (they wait on child processes): each owns its repository and server,
// removed or stopped when the test finishes.

/** A fixture repository (see git-fixture.ts) removed when the test `t` finishes. */
export function repoFor(t: TestContext, files: Record<string, string>): Fixture {
  const f = makeRepo(files);
  t.onTestFinished(() => f.cleanup());
  return f;
}

/** A started fake GitHub API, stopped when the test `t` finishes. */
export async function serverFor(t: TestContext, opts: ConstructorParameters<typeof FakeGitHub>[0]): Promise<FakeGitHub> {
  const g = new FakeGitHub(opts);
  await g.start();
  t.onTestFinished(() => g.stop());
  return g;
}
