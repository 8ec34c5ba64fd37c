// duplicate: the same content stored twice ("duplicate drift"), exactly (after normalising case,
// whitespace and markdown) or nearly (MinHash/LSH over word shingles, verified by Jaccard or
// containment). One finding per redundant entry, naming the version to keep: the copy in the file
// loaded in every situation the other is (the wider scope); within one scope the most complete
// (a topic file beats a MEMORY.md line, then the longer text wins). Copies in files neither of
// which is loaded wherever the other is (sibling packages, different globs) are not redundant.
import path from 'node:path';
import type { Check, CheckContext, Entry, Finding, MemoryFile, MemoryFormat } from '../types.js';
import { contextFolders } from '../memory/references.js';
import { formatOf } from '../memory/discover.js';
import { splitGlobList } from '../memory/refs/paths.js';
import { conflictingPair, corpusOf, isNearDuplicate } from './fidelity/corpus.js';
import { baseName, contentWords, dirOf, fileMap, indexTargetPath, isAutoMemory, isInstructionFile, scopeOf, textsOf, where } from './fidelity/text.js';
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

// ------------------------------------------------------------------ instructions and descriptions
//
// `/init` writes a command list ("`./vendor/bin/pint` - Run Laravel Pint for code formatting") and
// then "Important Reminders" that make some of those commands standing rules ("Always run code
// formatting: `./vendor/bin/pint`"). The two share most words, but the reminder says when or
// whether to act, the list item only what the command does: merging the reminder into the
// description loses the instruction.

/** An entry that starts by naming a code span and then says what it is or does: a command list item. */
const DESCRIPTION =
  /^\s*(?:(?:[-*+]|\d{1,3}[.)])\s+)?(?:\*\*|__|\*|_)?`[^`\n]+`(?:\*\*|__|\*|_)?\s*(?:[-–—:=]|->|→|\((?!\s*\)))|^\s*(?:(?:[-*+]|\d{1,3}[.)])\s+)?`[^`\n]+`\s+(?:runs|starts|builds|formats|lints|checks|executes|generates|compiles|installs|launches|serves|creates|does|is)\b/;
/** Words that make a line an instruction: a rule (always, never, must…) or a moment to act (before committing…). */
const DIRECTIVE =
  /\b(?:always|never|must(?:n't| not)?|should(?:n't| not)?|don't|do not|make sure|ensure|remember|required|mandatory|every time|whenever|before (?:committing|commits?|pushing|push|merging|opening|submitting|sending|finishing|every|each|any)|after (?:every|each|any|changing|editing|making|modifying))\b/gi;
/** The first word of an imperative line ("Run …", "Use …"), after a bullet or emphasis. */
const IMPERATIVE =
  /^\s*(?:(?:[-*+]|\d{1,3}[.)])\s+)?(?:\*\*|__|\*|_)?(?:run|use|execute|call|invoke|format|lint|test|check|build|add|keep|avoid|prefer|follow|write|update|install|start|stop|apply|fix|verify|validate|commit|push|create|delete|remove|put|place|wrap|mock|regenerate|rebuild|restart|clear|set|pass|do)\b/i;

// ------------------------------------------------------------------ a command and when to run it
//
// A command list ("- **Codegen tests:** `cd pkg && go test ./codegen/...`") and a trigger rule
// elsewhere ("- Anything in `pkg/codegen/` → run codegen tests: `cd pkg && go test ./codegen/...`")
// share the command and little else: one says what the command is, the other when to run it.

/**
 * A condition the entry sets of its own, read with code spans blanked: a clause opening the entry
 * ("If you change…", "When…", "After editing…", "Before committing…", "Anything in `X` →",
 * "Changes to `X`…"; not a label such as "**When:**"), or a moment to act inside it ("…whenever…",
 * "…before pushing", "…after editing `X`", "…if you touch…").
 */
const TRIGGER =
  /^\s*(?:(?:[-*+]|\d{1,3}[.)])\s+)?(?:\*\*|__|\*|_)?(?:if|when|whenever|once|after|before|upon|anything|any (?:change|edit)s?|changes (?:to|in|under))\b(?![ \t]*(?:\*\*|__|\*|_)?[ \t]*:)|\b(?:whenever|every time|(?:if|when|once|after|before) (?:you |we )?(?:change|changing|edit|editing|modify|modifying|touch|touching|add|adding|update|updating|rename|renaming|remove|removing|delete|deleting|commit|committing|push|pushing|merge|merging|bump|bumping|upgrade|upgrading|release|releasing)\b)/i;
/** An arrow after a condition: a place ("in `pkg/codegen/` →") or a change word ("schema changes ->") before it. */
const ARROW_TRIGGER =
  /(?:\b(?:in|under|to|touch\w*|chang\w*|edit\w*|modif\w*)\s+`[^`\n]*[/.*][^`\n]*`|\b(?:chang\w*|edit\w*|touch\w*|modif\w*|updat\w*|anything))\W{0,4}\s*(?:→|->|=>|⇒)/i;
/** An inline code span. */
const CODE_SPAN = /`([^`\n]+)`/g;
/** The most words of its own (outside code) a command item has: a label ("Codegen tests"), not a rule. */
const LABEL_WORDS = 4;

interface Stance {
  description: boolean;
  imperative: boolean;
  /** The directive words of the entry, lower case. */
  directives: Set<string>;
  /** Whether the entry sets a condition for acting (`TRIGGER`). */
  trigger: boolean;
  /** Its code spans, white space collapsed. */
  code: Set<string>;
  /** How many content words it has outside code spans. */
  ownWords: number;
}

function stanceOf(text: string): Stance {
  const directives = new Set<string>();
  for (const m of text.matchAll(DIRECTIVE)) directives.add(m[0].toLowerCase().replace(/\s+/g, ' '));
  const description = DESCRIPTION.test(text);
  const code = new Set<string>();
  let blanked = text;
  if (text.includes('`')) {
    for (const m of text.matchAll(CODE_SPAN)) code.add(m[1].trim().replace(/\s+/g, ' '));
    blanked = text.replace(CODE_SPAN, ' ');
  }
  const trigger = TRIGGER.test(blanked) || ARROW_TRIGGER.test(text);
  return {
    description,
    imperative: !description && IMPERATIVE.test(text),
    directives,
    trigger,
    code,
    ownWords: code.size ? contentWords(blanked).length : 0,
  };
}

/**
 * Whether one entry is a command item (a command, with at most a short label of its own) and the
 * other runs the same command under a condition the item lacks: "- **Codegen tests:** `go test
 * ./codegen/...`" and "- Anything in `pkg/codegen/` → run codegen tests: `go test ./codegen/...`"
 * are a reference and a trigger rule; deleting either loses what only it says.
 */
function commandAndTrigger(x: Stance, y: Stance): boolean {
  const one = (t: Stance, c: Stance) => {
    if (!t.trigger || c.trigger || !c.code.size || c.ownWords > LABEL_WORDS) return false;
    for (const s of c.code) if (t.code.has(s)) return true;
    return false;
  };
  return one(x, y) || one(y, x);
}

/**
 * Whether one entry is an instruction (a directive word, or an imperative of its own) that the
 * other, a description of the command it names, lacks: "Always run code formatting: `pint`" and
 * "`pint` - Run Laravel Pint for code formatting" are a rule and a reference, neither redundant.
 */
function instructionAndDescription(x: Stance, y: Stance): boolean {
  const one = (i: Stance, d: Stance) => {
    if (!d.description || i.description) return false;
    for (const w of i.directives) if (!d.directives.has(w)) return true;
    return i.imperative && d.directives.size === 0;
  };
  return one(x, y) || one(y, x);
}

// ------------------------------------------------------------------ load scopes
//
// Which copy of a repeated line is redundant depends on where each file is loaded: deleting the
// copy in a file the agent loads everywhere (the root CLAUDE.md, an alwaysApply rule) in favour
// of a file loaded for one folder, one glob or one person loses the line everywhere else. A
// file's load scope is a union of atoms (an imported file is loaded wherever any importer is).

/** One way a memory file gets loaded. */
interface LoadAtom {
  /** The folder whose sessions load it ('' = the whole repository). */
  dir: string;
  /** Repository-relative globs it is limited to (Cursor `globs`, Copilot `applyTo`, .claude/rules `paths`); none = every file under `dir`. */
  globs?: string[];
  /** Loaded only when asked for (a Cursor rule with neither `alwaysApply` nor `globs`, Copilot instructions without `applyTo`): its path. */
  onDemand?: string;
  /** Loaded for one person only: CLAUDE.local.md (git-ignored), memory kept outside the repository. */
  personal: boolean;
  /** Outside the repository and not this project's auto memory (`~/.claude/CLAUDE.md`): loaded in other projects too; its path. */
  foreign?: string;
}
export type LoadScope = LoadAtom[];

/** Globs that name every file: the rule is not limited at all. */
const EVERY_FILE = new Set(['**', '**/*', '**/**', '/**', '/**/*']);

/** The globs of a frontmatter value (a list, or Cursor's / Copilot's comma-separated string), from the repository root. */
function globList(v: unknown, dir: string): string[] | undefined {
  const raw = Array.isArray(v) ? v.map(String) : typeof v === 'string' ? splitGlobList(v) : [];
  const out: string[] = [];
  for (const r of raw) {
    let g = r.trim().replace(/^["']|["']$/g, '').trim();
    const neg = g.startsWith('!');
    if (neg) g = g.slice(1).trimStart();
    g = g.replace(/^\.\//, '').replace(/^\//, '');
    if (!g) continue;
    // A rule limited to every file is not limited (a negation still narrows it).
    if (!neg && EVERY_FILE.has(g)) return undefined;
    out.push((neg ? '!' : '') + (dir ? `${dir}/${g}` : g));
  }
  return out.length ? out : undefined;
}

/** The scope of one file, by its own name and frontmatter (imports aside). */
function ownAtom(file: string, f: MemoryFile | undefined, format: MemoryFormat): LoadAtom {
  const memoryDir = f?.memoryDir;
  const auto = isAutoMemory(format);
  const outside = file.startsWith('/') || (memoryDir?.startsWith('/') ?? false);
  // A file outside the repository other than this project's auto memory (user memory) also
  // serves other projects: nothing in this repository stands in for it.
  if (outside && !auto) return { dir: '', personal: true, foreign: file };
  const dir = scopeOf(file, memoryDir);
  const personal = outside || baseName(file) === 'CLAUDE.local.md';
  const fm = f?.frontmatter;
  if (format === 'cursor-rule' && file.endsWith('.mdc')) {
    // Cursor: `alwaysApply: true` is loaded in every chat; otherwise `globs` limit it; a rule
    // with neither is only loaded when the agent or the user asks for it.
    if (fm?.alwaysApply === true) return { dir, personal };
    const globs = globList(fm?.globs, dir);
    return globs ? { dir, globs, personal } : { dir, onDemand: file, personal };
  }
  if (format === 'copilot' && file.endsWith('.instructions.md')) {
    // Copilot path-specific instructions apply to the files `applyTo` matches (from the root).
    const globs = fm && Object.prototype.hasOwnProperty.call(fm, 'applyTo') ? globList(fm.applyTo, dir) : [];
    if (globs === undefined) return { dir, personal };
    return globs.length ? { dir, globs, personal } : { dir, onDemand: file, personal };
  }
  if (file.includes('.claude/rules/')) {
    // .claude/rules: `paths` limit a rule to matching files; without it the rule loads with CLAUDE.md.
    const globs = globList(fm?.paths, dir);
    return globs ? { dir, globs, personal } : { dir, personal };
  }
  return { dir, personal };
}

/** Whether glob `a` matches every path glob `b` matches (decided on the text: equal, `P/**` over `P/…`, `** /X` over `…/X`). */
function globCovers(a: string, b: string): boolean {
  if (a.startsWith('!')) return false;
  if (a === b) return true;
  const under = /^(.*)\/\*\*(?:\/\*)?$/.exec(a);
  if (under && b.startsWith(under[1] + '/')) return true;
  const anywhere = /^\*\*\/([^/]+)$/.exec(a);
  return !!anywhere && (b === anywhere[1] || b.endsWith('/' + anywhere[1]));
}

/** Whether atom `a` is loaded in every situation atom `b` is. */
function atomContains(a: LoadAtom, b: LoadAtom): boolean {
  // User memory loads in every session of its owner, here and in other projects; nothing in the
  // repository is loaded wherever it is.
  if (a.foreign !== undefined) return b.personal;
  if (b.foreign !== undefined) return false;
  // A personal file is loaded for one person; a shared one for everyone.
  if (a.personal && !b.personal) return false;
  if (a.onDemand !== undefined) return a.onDemand === b.onDemand;
  if (!(a.dir === '' || b.dir === a.dir || b.dir.startsWith(a.dir + '/'))) return false;
  if (!a.globs) return true;
  // A negation narrows the rule in ways the text cannot compare: only the same list contains it.
  if (a.globs.some((g) => g.startsWith('!'))) return !!b.globs && b.globs.join('\0') === a.globs.join('\0');
  if (b.globs) return b.globs.every((g) => g.startsWith('!') || a.globs!.some((x) => globCovers(x, g)));
  // `b` applies to its whole folder: `a` must cover that folder (`crates/x/**` over `crates/x`).
  return a.globs.some((x) => {
    const under = /^(.*)\/\*\*(?:\/\*)?$/.exec(x);
    return !!under && (b.dir === under[1] || b.dir.startsWith(under[1] + '/'));
  });
}

/** Whether scope `a` is loaded in every situation scope `b` is. */
export function scopeContains(a: LoadScope, b: LoadScope): boolean {
  return b.every((y) => a.some((x) => atomContains(x, y)));
}

/**
 * The load scope of every file holding one of `entries`: its own atom, plus the scopes of the
 * files importing it (`@path` in CLAUDE.md-style and GEMINI.md files, relative to the importing
 * file); a file that is memory only through imports has only those. Once per audit.
 */
export function loadScopes(entries: readonly Entry[], files: readonly MemoryFile[]): (file: string) => LoadScope {
  const fm = new Map(files.map((f) => [f.path, f]));
  const formats = new Map<string, MemoryFormat>();
  for (const f of files) formats.set(f.path, f.format);
  const importers = new Map<string, Set<string>>();
  for (const e of entries) {
    if (!formats.has(e.file)) formats.set(e.file, e.format);
    if (e.file.startsWith('/') || (e.format !== 'claude-md' && e.format !== 'gemini-md' && e.format !== 'other')) continue;
    for (const r of e.refs) {
      if (r.kind !== 'import' || !r.raw.startsWith('@')) continue;
      const t = r.raw.slice(1);
      if (t.startsWith('~') || t.startsWith('/')) continue;
      const target = path.posix.normalize(path.posix.join(dirOf(e.file), t));
      if (target.startsWith('../') || target === e.file) continue;
      const s = importers.get(target);
      if (s) s.add(e.file);
      else importers.set(target, new Set([e.file]));
    }
  }
  const memo = new Map<string, LoadScope>();
  const scopeOfFile = (file: string, depth: number): LoadScope => {
    const known = memo.get(file);
    if (known) return known;
    const f = fm.get(file);
    const format = formats.get(file) ?? 'other';
    // A file with a memory name (or in an auto-memory folder) is loaded on its own account.
    const named = file.startsWith('/') || formatOf(file, f?.memoryDir !== undefined) !== undefined;
    const from = importers.get(file);
    if (!from || depth > 5) {
      const own = [ownAtom(file, f, format)];
      memo.set(file, own);
      return own;
    }
    memo.set(file, [ownAtom(file, f, format)]); // a cycle meets the file's own scope
    const out: LoadScope = named ? [ownAtom(file, f, format)] : [];
    for (const imp of from) for (const a of scopeOfFile(imp, depth + 1)) out.push(a);
    const scope = out.length ? out : [ownAtom(file, f, format)];
    memo.set(file, scope);
    return scope;
  };
  return (file) => scopeOfFile(file, 0);
}

/** Which agent loads a format: copies for different agents are reported, never merged (decide). */
function agentOf(format: MemoryFormat): string {
  return format === 'auto-memory-index' || format === 'auto-memory-topic' ? 'claude-md' : format;
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
  const scopeOfFile = loadScopes(entries, files);
  // How the scopes of two entries' files compare, once per pair of files.
  const relations = new Map<string, 'same' | 'wider' | 'narrower' | 'apart'>();
  const relation = (i: number, j: number): 'same' | 'wider' | 'narrower' | 'apart' => {
    const a = entries[i].file;
    const b = entries[j].file;
    if (a === b) return 'same';
    const key = `${a}\0${b}`;
    let r = relations.get(key);
    if (r === undefined && (isAutoMemory(entries[i].format) || isAutoMemory(entries[j].format))) {
      // Auto memory is loaded in every session of its project; against instruction files it keeps
      // its documented comparison (files loaded together; the fuller copy wins, a topic file over
      // a MEMORY.md line). By default ephemeral/claude-md-copy reports its copies of CLAUDE.md.
      const sa = scopeOf(a, fm.get(a)?.memoryDir);
      const sb = scopeOf(b, fm.get(b)?.memoryDir);
      r = sa === sb || sa === '' || sb === '' || sa.startsWith(sb + '/') || sb.startsWith(sa + '/') ? 'same' : 'apart';
      relations.set(key, r);
    }
    if (r === undefined) {
      const x = scopeOfFile(a);
      const y = scopeOfFile(b);
      const ab = scopeContains(x, y);
      const ba = scopeContains(y, x);
      r = ab && ba ? 'same' : ab ? 'wider' : ba ? 'narrower' : 'apart';
      // Another agent never loads the file (AGENTS.md is not Claude's): which one is loaded more
      // widely means nothing across agents; such copies are reported, never merged (decide).
      if ((r === 'wider' || r === 'narrower') && agentOf(entries[i].format) !== agentOf(entries[j].format)) r = 'same';
      relations.set(key, r);
    }
    return r;
  };

  // pairs we must not call duplicates
  const indexOwn = (a: Entry, b: Entry) => {
    const pair = (x: Entry, y: Entry) =>
      x.kind === 'index-line' && y.kind === 'topic' && indexTargetPath(x, fm.get(x.file)) === y.file;
    return pair(a, b) || pair(b, a);
  };
  // Whether each compared entry describes a command or instructs, once per entry (pairs share entries).
  const texts = textsOf(entries);
  const stances = new Map<number, Stance>();
  const stance = (i: number) => {
    let st = stances.get(i);
    if (!st) stances.set(i, (st = stanceOf(texts.proseWithOffsets(i))));
    return st;
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
    // A reminder to run a command and the command's description: the instruction is not redundant.
    if (!corpus.same(i, j) && instructionAndDescription(stance(i), stance(j))) return false;
    // A command item and a rule saying when to run that command.
    if (!corpus.same(i, j) && commandAndTrigger(stance(i), stance(j))) return false;
    // Only a copy in a file loaded wherever the other is can stand in for it: copies in sibling
    // packages, under different globs or in a personal and a nested shared file each serve
    // sessions the other does not reach.
    if (relation(i, j) === 'apart') return false;
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
    const ranks = members.map((m) => rank(entries[m], corpus.wordCount[m]));
    // `k` stands in for `m`: its file is loaded wherever m's is and more widely, or equally widely
    // and k is the more complete version (ties: the first). "More complete" only decides within
    // one scope: a nested or scoped copy never replaces the copy the agent always loads.
    const dominates = (x: number, y: number): boolean => {
      const r = relation(members[x], members[y]);
      if (r === 'wider') return true;
      if (r !== 'same') return false;
      return ranks[x] > ranks[y] || (ranks[x] === ranks[y] && x < y);
    };
    // Clusters are transitive (two steps of one file, each copied in another file): a member is
    // only reported against an entry when that pair itself may be called a duplicate.
    const over: number[][] = members.map(() => []);
    for (let y = 0; y < members.length; y++)
      for (let x = 0; x < members.length; x++)
        if (x !== y && dominates(x, y) && allowed(members[y], members[x])) over[y].push(x);
    const redundant = over.map((l) => l.length > 0);
    for (let y = 0; y < members.length; y++) {
      if (!redundant[y]) continue;
      const m = members[y];
      const e = entries[m];
      // The copy to keep: one the same agent loads (copies for other agents are not merged), one
      // not redundant itself, the more complete.
      // A copy that is redundant itself only stands in when the kept copy serves another agent.
      let best = -1;
      let bestKey = -1;
      let otherAgentKept = false;
      for (const x of over[y]) {
        const same = agentOf(entries[members[x]].format) === agentOf(e.format);
        if (!same && !redundant[x]) otherAgentKept = true;
        const key = (same ? 2 : 0) + (redundant[x] ? 0 : 1);
        if (key > bestKey || (key === bestKey && ranks[x] > ranks[best])) {
          best = x;
          bestKey = key;
        }
      }
      if (bestKey === 0 || (bestKey === 2 && !otherAgentKept)) continue;
      const keep = members[best];
      const k = entries[keep];
      const exact = corpus.same(m, keep);
      const wider = relation(keep, m) === 'wider';
      // The narrower copy says something the wider one does not: the kept line stays where it is
      // loaded widely, and what only this copy adds is for a person to keep or drop.
      let adds = false;
      if (wider && !exact) {
        const kw = new Set(contentWords(k.text));
        adds = contentWords(e.text).some((w) => !kw.has(w));
      }
      const topicWins = k.kind === 'topic' && (e.kind === 'index-line' || e.format === 'auto-memory-index');
      // Copies in files of different agents (CLAUDE.md and copilot-instructions.md): no agent
      // loads both, so neither is redundant for the agent reading it; deleting one would take the
      // line from that agent. A note that they may drift apart, never advice to delete.
      const otherAgent = agentOf(k.format) !== agentOf(e.format);
      const message = otherAgent
        ? `Also written in ${where(k)}, a file another agent reads; keep both (each agent reads only its own), or share one file between them (an import) so the copies cannot drift apart.`
        : adds
        ? `Nearly repeats ${where(k)}, which is loaded wherever this file is; this copy adds words of its own: keep the line there and only what this copy adds here (review by hand).`
        : wider
          ? `${exact ? 'Repeats' : 'Nearly repeats'} ${where(k)}, which is loaded wherever this file is; keep that copy and delete this one.`
          : topicWins
            ? `${exact ? 'Repeats' : 'Nearly repeats'} the topic file ${where(k)}; keep the topic file (the fuller version) and delete this line.`
            : exact
              ? `Repeats ${where(k)}; keep that copy and delete this one.`
              : `Nearly repeats ${where(k)}; keep that entry (it is the more complete version) and delete this one.`;
      const finding: Finding = {
        entryId: e.id,
        file: e.file,
        line: e.line,
        kind: 'duplicate',
        severity: otherAgent ? 'info' : 'warning',
        message,
        evidence: {
          now: k.id,
          file: k.file,
          line: k.line,
          exact,
          // word shingles, or the content words of a reworded copy, whichever is closer
          similarity: exact ? 1 : Math.round(Math.max(corpus.sets.similarity(m, keep).jaccard, corpus.bags.similarity(m, keep).jaccard) * 100) / 100,
          scope: otherAgent ? 'other-agent' : wider ? 'wider' : 'same',
          ...(adds && !otherAgent ? { review: true } : {}),
        },
      };
      if (!adds && !otherAgent) finding.suggestion = { delete: true };
      out.push(finding);
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
    'Entries that repeat another entry exactly (after normalising case, whitespace and markdown) or nearly (MinHash/LSH over word shingles); names the copy to keep: the one in the most widely loaded file, then the most complete version.',
  run: findDuplicates,
};
