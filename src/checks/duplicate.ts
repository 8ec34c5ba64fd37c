// duplicate: the same content stored twice ("duplicate drift"), exactly (after normalising case,
// whitespace and markdown) or nearly (MinHash/LSH over word shingles, verified by Jaccard or
// containment). One finding per redundant entry, naming the most complete version to keep:
// a topic file beats a MEMORY.md line, then the longer text wins.
import type { Check, CheckContext, Entry, Finding, MemoryFile } from '../types.js';
import { contextFolders } from '../memory/references.js';
import { conflictingPair, corpusOf, isNearDuplicate } from './fidelity/corpus.js';
import { contentWords, fileMap, indexTargetPath, isAutoMemory, isInstructionFile, scopeOf, scopesOverlap, where } from './fidelity/text.js';
import { claudeMdCopyActive } from './ephemeral.js';

/** An ordered-list item: `3. …` or `3) …`. */
const NUMBERED_STEP = /^[ \t]*\d{1,3}[.)][ \t]/;

/** The folder the text around an entry's first path names (nearest first), or undefined. */
function contextOf(e: Entry, file: MemoryFile | undefined): string | undefined {
  const ref = e.refs.find((r) => r.kind === 'path');
  return ref ? contextFolders(e, file, ref.start)[0] : undefined;
}


/** Content words outside code spans. */
function proseWords(text: string): Set<string> {
  return new Set(contentWords(text.replace(/`[^`\n]*`/g, ' ')));
}

/**
 * Two texts whose words outside code share less than a third (each with at least three): the
 * code they share is the subject, not the statement.
 */
function differentProse(a: string, b: string): boolean {
  if (!a.includes('`') && !b.includes('`')) return false;
  const x = proseWords(a);
  const y = proseWords(b);
  if (x.size < 3 || y.size < 3) return false;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared) < 1 / 3;
}

/**
 * A path or file reference: a code span holding one path-like token (`docs/a.md`, `src/x/`,
 * `IFAIRY_*.md`, `Makefile` is not: no slash, no extension), a bare `dir/file` or `name.ext` token,
 * or a link destination.
 */
const POINTER = /`\s*(?:[\w.@~*-]*\/[\w.@~*\/-]*|[\w@*-][\w.@*-]*\.[A-Za-z][A-Za-z0-9]{0,7})\s*`|\]\([^)\s]*\)|(?<![\w`/.@-])(?:[\w.@~-]+\/[\w.@~*\/-]*|[\w@-][\w.@-]*\.(?:md|mdc|mdx|txt|json|ya?ml|toml|ts|tsx|js|jsx|mjs|cjs|py|rs|go|rb|java|kt|swift|c|cc|cpp|h|hpp|cs|php|sh|sql|html|css))(?![\w`/])/g;

/** The pointers of a text, as written (code ticks and link brackets dropped). */
function pointersOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(POINTER)) out.add(m[0].replace(/^[`\]()\s]+|[`)\s]+$/g, '').replace(/^\.\//, '').toLowerCase());
  return out;
}

/**
 * Two entries that share file references (a pointer list — "V2 docs: `a.md`, `b.md`, `c.md`" —
 * and a rule that names the same files) but whose own words, outside code and paths, share less
 * than a third, each side saying something (at least one word): they point at the same files for
 * different reasons, so deleting one loses an index item or a rule. (Like `differentProse` for a
 * shared command, with no minimum size: a list item's label is often one or two words. Two pure
 * lists with no words of their own are the same list twice and stay duplicates.)
 */
function sharedPointersOnly(a: string, b: string): boolean {
  const pa = pointersOf(a);
  if (!pa.size) return false;
  let sharedPointers = 0;
  for (const p of pointersOf(b)) if (pa.has(p)) sharedPointers++;
  if (!sharedPointers) return false;
  const x = new Set(contentWords(a.replace(POINTER, ' ').replace(/`[^`\n]*`/g, ' ')));
  const y = new Set(contentWords(b.replace(POINTER, ' ').replace(/`[^`\n]*`/g, ' ')));
  if (!x.size || !y.size) return false;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared) < 1 / 3;
}

/** Which copy to keep: a topic file, then CLAUDE.md, other instruction files, MEMORY.md lines last; then the longer text. */
function rank(e: Entry, words: number): number {
  const index = e.kind === 'index-line' || e.format === 'auto-memory-index';
  const kindScore = e.kind === 'topic' ? 5 : e.format === 'claude-md' ? 4 : e.format === 'agents-md' ? 3 : 2;
  return (index ? 0 : 1_000_000) + words * 10 + kindScore;
}

export function findDuplicates(ctx: CheckContext): Finding[] {
  const { entries, files } = ctx;
  const corpus = corpusOf(entries, files);
  const fm = fileMap(files);
  const skipCross = claudeMdCopyActive(ctx);

  // pairs we must not call duplicates
  const indexOwn = (a: Entry, b: Entry) => {
    const pair = (x: Entry, y: Entry) =>
      x.kind === 'index-line' && y.kind === 'topic' && indexTargetPath(x, fm.get(x.file)) === y.file;
    return pair(a, b) || pair(b, a);
  };
  // The folder each compared entry is about, once per entry (pairs share entries).
  const folders = new Map<number, string | undefined>();
  const folderOf = (i: number) => {
    if (!folders.has(i)) folders.set(i, contextOf(entries[i], fm.get(entries[i].file)));
    return folders.get(i);
  };
  const allowed = (i: number, j: number) => {
    const a = entries[i];
    const b = entries[j];
    if (corpus.contains(i, j)) return false;
    // In one file, a table row and a prose line are two forms the author chose on purpose: a
    // command table is a reference looked up by name, a numbered step or bullet a procedure read
    // in order. Repeating a command in both is structure, not drift; merging one away would
    // break the table or the sequence. (Across files a copy is still a copy, whatever its form.)
    if (a.file === b.file && (a.kind === 'table-row') !== (b.kind === 'table-row')) return false;
    // A numbered step belongs to its procedure: two procedures of one file that share a step
    // ("8. Add tests", "9. Verify against the reference") each need it to stand alone.
    if (a.file === b.file && (NUMBERED_STEP.test(a.text) || NUMBERED_STEP.test(b.text))) return false;
    // The same words about folders under different parents ("`node/` - Node.js compatibility"
    // under `src/bun.js/` and under `src/js/`) describe two folders.
    if (a.file === b.file) {
      const x = folderOf(i);
      const y = folderOf(j);
      if (x !== undefined && y !== undefined && x !== y) return false;
    }
    // A near match carried by a shared command: what the two say around it differs (a prohibition,
    // a checklist step, an error and its fix that all run the same script).
    if (!corpus.same(i, j) && differentProse(a.text, b.text)) return false;
    // A near match carried by shared file references: an index item and a rule naming the same files.
    if (!corpus.same(i, j) && sharedPointersOnly(a.text, b.text)) return false;
    if (!scopesOverlap(scopeOf(a.file, fm.get(a.file)?.memoryDir), scopeOf(b.file, fm.get(b.file)?.memoryDir))) return false;
    if (!corpus.same(i, j) && conflictingPair(corpus, i, j)) return false;
    if (indexOwn(a, b)) return false;
    if (
      skipCross &&
      ((isAutoMemory(a.format) && isInstructionFile(b.format)) || (isAutoMemory(b.format) && isInstructionFile(a.format)))
    )
      return false; // reported by ephemeral/claude-md-copy instead
    return true;
  };

  // union-find over accepted pairs
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const union = (a: number, b: number) => {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(rb, ra);
  };
  for (const group of corpus.exact)
    for (let x = 0; x < group.length; x++)
      for (let y = x + 1; y < group.length; y++)
        if (allowed(group[x], group[y])) union(group[x], group[y]);
  for (const p of corpus.near) if (isNearDuplicate(p, corpus) && allowed(p.a, p.b)) union(p.a, p.b);

  const clusters = new Map<number, number[]>();
  for (const x of parent.keys()) {
    const r = find(x);
    const l = clusters.get(r);
    if (l) l.push(x);
    else clusters.set(r, [x]);
  }

  const out: Finding[] = [];
  for (const members of clusters.values()) {
    if (members.length < 2) continue;
    members.sort((a, b) => a - b);
    let keep = members[0];
    for (const m of members) {
      const d = rank(entries[m], corpus.wordCount[m]) - rank(entries[keep], corpus.wordCount[keep]);
      if (d > 0) keep = m;
    }
    const k = entries[keep];
    for (const m of members) {
      // Clusters are transitive (two steps of one file, each copied in another file): a member is
      // only reported against the kept entry when that pair itself may be called a duplicate.
      if (m === keep || !allowed(m, keep)) continue;
      const e = entries[m];
      const exact = corpus.same(m, keep);
      const topicWins = k.kind === 'topic' && (e.kind === 'index-line' || e.format === 'auto-memory-index');
      const message = topicWins
        ? `${exact ? 'Repeats' : 'Nearly repeats'} the topic file ${where(k)}; keep the topic file (the fuller version) and delete this line.`
        : exact
          ? `Repeats ${where(k)}; keep that copy and delete this one.`
          : `Nearly repeats ${where(k)}; keep that entry (it is the more complete version) and delete this one.`;
      out.push({
        entryId: e.id,
        file: e.file,
        line: e.line,
        kind: 'duplicate',
        severity: 'warning',
        message,
        evidence: {
          now: k.id,
          file: k.file,
          line: k.line,
          exact,
          similarity: exact ? 1 : Math.round(corpus.sets.similarity(m, keep).jaccard * 100) / 100,
        },
        suggestion: { delete: true },
      });
    }
  }
  return out;
}

export const duplicateCheck: Check = {
  needs: 'memory',
  id: 'duplicate',
  kinds: ['duplicate'],
  severity: 'warning',
  description:
    'Entries that repeat another entry exactly (after normalising case, whitespace and markdown) or nearly (MinHash/LSH over word shingles); names the most complete version to keep.',
  run: findDuplicates,
};
