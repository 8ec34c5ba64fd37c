// Heuristic entry classifier, used only when frontmatter gives no type.
// Precise and explainable: an ordered list of rules, each a regular expression over the
// entry text or its section heading path; the first rule that fires decides, and its id is
// returned as the rule. Nothing fires -> 'unknown'.
//
// NOTE (coordination): two sessions were writing src/memory/ at the same time; this file was
// overwritten by mistake once and then rebuilt to the API parse.ts calls:
// classify(text, headings) -> { type, source, rule, reason } and typeFromFrontmatter(value).
import type { Entry, EntryType } from '../types.js';

export interface Classification {
  type: EntryType;
  /** 'heuristic' when a rule fired, 'default' for 'unknown'. */
  source: Entry['typeSource'];
  /** The rule that decided, e.g. 'heading:decisions' or 'text:ephemeral-session'; 'none' when none fired. */
  rule: string;
  /** Same as `rule` (kept for callers that read `reason`). */
  reason: string;
}

const TYPE_SYNONYMS: Record<string, EntryType> = {
  project: 'project',
  decision: 'decision',
  decisions: 'decision',
  adr: 'decision',
  pattern: 'pattern',
  patterns: 'pattern',
  gotcha: 'pattern',
  debugging: 'pattern',
  workflow: 'pattern',
  lesson: 'pattern',
  reference: 'reference',
  references: 'reference',
  link: 'reference',
  links: 'reference',
  resource: 'reference',
  feedback: 'feedback',
  preference: 'feedback',
  preferences: 'feedback',
  correction: 'feedback',
  user: 'user',
  profile: 'user',
  ephemeral: 'ephemeral',
  session: 'ephemeral',
  superseded: 'superseded',
  'counter-memory': 'superseded',
};

/** A frontmatter `type` value mapped to an EntryType (undefined when absent or not recognised). */
export function typeFromFrontmatter(value: unknown): EntryType | undefined {
  if (typeof value !== 'string') return undefined;
  return TYPE_SYNONYMS[value.trim().toLowerCase()];
}

interface Rule {
  id: string;
  type: EntryType;
  re: RegExp;
  /** The rule only applies to texts at most this long. */
  maxLength?: number;
  /** Test the text with `inline code` removed (a URL in a command is not a reference). */
  outsideCode?: boolean;
  /**
   * Words (ASCII, lower case) one of which every match of `re` holds as a whole word, i.e. with
   * a non-word character or the text's edge on both sides: a text without any of them is not
   * tested at all (see gateMask). Keep in sync with `re` (test/memory/classify.test.ts checks).
   */
  words?: readonly string[];
  /** The rule's bit in gateMask(), for rules with `words`. */
  bit?: number;
}

/** What classify() returns when `rule` decides (one frozen object per rule: it runs per entry). */
const verdicts = new Map<Rule, Classification>();
function hit(rule: Rule): Classification {
  let c = verdicts.get(rule);
  if (!c) verdicts.set(rule, (c = Object.freeze({ type: rule.type, source: 'heuristic', rule: rule.id, reason: rule.id })));
  return c;
}
const UNKNOWN: Classification = Object.freeze({ type: 'unknown', source: 'default', rule: 'none', reason: 'none' });

/** Strong text signals that win over any heading (session state leaking into memory, counter-memories). */
const STRONG_TEXT: Rule[] = [
  { id: 'text:superseded-record', type: 'superseded', re: /^\s*(?:[-*+]\s+)?SUPERSEDED\b/ },
  {
    id: 'text:ephemeral-session',
    type: 'ephemeral',
    re: /\b(?:currently|right now|at the moment|for now)\s+(?:working on|investigating|debugging|fixing|implementing|blocked|waiting)\b|\b(?:in|during|for) (?:this|the current|today's) (?:session|conversation|chat)\b|\b(?:I'?m|we'?re|I am|we are) (?:now |still )?(?:working on|in the middle of|halfway through)\b|\bleft off (?:at|on|with)\b|\bnext steps?:|\b(?:todo|wip)\s*:/i,
    words: ['currently', 'now', 'moment', 'session', 'conversation', 'chat', 'working', 'middle', 'halfway', 'left', 'next', 'todo', 'wip'],
  },
  {
    id: 'text:ephemeral-today',
    type: 'ephemeral',
    re: /\b(?:today|yesterday|this morning|this afternoon|tonight)\b.{0,60}\b(?:I|we)\b|\b(?:I|we) (?:just|finally) (?:fixed|finished|started|merged|pushed|deployed)\b|\buser (?:seemed|seems|was|is) (?:frustrated|annoyed|happy|upset|angry|impatient)\b/i,
    words: ['today', 'yesterday', 'morning', 'afternoon', 'tonight', 'just', 'finally', 'frustrated', 'annoyed', 'happy', 'upset', 'angry', 'impatient'],
  },
];

/** Specific section-heading hints: the innermost heading that matches one decides. */
const HEADING: Rule[] = [
  { id: 'heading:decisions', type: 'decision', re: /\b(?:decisions?|adrs?|design choices|rationale|trade-?offs)\b/i },
  {
    // Debugging knowledge. Not "patterns" / "workflows": in CLAUDE.md those headings name
    // design patterns and conventions ("Docker Patterns", "Development Workflow") = project.
    id: 'heading:patterns',
    type: 'pattern',
    re: /\b(?:gotchas?|debugging|troubleshoot(?:ing)?|pitfalls?|lessons?(?: learned)?|known (?:issues|problems|bugs)|workarounds?|caveats|common (?:errors|mistakes|problems|issues)|fixes|faq)\b/i,
  },
  { id: 'heading:references', type: 'reference', re: /\b(?:links?|references?|resources?|further reading|see also|external docs?)\b/i },
  { id: 'heading:feedback', type: 'feedback', re: /\b(?:preferences?|feedback|corrections?|communication style|how to work with me|tone)\b/i },
  { id: 'heading:user', type: 'user', re: /^\s*(?:the )?user\s*$|\babout (?:me|the user)\b|\buser (?:profile|info|context|background)\b|\bwho i am\b/i },
];

/** Generic project headings: they decide only when no text rule below fires first. */
const PROJECT_HEADING: Rule = {
  id: 'heading:project',
  type: 'project',
  re: /\b(?:project|overview|architecture|structure|layout|conventions?|commands?|setup|build(?:ing)?|tests?|testing|stack|code style|style|repository|repo|director(?:y|ies)|modules?|deploy(?:ment)?|environment|development|dependencies|api|database|guidelines|rules|instructions|principles?|prerequisites?|requirements?|review(?:ers?|s)?|contribut\w*|files?|folders?|workflows?|patterns?|tools?|tooling|scripts?|config(?:uration)?|logging|security|performance|naming|types?|quality|ci|releases?|versioning|docs?|documentation|usage|getting started|installation|guide|quick ?start|concepts?|components?|services?|features?|implementation|schema|models?|endpoints?|routes?|cli|tips|utilities|storage|layers?|adapters?|platforms?|integrations?)\b/i,
};

/** Text signals, tried in this order when no specific heading decided. */
const TEXT: Rule[] = [
  {
    id: 'text:decision',
    type: 'decision',
    re: /\b(?:we|I|the team) (?:decided|chose|picked|opted|settled on|went with|agreed)\b|\bdecided (?:to|on|against)\b|\b(?:the |our )?decision (?:was|is) to\b|^\s*(?:[-*+]\s+)?(?:\*\*)?decision(?:\*\*)?\s*:|\b(?:chosen|picked|preferred) over\b|\binstead of\b.{0,80}\bbecause\b|\bbecause\b.{0,80}\binstead of\b|\btrade-?off\b/im,
    words: ['decided', 'chose', 'picked', 'opted', 'settled', 'went', 'agreed', 'decision', 'chosen', 'preferred', 'instead', 'trade', 'tradeoff'],
  },
  {
    id: 'text:feedback',
    type: 'feedback',
    re: /\b(?:the )?user (?:prefers?|likes?|dislikes?|wants?|asked|asks|expects?|hates?|corrected)\b|\b(?:I|they|he|she) (?:prefers?|like|dislike|hate)\b|\b(?:my|the user'?s|their) preferences?\b|\b(?:don'?t|do not|never) (?:\w+ ){0,3}unless (?:asked|explicitly|told|requested)\b|\bcorrected me\b/i,
    words: ['user', 'prefer', 'prefers', 'like', 'dislike', 'hate', 'preference', 'preferences', 'unless', 'corrected'],
  },
  {
    id: 'text:user',
    type: 'user',
    re: /\b(?:the )?user (?:is an?|is the|works (?:at|on|as)|has \d+|'s role|role is|speaks|lives|is based)\b|\b(?:i am|i'm) an? (?:senior|junior|staff|lead|principal|\w+ (?:engineer|developer|designer|scientist))\b/i,
    words: ['user', 'i'],
  },
  {
    id: 'text:pattern',
    type: 'pattern',
    re: /\b(?:gotcha|workaround|root cause|caused by|fixed by|to fix (?:this|it)|if you see|fails? (?:with|when|because)|flaky|race condition|when debugging|to debug|stack trace|the fix (?:is|was)|turns out|watch out|beware|pitfall)\b|\bwhen\b.{0,40}\bfails\b/i,
    words: ['gotcha', 'workaround', 'root', 'caused', 'fixed', 'fix', 'see', 'fail', 'fails', 'flaky', 'race', 'debugging', 'debug', 'stack', 'turns', 'watch', 'beware', 'pitfall'],
  },
  // Code blocks are commands and snippets of the project, whatever URL they hold.
  { id: 'text:code-block', type: 'project', re: /^\s*(?:```|~~~)/ },
  {
    id: 'text:reference',
    type: 'reference',
    re: /^\s*(?:[-*+]\s+)?(?:see |docs?:|documentation:|reference:|spec:|rfc\b)|^\s*(?:[-*+]\s+)?\[[^\]]+\]\((?:https?:)?\/\/[^)]+\)\s*(?:[-\u2014\u2013:].{0,120})?$/i,
  },
  // A URL makes a short entry a reference; in a long one it is a detail.
  { id: 'text:reference-url', type: 'reference', re: /\bhttps?:\/\/\S+/i, maxLength: 200, outsideCode: true },
];

/** Project facts: code, commands, paths, conventions. */
const PROJECT_TEXT: Rule = {
  id: 'text:project',
  type: 'project',
  re: /`[^`]+`|\b(?:npm|pnpm|yarn|bun|npx|make|just|cargo|go|pip|uv|poetry|docker|git) [a-z]|\b[\w.-]{1,100}\/[\w./-]{1,200}\.\w{1,6}\b|\b(?:lives in|located in|entry point|we use|uses|is built with|written in|runs on|must|always|never|should|do not|don'?t|convention)\b|^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:\*\*)?(?:prefer|use|avoid|keep|run|add|write|put|make sure|ensure|check)\b/im,
};

/** Characters of an entry the rules look at. */
const MAX_CLASSIFY = 4000;

// ---------------------------------------------------------------------------- word gates
// Most entries match none of the text rules, and each rule is a long case-insensitive
// alternation that the regular expression engine tries at every position. One pass over the
// text collects which rules' `words` occur (a bit per rule); a rule none of whose words occurs
// cannot match and is not run. The pass cuts no strings: words are hashed in place.

const GATED: Rule[] = [...STRONG_TEXT, ...TEXT].filter((r) => r.words);
const GATE_SLOTS = 256;
const gateHash = new Int32Array(GATE_SLOTS);
const gateBits = new Int32Array(GATE_SLOTS);
const gateWord: Array<string | undefined> = new Array<string | undefined>(GATE_SLOTS).fill(undefined);
/** Longest gate word kept track of (the longest is shorter). */
const GATE_MAX_LEN = 15;
/**
 * A cheap pre-check before hashing a word: bit (last character & 31) of
 * gateHint[length << 7 | first character] is set when some gate word has that length and
 * first and last characters. Most words of a text fail it.
 */
const gateHint = new Int32Array((GATE_MAX_LEN + 1) << 7);

// ASCII word characters as `\b` sees them without the `u` flag, mapped to lower case (0: not one).
const WORD_LOWER = new Uint8Array(128);
for (let c = 48; c <= 57; c++) WORD_LOWER[c] = c;
for (let c = 65; c <= 90; c++) WORD_LOWER[c] = c | 32;
for (let c = 97; c <= 122; c++) WORD_LOWER[c] = c;
WORD_LOWER[95] = 95;

const HASH_SEED = 0x811c9dc5 | 0;

/** Hash of the lower-cased word text[start, start + len). */
function wordHashAt(text: string, start: number, len: number): number {
  let h = HASH_SEED;
  for (let i = start; i < start + len; i++) h = Math.imul(h ^ WORD_LOWER[text.charCodeAt(i)], 0x01000193);
  return h;
}

GATED.forEach((rule, k) => {
  rule.bit = 1 << k;
  for (const w of rule.words!) {
    if (w.length > GATE_MAX_LEN) throw new Error(`gate word too long: ${w}`);
    const h = wordHashAt(w, 0, w.length);
    let slot = h & (GATE_SLOTS - 1);
    while (gateWord[slot] !== undefined && gateWord[slot] !== w) slot = (slot + 1) & (GATE_SLOTS - 1);
    gateWord[slot] = w;
    gateHash[slot] = h;
    gateBits[slot] |= 1 << k;
    gateHint[(w.length << 7) | w.charCodeAt(0)] |= 1 << (w.charCodeAt(w.length - 1) & 31);
  }
});

/** Bits of the gate word text[start, start + len) (lower-cased), 0 when it is none. */
function gateLookup(text: string, start: number, len: number): number {
  const h = wordHashAt(text, start, len);
  for (let slot = h & (GATE_SLOTS - 1); ; slot = (slot + 1) & (GATE_SLOTS - 1)) {
    const w = gateWord[slot];
    if (w === undefined) return 0;
    if (gateHash[slot] !== h || w.length !== len) continue;
    let k = 0;
    while (k < len && WORD_LOWER[text.charCodeAt(start + k)] === w.charCodeAt(k)) k++;
    if (k === len) return gateBits[slot];
  }
}

/** The bits of the gated rules one of whose words occurs in `text` as a whole word. */
function gateMask(text: string): number {
  let mask = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c >= 128 || WORD_LOWER[c] === 0) {
      i++;
      continue;
    }
    const start = i;
    const first = WORD_LOWER[c];
    let last = first;
    while (++i < n) {
      c = text.charCodeAt(i);
      if (c >= 128 || WORD_LOWER[c] === 0) break;
      last = WORD_LOWER[c];
    }
    const len = i - start;
    if (len <= GATE_MAX_LEN && (gateHint[(len << 7) | first] & (1 << (last & 31))) !== 0) mask |= gateLookup(text, start, len);
  }
  return mask;
}

/** Ids of the gated rules that match `text` although their gate would skip them (for tests: always empty). */
export function gateMisses(text: string): string[] {
  const mask = gateMask(text);
  return GATED.filter((r) => (mask & r.bit!) === 0 && r.re.test(text)).map((r) => r.id);
}

// ---------------------------------------------------------------------------- classify

/**
 * What a heading path says: the specific heading rule that decides (innermost heading first),
 * and whether a generic project heading is present. Entries of one section share their
 * heading path, so parse.ts computes this once per section.
 */
export interface HeadingVerdict {
  specific?: Rule;
  project: boolean;
}

export function headingVerdict(headings: readonly string[]): HeadingVerdict {
  let specific: Rule | undefined;
  for (let i = headings.length - 1; i >= 0 && !specific; i--) {
    for (const r of HEADING) {
      if (r.re.test(headings[i])) {
        specific = r;
        break;
      }
    }
  }
  let project = false;
  for (let i = headings.length - 1; i >= 0 && !project; i--) project = PROJECT_HEADING.re.test(headings[i]);
  return specific ? { specific, project } : { project };
}

/**
 * Classify an entry from its text and heading path (outermost first). Order: strong text
 * signals (session state, SUPERSEDED), then specific headings (innermost first), then text
 * rules, then generic project headings, then project-like text; else 'unknown'.
 * `verdict` is headingVerdict(headings), when the caller has it already.
 */
export function classify(fullText: string, headings: readonly string[], verdict?: HeadingVerdict): Classification {
  // The beginning of an entry says what it is; a cap keeps every rule linear-time in practice.
  const text = fullText.length > MAX_CLASSIFY ? fullText.slice(0, MAX_CLASSIFY) : fullText;
  // A gated rule none of whose words occurs cannot match: it is not run.
  const gates = gateMask(text);
  for (const r of STRONG_TEXT) if ((r.bit === undefined || (gates & r.bit) !== 0) && r.re.test(text)) return hit(r);
  const v = verdict ?? headingVerdict(headings);
  if (v.specific) return hit(v.specific);
  let noCode: string | undefined;
  for (const r of TEXT) {
    if (r.maxLength !== undefined && text.length > r.maxLength) continue;
    if (r.bit !== undefined && (gates & r.bit) === 0) continue;
    const t = r.outsideCode ? (noCode ??= text.replace(/`[^`\n]*`/g, '')) : text;
    if (r.re.test(t)) return hit(r);
  }
  if (v.project) return hit(PROJECT_HEADING);
  if (PROJECT_TEXT.re.test(text)) return hit(PROJECT_TEXT);
  return UNKNOWN;
}
