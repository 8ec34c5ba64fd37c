// Folders named by package-manager options (`pnpm -C dir`, `npm --prefix dir`) and workspace
// selectors (`pnpm --filter name`, `npm -w name`, `yarn workspace name`) after the folder moved or
// the workspace package was renamed: real git histories, audited end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import type { Finding } from '../../src/types.js';
import { extractReferences } from '../../src/memory/references.js';
import { cleanupRepos, makeRepo, pkg, type Repo } from './helpers.js';
import { entryOf, fileOf } from './refs-helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

const brief = (fs: Finding[]) => fs.map((f) => `${f.kind}|${f.line}|${f.ref}|${f.suggestion?.replace ?? ''}`);

describe('folder options are path references', () => {
  it('extracts the folder of -C, --prefix, --dir= and make -C as a path', () => {
    const text = '- `pnpm -C apps/web dev`, `npm --prefix apps/web run dev`, `pnpm --dir=apps/web build`, `make -C tools/gen all`';
    const file = fileOf(text, 'AGENTS.md');
    const refs = extractReferences(entryOf(file), file);
    expect(refs.filter((r) => r.kind === 'path').map((r) => `${r.raw}|${r.value}`)).toEqual(['apps/web|apps/web', 'apps/web|apps/web', 'apps/web|apps/web', 'tools/gen|tools/gen']);
    expect(refs.filter((r) => r.kind === 'command').map((r) => `${r.value}|${r.base}`)).toEqual([
      'pnpm dev|apps/web/', 'npm run dev|apps/web/', 'pnpm build|apps/web/', 'make all|tools/gen/',
    ]);
  });

  let r: Repo;
  let sha: string;
  beforeAll(async () => {
    r = await makeRepo();
    await r.write('package.json', pkg({ name: 'mono', private: true, scripts: { build: 'turbo run build' } }));
    await r.write('pnpm-workspace.yaml', 'packages:\n  - "apps/*"\n');
    await r.write('apps/web/package.json', pkg({ name: 'web', scripts: { dev: 'next dev', storybook: 'storybook dev' } }));
    await r.write('apps/web/src/index.ts', 'export {};\n');
    await r.commit('init', '2026-01-02');
    await r.move('apps/web', 'apps/site');
    sha = (await r.commit('Rename web app to site', '2026-02-02')).slice(0, 7);
    // The moved package drops a script afterwards: the command is then stale in the new folder too.
    await r.write('apps/site/package.json', pkg({ name: 'web', scripts: { dev: 'next dev' } }));
    await r.commit('drop storybook', '2026-02-03');
  });

  it('flags the folder of cd, -C and --prefix alike, with the moved folder as the correction', async () => {
    await r.write('x.md', '# X\n\n- `pnpm -C apps/web dev` starts web.\n- `cd apps/web && pnpm dev` starts web.\n- Run `npm --prefix apps/web run dev`.\n');
    const { report } = await audit({ root: r.dir, memory: ['x.md'], now: NOW });
    expect(brief(report.findings.filter((f) => f.file === 'x.md'))).toEqual([
      'path-renamed|3|apps/web|apps/site',
      'path-renamed|4|apps/web|apps/site',
      'path-renamed|5|apps/web|apps/site',
    ]);
    expect(report.findings.find((f) => f.line === 5)!.message).toBe(
      `Directory \`apps/web\` was moved to \`apps/site/\` in ${sha} (2026-02-02, "Rename web app to site"); update the reference.`,
    );
  });

  it("resolves the script against the moved folder's package.json", async () => {
    await r.write('y.md', '# Y\n\n- `pnpm -C apps/web storybook` opens the stories.\n');
    const { report } = await audit({ root: r.dir, memory: ['y.md'], now: NOW });
    const f = report.findings.filter((x) => x.file === 'y.md');
    expect(brief(f)).toEqual(['path-renamed|3|apps/web|apps/site', 'script-missing|3|pnpm -C apps/web storybook|']);
    expect(f[1].message).toMatch(/^`pnpm -C apps\/web storybook` no longer works: the script was removed from `apps\/site\/package\.json` in [0-9a-f]{7} \(2026-02-03, "drop storybook"\); update or remove the command\.$/);
  });

  it('stays quiet for folders that exist', async () => {
    await r.write('z.md', '# Z\n\n- `pnpm -C apps/site dev` and `npm --prefix ./apps/site run dev`.\n');
    const { report } = await audit({ root: r.dir, memory: ['z.md'], now: NOW });
    expect(report.findings.filter((f) => f.file === 'z.md' && f.severity !== 'info')).toEqual([]);
  });
});

describe('workspace selectors after a workspace package was renamed', () => {
  let r: Repo;
  let sha: string;
  beforeAll(async () => {
    r = await makeRepo();
    await r.write('package.json', pkg({ name: 'acme', private: true, scripts: { build: 'turbo build' } }));
    await r.write('pnpm-workspace.yaml', 'packages:\n  - "apps/*"\n  - "packages/*"\n');
    await r.write('apps/web/package.json', pkg({ name: '@acme/web', scripts: { dev: 'next dev', test: 'vitest' } }));
    await r.write('apps/web/src/api.ts', 'export {};\n');
    await r.write('apps/admin/package.json', pkg({ name: '@acme/admin', scripts: { dev: 'vite' } }));
    await r.write('packages/legacy/package.json', pkg({ name: '@acme/legacy', scripts: { build: 'tsc' } }));
    await r.commit('init', '2026-01-04');
    // Folder moved and `name` changed in one commit (git pairs the files, not the package.json).
    await r.move('apps/web', 'apps/site');
    await r.write('apps/site/package.json', pkg({ name: '@acme/site', scripts: { dev: 'next dev', test: 'vitest' } }));
    sha = (await r.commit('Rename web app to site', '2026-02-02')).slice(0, 7);
    await r.remove('packages/legacy');
    await r.commit('Remove legacy', '2026-02-05');
  });

  it('names the successor and rewrites the selector (pnpm --filter, npm -w, yarn workspace)', async () => {
    await r.write('CLAUDE.md', '# acme\n\n- `pnpm --filter @acme/web dev` starts the site.\n- `pnpm --filter=@acme/web test` tests it.\n- `pnpm --filter web dev` unscoped.\n');
    await r.write('npm.md', '# npm\n\n- `npm -w @acme/web run dev` starts the site.\n');
    await r.write('yarn.md', '# yarn\n\n- `yarn workspace @acme/web dev` starts the site.\n');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md', 'npm.md', 'yarn.md'], now: NOW });
    const f = report.findings.filter((x) => x.kind === 'script-missing');
    expect(f.map((x) => `${x.file}|${x.line}|${x.ref}|${x.suggestion?.replace}`)).toEqual([
      'CLAUDE.md|3|pnpm --filter @acme/web dev|pnpm --filter @acme/site dev',
      'CLAUDE.md|4|pnpm --filter=@acme/web test|pnpm --filter=@acme/site test',
      'CLAUDE.md|5|pnpm --filter web dev|pnpm --filter @acme/site dev',
      'npm.md|3|npm -w @acme/web run dev|npm -w @acme/site run dev',
      'yarn.md|3|yarn workspace @acme/web dev|yarn workspace @acme/site dev',
    ]);
    expect(f[0].message).toBe(
      `\`pnpm --filter @acme/web dev\` no longer works: no workspace package is named \`@acme/web\` any more: it was renamed to \`@acme/site\` in ${sha} (2026-02-02, "Rename web app to site"); use \`pnpm --filter @acme/site dev\` instead.`,
    );
    expect(f[0].evidence).toMatchObject({ now: '@acme/site', successor: '@acme/site', script: 'dev', workspace: '@acme/web' });
    await r.remove('npm.md');
    await r.remove('yarn.md');
  });

  it('reports a deleted workspace package without a successor', async () => {
    await r.write('CLAUDE.md', '# acme\n\n- `pnpm --filter @acme/legacy build` builds the old one.\n');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    const f = report.findings.filter((x) => x.file === 'CLAUDE.md');
    expect(brief(f)).toEqual(['script-missing|3|pnpm --filter @acme/legacy build|']);
    expect(f[0].message).toMatch(
      /^`pnpm --filter @acme\/legacy build` no longer works: no workspace package is named `@acme\/legacy` any more: it was removed from `packages\/legacy\/package\.json` in [0-9a-f]{7} \(2026-02-05, "Remove legacy"\); update or remove the command\.$/,
    );
  });

  it('leaves globs, graph selectors, path selectors, live and never-seen names alone', async () => {
    await r.write(
      'CLAUDE.md',
      '# acme\n\n- `pnpm --filter "@acme/*" build`\n- `pnpm --filter ./apps/* dev`\n- `pnpm --filter @acme/web... build`\n- `pnpm --filter ...^@acme/web build`\n- `pnpm --filter @acme/admin dev`\n- `pnpm --filter @other/thing dev`\n- `pnpm -r build`\n',
    );
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(brief(report.findings.filter((x) => x.file === 'CLAUDE.md' && x.kind === 'script-missing'))).toEqual([]);
  });

  it('finds the successor when git paired the moved files but not the rewritten package.json', async () => {
    const q = await makeRepo();
    await q.write('package.json', '{ "name": "acme", "private": true }\n');
    await q.write('pnpm-workspace.yaml', 'packages:\n  - "apps/*"\n');
    await q.write('apps/web/package.json', '{ "name": "@acme/web", "scripts": { "dev": "next dev" } }\n');
    await q.write('apps/web/src/api.ts', 'export const api = 1;\n');
    await q.commit('init', '2026-01-04');
    await q.move('apps/web', 'apps/site');
    await q.write('apps/site/package.json', '{ "name": "@acme/site", "scripts": { "dev": "next dev" } }\n');
    await q.commit('Rename web app to site', '2026-02-02');
    await q.write('CLAUDE.md', '# acme\n\n- `pnpm --filter @acme/web dev` starts the site.\n');
    const { report } = await audit({ root: q.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(brief(report.findings.filter((x) => x.kind === 'script-missing'))).toEqual(['script-missing|3|pnpm --filter @acme/web dev|pnpm --filter @acme/site dev']);
  });
});
