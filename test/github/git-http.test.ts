// The token reaches git over http(s) only as an AUTHORIZATION extra header, exactly once, even
// when actions/checkout persisted its own header in the repository config. Served by
// `git http-backend` behind a local node:http server that records every request's headers.
import { afterEach, describe, expect, it } from 'vitest';
import { Git } from '../../src/github/git.js';
import { git, makeRepo, type Fixture } from './git-fixture.js';
import { serveGitHttp, type SeenRequest as Seen } from './git-http-server.js';

let fx: Fixture | null = null;
let closeServer: (() => Promise<void>) | null = null;
afterEach(async () => {
  await closeServer?.();
  closeServer = null;
  fx?.cleanup();
  fx = null;
});

async function serveGit(projectRoot: string, expected: string, seen: Seen[]): Promise<string> {
  const served = await serveGitHttp(projectRoot, expected, seen);
  closeServer = served.close;
  return served.url;
}

describe('git over http with the token as an extra header', () => {
  it('lists, fetches, pushes and deletes with exactly one Authorization header, replacing the one actions/checkout persisted', async () => {
    fx = makeRepo({ 'CLAUDE.md': '- a\n' });
    const token = 'ghs_httpTOKEN42';
    const expected = `basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
    const seen: Seen[] = [];
    const base = await serveGit(fx.dir, expected, seen);
    git(fx.work, ['remote', 'set-url', 'origin', `${base}/origin.git`]);
    // What actions/checkout leaves behind with persist-credentials (a stale token here).
    git(fx.work, ['config', '--local', `http.${base}/.extraheader`, 'AUTHORIZATION: basic c3RhbGU=']);

    const g = new Git(fx.work, { token });
    expect(await g.remoteBranchSha('memory-audit/prune')).toBe(null);
    const head = await g.head();
    fx.write('CLAUDE.md', '- b\n');
    const tree = await g.buildTree(head, ['CLAUDE.md']);
    const commit = await g.commitTree(tree, head, 'prune', { name: 'bot', email: 'bot@example.com' }, '2026-01-06T00:00:00Z');
    await g.pushBranch(commit, 'memory-audit/prune', null);
    expect(await g.remoteBranchSha('memory-audit/prune')).toBe(commit);
    await g.deleteRemoteBranch('memory-audit/prune', commit);
    expect(await g.remoteBranchSha('memory-audit/prune')).toBe(null);

    expect(seen.length).toBeGreaterThanOrEqual(6);
    expect(seen.every((s) => s.authorization.length === 1 && s.authorization[0] === expected)).toBe(true);
    expect(seen.some((s) => s.method === 'POST' && s.url.endsWith('/git-receive-pack'))).toBe(true);
    // The token is never written to the repository config or the remote URL.
    expect(git(fx.work, ['config', '--local', '--list'])).not.toContain(Buffer.from(`x-access-token:${token}`).toString('base64'));
    expect(git(fx.work, ['remote', 'get-url', 'origin']).trim()).toBe(`${base}/origin.git`);
  });

  it('without the token the stale persisted header is what git sends, and the server refuses it', async () => {
    fx = makeRepo({ 'CLAUDE.md': '- a\n' });
    const seen: Seen[] = [];
    const base = await serveGit(fx.dir, 'basic nope', seen);
    git(fx.work, ['remote', 'set-url', 'origin', `${base}/origin.git`]);
    git(fx.work, ['config', '--local', `http.${base}/.extraheader`, 'AUTHORIZATION: basic c3RhbGU=']);
    await expect(new Git(fx.work).remoteBranchSha('main')).rejects.toThrow(/401|Authentication failed|could not read Username/i);
    expect(seen[0].authorization).toEqual(['basic c3RhbGU=']);
  });
});
