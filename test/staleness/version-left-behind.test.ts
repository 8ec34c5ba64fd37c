// A version the project moved away from ("upgraded from Laravel 10", "migrated off Node 16") is history
// the memory tells, true whatever the project runs now: never version drift, never rewritten. The same
// words without "from" / "off" still state the version in use. Real git repository, audit and prune.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');

afterAll(cleanupRepos);

describe('versions the project left', () => {
  const memory = [
    '# App',
    '',
    '- This project upgraded from Laravel 10 without migrating to the new streamlined file structure.',
    '- We migrated off Node 16; keep the polyfills out.',
    '- The app was moved from React 17 in one release.',
    '- Coming from PHP 8.1, enums replaced the class constants.',
    '- The backend runs Laravel 11.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('composer.json', JSON.stringify({ name: 'acme/app', require: { php: '^8.4', 'laravel/framework': '^12.4' } }, null, 2) + '\n');
    await r.write('package.json', JSON.stringify({ name: 'web', private: true, engines: { node: '>=22' }, dependencies: { react: '^19.1.0' } }, null, 2) + '\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('base', '2025-07-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports only the version stated as the one in use', () => {
    expect(findingRows(report, (f) => f.kind === 'version-drift')).toEqual([`version-drift|${l('runs Laravel 11')}|Laravel 11|Laravel 12`]);
  });

  it('prune rewrites only that line', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: false });
    expect(res.plan.filter((p) => p.action !== 'keep').map((p) => [p.line, p.action])).toEqual([[l('runs Laravel 11'), 'update']]);
  });
});
