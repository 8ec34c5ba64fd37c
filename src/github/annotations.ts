// Annotations on memory files. GitHub shows at most 10 annotations of each level per step,
// so we emit at most `cap` per level (most severe first, kinds taken in turn, in report order)
// and one notice that counts the rest and points at the job summary.
import { redactSecrets } from '../report/redact.js';
import type { Finding } from '../types.js';

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface Annotation {
  level: AnnotationLevel;
  message: string;
  title: string;
  file?: string;
  startLine?: number;
}

export interface AnnotationPlan {
  annotations: Annotation[];
  /** Findings not annotated, per level. */
  overflow: Record<AnnotationLevel, number>;
}

const LEVEL: Record<Finding['severity'], AnnotationLevel> = { error: 'error', warning: 'warning', info: 'notice' };

/** Annotation text: redacted, one line, bounded. */
function clean(text: string, max = 1000): string {
  const one = redactSecrets(text).replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** Kinds that say the least about one line of memory: annotated only when slots are left. */
const LAST_KINDS: Record<string, number> = { budget: 2, malformed: 1 };

/**
 * Which `cap` findings of one level get the annotation slots: kinds taken in turn (one each per
 * round, budget and malformed last), so that 300 "never loaded past line 200" warnings cannot hide
 * the one renamed path; the chosen keep report order.
 */
function pick(findings: Finding[], cap: number): Finding[] {
  if (findings.length <= cap) return findings;
  const byKind = new Map<string, number[]>();
  findings.forEach((f, i) => {
    const l = byKind.get(f.kind);
    if (l) l.push(i);
    else byKind.set(f.kind, [i]);
  });
  const kinds = [...byKind.keys()].sort((a, b) => (LAST_KINDS[a] ?? 0) - (LAST_KINDS[b] ?? 0));
  const chosen: number[] = [];
  for (let round = 0; chosen.length < cap; round++) {
    let any = false;
    for (const k of kinds) {
      const i = byKind.get(k)![round];
      if (i === undefined) continue;
      any = true;
      chosen.push(i);
      if (chosen.length === cap) break;
    }
    if (!any) break;
  }
  return chosen.sort((a, b) => a - b).map((i) => findings[i]);
}

export function planAnnotations(findings: Finding[], cap = 10): AnnotationPlan {
  const byLevel: Record<AnnotationLevel, Annotation[]> = { error: [], warning: [], notice: [] };
  const bySeverity: Record<Finding['severity'], Finding[]> = { error: [], warning: [], info: [] };
  for (const f of findings) bySeverity[f.severity].push(f);
  const total: Record<AnnotationLevel, number> = { error: bySeverity.error.length, warning: bySeverity.warning.length, notice: bySeverity.info.length };
  for (const f of [...pick(bySeverity.error, cap), ...pick(bySeverity.warning, cap), ...pick(bySeverity.info, cap)]) {
    const level = LEVEL[f.severity];
    byLevel[level].push({
      level,
      message: clean(f.message),
      title: `memory-audit: ${f.kind}`,
      ...(f.file && !f.file.startsWith('/') ? { file: f.file } : {}),
      ...(f.line > 0 ? { startLine: f.line } : {}),
    });
  }
  const overflow: Record<AnnotationLevel, number> = { error: 0, warning: 0, notice: 0 };
  for (const level of ['error', 'warning'] as const) {
    overflow[level] = Math.max(0, total[level] - cap);
  }
  // The overflow notice takes one of the notice slots.
  const anyOverflow = overflow.error + overflow.warning > 0 || total.notice > cap;
  const noticeCap = anyOverflow ? cap - 1 : cap;
  overflow.notice = Math.max(0, total.notice - noticeCap);
  const annotations = [
    ...byLevel.error.slice(0, cap),
    ...byLevel.warning.slice(0, cap),
    ...byLevel.notice.slice(0, noticeCap),
  ];
  const parts = (['error', 'warning', 'notice'] as const)
    .filter((l) => overflow[l] > 0)
    .map((l) => `${overflow[l]} ${l}${overflow[l] === 1 ? '' : 's'}`);
  if (parts.length > 0) {
    annotations.push({
      level: 'notice',
      title: 'memory-audit: more findings',
      message: `${parts.join(', ')} not shown as annotations (GitHub shows at most ${cap} per level per step); see the job summary for all findings.`,
    });
  }
  return { annotations, overflow };
}
