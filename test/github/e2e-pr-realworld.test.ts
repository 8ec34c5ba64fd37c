// End to end, pr mode on what real repositories do to the prune branch: the weekly re-run of an
// in-place correction, a reviewer's commit on the branch, a shallow checkout, `mode: pr` on a
// pull_request event, a branch ruleset refusing the push. The bundled Action runs as a child
// process against a local bare `origin` and the fake GitHub API (see e2e-helpers.ts).
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Git } from '../../src/github/git.js';
import { FakeGitHub } from './fake-github.js';
import { git, makeRepo, type Fixture } from './git-fixture.js';
import { serveGitHttp, type SeenRequest } from './git-http-server.js';
import { buildBundle, FILES, freshCheckout, MEMORY, NOW_EPOCH, PR_CALLS, runAction as run0, TOKEN , serverFor } from './e2e-helpers.js';

let built = { dir: '', bundle: '' };
beforeAll(() => {
  built = buildBundle();
}, 60_000);
const runAction = (o: Omit<Parameters<typeof run0>[0], 'bundle'>) => run0({ ...o, bundle: built.bundle });

type T = TestContext;
const server = (t: T): Promise<FakeGitHub> => serverFor(t, { token: TOKEN });

const BRANCH = 'refs/heads/memory-audit/prune';
const WEEK = String(Number(NOW_EPOCH) + 7 * 86_400); // 2026-01-17
const SCHEDULE = { repository: { full_name: 'acme/widgets', default_branch: 'main' } };

/** FILES with `src/auth.ts` renamed to `src/session.ts` on main: the memory line about it is
 *  corrected in place (`[corrected <date>]`), and the session-state line deleted. */
function renamedRepo(t: T): Fixture {
  const fx = makeRepo(FILES);
  t.onTestFinished(() => fx.cleanup());
  git(fx.work, ['mv', 'src/auth.ts', 'src/session.ts']);
  fx.commit('rename auth to session', '2026-01-06T10:00:00Z');
  git(fx.work, ['push', '-q', 'origin', 'main']);
  return fx;
}

const schedule = (fx: Fixture, gh: FakeGitHub, epoch = NOW_EPOCH, workspace = fx.work) =>
  runAction({ workspace, inputs: { mode: 'pr' }, eventName: 'schedule', payload: SCHEDULE, apiUrl: gh.url, epoch });

const branchSha = (fx: Fixture): string => git(fx.origin, ['rev-parse', BRANCH]).trim();
const newWrites = (gh: FakeGitHub, from: number) => gh.requests.slice(from).filter((q) => q.method !== 'GET');

describe.concurrent('pr mode on real-world branch histories', () => {
  it('a weekly re-run whose only difference is the [corrected] date keeps the branch and the description', async (t) => {
    const fx = renamedRepo(t);
    const gh = await server(t);
    const r1 = await schedule(fx, gh);
    expect(r1.stderr).toBe('');
    expect(r1.outputs['pull-request-operation']).toBe('created');
    const sha = branchSha(fx);
    const claude = git(fx.origin, ['show', `${sha}:CLAUDE.md`]);
    expect(claude).toContain('- Authentication lives in `src/session.ts`. [corrected 2026-01-10]\n');
    expect(claude).not.toContain('Currently working on issue #42');
    const body = gh.pulls[0].body;
    expect(body).toContain('- Authentication lives in `src/session.ts`. [corrected 2026-01-10]\n');
    expect(body).toContain('## 2026-01-10 audit\n');

    // A week later, after an unrelated commit on main: the same edits from the same base content.
    freshCheckout(fx);
    fx.write('src/util.ts', 'export const one = 1;\n');
    fx.commit('unrelated change', '2026-01-12T00:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'main']);
    const before = gh.requests.length;
    const r2 = await schedule(fx, gh, WEEK);
    expect(r2.stderr).toBe('');
    expect(r2.code).toBe(0);
    expect(r2.outputs['pull-request-operation']).toBe('none');
    expect(r2.outputs['pull-request-number']).toBe('1');
    expect(gh.calls().slice(before).filter(PR_CALLS)).toEqual(['GET /repos/acme/widgets/pulls?state=open&head=acme%3Amemory-audit%2Fprune&per_page=100']);
    expect(branchSha(fx)).toBe(sha);
    expect(gh.pulls[0].body).toBe(body);
    expect(r2.summary).toContain('- Branch `memory-audit/prune` already holds these edits; nothing pushed.\n- Pull request #1 is already up to date.\n');

    // A different correction (another rename of the same file) is a real change: pushed and PATCHed.
    freshCheckout(fx);
    git(fx.work, ['mv', 'src/session.ts', 'src/signin.ts']);
    fx.commit('rename session to signin', '2026-01-13T00:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'main']);
    const before3 = gh.requests.length;
    const r3 = await schedule(fx, gh, WEEK);
    expect(r3.outputs['pull-request-operation']).toBe('updated');
    expect(newWrites(gh, before3).map((q) => `${q.method} ${q.path} ${Object.keys(q.body)}`)).toEqual(['PATCH /repos/acme/widgets/pulls/1 body']);
    expect(git(fx.origin, ['show', `${BRANCH}:CLAUDE.md`])).toContain('- Authentication lives in `src/signin.ts`. [corrected 2026-01-17]\n');
    expect(gh.pulls[0].body).toContain('## 2026-01-17 audit\n');
  });

  it('never force-pushes over or deletes a branch that carries a reviewer commit', async (t) => {
    const fx = renamedRepo(t);
    const gh = await server(t);
    expect((await schedule(fx, gh)).outputs['pull-request-operation']).toBe('created');
    const bot = branchSha(fx);

    // A reviewer rewords the corrected line on top of the bot's commit.
    const rev = join(fx.dir, 'reviewer');
    git(fx.dir, ['clone', '-q', '-b', 'memory-audit/prune', `file://${fx.origin}`, rev]);
    const edited = git(rev, ['show', 'HEAD:CLAUDE.md']).replace(
      '- Authentication lives in `src/session.ts`. [corrected 2026-01-10]',
      '- Authentication (sessions and tokens) lives in `src/session.ts`.',
    );
    writeFileSync(join(rev, 'CLAUDE.md'), edited);
    git(rev, ['commit', '-q', '-am', 'review: reword the auth line']);
    git(rev, ['push', '-q', 'origin', 'memory-audit/prune']);
    const reviewed = git(rev, ['rev-parse', 'HEAD']).trim();

    const warning =
      '::warning title=memory-audit::Human commits are on branch `memory-audit/prune` (its tip is not memory-audit\'s one commit on the base branch), ' +
      'so it and pull request #1 were left as they are. Merge or close the pull request, or delete the branch, to let the next run rebuild it.';
    freshCheckout(fx);
    const before = gh.requests.length;
    const r2 = await schedule(fx, gh, WEEK);
    expect(r2.code).toBe(0);
    expect(r2.outputs['pull-request-operation']).toBe('none');
    expect(r2.outputs['pull-request-number']).toBe('1');
    expect(r2.stdout.split('\n')).toContain(warning);
    expect(newWrites(gh, before)).toEqual([]);
    expect(branchSha(fx)).toBe(reviewed);
    expect(git(fx.origin, ['rev-parse', `${BRANCH}~1`]).trim()).toBe(bot);

    // Memory fixed on main by hand: nothing left to prune, but the reviewed branch and its pull
    // request stay (closing would be fine, deleting the branch would lose the reviewer's commit).
    freshCheckout(fx);
    fx.write('CLAUDE.md', MEMORY.replace('src/auth.ts', 'src/session.ts').replace('- Currently working on issue #42, halfway through the refactor.\n', ''));
    fx.commit('memory: fix by hand', '2026-01-14T00:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'main']);
    const before3 = gh.requests.length;
    const r3 = await schedule(fx, gh, WEEK);
    expect(r3.outputs['pull-request-operation']).toBe('none');
    expect(r3.stdout.split('\n')).toContain(warning);
    expect(newWrites(gh, before3)).toEqual([]);
    expect(gh.pulls[0].state).toBe('open');
    expect(branchSha(fx)).toBe(reviewed);
  });

  it('treats an amended bot commit (a person as committer) as a human commit', async (t) => {
    const fx = renamedRepo(t);
    const gh = await server(t);
    expect((await schedule(fx, gh)).outputs['pull-request-operation']).toBe('created');
    const rev = join(fx.dir, 'reviewer');
    git(fx.dir, ['clone', '-q', '-b', 'memory-audit/prune', `file://${fx.origin}`, rev]);
    writeFileSync(join(rev, 'NOTES.md'), 'kept by review\n');
    git(rev, ['add', 'NOTES.md']);
    git(rev, ['commit', '-q', '--amend', '--no-edit']);
    // Still one commit on main, authored by the bot, with the bot's message: only the committer changed.
    expect(git(rev, ['log', '-1', '--format=%an|%cn|%s']).trim()).toBe('github-actions[bot]|Dev|memory-audit: prune stale agent memory');
    git(rev, ['push', '-q', '-f', 'origin', 'memory-audit/prune']);
    const amended = git(rev, ['rev-parse', 'HEAD']).trim();
    freshCheckout(fx);
    const before = gh.requests.length;
    const r = await schedule(fx, gh);
    expect(r.outputs['pull-request-operation']).toBe('none');
    expect(r.stdout).toContain('::warning title=memory-audit::Human commits are on branch `memory-audit/prune`');
    expect(newWrites(gh, before)).toEqual([]);
    expect(branchSha(fx)).toBe(amended);
  });

  it('a shallow pr run fetches the full history first, and keeps the pull request', async (t) => {
    const fx = renamedRepo(t);
    const gh = await server(t);
    expect((await schedule(fx, gh)).outputs['pull-request-operation']).toBe('created');
    const sha = branchSha(fx);
    const shallow = join(fx.dir, 'shallow');
    git(fx.dir, ['clone', '-q', '--depth=1', '-b', 'main', `file://${fx.origin}`, shallow]);
    const before = gh.requests.length;
    const r = await schedule(fx, gh, NOW_EPOCH, shallow);
    expect(r.stderr).toBe('');
    expect(r.outputs['pull-request-operation']).toBe('none');
    expect(r.stdout.split('\n')).toContain('memory-audit: the checkout was shallow; fetched its full history.');
    expect(r.stdout).not.toContain('Shallow checkout');
    expect(git(shallow, ['rev-parse', '--is-shallow-repository']).trim()).toBe('false');
    expect(newWrites(gh, before)).toEqual([]);
    expect(branchSha(fx)).toBe(sha);
    // The rename was seen through the fetched history: the correction is in the report.
    expect(r.report.findings.map((f: { kind: string; line: number }) => `${f.kind}:${f.line}`)).toContain('path-renamed:5');
  });

  it('a shallow pr run that cannot fetch the history never closes or deletes, and says the results are incomplete', async (t) => {
    const fx = renamedRepo(t);
    const gh = await server(t);
    expect((await schedule(fx, gh)).outputs['pull-request-operation']).toBe('created');
    const sha = branchSha(fx);
    const shallow = join(fx.dir, 'shallow');
    git(fx.dir, ['clone', '-q', '--depth=1', '-b', 'main', `file://${fx.origin}`, shallow]);
    // The fetch for the full history fails (here: its refspec names a branch the remote lacks).
    git(shallow, ['config', 'remote.origin.fetch', '+refs/heads/gone:refs/remotes/origin/gone']);
    const before = gh.requests.length;
    const r = await schedule(fx, gh, NOW_EPOCH, shallow);
    expect(r.code).toBe(0);
    expect(r.outputs['pull-request-operation']).toBe('none');
    expect(r.outputs['pull-request-number']).toBe('1');
    expect(r.summary).toContain(
      "- ⚠️ The checkout is shallow and its full history could not be fetched (fatal: couldn't find remote ref refs/heads/gone): the results are incomplete. " +
        'Pull request #1 and branch `memory-audit/prune` left as they are. Use `actions/checkout` with `fetch-depth: 0`.\n',
    );
    expect(r.stdout).toContain('::notice title=memory-audit::Shallow checkout: ');
    expect(newWrites(gh, before)).toEqual([]);
    expect(gh.pulls[0].state).toBe('open');
    expect(branchSha(fx)).toBe(sha);
  });

  it('`mode: pr` on a pull_request event falls back to comment mode and never builds on the PR ref', async (t) => {
    const fx = renamedRepo(t);
    const gh = await server(t);
    const base = git(fx.work, ['rev-parse', 'HEAD']).trim();
    git(fx.work, ['checkout', '-q', '-b', 'feature']);
    fx.write('src/feature.ts', 'export const feature = 1;\n');
    const head = fx.commit('feature', '2026-01-08T00:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'feature']);
    // actions/checkout on pull_request: the merge of the head into the base, detached.
    git(fx.work, ['checkout', '-q', '--detach', base]);
    git(fx.work, ['merge', '-q', '--no-ff', '-m', `Merge ${head} into ${base}`, head]);
    const payload = {
      pull_request: { number: 7, base: { sha: base, ref: 'main', repo: { full_name: 'acme/widgets' } }, head: { sha: head, ref: 'feature', repo: { full_name: 'acme/widgets', fork: false } } },
      repository: { full_name: 'acme/widgets', default_branch: 'main' },
    };
    const r = await runAction({ workspace: fx.work, inputs: { mode: 'pr', 'fail-on': 'never' }, eventName: 'pull_request', payload, apiUrl: gh.url });
    expect(r.code).toBe(0);
    expect(r.outputs.mode).toBe('comment');
    expect(r.outputs['pull-request-operation']).toBeUndefined();
    expect(r.stdout.split('\n')).toContain(
      '::notice title=memory-audit::Mode "pr" never runs on a pull request ref (this is a "pull_request" event): commenting on the pull request instead. Run `mode: pr` on `schedule` or `workflow_dispatch`.',
    );
    expect(gh.calls().filter((c) => c.includes('/pulls'))).toEqual([]);
    expect(git(fx.origin, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim().split('\n')).toEqual(['refs/heads/feature', 'refs/heads/main']);
  });

  it.for([
    ['GH013 ruleset', 'echo "error: GH013: Repository rule violations found for refs/heads/memory-audit/prune." >&2; echo "- Cannot create ref due to creations being restricted." >&2',
      '(GH013: Repository rule violations found for refs/heads/memory-audit/prune. - Cannot create ref due to creations being restricted.)'],
    ['GH006 protected branch', 'echo "error: GH006: Protected branch update failed for refs/heads/memory-audit/prune." >&2',
      '(GH006: Protected branch update failed for refs/heads/memory-audit/prune.)'],
  ])('a push refused by a %s names the rule and the branch, not the git command', async ([, hook, said], t) => {
    const fx = renamedRepo(t);
    writeFileSync(join(fx.origin, 'hooks', 'pre-receive'), `#!/bin/sh\n${hook}\nexit 1\n`, { mode: 0o755 });
    const gh = await server(t);
    const r = await schedule(fx, gh);
    const message =
      `A branch protection rule or ruleset blocks pushing \`memory-audit/prune\` ${said}. ` +
      "Set the `branch` input to a branch the rules allow, or add this workflow (its token or GitHub App) to the rule's bypass list.";
    expect(r.code).toBe(1);
    expect(r.outputs.mode).toBe('pr');
    expect(r.outputs['pull-request-operation']).toBe('none');
    expect(r.stdout.split('\n')).toContain(`::error::${message}`);
    expect(r.summary).toContain(`- ❌ ${message}\n`);
    expect(r.stdout).not.toContain('git push');
    expect(r.stdout.split('\n').filter((l) => l.includes(TOKEN))).toEqual([`::add-mask::${TOKEN}`]);
    expect(gh.writes()).toEqual([]);
    expect(git(fx.origin, ['for-each-ref', '--format=%(refname)', 'refs/heads']).trim()).toBe('refs/heads/main');
  });
});

/** Smart HTTP in front of `git http-backend` that refuses any request without exactly `expected`. */
async function serveGit(t: T, projectRoot: string, expected: string, seen: SeenRequest[]): Promise<string> {
  const served = await serveGitHttp(projectRoot, expected, seen);
  t.onTestFinished(served.close);
  return served.url;
}

describe('git plumbing behind these rules', () => {
  it('unshallows over http with the token as the one Authorization header', async (t) => {
    const fx = makeRepo({ 'CLAUDE.md': '- a\n' });
    t.onTestFinished(() => fx.cleanup());
    fx.write('CLAUDE.md', '- b\n');
    fx.commit('second', '2026-01-06T10:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'main']);
    const token = 'ghs_unshallowTOKEN';
    const expected = `basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
    const seen: SeenRequest[] = [];
    const base = await serveGit(t, fx.dir, expected, seen);
    const shallow = join(fx.dir, 'shallow');
    // Async: a synchronous git call would block the server in this process.
    const cloned = await new Git(fx.dir).run(['-c', `http.extraheader=AUTHORIZATION: ${expected}`, 'clone', '-q', '--depth=1', `${base}/origin.git`, shallow]);
    expect(cloned.code).toBe(0);
    const g = new Git(shallow, { token });
    expect(await g.isShallow()).toBe(true);
    seen.length = 0;
    await g.unshallow();
    expect(await g.isShallow()).toBe(false);
    expect(git(shallow, ['log', '--format=%s']).trim().split('\n')).toEqual(['second', 'initial']);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((s) => s.authorization.length === 1 && s.authorization[0] === expected)).toBe(true);
    expect(git(shallow, ['config', '--local', '--list'])).not.toContain(expected.slice(6));
  });

  it('reads blobs by sha in one call, byte-exact for multi-byte text, leaving out missing ones', async (t) => {
    const fx = makeRepo({ 'a.md': '- 模块入口 `src/a.ts` [corrected 2026-01-10]\n', 'b.md': 'x\n\n' });
    t.onTestFinished(() => fx.cleanup());
    const g = new Git(fx.work);
    const a = git(fx.work, ['rev-parse', 'HEAD:a.md']).trim();
    const b = git(fx.work, ['rev-parse', 'HEAD:b.md']).trim();
    const missing = '0123456789abcdef0123456789abcdef01234567';
    const blobs = await g.readBlobs([a, b, missing, a]);
    expect([...blobs.entries()]).toEqual([
      [a, '- 模块入口 `src/a.ts` [corrected 2026-01-10]\n'],
      [b, 'x\n\n'],
    ]);
    const info = await g.commitInfo('HEAD');
    expect(info).toEqual({ parents: [], author: { name: 'Dev', email: 'dev@example.com' }, committer: { name: 'Dev', email: 'dev@example.com' }, subject: 'initial' });
    expect(await g.isAncestor('HEAD', 'HEAD')).toBe(true);
  });
});
