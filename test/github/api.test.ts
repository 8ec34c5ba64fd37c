import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/github/client.js';
import {
  addLabels,
  createPullRequest,
  decidePullRequest,
  findOpenPullRequest,
  updatePullRequest,
  type ExistingPullRequest,
} from '../../src/github/pull-request.js';
import { COMMENT_MARKER, pickStickyComment, upsertStickyComment } from '../../src/github/comment.js';
import { FakeGitHub } from './fake-github.js';

let gh = undefined as unknown as FakeGitHub;
afterEach(async () => {
  await gh?.stop();
  gh = undefined as unknown as FakeGitHub;
});

const repo = { owner: 'acme', repo: 'widgets' };

describe('decidePullRequest', () => {
  const existing: ExistingPullRequest = { number: 7, url: 'u', title: 'T', body: 'B', labels: ['memory-audit'], base: 'main' };
  const base = { title: 'T', body: 'B', base: 'main', labels: ['memory-audit'] };
  it('creates when there are changes and no pull request', () => {
    expect(decidePullRequest({ ...base, hasChanges: true, existing: null, remoteBranchSha: null, branchUpToDate: false })).toEqual({
      push: true, deleteBranch: false, pr: 'create', patch: {}, addLabels: [], operation: 'created',
    });
  });
  it('does nothing at all when the branch and the pull request are already right', () => {
    expect(decidePullRequest({ ...base, hasChanges: true, existing, remoteBranchSha: 'abc', branchUpToDate: true })).toEqual({
      push: false, deleteBranch: false, pr: 'none', patch: {}, addLabels: [], operation: 'none',
    });
  });
  it('pushes and patches only what differs', () => {
    expect(
      decidePullRequest({ ...base, body: 'B2', labels: ['memory-audit', 'chore'], hasChanges: true, existing, remoteBranchSha: 'abc', branchUpToDate: false }),
    ).toEqual({ push: true, deleteBranch: false, pr: 'update', patch: { body: 'B2' }, addLabels: ['chore'], operation: 'updated' });
    // CRLF and trailing blank lines as GitHub may store them are not a difference.
    expect(decidePullRequest({ ...base, body: 'B\n\n', hasChanges: true, existing: { ...existing, body: 'B\r\n' }, remoteBranchSha: 'a', branchUpToDate: true }).operation).toBe('none');
  });
  it('closes and deletes the branch when nothing is left; removes a leftover branch', () => {
    expect(decidePullRequest({ ...base, hasChanges: false, existing, remoteBranchSha: 'abc', branchUpToDate: false })).toEqual({
      push: false, deleteBranch: true, pr: 'close', patch: {}, addLabels: [], operation: 'closed',
    });
    expect(decidePullRequest({ ...base, hasChanges: false, existing: null, remoteBranchSha: 'abc', branchUpToDate: false })).toEqual({
      push: false, deleteBranch: true, pr: 'none', patch: {}, addLabels: [], operation: 'none',
    });
    expect(decidePullRequest({ ...base, hasChanges: false, existing: null, remoteBranchSha: null, branchUpToDate: false }).deleteBranch).toBe(false);
  });
});

describe('pull request REST calls against a local GitHub', () => {
  beforeEach(async () => {
    gh = new FakeGitHub({ token: 'ghs_test' });
    await gh.start();
  });

  it('lists, creates (201), labels, updates and closes', async () => {
    const api = createClient('ghs_test', gh.url);
    expect(await findOpenPullRequest(api, repo, 'memory-audit/prune')).toBe(null);
    const { pr, raced } = await createPullRequest(api, repo, { branch: 'memory-audit/prune', base: 'main', title: 'T', body: 'B' });
    expect(raced).toBe(false);
    expect(pr).toEqual({ number: 1, url: 'https://github.com/acme/widgets/pull/1', title: 'T', body: 'B', labels: [], base: 'main' });
    await addLabels(api, repo, 1, ['memory-audit']);
    await updatePullRequest(api, repo, 1, { body: 'B2' });
    expect(await findOpenPullRequest(api, repo, 'memory-audit/prune')).toEqual({ ...pr, body: 'B2', labels: ['memory-audit'] });
    await updatePullRequest(api, repo, 1, { state: 'closed' });
    expect(await findOpenPullRequest(api, repo, 'memory-audit/prune')).toBe(null);
    expect(gh.calls()).toEqual([
      'GET /repos/acme/widgets/pulls?state=open&head=acme%3Amemory-audit%2Fprune&per_page=100',
      'POST /repos/acme/widgets/pulls',
      'POST /repos/acme/widgets/issues/1/labels',
      'PATCH /repos/acme/widgets/pulls/1',
      'GET /repos/acme/widgets/pulls?state=open&head=acme%3Amemory-audit%2Fprune&per_page=100',
      'PATCH /repos/acme/widgets/pulls/1',
      'GET /repos/acme/widgets/pulls?state=open&head=acme%3Amemory-audit%2Fprune&per_page=100',
    ]);
    expect(gh.requests[1].body).toEqual({ head: 'memory-audit/prune', base: 'main', title: 'T', body: 'B' });
    expect(gh.requests.every((r) => r.auth === 'token ghs_test')).toBe(true);
  });

  it('turns 422 "A pull request already exists" into an update of that pull request', async () => {
    gh.opts.raceOnCreate = true;
    const api = createClient('ghs_test', gh.url);
    const { pr, raced } = await createPullRequest(api, repo, { branch: 'memory-audit/prune', base: 'main', title: 'T', body: 'B' });
    expect(raced).toBe(true);
    expect(pr.number).toBe(1);
    expect(pr.title).toBe('raced');
  });

  it('explains a 403 on creation with the repository setting and the permissions block', async () => {
    gh.opts.forbidPullCreate = true;
    const api = createClient('ghs_test', gh.url);
    const err = await createPullRequest(api, repo, { branch: 'b', base: 'main', title: 'T', body: 'B' }).catch((e: Error) => e);
    expect((err as Error).message).toBe(
      'Creating the pull request failed with 403 (GitHub Actions is not permitted to create or approve pull requests.). ' +
        'The token cannot create or update pull requests. Grant the job `permissions: { contents: write, pull-requests: write }` ' +
        'and, for the GITHUB_TOKEN, enable the repository setting "Allow GitHub Actions to create and approve pull requests" ' +
        '(Settings → Actions → General → Workflow permissions), or pass a token with those rights in the `token` input.',
    );
  });

  it('explains a 404 and a 401', async () => {
    const api = createClient('ghs_test', gh.url);
    await expect(updatePullRequest(api, repo, 99, { body: 'x' })).rejects.toThrow(
      'Updating pull request #99 failed with 404 (Not Found): the repository or pull request was not found, or the token cannot see it.',
    );
    const bad = createClient('wrong', gh.url);
    await expect(findOpenPullRequest(bad, repo, 'b')).rejects.toThrow('Listing pull requests failed with 401 (Bad credentials): the token is invalid or expired.');
  });
});

describe('sticky comment', () => {
  beforeEach(async () => {
    gh = new FakeGitHub();
    await gh.start();
  });

  it('prefers the bot comment that starts with the marker', () => {
    const c = (id: number, body: string, author: string) => ({ id, url: `u${id}`, body, author });
    expect(pickStickyComment([c(1, 'hello', 'x'), c(2, `quoting ${COMMENT_MARKER}`, 'y'), c(3, `${COMMENT_MARKER}\nspoof`, 'mallory'), c(4, `${COMMENT_MARKER}\nours`, 'github-actions[bot]')])?.id).toBe(4);
    expect(pickStickyComment([c(1, 'hello', 'x')])).toBe(null);
  });

  it('creates once, leaves an identical body alone, edits on change, never creates when clean, paginates', async () => {
    const api = createClient('t', gh.url);
    for (let i = 0; i < 120; i++) gh.comments.push({ id: i + 1, issue: 5, body: `chatter ${i}`, login: 'someone' });
    expect(await upsertStickyComment(api, repo, 5, `${COMMENT_MARKER}\nclean`, { createIfMissing: false })).toEqual({ operation: 'none', id: null, url: null });
    const first = await upsertStickyComment(api, repo, 5, `${COMMENT_MARKER}\nA`, { createIfMissing: true });
    expect(first).toEqual({ operation: 'created', id: 1000, url: 'https://github.com/acme/widgets/pull/5#issuecomment-1000' });
    expect((await upsertStickyComment(api, repo, 5, `${COMMENT_MARKER}\nA`, { createIfMissing: true })).operation).toBe('unchanged');
    expect((await upsertStickyComment(api, repo, 5, `${COMMENT_MARKER}\nB`, { createIfMissing: true })).operation).toBe('updated');
    expect(gh.comments.filter((c) => c.body.startsWith(COMMENT_MARKER))).toEqual([
      { id: 1000, issue: 5, body: `${COMMENT_MARKER}\nB`, login: 'github-actions[bot]' },
    ]);
    expect(gh.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/acme/widgets/issues/5/comments',
      'PATCH /repos/acme/widgets/issues/comments/1000',
    ]);
    // Two pages per listing (120 + 1 comments at 100 per page).
    expect(gh.calls().filter((c) => c.startsWith('GET')).length).toBe(8);
  });

  it('explains a 403 on commenting', async () => {
    gh.opts.forbidComments = true;
    const api = createClient('t', gh.url);
    await expect(upsertStickyComment(api, repo, 5, `${COMMENT_MARKER}\nA`, { createIfMissing: true })).rejects.toThrow(
      /^Commenting on #5 failed with 403 \(Resource not accessible by integration\)\. The token cannot comment on this pull request\. Grant the job `permissions: \{ pull-requests: write \}`/,
    );
  });
});
