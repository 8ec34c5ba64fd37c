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

const NUMBER_WORD = /^(?:v?\d+(?:\.(?:\d+|x))*(?:\.x)?)$/i;

/** Scans one prose text (already stripped of code) for versions, counts and issues. */
export function scanProse(text: string, _opts: { inCode?: boolean } = {}): ProseHit[] {
  const out: ProseHit[] = [];
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
  while (a > 0 && !/[.!?\n]/.test(text[a - 1]) && s - a < 160) a--;
  let b = e;
  while (b < text.length && !/[.!?\n]/.test(text[b]) && b - e < 160) b++;
  return text.slice(a, b);
}

function scanIssues(text: string, out: ProseHit[]): void {
  const push = (s: number, e: number, n: number, kind: ProseHit['issueKind'], repo?: string) => {
    const sentence = sentenceAround(text, s, e);
    const rest = sentence.replace(text.slice(s, e), ' ');
    const open = OPEN_WORDS.test(rest) && !CLOSED_WORDS.test(rest);
    out.push({ kind: 'issue', start: s, end: e, raw: text.slice(s, e), value: `${repo ? repo : ''}#${n}`, number: n, issueKind: kind, repo, describedOpen: open });
  };
  let m: RegExpExecArray | null;
  const url = /https?:\/\/github\.com\/([\w.-]+\/[\w.-]+)\/(issues|pull)\/(\d+)\b/g;
  const taken: Array<[number, number]> = [];
  while ((m = url.exec(text))) {
    push(m.index, m.index + m[0].length, Number(m[3]), m[2] === 'pull' ? 'pr' : 'issue', m[1]);
    taken.push([m.index, m.index + m[0].length]);
  }
  const inTaken = (i: number) => taken.some(([a, b]) => i >= a && i < b);
  const words = /(?<![\w#&/.-])(?:(PRs?|pull requests?|issues?|bugs?|tickets?)\s+)?(?:([\w.-]+\/[\w.-]+))?#(\d{1,6})\b/gi;
  while ((m = words.exec(text))) {
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
  const spelled = /\b(PR|pull request|issue)\s+(\d{1,6})\b/gi;
  while ((m = spelled.exec(text))) {
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

function scanVersions(text: string, out: ProseHit[]): void {
  let m: RegExpExecArray | null;
  VERSION_RE.lastIndex = 0;
  while ((m = VERSION_RE.exec(text))) {
    const subjectRaw = m[1];
    const subject = subjectRaw.toLowerCase();
    const ver = m[3];
    if (!/\d/.test(ver)) continue;
    // "Step 2", "Phase 3": a bare integer needs a known subject.
    const key = SUBJECT_ALIASES[subject] ?? subject;
    const plainInt = /^\d+$/.test(ver);
    if (plainInt && Number(ver) > 300) continue;
    if (/^(?:step|phase|part|layer|stage|level|tier|section|chapter|item|option|project|version|release|v|table|tables|priority|todo|p|day|days|week|weeks|hour|hours|minute|minutes|port|line|lines|page|issue|pr|claude|gpt|sonnet|opus|haiku|gemini|llama|windows|macos|ios|android|ubuntu|debian|es|ecmascript|http|tls|utf|sha|md|h|top|group|round|q)$/.test(subject))
      continue;
    if (PROSE_STOPWORDS.has(subject) && !SUBJECT_ALIASES[subject]) continue;
    if (SUBJECT_STOP.has(subject)) continue;
    if (plainInt && !SUBJECT_ALIASES[subject] && !/[A-Z]/.test(subjectRaw) && !/[-@.]/.test(subjectRaw)) continue;
    const bound: ProseHit['bound'] = m[4] ? 'atLeast' : m[2] && m[2] !== '^' && m[2] !== '~' ? 'atLeast' : 'exact';
    const start = m.index;
    const end = m.index + m[0].length;
    out.push({ kind: 'version', start, end, raw: text.slice(start, end).trimEnd(), value: ver, subject: key, version: ver + (m[4] ? '+' : ''), bound });
  }
  // Standalone project versions: "v0.2.0", "version 5.0.2".
  const proj = /(?<![\w.@/-])(?:(version\s+)|v)(\d+\.\d+\.\d+)(?![\w.+-]*\d)/gi;
  while ((m = proj.exec(text))) {
    const before = text.slice(Math.max(0, m.index - 40), m.index).toLowerCase();
    if (/\b(?:since|from|before|after|until|till|in|introduced|added|removed|deprecated|as of|prior to|starting|pre|post|older|newer|up to|through|released?|shipped|tagged|published|bump(?:ed)? to|upgrad(?:e|ed|ing) to|migrat\w* to|fixed in|broken in|broke in|regressed in|changelog for|notes for)\s*$/.test(before)) continue;
    const afterText = text.slice(m.index + m[0].length, m.index + m[0].length + 30).toLowerCase();
    if (/^\s*(?:introduced|added|removed|deprecated|released|shipped|changelog|release notes|and later|and earlier|or later|onwards)/.test(afterText)) continue;
    if (out.some((h) => h.kind === 'version' && m!.index >= h.start && m!.index < h.end)) continue;
    out.push({ kind: 'version', start: m.index, end: m.index + m[0].length, raw: m[0], value: m[2], subject: '(project)', version: m[2], bound: 'exact' });
  }
}

const COUNT_RE =
  /(?<![\w.$#@/-])(~|about\s+|around\s+|roughly\s+|nearly\s+|almost\s+|approximately\s+|over\s+|more than\s+|at least\s+)?(\d{1,3}(?:,\d{3})+|\d+)(\+)?\s+((?:[A-Za-z][\w.*-]*\s+){0,2}?[A-Za-z][\w.*-]*?s)\b(?:\s+(?:in|under|inside|within|across|from)\s+[`*_"']*((?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*\/?)[`*_"']*)?/g;

const COUNT_NOUN_STOP = /^(?:times|years|months|weeks|days|hours|minutes|seconds|ms|secs|mins|hrs|steps|phases|bytes|kb|mb|gb|tokens|chars|characters|lines|words|percent|points|spaces|tabs|levels|layers|ways|options|parts|cases|examples|users|people|items|things|backups|attempts|retries|requests|calls|errors|warnings|issues|prs|commits|columns|rows|args|arguments|params|parameters|fields|properties|characters|digits|decimals|places|sessions|messages|instances|processes|threads|workers|cores|cpus|replicas|nodes|pixels|px|rem|em|vh|vw|dollars|usd|cents|credits|turns|rounds|tries)$/i;

const COUNT_STARTERS = new Set(['the', 'has', 'have', 'all', 'only', 'with', 'uses', 'contains', 'includes', 'holds', 'exactly', 'over', 'about', 'there', 'are', 'of', 'and', 'or', 'its', 'our', 'these', 'currently', 'now', 'total', 'total:', 'lists', 'defines', 'ships', 'provides', 'supports', 'exposes', 'registers']);

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
    if (pw && SUBJECT_ALIASES[pw[1].toLowerCase()]) continue;
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
      where: m[5],
    });
  }
}

/** Scoped package names anywhere (`@scope/name`). */
export const SCOPED_PACKAGE = /(?<![\w@/.-])@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*(?![\w/-]|\.[a-z]{1,5}\b)/gi;

/** Candidate package words in prose (filtered later against manifests). */
export function scanPackageWords(text: string): Array<{ start: number; end: number; raw: string; value: string }> {
  const out: Array<{ start: number; end: number; raw: string; value: string }> = [];
  eachPackageWord(text, (start, end, raw, value) => out.push({ start, end, raw, value }));
  return out;
}

const PACKAGE_WORD = /(?<![\w@/.-])([A-Za-z][\w]*(?:[.-][\w]+)*)(?![\w@/-]|\.[A-Za-z])/g;
const ACRONYM = /^[A-Z]+$/;

/** The same scan as `scanPackageWords`, without building a list (hot: every prose word). */
export function eachPackageWord(text: string, fn: (start: number, end: number, raw: string, value: string) => void): void {
  const re = PACKAGE_WORD;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const raw = m[1];
    const lower = raw.toLowerCase();
    if (lower.length < 2 || PROSE_STOPWORDS.has(lower)) continue;
    if (raw.length <= 4 && ACRONYM.test(raw) && !SUBJECT_ALIASES[lower]) continue; // acronyms: API, CLI, MCP
    fn(m.index, m.index + raw.length, raw, SUBJECT_ALIASES[lower] ?? lower);
  }
}
