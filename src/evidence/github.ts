// Issue and pull-request state from the GitHub REST API, for the issue references that
// memory describes as open. One call per distinct number (plus one pulls call for a PR, to
// learn whether it was merged), concurrency-limited, never thrown: errors are recorded.
import type { Entry, GitHubState, IssueState } from '../types.js';

export interface GitHubFetchOptions {
  entries: Entry[];
  token?: string;
  /** owner/name for references that do not name their repository. */
  repo?: string;
  apiUrl: string;
  concurrency?: number;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

/** The distinct `owner/name#n` keys to fetch: issue references described as open. */
export function issueKeys(entries: Entry[], defaultRepo?: string): Array<{ key: string; repo: string; number: number }> {
  const seen = new Map<string, { key: string; repo: string; number: number }>();
  for (const e of entries) {
    for (const r of e.refs ?? []) {
      if (r.kind !== 'issue' || !r.describedOpen || typeof r.number !== 'number' || !Number.isInteger(r.number) || r.number <= 0) continue;
      const repo = (r.repo || defaultRepo || '').replace(/^\/+|\/+$/g, '');
      if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) continue;
      const key = `${repo}#${r.number}`;
      if (!seen.has(key)) seen.set(key, { key, repo, number: r.number });
    }
  }
  return [...seen.values()];
}

/** Also reachable as `${repo}#${n}` for the default repository: `#${n}`. */
export async function fetchGitHubState(opts: GitHubFetchOptions): Promise<GitHubState> {
  const issues = new Map<string, IssueState | { error: string }>();
  const state: GitHubState = { repo: opts.repo, checked: false, issues };
  const wanted = issueKeys(opts.entries, opts.repo);
  if (!opts.token) {
    state.reason = 'no token';
    return state;
  }
  if (wanted.length === 0) {
    const openRefs = opts.entries.some((e) => (e.refs ?? []).some((r) => r.kind === 'issue' && r.describedOpen));
    if (openRefs && !opts.repo) state.reason = 'repository unknown (set github.repo or GITHUB_REPOSITORY)';
    else state.checked = true;
    return state;
  }
  const f = opts.fetchImpl ?? fetch;
  const base = opts.apiUrl.replace(/\/+$/, '');
  const headers = {
    Authorization: `Bearer ${opts.token}`,
    Accept: 'application/vnd.github+json',
    'X-GitHub-Api-Version': '2022-11-28',
    'User-Agent': 'memory-audit',
  };
  let rateLimited: string | undefined;
  let authFailed: string | undefined;
  const get = async (url: string): Promise<{ status: number; body: any; error?: string }> => {
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), opts.timeoutMs ?? 15_000);
    try {
      const res = await f(url, { headers, signal: ctrl.signal });
      let body: any = null;
      try {
        body = await res.json();
      } catch {
        body = null;
      }
      return { status: res.status, body };
    } catch (err) {
      const e = err as Error;
      return { status: 0, body: null, error: e.name === 'AbortError' ? 'timeout' : `network error: ${e.message}` };
    } finally {
      clearTimeout(timer);
    }
  };
  const describe = (status: number, body: any, remaining?: string): string => {
    const msg = body && typeof body.message === 'string' ? `: ${body.message}` : '';
    if (status === 404) return 'not found (404)';
    if (status === 401) return `unauthorized (401)${msg}`;
    if (status === 403 || status === 429) return /rate limit/i.test(msg) || remaining === '0' ? `rate limited (${status})${msg}` : `forbidden (${status})${msg}`;
    return `HTTP ${status}${msg}`;
  };
  const one = async (w: { key: string; repo: string; number: number }) => {
    if (rateLimited || authFailed) {
      issues.set(w.key, { error: (rateLimited ?? authFailed)! });
      return;
    }
    const url = `${base}/repos/${w.repo}/issues/${w.number}`;
    const r = await get(url);
    if (r.error) {
      issues.set(w.key, { error: r.error });
      return;
    }
    if (r.status !== 200 || !r.body || typeof r.body !== 'object') {
      const err = describe(r.status, r.body);
      if (err.startsWith('rate limited')) rateLimited = err;
      if (r.status === 401) authFailed = err;
      issues.set(w.key, { error: err });
      return;
    }
    const b = r.body;
    const isPr = !!b.pull_request;
    const st: IssueState = {
      number: w.number,
      repo: w.repo,
      kind: isPr ? 'pr' : 'issue',
      state: b.state === 'closed' ? 'closed' : 'open',
      ...(b.closed_at ? { closedAt: String(b.closed_at) } : {}),
      ...(typeof b.title === 'string' ? { title: b.title } : {}),
      ...(typeof b.html_url === 'string' ? { url: b.html_url } : {}),
    };
    if (isPr) {
      if (b.pull_request && typeof b.pull_request.merged_at === 'string') st.merged = true;
      else if (st.state === 'closed') {
        const pr = await get(`${base}/repos/${w.repo}/pulls/${w.number}`);
        if (!pr.error && pr.status === 200 && pr.body) st.merged = pr.body.merged === true || !!pr.body.merged_at;
      } else st.merged = false;
    }
    issues.set(w.key, st);
  };
  const limit = Math.max(1, opts.concurrency ?? 4);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, wanted.length) }, async () => {
      while (next < wanted.length) await one(wanted[next++]!);
    }),
  );
  // Aliases for references written without a repository.
  if (opts.repo) {
    for (const w of wanted) if (w.repo === opts.repo && issues.has(w.key)) issues.set(`#${w.number}`, issues.get(w.key)!);
  }
  const errors = [...issues.values()].filter((v) => 'error' in v) as Array<{ error: string }>;
  state.checked = errors.length < wanted.length;
  if (rateLimited) state.reason = rateLimited;
  else if (authFailed) state.reason = authFailed;
  else if (!state.checked && errors[0]) state.reason = errors[0].error;
  return state;
}

/** Looks up the state for a reference (`repo` optional). */
export function issueStateFor(gh: GitHubState, number: number, repo?: string): IssueState | { error: string } | undefined {
  const r = repo || gh.repo;
  return (r ? gh.issues.get(`${r}#${number}`) : undefined) ?? gh.issues.get(`#${number}`);
}
