// Types for memset.mjs.
import type { RepoMeta } from './repo.mjs';
import type { Answers } from './memory.mjs';
export function memBranch(n: number, seed: number): string;
export function ensureMemorySet(repoDir: string, meta: RepoMeta, n: number, seed: number): Answers;
export function checkout(repoDir: string, branch: string): void;
