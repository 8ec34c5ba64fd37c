// The body of the prune pull request. Memory text is untrusted: it only appears inside code
// spans or fences (fence longer than any backtick run inside), with secrets redacted,
// `@mentions` broken by a zero-width space and `<!--` defused. The body stays under GitHub's
// 65,536-character limit: what does not fit moves to the job summary, with a note.
import { redactSecrets } from './redact.js';
import type { PlanItem } from '../types.js';

export const GITHUB_BODY_LIMIT = 65_536;
export const PR_BODY_MARKER = '<!-- memory-audit:pr -->';

/** Breaks @mentions and HTML comment openers in untrusted text (after redaction). */
export function defang(text: string): string {
  return redactSecrets(text)
    .replace(/@(?=[A-Za-z0-9_-])/g, '@\u200b')
    .replace(/<!--/g, '<\u200b!--');
}

/** An inline code span holding any text: one line, fence longer than the longest backtick run. */
export function codeSpan(text: string, inTable = true): string {
  let clean = defang(text).replace(/\r?\n/g, ' ');
  if (inTable) clean = clean.replace(/\|/g, '\\|');
  if (clean.trim() === '') clean = clean || ' ';
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((r: string) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** A fenced code block holding any text (fence longer than any backtick run inside). */
export function codeFence(text: string, lang = 'text'): string {
  const clean = defang(text).replace(/\r\n/g, '\n').replace(/\n+$/, '');
  const longest = Math.max(2, ...(clean.match(/`+/g) ?? []).map((r: string) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${clean}\n${fence}`;
}

/** Plain Markdown text for a table cell from untrusted text: escaped, one line. */
export function cellText(text: string): string {
  return defang(text)
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*_[\]<>|#~]/g, (c) => `\\${c}`);
}

/**
 * A table cell from a finding message or reason: `code` segments become safe code spans,
 * the rest is escaped text. Untrusted either way, so nothing can break out of the cell.
 */
export function messageCell(text: string): string {
  const parts = text.replace(/\r?\n/g, ' ').split(/`([^`\n]+)`/);
  return parts.map((p, i) => (i % 2 === 1 ? codeSpan(p) : cellText(p))).join('');
}

export const RULE_NAMES: Record<number, string> = {
  0: 'protected',
  1: 'ephemeral',
  2: 'failed fidelity',
  3: 'duplicate',
  4: 'stale',
  5: 'low fidelity, low use',
  6: 'finished work',
  7: 'freely available reference',
  8: 'over budget',
};

export const CHANGE_ACTIONS = new Set(['delete', 'update', 'merge', 'archive', 'inoculate']);

/** The slice of PruneResult (src/commands/prune.ts) that the body needs. */
export interface PruneView {
  plan: PlanItem[];
  changes: Array<{ file: string; before: string | null; after: string | null }>;
  logEntry: string;
  logPath: string;
  /** SUPERSEDED records written by this prune (repository-relative). */
  supersededFiles?: string[];
  summary: { audited: number; pruned: number; updated: number; archived: number; inoculated: number; review: number };
  audit: {
    entries: Array<{ id: string; file: string; line: number; text: string }>;
    report: { summary: { entries: number; findings: number } };
  };
}

export interface PrBodyOptions {
  maxChars?: number;
  /** Where the overflow goes, for the note ("the job summary of this run"). */
  overflowLink?: string;
  version?: string;
}

export interface RenderedBody {
  body: string;
  /** Markdown that did not fit (for the job summary), or null. */
  overflow: string | null;
}

interface ChangeRow {
  n: number;
  item: PlanItem;
  file: string;
  line: number;
  text: string;
}

function changeRows(prune: PruneView): ChangeRow[] {
  const byId = new Map(prune.audit.entries.map((e) => [e.id, e]));
  const rows: ChangeRow[] = [];
  for (const item of prune.plan) {
    if (!CHANGE_ACTIONS.has(item.action)) continue;
    const e = byId.get(item.entryId);
    rows.push({ n: rows.length + 1, item, file: item.file ?? e?.file ?? '', line: item.line ?? e?.line ?? 0, text: e?.text ?? '' });
  }
  return rows;
}

/** Entry health for the Mermaid chart: the plan action of every audited entry. */
export function healthCounts(prune: PruneView): Array<[string, number]> {
  const acted = new Map<string, string>();
  for (const p of prune.plan) acted.set(p.entryId, p.action);
  const counts: Record<string, number> = { healthy: 0, updated: 0, pruned: 0, archived: 0, review: 0 };
  for (const e of prune.audit.entries) {
    const a = acted.get(e.id) ?? 'keep';
    if (a === 'update' || a === 'inoculate') counts.updated++;
    else if (a === 'delete' || a === 'merge') counts.pruned++;
    else if (a === 'archive') counts.archived++;
    else if (a === 'review') counts.review++;
    else counts.healthy++;
  }
  return Object.entries(counts).filter(([, n]) => n > 0);
}

function header(prune: PruneView, rows: ChangeRow[]): string[] {
  const s = prune.summary;
  const out = [
    PR_BODY_MARKER,
    '## memory-audit: prune stale agent memory',
    '',
    'This pull request removes or corrects agent-memory entries that no longer match the repository. ' +
      'Every removed entry is kept in the archive and in the pruning log below; review, edit or close as you see fit.',
    '',
    '| | Entries |',
    '| --- | ---: |',
    `| Audited | ${s.audited} |`,
    `| Pruned | ${s.pruned} |`,
    `| Updated | ${s.updated} |`,
    `| Archived | ${s.archived} |`,
    `| SUPERSEDED records written | ${s.inoculated} |`,
    `| Left for review | ${s.review} |`,
    '',
  ];
  const byRule = new Map<number, number>();
  for (const r of rows) byRule.set(r.item.rule, (byRule.get(r.item.rule) ?? 0) + 1);
  if (byRule.size > 0) {
    out.push('| Rule | | Changes |', '| ---: | --- | ---: |');
    for (const [rule, n] of [...byRule].sort((a, b) => a[0] - b[0])) out.push(`| ${rule} | ${RULE_NAMES[rule] ?? 'other'} | ${n} |`);
    out.push('');
  }
  const health = healthCounts(prune);
  if (health.length > 0) {
    out.push('```mermaid', 'pie showData title Entry health');
    for (const [label, n] of health) out.push(`    "${label}" : ${n}`);
    out.push('```', '');
  }
  return out;
}

function rowLine(r: ChangeRow): string {
  return `| ${r.n} | ${codeSpan(r.file)} | ${r.line} | ${r.item.rule} | ${r.item.action} | ${messageCell(r.item.reason)} |`;
}

const TABLE_HEAD = ['### Changes', '', '| # | File | Line | Rule | Action | Reason |', '| ---: | --- | ---: | ---: | --- | --- |'];

function filesSection(prune: PruneView): string[] {
  if (prune.changes.length === 0) return [];
  const superseded = new Set(prune.supersededFiles ?? []);
  const out = ['<details>', `<summary>${prune.changes.length} file${prune.changes.length === 1 ? '' : 's'} changed</summary>`, ''];
  for (const c of [...prune.changes].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    const what = c.after === null ? 'deleted' : c.before === null ? 'added' : 'edited';
    out.push(`- ${codeSpan(c.file, false)} — ${what}${superseded.has(c.file) ? ' (SUPERSEDED record)' : ''}`);
  }
  out.push('', '</details>', '');
  return out;
}

function reviewSection(prune: PruneView): string[] {
  const byId = new Map(prune.audit.entries.map((e) => [e.id, e]));
  const items = prune.plan.filter((p) => p.action === 'review');
  if (items.length === 0) return [];
  const out = ['### Left for a human', '', '| File | Line | Reason |', '| --- | ---: | --- |'];
  for (const p of items) {
    const e = byId.get(p.entryId);
    out.push(`| ${codeSpan(p.file ?? e?.file ?? '')} | ${p.line ?? e?.line ?? 0} | ${messageCell(p.reason)} |`);
  }
  out.push('');
  return out;
}

function removedSection(rows: ChangeRow[]): string[] {
  const withText = rows.filter((r) => r.text !== '');
  if (withText.length === 0) return [];
  const out = ['<details>', `<summary>Full text of the ${withText.length} changed entr${withText.length === 1 ? 'y' : 'ies'}</summary>`, ''];
  for (const r of withText) {
    out.push(`**${r.n}.** ${codeSpan(`${r.file}:${r.line}`, false)} — ${r.item.action}, rule ${r.item.rule}`, '');
    out.push(codeFence(r.text, 'markdown'), '');
    if (r.item.action === 'update' && r.item.replacement !== undefined) out.push('becomes', '', codeFence(r.item.replacement, 'markdown'), '');
  }
  out.push('</details>', '');
  return out;
}

function logSection(prune: PruneView): string[] {
  if (!prune.logEntry.trim()) return [];
  return [
    `### Pruning log (${codeSpan(prune.logPath, false)})`,
    '',
    '<details>',
    '<summary>The entry appended by this pull request</summary>',
    '',
    codeFence(prune.logEntry, 'markdown'),
    '',
    '</details>',
    '',
  ];
}

function footer(opts: PrBodyOptions): string[] {
  return [`<sub>Generated by memory-audit${opts.version ? ` ${opts.version}` : ''}. Re-running updates this pull request in place.</sub>`];
}

const join = (lines: string[]): string => `${lines.join('\n')}\n`;

export function renderPrBody(prune: PruneView, opts: PrBodyOptions = {}): RenderedBody {
  const max = opts.maxChars ?? GITHUB_BODY_LIMIT;
  const rows = changeRows(prune);
  const head = header(prune, rows);
  const table = rows.length > 0 ? [...TABLE_HEAD, ...rows.map(rowLine), ''] : ['No entry changes.', ''];
  const files = filesSection(prune);
  const review = reviewSection(prune);
  const removed = removedSection(rows);
  const log = logSection(prune);
  const full = join([...head, ...table, ...files, ...review, ...removed, ...log, ...footer(opts)]);
  if (full.length <= max) return { body: full, overflow: null };

  // Too long: the removed text and the log go to the job summary; rows are cut if needed.
  const where = opts.overflowLink ? `[the job summary of the run](${opts.overflowLink})` : 'the job summary of the workflow run';
  const overflowParts: string[] = [];
  const note = (cut: number): string[] => [
    `> [!NOTE]`,
    `> This description was shortened to stay under GitHub's ${GITHUB_BODY_LIMIT.toLocaleString('en-US')}-character limit` +
      `${cut > 0 ? ` (${cut} change row${cut === 1 ? '' : 's'} omitted)` : ''}. The full list, the removed text and the pruning-log entry are in ${where}; ` +
      'the diff of this pull request has every change.',
    '',
  ];
  let kept = rows.length;
  const build = (k: number): string =>
    join([...head, ...note(rows.length - k), ...(rows.length > 0 ? [...TABLE_HEAD, ...rows.slice(0, k).map(rowLine), ''] : []), ...footer(opts)]);
  let body = build(kept);
  if (body.length > max) {
    // Binary search the number of rows that fit.
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (build(mid).length <= max) lo = mid;
      else hi = mid - 1;
    }
    kept = lo;
    body = build(kept);
  }
  if (kept < rows.length) overflowParts.push(...TABLE_HEAD, ...rows.map(rowLine), '');
  overflowParts.push(...files, ...review, ...removed, ...log);
  return { body, overflow: join(['## memory-audit: pull request details that did not fit', '', ...overflowParts]) };
}
