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
}

/** Strong text signals that win over any heading (session state leaking into memory, counter-memories). */
const STRONG_TEXT: Rule[] = [
  { id: 'text:superseded-record', type: 'superseded', re: /^\s*(?:[-*+]\s+)?SUPERSEDED\b/ },
  {
    id: 'text:ephemeral-session',
    type: 'ephemeral',
    re: /\b(?:currently|right now|at the moment|for now)\s+(?:working on|investigating|debugging|fixing|implementing|blocked|waiting)\b|\b(?:in|during|for) (?:this|the current|today's) (?:session|conversation|chat)\b|\b(?:I'?m|we'?re|I am|we are) (?:now |still )?(?:working on|in the middle of|halfway through)\b|\bleft off (?:at|on|with)\b|\bnext steps?:|\b(?:todo|wip)\s*:/i,
  },
  {
    id: 'text:ephemeral-today',
    type: 'ephemeral',
    re: /\b(?:today|yesterday|this morning|this afternoon|tonight)\b.{0,60}\b(?:I|we)\b|\b(?:I|we) (?:just|finally) (?:fixed|finished|started|merged|pushed|deployed)\b|\buser (?:seemed|seems|was|is) (?:frustrated|annoyed|happy|upset|angry|impatient)\b/i,
  },
];

/** Specific section-heading hints: the innermost heading that matches one decides. */
const HEADING: Rule[] = [
  { id: 'heading:decisions', type: 'decision', re: /\b(?:decisions?|adrs?|design choices|rationale|trade-?offs)\b/i },
  {
    id: 'heading:patterns',
    type: 'pattern',
    re: /\b(?:gotchas?|debugging|troubleshooting|pitfalls?|lessons?(?: learned)?|known issues|workarounds?|patterns?|workflows?|tips|caveats|common (?:errors|mistakes|problems))\b/i,
  },
  { id: 'heading:references', type: 'reference', re: /\b(?:links?|references?|resources?|further reading|see also|external docs?)\b/i },
  { id: 'heading:feedback', type: 'feedback', re: /\b(?:preferences?|feedback|corrections?|communication style|how to work with me|tone)\b/i },
  { id: 'heading:user', type: 'user', re: /^\s*(?:the )?user\s*$|\babout (?:me|the user)\b|\buser (?:profile|info|context|background)\b|\bwho i am\b/i },
];

/** Generic project headings: they decide only when no text rule below fires first. */
const PROJECT_HEADING: Rule = {
  id: 'heading:project',
  type: 'project',
  re: /\b(?:project|overview|architecture|structure|layout|conventions?|commands?|setup|build(?:ing)?|tests?|testing|stack|code style|style|repository|repo|directories|modules|deploy(?:ment)?|environment|development|dependencies|api|database|guidelines|rules|instructions)\b/i,
};

/** Text signals, tried in this order when no specific heading decided. */
const TEXT: Rule[] = [
  {
    id: 'text:decision',
    type: 'decision',
    re: /\b(?:we|I|the team) (?:decided|chose|picked|opted|settled on|went with|agreed)\b|\bdecided (?:to|on|against)\b|\bdecision\b|\b(?:chosen|picked|preferred) over\b|\binstead of\b.{0,80}\bbecause\b|\bbecause\b.{0,80}\binstead of\b|\btrade-?off\b/i,
  },
  {
    id: 'text:feedback',
    type: 'feedback',
    re: /\b(?:the )?user (?:prefers?|likes?|dislikes?|wants?|asked|asks|expects?|hates?|corrected)\b|\b(?:prefers?|preference)\b.{0,40}\b(?:over|to|rather)\b|\b(?:don'?t|do not|never) (?:\w+ ){0,3}unless (?:asked|explicitly|told|requested)\b|\bcorrected me\b/i,
  },
  {
    id: 'text:user',
    type: 'user',
    re: /\b(?:the )?user (?:is an?|is the|works (?:at|on|as)|has \d+|'s role|role is|speaks|lives|is based)\b|\b(?:i am|i'm) an? (?:senior|junior|staff|lead|principal|\w+ (?:engineer|developer|designer|scientist))\b/i,
  },
  {
    id: 'text:pattern',
    type: 'pattern',
    re: /\b(?:gotcha|workaround|root cause|caused by|fixed by|to fix (?:this|it)|if you see|fails? (?:with|when|because)|flaky|race condition|when debugging|to debug|stack trace|the fix (?:is|was)|turns out|watch out|beware|pitfall)\b|\bwhen\b.{0,40}\bfails\b/i,
  },
  {
    id: 'text:reference',
    type: 'reference',
    re: /^\s*(?:[-*+]\s+)?(?:see |docs?:|documentation:|reference:|spec:|rfc\b)|^\s*(?:[-*+]\s+)?\[[^\]]+\]\((?:https?:)?\/\/[^)]+\)\s*(?:[-\u2014\u2013:].{0,120})?$|\bhttps?:\/\/\S+/i,
  },
];

/** Project facts: code, commands, paths, conventions. */
const PROJECT_TEXT: Rule = {
  id: 'text:project',
  type: 'project',
  re: /`[^`]+`|\b(?:npm|pnpm|yarn|bun|npx|make|just|cargo|go|pip|uv|poetry|docker|git) [a-z]|\b[\w.-]+\/[\w./-]+\.\w{1,6}\b|\b(?:lives in|located in|entry point|we use|uses|is built with|written in|runs on|must|always|never|should|do not|don'?t|convention)\b/i,
};

/**
 * Classify an entry from its text and heading path (outermost first). Order: strong text
 * signals (session state, SUPERSEDED), then specific headings (innermost first), then text
 * rules, then generic project headings, then project-like text; else 'unknown'.
 */
export function classify(text: string, headings: readonly string[]): Classification {
  const hit = (r: Rule): Classification => ({ type: r.type, source: 'heuristic', rule: r.id, reason: r.id });
  for (const r of STRONG_TEXT) if (r.re.test(text)) return hit(r);
  for (let i = headings.length - 1; i >= 0; i--) {
    for (const r of HEADING) if (r.re.test(headings[i])) return hit(r);
  }
  for (const r of TEXT) if (r.re.test(text)) return hit(r);
  for (let i = headings.length - 1; i >= 0; i--) if (PROJECT_HEADING.re.test(headings[i])) return hit(PROJECT_HEADING);
  if (PROJECT_TEXT.re.test(text)) return hit(PROJECT_TEXT);
  return { type: 'unknown', source: 'default', rule: 'none', reason: 'none' };
}
