// Types for memory.mjs.
import type { RepoMeta } from './repo.mjs';
export interface Location { file: string; line: number }
export interface ExpectedFinding extends Location { ref: string; kind: string; now?: string }
export interface Answers {
  memVersion: number;
  set: number;
  seed: number;
  entries: number;
  counts: Record<string, number>;
  expected: ExpectedFinding[];
  negatives: Array<Location & { ref: string; kind: string }>;
  duplicates: Location[][];
  ephemeral: Location[];
  branch?: string;
}
export const MEM_VERSION: number;
export const GATED_KINDS: Record<string, string[]>;
export const EXTRA_KINDS: Record<string, string[]>;
export function generateMemory(meta: RepoMeta, n: number, seed: number): { files: Array<{ path: string; text: string }>; answers: Answers };
