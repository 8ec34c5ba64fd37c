// ephemeral: the preventive filters of PRODUCT.md job 5 — content that should never have been
// stored in memory. Each filter has its own id (`evidence.filter`), switchable in
// `config.filters`. Precision first: decision, feedback and user entries only meet the strongest
// filters, and reasoning / tone / pinned-command matches are dropped when the entry states a
// conclusion or a directive.
import type { Check, CheckContext, Entry, Evidence, Finding, MemoryContext } from '../types.js';

/** The part of a check context the filters read. */
type ConfigView = Pick<CheckContext, 'config'>;
import { conflictingPair, type Corpus, corpusOf } from './fidelity/corpus.js';
import { PROSE_GATES } from './fidelity/keywords.js';
import { type EntryTexts, fileMap, isAutoMemory, isInstructionFile, lineInEntry, quote, scopeOf, scopesOverlap, textsOf, where } from './fidelity/text.js';

export const FILTER_IDS = [
  'session-state',
  'relative-date',
  'reasoning',
  'debug-output',
  'pinned-command',
  'tone',
  'unverified',
  'claude-md-copy',
] as const;
export type FilterId = (typeof FILTER_IDS)[number];

interface Hit {
  filter: FilterId;
  index: number;
  match: string;
  /** For relative dates: the phrase, to compute an absolute date. */
  relative?: string;
  other?: Entry;
}

/**
 * Whether `at` lies inside a double-quoted span of its line ("Would this break someone who used
 * it last week?"): quoted words are a question or a saying to reuse, relative to whenever it is
 * asked, not a dated statement.
 */
function insideQuotes(text: string, at: number): boolean {
  const from = text.lastIndexOf('\n', at - 1) + 1;
  let open = false;
  for (let i = from; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) open = !open;
    else if (c === 0x201c /* “ */) open = true;
    else if (c === 0x201d /* ” */) open = false;
  }
  if (!open) return false;
  const to = text.indexOf('\n', at);
  const rest = text.slice(at, to === -1 ? text.length : to);
  return /["\u201d]/.test(rest);
}

/** Types whose entries are kept on principle: only the strongest signals apply to them. */
const KEEPER_TYPES = new Set(['decision', 'feedback', 'user']);

/** A full calendar date written next to the text (a bare year or month says nothing about "yesterday"). */
const ABSOLUTE_DATE =
  /\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}\/\d{2,4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]* \d{4})\b/i;

/** A conclusion or an instruction: the entry is a lesson, not a transcript. `never` / `always` /
 *  `must`… count only where they open a clause ("…, never raise it"), not inside one ("the mock never
 *  resolves" describes what happened). */
const CONCLUSION =
  /\b(?:instead|use|prefer|the fix|fix(?:ed)? (?:it |this )?(?:by|with)|solution|workaround|resolved|solved|root cause|the answer|make sure|remember to|so we|lesson|rule:|pinned because)\b|(?:^|[.;:!?,(—–]\s*|-\s+|\b(?:so|and|but|then)\s+)(?:always|never|must|should|don't|do not|avoid)\b|→|=>/im;

/** A directive: tells the agent what to do. */
const DIRECTIVE =
  /\b(?:don't|do not|never|always|prefer|avoid|please|wants?|likes?|hates?|dislikes?|expects?|keep|stop|make sure|should|must|instead)\b/i;

const SESSION_STRONG: RegExp[] = [
  /\b(?:in|during|for) (?:this|today's) (?:session|conversation|chat)\b/i,
  /\bthis (?:conversation|chat)\b/i,
  /\b(?:currently|right now|still|now) (?:working on|debugging|investigating|fixing|looking (?:into|at)|refactoring|implementing|migrating|trying to|waiting (?:on|for)|reviewing|in the middle of|halfway through|blocked on)\b/i,
  /\b(?:I'm|I am|we're|we are)\s+(?:now\s+|still\s+|currently\s+)?(?:in the middle of|halfway through|working on|debugging|investigating|fixing|waiting (?:on|for)|blocked on)\b/i,
  /\bWIP\b/,
  /\bwork in progress\b/i,
  /\b(?:left off|pick(?:ing)? up where|where (?:I|we) stopped|(?:in|for|during) (?:the )?next session|next session,|resume (?:from|at) step)\b/i,
  /\bnext steps?\s*:/i,
  /\b(?:resume|continue|pick up)\s+(?:from|with|at)\s+(?:the\s+)?(?:next|last|remaining|where)\b|\bstart\s+(?:from|at)\s+(?:the\s+)?(?:next|last|remaining|where)\b|\bstart\s+with\s+the\s+(?:next|last|remaining)\b/i,
  /\b(?:today|tonight|this (?:morning|afternoon|evening))(?:'s)? (?:task|goal|plan|focus|work|todo)s?\b/i,
  /\b(?:todos?|to-dos?|tasks?|plan|goals?)\s+for\s+(?:today|tonight|this (?:session|morning|afternoon|evening))\b/i,
  /^[ \t]*(?:[-*+][ \t]+)?this session[ \t]*[:—–]/im,
  /\b(?:today|right now|at the moment|for now)[, ]+(?:I|we)(?:'m| am| are|'re| need| will|'ll| have to| should| still)\b/i,
  /\bcurrent (?:task|ticket|focus|sprint goal)\s*(?::|is\b)/i,
  /\bcurrent (?:branch|status)\s*:/i,
  /\b(?:working|work) on (?:issue|ticket|PR|pull request|bug|story)\s*#?\d+/i,
];
const SESSION_WEAK = /\b(?:right now|at the moment|currently in progress|as of (?:today|now))\b/i;

// Session state by structure: a session-end hook (or a person) keeping a "## Resume Point" of
// labelled fields ("**Last stop:** 2026-06-01 21:00", "**Branch:** feature/x", "**Last commit:**
// 2d9218d …", "**In progress:** …") and a "## Session Log" of timestamped `[sha] branch:x` lines.

/**
 * A heading naming session state: the phrase opens it and nothing but a date, a number or a
 * separated note follows ("Session Log", "Last session — 2026-06-01", "Where I left off on X"), so
 * "Handoff protocol for subagents" or "Session management" is a topic, not a record.
 */
const SESSION_HEADING =
  /^[^\p{L}\p{N}]*(?:(?:where (?:I|we) )?left off\b|where (?:I|we) stopped\b|(?:resume point|resume here|session (?:log|history|handoff|hand-off|state)|(?:last|current|previous|latest) session(?: (?:log|state|summary))?|hand-?off|hand off)(?=[^\p{L}\p{N}]*$|\s*[:\-–—(\[|,.#\d]))/iu;
/** A session-state field label opening an entry ("**Last stop:**", "In progress:", "Modified files:"). */
const SESSION_LABEL =
  /^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(last (?:stop|stopped|session|commit|worked on|activity)|stopped at|in progress|modified files|changed files|uncommitted (?:changes|files)|left off(?: at)?|resume (?:point|here|from)|next steps?|(?:current |working )?branch)[ \t]*(?::[ \t]*(?:\*\*|__)?|(?:\*\*|__)[ \t]*:)[ \t]*([^\n]*)/i;
/** A branch name on its own, not a project's long-lived branch (main, master, develop…). */
const BRANCH_VALUE = /^`?(?!(?:main|master|develop|dev|trunk|release|staging|production|prod|gh-pages)`?$)[\w.-]+(?:\/[\w.-]+)*`?$/i;
/** A session log line: a date and a time of day, then a commit hash in brackets or a `branch:` field. */
const SESSION_LOG_LINE =
  /^[ \t]*(?:[-*+][ \t]+)?\[?\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(?::\d{2})?Z?\]?[^\n]*?(?:\[[0-9a-f]{7,40}\]|\bbranch:[ \t]*\S)[^\n]*/i;
/** A markdown heading line of a topic file. */
const TOPIC_HEADING = /^[ \t]{0,3}(#{1,6})[ \t]+([^\n]*?)[ \t#]*$/gm;

/**
 * The session-state field or log line opening `raw`, as written, or undefined: a label with a
 * value that is itself state ("Branch:" only with a bare branch name other than main, master…,
 * not "Branch: use `main` for releases").
 */
function sessionField(raw: string): string | undefined {
  const m = SESSION_LABEL.exec(raw);
  if (m) {
    const label = m[1].toLowerCase();
    if (label !== 'branch' || BRANCH_VALUE.test(m[2].trim().replace(/[*_]+$/, '').trim()))
      return `${m[1]}:`;
    return undefined;
  }
  const l = SESSION_LOG_LINE.exec(raw);
  return l ? l[0].trim().replace(/^[-*+][ \t]+/, '').replace(/[ \t]+/g, ' ') : undefined;
}

/**
 * Session state told by the entry's place and form, not its words. In auto memory (loaded in every
 * session and written by the agent or its hooks): an entry under a heading naming session state
 * ("Resume Point", "Session Log", "Last session", "Handoff", "Where I left off"), or opening with a
 * session field ("**Last stop:**", "**In progress:**", "**Modified files:**", a bare "**Branch:**
 * feature/x") or a session log line ("2026-05-31 07:25 [8936b6aa] branch:main"); a topic file
 * whose name or every section names session state. Elsewhere both are needed: the heading and the
 * field or log line. `headingCache`: per run, whether a heading names session state.
 */
function sessionByStructure(entry: Entry, raw: string, headingCache: Map<string, boolean>): { index: number; match: string } | undefined {
  if (entry.kind === 'index-line' || entry.kind === 'frontmatter-field') return undefined;
  const auto = isAutoMemory(entry.format);
  if (entry.kind === 'topic') return auto ? sessionTopic(entry, raw) : undefined;
  let heading: string | undefined;
  for (const h of entry.headings) {
    let named = headingCache.get(h);
    if (named === undefined) headingCache.set(h, (named = SESSION_HEADING.test(h)));
    if (named) heading = h;
  }
  if (!auto && heading === undefined) return undefined;
  const field = sessionField(raw);
  if (!auto && field === undefined) return undefined;
  const match = field ?? heading;
  return match === undefined ? undefined : { index: Math.max(0, raw.search(/\S/)), match };
}

/** A topic file of session state: its name or description names it, or every section heading does. */
function sessionTopic(entry: Entry, raw: string): { index: number; match: string } | undefined {
  const base = entry.file.slice(entry.file.lastIndexOf('/') + 1).replace(/\.md$/i, '').replace(/[-_]+/g, ' ');
  for (const name of [entry.meta.name, base]) if (name && SESSION_HEADING.test(name)) return { index: 0, match: name };
  if (!raw.includes('#')) return undefined;
  let first: { index: number; match: string } | undefined;
  let sections = 0;
  for (const m of raw.matchAll(TOPIC_HEADING)) {
    if (m[1].length === 1) continue; // the title
    sections++;
    if (!SESSION_HEADING.test(m[2])) return undefined;
    first ??= { index: m.index, match: m[2] };
  }
  return sections ? first : undefined;
}

const RELATIVE_DATE =
  /\b(?:yesterday|the day before yesterday|tomorrow|earlier today|this morning|this afternoon|last night|tonight|last (?:week|month|sprint|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (?:week|sprint)|(?:a few|a couple of|couple of|few|\d+|two|three|four|five) (?:days|weeks|months) ago)\b(?!['’]s)/i;

/**
 * Relative dates pointing forward: "next Thursday", "next week", "in two weeks", "until Monday",
 * "3 days from now". Stale as soon as the date passes, like the backward ones. Not matched: spans
 * ("for the next week", "every next sprint") and durations of recurring behaviour ("tokens expire
 * in 7 days"): `in N days` only counts after a verb of a one-off event (ships, lands, begins,
 * is due, is back…); a weekday after `until` only when the text states no recurrence
 * (`RECURRING`: "frozen from Friday until Monday every week").
 */
const WEEKDAY_RE = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const COUNT_RE = '(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|couple of|few|\\d+)';
const UNIT_RE = '(?:days?|weeks?|months?)';
const EVENT_RE =
  '(?:ships?|shipping|lands?|landing|launch(?:es|ing)?|releases?|releasing|go(?:es)? live|going live|starts?|starting|begins?|beginning|' +
  'ends?|ending|finish(?:es)?|closes?|closing|opens?|opening|resumes?|resuming|returns?|returning|back|due|lifts?|happens?|happening|' +
  'arrives?|arriving|kicks? off|kicking off|scheduled|planned|expected|coming|deadline is)';
const FORWARD_DATE = new RegExp(
  `(?<!\\b(?:the|every|each) )\\bnext (?:week|month|year|sprint|${WEEKDAY_RE})\\b` +
    `|\\buntil ${WEEKDAY_RE}\\b` +
    `|(?<=\\b${EVENT_RE} )in ${COUNT_RE} ${UNIT_RE}\\b` +
    `|\\b${COUNT_RE} ${UNIT_RE} from now\\b`,
  'i',
);
/** A recurring schedule: a weekday in it is every week's, not a date. */
const RECURRING = new RegExp(
  `\\b(?:every|each|weekly|weekends?|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)\\b|\\bfrom ${WEEKDAY_RE}\\b`,
  'i',
);

const REASONING: RegExp[] = [
  /\b(?:I|we) tried\b[^.\n]{0,100}?\b(?:but|didn't|did not|doesn't|does not|no luck|failed|no effect|still|nothing)\b/i,
  /\btried\b[^.\n]{0,80}?\b(?:didn't|did not|doesn't|does not) (?:seem to )?(?:work|help|fix)\b/i,
  /\b(?:first|then|initially) (?:I|we) (?:thought|tried|assumed|suspected)\b/i,
  /\b(?:let me|I'll try|I will try|going to try|next I'll|maybe it's because|might be because|could be because|hypothesis:)\b/i,
  /\battempt(?:ed)? #?\d\b/i,
  /\b(?:didn't|did not|doesn't|does not) (?:seem to )?work(?: either)?\b[^.\n]{0,60}\b(?:because|since|maybe|not sure)\b/i,
];

const STACK_FRAME = /^\s*(?:at\s+[\w$.<>[\]\s]*\(?[^\s()]+:\d+(?::\d+)?\)?|File "[^"]+", line \d+|#\d+\s+0x[0-9a-f]+)/gm;
const DEBUG_ONE: RegExp[] = [
  /Traceback \(most recent call last\)/,
  /\b[A-Z]\w*(?:Error|Exception)\b:?[^\n]{0,160}?\b(?:at line \d+|line \d+, column \d+|\.\w+:\d+:\d+)/,
  /^panic: /m,
  /\bgoroutine \d+ \[running\]/,
  /^npm ERR! /m,
  /\bSegmentation fault \(core dumped\)/,
  /^\s*\[?(?:\d{4}-\d{2}-\d{2}[T ])?\d{2}:\d{2}:\d{2}(?:[.,]\d+)?Z?\]?[^\n]{0,80}?\b(?:DEBUG|TRACE|ERROR|WARN|WARNING|FATAL)\b/m,
];

const PINNED_INSTALL =
  /\b(?:npm (?:i|install|add)|pnpm (?:add|i|install)|yarn (?:global )?add|bun add|pip3? install|uv (?:pip install|add)|poetry add|gem install|cargo install|go install|brew install|npx)\b[^\n`]*?(?:@\^?\d+\.\d+(?:\.\d+)?\b|==\d+(?:\.\d+)+|@v\d+\.\d+|--version[ =]\d|-v \d+\.\d+)/i;
const SEQUENCE = /&&|;\s*(?:npm|pnpm|yarn|pip|cd|make|cargo|go|brew|node|python)\b|\n\s*(?:\$ )?(?:npm|pnpm|yarn|pip|make|cargo|go|brew|node|python|npx)\b[^\n]*\n\s*(?:\$ )?(?:npm|pnpm|yarn|pip|make|cargo|go|brew|node|python|npx)\b/;
const PIN_REASON = /\b(?:because|since|breaks?|broke|regression|pinned|pin\b|until|workaround|bug|compatib)/i;

/** People and their moods: any mood for the user / they / a role, negative moods for a named person. */
const TONE =
  /\b(?:user|the user|he|she|they|client|customer|reviewer|maintainer|boss|manager|team|lead|pm)\s+(?:seemed|seems|was|is|got|gets|sounded|looked|felt|became|appeared)\s+(?:really |very |quite |a bit |a little |kind of |pretty |clearly |visibly |super |getting )?(?:frustrated|annoyed|angry|upset|irritated|impatient|stressed|confused|grumpy|tired|mad|unhappy|excited|nervous|disappointed|pleased|happy|in a (?:bad|good|great|terrible) mood)\b/i;
const TONE_NAMED =
  /\b[A-Z][a-z]{2,}\s+(?:seemed|seems|was|got|gets|sounded|looked|felt|became|appeared)\s+(?:really |very |quite |a bit |a little |kind of |pretty |clearly |visibly |super )?(?:frustrated|annoyed|angry|upset|irritated|impatient|stressed|grumpy|mad|unhappy|disappointed|in a (?:bad|terrible) mood)\b/;
const TONE_2 = /\b(?:user|they|he|she)(?:'s| is| was) (?:in a (?:bad|good|great|terrible) mood|losing patience|fed up)\b/i;

const UNVERIFIED_STRONG =
  /\b(?:I think|I believe|I guess|I suspect|I assume|I'm not (?:entirely |totally |100% |completely )?sure|not (?:entirely |totally |100% |completely )?sure (?:if|whether|but|yet|about)|but not sure|(?:I|we) (?:haven't|have not|didn't|did not|never) (?:verify|verified|confirm|confirmed|check|checked|test|tested)|not (?:yet )?verified yet|needs verification|IIRC|if I recall(?: correctly)?|AFAICT|as far as I can tell|(?:only )?saw (?:this|it) once|could be wrong)\b|\(unverified\)|\bunverified:/i;
const UNVERIFIED_WEAK = /\b(?:probably|maybe|possibly|seems like|seems to be|might be)\b/i;
const HAS_NUMBER = /\b\d+(?:\.\d+)?\b/;

// Gates: for each pattern, literals one of which every match contains (read from the patterns
// above; case-insensitive, and a digit stands for any digit, so a gate only ever lets more
// through). One scan of an entry finds every literal group present (fidelity/keywords.ts); a
// pattern runs only when all the groups it needs are there. Most entries pass no gate at all.
const GROUPS: Array<[name: string, literals: string[]]> = [
  // session state (SESSION_STRONG), by pattern
  ['this-session', ['this session', 'this conversation', 'this chat', "today's session", "today's conversation", "today's chat"]],
  ['now', ['currently ', 'still ', 'now ']],
  ['doing', ['working on', 'debugging', 'investigating', 'fixing', 'looking into', 'looking at', 'refactoring', 'implementing', 'migrating',
    'trying to', 'waiting on', 'waiting for', 'reviewing', 'in the middle of', 'halfway through', 'blocked on']],
  ['i-am', ["i'm", 'i am', "we're", 'we are']],
  ['wip', ['wip']],
  ['left-off', ['work in progress', 'left off', 'up where', 'stopped', 'next session', 'resume from step', 'resume at step', 'next step']],
  ['resume', ['resume', 'continue', 'pick up', 'start']],
  ['next', ['next', 'last', 'remaining', 'where']],
  ['today', ['today', 'tonight', 'this morning', 'this afternoon', 'this evening', 'this session']],
  ['task', ['task', 'goal', 'plan', 'focus', 'work', 'todo', 'to-do']],
  ['for-now', ['today', 'right now', 'at the moment', 'for now']],
  ['current', ['current task', 'current ticket', 'current focus', 'current sprint goal', 'current branch', 'current status']],
  ['work-on', ['work on', 'working on']],
  ['session-weak', ['right now', 'at the moment', 'currently in progress', 'as of today', 'as of now']],
  // TONE, TONE_NAMED, TONE_2
  ['tone', ['frustrated', 'annoyed', 'angry', 'upset', 'irritated', 'impatient', 'stressed', 'confused', 'grumpy', 'tired', 'mad', 'unhappy',
    'excited', 'nervous', 'disappointed', 'pleased', 'happy', 'mood', 'losing patience', 'fed up']],
  ['relative', ['yesterday', 'tomorrow', 'today', 'tonight', 'this morning', 'this afternoon', 'last ', 'this week', 'this sprint', 's ago']],
  // FORWARD_DATE, by alternative: `next …`, `until …`, `in N days|weeks|months`, `N … from now`
  ['forward', ['next ', 'until ', ' day', ' week', ' month']],
  // REASONING, by pattern
  ['tried', ['tried']],
  ['i-thought', ['i thought', 'we thought', 'i tried', 'we tried', 'i assumed', 'we assumed', 'i suspected', 'we suspected']],
  ['let-me', ['let me', "i'll try", 'i will try', 'going to try', "next i'll", "maybe it's because", 'might be because', 'could be because', 'hypothesis:']],
  ['attempt', ['attempt']],
  ['no-work', ['t work', 'seem to work']],
  ['unverified', ['i think', 'i believe', 'i guess', 'i suspect', 'i assume', 'sure', "haven't", 'have not', "didn't", 'did not', 'never',
    'verified yet', 'needs verification', 'iirc', 'if i recall', 'afaict', 'as far as i can tell', 'saw this once', 'saw it once', 'could be wrong',
    'unverified']],
  ['unverified-weak', ['probably', 'maybe', 'possibly', 'seems like', 'seems to be', 'might be']],
  ['digit', ['0']],
  // read on the text with code: STACK_FRAME, DEBUG_ONE, PINNED_INSTALL (command, then version)
  ['stack', [':0', 'file "', '0x']],
  ['debug', ['traceback', 'error', 'exception', 'panic: ', 'goroutine', 'npm err! ', 'segmentation fault', '00:00:00']],
  ['install', ['npm ', 'yarn ', 'bun add', 'pip', 'uv ', 'poetry add', ' install', 'npx']],
  ['pin', ['@', '==', '--version', '-v ']],
];
/** The handle of these groups in the gates shared with contradiction (one scan per text for both). */
const GATE = PROSE_GATES.add(GROUPS.map(([, literals]) => literals));
/** The bits of the named groups. */
function G(...names: string[]): number {
  let bits = 0;
  for (const n of names) {
    const i = GROUPS.findIndex(([name]) => name === n);
    if (i < 0) throw new Error(`no keyword group ${n}`);
    bits |= 1 << i;
  }
  return bits;
}
/** The groups read on the text with code (the others on the prose). */
const CODE_GATES = G('stack', 'debug', 'install', 'pin');
/** Per pattern of SESSION_STRONG: the groups it needs (all of them). */
const SESSION_NEEDS = [
  G('this-session'), G('this-session'), G('now', 'doing'), G('i-am', 'doing'), G('wip'), G('left-off'), G('left-off'), G('left-off'),
  G('resume', 'next'), G('today', 'task'), G('today', 'task'), G('this-session'), G('for-now'), G('current'), G('current'), G('work-on', 'digit'),
];
/** Per pattern of REASONING. */
const REASONING_NEEDS = [G('tried'), G('tried'), G('i-thought'), G('let-me'), G('attempt', 'digit'), G('no-work')];
const G_SESSION_WEAK = G('session-weak');
const G_TONE = G('tone');
const G_RELATIVE = G('relative');
const G_FORWARD = G('forward');
const G_UNVERIFIED = G('unverified');
const G_UNVERIFIED_WEAK = G('unverified-weak', 'digit');
const G_STACK = G('stack');
const G_DEBUG = G('debug');
const G_PINNED = G('install', 'pin');

/** The earliest match of the patterns whose gates `found` passes (`needs[k]` for `res[k]`). */
function firstMatch(res: RegExp[], text: string, needs?: number[], found = 0): RegExpExecArray | null {
  let best: RegExpExecArray | null = null;
  for (let k = 0; k < res.length; k++) {
    if (needs && (found & needs[k]) !== needs[k]) continue; // cannot match
    const re = res[k];
    re.lastIndex = 0;
    const m = re.exec(text);
    if (m && (!best || m.index < best.index)) best = m;
  }
  return best;
}

/** Whether the `claude-md-copy` filter is in force (then `duplicate` leaves those pairs to it). */
export function claudeMdCopyActive(ctx: ConfigView): boolean {
  return ctx.config.checks?.['ephemeral'] !== false && ctx.config.filters?.['claude-md-copy'] !== false;
}

/** The filters switched on, read once per run. */
function enabledFilters(ctx: ConfigView): Set<FilterId> {
  return new Set(FILTER_IDS.filter((id) => ctx.config.filters?.[id] !== false));
}

/** The groups present in entry `i`: read on its prose `text`, those about code on its `raw` text. */
function gatesOf(entries: Entry[], i: number, text: string, raw: string): number {
  const prose = PROSE_GATES.scan(entries, i, text, GATE);
  return (prose & ~CODE_GATES) | ((raw === text ? prose : PROSE_GATES.scan(entries, i, raw, GATE)) & CODE_GATES);
}

/**
 * `text`: prose (frontmatter and fenced code blanked); `raw`: with fenced code, for the filters
 * about code (debug output, pinned commands). Offsets are the entry's own. `gates`: `gatesOf`.
 */
function filtersFor(entry: Entry, text: string, raw: string, gates: number, on: Set<FilterId>, headingCache: Map<string, boolean>): Hit[] {
  const hits: Hit[] = [];
  const keeper = KEEPER_TYPES.has(entry.type);
  // declared session state: a structured slot or topic typed `ephemeral`
  if (entry.type === 'ephemeral' && entry.typeSource === 'frontmatter' && entry.kind !== 'index-line' && on.has('session-state')) {
    const i = raw.search(/\S/);
    hits.push({ filter: 'session-state', index: Math.max(0, i), match: 'type: ephemeral' });
  } else if (on.has('session-state')) {
    // session state told by its section or its field label (a resume point, a session log)
    const s = sessionByStructure(entry, raw, headingCache);
    if (s) hits.push({ filter: 'session-state', index: s.index, match: s.match });
  }
  if (!gates) return hits;
  // whether the entry states a conclusion only matters once a filter has matched: tested then, once
  let conclusion: boolean | undefined;
  const hasConclusion = () => (conclusion ??= CONCLUSION.test(text));

  // debug output applies to every type
  if (on.has('debug-output') && gates & (G_STACK | G_DEBUG)) {
    STACK_FRAME.lastIndex = 0;
    const frames = gates & G_STACK ? (raw.match(STACK_FRAME) ?? []) : [];
    const one = gates & G_DEBUG ? firstMatch(DEBUG_ONE, raw) : null;
    if (frames.length >= 3 || ((frames.length >= 2 || one) && !hasConclusion())) {
      const idx = one ? one.index : raw.search(STACK_FRAME);
      hits.push({ filter: 'debug-output', index: Math.max(0, idx), match: one ? one[0].trim() : (frames[0] ?? '').trim() });
    }
  }

  if (on.has('session-state')) {
    const m = firstMatch(SESSION_STRONG, text, SESSION_NEEDS, gates);
    if (m) hits.push({ filter: 'session-state', index: m.index, match: m[0] });
    else if (!keeper && gates & G_SESSION_WEAK && (entry.type === 'ephemeral' || entry.type === 'project' || entry.type === 'unknown')) {
      const w = SESSION_WEAK.exec(text);
      if (w && !ABSOLUTE_DATE.test(text) && !DIRECTIVE.test(text))
        hits.push({ filter: 'session-state', index: w.index, match: w[0] });
    }
  }

  // tone notes are stored as user / feedback memories as often as anything else
  if (on.has('tone') && gates & G_TONE && !DIRECTIVE.test(text)) {
    const m = TONE.exec(text) ?? TONE_NAMED.exec(text) ?? TONE_2.exec(text);
    if (m) hits.push({ filter: 'tone', index: m.index, match: m[0] });
  }

  if (keeper) return hits;

  if (on.has('relative-date') && gates & (G_RELATIVE | G_FORWARD)) {
    const back = gates & G_RELATIVE ? RELATIVE_DATE.exec(text) : null;
    let fwd = gates & G_FORWARD ? FORWARD_DATE.exec(text) : null;
    if (fwd && RECURRING.test(text)) fwd = null; // a weekly schedule, not a date
    const m = back && (!fwd || back.index <= fwd.index) ? back : fwd;
    if (m && !ABSOLUTE_DATE.test(text) && !insideQuotes(text, m.index))
      hits.push({ filter: 'relative-date', index: m.index, match: m[0], relative: m[0] });
  }
  if (on.has('reasoning')) {
    const m = firstMatch(REASONING, text, REASONING_NEEDS, gates);
    if (m && !hasConclusion()) hits.push({ filter: 'reasoning', index: m.index, match: m[0] });
  }
  if (on.has('pinned-command') && (gates & G_PINNED) === G_PINNED) {
    const m = PINNED_INSTALL.exec(raw);
    if (m && (SEQUENCE.test(raw) || !PIN_REASON.test(text))) hits.push({ filter: 'pinned-command', index: m.index, match: m[0] });
  }
  if (on.has('unverified') && gates & (G_UNVERIFIED | G_UNVERIFIED_WEAK)) {
    const m = gates & G_UNVERIFIED ? UNVERIFIED_STRONG.exec(text) : null;
    if (m) hits.push({ filter: 'unverified', index: m.index, match: m[0] });
    else if ((gates & G_UNVERIFIED_WEAK) === G_UNVERIFIED_WEAK) {
      const w = UNVERIFIED_WEAK.exec(text);
      if (w && HAS_NUMBER.test(text) && !DIRECTIVE.test(text)) hits.push({ filter: 'unverified', index: w.index, match: w[0] });
    }
  }
  return hits;
}

// -------------------------------------------------------------- relative dates

/** The date (YYYY-MM-DD, UTC) a line was last committed, from `evidence.usage.lines` (git blame). */
export function lineDate(evidence: Evidence | undefined, file: string, line: number): string | undefined {
  const times = evidence?.usage?.lines?.get(file);
  const t = Array.isArray(times) ? times[line - 1] : undefined;
  return typeof t === 'number' && Number.isFinite(t) ? new Date(t).toISOString().slice(0, 10) : undefined;
}

/**
 * The date a topic file's lines were written, when git knows it for every line: topic files are
 * not blamed (their dates come from the history pass), but a topic committed once, and not edited
 * since, had all its lines written by that one commit.
 */
function topicDate(evidence: Evidence | undefined, entry: Entry): string | undefined {
  if (entry.kind !== 'topic') return undefined;
  const u = evidence?.usage?.entries?.get(entry.id);
  return u && !u.uncommitted && u.firstEdited && u.firstEdited === u.lastEdited ? u.firstEdited : undefined;
}

function shift(date: string, days: number): string {
  const t = Date.parse(date + 'T00:00:00Z') + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NUMBERS: Record<string, number> = { a: 3, couple: 2, few: 3, two: 2, three: 3, four: 4, five: 5 };

/** The absolute date (or month / week) a relative phrase meant, written on `date`. */
export function absoluteFor(phrase: string, date: string): string | undefined {
  const p = phrase.toLowerCase();
  if (/^(?:earlier today|this morning|this afternoon|tonight|today)$/.test(p)) return date;
  if (p === 'yesterday' || p === 'last night') return shift(date, -1);
  if (p === 'the day before yesterday') return shift(date, -2);
  if (p === 'tomorrow') return shift(date, 1);
  if (p === 'last week') return `the week of ${shift(date, -7 - ((new Date(date + 'T00:00:00Z').getUTCDay() + 6) % 7))}`;
  if (p === 'this week') return `the week of ${shift(date, -((new Date(date + 'T00:00:00Z').getUTCDay() + 6) % 7))}`;
  if (p === 'last month') {
    const d = new Date(date + 'T00:00:00Z');
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() - 1);
    return d.toISOString().slice(0, 7);
  }
  if (p === 'last year') return String(Number(date.slice(0, 4)) - 1);
  const wd = /^last (\w+day)$/.exec(p);
  if (wd) {
    const target = WEEKDAYS.indexOf(wd[1]);
    const cur = new Date(date + 'T00:00:00Z').getUTCDay();
    let back = (cur - target + 7) % 7;
    if (back === 0) back = 7;
    return shift(date, -back);
  }
  const ago = /^(?:a )?(\w+)(?: of)? (days|weeks|months) ago$/.exec(p.replace(/^a couple of/, 'couple'));
  if (ago) {
    const n = /^\d+$/.test(ago[1]) ? Number(ago[1]) : NUMBERS[ago[1]];
    if (!n) return undefined;
    if (ago[2] === 'days') return shift(date, -n);
    if (ago[2] === 'weeks') return `about ${shift(date, -7 * n)}`;
    return monthOf(date, -n);
  }
  return forwardFor(p, date);
}

/** The month (YYYY-MM) `n` months from `date`'s (from its 1st: 31 January + 1 month is February). */
function monthOf(date: string, n: number): string {
  const d = new Date(date + 'T00:00:00Z');
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 7);
}

/** The Monday starting the week of `date` (ISO weeks). */
function mondayOf(date: string): string {
  return shift(date, -((new Date(date + 'T00:00:00Z').getUTCDay() + 6) % 7));
}

/** Counts written in words, for "in two weeks"; "a few" is taken as three. */
const FORWARD_COUNTS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  'a few': 3, few: 3, 'a couple of': 2, 'couple of': 2,
};

/**
 * The absolute date a forward phrase (FORWARD_DATE, lower case) meant, written on `date`:
 * "next thursday" is the first Thursday after that day (as "last friday" is the last one before
 * it), "next week" the week after, "until monday" keeps its "until". A sprint's length is unknown:
 * no date.
 */
function forwardFor(p: string, date: string): string | undefined {
  const until = /^until (.+)$/.exec(p);
  if (until) {
    const abs = forwardFor(`next ${until[1]}`, date);
    return abs && `until ${abs}`;
  }
  const next = /^next (\w+)$/.exec(p);
  if (next) {
    if (next[1] === 'week') return `the week of ${mondayOf(shift(date, 7))}`;
    if (next[1] === 'month') return monthOf(date, 1);
    if (next[1] === 'year') return String(Number(date.slice(0, 4)) + 1);
    const target = WEEKDAYS.indexOf(next[1]);
    if (target < 0) return undefined;
    const ahead = (target - new Date(date + 'T00:00:00Z').getUTCDay() + 7) % 7 || 7;
    return shift(date, ahead);
  }
  const n = /^(?:in )?(.+?) (day|week|month)s?(?: from now)?$/.exec(p);
  if (!n || !(p.startsWith('in ') || p.endsWith(' from now'))) return undefined;
  const count = /^\d+$/.test(n[1]) ? Number(n[1]) : FORWARD_COUNTS[n[1]];
  if (!count) return undefined;
  if (n[2] === 'day') return shift(date, count);
  if (n[2] === 'week') return `around ${shift(date, 7 * count)}`;
  return monthOf(date, count);
}

/**
 * The replacement written with the capital of the phrase it replaces: "Last week we moved CI"
 * becomes "The week of 2025-12-29 we moved CI", not "the week of…" (a phrase starts with a
 * capital where it opens a sentence or a list item).
 */
export function sameCase(phrase: string, replacement: string): string {
  const first = phrase.charAt(0);
  if (first === first.toLowerCase()) return replacement; // lower case, or no letter at all
  return replacement.charAt(0).toUpperCase() + replacement.slice(1);
}

// -------------------------------------------------------------- messages

function message(h: Hit, dateNote: string): string {
  const q = `"${quote(h.match, 50)}"`;
  switch (h.filter) {
    case 'session-state':
      return `Session task state (${q}) is stale by the next session; delete it or restate it as a lasting fact.`;
    case 'relative-date':
      return `The relative date ${q} loses its meaning once written; ${dateNote}.`;
    case 'reasoning':
      return `Intermediate reasoning (${q}) is not a conclusion; keep only the lesson learned or delete it.`;
    case 'debug-output':
      return `Debug output or a stack trace (${q}) is temporary diagnostic data; delete it and keep only the cause and the fix.`;
    case 'pinned-command':
      return `An exact command with pinned versions (${q}) breaks as versions move; describe the intent or point to the manifest instead.`;
    case 'tone':
      return `An emotional or tone note (${q}) is not actionable; delete it or turn it into a concrete preference.`;
    case 'unverified':
      return `An unverified single observation (${q}) may be wrong; verify it and state it plainly, or delete it.`;
    case 'claude-md-copy':
      return `Copies ${h.other ? where(h.other) : 'CLAUDE.md'}, which is already loaded in every session; delete this copy from auto memory.`;
  }
}

/** The hits of one entry (memory only; dating them needs the evidence). */
interface Detected {
  entry: Entry;
  hits: Hit[];
}

/** A rationale line or clause: "**Why:** …", "How to apply: …", "Reason: …", "… because …". */
const RATIONALE = /(?:^|\n)[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(?:why|how to apply|reason|rationale)(?:\*\*|__)?[ \t]*:|\bbecause\b/i;

/**
 * Whether auto-memory entry `mem` says something the instruction entry `instr` does not, so that
 * deleting it as a copy would lose information: a rationale of its own ("**Why:** npm once
 * rewrote the lockfile…"), or content words beyond a small margin (a reworded copy may swap a
 * word or two). Keeper types (feedback, decision, user) record why a rule exists, so any new
 * content word of theirs is kept; a project or reference note may add two words, plus one for
 * every five content words of the instruction entry (rewording grows with length).
 */
function addsOwnContent(corpus: Corpus, mem: number, instr: number, memEntry: Entry, texts: EntryTexts): boolean {
  const memSize = corpus.bags.size(mem);
  const instrSize = corpus.bags.size(instr);
  const shared = Math.round(corpus.bags.similarity(mem, instr).containment * Math.min(memSize, instrSize));
  const own = memSize - shared;
  if (own <= 0) return false;
  if (KEEPER_TYPES.has(memEntry.type)) return true;
  // a rationale the instruction entry does not give is the note's reason to exist
  // (read on the prose: frontmatter, fenced code and comments blanked)
  if (RATIONALE.test(texts.proseWithOffsets(mem, false)) && !RATIONALE.test(texts.proseWithOffsets(instr, false))) return true;
  return own > 2 + Math.floor(instrSize / 5);
}

/** The memory-only part: every entry's filter hits, CLAUDE.md copies included. */
function detectEphemeral(ctx: MemoryContext | CheckContext): Detected[] {
  const out: Detected[] = [];
  const copies = new Map<number, Entry>();
  if (claudeMdCopyActive(ctx)) {
    const { entries } = ctx;
    const corpus = corpusOf(entries, ctx.files);
    const consider = (i: number, j: number, exact: boolean, containment: number, jaccard: number) => {
      const a = entries[i];
      const b = entries[j];
      let mem: number, instr: number;
      if (isAutoMemory(a.format) && isInstructionFile(b.format)) [mem, instr] = [i, j];
      else if (isAutoMemory(b.format) && isInstructionFile(a.format)) [mem, instr] = [j, i];
      else return;
      if (entries[mem].kind === 'index-line') return; // the pointer; its topic file is the copy
      const fm = fileMap(ctx.files);
      const sc = (e: Entry) => scopeOf(e.file, fm.get(e.file)?.memoryDir);
      if (!scopesOverlap(sc(entries[mem]), sc(entries[instr]))) return;
      if (!exact && conflictingPair(corpus, mem, instr)) return; // a contradiction, not a copy
      const memWords = corpus.wordCount[mem];
      const instrWords = corpus.wordCount[instr];
      // the memory entry is (mostly) the CLAUDE.md text, not a richer note that quotes it
      const ok = exact || jaccard >= 0.6 || (containment >= 0.75 && memWords <= instrWords * 1.6 + 6);
      if (ok && (exact || !addsOwnContent(corpus, mem, instr, entries[mem], textsOf(entries)))) {
        if (!copies.has(mem)) copies.set(mem, entries[instr]);
      }
    };
    for (const g of corpus.exact)
      for (let x = 0; x < g.length; x++) for (let y = x + 1; y < g.length; y++) consider(g[x], g[y], true, 1, 1);
    for (const p of corpus.near) consider(p.a, p.b, false, p.containment, p.jaccard);
  }

  const on = enabledFilters(ctx);
  const texts = textsOf(ctx.entries);
  const headingCache = new Map<string, boolean>();
  ctx.entries.forEach((entry, i) => {
    if (entry.type === 'superseded' || (entry.text.includes('SUPERSEDED') && /^\s*SUPERSEDED\b/m.test(entry.text))) return;
    if (entry.kind === 'frontmatter-field') return;
    const raw = texts.withoutFrontmatter(i);
    // prose only: fenced and inline code blanked (`WIP` as a label name, `--since="2 weeks ago"`)
    const text = texts.proseNoCode(i);
    const hits = filtersFor(entry, text, raw, gatesOf(ctx.entries, i, text, raw), on, headingCache);
    const copyOf = copies.get(i);
    if (copyOf) hits.unshift({ filter: 'claude-md-copy', index: 0, match: '', other: copyOf });
    if (hits.length) out.push({ entry, hits });
  });
  return out;
}

/** Hits found early, by entry list (the audit runs `early` while git is still running). */
const detectedEarly = new WeakMap<Entry[], Detected[]>();

export function findEphemeral(ctx: CheckContext): Finding[] {
  const detected = detectedEarly.get(ctx.entries) ?? detectEphemeral(ctx);
  detectedEarly.delete(ctx.entries);
  const out: Finding[] = [];
  for (const { entry, hits } of detected) {
    const h = hits[0];
    const line = h.filter === 'claude-md-copy' ? entry.line : lineInEntry(entry, h.index);
    const evidence: Record<string, unknown> = { filter: h.filter };
    if (hits.length > 1) evidence.filters = [...new Set(hits.map((x) => x.filter))];
    if (h.other) evidence.now = h.other.id;
    let suggestion: Finding['suggestion'] = { delete: true };
    let dateNote = 'write the absolute date instead (date unknown: no blame for this line)';
    if (h.relative) {
      const written = lineDate(ctx.evidence, entry.file, line) ?? topicDate(ctx.evidence, entry);
      const abs = written ? absoluteFor(h.relative, written) : undefined;
      if (written) evidence.date = written;
      if (abs) {
        evidence.absolute = abs;
        dateNote = `the line was written on ${written}, so write ${abs} instead`;
        suggestion = { replace: sameCase(h.match, abs) };
      } else if (written) {
        dateNote = `the line was written on ${written}; write the absolute date instead`;
        suggestion = undefined;
      } else suggestion = undefined;
    }
    const f: Finding = {
      entryId: entry.id,
      file: entry.file,
      line,
      kind: 'ephemeral',
      severity: 'warning',
      message: message(h, dateNote),
      evidence,
    };
    if (h.relative) f.ref = h.match;
    if (suggestion) f.suggestion = suggestion;
    out.push(f);
  }
  return out;
}

export const ephemeralCheck: Check = {
  id: 'ephemeral',
  kinds: ['ephemeral'],
  severity: 'warning',
  description:
    'Preventive filters: session task state, relative dates, intermediate reasoning, debug output, pinned command sequences, tone notes, unverified observations and copies of CLAUDE.md inside auto memory.',
  early: (ctx) => detectedEarly.set(ctx.entries, detectEphemeral(ctx)),
  run: findEphemeral,
};
