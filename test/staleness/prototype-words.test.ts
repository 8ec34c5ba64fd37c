// Words that are Object.prototype property names (`constructor`, `toString`, `__proto__`) are
// ordinary prose and ordinary names: they must never read a table's inherited properties. A line
// of thunderbird-android's AGENTS.md ("Koin for dependency injection (constructor injection)")
// made a prose word's alias the `Object` function and crashed the audit (QA round 10).
// Real git repositories in temp folders, audited and pruned end to end.
import { afterAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { cleanupRepos, makeRepo, pkg } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

const WORDS = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', 'isPrototypeOf', 'propertyIsEnumerable'];

describe('prose words named like Object.prototype properties', () => {
  it('audits and prunes without error; only the undefined script is reported', async () => {
    const r = await makeRepo();
    const memory = [
      '## Technology Requirements',
      '',
      '- Koin for dependency injection (constructor injection)',
      '- For changes to a `Writeable` implementation (`writeTo` and constructor from `StreamInput`), add a new version.',
      ...WORDS.map((w) => `- Uses ${w} for setup (the ${w} injection), see ${w} 2 and \`${w}\`; we use ${w}, not Jest.`),
      '- Run `npm run constructor` and `npm test`.',
      '',
    ].join('\n');
    await r.write('AGENTS.md', memory);
    await r.write('package.json', pkg({ name: 'app', scripts: { test: 'vitest' }, dependencies: { koin: '1.0.0' } }));
    await r.commit('Add AGENTS.md', '2025-10-01');
    const { report } = await audit({ root: r.dir, now: NOW });
    expect(report.findings.filter((f) => f.severity !== 'info').map((f) => `${f.kind}|${f.line}|${f.ref ?? ''}`)).toEqual([
      `script-missing|${memory.split('\n').length - 1}|npm run constructor`,
    ]);
    expect(JSON.stringify(report)).not.toMatch(/native code|function Object|\[object Object\]/);
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    // `npm test` still works: the line goes to review, nothing is written
    expect(res.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.line}`)).toEqual([`review|${memory.split('\n').length - 1}`]);
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(memory);
  });
});
