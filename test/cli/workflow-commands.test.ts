// Memory text is untrusted: in a GitHub Actions step, a memory line that starts with `::` or
// `##[` would be read by the runner as a workflow command when prune prints it in a diff.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { neutraliseWorkflowCommands } from '../../src/cli.js';
import { cleanup, makeRepo } from '../prune/helpers.js';

afterAll(cleanup);

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = path.join(inject('bundleDir'), 'cli.js');
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('workflow commands in memory text', () => {
  test('neutraliseWorkflowCommands breaks `::` and `##[` at the start of a line only', () => {
    expect(neutraliseWorkflowCommands(' ::error file=a::x\n  ::add-mask::y\n##[group]z\na ::b\n')).toBe(
      ' :\u200b:error file=a::x\n  :\u200b:add-mask::y\n#\u200b#[group]z\na ::b\n',
    );
  });

  test('prune in a GitHub Actions step prints no live workflow command; outside Actions the diff is exact', async () => {
    const memory = '# Notes\n\n::error file=package.json,line=1::injected\n\n::stop-commands::tok\n\n- Currently working on issue #42, halfway through.\n';
    const repo = await makeRepo({ 'CLAUDE.md': memory });
    const inActions = await cli(['prune', '--now', '2026-03-10T12:00:00Z', '--fail-on', 'never'], repo.dir, { GITHUB_ACTIONS: 'true' });
    expect(inActions.code).toBe(0);
    expect(inActions.stdout).toContain('-- Currently working on issue #42, halfway through.');
    const live = (inActions.stdout + inActions.stderr).split('\n').filter((l) => /^\s*(?:::|##\[)/.test(l));
    expect(live).toEqual([]);
    expect(inActions.stdout).toContain(' :\u200b:error file=package.json,line=1::injected');
    const local = await cli(['prune', '--now', '2026-03-10T12:00:00Z', '--fail-on', 'never'], repo.dir, {});
    expect(local.stdout).toContain(' ::error file=package.json,line=1::injected');
  });
});
