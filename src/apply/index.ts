// The apply step: the only place prune writes. Reads the current log / archive / record files,
// computes every change with planChanges (pure), renders one unified diff, and writes when asked.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { Config } from '../config/types.js';
import type { Entry, Evidence, Finding, MemoryFile, PlanItem } from '../types.js';
import { planChanges, type FileChange, type PlannedChanges } from './edits.js';
import { archivePath, pruneLogPath } from './paths.js';

export { planChanges } from './edits.js';
export type { FileChange, PlannedChanges } from './edits.js';

/** A git-style unified diff of the changes (paths relative to the repository). */
export function unifiedDiff(changes: FileChange[]): string {
  let out = '';
  for (const c of changes) {
    if (c.before === c.after) continue;
    const a = c.before === null ? '/dev/null' : `a/${c.file}`;
    const b = c.after === null ? '/dev/null' : `b/${c.file}`;
    const patch = createTwoFilesPatch(a, b, c.before ?? '', c.after ?? '', '', '', { context: 3 });
    const body = patch.replace(/^=+\n/, '').replace(/^(--- [^\n]*?)\t?\n(\+\+\+ [^\n]*?)\t?\n/, '$1\n$2\n');
    out += `diff --git a/${c.file} b/${c.file}\n`;
    if (c.before === null) out += 'new file mode 100644\n';
    if (c.after === null) out += 'deleted file mode 100644\n';
    out += body;
  }
  return out;
}

/** The file's text, or null when it does not exist (or cannot be read). */
export async function readOrNull(abs: string): Promise<string | null> {
  try {
    return await readFile(abs, 'utf8');
  } catch {
    return null;
  }
}

export interface ApplyInput {
  root: string;
  files: MemoryFile[];
  entries: Entry[];
  findings: Finding[];
  plan: PlanItem[];
  config: Config;
  evidence?: Pick<Evidence, 'usage'>;
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
  const wanted = new Set<string>([pruneLogPath(input.config, input.files), archivePath(input.config)]);
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
    for (const c of planned.changes) {
      const abs = path.resolve(root, c.file);
      if (c.after === null) {
        await rm(abs, { force: true });
      } else {
        await mkdir(path.dirname(abs), { recursive: true });
        await writeFile(abs, c.after, 'utf8');
      }
    }
    written = true;
  }
  return { ...planned, diff, written };
}
