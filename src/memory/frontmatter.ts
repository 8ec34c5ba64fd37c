// Frontmatter: YAML (---) or TOML (+++) at the very top of a memory file.
// Pure: text in, data + problems (with their file line) out.
import { parseDocument, isMap, isScalar, visit, type Document } from 'yaml';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { EntryMeta, EntryType } from '../types.js';

export interface FrontmatterResult {
  data?: Record<string, unknown>;
  /** Problems, each with the 1-based line of the file. */
  problems: Array<{ line: number; message: string }>;
  /** [start, end) offsets in the file of the `content:` slot value (YAML only), when present. */
  contentRange?: [number, number];
  /** True when the YAML was invalid but a lenient `key: value` reading succeeded (Cursor rules). */
  lenient?: boolean;
}

/**
 * Parse a frontmatter block.
 * @param value   the text between the fences
 * @param contentStart offset of `value` in the file
 * @param contentLine  1-based line of the file where `value` starts
 */
export function parseFrontmatter(
  value: string,
  lang: 'yaml' | 'toml',
  contentStart: number,
  contentLine: number,
  lenientFallback = false,
): FrontmatterResult {
  if (value.trim() === '') return { data: {}, problems: [] };
  if (lang === 'toml') {
    try {
      const data = parseToml(value) as Record<string, unknown>;
      return { data: normaliseValues(data) as Record<string, unknown>, problems: [] };
    } catch (err) {
      const line = err instanceof TomlError ? err.line : 1;
      const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
      const rel = Math.min(Math.max(line, 1), contentLineCount(value));
      return { problems: [{ line: contentLine + rel - 1, message: `invalid TOML frontmatter: ${msg}` }] };
    }
  }
  let doc: Document.Parsed;
  try {
    doc = parseDocument(value, { prettyErrors: true, uniqueKeys: false });
  } catch (err) {
    return { problems: [{ line: contentLine, message: `invalid YAML frontmatter: ${String(err)}` }] };
  }
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const rel = Math.min(e.linePos?.[0]?.line ?? 1, contentLineCount(value));
    // yaml appends " at line L, column C:" relative to the block; the finding carries the file line.
    const first = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    const problem = { line: contentLine + rel - 1, message: `invalid YAML frontmatter: ${first}` };
    if (lenientFallback) {
      const data = lenientKeyValues(value);
      if (data) return { data, problems: [], lenient: true };
    }
    return { problems: [problem] };
  }
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // e.g. Cursor's `globs: *.ts` is an alias to an anchor that does not exist.
    if (lenientFallback) {
      const data = lenientKeyValues(value);
      if (data) return { data, problems: [], lenient: true };
    }
    let rel = 1;
    visit(doc, {
      Alias(_key, node) {
        if (node.range) rel = lineOfOffset(value, node.range[0]);
        return visit.BREAK;
      },
    });
    const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { problems: [{ line: contentLine + rel - 1, message: `invalid YAML frontmatter: ${msg}` }] };
  }
  if (js === null || js === undefined) return { data: {}, problems: [] };
  if (typeof js !== 'object' || Array.isArray(js)) {
    return { problems: [{ line: contentLine, message: 'frontmatter is not a mapping of keys to values' }] };
  }
  const out: FrontmatterResult = { data: normaliseValues(js) as Record<string, unknown>, problems: [] };
  if (isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      if (isScalar(pair.key) && pair.key.value === 'content' && isScalar(pair.value) && pair.value.range) {
        const [s, e] = pair.value.range;
        out.contentRange = [contentStart + s, contentStart + e];
      }
    }
  }
  return out;
}

/** Lines of the block, a final newline not opening a new one (at least 1). */
function contentLineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) if (i < text.length - 1) n++;
  return n;
}

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Cursor writes `globs: *.ts,*.tsx`, which is not YAML (`*` starts an alias). Read such lines as plain strings. */
function lenientKeyValues(value: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  for (const raw of value.split(/\r\n|\r|\n/)) {
    const line = raw.trimEnd();
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const m = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!m) return undefined;
    const v = m[2].trim();
    data[m[1]] = v === 'true' ? true : v === 'false' ? false : v === '' ? null : v.replace(/^(['"])(.*)\1$/, '$2');
  }
  return data;
}

/** Dates (TOML) become ISO strings so that the data stays plain JSON. */
function normaliseValues(v: unknown): unknown {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  if (Array.isArray(v)) return v.map(normaliseValues);
  if (v && typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return String(v);
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = normaliseValues(x);
    return o;
  }
  return v;
}

const TYPE_SYNONYMS: Record<string, EntryType> = {
  project: 'project',
  decision: 'decision',
  decisions: 'decision',
  adr: 'decision',
  pattern: 'pattern',
  patterns: 'pattern',
  gotcha: 'pattern',
  debugging: 'pattern',
  workflow: 'pattern',
  lesson: 'pattern',
  reference: 'reference',
  references: 'reference',
  link: 'reference',
  links: 'reference',
  resource: 'reference',
  feedback: 'feedback',
  preference: 'feedback',
  preferences: 'feedback',
  correction: 'feedback',
  user: 'user',
  profile: 'user',
  ephemeral: 'ephemeral',
  session: 'ephemeral',
  superseded: 'superseded',
  'counter-memory': 'superseded',
};

/** A frontmatter `type` value mapped to an EntryType (undefined when absent or not recognised). */
export function frontmatterType(fm: Record<string, unknown> | undefined): EntryType | undefined {
  const raw = field(fm, 'type');
  if (typeof raw !== 'string') return undefined;
  return TYPE_SYNONYMS[raw.trim().toLowerCase()];
}

/** Look a key up flat first, then under `metadata:`. */
export function field(fm: Record<string, unknown> | undefined, ...keys: string[]): unknown {
  if (!fm) return undefined;
  for (const k of keys) if (fm[k] !== undefined && fm[k] !== null) return fm[k];
  const md = fm.metadata;
  if (md && typeof md === 'object' && !Array.isArray(md)) {
    const m = md as Record<string, unknown>;
    for (const k of keys) if (m[k] !== undefined && m[k] !== null) return m[k];
  }
  return undefined;
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** EntryMeta from frontmatter (flat or nested under `metadata:`). */
export function metaFromFrontmatter(fm: Record<string, unknown> | undefined): EntryMeta {
  const meta: EntryMeta = {};
  if (!fm) return meta;
  const name = str(field(fm, 'name', 'title'));
  if (name !== undefined) meta.name = name;
  const description = str(field(fm, 'description'));
  if (description !== undefined) meta.description = description;
  const p = field(fm, 'priority');
  const pn = typeof p === 'number' ? p : typeof p === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(p) ? Number(p) : undefined;
  if (pn !== undefined && Number.isFinite(pn)) meta.priority = pn;
  const pinned = field(fm, 'pinned');
  if (pinned === true || pinned === 'true' || pinned === 'yes') meta.pinned = true;
  else if (pinned === false || pinned === 'false' || pinned === 'no') meta.pinned = false;
  const modified = str(field(fm, 'modified', 'updated', 'date'));
  if (modified !== undefined) meta.modified = modified;
  const lastUpdated = str(field(fm, 'last_updated', 'lastUpdated', 'last-updated'));
  if (lastUpdated !== undefined) meta.lastUpdated = lastUpdated;
  const validUntil = str(field(fm, 'valid_until', 'validUntil', 'valid-until', 'expires'));
  if (validUntil !== undefined) meta.validUntil = validUntil;
  const scope = str(field(fm, 'scope'));
  if (scope !== undefined) meta.scope = scope;
  return meta;
}

/** `protected: true` in frontmatter (flat or under metadata). */
export function frontmatterProtected(fm: Record<string, unknown> | undefined): boolean {
  const v = field(fm, 'protected');
  return v === true || v === 'true' || v === 'yes';
}
