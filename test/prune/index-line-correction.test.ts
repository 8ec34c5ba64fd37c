// An index line follows its topic file, but its own words may name a renamed path ("rounding
// rules in `src/billing.ts`"): when the topic stays, the line's own known correction is applied
// (QA round 13 saw a finding on the index line and no plan item for it).
import { afterAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runPrune } from '../../src/commands/prune.js';
import { cleanupRepos, makeRepo } from '../staleness/helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

describe('an index line naming a renamed path', () => {
  it('is corrected with its topic; a second prune changes nothing', async () => {
    const r = await makeRepo();
    const index = '# Memory Index\n\n- [Billing quirks](project_billing.md) — rounding rules in `src/billing.ts`\n- [Testing feedback](feedback_testing.md) — prefer integration tests\n';
    await r.write('src/billing.ts', 'export const round = 1;\n');
    await r.write('.claude/memory/MEMORY.md', index);
    await r.write('.claude/memory/project_billing.md', '---\nname: Billing quirks\ndescription: rounding\ntype: project\n---\n\nRounding lives in `src/billing.ts`.\n');
    await r.write('.claude/memory/feedback_testing.md', '---\nname: Testing feedback\ndescription: tests\ntype: feedback\n---\n\nPrefer integration tests.\n');
    await r.commit('Add', '2025-10-01');
    await r.move('src/billing.ts', 'src/payments.ts');
    await r.commit('rename billing', '2026-01-10');
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(first.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}|${p.file}:${p.line}`)).toEqual([
      'update|4|.claude/memory/MEMORY.md:3',
      'update|4|.claude/memory/project_billing.md:1',
    ]);
    expect(await readFile(path.join(r.dir, '.claude/memory/MEMORY.md'), 'utf8')).toBe(
      index.replace('rounding rules in `src/billing.ts`', 'rounding rules in `src/payments.ts` [corrected 2026-06-01]'),
    );
    const second = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);
  });
});
