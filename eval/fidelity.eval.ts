// Scores the fidelity and hygiene checks against the labelled fixture suite in
// eval/fixtures/fidelity/: precision and recall per check, printed and asserted.
//
//   npx vitest run --config vitest.eval.config.ts eval/fidelity.eval.ts
//
// The fixture projects are copied to a temporary folder first, with every {{SECRET:kind}}
// placeholder replaced by a pattern-valid fake value built here by concatenation (so no
// token-shaped string is ever committed); each project is committed into its own git
// repository and audited through the whole pipeline (discovery, parser, evidence, checks).
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { audit } from '../src/audit.js';
import type { Entry, Finding } from '../src/types.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(HERE, 'fixtures/fidelity');
const CHECKS = ['ephemeral', 'duplicate', 'contradiction', 'broken-link', 'secret'] as const;
type CheckId = (typeof CHECKS)[number];

/** Fake, pattern-valid secrets: assembled at run time, never stored whole in the repository. */
export const FAKE_SECRETS: Record<string, string> = {
  stripe: 'sk_' + 'test_' + 'FAKE' + '51Hx9Qz7Lw3Kp2Vn8Rt4Ym6B',
  pgpass: 'Zr8q' + 'Lw2Xv9mT4k',
  jwt:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
    '.' +
    'eyJzdWIiOiJiaWxsaW5nLWxvY2FsIiwiaWF0IjoxNzAwMDAwMDAwfQ' +
    '.' +
    'c2lnbmF0dXJlLW5vdC1yZWFsLWp1c3QtYS10ZXN0',
  github: 'ghp_' + ('FAKE' + 'x0Tk9Lm2Nq4Rs6Tv8Wx1Yz3Ab5Cd7Ef' + 'Gh0000').slice(0, 36),
  google: 'AIza' + ('SyFAKE' + '0a1b2c3d4e5f6g7h8i9j0k1l2m3n' + 'o4p5q6r7').slice(0, 35),
  urlpass: 'Q4vz9' + 'Lk2Rm7',
  snowpass: 'Wq7' + 'zN4rT8vLp2',
  slackhook: 'https://hooks.slack.com/services/' + 'T0FAKE123' + '/B0FAKE456/' + 'FAKEfake0123456789abcdef',
};

interface Label {
  project: string;
  file: string;
  match: string;
  checks: CheckId[];
  filter?: string;
}

function materialise(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fidelity-eval-'));
  cpSync(FIXTURES, dir, { recursive: true });
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const t = readFileSync(p, 'utf8');
        if (n !== 'labels.json' && t.includes('{{SECRET:'))
          writeFileSync(
            p,
            t.replace(/\{\{SECRET:(\w+)\}\}/g, (_, k: string) => {
              const v = FAKE_SECRETS[k];
              if (!v) throw new Error(`unknown secret placeholder ${k}`);
              return v;
            }),
          );
      }
    }
  };
  walk(dir);
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Eval',
    GIT_AUTHOR_EMAIL: 'eval@example.com',
    GIT_COMMITTER_NAME: 'Eval',
    GIT_COMMITTER_EMAIL: 'eval@example.com',
    GIT_AUTHOR_DATE: '2026-03-02T10:00:00Z',
    GIT_COMMITTER_DATE: '2026-03-02T10:00:00Z',
  };
  for (const project of readdirSync(dir)) {
    const cwd = join(dir, project);
    if (!statSync(cwd).isDirectory()) continue;
    for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '-m', 'memory']])
      execFileSync('git', args, { cwd, env, stdio: 'pipe' });
  }
  return dir;
}

function entryFor(entries: Entry[], label: Label): Entry {
  const hits = entries.filter((e) => e.file === label.file && e.text.includes(label.match));
  if (!hits.length) throw new Error(`label does not match any entry: ${label.project}/${label.file}: ${label.match}`);
  hits.sort((a, b) => a.end - a.start - (b.end - b.start));
  return hits[0];
}

interface Score {
  tp: number;
  fp: number;
  fn: number;
  falsePositives: string[];
  falseNegatives: string[];
}

describe('fidelity checks against the labelled fixture suite', () => {
  const root = materialise();
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const { labels } = JSON.parse(readFileSync(join(FIXTURES, 'labels.json'), 'utf8')) as { labels: Label[] };
  const projects = [...new Set(readdirSync(root).filter((n) => statSync(join(root, n)).isDirectory()))].sort();
  const scores = Object.fromEntries(CHECKS.map((c) => [c, { tp: 0, fp: 0, fn: 0, falsePositives: [], falseNegatives: [] }])) as Record<CheckId, Score>;
  const filterHits = { right: 0, total: 0 };
  let entryCount = 0;
  const types = new Map<string, number>();
  const allFindings: Finding[] = [];
  const reports: string[] = [];

  it.each(projects)('audits %s', async (project) => {
    const res = await audit({ root: join(root, project), now: new Date('2026-03-10T00:00:00Z'), checks: [...CHECKS] });
    const { entries } = res;
    const findings = res.findings;
    allFindings.push(...findings);
    reports.push(JSON.stringify(res.report));
    entryCount += entries.length;
    for (const e of entries) types.set(e.type, (types.get(e.type) ?? 0) + 1);
    const predicted = new Map<string, Set<CheckId>>();
    for (const f of findings) {
      const check = (f.kind === 'broken-link' ? 'broken-link' : f.kind) as CheckId;
      if (!CHECKS.includes(check) || !f.entryId) continue;
      // a duplicate finding names both members of the pair: the one to delete and the keeper
      const ids = [f.entryId];
      const now = (f.evidence as { now?: unknown } | undefined)?.now;
      if (check === 'duplicate' && typeof now === 'string') ids.push(now);
      for (const id of ids) {
        const s = predicted.get(id) ?? new Set<CheckId>();
        s.add(check);
        predicted.set(id, s);
      }
    }
    const expected = new Map<string, { checks: Set<CheckId>; filter?: string }>();
    for (const l of labels.filter((x) => x.project === project)) {
      const e = entryFor(entries, l);
      const cur = expected.get(e.id) ?? { checks: new Set<CheckId>() };
      for (const c of l.checks) cur.checks.add(c);
      if (l.filter) cur.filter = l.filter;
      expected.set(e.id, cur);
    }
    for (const e of entries) {
      const p = predicted.get(e.id) ?? new Set<CheckId>();
      const x = expected.get(e.id)?.checks ?? new Set<CheckId>();
      const where = `${project}/${e.file}:${e.line}`;
      for (const c of CHECKS) {
        if (p.has(c) && x.has(c)) scores[c].tp++;
        else if (p.has(c)) {
          scores[c].fp++;
          scores[c].falsePositives.push(where);
        } else if (x.has(c)) {
          scores[c].fn++;
          scores[c].falseNegatives.push(where);
        }
      }
      const want = expected.get(e.id)?.filter;
      if (want && p.has('ephemeral')) {
        filterHits.total++;
        const f = findings.find((y) => y.entryId === e.id && y.kind === 'ephemeral');
        if ((f?.evidence as { filter?: string })?.filter === want) filterHits.right++;
      }
    }
  });

  const rows = () => CHECKS.map((c) => {
    const s = scores[c];
    const precision = s.tp + s.fp ? s.tp / (s.tp + s.fp) : 1;
    const recall = s.tp + s.fn ? s.tp / (s.tp + s.fn) : 1;
    return { check: c, tp: s.tp, fp: s.fp, fn: s.fn, precision: +precision.toFixed(3), recall: +recall.toFixed(3) };
  });
  it('prints precision and recall per check', () => {
  console.log(
    `\nfidelity eval: ${projects.length} projects, ${entryCount} entries (${[...types].map(([t, n]) => `${t} ${n}`).join(', ')})\n` +
      rows().map((r) => `  ${r.check.padEnd(14)} precision ${r.precision.toFixed(3)}  recall ${r.recall.toFixed(3)}  (tp ${r.tp}, fp ${r.fp}, fn ${r.fn})`).join('\n') +
      `\n  ephemeral filter id agreement: ${filterHits.right}/${filterHits.total}\n` +
      CHECKS.flatMap((c) => [
        ...scores[c].falsePositives.map((w) => `  FP ${c}: ${w}`),
        ...scores[c].falseNegatives.map((w) => `  FN ${c}: ${w}`),
      ]).join('\n'),
  );
  });

  it('covers at least 150 entries of all seven types', () => {
    expect(entryCount).toBeGreaterThanOrEqual(150);
    for (const t of ['project', 'decision', 'pattern', 'reference', 'feedback', 'user', 'ephemeral'])
      expect(types.get(t) ?? 0, `entries of type ${t}`).toBeGreaterThan(0);
  });

  for (const c of CHECKS) {
    it(`${c}: precision >= 0.9`, () => {
      expect(rows().find((r) => r.check === c)!.precision).toBeGreaterThanOrEqual(0.9);
    });
  }
  for (const c of ['ephemeral', 'duplicate', 'broken-link', 'secret'] as const) {
    it(`${c}: recall >= 0.85`, () => {
      expect(rows().find((r) => r.check === c)!.recall).toBeGreaterThanOrEqual(0.85);
    });
  }

  it('never writes a secret value into findings or the JSON report', () => {
    const json = JSON.stringify(allFindings) + reports.join('');
    for (const v of Object.values(FAKE_SECRETS)) expect(json.includes(v)).toBe(false);
  });
});
