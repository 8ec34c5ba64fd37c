// Action inputs -> typed options. Pure over a getter so that it is tested without the runner;
// src/main.ts passes core.getInput.
import type { Severity } from '../types.js';

export type Mode = 'auto' | 'report' | 'pr' | 'comment';
export type FailOn = Severity | 'never';

export interface ActionInputs {
  memoryPaths: string[];
  mode: Mode;
  token: string;
  dryRun: boolean;
  configPath?: string;
  failOn: FailOn;
  /** Repository folder (input `working-directory`), relative to GITHUB_WORKSPACE or absolute. */
  workingDirectory: string;
  branch: string;
  /** Base branch of the prune pull request; empty = the checked-out branch, then the default branch. */
  base: string;
  title: string;
  commitMessage: string;
  labels: string[];
  annotations: boolean;
  /** owner/name issue numbers refer to (default: the workflow's repository). */
  githubRepo: string;
}

export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

export const INPUT_DEFAULTS = {
  mode: 'auto',
  'fail-on': 'error',
  branch: 'memory-audit/prune',
  title: 'memory-audit: prune stale agent memory',
  'commit-message': 'memory-audit: prune stale agent memory',
  labels: 'memory-audit',
  annotations: 'true',
  'dry-run': 'false',
  'working-directory': '.',
} as const;

/** Splits a list input on newlines and commas, trimming, dropping blanks and `#` comments. */
export function parseList(value: string): string[] {
  return value
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !s.startsWith('#'));
}

/** YAML 1.2 core-schema booleans, as core.getBooleanInput accepts them. */
export function parseBoolean(name: string, value: string): boolean {
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw new InputError(`Input "${name}" must be true or false (got "${value}").`);
}

const MODES: Mode[] = ['auto', 'report', 'pr', 'comment'];
const FAIL_ON: FailOn[] = ['error', 'warning', 'info', 'never'];

export function parseInputs(get: (name: string) => string): ActionInputs {
  const read = (name: string): string => {
    const v = (get(name) ?? '').trim();
    return v !== '' ? v : ((INPUT_DEFAULTS as Record<string, string>)[name] ?? '');
  };
  const mode = read('mode').toLowerCase() as Mode;
  if (!MODES.includes(mode)) throw new InputError(`Input "mode" must be one of ${MODES.join(', ')} (got "${mode}").`);
  const failOn = read('fail-on').toLowerCase() as FailOn;
  if (!FAIL_ON.includes(failOn)) throw new InputError(`Input "fail-on" must be one of ${FAIL_ON.join(', ')} (got "${failOn}").`);
  const branch = read('branch');
  if (!/^[A-Za-z0-9._\/-]+$/.test(branch) || branch.startsWith('-') || branch.includes('..') || branch.endsWith('/') || branch.endsWith('.lock')) {
    throw new InputError(`Input "branch" is not a usable branch name: "${branch}".`);
  }
  const base = read('base');
  if (base && (!/^[A-Za-z0-9._\/-]+$/.test(base) || base.startsWith('-') || base.includes('..'))) {
    throw new InputError(`Input "base" is not a usable branch name: "${base}".`);
  }
  const githubRepo = read('github-repo');
  if (githubRepo && !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(githubRepo)) {
    throw new InputError(`Input "github-repo" must look like owner/name (got "${githubRepo}").`);
  }
  const config = read('config');
  return {
    memoryPaths: parseList(read('memory-paths')),
    mode,
    token: read('token'),
    dryRun: parseBoolean('dry-run', read('dry-run')),
    configPath: config || undefined,
    failOn,
    workingDirectory: read('working-directory'),
    branch,
    base,
    title: read('title').replace(/[\r\n]+/g, ' '),
    commitMessage: read('commit-message'),
    labels: parseList(read('labels')),
    annotations: parseBoolean('annotations', read('annotations')),
    githubRepo,
  };
}
