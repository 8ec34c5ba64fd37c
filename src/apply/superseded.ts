// SUPERSEDED counter-memories (inoculation), in the exact format of PRODUCT.md: one file per
// abandoned pattern, dated, next to the memory, so the pattern is not re-derived from the same signals.
import type { Entry, EntryUsage, Finding, PlanItem } from '../types.js';
import { summarize } from '../policy/signals.js';
import { shortId } from './paths.js';

/** A YAML plain scalar when safe, else a double-quoted one. */
function yamlScalar(s: string): string {
  if (/^[A-Za-z0-9(][^:#\n]*$/.test(s) && !/[:#]\s|\s$/.test(s) && !/^(?:true|false|null|yes|no|~)$/i.test(s)) return s;
  return JSON.stringify(s);
}

function flat(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return [...t].length > max ? [...t].slice(0, max - 1).join('') + '…' : t;
}

/** Where the original memory is: the topic file, or `file#entry-id` for an entry inside a file. */
export function supersedesTarget(e: Entry): string {
  return e.kind === 'topic' ? e.file : `${e.file}#${e.id}`;
}

export function renderSuperseded(opts: {
  entry: Entry;
  item: PlanItem;
  findings: Finding[];
  usage?: EntryUsage;
  today: string;
  eol?: string;
  /** The newer entry that reversed this one (inoculation only). */
  by?: Entry;
}): string {
  const { entry: e, item, findings, usage, today, by } = opts;
  const pattern = summarize(e, 160, true);
  let start = usage?.firstEdited ?? e.meta.modified?.slice(0, 10) ?? e.meta.lastUpdated?.slice(0, 10) ?? 'unknown';
  if (start !== 'unknown' && start > today) start = today; // history dated after the run's clock
  // Concrete data: what the repository or another entry showed (not the filter's advice).
  const evidence = findings
    .filter((f) => !['secret', 'ephemeral', 'duplicate', 'budget', 'malformed'].includes(f.kind))
    .map((f) => flat(f.message, 200))
    .filter((m, i, all) => all.indexOf(m) === i);
  if (by) evidence.unshift(`reversed by ${by.file}:${by.line} (${by.id}): "${flat(summarize(by, 200), 200)}"`);
  const signals = [
    ...new Set(
      e.refs
        .filter(
          (r) =>
            ['path', 'command', 'import', 'url'].includes(r.kind) ||
            (r.kind === 'package' && !(r as { weak?: boolean }).weak && (r.in === 'inlineCode' || r.tool !== undefined)),
        )
        .map((r) => '`' + r.raw.replace(/`/g, '') + '`'),
    ),
  ];
  const fm = /^---\r?\n[\s\S]*?\r?\n---[ \t]*\r?\n/.exec(e.text);
  const bodyText = fm ? e.text.slice(fm[0].length) : e.text;
  const lead = /^\s*/.exec(bodyText)![0];
  const bodyLine = e.line + (fm ? fm[0].split('\n').length - 1 : 0) + (lead.match(/\n/g)?.length ?? 0);
  const whereFrom = e.headings.length ? ` under "${e.headings.join(' > ')}"` : '';
  const lines = [
    '---',
    `name: superseded-${shortId(e.id)}`,
    `description: ${yamlScalar(`Counter-memory preventing re-derivation of ${summarize(e, 100)}`)}`,
    'type: superseded',
    '---',
    '',
    `SUPERSEDED ${today}`,
    `Pattern: ${pattern}`,
    `Period: ${start} to ${today}`,
    `Evidence: ${evidence.length ? evidence.join('; ') : `recorded in ${e.file}:${bodyLine}: "${flat(bodyText, 200)}"`}`,
    `Abandonment reason: ${flat(item.reason.replace(/; SUPERSEDED record written$/, ''), 240)}`,
    `Do not re-derive from: ${signals.length ? signals.slice(0, 8).join(', ') : `the observations that produced this ${e.type} entry in ${e.file}${whereFrom}`}`,
    `Supersedes: ${supersedesTarget(e)}`,
    '',
  ];
  return lines.join(opts.eol ?? '\n');
}

/** The MEMORY.md index line that makes a record discoverable (auto memory only). */
export function supersededIndexLine(e: Entry, recordFile: string): string {
  const name = recordFile.slice(recordFile.lastIndexOf('/') + 1);
  return `- [${name.replace(/\.md$/, '')}](${name}) — Counter-memory preventing re-derivation of ${summarize(e, 80)}`;
}
