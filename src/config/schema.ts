// The schema of `.memory-audit.yml`, as data, and a validator that walks the parsed YAML
// document (not the plain object) so that every problem names its line and column.
// Hand-written on purpose: the Config type is small, and a YAML-aware walk gives better
// messages than a JSON-schema library could ("scoring.wieghts: unknown key; did you mean weights?").
import { posix } from 'node:path';
import { isMap, isScalar, isSeq, isAlias, isDocument } from 'yaml';
import type { Document, LineCounter, Node, Pair } from 'yaml';
import { CHECKS } from '../checks/registry.js';
import { FILTER_IDS } from '../checks/ephemeral.js';
import type { MemoryFormat } from '../types.js';

/** The memory formats `budgets.formats` takes (src/types.ts MemoryFormat). */
const MEMORY_FORMATS: readonly MemoryFormat[] = ['claude-md', 'auto-memory-index', 'auto-memory-topic', 'agents-md', 'gemini-md', 'copilot', 'cursor-rule', 'other'];

export type Schema =
  | { type: 'string'; inRepo?: boolean; doc?: string }
  | { type: 'regex'; doc?: string }
  | { type: 'date'; doc?: string }
  | { type: 'boolean'; doc?: string }
  | { type: 'number'; min?: number; max?: number; integer?: boolean; exclusiveMin?: boolean; doc?: string }
  | { type: 'array'; items: Schema; single?: boolean; doc?: string }
  | { type: 'object'; props: Record<string, Schema>; required?: string[]; doc?: string }
  | { type: 'record'; values: Schema; keys?: RegExp; keysHint?: string; known?: () => readonly string[]; doc?: string }
  | { type: 'oneOf'; of: Schema[]; hint: string; doc?: string };

const str: Schema = { type: 'string' };
/** A path memory-audit writes to: relative to the repository root and staying inside it. */
const repoPath: Schema = { type: 'string', inRepo: true };
const regex: Schema = { type: 'regex' };
const bool: Schema = { type: 'boolean' };
const count: Schema = { type: 'number', min: 0, integer: true };
const strings: Schema = { type: 'array', items: str, single: true };
const regexes: Schema = { type: 'array', items: regex, single: true };
const budget: Schema = { type: 'object', props: { lines: count, bytes: count, tokens: count } };

/** Every key `.memory-audit.yml` accepts (camelCase, exactly as in src/config/types.ts). */
export const CONFIG_SCHEMA: Schema = {
  type: 'object',
  props: {
    memory: strings,
    ignore: strings,
    maxFileBytes: { type: 'number', min: 1, integer: true },
    protect: regexes,
    retention: { type: 'object', props: { keep: regexes, prune: regexes } },
    rules: { type: 'record', values: bool, keys: /^[1-7]$/, keysHint: 'a rule number 1..7' },
    filters: { type: 'record', values: bool, known: () => FILTER_IDS, keysHint: 'a filter id of the ephemeral check' },
    checks: { type: 'record', values: bool, known: () => CHECKS.map((c) => c.id), keysHint: 'a check id' },
    scoring: {
      type: 'object',
      props: {
        weights: {
          type: 'object',
          props: {
            priority: { type: 'number', min: 0 },
            recency: { type: 'number', min: 0 },
            frequency: { type: 'number', min: 0 },
          },
        },
        threshold: { type: 'number', min: 0, max: 1 },
        halfLifeDays: { type: 'number', min: 0, exclusiveMin: true },
        defaultPriority: { type: 'number', min: 0, max: 10 },
      },
    },
    budgets: {
      type: 'object',
      props: {
        memoryIndex: budget,
        agentsChain: { type: 'object', props: { bytes: count } },
        default: budget,
        formats: { type: 'record', values: budget, known: () => MEMORY_FORMATS, keysHint: 'a memory format' },
        errorBytes: { type: 'number', min: 1, integer: true },
        files: { type: 'record', values: budget },
      },
    },
    counts: {
      type: 'array',
      items: {
        type: 'object',
        props: {
          pattern: regex,
          glob: { type: 'oneOf', of: [str, { type: 'array', items: str }], hint: 'a glob or a list of globs' },
          description: str,
        },
        required: ['pattern', 'glob'],
      },
    },
    log: repoPath,
    archive: repoPath,
    accessLog: str,
    now: { type: 'date' },
    github: { type: 'object', props: { token: str, repo: str, apiUrl: str } },
  },
};

/** Why a configured path would lead outside the repository, or undefined when it stays inside. */
export function outsideRepo(p: string): string | undefined {
  const v = p.replace(/\\/g, '/');
  if (v.startsWith('/') || /^[A-Za-z]:\//.test(v)) return 'an absolute path';
  if (v.startsWith('~')) return 'a home-relative path';
  const norm = posix.normalize(v);
  if (norm === '..' || norm.startsWith('../')) return '`..` leads out of it';
  if (norm === '.' || norm.endsWith('/')) return 'not a file';
  if (norm.split('/').some((seg) => seg.toLowerCase() === '.git')) return 'inside `.git`';
  return undefined;
}

export interface ConfigIssue {
  line: number;
  column: number;
  key: string;
  message: string;
}

function describe(s: Schema): string {
  switch (s.type) {
    case 'string':
      return 'a string';
    case 'regex':
      return 'a regular expression (string)';
    case 'date':
      return 'an ISO date string';
    case 'boolean':
      return 'true or false';
    case 'number':
      return s.integer ? 'a whole number' : 'a number';
    case 'array':
      return s.single ? `a list (or a single value) of ${describe(s.items).replace(/^an? /, '')}s` : 'a list';
    case 'object':
      return 'a mapping';
    case 'record':
      return 'a mapping';
    case 'oneOf':
      return s.hint;
  }
}

function nodeKind(node: unknown): string {
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) {
    const v = node.value;
    if (v === null) return 'null';
    if (typeof v === 'string') return `the string "${v.length > 30 ? v.slice(0, 30) + '…' : v}"`;
    return `${typeof v} ${String(v)}`;
  }
  return 'an unsupported value';
}

/** Edit distance, for "did you mean" hints. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

function suggest(key: string, known: string[]): string {
  const norm = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  const best = known
    .map((k) => ({ k, d: norm(k) === norm(key) ? 0 : distance(key.toLowerCase(), k.toLowerCase()) }))
    .sort((x, y) => x.d - y.d)[0];
  return best && best.d <= Math.max(2, Math.floor(key.length / 3)) ? `; did you mean "${best.k}"?` : '';
}

/**
 * Validates `doc` against `schema`; returns the plain value (only the keys written) and the
 * problems found, each with a 1-based line and column.
 */
export function validateDocument(
  doc: Document,
  lineCounter: LineCounter,
  schema: Schema = CONFIG_SCHEMA,
): { value: unknown; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  const at = (node: unknown): { line: number; column: number } => {
    const range = (node as Node | undefined)?.range;
    if (!range) return { line: 1, column: 1 };
    const pos = lineCounter.linePos(range[0]);
    return { line: pos.line, column: pos.col };
  };
  const fail = (node: unknown, key: string, message: string) => issues.push({ ...at(node), key, message });

  const walk = (node: unknown, s: Schema, key: string): unknown => {
    if (isAlias(node)) node = node.resolve(doc);
    switch (s.type) {
      case 'string':
      case 'regex':
      case 'date': {
        if (!isScalar(node) || typeof node.value !== 'string') {
          // Numbers and booleans written where a string is expected are kept as text only for
          // `date` (e.g. an unquoted 2026-03-01 stays a string in YAML 1.2 core schema).
          fail(node, key, `expected ${describe(s)}, got ${nodeKind(node)}`);
          return undefined;
        }
        const v = node.value;
        if (s.type === 'regex') {
          try {
            new RegExp(v, 'i');
          } catch (err) {
            fail(node, key, `invalid regular expression: ${(err as Error).message}`);
            return undefined;
          }
        }
        if (s.type === 'string' && s.inRepo && v !== '') {
          const why = outsideRepo(v);
          if (why) {
            fail(node, key, `must be a path inside the repository (relative to its root), got "${v}": ${why}`);
            return undefined;
          }
        }
        if (s.type === 'date' && v !== '' && Number.isNaN(Date.parse(v))) {
          fail(node, key, `expected an ISO date such as 2026-03-01 or 2026-03-01T12:00:00Z, got "${v}"`);
          return undefined;
        }
        return v;
      }
      case 'boolean':
        if (!isScalar(node) || typeof node.value !== 'boolean') {
          fail(node, key, `expected true or false, got ${nodeKind(node)}`);
          return undefined;
        }
        return node.value;
      case 'number': {
        if (!isScalar(node) || typeof node.value !== 'number' || !Number.isFinite(node.value)) {
          fail(node, key, `expected ${describe(s)}, got ${nodeKind(node)}`);
          return undefined;
        }
        const v = node.value;
        if (s.integer && !Number.isInteger(v)) fail(node, key, `expected a whole number, got ${v}`);
        else if (s.min !== undefined && (s.exclusiveMin ? v <= s.min : v < s.min))
          fail(node, key, `must be ${s.exclusiveMin ? 'greater than' : 'at least'} ${s.min}, got ${v}`);
        else if (s.max !== undefined && v > s.max) fail(node, key, `must be at most ${s.max}, got ${v}`);
        else return v;
        return undefined;
      }
      case 'array': {
        if (isSeq(node)) {
          const out: unknown[] = [];
          node.items.forEach((item, i) => {
            const v = walk(item, s.items, `${key}[${i}]`);
            if (v !== undefined) out.push(v);
          });
          return out;
        }
        if (s.single && isScalar(node) && node.value !== null) {
          const v = walk(node, s.items, key);
          return v === undefined ? undefined : [v];
        }
        fail(node, key, `expected ${describe(s)}, got ${nodeKind(node)}`);
        return undefined;
      }
      case 'object':
      case 'record': {
        if (!isMap(node)) {
          fail(node, key, `expected a mapping, got ${nodeKind(node)}`);
          return undefined;
        }
        const out: Record<string, unknown> = {};
        for (const pair of node.items as Pair[]) {
          const k = isScalar(pair.key) ? String(pair.key.value) : undefined;
          const path = key ? `${key}.${k}` : String(k);
          if (k === undefined) {
            fail(pair.key ?? node, key, 'keys must be plain strings');
            continue;
          }
          if (Object.prototype.hasOwnProperty.call(out, k)) {
            fail(pair.key, path, 'duplicate key');
            continue;
          }
          let child: Schema | undefined;
          if (s.type === 'object') {
            child = s.props[k];
            if (!child) {
              fail(pair.key, path, `unknown key${suggest(k, Object.keys(s.props))}`);
              continue;
            }
          } else {
            if (s.keys && !s.keys.test(k)) {
              fail(pair.key, path, `unknown key: expected ${s.keysHint ?? 'a valid key'}`);
              continue;
            }
            if (s.known) {
              const known = [...s.known()];
              if (!known.includes(k)) {
                fail(pair.key, path, `unknown key: expected ${s.keysHint ?? 'one of'} (${known.join(', ')})${suggest(k, known)}`);
                continue;
              }
            }
            child = s.values;
          }
          const valueNode = pair.value;
          // `key:` with nothing after it means "use the default".
          if (valueNode === null || (isScalar(valueNode) && valueNode.value === null)) continue;
          const v = walk(valueNode, child, path);
          if (v !== undefined) out[k] = v;
        }
        if (s.type === 'object' && s.required) {
          for (const r of s.required)
            if (!(r in out) && !issues.some((i) => i.key.startsWith(key ? `${key}.${r}` : r)))
              fail(node, key, `missing required key "${r}"`);
        }
        return out;
      }
      case 'oneOf': {
        for (const option of s.of) {
          const before = issues.length;
          const v = walk(node, option, key);
          if (issues.length === before) return v;
          issues.length = before;
        }
        fail(node, key, `expected ${s.hint}, got ${nodeKind(node)}`);
        return undefined;
      }
    }
  };

  const root = isDocument(doc) ? doc.contents : null;
  if (root === null || (isScalar(root) && root.value === null)) return { value: {}, issues };
  const value = walk(root, schema, '');
  return { value: value ?? {}, issues };
}
