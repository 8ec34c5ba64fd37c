// Annotations on memory files. GitHub shows at most 10 annotations of each level per step,
// so we emit at most `cap` per level (most severe first, in report order) and one notice
// that counts the rest and points at the job summary.
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

export function planAnnotations(findings: Finding[], cap = 10): AnnotationPlan {
  const byLevel: Record<AnnotationLevel, Annotation[]> = { error: [], warning: [], notice: [] };
  for (const f of findings) {
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
    overflow[level] = Math.max(0, byLevel[level].length - cap);
  }
  // The overflow notice takes one of the notice slots.
  const anyOverflow = overflow.error + overflow.warning > 0 || byLevel.notice.length > cap;
  const noticeCap = anyOverflow ? cap - 1 : cap;
  overflow.notice = Math.max(0, byLevel.notice.length - noticeCap);
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
