// End to end, comment and report modes: the bundled Action as a child process with the runner's INPUT_* / GITHUB_*
// environment, a local bare `origin` and a local GitHub API (see e2e-helpers.ts).
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, type Fixture } from './git-fixture.js';
import { buildBundle, FILES, freshCheckout, MEMORY, PR_CALLS, runAction as run0, TOKEN , repoFor, serverFor } from './e2e-helpers.js';

let built = { dir: '', bundle: '' };
beforeAll(() => {
  built = buildBundle();
}, 60_000);
const runAction = (o: Omit<Parameters<typeof run0>[0], 'bundle'>) => run0({ ...o, bundle: built.bundle });

type T = TestContext;
const repo = repoFor;
const server = serverFor;

describe.concurrent('comment mode (pull_request)', () => {
  function prFixture(t: T): { fx: Fixture; base: string; head: string } {
    const fx = repo(t, FILES);
    const base = git(fx.work, ['rev-parse', 'HEAD']).trim();
    git(fx.work, ['checkout', '-q', '-b', 'feature']);
    git(fx.work, ['mv', 'src/auth.ts', 'src/session.ts']);
    fx.write('CLAUDE.md', MEMORY.replace('- Indent with', '- I think the rate limit is 100/min, currently debugging it.\n- Indent with'));
    const head = fx.commit('rename auth', '2026-01-07T00:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'feature']);
    return { fx, base, head };
  }
  const payload = (base: string, head: string, headRepo = 'acme/widgets', fork = false) => ({
    pull_request: {
      number: 5,
      base: { sha: base, ref: 'main', repo: { full_name: 'acme/widgets' } },
      head: { sha: head, ref: 'feature', repo: { full_name: headRepo, fork } },
    },
    repository: { full_name: 'acme/widgets', default_branch: 'main' },
  });

  it('posts one comment about what the PR makes stale, leaves it alone when unchanged, edits it when clean', async (t) => {
    const { fx, base, head } = prFixture(t);
    const gh = await server(t, { token: TOKEN });
    const run = (h: string) => runAction({ workspace: fx.work, inputs: {}, eventName: 'pull_request', payload: payload(base, h), apiUrl: gh.url });

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
    expect(git(fx.origin, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim().split('\n')).toEqual(['refs/heads/feature', 'refs/heads/main']);

    const r2 = await run(head);
    expect(r2.code).toBe(r1.code);
    expect(gh.writes().length).toBe(1);

    // The author fixes the memory in the PR: the comment is edited to say so.
    fx.write('CLAUDE.md', MEMORY.replace('`src/auth.ts`', '`src/session.ts`'));
    const head2 = fx.commit('fix memory', '2026-01-08T00:00:00Z');
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

  it('works from a shallow checkout: fetches the base and explains fetch-depth', async (t) => {
    const { fx, base, head } = prFixture(t);
    const shallow = join(fx.dir, 'shallow');
    git(fx.dir, ['clone', '-q', '--depth=1', '--branch', 'feature', `file://${fx.origin}`, shallow]);
    const gh = await server(t, { token: TOKEN });
    const r = await runAction({ workspace: shallow, inputs: {}, eventName: 'pull_request', payload: payload(base, head), apiUrl: gh.url });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('::notice title=memory-audit::Shallow checkout: renames, deletions and recency come from git history');
    expect(r.stdout).toContain('fetch-depth: 0');
    const body = gh.comments[0].body;
    expect(body).toContain('This PR renames `src/auth.ts` to `src/session.ts`; 1 memory entry points at it:');
    expect(body).toContain('> The checkout is shallow, so the pull request was compared with its base tree directly');
  });

  it('on a pull request from a fork: no API writes, a notice, the PR-scoped annotations, the summary, fail-on on what the PR changes', async (t) => {
    const { fx, base, head } = prFixture(t);
    const gh = await server(t, { token: TOKEN, forbidComments: true });
    const r = await runAction({ workspace: fx.work, inputs: { 'fail-on': 'warning' }, eventName: 'pull_request', payload: payload(base, head, 'mallory/widgets', true), apiUrl: gh.url });
    expect(r.outputs.mode).toBe('report');
    expect(gh.calls().filter(PR_CALLS)).toEqual([]);
    expect(gh.writes()).toEqual([]);
    expect(r.stdout).toContain('::notice title=memory-audit::This pull request comes from a fork, so the workflow token is read-only');
    expect(r.summary).toContain('# memory-audit (report)');
    // The comment's analysis, not posted: what the PR adds is annotated (line 11) and counted for
    // fail-on; staleness already on the base branch (line 7) is not the PR's.
    expect(r.stdout).toMatch(/^::warning title=memory-audit%3A ephemeral,file=CLAUDE.md,line=11::/m);
    expect(r.stdout).not.toMatch(/line=7::/);
    expect(r.stdout).toMatch(/::error::memory-audit: \d+ findings? at or above "warning" in what this pull request changes \(input fail-on\)\./);
    expect(r.code).toBe(1);
    expect(r.report.schemaVersion).toBe(1);
    expect(r.report.findings.some((f: { kind: string; line: number }) => f.kind === 'ephemeral' && f.line === 7)).toBe(true);
  });

  it('degrades to report when commenting answers 403', async (t) => {
    const { fx, base, head } = prFixture(t);
    const gh = await server(t, { token: TOKEN, forbidComments: true });
    const r = await runAction({ workspace: fx.work, inputs: { 'fail-on': 'never' }, eventName: 'pull_request', payload: payload(base, head), apiUrl: gh.url });
    expect(r.code).toBe(0);
    expect(r.outputs.mode).toBe('report');
    expect(r.stdout).toContain('Commenting on #5 failed with 403 (Resource not accessible by integration).');
    expect(r.summary).toContain('This PR renames `src/auth.ts` to `src/session.ts`');
  });
});
