import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, parseInputs, parseList } from '../../src/github/inputs.js';
import { readContext, resolveMode } from '../../src/github/context.js';
import { planAnnotations } from '../../src/github/annotations.js';
import type { Finding } from '../../src/types.js';

const from = (vals: Record<string, string>) => (name: string) => vals[name] ?? '';

describe('parseInputs', () => {
  it('applies the documented defaults', () => {
    expect(parseInputs(from({ token: 't' }))).toEqual({
      memoryPaths: [],
      mode: 'auto',
      token: 't',
      dryRun: false,
      configPath: undefined,
      failOn: 'error',
      workingDirectory: '.',
      branch: 'memory-audit/prune',
      base: '',
      title: 'memory-audit: prune stale agent memory',
      commitMessage: 'memory-audit: prune stale agent memory',
      labels: ['memory-audit'],
      annotations: true,
      githubRepo: '',
    });
  });
  it('reads lists, booleans and enums', () => {
    const i = parseInputs(
      from({ 'memory-paths': 'CLAUDE.md\n .claude/memory/ , AGENTS.md\n# comment\n', mode: 'PR', 'dry-run': 'True', 'fail-on': 'never', labels: 'a, b', config: 'cfg.yml' }),
    );
    expect(i.memoryPaths).toEqual(['CLAUDE.md', '.claude/memory/', 'AGENTS.md']);
    expect([i.mode, i.dryRun, i.failOn, i.labels, i.configPath]).toEqual(['pr', true, 'never', ['a', 'b'], 'cfg.yml']);
    expect(parseList('')).toEqual([]);
  });
  it('rejects bad values with the input name', () => {
    expect(() => parseInputs(from({ mode: 'push' }))).toThrow(new InputError('Input "mode" must be one of auto, report, pr, comment (got "push").'));
    expect(() => parseInputs(from({ 'dry-run': 'yes' }))).toThrow('Input "dry-run" must be true or false (got "yes").');
    expect(() => parseInputs(from({ branch: '--upload-pack=evil' }))).toThrow('Input "branch" is not a usable branch name');
    expect(() => parseInputs(from({ branch: 'a;rm -rf /' }))).toThrow('Input "branch" is not a usable branch name');
    expect(() => parseInputs(from({ 'fail-on': 'fatal' }))).toThrow('Input "fail-on" must be one of error, warning, info, never (got "fatal").');
  });
});

describe('readContext / resolveMode', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const ev = (payload: unknown, name: string) => {
    dir = mkdtempSync(join(tmpdir(), 'ma-ctx-'));
    writeFileSync(join(dir, 'event.json'), JSON.stringify(payload));
    return readContext({ GITHUB_EVENT_PATH: join(dir, 'event.json'), GITHUB_EVENT_NAME: name, GITHUB_REPOSITORY: 'acme/widgets', GITHUB_API_URL: 'http://127.0.0.1:9/', GITHUB_RUN_ID: '42' });
  };
  const pr = (head: string, fork = false) => ({
    pull_request: { number: 3, base: { sha: 'b'.repeat(40), ref: 'main', repo: { full_name: 'acme/widgets' } }, head: { sha: 'h'.repeat(40), ref: 'feat', repo: { full_name: head, fork } } },
  });
  it('reads a same-repository pull request', () => {
    const c = ev(pr('acme/widgets'), 'pull_request');
    expect(c.pullRequest).toEqual({ number: 3, baseSha: 'b'.repeat(40), baseRef: 'main', headSha: 'h'.repeat(40), headRef: 'feat', headRepo: 'acme/widgets', baseRepo: 'acme/widgets', fromFork: false });
    expect([c.owner, c.repo, c.apiUrl, c.runUrl]).toEqual(['acme', 'widgets', 'http://127.0.0.1:9', 'https://github.com/acme/widgets/actions/runs/42']);
    expect(resolveMode('auto', c)).toBe('comment');
  });
  it('flags forks', () => {
    expect(ev(pr('mallory/widgets', true), 'pull_request').pullRequest?.fromFork).toBe(true);
  });
  it('maps events to modes under auto', () => {
    expect(resolveMode('auto', ev({}, 'schedule'))).toBe('pr');
    expect(resolveMode('auto', ev({}, 'workflow_dispatch'))).toBe('pr');
    expect(resolveMode('auto', ev({}, 'push'))).toBe('report');
    expect(resolveMode('report', ev({}, 'schedule'))).toBe('report');
  });
});

describe('planAnnotations', () => {
  const f = (severity: Finding['severity'], i: number): Finding => ({
    entryId: `e_${i}`, file: 'CLAUDE.md', line: i, kind: 'path-missing', severity, message: `m${i}\nsecond line`,
  });
  it('caps each level at 10 and counts the rest in one notice', () => {
    const findings = [...Array.from({ length: 12 }, (_, i) => f('warning', i + 1)), f('error', 50), ...Array.from({ length: 10 }, (_, i) => f('info', 100 + i))];
    const plan = planAnnotations(findings);
    expect(plan.overflow).toEqual({ error: 0, warning: 2, notice: 1 });
    expect(plan.annotations.filter((a) => a.level === 'warning').length).toBe(10);
    expect(plan.annotations.filter((a) => a.level === 'notice').length).toBe(10);
    expect(plan.annotations[0]).toEqual({ level: 'error', message: 'm50 second line', title: 'memory-audit: path-missing', file: 'CLAUDE.md', startLine: 50 });
    expect(plan.annotations.at(-1)).toEqual({
      level: 'notice',
      title: 'memory-audit: more findings',
      message: '2 warnings, 1 notice not shown as annotations (GitHub shows at most 10 per level per step); see the job summary for all findings.',
    });
  });
  it('takes kinds in turn, budget last: many budget warnings cannot hide a renamed path', () => {
    const g = (kind: Finding['kind'], line: number): Finding => ({ entryId: `e_${line}`, file: 'MEMORY.md', line, kind, severity: 'warning', message: `${kind} ${line}` });
    const findings = [...Array.from({ length: 300 }, (_, i) => g('budget', 201 + i)), g('path-renamed', 7), g('ephemeral', 9), g('ephemeral', 12)].sort((a, b) => a.line - b.line);
    const plan = planAnnotations(findings);
    expect(plan.annotations.filter((a) => a.level === 'warning').map((a) => a.message)).toEqual([
      'path-renamed 7', 'ephemeral 9', 'ephemeral 12', 'budget 201', 'budget 202', 'budget 203', 'budget 204', 'budget 205', 'budget 206', 'budget 207',
    ]);
    expect(plan.overflow).toEqual({ error: 0, warning: 293, notice: 0 });
  });
  it('emits everything when under the cap', () => {
    const plan = planAnnotations([f('info', 1), f('warning', 2)]);
    expect(plan.annotations.map((a) => a.level)).toEqual(['warning', 'notice']);
    expect(plan.overflow).toEqual({ error: 0, warning: 0, notice: 0 });
  });
});
