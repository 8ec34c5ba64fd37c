// The audit overlaps its work with git: git's output is read by a pump thread (git never waits
// on a busy main thread), memory-only checks run while the log pass streams, and blame starts
// as soon as the memory is known. Each overlap must give exactly what the plain order gives.
import { execFileSync } from 'node:child_process';
import { getPriority } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { runChecksAsync, runEarlyChecks } from '../../src/checks/registry.js';
import { streamGitTokens } from '../../src/evidence/git.js';
import { yieldCpuToGit } from '../../src/evidence/pump.js';
import { gatherUsage, startBlame } from '../../src/evidence/usage.js';
import type { CheckContext } from '../../src/types.js';
import { cleanup, config, makeRepo, NOW } from '../prune/helpers.js';

afterAll(cleanup);

/** A repository with `n` commits touching a few files each, written in one fast-import stream. */
async function repoWithHistory(n: number) {
  const repo = await makeRepo();
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const msg = `change ${i}\n`;
    const t = 1_700_000_000 + i * 60;
    parts.push(`commit refs/heads/main\ncommitter T <t@example.com> ${t} +0000\ndata ${msg.length}\n${msg}`);
    for (let k = 0; k < 4; k++) {
      const body = `file ${k} at ${i}\n`;
      parts.push(`M 100644 inline src/dir-${i % 17}/file-${(i * 7 + k) % 211}.ts\ndata ${body.length}\n${body}`);
    }
    parts.push('\n');
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo.dir, input: parts.join('') });
  execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: repo.dir });
  return repo;
}

describe('git output through the pump thread', () => {
  it('delivers every token of a long log while the main thread is busy', async () => {
    const repo = await repoWithHistory(1500);
    const args = ['log', '--raw', '--no-abbrev', '-z', '--format=%x1e%H%x1f%s'];
    const expected = execFileSync('git', ['-c', 'core.quotePath=false', ...args], { cwd: repo.dir, maxBuffer: 1 << 28 })
      .toString('utf8')
      .split('\0')
      .filter((t) => t !== '');
    const got: string[] = [];
    let busy = true;
    // Block the main thread in 30 ms slices (a pipe would fill and stall git in ~10 ms).
    const hog = () => {
      if (!busy) return;
      const until = performance.now() + 30;
      while (performance.now() < until);
      setTimeout(hog, 1);
    };
    hog();
    const r = await streamGitTokens(repo.dir, args, (t) => {
      if (t !== '') got.push(t);
    });
    busy = false;
    expect(r.code).toBe(0);
    expect(got.length).toBe(expected.length);
    expect(got).toEqual(expected);
  });

  it('lowers the calling thread only: git, started by the pump thread, keeps its priority', async () => {
    const repo = await makeRepo();
    const niceOfGit = async (): Promise<number> => {
      const out: string[] = [];
      // a git alias starting with ! runs a shell command as git's child: `nice` prints its niceness
      const r = await streamGitTokens(repo.dir, ['-c', 'alias.niceness=!nice', 'niceness'], (t) => out.push(t));
      expect(r.code).toBe(0);
      return Number(out.join('').trim());
    };
    const before = getPriority();
    const gitBefore = await niceOfGit(); // starts the pump thread at this thread's priority
    expect(gitBefore).toBe(before);
    const saved = process.env.MEMORY_AUDIT_NICE;
    process.env.MEMORY_AUDIT_NICE = '7';
    try {
      yieldCpuToGit();
    } finally {
      if (saved === undefined) delete process.env.MEMORY_AUDIT_NICE;
      else process.env.MEMORY_AUDIT_NICE = saved;
    }
    expect(getPriority()).toBe(Math.max(before, 7));
    expect(await niceOfGit()).toBe(before);
  });

  it('reports a git that fails, with its message', async () => {
    const repo = await makeRepo();
    const r = await streamGitTokens(repo.dir, ['log', 'no-such-revision', '--'], () => {});
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/no-such-revision|unknown revision|bad revision/);
  });

  it('stops git when the token handler throws, and says why', async () => {
    const repo = await repoWithHistory(50);
    const r = await streamGitTokens(repo.dir, ['log', '--raw', '-z'], () => {
      throw new Error('handler broke');
    });
    expect(r.code).toBe(-2);
    expect(r.stderr).toContain('handler broke');
  });
});

const MEMORY = {
  'CLAUDE.md': [
    '# Project',
    '',
    '- Run `npm test` before pushing.',
    '- Never use `npm test`; run `pnpm test` before pushing.',
    '- TODO: look at the flaky build in this session.',
    '- The cache was cleared yesterday.',
    '- Deploys go through `scripts/deploy.sh` on main.',
    '- Deploys go through `scripts/deploy.sh` on main.',
    `- The deploy token is ${'ghp_' + 'x1Y2'.repeat(9)}.`,
    '',
  ].join('\n'),
  '.claude/memory/MEMORY.md': '- [Testing](testing.md): how tests run\n',
  '.claude/memory/testing.md': '---\nname: testing\ndescription: how tests run\ntype: project\n---\nTests run with vitest; I think maybe the flaky one is src/a.ts.\n',
};

describe('checks that need only memory run early', () => {
  it('gives the same findings as running every check after the evidence', async () => {
    const repo = await makeRepo(MEMORY, '2026-01-05');
    const result = await audit({ root: repo.dir, now: NOW, config: config() });
    const ctx: CheckContext = { files: result.files, entries: result.entries, evidence: result.evidence, config: result.config };
    const plain = await runChecksAsync(ctx);
    const timings: Record<string, number> = {};
    await runEarlyChecks({ files: ctx.files, entries: ctx.entries, config: ctx.config, now: ctx.evidence.now }, undefined, timings);
    const overlapped = await runChecksAsync(ctx);
    expect(overlapped).toEqual(plain);
    // the early pass did run: memory-only checks and the early part of ephemeral
    expect(Object.keys(timings).sort()).toEqual(
      ['check:budget', 'check:contradiction', 'check:duplicate', 'check:ephemeral:early', 'check:expired', 'check:secret', 'check:superseded'].sort(),
    );
    const kinds = new Set(plain.map((f) => f.kind));
    for (const k of ['ephemeral', 'duplicate', 'contradiction', 'secret'] as const) expect(kinds.has(k)).toBe(true);
    // the relative date was dated from blame, which only the late half can know
    const rel = plain.find((f) => f.kind === 'ephemeral' && f.evidence?.filter === 'relative-date');
    expect([rel?.line, rel?.evidence?.date, rel?.evidence?.absolute]).toEqual([6, '2026-01-05', '2026-01-04']);
  });

  it('early results belong to one entry list: a later run on other entries recomputes', async () => {
    const repo = await makeRepo(MEMORY, '2026-01-05');
    const result = await audit({ root: repo.dir, now: NOW, config: config() });
    const ctx: CheckContext = { files: result.files, entries: result.entries, evidence: result.evidence, config: result.config };
    await runEarlyChecks({ files: ctx.files, entries: ctx.entries, config: ctx.config, now: ctx.evidence.now });
    const fewer = ctx.entries.filter((e) => !e.text.includes('yesterday'));
    const other = await runChecksAsync({ ...ctx, entries: fewer });
    expect(other.filter((f) => f.kind === 'ephemeral').map((f) => f.evidence?.filter).sort()).toEqual(['session-state', 'unverified']);
  });
});

describe('blame started before the evidence', () => {
  it('gives the same usage as blaming after it', async () => {
    const repo = await makeRepo(MEMORY, '2026-01-05');
    await repo.write('CLAUDE.md', MEMORY['CLAUDE.md'] + '- Added later: use `make lint`.\n');
    await repo.commit('more memory', '2026-02-01');
    const result = await audit({ root: repo.dir, now: NOW, config: config() });
    const plainUsage = result.evidence.usage!;
    const early = startBlame(repo.dir, result.files);
    expect([...early.keys()].sort()).toEqual(['.claude/memory/MEMORY.md', 'CLAUDE.md']);
    const evidence = { ...result.evidence, usage: undefined };
    await gatherUsage({ root: repo.dir, files: result.files, entries: result.entries, config: result.config, evidence, early });
    expect(evidence.usage).toEqual(plainUsage);
    const later = result.entries.find((e) => e.text.includes('make lint'))!;
    expect(plainUsage.entries.get(later.id)?.lastEdited).toBe('2026-02-01');
  });
});
