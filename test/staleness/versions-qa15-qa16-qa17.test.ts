// Stated versions the version check did not compare (QA rounds 15-17): a package manager's version
// against the nearest `packageManager` field, Laravel / Symfony through their framework package, PHP
// (composer.json `require.php`), Elixir (mix.exs `elixir:`), .NET (global.json's SDK, target
// frameworks), Java (Gradle toolchains and source levels), the Swift tools version; and Package.swift
// read as a manifest with history. Statements about a version not in use stay untouched.
import { afterAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { parseComposer, parseGradleBuild, parseMix, parseMsbuild, parseSwiftPackage } from '../../src/evidence/manifests/ecosystems.js';
import { manifestKind, parseManifest } from '../../src/evidence/manifests.js';
import { cleanupRepos, makeRepo, pkg } from './helpers.js';

afterAll(cleanupRepos);

const NOW = new Date('2026-06-01T12:00:00Z');

const rows = (fs: Array<{ kind: string; line: number; ref?: string; message: string; suggestion?: { replace?: string } }>) =>
  fs.filter((f) => f.kind === 'version-drift').map((f) => [f.line, f.ref, f.message, f.suggestion?.replace ?? null]);

async function pruneTwice(dir: string, file: string, after: string): Promise<void> {
  await runPrune({ root: dir, now: NOW, write: true });
  expect(await readFile(path.join(dir, file), 'utf8')).toBe(after);
  const second = await runPrune({ root: dir, now: NOW, write: true });
  expect(second.changes).toEqual([]);
  expect(await readFile(path.join(dir, file), 'utf8')).toBe(after);
}

describe('manifest readers', () => {
  it('reads composer require.php, mix elixir:, Gradle Java levels, target frameworks, global.json and Package.swift', () => {
    expect(parseComposer('{"require":{"php":"^8.4","laravel/framework":"^12.0"}}').runtimes).toEqual([{ name: 'php', spec: '^8.4' }]);
    expect(parseMix('def project, do: [app: :a, elixir: "~> 1.18", deps: deps()]\ndefp deps, do: []\n').runtimes).toEqual([{ name: 'elixir', spec: '~> 1.18' }]);
    expect(parseGradleBuild('kotlin { jvmToolchain(21) }\nandroid { compileOptions { sourceCompatibility = JavaVersion.VERSION_1_8 } }\njava { toolchain { languageVersion = JavaLanguageVersion.of(17) } }\n').runtimes).toEqual([
      { name: 'java', spec: '21' },
      { name: 'java', spec: '17' },
      { name: 'java', spec: '1.8' },
    ]);
    expect(parseMsbuild('A.csproj', '<Project><PropertyGroup><TargetFrameworks>net8.0;net10.0-android;netstandard2.0;net48</TargetFrameworks></PropertyGroup></Project>').runtimes).toEqual([
      { name: 'dotnet-tfm', spec: '8.0' },
      { name: 'dotnet-tfm', spec: '10.0' },
    ]);
    expect(manifestKind('global.json')).toBe('runtime-file');
    expect(parseManifest('runtime-file', 'global.json', '{ "sdk": { "version": "10.0.100", "rollForward": "latestFeature" } }').runtimes).toEqual([{ name: 'dotnet', spec: '10.0.100' }]);
    expect(manifestKind('Modules/Package.swift')).toBe('swift-package');
    expect(manifestKind('.build/checkouts/x/Package.swift')).toBeUndefined();
    const swift = parseSwiftPackage(
      [
        '// swift-tools-version: 5.10',
        'import PackageDescription',
        'let package = Package(',
        '    name: "Modules",',
        '    dependencies: [',
        '        .package(url: "https://github.com/apple/swift-log.git", .upToNextMajor(from: "1.6.0")),',
        '        // .package(url: "https://github.com/old/Commented", from: "1.0.0"),',
        '        .package(name: "Kit", path: "../Kit"),',
        '    ],',
        '    targets: [.target(name: "A", dependencies: [.product(name: "Logging", package: "swift-log")])]',
        ')',
      ].join('\n'),
    );
    expect(swift.deps).toEqual([
      { name: 'swift-log', spec: '1.6.0', field: 'dependencies' },
      { name: 'Kit', spec: '', field: 'dependencies' },
      { name: 'Logging', spec: '', field: 'products', presence: true },
      { name: 'Modules', spec: '', field: 'name', presence: true },
    ]);
    expect(swift.runtimes).toEqual([{ name: 'swift', spec: '>=5.10' }]);
  });
});

describe('package manager versions against packageManager', () => {
  it('compares Yarn / pnpm with the nearest packageManager field and corrects at the precision written', async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'root', private: true, packageManager: 'yarn@3.2.1' }));
    await r.write('web/package.json', pkg({ name: 'web', private: true, packageManager: 'pnpm@8.15.4' }));
    const memory = [
      '# Medusa Core',
      '',
      '**Package Manager**: Yarn 3.2.1 with node-modules linker',
      '',
      '- The `web/` app uses pnpm 8 (see `web/package.json`).',
      '- Yarn 2+ (Berry) only.',
      '- The CLI supports pnpm 8 and 9.',
      '',
    ].join('\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('CLAUDE.md', '2025-09-01');
    expect(rows((await audit({ root: r.dir, now: NOW })).report.findings)).toEqual([]);
    await r.write('package.json', pkg({ name: 'root', private: true, packageManager: 'yarn@4.9.1' }));
    await r.write('web/package.json', pkg({ name: 'web', private: true, packageManager: 'pnpm@10.12.1+sha512.abc' }));
    await r.commit('chore: yarn 4, pnpm 10', '2026-01-10');
    expect(rows((await audit({ root: r.dir, now: NOW })).report.findings)).toEqual([
      [3, 'Yarn 3.2.1', '`Yarn 3.2.1` no longer matches the project: `package.json` declares Yarn `4.9.1`; update the stated version to 4.9.1.', 'Yarn 4.9.1'],
      [5, 'pnpm 8', '`pnpm 8` no longer matches the project: `web/package.json` declares pnpm `10.12.1`; update the stated version to 10.', 'pnpm 10'],
    ]);
    const after = memory
      .replace('Yarn 3.2.1 with node-modules linker', 'Yarn 4.9.1 with node-modules linker [corrected 2026-06-01]')
      .replace('uses pnpm 8 (see `web/package.json`).', 'uses pnpm 10 (see `web/package.json`). [corrected 2026-06-01]');
    await pruneTwice(r.dir, 'CLAUDE.md', after);
  });

  it('reads a memory file against the packageManager of its own folder', async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'root', private: true, packageManager: 'pnpm@10.1.0' }));
    await r.write('legacy/package.json', pkg({ name: 'legacy', private: true, packageManager: 'pnpm@8.6.0' }));
    await r.write('legacy/CLAUDE.md', '# Legacy\n\n- Uses pnpm 8.\n');
    await r.write('CLAUDE.md', '# Root\n\n- Uses pnpm 8.\n');
    await r.commit('init', '2025-09-01');
    const { report } = await audit({ root: r.dir, now: NOW, checks: ['version'] });
    expect(report.findings.map((f) => [f.file, f.line, f.ref, f.suggestion?.replace])).toEqual([['CLAUDE.md', 3, 'pnpm 8', 'pnpm 10']]);
  });
});

describe('PHP and Elixir versions', () => {
  it('reads Laravel through laravel/framework, PHP from require.php, Elixir from mix.exs', async () => {
    const r = await makeRepo();
    await r.write('composer.json', '{ "name": "acme/app", "require": { "php": "^8.3", "laravel/framework": "^11.0" } }\n');
    await r.write('mix.exs', 'defmodule Alur.MixProject do\n  use Mix.Project\n  def project, do: [app: :alur, version: "0.1.0", elixir: "~> 1.15", deps: deps()]\n  defp deps, do: [{:phoenix, "~> 1.8.0"}]\nend\n');
    const memory = [
      '# App',
      '',
      '- Backend: Laravel 11 (PHP 8.3)',
      '- Requires PHP 8.3+.',
      '- The realtime service requires Elixir 1.15+.',
      '- The app keeps the Laravel 10 structure (`app/Http/Kernel.php`).',
      '- Notes on upgrading from PHP 8.1 are in the wiki.',
      '',
    ].join('\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('base', '2025-01-01');
    expect(rows((await audit({ root: r.dir, now: NOW })).report.findings)).toEqual([]);
    await r.write('composer.json', '{ "name": "acme/app", "require": { "php": "^8.4", "laravel/framework": "^12.0" } }\n');
    await r.write('mix.exs', 'defmodule Alur.MixProject do\n  use Mix.Project\n  def project, do: [app: :alur, version: "0.1.0", elixir: "~> 1.18", deps: deps()]\n  defp deps, do: [{:phoenix, "~> 1.8.0"}]\nend\n');
    await r.commit('Laravel 12 on PHP 8.4, Elixir 1.18', '2025-06-01');
    expect(rows((await audit({ root: r.dir, now: NOW })).report.findings)).toEqual([
      [3, 'Laravel 11', '`Laravel 11` is out of date: `composer.json` uses laravel/framework ^12.0; update the version to 12.', 'Laravel 12'],
      [3, 'PHP 8.3', '`PHP 8.3` no longer matches the project: `composer.json` declares PHP `^8.4`; update the stated version to 8.4.', 'PHP 8.4'],
      [4, 'PHP 8.3+', '`PHP 8.3+` no longer matches the project: `composer.json` declares PHP `^8.4`; update the stated version to 8.4+.', 'PHP 8.4+'],
      [5, 'Elixir 1.15+', '`Elixir 1.15+` no longer matches the project: `mix.exs` declares Elixir `~> 1.18`; update the stated version to 1.18+.', 'Elixir 1.18+'],
    ]);
    const after = memory
      .replace('- Backend: Laravel 11 (PHP 8.3)', '- Backend: Laravel 12 (PHP 8.4) [corrected 2026-06-01]')
      .replace('- Requires PHP 8.3+.', '- Requires PHP 8.4+. [corrected 2026-06-01]')
      .replace('requires Elixir 1.15+.', 'requires Elixir 1.18+. [corrected 2026-06-01]');
    await pruneTwice(r.dir, 'CLAUDE.md', after);
  });

  it('reads Symfony through symfony/framework-bundle', async () => {
    const r = await makeRepo();
    await r.write('composer.json', '{ "require": { "php": ">=8.2", "symfony/framework-bundle": "7.2.*" } }\n');
    await r.write('CLAUDE.md', '# App\n\n- Built on Symfony 6.4.\n- Symfony 7 app.\n');
    await r.commit('init', '2025-01-01');
    const { report } = await audit({ root: r.dir, now: NOW, checks: ['version'] });
    expect(report.findings.map((f) => [f.line, f.ref, f.suggestion?.replace])).toEqual([[3, 'Symfony 6.4', 'Symfony 7.2']]);
  });
});

describe('.NET, Java and Swift versions', () => {
  const MEMORY = [
    '# Acme',
    '',
    '- This is a .NET 8 solution; all projects target `net8.0`.',
    '- Requires the .NET 8 SDK (see `global.json`).',
    '- The Android app targets Java 17 (`jvmToolchain(17)`).',
    '- Swift tools version 5.9; minimum iOS 16.',
    '- Migrated from .NET 6 in 2024.',
    '',
  ].join('\n');

  it('compares with global.json, target frameworks, Gradle toolchains and swift-tools-version', async () => {
    const r = await makeRepo();
    await r.write('CLAUDE.md', MEMORY);
    await r.write('global.json', '{ "sdk": { "version": "8.0.404", "rollForward": "latestFeature" } }\n');
    await r.write('Directory.Build.props', '<Project><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>\n');
    await r.write('src/Acme.Api/Acme.Api.csproj', '<Project Sdk="Microsoft.NET.Sdk.Web"/>\n');
    await r.write('app/build.gradle.kts', 'kotlin { jvmToolchain(17) }\nandroid { compileOptions { sourceCompatibility = JavaVersion.VERSION_17 } }\n');
    await r.write('Packages/Kit/Package.swift', '// swift-tools-version: 5.9\nimport PackageDescription\nlet package = Package(name: "Kit", platforms: [.iOS(.v16)])\n');
    await r.commit('Initial', '2025-06-01');
    expect(rows((await audit({ root: r.dir, now: NOW })).report.findings)).toEqual([]);
    await r.write('global.json', '{ "sdk": { "version": "10.0.100", "rollForward": "latestFeature" } }\n');
    await r.write('Directory.Build.props', '<Project><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>\n');
    await r.write('app/build.gradle.kts', 'kotlin { jvmToolchain(21) }\nandroid { compileOptions { sourceCompatibility = JavaVersion.VERSION_21 } }\n');
    await r.write('Packages/Kit/Package.swift', '// swift-tools-version: 6.1\nimport PackageDescription\nlet package = Package(name: "Kit", platforms: [.iOS(.v18)])\n');
    await r.commit('Move to .NET 10, Java 21, Swift 6.1', '2025-12-01');
    expect(rows((await audit({ root: r.dir, now: NOW })).report.findings)).toEqual([
      [3, '.NET 8', '`.NET 8` no longer matches the project: `Directory.Build.props` declares .NET `10.0` (and 1 more declaration); update the stated version to 10.', '.NET 10'],
      [3, 'net8.0', '`net8.0` no longer matches the project: `Directory.Build.props` declares .NET `10.0`; update the stated version to 10.0.', 'net10.0'],
      [4, '.NET 8', '`.NET 8` no longer matches the project: `Directory.Build.props` declares .NET `10.0` (and 1 more declaration); update the stated version to 10.', '.NET 10'],
      [5, 'Java 17', '`Java 17` no longer matches the project: `app/build.gradle.kts` declares Java `21`; update the stated version to 21.', 'Java 21'],
      [5, 'jvmToolchain(17)', '`jvmToolchain(17)` no longer matches the project: `app/build.gradle.kts` declares Java `21`; update the stated version to 21.', 'jvmToolchain(21)'],
      [6, 'Swift tools version 5.9', '`Swift tools version 5.9` no longer matches the project: `Packages/Kit/Package.swift` declares Swift tools `6.1`; update the stated version to 6.1.', 'Swift tools version 6.1'],
    ]);
    const after = MEMORY
      .replace('a .NET 8 solution; all projects target `net8.0`.', 'a .NET 10 solution; all projects target `net10.0`. [corrected 2026-06-01]')
      .replace('the .NET 8 SDK (see `global.json`).', 'the .NET 10 SDK (see `global.json`). [corrected 2026-06-01]')
      .replace('Java 17 (`jvmToolchain(17)`).', 'Java 21 (`jvmToolchain(21)`). [corrected 2026-06-01]')
      .replace('Swift tools version 5.9; minimum iOS 16.', 'Swift tools version 6.1; minimum iOS 16. [corrected 2026-06-01]');
    await pruneTwice(r.dir, 'CLAUDE.md', after);
  });

  it('accepts any target of a multi-targeted project and any module toolchain; lists and history are no claim', async () => {
    const r = await makeRepo();
    await r.write('global.json', '{ "sdk": { "version": "10.0.100" } }\n');
    await r.write('src/Lib/Lib.csproj', '<Project><PropertyGroup><TargetFrameworks>net8.0;net10.0</TargetFrameworks></PropertyGroup></Project>\n');
    await r.write('lib/build.gradle', 'java { toolchain { languageVersion = JavaLanguageVersion.of(11) } }\n');
    await r.write('app/build.gradle.kts', 'kotlin { jvmToolchain(17) }\n');
    await r.write(
      'CLAUDE.md',
      [
        '# Lib',
        '',
        '- The library targets .NET 8 (`net8.0`).',
        '- Supports .NET 8 and .NET 10.',
        '- Since .NET 8, `TimeProvider` is in the base library.',
        '- The app builds with Java 17; the shared library stays on Java 11.',
        '',
      ].join('\n'),
    );
    await r.commit('init', '2025-06-01');
    const { report } = await audit({ root: r.dir, now: NOW, checks: ['version'] });
    expect(report.findings).toEqual([]);
  });
});

describe('Package.swift dependencies with history', () => {
  it('reports Swift packages dropped from Package.swift', async () => {
    const r = await makeRepo();
    const memory = [
      '# AGENTS.md',
      '',
      '### wordpress-rs',
      '',
      'The `wordpress-rs` Swift package provides the `WordPressAPI` and `WordPressAPIInternal` modules and includes an xcframework target.',
      '',
      '- Logging goes through `CocoaLumberjack` (`DDLogError`, etc).',
      '- HTTP goes through `Alamofire`.',
      '',
    ].join('\n');
    await r.write('AGENTS.md', memory);
    const before = (deps: string[], products: string) =>
      `// swift-tools-version: 5.10\nimport PackageDescription\nlet package = Package(\n    name: "Modules",\n    dependencies: [\n${deps.map((d) => `        ${d},\n`).join('')}    ],\n    targets: [\n        .target(name: "AcmeKit", dependencies: [${products}]),\n    ]\n)\n`;
    await r.write(
      'Modules/Package.swift',
      before(
        [
          '.package(url: "https://github.com/Automattic/wordpress-rs", branch: "trunk")',
          '.package(url: "https://github.com/CocoaLumberjack/CocoaLumberjack", from: "3.8.5")',
          '.package(url: "https://github.com/Alamofire/Alamofire.git", from: "5.9.0")',
        ],
        '.product(name: "WordPressAPI", package: "wordpress-rs"), "CocoaLumberjack", "Alamofire"',
      ),
    );
    await r.write('Modules/Sources/AcmeKit/Kit.swift', '// kit\n');
    await r.commit('Initial', '2025-06-01');
    expect((await audit({ root: r.dir, now: NOW, checks: ['package'] })).report.findings).toEqual([]);
    await r.write(
      'Modules/Package.swift',
      before(
        ['.package(url: "https://github.com/apple/swift-log", from: "1.6.0")', '.package(url: "https://github.com/Alamofire/Alamofire.git", from: "5.10.0")'],
        '.product(name: "Logging", package: "swift-log"), "Alamofire"',
      ),
    );
    const sha = await r.commit('Drop wordpress-rs; swift-log replaces CocoaLumberjack', '2025-10-01');
    const { report } = await audit({ root: r.dir, now: NOW, checks: ['package'] });
    const c = `${sha.slice(0, 7)} (2025-10-01, "Drop wordpress-rs; swift-log replaces CocoaLumberjack")`;
    expect(report.findings.map((f) => [f.kind, f.line, f.ref, f.message])).toEqual([
      ['package-missing', 5, 'wordpress-rs', `\`wordpress-rs\` is no longer a dependency of any manifest: it was removed from \`Modules/Package.swift\` in ${c} (that commit added \`swift-log\`, and removed \`CocoaLumberjack\` too); remove the reference or name what replaced it.`],
      ['package-missing', 7, 'CocoaLumberjack', `\`CocoaLumberjack\` is no longer a dependency of any manifest: it was removed from \`Modules/Package.swift\` in ${c} (that commit added \`swift-log\`, and removed \`wordpress-rs\` too); remove the reference or name what replaced it.`],
    ]);
  });
});
