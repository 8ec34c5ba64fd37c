// Session fixes from real memory (QA round 31): a version that dates a feature ("Go 1.22 routing
// patterns", "Go 1.22+ range-over-int loops") is no statement of the version in use; a floor
// ("Requires Go 1.21 or newer", "Built with Go 1.22") still is. A gem named by its module is not
// stale while the project has a module folder of that name.
// Real git repositories.
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { cleanupRepos, findingRows, makeRepo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

describe('versions that date a feature', () => {
  it('leaves "Go 1.22 routing patterns" alone and still corrects the floors', async () => {
    const r = await makeRepo();
    await r.write('go.mod', 'module example.com/x\n\ngo 1.24\n');
    await r.write('main.go', 'package main\n');
    await r.commit('init', '2025-01-01');
    await r.write(
      'CLAUDE.md',
      [
        '# Service',
        '',
        '- Go 1.22 routing patterns (`GET /items/{id}`) in `net/http`: no router library.',
        '- Use Go 1.22+ range-over-int loops.',
        '- Requires Go 1.21 or newer.',
        '- Built with Go 1.22.',
        '- The loop variable fix from Go 1.22 means no `x := x` copies.',
        '- Prefer Go 1.23 iterators over callbacks.',
        '',
      ].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'version-drift')).toEqual(['version-drift|5|Go 1.21 or newer|Go 1.24 or newer', 'version-drift|6|Go 1.22|Go 1.24']);
  });
});

describe('a gem named by its module that the project still has', () => {
  it('says nothing when the project keeps its own module folder', async () => {
    const r = await makeRepo();
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails"\ngem "interactor"\ngem "faraday"\ngem "kaminari"\n');
    await r.write('app/models/user.rb', 'class User; end\n');
    await r.commit('init', '2025-01-01');
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails"\ngem "octokit"\ngem "pagy"\n');
    await r.write('Gemfile.lock', 'GEM\n  remote: https://rubygems.org/\n  specs:\n    faraday (2.9.0)\n    octokit (8.1.0)\n      faraday (>= 1, < 3)\n    pagy (8.0.0)\n    rails (7.1.3)\n\nDEPENDENCIES\n  octokit\n  pagy\n  rails\n');
    await r.write('lib/interactor/base.rb', 'module Interactor\n  class Base; end\nend\n');
    await r.commit('Own interactor module; octokit; pagy instead of kaminari', '2025-02-01');
    await r.write(
      'CLAUDE.md',
      ['# App', '', '- Business steps are `Interactor` classes chained by organizers.', '- Wrap HTTP calls in `Faraday` connections with retries.', '- Paginate with `Kaminari` scopes.', ''].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    // `Faraday` in code: octokit still installs it, but code using it directly relies on an undeclared gem
    expect(findingRows(report, (f) => f.kind.startsWith('package-'))).toEqual(['package-missing|4|Faraday|', 'package-missing|5|Kaminari|']);
  });
});

describe('a Makefile in a subfolder run from the root', () => {
  it('reads includes written from the root, so a missing target is reported and included ones are not', async () => {
    const r = await makeRepo();
    await r.write('build/Makefile.docker', 'include build/make/common.mk\n\nimage:\n\tdocker build .\n');
    await r.write('build/make/common.mk', 'push:\n\tdocker push x\n');
    await r.write('Makefile', 'all:\n\techo\n');
    await r.commit('init', '2025-01-01');
    await r.write(
      'CLAUDE.md',
      ['# X', '', '- Push images with `make -f build/Makefile.docker push`.', '- Build with `make -f build/Makefile.docker image`.', '- `make -f build/Makefile.docker deploy` ships it.', ''].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'script-missing')).toEqual(['script-missing|5|make -f build/Makefile.docker deploy|']);
  });
});

describe('a product named with its language', () => {
  it('reads "Pest PHP 3.8+" as Pest\'s version, not PHP\'s', async () => {
    const r = await makeRepo();
    await r.write('composer.json', JSON.stringify({ name: 'acme/app', require: { php: '^8.4', 'laravel/framework': '^12.0' }, 'require-dev': { 'pestphp/pest': '^3.8.0' } }, null, 2) + '\n');
    await r.commit('init', '2025-01-01');
    await r.write('.cursor/rules/testing.mdc', ['---', 'description: testing', 'globs: tests/**', 'alwaysApply: false', '---', '# Testing', '', '- **Pest PHP 3.8+** - Primary testing framework', '- The CI image runs PHP 7.4.', ''].join('\n'));
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['.cursor/rules/testing.mdc'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'version-drift')).toEqual(['version-drift|9|PHP 7.4|PHP 8.4']);
  });
});

describe('a sample file illustrating an instruction', () => {
  it('goes to review, not delete, when the sample file is gone', async () => {
    const r = await makeRepo();
    await r.write('artisan', '#!/usr/bin/env php\n');
    await r.write('tests/Feature/ExampleTest.php', '<?php\n');
    await r.write('tests/Feature/UserTest.php', '<?php\n');
    await r.commit('init', '2025-01-01');
    await r.remove('tests/Feature/ExampleTest.php');
    await r.commit('Drop the example test', '2025-02-01');
    await r.write('CLAUDE.md', ['# Tests', '', '- To run all tests in a file: `php artisan test tests/Feature/ExampleTest.php`.', ''].join('\n'));
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('path-'))).toEqual(['path-missing|3|tests/Feature/ExampleTest.php|']);
    expect(report.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.line}`)).toEqual(['review|3']);
  });
});

describe("Laravel Boost's package list", () => {
  it('checks each `- vendor/name (ALIAS) - vN` item against the manifests and corrects the major', async () => {
    const r = await makeRepo();
    await r.write('composer.json', JSON.stringify({ name: 'acme/app', require: { php: '^8.2', 'laravel/framework': '^13.5', 'laravel/prompts': '^0.3' }, 'require-dev': { 'pestphp/pest': '^4.6.1' } }, null, 2) + '\n');
    await r.write('package.json', JSON.stringify({ name: 'app', devDependencies: { tailwindcss: '^4.1.18' } }, null, 2) + '\n');
    await r.commit('init', '2025-01-01');
    await r.write(
      'CLAUDE.md',
      [
        '# Laravel Boost Guidelines',
        '',
        '## Foundational Context',
        'This application is a Laravel application and its main Laravel ecosystems package & versions are below.',
        '',
        '- php - 8.4.12',
        '- laravel/framework (LARAVEL) - v12',
        '- laravel/prompts (PROMPTS) - v0',
        '- pestphp/pest (PEST) - v4',
        '- tailwindcss (TAILWINDCSS) - v3',
        '',
      ].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'version-drift')).toEqual([
      'version-drift|7|laravel/framework (LARAVEL) - v12|laravel/framework (LARAVEL) - v13',
      'version-drift|10|tailwindcss (TAILWINDCSS) - v3|tailwindcss (TAILWINDCSS) - v4',
    ]);
  });
});

describe('Rust paths in inline code', () => {
  it("checks the crate of `crate::item` (reported, not rewritten); the project's own module of a removed crate's name is not", async () => {
    const r = await makeRepo();
    await r.write('Cargo.toml', '[workspace]\nmembers = ["utils/cargo-bin", "cli"]\n');
    await r.write('utils/cargo-bin/Cargo.toml', '[package]\nname = "acme-utils-cargo-bin"\nversion = "0.1.0"\n');
    await r.write('utils/cargo-bin/src/lib.rs', 'pub fn cargo_bin() {}\n');
    await r.write('cli/Cargo.toml', '[package]\nname = "acme-cli"\nversion = "0.1.0"\n\n[dependencies]\nconfig = "0.14"\n\n[dev-dependencies]\ninsta = "1"\n');
    await r.write('cli/src/main.rs', 'fn main() {}\n');
    await r.write('cli/src/config.rs', 'pub fn load() {}\n');
    await r.write('package.json', JSON.stringify({ name: 'docs', dependencies: { lodash: '^4.17.21' } }, null, 2) + '\n');
    await r.commit('init', '2025-01-01');
    await r.move('utils/cargo-bin', 'utils/test-bin');
    await r.write('utils/test-bin/Cargo.toml', '[package]\nname = "acme-utils-test-bin"\nversion = "0.1.0"\n');
    await r.write('Cargo.toml', '[workspace]\nmembers = ["utils/test-bin", "cli"]\n');
    await r.write('cli/Cargo.toml', '[package]\nname = "acme-cli"\nversion = "0.1.0"\n\n[dev-dependencies]\nexpect-test = "1"\n');
    await r.write('package.json', JSON.stringify({ name: 'docs', dependencies: {} }, null, 2) + '\n');
    await r.commit('Rename the cargo-bin util; insta -> expect-test; drop lodash', '2025-02-01');
    await r.write(
      'AGENTS.md',
      [
        '# Agents',
        '',
        '- Prefer `acme_utils_cargo_bin::cargo_bin("acme")` to spawn first-party binaries.',
        '- Snapshot with `insta::assert_snapshot!`.',
        '- Use `std::fs::read_to_string` for fixtures.',
        '- The docs build calls `lodash::merge` in a shim.',
        '- Settings come from `config::load()`.',
        '',
      ].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    // reported, never rewritten: a package rename may keep the library's name (`[lib] name`)
    expect(findingRows(report, (f) => f.kind.startsWith('package-'))).toEqual(['package-renamed|3|acme_utils_cargo_bin|', 'package-renamed|4|insta|']);
  });
});

describe('a Composer package written after its vendor', () => {
  it('reads "Livewire Volt" and "Laravel Dusk" as the packages `livewire/volt` and `laravel/dusk`', async () => {
    const r = await makeRepo();
    await r.write('composer.json', JSON.stringify({ name: 'acme/app', require: { php: '^8.2', 'laravel/framework': '^12.0', 'livewire/livewire': '^3.0', 'livewire/volt': '^1.0' }, 'require-dev': { 'laravel/dusk': '^8.0' } }, null, 2) + '\n');
    await r.commit('init', '2025-01-01');
    await r.write('composer.json', JSON.stringify({ name: 'acme/app', require: { php: '^8.2', 'laravel/framework': '^12.0', 'livewire/livewire': '^3.0' } }, null, 2) + '\n');
    await r.commit('Drop Volt and Dusk', '2025-02-01');
    await r.write('CLAUDE.md', ['# App', '', '- Pages are Livewire Volt components.', '- **Laravel Dusk**: browser automation testing.', '- The Laravel Way: keep controllers thin.', ''].join('\n'));
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('package-'))).toEqual(['package-missing|3|Volt|', 'package-missing|4|Dusk|']);
  });
});

describe("a renamed crate's name used as a label", () => {
  it('says nothing of "the `ty` GitHub label" and still reports `cargo run -p ty`', async () => {
    const r = await makeRepo();
    await r.write('Cargo.toml', '[workspace]\nmembers = ["crates/ty"]\n');
    await r.write('crates/ty/Cargo.toml', '[package]\nname = "ty"\nversion = "0.1.0"\n');
    await r.write('crates/ty/src/main.rs', 'fn main() {}\n');
    await r.commit('init', '2025-01-01');
    await r.write('crates/ty/Cargo.toml', '[package]\nname = "ty_cli"\nversion = "0.1.0"\n');
    await r.commit('Rename the ty crate to ty_cli', '2025-02-01');
    await r.write('CLAUDE.md', ['# Ruff', '', '- PRs for ty are tagged with the `ty` GitHub label.', '- Build it with `cargo build -p ty`.', ''].join('\n'));
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('package-'))).toEqual(['package-renamed|4|ty|ty_cli']);
  });
});

describe('Windows paths', () => {
  it('checks `scripts\\test.bat` like `scripts/test.bat` and writes the successor back with backslashes', async () => {
    const r = await makeRepo();
    await r.write('scripts/test-integration.sh', '#!/bin/sh\necho integration tests for the editor\n');
    await r.write('scripts/test-integration.bat', '@echo off\r\necho integration tests for the editor\r\n');
    await r.write('scripts/test.bat', '@echo off\r\necho unit tests\r\n');
    await r.write('build\\notes.txt'.replace('\\', '/'), 'x\n');
    await r.commit('init', '2025-01-01');
    await r.move('scripts/test-integration.sh', 'scripts/test-integration-electron.sh');
    await r.move('scripts/test-integration.bat', 'scripts/test-integration-electron.bat');
    await r.remove('scripts/test.bat');
    await r.commit('Electron integration scripts; drop test.bat', '2025-02-01');
    await r.write(
      'CLAUDE.md',
      [
        '# Tests',
        '',
        '- Integration: `scripts/test-integration.sh` (or `scripts\\test-integration.bat` on Windows).',
        '- Unit tests on Windows: `scripts\\test.bat`.',
        '- Notes live in `build\\notes.txt`; a newline is written `\\n`.',
        '',
      ].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('path-'))).toEqual([
      'path-renamed|3|scripts/test-integration.sh|scripts/test-integration-electron.sh',
      'path-renamed|3|scripts\\test-integration.bat|scripts\\test-integration-electron.bat',
      'path-missing|4|scripts\\test.bat|',
    ]);
  });
});

describe('versions written as a label and its value', () => {
  it('checks "**Java:** 11", "**Kotlin**: 1.9.24", "Node.js: 18", "**Python** 3.10+" and "| Python | 3.10+ |", not "Coverage: 80%" or "Step: 3"', async () => {
    const r = await makeRepo();
    await r.write('build.gradle.kts', 'plugins { id("org.jetbrains.kotlin.jvm") version "2.1.0" }\nkotlin { jvmToolchain(17) }\n');
    await r.write('package.json', JSON.stringify({ name: 'w', engines: { node: '>=20' }, dependencies: { react: '^19.0.0', coverage: '^1.0.0' } }, null, 2) + '\n');
    await r.commit('init', '2025-01-01');
    await r.write('pyproject.toml', '[project]\nname = "w"\nrequires-python = ">=3.11"\n');
    await r.write(
      'CLAUDE.md',
      ['# Stack', '', '- **Java:** 11 (source and target compatibility)', '- **Kotlin**: 1.9.24', '- Node.js: 18', '- **React:** 19', '- Coverage: 80%', '- Step: 3', '- **Python** 3.10+ - the API', '', '| Tool | Version |', '| --- | --- |', '| Python | 3.10+ |', '| Ruff | 0.6 |', ''].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'version-drift')).toEqual([
      'version-drift|3|Java:** 11|Java:** 17',
      'version-drift|4|Kotlin**: 1.9.24|Kotlin**: 2.1.0',
      'version-drift|5|Node.js: 18|Node.js: 20',
      'version-drift|9|Python** 3.10+|Python** 3.11+',
      'version-drift|13|Python | 3.10+|Python | 3.11+',
    ]);
  });
});

describe('a Makefile with an optional include git does not track', () => {
  it('still checks make commands next to `-include .env`, and leaves `include` of an untracked file open', async () => {
    const r = await makeRepo();
    await r.write('Makefile', '-include .env\nexport\n\nlint:\n\truff check --fix .\n\ndb-seed:\n\tpython -m app.seed\n');
    await r.write('other/Makefile', 'include local.mk\n\nbuild:\n\techo\n');
    await r.write('.gitignore', '.env\n');
    await r.commit('init', '2025-01-01');
    await r.write('Makefile', '-include .env\nexport\n\ncheck:\n\truff check --fix .\n');
    await r.commit('Rename lint to check; drop db-seed', '2025-02-01');
    await r.write('CLAUDE.md', ['# Dev', '', '- `make lint` - Run ruff linter with auto-fix', '- `make db-seed` - Seed database with test data', '- `make -C other deploy` ships it.', ''].join('\n'));
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'script-missing')).toEqual(['script-missing|3|make lint|make check', 'script-missing|4|make db-seed|']);
  });
});

describe('a version the project is heading for', () => {
  it('leaves "(preparing for Pest 4)" and "migrating to Laravel 12" alone; "We use Pest 2" is still corrected', async () => {
    const r = await makeRepo();
    await r.write('composer.json', JSON.stringify({ name: 'acme/app', require: { php: '^8.2', 'laravel/framework': '^11.31' }, 'require-dev': { 'pestphp/pest': '^3.8.0' } }, null, 2) + '\n');
    await r.commit('init', '2025-01-01');
    await r.write('CLAUDE.md', ['# App', '', '- Tests are written with Pest (preparing for Pest 4).', '- We are migrating to Laravel 12 next quarter.', '- We use Pest 2.', ''].join('\n'));
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'version-drift')).toEqual(['version-drift|5|Pest 2|Pest 3']);
  });
});

describe('a constraint with alternatives', () => {
  it('holds "Laravel 12" against ^11.31|^12.0 and corrects "Laravel 10" to the newest allowed line', async () => {
    const r = await makeRepo();
    await r.write('composer.json', JSON.stringify({ name: 'acme/app', require: { php: '^8.2', 'laravel/framework': '^11.31|^12.0' } }, null, 2) + '\n');
    await r.commit('init', '2025-01-01');
    await r.write('CLAUDE.md', ['# App', '', '- laravel/framework (LARAVEL) - v12', '- Built on Laravel 10.', ''].join('\n'));
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'version-drift')).toEqual(['version-drift|4|Laravel 10|Laravel 12']);
  });
});

describe('a path the text says things are no longer in', () => {
  it('says nothing of "middleware are no longer registered in `app/Http/Kernel.php`" (a Laravel 11+ app has none)', async () => {
    const r = await makeRepo();
    await r.write('bootstrap/app.php', '<?php\n');
    await r.write('artisan', '#!/usr/bin/env php\n');
    await r.commit('init', '2025-01-01');
    await r.write(
      'CLAUDE.md',
      ['# Laravel 12', '', '- Middleware are no longer registered in `app/Http/Kernel.php`; use `bootstrap/app.php`.', '- Console commands live in `app/Console/Kernel.php`.', ''].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('path-'))).toEqual(['path-unverified|4|app/Console/Kernel.php|']);
  });
});

describe('templated lines about different products', () => {
  it('are no duplicates ("… version-specific Inertia documentation" / "… Laravel documentation"); a true copy still is', async () => {
    const r = await makeRepo();
    await r.write('README.md', '# App\n');
    await r.commit('init', '2025-01-01');
    await r.write(
      'CLAUDE.md',
      [
        '# Boost',
        '',
        '- ALWAYS use `search-docs` tool for version-specific Inertia documentation and updated code examples.',
        '',
        '- CRITICAL: ALWAYS use `search-docs` tool for version-specific Laravel documentation and updated code examples.',
        '',
        '- IMPORTANT: Always use `search-docs` tool for version-specific Tailwind CSS documentation and updated code examples. Never rely on training data.',
        '',
        '- Always use `search-docs` tool for version-specific Tailwind CSS documentation and updated code examples.',
        '',
      ].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'duplicate')).toEqual(['duplicate|9|undefined|']);
  });
});

describe('one stale item of a list the sentence leads into', () => {
  it('goes to review, not delete ("`ApplicationComponent` includes routes, Devise helpers, Pundit, and ApplicationHelper")', async () => {
    const r = await makeRepo();
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails"\ngem "devise"\ngem "pundit"\ngem "lookbook"\n');
    await r.commit('init', '2025-01-01');
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails"\ngem "devise"\ngem "lookbook"\n');
    await r.commit('Drop pundit', '2025-02-01');
    await r.write('CLAUDE.md', ['# Components', '', '`ApplicationComponent` includes routes, Devise helpers, Pundit, and ApplicationHelper. Previews via Lookbook at `/admin/lookbook` (dev/staging only).', ''].join('\n'));
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('package-'))).toEqual(['package-missing|3|Pundit|']);
    expect(report.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.line}`)).toEqual(['review|3']);
  });
});

describe('the bold key of a list item', () => {
  it('reads "- **Pundit** — Authorization policies" as the gem; a bold word inside a sentence stays a word', async () => {
    const r = await makeRepo();
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails"\ngem "pundit"\ngem "devise"\n');
    await r.commit('init', '2025-01-01');
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails"\ngem "action_policy"\n');
    await r.commit('Authorization with action_policy; drop devise', '2025-02-01');
    await r.write('CLAUDE.md', ['# App', '', '## Key Gems', '', '- **Pundit** — Authorization policies', '- Sessions expire after a **devise** timeout of an hour.', ''].join('\n'));
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('package-'))).toEqual(['package-missing|5|Pundit|']);
  });
});
