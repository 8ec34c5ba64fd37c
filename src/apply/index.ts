// The apply step: the only place prune writes. Reads the current log / archive / record files,
// computes every change with planChanges (pure), renders one unified diff, and writes when asked.
import { mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { planChanges, type FileChange, type PlanChangesInput, type PlannedChanges } from './edits.js';
import { archivePath, pruneLogPath } from './paths.js';
import { redactSecrets } from '../report/redact.js';

export { planChanges } from './edits.js';
export type { FileChange, PlannedChanges } from './edits.js';

/** How a path shows in diff headers: repository-relative as is, absolute without its leading slash (as git does). */
function diffPath(file: string): string {
  return file.replace(/\\/g, '/').replace(/^[A-Za-z]:\//, '').replace(/^\/+/, '');
}

/**
 * A git-style unified diff of the changes (paths relative to the repository). Both sides are
 * redacted first: a credential in memory never shows in the diff, not even as a context line.
 */
export function unifiedDiff(changes: FileChange[]): string {
  let out = '';
  for (const c of changes) {
    if (c.before === c.after) continue;
    const shown = diffPath(c.file);
    const a = c.before === null ? '/dev/null' : `a/${shown}`;
    const b = c.after === null ? '/dev/null' : `b/${shown}`;
    const before = redactSecrets(c.before ?? '');
    const after = redactSecrets(c.after ?? '');
    const patch = createTwoFilesPatch(a, b, before, after, '', '', { context: 3 });
    const body = patch.replace(/^=+\n/, '').replace(/^(--- [^\n]*?)\t?\n(\+\+\+ [^\n]*?)\t?\n/, '$1\n$2\n');
    out += `diff --git a/${shown} b/${shown}\n`;
    if (c.before === null) out += 'new file mode 100644\n';
    if (c.after === null) out += 'deleted file mode 100644\n';
    out += body;
  }
  return out;
}

/** Whether `abs` is `root` or inside it. */
function within(root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The audit trail (log, archive, SUPERSEDED records in .memory-audit/) must stay inside the
 * repository: the configuration is validated, and this is the second line of defence (also
 * against a symlinked folder leading out). Throws when `file` resolves outside `root`.
 */
export async function assertInsideRoot(root: string, file: string, what: string): Promise<void> {
  const abs = path.resolve(root, file);
  const fail = () => {
    throw new Error(`${what} ${file} resolves outside the repository (${root}); refusing to write it`);
  };
  if (!within(root, abs) || path.relative(root, abs).split(path.sep).some((seg) => seg.toLowerCase() === '.git')) fail();
  // Follow symlinks: the nearest existing ancestor must also resolve inside the repository.
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return;
  }
  for (let p = abs; ; p = path.dirname(p)) {
    let real: string | undefined;
    try {
      real = await realpath(p);
    } catch {
      real = undefined;
    }
    if (real !== undefined) {
      if (!within(realRoot, real)) fail();
      return;
    }
    if (path.dirname(p) === p) return;
  }
}

/** The file's text, or null when it does not exist (or cannot be read). */
export async function readOrNull(abs: string): Promise<string | null> {
  try {
    return await readFile(abs, 'utf8');
  } catch {
    return null;
  }
}

/** The UTF-8 byte order mark, as a character of decoded text. */
export const BOM = '\uFEFF';

/**
 * A memory file's text as the reader sees it (src/memory/read.ts): a leading UTF-8 byte order
 * mark is taken off and reported as `bom`, so that lines and anchors match what prune recorded.
 * Null when the file does not exist (or cannot be read).
 */
export async function readMemoryOrNull(abs: string): Promise<{ text: string; bom: boolean } | null> {
  const text = await readOrNull(abs);
  if (text === null) return null;
  return text.startsWith(BOM) ? { text: text.slice(1), bom: true } : { text, bom: false };
}

/** Writes memory text, with the byte order mark back in front when the file had one (never added otherwise). */
export async function writeMemory(abs: string, text: string, bom: boolean): Promise<void> {
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, bom ? BOM + text : text, 'utf8');
}

/** What planChanges needs, with the repository, the clock and the write switch in place of `today` and `current`. */
export interface ApplyInput extends Omit<PlanChangesInput, 'today' | 'current'> {
  root: string;
  now: Date;
  write: boolean;
}

export interface ApplyOutput extends PlannedChanges {
  diff: string;
  written: boolean;
}

/** Computes the prune's changes and (when `write`) applies them to the working tree. */
export async function applyPlan(input: ApplyInput): Promise<ApplyOutput> {
  const root = path.resolve(input.root);
  const trail = [pruneLogPath(input.config, input.files), archivePath(input.config)];
  // The configured paths must stay inside the repository (the default log may live in an
  // auto-memory folder outside it, next to the memory it describes).
  if (input.config.log) await assertInsideRoot(root, trail[0], 'the pruning log (config `log`)');
  await assertInsideRoot(root, trail[1], 'the archive (config `archive`)');
  const wanted = new Set<string>(trail);
  for (const p of input.plan) if (p.superseded) wanted.add(p.superseded);
  const current = new Map<string, string | null>();
  for (const f of [...wanted].sort()) current.set(f, await readOrNull(path.resolve(root, f)));

  const planned = planChanges({
    files: input.files,
    entries: input.entries,
    findings: input.findings,
    plan: input.plan,
    config: input.config,
    evidence: input.evidence,
    today: input.now.toISOString().slice(0, 10),
    current: (f) => current.get(f) ?? null,
  });
  const diff = unifiedDiff(planned.changes);

  let written = false;
  if (input.write && planned.changes.length) {
    // Memory text is BOM-less (src/memory/read.ts): a file that had a byte order mark gets it
    // back, so the only bytes that change are the prune's. The log, archive and SUPERSEDED files
    // are read and written as they are.
    const bom = new Set(input.files.filter((f) => f.bom).map((f) => f.path));
    for (const c of planned.changes) {
      const abs = path.resolve(root, c.file);
      if (c.after === null) await rm(abs, { force: true });
      else await writeMemory(abs, c.after, bom.has(c.file));
    }
    written = true;
  }
  return { ...planned, diff, written };
}
