import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { parseRepoSlug } from '../../src/evidence/git.js';
import { fetchGitHubState, issueKeys, issueStateFor } from '../../src/evidence/github.js';
import { gatherEvidence } from '../../src/evidence/index.js';
import type { Entry, Reference } from '../../src/types.js';
import { cleanupAll, makeRepo } from './helpers.js';

const requests: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
let server: Server;
let api = '';

const REPLIES: Record<string, { status: number; body: unknown; headers?: Record<string, string> }> = {
  '/repos/acme/app/issues/1': { status: 200, body: { number: 1, state: 'open', title: 'Open one', html_url: 'https://github.com/acme/app/issues/1' } },
  '/repos/acme/app/issues/2': { status: 200, body: { number: 2, state: 'closed', closed_at: '2026-03-01T10:00:00Z', title: 'Closed one' } },
  '/repos/acme/app/issues/3': { status: 200, body: { number: 3, state: 'closed', closed_at: '2026-04-01T10:00:00Z', title: 'A PR', pull_request: { url: 'x' } } },
  '/repos/acme/app/pulls/3': { status: 200, body: { number: 3, state: 'closed', merged: true, merged_at: '2026-04-01T10:00:00Z' } },
  '/repos/acme/app/issues/7': { status: 200, body: { number: 7, state: 'closed', title: 'Closed PR', pull_request: { url: 'x', merged_at: null } } },
  '/repos/acme/app/pulls/7': { status: 200, body: { number: 7, state: 'closed', merged: false, merged_at: null } },
  '/repos/acme/app/issues/4': { status: 404, body: { message: 'Not Found' } },
  '/repos/acme/limited/issues/5': { status: 403, body: { message: 'API rate limit exceeded for installation.' }, headers: { 'x-ratelimit-remaining': '0' } },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    const r = REPLIES[req.url ?? ''] ?? { status: 404, body: { message: 'Not Found' } };
    res.writeHead(r.status, { 'content-type': 'application/json', ...(r.headers ?? {}) });
    res.end(JSON.stringify(r.body));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  await cleanupAll();
});

const ref = (number: number, describedOpen: boolean, repo?: string): Reference => ({
  kind: 'issue', raw: `#${number}`, value: `#${number}`, line: 1, start: 0, end: 2, in: 'prose', number, describedOpen, ...(repo ? { repo } : {}),
});
const entry = (refs: Reference[]): Entry =>
  ({ id: 'e_1', file: 'CLAUDE.md', format: 'claude-md', line: 1, endLine: 1, start: 0, end: 1, kind: 'item', type: 'project', typeSource: 'default', protected: false, text: '', headings: [], meta: {}, spans: [], refs }) as Entry;

describe('GitHub issue state', () => {
  it('fetches only issues described as open, once per number, with the API headers', async () => {
    requests.length = 0;
    const entries = [entry([ref(1, true), ref(2, true), ref(3, true), ref(1, true), ref(6, false)]), entry([ref(4, true), ref(7, true), ref(5, true, 'acme/limited')])];
    const gh = await fetchGitHubState({ entries, token: 'tok123', repo: 'acme/app', apiUrl: api, concurrency: 1 });
    expect(requests.map((r) => r.url)).toEqual([
      '/repos/acme/app/issues/1',
      '/repos/acme/app/issues/2',
      '/repos/acme/app/issues/3',
      '/repos/acme/app/pulls/3',
      '/repos/acme/app/issues/4',
      '/repos/acme/app/issues/7',
      '/repos/acme/app/pulls/7',
      '/repos/acme/limited/issues/5',
    ]);
    const h = requests[0]!.headers;
    expect([h.authorization, h.accept, h['x-github-api-version']]).toEqual(['Bearer tok123', 'application/vnd.github+json', '2022-11-28']);
    expect(gh.checked).toBe(true);
    expect(gh.repo).toBe('acme/app');
    expect(gh.issues.get('acme/app#1')).toEqual({ number: 1, repo: 'acme/app', kind: 'issue', state: 'open', title: 'Open one', url: 'https://github.com/acme/app/issues/1' });
    expect(gh.issues.get('acme/app#2')).toEqual({ number: 2, repo: 'acme/app', kind: 'issue', state: 'closed', closedAt: '2026-03-01T10:00:00Z', title: 'Closed one' });
    expect(gh.issues.get('acme/app#3')).toEqual({ number: 3, repo: 'acme/app', kind: 'pr', state: 'closed', merged: true, closedAt: '2026-04-01T10:00:00Z', title: 'A PR' });
    expect((gh.issues.get('acme/app#7') as { merged?: boolean }).merged).toBe(false);
    expect(gh.issues.get('acme/app#4')).toEqual({ error: 'not found (404)' });
    expect(gh.issues.get('acme/limited#5')).toEqual({ error: 'rate limited (403): API rate limit exceeded for installation.' });
    expect(gh.reason).toBe('rate limited (403): API rate limit exceeded for installation.');
    expect(issueStateFor(gh, 2)).toBe(gh.issues.get('acme/app#2'));
    expect(gh.issues.get('#2')).toBe(gh.issues.get('acme/app#2'));
    expect(gh.issues.has('acme/app#6')).toBe(false);
  });

  it('without a token checks nothing and says why', async () => {
    requests.length = 0;
    const gh = await fetchGitHubState({ entries: [entry([ref(1, true)])], repo: 'acme/app', apiUrl: api });
    expect([gh.checked, gh.reason, gh.issues.size, requests.length]).toEqual([false, 'no token', 0, 0]);
  });

  it('says when the repository is unknown', async () => {
    const gh = await fetchGitHubState({ entries: [entry([ref(1, true)])], token: 't', apiUrl: api });
    expect([gh.checked, gh.reason, gh.issues.size]).toEqual([false, 'repository unknown (set github.repo or GITHUB_REPOSITORY)', 0]);
  });

  it('records network errors per issue, never throws', async () => {
    const gh = await fetchGitHubState({ entries: [entry([ref(1, true)])], token: 't', repo: 'acme/app', apiUrl: 'http://127.0.0.1:1' });
    expect(gh.checked).toBe(false);
    expect((gh.issues.get('acme/app#1') as { error: string }).error).toMatch(/^network error/);
    expect(gh.reason).toMatch(/^network error/);
  });

  it('lists distinct keys, skipping references without a repository', () => {
    expect(issueKeys([entry([ref(1, true), ref(1, true, 'acme/app'), ref(2, true, 'other/x')])], 'acme/app').map((k) => k.key)).toEqual(['acme/app#1', 'other/x#2']);
    expect(issueKeys([entry([ref(1, true)])])).toEqual([]);
  });

  it('parses owner/name from https and ssh remotes', () => {
    expect(parseRepoSlug('https://github.com/acme/app.git')).toBe('acme/app');
    expect(parseRepoSlug('git@github.com:acme/app.git')).toBe('acme/app');
    expect(parseRepoSlug('ssh://git@github.example.com:2222/acme/app')).toBe('acme/app');
    expect(parseRepoSlug('https://x-access-token:abc@github.com/acme/app/')).toBe('acme/app');
    expect(parseRepoSlug('/local/path')).toBeUndefined();
  });

  it('gatherEvidence takes the repository from the origin remote and uses the token', async () => {
    const saved = process.env.GITHUB_REPOSITORY;
    delete process.env.GITHUB_REPOSITORY;
    try {
      const repo = await makeRepo();
      await repo.write('a.txt', 'a');
      await repo.commit('init', '2024-01-01');
      await repo.git.addRemote('origin', 'git@github.com:acme/app.git');
      requests.length = 0;
      const { evidence } = await gatherEvidence({ root: repo.dir, config: DEFAULT_CONFIG, entries: [entry([ref(2, true)])], token: 'tok', apiUrl: api });
      expect(evidence.github.repo).toBe('acme/app');
      expect(evidence.github.checked).toBe(true);
      expect((evidence.github.issues.get('acme/app#2') as { state: string }).state).toBe('closed');
      expect(requests.map((r) => r.url)).toEqual(['/repos/acme/app/issues/2']);
      const none = await gatherEvidence({ root: repo.dir, config: DEFAULT_CONFIG, entries: [entry([ref(2, true)])], apiUrl: api });
      expect([none.evidence.github.checked, none.evidence.github.reason]).toEqual([false, 'no token']);
    } finally {
      if (saved !== undefined) process.env.GITHUB_REPOSITORY = saved;
    }
  });
});
