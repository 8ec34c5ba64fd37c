// A renamed path written as a heading (`### \`utils/fields.ts\`` over a bullet list, supabase's
// `.cursor/rules/docs-graphql.mdc` "## Key Files") is attached to the section's first entry
// (src/memory/references.ts, headingAbove). The plan sends that entry to review, and the reason
// says where the stale reference really is: "in the heading above this entry", not "the file's
// frontmatter" (the file has frontmatter, but the line is a heading). The heading is not rewritten
// (not an entry; a link target), so prune changes nothing there and a second prune neither.
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { NOW, cleanup, config, makeRepo } from './helpers.js';

afterAll(cleanup);

const RULE = [
  '---',
  'description: Docs GraphQL Architecture',
  'globs: apps/docs/resources/**/*.ts',
  'alwaysApply: false',
  '---',
  '',
  '# Docs GraphQL Architecture',
  '',
  '## Key Files',
  '',
  '### `apps/docs/resources/utils/connections.ts`',
  '- Provides `createCollectionType()` for paginated collections',
  '- `GraphQLCollectionBuilder` for building collection responses',
  '',
  '### `apps/docs/resources/utils/fields.ts`',
  '- `graphQLFields()` utility to analyze requested fields in resolvers',
  '- Used for optimizing data fetching based on what fields are actually requested',
  '',
].join('\n');

async function renamedRepo(files: Record<string, string>) {
  const repo = await makeRepo({
    'apps/docs/resources/rootSchema.ts': 'x\n',
    'apps/docs/resources/utils/connections.ts': 'x\n',
    'apps/docs/resources/utils/fields.ts': 'x\n',
    ...files,
  }, '2025-07-01');
  execFileSync('git', ['mv', 'apps/docs/resources/utils/fields.ts', 'apps/docs/resources/utils/graphqlFields.ts'], { cwd: repo.dir });
  await repo.commit('docs: rename fields util', '2025-09-01');
  return repo;
}

describe('a renamed path in a heading', () => {
  test('a rule file with frontmatter: review of the entry below, "in the heading above this entry"; nothing written', async () => {
    const repo = await renamedRepo({ '.cursor/rules/docs-graphql.mdc': RULE });
    const r = await audit({ root: repo.dir, now: NOW, config: config() });
    const f = r.findings.filter((x) => x.kind === 'path-renamed');
    expect(f.map((x) => [x.file, x.line, x.ref])).toEqual([['.cursor/rules/docs-graphql.mdc', 15, 'apps/docs/resources/utils/fields.ts']]);
    const first = r.entries.find((e) => e.text.startsWith('- `graphQLFields()`'))!;
    expect(first.line).toBe(16);
    const item = r.plan.find((p) => p.entryId === first.id)!;
    expect(item).toMatchObject({ action: 'review', rule: 4 });
    // The finding's message, cut to one line of the plan (oneLine).
    expect(item.reason).toBe(`stale (path-renamed) at line 15, in the heading above this entry: ${f[0].message.slice(0, 139)}…; edit it by hand`);
    expect(item.reason).not.toContain('frontmatter');

    const pruned = await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    expect(pruned.diff).toBe('');
    expect(await repo.read('.cursor/rules/docs-graphql.mdc')).toBe(RULE);
    expect((await runPrune({ root: repo.dir, now: NOW, write: false, config: config() })).diff).toBe('');
  });

  test('a CLAUDE.md without frontmatter: the same reason', async () => {
    const md = '# Project\n\n## Key files\n\n### `apps/docs/resources/utils/fields.ts`\n- `graphQLFields()` analyses requested fields.\n';
    const repo = await renamedRepo({ 'CLAUDE.md': md });
    const r = await audit({ root: repo.dir, now: NOW, config: config() });
    const item = r.plan.find((p) => p.line === 6)!;
    expect(item.action).toBe('review');
    expect(item.reason).toMatch(/^stale \(path-renamed\) at line 5, in the heading above this entry: `apps\/docs\/resources\/utils\/fields\.ts` was renamed to `apps\/docs\/resources\/utils\/graphqlFields\.ts` in [0-9a-f]{7} \(2025-09-01, "docs: rename fie…; edit it by hand$/);
  });

  test('a stale frontmatter glob still says "the file\'s frontmatter"', async () => {
    const rule = '---\nglobs: apps/docs/resources/utils/fields.ts\n---\n\n- Resolvers analyse the requested fields first.\n';
    const repo = await renamedRepo({ '.cursor/rules/fields.mdc': rule });
    const r = await audit({ root: repo.dir, now: NOW, config: config() });
    const item = r.plan.find((p) => p.file === '.cursor/rules/fields.mdc')!;
    expect(item.action).toBe('review');
    expect(item.reason).toMatch(/^stale \(path-renamed\) at line 2, the file's frontmatter, outside this entry: /);
  });
});
