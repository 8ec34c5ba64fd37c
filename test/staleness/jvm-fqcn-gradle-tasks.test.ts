// JVM repositories: fully-qualified class names (`--tests com.acme.app.login.LoginViewModelTest`,
// `-Dtest=…#m`, inline code, `import …;` in prose) name a source file under some source root; when
// that one file of history moved to another package the name is corrected to the new package
// (keeping a method or wildcard after it), when it was deleted it is reported, and library
// classes, placeholders, ambiguous and present classes say nothing. Gradle tasks of a plugin
// that every build script and catalog dropped (`./gradlew spotlessApply`, `:app:detekt`,
// `verifyRoborazziDemoDebug`) are `script-missing`; Gradle's and Android's own tasks, and tasks of
// plugins still declared (also applied with `apply plugin:`), are not. Real git repositories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import type { Finding, Report } from '../../src/types.js';
import { body, cleanupRepos, findingRows, lineOfText, makeRepo, planRows, shallowClone, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const KINDS = new Set(['path-missing', 'path-renamed', 'path-unverified', 'script-missing']);
const rows = (r: Report) => findingRows(r, (f: Finding) => KINDS.has(f.kind));
const read = (r: Repo, f: string) => readFile(path.join(r.dir, f), 'utf8');
const short = (sha: string) => sha.slice(0, 7);

afterAll(cleanupRepos);

const CATALOG = (plugins: string[]) =>
  [
    '[versions]',
    'agp = "8.9.0"',
    'ksp = "2.1.0-1.0.29"',
    '',
    '[plugins]',
    'android-application = { id = "com.android.application", version.ref = "agp" }',
    'ksp = { id = "com.google.devtools.ksp", version.ref = "ksp" }',
    ...plugins,
    '',
  ].join('\n');

describe('class names and Gradle tasks after a package move and plugin removals', () => {
  const memory = [
    '# Acme Android',
    '',
    '## Tests',
    '```bash',
    './gradlew :app:testDebugUnitTest --tests "com.acme.app.login.LoginViewModelTest"',
    './gradlew :app:testDebugUnitTest --tests com.acme.app.login.LoginViewModelTest.logsIn',
    './mvnw -pl server test -Dtest=com.acme.server.user.UserServiceTest#createsUser',
    '```',
    '',
    '## Tasks',
    '- Format: `./gradlew spotlessApply`',
    '- Static analysis: `./gradlew :app:detekt`',
    '- Screenshots: `./gradlew verifyRoborazziDemoDebug`',
    '- Coverage: `./gradlew koverHtmlReport`',
    '- Kotlin style: `./gradlew ktlintFormat`',
    '- Code generation: `./gradlew kspDebugKotlin`',
    '- Build: `./gradlew clean assembleDemoDebug lint testDebugUnitTest connectedDemoDebugAndroidTest`',
    '',
    '## Code',
    '- Session logic is covered by `com.acme.app.session.SessionManagerTest`.',
    '- Payments go through `com.acme.server.billing.BillingClient`.',
    '- String helpers live in `com.acme.core.util.Strings`.',
    '- Screens get their model with import com.acme.app.login.LoginViewModel; in each fragment.',
    '- Shared helpers: `com.acme.shared.Util`.',
    '- Tests use `org.junit.jupiter.api.Test` and `java.util.List`; filter with `--tests "com.example.myapp.MyTestClass"` or `org.acme.*`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  const sha: Record<string, string> = {};

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('settings.gradle.kts', 'include(":app", ":server", ":core", ":a", ":b")\n');
    await r.write(
      'gradle/libs.versions.toml',
      CATALOG([
        'spotless = { id = "com.diffplug.spotless", version = "7.0.2" }',
        'detekt = { id = "io.gitlab.arturbosch.detekt", version = "1.23.7" }',
        'roborazzi = { id = "io.github.takahirom.roborazzi", version = "1.43.0" }',
      ]),
    );
    await r.write(
      'app/build.gradle.kts',
      [
        'plugins {',
        '    alias(libs.plugins.android.application)',
        '    alias(libs.plugins.ksp)',
        '    alias(libs.plugins.spotless)',
        '    alias(libs.plugins.detekt)',
        '    alias(libs.plugins.roborazzi)',
        '    id("org.jetbrains.kotlinx.kover") version "0.9.1"',
        '    id("org.jlleitschuh.gradle.ktlint") version "12.1.0"',
        '}',
        '',
      ].join('\n'),
    );
    for (const f of [
      'gradlew',
      'mvnw',
      'server/pom.xml',
      'app/src/main/java/com/acme/app/login/LoginViewModel.kt',
      'app/src/test/java/com/acme/app/login/LoginViewModelTest.kt',
      'app/src/test/java/com/acme/app/session/SessionManagerTest.kt',
      'server/src/test/java/com/acme/server/user/UserServiceTest.java',
      'server/src/main/java/com/acme/server/billing/BillingClient.java',
      'core/src/main/kotlin/com/acme/core/util/Strings.kt',
      'a/src/main/kotlin/com/acme/shared/Util.kt',
      'b/src/main/kotlin/com/acme/shared/Util.kt',
    ]) await r.write(f, body(f));
    await r.write('CLAUDE.md', memory);
    await r.commit('Initial app', '2025-06-01');
    await r.move('app/src/main/java/com/acme/app/login/LoginViewModel.kt', 'app/src/main/java/com/acme/feature/login/LoginViewModel.kt');
    // another source root of the same shape (`src/test/kotlin/`)
    await r.move('app/src/test/java/com/acme/app/login/LoginViewModelTest.kt', 'app/src/test/kotlin/com/acme/feature/login/LoginViewModelTest.kt');
    await r.move('server/src/test/java/com/acme/server/user/UserServiceTest.java', 'server/src/test/java/com/acme/server/account/UserServiceTest.java');
    // the class itself renamed: no class name to write
    await r.move('core/src/main/kotlin/com/acme/core/util/Strings.kt', 'core/src/main/kotlin/com/acme/core/text/StringUtils.kt');
    sha.move = short(await r.commit('Move login into the feature package; user -> account', '2025-08-01'));
    await r.remove('server/src/main/java/com/acme/server/billing/BillingClient.java');
    await r.remove('a/src/main/kotlin/com/acme/shared/Util.kt');
    await r.remove('b/src/main/kotlin/com/acme/shared/Util.kt');
    await r.write('gradle/libs.versions.toml', CATALOG([]));
    await r.write('app/build.gradle.kts', 'plugins {\n    alias(libs.plugins.android.application)\n    alias(libs.plugins.ksp)\n}\n');
    // ktlint moves to the root script, applied the Groovy way: still declared
    await r.write('build.gradle', "buildscript {\n    dependencies { classpath 'org.jlleitschuh.gradle:ktlint-gradle:12.1.0' }\n}\napply plugin: 'org.jlleitschuh.gradle.ktlint'\n");
    sha.drop = short(await r.commit('Drop spotless, detekt, roborazzi and kover; remove billing', '2025-09-01'));
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports moved and deleted classes and the tasks of removed plugins, and nothing else', () => {
    expect(rows(report)).toEqual([
      `path-renamed|${l('--tests "com')}|com.acme.app.login.LoginViewModelTest|com.acme.feature.login.LoginViewModelTest`,
      `path-renamed|${l('LoginViewModelTest.logsIn')}|com.acme.app.login.LoginViewModelTest|com.acme.feature.login.LoginViewModelTest`,
      `path-renamed|${l('-Dtest=')}|com.acme.server.user.UserServiceTest|com.acme.server.account.UserServiceTest`,
      `script-missing|${l('spotlessApply')}|./gradlew spotlessApply|`,
      `script-missing|${l(':app:detekt')}|./gradlew :app:detekt|`,
      `script-missing|${l('verifyRoborazzi')}|./gradlew verifyRoborazziDemoDebug|`,
      `script-missing|${l('koverHtmlReport')}|./gradlew koverHtmlReport|`,
      `path-missing|${l('BillingClient')}|com.acme.server.billing.BillingClient|`,
      `path-renamed|${l('core.util.Strings')}|com.acme.core.util.Strings|`,
      `path-renamed|${l('import com.acme')}|com.acme.app.login.LoginViewModel|com.acme.feature.login.LoginViewModel`,
    ]);
    const msg = (line: number) => report.findings.find((f) => f.line === line)!.message;
    const moved = `${sha.move} (2025-08-01, "Move login into the feature package; user -> account")`;
    const dropped = `${sha.drop} (2025-09-01, "Drop spotless, detekt, roborazzi and kover; remove billing")`;
    expect(msg(l('--tests "com'))).toBe(
      `\`com.acme.app.login.LoginViewModelTest\` (app/src/test/java/com/acme/app/login/LoginViewModelTest.kt) was renamed to \`app/src/test/kotlin/com/acme/feature/login/LoginViewModelTest.kt\` in ${moved}; the class is now \`com.acme.feature.login.LoginViewModelTest\`: update the reference.`,
    );
    expect(msg(l('core.util.Strings'))).toBe(
      `\`com.acme.core.util.Strings\` (core/src/main/kotlin/com/acme/core/util/Strings.kt) was renamed to \`core/src/main/kotlin/com/acme/core/text/StringUtils.kt\` in ${moved}; update the reference by hand (no class name of the same form follows from the new path).`,
    );
    expect(msg(l('BillingClient'))).toBe(
      `\`com.acme.server.billing.BillingClient\` (server/src/main/java/com/acme/server/billing/BillingClient.java) was deleted in ${dropped} by Test Author; remove the reference or point it at what replaced it.`,
    );
    expect(msg(l('spotlessApply'))).toBe(
      `\`./gradlew spotlessApply\` no longer works: \`spotlessApply\` is a task of the \`spotless\` Gradle plugin, which was removed from \`gradle/libs.versions.toml\` in ${dropped}; no build script or version catalog declares it any more; update or remove the command.`,
    );
    expect(msg(l('verifyRoborazzi'))).toBe(
      `\`./gradlew verifyRoborazziDemoDebug\` no longer works: \`verifyRoborazziDemoDebug\` is a task of the \`roborazzi\` Gradle plugin, which was removed from \`gradle/libs.versions.toml\` in ${dropped}; no build script or version catalog declares it any more; update or remove the command.`,
    );
    expect(msg(l('koverHtmlReport'))).toBe(
      `\`./gradlew koverHtmlReport\` no longer works: \`koverHtmlReport\` is a task of the \`kover\` Gradle plugin, which was removed from \`app/build.gradle.kts\` in ${dropped}; no build script or version catalog declares it any more; update or remove the command.`,
    );
    const detekt = report.findings.find((f) => f.ref === './gradlew :app:detekt')!;
    expect(detekt.evidence).toMatchObject({ manifest: 'gradle/libs.versions.toml', script: 'detekt', plugin: 'detekt', date: '2025-09-01' });
  });

  it('corrects the class names in place (method tails kept), leaves the rest for review; a second prune changes nothing; restore brings the bytes back', async () => {
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(planRows(first.plan)).toEqual([
      `update|4|${l('```bash')}`,
      `review|4|${l('spotlessApply')}`,
      `review|4|${l(':app:detekt')}`,
      `review|4|${l('verifyRoborazzi')}`,
      `review|4|${l('koverHtmlReport')}`,
      `delete|4|${l('BillingClient')}`,
      `review|4|${l('core.util.Strings')}`,
      `update|4|${l('import com.acme')}`,
    ]);
    const text = await read(r, 'CLAUDE.md');
    const lines = memory.split('\n');
    lines[l('--tests "com') - 1] = './gradlew :app:testDebugUnitTest --tests "com.acme.feature.login.LoginViewModelTest"';
    lines[l('LoginViewModelTest.logsIn') - 1] = './gradlew :app:testDebugUnitTest --tests com.acme.feature.login.LoginViewModelTest.logsIn';
    lines[l('-Dtest=') - 1] = './mvnw -pl server test -Dtest=com.acme.server.account.UserServiceTest#createsUser';
    lines[l('import com.acme') - 1] = '- Screens get their model with import com.acme.feature.login.LoginViewModel; in each fragment. [corrected 2026-06-01]';
    lines.splice(l('BillingClient') - 1, 1);
    expect(text).toBe(lines.join('\n'));
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
    expect(await read(r, 'CLAUDE.md')).toBe(text);
    const { records } = parseArchive(await read(r, '.memory-audit/archive.jsonl'));
    const ids = [...new Set(records.map((x) => x.entryId))];
    expect(ids).toHaveLength(3);
    for (const id of ids) await runRestore({ root: r.dir, id });
    expect(await read(r, 'CLAUDE.md')).toBe(memory);
  });

  it('says nothing about class names or plugin tasks with a shallow history', async () => {
    const dir = await shallowClone(r);
    const { report: shallow } = await audit({ root: dir, memory: ['CLAUDE.md'], now: NOW });
    expect(shallow.findings.filter((f) => KINDS.has(f.kind) && (f.ref?.startsWith('com.') || f.ref?.startsWith('./gradlew')))).toEqual([]);
  });
});

describe('a healthy JVM repository', () => {
  const memory = [
    '# Acme',
    '',
    '```bash',
    './gradlew :app:test --tests "com.acme.app.LoginTest"',
    './gradlew test --tests=com.acme.app.LoginTest.logsIn',
    './mvnw test -Dtest=com.acme.app.LoginTest#logsIn,com.acme.app.CartTest',
    './gradlew spotlessApply spotlessCheck',
    'gradle clean build --scan',
    './gradlew assembleDebug connectedAndroidTest installDebug bundleRelease lintDebug publishToMavenLocal',
    './gradlew dependencies tasks help wrapper jar javadoc run bootRun compileKotlin',
    './gradlew formatKotlin kotlinSourcesJar',
    '```',
    '',
    '- The cart is `com.acme.app.Cart`; use `import com.acme.app.Cart;` and import com.acme.app.Cart; alike.',
    '- Tests use `org.junit.jupiter.api.Test`, `java.util.List` and `kotlinx.coroutines.flow.Flow`.',
    '- Placeholders: `--tests "com.example.myapp.MyTestClass"`, `org.acme.*`, `com.yourcompany.app.MainActivity`.',
    '- Generated: `com.acme.app.BuildConfig` and `com.acme.app.R`.',
    '',
  ].join('\n');

  it('reports nothing', async () => {
    const r = await makeRepo();
    const spotless = 'spotless = { id = "com.diffplug.spotless", version = "7.0.2" }';
    await r.write('gradle/libs.versions.toml', CATALOG([spotless, 'kotlin = { id = "org.jetbrains.kotlin.jvm", version = "2.1.0" }']));
    await r.write('app/build.gradle.kts', 'plugins {\n    alias(libs.plugins.android.application)\n    alias(libs.plugins.spotless)\n    alias(libs.plugins.kotlin)\n}\n');
    for (const f of ['gradlew', 'mvnw', 'app/src/main/java/com/acme/app/Cart.kt', 'app/src/test/java/com/acme/app/LoginTest.kt', 'app/src/test/java/com/acme/app/CartTest.kt']) {
      await r.write(f, body(f));
    }
    await r.write('CLAUDE.md', memory);
    await r.commit('Initial app', '2025-06-01');
    // moved to another module, same package: the class names still hold
    await r.move('app/src/main/java/com/acme/app/Cart.kt', 'core/src/main/kotlin/com/acme/app/Cart.kt');
    await r.move('app/src/test/java/com/acme/app/CartTest.kt', 'core/src/test/kotlin/com/acme/app/CartTest.kt');
    // the catalog alias `kotlin` goes, the plugin stays (`kotlin("jvm")`): `formatKotlin` is no task of a removed plugin
    await r.write('gradle/libs.versions.toml', CATALOG([spotless]));
    await r.write('app/build.gradle.kts', 'plugins {\n    alias(libs.plugins.android.application)\n    alias(libs.plugins.spotless)\n    kotlin("jvm") version "2.1.0"\n}\n');
    await r.commit('Move the cart to core', '2025-08-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(report.findings).toEqual([]);
  });
});
