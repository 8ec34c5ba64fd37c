// Frontmatter: YAML (---) or TOML (+++) at the very top of a memory file.
// Pure: text in, data + problems (with their file line) out.
import { parseDocument, isMap, isScalar, visit, type Document } from 'yaml';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { EntryMeta, EntryType } from '../types.js';
import { typeFromFrontmatter } from './classify.js';

export interface FrontmatterResult {
  data?: Record<string, unknown>;
  /** Problems, each with the 1-based line of the file. */
  problems: Array<{ line: number; message: string }>;
  /** [start, end) offsets in the file of the `content:` slot value (YAML only), when present. */
  contentRange?: [number, number];
  /** True when the YAML was only readable with Cursor's unquoted `globs:` values read as strings. */
  lenient?: boolean;
}

/**
 * Parse a frontmatter block.
 * @param value   the text between the fences
 * @param contentStart offset of `value` in the file
 * @param contentLine  1-based line of the file where `value` starts
 * @param cursorRule   the block heads a Cursor rule (`.mdc`): Cursor's own unquoted `globs:`
 *   values are accepted (see cursorRuleFrontmatter) and `alwaysApply` must be a boolean
 */
export function parseFrontmatter(
  value: string,
  lang: 'yaml' | 'toml',
  contentStart: number,
  contentLine: number,
  cursorRule = false,
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
  const res = parseYaml(value, contentStart, contentLine);
  return cursorRule ? cursorRuleFrontmatter(value, contentStart, contentLine, res) : res;
}

/** A YAML block: the fast path when it applies, else `yaml`. */
function parseYaml(value: string, contentStart: number, contentLine: number): FrontmatterResult {
  // Most frontmatter is a handful of flat `key: value` lines: read those directly (exactly as
  // `yaml` would, proven by a differential test) and leave everything else to `yaml`.
  const quick = fastYaml(value);
  if (quick) return { data: quick, problems: [] };
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
    return { problems: [{ line: contentLine + rel - 1, message: `invalid YAML frontmatter: ${first}` }] };
  }
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // e.g. Cursor's `globs: *.ts` is an alias to an anchor that does not exist.
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

// ---------------------------------------------------------------------------- Cursor rules

// A top-level `globs:` line whose value Cursor reads as written, up to the end of the line, as a
// comma-separated glob list: not empty, not quoted, not a flow collection, block scalar or comment.
// Cursor writes `globs: *.ts` and `globs: src/**/*.ts, lib/*.ts` unquoted; the first is not YAML
// (`*` starts an alias), the second is (one plain string).
const BARE_GLOBS_RE = /^(globs[ \t]*:[ \t]+)([^ \t\r\n"'[{|>#][^\r\n]*?)[ \t]*(?=\r?$)/gm;
// A top-level `key: value` line (the shape of every line Cursor reads).
const TOP_KEY_LINE_RE = /^[A-Za-z_][\w-]*[ \t]*:(?:[ \t]|$)/;

/**
 * Cursor rule frontmatter. Cursor reads it leniently, as `key: value` lines, and writes its
 * `globs:` value unquoted. The one departure from YAML accepted here is that one: a bare
 * `globs:` value is read as the string written. Anything else YAML rejects (an unclosed quote or
 * bracket under any key, a value holding `: `, bad indentation) is reported, on the line that
 * Cursor itself cannot read when there is one; and `alwaysApply` must be true or false.
 */
function cursorRuleFrontmatter(value: string, contentStart: number, contentLine: number, res: FrontmatterResult): FrontmatterResult {
  if (!res.data && res.problems.length > 0) {
    // Read the bare globs values as quoted strings (each line keeps its number) and try again.
    let quoted = false;
    const text = value.replace(BARE_GLOBS_RE, (_m, head: string, globs: string) => {
      quoted = true;
      return head + JSON.stringify(globs);
    });
    if (quoted) {
      const again = parseYaml(text, contentStart, contentLine);
      if (again.data) {
        // Offsets of the rewritten text are not the file's: no `content:` range from it.
        res = { data: again.data, problems: again.problems, lenient: true };
      } else res = again;
    }
    if (!res.data) {
      const bad = firstBadLine(text);
      if (bad) res = { problems: [{ line: contentLine + bad.line - 1, message: bad.message }] };
    }
  }
  if (res.data && Object.prototype.hasOwnProperty.call(res.data, 'alwaysApply')) {
    const v = res.data.alwaysApply;
    if (v !== null && typeof v !== 'boolean') {
      const line = contentLine + lastKeyLine(value, 'alwaysApply') - 1;
      const shown = typeof v === 'string' ? JSON.stringify(v) : typeof v === 'object' ? 'a ' + (Array.isArray(v) ? 'list' : 'mapping') : String(v);
      res = { ...res, problems: [...res.problems, { line, message: `invalid Cursor rule frontmatter: alwaysApply must be true or false, not ${shown}` }] };
    }
  }
  return res;
}

/**
 * The first top-level `key: value` line that is not YAML on its own (1-based in the block),
 * with the YAML error: where Cursor's line-by-line reading breaks, e.g. the line that opens a
 * quote or bracket that is never closed (`yaml` reports those at the end of the block).
 */
function firstBadLine(text: string): { line: number; message: string } | undefined {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (!TOP_KEY_LINE_RE.test(line) || fastYaml(line)) continue;
    const r = parseYaml(line, 0, 1);
    if (r.problems.length > 0) return { line: i + 1, message: r.problems[0].message };
  }
  return undefined;
}

/** 1-based line in the block of the last top-level `key:` line (1 when none). */
function lastKeyLine(text: string, key: string): number {
  const re = new RegExp(`^${key}[ \\t]*:`, 'gm');
  let at = -1;
  for (let m = re.exec(text); m; m = re.exec(text)) at = m.index;
  return at < 0 ? 1 : lineOfOffset(text, at);
}

// ---------------------------------------------------------------------------- fast YAML

// Characters the fast path accepts (printable, no tab, no line separators, no BOM).
// eslint-disable-next-line no-control-regex
const FAST_BAD_CHAR_RE = /[^\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;
// Core schema (YAML 1.2, what `yaml` uses by default) resolution of plain scalars.
const Y_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const Y_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const Y_OCT = /^0o[0-7]+$/;
const Y_INT = /^[-+]?[0-9]+$/;
const Y_HEX = /^0x[0-9a-fA-F]+$/;
const Y_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const Y_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const Y_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** The value of a plain scalar as the core schema resolves it. */
function resolvePlain(s: string): unknown {
  const c = s.charCodeAt(0);
  // Only these can start a non-string: digits, + - . ~ n N t T f F 0 (and empty).
  if (s === '' || c === 126 || c === 110 || c === 78) {
    if (Y_NULL.test(s)) return null;
    return s;
  }
  if (c === 116 || c === 84 || c === 102 || c === 70) return Y_BOOL.test(s) ? c === 116 || c === 84 : s;
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
    if (Y_OCT.test(s)) return parseInt(s.substring(2), 8);
    if (Y_INT.test(s)) return parseInt(s, 10);
    if (Y_HEX.test(s)) return parseInt(s.substring(2), 16);
    if (Y_NAN.test(s)) return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    if (Y_EXP.test(s) || Y_FLOAT.test(s)) return parseFloat(s);
  }
  return s;
}

/**
 * One scalar value after `key: `, or `NO` when it is outside the fast subset: plain one-line
 * scalars without comments or `: `, and quoted strings without escapes or inner quotes.
 */
const NO = Symbol('no');
function fastScalar(raw: string): unknown {
  let v = raw;
  let end = v.length;
  while (end > 0 && v.charCodeAt(end - 1) === 32) end--;
  if (end < v.length) v = v.slice(0, end);
  if (v === '') return null;
  const c = v[0];
  if (c === '"' || c === "'") {
    if (v.length < 2 || v[v.length - 1] !== c) return NO;
    const inner = v.slice(1, -1);
    if (inner.includes(c) || (c === '"' && inner.includes('\\'))) return NO;
    return inner;
  }
  // Indicators that start something else than a plain scalar.
  if ('[]{},#&*!|>%@`'.includes(c)) return NO;
  if (c === '?' || c === ':' || (c === '-' && (v.length === 1 || v[1] === ' '))) return NO;
  if (v.includes(': ') || v.includes(' #') || v[v.length - 1] === ':') return NO;
  return resolvePlain(v);
}

/** A-Z a-z _ (first character of a fast key), then also 0-9 and - (the others). */
function keyChar(c: number, first: boolean): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (!first && ((c >= 48 && c <= 57) || c === 45));
}

/**
 * `^( *)([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*)|)$` on a line whose indentation ends at k and
 * which ends at `end`: the key and the value after `: ` ('' when the line ends at the colon),
 * or undefined when the line does not match.
 */
function keyLine(text: string, k: number, end: number): { key: string; value: string } | undefined {
  let i = k;
  if (!keyChar(text.charCodeAt(i), true)) return undefined;
  while (++i < end && keyChar(text.charCodeAt(i), false));
  if (i >= end || text.charCodeAt(i) !== 58) return undefined;
  const key = text.slice(k, i);
  if (++i === end) return { key, value: '' };
  if (text.charCodeAt(i) !== 32) return undefined;
  while (i < end && text.charCodeAt(i) === 32) i++;
  return { key, value: text.slice(i, end) };
}

/**
 * Frontmatter made only of `key: scalar` lines (and one level of nested `key:` maps such as
 * `metadata:`), read without the YAML parser. Returns undefined whenever anything falls
 * outside that subset, so that `yaml` decides.
 */
export function fastYaml(value: string): Record<string, unknown> | undefined {
  if (FAST_BAD_CHAR_RE.test(value.includes('\r') ? value.replace(/\r\n/g, '\n') : value)) return undefined;
  const out: Record<string, unknown> = {};
  let nested: Record<string, unknown> | undefined; // the map of a `key:` with an empty value
  let nestedKey = '';
  let nestedIndent = -1;
  // Line by line, on offsets (the lines of value.split('\n'), a final CR dropped).
  for (let start = 0, next = 0; start <= value.length; start = next) {
    let end = value.indexOf('\n', start);
    next = end === -1 ? value.length + 1 : end + 1;
    if (end === -1) end = value.length;
    if (end > start && value.charCodeAt(end - 1) === 13) end--;
    let k = start;
    while (k < end && value.charCodeAt(k) === 32) k++;
    if (k === end) continue; // blank
    if (value.charCodeAt(k) === 35) continue; // comment line
    const m = keyLine(value, k, end);
    if (!m) return undefined;
    const indent = k - start;
    const key = m.key;
    if (key.length > 200 || Y_NULL.test(key) || Y_BOOL.test(key) || key === '__proto__') return undefined;
    const rawValue = m.value;
    if (indent === 0) {
      if (nested && nestedIndent !== -1) out[nestedKey] = nested;
      nested = undefined;
      if (Object.prototype.hasOwnProperty.call(out, key) || key === 'content') return undefined;
      if (rawValue.trim() === '') {
        // Either null or the start of a nested map; decided by the next lines.
        out[key] = null;
        nested = {};
        nestedKey = key;
        nestedIndent = -1;
        continue;
      }
      const v = fastScalar(rawValue);
      if (v === NO) return undefined;
      out[key] = v;
      continue;
    }
    // An indented line belongs to the nested map just opened.
    if (!nested) return undefined;
    if (nestedIndent === -1) nestedIndent = indent;
    else if (indent !== nestedIndent) return undefined;
    if (Object.prototype.hasOwnProperty.call(nested, key)) return undefined;
    if (rawValue.trim() === '') {
      // `key:` inside the map: null unless deeper lines follow (which the check above rejects).
      nested[key] = null;
      continue;
    }
    const v = fastScalar(rawValue);
    if (v === NO) return undefined;
    nested[key] = v;
  }
  if (nested && nestedIndent !== -1) out[nestedKey] = nested;
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

/** A frontmatter `type` value mapped to an EntryType (undefined when absent or not recognised). */
export function frontmatterType(fm: Record<string, unknown> | undefined): EntryType | undefined {
  return typeFromFrontmatter(field(fm, 'type'));
}

/** Look a key up flat first, then under `metadata:` (up to four spellings, first found wins). */
export function field(fm: Record<string, unknown> | undefined, a: string, b?: string, c?: string, d?: string): unknown {
  if (!fm) return undefined;
  // Fixed parameters rather than `...keys`: this runs a dozen times per topic file.
  const v = firstSet(fm, a, b, c, d);
  if (v !== undefined) return v;
  const md = fm.metadata;
  if (md && typeof md === 'object' && !Array.isArray(md)) return firstSet(md as Record<string, unknown>, a, b, c, d);
  return undefined;
}

/** The value of the first of the keys that is set (neither undefined nor null) in `o`. */
function firstSet(o: Record<string, unknown>, a: string, b?: string, c?: string, d?: string): unknown {
  let v = o[a];
  if (v !== undefined && v !== null) return v;
  if (b === undefined) return undefined;
  v = o[b];
  if (v !== undefined && v !== null) return v;
  if (c === undefined) return undefined;
  v = o[c];
  if (v !== undefined && v !== null) return v;
  if (d === undefined) return undefined;
  v = o[d];
  return v !== undefined && v !== null ? v : undefined;
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
