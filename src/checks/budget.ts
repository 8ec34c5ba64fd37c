// budget: what the agent actually loads. MEMORY.md: Claude Code reads the first 200 lines or
// 25 KB, whichever comes first, not counting frontmatter and HTML comments; entries past the cut
// are never seen. AGENTS.md: Codex concatenates the files from the repository root down to the
// working folder and stops at 32 KiB (config.budgets.agentsChain). Other memory files:
// configurable line / byte / token budgets (config.budgets.default, per format
// config.budgets.formats, per glob config.budgets.files), and a hard error over
// config.budgets.errorBytes (4 MiB: Claude Code skips the file).
import picomatch from 'picomatch';
import type { Budget } from '../config/types.js';
import type { Check, CheckContext, Entry, Finding, MemoryFile } from '../types.js';

export interface LoadedCut {
  /** Character offset where loading stops (text.length when everything is loaded). */
  offset: number;
  /** 1-based line holding the cut, or 0 when nothing is cut. */
  line: number;
  /** Which limit cut it. */
  by: 'lines' | 'bytes' | null;
  countedLines: number;
  countedBytes: number;
}

const FM_RE = /^(?:\uFEFF)?---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** Where Claude Code stops reading a MEMORY.md, given line and byte limits. */
export function loadedCut(file: Pick<MemoryFile, 'text' | 'frontmatterRange'>, limit: Budget): LoadedCut {
  const text = file.text;
  const maxLines = limit.lines ?? Infinity;
  const maxBytes = limit.bytes ?? Infinity;
  let pos = 0;
  if (file.frontmatterRange && file.frontmatterRange[0] === 0) {
    pos = file.frontmatterRange[1];
    if (text[pos] === '\r') pos++;
    if (text[pos] === '\n') pos++;
  } else {
    const m = FM_RE.exec(text);
    if (m) pos = m[0].length;
  }
  let inComment = false;
  let lines = 0;
  let bytes = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl + 1;
    const raw = text.slice(pos, end);
    // strip HTML comment parts of the line, tracking multi-line comments
    let visible = '';
    let i = 0;
    while (i < raw.length) {
      if (inComment) {
        const close = raw.indexOf('-->', i);
        if (close === -1) {
          i = raw.length;
        } else {
          inComment = false;
          i = close + 3;
        }
      } else {
        const open = raw.indexOf('<!--', i);
        if (open === -1) {
          visible += raw.slice(i);
          i = raw.length;
        } else {
          visible += raw.slice(i, open);
          inComment = true;
          i = open + 4;
        }
      }
    }
    const hadComment = visible.length !== raw.length;
    const counts = !(hadComment && visible.trim() === '');
    if (counts) {
      if (lines + 1 > maxLines) return { offset: pos, line: lineOf(text, pos), by: 'lines', countedLines: lines, countedBytes: bytes };
      const b = Buffer.byteLength(visible, 'utf8');
      if (bytes + b > maxBytes) {
        // cut inside this line, at the last character that still fits
        let room = maxBytes - bytes;
        let k = 0;
        const chars = [...raw];
        let off = pos;
        while (k < chars.length) {
          const cb = Buffer.byteLength(chars[k], 'utf8');
          if (cb > room) break;
          room -= cb;
          off += chars[k].length;
          k++;
        }
        return { offset: off, line: lineOf(text, off), by: 'bytes', countedLines: lines, countedBytes: bytes };
      }
      lines++;
      bytes += b;
    }
    pos = end;
  }
  return { offset: text.length, line: 0, by: null, countedLines: lines, countedBytes: bytes };
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function fmtBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KB`;
  return `${n} bytes`;
}

const matchers = new Map<string, (p: string) => boolean>();
function budgetFor(file: MemoryFile, ctx: CheckContext): { budget: Budget; matched: boolean } {
  const b = ctx.config.budgets;
  const out: Budget = { ...(file.format === 'auto-memory-index' ? b.memoryIndex : (b.formats?.[file.format] ?? b.default)) };
  let matched = false;
  for (const [glob, budget] of Object.entries(b.files ?? {})) {
    let m = matchers.get(glob);
    if (!m) {
      m = picomatch(glob, { dot: true, basename: !glob.includes('/') });
      matchers.set(glob, m);
    }
    if (m(file.path)) {
      Object.assign(out, budget);
      matched = true;
    }
  }
  return { budget: out, matched };
}

/** The entries of `files`, by file path, in order. */
function entriesByFile(entries: Entry[], files: MemoryFile[]): Map<string, Entry[]> {
  const byFile = new Map<string, Entry[]>(files.map((f) => [f.path, []]));
  for (const e of entries) byFile.get(e.file)?.push(e);
  return byFile;
}

export function findBudget(ctx: CheckContext): Finding[] {
  const out: Finding[] = agentsChainFindings(ctx);
  /** The entries of MEMORY.md files, by file: grouped once one is cut (most runs have no cut). */
  let indexEntries: Map<string, Entry[]> | undefined;
  const errorBytes = ctx.config.budgets.errorBytes ?? 4 * 1024 * 1024;
  for (const file of ctx.files) {
    const { budget, matched } = budgetFor(file, ctx);
    if (file.bytes > errorBytes) {
      out.push({
        entryId: null,
        file: file.path,
        line: 1,
        kind: 'budget',
        severity: 'error',
        message: `${file.path} is ${fmtBytes(file.bytes)}, over the ${fmtBytes(errorBytes)} limit at which Claude Code skips the file; split it or prune it.`,
        evidence: { now: errorBytes, limit: 'bytes', actual: file.bytes },
      });
      continue;
    }
    if (file.format === 'auto-memory-index') {
      const cut = loadedCut(file, budget);
      if (!cut.by) continue;
      indexEntries ??= entriesByFile(ctx.entries, ctx.files.filter((f) => f.format === 'auto-memory-index'));
      const entries = (indexEntries.get(file.path) ?? []).filter((e) => e.end > cut.offset);
      const limitText = cut.by === 'lines' ? `${budget.lines} lines` : fmtBytes(budget.bytes ?? 0);
      out.push({
        entryId: null,
        file: file.path,
        line: cut.line,
        kind: 'budget',
        severity: 'warning',
        message: `Claude Code stops reading ${file.path} at line ${cut.line} (${limitText}, frontmatter and comments not counted), so ${entries.length} entr${entries.length === 1 ? 'y is' : 'ies are'} never seen; move detail into topic files or prune the index.`,
        evidence: { now: cut.by === 'lines' ? budget.lines : budget.bytes, limit: cut.by, cutLine: cut.line, unseen: entries.length },
      });
      for (const e of entries) {
        const partial = e.start < cut.offset;
        out.push({
          entryId: e.id,
          file: e.file,
          line: e.line,
          kind: 'budget',
          severity: 'warning',
          message: partial
            ? `This entry is cut off at line ${cut.line}, where Claude Code stops reading ${file.path}; shorten the index above it or move this entry up.`
            : `This entry is past line ${cut.line}, where Claude Code stops reading ${file.path}, so the agent never sees it; move it up or into a topic file.`,
          evidence: { now: cut.by === 'lines' ? budget.lines : budget.bytes, limit: cut.by, cutLine: cut.line, unseen: true, partial },
        });
      }
      continue;
    }
    // topic files are read on demand: only an explicit budgets.files glob gives them a budget
    if (file.format === 'auto-memory-topic' && !matched) continue;
    const over: string[] = [];
    const ev: Record<string, unknown> = {};
    if (budget.lines !== undefined && file.lines > budget.lines) {
      over.push(`${file.lines} lines (budget ${budget.lines})`);
      ev.now = budget.lines;
      ev.limit = 'lines';
    }
    if (budget.bytes !== undefined && file.bytes > budget.bytes) {
      over.push(`${fmtBytes(file.bytes)} (budget ${fmtBytes(budget.bytes)})`);
      ev.now ??= budget.bytes;
      ev.limit ??= 'bytes';
    }
    if (budget.tokens !== undefined && file.tokens > budget.tokens) {
      over.push(`${file.tokens} tokens (budget ${budget.tokens})`);
      ev.now ??= budget.tokens;
      ev.limit ??= 'tokens';
    }
    if (!over.length) continue;
    out.push({
      entryId: null,
      file: file.path,
      line: budget.lines !== undefined && file.lines > budget.lines ? budget.lines + 1 : 1,
      kind: 'budget',
      severity: 'warning',
      message: `${file.path} is ${over.join(', ')} and ${loadedWhen(file)}; prune it or move detail into files loaded on demand.`,
      evidence: { ...ev, lines: file.lines, bytes: file.bytes, tokens: file.tokens },
    });
  }
  return out;
}

/** A frontmatter list as one string (`globs: [a, b]` -> `a, b`). */
function listText(v: unknown): string {
  return Array.isArray(v) ? v.map(String).join(', ') : typeof v === 'string' ? v.trim() : '';
}

/**
 * When a file over its budget is in the agent's context, for the budget message: a rule scoped by
 * its frontmatter (Cursor `globs:` without `alwaysApply: true`, Copilot `applyTo:` other than
 * `**`, `.claude/rules` `paths:`) whenever files it matches are; a Cursor rule with neither when
 * the agent picks it by its description or it is mentioned; a CLAUDE.md / AGENTS.md / GEMINI.md
 * below the root when the agent works in its folder; any other file in every session.
 */
function loadedWhen(file: MemoryFile): string {
  const fm = file.frontmatter ?? {};
  const scoped = (g: string) => `is loaded whenever files matching \`${g}\` are in context`;
  if (file.format === 'cursor-rule' && file.path.endsWith('.mdc') && fm.alwaysApply !== true) {
    const g = listText(fm.globs);
    if (g) return scoped(g);
    return fm.description ? 'is loaded whenever the agent picks it by its description' : 'is loaded whenever it is mentioned';
  }
  const applyTo = listText(fm.applyTo);
  if (file.format === 'copilot' && applyTo && applyTo !== '**' && applyTo !== '**/*') return scoped(applyTo);
  const paths = listText(fm.paths);
  if (paths) return scoped(paths);
  const dir = dirOf(file.path);
  if ((file.format === 'claude-md' || file.format === 'agents-md' || file.format === 'gemini-md') && dir !== '' && dir !== '.claude')
    return `is loaded whenever the agent works in \`${dir}/\``;
  return 'is loaded into every session';
}

// ------------------------------------------------------------------ AGENTS.md as Codex loads it

/** The names Codex looks for in each folder, first found wins (codex-rs project_doc.rs). */
const CODEX_NAMES = ['AGENTS.override.md', 'AGENTS.md'];

const dirOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** The character offset in `text` where its UTF-8 encoding reaches `bytes` (a character split by the cut is not read whole: the cut is before it). */
function byteOffset(text: string, bytes: number): number {
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : 3;
    if (used + size > bytes) return i;
    used += size;
    if (size === 4) i++;
  }
  return text.length;
}

/**
 * Codex reads, for the folder it works in, one instruction file per folder from the repository
 * root down (`AGENTS.override.md` before `AGENTS.md`), concatenated, and stops after
 * `project_doc_max_bytes` (32 KiB by default) of raw file bytes; a file of only whitespace uses
 * none. A file is therefore cut where the files above it leave no more room: past that line the
 * agent never sees it, whatever its own size. One finding per cut file, at the cut line.
 */
function agentsChainFindings(ctx: CheckContext): Finding[] {
  const limit = ctx.config.budgets.agentsChain?.bytes;
  if (!limit) return [];
  // The file Codex reads in each folder (only repository files: the chain starts at the root).
  const chosen = new Map<string, MemoryFile>();
  for (const f of ctx.files) {
    if (f.format !== 'agents-md' || f.path.startsWith('/') || f.path.startsWith('../')) continue;
    const base = f.path.slice(f.path.lastIndexOf('/') + 1);
    const rank = CODEX_NAMES.indexOf(base);
    if (rank < 0) continue;
    const dir = dirOf(f.path);
    const cur = chosen.get(dir);
    if (!cur || rank < CODEX_NAMES.indexOf(cur.path.slice(cur.path.lastIndexOf('/') + 1))) chosen.set(dir, f);
  }
  if (!chosen.size) return [];
  const out: Finding[] = [];
  let byFile: Map<string, Entry[]> | undefined;
  for (const [dir, file] of chosen) {
    // The files above, root first, that count against the budget.
    const above: MemoryFile[] = [];
    const parts = dir ? dir.split('/') : [];
    for (let k = 0; k < parts.length; k++) {
      const f = chosen.get(parts.slice(0, k).join('/'));
      if (f && f.text.trim()) above.push(f);
    }
    const used = above.reduce((n, f) => n + f.bytes, 0);
    const room = Math.max(0, limit - used);
    if (file.bytes <= room || !file.text.trim()) continue;
    const offset = byteOffset(file.text, room);
    const line = lineOf(file.text, offset);
    byFile ??= entriesByFile(ctx.entries, [...chosen.values()]);
    const unseen = (byFile.get(file.path) ?? []).filter((e) => e.end > offset).length;
    const aboveText = above.length ? ` after the files above it (${above.map((f) => `${f.path}: ${fmtBytes(f.bytes)}`).join(', ')})` : '';
    const entries = `${unseen} entr${unseen === 1 ? 'y is' : 'ies are'} never seen`;
    const message = room === 0
      ? `Codex never reads ${file.path}: it stops at ${fmtBytes(limit)} of AGENTS.md (project_doc_max_bytes), used up by the files above it (${above.map((f) => `${f.path}: ${fmtBytes(f.bytes)}`).join(', ')}), so ${entries}; shorten those or move detail into files read on demand.`
      : `Codex stops reading ${file.path} at line ${line}: it reads at most ${fmtBytes(limit)} of AGENTS.md (project_doc_max_bytes)${aboveText}, so ${entries}; move detail into files read on demand, or raise project_doc_max_bytes and set budgets.agentsChain to match.`;
    out.push({
      entryId: null,
      file: file.path,
      line,
      kind: 'budget',
      severity: 'warning',
      message,
      evidence: { now: limit, limit: 'bytes', cutLine: line, unseen, bytesAbove: used },
    });
  }
  return out;
}

export const budgetCheck: Check = {
  needs: 'memory',
  id: 'budget',
  kinds: ['budget'],
  severity: 'warning',
  description:
    "What the agent loads: MEMORY.md's first 200 lines or 25 KB (frontmatter and HTML comments not counted; entries past the cut are never seen), Codex's 32 KiB of AGENTS.md from the root down, and line / byte / token budgets for the other memory files.",
  run: findBudget,
};
