// End to end, pr mode: the bundled Action as a child process with the runner's INPUT_* / GITHUB_*
// environment, a local bare `origin` and a local GitHub API (see e2e-helpers.ts).
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from './git-fixture.js';
import { buildBundle, FILES, freshCheckout, MEMORY, NOW_EPOCH, PR_CALLS, runAction as run0, TOKEN , repoFor, serverFor } from './e2e-helpers.js';

let built = { dir: '', bundle: '' };
beforeAll(() => {
  built = buildBundle();
}, 60_000);
const runAction = (o: Omit<Parameters<typeof run0>[0], 'bundle'>) => run0({ ...o, bundle: built.bundle });

type T = TestContext;
const repo = repoFor;
const server = serverFor;

describe.concurrent('pr mode (schedule / workflow_dispatch)', () => {
  it('creates one pull request, changes nothing on two re-runs, updates on new drift, closes when clean', async (t) => {
    const fx = repo(t, FILES);
    const gh = await server(t, { token: TOKEN });
    const run = () => runAction({ workspace: fx.work, inputs: { mode: 'pr', labels: 'memory-audit, chore' }, eventName: 'schedule', payload: { repository: { full_name: 'acme/widgets', default_branch: 'main' } }, apiUrl: gh.url });
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

    // A week later, after an unrelated commit on main, in a shallow single-commit checkout (as
    // actions/checkout makes): the same edits, so nothing is pushed although today's date and the
    // base differ (the branch's log keeps the date of the run that wrote it), and nothing written.
    freshCheckout(fx);
    fx.write('src/util.ts', 'export const one = 1;\n');
    fx.commit('unrelated change', '2026-01-12T00:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'main']);
    const shallow = join(fx.dir, 'shallow');
    git(fx.dir, ['clone', '-q', '--depth=1', '-b', 'main', `file://${fx.origin}`, shallow]);
    expect(git(shallow, ['rev-parse', '--is-shallow-repository']).trim()).toBe('true');
    const beforeWeek = gh.requests.length;
    const week = await runAction({
      workspace: shallow,
      inputs: { mode: 'pr', labels: 'memory-audit, chore' },
      eventName: 'schedule',
      payload: { repository: { full_name: 'acme/widgets', default_branch: 'main' } },
      apiUrl: gh.url,
      epoch: String(Number(NOW_EPOCH) + 7 * 86_400),
    });
    expect(week.stderr).toBe('');
    expect(week.code).toBe(0);
    expect(week.outputs['pull-request-operation']).toBe('none');
    expect(gh.requests.slice(beforeWeek).filter((q) => q.method !== 'GET')).toEqual([]);
    expect(git(fx.origin, ['rev-parse', 'refs/heads/memory-audit/prune']).trim()).toBe(branchSha);
    expect(week.summary).toContain('already holds these edits; nothing pushed');

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

  it('dry-run computes everything and writes nothing remote', async (t) => {
    const fx = repo(t, FILES);
    const gh = await server(t, { token: TOKEN });
    const r = await runAction({ workspace: fx.work, inputs: { mode: 'pr', 'dry-run': 'true' }, eventName: 'workflow_dispatch', payload: {}, apiUrl: gh.url });
    expect(r.code).toBe(0);
    expect(r.outputs['pull-request-operation']).toBe('none');
    expect(gh.writes()).toEqual([]);
    expect(git(fx.origin, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim()).toBe('refs/heads/main');
    expect(r.summary).toContain('Dry run: ');
    expect(r.summary).toContain('memory-audit would create a pull request from `memory-audit/prune` into `main`');
  });

  it('names the repository setting and the permissions block on a 403, and fails the step', async (t) => {
    const fx = repo(t, FILES);
    const gh = await server(t, { token: TOKEN, forbidPullCreate: true });
    const r = await runAction({ workspace: fx.work, inputs: { mode: 'pr' }, eventName: 'schedule', payload: {}, apiUrl: gh.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '::error::Creating the pull request failed with 403 (GitHub Actions is not permitted to create or approve pull requests.). The token cannot create or update pull requests. Grant the job `permissions: { contents: write, pull-requests: write }` and, for the GITHUB_TOKEN, enable the repository setting "Allow GitHub Actions to create and approve pull requests"',
    );
    // The summary and outputs are still written.
    expect(r.summary).toContain('❌ Creating the pull request failed with 403');
    expect(r.outputs['pull-request-operation']).toBe('none');
    expect(Number(r.outputs['findings-count'])).toBeGreaterThanOrEqual(1);
  });

  it('degrades to report with a notice when the token cannot push', async (t) => {
    const fx = repo(t, FILES);
    const hook = join(fx.origin, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\necho "Permission to acme/widgets.git denied to github-actions[bot]." >&2\nexit 1\n', { mode: 0o755 });
    const gh = await server(t, { token: TOKEN });
    const r = await runAction({ workspace: fx.work, inputs: { mode: 'pr', 'fail-on': 'never' }, eventName: 'schedule', payload: {}, apiUrl: gh.url });
    expect(r.code).toBe(0);
    expect(r.outputs.mode).toBe('report');
    expect(r.outputs['pull-request-operation']).toBe('none');
    expect(r.stdout).toMatch(/::notice title=memory-audit::The token cannot push to the repository \(.*Permission to acme\/widgets.git denied/);
    expect(gh.writes()).toEqual([]);
  });

  it('keeps the body under 65,536 characters and moves the rest to the job summary', async (t) => {
    const many = Array.from({ length: 150 }, (_, i) => `- Currently working on task ${i}: ${'half-done refactor of the session cache '.repeat(12)}`);
    const fx = repo(t, { ...FILES, 'CLAUDE.md': `# Memory\n\n${many.join('\n')}\n` });
    const gh = await server(t, { token: TOKEN });
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
    expect(warnings).toBeGreaterThanOrEqual(150);
    expect(r.stdout).toContain(`::notice title=memory-audit%3A more findings::${warnings - 10} warnings not shown as annotations (GitHub shows at most 10 per level per step); see the job summary for all findings.`);
  });
});
