// Manifests that could not be read at HEAD (ManifestIndex.problems, filled by
// evidence/manifests.ts) become `manifest-unreadable` notes: the user learns that the scripts,
// dependencies and versions that file declares were not checked. History versions that fail to
// parse are summarised as null there and never reach this list (a broken commit long ago is not
// the user's problem now); entries without a file (a git failure of the history pass) are not
// about a manifest and are left out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINK_OUT } from '../evidence/manifests.js';
import type { Finding, FindingKind } from '../types.js';

/** A note kind, never a contract kind (report/findings.ts). */
export const MANIFEST_UNREADABLE: FindingKind = 'manifest-unreadable';

export interface ManifestProblem {
  file: string;
  message: string;
  line?: number;
}

/** Longest file name echoed in a note: a path is repository data, a huge one is cut. */
const MAX_FILE_CHARS = 200;

/**
 * One note per manifest (the first problem of a file: the parse stopped there), with a reason
 * reduced to a fixed vocabulary. Parser messages are not passed through: V8's JSON.parse error
 * quotes the text around the error (`Unexpected token 'x', "…secret…" is not valid JSON`), YAML
 * and TOML errors can name keys or values, and I/O errors name absolute paths; any of these may
 * leak a secret or bloat the report. Only the kind of failure and its position are kept.
 */
export function manifestProblemNotes(problems: readonly ManifestProblem[], root?: string): Finding[] {
  const seen = new Set<string>();
  const notes: Finding[] = [];
  for (const p of problems) {
    if (!p.file || seen.has(p.file)) continue;
    seen.add(p.file);
    const { reason, line } = sanitizeReason(p, root);
    const file = p.file.length > MAX_FILE_CHARS ? `${p.file.slice(0, MAX_FILE_CHARS)}…` : p.file;
    notes.push({
      entryId: null,
      file: p.file,
      line: line ?? 1,
      kind: MANIFEST_UNREADABLE,
      severity: 'info',
      message: messageFor(p.file, file, reason),
      evidence: { reason },
    });
  }
  return notes;
}

/**
 * The note's words: a manifest's scripts, dependencies and versions go unchecked; a tsconfig /
 * jsconfig's path aliases (`@/x`) go unresolved; a .gitignore's rules no longer excuse the
 * paths memory names that git leaves out on purpose.
 */
function messageFor(path: string, shown: string, reason: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === '.gitignore') return `\`${shown}\` could not be read: ${reason}; its ignore rules are not applied.`;
  if (/^[jt]sconfig(?:\.[\w-]+)*\.json$/.test(base)) return `\`${shown}\` could not be read: ${reason}; its path aliases are not applied.`;
  return `\`${shown}\` could not be read as a manifest: ${reason}; its scripts, dependencies and versions are not checked.`;
}

const validLine = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1;

/** The reason in the note's words, and the line when known. */
export function sanitizeReason(p: ManifestProblem, root?: string): { reason: string; line?: number } {
  const m = p.message;
  let line = validLine(p.line) ? p.line : undefined;
  // "invalid JSON (with comments)", "invalid YAML: …", "invalid TOML: …", "invalid JSON: <V8 text>"
  const syntax = /^invalid (JSON|YAML|TOML|XML)( \(with comments\))?/.exec(m);
  if (syntax) {
    const what = `invalid ${syntax[1]}${syntax[2] ?? ''}`;
    let column: number | undefined;
    if (syntax[1] === 'JSON' && !syntax[2]) {
      const pos = jsonPosition(m, root ? () => readSmall(join(root, p.file)) : undefined);
      if (pos) {
        line = pos.line;
        column = pos.column;
      }
    }
    if (line === undefined) return { reason: what };
    return { reason: `${what} at line ${line}${column !== undefined ? `, column ${column}` : ''}`, line };
  }
  // Fixed messages of the readers, holding no file text: kept as written.
  if (/^larger than \d+ bytes, not read$/.test(m) || m === 'not a regular file' || m === LINK_OUT) return { reason: m, line };
  if (/^[\w.-]{1,40} is not a JSON object$/.test(m)) return { reason: 'not a JSON object', line };
  // An I/O error: its code only (the message names the absolute path).
  const io = /(?:^|: )(E[A-Z]{2,12})\b/.exec(m);
  if (io) return { reason: `not readable (${io[1]})`, line };
  return { reason: line !== undefined ? `could not be parsed at line ${line}` : 'could not be parsed', line };
}

/** Line and column (1-based) of a JSON.parse error: "(line L column C)" or "position N" (then from the text). */
function jsonPosition(message: string, text?: () => string | undefined): { line: number; column?: number } | undefined {
  const lc = /\(line (\d{1,9}) column (\d{1,9})\)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /at position (\d{1,12})\b/.exec(message);
  if (!pos) return undefined;
  const t = text?.();
  if (t === undefined) return undefined;
  const body = t.charCodeAt(0) === 0xfeff ? t.slice(1) : t;
  const n = Math.min(Number(pos[1]), body.length);
  let line = 1;
  let start = 0;
  for (let i = 0; i < n; i++) {
    if (body.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: n - start + 1 };
}

/** The file's text when it is small enough to have been parsed (the readers skip larger ones). */
function readSmall(abs: string): string | undefined {
  try {
    const t = readFileSync(abs, 'utf8');
    return t.length <= 16 * 1024 * 1024 ? t : undefined;
  } catch {
    return undefined;
  }
}
