// Non-negotiable 3, end to end: a credential written in memory never leaves it. Fake but
// pattern-valid secrets (built by concatenation) go through the CLI, prune, and the bundled
// Action (report, pr and comment modes against the local fake GitHub); no output holds one.
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { FakeGitHub } from '../github/fake-github.js';
import { git, makeRepo as makeOriginRepo, type Fixture } from '../github/git-fixture.js';
import { runAction } from '../github/e2e-helpers.js';
import { buildBundles, cleanupAll, cli, leaked, makeRepo, NOW, ROOT, SECRET_MEMORY, SECRETS, tempDir } from './helpers.js';

let bundles = { dir: '', cli: '', action: '' };
beforeAll(() => {
  bundles = buildBundles();
}, 60_000);
afterAll(cleanupAll);

const TOKEN = 'ghs_' + 'intTOKEN'.repeat(3);

describe.concurrent('secrets never leak', () => {
  it('CLI audit: text, markdown and json on stdout and in --output files hold no secret; every secret is reported with its line', async () => {
    const r = await makeRepo({ 'CLAUDE.md': SECRET_MEMORY });
    const out = tempDir('ma-int-out-');
    for (const format of ['text', 'markdown', 'json']) {
      const file = path.join(out, `report.${format}`);
      const res = await cli(r.dir, ['--now', NOW, '--format', format, '--output', file]);
      expect(res.code).toBe(1);
      expect(leaked(res.stdout), format).toEqual([]);
      expect(leaked(res.stderr), format).toEqual([]);
      expect(leaked(readFileSync(file, 'utf8')), format).toEqual([]);
    }
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
      findings: Array<{ kind: string; line: number; severity: string; evidence?: { rule?: string } }>;
      plan: Array<{ action: string; rule: number; reason: string }>;
    };
    const secrets = report.findings.filter((f) => f.kind === 'secret');
    expect(secrets.map((f) => `${f.line} ${f.severity}`)).toEqual(['5 error', '6 error', '7 error', '8 error', '9 error', '14 error']);
    // Entries with secrets are for human review, never silently deleted.
    expect(report.plan.filter((p) => p.action === 'review').length).toBe(6);
    expect(report.plan.filter((p) => p.action === 'review').every((p) => p.rule === 0)).toBe(true);
  });

  it('prune: the diff (text, markdown), the pruning log and the archive hold no secret; the secret lines stay for review', async () => {
    const r = await makeRepo({ 'CLAUDE.md': SECRET_MEMORY });
    for (const format of ['text', 'markdown']) {
      const res = await cli(r.dir, ['prune', '--now', NOW, '--format', format, '--fail-on', 'never']);
      expect(res.code).toBe(0);
      expect(leaked(res.stdout), format).toEqual([]);
      expect(leaked(res.stderr), format).toEqual([]);
    }
    const w = await cli(r.dir, ['prune', '--write', '--now', NOW, '--fail-on', 'never']);
    expect(w.code).toBe(0);
    expect(leaked(w.stdout)).toEqual([]);
    expect(w.stdout).toContain('--- a/CLAUDE.md\n+++ b/CLAUDE.md\n');
    expect(w.stdout).toContain('\n-- Currently working on the deploy script, right now.\n');
    const log = readFileSync(path.join(r.dir, '.memory-audit/pruning-log.md'), 'utf8');
    const archive = readFileSync(path.join(r.dir, '.memory-audit/archive.jsonl'), 'utf8');
    expect(leaked(log)).toEqual([]);
    expect(leaked(archive)).toEqual([]);
    expect(archive).toContain('- Currently working on the deploy script, right now.');
    // The secrets are still in the memory file, untouched, waiting for a human.
    expect(leaked(r.read('CLAUDE.md'))).toEqual(Object.keys(SECRETS));
  });

  it('the bundled CLI as a child process: no secret on stdout or stderr', async () => {
    const r = await makeRepo({ 'CLAUDE.md': SECRET_MEMORY });
    for (const args of [['--format', 'json'], ['prune', '--format', 'text']]) {
      const res = await runNodeCli(r.dir, [...args, '--now', NOW]);
      expect(res.code).toBe(1);
      expect(leaked(res.stdout + res.stderr), args.join(' ')).toEqual([]);
    }
  });

  function repo(t: TestContext, files: Record<string, string>): Fixture {
    const f = makeOriginRepo(files);
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
  const withToken = (inputs: Record<string, string>) => ({ ...inputs, token: TOKEN });
  const event = { repository: { full_name: 'acme/widgets', default_branch: 'main' } };

  it('Action report mode: job summary, annotations, outputs and the JSON report hold no secret', async (t) => {
    const fx = repo(t, { 'CLAUDE.md': SECRET_MEMORY });
    const gh = await server(t);
    const res = await action({ workspace: fx.work, inputs: withToken({ mode: 'report', 'fail-on': 'never' }), eventName: 'workflow_dispatch', payload: event, apiUrl: gh.url });
    expect(res.code).toBe(0);
    expect(res.outputs.mode).toBe('report');
    const annotations = res.stdout.split('\n').filter((l) => /^::(warning|error|notice)/.test(l));
    expect(annotations.filter((l) => l.includes('secret') || l.includes('Secret')).length).toBeGreaterThanOrEqual(6);
    expect(leaked(res.stdout)).toEqual([]);
    expect(leaked(res.stderr)).toEqual([]);
    expect(leaked(res.summary)).toEqual([]);
    expect(leaked(JSON.stringify(res.outputs))).toEqual([]);
    expect(leaked(JSON.stringify(res.report))).toEqual([]);
    expect(gh.writes()).toEqual([]);
  });

  it('Action pr mode: the PR body, the pushed commit (memory, log, archive) and the summary hold no new secret', async (t) => {
    const fx = repo(t, { 'CLAUDE.md': SECRET_MEMORY });
    const gh = await server(t);
    const mainSha = git(fx.work, ['rev-parse', 'HEAD']).trim();
    const res = await action({ workspace: fx.work, inputs: withToken({ mode: 'pr', 'fail-on': 'never' }), eventName: 'schedule', payload: event, apiUrl: gh.url });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.outputs['pull-request-operation']).toBe('created');
    expect(gh.pulls.length).toBe(1);
    expect(leaked(gh.pulls[0].body)).toEqual([]);
    expect(leaked(gh.pulls[0].title)).toEqual([]);
    for (const w of gh.writes()) expect(leaked(JSON.stringify(w.body))).toEqual([]);
    expect(leaked(res.stdout)).toEqual([]);
    expect(leaked(res.summary)).toEqual([]);
    // What the PR adds to the repository: no line of it holds a secret.
    const diff = git(fx.origin, ['diff', mainSha, 'refs/heads/memory-audit/prune']);
    const added = diff.split('\n').filter((l) => l.startsWith('+')).join('\n');
    expect(added).toContain('Currently working on the deploy script');
    expect(leaked(added)).toEqual([]);
    const files = git(fx.origin, ['diff', '--name-only', mainSha, 'refs/heads/memory-audit/prune']).trim().split('\n');
    expect(files).toEqual(['.memory-audit/archive.jsonl', '.memory-audit/pruning-log.md', 'CLAUDE.md']);
  });

  it('Action comment mode: a PR that adds secrets to memory gets a comment that names the lines, not the values', async (t) => {
    const fx = repo(t, { 'CLAUDE.md': '# Notes\n\n- Indent with two spaces.\n' });
    const gh = await server(t);
    const base = git(fx.work, ['rev-parse', 'HEAD']).trim();
    git(fx.work, ['checkout', '-q', '-b', 'feature']);
    fx.write('CLAUDE.md', SECRET_MEMORY);
    const head = fx.commit('add notes', '2026-01-07T00:00:00Z');
    git(fx.work, ['push', '-q', 'origin', 'feature']);
    const payload = {
      pull_request: {
        number: 5,
        title: 'notes $(touch /tmp/pwned) `rm -rf /`',
        base: { sha: base, ref: 'main', repo: { full_name: 'acme/widgets' } },
        head: { sha: head, ref: 'feature', repo: { full_name: 'acme/widgets', fork: false } },
      },
      repository: { full_name: 'acme/widgets', default_branch: 'main' },
    };
    const res = await action({ workspace: fx.work, inputs: withToken({ 'fail-on': 'never' }), eventName: 'pull_request', payload, apiUrl: gh.url });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.outputs.mode).toBe('comment');
    expect(gh.comments.length).toBe(1);
    const body = gh.comments[0].body;
    expect(body.startsWith('<!-- memory-audit:comment -->\n')).toBe(true);
    expect(body).toContain('secret');
    expect(leaked(body)).toEqual([]);
    expect(leaked(res.stdout)).toEqual([]);
    expect(leaked(res.summary)).toEqual([]);
    expect(gh.pulls).toEqual([]);
  });

  it('untrusted text never reaches a shell: src/ runs git and child processes with argument arrays only', () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts')) files.push(p);
      }
    };
    walk(path.join(ROOT, 'src'));
    const offenders: string[] = [];
    const users: string[] = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const rel = path.relative(ROOT, f);
      if (/shell\s*:\s*true/.test(text)) offenders.push(`${rel}: shell: true`);
      if (/\bexecSync\s*\(|\bexec\s*\(\s*[`'"]/.test(text)) offenders.push(`${rel}: exec/execSync`);
      if (/from ['"](node:)?child_process['"]/.test(text)) {
        users.push(rel);
        const imported = /import\s*\{([^}]*)\}\s*from ['"](?:node:)?child_process['"]/.exec(text)?.[1] ?? '';
        for (const name of imported.split(',').map((s) => s.trim().split(/\s+as\s+/)[0]))
          if (name && !['execFile', 'execFileSync', 'spawn'].includes(name)) offenders.push(`${rel}: imports ${name}`);
        // Every call's first argument is the literal program 'git'.
        for (const m of text.matchAll(/\b(execFileSync|execFile|spawn)\s*\(\s*([^,]+),/g))
          if (m[2].trim() !== "'git'") offenders.push(`${rel}: ${m[1]}(${m[2].trim()}, …)`);
      }
    }
    expect(offenders).toEqual([]);
    expect(users.sort()).toEqual(['src/cli.ts', 'src/evidence/git.ts', 'src/github/git.ts']);
  });
});

function runNodeCli(cwd: string, args: string[]) {
  return import('./helpers.js').then((h) => h.runNode(bundles.cli, args, cwd));
}
