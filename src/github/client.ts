// The Octokit client (from @actions/github) and readable errors for the statuses the
// Action meets: 403 (token permissions or the repository setting), 404, 422.
import { getOctokit } from '@actions/github';

export type Octokit = ReturnType<typeof getOctokit>;

/** A client for `apiUrl` (GITHUB_API_URL on the runner and GHES; 127.0.0.1 in tests). */
export function createClient(token: string, apiUrl: string): Octokit {
  return getOctokit(token, { baseUrl: apiUrl.replace(/\/+$/, '') });
}

export interface HttpErrorLike {
  status: number;
  message: string;
  response?: { data?: unknown };
}

export function isHttpError(err: unknown): err is HttpErrorLike {
  return typeof err === 'object' && err !== null && typeof (err as { status?: unknown }).status === 'number';
}

export function statusOf(err: unknown): number | null {
  return isHttpError(err) ? err.status : null;
}

/** GitHub's own message, e.g. "A pull request already exists for o:b." from errors[0].message. */
export function apiMessage(err: unknown): string {
  if (!isHttpError(err)) return err instanceof Error ? err.message : String(err);
  const data = err.response?.data as { message?: string; errors?: Array<{ message?: string }> } | undefined;
  const detail = data?.errors?.map((e) => e.message).filter(Boolean).join('; ');
  return [data?.message ?? err.message, detail].filter(Boolean).join(': ');
}

export const PR_PERMISSION_HELP =
  'The token cannot create or update pull requests. Grant the job `permissions: { contents: write, pull-requests: write }` ' +
  'and, for the GITHUB_TOKEN, enable the repository setting "Allow GitHub Actions to create and approve pull requests" ' +
  '(Settings → Actions → General → Workflow permissions), or pass a token with those rights in the `token` input.';

export const COMMENT_PERMISSION_HELP =
  'The token cannot comment on this pull request. Grant the job `permissions: { pull-requests: write }` ' +
  '(pull requests from forks get a read-only GITHUB_TOKEN; the audit is reported in the job summary instead).';

export const PUSH_PERMISSION_HELP =
  'The token cannot push the prune branch. Grant the job `permissions: { contents: write, pull-requests: write }`, ' +
  'keep `persist-credentials` or pass a token with write access in the `token` input.';

/** An Error whose message says what to do about an API failure. */
export function explainApiError(err: unknown, doing: string, help403 = PR_PERMISSION_HELP): Error {
  const status = statusOf(err);
  const msg = apiMessage(err);
  if (status === 403) return new Error(`${doing} failed with 403 (${msg}). ${help403}`);
  if (status === 404)
    return new Error(`${doing} failed with 404 (${msg}): the repository or pull request was not found, or the token cannot see it.`);
  if (status === 401) return new Error(`${doing} failed with 401 (${msg}): the token is invalid or expired.`);
  return new Error(`${doing} failed${status ? ` with ${status}` : ''}: ${msg}`);
}
