// `memory-audit restore <id>`: puts an archived entry back. `id` is an entry id (e_…) or an archive
// record id (a_…). The entry's companions from the same prune come back with it: the index line of
// a topic file (and the topic of an index line), headings of sections the prune emptied, links it
// unlinked. Where the original place moved, the entry goes after the line that preceded it, else
// at the end of its old section (same heading), else at the end of the file (heading recreated).
import path from 'node:path';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/types.js';
import { parseArchive, type ArchiveRecord } from '../apply/archive.js';
import { readMemoryOrNull, readOrNull, unifiedDiff, writeMemory } from '../apply/index.js';
import { archivePath } from '../apply/paths.js';
import { redactSecrets } from '../report/redact.js';

export interface RestoreOptions {
  root: string;
  id: string;
  config?: Config;
  configPath?: string;
  /** Default true; false = compute the diff only. */
  write?: boolean;
}

export interface RestoreResult {
  restored: Array<{ file: string; line: number }>;
  /**
   * Records of the selection that were not put back, each with why: already restored, or the
   * text it needs is gone (edited since). Restore is done when `restored` is not empty.
   */
  skipped: Array<{ id: string; file: string; line: number; reason: string }>;
  diff: string;
  /** Problems met on the way (corrupt archive lines as `file:line`, records refused); restore went on. */
  warnings: string[];
}

/** The records to put back for `id`: its own (latest prune) and, transitively, their companions. */
export function selectRecords(all: ArchiveRecord[], id: string): ArchiveRecord[] {
  const direct = all.filter((r) => r.id === id || r.entryId === id);
  if (!direct.length) return [];
  const date = direct.map((r) => r.date).sort().pop()!;
  const sameRun = all.filter((r) => r.date === date);
  const chosen = new Set(direct.filter((r) => r.date === date));
  let grew = true;
  while (grew) {
    grew = false;
    const ids = new Set([...chosen].map((r) => r.entryId));
    const groups = new Set([...chosen].flatMap((r) => r.group ?? []));
    for (const r of sameRun) {
      if (chosen.has(r)) continue;
      // Relinks come back only with the topic they pointed at; headings and <details> ends with their members;
      // index lines and topics with each other.
      const linked =
        (r.group ?? []).some((g) => ids.has(g)) ||
        (r.kind !== 'link' && r.kind !== 'heading' && r.kind !== 'details' && r.kind !== 'details-end' && groups.has(r.entryId));
      if (linked) {
        chosen.add(r);
        grew = true;
      }
    }
  }
  // Containers before their contents (a member's anchor is the line above it: a heading, a
  // `<summary>`); a `</details>` after them (its anchor is the last member's last line).
  const rank = (r: ArchiveRecord) =>
    r.fileDeleted ? 0 : r.kind === 'heading' || r.kind === 'details' ? 1 : r.kind === 'details-end' ? 2.5 : r.replacement !== undefined ? 3 : 2;
  return [...chosen].sort(
    (a, b) => rank(a) - rank(b) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line,
  );
}

function splitLines(text: string): string[] {
  const out = text.split(/(?<=\n)/);
  return out.length === 1 && out[0] === '' ? [] : out;
}

const bare = (l: string) => l.replace(/\r?\n$/, '');

/**
 * Other forms an anchor line may have now: the same line as rewritten by an update or a relink of
 * the same prune (from the archive records), so restores work in any order.
 */
export type Alternates = Map<string, string[]>;

export function anchorAlternates(records: ArchiveRecord[], file: string): Alternates {
  const out: Alternates = new Map();
  for (const rec of records) {
    if (rec.file !== file || rec.replacement === undefined) continue;
    const from = rec.text.split('\n').map((l) => l.replace(/\r$/, ''));
    const to = rec.replacement.split('\n').map((l) => l.replace(/\r$/, ''));
    if (!to.length) continue;
    from.forEach((l, k) => {
      const alt = to[Math.min(k, to.length - 1)];
      if (alt === l) return;
      const list = out.get(l) ?? [];
      if (!list.includes(alt)) list.push(alt);
      out.set(l, list);
    });
  }
  return out;
}

/** Whether a line of the file is the anchor: equal, or equal once redacted (anchors are stored redacted). */
function sameLine(line: string, needle: string): boolean {
  return line === needle || (needle.includes('[REDACTED:') && redactSecrets(line) === needle);
}

/** Inserts a removed block back; returns the new text and the 1-based line where it starts. */
/**
 * The 0-based index of the last line, in `lines`, of the latest block that is back in the file
 * among `siblings` (removed blocks of the same prune and file) that stood before `r`; -1 if none.
 */
function lastBefore(lines: string[], bodyStart: number, r: ArchiveRecord, siblings: ArchiveRecord[], eol: string): number {
  const before = siblings.filter((o) => o !== r && o.endLine < r.line && !o.fileDeleted && o.replacement === undefined && o.file === r.file && o.date === r.date);
  if (!before.length) return -1;
  const byText = new Map<string, number[]>();
  for (let i = bodyStart; i < lines.length; i++) {
    const k = bare(lines[i]);
    const l = byText.get(k);
    if (l) l.push(i);
    else byText.set(k, [i]);
  }
  let best = -1;
  for (const o of before) {
    const ol = splitLines(o.lines ?? o.text + eol).map(bare);
    if (!ol.length || /^\s*$/.test(ol[0])) continue;
    for (const i of byText.get(ol[0]) ?? []) {
      if (ol.every((l, k) => lines[i + k] !== undefined && bare(lines[i + k]) === l) && i + ol.length - 1 > best) best = i + ol.length - 1;
    }
  }
  return best;
}

export function reinsert(
  cur: string,
  r: ArchiveRecord,
  alternates: Alternates = new Map(),
  siblings: ArchiveRecord[] = [],
): { text: string; line: number } {
  const lines = splitLines(cur);
  const eol = cur.includes('\r\n') ? '\r\n' : '\n';
  // `lines` are the exact bytes removed: without a line ending when they ended a file that had
  // no final newline (one is added below only where a line follows them).
  let block = r.lines ?? r.text + eol;
  let bodyStart = 0;
  if (/^---\r?\n/.test(cur)) {
    const close = lines.findIndex((l, i) => i > 0 && /^---\s*$/.test(bare(l)));
    if (close > 0) bodyStart = close + 1;
  }
  const findOne = (needle: string): number => {
    let best = -1;
    for (let i = bodyStart; i < lines.length; i++)
      if (sameLine(bare(lines[i]), needle) && (best < 0 || Math.abs(i + 1 - r.line) < Math.abs(best + 1 - r.line))) best = i;
    return best;
  };
  const find = (needle: string | undefined): number => {
    if (needle === undefined) return -1;
    for (const n of [needle, ...(alternates.get(needle) ?? [])]) {
      const at = findOne(n);
      if (at >= 0) return at;
    }
    return -1;
  };
  let after = find(r.prevLine);
  if (after < 0) {
    after = find(r.keptBefore);
    // The line before it is not back yet. Blocks of the same prune that stood before it and are
    // back in the file are nearer to it than the kept line (`keptBefore`): it goes after the
    // last of them in the file, so that records restored in any order (newest first too) keep
    // their original order, also when nothing before them was kept.
    const at = lastBefore(lines, bodyStart, r, siblings, eol);
    if (at > after) after = at;
  }
  // Found next to the line that preceded it (or at the start of the body, where nothing did:
  // no previous line, or none kept by the prune and none restored since): the blank lines around
  // it are put back exactly as they were (below).
  const anchored = after >= 0 || r.prevLine === undefined || r.keptBefore === undefined;
  let heading: string | undefined;
  if (after < 0 && r.headings.length) {
    const h = r.headings[r.headings.length - 1];
    const hi = lines.findIndex((l, i) => i >= bodyStart && /^ {0,3}#{1,6}\s/.test(l) && sameLine(bare(l).replace(/^ {0,3}#{1,6}\s+/, '').replace(/\s+#*\s*$/, ''), h));
    if (hi >= 0) {
      const level = /^ {0,3}(#{1,6})/.exec(lines[hi])![1].length;
      let end = lines.length - 1;
      for (let i = hi + 1; i < lines.length; i++) {
        const m = /^ {0,3}(#{1,6})\s/.exec(lines[i]);
        if (m && m[1].length <= level) {
          end = i - 1;
          break;
        }
      }
      while (end > hi && /^\s*$/.test(lines[end])) end--;
      after = end;
    } else heading = `${'#'.repeat(Math.min(6, Math.max(1, r.headings.length)))} ${h}${eol}`;
  }
  let at: number;
  if (after >= 0) at = after + 1;
  else if ((r.prevLine === undefined || r.keptBefore === undefined) && !heading) at = bodyStart;
  else at = lines.length;
  const blockLines = splitLines(block).map(bare);
  const inPlace = (start: number) => start >= 0 && blockLines.every((l, k) => lines[start + k] !== undefined && bare(lines[start + k]) === l);
  // The anchor found may be the block's own last line, when the block repeats the line before it
  // (an outer `</details>` after an inner one): it is in place when that line also stands before it.
  const inPlaceAtAnchor = (): boolean => {
    if (after < 0 || !inPlace(after - blockLines.length + 1)) return false;
    let p = after - blockLines.length;
    while (p >= 0 && /^\s*$/.test(lines[p])) p--;
    return p >= 0 && bare(lines[p]) === bare(lines[after]);
  };

  if (anchored && !heading && blockLines.length && !/^\s*$/.test(blockLines[0])) {
    // The blank lines between the anchor and the next non-blank line (`x`) are what the prune
    // left of the block's surroundings: they are replaced by the block with its original blank
    // lines before and after it (`gapBefore`, `gapAfter`: exact bytes). Records restored in any
    // order each set both gaps around themselves, so the last one in gives back the original.
    let x = at;
    while (x < lines.length && /^\s*$/.test(lines[x])) x++;
    // Already restored: the block is the first non-blank text after its anchor.
    if (inPlace(x)) return { text: cur, line: x + 1 };
    if (inPlaceAtAnchor()) return { text: cur, line: after - blockLines.length + 2 };
    const gapBefore = r.gapBefore ?? (r.blankBefore && at > 0 ? eol : '');
    const gapAfter = r.gapAfter ?? (r.blankAfter ? eol : '');
    let body = block;
    const pieces: string[] = [];
    if (x < lines.length) {
      // Something follows: the block needs its line ending (it may have ended a file without one).
      if (!body.endsWith('\n')) body += eol;
      pieces.push(gapBefore, body, gapAfter);
    } else {
      // At the end of the file: as the record says it was. A block that ended the file keeps its
      // blank lines after it and, with no final newline in `lines`, none is added.
      if (!r.last && !body.endsWith('\n')) body += eol;
      pieces.push(gapBefore, body, r.last ? gapAfter : '');
    }
    if (at > 0 && !lines[at - 1].endsWith('\n')) lines[at - 1] += eol;
    lines.splice(at, x - at, ...pieces.filter((p) => p !== ''));
    return { text: lines.join(''), line: at + 1 + splitLines(gapBefore).length };
  }

  // A block that ended a file without a final newline, put back at the end: still none.
  if (!block.endsWith('\n') && !(r.last && at === lines.length)) block += eol;
  if (at === lines.length && lines.length && !lines[lines.length - 1].endsWith('\n')) lines[lines.length - 1] += eol;
  // It had a blank line before it and the anchor is followed by one: go after that blank line.
  if (r.blankBefore && !heading && at > 0 && at < lines.length && /^\s*$/.test(lines[at]) && !/^\s*$/.test(lines[at - 1])) at++;
  const prev = at > 0 ? lines[at - 1] : undefined;
  const next = at < lines.length ? lines[at] : undefined;
  // Already restored: the block's lines follow the anchor (possibly after one blank line).
  if (inPlace(at)) return { text: cur, line: at + 1 };
  if (inPlaceAtAnchor()) return { text: cur, line: after - blockLines.length + 2 };
  const pieces: string[] = [];
  if (heading) {
    if (prev !== undefined && !/^\s*$/.test(prev)) pieces.push(eol);
    pieces.push(heading, eol);
  } else if (r.blankBefore && prev !== undefined && !/^\s*$/.test(prev)) pieces.push(eol);
  pieces.push(block);
  if (r.blankAfter && next !== undefined && !/^\s*$/.test(next)) pieces.push(eol);
  const line = at + 1 + (pieces[0] === eol ? 1 : 0) + (heading ? 1 : 0);
  lines.splice(at, 0, ...pieces);
  return { text: lines.join(''), line };
}

/**
 * The line where an update's or relink's original text stands in `cur` as whole lines (nothing
 * but indentation or blockquote markers before it on its first line, a line ending after it),
 * the occurrence nearest the record's line; undefined when it is nowhere. Only asked once the
 * corrected text is gone: then the original in its place means a restore already happened. (A
 * verbatim copy of the entry elsewhere in the file, which the prune left alone, would count as
 * well; nothing is written either way, only the message and exit code differ.)
 */
export function originalAt(cur: string, r: ArchiveRecord): number | undefined {
  if (r.text === '') return undefined;
  let best: number | undefined;
  for (let i = cur.indexOf(r.text); i >= 0; i = cur.indexOf(r.text, i + 1)) {
    const lineStart = cur.lastIndexOf('\n', i - 1) + 1;
    const end = i + r.text.length;
    if (!/^[ \t>]*$/.test(cur.slice(lineStart, i)) || !/^(?:\r?\n|$)/.test(cur.slice(end, end + 2))) continue;
    const line = cur.slice(0, i).split('\n').length;
    if (best === undefined || Math.abs(line - r.line) < Math.abs(best - r.line)) best = line;
  }
  return best;
}

export async function runRestore(opts: RestoreOptions): Promise<RestoreResult> {
  const root = path.resolve(opts.root);
  const config = opts.config ?? (await loadConfig(root, opts.configPath));
  const arch = archivePath(config);
  const archText = await readOrNull(path.resolve(root, arch));
  if (archText === null) throw new Error(`no archive at ${arch}: nothing has been pruned here`);
  const parsed = parseArchive(archText);
  const warnings = parsed.problems.map((p) => `${arch}:${p.line}: ${p.message}; skipped`);
  const records = selectRecords(parsed.records, opts.id);
  if (!records.length) throw new Error(`${opts.id} is not in ${arch} (give an entry id e_… or an archive record id a_…)`);

  // Memory files are handled as the reader sees them: without a byte order mark (prune's lines
  // and anchors are BOM-less), which goes back in front when the file is written.
  const before = new Map<string, string | null>();
  const now = new Map<string, string | null>();
  const bom = new Map<string, boolean>();
  const get = async (file: string) => {
    if (!now.has(file)) {
      const t = await readMemoryOrNull(path.resolve(root, file));
      before.set(file, t?.text ?? null);
      now.set(file, t?.text ?? null);
      bom.set(file, t?.bom ?? false);
    }
    return now.get(file)!;
  };
  const restored: RestoreResult['restored'] = [];
  const skipped: RestoreResult['skipped'] = [];
  const skip = (r: ArchiveRecord, reason: string) => skipped.push({ id: r.id, file: r.file, line: r.line, reason });
  const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;
  // Removed blocks of the same prune, per file and date (restore anchors: see lastBefore).
  const siblingMap = new Map<string, ArchiveRecord[]>();
  for (const o of parsed.records) {
    if (o.fileDeleted || o.replacement !== undefined) continue;
    const k = `${o.date}\u0000${o.file}`;
    const l = siblingMap.get(k);
    if (l) l.push(o);
    else siblingMap.set(k, [o]);
  }
  const siblingsOf = (r: ArchiveRecord) => siblingMap.get(`${r.date}\u0000${r.file}`) ?? [];
  for (const r of records) {
    // Prune names files repository-relative (or absolute, for memory outside the repository); a
    // relative path leading out is not something prune wrote.
    if (/^\.\.(?:[\\/]|$)/.test(path.posix.normalize(r.file.replace(/\\/g, '/')))) {
      warnings.push(`${arch}: record ${r.id} names ${r.file}, outside the repository; not restored`);
      continue;
    }
    const cur = await get(r.file);
    if (r.fileDeleted) {
      const whole = r.lines ?? r.text;
      if (cur === null) {
        now.set(r.file, whole);
        // A record written with the file's byte order mark noted gets it back.
        if ((r as ArchiveRecord & { bom?: boolean }).bom === true) bom.set(r.file, true);
        restored.push({ file: r.file, line: 1 });
      } else if (cur === whole) skip(r, `already restored: ${r.file} is back in place`);
      else skip(r, `${r.file} exists again with other content; not overwritten`);
      continue;
    }
    if (r.replacement !== undefined) {
      // An update or a relink: swap the new text back for the original (the occurrence nearest
      // to where it was).
      if (cur === null) {
        skip(r, `${r.file} no longer exists`);
        continue;
      }
      let best = -1;
      for (let i = cur.indexOf(r.replacement); i >= 0; i = cur.indexOf(r.replacement, i + 1)) {
        if (best < 0 || Math.abs(lineAt(cur, i) - r.line) < Math.abs(lineAt(cur, best) - r.line)) best = i;
      }
      if (best < 0) {
        // The same prune may have removed the corrected line afterwards (a merge, a delete):
        // unless the original is back already, that record has to come back first.
        const replacement = r.replacement;
        // The original is back in place: restored before (by this command, or by hand). Restoring
        // twice is not an error (exit 0), as for removed lines.
        const back = originalAt(cur, r);
        if (back !== undefined) {
          skip(r, `already restored: the original text is back in place (line ${back})`);
          continue;
        }
        const by = !cur.includes(r.text) && parsed.records.find(
          (o) => o !== r && o.date === r.date && o.file === r.file && o.replacement === undefined && !o.fileDeleted && (o.lines ?? o.text).includes(replacement),
        );
        skip(
          r,
          by
            ? `its corrected text is no longer in ${r.file}: the same prune then removed it (${by.id}, ${by.action}); restore ${by.id} first`
            : `its corrected text is no longer in ${r.file}: edited since, or already restored`,
        );
        continue;
      }
      now.set(r.file, cur.slice(0, best) + r.text + cur.slice(best + r.replacement.length));
      restored.push({ file: r.file, line: lineAt(cur, best) });
      continue;
    }
    if (cur !== null && r.kind === 'heading' && splitLines(cur).some((l) => bare(l) === r.text)) {
      skip(r, 'already restored: the heading is back in place');
      continue;
    }
    const res = reinsert(cur ?? '', r, anchorAlternates(parsed.records, r.file), siblingsOf(r));
    if (res.text === cur) {
      skip(r, 'already restored: the lines are back in place');
      continue;
    }
    now.set(r.file, res.text);
    restored.push({ file: r.file, line: res.line });
  }

  const changes = [...now.keys()]
    .sort()
    .map((file) => ({ file, before: before.get(file) ?? null, after: now.get(file) ?? null }))
    .filter((c) => c.before !== c.after);
  if (opts.write !== false) {
    for (const c of changes) await writeMemory(path.resolve(root, c.file), c.after ?? '', bom.get(c.file) ?? false);
  }
  return { restored, skipped, diff: unifiedDiff(changes), warnings };
}
