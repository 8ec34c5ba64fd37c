// Loads `.memory-audit.yml` (or `.memory-audit.yaml`, or an explicit --config path), validates it
// against src/config/schema.ts and merges it over DEFAULT_CONFIG.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { DEFAULT_CONFIG } from './defaults.js';
import { validateDocument, type ConfigIssue } from './schema.js';
import type { Config } from './types.js';

export const CONFIG_FILE_NAMES = ['.memory-audit.yml', '.memory-audit.yaml'];

/** A configuration problem; the message names file:line:column and the key. */
export class ConfigError extends Error {
  readonly file: string;
  readonly issues: ConfigIssue[];
  constructor(file: string, issues: ConfigIssue[], message?: string) {
    super(
      message ??
        issues.map((i) => `${file}:${i.line}:${i.column}: ${i.key ? `${i.key}: ` : ''}${i.message}`).join('\n'),
    );
    this.name = 'ConfigError';
    this.file = file;
    this.issues = issues;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep merge: mappings merge key by key, lists and scalars replace. Never mutates its inputs. */
export function mergeConfig<T>(base: T, over: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(over)) return (over === undefined ? structuredClone(base) : structuredClone(over)) as T;
  const out: Record<string, unknown> = structuredClone(base) as Record<string, unknown>;
  for (const [k, v] of Object.entries(over)) {
    out[k] = k in out && isPlainObject(out[k]) && isPlainObject(v) ? mergeConfig(out[k], v) : structuredClone(v);
  }
  return out as T;
}

/** Parses and validates configuration text; `file` is only used in messages. */
export function parseConfig(text: string, file: string): Partial<Config> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: false });
  if (doc.errors.length) {
    const issues = doc.errors.map((e) => {
      const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
      return { line: pos.line, column: pos.col, key: '', message: `YAML syntax error: ${e.message.split('\n')[0]}` };
    });
    throw new ConfigError(file, issues);
  }
  const { value, issues } = validateDocument(doc, lineCounter);
  if (issues.length) throw new ConfigError(file, issues);
  return value as Partial<Config>;
}

/**
 * Reads the configuration of the repository at `root`: `explicitPath` (relative to root or
 * absolute; it must exist) or the first of `.memory-audit.yml` / `.memory-audit.yaml` at the
 * root. No file = DEFAULT_CONFIG. Throws ConfigError on any unknown key or wrong type.
 */
export async function loadConfig(root: string, explicitPath?: string): Promise<Config> {
  const candidates = explicitPath ? [path.resolve(root, explicitPath)] : CONFIG_FILE_NAMES.map((n) => path.join(root, n));
  for (const abs of candidates) {
    let text: string;
    try {
      text = await readFile(abs, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (!explicitPath && code === 'ENOENT') continue;
      const shown = explicitPath ?? path.relative(root, abs);
      throw new ConfigError(shown, [], `${shown}: cannot read configuration file (${code ?? (err as Error).message})`);
    }
    const rel = path.relative(root, abs);
    const shown = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : abs;
    return mergeConfig(DEFAULT_CONFIG, parseConfig(text, shown));
  }
  return structuredClone(DEFAULT_CONFIG);
}
