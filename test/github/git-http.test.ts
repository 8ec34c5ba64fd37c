// The token reaches git over http(s) only as an AUTHORIZATION extra header, exactly once, even
// when actions/checkout persisted its own header in the repository config. Served by
// `git http-backend` behind a local node:http server that records every request's headers.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Git } from '../../src/github/git.js';
import { git, makeRepo, type Fixture } from './git-fixture.js';

let fx: Fixture | null = null;
let server: Server | null = null;
afterEach(async () => {
  if (server) await new Promise<void>((r) => server!.close(() => r()));
  server = null;
  fx?.cleanup();
  fx = null;
});

interface Seen {
  method: string;
  url: string;
  authorization: string[];
}

/** Smart HTTP in front of `git http-backend`; answers 401 without the expected header. */
async function serveGit(projectRoot: string, expected: string, seen: Seen[]): Promise<string> {
  server = createServer((req, res) => {
    const auth: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === 'authorization') auth.push(req.rawHeaders[i + 1]);
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: auth });
    if (auth.length !== 1 || auth[0] !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="test"' });
      res.end('unauthorized');
      return;
    }
    const u = new URL(req.url ?? '/', 'http://x');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: 'x-access-token',
        REQUEST_METHOD: req.method,
        PATH_INFO: decodeURIComponent(u.pathname),
        QUERY_STRING: u.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_HTTP_MAX_REQUEST_BUFFER: '100M',
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (c: Buffer) => chunks.push(c));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const sep = out.indexOf('\r\n\r\n');
      const head = out.subarray(0, sep).toString('utf8');
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n')) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
        else headers[k] = v;
      }
      res.writeHead(status, headers);
      res.end(out.subarray(sep + 4));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
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
