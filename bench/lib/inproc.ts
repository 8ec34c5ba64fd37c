// In-process stage timings for `npm run bench`: the evidence is gathered once (git), then the
// work that needs no git runs several times in one warm process: discover + read + parse +
// references (loadMemory), checks and decide. Bundled on the fly by bench/run.mjs with esbuild.
// Prints one JSON object on stdout.
import { resolve } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { loadMemory } from '../../src/memory/load.js';
import { gatherEvidence } from '../../src/evidence/index.js';
import { runChecksAsync } from '../../src/checks/registry.js';
import { decide } from '../../src/policy/decide.js';
import type { CheckContext } from '../../src/types.js';

const root = resolve(process.argv[2] ?? '.');
const rounds = Math.max(1, Number(process.argv[3] ?? 5));
const config = await loadConfig(root);
const first = await loadMemory({ root, config });
const { evidence } = await gatherEvidence({ root, config, entries: first.entries, offline: true });
const runs: Array<Record<string, number>> = [];
for (let i = 0; i < rounds; i++) {
  const t0 = performance.now();
  const loaded = await loadMemory({ root, config });
  const t1 = performance.now();
  const ctx: CheckContext = { files: loaded.files, entries: loaded.entries, evidence, config };
  const checkTimings: Record<string, number> = {};
  const findings = await runChecksAsync(ctx, undefined, checkTimings);
  const t2 = performance.now();
  decide(ctx, findings);
  const t3 = performance.now();
  runs.push({ entries: loaded.entries.length, load: t1 - t0, ...loaded.timings, checks: t2 - t1, decide: t3 - t2, total: t3 - t0, ...Object.fromEntries(Object.entries(checkTimings).map(([k, v]) => [k, v])) });
}
process.stdout.write(JSON.stringify({ rounds: runs }) + '\n');
