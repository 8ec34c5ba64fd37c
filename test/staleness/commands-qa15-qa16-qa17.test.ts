// Command reading fixed after QA rounds 15–17: options with a value between `run` and the script
// name (`pnpm run -F docs codegen`), a script a package.json never had ("does not work"), PowerShell
// and other ecosystems' command words in unlabelled fences, `mix <task>` and `vendor/bin/<tool>` as
// program references of the Mix / Composer dependency, `composer require vendor/name` as a package
// reference, and Composer / Deno / go-task commands looked through wrappers. Real git repositories.
import { afterAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { looksLikeCommand, parseCommandLine } from '../../src/memory/refs/commands.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, pkg, shallowClone } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');

afterAll(cleanupRepos);

const pieces = (line: string) => parseCommandLine(line).map((p) => `${p.kind}:${p.tool ?? ''}:${p.value}@${p.workspace ?? ''}/${p.cwd ?? ''} ${p.start}-${p.end}`);
const short = async (dir: string, r: { git: { revparse: (a: string[]) => Promise<string> } }) => (await r.git.revparse(['HEAD'])).trim().slice(0, 7);

describe('options with a value between `run` and the script name', () => {
  it('takes the value as the workspace or folder, not as the script', () => {
    expect(pieces('pnpm run -F docs codegen:graphql')).toEqual(['script:pnpm:pnpm run codegen:graphql@docs/ 0-32']);
    expect(pieces('pnpm run --filter docs codegen:graphql')).toEqual(['script:pnpm:pnpm run codegen:graphql@docs/ 0-38']);
    expect(pieces('pnpm run --filter=docs build')).toEqual(['script:pnpm:pnpm run build@docs/ 0-28']);
    expect(pieces('npm run -w apps/docs codegen:graphql')).toEqual(['script:npm:npm run codegen:graphql@apps/docs/ 0-36']);
    // A folder option is a path reference too, and the folder the script's manifest is looked up in.
    expect(pieces('pnpm run -C apps/docs codegen:graphql')).toEqual(['path::apps/docs@/ 12-21', 'script:pnpm:pnpm run codegen:graphql@/apps/docs 0-37']);
    // pnpm's `-w` (the workspace root) and flags take no value.
    expect(pieces('pnpm run -w --if-present build')).toEqual(['script:pnpm:pnpm run build@/ 0-30']);
    expect(pieces('npm run -ws test')).toEqual(['script:npm:npm run test@*/ 0-16']);
  });
});

describe('pnpm run -F docs codegen:graphql (supabase .cursor/rules): a renamed script of the selected package', () => {
  const memory = [
    '---',
    'description: Docs GraphQL Architecture',
    'globs: apps/docs/resources/**/*.ts',
    'alwaysApply: false',
    '---',
    '',
    '# Docs GraphQL Architecture',
    '',
    'Run the GraphQL codegen to update TypeScript types:',
    '```bash',
    'pnpm run -F docs codegen:graphql',
    '```',
    '',
    '- Or with the long option: `pnpm run --filter docs codegen:graphql`',
    '- npm users: `npm run -w apps/docs codegen:graphql`',
    '- From anywhere: `pnpm run -C apps/docs codegen:graphql`',
    '',
  ].join('\n');
  const file = '.cursor/rules/docs-graphql.mdc';
  const l = (s: string) => lineOfText(memory, s);

  it('is silent while the script exists, reports the rename with its successor, and prune corrects every line', async () => {
    const r = await makeRepo('ma-cmdqa-');
    await r.write('package.json', pkg({ name: 'supabase', private: true, scripts: { build: 'turbo build' } }));
    await r.write('pnpm-workspace.yaml', 'packages: [apps/*]\n');
    await r.write('apps/docs/package.json', pkg({ name: 'docs', scripts: { 'codegen:graphql': 'graphql-codegen', dev: 'next dev' } }));
    await r.write(file, memory);
    await r.commit('docs: cursor rule', '2025-07-01');
    const healthy = await audit({ root: r.dir, memory: [file], now: NOW });
    expect(healthy.findings.map((f) => `${f.kind}|${f.line}|${f.ref}`)).toEqual([]);

    await r.write('apps/docs/package.json', pkg({ name: 'docs', scripts: { codegen: 'graphql-codegen', dev: 'next dev' } }));
    await r.commit('docs: rename codegen:graphql -> codegen', '2025-12-01');
    const sha = await short(r.dir, r);
    const { report } = await audit({ root: r.dir, memory: [file], now: NOW });
    expect(findingRows(report, () => true)).toEqual([
      `script-missing|${l('pnpm run -F')}|pnpm run -F docs codegen:graphql|pnpm run -F docs codegen`,
      `script-missing|${l('pnpm run --filter')}|pnpm run --filter docs codegen:graphql|pnpm run --filter docs codegen`,
      `script-missing|${l('npm run -w')}|npm run -w apps/docs codegen:graphql|npm run -w apps/docs codegen`,
      `script-missing|${l('pnpm run -C')}|pnpm run -C apps/docs codegen:graphql|pnpm run -C apps/docs codegen`,
    ]);
    expect(report.findings.find((f) => f.ref === 'pnpm run -F docs codegen:graphql')?.message).toBe(
      `\`pnpm run -F docs codegen:graphql\` no longer works: the script was renamed to \`codegen\` in ${sha} (2025-12-01, "docs: rename codegen:graphql -> codegen"); use \`pnpm run -F docs codegen\` instead.`,
    );

    const res = await runPrune({ root: r.dir, now: NOW, write: true, memory: [file] });
    expect(res.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}|${p.line}`)).toEqual([
      `update|4|${l('pnpm run -F') - 1}`,
      `update|4|${l('pnpm run --filter')}`,
      `update|4|${l('npm run -w')}`,
      `update|4|${l('pnpm run -C')}`,
    ]);
    expect(await readFile(path.join(r.dir, file), 'utf8')).toBe(
      memory
        .replace('pnpm run -F docs codegen:graphql', 'pnpm run -F docs codegen')
        .replace('`pnpm run --filter docs codegen:graphql`', '`pnpm run --filter docs codegen` [corrected 2026-06-01]')
        .replace('`npm run -w apps/docs codegen:graphql`', '`npm run -w apps/docs codegen` [corrected 2026-06-01]')
        .replace('`pnpm run -C apps/docs codegen:graphql`', '`pnpm run -C apps/docs codegen` [corrected 2026-06-01]'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: false, memory: [file] })).changes).toEqual([]);
  });
});

describe('a script the package.json never had', () => {
  const memory = ['# App', '', '- Build with `npm run build`.', '- Test with `npm test`.', ''].join('\n');

  it('"does not work" with the full history; "no longer works" with a shallow one', async () => {
    const r = await makeRepo('ma-cmdqa-');
    await r.write('package.json', pkg({ name: 'app', scripts: { test: 'vitest' } }));
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-01-01');
    await r.write('package.json', pkg({ name: 'app', scripts: { test: 'vitest run', lint: 'eslint .' } }));
    await r.commit('lint', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(report.findings.map((f) => `${f.kind}|${f.line}|${f.message}`)).toEqual([
      'script-missing|3|`npm run build` does not work: `package.json` defines no `build` script; update or remove the command.',
    ]);
    const shallow = await shallowClone(r);
    const sr = await audit({ root: shallow, memory: ['CLAUDE.md'], now: NOW });
    expect(sr.findings.filter((f) => f.kind === 'script-missing').map((f) => `${f.kind}|${f.line}|${f.message}`)).toEqual([
      'script-missing|3|`npm run build` no longer works: `package.json` defines no `build` script; update or remove the command.',
    ]);
  });
});

describe('PowerShell and other ecosystems in unlabelled fences (bitwarden .claude/CLAUDE.md)', () => {
  it('reads the command words', () => {
    for (const l of ['pwsh dev/ef_migrate.ps1 <MigrationName>', 'powershell -File build.ps1', 'xcodebuild -scheme App test', 'xcrun simctl list', 'swiftlint --strict', 'fastlane ios beta', 'java -jar app.jar', 'mix credo --strict']) {
      expect(looksLikeCommand(l)).toBe(true);
    }
    expect(looksLikeCommand('javascript is fun')).toBe(false);
  });

  it('reports a moved script run by `pwsh` in an unlabelled fence', async () => {
    const memory = [
      '# Bitwarden Server',
      '',
      '- **Database update**: `pwsh dev/migrate.ps1`',
      '',
      '1. Generate migrations:',
      '   ```',
      '   pwsh dev/ef_migrate.ps1 <MigrationName>',
      '   ```',
      '',
    ].join('\n');
    const r = await makeRepo('ma-cmdqa-');
    await r.write('.claude/CLAUDE.md', memory);
    for (const f of ['migrate', 'ef_migrate']) await r.write(`dev/${f}.ps1`, `Write-Host ${f} ${'x'.repeat(60)}\n`);
    await r.commit('Initial', '2025-06-01');
    for (const f of ['migrate', 'ef_migrate']) await r.git.mv(`dev/${f}.ps1`, `dev/${f}-new.ps1`);
    await r.commit('Rename dev scripts', '2025-09-01');
    const { report } = await audit({ root: r.dir, memory: ['.claude/CLAUDE.md'], now: NOW });
    expect(findingRows(report, () => true)).toEqual([
      'path-renamed|3|dev/migrate.ps1|dev/migrate-new.ps1',
      'path-renamed|7|dev/ef_migrate.ps1|dev/ef_migrate-new.ps1',
    ]);
  });
});

describe('`mix <task>` and `vendor/bin/<tool>`: the program of a removed Mix / Composer dependency', () => {
  it('reads the task namespace and the bin name as program references; Mix, Phoenix, Ecto and Hex tasks are not', () => {
    expect(pieces('mix igniter.add <package name>').filter((p) => p.startsWith('tool'))).toEqual(['tool:other:igniter@/ 4-11', 'tool:other:mix@/ 0-3']);
    expect(pieces('mix credo --strict').filter((p) => p.startsWith('tool'))).toEqual(['tool:other:credo@/ 4-9', 'tool:other:mix@/ 0-3']);
    for (const t of ['compile', 'test', 'deps.get', 'phx.server', 'phx.gen.html', 'ecto.migrate', 'hex.outdated', 'format', 'run', 'release']) {
      expect(pieces(`mix ${t}`).filter((p) => p.startsWith('tool'))).toEqual(['tool:other:mix@/ 0-3']);
    }
    expect(pieces('./vendor/bin/pest --parallel')).toEqual(['path::./vendor/bin/pest@/ 0-17', 'tool:other:pest@/ 13-17']);
    expect(pieces('php vendor/bin/phpunit tests/Unit').filter((p) => p.startsWith('tool'))).toEqual(['tool:other:phpunit@/ 15-22', 'tool:other:php@/ 0-3']);
    expect(pieces('./bin/pest').filter((p) => p.startsWith('tool'))).toEqual([]);
  });

  const mixExs = (deps: string[]) =>
    ['defmodule Shop.MixProject do', '  use Mix.Project', '  def project, do: [app: :shop, deps: deps()]', '  defp deps do', '    [', deps.map((d) => `      ${d}`).join(',\n'), '    ]', '  end', 'end', ''].join('\n');
  const memory = [
    '# Shop',
    '',
    '- **Always** use `mix igniter.add <package name>`. Do not add deps manually to `mix.exs`.',
    '- Lint with `mix credo --strict` and run `mix sobelow --config` before pushing.',
    '- Start with `mix phx.server`; migrate with `mix ecto.migrate`; `mix setup` installs everything.',
    '',
    '```sh',
    './vendor/bin/pest --parallel',
    './vendor/bin/phpstan analyse',
    '```',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);

  it('is silent while the packages are declared; reports each one after it left mix.exs / composer.json', async () => {
    const r = await makeRepo('ma-cmdqa-');
    await r.write('.gitignore', '/deps/\n/_build/\n/vendor\n');
    await r.write('mix.exs', mixExs(['{:phoenix, "~> 1.8.0"}', '{:ecto_sql, "~> 3.12"}', '{:credo, "~> 1.7", only: [:dev, :test], runtime: false}', '{:sobelow, "~> 0.13", only: [:dev, :test], runtime: false}', '{:igniter, "~> 0.6", only: [:dev, :test]}']));
    await r.write('composer.json', pkg({ name: 'acme/admin', require: { php: '^8.4' }, 'require-dev': { 'pestphp/pest': '^3.8', 'phpstan/phpstan': '^2.1' } }));
    await r.write('AGENTS.md', memory);
    await r.commit('base', '2025-01-01');
    const healthy = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(healthy.findings.map((f) => `${f.kind}|${f.line}|${f.ref}`)).toEqual([]);

    await r.write('mix.exs', mixExs(['{:phoenix, "~> 1.8.0"}', '{:ecto_sql, "~> 3.12"}']));
    await r.write('composer.json', pkg({ name: 'acme/admin', require: { php: '^8.4' }, 'require-dev': { 'phpunit/phpunit': '^11.5', 'phpstan/phpstan': '^2.1' } }));
    await r.commit('Drop credo, sobelow, igniter; Pest -> PHPUnit', '2025-06-01');
    const sha = await short(r.dir, r);
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(report.findings.map((f) => `${f.kind}|${f.line}|${f.ref}`)).toEqual([
      `package-missing|${l('igniter')}|igniter`,
      `package-missing|${l('credo')}|credo`,
      `package-missing|${l('credo')}|sobelow`,
      `package-renamed|${l('pest --')}|pest`,
    ]);
    expect(report.findings.find((f) => f.ref === 'credo')?.message).toBe(
      `\`credo\` is no longer a dependency of any manifest: it was removed from \`mix.exs\` in ${sha} (2025-06-01, "Drop credo, sobelow, igniter; Pest -> PHPUnit"); remove the reference or name what replaced it.`,
    );
    expect(report.findings.find((f) => f.ref === 'pest')?.message).toBe(
      `\`pest\` was replaced by \`phpunit\` in \`composer.json\` in ${sha} (2025-06-01, "Drop credo, sobelow, igniter; Pest -> PHPUnit"); update the reference.`,
    );
    const res = await runPrune({ root: r.dir, now: NOW, write: true, memory: ['AGENTS.md'] });
    // The two task lines go; the fence (a replaced tool, no spelling of its program known) goes to a person.
    expect(res.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}|${p.line}`)).toEqual([`delete|4|${l('igniter')}`, `delete|4|${l('credo')}`, `review|4|${l('```sh')}`]);
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(memory.split('\n').filter((x) => !x.includes('igniter') && !x.includes('credo')).join('\n'));
    expect((await runPrune({ root: r.dir, now: NOW, write: false, memory: ['AGENTS.md'] })).changes).toEqual([]);
  });
});

describe('`composer require vendor/name` and wrapped Composer / Deno / go-task commands', () => {
  it('names the packages of require / remove / update, not of `global` nor bare words', () => {
    expect(pieces('composer require spatie/laravel-data:^4.0 --dev').filter((p) => p.startsWith('package'))).toEqual(['package:composer:spatie/laravel-data@/ 17-36']);
    expect(pieces('composer remove laravel/telescope barryvdh/laravel-debugbar').filter((p) => p.startsWith('package'))).toEqual([
      'package:composer:laravel/telescope@/ 16-33',
      'package:composer:barryvdh/laravel-debugbar@/ 34-59',
    ]);
    expect(pieces('composer update nothing').filter((p) => p.startsWith('package'))).toEqual([]);
    expect(pieces('composer global require laravel/installer').filter((p) => p.startsWith('package'))).toEqual([]);
  });

  it('reads the command a container or wrapper script runs', () => {
    expect(pieces('docker compose exec php composer test').filter((p) => p.startsWith('script'))).toEqual(['script:composer:composer test@/ 24-37']);
    expect(pieces('./vendor/bin/sail composer test').filter((p) => p.startsWith('script'))).toEqual(['script:composer:composer test@/ 18-31']);
    expect(pieces('docker compose exec app deno task dev').filter((p) => p.startsWith('script'))).toEqual(['script:deno:deno task dev@/ 24-37']);
    expect(pieces('docker compose exec app task build').filter((p) => p.startsWith('script'))).toEqual(['script:task:task build@/ 24-34']);
  });

  it('reports a renamed Composer script run through a container', async () => {
    const memory = ['# App', '', '- Tests: `docker compose exec php composer test:unit`.', ''].join('\n');
    const r = await makeRepo('ma-cmdqa-');
    await r.write('composer.json', pkg({ name: 'acme/app', scripts: { 'test:unit': 'phpunit' } }));
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-01-01');
    await r.write('composer.json', pkg({ name: 'acme/app', scripts: { unit: 'phpunit' } }));
    await r.commit('rename', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, () => true)).toEqual(['script-missing|3|composer test:unit|composer unit']);
    await runPrune({ root: r.dir, now: NOW, write: true, memory: ['CLAUDE.md'] });
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe('# App\n\n- Tests: `docker compose exec php composer unit`. [corrected 2026-06-01]\n');
    expect((await runPrune({ root: r.dir, now: NOW, write: false, memory: ['CLAUDE.md'] })).changes).toEqual([]);
  });
});
