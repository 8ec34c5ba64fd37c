// Package names as memory writes them (QA rounds 15 and 16): Composer packages named `vendor/name`
// (link text, inline code, prose) are checked against composer.json's history, and a path of that
// shape stays a path; a successor is shown and written in its manifest's spelling (`NSubstitute`,
// `TUnit`); where the old name stood as a display name in prose or as a program in a command, the
// successor is written only when its spelling in that role is known (a catalog family `ktor`, an
// executable the project runs); a library named at the start of its sentence ("Hilt is used for …")
// is reported. Real git repositories in temp folders, audited and pruned end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, pkg, planRows, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PKG = new Set(['package-missing', 'package-renamed']);
const isPkg = (f: { kind: string }) => PKG.has(f.kind);
const COMMIT = / in [0-9a-f]{7} \(/g;
const msg = (report: Report, ref: string) => report.findings.find((f) => f.ref === ref && PKG.has(f.kind))!.message.replace(COMMIT, ' in SHA (');

afterAll(cleanupRepos);

describe('Composer packages written `vendor/name`', () => {
  const kept = [
    '# App',
    '',
    '- The app runs on `laravel/framework`.',
    '- Our PDF fork lives in `acme/laravel-dompdf` (a folder of this repository).',
    '- Reads and/or writes go through the repository layer.',
  ];
  const memory = [
    ...kept,
    '- Business logic uses [lorisleiva/laravel-actions](composer.json) actions.',
    '- DTOs come from `spatie/laravel-data`.',
    '- PDFs are rendered by barryvdh/laravel-dompdf.',
    '- Tests use `pestphp/pest`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    const composer = (require: Record<string, string>, dev: Record<string, string>) => pkg({ name: 'acme/app', require, 'require-dev': dev });
    await r.write(
      'composer.json',
      composer(
        { php: '^8.3', 'laravel/framework': '^11.0', 'lorisleiva/laravel-actions': '^2.8', 'spatie/laravel-data': '^4.0', 'barryvdh/laravel-dompdf': '^2.0' },
        { 'pestphp/pest': '^3.0' },
      ),
    );
    await r.write('acme/laravel-dompdf/src/Pdf.php', '<?php\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('base', '2025-01-01');
    await r.write('composer.json', composer({ php: '^8.3', 'laravel/framework': '^11.0' }, { 'phpunit/phpunit': '^11.0' }));
    await r.commit('Drop laravel-actions, laravel-data, dompdf; Pest -> PHPUnit', '2025-06-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('checks link text, inline code and prose; a folder of that shape and a declared name are not reported', () => {
    expect(findingRows(report, isPkg)).toEqual([
      `package-missing|${l('lorisleiva')}|lorisleiva/laravel-actions|`,
      `package-missing|${l('spatie/laravel-data')}|spatie/laravel-data|`,
      `package-missing|${l('barryvdh')}|barryvdh/laravel-dompdf|`,
      `package-renamed|${l('pestphp/pest')}|pestphp/pest|phpunit/phpunit`,
    ]);
    expect(msg(report, 'pestphp/pest')).toBe(
      '`pestphp/pest` was replaced by `phpunit/phpunit` in `composer.json` in SHA (2025-06-01, "Drop laravel-actions, laravel-data, dompdf; Pest -> PHPUnit"); update the reference.',
    );
    expect(msg(report, 'spatie/laravel-data')).toBe(
      '`spatie/laravel-data` is no longer a dependency of any manifest: it was removed from `composer.json` in SHA (2025-06-01, "Drop laravel-actions, laravel-data, dompdf; Pest -> PHPUnit"); remove the reference or name what replaced it.',
    );
  });

  it('prunes: deletes the removed packages, writes the successor in full; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(planRows(res.plan)).toEqual([
      `delete|4|${l('lorisleiva')}`,
      `delete|4|${l('spatie/laravel-data')}`,
      `delete|4|${l('barryvdh')}`,
      `update|4|${l('pestphp/pest')}`,
    ]);
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe([...kept, '- Tests use `phpunit/phpunit`. [corrected 2026-06-01]', ''].join('\n'));
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('NuGet successors in the spelling their manifest declares', () => {
  const memory = [
    '# AGENTS.md',
    '',
    '- **Tests**: use Moq for mocking; test methods returning `Task` use the `Async` suffix.',
    '- xUnit tests added / updated',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    const csproj = (a: string, b: string) =>
      `<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <PackageReference Include="${a}" Version="1.0.0" />\n    <PackageReference Include="${b}" Version="1.0.0" />\n  </ItemGroup>\n</Project>\n`;
    await r.write('tests/Acme.UnitTests/Acme.UnitTests.csproj', csproj('Moq', 'xunit'));
    await r.write('AGENTS.md', memory);
    await r.commit('Initial', '2025-06-01');
    await r.write('tests/Acme.UnitTests/Acme.UnitTests.csproj', csproj('NSubstitute', 'xunit'));
    await r.commit('Switch mocking from Moq to NSubstitute', '2025-08-01');
    await r.write('tests/Acme.UnitTests/Acme.UnitTests.csproj', csproj('NSubstitute', 'TUnit'));
    await r.commit('Migrate tests from xUnit to TUnit', '2025-10-01');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('names and writes `NSubstitute` and `TUnit`, not their lower-cased ids', () => {
    expect(findingRows(report, isPkg)).toEqual([`package-renamed|${l('Moq')}|Moq|NSubstitute`, `package-renamed|${l('xUnit')}|xUnit|TUnit`]);
    expect(msg(report, 'Moq')).toBe(
      '`Moq` was replaced by `NSubstitute` in `tests/Acme.UnitTests/Acme.UnitTests.csproj` in SHA (2025-08-01, "Switch mocking from Moq to NSubstitute"); update the reference.',
    );
  });

  it('corrects both lines; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(planRows(res.plan)).toEqual([`update|4|${l('Moq')}`, `update|4|${l('xUnit')}`]);
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(
      [
        '# AGENTS.md',
        '',
        '- **Tests**: use NSubstitute for mocking; test methods returning `Task` use the `Async` suffix. [corrected 2026-06-01]',
        '- TUnit tests added / updated [corrected 2026-06-01]',
        '',
      ].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('a display name in prose takes the successor family a version catalog names', () => {
  const memory = ['# Now in Android', '', '-   **Remote Data:** Retrofit and OkHttp are used for fetching data from the network.', ''].join('\n');
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    const catalog = (versions: string[], libs: string[]) => ['[versions]', ...versions, '[libraries]', ...libs, ''].join('\n');
    const okhttp = 'okhttp-logging = { group = "com.squareup.okhttp3", name = "logging-interceptor", version.ref = "okhttp" }';
    await r.write(
      'gradle/libs.versions.toml',
      catalog(['okhttp = "4.12.0"', 'retrofit = "2.11.0"'], [okhttp, 'retrofit-core = { group = "com.squareup.retrofit2", name = "retrofit", version.ref = "retrofit" }']),
    );
    await r.write('AGENTS.md', memory);
    await r.commit('Initial', '2025-06-01');
    await r.write(
      'gradle/libs.versions.toml',
      catalog(['ktor = "3.1.0"', 'okhttp = "4.12.0"'], ['ktor-client-core = { group = "io.ktor", name = "ktor-client-core", version.ref = "ktor" }', okhttp]),
    );
    await r.commit('Replace Retrofit with Ktor', '2025-09-01');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports the swap with the artifact id and writes `Ktor`', async () => {
    expect(findingRows(report, isPkg)).toEqual([`package-renamed|3|Retrofit|Ktor`]);
    expect(msg(report, 'Retrofit')).toBe(
      '`Retrofit` was replaced by `ktor-client-core` in `gradle/libs.versions.toml` in SHA (2025-09-01, "Replace Retrofit with Ktor"); update the reference.',
    );
    await runPrune({ root: r.dir, now: NOW, write: true });
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(
      ['# Now in Android', '', '-   **Remote Data:** Ktor and OkHttp are used for fetching data from the network. [corrected 2026-06-01]', ''].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('a program in a command or a display name takes the successor only in a spelling known for that role', () => {
  describe('a gem whose executable is not its name (standard runs `standardrb`)', () => {
    const memory = [
      '# Guidelines',
      '',
      '- **Lint Ruby**: `bundle exec rubocop -a`',
      '- **Ruby**: Follow RuboCop rules (150 character max line length)',
      '- Keep rubocop happy before pushing.',
      '- Fix rubocop offenses with `bundle exec rubocop -a`.',
      '',
    ].join('\n');
    const l = (s: string) => lineOfText(memory, s);
    let r: Repo;
    let report: Report;

    beforeAll(async () => {
      r = await makeRepo();
      await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\ngem "rubocop", require: false\n');
      await r.write('AGENTS.md', memory);
      await r.commit('base', '2025-07-01');
      await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\ngem "standard", require: false\n');
      await r.commit('Switch from rubocop to standard', '2026-03-01');
      ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
    });

    it('offers no replacement for the command; the display name is capitalised like the old one; the gem name as written gets one', () => {
      expect(findingRows(report, isPkg)).toEqual([
        `package-renamed|${l('bundle exec')}|rubocop|`,
        `package-renamed|${l('RuboCop')}|RuboCop|Standard`,
        `package-renamed|${l('Keep rubocop')}|rubocop|standard`,
        `package-renamed|${l('Fix rubocop')}|rubocop|standard`,
        `package-renamed|${l('Fix rubocop')}|rubocop|`,
      ]);
      expect(msg(report, 'RuboCop')).toBe(
        '`RuboCop` was replaced by `standard` in `Gemfile` in SHA (2026-03-01, "Switch from rubocop to standard"); update the reference.',
      );
    });

    it('corrects the lines without a command; never writes `bundle exec standard`', async () => {
      const res = await runPrune({ root: r.dir, now: NOW, write: true });
      expect(res.plan.find((p) => p.line === l('Keep rubocop'))?.action).toBe('update');
      expect(res.plan.find((p) => p.line === l('RuboCop'))?.action).toBe('update');
      for (const s of ['bundle exec', 'Fix rubocop']) expect(res.plan.find((p) => p.line === l(s))?.action).toBe('review');
      const text = await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8');
      expect(text).toContain('- Keep standard happy before pushing. [corrected 2026-06-01]');
      expect(text).not.toContain('bundle exec standard');
      expect(text).toContain('- **Ruby**: Follow Standard rules (150 character max line length) [corrected 2026-06-01]');
      expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
    });
  });

  describe('an executable the project runs (a package.json script runs `vitest`)', () => {
    // Updated in QA round 20: a program followed by options or arguments (`jest --watch`) keeps
    // the old tool's command line, which the successor need not accept (vitest rejects
    // `--runInBand`): no replacement there, the entry goes to review. The program alone is rewritten.
    const memory = ['# CLAUDE.md', '', '- Tests run with jest; run them with `pnpm jest`.', '- Watch them with `jest --watch`.', ''].join('\n');
    let r: Repo;
    let report: Report;

    beforeAll(async () => {
      r = await makeRepo();
      await r.write('package.json', pkg({ name: 'app', scripts: { test: 'jest' }, devDependencies: { jest: '^29.0.0' } }));
      await r.write('CLAUDE.md', memory);
      await r.commit('base', '2025-07-01');
      await r.write('package.json', pkg({ name: 'app', scripts: { test: 'vitest run' }, devDependencies: { vitest: '^3.0.0' } }));
      await r.commit('Move to vitest', '2026-03-01');
      ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
    });

    it('writes the successor into the prose and a command running the program alone; not before options', async () => {
      expect(findingRows(report, isPkg)).toEqual([`package-renamed|3|jest|vitest`, `package-renamed|4|jest|`]);
      const res = await runPrune({ root: r.dir, now: NOW, write: true });
      expect(res.plan.find((p) => p.line === 4)?.action).toBe('review');
      expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(
        ['# CLAUDE.md', '', '- Tests run with vitest; run them with `pnpm vitest`. [corrected 2026-06-01]', '- Watch them with `jest --watch`.', ''].join('\n'),
      );
      expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
    });
  });
});

describe('a library named at the start of its sentence (nowinandroid AGENTS.md)', () => {
  const kept = [
    '# Now in Android Project',
    '',
    '- Tracing is used to debug slow frames.',
    '- The browser is used for external links.',
    '- Timber wood is stacked outside.',
  ];
  const memory = [
    ...kept,
    '-   **Dependency Injection:** Hilt is used for dependency injection throughout the app, simplifying the management of dependencies and improving testability.',
    '-   **Local Data:** Room is used for local data persistence.',
    '-   **Images:** Coil is used to load images.',
    '-   Timber handles logging; never use `android.util.Log`.',
    '- DI uses Hilt.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write(
      'gradle/libs.versions.toml',
      [
        '[versions]',
        'hilt = "2.56"',
        'room = "2.7.0"',
        '',
        '[libraries]',
        'hilt-android = { group = "com.google.dagger", name = "hilt-android", version.ref = "hilt" }',
        'room-runtime = { group = "androidx.room", name = "room-runtime", version.ref = "room" }',
        'coil = { group = "io.coil-kt", name = "coil", version = "2.7.0" }',
        'timber = { group = "com.jakewharton.timber", name = "timber", version = "5.0.1" }',
        'androidx-tracing = { module = "androidx.tracing:tracing", version = "1.2.0" }',
        'androidx-browser = { module = "androidx.browser:browser", version = "1.8.0" }',
        '',
        '[plugins]',
        'hilt = { id = "com.google.dagger.hilt.android", version.ref = "hilt" }',
        'room = { id = "androidx.room", version.ref = "room" }',
        '',
      ].join('\n'),
    );
    await r.write('AGENTS.md', memory);
    await r.commit('Initial', '2025-06-01');
    await r.write('gradle/libs.versions.toml', '[libraries]\nkermit = { group = "co.touchlab", name = "kermit", version = "2.0.4" }\n');
    await r.commit('Drop Hilt, Room, Coil, tracing, browser; Kermit replaces Timber', '2025-09-01');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports the sentence subjects; gerunds, nouns after an article and other verbs stay words', () => {
    expect(findingRows(report, isPkg)).toEqual([
      `package-missing|${l('Hilt is used')}|Hilt|`,
      `package-missing|${l('Room is used')}|Room|`,
      `package-missing|${l('Coil is used')}|Coil|`,
      `package-missing|${l('Timber handles')}|Timber|`,
      `package-missing|${l('DI uses Hilt')}|Hilt|`,
    ]);
  });

  it('deletes only the entries naming a removed library; a second prune changes nothing', async () => {
    await runPrune({ root: r.dir, now: NOW, write: true });
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe([...kept, ''].join('\n'));
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('a Composer package corrected in an entry that still runs its binary', () => {
  it('goes to review: `./vendor/bin/pest` would be left behind', async () => {
    const r = await makeRepo();
    const composer = (dev: Record<string, string>) => JSON.stringify({ name: 'acme/app', require: { php: '^8.3' }, 'require-dev': dev }, null, 2) + '\n';
    await r.write('composer.json', composer({ 'pestphp/pest': '^3.0' }));
    await r.write('CLAUDE.md', '# App\n\n- Tests use `pestphp/pest`; run `./vendor/bin/pest`.\n- Assertions come from `pestphp/pest`.\n');
    await r.commit('base', '2025-03-01');
    await r.write('composer.json', composer({ 'phpunit/phpunit': '^11.0' }));
    await r.commit('Back to PHPUnit', '2025-06-01');
    const res = await runPrune({ root: r.dir, now: NOW, write: false });
    expect(res.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.line}|${p.reason.endsWith('the old name also appears where it is not corrected automatically')}`)).toEqual([
      'review|3|true',
      'update|4|false',
    ]);
  });
});
