// Scores a memory-audit JSON report against the known answers of a generated memory set:
// recall and precision per kind, successor accuracy for renames, findings on valid refs.
import { GATED_KINDS, EXTRA_KINDS } from './memory.mjs';

const norm = (s) =>
  String(s ?? '')
    .trim()
    .replace(/^`+|`+$/g, '')
    .replace(/^\.\//, '')
    .replace(/\/+$/, '')
    .toLowerCase();

const refMatch = (a, b) => {
  if (!a || !b) return true;
  const x = norm(a);
  const y = norm(b);
  return x.includes(y) || y.includes(x);
};

function successorOf(f) {
  const now = f.evidence && typeof f.evidence === 'object' ? f.evidence.now : undefined;
  return [now, f.suggestion?.replace].filter((v) => typeof v === 'string').map(norm);
}

/**
 * @param {object} report memory-audit JSON report
 * @param {object} answers known answers from generateMemory
 */
export function scoreReport(report, answers) {
  const entries = new Map((report.entries ?? []).map((e) => [e.id, e]));
  const at = (f, loc) => {
    if (f.file !== loc.file) {
      const e = f.entryId ? entries.get(f.entryId) : undefined;
      if (!e || e.file !== loc.file) return false;
    }
    if (f.line === loc.line) return true;
    const e = f.entryId ? entries.get(f.entryId) : undefined;
    return !!e && e.file === loc.file && e.line <= loc.line && loc.line <= e.endLine;
  };
  const findings = report.findings ?? [];
  const kinds = {};
  const all = { ...GATED_KINDS, ...EXTRA_KINDS };
  for (const [kind, fkinds] of Object.entries(all)) {
    const fs = findings.filter((f) => fkinds.includes(f.kind));
    let items;
    if (kind === 'duplicate') items = answers.duplicates.map((g) => ({ locs: g }));
    else if (kind === 'ephemeral') items = answers.ephemeral.map((l) => ({ locs: [l] }));
    else items = answers.expected.filter((x) => fkinds.includes(x.kind)).map((x) => ({ locs: [x], ref: x.ref, now: x.now, kind: x.kind }));
    const matches = (f, it) => it.locs.some((l) => at(f, l)) && (kind === 'duplicate' || kind === 'ephemeral' || refMatch(f.ref, it.ref));
    let found = 0;
    let succTotal = 0;
    let succOk = 0;
    const missed = [];
    for (const it of items) {
      const hit = fs.filter((f) => matches(f, it));
      if (hit.length) found++;
      else if (missed.length < 5) missed.push({ ...it.locs[0], ref: it.ref });
      if (it.now && (it.kind === 'path-renamed' || it.kind === 'package-renamed')) {
        succTotal++;
        const want = norm(it.now);
        if (hit.some((f) => successorOf(f).some((s) => s === want || s.endsWith(want)))) succOk++;
      }
    }
    let tp = 0;
    const fpExamples = [];
    for (const f of fs) {
      if (items.some((it) => matches(f, it))) tp++;
      else if (fpExamples.length < 5) fpExamples.push({ file: f.file, line: f.line, kind: f.kind, ref: f.ref, message: f.message });
    }
    kinds[kind] = {
      gated: kind in GATED_KINDS,
      expected: items.length,
      findings: fs.length,
      implemented: fs.length > 0,
      found,
      recall: items.length ? found / items.length : null,
      precision: fs.length ? tp / fs.length : null,
      successor: succTotal ? { total: succTotal, correct: succOk, accuracy: succOk / succTotal } : undefined,
      missed,
      falsePositives: fpExamples,
    };
  }
  // Findings of the staleness families on references known to be valid.
  const staleKinds = new Set(['path-missing', 'path-renamed', 'script-missing', 'package-missing', 'package-renamed', 'count-drift', 'version-drift']);
  let onValid = 0;
  for (const n of answers.negatives) if (findings.some((f) => staleKinds.has(f.kind) && at(f, n) && refMatch(f.ref, n.ref))) onValid++;
  return { kinds, negatives: answers.negatives.length, flaggedValid: onValid, falsePositiveRate: answers.negatives.length ? onValid / answers.negatives.length : 0 };
}

/** Correctness verdict: gated kinds that are implemented must reach the recall bar. */
export function correctnessFailures(score, { minRecall = 0.9, strict = false } = {}) {
  const fails = [];
  for (const [k, v] of Object.entries(score.kinds)) {
    if (!v.gated || v.expected === 0) continue;
    if (!v.implemented) {
      if (strict) fails.push(`${k}: no findings of this kind (check not implemented?)`);
      continue;
    }
    if (v.recall < minRecall) fails.push(`${k}: recall ${v.recall.toFixed(2)} < ${minRecall}`);
    if (v.successor && v.successor.accuracy < minRecall) fails.push(`${k}: successor accuracy ${v.successor.accuracy.toFixed(2)} < ${minRecall}`);
  }
  return fails;
}
