// Comment mode: what a pull request itself makes stale. Pure: the caller gathers the diff
// (`git diff --name-status -M base...head`), the added memory lines and the removed manifest
// text; this module matches them against the audit of the head.
import { posix } from 'node:path';
import type { Entry, Finding } from '../types.js';
import type { DiffChange } from './git.js';
import { checkable, describedAsPast } from '../checks/stale-common.js';

export interface ImpactHit {
  entryId: string | null;
  file: string;
  line: number;
  /** The reference as written in memory. */
  ref: string;
  /** The finding that flagged it, when the audit did. */
  finding?: Finding;
  message: string;
}

export interface PrImpact {
  kind: 'renamed' | 'deleted' | 'manifest';
  /** The path the pull request renamed away, deleted or (manifest) changed. */
  path: string;
  /** Renames: the new path. */
  to?: string;
  hits: ImpactHit[];
}

export interface PrAnalysis {
  impacts: PrImpact[];
  /** Findings on memory lines this pull request adds. */
  added: Finding[];
  /** Entries pointed at by something the PR changed (for counting and fail-on). */
  entryIds: string[];
  /** Every finding the comment reports (for fail-on). */
  findings: Finding[];
}

export interface PrAnalysisInput {
  changes: DiffChange[];
  findings: Finding[];
  entries: Entry[];
  /** Repository-relative memory file -> 1-based line numbers the PR adds. */
  addedLines: Map<string, Set<number>>;
  /** Changed manifest -> text of the lines the PR removed from it ('' when unknown). */
  manifestRemoved: Map<string, string>;
  /** Whether a repository-relative path exists at the head (a ref to it is then not stale). */
  existsAtHead: (path: string) => boolean;
  /**
   * The head audit's path check ran with the whole history: its findings are then the answer,
   * and a reference it did not flag was left alone on purpose (described as past, forbidden,
   * ignored output...). False (the default) when it could not (shallow clone, no history,
   * check disabled): path references are then matched against the diff directly.
   */
  pathRefsChecked?: boolean;
}

const PATH_KINDS = new Set(['path-missing', 'path-renamed', 'path-unverified', 'broken-link']);
const MANIFEST_KINDS = new Set(['script-missing', 'package-missing', 'package-renamed', 'version-drift']);

const MANIFEST_NAMES = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'yarn.lock',
  'bun.lockb',
  'Makefile',
  'makefile',
  'GNUmakefile',
  'justfile',
  'Justfile',
  '.justfile',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'Pipfile',
  'poetry.lock',
  'uv.lock',
  'Cargo.toml',
  'Cargo.lock',
  'go.mod',
  'Gemfile',
  'composer.json',
  '.nvmrc',
  '.node-version',
  '.tool-versions',
]);

export function isManifest(path: string): boolean {
  const base = posix.basename(path);
  return MANIFEST_NAMES.has(base) || /^requirements.*\.txt$/.test(base);
}

/** A path reference as written -> a repository-relative path (no ./, no trailing slash or punctuation). */
export function normalizeRef(ref: string): string {
  let r = ref.trim().replace(/^`+|`+$/g, '');
  r = r.replace(/[),.;:!?'"]+$/, '');
  r = r.replace(/^\.\//, '').replace(/\/+$/, '');
  return r;
}

/** The repository-relative paths a ref may mean: as written from the root, and from the memory file's folder. */
export function refCandidates(ref: string, memoryFile: string): string[] {
  const r = normalizeRef(ref);
  if (!r || r.startsWith('/') || /^[a-z]+:\/\//i.test(r)) return [];
  const out = [posix.normalize(r)];
  const dir = posix.dirname(memoryFile);
  if (dir && dir !== '.') {
    const rel = posix.normalize(posix.join(dir, r));
    if (!rel.startsWith('..') && !out.includes(rel)) out.push(rel);
  }
  return out;
}

/** `candidate` names `path` itself or a folder holding it. */
function pointsAt(candidate: string, path: string): boolean {
  return candidate === path || path.startsWith(`${candidate}/`);
}

/** A word boundary search of `name` in removed manifest text (script or package names). */
function mentions(text: string, name: string): boolean {
  if (!name) return false;
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_@/.-])${esc}($|[^A-Za-z0-9_/-])`, 'm').test(text);
}

function findingName(f: Finding): string[] {
  const names: string[] = [];
  if (f.ref) names.push(f.ref.replace(/^(npm|pnpm|yarn|bun)\s+(run\s+)?|^make\s+|^just\s+/, '').trim());
  const ev = f.evidence ?? {};
  for (const k of ['script', 'package', 'name', 'subject']) {
    const v = (ev as Record<string, unknown>)[k];
    if (typeof v === 'string') names.push(v);
  }
  return [...new Set(names.filter(Boolean))];
}

function hitKey(h: ImpactHit): string {
  return `${h.file}\0${h.line}\0${h.ref}`;
}

export function analysePullRequest(input: PrAnalysisInput): PrAnalysis {
  const entriesById = new Map(input.entries.map((e) => [e.id, e]));
  const impacts: PrImpact[] = [];
  const reported: Finding[] = [];

  const gone = input.changes.filter((c) => c.status === 'R' || c.status === 'D');
  // Group renames by their old path, deletions by path; keep diff order.
  for (const c of gone) {
    const oldPath = c.status === 'R' ? (c.from ?? '') : c.path;
    if (!oldPath) continue;
    const impact: PrImpact =
      c.status === 'R' ? { kind: 'renamed', path: oldPath, to: c.path, hits: [] } : { kind: 'deleted', path: oldPath, hits: [] };
    const seen = new Set<string>();
    // 1. Findings of the head audit that point at the path.
    for (const f of input.findings) {
      if (!PATH_KINDS.has(f.kind) || !f.ref) continue;
      const cands = refCandidates(f.ref, f.file);
      if (!cands.some((cand) => pointsAt(cand, oldPath))) continue;
      if (cands.some((cand) => input.existsAtHead(cand))) continue;
      const hit: ImpactHit = { entryId: f.entryId, file: f.file, line: f.line, ref: f.ref, finding: f, message: f.message };
      if (seen.has(hitKey(hit))) continue;
      seen.add(hitKey(hit));
      impact.hits.push(hit);
      reported.push(f);
    }
    // 2. Path references the checks did not flag, only when the path check could not run
    //    (shallow history, disabled check); with the same exemptions as the check: SUPERSEDED
    //    records, and text that says the path is gone or must not come back ("renamed from
    //    `x`", "`x` was removed; do not recreate it").
    for (const e of input.pathRefsChecked ? [] : input.entries) {
      if (!checkable(e)) continue;
      for (const ref of e.refs) {
        if (ref.kind !== 'path' && ref.kind !== 'import') continue;
        const cands = refCandidates(ref.value || ref.raw, e.file);
        if (!cands.some((cand) => pointsAt(cand, oldPath))) continue;
        if (cands.some((cand) => input.existsAtHead(cand))) continue;
        if (describedAsPast(e, ref, c.status === 'R' ? c.path : undefined)) continue;
        const hit: ImpactHit = {
          entryId: e.id,
          file: e.file,
          line: ref.line,
          ref: ref.raw,
          message: c.status === 'R' ? `${ref.raw} was renamed to ${c.path} in this pull request` : `${ref.raw} is deleted by this pull request`,
        };
        if (seen.has(hitKey(hit))) continue;
        seen.add(hitKey(hit));
        impact.hits.push(hit);
      }
    }
    if (impact.hits.length > 0) impacts.push(impact);
  }

  // 3. Manifests the PR changes: script / package / version findings whose name it removed.
  for (const c of input.changes) {
    const manifests = [c.path, ...(c.from ? [c.from] : [])].filter(isManifest);
    for (const m of manifests) {
      const removed = input.manifestRemoved.get(m);
      const impact: PrImpact = { kind: 'manifest', path: m, hits: [] };
      const seen = new Set<string>();
      for (const f of input.findings) {
        if (!MANIFEST_KINDS.has(f.kind)) continue;
        const names = findingName(f);
        const evManifest = (f.evidence as Record<string, unknown> | undefined)?.manifest;
        const related =
          removed === undefined || removed === ''
            ? typeof evManifest !== 'string' || evManifest === m
            : names.some((n) => mentions(removed, n));
        if (!related) continue;
        const hit: ImpactHit = { entryId: f.entryId, file: f.file, line: f.line, ref: f.ref ?? '', finding: f, message: f.message };
        if (seen.has(hitKey(hit))) continue;
        seen.add(hitKey(hit));
        impact.hits.push(hit);
        reported.push(f);
      }
      if (impact.hits.length > 0) impacts.push(impact);
    }
  }

  // 4. Findings on memory lines the PR adds (preventive filters, secrets, and anything else).
  const added = input.findings.filter((f) => input.addedLines.get(f.file)?.has(f.line) ?? false);

  const entryIds = new Set<string>();
  for (const i of impacts) for (const h of i.hits) if (h.entryId && entriesById.has(h.entryId)) entryIds.add(h.entryId);
  for (const f of added) if (f.entryId) entryIds.add(f.entryId);
  const all = [...new Set([...reported, ...added])];
  return { impacts, added, entryIds: [...entryIds].sort(), findings: all };
}
