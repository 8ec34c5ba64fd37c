// Maven's pom.xml read as a manifest with history: dependencies (by scope), managed dependencies,
// the parent, build plugins, profiles, `${property}` versions, the Java level. A dependency swapped
// in a pom (Springfox -> springdoc, JUnit 4 -> JUnit 5) makes memory naming the old one stale, with
// the commit; a Java level raised makes "Java 17" drift. Real git repositories in temp folders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { manifestKind, parseManifest } from '../../src/evidence/manifests.js';
import { parseCommandLine } from '../../src/memory/refs/commands.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, type Repo } from './helpers.js';

afterAll(cleanupRepos);

const NOW = new Date('2026-06-01T00:00:00Z');

function pom(opts: { java: string; deps: string[]; plugins?: string[]; artifact?: string }): string {
  const dep = (d: string) => {
    const [g, a, v, scope] = d.split(':');
    return `      <dependency>\n        <groupId>${g}</groupId>\n        <artifactId>${a}</artifactId>\n${v ? `        <version>${v}</version>\n` : ''}${scope ? `        <scope>${scope}</scope>\n` : ''}      </dependency>`;
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<project xmlns="http://maven.apache.org/POM/4.0.0">',
    '  <modelVersion>4.0.0</modelVersion>',
    '  <parent>',
    '    <groupId>org.springframework.boot</groupId>',
    '    <artifactId>spring-boot-starter-parent</artifactId>',
    '    <version>3.2.0</version>',
    '  </parent>',
    '  <groupId>com.acme</groupId>',
    `  <artifactId>${opts.artifact ?? 'shop-api'}</artifactId>`,
    '  <properties>',
    `    <java.version>${opts.java}</java.version>`,
    '    <springdoc.version>2.5.0</springdoc.version>',
    '  </properties>',
    '  <dependencies>',
    ...opts.deps.map(dep),
    '  </dependencies>',
    '  <build>',
    '    <plugins>',
    ...(opts.plugins ?? []).map((p) => `      <plugin><groupId>${p.split(':')[0]}</groupId><artifactId>${p.split(':')[1]}</artifactId></plugin>`),
    '    </plugins>',
    '  </build>',
    '</project>',
    '',
  ].join('\n');
}

describe('pom.xml as a manifest', () => {
  it('is recognised by name, test POMs and build output aside', () => {
    expect(manifestKind('pom.xml')).toBe('maven');
    expect(manifestKind('services/billing/pom.xml')).toBe('maven');
    expect(manifestKind('target/classes/META-INF/maven/com.acme/x/pom.xml')).toBeUndefined();
    expect(manifestKind('src/it/simple/pom.xml')).toBeUndefined();
    expect(manifestKind('plugin/src/test/resources/unit/pom.xml')).toBeUndefined();
  });

  it('reads dependencies, managed ones, the parent, plugins, profiles, properties and the Java level', () => {
    const text = [
      '<project>',
      '  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>3.2.0</version></parent>',
      '  <groupId>com.acme</groupId><artifactId>shop-api</artifactId><version>1.4.0</version>',
      '  <properties><mapstruct.version>1.5.5.Final</mapstruct.version><maven.compiler.release>21</maven.compiler.release></properties>',
      '  <dependencyManagement><dependencies>',
      '    <dependency><groupId>org.testcontainers</groupId><artifactId>testcontainers-bom</artifactId><version>1.19.7</version><type>pom</type><scope>import</scope></dependency>',
      '  </dependencies></dependencyManagement>',
      '  <dependencies>',
      '    <!-- <dependency><groupId>x.y</groupId><artifactId>commented-out</artifactId></dependency> -->',
      '    <dependency><groupId>org.mapstruct</groupId><artifactId>mapstruct</artifactId><version>${mapstruct.version}</version></dependency>',
      '    <dependency><groupId>org.mockito</groupId><artifactId>mockito-core</artifactId><scope>test</scope>',
      '      <exclusions><exclusion><groupId>net.bytebuddy</groupId><artifactId>byte-buddy</artifactId></exclusion></exclusions></dependency>',
      '    <dependency><groupId>${project.groupId}</groupId><artifactId>shop-core</artifactId><version>${project.version}</version></dependency>',
      '    <dependency><groupId>com.acme</groupId><artifactId>unresolved</artifactId><version>${nowhere}</version></dependency>',
      '  </dependencies>',
      '  <build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId></plugin></plugins></build>',
      '  <profiles><profile><id>docs</id><build><plugins>',
      '    <plugin><groupId>org.asciidoctor</groupId><artifactId>asciidoctor-maven-plugin</artifactId><version>3.0.0</version></plugin>',
      '  </plugins></build></profile></profiles>',
      '</project>',
    ].join('\n');
    const parsed = parseManifest('maven', 'pom.xml', text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.deps.filter((d) => !d.presence && d.field !== 'family').map((d) => `${d.field}|${d.name}|${d.spec}`)).toEqual([
      'parent|spring-boot-starter-parent|3.2.0',
      'compile|mapstruct|1.5.5.Final',
      'test|mockito-core|',
      'compile|shop-core|1.4.0',
      'compile|unresolved|',
      'dependencyManagement|testcontainers-bom|1.19.7',
      'plugins (default group)|maven-surefire-plugin|',
      'plugins|asciidoctor-maven-plugin|3.0.0',
    ]);
    // families, as prose names the libraries (the project's own group `com.acme` is none)
    expect(parsed.deps.filter((d) => d.field === 'family').map((d) => `${d.name}|${d.spec}`)).toEqual(['boot|3.2.0', 'mockito|', 'testcontainers|1.19.7']);
    const presence = parsed.deps.filter((d) => d.presence).map((d) => d.name);
    expect(presence).toContain('org.mockito:mockito-core');
    expect(presence).toContain('mockito');
    expect(presence).toContain('shop-api');
    expect(presence).toContain('com.acme:shop-core');
    expect(presence).not.toContain('byte-buddy');
    expect(presence).not.toContain('commented-out');
    expect(parsed.runtimes).toEqual([{ name: 'java', spec: '21' }]);
  });

  it('names the file and line of a POM that is not well-formed, and reads no names from it', () => {
    const parsed = parseManifest('maven', 'pom.xml', '<project>\n  <dependencies>\n    <dependency><groupId>a.b</groupId>\n  </dependencies>\n</project>\n');
    expect(parsed.deps).toEqual([]);
    expect(parsed.problems).toEqual([{ message: "invalid XML: Expected closing tag 'dependency' (opened in line 3, col 5) instead of closing tag 'dependencies'.", line: 4 }]);
    // no entity of a DOCTYPE is expanded
    const doctype = parseManifest('maven', 'pom.xml', '<!DOCTYPE p [<!ENTITY a "aaaaaaaaaa">]>\n<project><artifactId>&a;</artifactId></project>\n');
    expect(doctype.deps).toEqual([]);
  });
});

describe('hostile POMs (QA round 25)', () => {
  it('bounds ${property} expansion: a 14 KB POM of nested properties resolves nothing, quickly', () => {
    const text = [
      '<project><properties>',
      `<v0>${'${v1}'.repeat(1000)}</v0><v1>${'${v2}'.repeat(1000)}</v1><v2>${'9'.repeat(100)}</v2>`,
      '</properties><dependencies>',
      ...Array.from({ length: 30 }, (_, i) => `<dependency><groupId>a.b</groupId><artifactId>x${i}</artifactId><version>\${v0}</version></dependency>`),
      '</dependencies></project>',
    ].join('\n');
    const t0 = performance.now();
    const parsed = parseManifest('maven', 'pom.xml', text);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(parsed.problems).toEqual([]);
    expect(parsed.deps.filter((d) => !d.presence).map((d) => d.spec)).toEqual(Array(30).fill(''));
  });

  it('reads annotation processors and plugin dependencies as declared (QA round 23)', () => {
    const text =
      '<project><build><plugins><plugin><artifactId>maven-compiler-plugin</artifactId><configuration><release>21</release>' +
      '<annotationProcessorPaths><path><groupId>org.mapstruct</groupId><artifactId>mapstruct-processor</artifactId><version>1.5.5.Final</version></path>' +
      '<path><groupId>org.projectlombok</groupId><artifactId>lombok</artifactId></path></annotationProcessorPaths></configuration></plugin>' +
      '<plugin><groupId>com.diffplug.spotless</groupId><artifactId>spotless-maven-plugin</artifactId>' +
      '<dependencies><dependency><groupId>com.palantir.javaformat</groupId><artifactId>palantir-java-format</artifactId><version>2.50.0</version></dependency></dependencies></plugin>' +
      '</plugins></build></project>';
    const parsed = parseManifest('maven', 'pom.xml', text);
    expect(parsed.deps.filter((d) => !d.presence && d.field !== 'family').map((d) => `${d.field}|${d.name}|${d.spec}`)).toEqual([
      'plugins (default group)|maven-compiler-plugin|',
      'annotationProcessorPaths|mapstruct-processor|1.5.5.Final',
      'annotationProcessorPaths|lombok|',
      'plugins|spotless-maven-plugin|',
      'plugin dependencies|palantir-java-format|2.50.0',
    ]);
    expect(parsed.deps.filter((d) => d.field === 'family').map((d) => d.name)).toEqual(['mapstruct']);
    expect(parsed.runtimes).toEqual([{ name: 'java', spec: '21' }]);
  });

  it('reads a POM whose plugin configuration holds reserved names; refuses one over 8 MiB', () => {
    const text =
      '<project><build><plugins><plugin><groupId>com.acme</groupId><artifactId>gen-maven-plugin</artifactId>' +
      '<configuration><constructor>x</constructor><__proto__><polluted>1</polluted></__proto__><prototype/></configuration></plugin></plugins></build>' +
      '<dependencies><dependency><groupId>org.mapstruct</groupId><artifactId>mapstruct</artifactId><version>1.5.5</version></dependency></dependencies></project>';
    const parsed = parseManifest('maven', 'pom.xml', text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.deps.filter((d) => !d.presence).map((d) => d.name)).toEqual(['mapstruct', 'gen-maven-plugin']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const big = parseManifest('maven', 'pom.xml', `<project>${' '.repeat(8 * 1024 * 1024)}</project>`);
    expect(big.problems).toEqual([{ message: 'larger than 8388608 bytes, not read' }]);
  });
});

describe('a Maven project whose dependencies and Java level moved', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '- Backend: Spring Boot on Java 17.',
    '- API docs come from Springfox (`springfox-swagger2`); annotate controllers with `@Api`.',
    '- Mapping goes through MapStruct; never write mappers by hand.',
    '- Unit tests use JUnit 4 (`junit:junit`) with Mockito.',
    '- Format with `mvn spotless:apply` before committing.',
    '- The database is the single source of truth for prices.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write(
      'pom.xml',
      pom({
        java: '17',
        deps: ['io.springfox:springfox-swagger2:3.0.0', 'org.mapstruct:mapstruct:1.5.5.Final', 'junit:junit:4.13.2:test', 'org.mockito:mockito-core::test', 'com.google.truth:truth:1.4.2:test'],
        plugins: ['com.diffplug.spotless:spotless-maven-plugin'],
      }),
    );
    await r.write('CLAUDE.md', memory);
    await r.commit('Start the shop API', '2025-09-01');
    await r.write(
      'pom.xml',
      pom({
        java: '21',
        deps: ['org.springdoc:springdoc-openapi-starter-webmvc-ui:${springdoc.version}', 'org.mapstruct:mapstruct:1.5.5.Final', 'org.junit.jupiter:junit-jupiter:5.10.2:test', 'org.mockito:mockito-core::test'],
        plugins: ['com.diffplug.spotless:spotless-maven-plugin'],
      }),
    );
    await r.commit('Move to springdoc, JUnit 5 and Java 21', '2026-02-10');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports the swapped dependencies with their successors and the Java level, and nothing still declared', () => {
    expect(findingRows(report, (f) => f.kind.startsWith('package') || f.kind === 'version-drift')).toEqual([
      `version-drift|${l('Java 17')}|Java 17|Java 21`,
      // the family named in prose, gone with its last artifact
      `package-missing|${l('Springfox')}|Springfox|`,
      `package-renamed|${l('Springfox')}|springfox-swagger2|springdoc-openapi-starter-webmvc-ui`,
      `version-drift|${l('JUnit 4')}|JUnit 4|JUnit 5`,
    ]);
    const swagger = report.findings.find((f) => f.ref === 'springfox-swagger2')!;
    expect(swagger.message).toMatch(
      /^`springfox-swagger2` was replaced by `springdoc-openapi-starter-webmvc-ui` in `pom\.xml` in [0-9a-f]{7} \(2026-02-10, "Move to springdoc, JUnit 5 and Java 21"\); update the reference\.$/,
    );
    // JUnit 5's artifacts are JUnit too: "JUnit 4" is a version drift, not a library gone
    expect(report.findings.find((f) => f.ref === 'JUnit 4')!.message).toBe('`JUnit 4` is out of date: `pom.xml` uses junit 5.10.2; update the version to 5.');
  });

  it('prunes the stale entries and leaves the rest; a second prune changes nothing', async () => {
    await runPrune({ root: r.dir, now: NOW, write: true });
    const after = await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8');
    expect(after).toContain('- Mapping goes through MapStruct; never write mappers by hand.');
    expect(after).toContain('`mvn spotless:apply`');
    // `truth` was a Maven artifact id, dropped with JUnit 4: the English word is not its name
    expect(after).toContain('- The database is the single source of truth for prices.');
    expect(after).not.toContain('Java 17');
    const second = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);
  });
});

describe('Maven commands: goals of removed plugins and module folders', () => {
  const memory = [
    '# AGENTS.md',
    '',
    '- Format with `mvn spotless:apply` before committing.',
    '- Check formatting with `./mvnw com.diffplug.spotless:spotless-maven-plugin:check`.',
    '- Print the dependency tree with `mvn dependency:tree`; run a main class with `mvn exec:java`.',
    '- Build one module with `mvn -pl billing -am verify`.',
    '- The parent POM is `pom.xml`; build the tools with `mvn -f tools/pom.xml package`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  const module = (name: string) => `<project><modelVersion>4.0.0</modelVersion><parent><groupId>com.acme</groupId><artifactId>parent</artifactId><version>1</version></parent><artifactId>${name}</artifactId></project>\n`;
  const parent = (modules: string[], plugins: string[]) =>
    [
      '<project>',
      '  <groupId>com.acme</groupId><artifactId>parent</artifactId><version>1</version><packaging>pom</packaging>',
      `  <modules>${modules.map((m) => `<module>${m}</module>`).join('')}</modules>`,
      '  <build><plugins>',
      ...plugins.map((p) => `    <plugin><groupId>${p.split(':')[0]}</groupId><artifactId>${p.split(':')[1]}</artifactId></plugin>`),
      '  </plugins></build>',
      '</project>',
      '',
    ].join('\n');
  let report: Report;

  beforeAll(async () => {
    const r = await makeRepo();
    const plugins = ['com.diffplug.spotless:spotless-maven-plugin', 'org.apache.maven.plugins:maven-dependency-plugin', 'org.codehaus.mojo:exec-maven-plugin'];
    await r.write('pom.xml', parent(['billing', 'tools'], plugins));
    await r.write('billing/pom.xml', module('billing'));
    await r.write('tools/pom.xml', module('tools'));
    await r.write('AGENTS.md', memory);
    await r.commit('Modules', '2025-11-01');
    // Spotless and the declarations of the default-group plugins go; billing moves under services/
    await r.write('pom.xml', parent(['services/billing', 'tools'], []));
    await r.move('billing', 'services/billing');
    await r.commit('Drop Spotless, move billing under services', '2026-03-02');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports the prefix goal of the removed third-party plugin and the moved module folder, nothing else (a fully-qualified goal runs without a declaration)', () => {
    expect(findingRows(report, (f) => f.kind === 'script-missing' || f.kind.startsWith('path'))).toEqual([
      `script-missing|${l('mvn spotless:apply')}|mvn spotless:apply|`,
      `path-renamed|${l('-pl billing')}|billing|services/billing`,
    ]);
    expect(report.findings.find((f) => f.ref === 'mvn spotless:apply')!.message).toMatch(
      /^`mvn spotless:apply` no longer works: `spotless:apply` is a goal of the `spotless-maven-plugin` Maven plugin, which was removed from `pom\.xml` in [0-9a-f]{7} \(2026-03-02, "Drop Spotless, move billing under services"\); no POM declares it any more; update or remove the command\.$/,
    );
  });
});

describe('QA round 23: Java levels, JDK spellings, framework versions, JUnit, Maven goals', () => {
  const parentPom = (boot: string, java: string, extra: string) =>
    [
      '<project>',
      `  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>${boot}</version></parent>`,
      '  <artifactId>shop</artifactId>',
      `  <properties><java.version>${java}</java.version><kotlin.version>2.0.21</kotlin.version></properties>`,
      '  <dependencies>',
      '    <dependency><groupId>org.jetbrains.kotlin</groupId><artifactId>kotlin-stdlib</artifactId><version>${kotlin.version}</version></dependency>',
      '    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>',
      '    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><scope>test</scope></dependency>',
      '  </dependencies>',
      `  <build><plugins>${extra}</plugins></build>`,
      '</project>',
      '',
    ].join('\n');
  const plugin = (g: string, a: string) => `<plugin><groupId>${g}</groupId><artifactId>${a}</artifactId></plugin>`;

  it('reads 1.8 as Java 8, JDK / OpenJDK as Java, Spring Boot and Kotlin through their packages; JUnit 4 beside 5 holds', async () => {
    const memory = [
      '# CLAUDE.md',
      '',
      '- Build with Java 8 or newer; the bytecode targets Java 1.8.',
      '- Requires JDK 8 (OpenJDK 8 works).',
      '- Spring Boot 2.7 with Kotlin 1.9.',
      '- Write new tests with JUnit 5; old ones use JUnit 4.',
      '- Run locally with `./mvnw spring-boot:run`; migrate with `./mvnw flyway:migrate`.',
      '- Mutation tests: `./mvnw pitest:mutationCoverage`; format with `mvnd airstyle:format`.',
      '- One-off upgrades: `./mvnw org.openrewrite.maven:rewrite-maven-plugin:run`.',
      '- The agent module builds with `mvn -f agent test`.',
      '',
    ].join('\n');
    const r = await makeRepo();
    const plugins = [
      plugin('org.springframework.boot', 'spring-boot-maven-plugin'),
      plugin('org.flywaydb', 'flyway-maven-plugin'),
      plugin('org.pitest', 'pitest-maven'),
      plugin('io.airlift', 'airstyle-maven-plugin'),
    ].join('');
    await r.write('pom.xml', parentPom('2.7.18', '1.8', plugins));
    await r.write('agent/pom.xml', '<project><artifactId>agent</artifactId></project>\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-01-01');
    let { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    // healthy apart from Kotlin (the memory says 1.9, the POM 2.0.21)
    expect(findingRows(report, (f) => f.kind === 'version-drift' || f.kind === 'script-missing' || f.kind.startsWith('path'))).toEqual([
      'version-drift|5|Kotlin 1.9|Kotlin 2.0',
    ]);

    await r.write('pom.xml', parentPom('3.3.4', '17', ''));
    await r.remove('agent');
    await r.commit('Spring Boot 3, Java 17; drop the agent module and our plugin declarations', '2026-01-10');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
    expect(findingRows(report, (f) => f.kind === 'version-drift' || f.kind === 'script-missing' || f.kind.startsWith('path'))).toEqual([
      'version-drift|3|Java 1.8|Java 17',
      'version-drift|4|JDK 8|JDK 17',
      'version-drift|4|OpenJDK 8|OpenJDK 17',
      'version-drift|5|Boot 2.7|Boot 3.3',
      'version-drift|5|Kotlin 1.9|Kotlin 2.0',
      'script-missing|8|./mvnw pitest:mutationCoverage|',
      'script-missing|8|mvnd airstyle:format|',
      'path-missing|10|agent|',
    ]);
    await runPrune({ root: r.dir, now: NOW, write: true });
    const after = await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8');
    expect(after).toContain('- Build with Java 8 or newer; the bytecode targets Java 17. [corrected 2026-06-01]');
    expect(after).toContain('- Spring Boot 3.3 with Kotlin 2.0. [corrected 2026-06-01]');
    expect(after).toContain('- Write new tests with JUnit 5; old ones use JUnit 4.');
    expect(after).toContain('`./mvnw spring-boot:run`');
    const second = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);
  });
});

describe('regression sweep of round 25', () => {
  it('JUnit brought by spring-boot-starter-test is still declared after junit:junit leaves', async () => {
    const r = await makeRepo();
    const pomWith = (deps: string) =>
      `<project><artifactId>app</artifactId><dependencies>${deps}<dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-test</artifactId><scope>test</scope></dependency></dependencies></project>\n`;
    await r.write('pom.xml', pomWith('<dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>'));
    await r.write('CLAUDE.md', '- Tests use JUnit 5 and AssertJ (both come with `spring-boot-starter-test`); mock with Mockito.\n');
    await r.commit('init', '2024-01-01');
    await r.write('pom.xml', pomWith(''));
    await r.commit('Drop leftover JUnit 4 dependency', '2024-04-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('package') || f.kind === 'version-drift')).toEqual([]);
  });

  it('reads at most 64 modules of one -pl list, and -f as written (one reference per token)', () => {
    const list = Array.from({ length: 5000 }, (_, i) => `services/m${i}`).join(',');
    const pieces = parseCommandLine(`mvn -pl ${list} install`);
    expect(pieces.filter((p) => p.kind === 'path' && /^services\/m\d+$/.test(p.value)).length).toBe(64);
    const f = parseCommandLine('./mvnw install -f extensions/rest/runtime/').filter((p) => p.kind === 'path' && p.value.startsWith('extensions'));
    // the same value as the path reader's own piece of that token: one reference once merged
    expect([...new Set(f.map((p) => p.value))]).toEqual(['extensions/rest/runtime/']);
  });
});

describe('second regression sweep', () => {
  it('reads Kotlin through its plugin when kotlin-stdlib has no version of its own (managed by a BOM)', async () => {
    const r = await makeRepo();
    await r.write(
      'pom.xml',
      [
        '<project><artifactId>app</artifactId><properties><kotlin.version>2.0.21</kotlin.version></properties>',
        '<dependencies><dependency><groupId>org.jetbrains.kotlin</groupId><artifactId>kotlin-stdlib</artifactId></dependency></dependencies>',
        '<build><plugins><plugin><groupId>org.jetbrains.kotlin</groupId><artifactId>kotlin-maven-plugin</artifactId><version>${kotlin.version}</version></plugin></plugins></build>',
        '</project>',
        '',
      ].join('\n'),
    );
    await r.write('CLAUDE.md', '- Kotlin 1.9 on the JVM.\n');
    await r.commit('init', '2025-01-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'version-drift')).toEqual(['version-drift|1|Kotlin 1.9|Kotlin 2.0']);
    expect(report.findings[0]!.message).toBe('`Kotlin 1.9` is out of date: `pom.xml` uses kotlin-maven-plugin 2.0.21; update the version to 2.0.');
  });
});

