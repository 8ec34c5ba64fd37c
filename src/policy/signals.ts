// Text signals the decision tree reads. Kept apart so each is documented and testable.
import type { Entry, FindingKind } from '../types.js';

/** Staleness kinds that rule 4 acts on (status-drift is finished work: rule 6). */
export const STALE_KINDS: ReadonlySet<FindingKind> = new Set<FindingKind>([
  'path-renamed',
  'path-missing',
  'script-missing',
  'package-missing',
  'package-renamed',
  'version-drift',
  'count-drift',
  'expired',
  'superseded',
]);

/** Stale kinds meaning the thing that triggered the memory is gone (no inoculation needed). */
export const TRIGGER_GONE_KINDS: ReadonlySet<FindingKind> = new Set<FindingKind>([
  'path-renamed',
  'path-missing',
  'script-missing',
  'package-missing',
  'package-renamed',
  'status-drift',
  'expired',
]);

/** Weak-fidelity kinds: unverified or half-broken, but not verified wrong (rule 5). */
export const WEAK_KINDS: ReadonlySet<FindingKind> = new Set<FindingKind>(['path-unverified', 'broken-link', 'malformed']);

/** Security category: such entries are sent to review, never deleted by a rule. */
export const SECURITY_RE =
  /\b(?:security|secure|insecure|auth(?:entication|orization|[nz])?|credentials?|passwords?|secrets?|api[ _-]?keys?|permissions?|vulnerab\w*|CVE-\d{4}-\d+|encrypt\w*|decrypt\w*|XSS|CSRF|SSRF|(?:sql|command) injection|sanitiz\w*|RBAC|OAuth|JWT|TLS|SSL|firewall|2FA|MFA|private key|access control)\b/i;

/** An abandoned strategy or a dangerous pattern: deleting it without a counter-memory invites re-derivation. */
export const ABANDONED_RE =
  /\b(?:don'?t|do not|never|avoid|abandon(?:ed)?|deprecated|no longer|stopped|revert(?:ed)?|rolled back|(?:does|did)(?:n'?t| not) work|failed|fails|broke|breaks|dangerous|unsafe|data loss|corrupt\w*|deadlock|race condition|instead of|replaced by|gave up|tried)\b/i;

/** Progress notes: the entry is about a piece of work, not merely citing it (rule 6). */
export const PROGRESS_RE =
  /\b(?:fix(?:ed|es|ing)?|resolv(?:ed|es|ing)|merg(?:ed|es|ing)|done|complet(?:ed|es|ing)|shipped|landed|track(?:ed|s|ing)|working on|in progress|wip|blocked|pending|todo|waiting|review(?:ed|ing)?|open(?:ed)?|closed)\b/i;

/** Finished work that still holds a reusable pattern (rule 6 exception). */
export const REUSABLE_RE =
  /\b(?:always|never|prefer|avoid|pattern|workaround|root cause|lesson|gotcha|make sure|remember to|must|should|use \S+ (?:to|for|when|instead)|fixed by|the fix (?:is|was)|caused by)\b/i;

/** Project-specific context in a reference entry (rule 7 keeps those). */
export const PROJECT_SPECIFIC_RE =
  /\b(?:our|we|us|internal|intranet|team|staging|prod(?:uction)?|dashboard|runbook|on-?call|wiki|confluence|notion|jira|linear|slack|figma|drive|sharepoint|account|tenant|cluster|vpn|credentials?)\b/i;

/** Hosts whose pages anyone finds with a search engine (rule 7 deletes bare links to them). */
const PUBLIC_HOST_RE =
  /(?:^|\.)(?:developer\.mozilla\.org|mozilla\.org|wikipedia\.org|stackoverflow\.com|stackexchange\.com|npmjs\.com|pypi\.org|crates\.io|pkg\.go\.dev|docs\.rs|readthedocs\.io|nodejs\.org|python\.org|typescriptlang\.org|react\.dev|reactjs\.org|vuejs\.org|angular\.io|svelte\.dev|nextjs\.org|vitejs\.dev|vitest\.dev|jestjs\.io|eslint\.org|prettier\.io|docker\.com|kubernetes\.io|git-scm\.com|w3\.org|w3schools\.com|rust-lang\.org|go\.dev|golang\.org|microsoft\.com|learn\.microsoft\.com|google\.com|web\.dev|postgresql\.org|mysql\.com|sqlite\.org|redis\.io|mongodb\.com|aws\.amazon\.com|cloud\.google\.com|expressjs\.com|tailwindcss\.com|webpack\.js\.org|rollupjs\.org|esbuild\.github\.io|semver\.org|json\.org|yaml\.org|markdownguide\.org|commonmark\.org|martinfowler\.com|12factor\.net|medium\.com|dev\.to|youtube\.com|anthropic\.com|openai\.com)$/i;

export function urlHost(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Hosts that serve a team's own documents, not documentation (`docs.google.com/document/d/<id>`,
 * Drive files, Notion pages, Confluence, Dropbox Paper, Quip, SharePoint, Figma, Miro, Loom):
 * one specific, often unlisted document that no search finds, even when the host is public.
 */
const USER_DOCUMENT_HOST_RE =
  /^(?:docs|drive|sheets|slides|forms|sites|groups|calendar|meet|mail|jamboard)\.google\.com$|(?:^|\.)(?:notion\.so|notion\.site|atlassian\.net|atlassian\.com|sharepoint\.com|onedrive\.live\.com|1drv\.ms|dropbox\.com|dropboxusercontent\.com|quip\.com|figma\.com|miro\.com|loom\.com|airtable\.com|coda\.io|box\.com|lucid\.app|lucidchart\.com|whimsical\.com|excalidraw\.com|hackmd\.io|linear\.app|trello\.com|monday\.com|asana\.com|clickup\.com|slack\.com|zoom\.us)$/i;
/** A path that addresses one document by its id (`/document/d/<id>`, `/file/d/<id>`, `/spreadsheets/d/<id>`). */
const DOCUMENT_ID_PATH_RE = /\/(?:document|spreadsheets|presentation|file|forms|drawings)\/d\/[\w-]{10,}/;

/** True for a URL on a public documentation / Q&A host (not github.com: repositories may be private). */
export function isPublicDocUrl(url: string): boolean {
  const host = urlHost(url);
  if (!host) return false;
  if (USER_DOCUMENT_HOST_RE.test(host) || DOCUMENT_ID_PATH_RE.test(url)) return false;
  if (host.startsWith('docs.') && !/\b(?:internal|corp|local)\b/.test(host)) return true;
  return PUBLIC_HOST_RE.test(host);
}

/** A one-line summary of an entry for logs and reasons: first meaningful line, markdown stripped. */
/**
 * `s` without emphasis markers (`**bold**`, `*em*`, `__bold__`, `_em_`: delimiters next to
 * non-blank text, `_` only at word edges as CommonMark reads it) and without the backticks of
 * inline code, whose content is kept exactly (snake_case names, globs).
 */
function withoutEmphasis(s: string): string {
  return s
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part.replace(/^`+|`+$/g, '')
        : part
            .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
            .replace(/(?<![\w*])\*(?=[^\s*])([^*]*?[^\s*])\*(?![\w*])/g, '$1')
            .replace(/(?<![\p{L}\p{N}_])_(?=[^\s_])([^_]*?[^\s_])_(?![\p{L}\p{N}_])/gu, '$1')
            .replace(/`+/g, ''),
    )
    .join('');
}

export function summarize(entry: Pick<Entry, 'text' | 'kind' | 'meta'>, max = 72, preferBody = false): string {
  let s = '';
  if (!preferBody && entry.kind === 'topic' && (entry.meta.description || entry.meta.name))
    s = entry.meta.description || entry.meta.name || '';
  if (!s) {
    const body = entry.text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '');
    s =
      body
        .split(/\r?\n/)
        .map((l) => l.trim())
        .find((l) => l && !/^<!--.*-->$/.test(l) && !/^```/.test(l) && !/^#+\s/.test(l)) ??
      entry.meta.description ??
      '';
  }
  s = s
    .replace(/^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, '')
    .replace(/^#+\s+/, '')
    .replace(/^>\s?/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
  // Emphasis markers go, the text inside code stays as written (`accounts_test.exs`, `**/*.ts`):
  // a code block's line is code throughout.
  s = (entry.kind === 'code' ? s : withoutEmphasis(s)).replace(/\s+/g, ' ').trim();
  if ([...s].length > max) s = [...s].slice(0, max - 1).join('').trimEnd() + '…';
  return s;
}
