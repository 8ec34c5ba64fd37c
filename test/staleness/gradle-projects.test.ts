// Gradle project paths in task paths (`./gradlew :app:assembleDebug`, `:core:data:test`): a
// project the settings file no longer includes, whose build script history shows moved or
// deleted, is `script-missing`; a move into the folder of an included project rewrites the path
// (`:app` -> `:android:app`, `:feature:foryou` -> `:feature:foryou:impl`). Projects still included
// (also with their folder moved by `projectDir`), abbreviations, help tasks, settings built by code,
// builds without a settings file and shallow clones say nothing. Real git repositories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { parseGradleSettings } from '../../src/evidence/manifests/ecosystems.js';
import type { Finding, Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, planRows, shallowClone, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const rows = (r: Report) => findingRows(r, (f: Finding) => f.kind === 'script-missing' || f.kind.startsWith('path-'));
const read = (r: Repo, f: string) => readFile(path.join(r.dir, f), 'utf8');
const short = (sha: string) => sha.slice(0, 7);
const SCRIPT = (ns: string) => `plugins {\n  id("com.android.library")\n}\n\nandroid { namespace = "com.acme.${ns}" }\n`;

afterAll(cleanupRepos);

describe('parseGradleSettings', () => {
  it('reads include / includeFlat / includeBuild literals in both DSLs', () => {
    expect(parseGradleSettings('rootProject.name = "acme"\ninclude(":app")\ninclude(\n  ":core:data", // the data layer\n  ":feature:foryou:impl",\n)\nincludeBuild("build-logic")\n')).toEqual({
      paths: [':app', ':core:data', ':feature:foryou:impl', ':build-logic'],
      open: false,
    });
    expect(parseGradleSettings("include ':app', ':lib',\n        'tools:cli'\nincludeFlat 'shared'\n/* include ':old' */\n// include ':older'\n")).toEqual({
      paths: [':app', ':lib', ':tools:cli', ':shared'],
      open: false,
    });
  });

  it('is open when a call takes anything but string literals', () => {
    expect(parseGradleSettings('include(":app")\nlistOf("a", "b").forEach { include(":modules:$it") }\n').open).toBe(true);
    expect(parseGradleSettings('val modules = arrayOf(":a", ":b")\ninclude(*modules)\n').open).toBe(true);
    expect(parseGradleSettings("file('modules').eachDir { include it.name }\n").open).toBe(true);
    expect(parseGradleSettings('include(":app")\npluginManagement { includeBuild("build-logic") }\n').open).toBe(false);
    // code the reader cannot follow: an applied script, a settings plugin that may include projects
    expect(parseGradleSettings('include(":app")\napply(from = "gradle/modules.gradle.kts")\n').open).toBe(true);
    expect(parseGradleSettings("include ':app'\napply from: 'capacitor.settings.gradle'\n").open).toBe(true);
    expect(parseGradleSettings('plugins {\n  id("com.acme.modules")\n}\ninclude(":app")\n').open).toBe(true);
    expect(
      parseGradleSettings(
        'pluginManagement {\n  plugins {\n    id("com.android.application") version "8.9.0"\n  }\n}\nplugins {\n  id("org.gradle.toolchains.foojay-resolver-convention") version "0.9.0"\n  id("com.gradle.develocity") version "3.19"\n}\ninclude(":app")\n',
      ).open,
    ).toBe(false);
  });
});

describe('Gradle project paths after modules moved and one was removed', () => {
  const memory = [
    '# Acme Android',
    '',
    '## Commands',
    '- `./gradlew :app:assembleDebug` builds the app',
    '- `./gradlew :core:data:test` runs the data tests',
    '- `./gradlew :legacy:check` checks the legacy module',
    '- `./gradlew :feature:foryou:testDemoDebug` tests the feature',
    '- `./gradlew :cD:lint` lints the data layer (an abbreviation)',
    '- `./gradlew :feature:dependencies` lists what the feature group resolves',
    '- `./gradlew :tools:cli:run` runs the CLI from its new folder',
    '- `./gradlew app:lint` from the root, without the leading colon',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let moved = '';

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('settings.gradle.kts', 'rootProject.name = "acme"\ninclude(":app")\ninclude(\n  ":core:data",\n  ":coreData",\n  ":legacy",\n  ":feature:foryou",\n  ":tools:cli",\n)\n');
    for (const m of ['app', 'core/data', 'coreData', 'legacy', 'feature/foryou', 'tools/cli']) {
      await r.write(`${m}/build.gradle.kts`, SCRIPT(m.replace(/\W/g, '.')));
      await r.write(`${m}/src/main/kotlin/Main.kt`, `// ${m}\nfun main() = println("${m}")\n`);
    }
    await r.write('CLAUDE.md', memory);
    await r.commit('Initial modules', '2026-01-10');
    await r.move('app', 'android/app');
    await r.move('feature/foryou/build.gradle.kts', 'feature/foryou/impl/build.gradle.kts');
    await r.move('feature/foryou/src', 'feature/foryou/impl/src');
    await r.remove('legacy');
    await r.move('tools/cli', 'cli');
    await r.write(
      'settings.gradle.kts',
      'rootProject.name = "acme"\ninclude(":android:app")\ninclude(\n  ":core:data",\n  ":coreData",\n  ":feature:foryou:impl",\n  ":tools:cli",\n)\nproject(":tools:cli").projectDir = file("cli")\n',
    );
    moved = short(await r.commit('Restructure the modules', '2026-03-02'));
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports the projects the settings file dropped, with where their build script went', () => {
    expect(rows(report)).toEqual([
      `script-missing|${l(':app:assembleDebug')}|./gradlew :app:assembleDebug|./gradlew :android:app:assembleDebug`,
      `script-missing|${l(':legacy:check')}|./gradlew :legacy:check|`,
      `script-missing|${l(':feature:foryou:testDemoDebug')}|./gradlew :feature:foryou:testDemoDebug|./gradlew :feature:foryou:impl:testDemoDebug`,
      `script-missing|${l('app:lint')}|./gradlew app:lint|./gradlew android:app:lint`,
    ]);
    const msg = (line: number) => report.findings.find((f) => f.line === line)!.message;
    const c = `${moved} (2026-03-02, "Restructure the modules")`;
    expect(msg(l(':app:assembleDebug'))).toBe(
      `\`./gradlew :app:assembleDebug\` no longer works: \`settings.gradle.kts\` includes no project \`:app\`; its build script \`app/build.gradle.kts\` moved to \`android/app/build.gradle.kts\` in ${c}; use \`./gradlew :android:app:assembleDebug\` instead.`,
    );
    expect(msg(l(':legacy:check'))).toBe(
      `\`./gradlew :legacy:check\` no longer works: \`settings.gradle.kts\` includes no project \`:legacy\`; its build script \`legacy/build.gradle.kts\` was deleted in ${c}; update or remove the command.`,
    );
    expect(msg(l(':feature:foryou:testDemoDebug'))).toBe(
      `\`./gradlew :feature:foryou:testDemoDebug\` no longer works: \`settings.gradle.kts\` only includes projects below \`:feature:foryou\`; its build script \`feature/foryou/build.gradle.kts\` moved to \`feature/foryou/impl/build.gradle.kts\` in ${c}; use \`./gradlew :feature:foryou:impl:testDemoDebug\` instead.`,
    );
    expect(report.findings.find((f) => f.line === l(':legacy:check'))!.evidence).toMatchObject({ manifest: 'settings.gradle.kts', script: ':legacy:check', project: ':legacy', date: '2026-03-02' });
  });

  it('rewrites the moved projects in place and deletes the line of the removed one; a second prune changes nothing; restore brings the bytes back', async () => {
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(planRows(first.plan)).toEqual([
      `update|4|${l(':app:assembleDebug')}`,
      `delete|4|${l(':legacy:check')}`,
      `update|4|${l(':feature:foryou:testDemoDebug')}`,
      `update|4|${l('app:lint')}`,
    ]);
    const lines = memory.split('\n');
    lines[l(':app:assembleDebug') - 1] = '- `./gradlew :android:app:assembleDebug` builds the app [corrected 2026-06-01]';
    lines[l(':feature:foryou:testDemoDebug') - 1] = '- `./gradlew :feature:foryou:impl:testDemoDebug` tests the feature [corrected 2026-06-01]';
    lines[l('app:lint') - 1] = '- `./gradlew android:app:lint` from the root, without the leading colon [corrected 2026-06-01]';
    lines.splice(l(':legacy:check') - 1, 1);
    const text = await read(r, 'CLAUDE.md');
    expect(text).toBe(lines.join('\n'));
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
    expect(await read(r, 'CLAUDE.md')).toBe(text);
    const { records } = parseArchive(await read(r, '.memory-audit/archive.jsonl'));
    for (const id of [...new Set(records.map((x) => x.entryId))]) await runRestore({ root: r.dir, id });
    expect(await read(r, 'CLAUDE.md')).toBe(memory);
  });

  it('says nothing with a shallow history', async () => {
    const dir = await shallowClone(r);
    const { report: shallow } = await audit({ root: dir, memory: ['CLAUDE.md'], now: NOW });
    expect(shallow.findings.filter((f) => f.kind === 'script-missing')).toEqual([]);
  });
});

describe('Gradle project paths that still resolve', () => {
  it('says nothing when the settings file is built by code or the command runs in a subproject', async () => {
    const r = await makeRepo();
    const memory = [
      '# Acme',
      '',
      '- Build: `./gradlew :app:build`',
      '- In `tools/`: `cd tools && ../gradlew cli:run`',
      '- The other build: `cd other && ./gradlew :server:test`',
      '',
    ].join('\n');
    await r.write('settings.gradle', "rootProject.name = 'acme'\nfile('modules').eachDir { include \":${it.name}\" }\ninclude ':app'\n");
    for (const m of ['app', 'tools/cli', 'other/server']) await r.write(`${m}/build.gradle`, "apply plugin: 'java'\n");
    await r.write('CLAUDE.md', memory);
    await r.commit('Initial', '2026-01-10');
    await r.move('app', 'modules/app');
    await r.move('tools/cli', 'tools/cli2');
    await r.move('other/server', 'other/api');
    await r.commit('Move modules', '2026-02-10');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(report.findings.filter((f) => f.kind === 'script-missing')).toEqual([]);
  });
});

describe('Gradle options and split projects', () => {
  it('reads -p / --project-dir as the folder of the build; -c names a build it cannot tell; a project split in two gets no rewrite', async () => {
    const r = await makeRepo();
    await r.write('settings.gradle.kts', 'include(":shared")\n');
    await r.write('shared/build.gradle.kts', SCRIPT('shared'));
    await r.write('samples/settings.gradle.kts', 'include(":app")\n');
    await r.write('samples/app/build.gradle.kts', SCRIPT('app'));
    await r.write('app/build.gradle.kts', SCRIPT('old'));
    await r.write('feature/foryou/build.gradle.kts', SCRIPT('foryou'));
    await r.write('settings.gradle.kts', 'include(":shared", ":app", ":feature:foryou")\n');
    const memory = [
      '# KMP',
      '',
      '- `./gradlew -p samples :app:run` runs the sample.',
      '- `./gradlew --project-dir=samples app:run` too.',
      '- `./gradlew -c samples/settings.gradle.kts :app:run` as well.',
      '- `./gradlew :feature:foryou:testDemoDebug` tests the feature.',
      '',
    ].join('\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2026-01-10');
    await r.remove('app');
    await r.write('feature/foryou/api/build.gradle.kts', SCRIPT('foryou.api') + '// api\n');
    await r.move('feature/foryou/build.gradle.kts', 'feature/foryou/impl/build.gradle.kts');
    await r.write('settings.gradle.kts', 'include(":shared", ":feature:foryou:api", ":feature:foryou:impl")\n');
    const sha = short(await r.commit('Drop the old app; split foryou', '2026-02-10'));
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual([`script-missing|6|./gradlew :feature:foryou:testDemoDebug|`]);
    expect(report.findings[0]!.message).toBe(
      `\`./gradlew :feature:foryou:testDemoDebug\` no longer works: \`settings.gradle.kts\` only includes projects below \`:feature:foryou\`; its build script \`feature/foryou/build.gradle.kts\` moved to \`feature/foryou/impl/build.gradle.kts\` in ${sha} (2026-02-10, "Drop the old app; split foryou"); update or remove the command.`,
    );
  });
});
