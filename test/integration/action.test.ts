// The bundled Action end to end (child process, local bare origin, fake GitHub on 127.0.0.1):
// nothing is lost through the pull request (body, branch, archive, restore on the branch), and
// a shallow checkout gets one clear notice while existence is still checked.
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { FakeGitHub } from '../github/fake-github.js';
import { git, makeRepo as makeOriginRepo, type Fixture } from '../github/git-fixture.js';
import { runAction } from '../github/e2e-helpers.js';
import { buildBundles, cleanupAll, cli, snapshot, tempDir } from './helpers.js';

let bundles = { dir: '', cli: '', action: '' };
beforeAll(() => {
  bundles = buildBundles();
}, 60_000);
afterAll(cleanupAll);

const TOKEN = 'ghs_' + 'actTOKEN'.repeat(3);
const event = { repository: { full_name: 'acme/widgets', default_branch: 'main' } };
const MEMORY = [
  '# Project memory',
  '',
  '## Structure',
  '',
  '- Authentication lives in `src/auth.ts`.',
  '- Run tests with `npm test`.',
  '- Currently working on issue #42, halfway through the refactor.',
  '',
  '<!-- PROTECTED -->',
  '- Never force-push to `main`; `src/auth.ts` is named here on purpose.',
  '',
  '## Conventions',
  '',
  '- Indent with two spaces everywhere.',
  '- Yesterday the user seemed frustrated with the lint output.',
  '',
].join('\n');
const FILES = {
  'CLAUDE.md': MEMORY,
  'package.json': '{\n  "name": "widgets",\n  "scripts": { "test": "vitest" }\n}\n',
  'src/auth.ts': 'export {};\n',
};

function repo(t: TestContext): Fixture {
  const f = makeOriginRepo(FILES);
  t.onTestFinished(() => f.cleanup());
  return f;
}
async function server(t: TestContext): Promise<FakeGitHub> {
  const g = new FakeGitHub({ token: TOKEN });
  await g.start();
  t.onTestFinished(() => g.stop());
  return g;
}
const action = (o: Omit<Parameters<typeof runAction>[0], 'bundle'>) => runAction({ ...o, bundle: bundles.action });

describe.concurrent('the Action, end to end', () => {
  it('pr mode: every removed line is in the PR body and the branch archive; restore on the branch gives the memory back', async (t) => {
    const fx = repo(t);
    git(fx.work, ['rm', '-q', 'src/auth.ts']);
    fx.commit('drop auth', '2026-01-06T10:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'main']);
    const gh = await server(t);
    const res = await action({ workspace: fx.work, inputs: { mode: 'pr', token: TOKEN, 'fail-on': 'never' }, eventName: 'workflow_dispatch', payload: event, apiUrl: gh.url });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.outputs['pull-request-operation']).toBe('created');
    const body = gh.pulls[0].body;

    // What the branch removed, line by line, is in the body (removed text in details) and in the archive.
    const work = path.join(tempDir('ma-int-branch-'), 'w');
    await simpleGit().clone(fx.origin, work, ['-q', '-b', 'memory-audit/prune']);
    const pruned = snapshot(work).get('CLAUDE.md')!;
    const removed = MEMORY.split('\n').filter((l) => l.startsWith('- ') && !pruned.split('\n').includes(l));
    // (the deleted auth path is security-related: left for review, not deleted)
    expect(removed).toEqual([
      '- Currently working on issue #42, halfway through the refactor.',
      '- Yesterday the user seemed frustrated with the lint output.',
    ]);
    const archive = snapshot(work).get('.memory-audit/archive.jsonl')!;
    const records = archive.trim().split('\n').map((l) => JSON.parse(l) as { id: string; text: string });
    for (const line of removed) {
      expect(body.includes(line.slice(2)), `body misses ${line}`).toBe(true);
      expect(records.some((x) => x.text === line), `archive misses ${line}`).toBe(true);
    }
    // The protected entry is byte-identical on the branch.
    expect(pruned).toContain('<!-- PROTECTED -->\n- Never force-push to `main`; `src/auth.ts` is named here on purpose.\n');

    // On the PR branch, restore (in the CLI) brings every removed entry back.
    for (const x of records) expect((await cli(work, ['restore', x.id])).code).toBe(0);
    expect(snapshot(work).get('CLAUDE.md')).toBe(MEMORY);

    // A second run against the same main changes nothing remote.
    const before = gh.writes().length;
    git(fx.work, ['checkout', '-q', '-f', 'main']);
    git(fx.work, ['clean', '-q', '-fdx']);
    const again = await action({ workspace: fx.work, inputs: { mode: 'pr', token: TOKEN, 'fail-on': 'never' }, eventName: 'workflow_dispatch', payload: event, apiUrl: gh.url });
    expect(again.code).toBe(0);
    expect(again.outputs['pull-request-operation']).toBe('none');
    expect(gh.writes().length).toBe(before);
  });

  it('report mode on a shallow checkout: one shallow-history notice naming fetch-depth: 0, paths still checked at HEAD', async (t) => {
    const fx = repo(t);
    git(fx.work, ['mv', 'src/auth.ts', 'src/session.ts']);
    fx.commit('rename', '2026-01-06T10:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'main']);
    const shallow = path.join(tempDir('ma-int-shallow-'), 'w');
    await simpleGit().clone(`file://${fx.origin}`, shallow, ['-q', '--depth', '1']);
    const gh = await server(t);
    const res = await action({ workspace: shallow, inputs: { mode: 'report', token: TOKEN, 'fail-on': 'never' }, eventName: 'workflow_dispatch', payload: event, apiUrl: gh.url });
    expect(res.code).toBe(0);
    expect(res.outputs.mode).toBe('report');
    const kinds = ([...res.report.findings, ...(res.report.notes ?? [])] as Array<{ kind: string; file: string; line: number }>).map((f) => `${f.kind} ${f.file}:${f.line}`);
    expect(kinds.filter((k) => k.startsWith('shallow-history'))).toHaveLength(1);
    expect(kinds).toContain('path-missing CLAUDE.md:5');
    expect(res.summary).toContain('fetch-depth: 0');
    expect(gh.writes()).toEqual([]);
  });

  it('report mode with bad memory files: an error annotation per file naming file and line, the rest audited', async (t) => {
    const fx = repo(t);
    fx.write('.claude/memory/MEMORY.md', '- [Bad](bad.md) — x\n- [Bin](bin.md) — y\n');
    fx.write('.claude/memory/bad.md', '---\nname: bad\ntype: [unclosed\n---\nBody.\n');
    fx.write('.claude/memory/bin.md', 'abc\u0000def');
    fx.commit('bad memory', '2026-01-06T10:00:00Z');
    const gh = await server(t);
    const res = await action({ workspace: fx.work, inputs: { mode: 'report', token: TOKEN }, eventName: 'workflow_dispatch', payload: event, apiUrl: gh.url });
    // Errors fail the step (fail-on: error) without crashing it.
    expect(res.code).toBe(1);
    const errors = res.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors.filter((l) => l.includes('file=.claude/memory/bad.md,line=3'))).toHaveLength(1);
    expect(errors.filter((l) => l.includes('file=.claude/memory/bin.md,line=1'))).toHaveLength(1);
    expect(res.stdout).toContain('::warning title=memory-audit%3A ephemeral,file=CLAUDE.md,line=7::');
    expect(res.outputs['errors-count']).toBe('2');
    expect(res.summary).toContain('.claude/memory/bad.md');
  });

  it('memory text cannot inject workflow commands (::error, ::set-output, ::add-mask) into the log', async (t) => {
    const fx = makeOriginRepo({
      'CLAUDE.md': '# Notes\n\n- Currently working on it\n::error title=PWNED::injected\n- Old file `src/gone.ts`\n::set-output name=x::y\n\n```\n::add-mask::abc\n```\n',
    });
    t.onTestFinished(() => fx.cleanup());
    const gh = await server(t);
    const res = await action({ workspace: fx.work, inputs: { mode: 'report', token: TOKEN, 'fail-on': 'never' }, eventName: 'workflow_dispatch', payload: event, apiUrl: gh.url });
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n').filter((l) => /PWNED|set-output|add-mask::abc/.test(l))).toEqual([]);
    expect(Object.keys(res.outputs)).not.toContain('x');
  });
});
