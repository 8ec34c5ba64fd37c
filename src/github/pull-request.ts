// The prune pull request: a pure create / update / close decision, and the REST calls that
// carry it out. Idempotent by construction (as in peter-evans/create-pull-request): one fixed
// branch, push only when its tree differs, PATCH only the fields that differ, add only
// missing labels, close the pull request and delete the branch when nothing is left to change.
import { explainApiError, statusOf, apiMessage, type Octokit } from './client.js';

export interface ExistingPullRequest {
  number: number;
  url: string;
  title: string;
  body: string;
  labels: string[];
  base: string;
}

export interface PullRequestDecisionInput {
  /** The prune produced edits. */
  hasChanges: boolean;
  existing: ExistingPullRequest | null;
  /** Sha of the prune branch on the remote, null when absent. */
  remoteBranchSha: string | null;
  /** The remote branch already holds exactly the tree we would push. */
  branchUpToDate: boolean;
  title: string;
  body: string;
  base: string;
  labels: string[];
}

export type PullRequestOperation = 'created' | 'updated' | 'closed' | 'none';

export interface PullRequestDecision {
  push: boolean;
  deleteBranch: boolean;
  pr: 'create' | 'update' | 'close' | 'none';
  patch: { title?: string; body?: string; base?: string };
  addLabels: string[];
  operation: PullRequestOperation;
}

/** Normalises a body as GitHub stores it, for comparison (CRLF, trailing whitespace). */
export function sameBody(a: string, b: string): boolean {
  const n = (s: string): string => s.replace(/\r\n/g, '\n').trimEnd();
  return n(a) === n(b);
}

export function decidePullRequest(i: PullRequestDecisionInput): PullRequestDecision {
  if (!i.hasChanges) {
    if (i.existing) {
      return { push: false, deleteBranch: i.remoteBranchSha !== null, pr: 'close', patch: {}, addLabels: [], operation: 'closed' };
    }
    // A leftover branch without an open pull request is removed too.
    return { push: false, deleteBranch: i.remoteBranchSha !== null, pr: 'none', patch: {}, addLabels: [], operation: 'none' };
  }
  const push = !i.branchUpToDate;
  if (!i.existing) {
    return { push, deleteBranch: false, pr: 'create', patch: {}, addLabels: [], operation: 'created' };
  }
  const patch: PullRequestDecision['patch'] = {};
  if (i.existing.title !== i.title) patch.title = i.title;
  if (!sameBody(i.existing.body, i.body)) patch.body = i.body;
  if (i.base && i.existing.base !== i.base) patch.base = i.base;
  const have = new Set(i.existing.labels.map((l) => l.toLowerCase()));
  const addLabels = i.labels.filter((l) => !have.has(l.toLowerCase()));
  const touched = push || Object.keys(patch).length > 0 || addLabels.length > 0;
  return {
    push,
    deleteBranch: false,
    pr: Object.keys(patch).length > 0 || addLabels.length > 0 ? 'update' : 'none',
    patch,
    addLabels,
    operation: touched ? 'updated' : 'none',
  };
}

export interface RepoRef {
  owner: string;
  repo: string;
}

type PullJson = {
  number: number;
  html_url: string;
  title: string;
  body: string | null;
  labels?: Array<{ name?: string } | string>;
  base?: { ref?: string };
};

function toExisting(p: PullJson): ExistingPullRequest {
  return {
    number: p.number,
    url: p.html_url,
    title: p.title,
    body: p.body ?? '',
    labels: (p.labels ?? []).map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean),
    base: p.base?.ref ?? '',
  };
}

/** The open pull request from `branch` of this repository, if any. */
export async function findOpenPullRequest(api: Octokit, r: RepoRef, branch: string): Promise<ExistingPullRequest | null> {
  try {
    const res = await api.rest.pulls.list({ owner: r.owner, repo: r.repo, state: 'open', head: `${r.owner}:${branch}`, per_page: 100 });
    const list = res.data as unknown as PullJson[];
    return list.length > 0 ? toExisting(list[0]) : null;
  } catch (err) {
    throw explainApiError(err, 'Listing pull requests');
  }
}

export async function createPullRequest(
  api: Octokit,
  r: RepoRef,
  p: { branch: string; base: string; title: string; body: string },
): Promise<{ pr: ExistingPullRequest; raced: boolean }> {
  try {
    const res = await api.rest.pulls.create({ owner: r.owner, repo: r.repo, head: p.branch, base: p.base, title: p.title, body: p.body });
    return { pr: toExisting(res.data as unknown as PullJson), raced: false };
  } catch (err) {
    // Another run created it between our list and create: update that one instead.
    if (statusOf(err) === 422 && /already exists/i.test(apiMessage(err))) {
      const existing = await findOpenPullRequest(api, r, p.branch);
      if (existing) return { pr: existing, raced: true };
    }
    throw explainApiError(err, 'Creating the pull request');
  }
}

export async function updatePullRequest(
  api: Octokit,
  r: RepoRef,
  number: number,
  patch: { title?: string; body?: string; base?: string; state?: 'open' | 'closed' },
): Promise<void> {
  try {
    await api.rest.pulls.update({ owner: r.owner, repo: r.repo, pull_number: number, ...patch });
  } catch (err) {
    throw explainApiError(err, patch.state === 'closed' ? `Closing pull request #${number}` : `Updating pull request #${number}`);
  }
}

export async function addLabels(api: Octokit, r: RepoRef, number: number, labels: string[]): Promise<void> {
  if (labels.length === 0) return;
  try {
    await api.rest.issues.addLabels({ owner: r.owner, repo: r.repo, issue_number: number, labels });
  } catch (err) {
    throw explainApiError(err, `Labelling pull request #${number}`);
  }
}
