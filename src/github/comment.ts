// The sticky pull-request comment: one comment per pull request, found by a hidden marker
// at the start of its body, created once, edited on every push, never duplicated.
import { explainApiError, COMMENT_PERMISSION_HELP, type Octokit } from './client.js';
import type { RepoRef } from './pull-request.js';
import { sameBody } from './pull-request.js';

export const COMMENT_MARKER = '<!-- memory-audit:comment -->';
export const BOT_LOGIN = 'github-actions[bot]';

export interface StickyComment {
  id: number;
  url: string;
  body: string;
  author: string;
}

export type CommentOperation = 'created' | 'updated' | 'unchanged' | 'none';

type CommentJson = { id: number; html_url: string; body?: string | null; user?: { login?: string } | null };

/** Picks our comment among all of a pull request's comments: marker first, the bot's first. */
export function pickStickyComment(comments: StickyComment[], marker = COMMENT_MARKER): StickyComment | null {
  const ours = comments.filter((c) => c.body.trimStart().startsWith(marker));
  return ours.find((c) => c.author === BOT_LOGIN) ?? ours[0] ?? null;
}

export async function findStickyComment(api: Octokit, r: RepoRef, issue: number, marker = COMMENT_MARKER): Promise<StickyComment | null> {
  try {
    const all = (await api.paginate(api.rest.issues.listComments, {
      owner: r.owner,
      repo: r.repo,
      issue_number: issue,
      per_page: 100,
    })) as unknown as CommentJson[];
    return pickStickyComment(
      all.map((c) => ({ id: c.id, url: c.html_url, body: c.body ?? '', author: c.user?.login ?? '' })),
      marker,
    );
  } catch (err) {
    throw explainApiError(err, `Listing the comments of #${issue}`, COMMENT_PERMISSION_HELP);
  }
}

/**
 * Creates or edits the sticky comment. `createIfMissing: false` (nothing to report) only
 * edits an existing comment, so a clean pull request never gets one. An identical body
 * is not PATCHed again.
 */
export async function upsertStickyComment(
  api: Octokit,
  r: RepoRef,
  issue: number,
  body: string,
  opts: { createIfMissing: boolean; marker?: string },
): Promise<{ operation: CommentOperation; id: number | null; url: string | null }> {
  const existing = await findStickyComment(api, r, issue, opts.marker);
  if (existing) {
    if (sameBody(existing.body, body)) return { operation: 'unchanged', id: existing.id, url: existing.url };
    try {
      const res = await api.rest.issues.updateComment({ owner: r.owner, repo: r.repo, comment_id: existing.id, body });
      return { operation: 'updated', id: existing.id, url: (res.data as CommentJson).html_url ?? existing.url };
    } catch (err) {
      throw explainApiError(err, `Updating comment ${existing.id}`, COMMENT_PERMISSION_HELP);
    }
  }
  if (!opts.createIfMissing) return { operation: 'none', id: null, url: null };
  try {
    const res = await api.rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: issue, body });
    const c = res.data as CommentJson;
    return { operation: 'created', id: c.id, url: c.html_url };
  } catch (err) {
    throw explainApiError(err, `Commenting on #${issue}`, COMMENT_PERMISSION_HELP);
  }
}
