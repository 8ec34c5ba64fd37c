// Scores the staleness checks on time-travel cases: the six real-repository cases in
// ../shared/eval/cases (a project's CLAUDE.md / AGENTS.md at an older commit audited
// against the project today) and the labelled scenario suite in test/staleness/.
// Prints recall, successor accuracy and false-positive rate per case and per kind, and
// asserts the quality bar of issue 3 (>= 90% recall, >= 90% successors, <= 5% FP).
//
//   npx vitest run --config vitest.eval.config.ts eval/staleness.eval.ts
//
// Case builds are cached under $TMPDIR/memory-audit-eval/ (rebuilt when case.json changes).
// STALENESS_CASES=<dir> points at another case pack; reports go to $TMPDIR/memory-audit-eval/*.report.json.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../src/audit.js';
import type { Report } from '../src/types.js';
import { SCENARIOS } from '../test/staleness/scenarios.js';
import { cleanupRepos } from '../test/staleness/helpers.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHARED = resolve(HERE, '../../shared/eval');
const CASES = process.env.STALENESS_CASES ?? join(SHARED, 'cases');
const SCORER = join(SHARED, 'score.mjs');
const BUILDER = join(SHARED, 'build-case.mjs');
const WORK = join(tmpdir(), 'memory-audit-eval');

const FAMILY: Record<string, string> = {
  'path-missing': 'path', 'path-renamed': 'path', 'script-missing': 'script', 'command-changed': 'script',
  'package-missing': 'package', 'package-renamed': 'package', 'version-drift': 'version', 'count-drift': 'count', 'status-drift': 'status',
};

interface Kase {
  name: string;
  memory_path: string;
  expected: Array<{ line: number; ref: string; kind: string; now?: string }>;
  negatives: Array<{ line: number; ref: string; type: string }>;
}

interface Row {
  case: string;
  expected: number;
  found: number;
  renames: number;
  renamesRight: number;
  negatives: number;
  falsePositives: number;
  missed: string[];
  falsePositiveRefs: string[];
  /** Share of found items whose kind (not only family) is the labelled one. */
  kindAccuracy: number | null;
  byKind: Record<string, { expected: number; found: number }>;
  byNegType: Record<string, { negatives: number; fp: number }>;
  ms: number;
}

// The scorer's matching, per item (score.mjs gives totals; per-kind numbers are computed here the same way).
const norm = (s: unknown) => String(s ?? '').trim().replace(/^[`'"(]+|[`'").,:;]+$/g, '').replace(/^\.\//, '').replace(/\/+$/, '');
const overlaps = (a: unknown, b: unknown) => {
  const x = norm(a);
  const y = norm(b);
  return x !== '' && y !== '' && (x.includes(y) || y.includes(x));
};

function perKind(kase: Kase, report: Report): Pick<Row, 'byKind' | 'byNegType'> {
  const stale = report.findings.filter((f) => FAMILY[f.kind] && norm(f.file) === norm(kase.memory_path));
  const at = (line: number, ref: string) => stale.filter((f) => f.line === line && overlaps(f.ref, ref));
  const byKind: Row['byKind'] = {};
  for (const e of kase.expected) {
    const k = (byKind[e.kind] ??= { expected: 0, found: 0 });
    k.expected++;
    if (at(e.line, e.ref).some((f) => FAMILY[f.kind] === FAMILY[e.kind])) k.found++;
  }
  const byNegType: Row['byNegType'] = {};
  for (const n of kase.negatives) {
    const k = (byNegType[n.type] ??= { negatives: 0, fp: 0 });
    k.negatives++;
    if (at(n.line, n.ref).length) k.fp++;
  }
  return { byKind, byNegType };
}

function score(caseJson: string, reportJson: string): Omit<Row, 'byKind' | 'byNegType' | 'ms'> {
  const out = execFileSync(process.execPath, [SCORER, caseJson, reportJson, '--json'], { encoding: 'utf8' });
  return JSON.parse(out);
}

/** Builds a shared case once per case.json content. */
function buildCase(name: string): string {
  const src = join(CASES, name);
  const dest = join(WORK, name);
  const stamp = createHash('sha256').update(readFileSync(join(src, 'case.json'))).digest('hex');
  const stampFile = join(WORK, `${name}.stamp`);
  if (!(existsSync(join(dest, '.git')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp)) {
    execFileSync(process.execPath, [BUILDER, src, dest], { stdio: 'pipe' });
    writeFileSync(stampFile, stamp);
  }
  return dest;
}

const rows: Row[] = [];
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(0)}%` : 'n/a');

function printTable(): void {
  if (!rows.length) return;
  const lines: string[] = [];
  const pad = (s: string, n: number) => s.padEnd(n);
  lines.push('', `${pad('case', 30)} ${pad('recall', 14)} ${pad('successors', 12)} ${pad('false pos.', 12)} ${pad('kind ok', 8)} ms`);
  const tot = { e: 0, f: 0, r: 0, rr: 0, n: 0, fp: 0 };
  const kinds: Record<string, { expected: number; found: number }> = {};
  const negs: Record<string, { negatives: number; fp: number }> = {};
  for (const r of rows) {
    lines.push(`${pad(r.case, 30)} ${pad(`${pct(r.found, r.expected)} (${r.found}/${r.expected})`, 14)} ${pad(`${pct(r.renamesRight, r.renames)} (${r.renamesRight}/${r.renames})`, 12)} ${pad(`${pct(r.falsePositives, r.negatives)} (${r.falsePositives}/${r.negatives})`, 12)} ${pad(r.kindAccuracy === null ? 'n/a' : `${(100 * r.kindAccuracy).toFixed(0)}%`, 8)} ${r.ms}`);
    for (const m of r.missed) lines.push(`    missed          ${m}`);
    for (const m of r.falsePositiveRefs) lines.push(`    false positive  ${m}`);
    tot.e += r.expected; tot.f += r.found; tot.r += r.renames; tot.rr += r.renamesRight; tot.n += r.negatives; tot.fp += r.falsePositives;
    for (const [k, v] of Object.entries(r.byKind)) { const t = (kinds[k] ??= { expected: 0, found: 0 }); t.expected += v.expected; t.found += v.found; }
    for (const [k, v] of Object.entries(r.byNegType)) { const t = (negs[k] ??= { negatives: 0, fp: 0 }); t.negatives += v.negatives; t.fp += v.fp; }
  }
  lines.push(`${pad('TOTAL', 30)} ${pad(`${pct(tot.f, tot.e)} (${tot.f}/${tot.e})`, 14)} ${pad(`${pct(tot.rr, tot.r)} (${tot.rr}/${tot.r})`, 12)} ${pad(`${pct(tot.fp, tot.n)} (${tot.fp}/${tot.n})`, 12)}`);
  lines.push('', 'recall per kind:');
  for (const [k, v] of Object.entries(kinds).sort()) lines.push(`  ${pad(k, 16)} ${pct(v.found, v.expected)} (${v.found}/${v.expected})`);
  lines.push('false positives per negative type:');
  for (const [k, v] of Object.entries(negs).sort()) lines.push(`  ${pad(k, 16)} ${pct(v.fp, v.negatives)} (${v.fp}/${v.negatives})`);
  console.log(lines.join('\n'));
}

afterAll(async () => {
  printTable();
  await cleanupRepos();
});

async function evaluate(kase: Kase, root: string): Promise<Row> {
  const t0 = performance.now();
  const { report } = await audit({ root, memory: [kase.memory_path] });
  const ms = Math.round(performance.now() - t0);
  mkdirSync(WORK, { recursive: true });
  const reportPath = join(WORK, `${kase.name}.report.json`);
  const casePath = join(WORK, `${kase.name}.case.json`);
  writeFileSync(reportPath, JSON.stringify(report, null, 1));
  writeFileSync(casePath, JSON.stringify(kase));
  const row: Row = { ...score(casePath, reportPath), ...perKind(kase, report), ms };
  rows.push(row);
  return row;
}

const sharedCases = existsSync(CASES) && existsSync(SCORER) ? readdirSync(CASES).filter((d) => existsSync(join(CASES, d, 'case.json'))).sort() : [];

describe('staleness on time-travel cases', () => {
  it.skipIf(sharedCases.length === 0)('shared real-repository cases meet the bar', async () => {
    mkdirSync(WORK, { recursive: true });
    const got: Row[] = [];
    for (const name of sharedCases) {
      const kase = JSON.parse(readFileSync(join(CASES, name, 'case.json'), 'utf8')) as Kase;
      const root = buildCase(name);
      got.push(await evaluate({ ...kase, name: kase.name ?? name }, root));
    }
    const sum = (f: (r: Row) => number) => got.reduce((a, r) => a + f(r), 0);
    expect(sum((r) => r.found) / sum((r) => r.expected)).toBeGreaterThanOrEqual(0.9);
    expect(sum((r) => r.renamesRight) / Math.max(1, sum((r) => r.renames))).toBeGreaterThanOrEqual(0.9);
    expect(sum((r) => r.falsePositives) / sum((r) => r.negatives)).toBeLessThanOrEqual(0.05);
    for (const r of got) expect(r.falsePositives / Math.max(1, r.negatives)).toBeLessThanOrEqual(0.05);
  }, 600_000);

  it.skipIf(!existsSync(SCORER))('labelled scenario suite meets the bar', async () => {
    const got: Row[] = [];
    for (const s of SCENARIOS) {
      const b = await s.build();
      got.push(await evaluate({ name: b.name, memory_path: b.memory_path, expected: b.expected, negatives: b.negatives }, b.dir));
    }
    for (const r of got) {
      expect(r.found / r.expected).toBeGreaterThanOrEqual(0.9);
      expect(r.falsePositives).toBe(0);
      if (r.renames) expect(r.renamesRight / r.renames).toBeGreaterThanOrEqual(0.9);
    }
  }, 300_000);
});
