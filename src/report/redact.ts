// Secret redaction for every output: entry text, messages, refs, logs. The value of a secret is
// never written anywhere; reports show `[REDACTED:<kind>]` in its place.
import { detectSecrets, type SecretRange } from '../checks/fidelity/secrets.js';

export type { SecretRange };

/** Ranges of secret values in `text` ([start, end) character offsets, sorted, non-overlapping). */
export function findSecretRanges(text: string): Array<{ start: number; end: number; rule: string }> {
  return detectSecrets(text);
}

/** `text` with every secret value replaced by `[REDACTED:<kind>]`. */
export function redactSecrets(text: string): string {
  if (typeof text !== 'string' || text.length === 0) return text;
  const ranges = detectSecrets(text);
  if (ranges.length === 0) return text;
  let out = '';
  let at = 0;
  for (const r of ranges) {
    out += text.slice(at, r.start) + `[REDACTED:${r.rule}]`;
    at = r.end;
  }
  return out + text.slice(at);
}

/** Deeply redacts every string inside a JSON-like value (objects, arrays, Maps are not expected). */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as unknown as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as unknown as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}
