// Plan -> file changes. Pure: takes the files as read, the plan and the current contents of the
// files prune writes (log, archive, SUPERSEDED records), and returns every change with its
// before/after text, the archive records and the pruning-log entry. Nothing is written here.
//
// Per memory file: removed entries take their whole lines out (blank lines around them are
// collapsed so the markdown keeps its shape), updates splice the entry's range, links to deleted
// topic files are unlinked (their text stays) and links to merged ones redirected (in updated
// entries too), tables whose rows all went lose their header and delimiter rows, sections left
// empty by the prune lose their heading (not the file's title), `<details>` blocks left empty their tags.
// Topic files that are removed are deleted outright. An update's `[corrected]` marker stays only where
// it is inert markdown (marker.ts).
// Protected entries are checked to be byte-identical afterwards.
import path from 'node:path';
import { diffChars } from 'diff';
import type { Config } from '../config/types.js';
import type { Entry, Evidence, Finding, MemoryFile, PlanItem } from '../types.js';
import { recordId, serializeRecords, type ArchiveRecord } from './archive.js';
import { appendLog, renderLogEntry } from './log.js';
import { archivePath, pruneLogPath } from './paths.js';
import { isBlank, lineOf, lineStarts, lineText, type Splice } from './splice.js';
import { renderSuperseded, supersededIndexLine } from './superseded.js';
import { inertMarker } from './marker.js';
import { parseForVerify, spliceEdits, verifyEdits } from '../memory/edit.js';
import { findSecretRanges, redactSecrets } from '../report/redact.js';

/** Whether text holds a credential-like string: such text is never removed, rewritten or copied by prune. */

/** The archive record of one entry: what every kind of change (update, removal, relink) records. */
function entryRecord(e: Entry, today: string, action: ArchiveRecord['action'], rule: number, reason: string): ArchiveRecord {
  return {
    id: recordId([today, e.id, action, e.file, e.line]),
    entryId: e.id,
    date: today,
    action,
    rule,
    reason,
    file: e.file,
    line: e.line,
    endLine: e.endLine,
    type: e.type,
    kind: e.kind,
    headings: e.headings,
    text: e.text,
  };
}

export function hasSecret(text: string | undefined): boolean {
  return typeof text === 'string' && text !== '' && findSecretRanges(text).length > 0;
}

/**
 * Text prune emits that is not restored byte for byte (anchors, headings, reasons) is redacted;
 * the texts restore puts back (`text`, `lines`, `replacement`) never hold a credential (checked).
 */
function redactRecord(r: ArchiveRecord): ArchiveRecord {
  const out: ArchiveRecord = { ...r, reason: redactSecrets(r.reason), headings: r.headings.map((h) => redactSecrets(h)) };
  if (r.prevLine !== undefined) out.prevLine = redactSecrets(r.prevLine);
  if (r.keptBefore !== undefined) out.keptBefore = redactSecrets(r.keptBefore);
  return out;
}

export interface FileChange {
  file: string;
  before: string | null;
  after: string | null;
}

export interface PlannedChanges {
  /** Every file that changes, sorted by path (memory files, SUPERSEDED records, log, archive). */
  changes: FileChange[];
  records: ArchiveRecord[];
  logEntry: string;
  logPath: string;
  archivePath: string;
  supersededFiles: string[];
  deletedFiles: string[];
  /** Files (not deleted) that lost more than half of their content: candidates to fold into the index. */
  foldCandidates: string[];
  /** Problems that made the apply step skip an edit (never silent). */
  warnings: string[];
  /** Entries whose planned change was not applied because the re-parse check failed. */
  skipped: string[];
}

export interface PlanChangesInput {
  files: MemoryFile[];
  entries: Entry[];
  findings: Finding[];
  plan: PlanItem[];
  config: Config;
  evidence?: Pick<Evidence, 'usage'>;
  /** YYYY-MM-DD of the run. */
  today: string;
  /** Current contents of the files prune may write besides memory files (null = absent). */
  current: (file: string) => string | null;
}

const REMOVING = new Set(['delete', 'archive', 'merge']);
const HEADING_RE = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;
/** A GFM table delimiter row (`| --- | :-: |`), possibly inside a blockquote; at least one pipe. */
/** An HTML block holding only a `<details>` opening tag and, optionally, its `<summary>` element. */
const DETAILS_OPEN_RE = /^<details(?=[\s>])[^>]*>\s*(?:<summary(?=[\s>])[^>]*>(?:(?!<\/?(?:summary|details)\b)[\s\S])*<\/summary\s*>\s*)?$/i;
/** An HTML block holding only `</details>`. */
const DETAILS_CLOSE_RE = /^<\/details\s*>\s*$/i;
const TABLE_DELIM_RE = /^[ \t>]*(?=[^|]*\|)\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

function normalizeTarget(fromFile: string, url: string): string | undefined {
  // `mdc:path` (Cursor rule links) names a path from the repository root.
  if (MDC.test(url)) {
    const t = normalizeTarget('', url.slice(4));
    return t === undefined || t.startsWith('../') ? undefined : t;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#') || url.startsWith('/')) return undefined;
  const clean = (() => {
    try {
      return decodeURI(url.replace(/[#?].*$/, ''));
    } catch {
      return url.replace(/[#?].*$/, '');
    }
  })();
  if (!clean) return undefined;
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), clean));
}

/** Cursor's file-link prefix (`[name](mdc:apps/web/x.ts)`). */
const MDC = /^mdc:/i;

function relPath(fromFile: string, toFile: string): string {
  return path.posix.relative(path.posix.dirname(fromFile), toFile) || path.posix.basename(toFile);
}

function nonSpace(s: string): number {
  return s.replace(/\s+/g, '').length;
}

/**
 * Moves edits made against `from` onto `to` (a rewrite of `from`, e.g. an update's replacement):
 * an edit is carried when the text it replaces is still there, unchanged, at the place the
 * rewrite moved it to (found by a character diff), so it never lands on text the rewrite changed.
 * Edits whose text the rewrite changed are returned as `missed` (as given, offsets in `from`).
 */
export function carryEdits(from: string, to: string, edits: Splice[]): { edits: Splice[]; missed: Splice[] } {
  // Common prefix and suffix first: the diff then only runs over the rewritten middle, so a long
  // topic file with one corrected path costs little.
  let pre = 0;
  const max = Math.min(from.length, to.length);
  while (pre < max && from.charCodeAt(pre) === to.charCodeAt(pre)) pre++;
  let suf = 0;
  while (suf < max - pre && from.charCodeAt(from.length - 1 - suf) === to.charCodeAt(to.length - 1 - suf)) suf++;
  // Unchanged runs: [offset in from, offset in to, length].
  const same: Array<[number, number, number]> = [[0, 0, pre]];
  const parts = diffChars(from.slice(pre, from.length - suf), to.slice(pre, to.length - suf), { maxEditLength: 5000 });
  if (parts) {
    let o = pre;
    let n = pre;
    for (const part of parts) {
      if (!part.added && !part.removed) same.push([o, n, part.value.length]);
      if (!part.added) o += part.value.length;
      if (!part.removed) n += part.value.length;
    }
  }
  same.push([from.length - suf, to.length - suf, suf]);
  const mapStart = (x: number) => same.find(([o, , len]) => x >= o && x < o + len);
  const mapEnd = (x: number) => same.find(([o, , len]) => x > o && x <= o + len);
  const out: Splice[] = [];
  const missed: Splice[] = [];
  for (const ed of edits) {
    const a = mapStart(ed.start);
    const b = mapEnd(ed.end);
    const s = a ? a[1] + ed.start - a[0] : -1;
    const t = b ? b[1] + ed.end - b[0] : -1;
    if (s >= 0 && t >= s && to.slice(s, t) === from.slice(ed.start, ed.end)) out.push({ ...ed, start: s, end: t });
    else missed.push(ed);
  }
  return { edits: out, missed };
}

interface FileEditResult {
  after: string;
  records: ArchiveRecord[];
  warnings: string[];
  /** Entries planned to change but left alone (they hold a credential). */
  held: string[];
  /** Plan reasons as applied, where apply changed how (an update written without its marker). */
  notes: Map<string, string>;
}

/** The plan items by entry id (a Map, or a view of one with some entries' changes left out). */
type PlanLookup = { get(id: string): PlanItem | undefined };

/** Edits one memory file that is not deleted. */
function editFile(
  file: MemoryFile,
  entries: Entry[],
  plan: PlanLookup,
  deletedTopics: Map<string, Entry>,
  redirects: Map<string, { to: string; from: Entry }>,
  today: string,
): FileEditResult {
  const text = file.text;
  const ls = lineStarts(text);
  const n = ls.length - 1;
  const bodyStart = file.frontmatterRange ? lineOf(ls, Math.max(0, file.frontmatterRange[1] - 1)) + 1 : 1;
  const removed = new Set<number>();
  const splices: Splice[] = [];
  const records: ArchiveRecord[] = [];
  const warnings: string[] = [];
  const removedEntries: Array<{ e: Entry; p: PlanItem; a: number; b: number; whole: boolean }> = [];
  const held = new Set<string>();
  const notes = new Map<string, string>();

  // Reintegration: links to deleted topic files are unlinked, links to merged ones redirected.
  const topicNamed = (name: string, t: Entry) =>
    (t.meta.name ?? '').toLowerCase() === name || path.posix.basename(t.file, '.md').toLowerCase() === name;
  /** The unlink / redirect edits of one entry's links (file offsets) and the topics they concern. */
  const linkEdits = (e: Entry): { local: Splice[]; groups: Set<string> } => {
    const local: Splice[] = [];
    const groups = new Set<string>();
    for (const s of e.spans) {
      if (s.kind !== 'link' || !s.url) continue;
      const target = normalizeTarget(file.path, s.url);
      if (!target) continue;
      const src = text.slice(s.start, s.end);
      const m = /^\[([\s\S]*)\]\(([^)]*)\)$/.exec(src);
      if (!m) continue;
      const dead = deletedTopics.get(target);
      if (dead) {
        local.push({ start: s.start, end: s.end, text: m[1], why: `unlink ${target}` });
        groups.add(dead.id);
      } else if (redirects.has(target)) {
        const { to: keptFile, from } = redirects.get(target)!;
        // An `mdc:` link keeps its prefix and stays a path from the root.
        const to = MDC.test(s.url) ? s.url.slice(0, 4) + keptFile : relPath(file.path, keptFile);
        groups.add(from.id);
        local.push({ start: s.start, end: s.end, text: `[${m[1]}](${m[2].replace(s.url, to)})`, why: `redirect ${target}` });
      }
    }
    for (const r of e.refs) {
      if (r.kind !== 'wikilink' || !r.raw.startsWith('[[')) continue;
      const name = r.value.replace(/\.md$/i, '').toLowerCase();
      const dead = [...deletedTopics.values()].find((t) => topicNamed(name, t));
      if (dead) {
        local.push({ start: r.start, end: r.end, text: r.raw.replace(/^\[\[/, '').replace(/\]\]$/, ''), why: `unlink [[${r.value}]]` });
        groups.add(dead.id);
        continue;
      }
      // A merged topic: [[b]] (or [[b|alias]], [[b#part]]) names the kept topic by its file stem,
      // which the broken-link check always resolves.
      const merged = [...redirects.values()].find((x) => topicNamed(name, x.from));
      if (!merged) continue;
      const stem = path.posix.basename(merged.to, '.md');
      const m = /^\[\[(\s*)([^\]\n|#]+?)(\s*)([#|][^\]\n]*)?\]\]$/.exec(r.raw);
      if (!m) continue;
      local.push({ start: r.start, end: r.end, text: `[[${m[1]}${stem}${m[3]}${m[4] ?? ''}]]`, why: `redirect [[${r.value}]]` });
      groups.add(merged.from.id);
    }
    return { local, groups };
  };

  const sorted = [...entries].sort((x, y) => x.start - y.start);
  for (const e of sorted) {
    const p = plan.get(e.id);
    if (!p || e.protected) continue;
    if ((REMOVING.has(p.action) || p.action === 'update') && (hasSecret(e.text) || hasSecret(p.replacement))) {
      // Second line of defence (the plan sends these to review): never copy a credential.
      warnings.push(`${e.file}:${e.line}: ${e.id} holds a credential-like string; not ${p.action}d (review it by hand)`);
      held.add(e.id);
      continue;
    }
    if (REMOVING.has(p.action)) {
      const a = lineOf(ls, e.start);
      const b = lineOf(ls, Math.max(e.start, e.end - 1));
      const prefix = text.slice(ls[a - 1], e.start);
      const suffix = text.slice(e.end, ls[b]).replace(/\r?\n$/, '');
      const whole = /^[ \t>]*$/.test(prefix) && isBlank(suffix);
      if (whole) for (let l = a; l <= b; l++) removed.add(l);
      else splices.push({ start: e.start, end: e.end, text: '', why: `remove ${e.id}` });
      removedEntries.push({ e, p, a, b, whole });
    } else if (p.action === 'update' && p.replacement !== undefined && p.replacement !== e.text) {
      // An updated entry's links to removed memory get the same unlinking / redirecting as any
      // kept entry's: the update is applied to the entry's original text, so otherwise the
      // links would dangle after the topic is gone. One record: restoring the update brings
      // back the original text (links included).
      // The `[corrected …]` marker stays only where it is inert markdown (src/apply/marker.ts):
      // after a link reference definition, on a fence's info line, a setext underline, a table
      // delimiter row or in an HTML block it would change the entry, so it is left out there.
      const marked = inertMarker(p.replacement, today);
      let replacement = marked.text;
      let reason = marked.dropped ? `${p.reason}; no [corrected] marker: it would change ${marked.dropped}` : p.reason;
      if (marked.dropped) notes.set(e.id, reason);
      const { local } = linkEdits(e);
      if (local.length) {
        const carried = carryEdits(e.text, replacement, local.map((s) => ({ ...s, start: s.start - e.start, end: s.end - e.start })));
        // A link the update rewrote (e.g. an index line already redirected to a merged topic's
        // kept file) is the update's to decide; only one whose text is still there, in a place
        // the diff could not pin down, is left dangling: say so.
        const dangling = carried.missed.filter((m) => replacement.includes(e.text.slice(m.start, m.end)));
        if (dangling.length)
          warnings.push(`${e.file}:${e.line}: ${e.id}: a link to removed memory could not be placed in the updated text (${dangling.map((m) => m.why).join(', ')}); left as it is (review it by hand)`);
        if (carried.edits.length) {
          try {
            replacement = spliceEdits(replacement, carried.edits);
            reason += '; links to removed memory unlinked or redirected';
          } catch (err) {
            warnings.push(`${e.file}:${e.line}: ${(err as Error).message}`);
          }
        }
      }
      splices.push({ start: e.start, end: e.end, text: replacement, why: `update ${e.id}` });
      records.push({ ...entryRecord(e, today, 'update', p.rule, reason), replacement });
    }
  }

  for (const e of sorted) {
    const p = plan.get(e.id);
    // Updated entries had their links handled with the update (above).
    if (e.protected || (p && !held.has(e.id) && (REMOVING.has(p.action) || p.action === 'update'))) continue;
    const { local, groups } = linkEdits(e);
    if (!local.length) continue;
    if (hasSecret(e.text)) {
      warnings.push(`${e.file}:${e.line}: ${e.id} links to removed memory but holds a credential-like string; links left as they are (review it by hand)`);
      continue;
    }
    const inEntry = local.map((s) => ({ ...s, start: s.start - e.start, end: s.end - e.start }));
    let replacement: string;
    try {
      replacement = spliceEdits(e.text, inEntry);
    } catch (err) {
      warnings.push(`${e.file}:${e.line}: ${(err as Error).message}`);
      continue;
    }
    splices.push({ start: e.start, end: e.end, text: replacement, why: `relink ${e.id}` });
    records.push({
      ...entryRecord(e, today, 'reintegrate', 0, 'links to removed memory unlinked or redirected'),
      kind: 'link',
      replacement,
      group: [...groups].sort(),
    });
  }

  // Tables emptied by this prune lose their header and delimiter rows. Only body rows are entries,
  // so without this a table whose rows all went stays as a header-only table (which also keeps
  // its section from counting as empty). Rows of one table are table-row entries on consecutive
  // lines (GFM body rows are one line each; a table ends at the first line that is not a row),
  // and the header and delimiter are the two lines right above the first row.
  const removedTables: Array<{ a: number; b: number; members: string[] }> = [];
  const rows = sorted.filter((e) => e.kind === 'table-row');
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1].line === rows[j].endLine + 1) j++;
    const body = rows.slice(i, j + 1);
    i = j + 1;
    const first = body[0].line;
    const allGone = body.every((r) => {
      for (let l = r.line; l <= r.endLine; l++) if (!removed.has(l)) return false;
      return true;
    });
    if (!allGone || first - 2 < bodyStart) continue;
    const head = lineText(text, ls, first - 2);
    const delim = lineText(text, ls, first - 1);
    // The delimiter row proves the two lines are the table's header; a header that is also a
    // list item's first line (`- | a | b |`) would take the item marker with it: left alone.
    if (!TABLE_DELIM_RE.test(delim) || isBlank(head) || !head.includes('|') || /^[ \t>]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/.test(head)) continue;
    if (removed.has(first - 2) || removed.has(first - 1)) continue;
    if (hasSecret(head)) {
      // Never removed automatically: the header's text would go into the diff and the archive.
      warnings.push(`${file.path}:${first - 2}: table header holds a credential-like string; kept although its rows are gone (rotate it and remove it by hand)`);
      continue;
    }
    removed.add(first - 2);
    removed.add(first - 1);
    removedTables.push({ a: first - 2, b: first - 1, members: body.map((r) => r.id) });
  }

  // Lines an edit rewrites (updates, relinks): content that stays.
  const spliceLines = new Set<number>();
  for (const s of splices) for (let l = lineOf(ls, s.start); l <= lineOf(ls, Math.max(s.start, s.end - 1)); l++) spliceLines.add(l);

  // A `<details>` block emptied by this prune goes like an emptied section: its opening (the tag
  // and its `<summary>`) and its `</details>` are top-level HTML-block entries of their own, and
  // with every entry between them removed, what is left is a collapsible with nothing in it. Both
  // are archived (kinds `details` and `details-end`, under their own entry ids) and come back with
  // the entries they held. Only exact shapes are taken: an opening block holding nothing but the
  // tag and a summary, a closing block holding nothing but the end tag; any other block naming
  // `<details` between them (raw HTML we do not pair) leaves the block alone. Inner blocks close
  // first, so an outer one emptied by removing an inner one goes too.
  const removedDetails: Array<{ open: Entry; close: Entry; members: string[] }> = [];
  const stack: Array<Entry | undefined> = [];
  const untouched = (x: Entry) => {
    const px = plan.get(x.id);
    return !x.protected && !held.has(x.id) && !(px && (REMOVING.has(px.action) || px.action === 'update'));
  };
  for (const e of sorted) {
    if (e.kind === 'code' || !/<\/?details/i.test(e.text)) continue;
    if (DETAILS_OPEN_RE.test(e.text)) {
      stack.push(e);
      continue;
    }
    if (!DETAILS_CLOSE_RE.test(e.text)) {
      for (const m of e.text.matchAll(/<(\/?)details(?=[\s>\/])/gi)) {
        if (m[1]) stack.pop();
        else stack.push(undefined);
      }
      // An unpaired tag inside: the blocks around it are not ours to judge.
      for (let k = 0; k < stack.length; k++) stack[k] = undefined;
      continue;
    }
    const open = stack.pop();
    if (!open || !untouched(open) || !untouched(e)) continue;
    let touched = false;
    let content = false;
    for (let l = open.endLine + 1; l < e.line; l++) {
      if (removed.has(l)) touched = true;
      else if (!isBlank(lineText(text, ls, l)) || spliceLines.has(l)) content = true;
    }
    if (!touched || content) continue;
    if (hasSecret(open.text) || hasSecret(e.text)) {
      warnings.push(`${file.path}:${open.line}: <details> block holds a credential-like string; kept although it is empty (rotate it and remove it by hand)`);
      continue;
    }
    for (const x of [open, e]) for (let l = x.line; l <= x.endLine; l++) removed.add(l);
    removedDetails.push({ open, close: e, members: removedEntries.filter((r) => r.a > open.endLine && r.b < e.line).map((r) => r.e.id) });
  }

  // Sections emptied by this prune lose their heading (and any empty sub-headings).
  const headings: Array<{ line: number; level: number; end: number }> = [];
  let fence: string | undefined;
  for (let l = bodyStart; l <= n; l++) {
    const t = lineText(text, ls, l);
    const f = FENCE_RE.exec(t);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    const h = HEADING_RE.exec(t);
    if (h) headings.push({ line: l, level: h[1].length, end: n });
  }
  for (let i = 0; i < headings.length; i++) {
    for (let j = i + 1; j < headings.length; j++)
      if (headings[j].level <= headings[i].level) {
        headings[i].end = headings[j].line - 1;
        break;
      }
  }
  const headingLines = new Set(headings.map((h) => h.line));
  // The file's title (its first heading, the only one of level 1) names the file, not a section:
  // kept when everything under it goes ("# Memory" over an emptied index). Not in a topic file:
  // one left with nothing but its title is deleted.
  const title =
    file.format !== 'auto-memory-topic' && headings[0]?.level === 1 && headings.filter((h) => h.level === 1).length === 1 ? headings[0].line : undefined;
  const removedHeadings: Array<{ line: number; members: string[] }> = [];
  for (const h of headings) {
    if (removed.has(h.line) || h.line === title) continue;
    let touched = false;
    let content = false;
    for (let l = h.line + 1; l <= h.end; l++) {
      if (removed.has(l)) {
        touched = true;
        continue;
      }
      if (headingLines.has(l)) continue;
      if (!isBlank(lineText(text, ls, l)) || spliceLines.has(l)) content = true;
    }
    if (!touched || content) continue;
    const secretHeading = [...headingLines].find((l) => l >= h.line && l <= h.end && !removed.has(l) && hasSecret(lineText(text, ls, l)));
    if (secretHeading !== undefined) {
      // Never removed automatically: the heading's text would go into the diff and the archive.
      if (secretHeading === h.line)
        warnings.push(`${file.path}:${h.line}: section heading holds a credential-like string; kept although its section is empty (rotate it and remove it by hand)`);
      continue;
    }
    for (let l = h.line; l <= h.end; l++) if (headingLines.has(l) && !removed.has(l)) {
      removed.add(l);
      removedHeadings.push({
        line: l,
        members: removedEntries.filter((r) => r.a > l && r.b <= h.end).map((r) => r.e.id),
      });
    }
  }

  // Collapse the blank lines the removals leave behind.
  const blankAt = (l: number) => l >= 1 && l <= n && !removed.has(l) && isBlank(lineText(text, ls, l));
  for (let i = bodyStart; i <= n; ) {
    if (!removed.has(i)) {
      i++;
      continue;
    }
    let j = i;
    while (removed.has(j + 1)) j++;
    const prev = i - 1;
    const next = j + 1;
    if (next <= n && blankAt(next) && (prev < bodyStart || blankAt(prev))) {
      removed.add(next);
      continue;
    }
    if (next > n && prev >= bodyStart && blankAt(prev)) {
      removed.add(prev);
      i = prev;
      continue;
    }
    i = j + 1;
  }

  // Archive records for removed entries and headings, with restore anchors.
  // Anchors are lines of the body: restore never looks inside the frontmatter (its closing `---`
  // would not be found, and the block would land at the end of the file instead of at the top
  // of the body); with no line above it in the body, restore puts the block first in the body.
  const keptBefore = (a: number): string | undefined => {
    for (let l = a - 1; l >= bodyStart; l--) if (!removed.has(l) && !isBlank(lineText(text, ls, l))) return lineText(text, ls, l);
    return undefined;
  };
  const prevLine = (a: number): string | undefined => {
    for (let l = a - 1; l >= bodyStart; l--) if (!isBlank(lineText(text, ls, l))) return lineText(text, ls, l);
    return undefined;
  };
  // The exact bytes of the blank lines around a block (and whether it ended the file): the
  // collapse above removes some of them with the block, and booleans cannot say how many there
  // were, nor their whitespace or line endings, so restore could not give back the same bytes.
  const anchors = (a: number, b: number) => {
    let s = a;
    while (s > bodyStart && isBlank(lineText(text, ls, s - 1))) s--;
    let t = b;
    while (t < n && isBlank(lineText(text, ls, t + 1))) t++;
    const gapBefore = text.slice(ls[s - 1], ls[a - 1]);
    const gapAfter = text.slice(ls[b], ls[t]);
    return {
      prevLine: prevLine(a),
      keptBefore: keptBefore(a),
      blankBefore: a > 1 && isBlank(lineText(text, ls, a - 1)),
      blankAfter: b < n && isBlank(lineText(text, ls, b + 1)),
      ...(gapBefore ? { gapBefore } : {}),
      ...(gapAfter ? { gapAfter } : {}),
      ...(t === n ? { last: true } : {}),
    };
  };
  /**
   * The record of markup the prune removed with entries (a heading, a table's header and
   * delimiter): lines a..b, put back with the members of `group`. The entry id is the kind's
   * prefix plus a hash of the file and the text (not its line, which moves).
   */
  const structureRecord = (
    prefix: string,
    kind: 'heading' | 'table-header' | 'details' | 'details-end',
    reason: string,
    a: number,
    b: number,
    group: string[],
    entryId?: string,
  ) => {
    const lines = text.slice(ls[a - 1], ls[b]);
    const shown = a === b ? lineText(text, ls, a) : lines.replace(/\r?\n$/, '');
    records.push({
      id: recordId([today, file.path, a, a === b ? shown : lines]),
      entryId: entryId ?? prefix + recordId([file.path, a === b ? shown : lines]).slice(2),
      date: today,
      action: 'reintegrate',
      rule: 0,
      reason,
      file: file.path,
      line: a,
      endLine: b,
      kind,
      headings: [],
      text: shown,
      lines,
      group,
      ...anchors(a, b),
    });
  };
  for (const h of removedHeadings) structureRecord('h_', 'heading', 'section heading left without content', h.line, h.line, h.members);
  // Header and delimiter as one record (a delimiter like `| --- | --- |` is rarely unique in a
  // file, so it must not be matched on its own); it travels with the table's rows.
  for (const t of removedTables) structureRecord('t_', 'table-header', 'table header left without rows', t.a, t.b, t.members);
  // A <details> block's two ends, under the ids of their entries (so `restore <that id>` finds them too).
  for (const d of removedDetails) {
    structureRecord('', 'details', '<details> block left without content', d.open.line, d.open.endLine, d.members, d.open.id);
    structureRecord('', 'details-end', '<details> block left without content', d.close.line, d.close.endLine, d.members, d.close.id);
  }
  for (const { e, p, a, b, whole } of removedEntries) {
    records.push({
      ...entryRecord(e, today, p.action, p.rule, p.reason),
      lines: whole ? text.slice(ls[a - 1], ls[b]) : undefined,
      ...(p.keep ? { keep: p.keep } : {}),
      ...(p.superseded ? { superseded: p.superseded } : {}),
      ...anchors(a, b),
    });
  }

  // Removed lines become splices; other splices inside removed lines are dropped.
  const inRemoved = (sp: Splice) => {
    for (let l = lineOf(ls, sp.start); l <= lineOf(ls, Math.max(sp.start, sp.end - 1)); l++) if (!removed.has(l)) return false;
    return true;
  };
  const kept = splices.filter((sp) => !inRemoved(sp));
  splices.length = 0;
  splices.push(...kept);
  for (let i = 1; i <= n; ) {
    if (!removed.has(i)) {
      i++;
      continue;
    }
    let j = i;
    while (removed.has(j + 1)) j++;
    splices.push({ start: ls[i - 1], end: ls[j], text: '', why: `remove lines ${i}-${j}` });
    i = j + 1;
  }

  // Protected entries must come out byte-identical: no splice may touch them.
  for (const e of entries) {
    if (!e.protected || !splices.length) continue;
    for (let k = splices.length - 1; k >= 0; k--) {
      const s = splices[k];
      if (s.start < e.end && s.end > e.start && !(s.start === s.end && (s.start === e.start || s.start === e.end))) {
        warnings.push(`${file.path}:${e.line}: edit "${s.why}" would touch protected entry ${e.id}; skipped`);
        splices.splice(k, 1);
      }
    }
  }

  return { after: spliceEdits(text, splices), records: records.map(redactRecord), warnings, held: [...held], notes };
}

/** Computes every change a prune makes. */
export function planChanges(input: PlanChangesInput): PlannedChanges {
  const { files, entries, findings, plan, config, today } = input;
  const planById = new Map(plan.map((p) => [p.entryId, p]));
  const byId = new Map(entries.map((e) => [e.id, e]));
  const byFile = new Map<string, Entry[]>();
  for (const e of entries) {
    const l = byFile.get(e.file);
    if (l) l.push(e);
    else byFile.set(e.file, [e]);
  }

  const warnings: string[] = [];
  const skipped = new Set<string>();
  // Second line of defence (the plan sends these to review): a topic file holding a credential is
  // never deleted (its whole text would go into the archive), and its index lines stay with it.
  const heldTopics = new Set<string>();
  for (const e of entries) {
    const p = planById.get(e.id);
    if (e.kind !== 'topic' || e.protected || !p || !REMOVING.has(p.action) || !hasSecret(e.text)) continue;
    warnings.push(`${e.file}: holds a credential-like string; not ${p.action}d (review it by hand)`);
    heldTopics.add(e.file);
    skipped.add(e.id);
    planById.set(e.id, { ...p, action: 'review' });
  }
  for (const e of entries) {
    const p = planById.get(e.id);
    if (e.kind !== 'index-line' || !p || !REMOVING.has(p.action)) continue;
    const target = normalizeTarget(e.file, e.meta.target ?? '');
    if (!target || !heldTopics.has(target)) continue;
    skipped.add(e.id);
    planById.set(e.id, { ...p, action: 'review' });
  }

  // Index lines being removed, by the topic file they point to: a deleted topic's archive record
  // lists them as its group. Built once (a filter over every entry per deleted topic was
  // quadratic: ~4 s of a 10,000-entry prune).
  const removedIndexLines = new Map<string, string[]>();
  const topicByFile = new Map<string, Entry>();
  for (const e of entries) {
    if (e.kind === 'topic' && !topicByFile.has(e.file)) topicByFile.set(e.file, e);
    const p = planById.get(e.id);
    if (e.kind !== 'index-line' || !p || !REMOVING.has(p.action)) continue;
    const target = normalizeTarget(e.file, e.meta.target ?? '');
    if (target === undefined) continue;
    const l = removedIndexLines.get(target);
    if (l) l.push(e.id);
    else removedIndexLines.set(target, [e.id]);
  }

  // Topic files removed (deleted, archived or merged away), and where merged ones went.
  const deletedTopics = new Map<string, Entry>();
  const redirects = new Map<string, { to: string; from: Entry }>();
  for (const e of entries) {
    const p = planById.get(e.id);
    if (e.kind !== 'topic' || e.protected || !p || !REMOVING.has(p.action)) continue;
    const kept = p.action === 'merge' && p.keep ? byId.get(p.keep) : undefined;
    if (kept?.kind === 'topic' && !REMOVING.has(planById.get(kept.id)?.action ?? 'keep')) redirects.set(e.file, { to: kept.file, from: e });
    else deletedTopics.set(e.file, e);
  }

  /** Plan reasons as applied (an update written without its marker says so in the log too). */
  const notes = new Map<string, string>();
  /** The entries of a file planned to be removed or updated that an edit result touched. */
  const plannedIds = (res: FileEditResult) => {
    const out = new Set<string>();
    for (const r of res.records) {
      const p = planById.get(r.entryId);
      if (p && (REMOVING.has(p.action) || p.action === 'update')) out.add(r.entryId);
    }
    return [...out];
  };
  /** At most this many single-entry trials to find the edit a failed re-parse check is due to. */
  const MAX_TRIALS = 100;
  /**
   * Re-parses an edited file: every entry not planned to change must still be there byte for
   * byte (verifyEdits). When the check fails, each planned change is tried alone (a trial edits
   * the file with only that entry's change, plus the relinks every run makes): the entries whose
   * change fails alone are left out, with a warning naming file and line, and the file is edited
   * again without them and checked again, so what is written has always passed the check as a
   * whole. Failures that no single change explains (two changes that only break together, or a
   * relink) leave the file unchanged, as before. Trials run only after a failure.
   */
  const verifiedEdit = (f: MemoryFile, fileEntries: Entry[], res: FileEditResult): FileEditResult | undefined => {
    const parsed = parseForVerify(f, { protectPatterns: config.protect });
    const check = (r: FileEditResult) => {
      const removedIds = r.records
        .filter((x) => (REMOVING.has(x.action) || x.kind === 'details' || x.kind === 'details-end') && x.entryId.startsWith('e_'))
        .map((x) => x.entryId);
      const changedIds = r.records.filter((x) => x.replacement !== undefined && x.entryId.startsWith('e_')).map((x) => x.entryId);
      return verifyEdits(f, r.after, { removedIds, changedIds }, { protectPatterns: config.protect, parsed });
    };
    const whole = check(res);
    if (whole.ok) return res;
    const unchanged = () => {
      warnings.push(...res.warnings);
      warnings.push(...whole.problems.map((p) => `${f.path}: ${p}; the file is left unchanged`));
      for (const r of res.records) if (r.entryId.startsWith('e_')) skipped.add(r.entryId);
      return undefined;
    };
    const planned = plannedIds(res);
    if (planned.length > MAX_TRIALS) return unchanged();
    const without = (ids: Set<string>): PlanLookup => ({ get: (id) => (ids.has(id) ? undefined : planById.get(id)) });
    const culprits = new Map<string, string[]>();
    for (const id of planned) {
      const trial = editFile(f, fileEntries, without(new Set(planned.filter((x) => x !== id))), deletedTopics, redirects, today);
      if (trial.after === f.text) continue;
      const c = check(trial);
      if (!c.ok) culprits.set(id, c.problems);
    }
    if (!culprits.size) return unchanged();
    const rest = editFile(f, fileEntries, without(new Set(culprits.keys())), deletedTopics, redirects, today);
    if (rest.after !== f.text && !check(rest).ok) return unchanged();
    for (const [id, problems] of culprits) {
      const e = byId.get(id);
      const p = planById.get(id);
      rest.warnings.push(`${f.path}:${e?.line ?? 0}: ${p?.action ?? 'change'} of ${id} not applied, the re-parse check failed (${problems.join('; ')}); review it by hand`);
      skipped.add(id);
    }
    return rest;
  };

  const changes = new Map<string, FileChange>();
  const records: ArchiveRecord[] = [];
  const deletedFiles: string[] = [];
  const foldCandidates: string[] = [];
  const after = new Map<string, string | null>();

  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const fileEntries = byFile.get(f.path) ?? [];
    const topic = fileEntries.find((e) => e.kind === 'topic');
    const tp = topic ? planById.get(topic.id) : undefined;
    if (topic && tp && !topic.protected && REMOVING.has(tp.action)) {
      records.push(redactRecord({
        id: recordId([today, topic.id, tp.action, topic.file, topic.line]),
        entryId: topic.id,
        date: today,
        action: tp.action,
        rule: tp.rule,
        reason: tp.reason,
        file: topic.file,
        line: topic.line,
        endLine: topic.endLine,
        type: topic.type,
        kind: topic.kind,
        headings: [],
        text: topic.text,
        lines: f.text,
        fileDeleted: true,
        // Memory text is BOM-less (src/memory/read.ts): the mark is noted so restore puts it back.
        ...(f.bom ? { bom: true } : {}),
        group: removedIndexLines.get(topic.file) ?? [],
        ...(tp.keep ? { keep: tp.keep } : {}),
        ...(tp.superseded ? { superseded: tp.superseded } : {}),
      }));
      changes.set(f.path, { file: f.path, before: f.text, after: null });
      after.set(f.path, null);
      deletedFiles.push(f.path);
      continue;
    }
    const first = editFile(f, fileEntries, planById, deletedTopics, redirects, today);
    for (const id of first.held) skipped.add(id);
    // Last line of defence: what restore puts back is stored verbatim, so it must hold no credential.
    const leaking = first.records.find((r) => hasSecret(r.text) || hasSecret(r.lines) || hasSecret(r.replacement));
    if (leaking) {
      warnings.push(...first.warnings);
      warnings.push(`${f.path}:${leaking.line}: an edit would copy a credential-like string into the archive; the file is left unchanged`);
      for (const r of first.records) if (r.entryId.startsWith('e_')) skipped.add(r.entryId);
      continue;
    }
    const res = first.after === f.text ? first : verifiedEdit(f, fileEntries, first);
    if (!res) continue;
    warnings.push(...res.warnings);
    for (const [id, reason] of res.notes) notes.set(id, reason);
    for (const r of res.records) {
      // Index lines travel with their topic file.
      const e = byId.get(r.entryId);
      if (e?.kind === 'index-line') {
        const target = normalizeTarget(e.file, e.meta.target ?? '');
        const t = target ? deletedTopics.get(target) ?? (redirects.has(target) ? topicByFile.get(target) : undefined) : undefined;
        if (t) r.group = [...new Set([...(r.group ?? []), t.id])];
      }
      records.push(r);
    }
    if (res.after !== f.text) {
      let finalText: string | null = res.after;
      const body = f.frontmatterRange ? res.after.slice(Math.min(res.after.length, f.frontmatterRange[1])) : res.after;
      if (f.format === 'auto-memory-topic' && isBlank(body)) {
        finalText = null;
        deletedFiles.push(f.path);
      } else if (f.memoryDir !== undefined && f.format !== 'auto-memory-index' && nonSpace(res.after) * 2 < nonSpace(f.text)) {
        foldCandidates.push(f.path);
      }
      changes.set(f.path, { file: f.path, before: f.text, after: finalText });
      after.set(f.path, finalText);
    }
  }

  // SUPERSEDED records, and their index lines in the memory folder's MEMORY.md.
  const supersededFiles: Array<{ file: string; entryId: string; action: string }> = [];
  for (const p of plan) {
    if (!p.superseded || skipped.has(p.entryId)) continue;
    const e = byId.get(p.entryId);
    if (!e) continue;
    const before = input.current(p.superseded);
    if (before !== null) {
      warnings.push(`${p.superseded} already exists; not overwritten`);
      continue;
    }
    const mf = files.find((f) => f.path === e.file);
    const recordText = redactSecrets(renderSuperseded({
      entry: e,
      item: p,
      findings: findings.filter((f) => f.entryId === e.id),
      usage: input.evidence?.usage?.entries.get(e.id),
      today,
      by: p.supersededBy ? byId.get(p.supersededBy) : undefined,
    }));
    changes.set(p.superseded, { file: p.superseded, before: null, after: recordText });
    supersededFiles.push({ file: p.superseded, entryId: e.id, action: p.action === 'inoculate' ? 'inoculation' : p.action });
    const dir = mf?.memoryDir;
    const index = dir !== undefined ? files.find((f) => f.format === 'auto-memory-index' && f.memoryDir === dir) : undefined;
    if (index && path.posix.dirname(p.superseded) === path.posix.normalize(dir ?? '.')) {
      const cur = after.has(index.path) ? after.get(index.path)! : index.text;
      if (cur === null) continue;
      const ieol = index.eol ?? '\n';
      const trimmed = cur.replace(/(\r?\n)*$/, '');
      const lastLine = trimmed.slice(trimmed.lastIndexOf('\n') + 1);
      const sep = trimmed === '' ? '' : /^\s*[-*+] /.test(lastLine) ? ieol : ieol + ieol;
      const next = trimmed + sep + redactSecrets(supersededIndexLine(e, p.superseded)) + ieol;
      after.set(index.path, next);
      changes.set(index.path, { file: index.path, before: index.text, after: next });
    }
  }

  const logPath = pruneLogPath(config, files);
  const arch = archivePath(config);
  let logEntry = '';
  if (changes.size > 0) {
    const applied = plan.filter((p) => !skipped.has(p.entryId)).map((p) => (notes.has(p.entryId) ? { ...p, reason: notes.get(p.entryId)! } : p));
    logEntry = redactSecrets(renderLogEntry({ date: today, entries, findings, plan: applied, supersededFiles, foldCandidates }));
    const logBefore = input.current(logPath);
    changes.set(logPath, { file: logPath, before: logBefore, after: appendLog(logBefore, logEntry) });
    if (records.length) {
      const archBefore = input.current(arch);
      const base = archBefore === null ? '' : archBefore.endsWith('\n') || archBefore === '' ? archBefore : archBefore + '\n';
      changes.set(arch, { file: arch, before: archBefore, after: base + serializeRecords(records) });
    }
  }

  return {
    changes: [...changes.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
    records,
    logEntry,
    logPath,
    archivePath: arch,
    supersededFiles: supersededFiles.map((s) => s.file),
    deletedFiles: deletedFiles.sort(),
    foldCandidates: foldCandidates.sort(),
    warnings: warnings.map((w) => redactSecrets(w)),
    skipped: [...skipped].sort(),
  };
}
