// The pruning decision tree (PRODUCT.md job 6). Pure: findings + context in, one PlanItem per
// entry out. `decideEntry` is the tree itself, one branch per numbered rule:
//
//   0  protection: <!-- PROTECTED --> / config `protect` / retention.keep / secrets (review) /
//      SUPERSEDED records and the pruning log (memory-audit's own files) are never touched
//   1  ephemeral -> delete
//   2  failed fidelity (verified wrong or contradicted) -> delete (or review when it cannot be told
//      which side is right; a reversed decision is kept and inoculated)
//   3  duplicates -> keep the copy in the most widely loaded file (within one scope the most
//      complete version), merge the others into it; a narrower copy that says more -> review
//   4  stale with a known correction -> update in place, [corrected YYYY-MM-DD];
//      stale with no remaining value, or expired (valid_until covers the whole entry) -> delete
//   5  low fidelity and low use -> delete
//   6  finished work (closed issues, merged PRs) -> archive, unless it holds a reusable pattern
//   7  freely available references -> delete; project-specific ones stay
//
// Guards on every removal: entries of a security category go to `review`; `decision` and
// `feedback` entries are never removed by rules 5-7. Around the tree: index lines follow their
// topic file, duplicates whose kept version is itself removed stay, budgets archive the
// lowest scores (rule 8), and deletions of abandoned strategies get a SUPERSEDED record.
import path from 'node:path';
import type { CheckContext, Entry, Finding, PlanAction, PlanItem, Reference } from '../types.js';
import { archivePath, indexTarget, isSupersededFile, pruneLogPath, supersededPath } from '../apply/paths.js';
import { inertMarker } from '../apply/marker.js';
import { findSecretRanges } from '../report/redact.js';
import { checkPathRef } from '../checks/path.js';
import { checkScriptRef } from '../checks/script.js';
import { checkPackageRef } from '../checks/package.js';
import { checkVersionRef } from '../checks/version.js';
import { expirySlotAtEdge } from '../checks/expired.js';
import { lineInEntry } from '../checks/fidelity/text.js';
import { planBudgets } from './budget.js';
import { liveNames, scoreEntries, type ScoreParts } from './score.js';
import { goShortName } from '../memory/refs/gomod.js';
import {
  ABANDONED_RE,
  PROJECT_SPECIFIC_RE,
  PROGRESS_RE,
  REUSABLE_RE,
  SECURITY_RE,
  STALE_KINDS,
  TRIGGER_GONE_KINDS,
  WEAK_KINDS,
  isPublicDocUrl,
  urlHost,
} from './signals.js';

export { healthWarnings } from './health.js';

/** Rule number used for budget archiving (applied after the tree). */
export const BUDGET_RULE = 8;

/** Actions that take the entry out of the loaded memory. */
export const REMOVING: ReadonlySet<PlanAction> = new Set<PlanAction>(['delete', 'archive', 'merge']);

/** Everything the tree knows about one entry. */
export interface EntryFacts {
  entry: Entry;
  findings: Finding[];
  score: ScoreParts;
  protectedBy?: string;
  keepBy?: string;
  pruneBy?: string;
}

interface Tree {
  ctx: CheckContext;
  byId: Map<string, Entry>;
  facts: Map<string, EntryFacts>;
  on: (rule: number) => boolean;
  today: string;
  /** Paths that exist: memory files and repository files (looked up, never copied: the repository may hold 100k+ files). */
  existing: PathSet;
  /** Where each memory file's frontmatter ends (files without frontmatter are absent). */
  frontmatterEnds: Map<string, number>;
  /** `indexTarget`, computed once per entry. */
  targetOf: (e: Entry) => string | undefined;
  /** What memory-audit wrote itself, per memory file (tested once per file, not per entry). */
  ownFile: (file: string) => OwnFile;
}

interface PathSet {
  has(path: string): boolean;
}

/** A file memory-audit writes: its pruning log (or archive), a SUPERSEDED record, or neither. */
type OwnFile = 'log' | 'superseded' | undefined;

const fmtScore = (n: number) => n.toFixed(2);
/** "a < b" with enough decimals that the two numbers read differently (0.297 < 0.30, not 0.30 < 0.30). */
const below = (a: number, b: number): string => {
  for (let d = 2; d < 6; d++) if (a.toFixed(d) !== b.toFixed(d)) return `${a.toFixed(d)} < ${b.toFixed(d)}`;
  return `${a} < ${b}`;
};
// Frozen: a shared empty list must never be filled by mistake.
const NONE: Finding[] = Object.freeze([]) as unknown as Finding[];
/** Rule 4 sends stale entries longer than this (code blocks, directory trees...) to review instead of deleting them. */
export const LARGE_ENTRY_LINES = 5;

function compile(patterns: string[]): RegExp[] {
  const out: RegExp[] = [];
  for (const p of patterns) {
    try {
      out.push(new RegExp(p, 'i'));
    } catch {
      /* validated by loadConfig; ignore here */
    }
  }
  return out;
}

/** 3 = protected, 2 = human-written instruction files (CLAUDE.md, AGENTS.md, rules), 1 = agent memory. */
function authority(e: Entry): number {
  if (e.protected) return 3;
  return e.format === 'auto-memory-index' || e.format === 'auto-memory-topic' ? 1 : 2;
}

/** Which agent loads an entry: duplicates only waste context when the same agent loads both. */
export function agentOf(e: Pick<Entry, 'format'>): string {
  switch (e.format) {
    case 'claude-md':
    case 'auto-memory-index':
    case 'auto-memory-topic':
      return 'claude';
    case 'agents-md':
      return 'agents';
    case 'gemini-md':
      return 'gemini';
    case 'copilot':
      return 'copilot';
    case 'cursor-rule':
      return 'cursor';
    default:
      return 'other';
  }
}

/** Whether the entry's own text holds a credential-like string (independently of the secret check). */
export function holdsSecret(e: Pick<Entry, 'text'>): boolean {
  return findSecretRanges(e.text).length > 0;
}

function where(e: Entry): string {
  return `${e.file}:${e.line}`;
}

// ------------------------------------------------------------------ corrections (rule 4)

/** A stale finding that names what took the reference's place: a rename, a swap, a renamed script. */
function knownSuccessor(f: Finding): boolean {
  if (f.kind === 'path-renamed' || f.kind === 'package-renamed') return typeof f.evidence?.now === 'string' && f.evidence.now !== '';
  return f.kind === 'script-missing' && typeof f.evidence?.successor === 'string' && f.evidence.successor !== '';
}

interface Located {
  start: number;
  end: number;
  text: string;
}

/** Finds where a finding's `ref` is written inside the entry (file offsets). */
function locate(e: Entry, f: Finding): Array<{ start: number; end: number }> {
  if (!f.ref) return [];
  const refs = e.refs.filter((r) => r.raw === f.ref && r.start >= e.start && r.end <= e.end);
  if (refs.length) return refs.map((r) => ({ start: r.start, end: r.end }));
  // Fall back to the exact token on the finding's line.
  const out: Array<{ start: number; end: number }> = [];
  let lineStart = 0;
  let line = e.line;
  for (let i = 0; i <= e.text.length; i++) {
    if (i === e.text.length || e.text[i] === '\n') {
      if (line === f.line) {
        const seg = e.text.slice(lineStart, i);
        let k = seg.indexOf(f.ref);
        while (k >= 0) {
          out.push({ start: e.start + lineStart + k, end: e.start + lineStart + k + f.ref.length });
          k = seg.indexOf(f.ref, k + f.ref.length);
        }
        return out;
      }
      line++;
      lineStart = i + 1;
    }
  }
  return out;
}

type Recheck = (e: Entry, r: Reference, ctx: CheckContext) => Finding | null;

/**
 * The per-reference check behind a stale finding kind, with the reference kinds it reads: run
 * again on one reference to tell whether the finding is about it (same text, other folder).
 */
function recheckOf(kind: string): { kinds: ReadonlySet<string>; run: Recheck } | undefined {
  switch (kind) {
    case 'path-missing':
    case 'path-renamed':
      return { kinds: PATH_REF_KINDS, run: (e, r, ctx) => checkPathRef(e, r, ctx.evidence, undefined, ctx.files.find((x) => x.path === e.file)) };
    case 'script-missing':
      return { kinds: COMMAND_REF_KINDS, run: (e, r, ctx) => checkScriptRef(e, r, ctx.evidence) };
    case 'package-missing':
    case 'package-renamed':
      return { kinds: PACKAGE_REF_KINDS, run: (e, r, ctx) => checkPackageRef(e, r, ctx.evidence) };
    case 'version-drift':
      return { kinds: VERSION_REF_KINDS, run: (e, r, ctx) => checkVersionRef(e, r, ctx.evidence) };
    default:
      return undefined;
  }
}
const PATH_REF_KINDS: ReadonlySet<string> = new Set(['path', 'import']);
const COMMAND_REF_KINDS: ReadonlySet<string> = new Set(['command']);
const PACKAGE_REF_KINDS: ReadonlySet<string> = new Set(['package']);
const VERSION_REF_KINDS: ReadonlySet<string> = new Set(['version']);

/** What a reference's text is read against: the same text in another folder or workspace is another thing. */
function readingKey(r: Reference): string {
  return `${r.base ?? ''}\0${r.workspace ?? ''}\0${r.manifest ?? ''}\0${r.value}\0${r.in === 'link' ? 'link' : ''}`;
}

/**
 * Where a stale finding's reference is written in the entry (file offsets), for rule 4: only the
 * reference the finding is about, never every textual match of the old value (the root's
 * `npm run build` stays when only `cd docs-assets/app && npm run build` was flagged). That is the
 * finding's text on the finding's line, read in the same context (the path check reports `x.sh`
 * and `bash x.sh` on one line once: both are corrected). When that line holds the text in several
 * contexts, the per-reference check is run again on each to tell which one it flagged; undefined
 * when that cannot be told. A link whose text is its destination (`[a/b.md](a/b.md)`, also in
 * backticks) has its text rewritten with the destination, or the link would keep the old name.
 */
function flaggedAt(e: Entry, f: Finding, ctx: CheckContext): Array<{ start: number; end: number; text?: string }> | undefined {
  if (!f.ref) return [];
  const inEntry = e.refs.filter((r) => r.raw === f.ref && r.start >= e.start && r.end <= e.end);
  const onLine = f.line > 0 ? inEntry.filter((r) => r.line === f.line) : inEntry;
  let at: Array<{ start: number; end: number }>;
  if (onLine.length) {
    const groups = new Map<string, Reference[]>();
    for (const r of onLine) {
      const k = readingKey(r);
      const g = groups.get(k);
      if (g) g.push(r);
      else groups.set(k, [r]);
    }
    let chosen: Reference[] = onLine;
    if (groups.size > 1) {
      const check = recheckOf(f.kind);
      if (!check) return undefined;
      chosen = [];
      for (const g of groups.values()) {
        const probe = g.find((r) => check.kinds.has(r.kind));
        const again = probe ? check.run(e, probe, ctx) : null;
        if (again && again.kind === f.kind && again.suggestion?.replace === f.suggestion?.replace) chosen.push(...g);
      }
      if (!chosen.length) return undefined;
      // Refs of other kinds at the same offsets (a link and the path it names) go with them.
      const spots = new Set(chosen.map((r) => `${r.start}:${r.end}`));
      chosen = onLine.filter((r) => spots.has(`${r.start}:${r.end}`));
    }
    at = chosen.map((r) => ({ start: r.start, end: r.end }));
  } else {
    at = locate(e, f);
    // The finding's line does not hold it (a finding placed on the entry's first line): the
    // entry's refs with its text, as long as they are all read alike.
    if (!at.length && inEntry.length) {
      if (new Set(inEntry.map(readingKey)).size > 1) return undefined;
      at = inEntry.map((r) => ({ start: r.start, end: r.end }));
    }
  }
  const out: Array<{ start: number; end: number; text?: string }> = [...at];
  for (const r of at) {
    const t = selfNamedLinkText(e, r, f.suggestion?.replace);
    if (t) out.push(t);
  }
  return out;
}

/**
 * The text of the link whose destination holds `at`, when that text is the destination itself
 * (`[docs/a.md](docs/a.md)`, `` [`docs/a.md`](docs/a.md) ``): the range in the text matching `at`.
 * Also when the text is the destination's base name or its last segments (Cursor's
 * `[batch.ts](mdc:app/routes/batch.ts)`, `[routes/batch.ts](app/routes/batch.ts)`): the whole
 * text, with `text` = as many last segments of `replace` (all of it when it has fewer), so the
 * link does not go on naming the old file. And when the text is the name of the folder of an entry
 * file that kept its name (a skill's `[pr-checklist](skills/pr-checklist/SKILL.md)`): the new folder's.
 */
function selfNamedLinkText(
  e: Entry,
  at: { start: number; end: number },
  replace?: string,
): { start: number; end: number; text?: string } | undefined {
  const s = e.spans.find((x) => x.kind === 'link' && x.url && x.start <= at.start && at.end <= x.end);
  if (!s || !s.url) return undefined;
  const src = e.text.slice(s.start - e.start, s.end - e.start);
  if (src[0] !== '[') return undefined; // an autolink or a bare URL: no separate text
  const close = src.lastIndexOf('](', at.start - s.start);
  if (close < 1) return undefined;
  const urlAt = src.indexOf(s.url, close + 2);
  if (urlAt < 0 || s.start + urlAt > at.start || s.start + urlAt + s.url.length < at.end) return undefined;
  let textStart = 1;
  let textEnd = close;
  if (textEnd - textStart > 2 && src[textStart] === '`' && src[textEnd - 1] === '`') {
    textStart++;
    textEnd--;
  }
  const text = src.slice(textStart, textEnd);
  const rel = at.start - (s.start + urlAt);
  if (text === s.url) return { start: s.start + textStart + rel, end: s.start + textStart + rel + (at.end - at.start) };
  // The text is the path alone: without the destination's #anchor or ?query, or its `mdc:` prefix.
  const written = e.text.slice(at.start - e.start, at.end - e.start);
  if (text === written) return { start: s.start + textStart, end: s.start + textEnd };
  // The last segments of the destination: only when the reference ends the destination's path
  // (a folder inside it, `app/routes` of `app/routes/batch.ts`, is not what the text names).
  if (replace === undefined || !text || text.startsWith('/')) return undefined;
  const after = s.url.slice(rel + (at.end - at.start));
  if (after && !/^[#?]/.test(after)) return undefined;
  const path = written.replace(/\/+$/, '');
  // The folder an entry file stands for (`` [`pr-checklist`](.agents/skills/pr-checklist/SKILL.md) ``):
  // the text is the name of the destination's folder, and the file kept its name in the new one.
  const oldSegs = path.split('/');
  const newSegs = replace.replace(/\/+$/, '').split('/');
  if (!text.includes('/') && oldSegs.length >= 2 && newSegs.length >= 2 && text === oldSegs[oldSegs.length - 2] && oldSegs[oldSegs.length - 1] === newSegs[newSegs.length - 1]) {
    return { start: s.start + textStart, end: s.start + textEnd, text: newSegs[newSegs.length - 2] };
  }
  if (!path.endsWith(`/${text}`)) return undefined;
  const n = text.split('/').length;
  const segs = replace.replace(/\/+$/, '').split('/');
  return { start: s.start + textStart, end: s.start + textEnd, text: segs.slice(-n).join('/') };
}

/**
 * References with a stale finding's text that no edit corrects and that the check, run on them,
 * finds valid (the same command run from another folder): they stay as written, so the check
 * for a leftover old name skips them. Others (stale but not corrected, or of a kind that cannot be
 * re-checked) are not returned: they still count as the old name left behind.
 */
function unflaggedTwins(e: Entry, stale: Finding[], edits: Located[], ctx: CheckContext): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  const overlaps = (r: { start: number; end: number }) => edits.some((x) => x.start < r.end && r.start < x.end);
  for (const f of stale) {
    if (!f.ref || f.suggestion?.replace === undefined) continue;
    const check = recheckOf(f.kind);
    if (!check) continue;
    for (const r of e.refs) {
      if (r.raw !== f.ref || r.start < e.start || r.end > e.end || !check.kinds.has(r.kind) || overlaps(r)) continue;
      if (out.some((x) => x.start === r.start && x.end === r.end)) continue;
      if (!check.run(e, r, ctx)) out.push({ start: r.start, end: r.end });
    }
  }
  return out;
}

/** The entry's text with `edits` applied and the `masks` ranges blanked (masks never overlap edits). */
function spliceMasked(e: Entry, edits: Located[], masks: Array<{ start: number; end: number }>): string {
  let text = e.text;
  for (const m of masks) text = text.slice(0, m.start - e.start) + ' '.repeat(m.end - m.start) + text.slice(m.end - e.start);
  for (const ed of [...edits].sort((a, b) => b.start - a.start)) text = text.slice(0, ed.start - e.start) + ed.text + text.slice(ed.end - e.start);
  return text;
}

/**
 * Builds the corrected entry text: every located ref replaced by its successor, and
 * `[corrected YYYY-MM-DD]` at the end of the last changed body line (never inside frontmatter).
 */
export function correctedText(
  e: Entry,
  edits: Located[],
  today: string,
  frontmatterEnd = 0,
): string | undefined {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) if (sorted[i].start < sorted[i - 1].end) return undefined;
  let text = e.text;
  // Aligned trailing comments (`make lint        # golangci-lint`): the run of blanks between the
  // rewritten name and its comment takes up the change of length, so the comment column stays
  // (at least one blank is kept). `pad[i]`: blanks added (negative: removed) after edit i.
  const pad = sorted.map((ed) => {
    const delta = ed.text.length - (ed.end - ed.start);
    const m = delta === 0 ? null : ALIGNED_COMMENT_RE.exec(e.text.slice(ed.end - e.start, ed.end - e.start + 200));
    return m ? Math.max(1, m[1].length - delta) - m[1].length : 0;
  });
  for (let i = sorted.length - 1; i >= 0; i--) {
    const ed = sorted[i];
    let after = text.slice(ed.end - e.start);
    if (pad[i] > 0) after = ' '.repeat(pad[i]) + after;
    else if (pad[i] < 0) after = after.slice(-pad[i]);
    text = text.slice(0, ed.start - e.start) + ed.text + after;
  }
  if (text === e.text) return undefined;
  // Where the last edit ended, in the new text (the blanks after it come later).
  let shift = 0;
  for (let i = 0; i < sorted.length; i++) shift += sorted[i].text.length - (sorted[i].end - sorted[i].start) + (i < sorted.length - 1 ? pad[i] : 0);
  const last = sorted[sorted.length - 1];
  let at = last.end - e.start + shift;
  const inFrontmatter = last.start < frontmatterEnd;
  if (inFrontmatter) at = text.replace(/\s+$/, '').length;
  const eol = text.indexOf('\n', at);
  let lineEnd = eol < 0 ? text.length : eol;
  let lineStart = text.lastIndexOf('\n', Math.max(0, at - 1)) + 1;
  if (inFrontmatter) lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
  // Inside a fenced code block the marker goes on the opening fence (as info-string meta), so
  // the code itself stays runnable.
  const fenceOpen = openFenceBefore(text, lineStart);
  if (fenceOpen !== undefined) {
    lineStart = fenceOpen;
    const nl = text.indexOf('\n', fenceOpen);
    lineEnd = nl < 0 ? text.length : nl;
  } else if (!inFrontmatter && !TABLE_ROW_RE.test(text.slice(lineStart, lineEnd))) {
    // Hard-wrapped prose ("… That became a\n  no-op in 26.2.0, …"): the sentence goes on
    // on the next lines, so the marker goes where the sentence ends (or the paragraph does),
    // not mid-sentence. A line that ends a sentence keeps it.
    while (lineEnd < text.length && !SENTENCE_END_RE.test(text.slice(lineStart, lineEnd))) {
      const nl = text.indexOf('\n', lineEnd + 1);
      const next = text.slice(lineEnd + 1, nl < 0 ? text.length : nl);
      if (!CONTINUATION_RE.test(next)) break;
      lineStart = lineEnd + 1;
      lineEnd = nl < 0 ? text.length : nl;
    }
  }
  const raw = text.slice(lineStart, lineEnd);
  const lineText = raw.replace(/\r$/, '');
  const cr = raw.endsWith('\r') ? '\r' : '';
  const marker = `[corrected ${today}]`;
  let newLine: string;
  if (/\[corrected \d{4}-\d{2}-\d{2}\]/.test(lineText)) newLine = lineText.replace(/\[corrected \d{4}-\d{2}-\d{2}\]/, marker);
  else if (fenceOpen === undefined && /^\s*\|.*\|\s*$/.test(lineText))
    newLine = lineText.replace(/\s*\|\s*$/, ` ${marker} |`); // a table row: inside its last cell
  else newLine = lineText.replace(/\s*$/, '') + ' ' + marker + (lineText.match(/ {2,}$/)?.[0] ?? '');
  return text.slice(0, lineStart) + newLine + cr + text.slice(lineEnd);
}

/**
 * The replacement as prune writes it: the `[corrected …]` marker only where it is inert markdown
 * (src/apply/marker.ts moves it up or leaves it out after a link reference definition, on a
 * fence's info line, …), so the plan shows the text the file will hold; `note` says when it was left out.
 */
function markedSafely(replacement: string, today: string): { text: string; note: string } {
  const m = inertMarker(replacement, today);
  return { text: m.text, note: m.dropped ? `; no [corrected] marker: it would change ${m.dropped}` : '' };
}

/** Two or more blanks, then a trailing `#` or `//` comment, on the same line. */
const ALIGNED_COMMENT_RE = /^( {2,})(?=#|\/\/)/;
/** A line ending a sentence (closing quotes and brackets allowed after the mark). */
const SENTENCE_END_RE = /[.!?:;\u3002\uff01\uff1f]['"\u201d\u2019)\]*_`]*[ \t]*\r?$/;
/** A table row (`| a | b |`): its marker goes inside the last cell. */
const TABLE_ROW_RE = /^\s*\|.*\|\s*\r?$/;
/**
 * A line that continues the paragraph above it: not blank, and not the start of another block
 * (a list item, heading, fence, quote, table row, HTML, a `key: value` slot line such as
 * `valid_until:`, an indented code line).
 */
const CONTINUATION_RE = /^(?! {4}|\t)(?![ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|\r?$))(?![ \t]*(?:#{1,6}(?:[ \t]|\r?$)|`{3}|~{3}|>|\||<|\[[^\]]*\]:|[A-Za-z_][\w-]*:[ \t]))[ \t]*\S/;

/** The offset of the opening fence line when `lineStart` is inside a fenced code block of `text`. */
function openFenceBefore(text: string, lineStart: number): number | undefined {
  // No fence characters before the line: no line before it can open a fence.
  const tick = text.indexOf('```');
  const tilde = text.indexOf('~~~');
  if ((tick < 0 || tick >= lineStart) && (tilde < 0 || tilde >= lineStart)) return undefined;
  let open: { at: number; fence: string } | undefined;
  let at = 0;
  while (at < lineStart) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const m = /^(?:\s*(?:[-*+]|\d+[.)])?\s*)?(`{3,}|~{3,})/.exec(text.slice(at, end));
    if (m) {
      if (!open) open = { at, fence: m[1] };
      else if (m[1][0] === open.fence[0] && m[1].length >= open.fence.length) open = undefined;
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  return open?.at;
}

/** Stale kinds whose check verifies a value against the repository (a contradiction's subject). */
const VERIFYING_KINDS: ReadonlySet<string> = new Set(['version-drift', 'path-renamed', 'path-missing', 'script-missing', 'package-missing', 'package-renamed']);

/**
 * Whether `findings` (one entry's) hold a verified-stale finding about the contradiction `c`'s
 * subject: on the same line, its reference overlapping the contradiction's (`Prisma 5.4.1` and
 * `Prisma 5.4.1`, `pnpm test` and `pnpm test --watch`), case aside. Info findings are not verified stale.
 */
function staleOnSubject(findings: Finding[], c: Finding): boolean {
  if (!c.ref) return false;
  const cref = c.ref.toLowerCase();
  return findings.some((g) => {
    if (!VERIFYING_KINDS.has(g.kind) || g.severity === 'info' || !g.ref || g.line !== c.line) return false;
    const gref = g.ref.toLowerCase();
    // a whole word or words of the other (`prisma` in `prisma 5.4.1`), not a fragment (`test` in `latest`)
    const within = (a: string, b: string) => {
      const i = a.indexOf(b);
      return i >= 0 && !/[\w@.\/-]/.test(a[i - 1] ?? '') && !/[\w@\/-]/.test(a[i + b.length] ?? '');
    };
    return within(cref, gref) || within(gref, cref);
  });
}

// ------------------------------------------------------------------ the tree

function decideEntry(x: EntryFacts, t: Tree): PlanItem {
  const e = x.entry;
  const { ctx, on, today } = t;
  const item = (action: PlanAction, rule: number, reason: string, extra?: Partial<PlanItem>): PlanItem => {
    const p: PlanItem = { entryId: e.id, action, rule, reason, file: e.file, line: e.line, score: x.score.score };
    // Most items have no extra field: no spread (nor empty object) for them. Same keys, same order.
    return extra ? Object.assign(p, extra) : p;
  };
  const keep = (rule: number, reason: string) => item('keep', rule, reason);
  /** Every removal passes the guards. */
  const remove = (rule: number, action: PlanAction, reason: string, extra?: Partial<PlanItem>): PlanItem => {
    if (rule >= 5 && (e.type === 'decision' || e.type === 'feedback'))
      return keep(rule, `${e.type} entries are not pruned by rule ${rule} (${reason})`);
    if (SECURITY_RE.test(e.text)) return item('review', rule, `security-related; needs a human decision: ${reason}`);
    if (e.kind === 'frontmatter-field') return item('review', rule, `frontmatter field; edit by hand: ${reason}`);
    return item(action, rule, reason, extra);
  };
  const of = (kind: string) => (x.findings.length ? x.findings.filter((f) => f.kind === kind) : NONE);

  // 0. Protection comes first: these entries are never touched.
  if (e.protected) return keep(0, `protected (${e.meta.protectedReason ?? 'marker'})`);
  if (x.protectedBy) return keep(0, `protected by config pattern /${x.protectedBy}/`);
  const own = t.ownFile(e.file);
  if (own === 'log') return keep(0, 'pruning log written by memory-audit');
  if (e.type === 'superseded' || own === 'superseded')
    return keep(0, 'SUPERSEDED record (counter-memory); reviewed by hand, never pruned automatically');
  // Rule 0 also without a `secret` finding (the check switched off, or the finding placed on a
  // heading): removing or rewriting the entry would copy the value into the diff and the archive.
  const secrets = of('secret');
  if (secrets.length || holdsSecret(e)) return item('review', 0, 'contains a credential-like string: rotate it and remove it by hand');
  if (x.keepBy) return keep(0, `retention.keep matches /${x.keepBy}/`);

  // 1. Ephemeral: session state, intermediate reasoning, debug output... never belonged in memory.
  const eph = of('ephemeral');
  // A heuristic `ephemeral` type alone is not enough: the ephemeral check is tuned for precision.
  if (on(1) && (eph.length || (e.type === 'ephemeral' && e.typeSource === 'frontmatter'))) {
    const fixable = eph.length > 0 && eph.every((f) => f.suggestion?.replace !== undefined && locate(e, f).length);
    if (fixable) {
      const edits = eph.flatMap((f) => locate(e, f).map((r) => ({ ...r, text: f.suggestion!.replace! })));
      const replacement = correctedText(e, edits, today, frontmatterEnd(t, e));
      if (replacement !== undefined) {
        const m = markedSafely(replacement, today);
        return item('update', 1, `relative wording made absolute: ${oneLine(eph[0].message)}${m.note}`, { replacement: m.text });
      }
    }
    const why = eph[0]
      ? String((eph[0].evidence?.filter as string | undefined) ?? '') || eph[0].message
      : 'typed ephemeral in its frontmatter';
    // Ephemeral lines inside a topic file that holds lasting facts besides them ("- Next step: …"
    // after sections of decisions) do not make the whole file ephemeral: a person removes them.
    if (e.kind === 'topic' && !(e.type === 'ephemeral' && e.typeSource === 'frontmatter') && eph.length && eph.every((f) => f.evidence?.filter !== 'claude-md-copy') && otherFactLines(e, eph, frontmatterEnd(t, e)) >= 4)
      return remove(1, 'review', `ephemeral line ${eph[0].line} inside a topic file that holds more (${oneLine(why)}); remove that part by hand`);
    return remove(1, 'delete', `ephemeral: ${oneLine(why)}`);
  }

  // 2. Failed fidelity: contradicted by an authoritative source, or a pointer to nothing.
  if (on(2)) {
    for (const f of of('contradiction')) {
      const otherId = typeof f.evidence?.now === 'string' ? f.evidence.now : undefined;
      const other = otherId ? t.byId.get(otherId) : undefined;
      const keepId = typeof f.evidence?.keep === 'string' ? f.evidence.keep : undefined;
      const otherWhere = other ? `${where(other)} (${other.id})` : otherId ?? 'another entry';
      if (keepId && keepId !== e.id) return remove(2, 'delete', `contradicted by ${otherWhere}, which is kept`);
      if (keepId === e.id || !other) continue;
      // A side whose value a check proves stale on the same subject (`Prisma 5.4.1` with a
      // version-drift to 6.14.0) is no open question: it is left to rule 4 (corrected to what the
      // repository says, or removed), and the other side, then the verified one, is not a
      // contradiction to review either. Both sides stale: each is left to rule 4 the same way.
      if (staleOnSubject(x.findings, f)) continue;
      const mirror = t.facts.get(other.id)?.findings.find((g) => g.kind === 'contradiction' && g.evidence?.now === e.id);
      if (mirror && staleOnSubject(t.facts.get(other.id)!.findings, mirror)) continue;
      if (authority(other) > authority(e))
        return remove(2, 'delete', `contradicts ${otherWhere}, which is authoritative`);
      if (authority(other) < authority(e)) continue;
      if (e.type === 'decision' && other.type === 'decision') {
        // Which decision came later: when each was first written (git blame), not when last touched.
        const written = (id: string) => ctx.evidence.usage?.entries.get(id)?.firstEdited ?? '';
        const a = written(e.id);
        const b = written(other.id);
        if (a && b && a < b) {
          const record = supersededPath(e, ctx.files);
          if (t.existing.has(record)) return keep(2, `decision reversed by ${otherWhere}; already inoculated by ${record}`);
          return item('inoculate', 2, `decision reversed by newer ${otherWhere}; reasoning kept, SUPERSEDED record added`, {
            superseded: record,
            supersededBy: other.id,
          });
        }
        if (a && b && a > b) continue;
      }
      return item('review', 2, `contradicts ${otherWhere}; which one is right cannot be verified`);
    }
    if (e.kind === 'index-line' && of('broken-link').some((f) => [undefined, 'index-target-missing', 'missing'].includes(f.evidence?.reason as string | undefined)))
      return remove(2, 'delete', `index line points at a missing topic file (${e.meta.target ?? '?'})`);
  }

  // 3. Duplicates: keep the copy in the file loaded most widely, within one scope the most complete
  // version (the topic file over MEMORY.md), merge the rest (the check names the copy to keep).
  if (on(3)) {
    for (const f of of('duplicate')) {
      const keepId =
        (typeof f.evidence?.keep === 'string' && f.evidence.keep) || (typeof f.evidence?.now === 'string' && f.evidence.now) || '';
      const kept = t.byId.get(keepId);
      if (!kept || kept.id === e.id) continue;
      if (t.targetOf(e) === kept.file || t.targetOf(kept) === e.file) continue; // an index line and its own topic
      // CLAUDE.md and AGENTS.md saying the same thing serve different agents: not redundant.
      if (agentOf(e) !== agentOf(kept)) continue;
      // The kept copy is in a file loaded wherever this one is (the wider scope), but this copy
      // says more: deleting it would lose those words where it applies. A person decides.
      if (f.evidence?.review === true)
        return item('review', 3, `duplicate of ${where(kept)} (${kept.id}), which is loaded wherever this file is, but this copy adds words of its own: keep only what it adds, by hand`);
      const why = f.evidence?.scope === 'wider' ? 'which is loaded wherever this file is' : 'the more complete version';
      return remove(3, 'merge', `duplicate of ${where(kept)} (${kept.id}), ${why}`, { keep: kept.id });
    }
  }

  // 4. Stale: correct in place when the successor is known, else delete when nothing of value remains.
  const stale = x.findings.length ? x.findings.filter((f) => STALE_KINDS.has(f.kind) && f.severity !== 'info') : NONE; // info: not verified stale (an unreadable date, a catalog-only package)
  if (on(4) && stale.length) {
    const sup = stale.filter((f) => f.kind === 'superseded');
    if (sup.length) {
      const rec = String(sup[0].evidence?.now ?? sup[0].ref ?? 'a SUPERSEDED record');
      if (e.type === 'decision') return keep(4, `reversed decision; ${rec} keeps its reasoning`);
      const named = e.kind === 'topic' || sup.some((f) => JSON.stringify(f.evidence ?? {}).includes(e.id));
      if (named) return remove(4, 'delete', `superseded by ${rec}`);
      return item('review', 4, `${rec} may supersede this entry`);
    }
    // A reference written outside the entry's own lines (a rule file's `globs:` / `paths:` /
    // `applyTo:` frontmatter, attached to the first entry after it) says nothing about the entry's
    // text: it is neither corrected nor deleted through the entry.
    // The entry's own references are still corrected when every one of them has a known
    // correction: the update says what is left for a person outside the entry; otherwise the
    // whole entry goes to review.
    const fmEnd = frontmatterEnd(t, e);
    const outside = stale.find((f) => !withinEntry(e, f));
    let own = stale;
    let outsideNote: string | undefined;
    if (outside) {
      outsideNote = `stale (${outside.kind}) at line ${outside.line}, ${outsideWhere(e, outside, t, fmEnd)}: ${oneLine(outside.message)}; edit it by hand`;
      own = stale.filter((f) => withinEntry(e, f));
      if (!own.length || !own.every((f) => f.suggestion?.replace !== undefined)) return item('review', 4, outsideNote);
    }
    const edits: Located[] = [];
    const uncorrectable: Finding[] = [];
    const unpinned: Finding[] = [];
    for (const f of own) {
      const at = f.suggestion?.replace !== undefined ? flaggedAt(e, f, ctx) : [];
      if (at === undefined) unpinned.push(f);
      else if (at.length) for (const r of at) edits.push({ start: r.start, end: r.end, text: r.text ?? f.suggestion!.replace! });
      else uncorrectable.push(f);
    }
    let uniq = dedupeEdits(edits);
    if (!uncorrectable.length && uniq) {
      let replacement = unpinned.length ? undefined : correctedText(e, uniq, today, fmEnd);
      // A partial correction (the old name still appears elsewhere in the entry, e.g. in an import
      // path) would make the entry contradict itself: then it is not a known correction. The same
      // reference written elsewhere and left unflagged by the checks (the root's `npm run build`
      // next to a sub-project's renamed one) is valid: it stays as written and is no leftover.
      let twins: Array<{ start: number; end: number }> | undefined;
      const leftoverIn = (fixes: Located[]) => {
        if (unpinned.length) return unpinned[0];
        const named = (text: string) =>
          own.find(
            (f) =>
              f.ref &&
              (stillNamed(text, f.ref, f.suggestion?.replace ?? '') ||
                binOfComposerName(text, f) ||
                familyLeft(text, f, ctx)),
          );
        const left = named(spliceMasked(e, fixes, []));
        if (!left) return undefined;
        twins ??= unflaggedTwins(e, own, edits, ctx); // re-checks only when the old name is left
        return twins.length ? named(spliceMasked(e, fixes, twins)) : left;
      };
      let leftover = replacement === undefined && !unpinned.length ? undefined : leftoverIn(uniq);
      if (replacement !== undefined && fmEnd > e.start && (leftover || own.some(goModuleCorrection))) {
        // A topic file's frontmatter (its `description:`) naming the old path is corrected with it.
        const more = frontmatterMentions(e, own, fmEnd).filter((m) => !(twins ?? []).some((w) => w.start < m.end && m.start < w.end));
        const all = more.length ? dedupeEdits([...uniq, ...more]) : undefined;
        if (all) {
          uniq = all;
          replacement = correctedText(e, all, today, fmEnd);
          leftover = replacement === undefined ? undefined : leftoverIn(all);
        }
      }
      if (replacement !== undefined && !leftover) {
        const m = markedSafely(replacement, today);
        return item('update', 4, `stale, corrected: ${oneLine(own[0].message)}${m.note}${outsideNote ? `; also ${outsideNote}` : ''}`, { replacement: m.text });
      }
      // The successor is known but the old name also appears where it cannot be replaced safely:
      // a person finishes the correction (deleting would lose a fact whose fix is known).
      if (outsideNote) return item('review', 4, outsideNote);
      if (leftover) return item('review', 4, `stale (${leftover.kind}): ${oneLine(leftover.message)}; the old name also appears where it is not corrected automatically`);
    }
    if (outsideNote) return item('review', 4, outsideNote);
    const first = uncorrectable[0] ?? stale[0];
    const reason = `stale (${first.kind}): ${oneLine(first.message)}`;
    // An expiry (`valid_until`) is the author's own statement about the whole entry, and an
    // expiring note nearly always names live code: the exceptions below for partly stale entries
    // (names still live, a stale minority of lines, a long entry, a known correction of another
    // reference, a shallow clone) do not hold it back. Protected entries never get here (rule 0);
    // decision / feedback / user entries still go to review. A code block keeps those exceptions:
    // a `valid_until:` line in a snippet is more likely a sample of the syntax than an expiry.
    // A `valid_until:` line in the middle of a long body (a topic file's list, one item of which
    // expires) may date that item only: the whole-entry rule needs the expiry in the frontmatter,
    // an entry of at most five lines, or the slot on the entry's first or last line; other long
    // entries keep the exceptions below (review).
    const wholeEntry = !!e.meta.validUntil || e.endLine - e.line < 5 || expirySlotAtEdge(e.text);
    const expiry = e.kind === 'code' || !wholeEntry ? undefined : uncorrectable.find((f) => f.kind === 'expired');
    if (expiry) {
      const why = `stale (expired): ${oneLine(expiry.message)}`;
      if (e.type === 'decision' || e.type === 'feedback' || e.type === 'user')
        return item('review', 4, `${why}; a ${e.type} entry is not deleted automatically`);
      return remove(4, 'delete', `${why}; the expiry covers the whole entry`);
    }
    // Without full history (a shallow clone, a plain folder) "gone" may be a rename that cannot be
    // seen: a claim no commit backs is not enough to delete.
    const hist = ctx.evidence.history;
    if ((hist.shallow || !hist.available) && uncorrectable.some((f) => UNTRACED_KINDS.has(f.kind) && !f.evidence?.commit))
      return item('review', 4, `${reason}; ${hist.available ? 'the clone is shallow' : 'git history is not available'}, so a rename cannot be ruled out`);
    if (e.type === 'decision' || e.type === 'feedback' || e.type === 'user')
      return item('review', 4, `${reason}; a ${e.type} entry is not deleted automatically`);
    // A rename whose successor is known but is not written into this entry (no safe spelling of it
    // in this role, e.g. a gem's name where its executable belongs, or a plain word the sentence
    // already uses): deleting would lose a fact whose fix is known, so a person writes it.
    const renamed = uncorrectable.find(knownSuccessor);
    if (renamed) return item('review', 4, `${reason}; the successor is known but not written here automatically`);
    // Part of the entry has a known correction and part has none: deleting it would lose a fact
    // whose fix is known, correcting it would leave a stale one.
    if (uniq && (edits.length || unpinned.length)) return item('review', 4, `${reason}; other references of the entry have a known correction`);
    // Two corrections of the same words disagree: a person picks one (the fix is known, not lost).
    if (!uniq) return item('review', 4, `${reason}; two corrections of the same words disagree`);
    // Every stale reference is one item of an example list ("(rspec, rake, rubocop, etc.)", "such
    // as a, b"): the entry's point is elsewhere, and an example can be dropped by hand.
    if (uncorrectable.length > 0 && uncorrectable.every((f) => exampleItem(e, f)))
      return item('review', 4, `${reason}; \`${uncorrectable[0].ref}\` is one example of a list, the rest of the entry may still be useful`);
    // Every stale reference is a file named as a sample (`tests/Feature/ExampleTest.php` in "To run
    // all tests in a file: php artisan test tests/Feature/ExampleTest.php"): the instruction it
    // illustrates may hold for every other file.
    if (uncorrectable.length > 0 && uncorrectable.every(sampleFile))
      return item('review', 4, `${reason}; \`${uncorrectable[0].ref}\` reads as a sample file illustrating the instruction, which may still hold`);
    // The entry names at least as many things the project still has (a file at HEAD, a
    // dependency, a defined script) as stale ones: it is about more than what went away.
    // One package named twice (`cobra` beside `github.com/spf13/cobra`) is one stale thing.
    const staleNames = new Set(uncorrectable.map((f) => (f.kind.startsWith('package-') && typeof f.evidence?.package === 'string' ? f.evidence.package : f.ref ?? f.message)));
    // The manifest a stale package or script was declared in ("`x` (see package.json)") is where
    // the stale claim lives, not another thing the entry is about.
    const notLive = new Set([...staleNames, ...uncorrectable.map((f) => f.ref ?? f.message)]);
    for (const f of uncorrectable) if (typeof f.evidence?.manifest === 'string') notLive.add(path.posix.basename(f.evidence.manifest));
    const live = liveNames(e, ctx, (name, r) =>
      r ? notLive.has(r.raw) || notLive.has(r.value) || inStaleSpan(e, r, notLive) : notLive.has(name) || notLive.has(path.posix.basename(name)),
    ).size;
    if (e.kind === 'section' || (live > 0 && staleNames.size <= live))
      return item('review', 4, `${reason}; the rest of the entry may still be useful`);
    if (e.kind !== 'topic' && e.endLine - e.line + 1 > LARGE_ENTRY_LINES)
      return item('review', 4, `${reason}; a ${e.endLine - e.line + 1}-line ${e.kind} is not deleted automatically`);
    // Multi-line entries (an item with sub-items, a short code block, a topic file's body) whose
    // stale part is a minority: the other lines still hold facts, so a person decides.
    if (staleMinority(e, uncorrectable, fmEnd)) return item('review', 4, `${reason}; the rest of the entry may still be useful`);
    // A stated version with no single right one to write (declarations that disagree: a workspace's
    // crates, a monorepo's packages): the statement is about something that is still there.
    if (uncorrectable.length > 0 && uncorrectable.every((f) => f.kind === 'version-drift'))
      return item('review', 4, `${reason}; no single version to write (the declarations differ)`);
    return remove(4, 'delete', `${reason}; no remaining value`);
  }

  // 5. Low fidelity and low use.
  // Orphan topics, circular or too-deep imports are structural problems, not low fidelity.
  const weak = x.findings.length
    ? x.findings.filter(
        (f) => WEAK_KINDS.has(f.kind) && withinEntry(e, f) && !['orphan', 'import-circular', 'import-too-deep'].includes(f.evidence?.reason as string),
      )
    : NONE;
  if (on(5) && (weak.length || x.pruneBy) && !x.score.pinned) {
    const threshold = x.pruneBy ? Math.min(1, ctx.config.scoring.threshold * 2) : ctx.config.scoring.threshold;
    if (x.score.score < threshold) {
      const why = weak.length ? `${weak[0].kind}: ${oneLine(weak[0].message)}` : `retention.prune matches /${x.pruneBy}/`;
      // A path never seen in history may be a typo, or a path relative to a folder the text names
      // ("under `packages/next`: `src/cli/next-dev.ts`"): a person tells them apart.
      const reason = `low fidelity (${why}) and low use (score ${below(x.score.score, threshold)})`;
      if (!x.pruneBy && weak.every((f) => f.kind === 'path-unverified'))
        return remove(5, 'review', `${reason}; the path may be relative to a folder the entry names`);
      return remove(5, 'delete', reason);
    }
  }

  // 6. Finished work: closed issues and merged PRs.
  if (on(6)) {
    const done = finishedWork(x, t);
    if (done) {
      // A reusable pattern is in the entry's own words (REUSABLE_RE) or typed `pattern` by its
      // author. A `pattern` type the classifier guessed does not count: it comes from the section
      // heading ("Known issues", "Gotchas") or from symptom words ("fails when", "flaky"), and a
      // note that an issue is still open is exactly what such sections hold; kept as a "pattern",
      // it would outlive the issue forever.
      if ((e.type === 'pattern' && e.typeSource === 'frontmatter') || REUSABLE_RE.test(e.text))
        return keep(6, `about finished work (${done}) but holds a reusable pattern`);
      return remove(6, 'archive', `about finished work: ${done}`);
    }
  }

  // 7. References to freely available sources.
  if (on(7) && e.type === 'reference') {
    const urls = e.refs.filter((r) => r.kind === 'url');
    const local = e.refs.some((r) => r.kind === 'path' || r.kind === 'command' || r.kind === 'issue' || r.kind === 'import');
    const prose = e.text.replace(/https?:\/\/\S+/g, ' ');
    const own = projectNames(ctx);
    const publicDoc = (u: string) => isPublicDocUrl(u) && !ownHost(urlHost(u) ?? '', own);
    if (urls.length && !local && urls.every((r) => publicDoc(r.value || r.raw)) && !PROJECT_SPECIFIC_RE.test(prose)) {
      const hosts = [...new Set(urls.map((r) => urlHost(r.value || r.raw)))].join(', ');
      return remove(7, 'delete', `freely available reference (${hosts}); findable with a search`);
    }
  }

  return keep(7, `no rule applies (score ${fmtScore(x.score.score)})`);
}

function oneLine(s: string): string {
  // Most messages are one clean line already: skip the rewrites (and their copies) then.
  let t = MESSY_SPACE_RE.test(s) ? s.replace(/\s+/g, ' ').trim() : s;
  if (TRAILING_PUNCT.has(t.charCodeAt(t.length - 1))) t = t.replace(/[.;:,]+$/, '');
  return t.length > 140 ? t.slice(0, 139) + '…' : t;
}

/** Whitespace that `replace(/\s+/g, ' ').trim()` would change: anything but a lone inner space. */
const MESSY_SPACE_RE = /^\s|\s$|[^\S ]| {2}/;
/** . ; : , */
const TRAILING_PUNCT = new Set([46, 59, 58, 44]);

/** Whether `text` still names `old` (as a word or path segment) once `replacement` occurrences are set aside. */
/**
 * A Composer package corrected in an entry that still runs its binary (`pestphp/pest` ->
 * `phpunit/phpunit`, but `./vendor/bin/pest` stays): the old name is left where it is not corrected.
 */
function binOfComposerName(text: string, f: Finding): boolean {
  const old = f.ref;
  if (!old || f.kind !== 'package-renamed' || !/^[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*$/.test(old)) return false;
  const short = old.slice(old.indexOf('/') + 1);
  return new RegExp(`(?:^|[\\s\`'"(/.])vendor/bin/${short.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`).test(text);
}

/**
 * Whether the text still names the family of a replaced package (`springfox` of `springfox-swagger2`
 * replaced by `springdoc-openapi-starter-webmvc-ui`): the old name's part before its first `-`, of
 * four characters or more, no dependency of the project now and not the successor's own first part.
 * "API docs come from springfox (`springdoc-…`)" would contradict itself.
 */
function familyLeft(text: string, f: Finding, ctx: CheckContext): boolean {
  if (f.kind !== 'package-renamed' || !f.ref || !f.suggestion?.replace) return false;
  const root = /^(@?[a-z][a-z0-9]{3,})-/i.exec(f.ref)?.[1]?.toLowerCase();
  if (!root || ctx.evidence.manifests.dependencies.has(root)) return false;
  if (f.suggestion.replace.toLowerCase().startsWith(`${root}-`) || f.suggestion.replace.toLowerCase() === root) return false;
  return stillNamed(text, root, f.suggestion.replace);
}

function stillNamed(text: string, old: string, replacement: string): boolean {
  const without = replacement ? text.split(replacement).join(' ') : text;
  // A plain search instead of a RegExp built per call: compiling one regex per stale finding
  // dominated this function. ASCII names (nearly all of them) are matched with the exact
  // semantics of the regex below; others keep the regex (non-ASCII case folding).
  const fast = old && ASCII_RE.test(old) ? namesAscii(without, old) : undefined;
  if (fast !== undefined) return fast;
  const esc = old.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^A-Za-z0-9_-])${esc}(?:$|[^A-Za-z0-9_])`, 'i').test(without);
}

const ASCII_RE = /^[\x00-\x7f]*$/;

/** ASCII lower case of a char code (other codes unchanged). */
const fold = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);
/** [A-Za-z0-9_] */
const isWordCode = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/**
 * `/(?:^|[^A-Za-z0-9_-])OLD(?:$|[^A-Za-z0-9_])/i.test(text)` for an ASCII, non-empty `old`.
 * Under the `i` flag (without `u`) an ASCII pattern character only matches ASCII letters of either
 * case: non-ASCII characters never fold onto ASCII ones. The candidates come from a native search
 * in the lower-cased text (same offsets unless it holds a length-changing 'İ'), and each one is
 * confirmed on the original text (the Kelvin sign lower-cases to an ASCII 'k').
 */
function namesAscii(text: string, old: string): boolean | undefined {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return undefined;
  const needle = old.toLowerCase();
  const n = old.length;
  for (let i = lower.indexOf(needle); i !== -1; i = lower.indexOf(needle, i + 1)) {
    if (!asciiFoldEquals(text, i, old)) continue;
    if (i > 0) {
      const before = text.charCodeAt(i - 1);
      if (isWordCode(before) || before === 45 /* - */) continue;
    }
    if (i + n < text.length && isWordCode(text.charCodeAt(i + n))) continue;
    return true;
  }
  return false;
}

/** Whether `text` at `at` equals `old` up to ASCII letter case. */
function asciiFoldEquals(text: string, at: number, old: string): boolean {
  for (let k = 0; k < old.length; k++) if (fold(text.charCodeAt(at + k)) !== fold(old.charCodeAt(k))) return false;
  return true;
}

function dedupeEdits(edits: Located[]): Located[] | undefined {
  const map = new Map<string, Located>();
  for (const ed of edits) {
    const k = `${ed.start}:${ed.end}`;
    const prev = map.get(k);
    if (prev && prev.text !== ed.text) return undefined;
    map.set(k, ed);
  }
  return [...map.values()];
}

/**
 * Edits for the old names of stale findings (with a known successor) written in the entry's
 * frontmatter part (a topic file's `description:`), as whole words or path segments.
 */
/** A Go module corrected by its full path: its short name may stand in the frontmatter too (`frontmatterMentions`). */
function goModuleCorrection(f: Finding): boolean {
  const pkg = f.evidence?.package;
  return f.kind === 'package-renamed' && f.suggestion?.replace !== undefined && typeof pkg === 'string' && pkg.includes('/') && f.ref === pkg;
}

function frontmatterMentions(e: Entry, stale: Finding[], fmEnd: number): Located[] {
  const head = e.text.slice(0, Math.max(0, fmEnd - e.start));
  const out: Located[] = [];
  const pairs: Array<[string, string]> = [];
  for (const f of stale) {
    if (!f.ref || f.suggestion?.replace === undefined) continue;
    pairs.push([f.ref, f.suggestion.replace]);
    // A Go module corrected in the body (`github.com/hibiken/asynq` -> `…/riverqueue/river`) is
    // named by its short name in a description ("jobs from asynq"): that one becomes `river`.
    const pkg = f.evidence?.package;
    const now = f.evidence?.now;
    if (goModuleCorrection(f) && typeof pkg === 'string' && typeof now === 'string') {
      const a = goShortName(pkg);
      const b = goShortName(now);
      if (a && b && a !== b) pairs.push([a, b]);
    }
  }
  for (const [old, next] of pairs) {
    for (let k = head.indexOf(old); k >= 0; k = head.indexOf(old, k + old.length)) {
      const before = k > 0 ? head.charCodeAt(k - 1) : -1;
      const after = k + old.length < head.length ? head.charCodeAt(k + old.length) : -1;
      const boundedBefore = before === -1 || !(isWordCode(before) || before === 45);
      const boundedAfter = after === -1 || !isWordCode(after);
      if (boundedBefore && boundedAfter) out.push({ start: e.start + k, end: e.start + k + old.length, text: next });
    }
  }
  return out;
}

/**
 * Whether a reference sits in the same code span as a stale name (`npx tsx legacy/import.ts`: the
 * runner is there to run the deleted file, it is not something else the entry is about).
 */
function inStaleSpan(e: Entry, r: Reference, stale: Set<string>): boolean {
  if (r.in !== 'inlineCode' && r.in !== 'code') return false;
  const at = r.start - e.start;
  const open = e.text.lastIndexOf('`', at - 1);
  const close = e.text.indexOf('`', r.end - e.start);
  if (open < 0 || close < 0) return false;
  const span = e.text.slice(open + 1, close);
  for (const name of stale) if (name && span.includes(name)) return true;
  return false;
}

const PROJECT_NAMES = new WeakMap<object, Set<string>>();

/**
 * The project's own names: the GitHub repository's owner and name, the names its manifests declare
 * (scope and name, now or in history, workspace packages included), the repository folder's name. Lower case, three letters or more.
 */
function projectNames(ctx: CheckContext): Set<string> {
  let names = PROJECT_NAMES.get(ctx.evidence);
  if (names) return names;
  names = new Set<string>();
  const add = (s: string | undefined) => {
    for (const part of (s ?? '').toLowerCase().split(/[^a-z0-9]+/)) if (part.length >= 3) names!.add(part);
  };
  add(ctx.evidence.github?.repo);
  for (const p of ctx.evidence.manifests.projectVersions ?? []) add(p.name);
  for (const n of ctx.evidence.manifests.everProjectNames?.keys() ?? []) add(n);
  for (const n of ctx.evidence.manifests.workspaces?.keys() ?? []) add(n);
  add(path.basename(ctx.evidence.root));
  PROJECT_NAMES.set(ctx.evidence, names);
  return names;
}

/** The project's own site (`docs.sentry.io` in getsentry/sentry): not third-party documentation. */
function ownHost(host: string, names: Set<string>): boolean {
  const labels = host.split('.').slice(0, -1); // the top-level domain names nothing
  return labels.some((l) => l !== 'docs' && l !== 'www' && names.has(l));
}

/** Stale kinds whose "gone" needs the history to tell a deletion from a rename. */
const UNTRACED_KINDS = new Set(['path-missing', 'script-missing', 'package-missing']);

/** Whether a finding is located on the entry's own lines (findings without a line are). */
function withinEntry(e: Entry, f: Finding): boolean {
  return !(f.line > 0) || (f.line >= e.line && f.line <= e.endLine);
}

/**
 * Whether the lines holding stale references are at most half of an entry's non-blank lines (at
 * least two): for a topic file, the lines of its body (frontmatter is metadata, not content).
 */
function staleMinority(e: Entry, stale: Finding[], fmEnd: number): boolean {
  const skip = e.kind === 'topic' ? Math.max(0, Math.min(e.text.length, fmEnd - e.start)) : 0;
  let content = 0;
  for (const line of e.text.slice(skip).split('\n')) if (line.trim() !== '') content++;
  const staleLines = new Set(stale.map((f) => f.line));
  return content >= 2 && staleLines.size * 2 <= content;
}

/** Words that introduce examples ("such as a, b", "e.g. a, b"): what follows them is a list of examples. */
const EXAMPLE_MARKER = /(?:\bsuch as|\be\.g\.,?|\bfor (?:example|instance),?|\bincluding|\blike)\s+/gi;
/** What closes a list of examples ("a, b, etc.", "a and so on", "a, b…"). */
const EXAMPLE_END = /(?:,?\s*\betc\b\.?|\.\.\.|…|,?\s+and (?:so on|more|others)\b|,?\s+or similar\b)/i;

/**
 * Whether a finding's reference is one item of a list of examples on its line: a list of at least
 * two short items (`,` / `and` / `or` / `/` between them) that is in parentheses ("(rspec, rake,
 * rubocop, etc.)"), follows "such as" / "e.g." / "for example" / "including" / "like", ends with
 * "etc." / "and so on", or has three items or more. Its bounds: parentheses, `:` / `;`, a sentence
 * end, the line. Only for stale references about to be deleted: a few per audit.
 */
/** A stale path whose file is named as a sample (`ExampleTest.php`, `example.test.ts`, `sample_spec.rb`). */
function sampleFile(f: Finding): boolean {
  if (!f.kind.startsWith('path-') || !f.ref) return false;
  const base = f.ref.replace(/\/+$/, '').split('/').pop() ?? '';
  return /^(?:example|sample)(?:[-_.A-Z0-9]|$)/i.test(base) && /^(?:Example|Sample|example|sample)/.test(base);
}

function exampleItem(e: Entry, f: Finding): boolean {
  if (!f.ref) return false;
  for (const at of locate(e, f)) {
    const s = at.start - e.start;
    const lineStart = e.text.lastIndexOf('\n', s - 1) + 1;
    let lineEnd = e.text.indexOf('\n', s);
    if (lineEnd === -1) lineEnd = e.text.length;
    const line = e.text.slice(lineStart, lineEnd);
    const a = s - lineStart;
    const b = a + (at.end - at.start);
    // Bounds: a sentence end is `.` `!` `?` then a space, except after e.g / i.e / etc / vs.
    const stop = (i: number): boolean => {
      const c = line[i];
      if (c === '(' || c === ')' || c === ':' || c === ';') return true;
      if ((c === '.' || c === '!' || c === '?') && (i + 1 >= line.length || line[i + 1] === ' ')) return !/(?:\be\.g|\bi\.e|\betc|\bvs)$/i.test(line.slice(0, i));
      return false;
    };
    let l = a;
    while (l > 0 && !stop(l - 1)) l--;
    let r = b;
    while (r < line.length && !stop(r)) r++;
    const paren = line[l - 1] === '(' && line[r] === ')';
    let from = l;
    let marker = false;
    for (const m of line.slice(l, a).matchAll(EXAMPLE_MARKER)) {
      from = l + (m.index ?? 0) + m[0].length;
      marker = true;
    }
    // "a, b, etc." / "a and so on" / "a, b…": the list ends there, and is a list of examples.
    let list = line.slice(from, r);
    const end = EXAMPLE_END.exec(list);
    if (end) list = list.slice(0, end.index);
    const items = list
      .split(/\s*,\s*|\s+(?:and|or)\s+|\s*\/\s*/)
      .map((x) => x.trim().replace(/^(?:[-*+]\s+|\d+[.)]\s+)/, '').replace(/^[`*_"']+|[`*_"']+$/g, ''))
      .filter(Boolean);
    const etc = end !== null;
    const words = (x: string) => x.split(/\s+/).length;
    if (items.length + (etc ? 1 : 0) < 2 || items.some((x) => x.length > 60)) continue;
    // Three short items or more make a list on their own ("Ruby CLI tools: rspec, rake, rubocop";
    // the sentence may lead into the first: "`ApplicationComponent` includes routes, Devise
    // helpers, Pundit, and ApplicationHelper").
    const short = items.length >= 3 && words(items[0]!) > 2 && items.slice(1).every((x) => words(x) <= 2) ? [items[0]!.split(/\s+/).pop()!, ...items.slice(1)] : items;
    if (short.length >= 3 && short.includes(f.ref) && short.every((x) => words(x) <= 2)) return true;
    if (!paren && !marker && !etc) continue;
    // Marked as examples: the sentence may go on before the first item and after the last one
    // ("tools such as rubocop and brakeman run in CI").
    if (!paren && !marker && words(items[0]!) > 3) items[0] = items[0]!.split(/\s+/).pop()!;
    if (!paren && words(items[items.length - 1]!) > 3) items[items.length - 1] = items[items.length - 1]!.split(/\s+/)[0]!;
    if (items.includes(f.ref) && items.every((x) => words(x) <= 3)) return true;
  }
  return false;
}

/**
 * Where a finding on a line outside its entry is, for the review reason: the references attached
 * to an entry from outside its lines are the file's frontmatter globs (`globs:`, `paths:`,
 * `applyTo:`) and the paths of the heading right above a section's first entry (`### \`x/y.ts\``,
 * src/memory/references.ts). Saying "frontmatter" for a heading sends the reader to the wrong place.
 * The heading is not rewritten: it is not an entry, so an update (which replaces exactly its
 * entry's range, checked by re-parsing) cannot carry it; and a heading is a link target (its
 * text is its `#anchor`), so rewriting it, with a `[corrected]` marker or not, would break links
 * to it elsewhere without telling anyone. A person edits it.
 */
function outsideWhere(e: Entry, f: Finding, t: Tree, fmEnd: number): string {
  const ref = e.refs.find((r) => r.line === f.line && (f.ref === undefined || r.raw === f.ref || r.value === f.ref));
  if (ref?.in === 'frontmatter' || (!ref && fmEnd > 0 && f.line < e.line && lineOfOffset(t, e.file, fmEnd) >= f.line))
    return "the file's frontmatter, outside this entry";
  const text = t.ctx.files.find((x) => x.path === e.file)?.text;
  if (text !== undefined) {
    let lineText: string | undefined;
    if (ref && text.slice(ref.start, ref.end) === ref.raw) lineText = text.slice(text.lastIndexOf('\n', ref.start - 1) + 1, ref.start);
    else lineText = text.split('\n')[f.line - 1];
    if (lineText !== undefined && /^ {0,3}#{1,6}(?:[ \t]|$)/.test(lineText) && f.line < e.line) return 'in the heading above this entry';
  }
  return 'outside this entry';
}

/** Lines of a topic file's body (after its frontmatter) holding text other than headings and the lines the findings are on. */
function otherFactLines(e: Entry, findings: Finding[], fmEnd: number): number {
  const hit = new Set(findings.map((f) => f.line));
  const from = Math.max(0, fmEnd - e.start);
  let line = lineInEntry(e, from);
  let n = 0;
  for (const l of e.text.slice(from).split('\n')) {
    if (l.trim() && !/^\s{0,3}#/.test(l) && !hit.has(line)) n++;
    line++;
  }
  return n;
}

/** The 1-based line of a file holding an offset (rarely asked: only for findings outside their entry). */
function lineOfOffset(t: Tree, file: string, offset: number): number {
  const text = t.ctx.files.find((x) => x.path === file)?.text ?? '';
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function frontmatterEnd(t: Tree, e: Entry): number {
  return t.frontmatterEnds.get(e.file) ?? 0;
}

/** `OwnFile` per memory file path, memoised (entries of one file share the answer). */
function memoOwnFiles(trail: Set<string>): (file: string) => OwnFile {
  const memo = new Map<string, OwnFile>();
  return (file) => {
    if (memo.has(file)) return memo.get(file);
    const own: OwnFile =
      trail.has(file) || /(^|\/)pruning-log\.md$/.test(file) ? 'log' : isSupersededFile(file) ? 'superseded' : undefined;
    memo.set(file, own);
    return own;
  };
}

/**
 * `indexTarget` memoised per entry: the plan asks for an index line's target up to five times
 * (each a path join + normalise). Only index lines have one.
 */
function memoTargets(): (e: Entry) => string | undefined {
  const memo = new Map<Entry, string | undefined>();
  return (e) => {
    if (e.kind !== 'index-line') return undefined;
    if (memo.has(e)) return memo.get(e);
    const target = indexTarget(e);
    memo.set(e, target);
    return target;
  };
}

/** Frontmatter end offset per memory file path, built once per plan (the first file of a path wins). */
function frontmatterEnds(files: CheckContext['files']): Map<string, number> {
  const out = new Map<string, number>();
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) continue;
    seen.add(f.path);
    const end = f.frontmatterRange?.[1];
    if (end !== undefined) out.set(f.path, end);
  }
  return out;
}

/** What finished work the entry is about (status drift, or an issue / PR the API says is closed). */
function finishedWork(x: EntryFacts, t: Tree): string | undefined {
  const drift = x.findings.find((f) => f.kind === 'status-drift');
  if (drift) return oneLine(drift.message);
  const gh = t.ctx.evidence.github;
  if (!gh?.checked) return undefined;
  // Citing a closed issue for context is not being about it: only progress notes count.
  if (!PROGRESS_RE.test(x.entry.text)) return undefined;
  for (const r of x.entry.refs) {
    if (r.kind !== 'issue' || r.number === undefined) continue;
    const repo = r.repo || gh.repo;
    const st = (repo ? gh.issues.get(`${repo}#${r.number}`) : undefined) ?? gh.issues.get(`#${r.number}`);
    if (st && !('error' in st) && st.state === 'closed')
      return `${st.kind === 'pr' ? 'PR' : 'issue'} #${r.number} is ${st.merged ? 'merged' : 'closed'}`;
  }
  return undefined;
}

// ------------------------------------------------------------------ the whole plan

/** Whether the tree may inoculate this removal: an abandoned strategy or dangerous pattern whose trigger still exists. */
function needsInoculation(p: PlanItem, x: EntryFacts): boolean {
  if (p.action !== 'delete' || ![1, 2, 5].includes(p.rule)) return false;
  const e = x.entry;
  if (e.kind === 'index-line') return false; // the topic file it points at carries the record
  if (['reference', 'user', 'feedback', 'superseded'].includes(e.type)) return false;
  if (x.findings.some((f) => TRIGGER_GONE_KINDS.has(f.kind))) return false;
  if (p.rule === 1) {
    // Of the ephemeral kinds only intermediate reasoning ("tried X, it didn't work") is an abandoned approach.
    const filters = x.findings
      .filter((f) => f.kind === 'ephemeral')
      .flatMap((f) => [f.evidence?.filter, ...((f.evidence?.filters as unknown[]) ?? [])])
      .filter((v): v is string => typeof v === 'string');
    if (filters.length ? !filters.includes('reasoning') : !/\b(?:tried|(?:does|did)(?:n'?t| not) work|gave up)\b/i.test(e.text))
      return false;
  }
  return ABANDONED_RE.test(e.text);
}

export function decide(ctx: CheckContext, findings: Finding[]): PlanItem[] {
  const scores = scoreEntries(ctx);
  const protect = compile(ctx.config.protect);
  const keepRes = compile(ctx.config.retention.keep);
  const pruneRes = compile(ctx.config.retention.prune);
  const byId = new Map(ctx.entries.map((e) => [e.id, e]));
  const facts = new Map<string, EntryFacts>();
  const firstMatch = (res: RegExp[], text: string) => (res.length ? res.find((r) => r.test(text))?.source : undefined);
  for (const e of ctx.entries) {
    facts.set(e.id, {
      entry: e,
      findings: NONE, // most entries have no finding: their own array is made on the first one
      score: scores.get(e.id)!,
      protectedBy: firstMatch(protect, e.text),
      keepBy: firstMatch(keepRes, e.text),
      pruneBy: firstMatch(pruneRes, e.text),
    });
  }
  for (const f of findings) {
    const x = f.entryId ? facts.get(f.entryId) : undefined;
    if (!x) continue;
    if (x.findings === NONE) x.findings = [f];
    else x.findings.push(f);
  }

  const memoryPaths = new Set(ctx.files.map((f) => f.path));
  const repoFiles = ctx.evidence.files?.files;
  const existing: PathSet = { has: (p) => memoryPaths.has(p) || (repoFiles?.has(p) ?? false) };
  const targetOf = memoTargets();
  const trail = new Set([pruneLogPath(ctx.config, ctx.files), archivePath(ctx.config)]);
  const rulesOn = Array.from({ length: BUDGET_RULE + 1 }, (_, n) => ctx.config.rules[String(n)] !== false);
  const t: Tree = {
    ctx,
    byId,
    facts,
    on: (n) => rulesOn[n] ?? ctx.config.rules[String(n)] !== false,
    today: ctx.evidence.now.toISOString().slice(0, 10),
    existing,
    frontmatterEnds: frontmatterEnds(ctx.files),
    targetOf,
    ownFile: memoOwnFiles(trail),
  };

  // Index lines of existing topic files follow their topic; everything else goes through the tree.
  // Two exceptions go through the tree themselves: a protected index line (rule 0: it protects
  // its topic file too) and an index line holding a credential (rule 0: review, with its topic).
  const topicOf = new Map<string, Entry>();
  for (const e of ctx.entries) if (e.kind === 'topic') topicOf.set(e.file, e);
  const secretIndex = (e: Entry) => holdsSecret(e) || facts.get(e.id)!.findings.some((f) => f.kind === 'secret');
  const protectingIndex = new Map<string, Entry>();
  for (const e of ctx.entries) {
    const target = targetOf(e);
    if (target && topicOf.has(target) && e.protected && !protectingIndex.has(target)) protectingIndex.set(target, e);
  }
  const plan = new Map<string, PlanItem>();
  const mirrors: Entry[] = [];
  const held: Entry[] = [];
  for (const e of ctx.entries) {
    const target = targetOf(e);
    const by = e.kind === 'topic' ? protectingIndex.get(e.file) : undefined;
    if (by && !e.protected) {
      plan.set(e.id, {
        entryId: e.id,
        action: 'keep',
        rule: 0,
        reason: `protected by its index line ${where(by)} (${by.id})`,
        file: e.file,
        line: e.line,
        score: facts.get(e.id)!.score.score,
      });
    } else if (target && topicOf.has(target) && !e.protected && !secretIndex(e)) mirrors.push(e);
    else {
      plan.set(e.id, decideEntry(facts.get(e.id)!, t));
      if (target && topicOf.has(target) && !e.protected) held.push(e);
    }
  }

  // An index line holding a credential stays for review, and so does its topic file: deleting
  // the topic alone would leave the line pointing at nothing, and the human who removes the
  // credential by hand decides about both (the safer of the two choices; see docs/prune.md).
  for (const e of held) {
    const topic = topicOf.get(targetOf(e)!)!;
    const tp = plan.get(topic.id)!;
    if (tp.action === 'keep' || tp.action === 'review' || tp.action === 'inoculate') continue;
    plan.set(topic.id, {
      entryId: topic.id,
      action: 'review',
      rule: 0,
      reason: `its index line ${where(e)} holds a credential-like string; the topic and its index line are left for a human (would be: ${tp.action}, rule ${tp.rule}: ${tp.reason})`,
      file: topic.file,
      line: topic.line,
      score: tp.score,
    });
  }

  // A duplicate whose kept version is itself removed stays.
  for (const p of plan.values()) {
    if (p.action !== 'merge' || !p.keep) continue;
    const k = plan.get(p.keep);
    if (k && REMOVING.has(k.action)) {
      p.action = 'keep';
      p.reason = `duplicate of ${p.keep}, which is removed itself (${k.reason}); this copy stays`;
      delete p.keep;
    }
  }

  // Index lines mirror their topic file.
  const indexOfTopic = new Map<string, Entry>();
  for (const m of mirrors) indexOfTopic.set(targetOf(m)!, m);
  for (const e of mirrors) {
    const topic = topicOf.get(targetOf(e)!)!;
    const tp = plan.get(topic.id)!;
    const score = facts.get(e.id)!.score.score;
    // One object per item (keys in the order of the plan items above: entryId, file, line, score, ...).
    const mirror = (action: PlanAction, reason: string, replacement?: string): PlanItem =>
      replacement === undefined
        ? { entryId: e.id, file: e.file, line: e.line, score, action, rule: tp.rule, reason }
        : { entryId: e.id, file: e.file, line: e.line, score, action, rule: tp.rule, reason, replacement };
    if (tp.action === 'merge' && tp.keep) {
      const kept = byId.get(tp.keep);
      if (kept?.kind === 'topic' && !indexOfTopic.has(kept.file) && e.meta.target) {
        const rel = path.posix.relative(path.posix.dirname(e.file), kept.file);
        const replacement = e.text.replace(`](${e.meta.target}`, `](${rel}`);
        if (replacement !== e.text) {
          plan.set(e.id, mirror('update', `index line redirected to ${kept.file} (merged)`, replacement));
          continue;
        }
      }
      plan.set(e.id, mirror('delete', `index line of ${topic.file}, merged into ${tp.keep}`));
    } else if (REMOVING.has(tp.action)) {
      plan.set(e.id, mirror(tp.action, `index line of ${topic.file} (${tp.action}d: rule ${tp.rule})`));
    } else {
      // The topic stays; the index line's own words may still name a renamed path ("rounding
      // rules in `src/billing.ts`"): a known correction of the line itself is applied, anything
      // else about it follows the topic.
      const own = facts.get(e.id)!.findings.length ? decideEntry(facts.get(e.id)!, t) : undefined;
      if (own?.action === 'update' && own.replacement !== undefined) plan.set(e.id, own);
      else plan.set(e.id, mirror('keep', `index line of ${topic.file}, which is kept`));
    }
  }

  // Budgets: archive the lowest scores until each budgeted file fits (rule 8).
  planBudgets(ctx, plan, facts, topicOf, indexOfTopic, targetOf);

  // A paragraph that introduces the next block ("Run it with:") shares that block's fate.
  keepIntroductionsCoherent(ctx, plan);

  // Inoculation: removing an abandoned strategy whose trigger still exists writes a SUPERSEDED record.
  for (const p of plan.values()) {
    const x = facts.get(p.entryId)!;
    if (!needsInoculation(p, x)) continue;
    const record = supersededPath(x.entry, ctx.files);
    if (existing.has(record)) {
      p.reason += `; already inoculated by ${record}`;
      continue;
    }
    p.superseded = record;
    p.reason += '; SUPERSEDED record written';
  }

  return ctx.entries.map((e) => plan.get(e.id)!);
}


function keepIntroductionsCoherent(ctx: CheckContext, plan: Map<string, PlanItem>): void {
  const byFile = new Map<string, Entry[]>();
  for (const e of ctx.entries) {
    if (e.kind === 'topic' || e.kind === 'index-line') continue;
    const l = byFile.get(e.file);
    if (l) l.push(e);
    else byFile.set(e.file, [e]);
  }
  const gone = (x: PlanItem) => REMOVING.has(x.action);
  for (const list of byFile.values()) {
    list.sort((a, b) => a.start - b.start);
    for (let i = 0; i + 1 < list.length; i++) {
      const intro = list[i];
      // "Run it with:" or a bold pseudo-heading ("**MCP Server Usage:** (…)") right before a block.
      const introLike = /:\s*$/.test(intro.text) || (/^\*\*[^*\n]+\*\*/.test(intro.text) && !intro.text.includes('\n'));
      if (intro.kind !== 'paragraph' || !introLike) continue;
      // The block it introduces: the adjacent items / code / rows / quotes that follow.
      const block: Entry[] = [];
      let prevEnd = intro.endLine;
      for (let j = i + 1; j < list.length; j++) {
        const b = list[j];
        if (!['item', 'code', 'table-row', 'quote'].includes(b.kind) || b.line - prevEnd > 2) break;
        if (block.length && b.kind !== block[0].kind) break;
        block.push(b);
        prevEnd = b.endLine;
      }
      if (!block.length) continue;
      const p = plan.get(intro.id)!;
      const stays = block.find((b) => !gone(plan.get(b.id)!));
      if (gone(p) && stays) {
        plan.set(intro.id, { ...p, action: 'review', reason: `${p.reason}; it introduces ${stays.file}:${stays.line}, which stays` });
      } else if (!gone(p) && !stays && p.action === 'keep' && p.rule !== 0 && !intro.protected) {
        const q = plan.get(block[0].id)!;
        plan.set(intro.id, { ...p, action: q.action, rule: q.rule, reason: `introduces ${block[0].file}:${block[0].line}, which is removed (${q.reason})` });
      }
    }
  }
}

/** Exposed for tests and docs. */
export const _internal = { decideEntry, locate, finishedWork, needsInoculation, stillNamed, oneLine, correctedText };
