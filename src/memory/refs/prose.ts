// Versions, counts, issue numbers and package names written in prose.

export interface ProseHit {
  kind: 'version' | 'count' | 'issue' | 'package';
  start: number;
  end: number;
  raw: string;
  value: string;
  subject?: string;
  version?: string;
  count?: number;
  noun?: string;
  bound?: 'exact' | 'atLeast' | 'approx';
  /** Counts: the folder named next to the count (`in skills/`). */
  where?: string;
  number?: number;
  repo?: string;
  issueKind?: 'issue' | 'pr' | 'unknown';
  describedOpen?: boolean;
}

/** Brand spellings -> package or runtime name. */
export const SUBJECT_ALIASES: Record<string, string> = {
  'node.js': 'node', nodejs: 'node', node: 'node', python: 'python', python3: 'python', cpython: 'python',
  go: 'go', golang: 'go', rust: 'rust', ruby: 'ruby', java: 'java', deno: 'deno', bun: 'bun', php: 'php',
  typescript: 'typescript', ts: 'typescript', react: 'react', 'next.js': 'next', nextjs: 'next', next: 'next',
  'vue.js': 'vue', vuejs: 'vue', vue: 'vue', 'nuxt.js': 'nuxt', nuxt: 'nuxt', angular: '@angular/core',
  svelte: 'svelte', sveltekit: '@sveltejs/kit', vite: 'vite', vitest: 'vitest', jest: 'jest', eslint: 'eslint',
  prettier: 'prettier', tailwind: 'tailwindcss', tailwindcss: 'tailwindcss', 'tailwind css': 'tailwindcss',
  express: 'express', fastify: 'fastify', hono: 'hono', prisma: 'prisma', drizzle: 'drizzle-orm', zod: 'zod',
  electron: 'electron', webpack: 'webpack', rollup: 'rollup', esbuild: 'esbuild', pnpm: 'pnpm', npm: 'npm',
  yarn: 'yarn', django: 'django', flask: 'flask', fastapi: 'fastapi', pydantic: 'pydantic', pytest: 'pytest',
  mkdocs: 'mkdocs', storybook: 'storybook', playwright: '@playwright/test', astro: 'astro', remix: '@remix-run/react',
  'react native': 'react-native', 'react-native': 'react-native', expo: 'expo', tokio: 'tokio', serde: 'serde',
  mocha: 'mocha', babel: '@babel/core', redux: 'redux', graphql: 'graphql', mongoose: 'mongoose', sequelize: 'sequelize',
  typeorm: 'typeorm', nestjs: '@nestjs/core', 'nest.js': '@nestjs/core', turborepo: 'turbo', turbo: 'turbo', nx: 'nx',
  lerna: 'lerna', biome: '@biomejs/biome', ruff: 'ruff', mypy: 'mypy', black: 'black', poetry: 'poetry', uv: 'uv',
  gunicorn: 'gunicorn', uvicorn: 'uvicorn', numpy: 'numpy', pandas: 'pandas', 'socket.io': 'socket.io',
};

/** The alias of a lower-cased subject, from SUBJECT_ALIASES' own keys only (never Object.prototype: `constructor`). */
export function subjectAlias(subject: string): string | undefined {
  return Object.hasOwn(SUBJECT_ALIASES, subject) ? SUBJECT_ALIASES[subject] : undefined;
}


/** Words that name packages in some ecosystem but are ordinary English in prose: only taken from code. */
export const PROSE_STOPWORDS = new Set(
  (
    'a an the and or but if then else when while for to of in on at by with from into onto as is are was were be been ' +
    'being it its this that these those there here we you they he she i me my our your their not no yes all any each ' +
    'every some most more less many much few one two three four five six seven eight nine ten use uses used using run ' +
    'runs running build builds test tests testing format lint check checks debug log logs logger path paths util utils ' +
    'events event process buffer stream streams url assert crypto http https net os fs child string number object array ' +
    'map set date error errors type types open close which once request requests got async sync color colors chalk glob ' +
    'once ms bytes send serve vary mime fresh merge extend clone inherits depd statuses accepts cookie etag proxy ' +
    'rich click black attrs six future typing mock requests toml yaml json ini dotenv execa ora signal which ws ' +
    'concurrently globals commander core common config configs server client shared ui app api cli web docs doc data ' +
    'db store state cache queue worker workers jobs job task tasks hooks hook router routes route model models schema ' +
    'schemas view views page pages component components lib libs src dist bin scripts script tools tool plugin plugins ' +
    'module modules package packages dependency dependencies framework library service services main index default ' +
    'defaults auth session sessions user users admin dev prod production development staging local remote new old ' +
    'latest stable next previous first last start stop restart status info warn warning help version versions release ' +
    'releases update upgrade install uninstall add remove delete create read write get put post patch head options ' +
    'fetch watch serve preview clean reset init setup deploy publish pack link unlink list show find search filter sort ' +
    'parse parser render renderer compile compiler transform bundle bundler loader runtime env environment ' +
    'context provider providers adapter adapters handler handlers middleware controller controllers helper helpers ' +
    'node python go rust java ruby shell bash zsh git github gitlab docker make just cargo pip npm pnpm yarn bun deno ' +
    'also only just even still very so such than too can could should would will shall may might must do does did ' +
    'done have has had make makes made see note notes via per about after before over under between through during ' +
    'without within against across up down out off again further then once both either neither other another same ' +
    'own each few what who whom whose why how where true false null undefined none nil ok okay test-utils semver ' +
    'inquirer prompts prompt table tables pretty kleur picocolors colorette consola pino winston morgan debug-log ' +
    'sharp canvas jsdom uuid nanoid cuid slugify marked remark rehype unified micromark mdast vfile gray-matter ' +
    'minimist yargs meow cac arg sade mri citty clipanion oclif vorpal caporal'
  ).split(/\s+/),
);

const OPEN_WORDS =
  /\b(?:open|opened|in[- ]progress|wip|pending|blocked|blocking|being worked on|working on|work in progress|todo|to-do|tracking|tracked in|awaiting|waiting (?:on|for)|not yet (?:merged|fixed|resolved|done)|unresolved|ongoing|draft|under review|needs review|in review|until .{0,20}(?:merged|fixed|lands|resolved)|once .{0,30}(?:merged|fixed|lands|resolved)|upcoming|planned)\b/i;
const CLOSED_WORDS = /\b(?:closed|fixed|merged|resolved|landed|done|shipped|completed|reverted)\b/i;

const DIGIT = /\d/;

const NUMBER_WORD = /^(?:v?\d+(?:\.(?:\d+|x))*(?:\.x)?)$/i;

/** Scans one prose text (already stripped of code) for versions, counts and issues. */
export function scanProse(text: string, _opts: { inCode?: boolean } = {}): ProseHit[] {
  const out: ProseHit[] = [];
  if (!DIGIT.test(text)) return out; // issues and versions all have a number
  scanIssues(text, out);
  scanVersions(text, out);
  return out;
}

/** Counts are read over a whole entry (prose and inline code, fenced code masked) so that `in \`dir/\`` is seen. */
export function scanCountsIn(text: string): ProseHit[] {
  const out: ProseHit[] = [];
  scanCounts(text, out);
  return out;
}

function sentenceAround(text: string, s: number, e: number): string {
  let a = s;
  while (a > 0 && !endsSentence(text.charCodeAt(a - 1)) && s - a < 160) a--;
  let b = e;
  while (b < text.length && !endsSentence(text.charCodeAt(b)) && b - e < 160) b++;
  return text.slice(a, b);
}

/** `[.!?\n]` (on character codes: no one-character strings). */
function endsSentence(c: number): boolean {
  return c === 46 || c === 33 || c === 63 || c === 10;
}

// Issue patterns (global: lastIndex is reset before each scan; no scan runs inside another).
const ISSUE_URL = /https?:\/\/github\.com\/([\w.-]+\/[\w.-]+)\/(issues|pull)\/(\d+)\b/g;
const ISSUE_REF = /(?<![\w#&/.-])(?:(PRs?|pull requests?|issues?|bugs?|tickets?)\s+)?(?:([\w.-]+\/[\w.-]+))?#(\d{1,6})\b/gi;
const ISSUE_SPELLED = /\b(PR|pull request|issue)\s+(\d{1,6})\b/gi;

function scanIssues(text: string, out: ProseHit[]): void {
  const push = (s: number, e: number, n: number, kind: ProseHit['issueKind'], repo?: string) => {
    const sentence = sentenceAround(text, s, e);
    const rest = sentence.replace(text.slice(s, e), ' ');
    const open = OPEN_WORDS.test(rest) && !CLOSED_WORDS.test(rest);
    out.push({ kind: 'issue', start: s, end: e, raw: text.slice(s, e), value: `${repo ? repo : ''}#${n}`, number: n, issueKind: kind, repo, describedOpen: open });
  };
  let m: RegExpExecArray | null;
  const url = ISSUE_URL;
  url.lastIndex = 0;
  const taken: Array<[number, number]> = [];
  // (Each scan below is skipped when the text lacks what it needs: github.com/, #, a digit after whitespace.)
  if (text.includes('github.com/')) while ((m = url.exec(text))) {
    push(m.index, m.index + m[0].length, Number(m[3]), m[2] === 'pull' ? 'pr' : 'issue', m[1]);
    taken.push([m.index, m.index + m[0].length]);
  }
  const inTaken = (i: number) => taken.some(([a, b]) => i >= a && i < b);
  const words = ISSUE_REF;
  words.lastIndex = 0;
  if (text.includes('#')) while ((m = words.exec(text))) {
    if (inTaken(m.index)) continue;
    const hashAt = m.index + m[0].lastIndexOf('#');
    const before = text[hashAt - 1];
    if (before && !m[2] && /[\w&/]/.test(before)) continue; // a#1, &#123;
    const after = text[hashAt + 1 + m[3].length];
    if (after && /[\w-]/.test(after)) continue;
    const w = (m[1] || '').toLowerCase();
    const kind = w.startsWith('p') ? 'pr' : w ? 'issue' : 'unknown';
    push(m.index, m.index + m[0].length, Number(m[3]), kind, m[2]);
  }
  const spelled = ISSUE_SPELLED;
  spelled.lastIndex = 0;
  if (SPACE_DIGIT.test(text)) while ((m = spelled.exec(text))) {
    if (inTaken(m.index)) continue;
    push(m.index, m.index + m[0].length, Number(m[2]), m[1].toLowerCase() === 'issue' ? 'issue' : 'pr');
  }
}

/** Words that precede a version without being what is versioned. */
const SUBJECT_STOP = new Set(
  'since from released release releases version versions until till before after in at to v tagged shipped published upgrade upgraded upgrading bump bumped requires require required supports support supported uses use using with on and or is was are were be of for the by than below above under over least most pinned pin min max minimum maximum targets target runs run needs need tested'.split(' '),
);

const VERSION_TOKEN = String.raw`v?\d+(?:\.\d+){0,2}(?:\.x)?`;
const VERSION_RE = new RegExp(
  String.raw`(?<![\w.@/-])((?:[A-Z@][\w.@/-]*|[a-z][\w@/-]*(?:\.js)?))(?:\s+version)?\s+(>=|≥|\^|~|>)?\s?(` +
    VERSION_TOKEN +
    String.raw`(?:\s?(?:-|–|to)\s?` + VERSION_TOKEN + String.raw`)?)(\+|\s+or\s+(?:later|newer|higher|above))?(?![\w.]*\d)(?![\w/-])`,
  'g',
);

/**
 * `Subject:` then a version, emphasis around either (`**Java:** 11`, `**Kotlin**: 1.9.24`,
 * `Node.js: 20`), a bold subject (`**Python** 3.10+`) or a table row's cells (`| Python | 3.10+ |`).
 */
const LABEL_VERSION = /(?<![\w.@/-])([A-Za-z][\w.]*(?: [A-Za-z][\w.]*)?)(?:(?:\*\*|__)?:(?:\*\*|__)?|\*\*|__|[ \t]*\|)[ \t]+(v?\d+(?:\.\d+){0,2}(?:\.x)?)(\+)?(?![\w.]*\d)(?![\w/%-])/g;
/** Label subjects beyond SUBJECT_ALIASES' keys. */
const LABEL_SUBJECTS = new Set(['kotlin', 'jdk', 'openjdk', 'laravel', 'rails', 'symfony', 'spring boot', 'flutter', 'dart', 'swift', 'elixir', 'erlang', '.net', 'dotnet']);

/** An item of Laravel Boost's package list: `- vendor/name (ALIAS) - v12` (its package, alias and major). */
const BOOST_ITEM = /^[ \t]*[-*][ \t]+((?:@[\w.-]+\/)?[\w.-]+(?:\/[\w.-]+)?)[ \t]+\(([A-Z][A-Z0-9_-]*)\)[ \t]+-[ \t]+(v?\d+(?:\.\d+){0,2})[ \t]*$/gm;

/** A digit right after whitespace. */
const SPACE_DIGIT = /\s\d/;
/** What VERSION_RE needs before its number: whitespace or an operator, then v? and a digit. */
const VERSION_HINT = /[\s=≥^~>]v?\d/;
/** What a standalone project version needs: 1.2.3. */
const PROJECT_VERSION_HINT = /\d\.\d+\.\d/;

/** A list separator: `,` (then `and`/`or`), `and`, `or`, `&` (`/` never reaches here: VERSION_RE ends before it). */
const LIST_SEP = String.raw`(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or|&)\s+)`;
/** One more member: a version, not followed by a unit or a counted noun ("Node 20, 4 GB of RAM" is no list). */
const LIST_MEMBER = String.raw`v?\d+(?:\.\d+){0,2}(?:\.x)?\+?(?![\w.]*\d)(?![\w/-])(?!\s*(?:%|[KMGT]i?B\b|cores?\b|CPUs?\b|GPUs?\b|workers?\b|threads?\b|times\b|minutes?\b|seconds?\b|hours?\b|days?\b|ms\b|s\b|x\b))`;
const LIST_MEMBER_RE = new RegExp('^' + LIST_SEP + LIST_MEMBER);
/** What a list needs right after its first version (a cheap test before the patterns). */
const LIST_START = /^\s*(?:,|(?:and|or|&)\s)/;
/** Right before a subject: one or more versions and a separator ("3.10, 3.11 and "). */
const VERSION_LIST_BEFORE = new RegExp(String.raw`(?<![\w.-])v?\d+(?:\.\d+){0,2}(?:\.x)?\+?` + `(?:${LIST_SEP}${LIST_MEMBER})*` + LIST_SEP + '$');

/**
 * The rest of a version list right after the version ending at `end` (`" and 25"`, `", 3.11, and 3.12"`,
 * `" and Java 25"`: the subject may be repeated, no other subject), or '' when none follows.
 */
function versionListAfter(text: string, end: number, subjectRaw: string): string {
  if (!LIST_START.test(text.slice(end, end + 6))) return '';
  let at = end;
  const same = new RegExp('^' + LIST_SEP + subjectRaw.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + String.raw`\s+` + LIST_MEMBER, 'i');
  for (;;) {
    const rest = text.slice(at, at + 80);
    const m = LIST_MEMBER_RE.exec(rest) ?? same.exec(rest);
    if (!m) break;
    at += m[0].length;
  }
  return text.slice(end, at);
}

/**
 * Rust's minimum supported version in Cargo's words: `MSRV 1.89` / `MSRV: 1.89` / `MSRV is 1.89`, "minimum
 * supported Rust version (is) 1.89" (an `(MSRV)` between allowed), `rust-version = "1.89"` (the Cargo key,
 * quoted in prose or inline code). Subject `rust-msrv`: compared with Cargo's `rust-version` only.
 */
const MSRV_RE =
  /(?<![\w.-])(?:MSRV|minimum[ -]supported[ -]Rust[ -]version(?:\s*\(MSRV\))?)(?:\s*:\s*|\s+(?:is\s+|of\s+|=\s*)?)v?(\d+\.\d+(?:\.\d+)?)(?![\w.]*\d)(?![\w/-])|(?<![\w.-])rust-version\s*=\s*"(\d+\.\d+(?:\.\d+)?)"/gi;
/** What MSRV_RE needs somewhere in the text. */
const MSRV_HINT = /msrv|minimum[ -]supported[ -]rust|rust-version/i;

/** Rust floor statements (see MSRV_RE), not in a version list nor a feature statement ("since MSRV 1.80"). */
function scanMsrv(text: string, out: ProseHit[]): void {
  if (!MSRV_HINT.test(text)) return;
  let m: RegExpExecArray | null;
  for (MSRV_RE.lastIndex = 0; (m = MSRV_RE.exec(text)); ) {
    const ver = m[1] ?? m[2]!;
    const start = m.index;
    const end = m.index + m[0].length;
    if (m[1] && (LIST_START.test(text.slice(end, end + 6)) && LIST_MEMBER_RE.test(text.slice(end, end + 40)))) continue;
    if (isFeatureVersion(text, start, end)) continue;
    out.push({ kind: 'version', start, end, raw: m[0], value: ver, subject: 'rust-msrv', version: ver, bound: 'atLeast' });
  }
}

/** Whether [start, end) overlaps a version already read (one reading per stretch of text). */
function overlapsVersion(out: ProseHit[], start: number, end: number): boolean {
  return out.some((h) => h.kind === 'version' && start < h.end && h.start < end);
}

function scanVersions(text: string, out: ProseHit[]): void {
  let m: RegExpExecArray | null;
  const before = out.length;
  scanMsrv(text, out);
  const msrv = out.slice(before);
  VERSION_RE.lastIndex = 0;
  if (VERSION_HINT.test(text)) while ((m = VERSION_RE.exec(text))) {
    const subjectRaw = m[1];
    const subject = subjectRaw.toLowerCase();
    // `MSRV 1.89`, "minimum supported Rust version 1.89": read by scanMsrv
    if (msrv.length && msrv.some((h) => m!.index < h.end && h.start < m!.index + m![0].length)) continue;
    const ver = m[3];
    if (!/\d/.test(ver)) continue;
    // "Step 2", "Phase 3": a bare integer needs a known subject.
    const key = subjectAlias(subject) ?? subject;
    const plainInt = /^\d+$/.test(ver);
    if (plainInt && Number(ver) > 300) continue;
    if (/^(?:step|phase|part|layer|stage|level|tier|section|chapter|item|option|project|version|release|v|table|tables|priority|todo|p|day|days|week|weeks|hour|hours|minute|minutes|port|line|lines|page|issue|pr|claude|gpt|sonnet|opus|haiku|gemini|llama|windows|macos|ios|android|ubuntu|debian|es|ecmascript|http|tls|utf|sha|md|h|top|group|round|q)$/.test(subject))
      continue;
    if (PROSE_STOPWORDS.has(subject) && !subjectAlias(subject)) continue;
    if (SUBJECT_STOP.has(subject)) continue;
    if (plainInt && !subjectAlias(subject) && !/[A-Z]/.test(subjectRaw) && !/[-@.]/.test(subjectRaw)) continue;
    const bound: ProseHit['bound'] = m[4] ? 'atLeast' : m[2] && m[2] !== '^' && m[2] !== '~' ? 'atLeast' : 'exact';
    const start = m.index;
    const end = m.index + m[0].length;
    // "Node 18 ships a global fetch", "arrived in Python 3.10": a fact about the runtime, not the project's requirement.
    if (isFeatureVersion(text, start, end)) continue;
    // "Java 17 and 25", "Python 3.10, 3.11 or 3.12", "Java 17 and Java 25": a support matrix, not one
    // version. The hit covers the whole list and its `version` holds it ("17 and 25"), so the check
    // can tell a list (never compared with one declared version) from a single statement.
    const list = versionListAfter(text, end, subjectRaw);
    if (list) {
      VERSION_RE.lastIndex = end + list.length; // "Java 25" of "Java 17 and Java 25" is the same list
      out.push({ kind: 'version', start, end: end + list.length, raw: text.slice(start, end + list.length).trimEnd(), value: ver, subject: key, version: ver + list, bound });
      continue;
    }
    const lead = VERSION_LIST_BEFORE.exec(text.slice(Math.max(0, start - 40), start));
    // Its first member has no subject of its own ("tested on 3.10, 3.11 and Python 3.12"): in "Python 3.10
    // and Node 18" the two are separate statements.
    const leadWord = lead ? /([A-Za-z][\w.@/-]*)\s*$/.exec(text.slice(Math.max(0, start - lead[0].length - 40), start - lead[0].length)) : null;
    if (lead && (!leadWord || SUBJECT_STOP.has(leadWord[1].toLowerCase()))) {
      // "3.10, 3.11 and Python 3.12": the last member of a list whose first members have no subject.
      out.push({ kind: 'version', start, end, raw: text.slice(start, end).trimEnd(), value: ver, subject: key, version: lead[0].trim() + ' ' + ver, bound });
      continue;
    }
    out.push({ kind: 'version', start, end, raw: text.slice(start, end).trimEnd(), value: ver, subject: key, version: ver + (m[4] ? '+' : ''), bound });
  }
  // A label and its value ("**Java:** 11", "**Kotlin**: 1.9.24", "- Node.js: 20", "**Python**
  // 3.10+", "| Python | 3.10+ |"), the forms /init writes for a project's stack: for languages and
  // frameworks the reader knows only.
  if (text.includes(':') || text.includes('**') || text.includes('__') || text.includes('|')) {
    LABEL_VERSION.lastIndex = 0;
    while ((m = LABEL_VERSION.exec(text))) {
      const subject = m[1].toLowerCase();
      if (!subjectAlias(subject) && !LABEL_SUBJECTS.has(subject)) continue;
      const start = m.index;
      const end = m.index + m[0].length;
      if (overlapsVersion(out, start, end)) continue;
      if (isFeatureVersion(text, start, end)) continue;
      out.push({ kind: 'version', start, end, raw: m[0], value: m[2], subject: subjectAlias(subject) ?? subject, version: m[2] + (m[3] ? '+' : ''), bound: m[3] ? 'atLeast' : 'exact' });
    }
  }
  // Laravel Boost's package list ("- laravel/framework (LARAVEL) - v12", "- tailwindcss
  // (TAILWINDCSS) - v4"): one package and its major per item, written into every file Boost keeps.
  if (text.includes(') - ')) {
    BOOST_ITEM.lastIndex = 0;
    while ((m = BOOST_ITEM.exec(text))) {
      const start = m.index + m[0].indexOf(m[1]);
      const end = m.index + m[0].length;
      if (overlapsVersion(out, start, end)) continue;
      out.push({ kind: 'version', start, end, raw: text.slice(start, end), value: m[3], subject: m[1].toLowerCase(), version: m[3], bound: 'exact' });
    }
  }
  // Standalone project versions: "v0.2.0", "version 5.0.2".
  const proj = /(?<![\w.@/-])(?:(version\s+)|v)(\d+\.\d+\.\d+)(?![\w.+-]*\d)/gi;
  if (PROJECT_VERSION_HINT.test(text)) while ((m = proj.exec(text))) {
    const before = text.slice(Math.max(0, m.index - 40), m.index).toLowerCase();
    if (/\b(?:since|from|before|after|until|till|in|introduced|added|removed|deprecated|as of|prior to|starting|pre|post|older|newer|up to|through|released?|shipped|tagged|published|bump(?:ed)? to|upgrad(?:e|ed|ing) to|migrat\w* to|fixed in|broken in|broke in|regressed in|changelog for|notes for)\s*$/.test(before)) continue;
    const afterText = text.slice(m.index + m[0].length, m.index + m[0].length + 30).toLowerCase();
    if (/^\s*(?:introduced|added|removed|deprecated|released|shipped|changelog|release notes|and later|and earlier|or later|onwards)/.test(afterText)) continue;
    if (overlapsVersion(out, m.index, m.index + 1)) continue;
    out.push({ kind: 'version', start: m.index, end: m.index + m[0].length, raw: m[0], value: m[2], subject: '(project)', version: m[2], bound: 'exact' });
  }
}

/**
 * Verbs that make a version (right before them, an adverb allowed between) the subject of a statement about
 * what that release of the language or tool does ("Node 18 ships a global fetch", "Python 3.14 evaluates
 * annotations lazily", "React 18 batches state updates"): a fact about the release, true whatever the project
 * requires. Not `uses`, `is`, `needs`, `requires` (the project's own sentences say "Node 20 is required").
 */
const FEATURE_VERB_AFTER =
  /^(?:'s|’s)\b|^\s+(?:\w+ly\s+)?(?:ships|shipped|introduces|introduced|adds|added|brings|brought|evaluates|evaluated|allows|allowed|lets|enables|enabled|supports|provides|provided|includes|included|has(?! to)|had(?! to)|gains|gained|gets|got|makes|made|changes|changed|removes|removed|deprecates|deprecated|drops|dropped|batches|treats|accepts|rejects|infers|narrows|emits|throws|warns|raises|exposes|implements|defaults|resolves|handles|caches|comes with|came with|no longer|landed|arrived|became|becomes|replaces|replaced|stabili[sz]es|stabili[sz]ed|fixes|fixed|breaks|broke)\b/i;
/**
 * Words that make a version (right after them) the object of a feature or history phrase ("arrived in Python
 * 3.10", "deprecated in Node 22", "since Go 1.21", "as of TypeScript 5.0", "new in Python 3.12"): when a feature
 * came or went, not what the project requires.
 */
const FEATURE_PHRASE_BEFORE =
  /(?:\b(?:ships|shipped|introduced|added|arrived|available|new|deprecated|removed|dropped|released|landed|stabili[sz]ed|changed|fixed|broken|default|enabled|supported natively|native|built[- ]in|included|bundled|experimental|stable|unflagged)\s+(?:in|with|from|since|as of|starting (?:in|with|from))|\b(?:since|as of|starting (?:in|with|from)|prior to|before|pre-|up to|until))\s*$/i;
/** Before a version in its clause: the project requires, supports, uses, targets or runs it. */
const PROJECT_TIE_BEFORE =
  /\b(?:requires?|required|requiring|needs?|supports?|supported|uses?|using|used|targets?|targeting|runs? (?:on|under|with)|running (?:on|under|with)|tested (?:on|with|against)|pinned (?:to|at)|pins?|we|we're|we've|our|us|this (?:project|repo|repository|codebase|package|app|library)|the (?:project|repo|repository|codebase)|minimum|min)\b/i;
/** After a subject version in its clause: it is the project's floor ("Python 3.14 has been our minimum"). */
const PROJECT_TIE_AFTER = /\b(?:minimum|min|required|requirement|baseline|floor)\b/i;
/**
 * Right after a version (up to two modifiers between): a language feature it qualifies ("Python 3.10+ syntax",
 * "Go 1.22 loop semantics", "Python 3.12 features"): when the feature appeared, true whatever floor the
 * project declares above it. The modifiers are no function words ("Node 20 for new features" is no such phrase).
 */
const FEATURE_NOUN_AFTER =
  /^\s+(?:(?!(?:and|or|but|for|with|to|in|on|of|at|by|from|as|the|a|an|its|their|our|all|any|is|are|was|be|not|than|that|which|so|if|we|you|uses?|using|needs?|requires?|supports?)\b)[a-z][\w-]*\s+){0,2}(?:syntax|features?|semantics|patterns?|loops?|iterators?|generics|routing|decorators|threads|type\s+parameters?)\b/i;
/** Right before a version: the verb of "X need(s) / require(s) (at least)" (the subject is read separately). */
const NEED_BEFORE = /\b(?:needs?|requires?|requiring)\s+(?:at least\s+|a minimum of\s+)?$/i;
/**
 * A language or library construct as the subject of a need ("range-over-func iterators need Go 1.23",
 * "`match` statements require Python 3.10", "the `tomllib` module needs Python 3.11"): the version says
 * what the construct needs, not what the project requires — a floor above it keeps the sentence true.
 */
const FEATURE_NOUN =
  /\b(?:syntax|features?|semantics|iterators?|generics?|annotations?|hints?|unions?|operators?|statements?|expressions?|keywords?|literals?|built-?ins?|decorators?|f-strings?|comprehensions?|matching|loops?|closures?|lambdas?|coroutines?|generators?|apis?|modules?|functions?|methods?|types?|classes|parameters?|aliases|enums?|traits?|macros?|constructs?|idioms?|primitives?)\b/i;
/** A subject that is one identifier in inline code (`tomllib`, `slices.Contains`): a library name, no command or path. */
const CODE_NAME_SUBJECT = /^(?:the\s+)?`[\w.:-]+`$/i;
/** A subject that is the project or one of its parts ("we need", "this project requires", "the CLI needs"). */
const PROJECT_SUBJECT =
  /\b(?:we|our|us|i)\b|\b(?:this|the)\s+(?:project|repo|repository|codebase|code|app|application|package|library|module|crate|cli|tool|server|service|backend|frontend|build|tests?|suite)\b/i;
/** Right before a version: `from` ("in the standard library from Python 3.11"): when something came, unless tied to the project. */
const FROM_BEFORE = /\bfrom\s+$/i;
/** Before `from` in its clause: the project works or is tested from that version on ("works from Node 18"). */
const FROM_PROJECT_TIE = /\b(?:works?|working|compatible|tested|runs?|running|builds?|installs?)\b/i;

/**
 * The clause around [s, e): bounded by sentence ends (`.`, `!`, `?` before whitespace), line ends, `;`, `:`
 * and `,` before whitespace, and dashes between spaces (a comma splits "Since Python 3.10, we use `match`":
 * what the second clause says is not said of the version).
 */
function clauseAround(text: string, s: number, e: number): [string, string] {
  const stop = (i: number): boolean => {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 59) return true; // \n ;
    const next = text.charCodeAt(i + 1);
    const spaced = i + 1 >= text.length || next === 32 || next === 9 || next === 10;
    if ((c === 46 || c === 33 || c === 63 || c === 44 || c === 58) && spaced) return true; // . ! ? , :
    return (c === 8212 || c === 8211) && text.charCodeAt(i - 1) === 32; // — –
  };
  let a = s;
  while (a > 0 && s - a < 200 && !stop(a - 1)) a--;
  let b = e;
  while (b < text.length && b - e < 200 && !stop(b)) b++;
  return [text.slice(a, s), text.slice(e, b)];
}

/**
 * Whether the version written at [s, e) (its subject included) is the subject or the object of a statement
 * about a language or tool feature, so no claim about the project: "Node 18 ships a global fetch", "Python
 * 3.14 explicitly allows …", "Node 18's fetch", "arrived in Python 3.10", "deprecated in Node 22". A version
 * is still the project's when its clause ties it to the project before it ("We require Node 18, which
 * ships …" — the comma ends the clause; "our minimum, Python 3.14 has …") or names it a minimum after it.
 * Also when a language feature appeared, whatever the clause says: "(Python 3.10+ syntax)", "range-over-func
 * iterators need Go 1.23+" (a project floor above it keeps it true, so it is never rewritten upward); and
 * after a plain `from` unless tied to the project ("in the standard library from Python 3.11").
 * Exported for the contradiction check (a feature statement states no value of the project's).
 */
export function isFeatureVersion(text: string, s: number, e: number): boolean {
  const after = text.slice(e, e + 60);
  // "(Python 3.10+ syntax)": when the syntax appeared, whoever uses it
  if (FEATURE_NOUN_AFTER.test(after)) return true;
  const subjectOf = FEATURE_VERB_AFTER.test(after);
  const lead = text.slice(Math.max(0, s - 60), s);
  const objectOf = !subjectOf && FEATURE_PHRASE_BEFORE.test(lead);
  const needOf = !subjectOf && !objectOf && NEED_BEFORE.test(lead);
  const fromOf = !subjectOf && !objectOf && !needOf && FROM_BEFORE.test(lead);
  if (!subjectOf && !objectOf && !needOf && !fromOf) return false;
  if (objectOf) return true; // "introduced in Python 3.10": when, never what the project needs
  const [before, rest] = clauseAround(text, s, e);
  if (needOf) return featureSubject(before.replace(NEED_BEFORE, ''));
  if (fromOf) return !PROJECT_TIE_BEFORE.test(before) && !FROM_PROJECT_TIE.test(before);
  return !PROJECT_TIE_BEFORE.test(before) && !PROJECT_TIE_AFTER.test(rest);
}

/**
 * Whether the subject of "… need(s) / require(s) <version>" (the clause before the verb) is a language or
 * library construct rather than the project: "Range-over-func iterators need Go 1.23+" is a fact about the
 * iterators; "Requires Python 3.11+" (no subject), "We need Node 20", "The CLI requires Go 1.22" are the
 * project's floor. A parenthesis right before the verb ("`X | Y` unions (requires Python 3.10+)") makes
 * what stands before it the subject.
 */
function featureSubject(before: string): boolean {
  const subject = before
    .replace(/\s*\(\s*$/, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .trim();
  if (!subject || PROJECT_SUBJECT.test(subject)) return false;
  return FEATURE_NOUN.test(subject.replace(/`[^`]*`/g, ' ')) || CODE_NAME_SUBJECT.test(subject);
}

const COUNT_RE =
  /(?<![\w.$#@/-])(~|about\s+|around\s+|roughly\s+|nearly\s+|almost\s+|approximately\s+|over\s+|more than\s+|at least\s+)?(\d{1,3}(?:,\d{3})+|\d+)(\+)?\s+((?:[A-Za-z][\w.*-]*\s+){0,2}?[A-Za-z][\w.*-]*?s)\b(?:\s+(?:in|under|inside|within|across|from)\s+[`*_"']*((?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*\/?)[`*_"']*)?/g;

const COUNT_NOUN_STOP = /^(?:times|years|months|weeks|days|hours|minutes|seconds|ms|secs|mins|hrs|steps|phases|bytes|kb|mb|gb|tokens|chars|characters|lines|words|percent|points|spaces|tabs|levels|layers|ways|options|parts|cases|examples|users|people|items|things|backups|attempts|retries|requests|calls|errors|warnings|issues|prs|commits|columns|rows|args|arguments|params|parameters|fields|properties|characters|digits|decimals|places|sessions|messages|instances|processes|threads|workers|cores|cpus|replicas|nodes|pixels|px|rem|em|vh|vw|dollars|usd|cents|credits|turns|rounds|tries)$/i;

const COUNT_STARTERS = new Set(['the', 'has', 'have', 'all', 'only', 'with', 'uses', 'contains', 'includes', 'holds', 'exactly', 'over', 'about', 'there', 'are', 'of', 'and', 'or', 'its', 'our', 'these', 'currently', 'now', 'total', 'total:', 'lists', 'defines', 'ships', 'provides', 'supports', 'exposes', 'registers']);

/**
 * A folder written first, then its count: "`app/utils/` has 19 modules", "`dir/` contains|holds N …",
 * "check `app/utils/` — it already has 19 modules" (`it`, `which` or `that` right after the folder, in the
 * same clause). The folder must be a code span or hold a `/` — a plain word before `has` is any subject
 * ("each package has 3 modules") — and the verb must end right before the count (or its `about`, `over`…).
 */
const FOLDER_FIRST =
  /(?:`(\.{0,2}\/?[\w.@-]+(?:\/[\w.@-]+)*\/?)`|(?<![\w.@/-])((?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*\/|(?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)+))[*_"']*(?:\s+(?:folder|directory|dir))?\s*(?:(?:—|–|--?|,|:)\s*(?:and\s+)?(?:it|which|that)\s+|(?:it|which|that)\s+)?(?:already\s+|now\s+|currently\s+|still\s+)?(?:has|contains|holds)\s+$/;

/**
 * Nouns that count what files hold, not files: "`tests/` has 310 tests" is the number of test cases, not of
 * the folder's files (folder-first counts only; "N tests in `dir/`" is read as before).
 */
const IN_FILE_NOUN = /^(?:tests|specs|cases|assertions|checks|lines|errors|warnings|issues|functions|methods|classes|fields|columns|endpoints|routes|tables|types|exports|tokens|todos|entries|keys|rows)$/i;

/** The folder named right before a count, written folder-first (see FOLDER_FIRST), or undefined. */
function folderBefore(text: string, at: number): string | undefined {
  const m = FOLDER_FIRST.exec(text.slice(Math.max(0, at - 160), at));
  return m ? m[1] ?? m[2] : undefined;
}

/**
 * A folder, then a dash or a colon, right before a count: "- **Features/** - 28 feature modules",
 * "`CodeEdit/Features/` — 8 feature modules", "`src/components/`: 45 components" (a layout list's
 * "folder — what it holds"). The folder holds a `/` (in code, bold or plain: a bare word is any
 * label) and starts its line or list item, after at most a short label ending in `:`.
 */
const LIST_FOLDER =
  /^[ \t]*(?:(?:[-*+]|\d+[.)])[ \t]+)?(?:\[[ xX]\][ \t]+)?(?:[^\n:.!?`]{1,40}:[ \t]+)?[*_`]*((?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*\/|(?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)+)[*_`]*[ \t]*(?:—|–|--?|:)[ \t]*$/;
/**
 * What may follow such a count: nothing more of the clause (the line's end, `(…)`, a dash, `,` `;` `.`
 * `:`). "`lib/` — 3 modules still use the old API" says something of 3 of them, not that lib/ holds 3.
 */
const LIST_COUNT_END = /^(?:[ \t]*(?:$|\n|\(|[—–-][ \t])|[.,;:](?:\s|$))/;

/** The folder a layout-list count describes (see LIST_FOLDER), or undefined. */
function listFolderBefore(text: string, at: number, end: number): string | undefined {
  if (!LIST_COUNT_END.test(text.slice(end, end + 3))) return undefined;
  const from = text.lastIndexOf('\n', at - 1) + 1; // the line's start: the folder must open it
  if (at - from > 160) return undefined;
  const m = LIST_FOLDER.exec(text.slice(from, at));
  return m ? m[1] : undefined;
}

function scanCounts(text: string, out: ProseHit[]): void {
  let m: RegExpExecArray | null;
  COUNT_RE.lastIndex = 0;
  while ((m = COUNT_RE.exec(text))) {
    const n = Number(m[2].replace(/,/g, ''));
    if (!Number.isFinite(n) || n < 2) continue;
    const nounPhrase = m[4];
    const last = nounPhrase.split(/\s+/).pop()!;
    if (COUNT_NOUN_STOP.test(last)) continue;
    // A version, a date or a time is not a count.
    const prev = text.slice(Math.max(0, m.index - 2), m.index);
    if (/[.:]\d?$/.test(prev)) continue;
    // "Claude 4 models", "Python 3 scripts": a name with a version, not a count.
    const pw = /([A-Za-z][\w.-]*)\s+$/.exec(text.slice(Math.max(0, m.index - 40), m.index));
    if (pw && !m[1] && /^[A-Z]/.test(pw[1]) && !COUNT_STARTERS.has(pw[1].toLowerCase())) continue;
    if (pw && subjectAlias(pw[1].toLowerCase())) continue;
    const q = (m[1] || '').trim().toLowerCase();
    const bound: ProseHit['bound'] = m[3] || q === 'over' || q === 'more than' || q === 'at least' ? 'atLeast' : q ? 'approx' : 'exact';
    const start = m.index + (m[1] ? m[1].length : 0);
    const prefixLen = (m[1] || '').length + m[2].length + (m[3] || '').length;
    const endNoun = m.index + m[0].indexOf(nounPhrase, prefixLen) + nounPhrase.length;
    out.push({
      kind: 'count',
      start,
      end: endNoun,
      raw: text.slice(start, endNoun),
      value: String(n),
      count: n,
      noun: nounPhrase.toLowerCase(),
      bound,
      where: m[5] ?? (IN_FILE_NOUN.test(last) ? undefined : folderBefore(text, m.index) ?? listFolderBefore(text, m.index, endNoun)),
    });
  }
}

/** Scoped package names anywhere (`@scope/name`). */
export const SCOPED_PACKAGE = /(?<![\w@/.-])@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*(?![\w/-]|\.[a-z]{1,5}\b)/gi;

/**
 * Composer package names (`spatie/laravel-data`, `pestphp/pest`, `laravel/framework`): Composer's
 * own grammar (`vendor/name`, lower case, `-` / `_` between parts), without dots so that neither a
 * Go module path (`github.com/x`) nor a file (`docs/x.md`) matches, and standing alone: not part
 * of a longer path (no `/`, `.`, `@` or word character next to it: `src/app/x`, `@scope/name`).
 * Syntactically a relative path too: the package check tells them apart (a path the tree or its
 * history knows stays a path; the name counts only when a composer.json declared it).
 */
export const COMPOSER_NAME = /(?<![\w@/.:~$-])[a-z0-9]+(?:[_-][a-z0-9]+)*\/[a-z0-9]+(?:(?:_|--?)[a-z0-9]+)*(?![\w/@-]|\.[\w])/g;

/** Whether a whole token is a Composer package name (see COMPOSER_NAME). */
export function isComposerName(tok: string): boolean {
  return /^[a-z0-9]+(?:[_-][a-z0-9]+)*\/[a-z0-9]+(?:(?:_|--?)[a-z0-9]+)*$/.test(tok);
}

/** Candidate package words in prose (filtered later against manifests). */
export function scanPackageWords(text: string): Array<{ start: number; end: number; raw: string; value: string }> {
  const out: Array<{ start: number; end: number; raw: string; value: string }> = [];
  eachPackageWord(text, (start, end, raw, value) => out.push({ start, end, raw, value }));
  return out;
}

/** The same scan as `scanPackageWords`, without building a list (hot: every prose word). */
export function eachPackageWord(text: string, fn: (start: number, end: number, raw: string, value: string) => void): void {
  scanWords(text, fn);
}

// ------------------------------------------------------------------ prose words
//
// The scan reads the text as UTF-8 bytes (TextEncoder.encodeInto: one native call; reading a
// string character by character costs far more). Word characters are ASCII, so the words
// are the same; a non-ASCII character is 2 to 4 bytes, all outside every class, and the
// scan keeps count of the extra bytes to give offsets into the string.
//
// One table of words by lower-cased content (open addressing over the bytes): a word is
// looked up without slicing or lower-casing it. It holds every stopword and alias from the
// start, and every other word once seen (its lower-case string and the first upper-case
// spelling met), so that a repeated word costs no new string.

const WORD_SLOTS = 1 << 14;
/** New words kept before the table starts over (checked when a scan starts)... */
const WORD_SOFT_MAX = 2048;
/** ...and never more than this many (a scan adds no word past it). */
const WORD_HARD_MAX = 4096;
/** Words longer than this are not kept (their slices would keep a file's text alive). */
const WORD_KEEP_MAX = 12;
const K_STOP = 1;
const K_ALIAS = 2;
const slots = new Int32Array(WORD_SLOTS); // index + 1 into the arrays below, 0 = empty
let keyHash = new Int32Array(1024);
let keyLen = new Int32Array(1024);
let keyAt = new Int32Array(1024); // bytes of the key (lower case) in `pool`
let keyKind = new Uint8Array(1024); // K_STOP | K_ALIAS
let spellAt = new Int32Array(1024); // bytes of the spelling in `pool`, -1 = none
const keys: string[] = []; // lower case
const aliases: Array<string | undefined> = [];
const spellings: Array<string | undefined> = []; // first spelling met with upper case
let pool = new Uint8Array(1 << 16);
let poolEnd = 0;

function wordHash(w: string): number {
  let h = 0;
  for (let i = 0; i < w.length; i++) h = (Math.imul(h, 31) + w.charCodeAt(i)) | 0;
  return h;
}

/** Copies `len` bytes of `src` at `from` (lower-cased when `lower`) to the pool; returns where. */
function toPool(src: Uint8Array, from: number, len: number, lower: boolean): number {
  if (poolEnd + len > pool.length) {
    const grown = new Uint8Array(Math.max(pool.length * 2, poolEnd + len));
    grown.set(pool.subarray(0, poolEnd));
    pool = grown;
  }
  const at = poolEnd;
  for (let i = 0; i < len; i++) {
    let b = src[from + i];
    if (lower && b <= 90 && b >= 65) b += 32;
    pool[at + i] = b;
  }
  poolEnd += len;
  return at;
}

function grow<T extends Int32Array | Uint8Array>(a: T, size: number): T {
  if (size < a.length) return a;
  const b = new (a.constructor as { new (n: number): T })(a.length * 2);
  b.set(a);
  return b;
}

function addKey(key: string, keyBytes: Uint8Array, from: number, kind: number, alias: string | undefined, h: number): number {
  let slot = h & (WORD_SLOTS - 1);
  while (slots[slot] !== 0) slot = (slot + 1) & (WORD_SLOTS - 1);
  const k = keys.length;
  keyHash = grow(keyHash, k);
  keyLen = grow(keyLen, k);
  keyAt = grow(keyAt, k);
  keyKind = grow(keyKind, k);
  spellAt = grow(spellAt, k);
  keyHash[k] = h;
  keyLen[k] = key.length;
  keyAt[k] = toPool(keyBytes, from, key.length, true);
  keyKind[k] = kind;
  spellAt[k] = -1;
  keys.push(key);
  aliases.push(alias);
  spellings.push(undefined);
  slots[slot] = k + 1;
  return k;
}

// The fixed part: stopwords, then the alias of every key of SUBJECT_ALIASES (its own keys only:
// a prose word such as `constructor` must never read Object.prototype). Keys that are not
// lower-case ASCII can never match a scanned word (lower-cased) and are left out.
{
  const all = new Set([...PROSE_STOPWORDS, ...Object.keys(SUBJECT_ALIASES)]);
  const enc = new TextEncoder();
  for (const k of all) {
    const stop = PROSE_STOPWORDS.has(k);
    const alias = subjectAlias(k);
    // eslint-disable-next-line no-control-regex
    if ((stop || alias !== undefined) && /^[\x00-\x7f]*$/.test(k) && k === k.toLowerCase()) {
      addKey(k, enc.encode(k), 0, (stop ? K_STOP : 0) | (alias !== undefined ? K_ALIAS : 0), alias, wordHash(k));
    }
  }
}
const FIXED = keys.length;
const FIXED_POOL = poolEnd;
const fixedSlots = slots.slice();

/** Back to the fixed words only. */
function resetWords(): void {
  slots.set(fixedSlots);
  keys.length = aliases.length = spellings.length = FIXED;
  spellings.fill(undefined);
  spellAt.fill(-1, 0, FIXED);
  poolEnd = FIXED_POOL;
}

/**
 * Index of the lower-cased bytes u8[start, end) in the table, added when new (with
 * text[ws, ws + len) lower-cased as its key); -1 when not there and not kept. `h` is their wordHash.
 */
function wordIndex(u8: Uint8Array, start: number, end: number, h: number, text: string, ws: number, upper: boolean): number {
  const len = end - start;
  let slot = h & (WORD_SLOTS - 1);
  for (;;) {
    const k1 = slots[slot];
    if (k1 === 0) break;
    const k = k1 - 1;
    if (keyHash[k] === h && keyLen[k] === len) {
      const at = keyAt[k];
      let i = 0;
      while (i < len) {
        let b = u8[start + i];
        if (b <= 90 && b >= 65) b += 32;
        if (b !== pool[at + i]) break;
        i++;
      }
      if (i === len) return k;
    }
    slot = (slot + 1) & (WORD_SLOTS - 1);
  }
  if (len > WORD_KEEP_MAX || keys.length - FIXED >= WORD_HARD_MAX) return -1;
  const word = text.slice(ws, ws + len);
  return addKey(upper ? word.toLowerCase() : word, u8, start, 0, undefined, h);
}

// Byte classes (ASCII; bytes >= 0x80 are in none of them).
const C_WORD = 1; // \w
const C_LETTER = 2; // [A-Za-z]
const C_BEHIND = 4; // [\w@/.-]: no word starts right after one
const C_AHEAD = 8; // [\w@/-]: no word ends right before one
const CLS = new Uint8Array(256);
for (let ch = 0; ch < 128; ch++) {
  const c = String.fromCharCode(ch);
  let v = 0;
  if (/\w/.test(c)) v |= C_WORD;
  if (/[A-Za-z]/.test(c)) v |= C_LETTER;
  if (/[\w@/.-]/.test(c)) v |= C_BEHIND;
  if (/[\w@/-]/.test(c)) v |= C_AHEAD;
  CLS[ch] = v;
}

const encoder = new TextEncoder();
let bytes = new Uint8Array(4096);

let encoded: string | null = null;
let encodedLength = 0;

/** Encodes `text` as UTF-8 into the shared byte buffer (followed by a 0); returns the byte length. */
export function encodeText(text: string): number {
  if (bytes.length < text.length * 3 + 1) bytes = new Uint8Array(Math.max(text.length * 3 + 1, bytes.length * 2));
  const n = encoder.encodeInto(text, bytes).written;
  bytes[n] = 0; // past the end: in no class (the scans read at most one byte past the end)
  encoded = text;
  encodedLength = n;
  return n;
}

// What an encoded text holds, for skipping scans that cannot match (see textFlags).
export const T_DIGIT = 1;
export const T_COLON = 2;
export const T_BRACKET = 4; // [
export const T_DOT = 8;
export const T_SLASH = 16;
export const T_AT = 32;
/**
 * One of pm, ya, bu, ak, ju: one pair of each of npm (and pnpm), yarn, bun, make and just, the
 * pairs rarest in prose (`ma`, `st` are in most sentences).
 */
export const T_TOOL = 64;
/** The pair po, which `import ` holds. */
export const T_IMPORT = 128;
/** Flags by pair of bytes (previous << 8 | current): one lookup per byte. */
const T_PAIR = new Uint8Array(65536);
{
  const single: Array<[number, number]> = [[58, T_COLON], [91, T_BRACKET], [46, T_DOT], [47, T_SLASH], [64, T_AT]];
  for (let d = 48; d <= 57; d++) single.push([d, T_DIGIT]);
  for (const [b, flag] of single) for (let prev = 0; prev < 256; prev++) T_PAIR[(prev << 8) | b] |= flag;
  for (const pair of ['pm', 'ya', 'bu', 'ak', 'ju']) T_PAIR[(pair.charCodeAt(0) << 8) | pair.charCodeAt(1)] |= T_TOOL;
  T_PAIR[(112 /* p */ << 8) | 111 /* o */] |= T_IMPORT;
}

/** Flags (T_*) of the first `n` bytes of the buffer (see encodeText). */
export function textFlags(n: number): number {
  const u8 = bytes;
  let f = 0;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const b = u8[i];
    f |= T_PAIR[(prev << 8) | b];
    prev = b;
  }
  return f;
}

// The words found by the last scanWordsEncoded: offsets in the text, and either a table
// entry (wordKey >= 0; wordUpper: written with upper case) or a word not kept (-1 - j).
let wordStart = new Int32Array(256);
let wordEnd = new Int32Array(256);
let wordKey = new Int32Array(256);
let wordUpper = new Uint8Array(256);
const otherRaw: string[] = [];
const otherValue: string[] = [];
let wordCount = 0;
let otherCount = 0;

function pushWord(start: number, end: number, key: number, upper: boolean): void {
  if (wordCount === wordStart.length) {
    wordStart = grow(wordStart, wordCount);
    wordEnd = grow(wordEnd, wordCount);
    wordKey = grow(wordKey, wordCount);
    wordUpper = grow(wordUpper, wordCount);
  }
  wordStart[wordCount] = start;
  wordEnd[wordCount] = end;
  wordKey[wordCount] = key;
  wordUpper[wordCount] = upper ? 1 : 0;
  wordCount++;
}

function pushOther(start: number, end: number, raw: string, value: string): void {
  otherRaw[otherCount] = raw;
  otherValue[otherCount] = value;
  pushWord(start, end, -1 - otherCount, false);
  otherCount++;
}

/** Offset of the i-th word in the text scanned. */
export function wordStartAt(i: number): number {
  return wordStart[i];
}

/** End offset of the i-th word in the text scanned. */
export function wordEndAt(i: number): number {
  return wordEnd[i];
}

/** The i-th word as written. */
export function wordRaw(i: number): string {
  const k = wordKey[i];
  if (k < 0) return otherRaw[-1 - k];
  return wordUpper[i] ? spellings[k]! : keys[k];
}

/** The i-th word's value: its alias, or its lower case. */
export function wordValue(i: number): string {
  const k = wordKey[i];
  if (k < 0) return otherValue[-1 - k];
  return aliases[k] ?? keys[k];
}

/**
 * The words of `PACKAGE_WORD` (`(?<![\w@/.-])([A-Za-z]\w*(?:[.-]\w+)*)(?![\w@/-]|\.[A-Za-z])`,
 * scanned by hand) that are at least two characters long, not stopwords and not acronyms
 * (`API`, `CLI`: up to four capitals, unless an alias), with their value: the alias
 * (`SUBJECT_ALIASES[lower]`) or the lower case.
 */
export function scanWords(text: string, fn: (start: number, end: number, word: string, value: string) => void): void {
  const k = scanWordsEncoded(text);
  for (let i = 0; i < k; i++) fn(wordStart[i], wordEnd[i], wordRaw(i), wordValue(i));
}

/**
 * scanWords over `text`, reusing its bytes when it was the last text encoded: fills
 * wordStart and wordEnd (see wordRaw, wordValue) and returns how many words.
 */
export function scanWordsEncoded(text: string): number {
  const n = encoded === text ? encodedLength : encodeText(text);
  const u8 = bytes;
  wordCount = 0;
  otherCount = 0;
  // (otherRaw and otherValue are not emptied: only their first otherCount slots are read.)
  // Table indices must hold until the words are read: the table starts over only here.
  if (keys.length - FIXED >= WORD_SOFT_MAX) resetWords();
  /** Bytes beyond one per UTF-16 unit so far: string offset = byte offset - extra. */
  let extra = 0;
  let p = 0;
  while (p < n) {
    const b0 = u8[p];
    if ((CLS[b0] & C_LETTER) === 0) {
      // 2-byte sequence: 1 unit; 3 bytes: 1 unit; 4 bytes: 2 units (a surrogate pair).
      if (b0 >= 0xc0) extra += b0 >= 0xe0 ? 2 : 1;
      p++;
      continue;
    }
    if (p > 0 && (CLS[u8[p - 1]] & C_BEHIND) !== 0) {
      // After \w @ / . -: no word starts anywhere in this run of word characters.
      p++;
      while ((CLS[u8[p]] & C_WORD) !== 0) p++;
      continue;
    }
    // Greedy: word characters, then `.x` / `-x` parts. The regular expression backtracks
    // from the longest to shorter part ends: the match ends at the last part end where
    // the lookahead passes. Hash and case are tracked along the way.
    const start = p;
    let e = p;
    let h = 0;
    let upper = false;
    let allUpper = true;
    let end = -1;
    let endH = 0;
    let endUpper = false;
    let endAllUpper = false;
    for (;;) {
      for (;;) {
        const b = u8[e];
        if (b >= 97 && b <= 122) {
          allUpper = false;
          h = (Math.imul(h, 31) + b) | 0;
        } else if (b >= 65 && b <= 90) {
          upper = true;
          h = (Math.imul(h, 31) + b + 32) | 0;
        } else if ((b >= 48 && b <= 57) || b === 95) {
          allUpper = false;
          h = (Math.imul(h, 31) + b) | 0;
        } else break;
        e++;
      }
      // A part end at e: the lookahead (?![\w@/-]|\.[A-Za-z]).
      const b = u8[e];
      if ((CLS[b] & C_AHEAD) === 0 && !(b === 46 && (CLS[u8[e + 1]] & C_LETTER) !== 0)) {
        end = e;
        endH = h;
        endUpper = upper;
        endAllUpper = allUpper;
      }
      if ((b === 46 || b === 45) && (CLS[u8[e + 1]] & C_WORD) !== 0) {
        allUpper = false;
        h = (Math.imul(h, 31) + b) | 0;
        e++;
        continue;
      }
      break;
    }
    p = e; // no word starts before the end of this run (each position follows \w . or -)
    if (end === -1 || end - start < 2) continue;
    const len = end - start;
    const ws = start - extra; // the word's offset in `text`
    const k = wordIndex(u8, start, end, endH, text, ws, endUpper);
    if (k === -1) {
      // Not in the table: neither a stopword nor an alias (every one is), and too long to be
      // an acronym (or a new word past WORD_HARD_MAX: an acronym only without alias).
      if (endAllUpper && len <= 4) continue;
      const word = text.slice(ws, ws + len);
      pushOther(ws, ws + len, word, endUpper ? word.toLowerCase() : word);
      continue;
    }
    const kind = keyKind[k];
    if (kind & K_STOP) continue;
    if (endAllUpper && len <= 4 && !(kind & K_ALIAS && aliases[k])) continue; // acronyms: API, CLI, MCP
    if (endUpper) {
      // The first spelling met with upper case is kept; another one is a word of its own.
      const at = spellAt[k];
      if (at === -1) {
        if (len <= WORD_KEEP_MAX) {
          spellings[k] = text.slice(ws, ws + len);
          spellAt[k] = toPool(u8, start, len, false);
        } else {
          pushOther(ws, ws + len, text.slice(ws, ws + len), aliases[k] ?? keys[k]);
          continue;
        }
      } else {
        let i = 0;
        while (i < len && u8[start + i] === pool[at + i]) i++;
        if (i !== len) {
          pushOther(ws, ws + len, text.slice(ws, ws + len), aliases[k] ?? keys[k]);
          continue;
        }
      }
    }
    pushWord(ws, ws + len, k, endUpper);
  }
  return wordCount;
}
