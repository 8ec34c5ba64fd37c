// The pruning log (PRODUCT.md job 9): one dated entry per prune that changed something, with
// counts, staleness found, fidelity failures, a table of entry summary / type / reason, and the
// SUPERSEDED files written. Kept short: beyond LOG_KEEP audits, the oldest are summarised per year.
import type { Entry, Finding, PlanItem } from '../types.js';
import { STALE_KINDS, summarize } from '../policy/signals.js';
import { neutralize } from '../report/escape.js';

export const LOG_TITLE = '# Pruning log';
export const LOG_KEEP = 12;
/** The heading of one log entry (`renderLogEntry`), anywhere in a text. */
export const LOG_ENTRY_HEADING = /^## \d{4}-\d{2}-\d{2} audit$/m;
const EARLIER = '## Earlier audits (summarised)';

export interface LogInput {
  date: string;
  entries: Entry[];
  findings: Finding[];
  plan: PlanItem[];
  supersededFiles: Array<{ file: string; entryId: string; action: string }>;
  foldCandidates: string[];
}

const CHANGED = new Set(['delete', 'archive', 'merge', 'update', 'inoculate']);
const REMOVED = new Set(['delete', 'archive', 'merge']);

/** A table cell of untrusted text (memory content): the log is committed and rendered on GitHub,
 *  so raw HTML, comment openers and @mentions are neutralised as in the PR body. */
function cell(s: string): string {
  return neutralize(s).replace(/\r?\n/g, ' ').replace(/\\/g, '\\\\').replace(/\|/g, '\\|').trim();
}

function counts(kinds: string[]): string {
  const m = new Map<string, number>();
  for (const k of kinds) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
}

/** Renders one log entry (markdown, `\n` line endings, ends with a newline). */
export function renderLogEntry(input: LogInput): string {
  const { date, entries, findings, plan } = input;
  const byId = new Map(entries.map((e) => [e.id, e]));
  const audited = entries.length;
  const pruned = plan.filter((p) => REMOVED.has(p.action)).length;
  const updated = plan.filter((p) => p.action === 'update').length;
  const pctText = audited ? `${(Math.round((pruned / audited) * 1000) / 10).toFixed(1)}%` : '0.0%';
  const stale = counts(findings.filter((f) => STALE_KINDS.has(f.kind) || f.kind === 'status-drift').map((f) => f.kind));
  const failures = plan
    .filter((p) => p.rule === 2 && p.action !== 'keep')
    .map((p) => {
      const e = byId.get(p.entryId);
      return e ? `${e.file}:${e.line} (${p.action})` : p.entryId;
    });
  const lines = [
    `## ${date} audit`,
    '',
    `- **Entries audited**: ${audited}`,
    `- **Entries pruned**: ${pruned} (${pctText})`,
    `- **Entries updated**: ${updated}`,
    `- **Staleness found**: ${stale || 'none'}`,
    `- **Fidelity failures**: ${failures.length ? failures.join(', ') : 'none'}`,
    `- **SUPERSEDED written**: ${
      input.supersededFiles.length
        ? input.supersededFiles.map((s) => `\`${s.file}\` (with the ${s.action} of ${s.entryId})`).join(', ')
        : 'none'
    }`,
  ];
  if (input.foldCandidates.length)
    lines.push(
      `- **Fold candidates** (lost more than half of their content; fold into the index): ${input.foldCandidates.map((f) => `\`${f}\``).join(', ')}`,
    );
  lines.push('', '| Entry (summary) | Type | Reason |', '| --- | --- | --- |');
  const rows = plan
    .filter((p) => CHANGED.has(p.action))
    .map((p) => ({ p, e: byId.get(p.entryId) }))
    .sort((a, b) => ((a.e?.file ?? '') < (b.e?.file ?? '') ? -1 : (a.e?.file ?? '') > (b.e?.file ?? '') ? 1 : (a.e?.line ?? 0) - (b.e?.line ?? 0)));
  for (const { p, e } of rows) {
    const summary = e ? summarize(e) : p.entryId;
    lines.push(`| "${cell(summary)}" | ${e?.type ?? 'unknown'} | ${cell(`rule ${p.rule}, ${p.action}: ${p.reason}`)} |`);
  }
  lines.push('');
  return lines.join('\n') + '\n';
}

interface ParsedLog {
  earlier: string[];
  audits: Array<{ date: string; text: string }>;
  head: string;
}

function parseLog(text: string): ParsedLog {
  const norm = text.replace(/\r\n/g, '\n');
  const parts = norm.split(/^(?=## )/m);
  let head = parts[0];
  const audits: ParsedLog['audits'] = [];
  const earlier: string[] = [];
  for (const p of parts.slice(1)) {
    const m = /^## (\d{4}-\d{2}-\d{2}) audit\s*\n/.exec(p);
    if (m) audits.push({ date: m[1], text: p });
    else if (p.startsWith(EARLIER)) earlier.push(...p.split('\n').filter((l) => l.startsWith('- ')));
    else head += p; // foreign sections are kept where they were (before the audits)
  }
  return { earlier, audits, head };
}

/** Appends an entry to the log text (null = new file), summarising the oldest audits beyond LOG_KEEP. */
export function appendLog(existing: string | null, entry: string, keep = LOG_KEEP): string {
  if (existing === null || existing.trim() === '') {
    return `${LOG_TITLE}\n\nWritten by \`memory-audit prune\`: what was removed or changed, when and why. Full texts are in the archive; \`memory-audit restore <id>\` puts an entry back.\n\n${entry}`;
  }
  const { earlier, audits, head } = parseLog(existing);
  audits.push({ date: entry.slice(3, 13), text: entry });
  if (audits.length <= keep && earlier.length === 0) {
    const sep = existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
    return existing + sep + entry;
  }
  const old = audits.splice(0, Math.max(0, audits.length - keep));
  const perYear = new Map<string, { audits: number; pruned: number; updated: number }>();
  for (const l of earlier) {
    const m = /^- (\d{4}): (\d+) audits?, (\d+) entr(?:y|ies) pruned, (\d+) updated/.exec(l);
    if (m) perYear.set(m[1], { audits: Number(m[2]), pruned: Number(m[3]), updated: Number(m[4]) });
  }
  for (const a of old) {
    const y = a.date.slice(0, 4);
    const s = perYear.get(y) ?? { audits: 0, pruned: 0, updated: 0 };
    s.audits++;
    s.pruned += Number(/\*\*Entries pruned\*\*: (\d+)/.exec(a.text)?.[1] ?? 0);
    s.updated += Number(/\*\*Entries updated\*\*: (\d+)/.exec(a.text)?.[1] ?? 0);
    perYear.set(y, s);
  }
  const summary = [...perYear.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([y, s]) => `- ${y}: ${s.audits} audit${s.audits === 1 ? '' : 's'}, ${s.pruned} entr${s.pruned === 1 ? 'y' : 'ies'} pruned, ${s.updated} updated`);
  const headText = head.replace(/\n*$/, '\n\n');
  return headText + `${EARLIER}\n\n${summary.join('\n')}\n\n` + audits.map((a) => a.text.replace(/\n*$/, '\n\n')).join('');
}
