// package-missing / package-renamed: a dependency or tool named in memory that some
// manifest had at some point and none has now. Renamed when the commit that removed it
// swapped it one for one: it added exactly one other dependency to the same manifest and
// field, and removed only this one (or only variants of one family: `moment` +
// `moment-timezone` -> `dayjs`). Anything else has no single successor. A workspace package's
// own name (`[package] name`, `[project] name`, package.json `name`) dropped by a commit that
// set another name in the same manifest (or where that commit moved it) was renamed to it.
import type { Check, CheckContext, Entry, Evidence, Finding, PackageHistoryEvent, Reference } from '../types.js';
import { renamedOwnName } from '../evidence/manifests.js';
import { manifestKind } from '../evidence/manifests/kinds.js';
import { dependsOn, reachableFrom } from '../evidence/manifests/lock-graph.js';
import { joinPath } from '../memory/refs/paths.js';
import { goPathPrefixes, goShortName, isGoPath } from '../memory/refs/gomod.js';
import { checkable, describedAsPast, commitEvidence, describeCommit, exists, finding, memDirOf, namesSuccessor } from './stale-common.js';
import { FRAMEWORK_PROVIDES, MODULE_REFS, moduleNames, moduleRef, moduleRegExp, moduleSpellings, namesSuccessorPart, type ModuleName } from './package-modules.js';

interface SwapIndex {
  /** `${sha}\0${manifest}` -> names added / removed by that commit in that manifest. */
  added: Map<string, Set<string>>;
  removed: Map<string, Set<string>>;
  /** Workspace package names (lower-cased) at HEAD. */
  workspaceNames: Set<string>;
  projectNames: Set<string>;
  /**
   * Per name as written: its removal history, or null when a reference to it cannot be stale
   * (declared now, never declared, or never removed). Prose yields tens of thousands of
   * package-like words over a few hundred distinct names: each name is looked up once.
   */
  removedNames: Map<string, Removed | null>;
  /** Per name as written: its rename by its own manifest (`ownRename`), or null. */
  renames: Map<string, OwnRename | null>;
  /** Per Go import path / short name (`lookupName`): the name it is looked up by. */
  goNames: Map<string, string>;
  /** Short name (`goShortName`) -> modules any go.mod of the history required; made on first use. */
  goShort?: Map<string, string[]>;
  /** Per name: whether it is a bare word cut from a namespaced coordinate (`namespacedWord`). */
  namespaced: Map<string, boolean>;
  /** Per program name: the dependency that extended it and its removal, once all such are gone (`goneExtender`). */
  extenders: Map<string, { dep: string; removal: PackageHistoryEvent } | null>;
  /** Per dependency key: whether a dependency declared now extends it (`familyDeclared`). */
  families: Map<string, boolean>;
  /** Gem / Mix module spellings (`moduleIndex`), made on first use. */
  modules?: ModuleIndex;
}

/** The dependency a module spelling names; `live` when it (or its family, or a file of the project named so) is there now. */
interface ModuleDep {
  dep: string;
  eco: 'gem' | 'mix';
  live: boolean;
}

interface ModuleIndex {
  names: Map<string, ModuleName[]>;
  /** Per module spelling: the dependency it names (`moduleDep`), or null. */
  deps: Map<string, ModuleDep | null>;
  /** Matches the spellings whose dependency is gone (null when none is). */
  re: RegExp | null;
}

interface Removed {
  h: { key: string; events: PackageHistoryEvent[]; own?: boolean };
  removals: PackageHistoryEvent[];
}

const cache = new WeakMap<object, SwapIndex>();

function swapIndex(ev: Evidence): SwapIndex {
  let idx = cache.get(ev.manifests);
  if (idx) return idx;
  idx = { added: new Map(), removed: new Map(), workspaceNames: new Set(), projectNames: new Set(), removedNames: new Map(), renames: new Map(), goNames: new Map(), namespaced: new Map(), extenders: new Map(), families: new Map() };
  for (const [name, events] of ev.manifests.everDependencies) {
    for (const e of events) {
      const key = `${e.commit.sha}\0${e.manifest}`;
      const map = e.type === 'added' ? idx.added : idx.removed;
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      set.add(name);
    }
  }
  for (const n of ev.manifests.workspaces.keys()) idx.workspaceNames.add(n.toLowerCase());
  for (const p of ev.manifests.projectVersions) if (p.name) idx.projectNames.add(p.name.toLowerCase());
  cache.set(ev.manifests, idx);
  return idx;
}

/** PEP 503 normalisation for Python names; npm names are compared lower-cased. Cached per name. */
const VARIANTS = new Map<string, string[]>();
function variants(name: string): string[] {
  let v = VARIANTS.get(name);
  if (v) return v;
  const n = name.toLowerCase();
  const pep = n.replace(/[-_.]+/g, '-');
  v = pep === n ? [n] : [n, pep, n.replace(/[-_.]+/g, '_')];
  if (VARIANTS.size > 100_000) VARIANTS.clear();
  VARIANTS.set(name, v);
  return v;
}

function presentNow(ev: Evidence, idx: SwapIndex, name: string): boolean {
  for (const v of variants(name)) {
    if (ev.manifests.dependencies.get(v)?.length) return true;
    if (idx.workspaceNames.has(v) || idx.projectNames.has(v)) return true;
    // A manifest still declares it as its own name (a root package without a version is in
    // neither set above): more manifests took the name than dropped it.
    const own = ev.manifests.everProjectNames?.get(v);
    if (own?.length) {
      let net = 0;
      for (const e of own) net += e.type === 'added' ? 1 : -1;
      if (net > 0) return true;
    }
  }
  return false;
}

interface OwnRename {
  /** The removal of the name as written (the first hop). */
  removal: PackageHistoryEvent;
  /** Every name it went through, the last one declared now. */
  names: string[];
  /** The manifest that took the first new name. */
  manifest: string;
}

/**
 * A workspace package (or project) whose own manifest renamed it: the commit that made its
 * `name` field drop the name set another name in the same manifest, or in the manifest at the
 * place that commit moved it to (`renamedOwnName`). Followed through later renames of the
 * successor (at most 8 hops) to a name some manifest declares now; otherwise undefined (a
 * rename whose successor was then deleted has no live successor). Dependencies on the package
 * in other manifests (`hir-ty = { path = "../hir-ty" }` renamed with it) play no part: the
 * package's own manifest says what it became, even when several members were renamed at once.
 */
function ownRename(ev: Evidence, idx: SwapIndex, name: string): OwnRename | undefined {
  const hist = ev.manifests.everProjectNames;
  if (!hist?.size) return undefined;
  const memo = idx.renames.get(name);
  if (memo !== undefined) return memo ?? undefined;
  const r = followRenames(ev, idx, hist, name);
  if (idx.renames.size > 100_000) idx.renames.clear();
  idx.renames.set(name, r ?? null);
  return r;
}

function followRenames(ev: Evidence, idx: SwapIndex, hist: Map<string, PackageHistoryEvent[]>, name: string): OwnRename | undefined {
  const lastRemoval = (n: string): PackageHistoryEvent | undefined => {
    for (const v of variants(n)) {
      const events = hist.get(v);
      if (!events?.length) continue;
      // Events are oldest first: the last removal is the one that made the name disappear.
      for (let i = events.length - 1; i >= 0; i--) if (events[i]!.type === 'removed') return events[i];
    }
    return undefined;
  };
  const removal = lastRemoval(name);
  if (!removal) return undefined;
  const names: string[] = [];
  let manifest: string | undefined;
  let cur: PackageHistoryEvent | undefined = removal;
  const seen = new Set<string>([name.toLowerCase()]);
  for (let hop = 0; hop < 8 && cur; hop++) {
    const next = renamedOwnName(ev.manifests, ev.history, cur);
    if (next === undefined || seen.has(next.name.toLowerCase())) return undefined;
    seen.add(next.name.toLowerCase());
    names.push(next.name);
    manifest ??= next.manifest;
    if (presentNow(ev, idx, next.name)) return { removal, names, manifest };
    cur = lastRemoval(next.name);
  }
  return undefined;
}

/** Whether some manifest ever declared `name` as its own package name. */
function wasOwnName(ev: Evidence, name: string): boolean {
  const hist = ev.manifests.everProjectNames;
  if (!hist?.size) return false;
  for (const v of variants(name)) if (hist.get(v)?.length) return true;
  return false;
}

/**
 * The successor written the way the reference writes the old name: Rust and Python spell a
 * package `hir-ty` / `acme-ingest` in manifests and commands and `hir_ty` / `acme_ingest` in
 * code, so a reference with `_` where the declared name has `-` gets the successor with `_`.
 */
function spelledLike(written: string, declared: string, succ: string): string {
  if (written === declared || !/[-_.]/.test(declared)) return succ;
  const underscored = (s: string) => s.replace(/[-.]/g, '_');
  const hyphened = (s: string) => s.replace(/[_.]/g, '-');
  if (written.toLowerCase() === underscored(declared).toLowerCase() && written !== declared) return underscored(succ);
  if (written.toLowerCase() === hyphened(declared).toLowerCase()) return hyphened(succ);
  return succ;
}

/**
 * A reference spelled unlike the package's declared name (`acme_ingest` for `acme-ingest`) that is
 * also the name of a folder at HEAD names that folder: a Python import package keeps its folder
 * (`src/acme_ingest/`) when the distribution is renamed. Still there, so not stale.
 */
function namesFolder(ev: Evidence, written: string, declared: string): boolean {
  if (written.toLowerCase() === declared.toLowerCase()) return false;
  return !!ev.files.stats?.byDirName.get(written.toLowerCase())?.length;
}

function history(ev: Evidence, name: string): { key: string; events: PackageHistoryEvent[]; own?: boolean } | undefined {
  for (const v of variants(name)) {
    const events = ev.manifests.everDependencies.get(v);
    if (events && events.length) return { key: v, events };
  }
  // A workspace package's own name that no manifest declares any more.
  for (const v of variants(name)) {
    const events = ev.manifests.everProjectNames?.get(v);
    if (events && events.length) return { key: v, events, own: true };
  }
  return undefined;
}

/** A dependency named after a program it extends: `rubocop-rails`, `pytest_cov` for `rubocop`, `pytest`. */
function extendsName(dep: string, name: string): boolean {
  return dep.length > name.length + 1 && dep.startsWith(name) && (dep.charCodeAt(name.length) === 45 || dep.charCodeAt(name.length) === 95);
}

/**
 * Whether a dependency declared now is a plugin of `name` (`rubocop-rails`, `rubocop_rails`,
 * `pytest-cov`): such packages depend on the one they extend, so its program stays installed.
 * Only asked for programs found stale (a handful per audit): one pass over the declared names.
 */
function pluginDeclared(ev: Evidence, name: string): boolean {
  const n = name.toLowerCase();
  for (const dep of ev.manifests.dependencies.keys()) {
    if (extendsName(dep, n)) return true;
  }
  return false;
}

/** What a reference to `name` can be found stale against (memoised per name, see `removedNames`). */
function removedName(ev: Evidence, idx: SwapIndex, name: string): Removed | null {
  let r = idx.removedNames.get(name);
  if (r !== undefined) return r;
  r = null;
  if (!presentNow(ev, idx, name)) {
    const h = history(ev, name);
    const removals = h ? h.events.filter((e) => e.type === 'removed') : [];
    if (h && removals.length) r = { h, removals };
  }
  if (idx.removedNames.size > 100_000) idx.removedNames.clear();
  idx.removedNames.set(name, r);
  return r;
}

/** Cheap pre-test: whether `checkPackageRef` can return a finding for this reference at all. */
function mayBeStale(ref: Reference, ev: Evidence, idx: SwapIndex): boolean {
  if (ref.kind !== 'package' || ref.fetched) return false;
  const name = ref.value;
  if (!name || name.length < 2) return false;
  return removedName(ev, idx, lookupName(ev, idx, ref)) !== null || (runAsCommand(ref) && goneExtender(ev, idx, name) !== null);
}

/** A program a command runs (`bundle exec rspec`, `rubocop -a`), not a name in prose. */
const runAsCommand = (ref: Reference) => ref.tool === 'other' && ref.in !== 'prose';

/**
 * A program no manifest ever declared under its own name, which the project had only through
 * dependencies extending it (`rspec` through `rspec-rails`, `rubocop` through
 * `rubocop-rails-omakase`): once every such dependency is removed and none is declared now, the
 * program is gone with them. The latest removal is returned (memoised per name); null otherwise,
 * and always with a shallow history (an extender's addition may be missing).
 */
function goneExtender(ev: Evidence, idx: SwapIndex, name: string): { dep: string; removal: PackageHistoryEvent } | null {
  const n = name.toLowerCase();
  const memo = idx.extenders.get(n);
  if (memo !== undefined) return memo;
  let out: { dep: string; removal: PackageHistoryEvent } | null = null;
  if (/^[a-z][a-z0-9]{2,}$/.test(n) && !ev.history.shallow && !presentNow(ev, idx, n) && !history(ev, n) && !pluginDeclared(ev, n)) {
    for (const [dep, events] of ev.manifests.everDependencies) {
      if (!extendsName(dep, n)) continue;
      const last = events[events.length - 1];
      if (!last || last.type !== 'removed') continue;
      if (!out || last.commit.time > out.removal.commit.time) out = { dep, removal: last };
    }
  }
  idx.extenders.set(n, out);
  return out;
}

/**
 * Whether a dependency declared now extends `key` with a separator suffix or digits (`xunit.v3`,
 * `xunit.runner.visualstudio`, `moment-timezone`, `pytest_cov`, `foo2` for `xunit`, `moment`,
 * `pytest`, `foo`): the family is still there (a new major under a new id, or a plugin that
 * depends on it), so a reference to the family's name is not stale. With `newMajor`, only a new
 * major under a new id counts (`xunit.v3`, `acme-sdk2`, `foo-next`): a leftover plugin
 * (`redux-thunk` after `redux` left) does not keep a removed library's own name alive. Memoised
 * per key.
 */
function familyDeclared(ev: Evidence, idx: SwapIndex, key: string, newMajor = false): boolean {
  const k = key.toLowerCase();
  const memo = newMajor ? `${k}\0major` : k;
  let r = idx.families.get(memo);
  if (r !== undefined) return r;
  r = false;
  for (const dep of ev.manifests.dependencies.keys()) {
    if (dep.length <= k.length || !dep.startsWith(k)) continue;
    const c = dep.charCodeAt(k.length);
    const rest = dep.slice(k.length);
    if (newMajor ? /^(?:[-._]?v?\d+|[-._]next)$/.test(rest) : ((c === 45 || c === 46 || c === 95) && dep.length > k.length + 1) || /^\d+$/.test(rest)) {
      r = true;
      break;
    }
  }
  if (idx.families.size > 100_000) idx.families.clear();
  idx.families.set(memo, r);
  return r;
}

/**
 * The spellings of `key` a lockfile at HEAD still installs because a dependency declared now needs
 * it (see `reachableFrom`: an orphan entry of a lockfile not regenerated does not count), or
 * undefined. `usable`: only where an installed package can be used without being declared (not
 * pnpm's strict node_modules, not Cargo, whose crates see only their own dependencies).
 */
function stillLocked(ev: Evidence, key: string, usable = false): string[] | undefined {
  const g = ev.manifests.lockGraph?.();
  if (!g || g.names.size === 0) return undefined;
  const reach = reachableFrom(g, ev.manifests.dependencies.keys());
  const hit = variants(key).filter((v) => reach.has(v) && (!usable || [...(g.from.get(v) ?? [])].some((b) => b !== 'pnpm-lock.yaml' && b !== 'Cargo.lock')));
  return hit.length ? hit : undefined;
}

/**
 * Services and products whose clients are packages of other names (`ioredis`, `pymongo`,
 * `mongoose`): in prose, "stored in Redis" names the service, which a new client does not replace.
 */
const SERVICES = new Set(
  (
    'redis valkey memcached mongodb mongo postgres postgresql mysql mariadb sqlite elasticsearch opensearch kafka rabbitmq nats ' +
    'cassandra clickhouse dynamodb neo4j influxdb etcd consul minio meilisearch typesense algolia pinecone qdrant weaviate ' +
    'stripe slack twilio sendgrid mailgun postmark pusher firebase supabase auth0 clerk openai anthropic ollama s3 sqs'
  ).split(' '),
);

/** Parts of a name that make it another tool's plugin, types or preset (`eslint-plugin-jest`, `@types/jest`, `django-celery-beat`). */
const PLUGIN_WORDS = new Set(
  'plugin plugins preset presets config configs types typings loader transformer transform mock mocks stub stubs environment env runner reporter matchers contrib ext extension eslint babel rollup vite webpack esbuild prettier stylelint postcss gatsby karma django flask pytest flake8 rubocop sphinx mkdocs jest vitest storybook beat'.split(' '),
);

/**
 * Clients' suffixes: a dependency named `<name>-sdk`, `<name>-js`, `<name>_client` is the
 * official way to talk to `<name>` (`slack-sdk`, `ollama-js`, `openai-python`).
 */
const CLIENT_SUFFIX = /^(?:sdk|api|client|js|node|python|py|ruby|rb|go|rs|rust|php|java|dotnet|net|kit|ai)$/;

/**
 * Whether a dependency declared now integrates `key` as a product, not as its plugin: under its
 * scope (`@slack/web-api`), as a later part of its name (`langchain-ollama`,
 * `llama-index-llms-ollama`), or as a client of it (`slack-sdk`, `ollama-js`). A plugin named
 * after a library (`redux-thunk` for `redux`) is not such a dependency. Memoised per key.
 */
function integrationDeclared(ev: Evidence, idx: SwapIndex, key: string): boolean {
  const k = key.toLowerCase();
  const memo = `${k}\0integration`;
  let r = idx.families.get(memo);
  if (r !== undefined) return r;
  r = false;
  if (/^[a-z][a-z0-9]+$/.test(k)) {
    for (const dep of ev.manifests.dependencies.keys()) {
      if (dep === k || !dep.includes(k)) continue;
      if (dep.startsWith(`@${k}/`) || dep.startsWith(`@${k}-`) || dep.startsWith(`@${k}hq/`)) {
        r = true;
        break;
      }
      const parts = dep.replace(/^@[^/]+\//, '').split(/[-_.]/);
      const at = parts.indexOf(k);
      // the last part of a name none of whose other parts says plugin (`langchain-ollama`, not
      // `eslint-plugin-jest` or `django-celery-beat`), or a client (`slack-sdk`)
      if ((at > 0 && at === parts.length - 1 && !parts.some((p) => PLUGIN_WORDS.has(p))) || (at === 0 && parts.length === 2 && CLIENT_SUFFIX.test(parts[1]!))) {
        r = true;
        break;
      }
      // a service's client named after it in one word (`ioredis`, `aioredis`, `pymongo`)
      if (SERVICES.has(k) && !dep.includes('/') && parts.length === 1 && dep.length <= k.length + 4) {
        r = true;
        break;
      }
    }
  }
  if (idx.families.size > 100_000) idx.families.clear();
  idx.families.set(memo, r);
  return r;
}

/** The Gem / Mix module spellings of the history (see `moduleNames`), built on first use. */
function moduleIndex(ev: Evidence, idx: SwapIndex): ModuleIndex {
  if (!idx.modules) {
    const m: ModuleIndex = { names: moduleNames(ev), deps: new Map(), re: null };
    idx.modules = m;
    const gone: string[] = [];
    for (const camel of m.names.keys()) {
      const d = moduleDep(ev, idx, camel);
      if (d && !d.live) gone.push(camel);
    }
    if (gone.length) m.re = moduleRegExp(gone);
  }
  return idx.modules;
}

/**
 * The dependency a module spelling (`FactoryBot`, `PhoenixTest`, `Sidekiq`) names among the
 * Gemfile / mix.exs dependencies spelled so: `live` (not stale) when one is declared now, or its
 * family is (its root, or a dependency extending it: `sentry-ruby` beside a removed
 * `sentry-rails`), or a Ruby / Elixir file of the repository is named after it
 * (`app/models/money.rb`, `lib/acme/phoenix_test.ex`: the project's own module), or a framework
 * declared now depends on it (`Rack` under `rails`, `Plug` under `phoenix`); else the one
 * removed last; null when none was removed. Memoised.
 */
function moduleDep(ev: Evidence, idx: SwapIndex, camel: string): ModuleDep | null {
  const m = idx.modules!;
  const memo = m.deps.get(camel);
  if (memo !== undefined) return memo;
  let out: ModuleDep | null = null;
  let lastTime = '';
  for (const c of m.names.get(camel) ?? []) {
    if (presentNow(ev, idx, c.dep) || presentNow(ev, idx, c.root) || familyDeclared(ev, idx, c.root) || ownModule(ev, c.root) || frameworkProvides(ev, idx, c.dep)) {
      out = { dep: c.dep, eco: c.eco, live: true };
      break;
    }
    const gone = removedName(ev, idx, c.dep);
    if (!gone) continue;
    // ISO timestamps: compared as strings, as the rest of the check does
    const t = gone.removals.reduce((a, e) => (e.commit.time > a ? e.commit.time : a), '');
    if (out === null || t > lastTime) {
      lastTime = t;
      out = { dep: c.dep, eco: c.eco, live: false };
    }
  }
  m.deps.set(camel, out);
  return out;
}

/**
 * The project's own module of that (snake_case) name: a file named after it with one of `exts`
 * (`app/models/money.rb`, `lib/acme/phoenix_test.ex`, `src/config.rs`), or a folder of that name
 * in its code (`lib/interactor/`, where `module Interactor` lives by convention).
 */
function ownModule(ev: Evidence, root: string, exts = ['rb', 'ex', 'exs']): boolean {
  return (
    exts.some((x) => ev.files.byBasename.get(`${root}.${x}`)?.length) ||
    !!ev.files.stats?.byDirName.get(root)?.some((d) => /(?:^|\/)(?:app|lib|src)(?:\/|$)/.test(d))
  );
}

/** Whether a framework declared now depends on `dep` itself (see FRAMEWORK_PROVIDES). */
function frameworkProvides(ev: Evidence, idx: SwapIndex, dep: string): boolean {
  for (const [fw, deps] of FRAMEWORK_PROVIDES) if (deps.has(dep) && presentNow(ev, idx, fw)) return true;
  return false;
}

/**
 * The Gem / Mix dependency a module spelling in prose or inline code names, when the word itself
 * is no dependency name (`FactoryBot`, `ExMachina`; `Sidekiq` is looked up as `sidekiq` anyway);
 * undefined otherwise.
 */
function camelName(ev: Evidence, idx: SwapIndex, ref: Reference): string | undefined {
  if (ref.tool !== undefined || (ref.in !== 'prose' && ref.in !== 'inlineCode')) return undefined;
  const c = ref.raw.charCodeAt(0);
  if (c < 65 || c > 90) return undefined;
  const mods = moduleIndex(ev, idx);
  if (!mods.names.has(ref.raw)) return undefined;
  if (presentNow(ev, idx, ref.value) || history(ev, ref.value)) return undefined;
  const d = moduleDep(ev, idx, ref.raw);
  return d && !d.live ? d.dep : undefined;
}

/**
 * `go install x@latest`, `go run x@v1.2.3`: Go builds the program at that version from the module
 * proxy, whatever go.mod requires (a linter once listed there as a tool still installs). Not a
 * dependency reference. (`go get x@v` adds to go.mod: checked.)
 */
function fetchedByVersion(entry: Entry, ref: Reference): boolean {
  const s = ref.start - entry.start;
  const e = ref.end - entry.start;
  if (s < 0 || e > entry.text.length || entry.text.charCodeAt(e) !== 64 /* @ */) return false;
  const lineStart = entry.text.lastIndexOf('\n', s - 1) + 1;
  return /\bgo\s+(?:install|run)\b[^\n`]*$/.test(entry.text.slice(lineStart, s));
}

/** Whether any manifest of a package's history is a go.mod. */
const fromGoMod = (events: PackageHistoryEvent[]) => events.some((e) => e.manifest === 'go.mod' || e.manifest.endsWith('/go.mod'));

/**
 * The name a reference is looked up by in the manifests' history. A Go import path
 * (`github.com/stretchr/testify/require`) lies under the module a go.mod requires: the longest
 * prefix (at `/`) declared now or ever declared, so a package of a required module stays valid; a
 * path that a required module extends (`github.com/urfave/cli` with `github.com/urfave/cli/v2`
 * declared) is still there too. A plain name in inline code that no manifest ever declared is a Go
 * module's short name (`logrus` for `github.com/sirupsen/logrus`) when exactly one module of the
 * history's go.mod requires has it (see `goShortName`: never a standard-library or generic word).
 * Anything else is looked up as written. Memoised per value.
 */
function lookupName(ev: Evidence, idx: SwapIndex, ref: Reference): string {
  const v = ref.value;
  if (ref.tool === 'composer' && v.includes('/')) return composerName(ev, idx, v);
  const mod = camelName(ev, idx, ref);
  if (mod !== undefined) return mod;
  const goPath = v.includes('/') && isGoPath(v);
  const short = !goPath && ref.in === 'inlineCode' && ref.tool === undefined && /^[a-z][a-z0-9_.-]*[a-z0-9]$/.test(v);
  if (!goPath && !short) return v;
  const key = goPath ? v : `\0${v}`;
  const memo = idx.goNames.get(key);
  if (memo !== undefined) return memo;
  let name = v;
  if (goPath) {
    for (const p of goPathPrefixes(v)) {
      if (presentNow(ev, idx, p) || history(ev, p)) {
        name = p;
        break;
      }
    }
    if (name === v && !presentNow(ev, idx, v) && history(ev, v)) {
      // a module declared now under the written path (`…/cli` -> `…/cli/v2`): still required
      for (const dep of ev.manifests.dependencies.keys()) if (dep.length > v.length && dep.startsWith(`${v}/`)) name = dep;
    }
  } else if (!presentNow(ev, idx, v) && !history(ev, v)) {
    const mods = goShortIndex(ev, idx).get(v);
    if (mods?.length === 1) name = mods[0]!;
  }
  if (idx.goNames.size > 100_000) idx.goNames.clear();
  idx.goNames.set(key, name);
  return name;
}

/** Whether every manifest of a package's history is a composer.json. */
const fromComposer = (events: PackageHistoryEvent[]) => events.length > 0 && events.every((e) => manifestKind(e.manifest) === 'composer');

/**
 * The name a Composer package written `vendor/name` (`spatie/laravel-data`) is looked up by.
 * composer.json's history follows a package by its short name (`laravel-data`), or by the full
 * name when the short one is a generic module word (`laravel/framework`); the full name is a
 * declared spelling at HEAD only. So: the full name when it is declared now or has history of
 * its own, else the short name when only composer.json files ever declared it (an npm `pest` is
 * another package) and, when the history keeps the full spelling (`displayName` with a `/`), that
 * spelling is the one written. Anything else is looked up as written (and is never a finding:
 * paths such as `src/app` have the same shape). Memoised per value.
 */
function composerName(ev: Evidence, idx: SwapIndex, v: string): string {
  const key = `\0c${v}`;
  const memo = idx.goNames.get(key);
  if (memo !== undefined) return memo;
  let name = v;
  if (!presentNow(ev, idx, v) && !history(ev, v)) {
    const short = v.slice(v.indexOf('/') + 1);
    const events = ev.manifests.everDependencies.get(short);
    if (events && fromComposer(events) && events.every((e) => !e.displayName?.includes('/') || e.displayName.toLowerCase() === v)) name = short;
  }
  if (idx.goNames.size > 100_000) idx.goNames.clear();
  idx.goNames.set(key, name);
  return name;
}

/**
 * Whether a Composer-shaped token (`spatie/laravel-data`) names a path instead: a file or folder
 * at HEAD or in history, from the root or the memory file's folder, or the tail of a folder at
 * HEAD (`packages/spatie/laravel-data`, a committed `vendor/` tree). The path check owns those.
 */
function composerTokenIsPath(ev: Evidence, entry: Entry, v: string): boolean {
  const dir = memDirOf(entry.file);
  for (const p of dir ? [v, `${dir}/${v}`] : [v]) if (exists(ev, p) || ev.history.known?.(p)) return true;
  const last = v.slice(v.lastIndexOf('/') + 1);
  const tail = `/${v}`;
  return !!ev.files.stats?.byDirName.get(last)?.some((d) => d.toLowerCase().endsWith(tail)) || !!ev.files.byBasename.get(last)?.some((f) => f.toLowerCase().endsWith(tail));
}

/**
 * The spelling a manifest declares for `key` (a lower-cased dependency name): NuGet ids keep their
 * capitals (`NSubstitute`, `TUnit`), which the text should too. Declared now in `manifest` first,
 * then anywhere now, then as history last wrote it.
 */
function declaredSpelling(ev: Evidence, key: string, manifest?: string): string {
  const now = ev.manifests.dependencies.get(key);
  const hit = (manifest && now?.find((d) => d.manifest === manifest)) || now?.[0];
  if (hit) return hit.name;
  const events = ev.manifests.everDependencies.get(key);
  const last = events?.[events.length - 1];
  return last?.displayName ?? last?.name ?? key;
}

/**
 * The full Composer name (`phpunit/phpunit`) a composer.json declares now for a dependency
 * followed by its short name (`phpunit`): the one `vendor/<short>` spelling of that manifest, or
 * undefined when there is none or several.
 */
function composerFullName(ev: Evidence, short: string, manifest: string): string | undefined {
  if (short.includes('/')) return declaredSpelling(ev, short, manifest);
  const tail = `/${short}`;
  let found: string | undefined;
  for (const [k, list] of ev.manifests.dependencies) {
    if (!k.endsWith(tail)) continue;
    const d = list.find((x) => x.manifest === manifest);
    if (!d) continue;
    if (found !== undefined && found !== d.name) return undefined;
    found = d.name;
  }
  return found;
}

/**
 * The successor as it is written where the old name stood, or undefined when its spelling in that
 * role is not known (then the finding offers no replacement and the entry goes to a person):
 * - a program run in a command (`bundle exec rubocop -a`): a package's executable need not carry
 *   its name (the `standard` gem runs `standardrb`), so only when the project is known to run an
 *   executable of that name (`executableKnown`);
 * - a display name in prose, written with capitals other than the manifest's spelling of the old
 *   name (`RuboCop`, `Retrofit`, `xUnit` for `rubocop`, `retrofit`, `xunit`): the successor's own
 *   spelling when it carries capitals (NuGet's `TUnit`), else its family name when a version
 *   catalog names one (a `[versions]` key `ktor` for `ktor-client-core`, capitalised like the old
 *   name), else none: an artifact id (`ktor-client-core`) or a lower-case word (`standard`) reads
 *   as something else there ("Follow standard rules");
 * - anywhere else the name as its manifest declares it.
 */
function successorInRole(ev: Evidence, idx: SwapIndex, entry: Entry, ref: Reference, removal: PackageHistoryEvent, succKey: string, succ: string): string | undefined {
  // A program followed by a subcommand, option or argument (`pnpm jest --runInBand`, `prisma
  // migrate dev`): those belong to the old tool's command line, which the successor need not
  // accept (vitest rejects `--runInBand`, drizzle-kit has no `migrate dev`). Only the program
  // name alone is a rewrite known to work; otherwise a person rewrites the command.
  if (runsAsProgram(entry, ref)) return executableKnown(ev, succ) && !followedInCommand(entry, ref) ? succ : undefined;
  // A package run through a runner that fetches or resolves it by name (`npx jest`, `pnpm exec
  // jest`, `bunx`, `uv run black`, `uvx black`, `poetry run black`): the same holds for what follows
  // it, while the name alone is the package's own (its executable is named after it).
  if (runThroughRunner(entry, ref) && followedInCommand(entry, ref)) return undefined;
  // The family's bare name (`prisma`) named, not run, when the commit split the family over
  // several successors (`prisma` -> `drizzle-kit`, `@prisma/client` -> `drizzle-orm`): "the prisma
  // client" may mean either member, so which successor is meant cannot be told.
  if (familySplit(ev, idx, removal, succKey)) return undefined;
  const old = removal.displayName ?? removal.name;
  // A display name: capitals the manifest's spelling lacks, in prose or as a name in code (`Req`,
  // Elixir's module for the `req` package): the successor is written the same way.
  if ((ref.in === 'prose' || ref.in === 'inlineCode') && /[A-Z]/.test(ref.raw) && ref.raw !== old) {
    if (/[A-Z]/.test(succ)) return succ;
    // A one-word name is its own display name (`kermit`, `tesla`, `drift`); a multi-part artifact
    // id (`ktor-client-core`) needs the family name its catalog gives it.
    const fam = /^[a-z][a-z0-9]*$/.test(succ) ? succ : catalogFamily(ev, succKey, removal.manifest);
    if (!fam) return undefined;
    return /^[A-Z]/.test(ref.raw) ? fam[0]!.toUpperCase() + fam.slice(1) : fam;
  }
  return succ;
}

/** Package-manager verbs after which a name is a package (`pnpm add x`), not a program (`pnpm x`). */
const PACKAGE_VERBS = new Set('add install i remove rm uninstall un update up upgrade why link unlink outdated info view dlx create global'.split(' '));

/**
 * Whether the reference is the program a command runs: a command's own program (`rubocop -a`,
 * `bundle exec rubocop`), or a binary run through a package manager (`pnpm vitest`, `yarn eslint .`,
 * not `pnpm add vitest`).
 */
function runsAsProgram(entry: Entry, ref: Reference): boolean {
  if (ref.in !== 'code' && ref.in !== 'inlineCode') return false;
  if (ref.tool === 'other') return true;
  if (ref.tool !== 'pnpm' && ref.tool !== 'yarn' && ref.tool !== 'bun') return false;
  const s = ref.start - entry.start;
  if (s < 0 || s > entry.text.length) return false;
  const lineStart = entry.text.lastIndexOf('\n', s - 1) + 1;
  const before = entry.text.slice(lineStart, s);
  const at = before.lastIndexOf(ref.tool);
  if (at < 0) return false;
  return !before.slice(at + ref.tool.length).split(/\s+/).some((w) => PACKAGE_VERBS.has(w));
}

/** A Python runner right before the name: `uv run`, `poetry run`, `pdm run`, `hatch run`, `pipx run`, `uvx` (options between allowed). */
const PY_RUNNER_BEFORE = /(?:^|[\s;&|(])(?:(?:uv|poetry|pdm|hatch|pipx|rye)\s+run|uvx)(?:\s+-\S+)*\s+$/;

/**
 * Whether the reference is a package a runner executes by name: through npx (`npx`, `pnpm exec`,
 * `bunx`: tool `npx`) or a Python runner (tool `pip` right after `uv run`, `uvx`, `poetry run`…,
 * not `pip install x`).
 */
function runThroughRunner(entry: Entry, ref: Reference): boolean {
  if (ref.in !== 'code' && ref.in !== 'inlineCode') return false;
  if (ref.tool === 'npx') return true;
  if (ref.tool !== 'pip') return false;
  const s = ref.start - entry.start;
  if (s < 0 || s > entry.text.length) return false;
  const lineStart = entry.text.lastIndexOf('\n', s - 1) + 1;
  return PY_RUNNER_BEFORE.test(entry.text.slice(lineStart, s).replace(/^.*`/, ' '));
}

/**
 * Whether anything follows the program in its command: a subcommand, option or argument before
 * the command ends (the inline code span's closing backtick, the end of the line, `&&`, `||`,
 * `;`, `|`, `)`, or a `#` comment). A line continuation (`\`) counts as something following.
 */
function followedInCommand(entry: Entry, ref: Reference): boolean {
  const e = ref.end - entry.start;
  if (e < 0 || e > entry.text.length) return true;
  let rest = entry.text.slice(e);
  const nl = rest.indexOf('\n');
  if (nl >= 0) rest = rest.slice(0, nl);
  if (ref.in === 'inlineCode') {
    const tick = rest.indexOf('`');
    if (tick >= 0) rest = rest.slice(0, tick);
  }
  const stop = /&&|\|\||[;|)]|(?:^|\s)#/.exec(rest);
  if (stop) rest = rest.slice(0, stop.index);
  return rest.trim() !== '';
}

/**
 * Whether the commit that removed the family root `removal.name` split its family over several
 * successors: it removed from the same manifest another member of the family (a name extending
 * the root: `@prisma/client`, `moment-timezone`) out of a field where it added a name other than
 * `succKey` that is still declared. Members removed beside their root with the same successor
 * (`moment` + `moment-timezone` -> `dayjs`) are no split.
 */
function familySplit(ev: Evidence, idx: SwapIndex, removal: PackageHistoryEvent, succKey: string): boolean {
  const root = removal.name.toLowerCase();
  const key = `${removal.commit.sha}\0${removal.manifest}`;
  const removed = idx.removed.get(key);
  const added = idx.added.get(key);
  if (!removed || !added || removed.size < 2 || added.size < 2) return false;
  const extendsRoot = (n: string) =>
    n !== root && (n.startsWith(`${root}-`) || n.startsWith(`${root}_`) || n.startsWith(`${root}.`) || (!root.startsWith('@') && n.startsWith(`@${root}/`)));
  const fieldOf = (name: string, type: 'added' | 'removed') =>
    ev.manifests.everDependencies.get(name)?.find((x) => x.type === type && x.commit.sha === removal.commit.sha && x.manifest === removal.manifest)?.field;
  for (const member of removed) {
    if (!extendsRoot(member) || member.startsWith('@types/')) continue;
    const field = fieldOf(member, 'removed');
    for (const n of added) {
      if (n === succKey || n.startsWith('@types/') || !presentNow(ev, idx, n)) continue;
      const f = fieldOf(n, 'added');
      if (!field || !f || f === field) return true;
    }
  }
  return false;
}

/**
 * Whether the project is known to run an executable named `name`: a binstub `bin/<name>` is
 * tracked, or a script a manifest declares now runs it as a program (at the start of a command,
 * or through `npx` / `pnpm exec` / `yarn` / `bunx` / `bundle exec` / `uv run` / `poetry run`).
 */
function executableKnown(ev: Evidence, name: string): boolean {
  if (ev.files.files.has(`bin/${name}`)) return true;
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?:^|&&|\\|\\||[;|(])\\s*(?:(?:npx|pnpm(?:\\s+exec)?|yarn|bunx|bun\\s+x|bundle\\s+exec|uv\\s+run|poetry\\s+run)\\s+)?${esc}(?=\\s|$|[;&|)])`);
  for (const scripts of ev.manifests.scriptCommands?.values() ?? []) for (const cmd of scripts.values()) if (re.test(cmd)) return true;
  return false;
}

/**
 * The family name a Gradle version catalog gives a library: a `[versions]` key of the manifest
 * that is the artifact id or its first part(s) at `-` (`ktor` for `ktor-client-core`, `kermit` for
 * `kermit`), the longest one. The catalog's own name for the library's project.
 */
function catalogFamily(ev: Evidence, succKey: string, manifest: string): string | undefined {
  let best: string | undefined;
  for (const [k, list] of ev.manifests.dependencies) {
    if (!/^[a-z][a-z0-9]{2,}$/.test(k) || !(succKey === k || succKey.startsWith(`${k}-`))) continue;
    if (!list.some((d) => d.field === 'versions' && d.manifest === manifest)) continue;
    if (!best || k.length > best.length) best = k;
  }
  return best;
}

/** Short name (`goShortName`) -> the modules any go.mod of the history required (built once per run). */
function goShortIndex(ev: Evidence, idx: SwapIndex): Map<string, string[]> {
  if (!idx.goShort) {
    idx.goShort = new Map();
    for (const [dep, events] of ev.manifests.everDependencies) {
      const s = dep.includes('/') ? goShortName(dep) : undefined;
      if (!s || !fromGoMod(events)) continue;
      const list = idx.goShort.get(s);
      if (list) list.push(dep);
      else idx.goShort.set(s, [dep]);
    }
  }
  return idx.goShort;
}

/**
 * The Go module a plain prose word names by its short name, when the entry itself, or the topic
 * file its index line links to (`context`), names that module in full: "asynq on Redis" in a
 * MEMORY.md line or a topic's `description:` beside `github.com/hibiken/asynq` in the topic's body.
 * Without the full name nearby a prose word is only a word.
 */
function proseGoModule(ev: Evidence, idx: SwapIndex, entry: Entry, ref: Reference, context: string | undefined): string | undefined {
  if (ref.in !== 'prose' || !/^[a-z][a-z0-9_.-]*[a-z0-9]$/.test(ref.raw)) return undefined;
  const mods = goShortIndex(ev, idx).get(ref.value);
  if (mods?.length !== 1) return undefined;
  const m = mods[0]!;
  return entry.text.includes(m) || !!context?.includes(m) ? m : undefined;
}

/**
 * The Go module a capitalised prose word names by its display name: the module's short name (see
 * `goShortName`: last segment, a `/vN` suffix dropped; never a standard-library or generic word)
 * written with a leading capital or inner capitals, not all capitals (`Gin` for
 * `github.com/gin-gonic/gin`, `Bubbletea` / `BubbleTea` for `github.com/charmbracelet/bubbletea`),
 * when exactly one module of the history's go.mod requires has that short name and no manifest
 * ever declared the word itself. Capitals are the display name's sign, as for npm, Ruby and Gradle
 * names in prose (`Express`, `RuboCop`, `Timber`); an everyday-English word still has to be used as
 * a name (see `proseNamesPackage`). The caller reports it only when the module was removed.
 */
function goDisplayModule(ev: Evidence, idx: SwapIndex, ref: Reference): string | undefined {
  if (ref.in !== 'prose' || !ref.weak) return undefined;
  const raw = ref.raw;
  if (!/^[A-Z][A-Za-z0-9]*[a-z0-9]$/.test(raw) || !/[a-z]/.test(raw)) return undefined;
  const v = ref.value;
  if (v !== raw.toLowerCase()) return undefined; // an alias (`TS` -> `typescript`): another name
  const mods = goShortIndex(ev, idx).get(v);
  if (mods?.length !== 1) return undefined;
  if (presentNow(ev, idx, v) || history(ev, v)) return undefined;
  return mods[0];
}

function sameField(ev: Evidence, name: string, removed: PackageHistoryEvent): boolean {
  const events = ev.manifests.everDependencies.get(name);
  const add = events?.find((e) => e.type === 'added' && e.commit.sha === removed.commit.sha && e.manifest === removed.manifest);
  return !add || !add.field || add.field === removed.field;
}

/** Whether `name` was removed from `manifest` by commit `sha` out of a field compatible with `field`. */
function removedFromField(ev: Evidence, name: string, sha: string, manifest: string, field: string | undefined): boolean {
  const e = ev.manifests.everDependencies.get(name)?.find((x) => x.type === 'removed' && x.commit.sha === sha && x.manifest === manifest);
  return !e || !field || !e.field || e.field === field;
}

/**
 * Whether the removed names are variants of one family: one of them is the root and every
 * other one extends it (`moment` with `moment-timezone`, `eslint` with `eslint-plugin-x`,
 * `vue` with `@vue/compiler-sfc`). Names that merely share a prefix (`react-query`,
 * `react-table`) are not a family: no removed name is their root.
 */
export function oneFamily(names: string[]): boolean {
  if (names.length <= 1) return true;
  const lower = names.map((n) => n.toLowerCase());
  return lower.some((root) =>
    lower.every((n) => n === root || n.startsWith(`${root}-`) || n.startsWith(`${root}_`) || n.startsWith(`${root}.`) || (!root.startsWith('@') && n.startsWith(`@${root}/`))),
  );
}

/**
 * The one dependency that took the place of the removed ones, when the pairing is unambiguous:
 * exactly one name added to the manifest and field (and still declared), and the commit removed
 * only this name there, or only variants of one family. `undefined` otherwise.
 */
export function swapSuccessor(added: string[], removedThere: string[]): string | undefined {
  if (added.length !== 1) return undefined;
  return oneFamily(removedThere) ? added[0] : undefined;
}

function list(names: string[]): string {
  const shown = names.slice(0, 3).map((n) => `\`${n}\``);
  if (names.length > 3) return `${shown.join(', ')} and ${names.length - 3} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : shown[0] ?? '';
}

/** The pnpm catalog still declaring `name` (case-insensitive), and the file declaring catalogs. */
function catalogEntry(ev: Evidence, name: string): { catalog: string; file: string } | undefined {
  const catalogs = ev.manifests.catalogs;
  if (!catalogs?.size) return undefined;
  const wanted = new Set(variants(name));
  for (const [catalog, pkgs] of catalogs) {
    for (const pkg of pkgs.keys()) {
      if (!wanted.has(pkg.toLowerCase())) continue;
      let file = 'pnpm-workspace.yaml';
      for (const [path, kind] of ev.manifests.manifestFiles ?? []) {
        if (kind === 'pnpm-workspace') {
          file = path;
          break;
        }
      }
      return { catalog, file };
    }
  }
  return undefined;
}

/**
 * How the entry names the successor by its distinctive part ("Refena (`refena_flutter`), not
 * Riverpod." for `flutter_riverpod`, see `namesSuccessorPart`), or undefined: writing the successor
 * there would contradict or repeat the entry. Not when that part is a part of the old name too
 * (`hooks_riverpod`, `riverpod_annotation` -> `flutter_riverpod`: "Riverpod" still names what the
 * project uses).
 */
function successorPart(entry: Entry, ref: Reference, old: string, succ: string): string | undefined {
  const part = namesSuccessorPart(entry, ref, succ);
  if (part === undefined) return undefined;
  return old.toLowerCase().split(/[-_.]+/).includes(part.toLowerCase()) ? undefined : part;
}

export function checkPackageRef(entry: Entry, ref: Reference, ev: Evidence, context?: string): Finding | null {
  if (ref.kind !== 'package') return null;
  if (ref.fetched) return null;
  if (!ref.value || ref.value.length < 2) return null;
  const idx = swapIndex(ev);
  let name = lookupName(ev, idx, ref);
  if (name === ref.value && ref.in === 'prose') name = proseGoModule(ev, idx, entry, ref, context) ?? goDisplayModule(ev, idx, ref) ?? name;
  if (runAsCommand(ref) && !removedName(ev, idx, name)) {
    const ext = goneExtender(ev, idx, ref.value);
    if (!ext || describedAsPast(entry, ref)) return null;
    return finding(
      entry, ref, 'package-missing', 'warning',
      `\`${ref.raw}\` is no longer installed: the project had it through \`${ext.removal.name ?? ext.dep}\`, which was removed from \`${ext.removal.manifest}\` in ${describeCommit(ext.removal.commit)}, and no dependency declared now provides it; remove the reference or name what replaced it.`,
      { ...commitEvidence(ext.removal.commit), now: ext.removal.manifest, manifest: ext.removal.manifest, package: ext.dep },
    );
  }
  // Written other than the module it names (an import path under it, its short name): reported
  // with the module, and never rewritten with the successor's full name.
  // A Composer name (`spatie/laravel-data`) is looked up by the name history follows and written
  // as a Composer name: no module to name, and its successor is written in full too.
  const composer = ref.tool === 'composer';
  // A Gem / Mix dependency named by its module (`FactoryBot`, `Sidekiq` of `Sidekiq::Job`): never
  // rewritten (the successor's module is not known, nor whether the code around it still holds).
  const modSpelled = MODULE_REFS.has(ref) || (name !== ref.value && camelName(ev, idx, ref) === name);
  const viaModule = !composer && name !== ref.value;
  const gone = removedName(ev, idx, name);
  if (!gone) return null;
  // A Rust path's crate (`insta::assert_snapshot!`) is only ever a Cargo dependency or crate.
  const rustPath = ref.tool === 'cargo' && entry.text.startsWith('::', ref.end - entry.start);
  if (rustPath && !gone.h.events.some((e) => manifestKind(e.manifest) === 'cargo')) return null;
  // `config::load()` after the `config` crate left: the project's own module of that name, when it has one.
  if (rustPath && ownModule(ev, ref.raw, ['rs'])) return null;
  if (composer && composerTokenIsPath(ev, entry, ref.value)) return null;
  if (ref.tool === 'go' && fetchedByVersion(entry, ref)) return null;
  // An everyday-English word in plain prose ("Puma will listen on `PORT`") is the word, not the
  // package, unless the sentence uses it as a name (see `proseNamesPackage`).
  if (!proseNamesPackage(entry, ref, ev)) return null;
  // A name used as a label, tag or prefix ("tagged with the `ty` GitHub label", "the `ty` branch
  // prefix"): the project's word for a product or area, which outlives a crate of that name.
  if (ref.in === 'inlineCode' && LABEL_AFTER.test(entry.text.slice(ref.end - entry.start, ref.end - entry.start + 40))) return null;
  // A program run from code (`bundle exec rubocop`, `rubocop -a`) is still installed when a
  // dependency declared now extends it (`rubocop-rails`, `pytest-cov` depend on it).
  if (ref.tool === 'other' && ref.in !== 'prose' && pluginDeclared(ev, name)) return null;
  const { h, removals } = gone;
  // the words around it already say it is gone ("dayjs instead of moment"); checked last: it is
  // the costliest test and most names are still present or were never dependencies
  if (describedAsPast(entry, ref)) return null;
  // Workspace package names are often plain words (`syntax`, `parser`, `web`): a plain word in
  // prose, outside code, that was such a name is read as the word ("check the syntax"), not as
  // the package; neither renamed nor deleted. Names with `-`, `_`, `.` or digits stay checked.
  if (ref.weak && /^[A-Za-z]+$/.test(ref.raw) && wasOwnName(ev, name)) return null;
  // A workspace package renamed by its own manifest: the manifest names the successor, whatever
  // happened to the dependencies on it (renamed with it in the same commit, several at once).
  const ren = ownRename(ev, idx, name);
  if (ren) {
    const { removal } = ren;
    if (namesFolder(ev, ref.raw, removal.name)) return null;
    const first = ren.names[0]!;
    const succ = ren.names[ren.names.length - 1]!;
    const written = ref.raw;
    const replace = spelledLike(written, removal.name, succ);
    // an arrow to the new name (`hir-ty` → `hir-types`) records the rename (see describedAsPast)
    if (describedAsPast(entry, ref, [...ren.names, replace])) return null;
    const full = namesSuccessor(entry, ref, replace) || (replace !== succ && namesSuccessor(entry, ref, succ));
    const part = full ? undefined : successorPart(entry, ref, removal.name, succ);
    const named = full || part !== undefined;
    const later = ren.names.length > 1 ? `, later renamed to \`${succ}\`` : '';
    // In code too: a renamed workspace package is an identifier (`cargo test -p hir-ty`), not a
    // choice between libraries; links and frontmatter are left alone.
    // A Rust path keeps the crate's library name, which `[lib] name` may hold through a package
    // rename (`acme_core::` of a package now called `acme-engine`): reported, never rewritten.
    const writable = !viaModule && !modSpelled && !rustPath && (ref.in === 'prose' || ref.in === 'inlineCode' || ref.in === 'code');
    return finding(
      entry, ref, 'package-renamed', 'warning',
      `\`${written}\` no longer names any package: it was renamed to \`${first}\` (\`${ren.manifest}\`) in ${describeCommit(removal.commit)}${later}; ${named ? `the entry already names \`${part ?? replace}\`: remove or reword the reference to \`${written}\`` : 'update the reference'}.`,
      { ...commitEvidence(removal.commit), manifest: ren.manifest, now: succ, package: removal.name, renamed: true },
      !named && writable ? { replace } : undefined,
    );
  }
  // A dependency declared now extends it (`xunit.v3` for `xunit`, `moment-timezone` for `moment`):
  // the family is still there.
  if (!h.own && familyDeclared(ev, idx, h.key, true)) return null;
  // A plain word in prose names a service or product as much as a package ("alerts go to Slack",
  // "we run models on Ollama"): while a dependency declared now integrates it under its own name
  // (`@slack/web-api`, `langchain-ollama`, `slack-sdk`), the project still uses what it names.
  const plainProse = ref.in === 'prose' && /^[A-Za-z][A-Za-z0-9]+$/.test(ref.raw);
  if (!h.own && plainProse && integrationDeclared(ev, idx, h.key)) return null;
  // The last removal is the one that made it disappear everywhere.
  const last = removals.reduce((a, b) => (a.commit.time >= b.commit.time ? a : b));
  const key = `${last.commit.sha}\0${last.manifest}`;
  const field = last.field;
  const added = [...(idx.added.get(key) ?? [])].filter(
    (n) => n !== h.key && !n.startsWith('@types/') && presentNow(ev, idx, n) && (!field || sameField(ev, n, last)),
  );
  // Removed from the same manifest and field by that commit (typings travel with their package).
  const removedThere = [...(idx.removed.get(key) ?? [])].filter(
    (n) => (n === h.key || !n.startsWith('@types/')) && removedFromField(ev, n, last.commit.sha, last.manifest, field),
  );
  if (!removedThere.includes(h.key)) removedThere.push(h.key);
  const succKey = h.own ? undefined : swapSuccessor(added, removedThere);
  // Still installed (a lockfile at HEAD has it, for a dependency declared now): through the
  // dependency that took its place (`pay`, which depends on `stripe`), it was wrapped, not
  // replaced; a successor that does not depend on it (`dayjs` for a `moment` some other library
  // still pulls in) is a replacement all the same. With no successor, a plain word in prose still
  // names something the project has, where an installed package can be used undeclared (not
  // through pnpm or Cargo).
  if (!h.own) {
    // a service named in prose ("stored in Redis") that a new client still talks to (`redis` ->
    // `ioredis`, `mongodb` -> `mongoose`): the service stays, only its client changed
    if (succKey && plainProse && SERVICES.has(h.key)) return null;
    const still = stillLocked(ev, h.key, !succKey);
    if (still && (succKey ? variants(succKey).some((s) => still.some((k) => dependsOn(ev.manifests.lockGraph!(), s, k))) : plainProse)) return null;
    // A Gem / Mix dependency's module spelling (`Interactor`) while the project has a module of its own by that name.
    if (/^[A-Z]/.test(ref.raw) && h.events.every((e) => { const k = manifestKind(e.manifest); return k === 'gemfile' || k === 'mix'; }) && ownModule(ev, h.key.replace(/-/g, '_'))) return null;
  }
  // Shown (and written) the way its manifest declares it (`NSubstitute`, not `nsubstitute`); a
  // Composer name in full (`phpunit/phpunit`), or the short name without a replacement when the
  // manifest does not declare exactly one `vendor/<short>`.
  const composerSucc = composer && succKey ? composerFullName(ev, succKey, last.manifest) : undefined;
  const succ = succKey === undefined ? undefined : composerSucc ?? declaredSpelling(ev, succKey, last.manifest);
  const written = ref.raw;
  const eco = modSpelled ? moduleIndex(ev, idx).deps.get(ref.raw)?.eco : undefined;
  const subject =
    modSpelled && written.toLowerCase() !== h.key
      ? `\`${written}\` (${eco === 'mix' ? 'Mix dependency' : 'gem'} \`${declaredSpelling(ev, h.key, last.manifest)}\`)`
      : viaModule && !modSpelled
        ? `\`${written}\` (module \`${h.key}\`)`
        : `\`${written}\``;
  // Still declared in a pnpm catalog (pnpm-workspace.yaml `catalog:` / `catalogs:`) while no
  // workspace package depends on it: a leftover, not a missing package. Info, and said as it is.
  const cat = !h.own ? catalogEntry(ev, h.key) : undefined;
  if (cat) {
    const swap = succ ? ` (that commit added \`${succ}\`)` : '';
    return finding(
      entry, ref, 'package-missing', 'info',
      `${subject} survives only as an entry of the ${cat.catalog === 'default' ? 'default pnpm catalog' : `pnpm catalog \`${cat.catalog}\``} in \`${cat.file}\`: no workspace package depends on it since it was removed from \`${last.manifest}\` in ${describeCommit(last.commit)}${swap}; update or delete this reference, and drop the unused catalog entry.`,
      { ...commitEvidence(last.commit), manifest: last.manifest, package: h.key, catalog: cat.catalog, catalogFile: cat.file, catalogOnly: true, ...(succ ? { now: succ } : {}) },
    );
  }
  // A swap: one dependency in, this one (or one family) out, in the same manifest and field.
  if (succ) {
    // an arrow to the successor (`moment` → `dayjs`) records the swap (see describedAsPast)
    if (describedAsPast(entry, ref, succ)) return null;
    // The entry already names the successor ("Never add `moment` back. Use `dayjs`."): writing it
    // over the old name would repeat or invert the entry, so no replacement is offered.
    const full = namesSuccessor(entry, ref, succ);
    const part = full ? undefined : successorPart(entry, ref, last.name, succ);
    const named = full || part !== undefined;
    // A Go module written by its short name (`asynq`, a `mux` router) takes the successor's short
    // name (`river`, `chi`); an import path under the module has no such spelling.
    const shortSucc = viaModule && goShortName(h.key) === ref.raw && succKey ? goShortName(succKey) : undefined;
    // A Rust path of a swapped crate (`insta::assert_snapshot!` -> expect-test) keeps the old API
    // after the `::`: never rewritten.
    const replace = named || modSpelled || rustPath || (viaModule && !shortSucc) || (composer && !composerSucc) || !(ref.in === 'prose' || ref.in === 'inlineCode') ? undefined : shortSucc ?? successorInRole(ev, idx, entry, ref, last, succKey!, succ);
    return finding(
      entry, ref, 'package-renamed', 'warning',
      `${subject} was replaced by \`${succ}\` in \`${last.manifest}\` in ${describeCommit(last.commit)}; ${named ? `the entry already names \`${part ?? succ}\`: remove or reword the reference to \`${written}\`` : 'update the reference'}.`,
      { ...commitEvidence(last.commit), manifest: last.manifest, now: succ, package: h.key },
      replace !== undefined ? { replace } : undefined,
    );
  }
  if (h.own) {
    if (namesFolder(ev, ref.raw, h.events[h.events.length - 1]?.name ?? h.key)) return null;
    return finding(
      entry, ref, 'package-missing', 'warning',
      `\`${written}\` no longer names any package: \`${last.manifest}\` stopped declaring it in ${describeCommit(last.commit)}; remove the reference or use the package's current name.`,
      { ...commitEvidence(last.commit), manifest: last.manifest, package: h.key },
    );
  }
  // No single successor: say what the commit added (and what else it removed) and let a person pick.
  const others = removedThere.filter((n) => n !== h.key).map((n) => declaredSpelling(ev, n, last.manifest));
  const addedShown = added.map((n) => declaredSpelling(ev, n, last.manifest));
  return finding(
    entry, ref, 'package-missing', 'warning',
    `${subject} is no longer a dependency of any manifest: it was removed from \`${last.manifest}\` in ${describeCommit(last.commit)}${added.length ? ` (that commit added ${list(addedShown)}${others.length ? `, and removed ${list(others)} too` : ''})` : ''}; remove the reference or name what replaced it.`,
    { ...commitEvidence(last.commit), manifest: last.manifest, package: h.key, ...(added.length ? { added: addedShown } : {}) },
  );
}

// ------------------------------------------------------------------ English words in prose
//
// Prose words are taken as package names (weak references) and checked against the manifests'
// history. Many package names are everyday English (`listen`, `spring`, `moment`, `express`):
// "Puma will listen on `PORT`" or "Spring cleaning: delete unused partials" say nothing about
// the `listen` or `spring` gem. Such a word counts only when the sentence uses it as a name.

/**
 * Package names that are also everyday English words. Hand-picked (no dictionary dependency):
 * names among the most used npm, RubyGems, PyPI and crates.io packages that a project's prose
 * also uses as ordinary verbs, adjectives or nouns. Brand-like words whose ordinary sense is rare
 * in a project's notes (`jest`, `puma`, `husky`, `mongoose`) are left out: in prose they name
 * the tool. Words in PROSE_STOPWORDS (`debug`, `rich`, `click`, `chalk`) never reach the check.
 */
const ENGLISH_PACKAGE_WORDS = new Set(
  (
    // npm
    'express moment request react resolve connect commander progress compression helmet passport cron later retry ' +
    'backoff bottleneck signal level long decimal big chance copy temp tar canvas validator through pump split ink ' +
    'conf native relay motion emotion material foundation bootstrap liquid sass less stylus handlebars mustache prism ' +
    'highlight marked unified remark forever agenda bull parcel rollup gulp grunt babel prettier faker rewire mockery ' +
    'benchmark lighthouse sentry spinner trash figures boxen listr polished immutable invariant warning classnames ' +
    'throttle debounce flatten assign pick omit merge extend clone once inherits which serve send vary fresh accepts ' +
    'capacitor ionic electron micro polka remix solid inferno alpine stimulus turbo lit stencil ember backbone ' +
    'knockout chromatic recoil highland mitt rush bolt ultra metro haste tape tap zone open async events ' +
    'stream buffer util path assert global globals proxy cookie session compose reselect select quill slate ' +
    'lexical numeral accounting currency money chart phaser storybook cypress protractor nightwatch detox ' +
    // RubyGems
    'listen spring rake standard annotate bullet guard parallel whenever thin slim fog mail rack unicorn passenger ' +
    'reek brakeman pry devise pundit doorkeeper warden ransack grape paperclip shrine sprockets redcarpet rouge ' +
    'foreman chronic ancestry audited discard paranoia draper cells trailblazer rainbow colorize highline slop clamp ' +
    'tilt temple sorbet steep yard compass bourbon neat bitters honeybadger skylight scout falcon iodine overcommit ' +
    'danger middleman stripe roadie pony chewy scenic blazer ahoy rollout flipper vanity lockbox pretender authority ' +
    'clockwork sneakers bunny racecar statesman workflow wicked cocoon chosen blueprinter roar reform prawn sanitize ' +
    'loofah addressable cuprite ferrum apparition poltergeist launchy cucumber turnip spinach fabrication machinist ' +
    'responders apartment bundler mocha ' +
    // PyPI
    'flask nose coverage invoke fabric salt celery wheel poetry hatch flit bandit safety sphinx markdown pandas ' +
    'altair dash panel notebook pillow torch transformers datasets accelerate evaluate arrow pendulum humanize ' +
    'tabulate blessings questionary fire plumbum watchdog schedule tenacity beaker waitress twisted tornado bottle ' +
    'pyramid quart responder hug marshmallow voluptuous alembic peewee tortoise motor whoosh cryptography ' +
    'hypothesis responses behave lettuce locust decorator deprecated packaging distro arcade toga briefcase textual ' +
    'curses blessed art emoji regex box munch addict bunch hydra sacred comet prefect airflow polars koalas ibis ' +
    'records dataset agate wand whisper pattern polyglot translate control mesa lifelines prophet darts orbit ' +
    'selenium mechanize thrift moto ray ' +
    // crates.io
    'anyhow rayon futures hyper warp rocket tower tonic diesel time tracing console ignore notify home image nom ' +
    'pest quote paste criterion similar difference heck approx parquet yew iced druid bevy ring hex secrecy salsa ' +
    'rowan slab sled flume smol polling nix windows duct tide surf ' +
    // Go modules, by their short name (read from capitalised prose words: see `goDisplayModule`)
    'wire fiber glamour bubbles goose migrate cast copier badger atlas river machinery survey huh carbon dig ' +
    'aurora elastic pebble squirrel handlers kit iris martini buffalo revel glow mods harmonica plush sprig ants ' +
    'lumberjack zap otter rod age tint wish freeze melody centrifuge pool browser'
  ).split(/\s+/),
);

/** After a name in inline code: it names a label, tag, prefix or channel, not a package. */
const LABEL_AFTER = /^`*\s+(?:(?:GitHub|GitLab|issue|PR|pull[- ]request|commit|Slack)\s+)?(?:labels?|tags?|prefix(?:es)?|channels?|milestones?|emoji)\b/i;

/** Nouns that make the word before them a package's name ("the `listen` gem", "spring and bootsnap gems"). */
const NAME_NOUN_AFTER =
  /^[*_]*(?:\s*,\s*[\w.-]+)*(?:,?\s+(?:and|or)\s+[\w.-]+)?\s+(?:gems?|packages?|librar(?:y|ies)|dependenc(?:y|ies)|deps?|modules?|plugins?|crates?|artifacts?|middleware)\b/i;
/**
 * Verbs that make the words after them a package's name ("we use moment for dates", "migrated from
 * express to fastify"), the list after one included ("use rails, puma and spring": a comma first,
 * so "use Puma and listen on 3000" does not make `listen` a name).
 */
const NAME_VERB_BEFORE =
  /\b(?:use[sd]?|using|via|with|(?:un)?install(?:s|ed|ing)?|add(?:s|ed|ing)?|replac(?:e|es|ed|ing)|requir(?:e|es|ed|ing)|depend(?:s|ed|ing)? on|(?:migrat(?:e|es|ed|ing)|switch(?:es|ed|ing)?|mov(?:e|es|ed|ing)) (?:from|to|off)|upgrad(?:e|es|ed|ing)|bump(?:s|ed|ing)?|powered by|built (?:on|with))\s+(?:[\w.-]+,\s+)*(?:[\w.-]+,?\s+(?:and|or)\s+)?[*_]*$/i;
/** "X was replaced by / with Y": the sentence is about the package X. */
const NAME_REPLACED_AFTER = /^[*_]*\s+(?:(?:was|is|has been|had been|got|were|are|have been)\s+)?(?:replaced|swapped (?:out|for))\b/i;
/** The word listed right after / before another one (`,`, `and`, `or`, `&`, `/` between them). */
const LISTED_AFTER = /^[*_`"']*(?:\s*,\s*|\s+(?:and|or|&)\s+|\s*\/\s*)([`*_"']*[\w@][\w@./-]*)/i;
const LISTED_BEFORE = /([\w@][\w@./-]*[`*_"']*)(?:\s*,|\s+(?:and|or|&)|\s*\/)\s*[*_`"']*$/i;
/**
 * A verb phrase saying what a library does in the project, right after its name: `is used`
 * (`are`, `was`, an adverb between), `is the … library` / `framework` / `toolkit` / `SDK` / `ORM`,
 * `provides`, `handles`, `powers`, `manages`.
 */
const DESCRIBED_AFTER =
  /^[*_]*\s+(?:(?:is|are|was|were)\s+(?:(?:also|now|mainly|mostly|primarily|only|still)\s+)?used\b|(?:is|was)\s+(?:the|our|an?)\s+(?:[\w-]+\s+){0,4}(?:librar(?:y|ies)|framework|toolkit|sdk|orm)\b|(?:provides|handles|powers|manages)\b)/i;
/** Fixed phrases in which the word is the ordinary adjective ("the standard library"). */
const ENGLISH_PHRASE_AFTER = /^[*_]*\s+librar(?:y|ies)\b/i;

/**
 * Whether an everyday-English package name written in plain prose (`ref.weak`, outside code and
 * links) is used as a name: written with capitals inside the word (`RuboCop`), capitalised in the
 * middle of a sentence outside headings, bold labels and Title Case ("our Express server", not
 * "Spring cleaning:" nor "## Build Image"), or next to a cue (see NAME_NOUN_AFTER,
 * NAME_VERB_BEFORE unless the word only qualifies the noun after it, NAME_REPLACED_AFTER), or
 * listed with another dependency. The same holds for a plain word cut from namespaced coordinates
 * (`namespacedWord`: Gradle, Composer). Other package words are names whatever the sentence.
 */
export function proseNamesPackage(entry: Entry, ref: Reference, ev: Evidence): boolean {
  if (!ref.weak || ref.in !== 'prose') return true;
  const raw = ref.raw;
  if (!ENGLISH_PACKAGE_WORDS.has(raw.toLowerCase()) && !(/^[A-Za-z]+$/.test(raw) && namespacedWord(ev, raw.toLowerCase()))) return true;
  const text = entry.text;
  const s = ref.start - entry.start;
  const e = ref.end - entry.start;
  if (s < 0 || e > text.length) return true; // not located in the entry: judged as before
  const lineStart = text.lastIndexOf('\n', s - 1) + 1;
  let lineEnd = text.indexOf('\n', e);
  if (lineEnd === -1) lineEnd = text.length;
  const line = text.slice(lineStart, s);
  const before = line.length > 80 ? line.slice(-80) : line;
  const after = text.slice(e, Math.min(lineEnd, e + 80));
  // Capitals inside the word (`RuboCop`, `GraphQL`): the package's own spelling. All capitals
  // (`LISTEN`) is emphasis.
  if (/[A-Z]/.test(raw.slice(1)) && /[a-z]/.test(raw)) return true;
  // The bold key of a list item ("- **Pundit** — Authorization policies" under "## Key Gems"): an
  // item naming a thing, as lists of a project's gems and libraries are written.
  if (/^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*|__)$/.test(before) && /^(?:\*\*|__)\s*(?:[—–:-]|\(|$)/.test(after)) return true;
  // Written after its vendor ("Livewire Volt", "Laravel Dusk" for `livewire/volt`, `laravel/dusk`):
  // the product's full name, also inside a Title Case phrase.
  const vendor = /([A-Za-z][\w-]*)[*_]*\s+[*_]*$/.exec(before)?.[1];
  if (vendor && /^[A-Z]/.test(vendor) && /^[A-Z][a-z]/.test(raw) && composerVendor(ev, vendor.toLowerCase()) && fromComposer(ev.manifests.everDependencies.get(raw.toLowerCase()) ?? [])) return true;
  if (/^[A-Z][a-z]/.test(raw) && !labelText(line) && !titleCase(before, after)) {
    const start = sentenceStart(before);
    // After a label or an opening parenthesis, a capitalised word standing alone is a value, a
    // name ("HTTP server: Express, validation with zod"); one opening a clause is not ("Note:
    // Listen for the ready event").
    if (!start || (start === 'label' && /^[*_`"']*\s*(?:[,;.)]|$)/.test(after))) return true;
  }
  // The subject of a sentence that says what it does in the project ("Hilt is used for dependency
  // injection", "**Local Data:** Room is used for …", "Timber handles logging"): a bare capitalised
  // singular at the start of a sentence or after a label, without an article, is a proper name;
  // the common noun would read "The room …". Gerunds stay words ("Tracing is used to debug …").
  if (/^[A-Z][a-z]/.test(raw) && !/ing$/.test(raw) && sentenceStart(before) !== undefined && DESCRIBED_AFTER.test(after)) return true;
  if (NAME_NOUN_AFTER.test(after) && !(raw.toLowerCase() === 'standard' && ENGLISH_PHRASE_AFTER.test(after))) return true;
  if (NAME_VERB_BEFORE.test(before) && !qualifiesNoun(after)) return true;
  if (NAME_REPLACED_AFTER.test(after)) return true;
  // Listed with another dependency ("moment and moment-timezone", "rails, puma and spring"): one
  // the manifests know, and not an everyday word itself ("spring and autumn").
  const dep = (w: string | undefined) => {
    const n = w?.replace(/^[`*_"']+|[`*_"'.]+$/g, '').toLowerCase();
    return !!n && n !== raw.toLowerCase() && !ENGLISH_PACKAGE_WORDS.has(n) && (ev.manifests.everDependencies.has(n) || ev.manifests.dependencies.has(n));
  };
  return dep(LISTED_AFTER.exec(after)?.[1]) || dep(LISTED_BEFORE.exec(before)?.[1]);
}

/**
 * Whether a word is a Composer vendor of the project: a declared name under it (`laravel/framework`,
 * `livewire/livewire`), or a Composer dependency of that name in the history (`livewire`). Only
 * asked for a capitalised word right before a Composer package's name ("Livewire Volt").
 */
function composerVendor(ev: Evidence, word: string): boolean {
  if (fromComposer(ev.manifests.everDependencies.get(word) ?? [])) return true;
  for (const k of ev.manifests.dependencies.keys()) if (k.startsWith(`${word}/`)) return true;
  return false;
}

/** Gradle, Maven and Composer manifests: a dependency is a namespaced coordinate (`group:artifact`, `vendor/name`). */
const NAMESPACED_KINDS = new Set(['gradle-catalog', 'gradle-build', 'maven', 'composer']);

/**
 * Whether a name is an artifact id cut from namespaced coordinates only (`androidx.browser:browser`,
 * `com.google.truth:truth`, `laravel/pint`): every manifest that ever declared it is a Gradle
 * catalog or script or a composer.json. Such manifests never write the bare word; prose names the
 * library by its project name (`Truth`, `Retrofit`) or its coordinates, so a bare plain word there
 * (`browser`, `tracing`, `truth`, `activity`) is the English word unless the sentence uses it as a
 * name: treated like ENGLISH_PACKAGE_WORDS, whatever the word. Memoised per name.
 */
function namespacedWord(ev: Evidence, name: string): boolean {
  const idx = swapIndex(ev);
  let r = idx.namespaced.get(name);
  if (r !== undefined) return r;
  const events = ev.manifests.everDependencies.get(name);
  r = !!events?.length && events.every((e) => NAMESPACED_KINDS.has(manifestKind(e.manifest) ?? ''));
  idx.namespaced.set(name, r);
  return r;
}

/**
 * Words that end the noun phrase after a verb cue ("use moment for dates", "replace moment with
 * dayjs"): prepositions, conjunctions, auxiliaries, adverbs. Any other lowercase word right after
 * continues the phrase, and the package word only qualifies its head ("add tracing spans", "use
 * browser storage", "with activity results"): the verb's object is that phrase, not a package.
 */
const PHRASE_ENDS = new Set(
  (
    'for to in on at as and or nor but of from with without by via instead over than when where whenever if ' +
    'because since so that which who while unless until into onto across through throughout per not only rather ' +
    'is are was were be been being has have had will would should can could may might must does do did also too ' +
    'here there now everywhere directly internally again already always never anymore then first alone itself ' +
    'instead before after during behind under within'
  ).split(' '),
);

/** Whether the text after a word starts with a lowercase word continuing its noun phrase (see PHRASE_ENDS). */
function qualifiesNoun(after: string): boolean {
  const m = /^[ \t]+([a-z][a-z'-]*)\b/.exec(after);
  return m !== null && !PHRASE_ENDS.has(m[1]!) && !m[1]!.endsWith('ly'); // adverbs: "use moment heavily"
}

/**
 * Whether a word right after `before` (its line up to the word) starts a sentence, a list item,
 * a heading or a table cell (`'start'`), or follows a label's `:` or an opening parenthesis
 * (`'label'`): capitals there say nothing about the word by themselves.
 */
function sentenceStart(before: string): 'start' | 'label' | undefined {
  const t = before.replace(/[\s*_`"'[{>#|-]+$/, '').replace(/(?:^|\s)(?:\d+[.)]|[-+*])$/, '');
  if (t.trim() === '' || /[.!?;|—–]$/.test(t)) return 'start';
  return /[:(]$/.test(t) ? 'label' : undefined;
}

/** Whether the line up to the word is a heading, or the word sits inside `**bold**` / `__bold__`: capitalised as a title. */
function labelText(line: string): boolean {
  if (/^\s*#/.test(line)) return true;
  const bold = line.match(/\*\*|__/g);
  return bold !== null && bold.length % 2 === 1;
}

/**
 * Whether the word sits in a run of capitalised words ("Use Spring Boot", "the Express Router
 * docs"): a capitalised word right before it (not itself starting the sentence, not `I`) or
 * right after it.
 */
function titleCase(before: string, after: string): boolean {
  const prev = /([A-Za-z][\w.-]*) +$/.exec(before);
  if (prev && /^[A-Z]/.test(prev[1]) && prev[1] !== 'I' && sentenceStart(before.slice(0, prev.index)) === undefined) return true;
  const next = /^ +([A-Za-z][\w.-]*)/.exec(after);
  return next !== null && /^[A-Z]/.test(next[1]);
}

/**
 * The entry's references and, after them, a package reference for each module spelling of a
 * removed Gem / Mix dependency (see `moduleSpellings`) that no package reference of the entry
 * covers exactly (`Sidekiq` of `` `include Sidekiq::Job` ``, `FactoryBot` of
 * `` `FactoryBot.create(:user)` ``; a prose word `FactoryBot` is one already).
 */
function withModuleRefs(entry: Entry, re: RegExp): Reference[] {
  const hits = moduleSpellings(entry, re);
  if (!hits.length) return entry.refs;
  const out = entry.refs.slice();
  for (const h of hits) {
    if (entry.refs.some((r) => r.kind === 'package' && r.start === h.start && r.end === h.end)) continue;
    out.push(moduleRef(h));
  }
  return out;
}

export const packageCheck: Check = {
  id: 'package',
  kinds: ['package-missing', 'package-renamed'],
  severity: 'warning',
  description: 'Dependencies and tools named in memory that were in a manifest once and are in none now (renamed when swapped for a successor).',
  run(ctx: CheckContext): Finding[] {
    const out: Finding[] = [];
    const idx = swapIndex(ctx.evidence);
    // Auto memory: the text of each topic file, for the short names its index line uses.
    let topics: Map<string, string> | undefined;
    const contextOf = (entry: Entry): string | undefined => {
      if (entry.kind !== 'index-line' || !entry.meta.target) return undefined;
      if (!topics) {
        topics = new Map();
        for (const e of ctx.entries) if (e.kind === 'topic') topics.set(e.file, (topics.get(e.file) ?? '') + e.text);
      }
      const dir = entry.file.includes('/') ? entry.file.slice(0, entry.file.lastIndexOf('/')) : '';
      const target = joinPath(dir, entry.meta.target.replace(/#.*$/, ''));
      return target ? topics.get(target) : undefined;
    };
    const goShorts = goShortIndex(ctx.evidence, idx).size > 0; // a history with go.mod requires
    // Module spellings of removed Gem / Mix dependencies (`Sidekiq::Job`, `FactoryBot.create`):
    // null in most projects (no such dependency gone).
    const modRe = moduleIndex(ctx.evidence, idx).re;
    for (const entry of ctx.entries) {
      if (!checkable(entry)) continue;
      let seen: Set<string> | undefined; // made on the first finding: most entries have none
      let modules: Map<string, number> | undefined;
      const refs = modRe ? withModuleRefs(entry, modRe) : entry.refs;
      for (const ref of refs) {
        // Names still declared (or never removed) are skipped before any per-reference work.
        const shortWord = goShorts && ref.kind === 'package' && ref.in === 'prose' && goShortIndex(ctx.evidence, idx).get(ref.value)?.length === 1;
        if (!shortWord && !mayBeStale(ref, ctx.evidence, idx)) continue;
        const f = checkPackageRef(entry, ref, ctx.evidence, shortWord ? contextOf(entry) : undefined);
        if (!f) continue;
        // One finding per name and line, unless the successor can be written at one place and not
        // at another (`rubocop` in prose, `bundle exec rubocop` in code): both stand, so the entry
        // is not corrected at the place that cannot take the successor.
        const k = `${ref.line}\0${ref.value}\0${f.suggestion?.replace ?? ''}`;
        if (seen?.has(k)) continue;
        (seen ??= new Set()).add(k);
        // A Go module named twice on one line, by its short name and in full ("cobra
        // (`github.com/spf13/cobra`)"): one finding, on the full name, unless both can be corrected
        // (`mux` -> `chi` beside the path). When either cannot, neither is: correcting only the path
        // would leave the line naming the old module.
        const pkg = f.evidence?.package;
        if (typeof pkg === 'string' && pkg.includes('/')) {
          const mk = `${ref.line}\0module\0${pkg}`;
          const at = (modules ??= new Map()).get(mk);
          if (at !== undefined) {
            const prev = out[at]!;
            if (prev.suggestion === undefined || f.suggestion === undefined) {
              const full = ref.value === pkg ? f : prev;
              const { suggestion: _dropped, ...rest } = full;
              out[at] = rest;
              continue;
            }
          } else modules.set(mk, out.length);
        }
        out.push(f);
      }
    }
    return out;
  },
};
