// The history index: ONE `git log` pass over HEAD's history (every commit reachable from
// HEAD, merged branches included) with rename detection and raw blob ids, parsed as it
// streams. Merge commits contribute no diff (git's default), so a rename made on a branch
// is recorded from the branch's own commit, never from a merge's first-parent pairing.
import type { CommitInfo, HistoryIndex, PathEvent, PathFate } from '../types.js';
import { streamGitTokens } from './git.js';

/** One entry of `git log --raw -z`. */
export interface LogChange {
  /** A, M, D, R, C, T (first letter of git's status). */
  status: string;
  similarity?: number;
  /** The path before (for A: the path). */
  src: string;
  /** The path after (renames and copies only). */
  dst?: string;
  srcBlob: string;
  dstBlob: string;
  srcMode: string;
  dstMode: string;
}

export const NULL_BLOB = /^0+$/;

/** Basenames too common for the "deleted then re-added elsewhere" heuristic. */
const GENERIC_BASENAMES = new Set([
  'index.ts', 'index.js', 'index.tsx', 'index.jsx', 'index.mjs', 'index.cjs', 'index.d.ts', 'index.md', 'index.html',
  'readme.md', 'readme', 'readme.rst', 'license', 'license.md', 'changelog.md', 'package.json', 'tsconfig.json',
  '__init__.py', 'main.py', 'main.go', 'main.rs', 'mod.rs', 'lib.rs', 'main.ts', 'main.js', 'utils.ts', 'utils.js',
  'utils.py', 'types.ts', 'types.go', 'types.py', 'config.ts', 'config.js', 'config.py', 'cargo.toml', 'go.mod',
  'makefile', 'dockerfile', '.gitignore', '.gitkeep', 'setup.py', 'pyproject.toml', 'test.ts', 'app.ts', 'app.tsx',
  'app.py', 'constants.ts', 'helpers.ts', 'claude.md', 'agents.md', 'vite.config.ts', 'vitest.config.ts',
]);

/** How many commits after a deletion a same-basename add still counts as its successor. */
export const READD_WINDOW = 100;

interface Internal {
  commits: CommitInfo[];
  order: Map<CommitInfo, number>;
  events: Map<string, PathEvent[]>;
  dirLast: Map<string, CommitInfo>;
  dirCount: Map<string, number>;
  lookups: Lookups;
}

/**
 * Look-up tables the fate queries need, filled while the log streams (the main thread has
 * time then; after the log pass every millisecond is on the audit's critical path).
 */
interface Lookups {
  /** Lower-cased history file path -> the first spelling seen. */
  lowerFiles: Map<string, string>;
  /** Lower-cased history folder -> the first spelling seen. */
  lowerDirs: Map<string, string>;
  /** 'added' events by basename and by blob id (the re-add heuristic). */
  addsByBase: Map<string, PathEvent[]>;
  addsByBlob: Map<string, PathEvent[]>;
  /** Folder ('' = root) -> files directly in it / folders directly in it, as history knows them. */
  childFiles: Map<string, string[]>;
  childDirs: Map<string, string[]>;
}

function pushTo<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

const parentOf = (p: string): string => {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
};

/** An all-zero blob id (no content: the other side of an add or a delete). */
const isNullBlob = (b: string): boolean => b.charCodeAt(0) === 48 && NULL_BLOB.test(b);

export class HistoryBuilder {
  readonly commits: CommitInfo[] = [];
  readonly events = new Map<string, PathEvent[]>();
  readonly dirLast = new Map<string, CommitInfo>();
  readonly dirCount = new Map<string, number>();
  /** Paths touched by the current commit (for distinct-commit counting of directories). */
  private touchedDirs = new Set<string>();
  private current: CommitInfo | null = null;
  private readonly lookups: Lookups = {
    lowerFiles: new Map(),
    lowerDirs: new Map(),
    addsByBase: new Map(),
    addsByBlob: new Map(),
    childFiles: new Map(),
    childDirs: new Map(),
  };
  /** Warnings git printed (rename detection skipped...). */
  warnings: string[] = [];

  constructor(private readonly prefix = '') {}

  startCommit(c: CommitInfo): void {
    this.flushCommit();
    this.current = c;
    this.commits.push(c);
  }

  private flushCommit(): void {
    const c = this.current;
    if (!c) return;
    const lk = this.lookups;
    for (const d of this.touchedDirs) {
      if (!this.dirLast.has(d)) {
        this.dirLast.set(d, c); // log is newest first
        const ld = d.toLowerCase();
        if (!lk.lowerDirs.has(ld)) lk.lowerDirs.set(ld, d);
        pushTo(lk.childDirs, parentOf(d), d);
      }
      this.dirCount.set(d, (this.dirCount.get(d) ?? 0) + 1);
    }
    this.touchedDirs.clear();
  }

  /** Strips the root prefix; returns null for paths outside the root. */
  private rel(p: string | undefined): string | null {
    if (p === undefined) return null;
    if (!this.prefix) return p;
    return p.startsWith(this.prefix) ? p.slice(this.prefix.length) : null;
  }

  private push(path: string, ev: Omit<PathEvent, 'path'>): void {
    let list = this.events.get(path);
    let key = path;
    const lk = this.lookups;
    if (list) key = list[0]!.path; // intern
    else {
      list = [];
      this.events.set(path, list);
      const lp = path.toLowerCase();
      if (!lk.lowerFiles.has(lp)) lk.lowerFiles.set(lp, path);
      pushTo(lk.childFiles, parentOf(path), path);
    }
    const e = ev as PathEvent;
    e.path = key;
    list.push(e);
    if (e.type === 'added') {
      pushTo(lk.addsByBase, key.slice(key.lastIndexOf('/') + 1), e);
      if (e.blob && !isNullBlob(e.blob)) pushTo(lk.addsByBlob, e.blob, e);
    }
    let end = key.lastIndexOf('/');
    while (end > 0) {
      const d = key.slice(0, end);
      if (this.touchedDirs.has(d)) break;
      this.touchedDirs.add(d);
      end = d.lastIndexOf('/');
    }
  }

  addChange(ch: LogChange): void {
    const commit = this.current;
    if (!commit) return;
    const s = ch.status;
    const src = this.rel(ch.src);
    const dst = this.rel(ch.dst);
    if (s === 'R' && ch.dst !== undefined) {
      if (src !== null && dst !== null) {
        this.push(src, { type: 'renamed-from', other: dst, similarity: ch.similarity, commit, blob: ch.srcBlob } as PathEvent);
        this.push(dst, { type: 'renamed-to', other: src, similarity: ch.similarity, commit, blob: ch.dstBlob } as PathEvent);
      } else if (src !== null) this.push(src, { type: 'deleted', commit, blob: ch.srcBlob } as PathEvent);
      else if (dst !== null) this.push(dst, { type: 'added', commit, blob: ch.dstBlob } as PathEvent);
      return;
    }
    if (s === 'C' && ch.dst !== undefined) {
      if (dst !== null) this.push(dst, { type: 'added', commit, blob: ch.dstBlob } as PathEvent);
      return;
    }
    if (src === null) return;
    if (s === 'A') this.push(src, { type: 'added', commit, blob: ch.dstBlob } as PathEvent);
    else if (s === 'D') this.push(src, { type: 'deleted', commit, blob: ch.srcBlob } as PathEvent);
    else if (s === 'M' || s === 'T') this.push(src, { type: 'modified', commit } as PathEvent);
  }

  /** Finishes the pass; `present` tells what exists now (the file index). */
  finish(present: (p: string) => 'file' | 'dir' | undefined, shallow: boolean): HistoryIndex & HistoryExtras {
    this.flushCommit();
    this.current = null;
    // Log order is newest first: make everything oldest first.
    this.commits.reverse();
    const order = new Map<CommitInfo, number>();
    this.commits.forEach((c, i) => order.set(c, i));
    for (const list of this.events.values()) {
      list.reverse();
      // Stable chronological order even when log order and topology disagree.
      let sorted = true;
      for (let i = 1; i < list.length; i++) if (order.get(list[i - 1]!.commit)! > order.get(list[i]!.commit)!) sorted = false;
      if (!sorted) list.sort((a, b) => order.get(a.commit)! - order.get(b.commit)!);
    }
    return makeIndex(
      { commits: this.commits, order, events: this.events, dirLast: this.dirLast, dirCount: this.dirCount, lookups: this.lookups },
      present,
      shallow,
      this.warnings,
    );
  }
}

/** Optional extras on top of the shared HistoryIndex contract. */
export interface HistoryExtras {
  /** Paths (files that ever existed) under a directory, sorted. */
  pathsUnder(dir: string): string[];
  /** A history path or directory that matches case-insensitively (undefined when none or exact). */
  caseMatch(path: string): string | undefined;
  /** True when the path is a file or a directory somewhere in history. */
  known(path: string): 'file' | 'dir' | undefined;
  /** Warnings from git (e.g. inexact rename detection skipped). */
  warnings: string[];
}

const TERMINAL = (e: PathEvent) => e.type === 'deleted' || e.type === 'renamed-from';
const CREATION = (e: PathEvent) => e.type === 'added' || e.type === 'renamed-to';

/** The deepest folder containing every path ('' when none). */
export function commonDir(paths: string[]): string {
  if (!paths.length) return '';
  let parts = paths[0]!.split('/').slice(0, -1);
  for (const p of paths.slice(1)) {
    const q = p.split('/');
    let i = 0;
    while (i < parts.length && i < q.length - 1 && parts[i] === q[i]) i++;
    parts = parts.slice(0, i);
  }
  return parts.join('/');
}

export function normalizePath(p: string): string {
  let q = p.trim().replace(/\\/g, '/');
  while (q.startsWith('./')) q = q.slice(2);
  q = q.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\/{2,}/g, '/');
  return q;
}

function makeIndex(
  st: Internal,
  present: (p: string) => 'file' | 'dir' | undefined,
  shallow: boolean,
  warnings: string[],
): HistoryIndex & HistoryExtras {
  const { events, order } = st;
  const { lowerFiles, lowerDirs, addsByBase, addsByBlob, childFiles, childDirs } = st.lookups;
  /** Every history file under `dir` ('' = all), sorted. */
  const pathsUnder = (dir: string): string[] => {
    const out: string[] = [];
    const stack = [normalizePath(dir)];
    while (stack.length) {
      const d = stack.pop()!;
      const files = childFiles.get(d);
      if (files) for (const f of files) out.push(f);
      const dirs = childDirs.get(d);
      if (dirs) for (const sub of dirs) stack.push(sub);
    }
    return out.sort();
  };
  const isHistDir = (d: string) => st.dirLast.has(d);
  const caseMatch = (p: string): string | undefined => {
    const l = p.toLowerCase();
    const m = lowerFiles.get(l) ?? lowerDirs.get(l);
    return m && m !== p ? m : undefined;
  };

  const ord = (c: CommitInfo) => order.get(c) ?? -1;

  /** Does `p` (following renames) still exist? Returns the final path or undefined. */
  const resolvesToPresent = (p: string, depth: number): string | undefined => {
    if (present(p)) return p;
    if (depth > 3) return undefined;
    const f = fileFate(p, -1, depth + 1);
    return f.status === 'renamed' && f.successor && present(f.successor) ? f.successor : undefined;
  };

  const findReadd = (del: PathEvent, depth: number): { path: string; via: 'blob' | 'basename'; event: PathEvent } | undefined => {
    const delOrd = ord(del.commit);
    if (del.blob && !isNullBlob(del.blob)) {
      const same = (addsByBlob.get(del.blob) ?? []).filter((e) => e.path !== del.path && ord(e.commit) >= delOrd);
      // oldest first; the same content added at several paths in one commit: by path
      same.sort((a, b) => ord(a.commit) - ord(b.commit) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      for (const e of same) {
        const r = resolvesToPresent(e.path, depth);
        if (r) return { path: e.path, via: 'blob', event: e };
      }
    }
    const base = del.path.slice(del.path.lastIndexOf('/') + 1);
    if (GENERIC_BASENAMES.has(base.toLowerCase())) return undefined;
    const cands = (addsByBase.get(base) ?? []).filter(
      (e) => e.path !== del.path && ord(e.commit) >= delOrd && ord(e.commit) <= delOrd + READD_WINDOW,
    );
    if (!cands.length || cands.some((c) => c.path !== cands[0]!.path)) return undefined;
    // the first time that one path was added after the deletion
    let e = cands[0]!;
    for (const c of cands) if (ord(c.commit) < ord(e.commit)) e = c;
    return resolvesToPresent(e.path, depth) ? { path: e.path, via: 'basename', event: e } : undefined;
  };

  /** Fate of a file path that has history events. `since`: only events at or after this commit ordinal. */
  const fileFate = (start: string, since: number, depth = 0): PathFate => {
    const chain: NonNullable<PathFate['chain']> = [];
    const seen = new Set<string>();
    let cur = start;
    let after = since;
    let inferred: PathFate['inferred'];
    for (;;) {
      if (present(cur) && cur !== start) {
        return { status: 'renamed', successor: cur, commit: chain[chain.length - 1]?.commit, chain, isDirectory: false, inferred, existed: true };
      }
      if (seen.has(cur)) return { status: 'unknown', successor: cur, chain, existed: true, inferred };
      seen.add(cur);
      const list = events.get(cur) ?? [];
      let lastIdx = -1;
      for (let i = list.length - 1; i >= 0; i--) {
        const e = list[i]!;
        if (ord(e.commit) < after) break;
        if (TERMINAL(e)) {
          lastIdx = i;
          break;
        }
      }
      if (lastIdx < 0) {
        if (chain.length) {
          return { status: 'unknown', successor: cur, commit: chain[chain.length - 1]!.commit, chain, existed: true, inferred };
        }
        return { status: 'unknown', existed: list.length > 0 };
      }
      let term = list[lastIdx]!;
      if (term.type === 'deleted') {
        // A rename on a branch in the same lifecycle (no creation in between) beats a delete.
        for (let i = lastIdx - 1; i >= 0; i--) {
          const e = list[i]!;
          if (ord(e.commit) < after || CREATION(e)) break;
          if (e.type === 'renamed-from' && e.other && resolvesToPresent(e.other, depth + 1)) {
            term = e;
            break;
          }
        }
      }
      if (term.type === 'renamed-from' && term.other) {
        chain.push({ from: cur, to: term.other, commit: term.commit });
        after = ord(term.commit);
        cur = term.other;
        continue;
      }
      // deleted: maybe re-added elsewhere
      const re = depth < 3 ? findReadd(term, depth) : undefined;
      if (re) {
        chain.push({ from: cur, to: re.path, commit: term.commit });
        inferred = 'readded';
        after = ord(re.event.commit);
        cur = re.path;
        continue;
      }
      return {
        status: 'deleted',
        commit: term.commit,
        chain: chain.length ? chain : undefined,
        isDirectory: false,
        existed: true,
        ...(chain.length ? { lastPath: cur } : {}),
      };
    }
  };

  /**
   * Directory fate. Every file that ever lived under `dir` votes with the first rename that
   * took it out of `dir`: when the whole relative path is kept (`dir/a/b.ts` -> `X/a/b.ts`)
   * the vote goes to `X`. A majority of the files that left (moved or deleted) makes `X` the
   * successor. When those files later moved on together (X held none of them at HEAD), the
   * deepest common folder of their present locations is the successor instead.
   */
  const dirFate = (dir: string, depth: number): PathFate => {
    const files = pathsUnder(dir);
    const votes = new Map<string, { n: number; commit: CommitInfo; finals: string[] }>();
    let lastDelete: CommitInfo | undefined;
    let lastMove: CommitInfo | undefined;
    let voters = 0;
    const pre = dir + '/';
    for (const f of files) {
      const ff = fileFate(f, -1, 2); // limited re-add search for speed
      if (ff.status === 'present') continue;
      voters++;
      const hop = ff.chain?.find((h) => !h.to.startsWith(pre));
      if (ff.status === 'renamed' && hop) {
        if (!lastMove || ord(hop.commit) > ord(lastMove)) lastMove = hop.commit;
        const rest = hop.from.startsWith(pre) ? hop.from.slice(pre.length) : '';
        let newDir: string | undefined;
        if (rest && hop.to.endsWith('/' + rest)) newDir = hop.to.slice(0, hop.to.length - rest.length - 1);
        else if (rest && hop.to === rest) newDir = '';
        if (newDir === undefined) continue;
        const v = votes.get(newDir);
        if (v) {
          v.n++;
          if (ord(hop.commit) > ord(v.commit)) v.commit = hop.commit;
          if (ff.successor) v.finals.push(ff.successor);
        } else votes.set(newDir, { n: 1, commit: hop.commit, finals: ff.successor ? [ff.successor] : [] });
        continue;
      }
      const c = ff.commit;
      if (c && (!lastDelete || ord(c) > ord(lastDelete))) lastDelete = c;
    }
    let best: [string, { n: number; commit: CommitInfo; finals: string[] }] | undefined;
    for (const [k, v] of votes) if (!best || v.n > best[1].n) best = [k, v];
    const destinations = [...votes].map(([k, v]) => ({ path: k, files: v.n })).sort((a, b) => b.files - a.files);
    if (best && best[1].n * 2 >= voters && best[0] !== dir) {
      const to = best[0];
      const hop = { from: dir, to, commit: best[1].commit };
      const finals = best[1].finals;
      const stayed = finals.filter((x) => x.startsWith(to + '/')).length;
      if (finals.length && stayed * 2 < finals.length) {
        // They moved on: the deepest folder holding all of them now.
        const lcp = commonDir(finals);
        if (lcp.split('/').length >= 2 && lcp !== to && present(lcp) === 'dir') {
          let moveCommit: CommitInfo | undefined;
          for (const fin of finals) {
            const list = events.get(fin);
            const created = list?.find((e) => e.type === 'renamed-to' && ord(e.commit) > ord(best![1].commit));
            if (created && (!moveCommit || ord(created.commit) > ord(moveCommit))) moveCommit = created.commit;
          }
          const second = { from: to, to: lcp, commit: moveCommit ?? best[1].commit };
          return { status: 'renamed', successor: lcp, commit: second.commit, chain: [hop, second], isDirectory: true, existed: true, destinations };
        }
      }
      if (present(to) || to === '' || depth > 4) {
        return { status: 'renamed', successor: to, commit: best[1].commit, chain: [hop], isDirectory: true, existed: true, destinations };
      }
      if (isHistDir(to)) {
        const next = dirFate(to, depth + 1);
        return { ...next, isDirectory: true, chain: [hop, ...(next.chain ?? [])], destinations };
      }
      return { status: 'unknown', successor: to, commit: best[1].commit, chain: [hop], isDirectory: true, existed: true, destinations };
    }
    const last = [lastDelete, lastMove].filter((c): c is CommitInfo => !!c).sort((a, b) => ord(b) - ord(a))[0];
    return {
      status: last ? 'deleted' : 'unknown',
      commit: last,
      isDirectory: true,
      existed: true,
      ...(destinations.length ? { destinations } : {}),
    };
  };

  const fateCache = new Map<string, PathFate>();
  const fate = (raw: string): PathFate => {
    const p = normalizePath(raw);
    const hit = fateCache.get(p);
    if (hit) return hit;
    const res = computeFate(p);
    if (fateCache.size < 100_000) fateCache.set(p, res);
    return res;
  };

  const computeFate = (p: string): PathFate => {
    const now = present(p);
    if (now) return { status: 'present', isDirectory: now === 'dir', existed: events.has(p) || isHistDir(p) };
    if (events.has(p)) return fileFate(p, -1);
    if (isHistDir(p)) return dirFate(p, 0);
    const cm = caseMatch(p);
    if (cm !== undefined) {
      const f = present(cm) ? ({ status: 'present', isDirectory: present(cm) === 'dir' } as PathFate) : computeFate(cm);
      if (f.status === 'present') return { status: 'renamed', successor: cm, isDirectory: f.isDirectory, inferred: 'case', existed: true };
      return { ...f, inferred: f.inferred ?? 'case', caseOf: cm };
    }
    // A path that never existed itself, under a directory that was renamed.
    let end = p.lastIndexOf('/');
    while (end > 0) {
      const anc = p.slice(0, end);
      if (present(anc)) break;
      if (isHistDir(anc)) {
        const df = fate(anc);
        if (df.status === 'renamed' && df.successor !== undefined) {
          const cand = (df.successor ? df.successor + '/' : '') + p.slice(end + 1);
          const kind = present(cand);
          if (kind) {
            return { status: 'renamed', successor: cand, commit: df.commit, chain: df.chain, isDirectory: kind === 'dir', inferred: 'directory', existed: false };
          }
        }
        break;
      }
      end = anc.lastIndexOf('/');
    }
    return { status: 'unknown', existed: false };
  };

  const lastTouched = (raw: string): CommitInfo | undefined => {
    const p = normalizePath(raw);
    if (p === '') return st.commits[st.commits.length - 1];
    const list = events.get(p);
    if (list && list.length) return list[list.length - 1]!.commit;
    return st.dirLast.get(p);
  };
  const touchCount = (raw: string): number => {
    const p = normalizePath(raw);
    if (p === '') return st.commits.length;
    const list = events.get(p);
    if (list && list.length) {
      let n = 0;
      let prev: CommitInfo | null = null;
      for (const e of list) {
        if (e.commit !== prev) n++;
        prev = e.commit;
      }
      return n;
    }
    return st.dirCount.get(p) ?? 0;
  };

  return {
    available: true,
    shallow,
    commits: st.commits.length,
    events,
    fate,
    lastTouched,
    touchCount,
    pathsUnder,
    caseMatch,
    known: (raw) => {
      const p = normalizePath(raw);
      return events.has(p) ? 'file' : isHistDir(p) ? 'dir' : undefined;
    },
    warnings,
    commitList: st.commits,
  };
}

/** An index for a root that is not a git repository (or has no commits). */
export function emptyHistory(shallow = false, available = false): HistoryIndex & HistoryExtras {
  return {
    available,
    shallow,
    commits: 0,
    events: new Map(),
    fate: () => ({ status: 'unknown', existed: false }),
    lastTouched: () => undefined,
    touchCount: () => 0,
    pathsUnder: () => [],
    caseMatch: () => undefined,
    known: () => undefined,
    warnings: [],
  };
}

export const LOG_FORMAT = '%x1e%H%x1f%P%x1f%at%x1f%an%x1f%s';

export interface LogPassOptions {
  prefix?: string;
  /** Called for every change, with the commit it belongs to (before the history builder sees it). */
  onChange?: (commit: CommitInfo, change: LogChange) => void;
  /** git's diff.renameLimit for this pass. */
  renameLimit?: number;
}

/**
 * The single log pass. Streams `git log HEAD --raw --no-abbrev -M -z` and feeds a
 * HistoryBuilder (and the optional per-change hook, used for manifest blobs).
 */
export async function runLogPass(
  root: string,
  opts: LogPassOptions = {},
): Promise<{ builder: HistoryBuilder; code: number; stderr: string }> {
  const builder = new HistoryBuilder(opts.prefix ?? '');
  let pending: LogChange | null = null;
  let need = 0;
  let commit: CommitInfo | null = null;
  const onChange = opts.onChange;
  const dayCache = new Map<number, string>();
  const onToken = (raw: string) => {
    if (need > 0 && pending) {
      if (need === 2) {
        pending.src = raw;
        need = pending.status === 'R' || pending.status === 'C' ? 1 : 0;
        if (need === 1) return;
      } else {
        pending.dst = raw;
        need = 0;
      }
      if (commit) {
        if (onChange) onChange(commit, pending);
        builder.addChange(pending);
      }
      pending = null;
      return;
    }
    let tok = raw;
    if (tok.charCodeAt(0) === 10) tok = tok.slice(1);
    if (tok.charCodeAt(0) === 0x1e) {
      const f = tok.slice(1).split('\x1f');
      const at = Number(f[2]);
      const ms = Number.isFinite(at) ? at * 1000 : 0;
      const time = new Date(ms).toISOString();
      const dayKey = Math.floor(ms / 86_400_000);
      let date = dayCache.get(dayKey);
      if (!date) {
        date = time.slice(0, 10);
        dayCache.set(dayKey, date);
      }
      commit = { sha: f[0] ?? '', date, time: time.replace('.000Z', 'Z'), author: f[3] ?? '', subject: f.slice(4).join('\x1f') };
      builder.startCommit(commit);
      return;
    }
    if (tok.charCodeAt(0) === 58 /* : */) {
      // :srcMode dstMode srcBlob dstBlob STATUS
      const s1 = tok.indexOf(' ', 1);
      const s2 = tok.indexOf(' ', s1 + 1);
      const s3 = tok.indexOf(' ', s2 + 1);
      const s4 = tok.indexOf(' ', s3 + 1);
      const letter = tok.charAt(s4 + 1);
      pending = {
        status: letter,
        similarity: tok.length > s4 + 2 ? Number(tok.slice(s4 + 2)) : undefined,
        src: '',
        // Only adds, deletes and renames keep blob ids (re-add detection, manifest history).
        srcBlob: tok.slice(s2 + 1, s3),
        dstBlob: tok.slice(s3 + 1, s4),
        srcMode: tok.slice(1, s1),
        dstMode: tok.slice(s1 + 1, s2),
      };
      need = 2;
      return;
    }
    // anything else (an empty token between records) is ignored
  };
  const args = [
    '-c', `diff.renameLimit=${opts.renameLimit ?? 5000}`,
    'log', 'HEAD', '--raw', '--no-abbrev', '-M', '-z', '--no-color', '--no-ext-diff', '--no-textconv',
    `--format=${LOG_FORMAT}`, '--',
  ];
  const r = await streamGitTokens(root, args, onToken);
  const warn = r.stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /rename|skipped|limit/i.test(l));
  builder.warnings.push(...warn);
  return { builder, code: r.code, stderr: r.stderr };
}
