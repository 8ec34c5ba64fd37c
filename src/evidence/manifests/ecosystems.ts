// Manifests of Gradle, Maven, Composer, Mix, Pub and MSBuild/NuGet. Each dependency gives one name
// that history follows (the way memory names it: `timber`, `pest`, `req`, `isar`,
// `Verify.XunitV3`) and, at HEAD only, the other spellings of the same dependency (`presence`:
// the full coordinate, the catalog alias, `vendor/name`, the manifest's own name), so a name
// still declared in any spelling is never reported as gone, while a swap of one dependency for
// another still adds and removes exactly one followed name (what the package check pairs).
// Structured formats go through real parsers (JSON, YAML, TOML, XML for pom.xml); Gradle scripts, mix.exs and
// MSBuild XML are read by their declaration patterns. A parser never throws. composer.json's
// scripts are read too (the script check's `composer run-script x` / `composer x`).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { readYaml } from './yaml.js';
import { parseJsonManifest, readToml, type ParsedDep, type ParsedManifest } from './parse.js';

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/**
 * Unqualified names that name a module of a family, not a library, once their namespace is
 * dropped (`androidx.compose.ui:ui`, `androidx.test:core`, `symfony/console`,
 * `laravel/framework`): such a name is followed in history only qualified, never alone.
 */
const GENERIC_MODULE = new Set(
  (
    'core api ui runtime common commons compiler annotations annotation runner rules foundation material material3 ' +
    'test tests testing junit4 bom android jvm js native sdk client server util utils tools tooling model models ' +
    'plugin plugins library lib base framework platform extensions ktx console process yaml json xml http ' +
    'http-client cache mailer config support contracts database events filesystem log logging orm validator ' +
    'validation serializer translation routing security mime finder string web app data engine kernel main ' +
    'shared bridge adapter driver parser gradle-plugin application'
  ).split(/\s+/),
);

/** The followed name of a namespaced dependency: the short name unless it is a generic module word. */
function followed(short: string, full: string): string {
  return GENERIC_MODULE.has(short.toLowerCase()) ? full : short;
}

/**
 * Adds the followed name, then each other spelling (HEAD only) that differs from it, at the same
 * version (`kotlin` of `org.jetbrains.kotlin:kotlin-stdlib` is at the stdlib's version).
 */
function addDep(out: ParsedManifest, name: string, spec: string, field: string, also: Array<string | undefined>): void {
  out.deps.push({ name, spec, field });
  const seen = new Set([name.toLowerCase()]);
  for (const a of also) {
    if (!a || seen.has(a.toLowerCase())) continue;
    seen.add(a.toLowerCase());
    out.deps.push({ name: a, spec, field, presence: true });
  }
}

const presenceOnly = (out: ParsedManifest, names: Array<string | undefined>, field: string) => {
  for (const n of names) if (n) out.deps.push({ name: n, spec: '', field, presence: true });
};

// ------------------------------------------------------------------ Composer

/** Platform requirements: the PHP runtime and its extensions, not packages. */
const COMPOSER_PLATFORM = /^(php(-64bit|-ipv6|-zts|-debug)?|hhvm|ext-.+|lib-.+|composer(-plugin-api|-runtime-api)?)$/i;

export function parseComposer(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'composer', deps: [], problems: [] };
  const data = parseJsonManifest(text, out);
  if (data === undefined) return out;
  const doc = obj(data);
  if (!doc) return out;
  // `require.php` is the PHP the package needs (a floor such as `^8.3`, like `requires-python`):
  // a runtime, not a package. `require-dev` states nothing about the runtime the code needs.
  const php = str(obj(doc.require)?.php);
  if (php && /\d/.test(php)) out.runtimes = [{ name: 'php', spec: php }];
  for (const field of ['require', 'require-dev']) {
    const deps = obj(doc[field]);
    if (!deps) continue;
    for (const [full, spec] of Object.entries(deps)) {
      if (COMPOSER_PLATFORM.test(full)) continue;
      const slash = full.indexOf('/');
      const short = slash > 0 ? full.slice(slash + 1) : full;
      const name = followed(short, full);
      addDep(out, name, str(spec) ?? '', field, [full, short]);
    }
  }
  // The package's own name: still declared, whichever way it is spelled.
  if (typeof doc.name === 'string') presenceOnly(out, [doc.name, doc.name.slice(doc.name.indexOf('/') + 1)], 'name');
  // Scripts (`composer run-script x`, `composer x`): a command line, a list of them, or a PHP
  // callback. An alias of `scripts-aliases` runs its script, so it is a name too (with no command
  // of its own, so that it never pairs with a renamed script); `scripts-descriptions` names none.
  const tasks = new Map<string, string>();
  for (const [name, v] of Object.entries(obj(doc.scripts) ?? {})) {
    tasks.set(name, Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').join(' && ') : str(v) ?? '');
  }
  for (const [script, list] of Object.entries(obj(doc['scripts-aliases']) ?? {})) {
    if (!tasks.has(script) || !Array.isArray(list)) continue;
    for (const a of list) if (typeof a === 'string' && !tasks.has(a)) tasks.set(a, '');
  }
  out.tasks = tasks;
  return out;
}

// ------------------------------------------------------------------ Pub (pubspec.yaml)

export function parsePubspec(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'pubspec', deps: [], problems: [] };
  const yaml = readYaml(text, out.problems);
  if (!yaml) return out;
  const data = yaml.data;
  const doc = obj(data);
  if (!doc) return out;
  for (const field of ['dependencies', 'dev_dependencies', 'dependency_overrides']) {
    const deps = obj(doc[field]);
    if (!deps) continue;
    for (const [name, v] of Object.entries(deps)) {
      const o = obj(v);
      const spec = str(v) ?? str(o?.version) ?? (o?.sdk ? `sdk:${str(o.sdk)}` : o?.path ? `path:${str(o.path)}` : o?.git ? 'git' : '');
      out.deps.push({ name, spec, field });
    }
  }
  if (typeof doc.name === 'string') presenceOnly(out, [doc.name], 'name');
  return out;
}

// ------------------------------------------------------------------ Mix (mix.exs)

/**
 * Dependencies of `defp deps` (or `def deps`): every `{:name, ...}` tuple of its list, comments
 * dropped. Without such a function, tuples that look like dependencies anywhere in the file
 * (`{:name, "~> 1.0"` or `{:name, github: / path: / in_umbrella:`). The `app:` atom is the
 * project's own name. Aliases are not read.
 */
export function parseMix(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'mix', deps: [], problems: [] };
  const src = text.replace(/(^|[^\w"?])#.*$/gm, '$1'); // comments (`?#` is a char literal)
  const def = /^[ \t]*defp?[ \t]+deps\b/m.exec(src);
  let body: string;
  let tuple: RegExp;
  if (def) {
    const rest = src.slice(def.index + def[0].length);
    const next = /\n[ \t]*(?:defp?|defmacrop?)[ \t]/.exec(rest);
    body = next ? rest.slice(0, next.index) : rest;
    tuple = /\{\s*:([a-z_][a-zA-Z0-9_]*)\s*,/g;
  } else {
    body = src;
    tuple = /\{\s*:([a-z_][a-zA-Z0-9_]*)\s*,\s*(?="[~>=<\d]|(?:github|git|path|in_umbrella|hex):)/g;
  }
  const seen = new Set<string>();
  let m: RegExpExecArray | null;
  while ((m = tuple.exec(body))) {
    const name = m[1]!;
    if (seen.has(name)) continue;
    seen.add(name);
    const spec = /^\s*"([^"]*)"/.exec(body.slice(m.index + m[0].length))?.[1] ?? '';
    out.deps.push({ name, spec, field: 'deps' });
  }
  const app = /\bapp:\s*:([a-z_][a-zA-Z0-9_]*)/.exec(src);
  if (app) presenceOnly(out, [app[1]], 'app');
  // `elixir: "~> 1.18"` of `project/0`: the Elixir the project needs (a floor, like `requires-python`).
  const elixir = /(?:^|[\s,[(])elixir:\s*"([^"]*\d[^"]*)"/m.exec(src);
  if (elixir) out.runtimes = [{ name: 'elixir', spec: elixir[1]! }];
  return out;
}

// ------------------------------------------------------------------ Gradle

/** A catalog alias the way Gradle reads it: `-`, `_` and `.` separate the same way. */
const alias = (a: string) => a.replace(/[-_.]+/g, '-');

/** group:artifact[:version] (a dotted group, or any group with a version). */
const COORD = /^([A-Za-z][\w-]*(?:\.[\w-]+)+):([A-Za-z0-9][\w.-]*)(?::([^:\s]*))?$|^([A-Za-z][\w-]*):([A-Za-z0-9][\w.-]*):(\d[^:\s]*)$/;

function coordinate(s: string): { group: string; artifact: string; version: string } | undefined {
  const m = COORD.exec(s);
  if (!m) return undefined;
  return m[1] ? { group: m[1], artifact: m[2]!, version: m[3] ?? '' } : { group: m[4]!, artifact: m[5]!, version: m[6]! };
}

function addLibrary(out: ParsedManifest, group: string, artifact: string, version: string, field: string, al?: string): void {
  const full = `${group}:${artifact}`;
  const lastGroup = group.slice(group.lastIndexOf('.') + 1);
  const a = al !== undefined ? alias(al) : undefined;
  // followed: the artifact id; a generic one (`core`) gives way to the alias, else the coordinate
  let name = followed(artifact, full);
  if (name === full && a && !GENERIC_MODULE.has(a.toLowerCase())) name = a;
  addDep(out, name, version, field, [artifact, a, full, lastGroup === artifact ? undefined : lastGroup]);
  // JUnit 5's artifacts (`org.junit.jupiter:junit-jupiter`, `org.junit:junit-bom`) are JUnit as much
  // as JUnit 4's `junit:junit`: "JUnit 5" names them, and "JUnit" is not gone while one is declared.
  if (/^org\.junit(?:\.|$)/.test(group)) out.deps.push({ name: 'junit', spec: version, field, presence: true });
  // Test starters that bring these libraries with them ("JUnit 5 and AssertJ come with
  // spring-boot-starter-test"): declared too, at no known version.
  for (const lib of BUNDLED.get(artifact) ?? []) out.deps.push({ name: lib, spec: '', field, presence: true });
}

/** Libraries a starter artifact brings (its own dependencies, documented and stable). */
const BUNDLED = new Map<string, string[]>(
  Object.entries({
    'spring-boot-starter-test': ['junit', 'junit-jupiter', 'mockito', 'mockito-core', 'assertj', 'assertj-core', 'hamcrest', 'jsonassert', 'json-path'],
    'quarkus-junit5': ['junit', 'junit-jupiter'],
    'micronaut-test-junit5': ['junit', 'junit-jupiter'],
  }),
);

function addPlugin(out: ParsedManifest, id: string, version: string, field: string, al?: string): void {
  const last = id.slice(id.lastIndexOf('.') + 1);
  const a = al !== undefined ? alias(al) : undefined;
  let name = followed(last, id);
  if (name === id && a && !GENERIC_MODULE.has(a.toLowerCase())) name = a;
  addDep(out, name, version, field, [last, a, id]);
}

/**
 * A version catalog (`gradle/libs.versions.toml`): `[libraries]` (`"g:a:v"`, `{ module = "g:a" }`,
 * `{ group, name }`; `version.ref` resolved through `[versions]`) and `[plugins]` (`"id:v"`,
 * `{ id }`). `[versions]` keys are declared names too (HEAD only); `[bundles]` only group aliases.
 */
export function parseGradleCatalog(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'gradle-catalog', deps: [], problems: [] };
  const data = readToml(text, out);
  if (!data) return out;
  const versions = obj(data.versions) ?? {};
  const version = (v: unknown): string => {
    const s = str(v);
    if (s !== undefined) return s;
    const o = obj(v);
    if (!o) return '';
    if (typeof o.ref === 'string') return version(versions[o.ref]);
    return str(o.strictly) ?? str(o.require) ?? str(o.prefer) ?? '';
  };
  const libs = obj(data.libraries);
  if (libs) {
    for (const [al, v] of Object.entries(libs)) {
      const o = obj(v);
      let c: { group: string; artifact: string; version: string } | undefined;
      if (typeof v === 'string') c = coordinate(v);
      else if (o && typeof o.module === 'string') {
        const [group, artifact] = o.module.split(':');
        if (group && artifact) c = { group, artifact, version: version(o.version) };
      } else if (o && typeof o.group === 'string' && typeof o.name === 'string') c = { group: o.group, artifact: o.name, version: version(o.version) };
      if (c) addLibrary(out, c.group, c.artifact, c.version, 'libraries', al);
    }
  }
  const plugins = obj(data.plugins);
  if (plugins) {
    for (const [al, v] of Object.entries(plugins)) {
      if (typeof v === 'string') {
        const colon = v.indexOf(':');
        addPlugin(out, colon > 0 ? v.slice(0, colon) : v, colon > 0 ? v.slice(colon + 1) : '', 'plugins', al);
      } else if (typeof obj(v)?.id === 'string') addPlugin(out, obj(v)!.id as string, version(obj(v)!.version), 'plugins', al);
    }
  }
  presenceOnly(out, Object.keys(versions).map(alias), 'versions');
  return out;
}

/**
 * `text` without its block comments (`/* … *\/`, `<!-- … -->`), found with indexOf: a lazy regex
 * (`/<!--[\s\S]*?-->/g`) rescanned to the end from every opener left unclosed, quadratic. An
 * unclosed opener is the last one that counts (no later one can be closed either): the rest is a
 * comment when `openRest` (XML: MSBuild rejects the file anyway), kept as written otherwise (a
 * Gradle `'src/*'` in a string is no comment).
 */
export function stripBlockComments(text: string, open: string, close: string, openRest: boolean): string {
  let out = '';
  let i = 0;
  for (;;) {
    const o = text.indexOf(open, i);
    if (o < 0) return out + text.slice(i);
    const c = text.indexOf(close, o + open.length);
    if (c < 0) return out + (openRest ? text.slice(i, o) : text.slice(i));
    out += text.slice(i, o);
    i = c + close.length;
  }
}

/**
 * A Gradle script (`build.gradle(.kts)`, `settings.gradle(.kts)`, any `*.gradle`) or build-logic
 * source (buildSrc, build-logic): quoted coordinates
 * (`implementation("g:a:v")`, `testImplementation 'g:a'`, `platform("g:a:v")`), the Groovy map
 * form (`group: 'g', name: 'a', version: 'v'`) and plugins applied by id (`id("x") version "v"`,
 * `id 'x'`, `apply plugin: 'x'`, `pluginManager.apply("x")`). The field is the configuration
 * (`implementation`, `testImplementation`, ...).
 * `libs.*` accessors name catalog entries, read from the catalog. Comments are dropped.
 */
export function parseGradleBuild(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'gradle-build', deps: [], problems: [] };
  const src = stripBlockComments(text, '/*', '*/', false).replace(/(^|[^:"'])\/\/.*$/gm, '$1');
  const seen = new Set<string>();
  const once = (k: string) => !seen.has(k) && !!seen.add(k);
  let m: RegExpExecArray | null;
  // `conf("g:a:v")`, `conf 'g:a:v'`, `conf(platform("g:a:v"))`, `classpath "g:a:v"`
  // No two parts can match the same text (`\s*(?:\(\s*)?`, not `\s*\(?\s*`; after `$` one name
  // character then the rest, not `[\w.]+` then `[^"'\s]*`), and the quoted text is bounded: the
  // ambiguous form backtracked quadratically on a long unclosed `'g$xxx…` or run of blanks.
  const call = /(?:^|[\s{;(])([a-z][A-Za-z0-9]*)\s*(?:\(\s*)?(?:(?:platform|enforcedPlatform|testFixtures)\s*\(\s*)?(["'])([^"'\s$]{1,300}(?:\$\{?[\w.][^"'\s]{0,300})?)\2/gm;
  while ((m = call.exec(src))) {
    const conf = m[1]!;
    if (conf === 'id' || conf === 'kotlin' || conf === 'project' || conf === 'apply' || conf === 'include') continue;
    const c = coordinate(m[3]!.replace(/:\$\{?[\w.]+\}?$/, ':'));
    if (!c || !once(`${c.group}:${c.artifact}`)) continue;
    const v = m[3]!.split(':')[2] ?? '';
    addLibrary(out, c.group, c.artifact, v, conf);
  }
  const map = /(?:^|[\s{;(])([a-z][A-Za-z0-9]*)\s*(?:\(\s*)?group\s*:\s*["']([\w.-]+)["']\s*,\s*name\s*:\s*["']([\w.-]+)["'](?:\s*,\s*version\s*:\s*["']([^"']{0,300})["'])?/gm;
  while ((m = map.exec(src))) if (once(`${m[2]}:${m[3]}`)) addLibrary(out, m[2]!, m[3]!, m[4] ?? '', m[1]!);
  const plugin = /(?:^|[\s{;])id\s*(?:\(\s*)?["']([A-Za-z][\w-]*(?:\.[\w-]+)+)["']\s*\)?(?:\s*version\s*\(?\s*["']([^"']*)["'])?/gm;
  while ((m = plugin.exec(src))) if (once(`plugin:${m[1]}`)) addPlugin(out, m[1]!, m[2] ?? '', 'plugins');
  // Plugins applied imperatively (`apply plugin: 'x'`, `apply(plugin = "x")`, a convention plugin's
  // `pluginManager.apply("x")` / `plugins.apply("x")`): applied all the same, so a plugin moved from
  // `plugins {}` to one of these is still declared, and one dropped from them is removed (history
  // follows them like `id("x")`; a task of a removed plugin is stale: see the script check).
  const applied = /(?:\bapply\s*(?:\(\s*)?plugin\s*[:=]\s*|\b(?:pluginManager|plugins)\s*\.\s*apply\s*\(\s*)["']([A-Za-z][\w-]*(?:\.[\w-]+)+)["']/g;
  while ((m = applied.exec(src))) if (once(`plugin:${m[1]}`)) addPlugin(out, m[1]!, '', 'plugins');
  // Any other quoted `group:artifact:version` (`ext` maps, `const val timber = "..."` in
  // buildSrc): declared, HEAD only; where it is used is not known.
  const loose = /["']([A-Za-z][\w-]*(?:\.[\w-]+)+):([A-Za-z0-9][\w.-]*):[^"'\s:]+["']/g;
  while ((m = loose.exec(src))) {
    const full = `${m[1]}:${m[2]}`;
    if (!once(full)) continue;
    const lastGroup = m[1]!.slice(m[1]!.lastIndexOf('.') + 1);
    presenceOnly(out, [m[2], full, lastGroup === m[2] ? undefined : lastGroup], 'coordinates');
  }
  const java = gradleJavaVersions(src);
  if (java.length) out.runtimes = java.map((spec) => ({ name: 'java', spec }));
  return out;
}

/** The projects a Gradle settings file declares (see `parseGradleSettings`). */
export interface GradleProjects {
  /** Project paths included (`:app`, `:core:data`) and included builds (`:build-logic`). */
  paths: string[];
  /** Some `include` / `includeFlat` / `includeBuild` call has arguments other than string literals. */
  open: boolean;
}

/**
 * The project paths of a `settings.gradle(.kts)`: every string literal of its `include` /
 * `includeFlat` calls, in either DSL (`include(":a", ":b")`, `include ':a', ':b'` over several
 * lines, `include 'a'` = `:a`; their ancestors, such as `:core` for `:core:data`, are projects
 * too, added by manifests.ts), and the name of each `includeBuild` (a composite build's tasks run as
 * `:name:task`). A call with anything else among its arguments (`include(*modules)`, a loop's
 * `include(it)`, `":feature:$name"`) leaves the set `open`: which projects exist is not known.
 * Comments are dropped first.
 */
export function parseGradleSettings(text: string): GradleProjects {
  const src = stripBlockComments(text, '/*', '*/', false).replace(/(^|[^:"'])\/\/.*$/gm, '$1');
  const paths = new Set<string>();
  let open = false;
  const call = /(?:^|[^\w.$])(include|includeFlat|includeBuild)\b[ \t]*(\(|(?=[^\s=]))/gm;
  let m: RegExpExecArray | null;
  while ((m = call.exec(src))) {
    const paren = m[2] === '(';
    let i = call.lastIndex;
    let args = '';
    if (paren) {
      // up to the matching `)`, outside string literals
      let depth = 1;
      let quote = '';
      for (; i < src.length && depth > 0; i++) {
        const c = src[i]!;
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '(') depth++;
        else if (c === ')') depth--;
        if (depth > 0) args += c;
      }
    } else {
      // Groovy's command form: to the end of the line, and the next lines while one ends in `,`
      for (;;) {
        const nl = src.indexOf('\n', i);
        const line = src.slice(i, nl < 0 ? src.length : nl);
        args += line + ' ';
        i = nl < 0 ? src.length : nl + 1;
        if (nl < 0 || !/,\s*$/.test(line)) break;
      }
    }
    call.lastIndex = i;
    const parts = args.split(',').map((a) => a.trim()).filter((a) => a !== '');
    if (!parts.length) continue;
    for (const a of parts) {
      const lit = /^(["'])([^"'$\\]*)\1$/.exec(a);
      if (!lit) {
        open = true;
        continue;
      }
      const v = lit[2]!.trim();
      if (!v) continue;
      if (m[1] === 'includeBuild') {
        const name = v.replace(/[\\/]+$/, '').split(/[\\/]/).pop()!;
        if (name && name !== '.' && name !== '..') paths.add(':' + name);
        continue;
      }
      const segs = v.replace(/^:/, '').split(':').filter((x) => x !== '');
      if (segs.length) paths.add(':' + segs.join(':'));
    }
  }
  // Settings code the reader cannot follow may include projects: an applied script
  // (`apply(from = "gradle/modules.gradle.kts")`, Capacitor's `capacitor.settings.gradle`) or a
  // settings plugin other than the common ones that include none.
  if (/\bapply\s*\(?\s*from\s*[:=]/.test(src)) open = true;
  const plugins = /^plugins\s*\{([^{}]*)\}/m.exec(src)?.[1] ?? ''; // the settings' own block, not pluginManagement's
  for (const m of plugins.matchAll(/\bid\s*\(?\s*["']([\w.-]+)["']/g)) if (!QUIET_SETTINGS_PLUGINS.test(m[1]!)) open = true;
  return { paths: [...paths], open };
}

/** Settings plugins that include no projects: toolchain resolution, build scans, the Android / Kotlin settings plugins. */
const QUIET_SETTINGS_PLUGINS = /^(?:org\.gradle\.toolchains\.[\w.-]+|com\.gradle\.(?:develocity|enterprise|common-custom-user-data-gradle-plugin)|com\.android\.settings|org\.jetbrains\.kotlin\.[\w.-]+|org\.gradle\.kotlin\.[\w.-]+)$/;

/**
 * The Java versions a Gradle script builds with: the toolchain (`jvmToolchain(17)`,
 * `languageVersion = JavaLanguageVersion.of(17)`, `.set(JavaLanguageVersion.of(17))`) and the
 * source / target level (`JavaVersion.VERSION_17`, `VERSION_1_8` -> 1.8). Each is a version in
 * use (a module may build with another than its neighbour: the version check accepts any).
 * A variable (`jvmToolchain(libs.versions.jdk.get().toInt())`) is not resolved.
 */
function gradleJavaVersions(src: string): string[] {
  const out = new Set<string>();
  let m: RegExpExecArray | null;
  const toolchain = /\bjvmToolchain\s*\(\s*(\d{1,2})\s*\)|\bJavaLanguageVersion\.of\s*\(\s*(\d{1,2})\s*\)/g;
  while ((m = toolchain.exec(src))) out.add(m[1] ?? m[2]!);
  const level = /\bJavaVersion\.VERSION_(\d{1,2})(?:_(\d{1,2}))?\b/g;
  while ((m = level.exec(src))) out.add(m[1] === '1' && m[2] ? `1.${m[2]}` : m[1]!);
  return [...out];
}

// ------------------------------------------------------------------ MSBuild / NuGet

/**
 * `*.csproj` / `*.fsproj` / `*.vbproj`, `Directory.Packages.props`, `Directory.Build.props` /
 * `.targets`: `<PackageReference Include>`, `<PackageVersion Include>` (central package
 * management), `<GlobalPackageReference Include>`, with `Version` / `VersionOverride` (attribute
 * or child element). NuGet ids are case-insensitive (compared lower-cased, as every name is).
 * `Update=` items only change a version. The project's own name (file name, `<PackageId>`,
 * `<AssemblyName>`) is a declared name too (HEAD only).
 */
const MSBUILD_ATTR = {
  Include: /\bInclude\s*=\s*(?:"([^"]*)"|'([^']*)')/i,
  Version: /\bVersion\s*=\s*(?:"([^"]*)"|'([^']*)')/i,
  VersionOverride: /\bVersionOverride\s*=\s*(?:"([^"]*)"|'([^']*)')/i,
};

/** Attribute text of one item longer than this: not read (no real PackageReference comes near). */
const MAX_ITEM_ATTRS = 16 * 1024;

export function parseMsbuild(path: string, text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'msbuild', deps: [], problems: [] };
  const src = stripBlockComments(text, '<!--', '-->', true);
  // An item's start, then its attributes up to the first `>` found with indexOf (a regex
  // `[^>]*?` rescanned to the end from every `<PackageReference` left without one).
  const item = /<(PackageReference|PackageVersion|GlobalPackageReference)\b/g;
  const attr = (attrs: string, n: 'Include' | 'Version' | 'VersionOverride') => {
    const m = MSBUILD_ATTR[n].exec(attrs);
    return m ? (m[1] ?? m[2]) : undefined;
  };
  const seen = new Set<string>();
  // `from` only grows: a result at or after it (or none at all) stands until `from` passes it.
  const closes = new Map<string, number>();
  const nextClose = (name: string, from: number): number => {
    const at = closes.get(name);
    if (at !== undefined && (at < 0 || at >= from)) return at;
    const c = src.indexOf(`</${name}>`, from);
    closes.set(name, c);
    return c;
  };
  const versionRe = /<(?:Version|VersionOverride)>([^<]*)</g;
  let versionAt: RegExpExecArray | null | undefined;
  const nextVersion = (from: number): RegExpExecArray | null => {
    if (versionAt === null || (versionAt && versionAt.index >= from)) return versionAt;
    versionRe.lastIndex = from;
    return (versionAt = versionRe.exec(src));
  };
  let m: RegExpExecArray | null;
  while ((m = item.exec(src))) {
    const gt = src.indexOf('>', item.lastIndex);
    if (gt < 0) break; // no item after this one can be closed either
    const selfClosing = gt > item.lastIndex && src[gt - 1] === '/';
    const attrs = src.slice(item.lastIndex, selfClosing ? gt - 1 : gt);
    item.lastIndex = gt + 1;
    // Attributes longer than any real item's are not read (the attribute regexes rescan them).
    if (attrs.length > MAX_ITEM_ATTRS) continue;
    const include = attr(attrs, 'Include');
    if (!include) continue;
    let version = attr(attrs, 'Version') ?? attr(attrs, 'VersionOverride');
    if (version === undefined && !selfClosing) {
      // The first `<Version>` child before the item's close tag. Both searched forward from the
      // item and remembered (items come in order): searching again from every item without
      // either was quadratic.
      const close = nextClose(m[1]!, item.lastIndex);
      const v = close > 0 ? nextVersion(item.lastIndex) : null;
      if (v && v.index + v[0].length <= close) version = v[1];
    }
    for (const id of include.split(';').map((s) => s.trim()).filter(Boolean)) {
      if (id.includes('$(') || seen.has(`${m[1]}\0${id.toLowerCase()}`)) continue;
      seen.add(`${m[1]}\0${id.toLowerCase()}`);
      out.deps.push({ name: id, spec: version ?? '', field: m[1]! });
    }
  }
  // `<TargetFramework>net10.0</TargetFramework>`, `<TargetFrameworks>net8.0;net10.0</TargetFrameworks>`:
  // the .NET each project builds for (every target of a multi-targeted project is in use). Only .NET
  // 5+ (`netX.Y`, a platform suffix such as `-android` dropped) and .NET Core (`netcoreappX.Y`):
  // `netstandard2.0` and .NET Framework (`net48`) are no .NET version a developer installs.
  const tfms = new Set<string>();
  const tf = /<TargetFrameworks?\b[^>]{0,1000}>([^<]*)<\/TargetFrameworks?>/g; // bounded: `[^>]*` rescanned to the end from each unclosed tag
  while ((m = tf.exec(src))) {
    for (const t of m[1]!.split(';').map((x) => x.trim())) {
      const v = /^net(?:coreapp)?(\d+\.\d+)(?:-[\w.]+)?$/i.exec(t);
      if (v && (t.toLowerCase().startsWith('netcoreapp') || Number(v[1]!.split('.')[0]) >= 5)) tfms.add(v[1]!);
    }
  }
  if (tfms.size) out.runtimes = [...tfms].map((spec) => ({ name: 'dotnet-tfm', spec }));
  const base = path.slice(path.lastIndexOf('/') + 1);
  const own = /\.(cs|fs|vb)proj$/i.test(base) ? base.replace(/\.(cs|fs|vb)proj$/i, '') : undefined;
  presenceOnly(out, [own, /<PackageId>\s*([^<$\s]+)\s*<\/PackageId>/.exec(src)?.[1], /<AssemblyName>\s*([^<$\s]+)\s*<\/AssemblyName>/.exec(src)?.[1]], 'project');
  return out;
}

export type { ParsedDep };

// ------------------------------------------------------------------ SwiftPM (Package.swift)

/**
 * Package.swift, read by its declaration patterns (comments dropped): each `.package(url: ".../name(.git)")`
 * is a dependency named by the URL's last segment (how memory and `.product(package:)` name it),
 * `.package(name: "X", ...)` by its name, `.package(path: "../X")` by its folder, `.package(id: "scope.X")`
 * by the registry name after the scope. The products used (`.product(name: "Logging", package: ...)`)
 * and the package's own `name:` are declared names at HEAD (presence): a product appears and goes
 * with its package, and following it too would make every package swap a two-for-two change the
 * package check cannot pair. Runtime: the `// swift-tools-version:` line (the oldest Swift toolchain
 * that builds the package, a floor). `platforms:` minimums are not read: an app may target a later OS
 * than the packages it uses, so they say nothing certain about a stated deployment target.
 */
export function parseSwiftPackage(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'swift-package', deps: [], problems: [] };
  const runtimes: Array<{ name: string; spec: string }> = [];
  const tools = /^\s*\/\/\s*swift-tools-version\s*:\s*(\d+(?:\.\d+){0,2})/im.exec(text.slice(0, 2000));
  if (tools) runtimes.push({ name: 'swift', spec: `>=${tools[1]}` });
  const src = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:"])\/\/.*$/gm, '$1');
  const seen = new Set<string>();
  let m: RegExpExecArray | null;
  const pkg = /\.package\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g;
  while ((m = pkg.exec(src))) {
    const args = m[1]!;
    const arg = (k: string) => new RegExp(`\\b${k}\\s*:\\s*"([^"]*)"`).exec(args)?.[1];
    const url = arg('url');
    const named = arg('name');
    const path = arg('path');
    const id = arg('id');
    const last = (s: string) => s.replace(/\/+$/, '').split('/').pop()!.replace(/\.git$/i, '');
    const name = url ? last(url) : path ? last(path) : id ? id.slice(id.indexOf('.') + 1) : named;
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const spec = /\b(?:from|exact|revision|branch)\s*:\s*"([^"]*)"/.exec(args)?.[1] ?? /"(\d+\.\d+[^"]*)"\s*\.\.[.<]/.exec(args)?.[1] ?? '';
    addDep(out, name, spec, 'dependencies', [named]);
  }
  const product = /\.product\s*\(\s*name\s*:\s*"([^"]+)"/g;
  while ((m = product.exec(src))) presenceOnly(out, [m[1]], 'products');
  const own = /\bPackage\s*\(\s*name\s*:\s*"([^"]+)"/.exec(src);
  if (own) presenceOnly(out, [own[1]], 'name');
  if (runtimes.length) out.runtimes = runtimes;
  return out;
}

// ------------------------------------------------------------------ Maven (pom.xml)

/** The XML reader for pom.xml: elements only (attributes carry nothing a POM declares), text kept as written. */
const POM_PARSER = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  // No entity expansion (a DOCTYPE's entities could grow a small file without bound); the five
  // predefined ones are decoded by `pomText`.
  processEntities: false,
  isArray: (name) => POM_LISTS.has(name),
  // The parser refuses these names as object keys (and would drop the whole file): a plugin's free-form
  // `<configuration>` may hold them. Renamed, they are kept apart from everything a POM declares.
  transformTagName: (name) => (RESERVED_TAGS.has(name) ? `#${name}` : name),
});
const RESERVED_TAGS = new Set(['__proto__', 'constructor', 'prototype']);
/**
 * A POM larger than this is not read: XML parses far slower than JSON (a 38 MB POM takes ~10 s),
 * and no real POM or BOM comes near it.
 */
export const MAX_POM_BYTES = 8 * 1024 * 1024;
/** Longest value a `${property}` may resolve to: longer is no version or coordinate (nested properties can grow exponentially). */
const MAX_PROPERTY_VALUE = 256;
/** The field of a library family read from a Maven group (see `familyOf`). */
export const MAVEN_FAMILY_FIELD = 'family';
/** Group segments that name an organisation or a build tool, not a library family. */
const NO_FAMILY = new Set(['apache', 'maven', 'gradle', 'google', 'github', 'jetbrains', 'eclipse', 'microsoft', 'amazon', 'amazonaws', 'oracle', 'sun', 'ibm', 'redhat', 'springframework', 'projectlombok']);
/** Leading group segments that name no project: top-level domains and the like. */
const GROUP_PREFIXES = new Set('com org io net dev me de fr uk ch nl jp cn edu gov info biz co ai app tech xyz eu at be se no fi dk pl cz ru br in au ca us'.split(' '));

/**
 * The family a dependency belongs to, the way memory names the library: the last segment of its
 * group that is no generic module word nor a top-level domain (`mockito` of `org.mockito:mockito-core`,
 * `jackson` of `com.fasterxml.jackson.core:jackson-databind`, `hibernate` of `org.hibernate.orm`,
 * `log4j` of `org.apache.logging.log4j`); none when that is the artifact id itself (`guava`), too
 * short, or the group has no such segment. Plugins have none (`maven` of `org.apache.maven.plugins`
 * names the build tool, not a library).
 */
function familyOf(group: string, artifact: string, ownGroup?: string): string | undefined {
  // the project's own modules (`com.acme:shop-core` in `com.acme:shop-api`) are no library family
  if (ownGroup && (group === ownGroup || group.startsWith(`${ownGroup}.`) || ownGroup.startsWith(`${group}.`))) return undefined;
  const segs = group.toLowerCase().split('.');
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i]!;
    if (i === 0 && segs.length > 1 && GROUP_PREFIXES.has(s)) return undefined;
    if (GENERIC_MODULE.has(s) || NO_FAMILY.has(s) || s.length < 3 || !/^[a-z][a-z0-9-]*$/.test(s)) continue;
    return s === artifact.toLowerCase() ? undefined : s;
  }
  return undefined;
}

/** The plugin groups Maven searches for a goal prefix by default (its `pluginGroups`). */
const MAVEN_DEFAULT_GROUPS = new Set(['org.apache.maven.plugins', 'org.codehaus.mojo']);
/** The field of a plugin of those groups (see `parseMavenPom`). */
export const MAVEN_DEFAULT_GROUP_FIELD = 'plugins (default group)';
/** Elements that may repeat under their parent: always read as lists. */
const POM_LISTS = new Set(['dependency', 'plugin', 'extension', 'profile', 'module', 'path']);

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** An element's text, predefined entities decoded; undefined for a missing or structured element. */
function pomText(v: unknown): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  return String(v).replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => XML_ENTITIES[e]!).trim();
}
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * A Maven POM: `<dependencies>` (the field is the scope, `compile` when none is written),
 * `<dependencyManagement>` (versions and imported BOMs), the `<parent>` (Spring Boot's
 * `spring-boot-starter-parent`), build `<plugins>` / `<pluginManagement>` / `<extensions>` (a
 * plugin's group defaults to `org.apache.maven.plugins`), the same inside each `<profile>`.
 * Names as the Gradle readers give them: the artifact id is followed through history, the
 * coordinate and the group's last part are other spellings. Versions written as `${property}`
 * are resolved through `<properties>` (and `${project.version}` / `${project.parent.version}`);
 * one left unresolved is no version. The Java level (`maven.compiler.release` / `source` /
 * `target`, Spring Boot's `java.version`, the compiler plugin's `<release>` / `<source>`) is a
 * runtime, as Gradle's toolchain is. The project's own artifact id is a declared name (HEAD only).
 */
export function parseMavenPom(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'maven', deps: [], problems: [] };
  if (text.length > MAX_POM_BYTES) {
    out.problems.push({ message: `larger than ${MAX_POM_BYTES} bytes, not read` });
    return out;
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    out.problems.push({ message: `invalid XML: ${valid.err.msg}`, line: valid.err.line });
    return out;
  }
  const project = obj(obj(POM_PARSER.parse(text))?.project);
  if (!project) {
    out.problems.push({ message: 'has no <project> element' });
    return out;
  }
  const parent = obj(project.parent);
  const props = new Map<string, string>();
  for (const [k, v] of Object.entries(obj(project.properties) ?? {})) {
    const s = pomText(v);
    if (s !== undefined) props.set(k, s);
  }
  const own = pomText(project.version) ?? pomText(parent?.version);
  if (own !== undefined) {
    props.set('project.version', own);
    props.set('version', own);
  }
  const parentVersion = pomText(parent?.version);
  if (parentVersion !== undefined) props.set('project.parent.version', parentVersion);
  // sibling modules are often declared through the project's own coordinates (`${project.groupId}`)
  const ownGroup = pomText(project.groupId) ?? pomText(parent?.groupId);
  if (ownGroup !== undefined) props.set('project.groupId', ownGroup);
  const ownArtifact = pomText(project.artifactId);
  if (ownArtifact !== undefined) props.set('project.artifactId', ownArtifact);
  // `${a}` through the properties, a property naming another resolved too (bounded: a cycle stops).
  // Bounded both ways: 5 levels (a cycle stops), MAX_PROPERTY_VALUE characters (each level may
  // multiply the length: `${a}` -> `${b}${b}…`); past either the value is unresolved.
  const resolve = (s: string | undefined): string => {
    let v = s ?? '';
    for (let depth = 0; depth < 5 && v.includes('${'); depth++) {
      let long = false;
      v = v.replace(/\$\{([\w.-]+)\}/g, (whole, k: string) => {
        const r = long ? whole : (props.get(k) ?? whole);
        if (r.length > MAX_PROPERTY_VALUE) long = true;
        return long ? '' : r;
      });
      if (long || v.length > MAX_PROPERTY_VALUE) return '';
    }
    return v.includes('${') ? '' : v;
  };
  const seen = new Set<string>();
  const addCoord = (node: unknown, field: string, defaultGroup?: string) => {
    const o = obj(node);
    const artifact = resolve(pomText(o?.artifactId));
    const group = resolve(pomText(o?.groupId)) || defaultGroup || '';
    if (!o || !group || !artifact || !/^[\w.-]+$/.test(group) || !/^[\w.-]+$/.test(artifact)) return;
    if (seen.has(`${group}:${artifact}`)) return;
    seen.add(`${group}:${artifact}`);
    const version = resolve(pomText(o.version));
    addLibrary(out, group, artifact, version, field);
    // the library's family, as prose names it ("Mockito", "Jackson", "Hibernate"): followed too, in a
    // field of its own (a swap pairs artifacts with artifacts, families with families)
    const fam = defaultGroup === undefined && field !== 'extensions' && field !== 'plugin dependencies' ? familyOf(group, artifact, ownGroup) : undefined;
    if (fam && !families.has(fam)) {
      families.add(fam);
      out.deps.push({ name: fam, spec: version, field: MAVEN_FAMILY_FIELD });
    }
  };
  const families = new Set<string>();
  const java = new Set<string>();
  const addJava = (v: string | undefined) => {
    const s = resolve(v);
    if (/^(?:1\.\d|\d{1,2})$/.test(s)) java.add(s);
  };
  const readBuild = (build: Record<string, unknown> | undefined) => {
    if (!build) return;
    const plugins = [...list(obj(build.plugins)?.plugin), ...list(obj(obj(build.pluginManagement)?.plugins)?.plugin)];
    for (const p of plugins) {
      // Maven finds a goal prefix (`mvn dependency:tree`) in these groups without any declaration:
      // such a plugin's field says so, and its goals outlive its removal from the POM.
      const group = pomText(obj(p)?.groupId) ?? 'org.apache.maven.plugins';
      addCoord(p, MAVEN_DEFAULT_GROUPS.has(group) ? MAVEN_DEFAULT_GROUP_FIELD : 'plugins', 'org.apache.maven.plugins');
      const po = obj(p);
      if (pomText(po?.artifactId) === 'maven-compiler-plugin') {
        const conf = obj(po?.configuration);
        addJava(pomText(conf?.release) ?? pomText(conf?.source));
        // annotation processors (`mapstruct-processor`, `lombok`): moved here from <dependencies>
        // since JDK 23 stopped running processors found on the class path
        for (const path of list(obj(conf?.annotationProcessorPaths)?.path)) addCoord(path, 'annotationProcessorPaths');
      }
      // a plugin's own dependencies (a formatter's rules, a generator's templates)
      for (const d of list(obj(po?.dependencies)?.dependency)) addCoord(d, 'plugin dependencies');
    }
    for (const e of list(obj(build.extensions)?.extension)) addCoord(e, 'extensions');
  };
  const readBody = (body: Record<string, unknown>) => {
    for (const d of list(obj(body.dependencies)?.dependency)) addCoord(d, pomText(obj(d)?.scope) || 'compile');
    for (const d of list(obj(obj(body.dependencyManagement)?.dependencies)?.dependency)) addCoord(d, 'dependencyManagement');
    readBuild(obj(body.build));
  };
  if (parent) addCoord(parent, 'parent');
  readBody(project);
  for (const profile of list(obj(project.profiles)?.profile)) {
    const p = obj(profile);
    if (p) readBody(p);
  }
  addJava(props.get('maven.compiler.release') ?? props.get('maven.compiler.source') ?? props.get('maven.compiler.target'));
  addJava(props.get('java.version'));
  if (java.size) out.runtimes = [...java].map((spec) => ({ name: 'java', spec }));
  const artifact = pomText(project.artifactId);
  if (artifact && /^[\w.-]+$/.test(artifact)) presenceOnly(out, [artifact], 'project');
  return out;
}
