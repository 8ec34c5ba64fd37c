// Vocabulary for generated names and prose. Plain English words only in WORDS (memory
// filler text); package names are made from syllables so they never collide with prose.

export const AREAS = ['core', 'api', 'server', 'client', 'utils', 'db', 'auth', 'jobs', 'billing', 'search', 'config', 'events', 'storage', 'render', 'admin', 'metrics'];

export const WORDS = (
  'account adapter alert archive asset audit backlog badge batch beacon binder bitmap block ' +
  'bridge broker bucket buffer bundle cache calendar canvas capsule carrier catalog channel ' +
  'chart checkout chunk cipher circuit claim cluster codec column comment compass console ' +
  'contract cookie coupon crawler cursor dashboard dataset decoder delta device digest ' +
  'dispatch document domain editor element emitter engine envelope export feature ' +
  'filter folder footer format fragment frame gateway gauge glyph graph grid handler header ' +
  'helper history hook import index inventory invoice journal kernel ledger library limiter ' +
  'listener loader locale lock manifest mapper marker matrix message meter mirror module ' +
  'monitor mutex notice observer order outbox packet palette panel parser patch payload ' +
  'pipeline planner plugin policy pool portal preset printer profile prompt provider proxy ' +
  'query queue quota reader receipt record reducer registry relay release renderer report ' +
  'request resolver result router sampler scanner schedule schema scope sensor ' +
  'shard signal sketch slot snapshot socket source sprite stage stamp state stream style ' +
  'summary switch table target teller template tenant thread ticket timer token tracker ' +
  'transform tree trigger tunnel upload validator vault vector viewer voucher wallet watcher ' +
  'widget window worker wrapper'
).split(' ');

export const ADJECTIVES = (
  'async atomic blocking cached central cheap cold compact concurrent custom default dense ' +
  'durable eager empty explicit external fallback fast flat global hidden idle implicit ' +
  'incremental inline internal lazy legacy local manual minimal mutable nested offline ' +
  'optional ordered parallel partial passive plain primary private public raw readonly ' +
  'remote robust scoped secondary shared silent simple single sorted stable static strict ' +
  'sync typed unique verbose warm'
).split(' ');

export const VERBS = (
  'batches buffers caches checks clamps collects decodes defers encodes expands filters ' +
  'flushes formats guards indexes loads maps merges normalises orders parses prefetches ' +
  'queues rebuilds retries rotates samples scans serialises shards signs splits streams ' +
  'throttles trims validates wraps'
).split(' ');

export const TEAMS = ['platform', 'growth', 'payments', 'infra', 'mobile', 'data', 'search', 'identity', 'tooling', 'frontend'];

export const AUTHORS = [
  ['Ada Moreau', 'ada@example.com'],
  ['Bo Lindqvist', 'bo@example.com'],
  ['Chen Wei', 'chen@example.com'],
  ['Dara Okafor', 'dara@example.com'],
  ['Eli Novak', 'eli@example.com'],
  ['Fatima Haddad', 'fatima@example.com'],
  ['Gus Tanaka', 'gus@example.com'],
  ['Hana Silva', 'hana@example.com'],
];

const SYL = ['zor', 'quil', 'vex', 'bram', 'tiv', 'kro', 'plin', 'drax', 'mur', 'sel', 'yon', 'fae', 'grib', 'nox', 'wel', 'tup', 'jix', 'hul', 'rask', 'ovi', 'cze', 'lum', 'pax', 'dov'];
const SUFFIX = ['', '', '', '-js', '-core', '-kit', '-http', '-lite', '-cli', '-io'];

/** Deterministic distinct package-like names: zorquil, vexbram-kit, ... */
export function packageNames(rng, count, taken = new Set()) {
  const out = [];
  let guard = 0;
  while (out.length < count && guard++ < count * 200) {
    const n = rng.range(2, 3);
    let s = '';
    for (let i = 0; i < n; i++) s += rng.pick(SYL);
    s += rng.pick(SUFFIX);
    if (taken.has(s)) continue;
    taken.add(s);
    out.push(s);
  }
  return out;
}

const SCRIPT_VERBS = ['build', 'test', 'lint', 'check', 'gen', 'db', 'docs', 'deploy', 'release', 'watch', 'serve', 'sync', 'clean', 'seed', 'bundle', 'audit', 'fmt', 'preview'];
const SCRIPT_NOUNS = ['api', 'web', 'types', 'schema', 'assets', 'e2e', 'unit', 'cli', 'site', 'data', 'icons', 'i18n', 'cache', 'styles', 'fixtures', 'snapshots', 'stories', 'worker'];

/** Deterministic distinct npm script names: build:api, lint:styles, ... */
export function scriptNames(rng) {
  const all = [];
  for (const v of SCRIPT_VERBS) for (const n of SCRIPT_NOUNS) all.push(`${v}:${n}`);
  return rng.shuffle(all);
}

export const BASE_SCRIPTS = ['build', 'test', 'lint', 'typecheck', 'dev', 'start', 'format'];
