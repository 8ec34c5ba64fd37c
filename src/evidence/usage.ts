// Usage evidence for scoring: when each memory line was last edited (ONE `git blame
// --line-porcelain` per memory file, never one per entry) and, when an access log is configured,
// how often and how recently each memory file / entry was read by the agent.
// The result is stored on `evidence.usage`; src/policy/score.ts turns it into scores.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/types.js';
import type { Entry, EntryUsage, Evidence, MemoryFile, UsageIndex } from '../types.js';
import { runGit } from './git.js';

const ZERO_SHA = /^0{40}$/;
const BLAME_CONCURRENCY = 8;

/**
 * Parses `git blame --line-porcelain` output into the author time (epoch ms) of every final
 * line, index 0 = line 1; lines not committed yet are null.
 */
export function parseBlame(out: string): Array<number | null> {
  const result: Array<number | null> = [];
  let sha = '';
  let finalLine = 0;
  let time: number | null = null;
  for (const line of out.split('\n')) {
    if (line.startsWith('\t')) {
      if (finalLine > 0) result[finalLine - 1] = ZERO_SHA.test(sha) ? null : time;
      continue;
    }
    const header = /^([0-9a-f]{40}) \d+ (\d+)(?: \d+)?$/.exec(line);
    if (header) {
      sha = header[1];
      finalLine = Number(header[2]);
      time = null;
      continue;
    }
    if (line.startsWith('author-time ')) time = Number(line.slice(12)) * 1000;
  }
  for (let i = 0; i < result.length; i++) if (result[i] === undefined) result[i] = null;
  return result;
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** One access-log record as the hook in examples/hooks/ writes it. */
export interface AccessRecord {
  ts: string;
  file: string;
  entry?: string;
}

/**
 * Matches an access-log `file` (absolute as the agent saw it, or relative) to a memory file:
 * exact absolute path, then the repository-relative path, then — for auto memory, whose folder
 * lives elsewhere on the developer's machine (~/.claude/projects/<p>/memory/) — the path
 * relative to the memory folder.
 */
export function matchLogFile(logged: string, files: MemoryFile[], root: string): MemoryFile | undefined {
  const norm = logged.replace(/\\/g, '/');
  const abs = path.isAbsolute(logged) ? path.resolve(logged) : path.resolve(root, logged);
  const exact = files.find((f) => path.resolve(f.absPath) === abs);
  if (exact) return exact;
  const bySuffix = files.filter((f) => !path.isAbsolute(f.path) && (norm === f.path || norm.endsWith('/' + f.path)));
  if (bySuffix.length === 1) return bySuffix[0];
  const inMemory = files.filter((f) => {
    if (!f.memoryDir) return false;
    const rel = path.posix.relative(f.memoryDir, f.path);
    return norm.endsWith('/memory/' + rel);
  });
  return inMemory.length === 1 ? inMemory[0] : undefined;
}

async function readAccessLog(
  file: string,
  files: MemoryFile[],
  entries: Entry[],
  root: string,
  now: Date,
  usage: Map<string, EntryUsage>,
): Promise<UsageIndex['accessLog']> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { path: file, found: false, records: 0, skipped: 0 };
  }
  const byFile = new Map<string, Entry[]>();
  for (const e of entries) {
    const list = byFile.get(e.file);
    if (list) list.push(e);
    else byFile.set(e.file, [e]);
  }
  let records = 0;
  let skipped = 0;
  const read = (e: Entry, ts: string) => {
    const u = usage.get(e.id)!;
    u.reads++;
    if (!u.lastRead || ts > u.lastRead) u.lastRead = ts;
  };
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    let rec: AccessRecord;
    try {
      rec = JSON.parse(raw) as AccessRecord;
    } catch {
      skipped++;
      continue;
    }
    const t = typeof rec?.ts === 'string' ? Date.parse(rec.ts) : NaN;
    if (Number.isNaN(t) || typeof rec.file !== 'string' || t > now.getTime()) {
      skipped++;
      continue;
    }
    const mf = matchLogFile(rec.file, files, root);
    if (!mf) {
      skipped++;
      continue;
    }
    records++;
    const ts = new Date(t).toISOString();
    const inFile = byFile.get(mf.path) ?? [];
    if (typeof rec.entry === 'string' && rec.entry) {
      const e = inFile.find((x) => x.id === rec.entry || x.meta.name === rec.entry);
      if (e) {
        read(e, ts);
        continue;
      }
    }
    // A read of the file is a read of every entry in it.
    for (const e of inFile) read(e, ts);
  }
  return { path: file, found: true, records, skipped };
}

/** Blame results started before the evidence is in, by repository-relative path. */
export type EarlyBlame = Map<string, Promise<Array<number | null> | null>>;

async function blameFile(root: string, file: string): Promise<Array<number | null> | null> {
  const res = await runGit(root, ['blame', '--line-porcelain', '--', file]).catch(() => null);
  return res && res.code === 0 ? parseBlame(res.stdout) : null;
}

/** Blames `paths`, at most BLAME_CONCURRENCY at a time; results by path as they come. */
function blameFiles(root: string, paths: string[]): EarlyBlame {
  const jobs: EarlyBlame = new Map();
  let running = 0;
  const waiting: Array<() => void> = [];
  const slot = async (): Promise<void> => {
    if (running < BLAME_CONCURRENCY) {
      running++;
      return;
    }
    await new Promise<void>((res) => waiting.push(res));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  for (const file of paths) jobs.set(file, slot().then(() => blameFile(root, file).finally(release)));
  return jobs;
}

/**
 * Starts blaming the memory files that will need it whatever the history says (everything but
 * auto-memory topic files, which the log pass dates), as soon as the memory is known, so that
 * blame runs beside the log pass instead of after it. `gatherUsage` picks the results up; it
 * ignores them when the history turns out to be unavailable.
 */
export function startBlame(root: string, files: MemoryFile[]): EarlyBlame {
  return blameFiles(root, files.filter((f) => f.format !== 'auto-memory-topic' && !path.isAbsolute(f.path)).map((f) => f.path));
}

/** Fills `evidence.usage`: blame dates per line and entry, and access-log reads when configured. */
export async function gatherUsage(opts: {
  root: string;
  files: MemoryFile[];
  entries: Entry[];
  config: Config;
  evidence: Evidence;
  /** Blame already under way (startBlame). */
  early?: EarlyBlame;
}): Promise<void> {
  const { root, files, entries, config, evidence, early } = opts;
  const lines = new Map<string, Array<number | null>>();
  const unblamed: string[] = [];

  // A topic file is one entry: its last edit is the last commit that touched it, which the
  // history pass already knows — no blame needed, only one `git status` for uncommitted edits.
  const fromHistory = new Map<string, { first: number; last: number }>();
  if (evidence.history.available) {
    for (const f of files) {
      if (f.format !== 'auto-memory-topic' || path.isAbsolute(f.path)) continue;
      const ev = evidence.history.events.get(f.path);
      if (!ev || !ev.length) continue;
      const first = Date.parse(ev[0].commit.time || ev[0].commit.date);
      const last = Date.parse(ev[ev.length - 1].commit.time || ev[ev.length - 1].commit.date);
      if (!Number.isNaN(first) && !Number.isNaN(last)) fromHistory.set(f.path, { first, last });
    }
  }
  const dirty = new Set<string>();
  if (fromHistory.size) {
    const dirs = [...new Set([...fromHistory.keys()].map((p) => path.posix.dirname(p)))].sort();
    const st = await runGit(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...dirs]).catch(() => null);
    if (st && st.code === 0) {
      const parts = st.stdout.split('\0');
      for (let i = 0; i < parts.length; i++) {
        const rec = parts[i];
        if (rec.length < 4) continue;
        dirty.add(rec.slice(3));
        if (rec[0] === 'R' || rec[0] === 'C') i++; // the source path follows
      }
    }
  }

  const blameable = files.filter((f) => !path.isAbsolute(f.path) && !fromHistory.has(f.path) && evidence.history.available !== false);
  const willBlame = new Set(blameable);
  for (const f of files) if (!willBlame.has(f) && !fromHistory.has(f.path)) unblamed.push(f.path);
  const rest = blameFiles(root, blameable.filter((f) => !early?.has(f.path)).map((f) => f.path));
  for (const f of blameable) {
    const times = await (early?.get(f.path) ?? rest.get(f.path));
    if (times) lines.set(f.path, times);
    else unblamed.push(f.path);
  }

  const usage = new Map<string, EntryUsage>();
  for (const e of entries) {
    const u: EntryUsage = { reads: 0 };
    const hist = e.kind === 'topic' ? fromHistory.get(e.file) : undefined;
    if (hist) {
      u.lastEditedTime = hist.last;
      u.lastEdited = day(hist.last);
      u.firstEdited = day(hist.first);
      if (dirty.has(e.file)) u.uncommitted = true;
      usage.set(e.id, u);
      continue;
    }
    const times = lines.get(e.file);
    if (times) {
      let last: number | undefined;
      let first: number | undefined;
      for (let l = e.line; l <= e.endLine; l++) {
        const t = times[l - 1];
        if (t === null) u.uncommitted = true;
        else if (t !== undefined) {
          if (last === undefined || t > last) last = t;
          if (first === undefined || t < first) first = t;
        }
      }
      if (last !== undefined) {
        u.lastEditedTime = last;
        u.lastEdited = day(last);
      }
      if (first !== undefined) u.firstEdited = day(first);
    }
    usage.set(e.id, u);
  }

  let accessLog: UsageIndex['accessLog'];
  if (config.accessLog) {
    const abs = path.resolve(root, config.accessLog);
    const read = await readAccessLog(abs, files, entries, root, evidence.now, usage);
    accessLog = read ? { ...read, path: config.accessLog } : undefined;
  }

  evidence.usage = { lines, entries: usage, accessLog, unblamed: [...new Set(unblamed)].sort() };
}
