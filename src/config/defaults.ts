import type { Config } from './types.js';

export const DEFAULT_CONFIG: Config = {
  memory: [],
  ignore: [],
  maxFileBytes: 4 * 1024 * 1024,
  protect: [],
  retention: { keep: [], prune: [] },
  rules: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true },
  filters: {},
  checks: {},
  scoring: {
    weights: { priority: 0.4, recency: 0.3, frequency: 0.3 },
    threshold: 0.3,
    halfLifeDays: 90,
    defaultPriority: 5,
  },
  budgets: {
    memoryIndex: { lines: 200, bytes: 25 * 1024 },
    // Codex's project_doc_max_bytes: AGENTS.md files root -> working folder, cut past 32 KiB.
    agentsChain: { bytes: 32 * 1024 },
    // Claude Code's guidance: under 200 lines per CLAUDE.md (and for other always-loaded files).
    default: { lines: 200 },
    // AGENTS.md: Codex's cut above instead of a line count; Cursor's guidance: rules under 500 lines.
    formats: { 'agents-md': {}, 'cursor-rule': { lines: 500 } },
    errorBytes: 4 * 1024 * 1024,
    files: {},
  },
  counts: [],
  log: '',
  archive: '.memory-audit/archive.jsonl',
  now: '',
  github: { apiUrl: 'https://api.github.com' },
};
