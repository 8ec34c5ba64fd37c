// Package names as Ruby, Elixir, .NET and Flutter projects write them (QA round 28): a Gem or Mix
// dependency named by its module (`Sidekiq::Job`, `FactoryBot.create`, `PhoenixTest`, `ExMachina`)
// is followed once the dependency is removed or swapped (never rewritten); a dependency whose
// family is still declared (`xunit` -> `xunit.v3`) is not reported; a correction is not written
// when the entry already names the successor by its distinctive part ("not Riverpod" for
// `flutter_riverpod`). Real git repositories in temp folders, audited and pruned end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, pkg, planRows, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PKG = new Set(['package-missing', 'package-renamed']);
const isPkg = (f: { kind: string }) => PKG.has(f.kind);
const COMMIT = / in [0-9a-f]{7} \(/g;
const msgAt = (report: Report, line: number, ref: string) =>
  report.findings.find((f) => f.line === line && f.ref === ref && PKG.has(f.kind))!.message.replace(COMMIT, ' in SHA (');
const read = (r: Repo, f: string) => readFile(path.join(r.dir, f), 'utf8');

/** Prunes with `write`, checks that a second prune changes nothing, restores every archived entry and checks the bytes. */
async function pruneCycle(r: Repo, file: string, memory: string): Promise<{ plan: string[]; text: string }> {
  const first = await runPrune({ root: r.dir, now: NOW, write: true });
  const text = await read(r, file);
  const again = await runPrune({ root: r.dir, now: NOW, write: true });
  expect(again.changes).toEqual([]);
  expect(await read(r, file)).toBe(text);
  const archive = await readFile(path.join(r.dir, '.memory-audit/archive.jsonl'), 'utf8').catch(() => '');
  const { records } = parseArchive(archive);
  for (const id of [...new Set(records.map((x) => x.entryId))]) await runRestore({ root: r.dir, id });
  expect(await read(r, file)).toBe(memory);
  return { plan: planRows(first.plan), text };
}

afterAll(cleanupRepos);

describe('Ruby gems named by their constants', () => {
  const memory = [
    '# Agent notes',
    '',
    '## Background jobs',
    '- Prefer `include Sidekiq::Job` over `Sidekiq::Worker`.',
    '- Errors go to `Sentry.capture_exception(e)`.',
    '- Authorisation errors raise `Pundit::NotAuthorizedError`; middleware reads `Rack::Request` headers.',
    '',
    '## Tests',
    '- Use `create(:factory)` syntax (FactoryBot) and standard RSpec expectations.',
    '- Build records with `FactoryBot.create(:user)`; factories live in `spec/factories/`.',
    '- Amounts are `Money.from_cents(100)` objects; tokens use `Base64.urlsafe_encode64`.',
    '- Admin jobs subclass `Admin::Sidekiq` and `Ops.FactoryBot` helpers.',
    '',
    '```ruby',
    'FactoryBot.create(:user)',
    '```',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  const gemfile = (gems: string[]) => ['source "https://rubygems.org"', ...gems.map((g) => `gem "${g}"`), ''].join('\n');
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('Gemfile', gemfile(['rails', 'rack', 'sidekiq', 'pundit', 'money', 'base64', 'sentry-rails', 'sentry-ruby', 'factory_bot_rails', 'rspec-rails']));
    await r.write('spec/factories/users.rb', '# users\n');
    await r.write('AGENTS.md', memory);
    await r.commit('init', '2025-11-01');
    await r.write('Gemfile', gemfile(['rails', 'rack', 'solid_queue', 'pundit', 'money', 'base64', 'sentry-rails', 'sentry-ruby', 'factory_bot_rails', 'rspec-rails']));
    await r.commit('Move background jobs from Sidekiq to Solid Queue', '2026-01-10');
    // The money gem goes, the project keeps its own `Money` class; rack, base64 and sentry-rails go
    // while Rails, Ruby and sentry-ruby still provide `Rack`, `Base64` and `Sentry`.
    await r.write('Gemfile', gemfile(['rails', 'solid_queue', 'pundit', 'sentry-ruby', 'rspec-rails']));
    await r.write('app/models/money.rb', 'class Money; end\n');
    await r.commit('Replace factories with fixtures; own Money class', '2026-02-01');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports `Sidekiq::Job`, `FactoryBot` in prose and `FactoryBot.create`, without a rewrite', () => {
    expect(findingRows(report, isPkg)).toEqual([
      `package-renamed|${l('Sidekiq::Job')}|Sidekiq|`,
      `package-missing|${l('(FactoryBot)')}|FactoryBot|`,
      `package-missing|${l('FactoryBot.create(:user)`;')}|FactoryBot|`,
    ]);
    expect(msgAt(report, l('Sidekiq::Job'), 'Sidekiq')).toBe(
      '`Sidekiq` was replaced by `solid_queue` in `Gemfile` in SHA (2026-01-10, "Move background jobs from Sidekiq to Solid Queue"); update the reference.',
    );
    expect(msgAt(report, l('FactoryBot.create(:user)`;'), 'FactoryBot')).toBe(
      '`FactoryBot` (gem `factory_bot_rails`) is no longer a dependency of any manifest: it was removed from `Gemfile` in SHA (2026-02-01, "Replace factories with fixtures; own Money class"); remove the reference or name what replaced it.',
    );
  });

  it('prunes: the swapped gem goes to review, the removed one is deleted or reviewed; a second prune changes nothing; restore gives the bytes back', async () => {
    const { plan, text } = await pruneCycle(r, 'AGENTS.md', memory);
    expect(plan).toEqual([`review|4|${l('Sidekiq::Job')}`, `delete|4|${l('(FactoryBot)')}`, `review|4|${l('FactoryBot.create(:user)`;')}`]);
    expect(text).toBe(memory.split('\n').filter((x) => !x.includes('(FactoryBot)')).join('\n'));
  });
});

describe('Ruby constants of gems still declared: healthy', () => {
  it('says nothing for `FactoryBot`, `Sidekiq::Job` or a project class while the gems are declared', async () => {
    const memory = [
      '# Notes',
      '',
      '- Prefer `include Sidekiq::Job`; build records with `FactoryBot.create(:user)` (FactoryBot).',
      '- `Report::Builder` formats the monthly report.',
      '',
    ].join('\n');
    const r = await makeRepo();
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails"\ngem "sidekiq"\ngem "factory_bot_rails"\ngem "report"\n');
    await r.write('app/models/report/builder.rb', 'class Report::Builder; end\n');
    await r.write('AGENTS.md', memory);
    await r.commit('init', '2025-11-01');
    // `factory_bot_rails` -> `factory_bot`: `FactoryBot` is still declared.
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails"\ngem "sidekiq", "~> 7.3"\ngem "factory_bot"\ngem "report"\n');
    await r.commit('Plain factory_bot', '2026-01-10');
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(findingRows(report, isPkg)).toEqual([]);
  });
});

describe('Elixir Mix dependencies named by their modules', () => {
  const memory = [
    '### Phoenix v1.8 guidelines',
    '',
    '- **Prefer** PhoenixTest to integration test and end-to-end test inside `test/alur_web/features/` folder.',
    '- Feature tests call `PhoenixTest.visit(conn, "/")` and `click_link/2`.',
    '- Factories come from `ExMachina`; build with `insert(:user)`.',
    '- HTTP calls use `Req.get!/2`; `Phoenix.LiveView` renders pages; controllers take a `Plug.Conn`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  const mix = (deps: string[]) =>
    ['defmodule Alur.MixProject do', '  use Mix.Project', '  defp deps do', '    [', ...deps.map((d) => `      ${d},`), '    ]', '  end', 'end', ''].join('\n');
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('mix.exs', mix(['{:phoenix, "~> 1.8.1"}', '{:plug, "~> 1.16"}', '{:phoenix_test, "~> 0.7", only: :test, runtime: false}', '{:ex_machina, "~> 2.8", only: :test}', '{:req, "~> 0.5"}']));
    await r.write('test/alur_web/features/home_test.exs', '# home\n');
    await r.write('AGENTS.md', memory);
    await r.commit('init', '2025-10-01');
    await r.write('mix.exs', mix(['{:phoenix, "~> 1.8.1"}', '{:plug, "~> 1.16"}', '{:wallaby, "~> 0.30", only: :test, runtime: false}', '{:ex_machina, "~> 2.8", only: :test}', '{:req, "~> 0.5"}']));
    await r.move('test/alur_web', 'test/depot_web');
    await r.commit('Switch feature tests to Wallaby', '2026-02-01');
    await r.write('mix.exs', mix(['{:phoenix, "~> 1.8.1"}', '{:wallaby, "~> 0.30", only: :test, runtime: false}', '{:req, "~> 0.5"}']));
    await r.commit('Drop ExMachina for fixtures', '2026-03-01'); // and the explicit `plug` pin: Phoenix brings it
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports `PhoenixTest` (prose and `PhoenixTest.visit`) as replaced and `ExMachina` as removed, without a rewrite', () => {
    expect(findingRows(report, isPkg)).toEqual([
      `package-renamed|${l('**Prefer**')}|PhoenixTest|`,
      `package-renamed|${l('PhoenixTest.visit')}|PhoenixTest|`,
      `package-missing|${l('ExMachina')}|ExMachina|`,
    ]);
    expect(msgAt(report, l('PhoenixTest.visit'), 'PhoenixTest')).toBe(
      '`PhoenixTest` (Mix dependency `phoenix_test`) was replaced by `wallaby` in `mix.exs` in SHA (2026-02-01, "Switch feature tests to Wallaby"); update the reference.',
    );
    expect(msgAt(report, l('ExMachina'), 'ExMachina')).toBe(
      '`ExMachina` (Mix dependency `ex_machina`) is no longer a dependency of any manifest: it was removed from `mix.exs` in SHA (2026-03-01, "Drop ExMachina for fixtures"); remove the reference or name what replaced it.',
    );
  });

  it('does not correct the folder on the line whose `PhoenixTest` stays stale: the entry goes to review', async () => {
    const { plan } = await pruneCycle(r, 'AGENTS.md', memory);
    expect(plan).toEqual([`review|4|${l('**Prefer**')}`, `review|4|${l('PhoenixTest.visit')}`, `delete|4|${l('ExMachina')}`]);
  });
});

describe('a family still declared under an extended id', () => {
  const memory = [
    '# Instructions',
    '',
    '- **Unit Tests**: `tests/*UnitTests/` - Standard xUnit tests. Using XUnit framework is COMPULSORY',
    '- Tests use `xunit` `[Fact]` and `[Theory]` attributes; mocks use Moq.',
    '- Telemetry goes through `acme-sdk`; dates through `moment`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    const csproj = (ids: string[]) =>
      `<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n${ids.map((i) => `    <PackageReference Include="${i}" Version="1.0.0" />\n`).join('')}  </ItemGroup>\n</Project>\n`;
    await r.write('tests/Ordering.UnitTests/Ordering.UnitTests.csproj', csproj(['xunit', 'xunit.runner.visualstudio', 'Moq']));
    await r.write('package.json', pkg({ name: 'web', dependencies: { 'acme-sdk': '^1.0.0', moment: '^2.30.0' } }));
    await r.write('AGENTS.md', memory);
    await r.commit('init', '2025-08-01');
    await r.write('tests/Ordering.UnitTests/Ordering.UnitTests.csproj', csproj(['xunit', 'xunit.runner.visualstudio', 'NSubstitute']));
    await r.commit('NSubstitute for mocks', '2026-01-10');
    await r.write('tests/Ordering.UnitTests/Ordering.UnitTests.csproj', csproj(['xunit.v3', 'xunit.runner.visualstudio', 'NSubstitute']));
    await r.commit('Move tests to xUnit v3', '2026-01-15');
    await r.write('package.json', pkg({ name: 'web', dependencies: { 'acme-sdk2': '^2.0.0', moment: '^2.30.0' } }));
    await r.commit('acme-sdk 2', '2026-02-01');
    await r.write('package.json', pkg({ name: 'web', dependencies: { 'acme-sdk2': '^2.0.0', momentum: '^1.0.0' } }));
    await r.commit('Dates through momentum', '2026-03-01');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('says nothing for `xunit` -> `xunit.v3` nor `acme-sdk` -> `acme-sdk2`; a swap to another name that only starts alike is reported', () => {
    expect(findingRows(report, isPkg)).toEqual([`package-renamed|${l('Moq')}|Moq|NSubstitute`, `package-renamed|${l('`moment`')}|moment|momentum`]);
  });
});

describe('a correction the entry contradicts by naming the successor', () => {
  const memory = [
    '# AGENTS.md',
    '',
    '## State management',
    '',
    'Refena (`refena_flutter`), not Riverpod. Providers live in `app/lib/provider/`.',
    '',
    'Widgets read state through `refena_flutter` providers.',
    '',
    'The design kit wires Riverpod through `hooks_riverpod`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    const pubspec = (name: string, dep: string) => `name: ${name}\nenvironment:\n  sdk: '>=3.8.0 <4.0.0'\ndependencies:\n  flutter:\n    sdk: flutter\n  ${dep}: 3.1.0\n`;
    await r.write('app/pubspec.yaml', pubspec('localsend_app', 'refena_flutter'));
    await r.write('packages/kit/pubspec.yaml', pubspec('kit', 'hooks_riverpod'));
    await r.write('app/lib/provider/settings_provider.dart', '// settings\n');
    await r.write('AGENTS.md', memory);
    await r.commit('init', '2026-01-10');
    await r.write('app/pubspec.yaml', pubspec('localsend_app', 'flutter_riverpod'));
    await r.write('packages/kit/pubspec.yaml', pubspec('kit', 'flutter_riverpod'));
    await r.commit('Migrate state management from Refena to Riverpod', '2026-02-01');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('offers no rewrite where the entry names `Riverpod`; rewrites elsewhere, and where the old name was Riverpod too', () => {
    expect(findingRows(report, isPkg)).toEqual([
      `package-renamed|${l('Refena (')}|refena_flutter|`,
      `package-renamed|${l('Widgets read')}|refena_flutter|flutter_riverpod`,
      `package-renamed|${l('hooks_riverpod')}|hooks_riverpod|flutter_riverpod`,
    ]);
    expect(msgAt(report, l('Refena ('), 'refena_flutter')).toBe(
      '`refena_flutter` was replaced by `flutter_riverpod` in `app/pubspec.yaml` in SHA (2026-02-01, "Migrate state management from Refena to Riverpod"); the entry already names `Riverpod`: remove or reword the reference to `refena_flutter`.',
    );
  });

  it('prunes: review for the contradicting entry, the others corrected; a second prune changes nothing; restore gives the bytes back', async () => {
    const { plan, text } = await pruneCycle(r, 'AGENTS.md', memory);
    expect(plan).toEqual([`review|4|${l('Refena (')}`, `update|4|${l('Widgets read')}`, `update|4|${l('hooks_riverpod')}`]);
    expect(text).toBe(
      memory
        .replace('through `refena_flutter` providers.', 'through `flutter_riverpod` providers. [corrected 2026-06-01]')
        .replace('through `hooks_riverpod`.', 'through `flutter_riverpod`. [corrected 2026-06-01]'),
    );
  });
});
