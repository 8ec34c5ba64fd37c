// Where prune writes things. Pure: decided from the configuration and the memory files read.
import path from 'node:path';
import type { Config } from '../config/types.js';
import type { Entry, MemoryFile } from '../types.js';

/** The folder for the audit trail when there is no auto-memory folder (CLAUDE.md-only repositories). */
export const TRAIL_DIR = '.memory-audit';

/** Auto-memory folders among the files read (repository-relative), sorted. */
export function memoryDirs(files: MemoryFile[]): string[] {
  return [...new Set(files.map((f) => f.memoryDir).filter((d): d is string => typeof d === 'string'))].sort();
}

/**
 * The pruning log: `config.log` when set; else `pruning-log.md` in the (first, sorted) auto-memory
 * folder; else `.memory-audit/pruning-log.md` (a repository with only CLAUDE.md-like files has no
 * memory folder, and the log must not become part of what the agent loads).
 */
export function pruneLogPath(config: Config, files: MemoryFile[]): string {
  if (config.log) return config.log;
  const dir = memoryDirs(files)[0];
  return dir !== undefined ? joinRel(dir, 'pruning-log.md') : `${TRAIL_DIR}/pruning-log.md`;
}

export function archivePath(config: Config): string {
  return config.archive || `${TRAIL_DIR}/archive.jsonl`;
}

/** `e_3f9c2a1b` -> `3f9c2a1b`. */
export function shortId(entryId: string): string {
  return entryId.replace(/^e_/, '');
}

/**
 * Where the SUPERSEDED record for an entry goes: next to the memory, i.e. in the entry's
 * auto-memory folder (and indexed from its MEMORY.md); for CLAUDE.md-like files, with the audit
 * trail in `.memory-audit/`.
 */
export function supersededPath(entry: Entry, files: MemoryFile[]): string {
  const file = files.find((f) => f.path === entry.file);
  const dir = file?.memoryDir ?? TRAIL_DIR;
  return joinRel(dir, `superseded-${shortId(entry.id)}.md`);
}

export function joinRel(dir: string, name: string): string {
  return dir === '' || dir === '.' ? name : path.posix.join(dir, name);
}

/** The topic file an index line points at (repository-relative), or undefined. */
export function indexTarget(entry: Entry): string | undefined {
  if (entry.kind !== 'index-line' || !entry.meta.target) return undefined;
  const t = entry.meta.target;
  if (/^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith('/')) return undefined;
  return path.posix.normalize(path.posix.join(path.posix.dirname(entry.file), t));
}

export function isSupersededFile(file: string): boolean {
  return /(^|\/)superseded[-_][^/]*\.md$/i.test(file);
}
