// Turborepo and Nx commands (QA on trigger.dev / langfuse-style pnpm + Turborepo monorepos), and
// package-manager selectors written after the script (`pnpm run dev --filter webapp`):
// - the selector's value is inside the command's reference wherever it stands, so a renamed
//   package is rewritten in place in every form;
// - `turbo [run] <task> [--filter sel]` (also via npx / pnpm / pnpm exec): the selector is checked
//   like pnpm's, the task against turbo.json keys (with history) and package scripts;
// - `nx run <project>:<target>` / `nx <target> <project>`: the project against project.json and
//   package.json names (with history), the target against the project's targets and scripts
//   (open when nx.json declares plugins);
// - `pnpm turbo …` runs the turbo binary: its `--filter` is turbo's, and `run` after it is no
//   sign of a package script.
// Real git repositories in temp folders, audited and pruned end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import type { Finding, Report } from '../../src/types.js';
import { cleanupRepos, lineOfText, makeRepo, type Repo } from './helpers.js';
import { refsOf } from './refs-helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');

afterAll(cleanupRepos);

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

/** kind | line | ref | suggestion.replace (empty when none), CLAUDE.md only, by line. */
function rows(report: Report): string[] {
  return report.findings
    .filter((f) => f.file === 'CLAUDE.md')
    .sort((a, b) => a.line - b.line || (a.ref ?? '').localeCompare(b.ref ?? ''))
    .map((f) => `${f.kind}|${f.line}|${f.ref ?? ''}|${f.suggestion?.replace ?? ''}`);
}

function at(report: Report, ref: string): Finding {
  const f = report.findings.find((x) => x.ref === ref);
  if (!f) throw new Error(`no finding for ${ref}`);
  return f;
}

describe('reading turbo and nx commands, and selectors after the script', () => {
  const cmds = (text: string) =>
    refsOf(text)
      .filter((r) => r.kind === 'command')
      .map((r) => [r.raw, r.tool, r.script, r.workspace ?? ''].join('|'));

  it('turbo: every task, the selector on the first one, which reaches its value', () => {
    expect(
      cmds(
        [
          '- `turbo run build test --filter=@acme/web`',
          '- `turbo dev -F web`',
          '- `npx turbo run typecheck`',
          '- `pnpm exec turbo run lint --filter ...web`',
          '- `turbo run build --concurrency 4 --filter web`',
          '- `turbo prune web --docker`',
          '- `turbo login`',
        ].join('\n'),
      ),
    ).toEqual([
      'turbo run build test --filter=@acme/web|turbo|build|@acme/web',
      'test|turbo|test|',
      'turbo dev -F web|turbo|dev|web',
      'npx turbo run typecheck|turbo|typecheck|',
      'pnpm exec turbo run lint --filter ...web|turbo|lint|...web',
      'turbo run build --concurrency 4 --filter web|turbo|build|web',
    ]);
  });

  it('pnpm turbo: the script piece takes no selector; the turbo piece has it', () => {
    expect(cmds('- `pnpm turbo run lint --filter @acme/web`')).toEqual([
      'pnpm turbo|pnpm|turbo|',
      'pnpm turbo run lint --filter @acme/web|turbo|lint|@acme/web',
    ]);
  });

  it('nx: `run project:target[:config]` and `<target> <project>`; its own commands and a bare target give none', () => {
    expect(
      cmds(
        [
          '- `nx run web:e2e`',
          '- `nx run web:build:production`',
          '- `nx test web --watch`',
          '- `pnpm nx run @acme/ui:lint`',
          '- `nx affected -t test`',
          '- `nx graph`',
          '- `nx run-many -t build -p web`',
          '- `nx build`',
        ].join('\n'),
      ),
    ).toEqual([
      'nx run web:e2e|nx|e2e|web',
      'nx run web:build:production|nx|build|web',
      'nx test web|nx|test|web',
      'pnpm nx|pnpm|nx|',
      'pnpm nx run @acme/ui:lint|nx|lint|@acme/ui',
    ]);
  });

  it('a package-manager selector written after the script is inside the reference', () => {
    expect(
      cmds(
        [
          '- `pnpm run dev --filter webapp`',
          '- `pnpm run build --filter=webapp`',
          '- `pnpm dev --filter webapp`',
          '- `npm run lint -w web`',
          '- `pnpm test test/x.test.ts --filter ui`',
          '- `pnpm run dev -- --filter webapp`',
          '- `pnpm --filter webapp dev`',
          '- `pnpm build -w`',
        ].join('\n'),
      ),
    ).toEqual([
      'pnpm run dev --filter webapp|pnpm|dev|webapp',
      'pnpm run build --filter=webapp|pnpm|build|webapp',
      'pnpm dev --filter webapp|pnpm|dev|webapp',
      'npm run lint -w web|npm|lint|web',
      'pnpm test test/x.test.ts --filter ui|pnpm|test|ui',
      'pnpm run dev|pnpm|dev|',
      'pnpm --filter webapp dev|pnpm|dev|webapp',
      'pnpm build|pnpm|build|',
    ]);
  });
});

describe('a package renamed: the selector rewritten wherever it stands', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '## Commands',
    '',
    '- Dev server: `pnpm run dev --filter webapp`',
    '- Build one app: `pnpm run build --filter=webapp`',
    '- Turbo directly: `turbo run test --filter=webapp`',
    '- Short selector: `turbo run build -F webapp`',
    '- Selector first: `pnpm --filter webapp dev`',
    '- Shorthand: `pnpm dev --filter webapp`',
    '- UI types: `pnpm run typecheck --filter @acme/ui`',
    '- Gone package: `pnpm run build --filter legacy`',
    '- Live package: `pnpm run build --filter @acme/ui`',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let sha: string;
  let gone: string;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('package.json', json({ name: 'root', private: true, scripts: { build: 'turbo run build', dev: 'turbo run dev' }, devDependencies: { turbo: '^2.0.0' } }));
    await r.write('pnpm-workspace.yaml', 'packages:\n  - "apps/*"\n  - "packages/*"\n');
    await r.write('turbo.json', json({ tasks: { build: {}, dev: {}, test: {}, typecheck: {} } }));
    await r.write('apps/webapp/package.json', json({ name: 'webapp', scripts: { build: 'remix build', dev: 'remix dev', test: 'vitest' } }));
    await r.write('apps/webapp/app/root.tsx', 'export default function Root() { return null; }\n');
    await r.write('packages/ui/package.json', json({ name: '@acme/ui', scripts: { build: 'tsc', typecheck: 'tsc --noEmit' } }));
    await r.write('packages/ui/src/index.ts', 'export const ui = 1;\n');
    await r.write('packages/legacy/package.json', json({ name: 'legacy', scripts: { build: 'tsc' } }));
    await r.write('packages/legacy/src/index.ts', 'export const legacy = 1;\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-09-01');
    await r.move('apps/webapp', 'apps/dashboard');
    await r.write('apps/dashboard/package.json', json({ name: 'dashboard', scripts: { build: 'remix build', dev: 'remix dev', test: 'vitest' } }));
    await r.write('packages/ui/package.json', json({ name: '@acme/ui', scripts: { build: 'tsc', 'check-types': 'tsc --noEmit' } }));
    await r.write('turbo.json', json({ tasks: { build: {}, dev: {}, test: {}, 'check-types': {} } }));
    sha = (await r.commit('Rename the webapp app to dashboard', '2025-11-10')).slice(0, 7);
    await r.remove('packages/legacy');
    gone = (await r.commit('Remove legacy', '2025-11-12')).slice(0, 7);
    ({ report } = await audit({ root: r.dir, now: NOW }));
  });

  it('finds every form and offers the replacement for each', () => {
    expect(rows(report)).toEqual([
      `script-missing|${l('Dev server')}|pnpm run dev --filter webapp|pnpm run dev --filter dashboard`,
      `script-missing|${l('Build one app')}|pnpm run build --filter=webapp|pnpm run build --filter=dashboard`,
      `script-missing|${l('Turbo directly')}|turbo run test --filter=webapp|turbo run test --filter=dashboard`,
      `script-missing|${l('Short selector')}|turbo run build -F webapp|turbo run build -F dashboard`,
      `script-missing|${l('Selector first')}|pnpm --filter webapp dev|pnpm --filter dashboard dev`,
      `script-missing|${l('Shorthand')}|pnpm dev --filter webapp|pnpm dev --filter dashboard`,
      `script-missing|${l('UI types')}|pnpm run typecheck --filter @acme/ui|pnpm run check-types --filter @acme/ui`,
      `script-missing|${l('Gone package')}|pnpm run build --filter legacy|`,
    ]);
    expect(at(report, 'pnpm run dev --filter webapp').message).toBe(
      `\`pnpm run dev --filter webapp\` no longer works: no workspace package is named \`webapp\` any more: it was renamed to \`dashboard\` in ${sha} (2025-11-10, "Rename the webapp app to dashboard"); use \`pnpm run dev --filter dashboard\` instead.`,
    );
    expect(at(report, 'turbo run test --filter=webapp').evidence).toMatchObject({ successor: 'dashboard', script: 'test', workspace: 'webapp' });
    expect(at(report, 'pnpm run typecheck --filter @acme/ui').message).toBe(
      `\`pnpm run typecheck --filter @acme/ui\` no longer works: the script was renamed to \`check-types\` in ${sha} (2025-11-10, "Rename the webapp app to dashboard"); use \`pnpm run check-types --filter @acme/ui\` instead.`,
    );
    expect(at(report, 'pnpm run build --filter legacy').message).toBe(
      `\`pnpm run build --filter legacy\` no longer works: no workspace package is named \`legacy\` any more: it was removed from \`packages/legacy/package.json\` in ${gone} (2025-11-12, "Remove legacy"); update or remove the command.`,
    );
  });

  it('prune rewrites each command in place; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    for (const s of ['Dev server', 'Build one app', 'Turbo directly', 'Short selector', 'Selector first', 'Shorthand', 'UI types'])
      expect(res.plan.find((p) => p.line === l(s))).toMatchObject({ action: 'update', rule: 4 });
    // The command of a package removed without a successor says nothing true any more: deleted (archived).
    expect(res.plan.find((p) => p.line === l('Gone package'))).toMatchObject({ action: 'delete', rule: 4 });
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(
      [
        '# CLAUDE.md',
        '',
        '## Commands',
        '',
        '- Dev server: `pnpm run dev --filter dashboard` [corrected 2026-06-01]',
        '- Build one app: `pnpm run build --filter=dashboard` [corrected 2026-06-01]',
        '- Turbo directly: `turbo run test --filter=dashboard` [corrected 2026-06-01]',
        '- Short selector: `turbo run build -F dashboard` [corrected 2026-06-01]',
        '- Selector first: `pnpm --filter dashboard dev` [corrected 2026-06-01]',
        '- Shorthand: `pnpm dev --filter dashboard` [corrected 2026-06-01]',
        '- UI types: `pnpm run check-types --filter @acme/ui` [corrected 2026-06-01]',
        '- Live package: `pnpm run build --filter @acme/ui`',
        '',
      ].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: true })).changes).toEqual([]);
  });
});

describe('Turborepo tasks and Nx projects renamed', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '- `turbo run build --filter=@acme/web` builds the web app only',
    '- `turbo dev --filter @acme/web` starts the app',
    '- `pnpm turbo run lint --filter @acme/web`',
    '- `npx turbo run typecheck` type-checks every package',
    '- `turbo run deploy` ships it',
    '- `nx run web:e2e` runs the Playwright suite',
    '- `nx e2e web` is the same',
    '- `nx run ui:storybook` shows the components',
    '- `nx run ui:chromatic` publishes them',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let sha: string;
  let deploySha: string;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('package.json', json({ name: 'root', private: true, scripts: { build: 'turbo run build' }, devDependencies: { turbo: '^2.0.0', nx: '^20.0.0' }, packageManager: 'pnpm@10.23.0' }));
    await r.write('pnpm-workspace.yaml', 'packages:\n  - "apps/*"\n  - "packages/*"\n');
    await r.write('turbo.json', '{\n  // tasks\n  "tasks": { "build": { "dependsOn": ["^build"] }, "dev": {}, "lint": {}, "typecheck": {}, "deploy": { "cache": false } }\n}\n');
    await r.write('nx.json', json({ targetDefaults: { build: { dependsOn: ['^build'] } } }));
    await r.write('apps/web/package.json', json({ name: '@acme/web', scripts: { build: 'next build', dev: 'next dev', lint: 'eslint .', typecheck: 'tsc --noEmit' } }));
    await r.write('apps/web/project.json', json({ name: 'web', targets: { e2e: { executor: '@nx/playwright:playwright' } } }));
    await r.write('apps/web/app/page.tsx', 'export default function Page() { return null; }\n');
    await r.write('packages/ui/package.json', json({ name: '@acme/ui', scripts: { build: 'tsc', lint: 'eslint .' } }));
    await r.write('packages/ui/project.json', json({ name: 'ui', targets: { storybook: { executor: '@nx/storybook:storybook', options: { port: 4400 } }, chromatic: { command: 'chromatic --exit-zero-on-changes' } } }));
    await r.write('packages/ui/src/index.ts', 'export const ui = 1;\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-09-01');
    await r.move('apps/web', 'apps/site');
    await r.write('apps/site/package.json', json({ name: '@acme/site', scripts: { build: 'next build', dev: 'next dev', lint: 'eslint .', 'check-types': 'tsc --noEmit' } }));
    await r.write('apps/site/project.json', json({ name: 'site', targets: { e2e: { executor: '@nx/playwright:playwright' } } }));
    await r.write('turbo.json', '{\n  // tasks\n  "tasks": { "build": { "dependsOn": ["^build"] }, "dev": {}, "lint": {}, "check-types": {}, "deploy": { "cache": false } }\n}\n');
    await r.write('packages/ui/project.json', json({ name: 'ui', targets: { stories: { executor: '@nx/storybook:storybook', options: { port: 4400 } } } }));
    sha = (await r.commit('Rename @acme/web to @acme/site; typecheck task -> check-types', '2025-11-10')).slice(0, 7);
    await r.write('turbo.json', '{\n  // tasks\n  "tasks": { "build": { "dependsOn": ["^build"] }, "dev": {}, "lint": {}, "check-types": {} }\n}\n');
    deploySha = (await r.commit('Stop deploying from turbo', '2025-11-20')).slice(0, 7);
    ({ report } = await audit({ root: r.dir, now: NOW }));
  });

  it('reports the selector, the task, the project and the target, each with its successor', () => {
    expect(rows(report)).toEqual([
      `script-missing|${l('turbo run build')}|turbo run build --filter=@acme/web|turbo run build --filter=@acme/site`,
      `script-missing|${l('turbo dev')}|turbo dev --filter @acme/web|turbo dev --filter @acme/site`,
      `script-missing|${l('pnpm turbo')}|pnpm turbo run lint --filter @acme/web|pnpm turbo run lint --filter @acme/site`,
      `script-missing|${l('npx turbo')}|npx turbo run typecheck|npx turbo run check-types`,
      `script-missing|${l('turbo run deploy')}|turbo run deploy|`,
      `script-missing|${l('nx run web:e2e')}|nx run web:e2e|nx run site:e2e`,
      `script-missing|${l('nx e2e web')}|nx e2e web|nx e2e site`,
      `script-missing|${l('ui:storybook')}|nx run ui:storybook|nx run ui:stories`,
      `script-missing|${l('ui:chromatic')}|nx run ui:chromatic|`,
    ]);
    const why = `${sha} (2025-11-10, "Rename @acme/web to @acme/site; typecheck task -> check-types")`;
    expect(at(report, 'npx turbo run typecheck').message).toBe(
      `\`npx turbo run typecheck\` no longer works: the \`typecheck\` task of \`turbo.json\` was renamed to \`check-types\` in ${why}; use \`npx turbo run check-types\` instead.`,
    );
    expect(at(report, 'turbo run deploy').message).toBe(
      `\`turbo run deploy\` no longer works: the \`deploy\` task was removed from \`turbo.json\` in ${deploySha} (2025-11-20, "Stop deploying from turbo"), and no package defines a \`deploy\` script; update or remove the command.`,
    );
    expect(at(report, 'nx run web:e2e').message).toBe(
      `\`nx run web:e2e\` no longer works: no Nx project is named \`web\` any more: it was renamed to \`site\` in ${why}; use \`nx run site:e2e\` instead.`,
    );
    expect(at(report, 'nx run ui:storybook').message).toBe(
      `\`nx run ui:storybook\` no longer works: the Nx project \`ui\` has no \`storybook\` target: it was renamed to \`stories\` in \`packages/ui/project.json\` in ${why}; use \`nx run ui:stories\` instead.`,
    );
    expect(at(report, 'nx run ui:chromatic').message).toBe(
      `\`nx run ui:chromatic\` no longer works: the Nx project \`ui\` has no \`chromatic\` target: it was removed from \`packages/ui/project.json\` in ${why}; update or remove the command.`,
    );
    // `pnpm turbo` runs the turbo binary: no `turbo` script is looked for.
    expect(report.findings.filter((f) => f.ref === 'pnpm turbo')).toEqual([]);
  });

  it('prune corrects what has a successor and deletes the rest; a second prune changes nothing; restore brings it back', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(res.plan.find((p) => p.line === l('turbo run deploy'))).toMatchObject({ action: 'delete', rule: 4 });
    expect(res.plan.find((p) => p.line === l('ui:chromatic'))).toMatchObject({ action: 'delete', rule: 4 });
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(
      [
        '# CLAUDE.md',
        '',
        '- `turbo run build --filter=@acme/site` builds the web app only [corrected 2026-06-01]',
        '- `turbo dev --filter @acme/site` starts the app [corrected 2026-06-01]',
        '- `pnpm turbo run lint --filter @acme/site` [corrected 2026-06-01]',
        '- `npx turbo run check-types` type-checks every package [corrected 2026-06-01]',
        '- `nx run site:e2e` runs the Playwright suite [corrected 2026-06-01]',
        '- `nx e2e site` is the same [corrected 2026-06-01]',
        '- `nx run ui:stories` shows the components [corrected 2026-06-01]',
        '',
      ].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: true })).changes).toEqual([]);
    const { records } = parseArchive(await readFile(path.join(r.dir, '.memory-audit/archive.jsonl'), 'utf8'));
    const ids = [...new Set(records.map((x) => x.entryId))];
    expect(ids).toHaveLength(9);
    for (const id of ids) await runRestore({ root: r.dir, id });
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(memory);
  });
});

describe('a healthy Turborepo + Nx monorepo stays silent', () => {
  let r: Repo;
  let report: Report;
  const memory = [
    '# CLAUDE.md',
    '',
    '- `turbo run build --filter=@acme/site` and `turbo run build test --filter=site`',
    '- `turbo run storybook` (a task only `packages/ui/package.json` defines as a script)',
    '- `turbo run build --filter=./apps/*`, `turbo run build --filter=...site`, `turbo run lint --filter=@acme/*`',
    '- `pnpm turbo run lint --filter @acme/site`, `npx turbo run check-types`, `pnpm exec turbo dev -F @acme/site`',
    '- `turbo run nothing-here` was never a task; `turbo prune site --docker`',
    '- `nx run site:e2e`, `nx e2e site`, `nx run site:build:production`, `nx run @acme/ui:storybook`',
    '- `nx affected -t test`, `nx graph`, `nx run-many -t build`, `nx build`',
    '- `nx run site:old-e2e` is inferred by a plugin now',
    '- `pnpm run dev --filter @acme/site`, `pnpm dev --filter site`, `pnpm --filter ./apps/site dev`',
    '',
  ].join('\n');

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('package.json', json({ name: 'root', private: true, scripts: { build: 'turbo run build', lint: 'turbo run lint' }, devDependencies: { turbo: '^2.0.0', nx: '^20.0.0' } }));
    await r.write('pnpm-workspace.yaml', 'packages:\n  - "apps/*"\n  - "packages/*"\n');
    await r.write('turbo.json', json({ tasks: { build: {}, dev: {}, lint: {}, test: {}, 'check-types': {} } }));
    await r.write('nx.json', json({ targetDefaults: {} }));
    await r.write('apps/site/package.json', json({ name: '@acme/site', scripts: { build: 'next build', dev: 'next dev', lint: 'eslint .', test: 'vitest', 'check-types': 'tsc' } }));
    await r.write('apps/site/project.json', json({ name: 'site', targets: { e2e: { executor: '@nx/playwright:playwright' }, 'old-e2e': { command: 'cypress run' } } }));
    await r.write('apps/site/app/page.tsx', 'export default function Page() { return null; }\n');
    await r.write('packages/ui/package.json', json({ name: '@acme/ui', scripts: { build: 'tsc', storybook: 'storybook dev' } }));
    await r.write('packages/ui/src/index.ts', 'export const ui = 1;\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-09-01');
    // The target leaves project.json, and a plugin infers targets from now on.
    await r.write('apps/site/project.json', json({ name: 'site', targets: { e2e: { executor: '@nx/playwright:playwright' } } }));
    await r.write('nx.json', json({ plugins: ['@nx/cypress/plugin'], targetDefaults: {} }));
    await r.commit('Infer cypress targets', '2025-10-01');
    ({ report } = await audit({ root: r.dir, now: NOW }));
  });

  it('reports nothing about any command', () => {
    expect(report.findings.filter((f) => f.file === 'CLAUDE.md' && f.kind === 'script-missing')).toEqual([]);
    expect(report.findings.filter((f) => f.file === 'CLAUDE.md').map((f) => `${f.kind}|${f.line}|${f.ref}`)).toEqual([]);
  });

  it('prune changes nothing', async () => {
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});
