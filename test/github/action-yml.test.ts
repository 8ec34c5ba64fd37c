import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { INPUT_DEFAULTS, parseInputs } from '../../src/github/inputs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const load = (p: string): any => parse(readFileSync(resolve(ROOT, p), 'utf8'));

describe('action.yml', () => {
  const action = load('action.yml');
  it('runs the bundled Action on node24 with branding', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
    expect(action.branding).toEqual({ icon: 'archive', color: 'purple' });
  });
  it('documents every input the code reads, with the same defaults', () => {
    const read: string[] = [];
    parseInputs((name) => {
      read.push(name);
      return '';
    });
    expect(Object.keys(action.inputs).sort()).toEqual([...new Set(read)].sort());
    for (const [name, value] of Object.entries(INPUT_DEFAULTS)) expect(String(action.inputs[name].default)).toBe(value);
    for (const name of ['memory-paths', 'mode', 'token', 'dry-run', 'config', 'fail-on']) expect(action.inputs[name].description).toBeTruthy();
  });
  it('declares the outputs', () => {
    expect(Object.keys(action.outputs)).toEqual([
      'findings-count', 'errors-count', 'warnings-count', 'report-json', 'report-path', 'mode',
      'pull-request-number', 'pull-request-url', 'pull-request-operation', 'comment-id', 'comment-url',
    ]);
  });
});

describe('example workflows', () => {
  const files = [
    '.github/workflows/memory-audit.yml',
    '.github/workflows/memory-audit-pr.yml',
    '.github/workflows/memory-audit-reusable.yml',
    'examples/workflows/org-matrix.yml',
  ];
  it('never interpolate an expression into a shell script', () => {
    for (const f of files) {
      const wf = load(f);
      for (const job of Object.values<any>(wf.jobs)) for (const step of job.steps ?? []) if (step.run) expect(step.run, `${f}: ${step.run}`).not.toContain('${{');
    }
  });
  it('schedule + dispatch with a concurrency group that never cancels a push midway', () => {
    const wf = load('.github/workflows/memory-audit.yml');
    expect(Object.keys(wf.on)).toEqual(['schedule', 'workflow_dispatch']);
    expect(Object.keys(wf.on.workflow_dispatch.inputs)).toEqual(['dry-run', 'mode']);
    expect(wf.concurrency['cancel-in-progress']).toBe(false);
    expect(wf.permissions).toEqual({ contents: 'write', 'pull-requests': 'write', issues: 'read' });
    expect(wf.jobs.audit.steps[0].with['fetch-depth']).toBe(0);
  });
  it('the pull_request job has least privilege', () => {
    const wf = load('.github/workflows/memory-audit-pr.yml');
    expect(wf.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(wf.jobs.comment.steps[1].with.mode).toBe('comment');
  });
  it('the org matrix calls the reusable workflow once per repository', () => {
    const wf = load('examples/workflows/org-matrix.yml');
    expect(wf.jobs.audit.uses).toMatch(/\/\.github\/workflows\/memory-audit-reusable\.yml@/);
    expect(wf.jobs.audit.with.repository).toBe('${{ matrix.repository }}');
    expect(Object.keys(load('.github/workflows/memory-audit-reusable.yml').on)).toEqual(['workflow_call']);
  });
});
