// Small helpers shared by the staleness checks (path, script, package, version, count,
// status, expired, superseded). Pure functions over evidence; no I/O.
import type { CommitInfo, Entry, Evidence, Finding, FindingKind, MemoryFile, Reference, RefKind, Severity } from '../types.js';

export function short(sha: string | undefined): string {
  return (sha ?? '').slice(0, 7);
}

/** `a1b2c3d (2026-03-02, "split auth")` */
export function describeCommit(c: CommitInfo | undefined): string {
  if (!c) return 'an unknown commit';
  const subject = c.subject ? `, "${c.subject.length > 72 ? c.subject.slice(0, 69) + '...' : c.subject}"` : '';
  return `${short(c.sha)} (${c.date}${subject})`;
}

export function commitEvidence(c: CommitInfo | undefined): Record<string, unknown> {
  if (!c) return {};
  return { commit: c.sha, date: c.date, subject: c.subject, author: c.author };
}

/** The repository-relative folder of a memory file ('' at the root or outside the repository). */
export function memDirOf(file: string): string {
  if (!file || file.startsWith('/') || /^[a-z]:[\\/]/i.test(file)) return '';
  const i = file.lastIndexOf('/');
  return i === -1 ? '' : file.slice(0, i);
}

export function exists(ev: Evidence, p: string): boolean {
  if (p === '') return true;
  return ev.files.files.has(p) || ev.files.dirs.has(p);
}

export function finding(
  entry: Entry,
  ref: Reference | null,
  kind: FindingKind,
  severity: Severity,
  message: string,
  evidence?: Record<string, unknown>,
  suggestion?: Finding['suggestion'],
): Finding {
  const f: Finding = {
    entryId: entry.id,
    file: entry.file,
    line: ref ? ref.line : entry.line,
    kind,
    severity,
    message,
  };
  if (ref) f.ref = ref.raw;
  if (evidence) f.evidence = evidence;
  // A correction whose successor the entry already names is not written (see `namesSuccessor`):
  // the finding stays, without the replacement.
  if (suggestion?.replace !== undefined && SUCCESSOR_KINDS.has(kind) && namesSuccessor(entry, ref, suggestion.replace)) {
    const { replace: _dropped, ...rest } = suggestion;
    suggestion = Object.keys(rest).length ? rest : undefined;
  }
  if (suggestion) f.suggestion = suggestion;
  return f;
}

/** Entries that are checked for staleness: SUPERSEDED records document the past on purpose. */
export function checkable(entry: Entry): boolean {
  return entry.type !== 'superseded';
}

/** The kinds of reference the staleness checks read, by the list (`refsOf`) that holds them. */
export type RefGroup = 'path' | 'command' | 'version' | 'count' | 'issue';
const GROUP_OF: Partial<Record<RefKind, RefGroup>> = { path: 'path', import: 'path', command: 'command', version: 'version', count: 'count', issue: 'issue' };

/** References of one group in entry order, then in each entry's order: `entries[i]` holds `refs[i]`. */
export interface RefList {
  entries: Entry[];
  refs: Reference[];
}

const REF_LISTS = new WeakMap<Entry[], Map<RefGroup, RefList>>();

/**
 * The references of `group` in the checkable entries (see `checkable`). Each staleness check
 * reads one or two kinds of reference, while most references of a memory set are prose words
 * read as possible package names (~90% on the benchmark): the lists of every group are made in
 * one pass over all references, once per entry list, instead of one pass per check.
 */
export function refsOf(entries: Entry[], group: RefGroup): RefList {
  let lists = REF_LISTS.get(entries);
  if (!lists) {
    lists = new Map();
    for (const g of ['path', 'command', 'version', 'count', 'issue'] as const) lists.set(g, { entries: [], refs: [] });
    for (const entry of entries) {
      if (!checkable(entry)) continue;
      const refs = entry.refs;
      for (let i = 0; i < refs.length; i++) {
        const g = GROUP_OF[refs[i]!.kind];
        if (g === undefined) continue;
        const l = lists.get(g)!;
        l.entries.push(entry);
        l.refs.push(refs[i]!);
      }
    }
    REF_LISTS.set(entries, lists);
  }
  return lists.get(group)!;
}

export function filesByPath(files: MemoryFile[]): Map<string, MemoryFile> {
  return new Map(files.map((f) => [f.path, f]));
}

/** Walks from a folder up to the root: 'a/b' -> ['a/b', 'a', '']. */
export function upwards(dir: string): string[] {
  const out: string[] = [];
  let d = dir;
  for (;;) {
    out.push(d);
    if (!d) break;
    const i = d.lastIndexOf('/');
    d = i === -1 ? '' : d.slice(0, i);
  }
  return out;
}

export function joinDir(dir: string, name: string): string {
  return dir ? `${dir}/${name}` : name;
}

/** Relative path from folder `from` to path `to` (both repository-relative). */
export function relativeTo(from: string, to: string): string {
  if (!from) return to;
  const a = from.split('/');
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const up = a.length - i;
  return [...Array(up).fill('..'), ...b.slice(i)].join('/') || '.';
}

const PAST_BEFORE =
  /\b(?:instead of|rather than|in place of|replac(?:e|es|ed|ing)|migrat\w*(?: away)? from|mov(?:e|ed|ing) (?:away from|off(?: of)?)|migrated off|port(?:ed|ing) from|switch\w* (?:away )?from|no longer(?: uses?| use)?|(?:do not|don't|never|not) (?:use|(?:import|require)(?!\s+from\b))|avoid(?:ing)?|removed|deleted|deprecated|dropped|formerly|previously|used to(?: be| use)?|renamed from|was renamed|superseded|obsolete)\s+(?:the\s+|our\s+)?(?:[\w-]+\s+)?[`*"'(]*$/i;
/** "are no longer registered in `app/Http/Kernel.php`", "is no longer kept in x": where a thing used to be. */
const NO_LONGER_IN_BEFORE = /\bno longer\s+(?:[\w-]+\s+){1,2}(?:in|at|under|inside|from|via|through)\s+(?:the\s+|our\s+)?[`*"'(]*$/i;
/**
 * A prohibition of the thing named right after it: "never add X back", "don't reintroduce X",
 * "do not install X", "must not depend on X", "do not create X", "never commit X", "we don't keep a X".
 * Such guidance stays true once X is gone, so
 * the reference is not stale. Only verbs that bring a thing (back) into the project count:
 * "never call X directly" or "don't edit X" presuppose that X exists and are still checked.
 */
const PROHIBITION_BEFORE =
  /\b(?:never|do not|don't|dont|must not|mustn't|should not|shouldn't|may not|stop)\s+(?:ever\s+|again\s+)?(?:re-?add(?:ing)?|add(?:ing)?|re-?creat(?:e|ing)|creat(?:e|ing)|commit(?:ting)?|check(?:ing)? in|keep(?:ing)?|re-?install(?:ing)?|install(?:ing)?|re-?introduc(?:e|ing)|introduc(?:e|ing)|bring(?:ing)? back|depend(?:ing)? on|pull(?:ing)? in|go(?:ing)? back to|revert(?:ing)? to|switch(?:ing)? back to|downgrad(?:e|ing) to|us(?:e|ing)|(?:import(?:ing)?|requir(?:e|ing))(?!\s+from\b))\s+(?:back\s+)?(?:the\s+|our\s+|any\s+|a\s+)?(?:[\w-]+\s+)?[`*"'(]*$/i;
/**
 * The items of a list written before the reference (`` `log`, `slog`, or `` of "do not import `log`,
 * `slog`, or `logrus`"; `` `date-fns` and `` of "avoid `date-fns` and `moment`"; an item may run
 * to three words: "`Date` math, `luxon`, or `moment`"): a cue before the list (PAST_BEFORE,
 * PROHIBITION_BEFORE) covers each of its items.
 */
const LIST_ITEMS_BEFORE = /(?:[`*"'(]*[\w@./:-]+[`*"')]*(?:\s+[\w-]+){0,2}\s*(?:,\s*(?:(?:and|or|nor)\s+)?|\s(?:and|or|nor)\s+))+[`*"'(]*$/i;
/** Right after the reference: how it is to be reached ("directly", "outside the wrapper", "except through …"). */
const HOW_AFTER = /^[`*"')\]]*\s+(?:directly|outside\b|except\b|anywhere but|other than through|bypassing)/i;
const PAST_AFTER =
  /^[`*"')]*(?:\s+(?:file|files|folder|directory|config))?\s*(?:(?:was|were|has been|have been|got|is now|are now)\s+(?:removed|deleted|replaced|renamed|dropped|deprecated|moved|retired|superseded|migrated)|(?:is|are)\s+(?:banned|forbidden|prohibited|not allowed|gone|deprecated|obsolete|unused|not used|no longer (?:used|needed|a dependency))\b)/i;
/**
 * The contrasted alternative: "(e.g., `npm run compile`, not `npm run build`)", "(not `x`)",
 * "— not `x`", "Not: `x`". The reference is named as the wrong choice, which stays true once it
 * is gone (or when it never existed), so it is not stale. Only a bare "not" after a comma,
 * semicolon, parenthesis or dash, or "not:" as a label: "never run `x`" / "don't edit `x`" are
 * instructions about a thing that exists and stay checked (see PROHIBITION_BEFORE).
 */
const CONTRAST_BEFORE = /(?:(?:[,;(]|\s[—–-])\s*not\s+|\bnot\s*:\s*)(?:the\s+)?[`*"'(]*$/i;
/** `x → …`: the reference is followed by an arrow; group 1 is what the arrow points at. */
const ARROW_AFTER = /^[`*"')\]]*\s*(?:→|->|=>)\s*(?:now\s+)?[`*"'(\[]*([^\s`*"'()[\],;]*)/i;
/** `x → (removed)`, `x → gone`: the arrow points at no successor but says the thing is gone. */
const ARROW_TO_NOTHING = /^[`*"')\]]*\s*(?:→|->|=>)\s*[`*"'(\[]*(?:removed|deleted|gone|dropped|retired)\b/i;
/** `x → now y`: "now" right after the arrow says y took x's place. */
const ARROW_TO_NOW = /^[`*"')\]]*\s*(?:→|->|=>)\s*now\b/i;
/**
 * Words on the line of an arrow that make it a record of a change ("`old.ts` → `new.ts` (renamed in
 * June)", "moved `a/` → `b/`"). Past tenses only, plus any form of "rename": in memory an arrow is
 * mostly a mapping or a flow ("alias → folder", "`src/api/` → REST handlers"), whose descriptions
 * use present tenses and nouns ("handles move events", "database migrations"; not "used to": "→ used
 * to generate types" describes a script). Words inside code spans do not count (`rename.ts`).
 */
const CHANGE_ON_LINE =
  /\b(?:renam\w*|moved|migrated|replaced|superseded|deprecated|switched|swapped|ported|relocated|formerly|previously|no longer)\b/i;
/** An imperative change verb right before the reference: "Move `a/` → `b/`", "migrate from `x` → `y`". */
const CHANGE_BEFORE = /\b(?:move|migrate|replace|switch|port)\s+(?:from\s+)?(?:the\s+)?[`*"'(]*$/i;
/**
 * A heading, or a label before ":" on the line, announcing a list of changes: "## Renames",
 * "Migration:", "**Moved:**", "Breaking changes". Singular "migration" only: "## Database
 * migrations" heads mappings of migration folders, not a record of a migration.
 */
const CHANGE_LABEL =
  /\b(?:renam\w*|moved|moves\b|migrated|migration\b|replac(?:ed|ements?)\b|deprecat\w*|supersed\w*|relocat\w*|changelog|changed|(?:breaking|recent|notable|path|file|api) changes|upgrad(?:e|ing) (?:notes|guide))/i;

/**
 * True when the words right around a reference already say it is gone or replaced
 * ("use dayjs instead of moment", "`src/a.ts` was renamed"), name it as the wrong alternative
 * ("`npm run compile`, not `npm run build`"), or forbid bringing it back ("never add `moment`
 * back", "don't reintroduce `axios`"): the memory records the change, so the reference is not
 * stale.
 *
 * An arrow after it (`x → y`, `->`, `=>`) records a change only when the text says so (a change
 * verb on the line, a heading or label such as "Renames:" / "Migration:", "→ now y", "→ removed"),
 * or when y is x's recorded successor: `successors` are the names the check found x renamed to
 * (the final one and any on the way), compared with what the arrow points at. Otherwise the arrow is
 * a mapping or a flow ("`@scope/math` → `packages/math/src/`", "`a.ts` → `b.ts` → `c.ts`") and x is
 * checked like any other reference.
 */
export function describedAsPast(entry: Entry, ref: Reference, successors?: string | ReadonlyArray<string | undefined>): boolean {
  const at = ref.start - entry.start;
  if (at < 0 || at > entry.text.length) return false;
  const lineStart = entry.text.lastIndexOf('\n', at - 1) + 1;
  const before = entry.text.slice(Math.max(lineStart, at - 60), at);
  const endAt = ref.end - entry.start;
  const lineEnd = entry.text.indexOf('\n', endAt);
  const after = entry.text.slice(endAt, Math.min(lineEnd === -1 ? entry.text.length : lineEnd, endAt + 60));
  // "don't import `moment` directly (go through the wrapper)": a rule about how the one thing in use
  // is reached, not a ban of it: it names the library the wrapper wraps, and is checked
  const how = HOW_AFTER.test(after);
  if ((!how && (PAST_BEFORE.test(before) || PROHIBITION_BEFORE.test(before) || NO_LONGER_IN_BEFORE.test(before))) || CONTRAST_BEFORE.test(before) || PAST_AFTER.test(after)) return true;
  // the last items of a list whose head carries the cue ("do not import `log`, `slog`, or `logrus`")
  const wider = entry.text.slice(Math.max(lineStart, at - 200), at);
  const head = wider.replace(LIST_ITEMS_BEFORE, '');
  // (a list is a ban of alternatives even with "directly": "do not use `log`, `slog`, or `logrus` directly")
  if (head !== wider && (PAST_BEFORE.test(head.slice(-60)) || PROHIBITION_BEFORE.test(head.slice(-60)))) return true;
  const arrow = ARROW_AFTER.exec(after);
  if (!arrow) return false;
  if (ARROW_TO_NOTHING.test(after) || ARROW_TO_NOW.test(after)) return true;
  const line = entry.text.slice(lineStart, lineEnd === -1 ? entry.text.length : lineEnd);
  if (CHANGE_ON_LINE.test(line.replace(/`[^`\n]*`/g, '``')) || CHANGE_BEFORE.test(before)) return true;
  const label = /^\s*(?:[-*+]|\d+[.)])?\s*([^`:\n]{1,40}):/.exec(line);
  if (label && CHANGE_LABEL.test(label[1]!)) return true;
  if (entry.headings.some((h) => CHANGE_LABEL.test(h))) return true;
  return pointsAtSuccessor(arrow[1] ?? '', successors, ref.kind === 'package');
}

/**
 * True when the arrow's target names one of the successors: equal, or the trailing segments of it
 * (memory writes paths relative to its folder or a component: `new.ts` for `src/new.ts`), ignoring
 * `./`, a trailing `/` and trailing punctuation; package names in any letter case (manifests and
 * registries match them so), paths exactly (a case-only rename is a change).
 */
function pointsAtSuccessor(target: string, successors: string | ReadonlyArray<string | undefined> | undefined, anyCase: boolean): boolean {
  const norm = (s: string) => {
    const n = s.trim().replace(/^\.\//, '').replace(/[.:!?]+$/, '').replace(/\/+$/, '');
    return anyCase ? n.toLowerCase() : n;
  };
  const t = norm(target);
  if (!t || successors === undefined) return false;
  for (const s of typeof successors === 'string' ? [successors] : successors) {
    if (!s) continue;
    const n = norm(s);
    if (n && (n === t || n.endsWith('/' + t))) return true;
  }
  return false;
}

/** `s` as a literal inside a regular expression. */
export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * True when the entry already names `successor` somewhere other than at the reference itself
 * (as a whole token, case-insensitive): "Never add `moment` back. Use `date-fns`." Writing the
 * successor over the old name would then say the same thing twice, or turn the guidance upside
 * down, so such a correction is not offered.
 */
export function namesSuccessor(entry: Entry, ref: Reference | null, successor: string): boolean {
  const want = successor.trim();
  if (!want) return false;
  if (!mayContain(entry.text, want)) return false;
  // A successor that is one plain word (`Reader`, `Room`) is also an English word: "the reader"
  // does not name the `Reader` module. It counts in another letter case only inside code.
  const plainWord = /^[A-Za-z]+$/.test(want);
  return wordInEntry(entry, ref, want, (m, a) => !plainWord || m === want || insideCode(entry.text, a)) !== undefined;
}

/**
 * The first spelling of `word` in the entry as a whole word (not inside a path, a scoped name or
 * a longer dotted name), in any letter case, other than at the reference itself; `keep` may turn
 * a match down. Undefined when there is none.
 */
export function wordInEntry(entry: Entry, ref: Reference | null, word: string, keep?: (match: string, at: number) => boolean): string | undefined {
  const re = new RegExp(`(?<![\\w@/.-])${escapeRe(word)}(?![\\w/-]|\\.\\w)`, 'gi');
  const from = ref ? ref.start - entry.start : -1;
  const to = ref ? ref.end - entry.start : -1;
  for (const m of entry.text.matchAll(re)) {
    const a = m.index ?? 0;
    if (ref && a < to && a + m[0].length > from) continue; // the reference itself
    if (keep && !keep(m[0], a)) continue;
    return m[0];
  }
  return undefined;
}

/** Whether offset `at` of `text` lies inside an inline code span of its line. */
function insideCode(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  let ticks = 0;
  for (let i = lineStart; i < at; i++) if (text.charCodeAt(i) === 96) ticks++;
  return ticks % 2 === 1;
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * False when `text` cannot hold `want` as `namesSuccessor`'s case-insensitive expression matches
 * it, which saves compiling that expression for nearly every finding (the entry rarely names the
 * successor). Without the `u` flag, `i` matches an ASCII character only with an ASCII one of
 * either case (ECMAScript Canonicalize), and lower-casing maps ASCII to ASCII one to one whatever
 * surrounds it: an ASCII `want` matched in `text` is in the lower-cased text. A `want` with other
 * characters always goes to the expression.
 */
function mayContain(text: string, want: string): boolean {
  if (NON_ASCII.test(want)) return true;
  return text.toLowerCase().includes(want.toLowerCase());
}

/** Kinds whose `suggestion.replace` writes a successor over the old name. */
const SUCCESSOR_KINDS: ReadonlySet<FindingKind> = new Set<FindingKind>(['path-renamed', 'package-renamed', 'script-missing']);

/**
 * The folder of the workspace package a command selects (`pnpm --filter web`, `npm -w web`,
 * `yarn workspace web`): by package name (case-insensitive, or the tail of a scoped name) or by
 * folder; undefined when no current package matches.
 */
export function workspaceFolder(ev: Evidence, ws: string): string | undefined {
  const w = ws.replace(/^\.\//, '').replace(/\/+$/, '');
  const direct = ev.manifests.workspaces.get(w);
  if (direct !== undefined) return direct;
  for (const [name, dir] of ev.manifests.workspaces) {
    if (name.toLowerCase() === w.toLowerCase() || dir === w || name.endsWith('/' + w) || dir.endsWith('/' + w)) return dir;
  }
  return undefined;
}
