// status-drift: an issue or PR described as open / in progress / WIP / pending / blocked
// that GitHub says is closed or merged. Without a token (or on an API error) the entry
// gets one `status-unchecked` info finding and the run goes on.
import type { Check, CheckContext, Finding, IssueState, GitHubState, Reference } from '../types.js';
import { finding, refsOf } from './stale-common.js';

function lookup(gh: GitHubState, n: number, repo?: string): IssueState | { error: string } | undefined {
  const r = repo || gh.repo;
  return (r ? gh.issues.get(`${r}#${n}`) : undefined) ?? gh.issues.get(`#${n}`) ?? gh.issues.get(String(n));
}

/**
 * When the API refused the token that was passed (recorded as `unauthorized (401)…` or
 * `forbidden (403)…` by src/evidence/github.ts), what to do about it; undefined otherwise.
 * Asking for a token then would be wrong: one was given.
 */
function tokenRefused(why: string): string | undefined {
  if (/^unauthorized \(401\)/.test(why))
    return 'check that the token (GITHUB_TOKEN or --token) is valid and not expired or revoked.';
  if (/^forbidden \(403\)/.test(why))
    return 'give the token read access to issues and pull requests (`issues: read`, `pull-requests: read` in the workflow `permissions:`, or the matching fine-grained token scopes) for this repository.';
  return undefined;
}

export const statusCheck: Check = {
  id: 'status',
  kinds: ['status-drift', 'status-unchecked'],
  severity: 'warning',
  description: 'Issues and pull requests described as open that GitHub reports closed or merged.',
  run(ctx: CheckContext): Finding[] {
    const out: Finding[] = [];
    const gh = ctx.evidence.github;
    // the issue references described as open, entry by entry
    const issues = refsOf(ctx.entries, 'issue');
    for (let i = 0; i < issues.refs.length; ) {
      const entry = issues.entries[i]!;
      const refs: Reference[] = [];
      for (; i < issues.refs.length && issues.entries[i] === entry; i++) {
        const r = issues.refs[i]!;
        if (r.describedOpen && typeof r.number === 'number' && r.number > 0) refs.push(r);
      }
      if (!refs.length) continue;
      const unchecked: string[] = [];
      let reason = gh.reason;
      const seen = new Set<string>();
      for (const ref of refs) {
        const repo = ref.repo || gh.repo;
        const key = `${repo ?? ''}#${ref.number}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (!repo || /^(?:user|owner|org|your-org|you)\/(?:repo|name|project)$/i.test(repo)) continue; // placeholder slugs
        const st = gh.checked ? lookup(gh, ref.number!, ref.repo) : undefined;
        if (!st || 'error' in st) {
          unchecked.push(ref.raw);
          if (st && 'error' in st) reason = st.error;
          continue;
        }
        if (st.state !== 'closed') continue;
        const isPr = st.kind === 'pr';
        const what = st.merged ? 'merged' : 'closed';
        const when = st.closedAt ? ` on ${st.closedAt.slice(0, 10)}` : '';
        const title = st.title ? ` ("${st.title.length > 60 ? st.title.slice(0, 57) + '...' : st.title}")` : '';
        out.push(
          finding(
            entry, ref, 'status-drift', 'warning',
            `${isPr ? 'PR' : 'Issue'} ${repo}#${ref.number}${title} is described as open but was ${what}${when}; remove the entry or record the outcome.`,
            { now: what, state: st.state, merged: !!st.merged, closedAt: st.closedAt, url: st.url, number: ref.number, repo },
          ),
        );
      }
      if (unchecked.length) {
        const why = reason ?? (gh.checked ? 'not returned by the API' : 'not checked');
        const first = refs.find((r) => r.raw === unchecked[0]) ?? refs[0];
        const refused = tokenRefused(why);
        out.push(
          finding(
            entry, first, 'status-unchecked', 'info',
            refused
              ? `Could not check whether ${unchecked.map((u) => `\`${u}\``).join(', ')} ${unchecked.length > 1 ? 'are' : 'is'} still open: GitHub refused the token (${why}); ${refused}`
              : `Could not check whether ${unchecked.map((u) => `\`${u}\``).join(', ')} ${unchecked.length > 1 ? 'are' : 'is'} still open (${why}); pass a GitHub token (GITHUB_TOKEN or --token) to verify.`,
            refused ? { reason: why, tokenRefused: true } : { reason: why },
          ),
        );
      }
    }
    return out;
  },
};
