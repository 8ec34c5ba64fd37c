// The configuration every stage reads. Loaded from `.memory-audit.yml` (or --config),
// validated, then merged over DEFAULT_CONFIG (src/config/defaults.ts).
import type { MemoryFormat } from '../types.js';

export interface Budget {
  lines?: number;
  bytes?: number;
  tokens?: number;
}

export interface CountAnchor {
  /** A regular expression (source) matched against memory text; group 1 is the number. */
  pattern: string;
  /** Glob(s) counted in the file index. */
  glob: string | string[];
  description?: string;
}

export interface Config {
  /** Memory paths (files, folders or globs); empty = auto-detect. */
  memory: string[];
  /** Globs of memory files to ignore. */
  ignore: string[];
  /** Files larger than this are reported as malformed and skipped (Claude Code skips 4 MiB). */
  maxFileBytes: number;
  /** Regular expressions: entries whose text matches are protected like <!-- PROTECTED -->. */
  protect: string[];
  /** Retention overrides: entries matching `keep` are never pruned; `prune` lowers the bar. */
  retention: { keep: string[]; prune: string[] };
  /** Decision-tree rule switches, keyed by rule number 1..7. */
  rules: Record<string, boolean>;
  /** Preventive filter switches, keyed by filter id. */
  filters: Record<string, boolean>;
  /** Check switches, keyed by check id. */
  checks: Record<string, boolean>;
  scoring: {
    weights: { priority: number; recency: number; frequency: number };
    /** Entries scoring below this are "low use" for rule 5 and cold-entry reporting. */
    threshold: number;
    /** Recency half-life in days. */
    halfLifeDays: number;
    /** Default priority when an entry has none. */
    defaultPriority: number;
  };
  budgets: {
    /** MEMORY.md as Claude Code loads it. */
    memoryIndex: Budget;
    /**
     * AGENTS.md as Codex loads it: the files from the repository root down to the working folder,
     * concatenated and cut at `bytes` (Codex's `project_doc_max_bytes`, 32 KiB; 0 = off).
     */
    agentsChain: { bytes?: number };
    /** Everything else not named by `formats` or `files`. */
    default: Budget;
    /** Per memory format, replacing `default` (AGENTS.md: none, Codex cuts by `agentsChain`; Cursor rules: 500 lines). */
    formats: Partial<Record<MemoryFormat, Budget>>;
    /** Hard error limit (bytes) per file. */
    errorBytes: number;
    files: Record<string, Budget>;
  };
  counts: CountAnchor[];
  /** Where the pruning log and archive go (repository-relative). Empty log = in the memory folder. */
  log: string;
  archive: string;
  /**
   * Optional access log (JSON lines `{"ts","file","entry"?}`, written by an agent hook such as
   * examples/hooks/) whose reads feed the frequency and recency scores. Empty/absent = none.
   */
  accessLog?: string;
  /** Date used for `[corrected YYYY-MM-DD]`, logs and expiry; ISO string. Empty = now. */
  now: string;
  github: { token?: string; repo?: string; apiUrl: string };
}
