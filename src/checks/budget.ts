// budget: what the agent actually loads. MEMORY.md: Claude Code reads the first 200 lines or
// 25 KB, whichever comes first, not counting frontmatter and HTML comments; entries past the cut
// are never seen. Other memory files: configurable line / byte / token budgets
// (config.budgets.default, per-glob config.budgets.files), and a hard error over
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
  const out: Budget = { ...(file.format === 'auto-memory-index' ? b.memoryIndex : b.default) };
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
  const out: Finding[] = [];
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
      message: `${file.path} is ${over.join(', ')} and is loaded into every session; prune it or move detail into files loaded on demand.`,
      evidence: { ...ev, lines: file.lines, bytes: file.bytes, tokens: file.tokens },
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
    "What the agent loads: MEMORY.md's first 200 lines or 25 KB (frontmatter and HTML comments not counted; entries past the cut are never seen), and line / byte / token budgets for the other memory files.",
  run: findBudget,
};
