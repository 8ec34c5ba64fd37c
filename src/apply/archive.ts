// The archive: one JSON line per removed or rewritten piece of memory, so any prune can be undone
// with `memory-audit restore <id>`. Append-only; never rewritten by prune.
import { createHash } from 'node:crypto';
import type { Entry, EntryType, PlanAction } from '../types.js';

export interface ArchiveRecord {
  /** `a_` + 8 hex of date + entry id + action + file + line: stable for a given run. */
  id: string;
  /**
   * The entry (or `h_…` for a section heading removed because its section emptied, `t_…` for a
   * table's header and delimiter rows removed because all its rows went, `l_…` for a relinked line).
   */
  entryId: string;
  /** YYYY-MM-DD of the prune. */
  date: string;
  action: PlanAction | 'reintegrate';
  rule: number;
  reason: string;
  file: string;
  /** 1-based, inclusive: where the lines were in the file before the prune. */
  line: number;
  endLine: number;
  type?: EntryType;
  kind?: Entry['kind'] | 'heading' | 'table-header' | 'link' | 'details' | 'details-end';
  headings: string[];
  /** Exact source text of the entry (for topic files: the whole file). */
  text: string;
  /**
   * Exact full lines removed from the file (with their line endings: the last line of a file
   * without a final newline has none); absent for updates.
   */
  lines?: string;
  /** Updates and relinks: the text that replaced `text`. */
  replacement?: string;
  /** The whole file was deleted (a topic file). */
  fileDeleted?: boolean;
  /** The deleted file started with a UTF-8 byte order mark (not in `lines`): restore writes it back. */
  bom?: boolean;
  /** Anchors for restore: the original previous line, and the nearest previous line kept by the prune. */
  prevLine?: string;
  keptBefore?: string;
  blankBefore?: boolean;
  blankAfter?: boolean;
  /**
   * The exact blank lines (with their line endings) between the previous non-blank line and the
   * block, and between the block and the next non-blank line (or the end of the file), as they
   * were before the prune: restore puts exactly these back around the block (two blank lines,
   * whitespace-only lines, CRLF). Absent when there were none (records written before these
   * fields existed: one line ending per `blankBefore` / `blankAfter`).
   */
  gapBefore?: string;
  gapAfter?: string;
  /**
   * Only blank lines (or nothing) followed the block: it ended the file. With `lines` not ending
   * in a line ending, the file had no final newline, and restore leaves none.
   */
  last?: boolean;
  /** The entry this record travels with (an index line, relink or heading goes back with its topic / entry). */
  group?: string[];
  /** For a merge: the entry kept instead. */
  keep?: string;
  /** SUPERSEDED record written with this deletion. */
  superseded?: string;
}

export function recordId(parts: Array<string | number>): string {
  return 'a_' + createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 8);
}

export function serializeRecords(records: ArchiveRecord[]): string {
  return records.map((r) => JSON.stringify(r) + '\n').join('');
}

/** A line of the archive that is not a record (reported by restore as file:line, never silently skipped). */
export interface ArchiveProblem {
  line: number;
  message: string;
}

/** Parses archive text; malformed lines are skipped and reported (count and 1-based line numbers). */
export function parseArchive(text: string): { records: ArchiveRecord[]; skipped: number; problems: ArchiveProblem[] } {
  const records: ArchiveRecord[] = [];
  const problems: ArchiveProblem[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const r = JSON.parse(line) as ArchiveRecord;
      if (r && typeof r.id === 'string' && typeof r.file === 'string' && typeof r.text === 'string') records.push(r);
      else problems.push({ line: i + 1, message: 'not an archive record (needs id, file and text)' });
    } catch {
      // Not the parser's message: it quotes the line, which may hold anything.
      problems.push({ line: i + 1, message: 'not valid JSON' });
    }
  });
  return { records, skipped: problems.length, problems };
}
