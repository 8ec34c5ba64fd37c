// contradiction: two entries (or an entry and CLAUDE.md) that give different values for the same
// thing — commands for the same job with different package managers or runners, numbers with
// the same unit and subject, versions of the same tool, and opposite always/never rules. Claims
// are extracted per sentence and grouped by key in maps, so no pairwise scan over all entries.
// Both locations are reported, each pointing at the other (`evidence.now`).
import type { Check, CheckContext, Entry, Finding } from '../types.js';
import { isFeatureVersion } from '../memory/refs/prose.js';
import { PROSE_GATES } from './fidelity/keywords.js';
import { PairSet } from './fidelity/similarity.js';
import { contentWords, fileMap, lineInEntry, scopeOf, scopesOverlap, textsOf, where } from './fidelity/text.js';

interface Claim {
  id?: number;
  entry: number;
  kind: 'command' | 'number' | 'version' | 'rule';
  /** Grouping key: job, unit class, tool, or object words. */
  key: string;
  /** What is stated, comparable. */
  value: string;
  /** As written, for messages. */
  shown: string;
  /** Subject words (numbers, rules). */
  words?: string[];
  /** Numbers: value in base units. */
  num?: number;
  /** Rules: +1 always, -1 never. */
  polarity?: number;
  /** Numbers: the things their clause names (code spans, link targets, paths), normalised; see `namesOf`. */
  names?: string[];
  index: number;
}

const HISTORY =
  /\b(?:previously|used to|formerly|no longer|migrated from|migrating from|upgraded from|upgrading from|moved from|switched from|replaced by|replaced with|deprecated|legacy|was|were|until|instead of|rather than|from \S+ to|vs\.?|versus)\b/i;

// ------------------------------------------------------------------ commands

const PMS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** Python environment managers: `uv run pytest` vs `poetry run pytest` disagree on the tool. */
const PY_PMS = new Set(['uv', 'poetry', 'pipenv', 'pdm', 'hatch', 'rye']);
/** Runner -> job. A Map: runner names come from memory text, and `constructor` must not read Object.prototype. */
const RUNNERS = new Map<string, string>(Object.entries({
  vitest: 'test', jest: 'test', mocha: 'test', ava: 'test', jasmine: 'test', playwright: 'test:e2e', cypress: 'test:e2e',
  pytest: 'test', unittest: 'test', nose2: 'test', tox: 'test', nox: 'test', flake8: 'lint', pylint: 'lint', eslint: 'lint', biome: 'lint', ruff: 'lint', prettier: 'format', black: 'format', tsc: 'build',
  webpack: 'build', vite: 'build', rollup: 'build', mypy: 'typecheck', pyright: 'typecheck',
}));
const SCRIPT_JOBS: Array<[RegExp, string]> = [
  [/^(?:test|t|tests|unit|test:unit)$/, 'test'],
  [/^(?:test:)?(?:e2e|integration|int)$/, 'test:e2e'],
  [/^(?:lint|lint:all)$/, 'lint'],
  [/^(?:build|compile)$/, 'build'],
  [/^(?:typecheck|type-check|types|check-types|tsc)$/, 'typecheck'],
  [/^(?:format|fmt|prettier)$/, 'format'],
  [/^(?:dev|start|serve)$/, 'dev'],
];
const CMD_RE =
  /\b(npm|pnpm|yarn|bun|npx|pnpx|bunx|uv|poetry|pipenv|pdm|hatch|rye)((?:\s+(?:--?[\w-]+(?:[= ](?!run\b|test\b|exec\b)[\w@./:-]+)?|[\w@./:-]+)){1,5})/g;

function jobOf(script: string): string | undefined {
  for (const [re, job] of SCRIPT_JOBS) if (re.test(script)) return job;
  return undefined;
}

function commandClaims(text: string, offset: number, entry: number, out: Claim[]) {
  CMD_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CMD_RE.exec(text))) {
    const tool = m[1];
    const args = m[2].trim().split(/\s+/);
    let filter = '';
    const rest: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '--filter' || a === '-F' || a === '-w' || a === '--workspace') {
        filter = args[++i] ?? '';
        continue;
      }
      if (a.startsWith('--filter=') || a.startsWith('--workspace=')) {
        filter = a.split('=')[1];
        continue;
      }
      if (a === 'workspace' && tool === 'yarn') {
        filter = args[++i] ?? '';
        continue;
      }
      rest.push(a);
    }
    if (rest.some((a) => a === '-g' || a === '--global')) continue;
    let pm: string | undefined = PMS.has(tool) || PY_PMS.has(tool) ? tool : undefined;
    let runner: string | undefined;
    let job: string | undefined;
    const first = rest[0] ?? '';
    if (PY_PMS.has(tool)) {
      // uv run pytest / poetry run mypy ...; `python -m pytest` names the runner too
      if (first !== 'run') continue;
      runner = rest[1] === 'python' && rest[2] === '-m' ? rest[3] : rest[1];
      job = runner ? RUNNERS.get(runner) : undefined;
      if (!job) continue;
    } else if (!pm) {
      // npx / pnpx / bunx <binary>: runner only
      runner = first.replace(/@.*$/, '');
      job = RUNNERS.get(runner);
    } else if (first === 'run' || first === 'run-script') {
      job = jobOf(rest[1] ?? '');
    } else if (first === 'exec' || first === 'dlx' || first === 'x') {
      runner = (rest[1] ?? '').replace(/@.*$/, '');
      job = RUNNERS.get(runner);
    } else if (first === 'test' || first === 't') {
      job = 'test';
    } else if ((first === 'install' || first === 'i' || first === 'ci') && rest.length === 1) {
      job = 'install';
    } else if (RUNNERS.has(first) && tool !== 'npm') {
      runner = first;
      job = RUNNERS.get(first);
    } else if (tool !== 'npm' && first && !['add', 'remove', 'install', 'i', 'up', 'upgrade', 'update', 'init', 'create', 'publish', 'link', 'outdated', 'why', 'audit', 'config', 'login', 'version', 'pack', 'info', 'view', 'cache', 'store'].includes(first)) {
      job = jobOf(first); // pnpm test / yarn lint
    }
    if (!job) continue;
    if (rest.some((a) => /\b(?:e2e|integration|playwright|cypress)\b/.test(a))) job = 'test:e2e';
    const key = `${job}${filter ? '@' + filter : ''}`;
    out.push({
      entry,
      kind: 'command',
      key,
      value: `${pm ?? ''}|${runner ?? ''}`,
      shown: m[0].trim(),
      index: offset + m.index,
    });
  }
}

function commandsConflict(a: Claim, b: Claim): boolean {
  const [pa, ra] = a.value.split('|');
  const [pb, rb] = b.value.split('|');
  if (pa && pb && pa !== pb) return true;
  if (ra && rb && ra !== rb && RUNNERS.get(ra) === RUNNERS.get(rb)) return true;
  return false;
}

// ------------------------------------------------------------------ numbers

const UNITS: Array<[RegExp, string, number]> = [
  [/^(?:ms|msecs?|milliseconds?)$/, 'time', 0.001],
  [/^(?:s|secs?|seconds?)$/, 'time', 1],
  [/^(?:m|mins?|minutes?)$/, 'time', 60],
  [/^(?:h|hrs?|hours?)$/, 'time', 3600],
  [/^(?:d|days?)$/, 'time', 86400],
  [/^(?:weeks?)$/, 'time', 604800],
  [/^(?:b|bytes?)$/, 'size', 1],
  [/^(?:kb|kib|k)$/, 'size', 1024],
  [/^(?:mb|mib)$/, 'size', 1024 ** 2],
  [/^(?:gb|gib)$/, 'size', 1024 ** 3],
  [/^(?:%|percent)$/, 'percent', 1],
  [/^(?:retries|retry|attempts?)$/, 'retries', 1],
  [/^(?:workers?|threads?|processes)$/, 'workers', 1],
  [/^(?:connections?|conns?)$/, 'connections', 1],
  [/^(?:replicas?|instances?|pods?|nodes?)$/, 'replicas', 1],
  [/^(?:chars?|characters?)$/, 'chars', 1],
  [/^(?:lines?)$/, 'lines', 1],
  [/^(?:req(?:uest)?s?\/(?:s|sec|second))$/, 'rate', 1],
  [/^(?:req(?:uest)?s?\/(?:m|min|minute))$/, 'rate', 1 / 60],
  [/^(?:req(?:uest)?s?\/(?:h|hr|hour))$/, 'rate', 1 / 3600],
];
const NUM_RE =
  /(?<![\w.#/@-])(\d+(?:\.\d+)?)\s?(ms|msecs?|milliseconds?|secs?|seconds?|s|mins?|minutes?|hrs?|hours?|h|days?|weeks?|bytes?|kib|kb|mib|mb|gib|gb|%|percent|retries|attempts?|workers?|threads?|processes|connections?|replicas?|instances?|pods?|chars?|characters?|lines?|req(?:uest)?s?\/(?:s|sec|second|m|min|minute|h|hr|hour))(?![\w/])/gi;

/** Subject word -> canonical word. A Map: the words come from memory text (`constructor`). */
const SYNONYMS = new Map<string, string>(Object.entries({
  expire: 'ttl', expiry: 'ttl', expir: 'ttl', valid: 'ttl', validity: 'ttl', ttl: 'ttl', lifetime: 'ttl', live: 'ttl', last: 'ttl',
  timeout: 'timeout', time: 'timeout', 'time-out': 'timeout',
  limit: 'limit', max: 'limit', maximum: 'limit', cap: 'limit', capp: 'limit', most: 'limit', exce: 'limit',
  token: 'token', tokens: 'token', jwt: 'token',
  rate: 'rate', ratelimit: 'rate',
}));
const NUMBER_NOISE = new Set(['after', 'within', 'every', 'least', 'about', 'around', 'roughly', 'approximately', 'set', 'default', 'config', 'value', 'number', 'currently', 'now', 'take', 'takes', 'need', 'need', 'get', 'gets', 'run', 'runs']);

function subjectWords(sentence: string): string[] {
  const ws = contentWords(sentence.replace(NUM_RE, ' ').replace(/\d+/g, ' '))
    .map((w) => SYNONYMS.get(w) ?? w)
    .filter((w) => !NUMBER_NOISE.has(w));
  return [...new Set(ws)];
}

/**
 * Named things: an inline code span, a link destination, or a path-like token (`dir/file`, `dir/`,
 * `name.ext` with a file extension). One expression, compiled once.
 */
const NAMED_RE =
  /`([^`\n]+)`|\]\(\s*([^)\s]+)[^)]*\)|(?<![\w`/.@:-])((?:[\w.@~-]+\/)+[\w.@~*-]*|[\w@-][\w.@-]*\.(?:md|mdc|mdx|txt|json|ya?ml|toml|ts|tsx|js|jsx|mjs|cjs|py|rs|go|rb|ex|exs|java|kt|swift|c|cc|cpp|h|hpp|cs|php|sh|sql|html|css|scss|vue|svelte|lock))(?![\w`/])/g;
/** What may stand before an entry's first word: a bullet or number, emphasis, a link's `[`. */
const LEAD_RE = /^\s*(?:(?:[-*+]|\d{1,3}[.)])\s+)?(?:\*\*|__|\*|_)?\[?/;
const NAMED_AT = new RegExp(NAMED_RE.source, 'y');

/** A named thing as compared: lower case, without `./`, a trailing `/` or a link scheme (`mdc:`, `file:`). */
function nameKey(raw: string): string {
  return raw.trim().toLowerCase().replace(/^(?:mdc|file):/, '').replace(/^\.\//, '').replace(/\/+$/, '');
}

/**
 * The things a text names (see `NAMED_RE`), normalised; not one written around offset `at` (the
 * number itself: "`30s`", "`TIMEOUT=30s`" is the value, not what it is about).
 */
function namesIn(text: string, at: number): string[] {
  if (!text.includes('`') && !text.includes('/') && !text.includes('.')) return [];
  const out: string[] = [];
  NAMED_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = NAMED_RE.exec(text))) {
    if (m.index <= at && at < m.index + m[0].length) continue;
    const k = nameKey(m[1] ?? m[2] ?? m[3]);
    if (k && !out.includes(k)) out.push(k);
  }
  return out;
}

/** The thing an entry starts with ("- `src/parser.ts` (48KB…)", "- **[X.php](mdc:…)** (11KB…)"), and where it ends; or undefined. */
function leadName(text: string): { name: string; end: number } | undefined {
  const lead = LEAD_RE.exec(text);
  NAMED_AT.lastIndex = lead ? lead[0].length : 0;
  const m = NAMED_AT.exec(text);
  return m ? { name: nameKey(m[1] ?? m[2] ?? m[3]), end: m.index + m[0].length } : undefined;
}

/** Whether two names name the same thing: equal, or one a path ending in the other (`app/Models/X.php`, `X.php`). */
function sameName(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.endsWith('/' + short);
}

/**
 * Whether two numeric claims name different things: each names something (a code span, a link
 * target, a path) the other does not name. File sizes in a list of model files ("`Postgres.php`
 * (11KB)", "`Mariadb.php` (10KB)"), timeouts of two keys (`ACCESS_TTL`, `REFRESH_TTL`): the words
 * around the numbers are the same template, the subjects are the named things. (One side naming
 * nothing, or only a part of what the other names, may still be the same subject.)
 */
function differentNames(a: string[], b: string[]): boolean {
  if (!a.length || !b.length) return false;
  const covered = (x: string[], y: string[]) => x.every((n) => y.some((o) => sameName(n, o)));
  return !covered(a, b) && !covered(b, a);
}

function numberClaims(sentence: string, offset: number, entry: number, out: Claim[], lead: () => { name: string; end: number } | undefined) {
  // one claim per clause holding exactly one number of a kind: "A is 15 minutes and B 7 days"
  const clauseRe = /(?:[^,;]|,(?=\d))+?(?=[,;]|\b(?:and|but|while|so|because|which|whereas)\b|$)/g;
  let c: RegExpExecArray | null;
  while ((c = clauseRe.exec(sentence))) {
    if (!c[0].length) {
      clauseRe.lastIndex++;
      continue;
    }
    const clause = c[0];
    NUM_RE.lastIndex = 0;
    const found: Array<{ n: number; cls: string; shown: string; index: number }> = [];
    let m: RegExpExecArray | null;
    while ((m = NUM_RE.exec(clause))) {
      const unit = m[2].toLowerCase();
      const u = UNITS.find(([re]) => re.test(unit));
      if (!u) continue;
      found.push({ n: Number(m[1]) * u[2], cls: u[1], shown: m[0], index: offset + c.index + m.index });
    }
    const perClass = new Map<string, number>();
    for (const f of found) perClass.set(f.cls, (perClass.get(f.cls) ?? 0) + 1);
    for (const f of found) {
      if (perClass.get(f.cls) !== 1) continue; // ranges, comparisons: ambiguous
      const words = subjectWords(clause);
      if (words.length < 2) continue;
      // What the number is about, when it is named: the clause's named things, else the
      // sentence's, else the thing the entry starts with (an item of a list of files or keys,
      // "- `src/parser.ts`: … File size 48KB").
      let names = namesIn(clause, f.index - offset - c.index);
      if (!names.length) names = namesIn(sentence, f.index - offset);
      if (!names.length) {
        const l = lead();
        if (l && l.end <= f.index) names = [l.name];
      }
      out.push({ entry, kind: 'number', key: f.cls, value: String(f.n), shown: f.shown, num: f.n, words, names, index: f.index });
    }
  }
}

// ------------------------------------------------------------------ versions

/** Spelling -> tool. A Map: spellings come from memory text, and must never read Object.prototype. */
const TOOLS = new Map<string, string>(Object.entries({
  node: 'node', 'node.js': 'node', nodejs: 'node', python: 'python', react: 'react', typescript: 'typescript',
  postgres: 'postgres', postgresql: 'postgres', java: 'java', golang: 'go', go: 'go', ruby: 'ruby', rails: 'rails',
  django: 'django', 'next.js': 'next', nextjs: 'next', vue: 'vue', angular: 'angular', pnpm: 'pnpm', yarn: 'yarn',
  eslint: 'eslint', jest: 'jest', vitest: 'vitest', webpack: 'webpack', vite: 'vite', terraform: 'terraform', redis: 'redis',
  mysql: 'mysql', php: 'php', rust: 'rust', kotlin: 'kotlin', express: 'express', prisma: 'prisma', tailwind: 'tailwind',
  tailwindcss: 'tailwind', deno: 'deno', elixir: 'elixir', flutter: 'flutter', laravel: 'laravel', mongodb: 'mongodb',
  elasticsearch: 'elasticsearch', ubuntu: 'ubuntu', gradle: 'gradle', '.net': 'dotnet', dotnet: 'dotnet', svelte: 'svelte',
  nuxt: 'nuxt', expo: 'expo', 'expo sdk': 'expo', kubernetes: 'kubernetes', k8s: 'kubernetes', storybook: 'storybook', playwright: 'playwright',
}));
const AMBIGUOUS = new Set(['go', 'node', 'java', 'rust', 'ruby', 'express', 'vue', 'react']);
const VERSION_RE =
  /\b(node(?:\.js|js)?|python|react|typescript|postgres(?:ql)?|java|golang|go|ruby|rails|django|next(?:\.js|js)|vue|angular|pnpm|yarn|eslint|jest|vitest|webpack|vite|terraform|redis|mysql|php|rust|kotlin|express|prisma|tailwind(?:css)?|deno|elixir|flutter|laravel|mongodb|elasticsearch|ubuntu|gradle|\.net|dotnet|svelte|nuxt|kubernetes|k8s|storybook|playwright|expo(?: sdk)?)(?:\s+(?:version\s+)?|\s*v|@)(\d+(?:\.\d+){0,2})(\.x|\+| or (?:later|newer|above|higher))?(?![\w.]*\d)/gi;

/**
 * Right after a version (a hyphen or up to two modifiers between, no function words): a noun it
 * qualifies, a way of writing or laying out code that outlives the release ("in a Laravel 10
 * structure", "the Laravel 10 directory layout", "Python 2-style prints", "React 16 conventions",
 * "the Laravel 10 docs"). The version is an adjective for something else, not the version in use:
 * an app upgraded to Laravel 12 keeps its Laravel 10 structure (Laravel Boost writes exactly that
 * into every such app). Compiled once; matched on the text after each version.
 */
const QUALIFIED_NOUN =
  /^(?:\s*-\s*|\s+)(?:(?!(?:and|or|but|for|with|to|in|on|of|at|by|from|as|the|a|an|its|their|our|all|any|is|are|was|were|be|been|not|than|that|which|so|if|we|you|it|this|only|uses?|using|used|needs?|requires?|required|supports?|runs?|running|installed|everywhere)\b)[a-z][\w-]*[\s-]+){0,2}(structures?|layouts?|styles?|conventions?|formats?|syntax|idioms?|patterns?|way|approach|skeleton|scaffold(?:ing)?|boilerplate|(apis?|docs|documentation|guides?|manual))\b/i;
/**
 * "Use Expo SDK 50 APIs only": limited to a release's API (or its docs), the code must run on that
 * release; such a phrase still states the version in use.
 */
const RESTRICTED = /\b(?:only|exclusively|solely)\b/i;

/**
 * Whether the version ending at `end` of `sentence` qualifies a noun (`QUALIFIED_NOUN`) rather
 * than stating the version in use. (Versions after "upgraded from", "legacy", "until" are in
 * sentences `HISTORY` skips; after "since", "before", "pre-", "from" `isFeatureVersion` skips them.)
 */
function qualifiesNoun(sentence: string, end: number): boolean {
  const m = QUALIFIED_NOUN.exec(sentence.slice(end, end + 80));
  if (!m) return false;
  return !(m[2] && RESTRICTED.test(sentence));
}

function versionClaims(sentence: string, offset: number, entry: number, out: Claim[]) {
  if (/[<>^~]=?\s*\d/.test(sentence)) return;
  VERSION_RE.lastIndex = 0;
  const found: Claim[] = [];
  let m: RegExpExecArray | null;
  while ((m = VERSION_RE.exec(sentence))) {
    if (m[3] && m[3] !== '.x') continue; // "18+", "or later": a floor, not a value
    const tool = TOOLS.get(m[1].toLowerCase().replace(/\s+/g, ' '));
    if (!tool) continue;
    const v = m[2];
    // "Node 18 ships a global fetch", "arrived in Python 3.10": what a release does, not a value the project states.
    if (isFeatureVersion(sentence, m.index, m.index + m[0].length)) continue;
    // "in a Laravel 10 structure", "Python 2-style": the version qualifies something else.
    if (qualifiesNoun(sentence, m.index + m[0].length)) continue;
    // "Node 20 and 22", "Python 3.10, 3.11 or 3.12": a support matrix, not one value.
    // (The next member may repeat the subject, "Java 17 and Java 25"; another subject starts another claim.)
    const next = /^\s*(?:,|and\s|or\s|&\s)\s*(?:([a-z.]+)\s+)?v?\d/i.exec(sentence.slice(m.index + m[0].length));
    if (next && (!next[1] || next[1].toLowerCase() === m[1].toLowerCase())) continue;
    // ... and its last member ("Node 16, 18 or Node 22"; not "Python 3.12, Postgres 15").
    const subject = m[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const list = new RegExp(`\\b${subject}\\s*v?\\d[\\d.]*(?:\\s*(?:,|\\band|\\bor|&)\\s*v?\\d[\\d.]*)*\\s*(?:,|\\band|\\bor|&)\\s*$`, 'i');
    if (list.test(sentence.slice(Math.max(0, m.index - 80), m.index))) continue;
    if (AMBIGUOUS.has(m[1].toLowerCase()) && !v.includes('.') && !/v$|version\s+$/i.test(m[0].slice(m[1].length, m[0].length - v.length)) && !(tool === 'node' && Number(v) >= 10 && Number(v) <= 40))
      continue;
    found.push({ entry, kind: 'version', key: tool, value: v, shown: m[0].trim(), index: offset + m.index });
  }
  const perTool = new Map<string, number>();
  for (const f of found) perTool.set(f.key, (perTool.get(f.key) ?? 0) + 1);
  for (const f of found) if (perTool.get(f.key) === 1) out.push(f);
}

function versionsConflict(a: string, b: string): boolean {
  const pa = a.split('.');
  const pb = b.split('.');
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) if (Number(pa[i]) !== Number(pb[i])) return true;
  return false;
}

// ------------------------------------------------------------------ rules

function splitCamel(s: string): string {
  return s.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[`'"]/g, ' ');
}

const RULE_RE = /\b(always|never|must not|mustn't|must|do not|don't|should not|shouldn't)\b\s+([^.;!?\n]{3,120})/gi;
const RULE_NOISE = new Set(['ever', 'anything', 'thing', 'someth', 'something', 'please', 'really', 'any', 'directly', 'actually']);

function ruleClaims(sentence: string, offset: number, entry: number, out: Claim[]) {
  RULE_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = RULE_RE.exec(sentence))) {
    const modal = m[1].toLowerCase();
    const polarity = /never|not|n't/.test(modal) ? -1 : 1;
    // "never push without running lint" is a double negative: it agrees with "always run lint"
    if (polarity < 0 && /\b(?:without|unless|except|other than|before|until)\b/i.test(m[2])) continue;
    // cut the object at the first conjunction that starts another clause
    const obj = m[2].split(/\b(?:but|unless|except|because|so that|otherwise|instead)\b|[,—–(]/i)[0];
    const words = [...new Set(contentWords(splitCamel(obj)).filter((w) => !RULE_NOISE.has(w)))].slice(0, 8);
    if (words.length < 2) continue;
    out.push({ entry, kind: 'rule', key: 'rule', value: words.slice().sort().join(' '), shown: m[0].trim().slice(0, 80), words, polarity, index: offset + m.index });
  }
}

// ------------------------------------------------------------------ driver

const HAS_PM = /\b(?:npm|pnpm|yarn|bun|npx|pnpx|bunx|uv|poetry|pipenv|pdm|hatch|rye)\b/;
const HAS_DIGIT = /\d/;
const HAS_MODAL = /\b(?:always|never|must|not|n't)\b/i;
/** NUM_RE and VERSION_RE, not global: whether a text names a number with a unit, a tool's version, at all. */
const HAS_NUMBER = new RegExp(NUM_RE.source, 'i');
const HAS_VERSION = new RegExp(VERSION_RE.source, 'i');

// One scan of an entry's prose tells which kinds of claim it can hold at all (fidelity/
// keywords.ts: literals one of which every match of the test contains). A test whose gate fails
// on the entry cannot pass on any of its sentences, and is not run. The scan is shared with
// ephemeral's gates (PROSE_GATES): a prose text either check has scanned is not read again.
const GATE = PROSE_GATES.add([
  // HAS_PM
  ['npm', 'yarn', 'bun', 'npx', 'uv', 'poetry', 'pipenv', 'pdm', 'hatch', 'rye'],
  // HAS_DIGIT (a digit stands for any digit)
  ['0'],
  // HAS_MODAL
  ['always', 'never', 'must', 'not', "n't"],
  // HISTORY
  ['previously', 'used to', 'formerly', 'no longer', 'migrated from', 'migrating from', 'upgraded from', 'upgrading from', 'moved from',
    'switched from', 'replaced by', 'replaced with', 'deprecated', 'legacy', 'was', 'were', 'until', 'instead of', 'rather than', 'from ', 'vs',
    'versus'],
  // the tools of VERSION_RE
  ['node', 'python', 'react', 'typescript', 'postgres', 'java', 'go', 'ruby', 'rails', 'django', 'next', 'vue', 'angular', 'pnpm', 'yarn',
    'eslint', 'jest', 'vite', 'terraform', 'redis', 'mysql', 'php', 'rust', 'kotlin', 'express', 'prisma', 'tailwind', 'deno', 'elixir',
    'flutter', 'laravel', 'mongodb', 'elasticsearch', 'ubuntu', 'gradle', '.net', 'dotnet', 'svelte', 'nuxt', 'kubernetes', 'k8s', 'storybook',
    'playwright', 'expo'],
]);
const G_PM = 1 << 0;
const G_DIGIT = 1 << 1;
const G_MODAL = 1 << 2;
const G_HISTORY = 1 << 3;
const G_TOOL = 1 << 4;

/** What kinds of claim an entry's prose can hold (each test passes on the whole text). */
interface Kinds {
  command: boolean;
  /** A number with a unit (or a `%`, see `claimsOf`). */
  number: boolean;
  version: boolean;
  rule: boolean;
  history: boolean;
}

/**
 * Sentences end at a line end or at sentence punctuation followed by whitespace, never inside a
 * word or a number, and what surrounds a sentence in the text (whitespace, a line end,
 * punctuation) reads the same to every `\b` and lookaround of these tests as the sentence's own
 * edge. So a match inside a sentence is a match in the whole text, and a test that fails on the
 * text fails on every sentence: the entry's sentences are only split when some test passes.
 * `g`: the gate's groups present in `text`.
 */
function kindsOf(text: string, g: number): Kinds | undefined {
  const command = !!(g & G_PM) && HAS_PM.test(text);
  const digit = !!(g & G_DIGIT);
  const number = digit && (HAS_NUMBER.test(text) || text.includes('%'));
  const version = digit && !!(g & G_TOOL) && HAS_VERSION.test(text);
  const rule = !!(g & G_MODAL) && HAS_MODAL.test(text);
  if (!command && !number && !version && !rule) return undefined;
  const history = (command || number || version) && !!(g & G_HISTORY) && HISTORY.test(text);
  return { command, number, version, rule, history };
}

/** The sentences of a text, as `SENTENCE_RE` finds them (for tests: `claimsOf` uses `sentenceEnd`). */
export const SENTENCE_RE = /(?:[^.!?;\n]|[.!?;](?![\s]|$))+(?:[.!?;]+(?=\s|$)|\n|$)?/g;

/** `\s` of a regular expression: JavaScript's white space and line terminators. */
function isSpace(c: number): boolean {
  return (
    c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** `.`, `!`, `?` or `;`. */
function isStop(c: number): boolean {
  return c === 46 || c === 33 || c === 63 || c === 59;
}

/**
 * Where the sentence starting at `i` ends, exactly as `SENTENCE_RE` (run from `i`) would end it;
 * -1 when none starts at `i` (a line end, or a stop before white space or the end). The body
 * runs over everything but line ends and stops before white space or the end; the stop or line
 * end there is taken with it (the stop's greedy run is that one character, since white space or
 * the end follows it). A loop over char codes: the expression's per-character alternation and
 * its match arrays were most of the check's time.
 */
function sentenceEnd(text: string, i: number): number {
  const n = text.length;
  let j = i;
  while (j < n) {
    const c = text.charCodeAt(j);
    if (c === 10) break;
    if (isStop(c) && (j + 1 === n || isSpace(text.charCodeAt(j + 1)))) break;
    j++;
  }
  if (j === i) return -1;
  return j < n ? j + 1 : n;
}

/** The claims of one entry's prose, sentence by sentence (`SENTENCE_RE`'s sentences). */
function claimsOf(text: string, kinds: Kinds, entry: number, claims: Claim[]): void {
  let leadKnown = false;
  let leadThing: { name: string; end: number } | undefined;
  const lead = () => {
    if (!leadKnown) [leadKnown, leadThing] = [true, leadName(text)];
    return leadThing;
  };
  for (let at = 0; at < text.length; ) {
    const end = sentenceEnd(text, at);
    if (end < 0) {
      at++;
      continue;
    }
    const sentence = text.slice(at, end);
    const index = at;
    at = end;
    if (!sentence.trim()) continue;
    const historic = kinds.history && HISTORY.test(sentence);
    if (!historic) {
      if (kinds.command && HAS_PM.test(sentence)) commandClaims(sentence, index, entry, claims);
      if ((kinds.number || kinds.version) && HAS_DIGIT.test(sentence)) {
        // a clause holds a number with a unit only where the sentence does, but for a clause
        // cut right after a `%` ("5%and"): then the sentence is read too
        if (kinds.number && (HAS_NUMBER.test(sentence) || sentence.includes('%'))) numberClaims(sentence, index, entry, claims, lead);
        if (kinds.version) versionClaims(sentence, index, entry, claims);
      }
    }
    if (kinds.rule && HAS_MODAL.test(sentence)) ruleClaims(sentence, index, entry, claims);
  }
}

/** The sentences `claimsOf` reads, as [index, text] (for tests). */
export function sentencesOf(text: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  for (let at = 0; at < text.length; ) {
    const end = sentenceEnd(text, at);
    if (end < 0) at++;
    else {
      out.push([at, text.slice(at, end)]);
      at = end;
    }
  }
  return out;
}

function jaccard(a: string[], b: string[]): { j: number; inter: number } {
  const sb = new Set(b);
  let inter = 0;
  for (const x of a) if (sb.has(x)) inter++;
  const union = a.length + b.length - inter;
  return { j: union ? inter / union : 0, inter };
}

/** Candidate pairs of claims sharing a key (and for worded claims, a rare word). */
function pairs(claims: Claim[], worded: boolean): Array<[Claim, Claim]> {
  const out: Array<[Claim, Claim]> = [];
  const seen = new PairSet();
  const index = new Map<string, Claim[]>();
  claims.forEach((c, i) => (c.id = i));
  for (const c of claims) {
    const keys = worded ? (c.words ?? []).map((w) => c.key + ':' + w) : [c.key];
    for (const k of keys) {
      const l = index.get(k);
      if (l) l.push(c);
      else index.set(k, [c]);
    }
  }
  for (const list of index.values()) {
    if (list.length < 2 || list.length > (worded ? 50 : 200)) continue; // frequent words do not tell subjects apart
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i];
        const b = list[j];
        if (a.entry === b.entry) continue;
        if (!seen.add(a.id!, b.id!)) continue;
        out.push([a, b]);
      }
  }
  return out;
}

export function findContradictions(ctx: CheckContext): Finding[] {
  const { entries } = ctx;
  const byKind: Record<Claim['kind'], Claim[]> = { command: [], number: [], version: [], rule: [] };
  const texts = textsOf(entries);
  entries.forEach((e, i) => {
    if (e.type === 'superseded' || e.kind === 'frontmatter-field' || e.kind === 'section') return;
    const text = texts.proseWithOffsets(i);
    const kinds = kindsOf(text, PROSE_GATES.scan(entries, i, text, GATE));
    if (!kinds) return;
    const claims: Claim[] = [];
    claimsOf(text, kinds, i, claims);
    for (const c of claims) byKind[c.kind].push(c);
  });

  const conflicts: Array<{ a: Claim; b: Claim; what: string }> = [];
  for (const [a, b] of pairs(byKind.command, false)) if (commandsConflict(a, b)) conflicts.push({ a, b, what: `to ${jobLabel(a.key)}` });
  for (const [a, b] of pairs(byKind.version, false))
    if (versionsConflict(a.value, b.value)) conflicts.push({ a, b, what: `for ${a.key}` });
  for (const [a, b] of pairs(byKind.number, true)) {
    if (a.num === b.num) continue;
    // different named things are different subjects, whatever words their clauses share
    if (differentNames(a.names!, b.names!)) continue;
    const { j, inter } = jaccard(a.words!, b.words!);
    if (inter >= 2 && j >= 0.5) conflicts.push({ a, b, what: `for the same ${a.key === 'time' ? 'duration' : a.key}` });
  }
  for (const [a, b] of pairs(byKind.rule, true)) {
    if (a.polarity === b.polarity) continue;
    const { j, inter } = jaccard(a.words!, b.words!);
    if (inter >= 2 && j >= 0.75) conflicts.push({ a, b, what: 'as opposite rules' });
  }

  const out: Finding[] = [];
  const done = new Set<string>();
  const files = fileMap(ctx.files);
  const scope = (e: Entry) => scopeOf(e.file, files.get(e.file)?.memoryDir);
  for (const { a, b, what } of conflicts) {
    const ea = entries[a.entry];
    const eb = entries[b.entry];
    // sibling packages may use different tools: only files loaded together can contradict
    if (!scopesOverlap(scope(ea), scope(eb))) continue;
    const key = [ea.id, eb.id].sort().join(':');
    if (done.has(key)) continue;
    done.add(key);
    out.push(finding(ea, a, eb, b, what), finding(eb, b, ea, a, what));
  }
  return out;
}

/** Job -> what the message says. A Map: a job may be a script name from memory text (`constructor`). */
const JOB_LABEL = new Map<string, string>(Object.entries({
  test: 'run the tests', 'test:e2e': 'run the end-to-end tests', lint: 'lint', build: 'build', typecheck: 'type-check',
  format: 'format', dev: 'start the dev server', install: 'install dependencies',
}));

function jobLabel(key: string): string {
  const [job, ws] = key.split('@');
  return (JOB_LABEL.get(job) ?? job) + (ws ? ` in ${ws}` : '');
}

function finding(e: Entry, c: Claim, other: Entry, oc: Claim, what: string): Finding {
  return {
    entryId: e.id,
    file: e.file,
    line: lineInEntry(e, c.index),
    kind: 'contradiction',
    severity: 'warning',
    ref: c.shown,
    message: `"${c.shown}" contradicts "${oc.shown}" at ${where(other)} ${what}; keep the one that is true and fix or delete the other.`,
    evidence: { now: other.id, file: other.file, line: lineInEntry(other, oc.index), claim: c.kind, subject: c.key },
  };
}

export const contradictionCheck: Check = {
  needs: 'memory',
  id: 'contradiction',
  kinds: ['contradiction'],
  severity: 'warning',
  description:
    'Entries that give different values for the same thing: commands for the same job, numbers with the same unit and subject, versions of the same tool, opposite always/never rules.',
  run: findContradictions,
};
