// Non-negotiable 4, end to end: same input + same --now => the same report and prune output.
// With a pinned date the report leaves out the wall-clock summary.timings, so it is byte-identical.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { buildBundles, cleanupAll, cli, makeRepo, NOW, runNode, snapshot, tempDir, type Repo } from './helpers.js';

let bundles = { dir: '', cli: '', action: '' };
beforeAll(() => {
  bundles = buildBundles();
}, 60_000);
afterAll(cleanupAll);

const CLAUDE = [
  '# Project',
  '',
  '- Authentication lives in `src/auth.ts`.',
  '- Old helpers are in `src/old.ts`.',
  '- Run tests with `npm test`, then `npm run lint`.',
  '- Currently working on issue #42, halfway through the refactor.',
  '- Yesterday we moved the API to `src/api/`.',
  '- We have 3 packages in `packages/`.',
  '- Indent with two spaces everywhere.',
  '- Indent with two spaces everywhere!',
  '',
].join('\n');

async function fixture(): Promise<Repo> {
  const r = await makeRepo({
    'package.json': '{\n  "name": "w",\n  "scripts": { "test": "vitest", "lint": "eslint ." }\n}\n',
    'src/auth.ts': 'export {};\n',
    'src/old.ts': 'export {};\n',
    'packages/a/package.json': '{"name":"a"}\n',
  });
  await r.git.mv('src/auth.ts', 'src/session.ts');
  await r.git.rm(['-q', 'src/old.ts']);
  r.write('package.json', '{\n  "name": "w",\n  "scripts": { "test": "vitest" }\n}\n');
  await r.commit('refactor', '2026-01-06');
  r.write('CLAUDE.md', CLAUDE);
  r.write('.claude/memory/MEMORY.md', '- [Build](build.md) — building\n');
  r.write('.claude/memory/build.md', '---\nname: build\ndescription: building\ntype: project\n---\n\nBuild with `npm run build`; see `src/auth.ts`.\n');
  await r.commit('memory', '2026-01-07');
  return r;
}

/** A pinned-date report carries no wall-clock timings: the bytes themselves are compared. */
function stable(json: string): string {
  const r = JSON.parse(json) as { summary: { timings?: unknown } };
  expect(r.summary.timings).toBeUndefined();
  return json;
}

describe.concurrent('determinism', () => {
  it('the JSON and text reports are identical across runs (in-process and bundled CLI)', async () => {
    const r = await fixture();
    const args = ['--now', NOW, '--format', 'json', '--fail-on', 'never'];
    const runs = [await cli(r.dir, args), await cli(r.dir, args), await runNode(bundles.cli, args, r.dir)];
    for (const x of runs) expect(x.code).toBe(0);
    const first = stable(runs[0].stdout);
    expect(JSON.parse(first).findings.length).toBeGreaterThanOrEqual(6);
    for (const x of runs.slice(1)) expect(stable(x.stdout)).toBe(first);
    for (const format of ['text']) {
      const a = await cli(r.dir, ['--now', NOW, '--format', format]);
      const b = await cli(r.dir, ['--now', NOW, '--format', format]);
      expect(a.stdout.length).toBeGreaterThan(200);
      expect(b.stdout, format).toBe(a.stdout);
    }
    // SOURCE_DATE_EPOCH gives the same run as --now.
    const epoch = String(Date.parse(`${NOW}T00:00:00Z`) / 1000);
    const viaEpoch = await runNode(bundles.cli, ['--format', 'json', '--fail-on', 'never'], r.dir, { SOURCE_DATE_EPOCH: epoch, TZ: 'America/Los_Angeles' });
    expect(stable(viaEpoch.stdout)).toBe(first);
  });

  it('prune: byte-identical diff (dry run, text and json) across runs, and identical files after --write in two copies', async () => {
    const r = await fixture();
    const outs: string[] = [];
    for (let i = 0; i < 2; i++) outs.push((await cli(r.dir, ['prune', '--now', NOW, '--fail-on', 'never'])).stdout);
    outs.push((await runNode(bundles.cli, ['prune', '--now', NOW, '--fail-on', 'never'], r.dir)).stdout);
    expect(outs[0]).toContain('diff --git a/CLAUDE.md b/CLAUDE.md');
    for (const o of outs) expect(o).toBe(outs[0]);
    const j1 = await cli(r.dir, ['prune', '--now', NOW, '--format', 'json', '--fail-on', 'never']);
    const j2 = await cli(r.dir, ['prune', '--now', NOW, '--format', 'json', '--fail-on', 'never']);
    expect(stable(j2.stdout)).toBe(stable(j1.stdout));

    // Two copies of the repository pruned with --write end byte-identical (log, archive, memory).
    const copy = path.join(tempDir('ma-int-copy-'), 'repo');
    cpSync(r.dir, copy, { recursive: true });
    const w1 = await cli(r.dir, ['prune', '--write', '--now', NOW, '--fail-on', 'never']);
    // (the copy runs in another time zone: dates are UTC throughout)
    const w2 = await runNode(bundles.cli, ['prune', '--write', '--now', NOW, '--fail-on', 'never'], copy, { TZ: 'Pacific/Kiritimati' });
    expect(w2.stdout).toBe(w1.stdout);
    expect(w1.stdout).toBe(outs[0]);
    const s1 = snapshot(r.dir);
    expect(snapshot(copy)).toEqual(s1);
    expect([...s1.keys()].filter((k) => k.includes('archive') || k.includes('pruning-log'))).toEqual([
      '.claude/memory/pruning-log.md',
      '.memory-audit/archive.jsonl',
    ]);
  });
});
