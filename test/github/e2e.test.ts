// End to end: the bundled Action (scripts/build.mjs -> index.js) runs as a child process with
// the runner's INPUT_* / GITHUB_* environment, against a local bare repository as `origin`
// and a local GitHub REST API (./fake-github.ts) on 127.0.0.1.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FakeGitHub } from './fake-github.js';
import { git, makeRepo, type Fixture } from './git-fixture.js';

const ROOT = resolve(import.meta.dirname, '../..');
let bundleDir = '';
let bundle = '';

beforeAll(() => {
  bundleDir = mkdtempSync(join(tmpdir(), 'ma-bundle-'));
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), bundleDir], { cwd: ROOT, stdio: 'pipe' });
  bundle = join(bundleDir, 'index.js');
}, 60_000);
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

let fx: Fixture | null = null;
let gh: FakeGitHub | null = null;
afterEach(async () => {
  fx?.cleanup();
  fx = null;
  await gh?.stop();
  gh = null;
});

const TOKEN = 'ghs_e2eTOKEN0123456789';
const NOW_EPOCH = String(Date.parse('2026-01-10T12:00:00Z') / 1000);

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** The JSON report the `report-json` output points at. */
  report: any;
}

function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^([^\n<]+)<<(ghadelimiter_[^\n]+)\n([\s\S]*?)\n\2$/gm;
  for (const m of text.matchAll(re)) out[m[1]] = m[3];
  return out;
}

async function runAction(opts: {
  workspace: string;
  inputs: Record<string, string>;
  eventName: string;
  payload: unknown;
  apiUrl: string;
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
    SOURCE_DATE_EPOCH: NOW_EPOCH,
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
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((res) => {
    execFile(process.execPath, [bundle], { cwd: opts.workspace, env, encoding: 'utf8', timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as unknown as { code: number }).code : 1) : 0;
      res({ code, stdout, stderr });
    });
  });
  const outputs = parseOutputs(readFileSync(files.output, 'utf8'));
  const reportPath = outputs['report-json'];
  const report = reportPath && existsSync(reportPath) ? JSON.parse(readFileSync(reportPath, 'utf8')) : null;
  const result = { ...r, outputs, summary: readFileSync(files.summary, 'utf8'), report };
  rmSync(dir, { recursive: true, force: true });
  return result;
}

/** A fresh checkout as actions/checkout leaves it: same origin, clean tree at origin/main. */
function freshCheckout(f: Fixture): void {
  git(f.work, ['fetch', '-q', 'origin']);
  git(f.work, ['checkout', '-q', '-f', 'main']);
  git(f.work, ['reset', '-q', '--hard', 'origin/main']);
  git(f.work, ['clean', '-q', '-fdx']);
}

const MEMORY = [
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

const FILES = {
  'CLAUDE.md': MEMORY,
  'package.json': '{\n  "name": "widgets",\n  "scripts": {\n    "test": "vitest",\n    "build": "tsc"\n  }\n}\n',
  'src/auth.ts': 'export function login() {\n  return 1;\n}\n',
};

const PR_CALLS = (c: string) => !/\/issues\/\d+$/.test(c.split('?')[0]); // drop the audit's own issue-status look-ups

describe('pr mode (schedule / workflow_dispatch)', () => {
  it('creates one pull request, changes nothing on two re-runs, updates on new drift, closes when clean', async () => {
    fx = makeRepo(FILES);
    gh = new FakeGitHub({ token: TOKEN });
    await gh.start();
    const run = () => runAction({ workspace: fx!.work, inputs: { mode: 'pr', labels: 'memory-audit, chore' }, eventName: 'schedule', payload: { repository: { full_name: 'acme/widgets', default_branch: 'main' } }, apiUrl: gh!.url });
    const mainSha = git(fx.work, ['rev-parse', 'HEAD']).trim();

    const r1 = await run();
    expect(r1.stderr).toBe('');
    expect(r1.code).toBe(0);
    expect(r1.outputs['pull-request-operation']).toBe('created');
    expect(r1.outputs['pull-request-number']).toBe('1');
    expect(r1.outputs['pull-request-url']).toBe('https://github.com/acme/widgets/pull/1');
    expect(r1.outputs.mode).toBe('pr');
    expect(Number(r1.outputs['findings-count'])).toBeGreaterThanOrEqual(1);
    expect(r1.report.schemaVersion).toBe(1);
    expect(r1.report.findings.length).toBe(Number(r1.outputs['findings-count']));
    expect(gh.calls().filter(PR_CALLS)).toEqual([
      'GET /repos/acme/widgets/pulls?state=open&head=acme%3Amemory-audit%2Fprune&per_page=100',
      'POST /repos/acme/widgets/pulls',
      'POST /repos/acme/widgets/issues/1/labels',
    ]);
    const create = gh.requests.find((r) => r.method === 'POST' && r.path.endsWith('/pulls'))!;
    expect(create.body.head).toBe('memory-audit/prune');
    expect(create.body.base).toBe('main');
    expect(create.body.title).toBe('memory-audit: prune stale agent memory');
    expect(create.body.body).toContain('<!-- memory-audit:pr -->');
    expect(create.body.body).toContain('| 1 | `CLAUDE.md` | 7 | 1 | delete |');
    expect(create.body.body).toContain('```mermaid\npie showData title Entry health');
    expect(create.body.body.length).toBeLessThanOrEqual(65_536);
    expect(gh.pulls[0].labels).toEqual(['memory-audit', 'chore']);
    // The branch: one bot commit on top of main with the edited memory and the log.
    const branchSha = git(fx.origin, ['rev-parse', 'refs/heads/memory-audit/prune']).trim();
    expect(git(fx.origin, ['log', '-1', '--format=%P|%an|%s', branchSha]).trim()).toBe(`${mainSha}|github-actions[bot]|memory-audit: prune stale agent memory`);
    const claude = git(fx.origin, ['show', `${branchSha}:CLAUDE.md`]);
    expect(claude).not.toContain('Currently working on issue #42');
    expect(claude).toContain('- Indent with two spaces everywhere.');
    const changed = git(fx.origin, ['diff', '--name-only', mainSha, branchSha]).trim().split('\n');
    expect(changed).toContain('CLAUDE.md');
    expect(changed.some((p) => p.endsWith('pruning-log.md'))).toBe(true);
    // The token never reaches the logs.
    expect(r1.stdout.split('\n').filter((l) => l.includes(TOKEN))).toEqual([`::add-mask::${TOKEN}`]);

    // Re-runs with the same input (fresh checkouts): nothing pushed, nothing written.
    for (const _ of [2, 3]) {
      freshCheckout(fx);
      const before = gh.requests.length;
      const r = await run();
      expect(r.code).toBe(0);
      expect(r.outputs['pull-request-operation']).toBe('none');
      expect(r.outputs['pull-request-number']).toBe('1');
      expect(gh.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
      expect(git(fx.origin, ['rev-parse', 'refs/heads/memory-audit/prune']).trim()).toBe(branchSha);
      expect(r.summary).toContain('already holds these edits; nothing pushed');
    }

    // New drift on main: the branch is force-pushed (with lease) and the body PATCHed.
    freshCheckout(fx);
    fx.write('CLAUDE.md', MEMORY.replace('- Indent with', '- Right now I am debugging the login flow.\n- Indent with'));
    fx.commit('more memory', '2026-01-08T00:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'main']);
    const before4 = gh.requests.length;
    const r4 = await run();
    expect(r4.code).toBe(0);
    expect(r4.outputs['pull-request-operation']).toBe('updated');
    const writes4 = gh.requests.slice(before4).filter((q) => q.method !== 'GET');
    expect(writes4.map((q) => `${q.method} ${q.path}`)).toEqual(['PATCH /repos/acme/widgets/pulls/1']);
    expect(Object.keys(writes4[0].body)).toEqual(['body']);
    expect(git(fx.origin, ['rev-parse', 'refs/heads/memory-audit/prune']).trim()).not.toBe(branchSha);

    // Memory cleaned on main by hand: the pull request is closed and its branch deleted.
    freshCheckout(fx);
    fx.write('CLAUDE.md', MEMORY.replace('- Currently working on issue #42, halfway through the refactor.\n', ''));
    fx.commit('clean memory', '2026-01-09T00:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'main']);
    const before5 = gh.requests.length;
    const r5 = await run();
    expect(r5.code).toBe(0);
    expect(r5.outputs['pull-request-operation']).toBe('closed');
    expect(gh.requests.slice(before5).filter((q) => q.method !== 'GET').map((q) => [q.method, q.path, q.body])).toEqual([
      ['PATCH', '/repos/acme/widgets/pulls/1', { state: 'closed' }],
    ]);
    expect(git(fx.origin, ['branch', '--list', 'memory-audit/prune']).trim()).toBe('');
  });

  it('dry-run computes everything and writes nothing remote', async () => {
    fx = makeRepo(FILES);
    gh = new FakeGitHub({ token: TOKEN });
    await gh.start();
    const r = await runAction({ workspace: fx.work, inputs: { mode: 'pr', 'dry-run': 'true' }, eventName: 'workflow_dispatch', payload: {}, apiUrl: gh.url });
    expect(r.code).toBe(0);
    expect(r.outputs['pull-request-operation']).toBe('none');
    expect(gh.writes()).toEqual([]);
    expect(git(fx.origin, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim()).toBe('refs/heads/main');
    expect(r.summary).toContain('Dry run: ');
    expect(r.summary).toContain('memory-audit would create a pull request from `memory-audit/prune` into `main`');
  });

  it('names the repository setting and the permissions block on a 403, and fails the step', async () => {
    fx = makeRepo(FILES);
    gh = new FakeGitHub({ token: TOKEN, forbidPullCreate: true });
    await gh.start();
    const r = await runAction({ workspace: fx.work, inputs: { mode: 'pr' }, eventName: 'schedule', payload: {}, apiUrl: gh.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '::error::Creating the pull request failed with 403 (GitHub Actions is not permitted to create or approve pull requests.). The token cannot create or update pull requests. Grant the job `permissions: { contents: write, pull-requests: write }` and, for the GITHUB_TOKEN, enable the repository setting "Allow GitHub Actions to create and approve pull requests"',
    );
  });

  it('degrades to report with a notice when the token cannot push', async () => {
    fx = makeRepo(FILES);
    const hook = join(fx.origin, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\necho "Permission to acme/widgets.git denied to github-actions[bot]." >&2\nexit 1\n', { mode: 0o755 });
    gh = new FakeGitHub({ token: TOKEN });
    await gh.start();
    const r = await runAction({ workspace: fx.work, inputs: { mode: 'pr', 'fail-on': 'never' }, eventName: 'schedule', payload: {}, apiUrl: gh.url });
    expect(r.code).toBe(0);
    expect(r.outputs.mode).toBe('report');
    expect(r.outputs['pull-request-operation']).toBe('none');
    expect(r.stdout).toMatch(/::notice title=memory-audit::The token cannot push to the repository \(.*Permission to acme\/widgets.git denied/);
    expect(gh.writes()).toEqual([]);
  });

  it('keeps the body under 65,536 characters and moves the rest to the job summary', async () => {
    const many = Array.from({ length: 600 }, (_, i) => `- Currently working on task ${i}: ${'half-done refactor of the session cache '.repeat(4)}`);
    fx = makeRepo({ ...FILES, 'CLAUDE.md': `# Memory\n\n${many.join('\n')}\n` });
    gh = new FakeGitHub({ token: TOKEN });
    await gh.start();
    const r = await runAction({ workspace: fx.work, inputs: { mode: 'pr', annotations: 'true' }, eventName: 'schedule', payload: {}, apiUrl: gh.url });
    expect(r.code).toBe(0);
    const body: string = gh.requests.find((q) => q.method === 'POST' && q.path.endsWith('/pulls'))!.body.body;
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).toContain("This description was shortened to stay under GitHub's 65,536-character limit");
    expect(r.summary).toContain('## memory-audit: pull request details that did not fit');
    expect(r.summary).toContain('half-done refactor of the session cache');
    // Annotations: 10 warnings and one overflow notice.
    expect(r.stdout.match(/^::warning /gm)?.length).toBe(10);
    const warnings = r.report.findings.filter((f: { severity: string }) => f.severity === 'warning').length;
    expect(warnings).toBeGreaterThanOrEqual(600);
    expect(r.stdout).toContain(`::notice title=memory-audit%3A more findings::${warnings - 10} warnings not shown as annotations (GitHub shows at most 10 per level per step); see the job summary for all findings.`);
  });
});

describe('comment mode (pull_request)', () => {
  function prFixture(): { base: string; head: string } {
    fx = makeRepo(FILES);
    const base = git(fx.work, ['rev-parse', 'HEAD']).trim();
    git(fx.work, ['checkout', '-q', '-b', 'feature']);
    git(fx.work, ['mv', 'src/auth.ts', 'src/session.ts']);
    fx.write('CLAUDE.md', MEMORY.replace('- Indent with', '- I think the rate limit is 100/min, currently debugging it.\n- Indent with'));
    const head = fx.commit('rename auth', '2026-01-07T00:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'feature']);
    return { base, head };
  }
  const payload = (base: string, head: string, headRepo = 'acme/widgets', fork = false) => ({
    pull_request: {
      number: 5,
      base: { sha: base, ref: 'main', repo: { full_name: 'acme/widgets' } },
      head: { sha: head, ref: 'feature', repo: { full_name: headRepo, fork } },
    },
    repository: { full_name: 'acme/widgets', default_branch: 'main' },
  });

  it('posts one comment about what the PR makes stale, leaves it alone when unchanged, edits it when clean', async () => {
    const { base, head } = prFixture();
    gh = new FakeGitHub({ token: TOKEN });
    await gh.start();
    const run = (h: string) => runAction({ workspace: fx!.work, inputs: {}, eventName: 'pull_request', payload: payload(base, h), apiUrl: gh!.url });

    const r1 = await run(head);
    expect(r1.stderr).toBe('');
    expect(r1.outputs.mode).toBe('comment');
    expect(gh.calls().filter(PR_CALLS)).toEqual(['GET /repos/acme/widgets/issues/5/comments?per_page=100', 'POST /repos/acme/widgets/issues/5/comments']);
    expect(gh.comments.length).toBe(1);
    const body = gh.comments[0].body;
    expect(body.startsWith('<!-- memory-audit:comment -->\n### memory-audit: agent memory this pull request makes stale\n')).toBe(true);
    expect(body).toContain('This PR renames `src/auth.ts` to `src/session.ts`; 1 memory entry points at it:');
    expect(body).toContain('| `CLAUDE.md:5` | `src/auth.ts` |');
    expect(body).toContain('#### Memory text this PR adds');
    expect(body).toMatch(/\| 🟠 \| `CLAUDE\.md:11` \| ephemeral \| Session task state/);
    expect(body).toContain('| `CLAUDE.md:5` | `src/auth.ts` | `src/auth.ts` was renamed to `src/session.ts` in ');
    expect(body).toContain(`checked at ${head.slice(0, 7)}`);
    expect(r1.outputs['comment-id']).toBe('1000');
    // Never pushes.
    expect(git(fx!.origin, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim().split('\n')).toEqual(['refs/heads/feature', 'refs/heads/main']);

    const r2 = await run(head);
    expect(r2.code).toBe(r1.code);
    expect(gh.writes().length).toBe(1);

    // The author fixes the memory in the PR: the comment is edited to say so.
    fx!.write('CLAUDE.md', MEMORY.replace('`src/auth.ts`', '`src/session.ts`'));
    const head2 = fx!.commit('fix memory', '2026-01-08T00:00:00Z');
    const r3 = await run(head2);
    expect(r3.code).toBe(0);
    expect(gh.writes().map((q) => `${q.method} ${q.path}`)).toEqual([
      'POST /repos/acme/widgets/issues/5/comments',
      'PATCH /repos/acme/widgets/issues/comments/1000',
    ]);
    expect(gh.comments[0].body).toBe(
      `<!-- memory-audit:comment -->\n### memory-audit\n\n✅ Nothing in this pull request makes agent memory stale.\n\n<sub>memory-audit 0.3.0 · checked at ${head2.slice(0, 7)} · this comment is updated on every push.</sub>\n`,
    );
  });

  it('works from a shallow checkout: fetches the base and explains fetch-depth', async () => {
    const { base, head } = prFixture();
    const shallow = join(fx!.dir, 'shallow');
    git(fx!.dir, ['clone', '-q', '--depth=1', '--branch', 'feature', `file://${fx!.origin}`, shallow]);
    gh = new FakeGitHub({ token: TOKEN });
    await gh.start();
    const r = await runAction({ workspace: shallow, inputs: {}, eventName: 'pull_request', payload: payload(base, head), apiUrl: gh.url });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('::notice title=memory-audit::Shallow checkout: renames, deletions and recency come from git history');
    expect(r.stdout).toContain('fetch-depth: 0');
    const body = gh.comments[0].body;
    expect(body).toContain('This PR renames `src/auth.ts` to `src/session.ts`; 1 memory entry points at it:');
    expect(body).toContain('> The checkout is shallow, so the pull request was compared with its base tree directly');
  });

  it('degrades to report on a pull request from a fork: no API writes, a notice, the summary', async () => {
    const { base, head } = prFixture();
    gh = new FakeGitHub({ token: TOKEN, forbidComments: true });
    await gh.start();
    const r = await runAction({ workspace: fx!.work, inputs: { 'fail-on': 'never' }, eventName: 'pull_request', payload: payload(base, head, 'mallory/widgets', true), apiUrl: gh.url });
    expect(r.code).toBe(0);
    expect(r.outputs.mode).toBe('report');
    expect(gh.calls().filter(PR_CALLS)).toEqual([]);
    expect(r.stdout).toContain('::notice title=memory-audit::This pull request comes from a fork, so the workflow token is read-only');
    expect(r.summary).toContain('# memory-audit (report)');
  });

  it('degrades to report when commenting answers 403', async () => {
    const { base, head } = prFixture();
    gh = new FakeGitHub({ token: TOKEN, forbidComments: true });
    await gh.start();
    const r = await runAction({ workspace: fx!.work, inputs: { 'fail-on': 'never' }, eventName: 'pull_request', payload: payload(base, head), apiUrl: gh.url });
    expect(r.code).toBe(0);
    expect(r.outputs.mode).toBe('report');
    expect(r.stdout).toContain('Commenting on #5 failed with 403 (Resource not accessible by integration).');
    expect(r.summary).toContain('This PR renames `src/auth.ts` to `src/session.ts`');
  });
});

describe('report mode', () => {
  it('annotates, writes the summary and the JSON report, fails per fail-on', async () => {
    fx = makeRepo(FILES);
    gh = new FakeGitHub({ token: TOKEN });
    await gh.start();
    const r = await runAction({ workspace: fx.work, inputs: { mode: 'report', 'fail-on': 'warning' }, eventName: 'push', payload: {}, apiUrl: gh.url });
    expect(r.code).toBe(1);
    expect(r.outputs.mode).toBe('report');
    expect(r.stdout).toMatch(/^::warning title=memory-audit%3A ephemeral,file=CLAUDE.md,line=7::/m);
    expect(r.stdout).toMatch(/::error::memory-audit: \d+ findings? at or above "warning" \(input fail-on\)\./);
    expect(r.summary).toContain('# memory-audit (report)');
    expect(gh.writes()).toEqual([]);
    expect(r.report.findings.some((f: { kind: string; line: number }) => f.kind === 'ephemeral' && f.line === 7)).toBe(true);
  });
});
