// path-missing / path-renamed / path-unverified: a path written in memory that is not in
// the repository at HEAD, explained from history (renamed, with the final successor; or
// deleted, with the commit). Resolved against the memory file's folder and the repository
// root, whichever matches the history.
import type { Check, CheckContext, Entry, Evidence, Finding, MemoryFile, PathFate, Reference } from '../types.js';
import { joinPath } from '../memory/refs/paths.js';
import { contextFolders } from '../memory/references.js';
import { checkable, describedAsPast, commitEvidence, describeCommit, exists, finding, memDirOf, relativeTo, short } from './stale-common.js';

const GLOB = /[*?[\]{}]/;
const BUILD_DIRS = new Set(['dist', 'build', 'out', 'target', 'node_modules', '.venv', 'venv', 'coverage', '.next', '.nuxt', '.turbo', '.cache', '__pycache__', 'site', '.output', '.svelte-kit', 'tmp', '.tmp']);

interface Candidate {
  path: string;
  /** How the candidate relates to what was written. */
  from: 'base' | 'memdir' | 'root' | 'tree-stripped' | 'context';
  /** 'context': the folder the text around the path names. */
  base?: string;
}

/**
 * A path with a folder in it that resolves nowhere as written, tried against the folders its
 * context names (parent list items, the list's intro line, the nearest heading; see
 * `contextFolders`) that exist at HEAD as folders. `a/b` under folder `x/a` is also `x/a/b`.
 */
function contextCandidates(entry: Entry, ref: Reference, ev: Evidence, value: string, file: MemoryFile | undefined, cands: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  for (const dir of contextFolders(entry, file, ref.start)) {
    if (!ev.files.dirs.has(dir)) continue;
    const push = (p: string | null) => {
      if (p && !cands.some((c) => c.path === p) && !out.some((c) => c.path === p)) out.push({ path: p, from: 'context', base: dir });
    };
    push(joinPath(dir, value));
    // Overlap: the path repeats the folder's last segments (`workbench/browser` under `src/vs/workbench`).
    const ds = dir.split('/');
    const vs = value.split('/');
    for (let k = Math.min(ds.length, vs.length - 1); k >= 1; k--) {
      if (ds.slice(ds.length - k).join('/') === vs.slice(0, k).join('/')) push(joinPath(ds.slice(0, ds.length - k).join('/'), value));
    }
  }
  return out;
}

type Anchor = 'plain' | 'dot' | 'parent' | 'root';

function anchorOf(ref: Reference): { anchor: Anchor; at: boolean } {
  let r = ref.raw;
  const at = ref.kind === 'import' || r.startsWith('@');
  if (at && r.startsWith('@')) r = r.slice(1);
  if (ref.via === 'tree') return { anchor: 'plain', at };
  if (r.startsWith('/')) return { anchor: 'root', at };
  if (r.startsWith('./')) return { anchor: 'dot', at };
  if (r.startsWith('../')) return { anchor: 'parent', at };
  return { anchor: 'plain', at };
}

export function candidates(ref: Reference, memDir: string, value: string): Candidate[] {
  const { anchor } = anchorOf(ref);
  const out: Candidate[] = [];
  const push = (p: string | null, from: Candidate['from']) => {
    if (p === null || p === '') return;
    if (!out.some((c) => c.path === p)) out.push({ path: p, from });
  };
  const base = ref.base && ref.via !== 'tree' ? ref.base.replace(/\/+$/, '') : '';
  if (anchor === 'root') push(joinPath('', value), 'root');
  else if (anchor === 'parent') push(joinPath(memDir, value), 'memdir');
  else {
    if (base) push(joinPath(base, value), 'base');
    push(joinPath(memDir, value), 'memdir');
    push(joinPath('', value), 'root');
  }
  return out;
}

function globPrefix(v: string): string {
  const segs = v.split('/');
  const out: string[] = [];
  for (const s of segs) {
    if (GLOB.test(s)) break;
    out.push(s);
  }
  return out.join('/');
}

interface Resolution {
  kind: 'present' | 'case' | 'renamed' | 'deleted' | 'never' | 'unknown-history';
  cand?: Candidate;
  fate?: PathFate;
  real?: string;
}

function stale(f: PathFate): boolean {
  return f.status === 'renamed' || f.status === 'deleted';
}

export function resolvePath(ev: Evidence, cands: Candidate[]): Resolution {
  for (const c of cands) if (exists(ev, c.path)) return { kind: 'present', cand: c };
  for (const c of cands) {
    const real = ev.files.lower.get(c.path.toLowerCase());
    if (real && real !== c.path) {
      // A real rename (history) beats a case-only match.
      const f = ev.history.available ? ev.history.fate(c.path) : undefined;
      if (f && f.status === 'renamed' && f.successor && f.successor !== real && exists(ev, f.successor)) return { kind: 'renamed', cand: c, fate: f };
      return { kind: 'case', cand: c, real };
    }
  }
  if (!ev.history.available) return { kind: 'unknown-history' };
  for (const c of cands) {
    const f = ev.history.fate(c.path);
    if (!stale(f)) continue;
    if (f.status === 'renamed' && f.successor !== undefined && f.successor !== '' && exists(ev, f.successor)) {
      if ((f as { inferred?: string }).inferred === 'case') return { kind: 'case', cand: c, real: f.successor };
      return { kind: 'renamed', cand: c, fate: f };
    }
    return { kind: 'deleted', cand: c, fate: f };
  }
  return { kind: ev.history.shallow ? 'unknown-history' : 'never' };
}

function styled(ref: Reference, cand: Candidate, successor: string, memDir: string, dir: boolean): string | undefined {
  const { anchor, at } = anchorOf(ref);
  if (ref.via === 'tree') return undefined;
  let out: string;
  if (cand.from === 'base' || cand.from === 'context') {
    const base = cand.from === 'context' ? cand.base ?? '' : (ref.base ?? '').replace(/\/+$/, '');
    if (!successor.startsWith(base + '/')) return undefined;
    out = successor.slice(base.length + 1);
  } else if (anchor === 'root') out = '/' + successor;
  else if (cand.from === 'memdir' && memDir) {
    out = relativeTo(memDir, successor);
    if (anchor === 'dot' && !out.startsWith('.')) out = './' + out;
  } else {
    out = successor;
    if (anchor === 'dot') out = './' + out;
  }
  const globTail = ref.glob ? ref.value.slice(globPrefix(ref.value).length) : '';
  if (globTail) out += globTail;
  if (dir && ref.raw.endsWith('/') && !out.endsWith('/')) out += '/';
  if (at) out = '@' + out;
  return out;
}

function bareName(ref: Reference): boolean {
  return !ref.value.includes('/') && anchorOf(ref).anchor === 'plain';
}

export function checkPathRef(entry: Entry, ref: Reference, ev: Evidence, memDir = memDirOf(entry.file), file?: MemoryFile): Finding | null {
  if (ref.kind !== 'path' && ref.kind !== 'import') return null;
  const isGlob = !!ref.glob || GLOB.test(ref.value);
  let value = ref.value;
  if (isGlob) {
    value = globPrefix(ref.value);
    if (!value) return null;
  }
  const cands = candidates(ref, memDir, value);
  if (!cands.length) return null;
  // A tree whose top line is the project's own folder name (`my-app/`): try without it.
  if (ref.via === 'tree' && value.includes('/')) {
    const top = value.slice(0, value.indexOf('/'));
    if (!exists(ev, top) && !(ev.history.available && ev.history.fate(top).status !== 'unknown')) {
      const stripped = value.slice(top.length + 1);
      if (!cands.some((c) => c.path === stripped)) cands.push({ path: stripped, from: 'tree-stripped' });
    }
  }
  let res = resolvePath(ev, cands);
  // Not found as written, nor ever in history: try the folders the context names.
  if ((res.kind === 'never' || res.kind === 'unknown-history') && ref.kind === 'path' && ref.via !== 'tree' && value.includes('/') && !isGlob) {
    const anchor = anchorOf(ref).anchor;
    if (anchor === 'plain' || anchor === 'dot') {
      const more = contextCandidates(entry, ref, ev, value, file, cands);
      if (more.length) {
        const r2 = resolvePath(ev, more);
        if (r2.kind === 'present') return null;
        if (res.kind === 'never' && r2.kind !== 'never' && r2.kind !== 'unknown-history') res = r2;
      }
    }
  }
  const shown = ref.raw;
  const resolvedNote = (c: Candidate | undefined) => (c && c.path !== ref.value.replace(/\/+$/, '') && c.path !== value ? ` (${c.path})` : '');
  const dirRef = ref.raw.endsWith('/');

  if (res.kind === 'present') return null;
  // the text already says it is gone or replaced (tested once the path is known to be missing)
  if (describedAsPast(entry, ref)) return null;
  if (res.kind === 'case') {
    const real = res.real!;
    return finding(
      entry, ref, 'path-renamed', 'info',
      `\`${shown}\`${resolvedNote(res.cand)} differs only in letter case from \`${real}\`, which fails on case-sensitive file systems; write \`${real}\`.`,
      { now: real, path: res.cand!.path, case: true },
      styled(ref, res.cand!, real, memDir, dirRef) ? { replace: styled(ref, res.cand!, real, memDir, dirRef) } : undefined,
    );
  }
  // Bare names that exist somewhere else in the tree are not confidently stale.
  if (bareName(ref) && !ref.via && (res.kind === 'deleted' || res.kind === 'never')) {
    const name = ref.value.split('/').pop()!;
    if (ev.files.byBasename.get(name)?.length) return null;
  }
  if (res.kind === 'renamed') {
    const f = res.fate!;
    const succ = f.successor!;
    const hops = f.chain && f.chain.length > 1 ? ` (via ${f.chain.slice(0, -1).map((h) => `\`${h.to}\``).join(', ')})` : '';
    const replace = styled(ref, res.cand!, succ, memDir, !!f.isDirectory || dirRef);
    const inferred = (f as { inferred?: string }).inferred;
    const dests = (f as { destinations?: Array<{ path: string; files: number }> }).destinations ?? [];
    if (f.isDirectory && dests.length >= 2) {
      const total = dests.reduce((a, d) => a + d.files, 0);
      const second = [...dests].sort((a, b) => b.files - a.files)[1];
      if (second.files >= Math.max(2, total * 0.1)) {
        // Split across several folders: no single successor to write.
        const list = [...dests].sort((a, b) => b.files - a.files).slice(0, 3);
        const shownList = list.map((d) => `\`${d.path}/\` (${d.files} file${d.files === 1 ? '' : 's'})`).join(', ');
        return finding(
          entry, ref, 'path-missing', 'warning',
          `Directory \`${shown}\`${resolvedNote(res.cand)} was split up in ${describeCommit(f.commit)}: its files moved to ${shownList}${dests.length > 3 ? ' and more' : ''}; point the reference at the part you mean.`,
          { ...commitEvidence(f.commit), path: res.cand!.path, now: f.commit ? short(f.commit.sha) : undefined, destinations: dests },
        );
      }
    }
    if (inferred === 'readded') {
      const del = f.chain?.find((h) => h.to === succ) ?? f.chain?.[f.chain.length - 1];
      const added = ev.history.events.get(succ)?.find((e) => (e.type === 'added' || e.type === 'renamed-to') && (!del || e.commit.time >= del.commit.time));
      return finding(
        entry, ref, 'path-renamed', 'warning',
        `\`${shown}\`${resolvedNote(res.cand)} was deleted in ${describeCommit(del?.commit ?? f.commit)} and re-added as \`${succ}\`${added ? ` in ${describeCommit(added.commit)}` : ''}; update the reference.`,
        { ...commitEvidence(added?.commit ?? f.commit), path: res.cand!.path, now: succ, readded: true },
        replace ? { replace } : undefined,
      );
    }
    return finding(
      entry, ref, 'path-renamed', 'warning',
      `${f.isDirectory ? 'Directory ' : ''}\`${shown}\`${resolvedNote(res.cand)} was ${f.isDirectory ? 'moved' : 'renamed'} to \`${succ}${f.isDirectory ? '/' : ''}\`${hops} in ${describeCommit(f.commit)}; update the reference.`,
      { ...commitEvidence(f.commit), path: res.cand!.path, now: succ, ...(f.chain ? { chain: f.chain.map((h) => ({ from: h.from, to: h.to, commit: h.commit.sha })) } : {}) },
      replace ? { replace } : undefined,
    );
  }
  if (res.kind === 'deleted') {
    const f = res.fate!;
    // Build output and local environments are regenerated, not tracked: gone from git is not gone.
    if (BUILD_DIRS.has(res.cand!.path.split('/')[0].toLowerCase())) return null;
    const c = f.commit;
    const moved = f.chain && f.chain.length ? ` after moving to \`${f.chain[f.chain.length - 1].to}\`` : '';
    const by = c?.author ? ` by ${c.author}` : '';
    const msg = f.isDirectory
      ? `Directory \`${shown}\`${resolvedNote(res.cand)} no longer exists${moved}: its last files were removed or split up by ${describeCommit(c)}${by}; remove the reference or point it at the new location.`
      : `\`${shown}\`${resolvedNote(res.cand)} was deleted${moved} in ${describeCommit(c)}${by}; remove the reference or point it at what replaced it.`;
    return finding(entry, ref, 'path-missing', 'warning', msg, { ...commitEvidence(c), path: res.cand!.path, now: c ? short(c.sha) : undefined });
  }
  if (res.kind === 'unknown-history') {
    if (ref.weak || ref.via || !ref.value.includes('/') || ref.in === 'prose') return null;
    const why = !ev.history.available ? 'git history is not available' : 'the clone is shallow (use actions/checkout with fetch-depth: 0)';
    return finding(entry, ref, 'path-missing', 'warning', `\`${shown}\` does not exist at HEAD and ${why}, so its rename or deletion cannot be traced; fix or remove the reference.`, { path: cands[0].path });
  }
  // Never existed: report as unverified only when it is clearly meant as a repository path.
  if (ref.weak || ref.via || isGlob || !ref.value.includes('/') || ref.in === 'prose' || ref.in === 'code') return null;
  if (/\b(?:e\.g\.|for example|for instance|such as|like)\s*[(`]*$/i.test(entry.text.slice(0, Math.max(0, ref.start - entry.start)))) return null;
  // A path the line tells the reader to create ("create `src/features/<x>/index.ts`", "(create
  // the folder when you first need one)", "(example)"): not meant to exist yet.
  if (TO_BE_CREATED.test(lineWithoutCode(entry, ref))) return null;
  return finding(
    entry, ref, 'path-unverified', 'info',
    `\`${shown}\` is not in the repository and never was in its history; check whether it is a typo or describes another project.`,
    { path: cands[cands.length - 1].path },
  );
}

/** Words that say a path is to be made, or only an example. */
const TO_BE_CREATED = /\b(?:created?|creating|scaffold|scaffolding|generated?|add a new|new file|(?:an? |for )?example|placeholder|when (?:you )?(?:first )?need)\b/i;

/** The memory line holding a reference, with its inline code spans blanked (a path's own words do not count). */
function lineWithoutCode(entry: Entry, ref: Reference): string {
  const at = Math.max(0, ref.start - entry.start);
  const from = entry.text.lastIndexOf('\n', at - 1) + 1;
  let to = entry.text.indexOf('\n', at);
  if (to === -1) to = entry.text.length;
  return entry.text.slice(from, to).replace(/`[^`\n]*`/g, ' ');
}

/** What makes two path references of one entry the same finding. */
function sameRefKey(ref: Reference): string {
  return `${ref.line}\0${ref.via === 'tree' ? ref.value : ref.raw.replace(/^@/, '')}\0${ref.base ?? ''}`;
}

export const pathCheck: Check = {
  id: 'path',
  kinds: ['path-missing', 'path-renamed', 'path-unverified'],
  severity: 'warning',
  description: 'Paths named in memory that no longer exist: renamed (with the final successor) or deleted (with the commit).',
  run(ctx: CheckContext): Finding[] {
    const out: Finding[] = [];
    const ev = ctx.evidence;
    let memDirFile: string | undefined;
    let memDir = '';
    let file: MemoryFile | undefined;
    let byPath: Map<string, MemoryFile> | undefined;
    for (const entry of ctx.entries) {
      if (!checkable(entry)) continue;
      // The same path twice on one line (`x.sh`, then `bash x.sh`) is one finding. Most entries
      // name one path at most: the keys are only made from the second one on.
      let first: Reference | undefined;
      let seen: Set<string> | undefined;
      for (const ref of entry.refs) {
        if (ref.kind !== 'path' && ref.kind !== 'import') continue;
        if (!first) first = ref;
        else {
          seen ??= new Set([sameRefKey(first)]);
          const key = sameRefKey(ref);
          if (seen.has(key)) continue;
          seen.add(key);
        }
        if (memDirFile !== entry.file) {
          memDirFile = entry.file; // entries come file by file: one folder computation per file
          memDir = memDirOf(entry.file);
          byPath ??= new Map(ctx.files.map((x) => [x.path, x]));
          file = byPath.get(entry.file);
        }
        const f = checkPathRef(entry, ref, ev, memDir, file);
        if (f) out.push(f);
      }
    }
    return out;
  },
};
