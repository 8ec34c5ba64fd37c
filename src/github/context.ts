// The workflow run as the runner describes it (GITHUB_* variables and the event payload).
// Read from an explicit env object so tests can build one.
import { existsSync, readFileSync } from 'node:fs';
import type { Mode } from './inputs.js';

export interface PullRequestInfo {
  number: number;
  baseSha: string;
  baseRef: string;
  headSha: string;
  headRef: string;
  headRepo: string | null;
  baseRepo: string | null;
  /**
   * Cross-repository: the head lives in another repository than the base (a fork, or a fork
   * since deleted). On `pull_request` the workflow token is then read-only.
   */
  fromFork: boolean;
}

export interface RunContext {
  eventName: string;
  owner: string;
  repo: string;
  apiUrl: string;
  serverUrl: string;
  workspace: string;
  sha: string;
  refName: string;
  runUrl: string | null;
  payload: Record<string, unknown>;
  pullRequest: PullRequestInfo | null;
  defaultBranch: string | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function readContext(env: NodeJS.ProcessEnv): RunContext {
  let payload: Record<string, unknown> = {};
  const eventPath = env.GITHUB_EVENT_PATH;
  if (eventPath && existsSync(eventPath)) {
    try {
      payload = JSON.parse(readFileSync(eventPath, 'utf8')) as Record<string, unknown>;
    } catch {
      payload = {};
    }
  }
  const repository = (payload.repository ?? {}) as Record<string, unknown>;
  let [owner, repo] = str(env.GITHUB_REPOSITORY).split('/');
  if (!owner || !repo) {
    const full = str(repository.full_name);
    [owner, repo] = full.split('/');
  }
  const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const runUrl =
    env.GITHUB_RUN_ID && owner && repo ? `${serverUrl}/${owner}/${repo}/actions/runs/${env.GITHUB_RUN_ID}` : null;
  const pr = payload.pull_request as Record<string, any> | undefined;
  let pullRequest: PullRequestInfo | null = null;
  if (pr && typeof pr.number === 'number') {
    const headRepo = str(pr.head?.repo?.full_name) || null;
    const baseRepo = str(pr.base?.repo?.full_name) || (owner && repo ? `${owner}/${repo}` : null);
    pullRequest = {
      number: pr.number,
      baseSha: str(pr.base?.sha),
      baseRef: str(pr.base?.ref),
      headSha: str(pr.head?.sha),
      headRef: str(pr.head?.ref),
      headRepo,
      baseRepo,
      // `head.repo.fork` only says whether the head repository is itself a fork: a branch of a
      // repository that was forked from elsewhere is still a same-repository pull request. What
      // matters is where the head lives: another repository, or a deleted one (`head.repo: null`).
      fromFork: pr.head?.repo === null || (headRepo !== null && baseRepo !== null && headRepo.toLowerCase() !== baseRepo.toLowerCase()),
    };
  }
  return {
    eventName: str(env.GITHUB_EVENT_NAME),
    owner: owner ?? '',
    repo: repo ?? '',
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    serverUrl,
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
    sha: str(env.GITHUB_SHA),
    refName: str(env.GITHUB_REF_NAME),
    runUrl,
    payload,
    pullRequest,
    defaultBranch: str(repository.default_branch) || null,
  };
}

/** `auto` picks the mode from the event: pull requests get a comment, scheduled and manual runs a PR. */
export function resolveMode(mode: Mode, ctx: RunContext): Exclude<Mode, 'auto'> {
  if (mode !== 'auto') return mode;
  if (ctx.pullRequest && (ctx.eventName === 'pull_request' || ctx.eventName === 'pull_request_target')) return 'comment';
  if (ctx.eventName === 'schedule' || ctx.eventName === 'workflow_dispatch') return 'pr';
  return 'report';
}
