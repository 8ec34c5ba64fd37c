// End to end, comment mode on what real pull requests look like (QA round 8): forks and
// repositories that are forks, a read-only token, a folder move with hundreds of memory
// references, memory the pull request already fixed, pull_request_target on the base branch;
// and the byte limits of step outputs and summaries for memory written in CJK.
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { join } from 'node:path';
import { git, type Fixture } from './git-fixture.js';
import { buildBundle, FILES, MEMORY, PR_CALLS, runAction as run0, TOKEN , repoFor, serverFor } from './e2e-helpers.js';
import { REPORT_OUTPUT_LIMIT, reportJsonOutput } from '../../src/github/action.js';
import { renderSummary, SUMMARY_LIMIT } from '../../src/github/summary.js';
import { folderMove, renderPrComment } from '../../src/report/pr-comment.js';
import type { Report } from '../../src/types.js';

let built = { dir: '', bundle: '' };
beforeAll(() => {
  built = buildBundle();
}, 60_000);
const runAction = (o: Omit<Parameters<typeof run0>[0], 'bundle'>) => run0({ ...o, bundle: built.bundle });

type T = TestContext;
const repo = repoFor;
const server = serverFor;

/** The event payload as GitHub sends it; `head.repo` null is a pull request whose fork was deleted. */
function payload(base: string, head: string, o: { headRepo?: string | null; headFork?: boolean; baseFork?: boolean } = {}) {
  const baseRepo = { full_name: 'acme/widgets', fork: o.baseFork ?? false };
  const headRepo = o.headRepo === null ? null : { full_name: o.headRepo ?? 'acme/widgets', fork: o.headFork ?? false };
  return {
    pull_request: { number: 5, base: { sha: base, ref: 'main', repo: baseRepo }, head: { sha: head, ref: 'feature', repo: headRepo } },
    repository: { full_name: 'acme/widgets', default_branch: 'main', fork: o.baseFork ?? false },
  };
}

/** main has a stale line already (line 7, session state); the PR renames src/auth.ts and adds session state (line 11). */
function renamePr(t: T): { fx: Fixture; base: string; head: string } {
  const fx = repo(t, FILES);
  const base = git(fx.work, ['rev-parse', 'HEAD']).trim();
  git(fx.work, ['checkout', '-q', '-b', 'feature']);
  git(fx.work, ['mv', 'src/auth.ts', 'src/session.ts']);
  fx.write('CLAUDE.md', MEMORY.replace('- Indent with', '- Currently debugging the login redirect.\n- Indent with'));
  const head = fx.commit('rename auth', '2026-01-07T00:00:00Z');
  git(fx.work, ['push', '-q', 'origin', 'feature']);
  return { fx, base, head };
}

const FORK_NOTICE =
  '::notice title=memory-audit::This pull request comes from a fork, so the workflow token is read-only: no comment was posted; ' +
  'the comment is in the job summary, and fail-on counts only what the pull request changes. ' +
  'Run memory-audit on `pull_request_target` (it only reads files; check out the pull request head) or give the job a token that can write.';

describe.concurrent('comment mode on forks and read-only tokens', () => {
  it('comments on a same-repository pull request in a repository that is itself a fork', async (t) => {
    const { fx, base, head } = renamePr(t);
    const gh = await server(t, { token: TOKEN });
    const r = await runAction({
      workspace: fx.work,
      inputs: {},
      eventName: 'pull_request',
      payload: payload(base, head, { headFork: true, baseFork: true }),
      apiUrl: gh.url,
    });
    expect(r.stderr).toBe('');
    expect(r.outputs.mode).toBe('comment');
    expect(r.stdout).not.toContain('comes from a fork');
    expect(gh.calls().filter(PR_CALLS)).toEqual(['GET /repos/acme/widgets/issues/5/comments?per_page=100', 'POST /repos/acme/widgets/issues/5/comments']);
    expect(gh.comments[0].body).toContain('This PR renames `src/auth.ts` to `src/session.ts`; 1 memory entry points at it:');
  });

  it('keeps the pull request scope for a fork: no API call, the comment in the summary, fail-on on what the PR changes', async (t) => {
    const { fx, base, head } = renamePr(t);
    const gh = await server(t, { token: TOKEN });
    const r = await runAction({
      workspace: fx.work,
      inputs: { 'fail-on': 'warning' },
      eventName: 'pull_request',
      payload: payload(base, head, { headRepo: 'mallory/widgets', headFork: true }),
      apiUrl: gh.url,
    });
    expect(gh.calls().filter(PR_CALLS)).toEqual([]);
    expect(r.outputs.mode).toBe('report');
    expect(r.outputs['comment-id']).toBeUndefined();
    expect(r.stdout).toContain(`${FORK_NOTICE}\n`);
    // The summary carries the comment; line 7 (session state already on main) is not part of it.
    expect(r.summary).toContain('# memory-audit (report)\n');
    expect(r.summary).toContain('This PR renames `src/auth.ts` to `src/session.ts`; 1 memory entry points at it:');
    expect(r.summary).toContain('| 🟠 | `CLAUDE.md:11` | ephemeral | Session task state ("Currently debugging") is stale by the next session; delete it or restate it as a lasting fact. |');
    const comment = r.summary.slice(r.summary.indexOf('<!-- memory-audit:comment -->'), r.summary.indexOf('## Findings'));
    expect(comment).toContain('`CLAUDE.md:11`');
    expect(comment).not.toContain('`CLAUDE.md:7`');
    // Annotations and fail-on: the two findings of the pull request (rename, added session state), not line 7.
    expect(r.stdout).toMatch(/^::warning title=memory-audit%3A ephemeral,file=CLAUDE.md,line=11::/m);
    expect(r.stdout).not.toMatch(/line=7::/);
    expect(r.stdout).toContain('::error::memory-audit: 2 findings at or above "warning" in what this pull request changes (input fail-on).');
    expect(r.code).toBe(1);
  });

  it('passes a fork pull request that changes nothing memory depends on, though main has stale memory', async (t) => {
    const fx = repo(t, FILES);
    const base = git(fx.work, ['rev-parse', 'HEAD']).trim();
    git(fx.work, ['checkout', '-q', '-b', 'feature']);
    fx.write('README.md', '# widgets\n');
    const head = fx.commit('readme', '2026-01-07T00:00:00Z');
    const gh = await server(t, { token: TOKEN });
    // A fork since deleted: GitHub sends `head.repo: null`.
    const r = await runAction({ workspace: fx.work, inputs: { 'fail-on': 'warning' }, eventName: 'pull_request', payload: payload(base, head, { headRepo: null }), apiUrl: gh.url });
    expect(gh.calls().filter(PR_CALLS)).toEqual([]);
    expect(r.stdout).toContain(FORK_NOTICE);
    expect(r.summary).toContain('- Pull request #5: nothing it changes makes memory stale.\n');
    expect(r.summary).toContain('✅ Nothing in this pull request makes agent memory stale.');
    expect(r.stdout).not.toContain('::error');
    expect(r.code).toBe(0);
  });

  it('says why no comment was posted when commenting answers 403, and keeps the pull request scope', async (t) => {
    const { fx, base, head } = renamePr(t);
    const gh = await server(t, { token: TOKEN, forbidComments: true });
    const r = await runAction({
      workspace: fx.work,
      inputs: { 'fail-on': 'warning' },
      eventName: 'pull_request_target',
      payload: payload(base, head, { headRepo: 'mallory/widgets', headFork: true }),
      apiUrl: gh.url,
    });
    expect(gh.calls().filter(PR_CALLS)).toEqual(['GET /repos/acme/widgets/issues/5/comments?per_page=100', 'POST /repos/acme/widgets/issues/5/comments']);
    expect(gh.comments).toEqual([]);
    expect(r.outputs.mode).toBe('report');
    expect(r.stdout).toContain(
      '::notice title=memory-audit::No comment was posted: Commenting on #5 failed with 403 (Resource not accessible by integration). ' +
        'The token cannot comment on this pull request. Grant the job `permissions: { pull-requests: write }` ' +
        '(pull requests from forks get a read-only GITHUB_TOKEN; the audit is reported in the job summary instead). ' +
        'The comment is in the job summary, and fail-on counts only what the pull request changes.\n',
    );
    expect(r.summary).toContain('This PR renames `src/auth.ts` to `src/session.ts`; 1 memory entry points at it:');
    expect(r.stdout).toContain('::error::memory-audit: 2 findings at or above "warning" in what this pull request changes (input fail-on).');
  });
});

// Alone (not concurrent): 300 memory entries and 300 renames take the longest of these runs.
describe('comment mode: a long comment', () => {
  it('moves of one folder share a section; when shortened, the secret stays and the largest section loses rows', async (t) => {
    const shapes = Array.from({ length: 300 }, (_, i) => String(i + 1).padStart(3, '0'));
    const files: Record<string, string> = { ...FILES };
    const map = ['# element package', '', '## File map', ''];
    for (const n of shapes) {
      files[`packages/element/src/shape${n}.ts`] = `export const shape${n} = ${Number(n)};\n`;
      map.push(`- \`packages/element/src/shape${n}.ts\` - geometry helpers for shape kind ${n} (bounds, hit testing, binding)`);
    }
    files['packages/element/CLAUDE.md'] = `${map.join('\n')}\n`;
    const fx = repo(t, files);
    const base = git(fx.work, ['rev-parse', 'HEAD']).trim();
    git(fx.work, ['checkout', '-q', '-b', 'feature']);
    git(fx.work, ['mv', 'packages/element/src', 'packages/element/lib']);
    fx.write('CLAUDE.md', `${MEMORY}- Deploy key for the preview bucket: AKIAIOSFODNN7EXAMPLF secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEZ\n`);
    const head = fx.commit('element: src -> lib', '2026-01-07T00:00:00Z');
    const gh = await server(t, { token: TOKEN });
    const r = await runAction({ workspace: fx.work, inputs: { 'fail-on': 'never' }, eventName: 'pull_request', payload: payload(base, head), apiUrl: gh.url });
    expect(r.stderr).toBe('');
    expect(gh.calls().filter(PR_CALLS)).toEqual(['GET /repos/acme/widgets/issues/5/comments?per_page=100', 'POST /repos/acme/widgets/issues/5/comments']);
    const body = gh.comments[0].body;
    expect(body.length).toBeLessThanOrEqual(65_536);
    const lines = body.split('\n');
    const shown = lines.filter((l) => l.startsWith('| `packages/element/CLAUDE.md:')).length;
    expect(shown).toBeGreaterThan(200);
    expect(shown).toBeLessThan(300);
    expect(lines.slice(0, 15)).toEqual([
      '<!-- memory-audit:comment -->',
      '### memory-audit: agent memory this pull request makes stale',
      '',
      '301 memory entries need attention. Update them in this pull request, or let the scheduled memory-audit run prune them after merge.',
      '',
      '> [!NOTE]',
      `> Shortened to stay under GitHub's comment size limit: ${shown + 2} of 302 rows are shown; the full list is in the job summary of the workflow run.`,
      '',
      '#### Memory text this PR adds',
      '',
      '| | Memory | Kind | Finding |',
      '| --- | --- | --- | --- |',
      '| 🔴 | `CLAUDE.md:12` | secret | A secret (AWS access key id) is written at CLAUDE.md:12; revoke it, then replace it with a reference to where the secret is stored. |',
      '| 🔴 | `CLAUDE.md:12` | secret | A secret (AWS secret access key) is written at CLAUDE.md:12; revoke it, then replace it with a reference to where the secret is stored. |',
      '',
    ]);
    expect(lines[15]).toBe('This PR moves files from `packages/element/src/` to `packages/element/lib/`; 300 memory entries point at 300 of them:');
    expect(lines[19]).toBe(
      '| `packages/element/CLAUDE.md:5` | `packages/element/src/shape001.ts` | `packages/element/src/shape001.ts` was renamed to `packages/element/lib/shape001.ts` in ' +
        `${head.slice(0, 7)} (2026-01-07, "element: src -\\> lib"); update the reference. |`,
    );
    expect(body).toContain(`\n\n…and ${300 - shown} more rows in the job summary.\n\n<sub>memory-audit 0.3.0 · checked at ${head.slice(0, 7)}`);
    expect(body.match(/^This PR /gm)).toHaveLength(1);
    // The job summary has every row.
    expect(r.summary).toContain('## memory-audit: full pull request comment');
    expect(r.summary).toContain('| `packages/element/CLAUDE.md:304` | `packages/element/src/shape300.ts` |');
  });
});

describe.concurrent('comment mode: what the comment lists', () => {
  it('does not list memory lines the pull request already fixed (renamed from, was removed, do not recreate)', async (t) => {
    const fx = repo(t, { ...FILES, 'vitest.config.mts': 'export default {}\n', 'scripts/build.js': '// build\n', 'CLAUDE.md': MEMORY + '- `vitest.config.mts` - test configuration\n- `scripts/build.js` - build logic\n' });
    const base = git(fx.work, ['rev-parse', 'HEAD']).trim();
    git(fx.work, ['checkout', '-q', '-b', 'feature']);
    git(fx.work, ['rm', '-q', 'vitest.config.mts']);
    git(fx.work, ['mv', 'scripts/build.js', 'scripts/build.mjs']);
    fx.write('vite.config.ts', 'export default { test: {} }\n');
    fx.write(
      'CLAUDE.md',
      MEMORY +
        '- `vite.config.ts` - test configuration (`vitest.config.mts` was removed; do not recreate it)\n' +
        '- `scripts/build.mjs` - build logic (renamed from `scripts/build.js`)\n',
    );
    const head = fx.commit('fold vitest config; ESM build', '2026-01-07T00:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'feature']);
    const gh = await server(t, { token: TOKEN });
    const ev = payload(base, head);

    const r = await runAction({ workspace: fx.work, inputs: { 'fail-on': 'warning' }, eventName: 'pull_request', payload: ev, apiUrl: gh.url });
    expect(r.stderr).toBe('');
    expect(r.report.findings.filter((f: { kind: string }) => f.kind.startsWith('path-'))).toEqual([]);
    expect(gh.calls().filter(PR_CALLS)).toEqual(['GET /repos/acme/widgets/issues/5/comments?per_page=100']);
    expect(gh.comments).toEqual([]);
    expect(r.summary).toContain('- Pull request #5: nothing it changes makes memory stale.\n');
    expect(r.code).toBe(0);

    // A shallow checkout: the path check cannot see the history, so references are matched
    // against the diff directly, with the same exemptions.
    const shallow = join(fx.dir, 'shallow');
    git(fx.dir, ['clone', '-q', '--depth=1', '--branch', 'feature', `file://${fx.origin}`, shallow]);
    const r2 = await runAction({ workspace: shallow, inputs: { 'fail-on': 'warning' }, eventName: 'pull_request', payload: ev, apiUrl: gh.url });
    expect(r2.stderr).toBe('');
    expect(r2.summary).toContain('- Pull request #5: nothing it changes makes memory stale.\n');
    expect(gh.comments).toEqual([]);
  });

  it('with the path check off, lists a reference the pull request made stale, not one that forbids it', async (t) => {
    // The path check is switched off: references are matched against the diff directly.
    const fx = repo(t, {
      ...FILES,
      '.memory-audit.yml': 'checks: { path: false }\n',
      'scripts/build.js': '// build\n',
      'scripts/old.sh': 'echo old\n',
      'CLAUDE.md': MEMORY + '- `scripts/build.js` - build logic\n- `scripts/old.sh` was removed; never add `scripts/old.sh` back\n',
    });
    const base = git(fx.work, ['rev-parse', 'HEAD']).trim();
    git(fx.work, ['checkout', '-q', '-b', 'feature']);
    git(fx.work, ['mv', 'scripts/build.js', 'scripts/build.mjs']);
    git(fx.work, ['rm', '-q', 'scripts/old.sh']);
    const head = fx.commit('ESM build', '2026-01-07T00:00:00Z');
    const gh = await server(t, { token: TOKEN });
    const r = await runAction({ workspace: fx.work, inputs: { 'fail-on': 'never' }, eventName: 'pull_request', payload: payload(base, head), apiUrl: gh.url });
    expect(r.stderr).toBe('');
    const body = gh.comments[0].body;
    expect(body).toContain(
      'This PR renames `scripts/build.js` to `scripts/build.mjs`; 1 memory entry points at it:\n\n| Memory | Reference | Finding |\n| --- | --- | --- |\n' +
        '| `CLAUDE.md:12` | `scripts/build.js` | scripts/build.js was renamed to scripts/build.mjs in this pull request |\n',
    );
    expect(body).not.toContain('scripts/old.sh');
  });
});

describe.concurrent('comment mode: the checkout must hold the pull request', () => {
  it('warns instead of reporting a clean result when pull_request_target checked out the base branch', async (t) => {
    const { fx, base, head } = renamePr(t);
    git(fx.work, ['checkout', '-q', 'main']);
    const gh = await server(t, { token: TOKEN });
    const r = await runAction({ workspace: fx.work, inputs: {}, eventName: 'pull_request_target', payload: payload(base, head, { headRepo: 'mallory/widgets' }), apiUrl: gh.url });
    expect(r.stderr).toBe('');
    const msg =
      `The workspace does not hold this pull request's code: HEAD is ${base.slice(0, 7)}, neither the pull request's head ${head.slice(0, 7)} nor a merge of it ` +
      '(on `pull_request_target`, `actions/checkout` checks out the base branch unless given a `ref`). Nothing was checked and no comment was posted. ' +
      'Check out the pull request: `actions/checkout` with `ref: ${{ github.event.pull_request.head.sha }}` and `fetch-depth: 0`.';
    expect(r.stdout).toContain(`::warning title=memory-audit::${msg}\n`);
    expect(r.summary).toContain(`- ⚠️ ${msg}\n`);
    expect(gh.calls().filter(PR_CALLS)).toEqual([]);
    expect(r.outputs.mode).toBe('report');
    expect(r.code).toBe(0);
  });

  it('accepts a merge commit of the head (refs/pull/N/merge), even from a shallow clone', async (t) => {
    const { fx, base, head } = renamePr(t);
    git(fx.work, ['checkout', '-q', 'main']);
    git(fx.work, ['merge', '-q', '--no-ff', '-m', 'merge', 'feature'], { GIT_AUTHOR_DATE: '2026-01-08T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-08T00:00:00Z' });
    git(fx.work, ['push', '-q', 'origin', 'HEAD:refs/heads/merge']);
    const shallow = join(fx.dir, 'shallow');
    git(fx.dir, ['clone', '-q', '--depth=1', '--branch', 'merge', `file://${fx.origin}`, shallow]);
    const gh = await server(t, { token: TOKEN });
    const r = await runAction({ workspace: shallow, inputs: { 'fail-on': 'never' }, eventName: 'pull_request_target', payload: payload(base, head, { headRepo: 'mallory/widgets' }), apiUrl: gh.url });
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toContain('does not hold');
    expect(r.outputs.mode).toBe('comment');
    expect(gh.comments[0].body).toContain('This PR renames `src/auth.ts` to `src/session.ts`; 1 memory entry points at it:');
  });
});

// ---------------------------------------------------------------- byte limits (CJK)

const PARA =
  '该模块负责处理用户会话的创建、刷新与注销流程，并在网关层统一校验令牌签名、过期时间以及权限范围；修改时必须同步更新对应的单元测试与接口文档，避免前端调用方出现不兼容的行为变化。';

function cjkReport(entries: number): Report {
  return {
    schemaVersion: 1,
    tool: { name: 'memory-audit', version: '0.3.0' },
    repo: { root: '/r', head: null },
    files: [{ path: '.claude/rules/m.md', format: 'claude-md', lines: entries, bytes: entries * 300, tokens: entries * 100 }],
    entries: Array.from({ length: entries }, (_, i) => ({
      id: `e_${String(i).padStart(8, '0')}`,
      file: '.claude/rules/m.md',
      line: i + 1,
      endLine: i + 1,
      type: 'project' as const,
      protected: false,
      text: `- 第${i}条：${PARA}`,
    })),
    findings: [],
    plan: [],
    summary: { entries, findings: 0, byKind: {}, bySeverity: { error: 0, warning: 0, info: 0 }, tokens: entries * 100 },
  };
}

describe('byte limits of outputs and the job summary', () => {
  it('report-json: a report under the limit in characters but over it in bytes leaves out entries', () => {
    const r = cjkReport(4000);
    const full = JSON.stringify(r);
    expect(full.length).toBeLessThan(REPORT_OUTPUT_LIMIT);
    expect(Buffer.byteLength(full)).toBeGreaterThan(REPORT_OUTPUT_LIMIT);
    const out = reportJsonOutput(r, '/tmp/r.json');
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(REPORT_OUTPUT_LIMIT);
    const parsed = JSON.parse(out);
    expect([parsed.entries, parsed.plan, parsed.truncated, parsed.reportPath]).toEqual([[], [], true, '/tmp/r.json']);
    // Under the limit in bytes: the whole report.
    expect(reportJsonOutput(cjkReport(100), '/tmp/r.json')).toBe(JSON.stringify(cjkReport(100)));
  });

  it('the job summary stays under its limit in bytes and is cut between two characters', () => {
    const extra = Array.from({ length: 6000 }, (_, i) => `- 第${i}条：${PARA}`).join('\n');
    expect(extra.length).toBeLessThan(SUMMARY_LIMIT);
    expect(Buffer.byteLength(extra)).toBeGreaterThan(SUMMARY_LIMIT);
    const md = renderSummary({ mode: 'pr', dryRun: false, report: cjkReport(1), actions: ['Created pull request #1'], extra: [extra] });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(Buffer.byteLength(md)).toBeGreaterThan(SUMMARY_LIMIT - 100);
    expect(md.endsWith('\n\n…(summary truncated; the JSON report has everything)\n')).toBe(true);
    expect(md).not.toContain('\uFFFD');
    expect(md.startsWith('# memory-audit (pr)\n\n- Created pull request #1\n\n- 第0条：')).toBe(true);
  });

  it('folder moves: the longest common trailing path is stripped from both sides', () => {
    expect(folderMove('packages/element/src/shape001.ts', 'packages/element/lib/shape001.ts')).toEqual({ from: 'packages/element/src', to: 'packages/element/lib' });
    expect(folderMove('a/src/x/y.ts', 'a/lib/x/y.ts')).toEqual({ from: 'a/src', to: 'a/lib' });
    expect(folderMove('scripts/build.js', 'scripts/build.mjs')).toBe(null);
    expect(folderMove('x.ts', 'src/x.ts')).toBe(null);
  });
});

describe('shortening the comment', () => {
  const hit = (i: number, severity: 'error' | 'warning' | 'info') => ({
    entryId: `e_${severity}_${i}`,
    file: 'CLAUDE.md',
    line: i,
    ref: `${severity}/${i}.ts`,
    message: `${severity} message number ${i} ${'x'.repeat(40)}`,
    finding: { severity },
  });
  const section = (path: string, sev: 'error' | 'warning' | 'info', n: number) => ({
    kind: 'deleted' as const,
    path,
    hits: Array.from({ length: n }, (_, i) => hit(i + 1, sev)),
  });
  const analysis = { impacts: [section('docs/info', 'info', 40), section('src/warn', 'warning', 40), section('src/err', 'error', 3)], added: [] };
  const rows = (body: string, sev: string) => body.split('\n').filter((l) => l.includes(`| \`${sev}/`)).length;

  it('cuts info rows first, puts the section with errors first, and says how many rows moved', () => {
    const full = renderPrComment(analysis, { head: 'abc1234' });
    expect(full.overflow).toBe(null);
    const { body, overflow } = renderPrComment(analysis, { head: 'abc1234', maxChars: full.body.length - 2000 });
    expect(body.length).toBeLessThanOrEqual(full.body.length - 2000);
    expect([rows(body, 'error'), rows(body, 'warning')]).toEqual([3, 40]);
    const info = rows(body, 'info');
    expect(info).toBeGreaterThan(0);
    expect(info).toBeLessThan(40);
    expect(body.indexOf('This PR deletes `src/err`')).toBeLessThan(body.indexOf('This PR deletes `docs/info`'));
    expect(body).toContain(`\n…and ${40 - info} more rows in the job summary.\n`);
    expect(body).toContain(`Shortened to stay under GitHub's comment size limit: ${43 + info} of 83 rows are shown;`);
    expect(rows(overflow!, 'info')).toBe(40);
  });

  it('when titles alone do not fit, drops sections without errors and keeps one row of each section with errors', () => {
    const { body } = renderPrComment(analysis, { head: 'abc1234', maxChars: 900 });
    expect(body.length).toBeLessThanOrEqual(900);
    expect(body).toContain('This PR deletes `src/err`; 3 memory entries point at it:');
    expect([rows(body, 'error'), rows(body, 'warning'), rows(body, 'info')]).toEqual([2, 0, 0]);
    expect(body).toContain("Shortened to stay under GitHub's comment size limit: 2 of 83 rows are shown;");
    expect(body).toContain('\n…and 1 more row in the job summary.\n\n…and 2 more sections in the job summary.\n\n<sub>');
    expect(body).not.toContain('`docs/info`');
  });
});
