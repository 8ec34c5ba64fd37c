// A nested memory file that moved (with its package, to another depth) keeps relative paths
// written from where it was: `../../docs/api.md` then names nothing. The path is read from the
// file's former location, followed to the target at HEAD, and rewritten relative to the new one.
// Real git repository in a temp folder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, makeRepo, type Repo } from './helpers.js';

afterAll(cleanupRepos);

const NOW = new Date('2026-06-01T00:00:00Z');

describe('relative paths of a memory file that moved', () => {
  const memory = [
    '# API',
    '',
    '- Design notes live in [the API doc](../../docs/api.md#errors).',
    '- Shared types come from `../shared/types.ts`.',
    '- Start locally with `./scripts/dev.sh`.',
    '- The changelog is `../../CHANGELOG.md`.',
    '- `../../docs/never-there.md` is a typo.',
    '',
  ].join('\n');
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('packages/api/CLAUDE.md', memory);
    await r.write('packages/api/scripts/dev.sh', 'echo dev\n');
    await r.write('packages/shared/types.ts', 'export type A = 1;\n');
    await r.write('docs/api.md', '# API\n');
    await r.write('CHANGELOG.md', '# Changes\n');
    await r.commit('API package', '2025-10-01');
    await r.move('packages/api', 'services/backend/api');
    await r.move('packages/shared', 'services/backend/shared');
    await r.commit('Move the packages under services/backend', '2026-01-15');
    await r.move('CHANGELOG.md', 'docs/CHANGELOG.md');
    await r.commit('Changelog into docs', '2026-02-01');
    ({ report } = await audit({ root: r.dir, memory: ['services/backend/api/CLAUDE.md'], now: NOW }));
  });

  it('rewrites each path relative to the new folder, to the target as it is now', () => {
    expect(findingRows(report, (f) => f.kind.startsWith('path'))).toEqual([
      'path-renamed|3|../../docs/api.md|../../../docs/api.md',
      'path-renamed|6|../../CHANGELOG.md|../../../docs/CHANGELOG.md',
      'path-unverified|7|../../docs/never-there.md|',
    ]);
    expect(report.findings.find((f) => f.line === 3)!.message).toMatch(
      /^`\.\.\/\.\.\/docs\/api\.md` was written relative to `packages\/api\/CLAUDE\.md`, where it named `docs\/api\.md`; that memory file moved to `services\/backend\/api\/CLAUDE\.md` in [0-9a-f]{7} \(2026-01-15, "Move the packages under services\/backend"\), so the path now names nothing: write `\.\.\/\.\.\/\.\.\/docs\/api\.md`\.$/,
    );
  });

  it('prune writes the new paths, keeping the anchor; a second prune changes nothing', async () => {
    await runPrune({ root: r.dir, now: NOW, write: true, memory: ['services/backend/api/CLAUDE.md'] });
    const after = await readFile(path.join(r.dir, 'services/backend/api/CLAUDE.md'), 'utf8');
    expect(after).toContain('[the API doc](../../../docs/api.md#errors)');
    expect(after).toContain('`../../../docs/CHANGELOG.md`');
    expect(after).toContain('- Shared types come from `../shared/types.ts`.');
    expect(after).toContain('- Start locally with `./scripts/dev.sh`.');
    const second = await runPrune({ root: r.dir, now: NOW, write: true, memory: ['services/backend/api/CLAUDE.md'] });
    expect(second.changes).toEqual([]);
  });
});
