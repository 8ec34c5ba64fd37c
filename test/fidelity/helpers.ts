// Test helpers for the fidelity checks: hand-built entries and files, a minimal evidence object,
// and a loader that reads a folder of memory files from disk through the real parser.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/types.js';
import { indexFromPaths } from '../../src/evidence/files.js';
import { emptyHistory } from '../../src/evidence/history.js';
import { emptyManifestIndex } from '../../src/evidence/manifests.js';
import { formatOf } from '../../src/memory/discover.js';
import { parseMemoryText } from '../../src/memory/parse.js';
import type { CheckContext, Entry, Evidence, MemoryFile } from '../../src/types.js';

export function config(over: Partial<Config> = {}): Config {
  return structuredClone({ ...DEFAULT_CONFIG, ...over });
}

/** A minimal evidence object: the files given as the tree at HEAD, no history, no manifests. */
export function evidence(files: string[] = [], extra: Partial<Evidence> = {}): Evidence {
  return {
    root: '/repo',
    head: null,
    now: new Date('2026-03-10T00:00:00Z'),
    files: indexFromPaths(files),
    history: emptyHistory(),
    manifests: emptyManifestIndex(),
    github: { checked: false, issues: new Map() },
    ...extra,
  };
}

/** Parses in-memory files with the real parser. `memoryDir` for files under a folder holding MEMORY.md. */
export function parseFiles(input: Record<string, string>): { files: MemoryFile[]; entries: Entry[] } {
  const paths = Object.keys(input);
  const memoryDirs = new Set(
    paths.filter((p) => p.endsWith('/MEMORY.md') || p === 'MEMORY.md').map((p) => p.slice(0, Math.max(0, p.lastIndexOf('/')))),
  );
  const files: MemoryFile[] = [];
  const entries: Entry[] = [];
  for (const p of paths) {
    const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
    let mdir: string | undefined;
    for (const d of memoryDirs) if (dir === d || (d && dir.startsWith(d + '/')) || (!d && !p.includes('/'))) mdir = d;
    const format = formatOf(p, mdir !== undefined) ?? 'other';
    const r = parseMemoryText(p, input[p], format, { memoryDir: mdir, skipTokens: true });
    files.push(r.file);
    entries.push(...r.entries);
  }
  return { files, entries };
}

function walk(dir: string, root: string, out: string[]) {
  for (const name of readdirSync(dir)) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) walk(abs, root, out);
    else out.push(relative(root, abs).split(sep).join('/'));
  }
}

/** Reads every file under `root`; memory files are parsed, all paths go into the evidence index. */
export function loadFolder(root: string): { files: MemoryFile[]; entries: Entry[]; all: string[] } {
  const all: string[] = [];
  walk(root, root, all);
  const memoryDirs = all.filter((p) => p.endsWith('MEMORY.md')).map((p) => p.slice(0, Math.max(0, p.lastIndexOf('/'))));
  const input: Record<string, string> = {};
  for (const p of all) {
    const inMem = memoryDirs.some((d) => p.startsWith(d + '/'));
    if (formatOf(p, inMem)) input[p] = readFileSync(join(root, p), 'utf8');
  }
  return { ...parseFiles(input), all };
}

export function context(files: MemoryFile[], entries: Entry[], all: string[] = files.map((f) => f.path), cfg = config()): CheckContext {
  return { files, entries, evidence: evidence(all), config: cfg };
}
