// count-drift: counts that can be checked with confidence — "16 default commands in
// `.archon/commands/defaults/`" (the folder's entries), "310 SKILL.md files" (files with
// that name), "12 packages" in a workspace monorepo, "5 hooks" when exactly one folder is
// named `hooks/`, and configured anchors (`counts:` pattern + glob). "100+ rules" is a
// lower bound. Uncertain mappings are not reported.
import picomatch from 'picomatch';
import type { Check, CheckContext, Entry, Evidence, Finding, Reference, DirStats } from '../types.js';
import { joinPath } from '../memory/refs/paths.js';
import { folderStats } from '../evidence/files.js';
import { lineOf } from '../memory/refs/lex.js';
import { checkable, finding, memDirOf, refsOf } from './stale-common.js';

/** Words naming a kind of file -> extensions. */
const EXT_WORDS: Record<string, string[]> = {
  markdown: ['md', 'mdx', 'markdown'], md: ['md'], mdx: ['mdx'], typescript: ['ts', 'tsx', 'mts', 'cts'], ts: ['ts', 'tsx'],
  javascript: ['js', 'jsx', 'mjs', 'cjs'], js: ['js', 'mjs', 'cjs'], python: ['py'], py: ['py'], go: ['go'], rust: ['rs'],
  yaml: ['yml', 'yaml'], yml: ['yml', 'yaml'], json: ['json'], toml: ['toml'], shell: ['sh', 'bash'], sql: ['sql'],
  test: [], // "test files": no extension filter
};

/** Nouns that name things inside files, not files: "310 tests pass" is not the size of tests/. */
const FOLDER_NOUN_DENY = new Set(['tests', 'specs', 'cases', 'assertions', 'checks', 'examples', 'lines', 'errors', 'warnings', 'issues', 'users', 'steps', 'rules', 'commands', 'options', 'flags', 'endpoints', 'routes', 'tables', 'columns', 'fields', 'models', 'types', 'functions', 'methods', 'classes', 'tools']);

const statsCache = new WeakMap<object, DirStats>();

/** Immediate children per folder: built with the file index, or here for an index without them. */
function dirStats(ev: Evidence): DirStats {
  if (ev.files.stats) return ev.files.stats;
  let s = statsCache.get(ev.files);
  if (!s) {
    s = folderStats(ev.files.files, ev.files.dirs);
    statsCache.set(ev.files, s);
  }
  return s;
}

function off(bound: Reference['bound'], stated: number, actual: number): boolean {
  if (bound === 'atLeast') return actual < stated;
  if (bound === 'approx') return Math.abs(actual - stated) > Math.max(2, stated * 0.25);
  return actual !== stated;
}

interface Counted {
  actual: number;
  how: string;
}

/**
 * The folder a count's bare folder name stands for in its context: "- **Features/** - 8 feature modules"
 * under "- **CodeEdit/** - …" is `CodeEdit/Features`, as the path reference the reader made of the same
 * name on the same line resolves it (its `base`: the parent item's folder, a list intro, a heading).
 * Tried first, as the path check does.
 */
function contextFolder(entry: Entry, ref: Reference): string | null | undefined {
  if (!ref.base) return undefined;
  const w = ref.base.replace(/^\.\//, '').replace(/\/+$/, '');
  if (w.includes('/')) return undefined;
  let best: Reference | undefined;
  for (const r of entry.refs) {
    if (r.kind === 'path' && r.base && r.via !== 'tree' && r.line === ref.line && r.start < ref.start && r.value.replace(/\/+$/, '') === w) best = r;
  }
  return best ? joinPath(best.base!.replace(/\/+$/, ''), w) : undefined;
}

function countFor(entry: Entry, ref: Reference, ev: Evidence, ctxDir: string | null | undefined): Counted | null {
  const noun = (ref.noun ?? '').toLowerCase();
  const words = noun.split(/\s+/);
  const last = words[words.length - 1];
  const st = dirStats(ev);
  // "N <name.ext> files": files with that exact name.
  const named = words.length >= 2 && last === 'files' ? words[words.length - 2] : '';
  const fileName = named && /\.[a-z0-9]+$/i.test(named) ? named : '';
  if (ref.base) {
    const memDir = memDirOf(entry.file);
    const w = ref.base.replace(/^\.\//, '').replace(/\/+$/, '');
    const dir = [ctxDir, joinPath(memDir, w), joinPath('', w)].find((d) => d !== null && d !== undefined && d !== '' && ev.files.dirs.has(d!));
    if (!dir) return null;
    if (fileName) {
      const lowerName = fileName.toLowerCase();
      let n = 0;
      for (const [base, paths] of ev.files.byBasename) if (base.toLowerCase() === lowerName) for (const p of paths) if (p.startsWith(dir + '/')) n++;
      return { actual: n, how: `files named ${fileName} under \`${dir}/\`` };
    }
    const nf = st.files.get(dir) ?? 0;
    const nd = st.dirs.get(dir) ?? 0;
    if (/^(?:directories|folders|dirs|subdirectories|subfolders)$/.test(last)) return { actual: nd, how: `folders in \`${dir}/\`` };
    const ext = words.length >= 2 ? EXT_WORDS[words[words.length - 2]] : undefined;
    if (ext && ext.length && last === 'files') {
      // "12 markdown files in docs/": files with those extensions directly in the folder.
      let n = 0;
      for (const [base, paths] of ev.files.byBasename) {
        const e = base.slice(base.lastIndexOf('.') + 1).toLowerCase();
        if (base.includes('.') && ext.includes(e)) for (const p of paths) if (p.startsWith(dir + '/') && !p.slice(dir.length + 1).includes('/')) n++;
      }
      if (nd > 0 && n !== ref.count) return null; // subfolders may hold the rest: uncertain
      return { actual: n, how: `${words[words.length - 2]} files in \`${dir}/\`` };
    }
    if (last === 'files') return nd === 0 ? { actual: nf, how: `files in \`${dir}/\`` } : null;
    if (nd === 0 && nf > 0) return { actual: nf, how: `files in \`${dir}/\`` };
    if (nf === 0 && nd > 0) return { actual: nd, how: `folders in \`${dir}/\`` };
    return null; // mixed folder: which entries are meant is uncertain
  }
  if (fileName) {
    const lowerName = fileName.toLowerCase();
    let n = 0;
    for (const [base, paths] of ev.files.byBasename) if (base.toLowerCase() === lowerName) n += paths.length;
    if (n === 0) return null;
    return { actual: n, how: `files named ${fileName} in the repository` };
  }
  if (/^(?:packages|workspaces)$/.test(last) && (words.length === 1 || /^(?:workspace|monorepo)$/.test(words[0]))) {
    if (!/\b(?:monorepo|workspaces?)\b/i.test(entry.text)) return null;
    const n = ev.manifests.workspaces.size;
    if (n < 2) return null;
    return { actual: n, how: 'workspace packages in the manifests' };
  }
  if (words.length === 1 && last.length > 3 && !FOLDER_NOUN_DENY.has(last)) {
    const dirs = st.byDirName.get(last);
    if (dirs && dirs.length === 1) {
      const dir = dirs[0];
      const nf = st.files.get(dir) ?? 0;
      const nd = st.dirs.get(dir) ?? 0;
      if (nd === 0 && nf > 0) return { actual: nf, how: `files in \`${dir}/\`` };
      if (nf === 0 && nd > 0) return { actual: nd, how: `folders in \`${dir}/\`` };
    }
  }
  return null;
}

function anchorFindings(entry: Entry, ctx: CheckContext, text: string): Finding[] {
  const out: Finding[] = [];
  for (const a of ctx.config.counts ?? []) {
    let re: RegExp;
    try {
      re = new RegExp(a.pattern, 'g');
    } catch {
      continue;
    }
    const globs = Array.isArray(a.glob) ? a.glob : [a.glob];
    const isMatch = picomatch(globs, { dot: true });
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      if (m[0] === '') {
        re.lastIndex++;
        continue;
      }
      const stated = Number((m[1] ?? '').replace(/,/g, ''));
      if (!Number.isFinite(stated)) continue;
      let actual = 0;
      for (const f of ctx.evidence.files.files) if (isMatch(f)) actual++;
      if (actual === stated) continue;
      const at = entry.start + m.index;
      const raw = m[0];
      const file = ctx.files.find((f) => f.path === entry.file);
      const line = file ? lineOf(file.text, at) : entry.line;
      out.push({
        entryId: entry.id, file: entry.file, line, kind: 'count-drift', severity: 'warning', ref: raw,
        message: `"${raw}" is out of date: ${actual} files match \`${globs.join('`, `')}\`${a.description ? ` (${a.description})` : ''}; update the count to ${actual}.`,
        evidence: { now: actual, glob: globs, anchor: a.pattern },
        suggestion: { replace: raw.replace(m[1], String(actual)) },
      });
    }
  }
  return out;
}

export const countCheck: Check = {
  id: 'count',
  kinds: ['count-drift'],
  severity: 'warning',
  description: 'Counts of files, folders and workspace packages that no longer match the repository (only confident mappings).',
  run(ctx: CheckContext): Finding[] {
    const out: Finding[] = [];
    const ev = ctx.evidence;
    const memo = new Map<string, Counted | null>();
    const check = (entry: Entry, ref: Reference) => {
      if (typeof ref.count !== 'number') return;
      const ctxDir = contextFolder(entry, ref);
      const key = /packages|workspaces/.test(ref.noun ?? '') ? null : `${memDirOf(entry.file)}\0${ref.base ?? ''}\0${ctxDir ?? ''}\0${ref.noun ?? ''}\0${ref.count}`;
      let c: Counted | null;
      if (key !== null && memo.has(key)) c = memo.get(key)!;
      else {
        c = countFor(entry, ref, ev, ctxDir);
        if (key !== null) memo.set(key, c);
      }
      if (!c || !off(ref.bound, ref.count, c.actual)) return;
      const boundText = ref.bound === 'atLeast' ? ' (stated as a lower bound)' : '';
      out.push(
        finding(
          entry, ref, 'count-drift', 'warning',
          `"${ref.raw}"${boundText} no longer matches the repository: there are ${c.actual} ${c.how}; update the count to ${c.actual}.`,
          { now: c.actual, counted: c.how },
          { replace: ref.raw.replace(String(ref.raw.match(/[\d,]+/)?.[0] ?? ref.count), String(c.actual)) },
        ),
      );
    };
    if (ctx.config.counts?.length) {
      // configured count anchors are read from every entry's text, in entry order with its references
      for (const entry of ctx.entries) {
        if (!checkable(entry)) continue;
        out.push(...anchorFindings(entry, ctx, entry.text));
        for (const ref of entry.refs) if (ref.kind === 'count') check(entry, ref);
      }
      return out;
    }
    const { entries, refs } = refsOf(ctx.entries, 'count');
    for (let i = 0; i < refs.length; i++) check(entries[i]!, refs[i]!);
    return out;
  },
};
