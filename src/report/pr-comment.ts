// The sticky pull-request comment: which memory entries this pull request makes stale.
// Same rules for untrusted text as the PR body (./pr-body.ts).
import { codeSpan, messageCell, GITHUB_BODY_LIMIT } from './pr-body.js';
import type { Finding, Severity } from '../types.js';

export const COMMENT_MARKER = '<!-- memory-audit:comment -->';

/** Structural view of src/github/stale.ts PrAnalysis (kept here so report/ never imports github/). */
export interface CommentImpact {
  kind: 'renamed' | 'deleted' | 'manifest';
  path: string;
  to?: string;
  hits: Array<{ entryId: string | null; file: string; line: number; ref: string; message: string; finding?: { severity: Severity } }>;
}

export interface CommentAnalysis {
  impacts: CommentImpact[];
  added: Finding[];
}

export interface CommentOptions {
  /** Short sha the audit ran on. */
  head?: string;
  version?: string;
  /** Shown when the diff had to be computed without a merge base. */
  notes?: string[];
  maxChars?: number;
  overflowLink?: string;
}

const ICON: Record<Severity, string> = { error: '🔴', warning: '🟠', info: '🔵' };
const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function entryCount(hits: CommentImpact['hits']): number {
  return new Set(hits.map((h) => h.entryId ?? `${h.file}:${h.line}`)).size;
}

function impactTitle(i: CommentImpact): string {
  const n = entryCount(i.hits);
  const what = `${n} memory entr${n === 1 ? 'y points' : 'ies point'} at it`;
  if (i.kind === 'renamed') return `This PR renames ${codeSpan(i.path, false)} to ${codeSpan(i.to ?? '', false)}; ${what}:`;
  if (i.kind === 'deleted') return `This PR deletes ${codeSpan(i.path, false)}; ${what}:`;
  return `This PR changes ${codeSpan(i.path, false)}; ${n} memory entr${n === 1 ? 'y depends' : 'ies depend'} on what it removed:`;
}

export function isClean(a: CommentAnalysis): boolean {
  return a.impacts.length === 0 && a.added.length === 0;
}

/**
 * The folder move a rename is part of: `a/src/x/y.ts` -> `a/lib/x/y.ts` is the move of `a/src`
 * to `a/lib` (the longest common trailing path, at least the file name, stripped from both).
 * Null for a rename of the name itself, or to or from the repository root.
 */
export function folderMove(from: string, to: string): { from: string; to: string } | null {
  const a = from.split('/');
  const b = to.split('/');
  let k = 0;
  while (k < a.length - 1 && k < b.length - 1 && a[a.length - 1 - k] === b[b.length - 1 - k]) k++;
  if (k === 0) return null;
  return { from: a.slice(0, a.length - k).join('/'), to: b.slice(0, b.length - k).join('/') };
}

interface Row {
  text: string;
  severity: Severity;
}
interface Section {
  title: string;
  rows: Row[];
  /** The most severe row. */
  severity: Severity;
}

const IMPACT_HEAD = ['| Memory | Reference | Finding |', '| --- | --- | --- |'];
const ADDED_TITLE = '#### Memory text this PR adds';
const ADDED_HEAD = ['| | Memory | Kind | Finding |', '| --- | --- | --- | --- |'];

function impactRow(h: CommentImpact['hits'][number]): Row {
  // A hit without a finding (the path check could not run) is a stale path: a warning, as the check would say.
  return { text: `| ${codeSpan(`${h.file}:${h.line}`)} | ${h.ref ? codeSpan(h.ref) : ''} | ${messageCell(h.message)} |`, severity: h.finding?.severity ?? 'warning' };
}

function mostSevere(rows: Row[]): Severity {
  let best: Severity = 'info';
  for (const r of rows) if (RANK[r.severity] < RANK[best]) best = r.severity;
  return best;
}

/**
 * One section per renamed, deleted or changed path, in diff order; renames that are one folder
 * move (two or more files from `a/src/` to `a/lib/`) share one section, so a moved folder is
 * one table instead of a section per file.
 */
function sectionsOf(a: CommentAnalysis): Section[] {
  const moveKey = (i: CommentImpact): string | null => {
    if (i.kind !== 'renamed' || !i.to) return null;
    const m = folderMove(i.path, i.to);
    return m ? `${m.from}\0${m.to}` : null;
  };
  const byMove = new Map<string, CommentImpact[]>();
  for (const i of a.impacts) {
    const k = moveKey(i);
    if (!k) continue;
    const g = byMove.get(k);
    if (g) g.push(i);
    else byMove.set(k, [i]);
  }
  const sections: Section[] = [];
  const done = new Set<string>();
  for (const i of a.impacts) {
    const k = moveKey(i);
    const group = k ? byMove.get(k)! : [];
    if (k && group.length > 1) {
      if (done.has(k)) continue;
      done.add(k);
      const m = folderMove(i.path, i.to!)!;
      const hits = group.flatMap((g) => g.hits);
      const n = entryCount(hits);
      const rows = hits.map(impactRow);
      sections.push({
        title: `This PR moves files from ${codeSpan(`${m.from}/`, false)} to ${codeSpan(`${m.to}/`, false)}; ${n} memory entr${n === 1 ? 'y points' : 'ies point'} at ${group.length} of them:`,
        rows,
        severity: mostSevere(rows),
      });
      continue;
    }
    const rows = i.hits.map(impactRow);
    sections.push({ title: impactTitle(i), rows, severity: mostSevere(rows) });
  }
  if (a.added.length > 0) {
    // Errors (secrets) first: they are what must not be merged.
    const added = [...a.added].sort((x, y) => RANK[x.severity] - RANK[y.severity]);
    const rows = added.map((f) => ({ text: `| ${ICON[f.severity]} | ${codeSpan(`${f.file}:${f.line}`)} | ${f.kind} | ${messageCell(f.message)} |`, severity: f.severity }));
    sections.push({ title: ADDED_TITLE, rows, severity: mostSevere(rows) });
  }
  // Sections holding errors come first (stable otherwise), so a shortened comment still opens with them.
  const ordered = sections.map((s, n) => ({ s, n })).sort((x, y) => RANK[x.s.severity] - RANK[y.s.severity] || x.n - y.n).map((x) => x.s);
  return ordered;
}

function tableHead(s: Section): string[] {
  return s.title === ADDED_TITLE ? ADDED_HEAD : IMPACT_HEAD;
}

/** A section's lines with at most `cap[severity]` rows of each severity (its first ones). */
function sectionLines(s: Section, cap: Record<Severity, number>): { lines: string[]; omitted: number } {
  const used: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const shown: string[] = [];
  for (const r of s.rows) {
    if (used[r.severity] >= cap[r.severity]) continue;
    used[r.severity]++;
    shown.push(r.text);
  }
  const omitted = s.rows.length - shown.length;
  const more = omitted > 0 ? [`…and ${omitted} more row${omitted === 1 ? '' : 's'} in the job summary.`, ''] : [];
  if (shown.length === 0) return { lines: [s.title, '', ...more], omitted };
  return { lines: [s.title, '', ...tableHead(s), ...shown, '', ...more], omitted };
}

export function renderPrComment(a: CommentAnalysis, opts: CommentOptions = {}): { body: string; overflow: string | null } {
  const max = opts.maxChars ?? GITHUB_BODY_LIMIT;
  const foot = `<sub>memory-audit${opts.version ? ` ${opts.version}` : ''}${opts.head ? ` · checked at ${opts.head}` : ''} · this comment is updated on every push.</sub>`;
  const notes = (opts.notes ?? []).map((n) => `> [!NOTE]\n> ${n}\n`);
  if (isClean(a)) {
    const body = [
      COMMENT_MARKER,
      '### memory-audit',
      '',
      '✅ Nothing in this pull request makes agent memory stale.',
      '',
      ...notes,
      foot,
      '',
    ].join('\n');
    return { body, overflow: null };
  }
  const sections = sectionsOf(a);
  const entries = new Set<string>();
  for (const i of a.impacts) for (const h of i.hits) entries.add(h.entryId ?? `${h.file}:${h.line}`);
  for (const f of a.added) entries.add(f.entryId ?? `${f.file}:${f.line}`);
  const head = [
    COMMENT_MARKER,
    '### memory-audit: agent memory this pull request makes stale',
    '',
    `${entries.size} memory entr${entries.size === 1 ? 'y needs' : 'ies need'} attention. Update them in this pull request, ` +
      'or let the scheduled memory-audit run prune them after merge.',
    '',
    ...notes,
  ];
  const all = { error: Infinity, warning: Infinity, info: Infinity };
  const totalRows = sections.reduce((n, s) => n + s.rows.length, 0);
  /** The body with rows capped per section and severity, and only the first `keep` sections without errors. */
  const build = (cap: Record<Severity, number>, keep = Infinity): string => {
    const parts: string[] = [];
    let omitted = 0;
    let dropped = 0;
    let plain = 0;
    for (const s of sections) {
      if (s.severity !== 'error' && plain++ >= keep) {
        dropped++;
        omitted += s.rows.length;
        continue;
      }
      const l = sectionLines(s, cap);
      omitted += l.omitted;
      parts.push(...l.lines);
    }
    if (dropped > 0) parts.push(`…and ${dropped} more section${dropped === 1 ? '' : 's'} in the job summary.`, '');
    const where = opts.overflowLink ? `[the job summary](${opts.overflowLink})` : 'the job summary of the workflow run';
    const note =
      omitted > 0
        ? [`> [!NOTE]\n> Shortened to stay under GitHub's comment size limit: ${totalRows - omitted} of ${totalRows} rows are shown; the full list is in ${where}.\n`]
        : [];
    return [...head, ...note, ...parts, foot, ''].join('\n');
  };
  const full = build(all);
  if (full.length <= max) return { body: full, overflow: null };
  const overflow = ['## memory-audit: full pull request comment', '', ...sections.flatMap((s) => sectionLines(s, all).lines)].join('\n');
  // Shorten by capping the rows each section shows, least severe first (info, then warnings):
  // a cap trims only the sections longer than it, so the largest lose rows first and every
  // section keeps its title. Then whole sections without errors go, last first; sections with
  // errors always keep at least one row.
  const largest = (sev: Severity): number => Math.max(0, ...sections.map((s) => s.rows.filter((r) => r.severity === sev).length));
  /** The largest cap in [lo, hi] for which `fits` holds, or lo - 1 when none does. */
  const search = (lo: number, hi: number, fits: (n: number) => boolean): number => {
    let ok = lo - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (fits(mid)) {
        ok = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return ok;
  };
  const fits = (cap: Record<Severity, number>, keep = Infinity): boolean => build(cap, keep).length <= max;
  const cap = { ...all };
  for (const sev of ['info', 'warning'] as const) {
    const n = search(0, largest(sev), (t) => fits({ ...cap, [sev]: t }));
    if (n >= 0) return { body: build({ ...cap, [sev]: n }), overflow };
    cap[sev] = 0;
  }
  const plain = sections.filter((s) => s.severity !== 'error').length;
  const keep = search(0, plain, (k) => fits(cap, k));
  if (keep >= 0) return { body: build(cap, keep), overflow };
  const e = search(1, largest('error'), (t) => fits({ ...cap, error: t }, 0));
  if (e >= 1) return { body: build({ ...cap, error: e }, 0), overflow };
  let body = build({ ...cap, error: 1 }, 0);
  let at = max - 200;
  // never split a UTF-16 surrogate pair
  if (/[\uDC00-\uDFFF]/.test(body.charAt(at))) at--;
  body = body.slice(0, at) + '\n\n…(truncated)\n';
  return { body, overflow };
}
