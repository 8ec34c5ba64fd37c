// Package names as code spells them, for the package check (checks/package.ts):
// - Ruby gems and Elixir Mix dependencies named by their module / constant (`FactoryBot` for
//   `factory_bot_rails`, `ExMachina` for `ex_machina`, `Sidekiq` of `Sidekiq::Job`);
// - a successor's distinctive name part (`Riverpod` of `flutter_riverpod`), to tell that an entry
//   already names the successor.
import type { Entry, Evidence, Reference } from '../types.js';
import { manifestKind } from '../evidence/manifests/kinds.js';
import { escapeRe, wordInEntry } from './stale-common.js';

/** A snake_case name (letters and digits, `_` between parts) as a CamelCase module: `ex_machina` -> `ExMachina`. */
export function camelize(snake: string): string | undefined {
  if (!/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(snake)) return undefined;
  return snake
    .split('_')
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join('');
}

/**
 * Ruby's standard-library gems (default and bundled gems): Ruby ships them and other gems depend
 * on them (`Base64`, `Logger`, `Set`, `Timeout`), so a Gemfile line removed for one (often added
 * only to silence a warning) says nothing about its constant.
 */
const RUBY_DEFAULT_GEMS = new Set(
  (
    'base64 benchmark bigdecimal bundler cgi csv date delegate did_you_mean digest drb english erb error_highlight ' +
    'etc fcntl fiddle fileutils find forwardable getoptlong io-console ipaddr irb json logger matrix minitest ' +
    'mutex_m net-ftp net-http net-imap net-pop net-protocol net-smtp nkf observer open-uri open3 openssl optparse ' +
    'ostruct pathname pp prettyprint prime pstore psych racc rake rdoc readline reline resolv rexml rinda rss ' +
    'ruby2_keywords securerandom set shellwords singleton stringio strscan syslog tempfile time timeout tmpdir ' +
    'tsort un uri weakref yaml zlib test-unit power_assert'
  ).split(/\s+/),
);

/**
 * Libraries a framework depends on itself, so they stay installed while it is declared whatever
 * the project's own manifest says (`gem "rack"` or `{:plug, …}` dropped as an explicit pin):
 * Rails' and Phoenix's / Ecto's runtime dependencies.
 */
export const FRAMEWORK_PROVIDES: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    rails: 'rack rack-session rack-test nokogiri loofah i18n mail thor zeitwerk tzinfo builder erubi marcel mini_mime globalid websocket-driver nio4r concurrent-ruby activesupport activerecord actionpack actionview activejob actionmailer actioncable activestorage railties',
    phoenix: 'plug plug_crypto telemetry phoenix_pubsub phoenix_template castore mime websock websock_adapter',
    ecto_sql: 'ecto db_connection decimal telemetry',
  }).map(([k, v]) => [k, new Set(v.split(' '))]),
);

export interface ModuleName {
  /** The dependency (lower-cased key of `everDependencies`). */
  dep: string;
  /** The snake_case name the module is spelled from (the dependency, or the root of a `-rails` gem). */
  root: string;
  /** `gem` or `mix`. */
  eco: 'gem' | 'mix';
}

/**
 * CamelCase module spelling -> the Gemfile / mix.exs dependencies of the history spelled so:
 * the dependency itself (`phoenix_test` -> `PhoenixTest`, `sidekiq` -> `Sidekiq`) and, for a gem
 * `x_rails` / `x-rails`, its root (`factory_bot_rails` -> `FactoryBot`). Only names whose every
 * manifest is a Gemfile or a mix.exs; never Ruby's default gems.
 */
export function moduleNames(ev: Evidence): Map<string, ModuleName[]> {
  const out = new Map<string, ModuleName[]>();
  const add = (camel: string | undefined, m: ModuleName) => {
    if (!camel || camel.length < 3) return;
    const list = out.get(camel);
    if (list) list.push(m);
    else out.set(camel, [m]);
  };
  for (const [dep, events] of ev.manifests.everDependencies) {
    if (!events.length) continue;
    let eco: 'gem' | 'mix' | undefined;
    let mixed = false;
    for (const e of events) {
      const k = manifestKind(e.manifest);
      const x = k === 'gemfile' ? 'gem' : k === 'mix' ? 'mix' : undefined;
      if (!x || (eco && eco !== x)) {
        mixed = true;
        break;
      }
      eco = x;
    }
    if (mixed || !eco) continue;
    if (eco === 'gem' && RUBY_DEFAULT_GEMS.has(dep)) continue;
    add(camelize(dep), { dep, root: dep, eco });
    const rails = eco === 'gem' ? /^([a-z][a-z0-9_]*?)[-_]rails$/.exec(dep) : null;
    if (rails && !RUBY_DEFAULT_GEMS.has(rails[1]!)) add(camelize(rails[1]!), { dep, root: rails[1]!, eco });
  }
  return out;
}


/**
 * Where the entry writes one of `names` as a module, in prose or inline code (fenced code and
 * links are left alone): a whole word, or the first segment of `X::Y` (Ruby) / `X.fun`, `X.Sub`
 * (Elixir). Not a nested constant (`Acme::Sidekiq`, `Acme.ExMachina`), nor part of a path or
 * another name (`Sidekiq-Pro`, `Sidekiq/`). File offsets, with the 1-based line.
 */
export function moduleSpellings(entry: Entry, re: RegExp): Array<{ start: number; end: number; raw: string; line: number; in: 'prose' | 'inlineCode' }> {
  const out: Array<{ start: number; end: number; raw: string; line: number; in: 'prose' | 'inlineCode' }> = [];
  for (const s of entry.spans) {
    if (s.kind !== 'text' && s.kind !== 'inlineCode') continue;
    const a = s.start - entry.start;
    const b = s.end - entry.start;
    if (a < 0 || b > entry.text.length || b <= a) continue;
    const src = entry.text.slice(a, b);
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(src))) {
      let line = s.line;
      for (let i = src.indexOf('\n'); i !== -1 && i < m.index; i = src.indexOf('\n', i + 1)) line++;
      out.push({ start: s.start + m.index, end: s.start + m.index + m[0].length, raw: m[0], line, in: s.kind === 'text' ? 'prose' : 'inlineCode' });
    }
  }
  return out;
}

/** The expression `moduleSpellings` scans with, for these module names (longest first). */
export function moduleRegExp(names: Iterable<string>): RegExp {
  const alt = [...names].sort((x, y) => y.length - x.length).map(escapeRe).join('|');
  return new RegExp(`(?<![\\w@/.:$-])(?:${alt})(?![\\w/-])`, 'g');
}

/** Whether a reference is a module spelling the package check made itself (see `moduleRef`). */
export const MODULE_REFS = new WeakSet<Reference>();

/** A package reference for a module spelling found by `moduleSpellings` (weak in prose). */
export function moduleRef(hit: { start: number; end: number; raw: string; line: number; in: 'prose' | 'inlineCode' }): Reference {
  const r: Reference = { kind: 'package', raw: hit.raw, value: hit.raw.toLowerCase(), start: hit.start, end: hit.end, line: hit.line, in: hit.in };
  if (hit.in === 'prose') r.weak = true;
  MODULE_REFS.add(r);
  return r;
}

/**
 * Words a package's name adds to say which framework, language or layer it binds to
 * (`flutter_riverpod`, `hooks_riverpod`, `react-query`, `vue-router`, `riverpod-core`): dropped to
 * get the project's own name.
 */
const BINDING_WORDS = new Set(
  (
    'flutter dart hooks hook react reactjs preact vue vuejs vue3 svelte angular ng js ts node nodejs core ' +
    'rails ruby py python rs rust go golang kt kotlin swift android ios native sdk lib ex elixir'
  ).split(' '),
);

/**
 * The distinctive part of a package name written in parts (`_`, `-`, `.`): what remains once the
 * binding words are dropped (`flutter_riverpod` -> `riverpod`, `flutter_bloc` -> `bloc`), when
 * that is one part of three letters or more and some word was dropped; undefined otherwise
 * (`solid_queue`, `riverpod`, `@scope/x`).
 */
export function distinctivePart(name: string): string | undefined {
  if (!/^[A-Za-z][\w.-]*$/.test(name)) return undefined;
  const parts = name.split(/[-_.]+/).filter(Boolean);
  if (parts.length < 2) return undefined;
  const kept = parts.filter((p) => !BINDING_WORDS.has(p.toLowerCase()));
  if (kept.length !== 1 || kept.length === parts.length) return undefined;
  const p = kept[0]!;
  return /^[A-Za-z][A-Za-z0-9]{2,}$/.test(p) ? p : undefined;
}

/**
 * The spelling in which the entry names the successor by its distinctive part (see
 * `distinctivePart`: "not Riverpod" for `flutter_riverpod`), as a whole word in any letter case,
 * other than at the reference itself; undefined when it does not.
 */
export function namesSuccessorPart(entry: Entry, ref: Reference | null, successor: string): string | undefined {
  const part = distinctivePart(successor);
  if (!part || !entry.text.toLowerCase().includes(part.toLowerCase())) return undefined;
  return wordInEntry(entry, ref, part);
}
