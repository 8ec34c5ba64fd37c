// Manifests of Gradle (version catalogs, build scripts), Composer, Mix, Pub and MSBuild/NuGet:
// what each parser reads (one followed name per dependency, other spellings HEAD-only), and,
// end to end on real git repositories, that a dependency dropped or swapped there gives
// package-missing / package-renamed while a name still declared in any spelling gives nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { gatherEvidence } from '../../src/evidence/index.js';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { manifestKind } from '../../src/evidence/manifests/kinds.js';
import { parseManifest, type ParsedDep } from '../../src/evidence/manifests/parse.js';
import type { Finding, Report } from '../../src/types.js';
import { cleanupRepos, lineOfText, makeRepo, type Repo } from '../staleness/helpers.js';

afterAll(cleanupRepos);

const NOW = new Date('2026-06-01T00:00:00Z');
const PKG = new Set(['package-missing', 'package-renamed', 'version-drift']);

/** `name spec field` for followed names, `~name field` for HEAD-only spellings. */
const show = (deps: ParsedDep[]) => deps.map((d) => (d.presence ? `~${d.name} ${d.field}` : `${d.name} ${d.spec} ${d.field}`.replace(/\s+/g, ' ').trim()));

describe('manifest kinds of more ecosystems', () => {
  it('recognises Gradle, Composer, Mix, Pub and MSBuild files; skips tool copies', () => {
    expect(manifestKind('gradle/libs.versions.toml')).toBe('gradle-catalog');
    expect(manifestKind('app/build.gradle.kts')).toBe('gradle-build');
    expect(manifestKind('build.gradle')).toBe('gradle-build');
    expect(manifestKind('settings.gradle.kts')).toBe('gradle-build');
    expect(manifestKind('gradle/dependencies.gradle')).toBe('gradle-build');
    expect(manifestKind('buildSrc/src/main/kotlin/Deps.kt')).toBe('gradle-build');
    expect(manifestKind('app/src/main/kotlin/Deps.kt')).toBeUndefined();
    expect(manifestKind('eng/Testing.props')).toBe('msbuild');
    expect(manifestKind('composer.json')).toBe('composer');
    expect(manifestKind('vendor/laravel/framework/composer.json')).toBeUndefined();
    expect(manifestKind('mix.exs')).toBe('mix');
    expect(manifestKind('deps/req/mix.exs')).toBeUndefined();
    expect(manifestKind('mobile/pubspec.yaml')).toBe('pubspec');
    expect(manifestKind('mobile/.dart_tool/x/pubspec.yaml')).toBeUndefined();
    expect(manifestKind('src/Aspire.Hosting/Aspire.Hosting.csproj')).toBe('msbuild');
    expect(manifestKind('Directory.Packages.props')).toBe('msbuild');
    expect(manifestKind('src/App/App.fsproj')).toBe('msbuild');
  });
});

describe('parsers of more ecosystems', () => {
  it('composer.json: require / require-dev by short name (generic ones qualified), platform packages skipped', () => {
    const p = parseManifest(
      'composer',
      'composer.json',
      JSON.stringify({
        name: 'filament/filament-monorepo',
        require: { php: '^8.2', 'ext-json': '*', 'livewire/livewire': '^3.5', 'symfony/console': '^7.0' },
        'require-dev': { 'pestphp/pest': '^3.7' },
        scripts: { 'test:sqlite': 'pest --parallel' },
      }),
    );
    expect(show(p.deps)).toEqual([
      'livewire ^3.5 require',
      '~livewire/livewire require',
      'symfony/console ^7.0 require',
      '~console require',
      'pest ^3.7 require-dev',
      '~pestphp/pest require-dev',
      '~filament/filament-monorepo name',
      '~filament-monorepo name',
    ]);
    expect(p.scripts).toBeUndefined();
  });

  it('pubspec.yaml: dependencies, dev_dependencies, overrides; sdk, path and hosted forms', () => {
    const p = parseManifest(
      'pubspec',
      'mobile/pubspec.yaml',
      'name: immich_mobile\nenvironment:\n  sdk: ">=3.3.0 <4.0.0"\ndependencies:\n  flutter:\n    sdk: flutter\n  isar: ^3.1.0\n  local_pkg:\n    path: ../pkg\n  any_pkg:\ndev_dependencies:\n  build_runner: ^2.4.0\ndependency_overrides:\n  intl: 0.19.0\n',
    );
    expect(show(p.deps)).toEqual([
      'flutter sdk:flutter dependencies',
      'isar ^3.1.0 dependencies',
      'local_pkg path:../pkg dependencies',
      'any_pkg dependencies',
      'build_runner ^2.4.0 dev_dependencies',
      'intl 0.19.0 dependency_overrides',
      '~immich_mobile name',
    ]);
  });

  it('mix.exs: the tuples of the deps function (comments dropped), the app name', () => {
    const text = [
      'defmodule Slouch.MixProject do',
      '  use Mix.Project',
      '  def project, do: [app: :slouch, deps: deps(), aliases: aliases()]',
      '  def application, do: [extra_applications: [:logger]]',
      '  defp deps do',
      '    [',
      '      {:phoenix, "~> 1.8.0"},',
      '      # {:httpoison, "~> 2.0"},',
      '      {:ash_admin, "~> 0.13", only: :dev},',
      '      {:heroicons, github: "tailwindlabs/heroicons", tag: "v2.1.1", sparse: "optimized", app: false}',
      '    ]',
      '  end',
      '  defp aliases, do: [precommit: ["format", "test"]]',
      '  defp helper, do: {:ok, 1}',
      'end',
    ].join('\n');
    expect(show(parseManifest('mix', 'mix.exs', text).deps)).toEqual([
      'phoenix ~> 1.8.0 deps',
      'ash_admin ~> 0.13 deps',
      'heroicons deps',
      '~slouch app',
    ]);
  });

  it('a Gradle version catalog: libraries (three forms, version.ref), plugins, versions', () => {
    const text = [
      '[versions]',
      'molecule = "2.1.0"',
      'junit = "5.10.2"',
      '[libraries]',
      'timber = "com.jakewharton.timber:timber:5.0.1"',
      'molecule-runtime = { module = "app.cash.molecule:molecule-runtime", version.ref = "molecule" }',
      'appyx_core = { group = "com.bumble.appyx", name = "core", version = "1.7.1" }',
      'androidx-test-core = { module = "androidx.test:core" }',
      '[plugins]',
      'ktlint = "org.jlleitschuh.gradle.ktlint:13.1.0"',
      'android-application = { id = "com.android.application", version = "8.7.0" }',
      '[bundles]',
      'tests = ["androidx-test-core"]',
    ].join('\n');
    expect(show(parseManifest('gradle-catalog', 'gradle/libs.versions.toml', text).deps)).toEqual([
      'timber 5.0.1 libraries',
      '~com.jakewharton.timber:timber libraries',
      'molecule-runtime 2.1.0 libraries',
      '~app.cash.molecule:molecule-runtime libraries',
      '~molecule libraries',
      'appyx-core 1.7.1 libraries',
      '~core libraries',
      '~com.bumble.appyx:core libraries',
      '~appyx libraries',
      'androidx-test-core libraries',
      '~core libraries',
      '~androidx.test:core libraries',
      '~test libraries',
      'ktlint 13.1.0 plugins',
      '~org.jlleitschuh.gradle.ktlint plugins',
      'android-application 8.7.0 plugins',
      '~application plugins',
      '~com.android.application plugins',
      '~molecule versions',
      '~junit versions',
    ]);
  });

  it('a Gradle build script: coordinates per configuration, the map form, plugins by id, other coordinates HEAD-only; comments and non-coordinates skipped', () => {
    const text = [
      'plugins {',
      '  id("com.diffplug.spotless") version "6.25.0"',
      "  id 'java'",
      '  alias(libs.plugins.ktlint)',
      '}',
      'android { namespace = "io.element.android.x"; defaultConfig { testInstrumentationRunner = "androidx.test.runner.AndroidJUnitRunner" } }',
      'repositories { maven { url = uri("https://jitpack.io") } }',
      'dependencies {',
      '  implementation("com.squareup.okhttp3:okhttp:$okhttpVersion")',
      "  testImplementation 'junit:junit:4.13.2'",
      '  implementation(platform("androidx.compose:compose-bom:2024.10.00"))',
      "  compileOnly group: 'org.projectlombok', name: 'lombok', version: '1.18.30'",
      '  implementation(libs.timber)',
      '  implementation(project(":libraries:core"))',
      '  // implementation("com.old:gone:1.0")',
      '}',
      "ext.libs = [retrofit: 'com.squareup.retrofit2:retrofit:2.11.0', okhttp: 'com.squareup.okhttp3:okhttp:4.12.0']",
      'tasks.named("check") { dependsOn(":app:lint") }',
    ].join('\n');
    expect(show(parseManifest('gradle-build', 'app/build.gradle.kts', text).deps)).toEqual([
      'okhttp $okhttpVersion implementation',
      '~com.squareup.okhttp3:okhttp implementation',
      '~okhttp3 implementation',
      'junit 4.13.2 testImplementation',
      '~junit:junit testImplementation',
      'compose-bom 2024.10.00 implementation',
      '~androidx.compose:compose-bom implementation',
      '~compose implementation',
      'lombok 1.18.30 compileOnly',
      '~org.projectlombok:lombok compileOnly',
      '~projectlombok compileOnly',
      'spotless 6.25.0 plugins',
      '~com.diffplug.spotless plugins',
      '~retrofit coordinates',
      '~com.squareup.retrofit2:retrofit coordinates',
      '~retrofit2 coordinates',
    ]);
  });

  it('MSBuild: PackageReference / PackageVersion with attribute or element versions; the project name', () => {
    const csproj = [
      '<Project Sdk="Microsoft.NET.Sdk">',
      '  <PropertyGroup><PackageId>Aspire.Hosting.Seq</PackageId></PropertyGroup>',
      '  <ItemGroup>',
      '    <PackageReference Include="Verify.XunitV3" />',
      '    <PackageReference Include="Newtonsoft.Json">',
      '      <Version>13.0.3</Version>',
      '    </PackageReference>',
      '    <!-- <PackageReference Include="Old.Thing" Version="1.0" /> -->',
      '    <PackageReference Update="Pinned.Only" Version="2.0" />',
      '    <ProjectReference Include="..\\Aspire.Hosting\\Aspire.Hosting.csproj" />',
      '  </ItemGroup>',
      '</Project>',
    ].join('\n');
    expect(show(parseManifest('msbuild', 'src/Aspire.Seq/Aspire.Seq.csproj', csproj).deps)).toEqual([
      'Verify.XunitV3 PackageReference',
      'Newtonsoft.Json 13.0.3 PackageReference',
      '~Aspire.Seq project',
      '~Aspire.Hosting.Seq project',
    ]);
    const props = '<Project>\n  <ItemGroup>\n    <PackageVersion Include="xunit.v3" Version="1.0.0" />\n    <PackageVersion Include="Verify.XunitV3" Version="28.9.0" />\n  </ItemGroup>\n</Project>\n';
    expect(show(parseManifest('msbuild', 'Directory.Packages.props', props).deps)).toEqual(['xunit.v3 1.0.0 PackageVersion', 'Verify.XunitV3 28.9.0 PackageVersion']);
  });

  it('broken composer.json, pubspec.yaml and catalog become problems, not exceptions', () => {
    expect(parseManifest('composer', 'composer.json', '{ "require": ').problems[0]!.message).toMatch(/^invalid JSON/);
    expect(parseManifest('pubspec', 'pubspec.yaml', 'dependencies:\n  a: [\n').problems[0]!.message).toMatch(/^invalid YAML/);
    expect(parseManifest('gradle-catalog', 'gradle/libs.versions.toml', '[libraries\n').problems[0]).toMatchObject({ line: 1 });
  });
});

describe('drift in Gradle, Composer, Mix, Pub and NuGet manifests, end to end', () => {
  const memory = [
    '# Stack',
    '',
    '- We use **Timber** for logging.',
    '- Flows are tested with Turbine.',
    '- Images load with `coil-compose`.',
    '- Unit tests run on JUnit.',
    '- Shared helpers for instrumented tests live in `core`.',
    '- **Req** for HTTP requests (not httpoison).',
    '- **Local DB**: Isar (`isar` in `mobile/pubspec.yaml`).',
    '- Code style is enforced by Pint.',
    '- Tests are written with Pest.',
    '- The `console` component runs the commands.',
    '- Snapshots use the Verify library (Verify.XunitV3).',
    '- JSON goes through `newtonsoft.json`.',
    '- HTTP calls go through OkHttp 3.',
    '- JSON models use Moshi.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let sha = '';

  const csproj = (refs: string[]) =>
    `<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n${refs.map((x) => `    <PackageReference Include="${x}" />\n`).join('')}  </ItemGroup>\n</Project>\n`;
  const props = (pkgs: Array<[string, string]>) =>
    `<Project>\n  <ItemGroup>\n${pkgs.map(([n, v]) => `    <PackageVersion Include="${n}" Version="${v}" />\n`).join('')}  </ItemGroup>\n</Project>\n`;
  const mix = (deps: string) => `defmodule Slouch.MixProject do\n  use Mix.Project\n  def project, do: [app: :slouch, deps: deps()]\n  defp deps, do: [${deps}, {:phoenix, "~> 1.8"}]\nend\n`;

  beforeAll(async () => {
    r = await makeRepo('ma-eco-');
    await r.write('gradle/libs.versions.toml', '[versions]\njunit = "5.10.2"\n\n[libraries]\ntimber = "com.jakewharton.timber:timber:5.0.1"\nturbine = "app.cash.turbine:turbine:1.2.1"\n');
    await r.write(
      'app/build.gradle.kts',
      'dependencies {\n  implementation(libs.timber)\n  implementation("io.coil-kt:coil-compose:2.6.0")\n  implementation("com.squareup.okhttp3:okhttp:4.12.0")\n  implementation("com.squareup.moshi:moshi:1.15.1")\n  testImplementation("junit:junit:4.13.2")\n  androidTestImplementation("androidx.test:core:1.5.0")\n}\n',
    );
    await r.write(
      'composer.json',
      JSON.stringify({ require: { php: '^8.2', 'livewire/livewire': '^3.5', 'symfony/console': '^7.0' }, 'require-dev': { 'pestphp/pest': '^3.7', 'laravel/pint': '^1.21' } }, null, 2) + '\n',
    );
    await r.write('packages/forms/composer.json', JSON.stringify({ name: 'acme/forms', 'require-dev': { 'pestphp/pest': '^3.7' } }, null, 2) + '\n');
    await r.write('mix.exs', mix('{:req, "~> 0.5"}'));
    await r.write('mobile/pubspec.yaml', 'name: acme_mobile\ndependencies:\n  isar: ^3.1.0\n  flutter_riverpod: ^2.5.0\n');
    await r.write('Directory.Packages.props', props([['xunit.v3', '1.0.0'], ['Verify.XunitV3', '28.9.0'], ['Newtonsoft.Json', '13.0.3']]));
    await r.write('tests/App.Tests/App.Tests.csproj', csproj(['xunit.v3', 'Verify.XunitV3', 'Newtonsoft.Json']));
    await r.write('CLAUDE.md', memory);
    await r.commit('Initial', '2025-10-01');
    // Turbine moves from the catalog into the build script, Moshi into a buildSrc constant:
    // still declared, never reported.
    await r.write('buildSrc/src/main/kotlin/Deps.kt', 'object Deps {\n  const val moshi = "com.squareup.moshi:moshi:1.15.1"\n}\n');
    await r.write('gradle/libs.versions.toml', '[versions]\njunit = "5.10.2"\n\n[libraries]\ntimber = "com.jakewharton.timber:timber:5.0.1"\n');
    await r.write(
      'app/build.gradle.kts',
      'dependencies {\n  implementation(libs.timber)\n  implementation("io.coil-kt:coil-compose:2.6.0")\n  implementation("com.squareup.okhttp3:okhttp:4.12.0")\n  implementation(Deps.moshi)\n  testImplementation("junit:junit:4.13.2")\n  testImplementation("app.cash.turbine:turbine:1.2.1")\n  androidTestImplementation("androidx.test:core:1.5.0")\n}\n',
    );
    await r.commit('Turbine in the build script', '2026-02-01');
    // One commit: Timber -> Kermit in the catalog, coil / junit:junit / androidx.test:core
    // dropped, Req -> Tesla, Isar -> Drift, Pint / Pest / symfony/console dropped from the root
    // composer.json (Pest stays in packages/forms), Verify dropped everywhere, Newtonsoft.Json
    // dropped from the central versions but still referenced by the test project.
    await r.write('gradle/libs.versions.toml', '[versions]\njunit = "5.10.2"\n\n[libraries]\nkermit = "co.touchlab:kermit:2.0.6"\n');
    await r.write(
      'app/build.gradle.kts',
      'dependencies {\n  implementation(libs.kermit)\n  implementation("com.squareup.okhttp3:okhttp:4.12.0")\n  implementation(Deps.moshi)\n  testImplementation("app.cash.turbine:turbine:1.2.1")\n}\n',
    );
    await r.write('composer.json', JSON.stringify({ require: { php: '^8.2', 'livewire/livewire': '^3.5' } }, null, 2) + '\n');
    await r.write('mix.exs', mix('{:tesla, "~> 1.13"}'));
    await r.write('mobile/pubspec.yaml', 'name: acme_mobile\ndependencies:\n  drift: ^2.28.0\n  flutter_riverpod: ^2.5.0\n');
    await r.write('Directory.Packages.props', props([['xunit.v3', '1.0.0']]));
    await r.write('tests/App.Tests/App.Tests.csproj', csproj(['xunit.v3', 'Newtonsoft.Json']));
    sha = (await r.commit('Swap and drop dependencies', '2026-03-01')).slice(0, 7);
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports each dropped or swapped dependency, and nothing for names still declared in any spelling', () => {
    const rows = report.findings
      .filter((f: Finding) => PKG.has(f.kind))
      .sort((a, b) => a.line - b.line)
      .map((f) => `${f.kind}|${f.line}|${f.ref}|${f.suggestion?.replace ?? ''}`);
    expect(rows).toEqual([
      `package-renamed|${l('Timber')}|Timber|Kermit`,
      `package-missing|${l('coil-compose')}|coil-compose|`,
      `package-renamed|${l('**Req**')}|Req|Tesla`,
      // one finding per spelling on a line: the prose display name `Isar` and the `isar` in code
      // after it, each written back in its own spelling
      `package-renamed|${l('Isar')}|Isar|Drift`,
      `package-renamed|${l('Isar')}|isar|drift`,
      `package-missing|${l('Pint')}|Pint|`,
      `package-missing|${l('Verify.XunitV3')}|Verify.XunitV3|`,
      `version-drift|${l('OkHttp 3')}|OkHttp 3|OkHttp 4`,
    ]);
    const msg = (ref: string) => report.findings.find((f) => f.ref === ref)!.message;
    expect(msg('Timber')).toBe(`\`Timber\` was replaced by \`kermit\` in \`gradle/libs.versions.toml\` in ${sha} (2026-03-01, "Swap and drop dependencies"); update the reference.`);
    expect(msg('coil-compose')).toBe(
      `\`coil-compose\` is no longer a dependency of any manifest: it was removed from \`app/build.gradle.kts\` in ${sha} (2026-03-01, "Swap and drop dependencies"); remove the reference or name what replaced it.`,
    );
    expect(msg('Req')).toBe(`\`Req\` was replaced by \`tesla\` in \`mix.exs\` in ${sha} (2026-03-01, "Swap and drop dependencies"); update the reference.`);
    expect(msg('Pint')).toBe(
      `\`Pint\` is no longer a dependency of any manifest: it was removed from \`composer.json\` in ${sha} (2026-03-01, "Swap and drop dependencies"); remove the reference or name what replaced it.`,
    );
    expect(msg('Verify.XunitV3')).toBe(
      `\`Verify.XunitV3\` is no longer a dependency of any manifest: it was removed from \`tests/App.Tests/App.Tests.csproj\` in ${sha} (2026-03-01, "Swap and drop dependencies"); remove the reference or name what replaced it.`,
    );
  });

  it('reads the manifests of every version in the single history pass', async () => {
    const ev = (await gatherEvidence({ root: r.dir, config: DEFAULT_CONFIG, entries: [], offline: true })).evidence;
    // 8 manifests added, 3 added or changed by the moves, 7 changed by the swap commit
    expect(ev.manifests.historyBlobs).toBe(18);
    expect(ev.manifests.everDependencies.get('timber')!.map((e) => `${e.type} ${e.manifest}`)).toEqual(['added gradle/libs.versions.toml', 'removed gradle/libs.versions.toml']);
    expect(ev.manifests.everDependencies.get('turbine')!.map((e) => `${e.type} ${e.manifest}`)).toEqual([
      'added gradle/libs.versions.toml',
      'removed gradle/libs.versions.toml',
      'added app/build.gradle.kts',
    ]);
    expect(ev.manifests.dependencies.has('newtonsoft.json')).toBe(true);
    expect(ev.manifests.dependencies.get('moshi')!.map((d) => d.manifest)).toEqual(['buildSrc/src/main/kotlin/Deps.kt']);
    expect(ev.manifests.everDependencies.has('co.touchlab:kermit')).toBe(false);
    expect(ev.manifests.dependencies.get('co.touchlab:kermit')).toEqual([{ name: 'co.touchlab:kermit', spec: '2.0.6', manifest: 'gradle/libs.versions.toml', field: 'libraries' }]);
  });

  it('prune corrects the swaps and removes the dropped ones; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    // The Isar line names `isar` in code too: both spellings are corrected, each in its own form.
    expect(res.plan.find((p) => p.line === l('Isar'))).toMatchObject({ action: 'update', rule: 4 });
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(
      [
        '# Stack',
        '',
        '- We use **Kermit** for logging. [corrected 2026-06-01]',
        '- Flows are tested with Turbine.',
        '- Unit tests run on JUnit.',
        '- Shared helpers for instrumented tests live in `core`.',
        '- **Tesla** for HTTP requests (not httpoison). [corrected 2026-06-01]',
        '- **Local DB**: Drift (`drift` in `mobile/pubspec.yaml`). [corrected 2026-06-01]',
        '- Tests are written with Pest.',
        '- The `console` component runs the commands.',
        '- JSON goes through `newtonsoft.json`.',
        '- HTTP calls go through OkHttp 4. [corrected 2026-06-01]',
        '- JSON models use Moshi.',
        '',
      ].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});
