// version-drift: a stated version of a runtime ("Node 18+", "Python 3.9-3.13"), a
// dependency ("React 17", "vitest 1.x") or the project itself ("v0.2.0") that no longer
// matches the manifests. Dependencies: a major (for 0.x: minor) mismatch. Runtimes: the
// stated minimum against the declared minimum, at the precision written.
import type { Check, CheckContext, Entry, Evidence, Finding, Reference } from '../types.js';
import { isFeatureVersion } from '../memory/refs/prose.js';
import { checkable, finding, memDirOf, refsOf } from './stale-common.js';

const RUNTIMES = new Set(['node', 'python', 'go', 'rust', 'ruby', 'deno']);
/**
 * Runtimes and tools whose version is declared in several places, each possibly in use at once:
 * a statement is compared with every declaration that applies (see `declared`), and is right when
 * it matches any of them. Package managers (`packageManager`, `engines`, volta, .tool-versions),
 * PHP (composer.json `require.php`), Elixir (mix.exs `elixir:`), Java (Gradle toolchains and source
 * levels, .tool-versions), .NET (global.json's SDK, `<TargetFramework(s)>`), Swift (swift-tools-version).
 */
const DECLARED_MANY = new Set(['yarn', 'pnpm', 'npm', 'bun', 'php', 'elixir', 'java', 'dotnet', 'dotnet-tfm', 'swift', 'swift-tools']);
/**
 * Of those, the ones a folder declares for itself and its subfolders (a `packageManager` field, a
 * composer.json, a mix.exs): a memory file is read against the nearest such folder at or above it
 * when there is one. Java and .NET are declared per module / project, none above another (a root
 * global.json's SDK builds a `net8.0` project): any declaration may be the one meant.
 */
const NEAREST = new Set(['yarn', 'pnpm', 'npm', 'bun', 'php', 'elixir']);
/** The declared runtime names a subject is read against. */
const SOURCES = new Map<string, string[]>(Object.entries({ dotnet: ['dotnet', 'dotnet-tfm'], 'dotnet-tfm': ['dotnet-tfm'], 'swift-tools': ['swift'] }));
/** Runtime -> its name in messages. A Map: the subject comes from memory text and must never read Object.prototype. */
const RUNTIME_LABEL = new Map<string, string>(
  Object.entries({
    node: 'Node.js', python: 'Python', go: 'Go', rust: 'Rust', ruby: 'Ruby', java: 'Java', deno: 'Deno', bun: 'Bun', php: 'PHP',
    yarn: 'Yarn', pnpm: 'pnpm', npm: 'npm', elixir: 'Elixir', dotnet: '.NET', 'dotnet-tfm': '.NET', swift: 'Swift', 'swift-tools': 'Swift tools',
  }),
);
/**
 * Frameworks whose package's own short name is a generic word (`laravel/framework`'s `framework`,
 * so the dependency is indexed under its full name only): the brand -> the packages that carry its
 * version, the first one declared is read.
 */
const FRAMEWORK_PACKAGES = new Map<string, string[]>(
  Object.entries({
    laravel: ['laravel/framework'],
    symfony: ['symfony/framework-bundle', 'symfony/symfony', 'symfony/http-kernel'],
    lumen: ['laravel/lumen-framework'],
    // Maven's parent or BOM, Gradle's plugin (followed as `boot`, the last part of its id)
    'spring-boot': ['spring-boot-starter-parent', 'spring-boot-dependencies', 'spring-boot-gradle-plugin', 'boot'],
    kotlin: ['kotlin-stdlib', 'kotlin-maven-plugin', 'kotlin-gradle-plugin', 'org.jetbrains.kotlin.jvm', 'org.jetbrains.kotlin.android', 'org.jetbrains.kotlin.multiplatform'],
  }),
);
/** Subjects that name another: a JDK's version is the Java version (`JDK 17`, `OpenJDK 17`, `Temurin 17`). */
const SUBJECT_OF = new Map<string, string>(Object.entries({ jdk: 'java', openjdk: 'java', temurin: 'java', corretto: 'java' }));
/** Two-word names, of which the prose reader keeps the last word as the subject (`Spring Boot 3` -> `boot`). */
const TWO_WORD_SUBJECTS = new Map<string, string>(Object.entries({ 'spring boot': 'spring-boot' }));
/** The word right before a version's subject (`Spring` of `Spring Boot 3`). */
const WORD_BEFORE = /([A-Za-z][\w.-]*)\s+$/;
/** Spellings the prose reader keeps as they are: the Swift tools version (`swift-tools-version 5.9`). */
const SUBJECT_SPELLING = new Map<string, string>(Object.entries({ 'swift-tools-version': 'swift-tools' }));

/**
 * Right after a version: the layout or style that release introduced ("the Laravel 10 structure",
 * "Rails 6-style autoloading", "Angular 14 conventions"): a way of doing things named after a release,
 * true whatever version the project is on now (an app upgraded to Laravel 11 may keep the Laravel 10
 * structure on purpose).
 */
/** Words right before a version the project moved away from ("upgraded from", "migrated off", "coming from"). */
const LEFT_BEFORE = /\b(?:(?:upgrad|migrat|mov|switch|port|convert)(?:e|ed|es|ing)?\s+(?:away\s+)?(?:from|off(?:\s+of)?)|coming\s+from|moving\s+off|was\s+on|were\s+on|used\s+to\s+(?:be\s+on|run|use))\s+(?:the\s+)?$/i;
/**
 * Words right before a version the project is heading for ("preparing for Pest 4", "migrating to
 * Laravel 12", "ahead of Node 24"): a plan, not the version in use; "correcting" it would write
 * the current one into a sentence about the next.
 */
const AHEAD_BEFORE = /\b(?:prepar(?:e|es|ing)\s+(?:for|to\s+(?:move|upgrade|migrate|switch)\s+to)|in\s+preparation\s+for|(?:upgrad|migrat|mov|switch|port)(?:e|es|ing)\s+to|plan(?:s|ned|ning)?\s+(?:for|to\s+(?:move|upgrade|migrate|switch)\s+to)|will\s+(?:move|upgrade|migrate|switch)\s+to|ahead\s+of|targeting|blocked\s+on|waiting\s+(?:for|on)|once\s+we(?:'re|\s+are)\s+on)\s+(?:the\s+)?$/i;
const STYLE_AFTER = /^(?:-style\b|\s+(?:(?:app|application|project|directory|folder|file)\s+)?(?:structure|style|skeleton|layout|conventions?|idioms?|era|compat(?:ibility)?(?:\s+mode)?)\b)/i;

/**
 * Longest run of digits read as one version component. Real components (years, build numbers
 * included: 20240115) fit; a longer run is not a version (a hash, an id, a hostile manifest's
 * `npm@999…`) and would lose precision or become Infinity as a JS number, then be written back
 * into memory as a "correction".
 */
const MAX_COMPONENT_DIGITS = 9;

export function parseVersion(s: string): number[] | null {
  const m = /v?(\d+(?:\.\d+){0,3})/.exec(s);
  if (!m) return null;
  const parts = m[1].split('.');
  if (parts.some((p) => p.length > MAX_COMPONENT_DIGITS)) return null;
  return parts.map(Number);
}

/** Longest manifest value (spec, version, file name) echoed in a message or in `evidence`. */
const MAX_ECHO = 80;

/**
 * A value read from a manifest, for a message: cut at MAX_ECHO characters with "…". Manifest
 * values are untrusted (a `packageManager` of megabytes would make a megabyte report line).
 */
export function clip(v: string): string {
  return v.length > MAX_ECHO ? `${v.slice(0, MAX_ECHO)}…` : v;
}

/** The lowest version a spec admits (`>=3.10` -> 3.10, `^18.2` -> 18.2, `18 || 20` -> 18). */
const lbCache = new Map<string, number[] | null>();

export function lowerBound(spec: string): number[] | null {
  const hit = lbCache.get(spec);
  if (hit !== undefined) return hit ? [...hit] : null;
  const v = computeLowerBound(spec);
  // Long specs are not kept: the cache must not pin a hostile manifest's megabyte value.
  if (lbCache.size < 10_000 && spec.length <= 256) lbCache.set(spec, v ? [...v] : null);
  return v;
}

function computeLowerBound(spec: string): number[] | null {
  let best: number[] | null = null;
  for (const alt of spec.split(/\|\|?/)) {
    const parts = alt.trim().split(/[\s,]+/).filter(Boolean);
    let lb: number[] | null = null;
    for (let k = 0; k < parts.length; k++) {
      let p = parts[k];
      if (/^(>=|>|\^|~=|~|==|=)$/.test(p) && parts[k + 1]) p = p + parts[++k];
      if (/^</.test(p) || /^!=/.test(p)) continue;
      const v = parseVersion(p.replace(/^(>=|>|\^|~=|~|===|==|=)/, ''));
      if (!v) continue;
      if (/^>[^=]/.test(p)) v[v.length - 1] += 0; // exclusive bound: keep as written
      lb = v;
      break;
    }
    if (lb && (!best || compare(lb, best) < 0)) best = lb;
  }
  return best;
}

export function compare(a: number[], b: number[]): number {
  const n = Math.max(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const d = (a[k] ?? 0) - (b[k] ?? 0);
    if (d) return d;
  }
  return 0;
}

function truncate(v: number[], n: number): number[] {
  const out = v.slice(0, n);
  while (out.length < n) out.push(0);
  return out;
}

/** Major, or major.minor for 0.x. */
function line(v: number[]): string {
  return v[0] === 0 ? `0.${v[1] ?? 0}` : String(v[0]);
}

/** A list of versions as the reader keeps it in `version` ("17 and 25", "3.10, 3.11"). */
const VERSION_LIST = /,|\s(?:and|or|&)\s/;

/**
 * Whether a declared runtime spec is a lower bound (an operator, a `||` union, a hyphen range) rather
 * than one pinned version (`.nvmrc`, `.python-version`, `.tool-versions`, volta): go.mod's `go`
 * directive is the minimum Go the module needs, written bare.
 */
function isFloor(spec: string, source: string): boolean {
  return /[<>^~|*]|\s-\s|\.x\b/.test(spec) || /(?:^|\/)go\.mod$/.test(source);
}

export function checkVersionRef(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  if (ref.kind !== 'version' || !ref.subject || !ref.version) return null;
  // "Java 17 and 25", "Node 18, 20 or 22" (the reader keeps the whole list in `version`): a support
  // matrix, not the one version a manifest declares. Any of its members may be right, and a correction
  // of one member ("Java 21 and 25", "Node 22 and 22") would be wrong: never compared.
  if (VERSION_LIST.test(ref.version)) return null;
  const raw = ref.version.replace(/\+$/, '');
  const [loText] = raw.split(/\s?(?:-|–|to)\s?/);
  const stated = parseVersion(loText);
  if (!stated) return null;
  let subject = SUBJECT_SPELLING.get(ref.subject) ?? SUBJECT_OF.get(ref.subject) ?? ref.subject;
  if (entry.text && ref.start > entry.start) {
    const before = WORD_BEFORE.exec(entry.text.slice(Math.max(0, ref.start - entry.start - 30), ref.start - entry.start))?.[1];
    const two = before ? TWO_WORD_SUBJECTS.get(`${before.toLowerCase()} ${subject}`) : undefined;
    if (two) subject = two;
    // A product named with its language ("Pest PHP 3.8+", "Mongoid Ruby 9"): the capitalised word
    // before is a dependency declared now, whose version this is (not PHP's).
    else if (before && /^[A-Z][a-z]/.test(before) && before.toLowerCase() !== subject && ev.manifests.dependencies.has(before.toLowerCase())) subject = before.toLowerCase();
  }
  const written = ref.raw;
  // "keeps the Laravel 10 structure": a style named after a release, not the version in use.
  if (entry.text && ref.end > entry.start && STYLE_AFTER.test(entry.text.slice(ref.end - entry.start, ref.end - entry.start + 40))) return null;
  // "This project upgraded from Laravel 10", "migrated off Node 16": the version the project left,
  // true whatever it is on now (rewriting it would falsify the history it tells).
  if (entry.text && ref.start >= entry.start && LEFT_BEFORE.test(entry.text.slice(Math.max(0, ref.start - entry.start - 40), ref.start - entry.start))) return null;
  // "preparing for Pest 4": the version the project is heading for.
  if (entry.text && ref.start >= entry.start && AHEAD_BEFORE.test(entry.text.slice(Math.max(0, ref.start - entry.start - 40), ref.start - entry.start))) return null;

  if (subject === '(project)') {
    const roots = ev.manifests.projectVersions.filter((p) => !p.manifest.includes('/'));
    if (roots.length !== 1) return null;
    const cur = parseVersion(roots[0].version);
    if (!cur || line(cur) === line(stated)) return null;
    return finding(
      entry, ref, 'version-drift', 'warning',
      `\`${written}\` is out of date: \`${clip(roots[0].manifest)}\` says the project is at version ${clip(roots[0].version)}; update the version.`,
      { now: clip(roots[0].version), manifest: roots[0].manifest },
      { replace: written.replace(loText, (loText.startsWith('v') ? 'v' : '') + roots[0].version) },
    );
  }

  if (subject === 'rust-msrv') return checkMsrv(entry, ref, ev, stated, loText);

  if (DECLARED_MANY.has(subject)) {
    const f = checkDeclared(entry, ref, ev, subject, stated, raw, loText);
    if (f !== undefined) return f;
  }

  if (RUNTIMES.has(subject)) {
    const rt = ev.manifests.runtimes.get(subject);
    if (!rt) return null;
    const lb = lowerBound(rt.spec);
    if (!lb) return null;
    const prec = Math.min(stated.length, 3);
    const lbT = truncate(lb, prec);
    const st = truncate(stated, prec);
    const span = /[-–]|to/.test(raw);
    // "Node 20–22" is the range the project is tested on; a pinned version (`.nvmrc` 22, `.tool-versions`
    // java 21) is the one a developer runs, which any range member may be: only a declared floor
    // (`>=3.10`, `^20`, go.mod's `go 1.22`) is the range's lower end.
    if (span && !isFloor(rt.spec, rt.source)) return null;
    const ranged = ref.bound === 'atLeast' || span;
    const drift = ranged ? compare(st, lbT) !== 0 : compare(st, lbT) < 0;
    if (!drift) return null;
    const label = RUNTIME_LABEL.get(subject) ?? subject;
    const newText = lbT.join('.');
    return finding(
      entry, ref, 'version-drift', 'warning',
      `\`${written}\` no longer matches the project: \`${clip(rt.source)}\` requires ${label} \`${clip(rt.spec)}\`; update the stated version to ${newText}${ranged ? '+' : ''}.`,
      { now: clip(rt.spec), source: rt.source, runtime: subject },
      { replace: written.replace(loText.replace(/^v/, ''), newText) },
    );
  }

  let deps = ev.manifests.dependencies.get(subject.toLowerCase());
  let pkg = subject;
  // A framework's own packages carry its version, first (`kotlin-maven-plugin` at `${kotlin.version}`
  // beside a BOM-managed `kotlin-stdlib`); else the name itself, declared with a version.
  const framework = FRAMEWORK_PACKAGES.get(subject.toLowerCase());
  if (framework || !deps || !deps.some((d) => !!d.spec || !!d.locked)) {
    const own = deps;
    deps = undefined;
    for (const name of framework ?? []) {
      // The full name carries the version when the short one is generic (`laravel/framework`);
      // else the full name is another spelling and the short one (`framework-bundle`) of the same
      // manifest carries it.
      const full = ev.manifests.dependencies.get(name) ?? [];
      deps = full.filter((d) => !!d.spec || !!d.locked);
      if (!deps.length && full.length) {
        const there = new Set(full.map((d) => d.manifest));
        deps = (ev.manifests.dependencies.get(name.slice(name.indexOf('/') + 1)) ?? []).filter((d) => there.has(d.manifest) && (!!d.spec || !!d.locked));
      }
      pkg = name;
      if (deps.length) break;
    }
    if (!deps?.length) {
      deps = own;
      pkg = subject;
    }
  }
  if (!deps || !deps.length) return null;
  // A declaration without a version (a BOM or parent manages it: `junit-jupiter` under Spring Boot's
  // parent) may be at any version: the statement cannot be said wrong.
  if (deps.some((d) => !d.spec && !d.locked)) return null;
  // The version in use: the lockfile's, else the lowest the spec admits; the highest across manifests.
  let cur: number[] | null = null;
  let curText = '';
  let where = '';
  let sameLine = false;
  const onLine = (v: number[]) => (stated.length === 1 || stated[0] !== 0 ? v[0] === stated[0] : line(v) === line(stated));
  for (const d of deps) {
    let v = d.locked ? parseVersion(d.locked) : /^(workspace|catalog|link|file|git|github|npm):/.test(d.spec) ? null : lowerBound(d.spec);
    // Alternatives (`^11.31|^12.0`, `^2 || ^3`): the statement holds for any of them, and the
    // correction names the newest line the manifest allows.
    if (v && !d.locked && /\|/.test(d.spec)) {
      const alts = d.spec.split(/\|\|?/).map((a) => lowerBound(a)).filter((a): a is number[] => !!a);
      if (alts.some(onLine)) sameLine = true;
      v = alts.reduce((a, b) => (compare(b, a) > 0 ? b : a), v);
    }
    if (v && onLine(v)) sameLine = true;
    if (v && (!cur || compare(v, cur) > 0)) {
      cur = v;
      curText = d.locked ?? d.spec;
      where = d.manifest;
    }
  }
  if (!cur) return null;
  // One declaration on the stated line (JUnit 4 beside JUnit 5 during a migration, two workspace
  // packages on different majors): the statement holds for that one.
  if (sameLine) return null;
  if (stated.length === 1 || stated[0] !== 0) {
    if (stated[0] === cur[0]) return null;
  } else if (line(stated) === line(cur)) return null;
  if (ref.bound === 'atLeast' && compare(cur, stated) >= 0 && stated[0] !== 0) {
    // "React 17+" is still true of React 18 — unless the memory pins the old line.
    return null;
  }
  const newText = cur[0] === 0 ? `0.${cur[1] ?? 0}` : String(cur[0]);
  // The version as the replacement writes it, at the precision written ("Prisma 5.4.1" becomes
  // "Prisma 6.14.0"; "vitest 1.x" becomes "vitest 3.x": the written wildcard stays): the message
  // names the same version the correction writes.
  const to = stated.length > 1 ? cur.slice(0, stated.length).join('.') : newText + (/(?:\.[xX*])+$/.exec(loText)?.[0] ?? '');
  return finding(
    entry, ref, 'version-drift', 'warning',
    `\`${written}\` is out of date: \`${clip(where)}\` uses ${clip(pkg)} ${clip(curText)}; update the version to ${to}.`,
    { now: clip(curText), manifest: where, package: pkg },
    { replace: written.replace(loText, (loText.startsWith('v') ? 'v' : '') + to) },
  );
}

/**
 * A Rust floor statement in Cargo's words (`MSRV 1.89`, "minimum supported Rust version: 1.89",
 * `rust-version = "1.89"`) against every Cargo manifest's `rust-version` (`[package]` or
 * `[workspace.package]`), at the precision written: right when it equals any of them. Nothing is said
 * without one (a toolchain file pins the compiler a developer runs, not the minimum the crate supports).
 */
function checkMsrv(entry: Entry, ref: Reference, ev: Evidence, stated: number[], loText: string): Finding | null {
  let cands = (ev.manifests.runtimeAll ?? []).filter((r) => r.name === 'rust' && /(?:^|\/)Cargo\.toml$/.test(r.source) && lowerBound(r.spec));
  if (!cands.length) return null;
  // A memory file inside a member crate speaks of that crate: the nearest Cargo.toml at or above
  // its folder that sets one, when that is below the workspace's own. At the workspace root the
  // memory may name any crate's (`acme-cli` has MSRV 1.80): any declaration holds.
  const memDir = dirOf(entry.file);
  let nearest = -1;
  let shallowest = Infinity;
  for (const c of cands) {
    const d = dirOf(c.source);
    shallowest = Math.min(shallowest, depthOf(d));
    if (atOrAbove(d, memDir)) nearest = Math.max(nearest, depthOf(d));
  }
  if (nearest > shallowest) cands = cands.filter((c) => atOrAbove(dirOf(c.source), memDir) && depthOf(dirOf(c.source)) === nearest);
  const prec = Math.min(stated.length, 3);
  const st = truncate(stated, prec);
  const fixes = new Set<string>();
  for (const c of cands) {
    const lbT = truncate(lowerBound(c.spec)!, prec);
    if (compare(st, lbT) === 0) return null;
    fixes.add(lbT.join('.'));
  }
  const first = cands[0]!;
  const newText = fixes.size === 1 ? [...fixes][0]! : undefined;
  const others = cands.length > 1 ? ` (and ${cands.length - 1} more declaration${cands.length > 2 ? 's' : ''})` : '';
  const written = ref.raw;
  return finding(
    entry, ref, 'version-drift', 'warning',
    `\`${written}\` no longer matches the project: \`${clip(first.source)}\` sets \`rust-version\` to \`${clip(first.spec)}\`${others}; ` +
      (newText ? `update the stated version to ${newText}.` : 'update the stated version.'),
    { now: clip(first.spec), source: first.source, runtime: 'rust' },
    newText ? { replace: written.replace(loText.replace(/^v/, ''), newText) } : undefined,
  );
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const depthOf = (d: string) => (d === '' ? 0 : d.split('/').length);
const atOrAbove = (d: string, dir: string) => d === '' || dir === d || dir.startsWith(d + '/');

/**
 * A statement about a runtime or tool declared in several places (DECLARED_MANY), against each
 * declaration that applies: right when it matches any. A pinned declaration (`packageManager`
 * `yarn@4.9.1`, `jvmToolchain(21)`, `net10.0`, global.json `10.0.100`) is the version in use: an exact
 * statement must name it at the precision written, "X+" must not exclude it. A floor (`^8.4`,
 * `~> 1.18`, swift-tools-version) is read like `engines` (see checkVersionRef). When every declaration
 * disagrees, the finding names the first; the correction is written only when they all give the
 * same new version. `undefined` when nothing is declared (the caller reads dependencies), `null`
 * when the statement holds.
 */
function checkDeclared(entry: Entry, ref: Reference, ev: Evidence, subject: string, stated: number[], raw: string, loText: string): Finding | null | undefined {
  const names = SOURCES.get(subject) ?? [subject];
  let cands = (ev.manifests.runtimeAll ?? []).filter((r) => names.includes(r.name) && lowerBound(r.spec));
  if (!cands.length) return undefined;
  if (NEAREST.has(subject)) {
    const dir = memDirOf(entry.file);
    const above = cands.filter((c) => atOrAbove(dirOf(c.source), dir));
    if (above.length) {
      const nearest = Math.max(...above.map((c) => depthOf(dirOf(c.source))));
      cands = above.filter((c) => depthOf(dirOf(c.source)) === nearest);
    }
  }
  // Java's old level spelling: `1.8` is Java 8 (`<java.version>1.8`, `VERSION_1_8`, "Java 1.8"), on both sides.
  const level = (v: number[]) => (subject === 'java' && v[0] === 1 && v.length >= 2 && v[1]! >= 2 ? v.slice(1) : v);
  stated = level(stated);
  const prec = Math.min(stated.length, 3);
  const st = truncate(stated, prec);
  const span = /[-–]|to/.test(raw);
  const ranged = ref.bound === 'atLeast' || span;
  const fixes = new Set<string>();
  let first: { spec: string; source: string; name: string } | undefined;
  for (const c of cands) {
    // The Swift tools version written as such is the exact line of Package.swift, not a floor.
    const floor = subject !== 'swift-tools' && isFloor(c.spec, c.source);
    // "Java 17–21" against a pinned version: the range a project is tested on, any member may be in use.
    if (span && !floor) return null;
    const lbT = truncate(level(lowerBound(c.spec)!), prec);
    const cmp = compare(st, lbT);
    const drift = floor ? (ranged ? cmp !== 0 : cmp < 0) : ranged ? cmp > 0 : cmp !== 0;
    if (!drift) return null;
    fixes.add(lbT.join('.'));
    first ??= c;
  }
  if (!first) return null;
  const label = RUNTIME_LABEL.get(subject) ?? subject;
  const written = ref.raw;
  const newText = fixes.size === 1 ? [...fixes][0]! : undefined;
  const others = cands.length > 1 ? ` (and ${cands.length - 1} more declaration${cands.length > 2 ? 's' : ''})` : '';
  return finding(
    entry, ref, 'version-drift', 'warning',
    `\`${written}\` no longer matches the project: \`${clip(first.source)}\` declares ${label} \`${clip(first.spec.replace(/^>=/, ''))}\`${others}; ` +
      (newText ? `update the stated version to ${newText}${ranged ? '+' : ''}.` : 'update the stated version.'),
    { now: clip(first.spec), source: first.source, runtime: subject },
    newText ? { replace: written.replace(loText.replace(/^v/, ''), newText) } : undefined,
  );
}

/** `.NET 8`, `.NET Core 3.1`, `.NET 8+` (the prose reader takes no subject starting with a dot). */
const DOTNET_RE = /(?<![\w.])\.NET(?:\s+Core)?\s+(\d+(?:\.\d+)?)(\+|\s+or\s+(?:later|newer|higher|above))?(?![\w.]*\d)(?![\w/-])/g;
/** A target framework moniker: `net8.0` (.NET 5+, a platform suffix `-android` allowed after), `netcoreapp3.1`. */
const TFM_RE = /(?<![\w.-])(net(?:coreapp)?)(\d+\.\d+)(?=-[a-z]|(?![\w.]))/gi;
/** The Swift tools version: "Swift tools version 5.9", `swift-tools-version:5.9`. */
const SWIFT_TOOLS_RE = /\b(?:Swift tools version|swift-tools-version)\s*:?\s*(\d+\.\d+(?:\.\d+)?)(?![\w.]*\d)/gi;
/** A Gradle JVM setting quoted in memory: `jvmToolchain(17)`, `JavaLanguageVersion.of(17)`, `JavaVersion.VERSION_17`. */
const JAVA_CODE_RE = /\b(?:(?:jvmToolchain|JavaLanguageVersion\.of)\s*\(\s*(\d{1,2})\s*\)|JavaVersion\.VERSION_(\d{1,2})\b(?!_))/g;
/** Right after a version: another member of a list ("`.NET 8 and 10`", "`net8.0;net10.0`"): a support matrix. */
const LIST_AFTER = /^\s*(?:[,;/&]|\band\b|\bor\b)\s*(?:\.NET(?:\s+Core)?\s+|net(?:coreapp)?)?\d/i;
/** Right before a version: the previous member of a list. */
const LIST_BEFORE = /\d(?:\.\d+)*\+?\s*(?:[,;/&]|\band|\bor)\s*(?:\.NET(?:\s+Core)?\s+)?$/i;

/**
 * Version statements the prose reader does not take (a subject with a leading dot, a moniker, a
 * setting quoted from a build script), read here the way it reads the others: lists and feature
 * statements ("since .NET 8", ".NET 8 introduced …") are skipped, fenced code is not read.
 */
/** The runtimes the statements of `extraVersionRefs` are compared with. */
const EXTRA_RUNTIMES = new Set(['dotnet', 'dotnet-tfm', 'java', 'swift']);

export function extraVersionRefs(entry: Entry): Reference[] {
  const text = entry.text;
  if (entry.kind === 'code' || !/\d/.test(text)) return [];
  if (!/\.NET|net(?:coreapp)?\d|swift[- ]tools[- ]version|jvmToolchain|JavaLanguageVersion|JavaVersion\./i.test(text)) return [];
  const fenced = entry.spans.filter((s) => s.kind === 'code');
  const inFence = (i: number) => fenced.some((s) => s.start <= entry.start + i && entry.start + i < s.end);
  const taken = entry.refs.filter((r) => r.kind === 'version');
  const out: Reference[] = [];
  const add = (s: number, e: number, subject: string, version: string, bound: Reference['bound'], prose: boolean) => {
    if (inFence(s)) return;
    const at = entry.start + s;
    if (taken.some((r) => r.start < entry.start + e && at < r.end)) return;
    if (out.some((r) => r.start < entry.start + e && at < r.end)) return;
    if (prose && (LIST_AFTER.test(text.slice(e, e + 24)) || LIST_BEFORE.test(text.slice(Math.max(0, s - 24), s)) || isFeatureVersion(text, s, e))) return;
    let line = entry.line;
    for (let i = text.indexOf('\n'); i >= 0 && i < s; i = text.indexOf('\n', i + 1)) line++;
    const raw = text.slice(s, e);
    out.push({ kind: 'version', raw, value: version.replace(/\+$/, ''), line, start: at, end: entry.start + e, in: 'prose', subject, version, bound });
  };
  let m: RegExpExecArray | null;
  for (DOTNET_RE.lastIndex = 0; (m = DOTNET_RE.exec(text)); ) {
    add(m.index, m.index + m[0].length, 'dotnet', m[1]! + (m[2] ? '+' : ''), m[2] ? 'atLeast' : 'exact', true);
  }
  for (TFM_RE.lastIndex = 0; (m = TFM_RE.exec(text)); ) {
    // .NET 5 and later are `netX.Y`; `net4.8`-style names are .NET Framework, no .NET version.
    if (m[1]!.toLowerCase() === 'net' && Number(m[2]!.split('.')[0]) < 5) continue;
    add(m.index, m.index + m[0].length, 'dotnet-tfm', m[2]!, 'exact', true);
  }
  for (SWIFT_TOOLS_RE.lastIndex = 0; (m = SWIFT_TOOLS_RE.exec(text)); ) add(m.index, m.index + m[0].length, 'swift-tools', m[1]!, 'exact', false);
  for (JAVA_CODE_RE.lastIndex = 0; (m = JAVA_CODE_RE.exec(text)); ) add(m.index, m.index + m[0].length, 'java', m[1] ?? m[2]!, 'exact', false);
  return out;
}

export const versionCheck: Check = {
  id: 'version',
  kinds: ['version-drift'],
  severity: 'warning',
  description: 'Stated runtime, dependency and project versions that no longer match the manifests and lockfiles.',
  run(ctx: CheckContext): Finding[] {
    const out: Finding[] = [];
    // The statements only extraVersionRefs reads (.NET, Java, Swift) are compared with declared
    // runtimes: a project declaring none of them has nothing to compare them with.
    const extra = (ctx.evidence.manifests.runtimeAll ?? []).some((r) => EXTRA_RUNTIMES.has(r.name));
    if (!extra) {
      const { entries, refs } = refsOf(ctx.entries, 'version');
      for (let i = 0; i < refs.length; i++) {
        const f = checkVersionRef(entries[i]!, refs[i]!, ctx.evidence);
        if (f) out.push(f);
      }
      return out;
    }
    for (const entry of ctx.entries) {
      if (!checkable(entry)) continue;
      for (const ref of entry.refs) {
        if (ref.kind !== 'version') continue;
        const f = checkVersionRef(entry, ref, ctx.evidence);
        if (f) out.push(f);
      }
      if (extra) for (const ref of extraVersionRefs(entry)) {
        const f = checkVersionRef(entry, ref, ctx.evidence);
        if (f) out.push(f);
      }
    }
    return out;
  },
};
