// A rule file whose frontmatter glob went stale and whose first entry has a stale reference of its
// own with a known correction (QA round 27): the entry is corrected, the update's reason names the
// glob left for a person; the next run sends the entry to review for the glob alone and changes
// nothing; restore gives the bytes back. An entry whose own stale reference has no correction
// still goes to review whole.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { cleanupRepos, makeRepo, pkg } from '../staleness/helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

const RULE = ['---', 'paths:', '  - apps/web/src/server/**/*.ts', '---', '', '# Database', '', '- Push the schema with `pnpm --filter @acme/db push`.', '- Keep queries in `apps/web/src/server/`.', ''].join('\n');
const GONE = ['---', 'paths:', '  - apps/web/src/jobs/**/*.ts', '---', '', '# Jobs', '', '- Jobs run through `pnpm --filter @acme/jobs start`.', ''].join('\n');

describe('a stale frontmatter glob beside a correctable first entry', () => {
  it('corrects the entry, names the glob in the reason, then leaves it for review', async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'acme', private: true, workspaces: ['packages/*', 'apps/*'] }));
    await r.write('packages/db/package.json', pkg({ name: '@acme/db', scripts: { push: 'prisma db push' } }));
    await r.write('packages/jobs/package.json', pkg({ name: '@acme/jobs', scripts: { start: 'node .' } }));
    await r.write('apps/web/package.json', pkg({ name: 'web' }));
    await r.write('apps/web/src/server/db.ts', 'export const db = 1;\n');
    await r.write('apps/web/src/jobs/run.ts', 'export const run = 1;\n');
    await r.write('.claude/rules/db.md', RULE);
    await r.write('.claude/rules/jobs.md', GONE);
    await r.commit('init', '2026-01-05');
    await r.move('packages/db', 'packages/database');
    await r.write('packages/database/package.json', pkg({ name: '@acme/database', scripts: { push: 'prisma db push' } }));
    await r.remove('apps/web/src/server');
    await r.remove('apps/web/src/jobs');
    await r.remove('packages/jobs');
    await r.commit('Rename the db package; drop the server and jobs folders', '2026-02-01');

    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    const rows = first.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.file}:${p.line}|${p.reason.slice(0, 60)}`);
    expect(rows).toEqual([
      'update|.claude/rules/db.md:8|stale, corrected: `pnpm --filter @acme/db push` no longer wo',
      'delete|.claude/rules/db.md:9|stale (path-missing): Directory `apps/web/src/server/` no lo',
      'review|.claude/rules/jobs.md:8|stale (path-missing) at line 3, the file\'s frontmatter, outs',
    ]);
    const upd = first.plan.find((p) => p.action === 'update')!;
    expect(upd.reason).toMatch(/; also stale \(path-missing\) at line 3, the file's frontmatter, outside this entry: Directory `apps\/web\/src\/server\/\*\*\/\*\.ts` no longer exists: .*; edit it by hand$/);
    const text = await readFile(path.join(r.dir, '.claude/rules/db.md'), 'utf8');
    expect(text).toBe(
      RULE.replace('- Push the schema with `pnpm --filter @acme/db push`.', '- Push the schema with `pnpm --filter @acme/database push`. [corrected 2026-06-01]').replace(
        '- Keep queries in `apps/web/src/server/`.\n',
        '',
      ),
    );
    // an entry whose own stale reference has no correction still goes to review whole (jobs.md)

    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
    expect(again.plan.find((p) => p.file === '.claude/rules/db.md' && p.line === 8)).toMatchObject({ action: 'review', rule: 4 });
    expect(await readFile(path.join(r.dir, '.claude/rules/db.md'), 'utf8')).toBe(text);
    const { records } = parseArchive(await readFile(path.join(r.dir, '.memory-audit/archive.jsonl'), 'utf8'));
    for (const id of [...new Set(records.map((x) => x.entryId))]) await runRestore({ root: r.dir, id });
    expect(await readFile(path.join(r.dir, '.claude/rules/db.md'), 'utf8')).toBe(RULE);
  });
});
