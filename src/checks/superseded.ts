// superseded: a SUPERSEDED record (an entry of type 'superseded', or a text starting with
// "SUPERSEDED <date>") whose `Supersedes:` line names another entry's file (resolved
// against the record's folder and the repository root), its name, or its id; an optional
// `#L12` / `:12` picks the entry holding that line, `#e_<id>` (what prune writes) the entry with that id.
import type { Check, CheckContext, Entry, Finding } from '../types.js';
import { joinPath } from '../memory/refs/paths.js';
import { finding, memDirOf } from './stale-common.js';

const SUPERSEDES = /^[ \t>*-]*\**Supersedes\**\s*:\s*(.+?)\s*$/gim;

const RECORD = /^\s*(?:---[\s\S]*?---\s*)?SUPERSEDED\s+\d{4}-\d{2}-\d{2}/;

function isRecord(e: Entry): boolean {
  // `includes` first: a quick scan that rules out most texts
  return e.type === 'superseded' || (e.text.includes('SUPERSEDED') && RECORD.test(e.text));
}

function targetsOf(value: string): string[] {
  return value
    .split(/\s*(?:,|;|\band\b)\s*/)
    .map((t) => t.trim().replace(/^[`"'[(<]+|[`"')\]>.]+$/g, ''))
    .filter((t) => t && !/^(?:n\/?a|none|-|—)$/i.test(t));
}

export const supersededCheck: Check = {
  needs: 'memory',
  id: 'superseded',
  kinds: ['superseded'],
  severity: 'warning',
  description: 'Entries that a SUPERSEDED record says were abandoned or reversed.',
  run(ctx: CheckContext): Finding[] {
    const out: Finding[] = [];
    const records = new Set(ctx.entries.filter(isRecord));
    if (!records.size) return out;
    const byFile = new Map<string, Entry[]>();
    const byName = new Map<string, Entry[]>();
    const byId = new Map<string, Entry>();
    for (const e of ctx.entries) {
      if (records.has(e)) continue;
      (byFile.get(e.file) ?? byFile.set(e.file, []).get(e.file)!).push(e);
      if (e.meta.name) (byName.get(e.meta.name.toLowerCase()) ?? byName.set(e.meta.name.toLowerCase(), []).get(e.meta.name.toLowerCase())!).push(e);
      byId.set(e.id, e);
    }
    const formatOf = new Map(ctx.files.map((f) => [f.path, f.format]));
    const done = new Set<string>();
    for (const rec of records) {
      SUPERSEDES.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = SUPERSEDES.exec(rec.text))) {
        for (const t of targetsOf(m[1])) {
          const loc = /^(.*?)(?:#(e_[0-9a-f]{8}(?:_\d+)?)|#L(\d+)|:(\d+))?$/.exec(t)!;
          const target = loc[1];
          // `file#e_<id>` (as prune writes it) names one entry: only that one, and nothing once it is gone.
          const anchorId = loc[2];
          const line = Number(loc[3] ?? loc[4] ?? 0);
          let hits: Entry[] = [];
          const id = byId.get(target);
          if (id) hits = [id];
          if (!hits.length) {
            const dir = memDirOf(rec.file);
            const clean = target.replace(/^~\/.*?\/memory\//, '').replace(/^\.\//, '');
            const cands = [joinPath(dir, clean), joinPath('', clean.replace(/^\//, ''))].filter((x): x is string => !!x);
            for (const c of cands) {
              const list = byFile.get(c);
              if (list) {
                hits = list;
                break;
              }
            }
            if (!hits.length && !clean.includes('/')) {
              // A bare file name: a topic file next to the record, or any memory file with that name.
              for (const [p, list] of byFile) if (p.endsWith('/' + clean) || p === clean) hits = hits.concat(list);
            }
            if (!hits.length) hits = byName.get(clean.replace(/\.md$/i, '').toLowerCase()) ?? [];
          }
          if (anchorId) hits = hits.filter((e) => e.id === anchorId);
          if (!hits.length) continue;
          if (line) hits = hits.filter((e) => e.line <= line && line <= e.endLine);
          else if (hits.length > 1 && formatOf.get(hits[0].file) !== 'auto-memory-topic') {
            // A whole CLAUDE.md-like file is too broad: point at the file's first entry only.
            hits = [hits[0]];
          }
          for (const e of hits) {
            const key = `${e.id}\0${rec.file}`;
            if (done.has(key)) continue;
            done.add(key);
            const recLine = rec.line + rec.text.slice(0, m.index).split('\n').length - 1 + (m[0].startsWith('\n') ? 1 : 0);
            out.push(
              finding(
                e, null, 'superseded', 'warning',
                `A SUPERSEDED record (\`${rec.file}\`, line ${recLine}) says this ${e.kind === 'topic' ? 'memory' : 'entry'} was abandoned; delete it or keep it only with a pointer to the record.`,
                { now: rec.file, record: rec.id, target: t },
              ),
            );
          }
        }
      }
    }
    return out;
  },
};
