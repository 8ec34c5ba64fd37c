// Types for score.mjs.
import type { Answers } from './memory.mjs';
export interface KindScore {
  gated: boolean;
  expected: number;
  findings: number;
  implemented: boolean;
  found: number;
  recall: number | null;
  precision: number | null;
  successor?: { total: number; correct: number; accuracy: number };
  missed: unknown[];
  falsePositives: unknown[];
}
export interface Score { kinds: Record<string, KindScore>; negatives: number; flaggedValid: number; falsePositiveRate: number }
export function scoreReport(report: unknown, answers: Answers): Score;
export function correctnessFailures(score: Score, opts?: { minRecall?: number; strict?: boolean }): string[];
