// The sticky pull-request comment: which memory entries this pull request makes stale.
// Same rules for untrusted text as the PR body (./pr-body.ts).
import { codeSpan, messageCell, GITHUB_BODY_LIMIT } from './pr-body.js';
import type { Finding } from '../types.js';

export const COMMENT_MARKER = '<!-- memory-audit:comment -->';

/** Structural view of src/github/stale.ts PrAnalysis (kept here so report/ never imports github/). */
export interface CommentImpact {
  kind: 'renamed' | 'deleted' | 'manifest';
  path: string;
  to?: string;
  hits: Array<{ entryId: string | null; file: string; line: number; ref: string; message: string }>;
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

const ICON: Record<Finding['severity'], string> = { error: '🔴', warning: '🟠', info: '🔵' };

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
  const sections: string[][] = [];
  for (const i of a.impacts) {
    const lines = [impactTitle(i), ''];
    lines.push('| Memory | Reference | Finding |', '| --- | --- | --- |');
    for (const h of i.hits) lines.push(`| ${codeSpan(`${h.file}:${h.line}`)} | ${h.ref ? codeSpan(h.ref) : ''} | ${messageCell(h.message)} |`);
    lines.push('');
    sections.push(lines);
  }
  if (a.added.length > 0) {
    const lines = ['#### Memory text this PR adds', '', '| | Memory | Kind | Finding |', '| --- | --- | --- | --- |'];
    for (const f of a.added) lines.push(`| ${ICON[f.severity]} | ${codeSpan(`${f.file}:${f.line}`)} | ${f.kind} | ${messageCell(f.message)} |`);
    lines.push('');
    sections.push(lines);
  }
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
  const build = (k: number, cut: boolean): string => {
    const where = opts.overflowLink ? `[the job summary](${opts.overflowLink})` : 'the job summary of the workflow run';
    const note = cut ? [`> [!NOTE]\n> Shortened to stay under GitHub's comment size limit; the full list is in ${where}.\n`] : [];
    return [...head, ...note, ...sections.slice(0, k).flat(), foot, ''].join('\n');
  };
  const full = build(sections.length, false);
  if (full.length <= max) return { body: full, overflow: null };
  let k = sections.length;
  while (k > 0 && build(k, true).length > max) k--;
  let body = build(k, true);
  if (body.length > max) body = body.slice(0, max - 200) + '\n\n…(truncated)\n';
  return { body, overflow: ['## memory-audit: full pull request comment', '', ...sections.flat()].join('\n') };
}
