// Where memory names repository paths, QA regressions from real repositories: Cursor's
// `[name](mdc:path)` links, memory kept in a sub-project's config folder (`apps/web/.cursor/`,
// `apps/web/.claude/`), frontmatter globs followed by an HTML comment, brace globs with commas,
// GEMINI.md `@imports`, paths with non-ASCII letters or spaces, and list intro lines inside an
// auto-memory topic file. Real git repositories, the real audit, decision tree and prune.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { asPath, asSpacedPath, configOwnerDir, splitGlobList } from '../../src/memory/refs/paths.js';
import { namedPaths } from '../../src/policy/score.js';
import type { Finding } from '../../src/types.js';
import { body, cleanupRepos, makeRepo, type Repo } from '../staleness/helpers.js';

afterAll(cleanupRepos);

const NOW = new Date('2026-06-01T00:00:00Z');
const all = (r: { findings: Finding[]; notes?: Finding[] }) => [...r.findings, ...(r.notes ?? [])];
/** Path findings and notes as `kind|file:line|ref|replacement`, in report order. */
const paths = (r: { findings: Finding[]; notes?: Finding[] }) =>
  all(r)
    .filter((f) => f.kind.startsWith('path-'))
    .map((f) => `${f.kind}|${f.file}:${f.line}|${f.ref}|${f.suggestion?.replace ?? ''}`)
    .sort();
const read = (r: Repo, f: string) => readFile(path.join(r.dir, f), 'utf8');

describe('Cursor `mdc:` links', () => {
  const RULE = [
    '---',
    'description: Webapp',
    'globs: apps/webapp/**/*.ts',
    'alwaysApply: false',
    '---',
    '',
    '- Events are stored by [eventRepository.server.ts](mdc:apps/webapp/app/v3/eventRepository.server.ts).',
    '- The compose file is [docker-compose.yml](mdc:docker/docker-compose.yml); see [old](mdc:ai/references/tests.md).',
    '- Routes live in [routes](mdc:apps/webapp/app/routes/api.ts).',
    '- See [the missing one](mdc:apps/webapp/app/never-existed.ts).',
    '',
  ].join('\n');

  test('are checked as repository paths; the correction keeps `mdc:`; they count as names the project has', async () => {
    const r = await makeRepo();
    for (const f of ['apps/webapp/app/v3/eventRepository.server.ts', 'docker/docker-compose.yml', 'ai/references/tests.md', 'apps/webapp/app/routes/api.ts'])
      await r.write(f, body(f));
    await r.write('.cursor/rules/webapp.mdc', RULE);
    await r.commit('rules', '2026-01-10');

    const valid = await audit({ root: r.dir, now: NOW });
    expect(paths(valid.report)).toEqual(['path-unverified|.cursor/rules/webapp.mdc:10|apps/webapp/app/never-existed.ts|']);
    const routes = valid.entries.find((e) => e.text.includes('Routes live'))!;
    expect(namedPaths(routes)).toContain('apps/webapp/app/routes/api.ts');
    // The reference covers the path after the prefix.
    const ref = routes.refs.find((x) => x.kind === 'path')!;
    expect([ref.raw, ref.value, ref.in]).toEqual(['apps/webapp/app/routes/api.ts', 'apps/webapp/app/routes/api.ts', 'link']);
    expect(RULE.slice(ref.start - 4, ref.start)).toBe('mdc:');

    await r.move('apps/webapp/app/v3/eventRepository.server.ts', 'apps/webapp/app/v3/events/eventRepository.server.ts');
    await r.move('docker/docker-compose.yml', 'docker/compose.yml');
    await r.commit('Move things', '2026-02-01');
    const changed = await audit({ root: r.dir, now: NOW });
    expect(paths(changed.report)).toEqual([
      'path-renamed|.cursor/rules/webapp.mdc:7|apps/webapp/app/v3/eventRepository.server.ts|apps/webapp/app/v3/events/eventRepository.server.ts',
      'path-renamed|.cursor/rules/webapp.mdc:8|docker/docker-compose.yml|docker/compose.yml',
      'path-unverified|.cursor/rules/webapp.mdc:10|apps/webapp/app/never-existed.ts|',
    ]);

    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(res.plan.filter((p) => p.action === 'update' || p.action === 'delete').map((p) => `${p.action}|${p.rule}|${p.line}`)).toEqual(['update|4|7', 'update|4|8']);
    expect(await read(r, '.cursor/rules/webapp.mdc')).toBe(
      RULE.replace('(mdc:apps/webapp/app/v3/eventRepository.server.ts).', '(mdc:apps/webapp/app/v3/events/eventRepository.server.ts). [corrected 2026-06-01]')
        // a link text that is its destination's base name is rewritten with it
        .replace('[docker-compose.yml](mdc:docker/docker-compose.yml); see [old](mdc:ai/references/tests.md).', '[compose.yml](mdc:docker/compose.yml); see [old](mdc:ai/references/tests.md). [corrected 2026-06-01]'),
    );
    const before = await read(r, '.cursor/rules/webapp.mdc');
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.plan.filter((p) => p.action === 'update' || p.action === 'delete')).toEqual([]);
    expect(await read(r, '.cursor/rules/webapp.mdc')).toBe(before);
  });

  test('an `mdc:` link to a deleted topic file is unlinked like any other link', async () => {
    const r = await makeRepo();
    await r.write('crates/wasm/src/lib.rs', body('wasm'));
    await r.write('.claude/memory/MEMORY.md', '# Memory\n\n- [WASM target](project_wasm.md) — the wasm crate\n');
    await r.write('.claude/memory/project_wasm.md', '---\nname: WASM target\ndescription: the wasm crate\ntype: project\n---\n\nThe browser build lives in `crates/wasm/src/lib.rs`.\n');
    await r.write('.cursor/rules/wasm.mdc', '---\ndescription: wasm\nalwaysApply: true\n---\n\n- Background: [wasm notes](mdc:.claude/memory/project_wasm.md), kept by Claude.\n');
    await r.commit('memory', '2026-01-10');
    await r.remove('crates/wasm');
    await r.commit('Drop the wasm crate', '2026-02-01');
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(res.plan.find((p) => p.file === '.claude/memory/project_wasm.md')).toMatchObject({ action: 'delete', rule: 4 });
    expect(await read(r, '.cursor/rules/wasm.mdc')).toBe('---\ndescription: wasm\nalwaysApply: true\n---\n\n- Background: wasm notes, kept by Claude.\n');
  });
});

describe('memory in a sub-project config folder', () => {
  test('configOwnerDir', () => {
    expect(configOwnerDir('apps/web/.cursor/rules/a.mdc')).toBe('apps/web');
    expect(configOwnerDir('apps/web/.claude/CLAUDE.md')).toBe('apps/web');
    expect(configOwnerDir('apps/web/.claude/rules/deep/x.md')).toBe('apps/web');
    expect(configOwnerDir('apps/web/.github/copilot-instructions.md')).toBe('apps/web');
    expect(configOwnerDir('.cursor/rules/a.mdc')).toBe('');
    expect(configOwnerDir('apps/web/CLAUDE.md')).toBe('');
    expect(configOwnerDir('/home/u/.claude/projects/p/memory/x.md')).toBe('');
  });

  test('paths are resolved from the folder holding `.cursor/` / `.claude/`: quiet at HEAD, renames corrected relative to it', async () => {
    const r = await makeRepo();
    await r.write('package.json', '{ "name": "mono", "private": true, "workspaces": ["apps/*"] }\n');
    await r.write('apps/web/package.json', '{ "name": "web" }\n');
    await r.write('apps/web/src/components/Nav.tsx', body('Nav'));
    await r.write('apps/web/src/lib/fetcher.ts', body('fetcher'));
    const MDC = '---\ndescription: Web components\nglobs: src/components/**/*.tsx\nalwaysApply: false\n---\n\n- Components live in `src/components/`; the nav bar is `src/components/Nav.tsx`.\n';
    const CLAUDE = '# web\n\n- Data fetching goes through `src/lib/fetcher.ts`.\n';
    const RULE = '---\npaths: src/components/**\n---\n- The nav bar is `src/components/Nav.tsx`.\n';
    await r.write('apps/web/.cursor/rules/components.mdc', MDC);
    await r.write('apps/web/.claude/CLAUDE.md', CLAUDE);
    await r.write('apps/web/.claude/rules/components.md', RULE);
    await r.commit('web rules', '2025-05-01');

    const valid = await audit({ root: r.dir, now: NOW });
    expect(paths(valid.report)).toEqual([]);
    expect(valid.report.plan.filter((p) => p.action !== 'keep')).toEqual([]);

    await r.move('apps/web/src/lib/fetcher.ts', 'apps/web/src/lib/http.ts');
    await r.move('apps/web/src/components/Nav.tsx', 'apps/web/src/components/NavBar.tsx');
    await r.commit('renames', '2025-06-01');
    const changed = await audit({ root: r.dir, now: NOW });
    expect(paths(changed.report)).toEqual([
      'path-renamed|apps/web/.claude/CLAUDE.md:3|src/lib/fetcher.ts|src/lib/http.ts',
      'path-renamed|apps/web/.claude/rules/components.md:4|src/components/Nav.tsx|src/components/NavBar.tsx',
      'path-renamed|apps/web/.cursor/rules/components.mdc:7|src/components/Nav.tsx|src/components/NavBar.tsx',
    ]);
    const msg = all(changed.report).find((f) => f.file === 'apps/web/.claude/CLAUDE.md')!.message;
    expect(msg.startsWith('`src/lib/fetcher.ts` (apps/web/src/lib/fetcher.ts) was renamed to `apps/web/src/lib/http.ts` in ')).toBe(true);

    await runPrune({ root: r.dir, now: NOW, write: true });
    expect(await read(r, 'apps/web/.claude/CLAUDE.md')).toBe('# web\n\n- Data fetching goes through `src/lib/http.ts`. [corrected 2026-06-01]\n');
    expect(await read(r, 'apps/web/.cursor/rules/components.mdc')).toBe(
      MDC.replace('`src/components/Nav.tsx`.', '`src/components/NavBar.tsx`. [corrected 2026-06-01]'),
    );
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.plan.filter((p) => p.action === 'update' || p.action === 'delete')).toEqual([]);
  });

  test('a path that exists from the repository root is still found there', async () => {
    const r = await makeRepo();
    await r.write('packages/shared/src/index.ts', body('shared'));
    await r.write('apps/web/src/a.ts', body('a'));
    await r.write('apps/web/.claude/CLAUDE.md', '# web\n\n- Shared code: `packages/shared/src/index.ts`.\n');
    await r.commit('init', '2025-05-01');
    await r.move('packages/shared/src/index.ts', 'packages/shared/src/main.ts');
    await r.commit('rename', '2025-06-01');
    const res = await audit({ root: r.dir, now: NOW });
    expect(paths(res.report)).toEqual(['path-renamed|apps/web/.claude/CLAUDE.md:3|packages/shared/src/index.ts|packages/shared/src/main.ts']);
  });
});

describe('rule frontmatter', () => {
  test('an HTML comment between the frontmatter and the first entry keeps applyTo / globs checked, also before a protected entry (never edited)', async () => {
    const r = await makeRepo();
    await r.write('homeassistant/components/hue/__init__.py', body('hue'));
    await r.write('tests/components/hue/test_init.py', body('test'));
    await r.write('src/api/index.ts', body('api'));
    const INSTR = [
      '---',
      'applyTo: "homeassistant/components/**, tests/components/**"',
      '---',
      '',
      '<!-- Automatically generated by gen_copilot_instructions.py, do not edit -->',
      '',
      '',
      '## File Locations',
      '- **Integration code**: `./homeassistant/components/<integration_domain>/`',
      '',
    ].join('\n');
    const API = '---\ndescription: API routes\nglobs: src/api/**\nalwaysApply: false\n---\n<!-- PROTECTED -->\n- Every route validates its input with zod.\n';
    await r.write('.github/instructions/integrations.instructions.md', INSTR);
    await r.write('.cursor/rules/api.mdc', API);
    await r.commit('instructions', '2025-09-01');
    await r.move('tests/components', 'tests/integrations');
    await r.move('src/api', 'src/routes');
    await r.commit('Move component tests; api -> routes', '2026-04-01');

    const res = await audit({ root: r.dir, now: NOW });
    expect(paths(res.report)).toEqual([
      'path-renamed|.cursor/rules/api.mdc:3|src/api/**|src/routes/**',
      'path-renamed|.github/instructions/integrations.instructions.md:2|tests/components/**|tests/integrations/**',
    ]);
    const plan = (file: string) => res.report.plan.find((p) => p.file === file)!;
    expect(plan('.cursor/rules/api.mdc')).toMatchObject({ action: 'keep', rule: 0, reason: 'protected (marker)' });
    expect(plan('.github/instructions/integrations.instructions.md')).toMatchObject({ action: 'review', rule: 4 });
    expect(plan('.github/instructions/integrations.instructions.md').reason).toMatch(/^stale \(path-renamed\) at line 2, the file's frontmatter, outside this entry: /);

    await runPrune({ root: r.dir, now: NOW, write: true });
    expect(await read(r, '.cursor/rules/api.mdc')).toBe(API);
    expect(await read(r, '.github/instructions/integrations.instructions.md')).toBe(INSTR);
  });

  test('a glob list is split at commas outside braces only', async () => {
    expect(splitGlobList('src/renderer/**/*.{ts,tsx,js}')).toEqual(['src/renderer/**/*.{ts,tsx,js}']);
    expect(splitGlobList('src/a/**/*.{ts,tsx}, lib/*.{js,mjs},docs/**')).toEqual(['src/a/**/*.{ts,tsx}', ' lib/*.{js,mjs}', 'docs/**']);
    expect(splitGlobList('src/a/**, lib/*.ts')).toEqual(['src/a/**', ' lib/*.ts']);

    const r = await makeRepo();
    await r.write('src/renderer/pages/Home.tsx', body('Home'));
    await r.write('src/services/a.service.ts', body('svc'));
    const REACT = '---\ndescription: React\nglobs: src/renderer/**/*.{ts,tsx,js,jsx,html,css,scss}\n---\n\n# React Rules\n\nKeep components small.\n';
    const SVC = '---\ndescription: Services\nglobs:\n  - "src/services/**/*.service.ts"\n  - "!src/services/**/*.test.ts"\nalwaysApply: false\n---\n\n- One class per file.\n';
    await r.write('.cursor/rules/react.mdc', REACT);
    await r.write('.cursor/rules/services.mdc', SVC);
    await r.commit('rules', '2025-05-01');
    const refsOf = (res: Awaited<ReturnType<typeof audit>>, file: string) =>
      res.entries.filter((e) => e.file === file).flatMap((e) => e.refs.filter((x) => x.in === 'frontmatter').map((x) => `${x.raw}|${x.value}|${x.line}`));
    const valid = await audit({ root: r.dir, now: NOW });
    expect(refsOf(valid, '.cursor/rules/react.mdc')).toEqual(['src/renderer/**/*.{ts,tsx,js,jsx,html,css,scss}|src/renderer/**/*.{ts,tsx,js,jsx,html,css,scss}|3']);
    expect(refsOf(valid, '.cursor/rules/services.mdc')).toEqual(['src/services/**/*.service.ts|src/services/**/*.service.ts|4', 'src/services/**/*.test.ts|src/services/**/*.test.ts|5']);
    expect(paths(valid.report)).toEqual([]);

    await r.move('src/renderer', 'src/ui');
    await r.commit('Rename renderer to ui', '2025-08-01');
    const changed = await audit({ root: r.dir, now: NOW });
    expect(paths(changed.report)).toEqual(['path-renamed|.cursor/rules/react.mdc:3|src/renderer/**/*.{ts,tsx,js,jsx,html,css,scss}|src/ui/**/*.{ts,tsx,js,jsx,html,css,scss}']);
  });
});

describe('GEMINI.md imports', () => {
  test('`@./file.md` in GEMINI.md loads the file as Gemini memory, and its paths are checked', async () => {
    const r = await makeRepo();
    await r.write('package.json', '{ "name": "x", "scripts": { "test": "vitest" } }\n');
    await r.write('src/server.ts', body('server'));
    await r.write('GEMINI.md', '# GEMINI.md\n\n@./docs/agent/conventions.md\n\n@docs/agent/commands.md\n');
    await r.write('docs/agent/conventions.md', '# Conventions\n\n- The HTTP server lives in `src/server.ts`.\n');
    await r.write('docs/agent/commands.md', '# Commands\n\n- Run `npm test` for the unit tests.\n\n@./more.md\n');
    await r.write('docs/agent/more.md', '# More\n\n- Keep PRs small.\n');
    await r.write('docs/other.md', '# Not imported\n\n- `src/gone.ts` is not memory.\n');
    await r.commit('gemini memory', '2025-05-01');
    await r.move('src/server.ts', 'src/http.ts');
    await r.commit('rename server', '2025-06-01');
    const res = await audit({ root: r.dir, now: NOW });
    expect(res.files.map((f) => `${f.path}|${f.format}`)).toEqual([
      'GEMINI.md|gemini-md',
      'docs/agent/commands.md|gemini-md',
      'docs/agent/conventions.md|gemini-md',
      'docs/agent/more.md|gemini-md',
    ]);
    expect(paths(res.report)).toEqual(['path-renamed|docs/agent/conventions.md:3|src/server.ts|src/http.ts']);
  });

  test('AGENTS.md `@` lines are still not imports', async () => {
    const r = await makeRepo();
    await r.write('AGENTS.md', '# Agents\n\n@./docs/agent/conventions.md\n');
    await r.write('docs/agent/conventions.md', '# Conventions\n\n- Keep PRs small.\n');
    await r.commit('agents', '2025-05-01');
    const res = await audit({ root: r.dir, now: NOW });
    expect(res.files.map((f) => f.path)).toEqual(['AGENTS.md']);
  });
});

describe('paths with non-ASCII letters or spaces', () => {
  test('asPath accepts letters of any script; asSpacedPath takes a delimited path with spaces, not prose', () => {
    expect(asPath('docs/café.md', 'code')?.value).toBe('docs/café.md');
    expect(asPath('docs/数据字典.md', 'prose')?.value).toBe('docs/数据字典.md');
    expect(asPath('Größe/Gewicht', 'prose')).toBeNull(); // two words, like Size/Weight
    expect(asPath('docs/User Guide.md', 'code')).toBeNull();
    expect(asSpacedPath('docs/User Guide.md', 'code')).toEqual({ value: 'docs/User Guide.md', anchor: 'plain', dir: false, glob: false, strong: true });
    expect(asSpacedPath('docs/My Notes/Meeting Minutes.md', 'code')?.value).toBe('docs/My Notes/Meeting Minutes.md');
    expect(asSpacedPath('./docs/User Guide.md', 'link')?.value).toBe('docs/User Guide.md');
    expect(asSpacedPath('User Guide.md', 'link')?.value).toBe('User Guide.md');
    for (const prose of ['see docs/api.md', 'node scripts/x.mjs', 'src/a.ts and b.ts', 'src/index.ts or lib/x.ts', 'docs/ User.md', 'docs/Guide  Two.md', 'foo/bar baz', 'User Guide.md', 'docs/a -x.md'])
      expect([prose, asSpacedPath(prose, 'code')]).toEqual([prose, null]);
  });

  test('renamed paths with non-ASCII letters (inline code, links) and with spaces (angle-bracket and %20 links) are found', async () => {
    const r = await makeRepo();
    for (const f of ['docs/User Guide.md', 'docs/café.md', 'docs/数据字典.md', 'docs/api.md', 'docs/Release Notes.md']) await r.write(f, `# ${f}\n`);
    const CLAUDE = [
      '# Docs',
      '',
      '- Notes in French: `docs/café.md`.',
      '- 数据字典见 `docs/数据字典.md`。',
      '- See [the guide](<docs/User Guide.md>), [café](docs/café.md) and [字典](docs/数据字典.md).',
      '- Release notes: [notes](docs/Release%20Notes.md).',
      '- API reference: `docs/api.md`.',
      '- Plain words with spaces and a slash, e.g. the read / write path, are no path.',
      '',
    ].join('\n');
    await r.write('CLAUDE.md', CLAUDE);
    await r.commit('init', '2025-01-01');
    const valid = await audit({ root: r.dir, now: NOW });
    expect(paths(valid.report)).toEqual([]);
    await r.move('docs/User Guide.md', 'docs/User Manual.md');
    await r.move('docs/café.md', 'docs/cafe.md');
    await r.move('docs/数据字典.md', 'docs/data-dictionary.md');
    await r.move('docs/api.md', 'docs/api-reference.md');
    await r.move('docs/Release Notes.md', 'docs/changelog.md');
    await r.commit('Rename docs', '2025-06-01');
    const res = await audit({ root: r.dir, now: NOW });
    expect(paths(res.report)).toEqual([
      'path-renamed|CLAUDE.md:3|docs/café.md|docs/cafe.md',
      'path-renamed|CLAUDE.md:4|docs/数据字典.md|docs/data-dictionary.md',
      'path-renamed|CLAUDE.md:5|docs/User Guide.md|docs/User Manual.md',
      'path-renamed|CLAUDE.md:5|docs/café.md|docs/cafe.md',
      'path-renamed|CLAUDE.md:5|docs/数据字典.md|docs/data-dictionary.md',
      'path-renamed|CLAUDE.md:6|docs/Release%20Notes.md|docs/changelog.md',
      'path-renamed|CLAUDE.md:7|docs/api.md|docs/api-reference.md',
    ]);
    await runPrune({ root: r.dir, now: NOW, write: true });
    expect(await read(r, 'CLAUDE.md')).toBe(
      CLAUDE.replace('`docs/café.md`.', '`docs/cafe.md`. [corrected 2026-06-01]')
        .replace('`docs/数据字典.md`。', '`docs/data-dictionary.md`。 [corrected 2026-06-01]')
        .replace('(<docs/User Guide.md>), [café](docs/café.md) and [字典](docs/数据字典.md).', '(<docs/User Manual.md>), [café](docs/cafe.md) and [字典](docs/data-dictionary.md). [corrected 2026-06-01]')
        .replace('(docs/Release%20Notes.md).', '(docs/changelog.md). [corrected 2026-06-01]')
        .replace('`docs/api.md`.', '`docs/api-reference.md`. [corrected 2026-06-01]'),
    );
  });
});

describe('list intro lines inside an auto-memory topic file', () => {
  const LIST = [
    'Build scripts are located in `builds/scripts/`:',
    '',
    '- `compactJson.mjs` compacts JSON with smart key ordering',
    '- `copyLocal.mjs` deploys `src/` to the local Foundry installation',
    '- `migrateEnemyIds.mjs` assigns sequential faction-based IDs to enemy actors',
  ].join('\n');
  const topic = (bodyText: string) => `---\nname: reference_build_scripts\ndescription: Build script locations\ntype: reference\n---\n\n${bodyText}\n`;

  async function fixture(topicBody: string, extra: string[] = []): Promise<Repo> {
    const r = await makeRepo();
    for (const f of extra) await r.write(f, body(f));
    for (const s of ['compactJson', 'copyLocal', 'migrateEnemyIds']) await r.write(`builds/scripts/${s}.mjs`, body(s));
    await r.write('tools/lint.mjs', body('lint'));
    await r.write('tools/format.mjs', body('format'));
    await r.write('src/system.json', '{}\n');
    await r.write('.claude/memory/MEMORY.md', '- [Build Scripts](reference_build_scripts.md) — build pipeline scripts\n');
    await r.write('.claude/memory/reference_build_scripts.md', topic(topicBody));
    await r.commit('memory', '2026-03-01');
    await r.remove('builds/scripts/copyLocal.mjs');
    await r.remove('builds/scripts/migrateEnemyIds.mjs');
    await r.remove('tools/lint.mjs');
    await r.commit('Consolidate scripts', '2026-04-10');
    return r;
  }

  test('the folder of the body list intro applies to the bare names of its list, as in CLAUDE.md', async () => {
    const r = await fixture(LIST);
    const res = await audit({ root: r.dir, now: NOW });
    expect(paths(res.report)).toEqual([
      'path-missing|.claude/memory/reference_build_scripts.md:10|copyLocal.mjs|',
      'path-missing|.claude/memory/reference_build_scripts.md:11|migrateEnemyIds.mjs|',
    ]);
    expect(all(res.report).find((f) => f.line === 10)!.message.startsWith('`copyLocal.mjs` (builds/scripts/copyLocal.mjs) was deleted in ')).toBe(true);
  });

  test('two lists naming different folders: no folder is guessed', async () => {
    // Files of the same names elsewhere at HEAD: a bare name is then only stale through a folder
    // its context names, and none is taken here.
    const r = await fixture(`${LIST}\n\nLint tools are located in \`tools/\`:\n\n- \`lint.mjs\` lints`, ['legacy/copyLocal.mjs', 'legacy/migrateEnemyIds.mjs', 'legacy/lint.mjs']);
    const res = await audit({ root: r.dir, now: NOW });
    expect(paths(res.report)).toEqual([]);
  });
});
