// QA round 28 (Flutter and Rails projects): `dart run <package>`, `dart pub run …` and `flutter pub
// run <package>[:<exe>]` (also after `fvm`) run a Pub dependency's executable, so they are program
// references to that dependency, reported like `bundle exec x` / `mix credo` once it is removed from
// pubspec.yaml; a whole inline-code span `.name` (`.windsurfrules`, `.clinerules`, `.rspec`) is a
// weak path reference, reported only when such a file was in history where the reference resolves
// and is gone now. Real git repositories.
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { cleanupRepos, findingRows, makeRepo } from './helpers.js';

afterAll(cleanupRepos);

const NOW = new Date('2026-06-01T00:00:00Z');

const pubspec = (deps: string[], dev: string[]) =>
  ['name: acme_app', 'environment:', "  sdk: '>=3.5.0 <4.0.0'", 'dependencies:', '  flutter:', '    sdk: flutter', ...deps.map((d) => `  ${d}`), 'dev_dependencies:', ...dev.map((d) => `  ${d}`), ''].join('\n');

describe('dart run / flutter pub run', () => {
  it('reports the Pub dependency a removed package run names, however it is run', async () => {
    const r = await makeRepo();
    await r.write('pubspec.yaml', pubspec(['slang: 4.8.1', 'intl: any'], ['build_runner: 2.7.1', 'flutter_launcher_icons: 0.14.1', 'flutter_native_splash: 2.4.1', 'pigeon: 22.0.0']));
    await r.write('lib/main.dart', 'void main() {}\n');
    await r.commit('init', '2025-09-01');
    await r.write('pubspec.yaml', pubspec(['intl: any'], ['build_runner: 2.7.1']));
    await r.commit('Drop codegen packages', '2026-02-15');
    const memory = [
      '# acme_app',
      '',
      '```bash',
      'dart run slang',
      'dart run flutter_launcher_icons',
      'fvm flutter pub run flutter_native_splash:create',
      'dart pub run --enable-asserts pigeon --input pigeons/api.dart',
      'dart run build_runner build --delete-conflicting-outputs',
      '```',
      '',
      '- Regenerate translations with `dart run slang` after editing `lib/i18n/`.',
      '',
    ].join('\n');
    await r.write('CLAUDE.md', memory);
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('package'))).toEqual([
      'package-missing|4|slang|',
      'package-missing|5|flutter_launcher_icons|',
      'package-missing|6|flutter_native_splash|',
      'package-missing|7|pigeon|',
      'package-missing|11|slang|',
    ]);
    const f = report.findings.find((x) => x.line === 6)!;
    expect(f.message).toMatch(/^`flutter_native_splash` is no longer a dependency of any manifest: it was removed from `pubspec.yaml` in [0-9a-f]{7} \(2026-02-15, "Drop codegen packages"\); remove the reference or name what replaced it\.$/);
  });

  it('says nothing for declared packages, the root package, `.dart` files, `dart run` alone and options', async () => {
    const r = await makeRepo();
    await r.write('pubspec.yaml', pubspec(['slang: 4.8.1'], ['build_runner: 2.7.1']));
    await r.write('bin/seed.dart', 'void main() {}\n');
    await r.write('tool/gen.dart', 'void main() {}\n');
    await r.commit('init', '2025-09-01');
    const memory = [
      '# acme_app',
      '',
      '```bash',
      'dart run',
      'dart run slang',
      'fvm dart run build_runner watch',
      'flutter pub run build_runner build',
      'dart run bin/seed.dart',
      'dart run tool/gen.dart --verbose',
      'dart run acme_app:seed',
      'dart run --enable-experiment=macros -D flavor=dev acme_app',
      'dart format .',
      'flutter pub get',
      'fvm use 3.24.0',
      '```',
      '',
      '- Start with `fvm flutter run` and test with `flutter test`.',
      '',
    ].join('\n');
    await r.write('CLAUDE.md', memory);
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, () => true)).toEqual([]);
  });
});

describe('dotfile names in inline code', () => {
  it('reports a deleted `.name` file as path-missing', async () => {
    const r = await makeRepo();
    for (const f of ['.windsurfrules', '.cursorrules', '.clinerules', '.rspec', 'spec/models/user_spec.rb']) await r.write(f, `# ${f}\n`);
    await r.commit('init', '2025-11-01');
    for (const f of ['.windsurfrules', '.cursorrules', '.clinerules', '.rspec']) await r.remove(f);
    await r.commit('Drop legacy editor rule files', '2026-02-01');
    const memory = [
      '# Forem',
      '',
      'Keep these in sync:',
      '- `AGENTS.md`',
      '- `.cursorrules`',
      '- `.windsurfrules`',
      '- `.clinerules`',
      '',
      'RSpec options (`--require rails_helper`) live in `.rspec`.',
      '',
    ].join('\n');
    await r.write('AGENTS.md', memory);
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('path'))).toEqual([
      'path-missing|5|.cursorrules|',
      'path-missing|6|.windsurfrules|',
      'path-missing|7|.clinerules|',
      'path-missing|9|.rspec|',
    ]);
    const f = report.findings.find((x) => x.line === 6)!;
    expect(f.message).toMatch(/^`\.windsurfrules` was deleted in [0-9a-f]{7} \(2026-02-01, "Drop legacy editor rule files"\) by .+; remove the reference or point it at what replaced it\.$/);
  });

  it('keeps a healthy repository quiet: common spans, lone extensions, present dotfiles, and names gone elsewhere', async () => {
    const r = await makeRepo();
    await r.write('.gitignore', '.env\nnode_modules/\n');
    await r.write('.nvmrc', '22\n');
    await r.write('.rspec', '--require spec_helper\n');
    await r.write('src/index.ts', 'export {};\n');
    await r.write('legacy/.clinerules', '# old\n');
    await r.write('.prettierrc', '{}\n');
    await r.write('web/.prettierrc', '{}\n');
    await r.commit('init', '2025-09-01');
    // a `.clinerules` in another folder than the reference resolves to, and a `.prettierrc` still present elsewhere
    await r.remove('legacy/.clinerules');
    await r.remove('.prettierrc');
    await r.commit('cleanup', '2025-10-01');
    const memory = [
      '# CLAUDE.md',
      '',
      '- Secrets go in `.env` (never committed); ignored files are listed in `.gitignore`.',
      '- The Node version is pinned in `.nvmrc`; RSpec options live in `.rspec`.',
      '- Write `.ts` and `.tsx` files, never `.js`; declarations go in `.d.ts` files.',
      '- Never commit `.only` or `.skip` on tests; chain with `.then` sparingly.',
      '- Editor rules: `.clinerules`, `.windsurfrules`, `.NET` conventions in `.editorconfig`.',
      '- Formatting: `.prettierrc`.',
      '- Multi-word span: `describe .only` and `it .skip`.',
      '',
      '```bash',
      'cat .rspec',
      'rm -rf .dart_tool .next',
      '```',
      '',
    ].join('\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('memory', '2025-10-02');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, () => true)).toEqual([]);
  });
});
