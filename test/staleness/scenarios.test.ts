// End to end on real git histories: the labelled scenario suite and the GitHub status
// check against a local HTTP server on 127.0.0.1.
import { findingsAndNotes } from '../../src/report/findings.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import type { Finding } from '../../src/types.js';
import { cleanupRepos, makeRepo } from './helpers.js';
import { SCENARIOS } from './scenarios.js';

const STALE = new Set(['path-missing', 'path-renamed', 'script-missing', 'package-missing', 'package-renamed', 'version-drift', 'count-drift', 'status-drift']);
const NOW = new Date('2026-06-01T00:00:00Z');

afterAll(cleanupRepos);

function staleOf(findings: Finding[], file: string): Array<{ line: number; ref: string; kind: string; now?: string }> {
  return findings
    .filter((f) => f.file === file && STALE.has(f.kind))
    .map((f) => ({ line: f.line, ref: f.ref ?? '', kind: f.kind, ...(f.kind === 'path-renamed' || f.kind === 'package-renamed' ? { now: String(f.evidence?.now) } : {}) }))
    .sort((a, b) => a.line - b.line || a.ref.localeCompare(b.ref));
}

describe('scenario suite (real git histories)', () => {
  for (const s of SCENARIOS) {
    it(`${s.name}: finds exactly the stale references, with successors`, async () => {
      const b = await s.build();
      const { report } = await audit({ root: b.dir, memory: [b.memory_path], now: NOW });
      const want = b.expected
        .map((e) => ({ line: e.line, ref: e.ref, kind: e.kind, ...(e.kind.endsWith('renamed') ? { now: e.now } : {}) }))
        .sort((a, b) => a.line - b.line || a.ref.localeCompare(b.ref));
      expect(staleOf(report.findings, b.memory_path)).toEqual(want);
      for (const n of b.negatives) expect(report.findings.filter((f) => f.line === n.line && f.ref === n.ref && STALE.has(f.kind))).toEqual([]);
    });
  }

  it('writes one actionable sentence with the commit for each kind', async () => {
    const b = await SCENARIOS.find((s) => s.name === 'scenario-monorepo-move')!.build();
    const { report } = await audit({ root: b.dir, memory: [b.memory_path], now: NOW });
    const msg = (ref: string) => report.findings.find((f) => f.ref === ref && STALE.has(f.kind))!.message;
    expect(msg('src/server/index.ts')).toBe(
      `\`src/server/index.ts\` was renamed to \`packages/server/src/index.ts\` in ${b.shas.move} (2026-02-10, "refactor: move the server into packages/server"); update the reference.`,
    );
    expect(msg('npm run lint:fix')).toBe(
      `\`npm run lint:fix\` no longer works: the script was renamed to \`fix\` in ${b.shas.move} (2026-02-10, "refactor: move the server into packages/server"); use \`npm run fix\` instead.`,
    );
    const renamed = report.findings.find((f) => f.ref === 'src/server/')!;
    expect([renamed.kind, renamed.evidence?.now, renamed.suggestion?.replace]).toEqual(['path-renamed', 'packages/server/src', 'packages/server/src/']);
  });

  it('follows a file deleted and re-added elsewhere to its new path', async () => {
    const b = await SCENARIOS.find((s) => s.name === 'scenario-deleted-readded')!.build();
    const { report } = await audit({ root: b.dir, memory: [b.memory_path], now: NOW });
    const f = report.findings.find((x) => x.ref === 'scripts/deploy.sh')!;
    expect(f.message).toMatch(/^`scripts\/deploy\.sh` was deleted in [0-9a-f]{7} \(2026-02-01, "chore: remove scripts"\) and re-added as `tools\/deploy\.sh` in [0-9a-f]{7} \(2026-02-03, "chore: bring deploy back under tools\/"\); update the reference\.$/);
    expect(report.findings.filter((x) => x.ref === 'scripts/seed.sh')).toEqual([]);
  });
});

describe('status check against a local GitHub API', () => {
  let server: Server | undefined;
  afterAll(() => server?.close());

  async function serve(handler: (url: string) => { status: number; body: unknown; headers?: Record<string, string> }): Promise<string> {
    server?.close();
    server = createServer((req, res) => {
      const r = handler(req.url ?? '');
      res.writeHead(r.status, { 'content-type': 'application/json', ...(r.headers ?? {}) });
      res.end(JSON.stringify(r.body));
    });
    await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }

  async function repoWithMemory(): Promise<string> {
    const r = await makeRepo();
    await r.write('CLAUDE.md', ['# Notes', '', '- Currently working on #12 (in progress).', '', '- PR #13 is pending review.', '', '- Blocked by #14.', '', '- Issue #15 was fixed long ago.', ''].join('\n'));
    await r.commit('memory', '2026-05-01');
    return r.dir;
  }

  it('reports a closed issue and a merged PR, and says which numbers it could not check (404)', async () => {
    const api = await serve((url) => {
      if (url.endsWith('/repos/acme/app/issues/12')) return { status: 200, body: { number: 12, state: 'closed', closed_at: '2026-05-20T08:00:00Z', title: 'Login loop' } };
      if (url.endsWith('/repos/acme/app/issues/13')) return { status: 200, body: { number: 13, state: 'closed', closed_at: '2026-05-21T08:00:00Z', title: 'Add retries', pull_request: { merged_at: '2026-05-21T08:00:00Z' } } };
      return { status: 404, body: { message: 'Not Found' } };
    });
    const dir = await repoWithMemory();
    const { report } = await audit({ root: dir, memory: ['CLAUDE.md'], now: NOW, token: 't0k', repoSlug: 'acme/app', apiUrl: api });
    const got = findingsAndNotes(report).filter((f) => f.kind.startsWith('status-')).map((f) => [f.kind, f.line, f.ref, f.severity, f.message]);
    expect(got).toEqual([
      ['status-drift', 3, '#12', 'warning', 'Issue acme/app#12 ("Login loop") is described as open but was closed on 2026-05-20; remove the entry or record the outcome.'],
      ['status-drift', 5, 'PR #13', 'warning', 'PR acme/app#13 ("Add retries") is described as open but was merged on 2026-05-21; remove the entry or record the outcome.'],
      ['status-unchecked', 7, '#14', 'info', 'Could not check whether `#14` is still open (not found (404)); pass a GitHub token (GITHUB_TOKEN or --token) to verify.'],
    ]);
  });

  it('goes on without a token or when rate limited (403)', async () => {
    const api = await serve(() => ({ status: 403, body: { message: 'API rate limit exceeded' }, headers: { 'x-ratelimit-remaining': '0' } }));
    const dir = await repoWithMemory();
    const limited = await audit({ root: dir, memory: ['CLAUDE.md'], now: NOW, token: 't0k', repoSlug: 'acme/app', apiUrl: api });
    expect(findingsAndNotes(limited.report).filter((f) => f.kind.startsWith('status-')).map((f) => [f.kind, f.line, f.ref])).toEqual([
      ['status-unchecked', 3, '#12'],
      ['status-unchecked', 5, 'PR #13'],
      ['status-unchecked', 7, '#14'],
    ]);
    expect(findingsAndNotes(limited.report).find((f) => f.line === 3 && f.kind === 'status-unchecked')!.message).toBe(
      'Could not check whether `#12` is still open (rate limited (403): API rate limit exceeded); pass a GitHub token (GITHUB_TOKEN or --token) to verify.',
    );
    const none = await audit({ root: dir, memory: ['CLAUDE.md'], now: NOW, repoSlug: 'acme/app' });
    // What could not be checked is a note of the JSON report, not a finding (REPORT-FORMAT.md kinds).
    expect(none.report.findings.filter((f) => f.kind === 'status-unchecked')).toEqual([]);
    expect(findingsAndNotes(none.report).filter((f) => f.kind.startsWith('status-')).map((f) => [f.kind, f.line, f.evidence?.reason])).toEqual([
      ['status-unchecked', 3, 'no token'],
      ['status-unchecked', 5, 'no token'],
      ['status-unchecked', 7, 'no token'],
    ]);
  });
});
