// version-drift: a stated version of a runtime ("Node 18+", "Python 3.9-3.13"), a
// dependency ("React 17", "vitest 1.x") or the project itself ("v0.2.0") that no longer
// matches the manifests. Dependencies: a major (for 0.x: minor) mismatch. Runtimes: the
// stated minimum against the declared minimum, at the precision written.
import type { Check, CheckContext, Entry, Evidence, Finding, Reference } from '../types.js';
import { checkable, finding } from './stale-common.js';

const RUNTIMES = new Set(['node', 'python', 'go', 'rust', 'ruby', 'java', 'deno', 'bun', 'php']);
/** Runtime -> its name in messages. A Map: the subject comes from memory text and must never read Object.prototype. */
const RUNTIME_LABEL = new Map<string, string>(Object.entries({ node: 'Node.js', python: 'Python', go: 'Go', rust: 'Rust', ruby: 'Ruby', java: 'Java', deno: 'Deno', bun: 'Bun', php: 'PHP' }));

export function parseVersion(s: string): number[] | null {
  const m = /v?(\d+(?:\.\d+){0,3})/.exec(s);
  if (!m) return null;
  return m[1].split('.').map(Number);
}

/** The lowest version a spec admits (`>=3.10` -> 3.10, `^18.2` -> 18.2, `18 || 20` -> 18). */
const lbCache = new Map<string, number[] | null>();

export function lowerBound(spec: string): number[] | null {
  const hit = lbCache.get(spec);
  if (hit !== undefined) return hit ? [...hit] : null;
  const v = computeLowerBound(spec);
  if (lbCache.size < 10_000) lbCache.set(spec, v ? [...v] : null);
  return v;
}

function computeLowerBound(spec: string): number[] | null {
  let best: number[] | null = null;
  for (const alt of spec.split('||')) {
    const parts = alt.trim().split(/[\s,]+/).filter(Boolean);
    let lb: number[] | null = null;
    for (let k = 0; k < parts.length; k++) {
      let p = parts[k];
      if (/^(>=|>|\^|~=|~|==|=)$/.test(p) && parts[k + 1]) p = p + parts[++k];
      if (/^</.test(p) || /^!=/.test(p)) continue;
      const v = parseVersion(p.replace(/^(>=|>|\^|~=|~|===|==|=)/, ''));
      if (!v) continue;
      if (/^>[^=]/.test(p)) v[v.length - 1] += 0; // exclusive bound: keep as written
      lb = v;
      break;
    }
    if (lb && (!best || compare(lb, best) < 0)) best = lb;
  }
  return best;
}

export function compare(a: number[], b: number[]): number {
  const n = Math.max(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const d = (a[k] ?? 0) - (b[k] ?? 0);
    if (d) return d;
  }
  return 0;
}

function truncate(v: number[], n: number): number[] {
  const out = v.slice(0, n);
  while (out.length < n) out.push(0);
  return out;
}

/** Major, or major.minor for 0.x. */
function line(v: number[]): string {
  return v[0] === 0 ? `0.${v[1] ?? 0}` : String(v[0]);
}

/** A list of versions as the reader keeps it in `version` ("17 and 25", "3.10, 3.11"). */
const VERSION_LIST = /,|\s(?:and|or|&)\s/;

/**
 * Whether a declared runtime spec is a lower bound (an operator, a `||` union, a hyphen range) rather
 * than one pinned version (`.nvmrc`, `.python-version`, `.tool-versions`, volta): go.mod's `go`
 * directive is the minimum Go the module needs, written bare.
 */
function isFloor(spec: string, source: string): boolean {
  return /[<>^~|*]|\s-\s|\.x\b/.test(spec) || /(?:^|\/)go\.mod$/.test(source);
}

export function checkVersionRef(entry: Entry, ref: Reference, ev: Evidence): Finding | null {
  if (ref.kind !== 'version' || !ref.subject || !ref.version) return null;
  // "Java 17 and 25", "Node 18, 20 or 22" (the reader keeps the whole list in `version`): a support
  // matrix, not the one version a manifest declares. Any of its members may be right, and a correction
  // of one member ("Java 21 and 25", "Node 22 and 22") would be wrong: never compared.
  if (VERSION_LIST.test(ref.version)) return null;
  const raw = ref.version.replace(/\+$/, '');
  const [loText] = raw.split(/\s?(?:-|–|to)\s?/);
  const stated = parseVersion(loText);
  if (!stated) return null;
  const subject = ref.subject;
  const written = ref.raw;

  if (subject === '(project)') {
    const roots = ev.manifests.projectVersions.filter((p) => !p.manifest.includes('/'));
    if (roots.length !== 1) return null;
    const cur = parseVersion(roots[0].version);
    if (!cur || line(cur) === line(stated)) return null;
    return finding(
      entry, ref, 'version-drift', 'warning',
      `\`${written}\` is out of date: \`${roots[0].manifest}\` says the project is at version ${roots[0].version}; update the version.`,
      { now: roots[0].version, manifest: roots[0].manifest },
      { replace: written.replace(loText, (loText.startsWith('v') ? 'v' : '') + roots[0].version) },
    );
  }

  if (RUNTIMES.has(subject)) {
    const rt = ev.manifests.runtimes.get(subject);
    if (!rt) return null;
    const lb = lowerBound(rt.spec);
    if (!lb) return null;
    const prec = Math.min(stated.length, 3);
    const lbT = truncate(lb, prec);
    const st = truncate(stated, prec);
    const span = /[-–]|to/.test(raw);
    // "Node 20–22" is the range the project is tested on; a pinned version (`.nvmrc` 22, `.tool-versions`
    // java 21) is the one a developer runs, which any range member may be: only a declared floor
    // (`>=3.10`, `^20`, go.mod's `go 1.22`) is the range's lower end.
    if (span && !isFloor(rt.spec, rt.source)) return null;
    const ranged = ref.bound === 'atLeast' || span;
    const drift = ranged ? compare(st, lbT) !== 0 : compare(st, lbT) < 0;
    if (!drift) return null;
    const label = RUNTIME_LABEL.get(subject) ?? subject;
    const newText = lbT.join('.');
    return finding(
      entry, ref, 'version-drift', 'warning',
      `\`${written}\` no longer matches the project: \`${rt.source}\` requires ${label} \`${rt.spec}\`; update the stated version to ${newText}${ranged ? '+' : ''}.`,
      { now: rt.spec, source: rt.source, runtime: subject },
      { replace: written.replace(loText.replace(/^v/, ''), newText) },
    );
  }

  const deps = ev.manifests.dependencies.get(subject.toLowerCase());
  if (!deps || !deps.length) return null;
  // The version in use: the lockfile's, else the lowest the spec admits; the highest across manifests.
  let cur: number[] | null = null;
  let curText = '';
  let where = '';
  for (const d of deps) {
    const v = d.locked ? parseVersion(d.locked) : /^(workspace|catalog|link|file|git|github|npm):/.test(d.spec) ? null : lowerBound(d.spec);
    if (v && (!cur || compare(v, cur) > 0)) {
      cur = v;
      curText = d.locked ?? d.spec;
      where = d.manifest;
    }
  }
  if (!cur) return null;
  if (stated.length === 1 || stated[0] !== 0) {
    if (stated[0] === cur[0]) return null;
  } else if (line(stated) === line(cur)) return null;
  if (ref.bound === 'atLeast' && compare(cur, stated) >= 0 && stated[0] !== 0) {
    // "React 17+" is still true of React 18 — unless the memory pins the old line.
    return null;
  }
  const newText = cur[0] === 0 ? `0.${cur[1] ?? 0}` : String(cur[0]);
  return finding(
    entry, ref, 'version-drift', 'warning',
    `\`${written}\` is out of date: \`${where}\` uses ${subject} ${curText}; update the version to ${newText}${stated.length > 1 && cur[0] !== 0 ? '' : ''}.`,
    { now: curText, manifest: where, package: subject },
    // "vitest 1.x" becomes "vitest 3.x": the written wildcard stays.
    { replace: written.replace(loText, (loText.startsWith('v') ? 'v' : '') + (stated.length > 1 ? cur.slice(0, stated.length).join('.') : newText + (/(?:\.[xX*])+$/.exec(loText)?.[0] ?? ''))) },
  );
}

export const versionCheck: Check = {
  id: 'version',
  kinds: ['version-drift'],
  severity: 'warning',
  description: 'Stated runtime, dependency and project versions that no longer match the manifests and lockfiles.',
  run(ctx: CheckContext): Finding[] {
    const out: Finding[] = [];
    for (const entry of ctx.entries) {
      if (!checkable(entry)) continue;
      for (const ref of entry.refs) {
        if (ref.kind !== 'version') continue;
        const f = checkVersionRef(entry, ref, ctx.evidence);
        if (f) out.push(f);
      }
    }
    return out;
  },
};
