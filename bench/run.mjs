#!/usr/bin/env node
// memory-audit benchmark: `npm run bench [-- options]`
//
//   --sizes small,medium,large   repository sizes (default: all three)
//   --sets 100,1000,10000        memory-set sizes; when given, every size x set pair runs
//                                (default: the sensible pairs small x100, small x1000,
//                                medium x1000, medium x10000, large x10000)
//   --seed N                     generator seed (default 1)
//   --smoke                      small repo x 100 entries, correctness only; exit 1 when an
//                                implemented, gated kind has recall < 0.9 (CI runs this)
//   --strict                     also fail when a gated kind has no findings at all
//   --cli PATH                   the built CLI (default dist/cli.js); the Action is the
//                                index.js next to it
//   --out DIR                    where results.json / results.md go (default bench/,
//                                bench/.cache/smoke/ for --smoke)
//   --repeat N                   measure each audit and baseline N times, keep the median
//   --no-extras                  skip the Action cold start and prune --dry-run
//   --cache DIR                  where generated repositories live (default bench/.cache)
//   --render FILE                print (and with --out, write) the markdown of a results.json
//
// Repositories and memory sets are cached under bench/.cache/ (keyed by size, seed and
// generator versions). See docs/bench.md.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir, release, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureRepo, SIZES, GEN_VERSION } from './lib/repo.mjs';
import { ensureMemorySet, checkout, memBranch } from './lib/memset.mjs';
import { MEM_VERSION, GATED_KINDS, EXTRA_KINDS } from './lib/memory.mjs';
import { scoreReport, correctnessFailures } from './lib/score.mjs';
import { runMeasured, gitBaseline, median, rssMethod } from './lib/measure.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STAGES = ['discover', 'parse', 'evidence', 'checks', 'decide'];
const PARSE_KEYS = ['read', 'parse', 'refs'];
// Keys that only sum others (`memory` = discover + read + parse + refs): not listed again.
const AGGREGATES = ['memory'];
const SENSIBLE = { small: [100, 1000], medium: [1000, 10000], large: [10000] };
const AUDIT_TIMEOUT_MS = 20 * 60 * 1000;
const INPROC_ROUNDS = 7; // in-process parse+checks rounds (the first is the cold one)

const { values: opt } = parseArgs({
  options: {
    sizes: { type: 'string' },
    sets: { type: 'string' },
    seed: { type: 'string', default: '1' },
    smoke: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    cli: { type: 'string', default: 'dist/cli.js' },
    out: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    'no-extras': { type: 'boolean', default: false },
    cache: { type: 'string' },
    render: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opt.help) {
  const src = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  const lines = src.split('\n').slice(1);
  const head = lines.slice(0, lines.findIndex((l) => !l.startsWith('//')));
  process.stdout.write(head.map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
  process.exit(0);
}

const CACHE = resolve(ROOT, opt.cache ?? join('bench', '.cache'));
const log = (...a) => process.stderr.write(`[bench] ${a.join(' ')}\n`);
const seed = Number(opt.seed);
const repeat = Math.max(1, Number(opt.repeat) || 1);
const cli = resolve(ROOT, opt.cli);
const outDir = resolve(ROOT, opt.out ?? (opt.smoke ? 'bench/.cache/smoke' : 'bench'));
if (!opt.render && !existsSync(cli)) {
  log(`CLI not found: ${cli}`);
  log('build one first, e.g.  node scripts/build.mjs /tmp/ma-dist  and pass  --cli /tmp/ma-dist/cli.js');
  process.exit(2);
}

const sizes = opt.smoke ? ['small'] : (opt.sizes ?? 'small,medium,large').split(',').map((s) => s.trim()).filter(Boolean);
for (const s of sizes) if (!SIZES[s]) {
  log(`unknown size ${s} (known: ${Object.keys(SIZES).join(', ')})`);
  process.exit(2);
}
const explicitSets = opt.sets ? opt.sets.split(',').map(Number).filter((n) => n > 0) : null;
const pairs = [];
for (const size of sizes) {
  const sets = opt.smoke ? [100] : explicitSets ?? SENSIBLE[size] ?? [1000];
  for (const n of sets) pairs.push({ size, n });
}

const fmtMs = (v) => (v === undefined || v === null || !Number.isFinite(v) ? '-' : v >= 10000 ? `${(v / 1000).toFixed(1)} s` : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : v < 10 ? `${v.toFixed(1)} ms` : `${Math.round(v)} ms`);
const fmtMb = (kb) => (kb ? `${Math.round(kb / 1024)} MB` : '-');
const fmtInt = (n) => (n === null || n === undefined || !Number.isFinite(n) ? '-' : Math.round(n).toLocaleString('en-US'));
if (opt.render) {
  // Re-render the markdown of an existing results.json (e.g. after a format change).
  const res = JSON.parse(readFileSync(resolve(opt.render), 'utf8'));
  const md = markdown(res);
  if (opt.out) writeFileSync(join(resolve(ROOT, opt.out), 'results.md'), md);
  process.stdout.write(md);
  process.exit(0);
}

function machine() {
  const c = cpus();
  const gitV = spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim();
  return { cpu: c[0]?.model?.trim() ?? 'unknown', cores: c.length, memoryGB: Math.round(totalmem() / 2 ** 30), node: process.version, git: gitV.replace('git version ', ''), os: `${process.platform} ${release()}`, rss: rssMethod(), loadAvgStart: loadavg().map((x) => Math.round(x * 100) / 100) };
}

async function runAudit(repoDir, extraArgs = []) {
  const r = await runMeasured(process.execPath, [cli, ...extraArgs, '--repo', repoDir, '--fail-on', 'never'], { cwd: repoDir, timeoutMs: AUDIT_TIMEOUT_MS });
  return r;
}

// ------------------------------------------------------------------ main loop
const t0 = performance.now();
const results = {
  schema: 1,
  date: new Date().toISOString(),
  machine: machine(),
  seed,
  smoke: opt.smoke,
  cli: opt.cli,
  generator: { repo: GEN_VERSION, memory: MEM_VERSION },
  repos: {},
  pairs: [],
};
let correctnessFailed = [];
const repos = {};
for (const size of sizes) {
  const r = await ensureRepo(CACHE, size, seed, { log });
  repos[size] = r;
  results.repos[size] = { files: r.meta.stats.files, commits: r.meta.commits, renames: r.meta.stats.renames, dirMoves: r.meta.dirMoves.length, deletions: r.meta.stats.deletions, depEvents: r.meta.deps.events.length, scriptEvents: r.meta.scripts.events.length, buildSeconds: r.meta.buildSeconds ?? null, cached: r.cached };
  if (!r.cached) log(`${size}: generated in ${r.seconds.toFixed(1)} s`);

  let warmed = false;
  for (const { n } of pairs.filter((p) => p.size === size)) {
    const answers = ensureMemorySet(r.dir, r.meta, n, seed);
    const label = `${size}×${n}`;
    let baseline = null;
    if (!opt.smoke) {
      if (!warmed) {
        await gitBaseline(r.dir); // warm the page cache for both contenders
        warmed = true;
      }
      const bs = [];
      for (let i = 0; i < repeat; i++) bs.push(await gitBaseline(r.dir));
      baseline = bs.sort((a, b) => a.totalMs - b.totalMs)[Math.floor((bs.length - 1) / 2)];
    }
    log(`${label}: auditing${baseline ? ` (git baseline ${fmtMs(baseline.totalMs)})` : ''}...`);
    const runs = [];
    for (let i = 0; i < repeat; i++) runs.push(await runAudit(r.dir, ['--format', 'json']));
    const audit = runs.sort((a, b) => a.wallMs - b.wallMs)[Math.floor((runs.length - 1) / 2)];
    const pair = { size, set: n, label, entriesGenerated: answers.entries, baseline };
    let report = null;
    try {
      report = JSON.parse(audit.stdout);
    } catch {
      pair.error = `exit ${audit.code}; stdout is not JSON; stderr: ${audit.stderr.slice(0, 400)}`;
    }
    if (audit.code !== 0 && audit.code !== 1) pair.error = `exit ${audit.code}: ${audit.stderr.slice(0, 400)}`;
    pair.wallMs = audit.wallMs;
    pair.cpuMs = audit.cpuMs;
    pair.rssKb = Math.max(...runs.map((x) => x.rssKb ?? 0)) || null; // the worst run, not the median one
    if (report) {
      const t = report.summary?.timings ?? {};
      pair.timings = t;
      pair.entries = report.summary?.entries ?? report.entries?.length ?? 0;
      pair.findings = report.summary?.findings ?? report.findings?.length ?? 0;
      pair.byKind = report.summary?.byKind ?? {};
      pair.toolVersion = report.tool?.version;
      pair.entriesPerSec = pair.entries / (audit.wallMs / 1000);
      const pc = parseChecksMs(t);
      if (pc) pair.parseChecksMs = pc;
      if (pc) pair.parseChecksPerSec = pair.entries / (pc.total / 1000);
      pair.ratio = baseline ? audit.wallMs / baseline.totalMs : null;
      pair.score = scoreReport(report, answers);
      const fails = correctnessFailures(pair.score, { strict: opt.strict });
      pair.correctness = fails.length ? 'FAIL' : 'PASS';
      pair.correctnessFailures = fails;
      if (fails.length) correctnessFailed.push(...fails.map((f) => `${label} ${f}`));
    } else {
      correctnessFailed.push(`${label}: ${pair.error}`);
    }
    log(`${label}: ${fmtMs(pair.wallMs)}, ${fmtMb(pair.rssKb)}, ${fmtInt(pair.entries)} entries, ${fmtInt(pair.findings)} findings${pair.error ? `, ERROR ${pair.error}` : ''}`);
    results.pairs.push(pair);
    mkdirSync(CACHE, { recursive: true });
    writeFileSync(join(CACHE, 'results.partial.json'), JSON.stringify(results, null, 2) + '\n');
  }
}

// ------------------------------------------------------------------ extras
if (!opt.smoke && !opt['no-extras']) {
  results.coldStart = await coldStart();
  results.prune = await pruneDryRun();
}
results.duplicate = await duplicateScaling();
results.throughput = opt.smoke ? { status: 'n/a', reason: 'smoke run' } : await throughput();
results.targets = opt.smoke ? [] : targets();
results.totalSeconds = (performance.now() - t0) / 1000;
results.machine.loadAvgEnd = loadavg().map((x) => Math.round(x * 100) / 100);

mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
rmSync(join(CACHE, 'results.partial.json'), { force: true });
const md = markdown(results);
writeFileSync(join(outDir, 'results.md'), md);
process.stdout.write(md);
log(`wrote ${join(outDir, 'results.json')} and results.md in ${results.totalSeconds.toFixed(1)} s`);
if (correctnessFailed.length) {
  log(`correctness problems:\n  ${correctnessFailed.join('\n  ')}`);
  if (opt.smoke) process.exit(1);
}
process.exit(0);

// ------------------------------------------------------------------ helpers
/** Work that needs no git: reading + parsing + reference extraction (whichever keys exist) + checks. */
function parseChecksMs(t) {
  if (t.parse === undefined || t.checks === undefined) return null;
  const parts = {};
  for (const k of PARSE_KEYS) if (typeof t[k] === 'number') parts[k] = t[k];
  // `checks` times the checks that ran after the evidence; the memory-only ones (and early parts,
  // `check:<id>:early`) ran beside git and only have their own `check:` keys.
  const perCheck = Object.entries(t).filter(([k, v]) => k.startsWith('check:') && typeof v === 'number');
  const all = perCheck.reduce((a, [, v]) => a + v, 0);
  parts.checks = Math.max(t.checks, all);
  const total = Object.values(parts).reduce((a, b) => a + b, 0);
  return total > 0 ? { total, parts } : null;
}

/** Stage keys beyond the five columns (e.g. usage, refs), largest first. */
function otherStages(t) {
  return Object.entries(t ?? {})
    .filter(([k, v]) => !STAGES.includes(k) && !AGGREGATES.includes(k) && !k.startsWith('check:') && typeof v === 'number' && v >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${fmtMs(v)}`)
    .join(', ');
}

async function coldStart() {
  const action = join(dirname(cli), 'index.js');
  if (!existsSync(action)) return { status: 'n/a', reason: `no ${action}` };
  const demoScript = join(ROOT, 'scripts', 'demo.mjs');
  const demo = mkdtempSync(join(tmpdir(), 'ma-bench-demo-'));
  let workspace = demo;
  let source = 'demo';
  const b = existsSync(demoScript) ? spawnSync(process.execPath, [demoScript, '--build-only', demo], { cwd: ROOT, encoding: 'utf8' }) : { status: 1, stderr: 'no scripts/demo.mjs' };
  if (b.status !== 0) {
    // fall back to the small bench repo with 100 entries
    const r = repos.small ?? (await ensureRepo(CACHE, 'small', seed, { log }));
    ensureMemorySet(r.dir, r.meta, 100, seed);
    workspace = r.dir;
    source = 'small×100 (demo build failed)';
  }
  const tmp = mkdtempSync(join(tmpdir(), 'ma-bench-action-'));
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('INPUT_') || k.startsWith('GITHUB_')) delete env[k];
  Object.assign(env, {
    INPUT_MODE: 'report',
    'INPUT_FAIL-ON': 'never',
    GITHUB_WORKSPACE: workspace,
    GITHUB_STEP_SUMMARY: join(tmp, 'summary.md'),
    GITHUB_OUTPUT: join(tmp, 'output.txt'),
    GITHUB_EVENT_NAME: 'workflow_dispatch',
    GITHUB_EVENT_PATH: join(tmp, 'event.json'),
    GITHUB_REPOSITORY: 'example/demo',
    GITHUB_API_URL: 'http://127.0.0.1:9',
    RUNNER_TEMP: tmp,
  });
  writeFileSync(env.GITHUB_STEP_SUMMARY, '');
  writeFileSync(env.GITHUB_OUTPUT, '');
  writeFileSync(env.GITHUB_EVENT_PATH, '{}');
  const firsts = [];
  const walls = [];
  let last;
  for (let i = 0; i < 6; i++) {
    last = await runMeasured(process.execPath, [action], { cwd: workspace, env });
    if (i === 0) continue; // first run warms the file cache
    if (last.firstLineMs !== null) firsts.push(last.firstLineMs);
    walls.push(last.wallMs);
  }
  rmSync(tmp, { recursive: true, force: true });
  rmSync(demo, { recursive: true, force: true });
  if (!firsts.length) return { status: 'error', source, reason: `no stdout line; exit ${last.code}: ${last.stderr.slice(0, 300)}` };
  return { status: 'ok', source, runs: firsts.length, firstLineMs: median(firsts), wallMs: median(walls), exitCode: last.code, rssKb: last.rssKb };
}

async function pruneDryRun() {
  const pair = [...results.pairs].reverse().find((p) => p.set === 10000) ?? results.pairs[results.pairs.length - 1];
  if (!pair) return { status: 'n/a' };
  const r = repos[pair.size];
  checkout(r.dir, memBranch(pair.set, seed));
  const run = await runMeasured(process.execPath, [cli, 'prune', '--dry-run', '--repo', r.dir, '--fail-on', 'never', '--no-color'], { cwd: r.dir, keepStdout: false });
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: r.dir, encoding: 'utf8' }).stdout.trim();
  checkout(r.dir, memBranch(pair.set, seed));
  return { status: run.code === 0 || run.code === 1 ? 'ok' : 'error', pair: pair.label, wallMs: run.wallMs, rssKb: run.rssKb, exitCode: run.code, outputBytes: run.stdoutBytes, treeUntouched: dirty === '', stderr: run.code > 1 ? run.stderr.slice(0, 300) : undefined };
}

/**
 * Duplicate detection at 1,000 vs 10,000 entries on the same repository. Runs the audit
 * again with `--check duplicate` so the `checks` stage holds the duplicate check alone,
 * including the shared MinHash corpus that another check would otherwise build first;
 * falls back to `check:duplicate` / `checks` of the full runs.
 */
async function duplicateScaling() {
  for (const size of ['medium', 'large', 'small']) {
    const a = results.pairs.find((p) => p.size === size && p.set === 1000 && p.timings);
    const b = results.pairs.find((p) => p.size === size && p.set === 10000 && p.timings);
    if (!a || !b) continue;
    if (!opt.smoke && repos[size]) {
      const ms = [];
      for (const p of [a, b]) {
        checkout(repos[size].dir, memBranch(p.set, seed));
        const times = [];
        for (let i = 0; i < repeat; i++) {
          const run = await runAudit(repos[size].dir, ['--format', 'json', '--check', 'duplicate']);
          try {
            // duplicate needs only memory, so it runs beside git: its own key holds its time
            // (the shared corpus included, as it is the only check); `checks` before that.
            const t = JSON.parse(run.stdout).summary?.timings ?? {};
            const v = typeof t['check:duplicate'] === 'number' ? t['check:duplicate'] : t.checks;
            if (typeof v === 'number') times.push(v);
          } catch {}
        }
        ms.push(times.length ? median(times) : null);
      }
      if (ms[0] !== null && ms[1] !== null) {
        const ratio = ms[1] / Math.max(ms[0], 0.001);
        return { status: 'ok', size, key: 'check:duplicate with --check duplicate', ms1k: ms[0], ms10k: ms[1], entries: [a.entries, b.entries], ratio, exponent: Math.log(ratio) / Math.log(b.entries / a.entries), fullRun: { ms1k: a.timings['check:duplicate'], ms10k: b.timings['check:duplicate'] } };
      }
    }
    const key = (p) => (p.timings?.['check:duplicate'] !== undefined ? 'check:duplicate' : p.timings?.checks !== undefined ? 'checks' : null);
    const k = key(a) === key(b) ? key(a) : null;
    if (!k) continue;
    const ratio = b.timings[k] / Math.max(a.timings[k], 0.001);
    return { status: 'ok', size, key: k, ms1k: a.timings[k], ms10k: b.timings[k], entries: [a.entries, b.entries], ratio, exponent: Math.log(ratio) / Math.log(b.entries / a.entries) };
  }
  return { status: 'n/a', reason: 'needs a 1,000 and a 10,000 set on the same repository size, with timings' };
}

/**
 * Parsing and checks without git, measured in one warm process (bench/lib/inproc.ts, bundled
 * here with esbuild): the evidence is gathered once, then read + parse + references + checks
 * run ROUNDS times over the same memory; the first round is the cold one (JIT), the figure is
 * the median of the others. The same work inside the audit (cold, beside git) is kept too.
 */

async function throughput() {
  const withT = results.pairs.filter((p) => p.parseChecksPerSec);
  const rank = (s) => Object.keys(SIZES).indexOf(s);
  const best = withT.sort((a, b) => b.entries - a.entries || rank(b.size) - rank(a.size))[0];
  const inAudit = best ? { pair: best.label, entries: best.entries, ms: best.parseChecksMs.total, parts: best.parseChecksMs.parts, entriesPerSec: best.parseChecksPerSec } : undefined;
  if (!best || !repos[best.size]) return inAudit ? { status: 'ok', source: 'audit', ...inAudit, inAudit } : { status: 'n/a', reason: 'no parse/checks timings in the report' };
  let harness;
  try {
    const { build } = await import('esbuild');
    harness = join(CACHE, 'inproc.mjs');
    await build({
      entryPoints: [join(ROOT, 'bench', 'lib', 'inproc.ts')],
      outfile: harness,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    });
  } catch (err) {
    return { status: 'ok', source: 'audit', ...inAudit, inAudit, inProcessError: String(err?.message ?? err).slice(0, 300) };
  }
  const dir = repos[best.size].dir;
  checkout(dir, memBranch(best.set, seed));
  const run = await runMeasured(process.execPath, [harness, dir, String(INPROC_ROUNDS)], { cwd: dir });
  let rounds;
  try {
    rounds = JSON.parse(run.stdout).rounds;
  } catch {
    return { status: 'ok', source: 'audit', ...inAudit, inAudit, inProcessError: `exit ${run.code}: ${run.stderr.slice(0, 300)}` };
  }
  const partsOf = (r) => Object.fromEntries(PARSE_KEYS.concat('checks').map((k) => [k, r[k] ?? 0]));
  const sum = (parts) => Object.values(parts).reduce((a, b) => a + b, 0);
  const warmRounds = rounds.slice(1);
  const warmParts = Object.fromEntries(PARSE_KEYS.concat('checks').map((k) => [k, median(warmRounds.map((r) => r[k] ?? 0))]));
  const warmTotal = median(warmRounds.map((r) => sum(partsOf(r))));
  const coldParts = partsOf(rounds[0]);
  const entries = rounds[0].entries;
  return {
    status: 'ok',
    source: 'in-process',
    pair: best.label,
    entries,
    rounds: rounds.length,
    ms: warmTotal,
    parts: warmParts,
    entriesPerSec: entries / (warmTotal / 1000),
    cold: { ms: sum(coldParts), parts: coldParts, entriesPerSec: entries / (sum(coldParts) / 1000) },
    decideMs: median(warmRounds.map((r) => r.decide ?? 0)),
    discoverMs: median(warmRounds.map((r) => r.discover ?? 0)),
    inAudit,
  };
}

function targets() {
  const out = [];
  const big = results.pairs.find((p) => p.size === 'large' && p.set === 10000);
  const t = (name, value, ok, target) => out.push({ name, value, target, status: ok === null ? 'n/a' : ok ? 'PASS' : 'FAIL' });
  t('large×10000 wall ≤ 1.5× git baseline', big?.ratio ? `${big.ratio.toFixed(2)}× (${fmtMs(big.wallMs)} vs ${fmtMs(big.baseline.totalMs)})` : 'not run', big?.ratio ? big.ratio <= 1.5 : null, '≤ 1.5×');
  t('large×10000 peak memory < 512 MB', big?.rssKb ? fmtMb(big.rssKb) : 'not run', big?.rssKb ? big.rssKb < 512 * 1024 : null, '< 512 MB');
  const tp = results.throughput;
  t('parse+checks ≥ 50,000 entries/s', tp.status === 'ok' ? `${fmtInt(tp.entriesPerSec)}/s (${tp.pair}, ${tp.source === 'in-process' ? 'warm, one process' : 'inside the audit'})` : 'n/a', tp.status === 'ok' ? tp.entriesPerSec >= 50000 : null, '≥ 50,000/s');
  const d = results.duplicate;
  t('duplicate detection sub-quadratic (10× entries)', d.status === 'ok' ? `${d.ratio.toFixed(1)}× time (exponent ${d.exponent.toFixed(2)}, ${d.key})` : 'n/a', d.status === 'ok' ? d.ratio <= 30 : null, '≤ 30× time');
  const c = results.coldStart;
  t('Action cold start < 500 ms', c?.status === 'ok' ? `${fmtMs(c.firstLineMs)} to first line` : c?.status ?? 'not run', c?.status === 'ok' ? c.firstLineMs < 500 : null, '< 500 ms');
  return out;
}

function markdown(res) {
  const m = res.machine;
  const L = [];
  L.push(`### memory-audit benchmark${res.smoke ? ' (smoke)' : ''}`, '');
  L.push(`${res.date.slice(0, 16).replace('T', ' ')} UTC · ${m.cores} × ${m.cpu} · ${m.memoryGB} GB · Node ${m.node} · git ${m.git} · ${m.os} · load avg ${m.loadAvgStart?.[0] ?? "?"} → ${m.loadAvgEnd?.[0] ?? '?'} · seed ${res.seed} · memory-audit ${res.pairs.find((p) => p.toolVersion)?.toolVersion ?? '?'}`, '');
  L.push('| repo × entries | audit wall | CPU (user+sys) | peak RSS | discover | parse | evidence | checks | decide | other stages | entries/s | git baseline | audit / baseline |');
  L.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |');
  for (const p of res.pairs) {
    const t = p.timings ?? {};
    L.push(`| ${p.label}${p.error ? ' ⚠' : ''} | ${fmtMs(p.wallMs)} | ${fmtMs(p.cpuMs)} | ${fmtMb(p.rssKb)} | ${STAGES.map((s) => fmtMs(t[s])).join(' | ')} | ${otherStages(t) || '-'} | ${fmtInt(p.entriesPerSec)} | ${p.baseline ? `${fmtMs(p.baseline.totalMs)} (CPU ${fmtMs(p.baseline.cpuMs)})` : '-'} | ${p.ratio ? `${p.ratio.toFixed(2)}×` : '-'}${p.cpuMs && p.baseline?.cpuMs ? ` (CPU ${(p.cpuMs / p.baseline.cpuMs).toFixed(1)}×)` : ''} |`);
  }
  L.push('');
  const repoLine = Object.entries(res.repos).map(([s, r]) => `${s}: ${fmtInt(r.files)} files, ${fmtInt(r.commits)} commits, ${fmtInt(r.renames)} renames (${r.dirMoves} directory moves), ${fmtInt(r.deletions)} deletions${r.buildSeconds ? `, generated in ${r.buildSeconds.toFixed(1)} s` : ''}`);
  L.push(`Repositories: ${repoLine.join('; ')}.`, '');
  if (res.targets.length) {
    L.push('| target | measured | status |', '| --- | --- | --- |');
    for (const t of res.targets) L.push(`| ${t.name} | ${t.value} | ${t.status} |`);
    L.push('');
  }
  const extras = [];
  const tp = res.throughput;
  const parts = (p) => Object.entries(p ?? {}).map(([k, v]) => `${k} ${fmtMs(v)}`).join(' + ');
  if (tp.status === 'ok' && tp.source === 'in-process') {
    extras.push(`parse+checks without git (${tp.pair}, one process, evidence gathered once): ${fmtInt(tp.entriesPerSec)} entries/s warm (median of rounds 2–${tp.rounds}: ${parts(tp.parts)}); first round (cold JIT) ${fmtInt(tp.cold.entriesPerSec)}/s (${fmtMs(tp.cold.ms)}); decide ${fmtMs(tp.decideMs)}, discover ${fmtMs(tp.discoverMs)} (not counted)`);
  }
  if (tp.inAudit) extras.push(`the same work inside the audit (${tp.inAudit.pair}, cold, beside git): ${fmtInt(tp.inAudit.entriesPerSec)} entries/s (${parts(tp.inAudit.parts)})`);
  if (tp.inProcessError) extras.push(`in-process measurement failed: ${tp.inProcessError}`);
  if (res.duplicate.status === 'ok') extras.push(`duplicates (${res.duplicate.size}, \`${res.duplicate.key}\`): ${fmtMs(res.duplicate.ms1k)} at ${fmtInt(res.duplicate.entries[0])} entries → ${fmtMs(res.duplicate.ms10k)} at ${fmtInt(res.duplicate.entries[1])} (${res.duplicate.ratio.toFixed(1)}×)`);
  if (res.coldStart) extras.push(res.coldStart.status === 'ok' ? `Action cold start (${res.coldStart.source}, median of ${res.coldStart.runs}): first line ${fmtMs(res.coldStart.firstLineMs)}, whole run ${fmtMs(res.coldStart.wallMs)}` : `Action cold start: ${res.coldStart.status} (${res.coldStart.reason})`);
  if (res.prune) extras.push(res.prune.status === 'n/a' ? 'prune --dry-run: n/a' : `\`prune --dry-run\` on ${res.prune.pair}: ${fmtMs(res.prune.wallMs)}, ${fmtMb(res.prune.rssKb)}, exit ${res.prune.exitCode}, working tree ${res.prune.treeUntouched ? 'untouched' : 'CHANGED'}`);
  for (const e of extras) L.push(`- ${e}`);
  if (extras.length) L.push('');
  // correctness
  const kinds = [...Object.keys(GATED_KINDS), ...Object.keys(EXTRA_KINDS)];
  L.push(`Correctness against the known answers (recall / precision; n/a = no finding of that kind, check not implemented; ✓ = successor right):`, '');
  L.push(`| repo × entries | ${kinds.join(' | ')} | valid refs flagged | recall ≥ 0.9 |`);
  L.push(`| --- | ${kinds.map(() => '---').join(' | ')} | --- | --- |`);
  for (const p of res.pairs) {
    if (!p.score) {
      L.push(`| ${p.label} | ${kinds.map(() => 'error').join(' | ')} | - | FAIL |`);
      continue;
    }
    const cells = kinds.map((k) => {
      const v = p.score.kinds[k];
      if (!v.expected) return '-';
      if (!v.implemented) return 'n/a';
      let s = `${v.recall.toFixed(2)} / ${v.precision.toFixed(2)}`;
      if (v.successor) s += ` ✓${v.successor.accuracy.toFixed(2)}`;
      return s;
    });
    L.push(`| ${p.label} | ${cells.join(' | ')} | ${p.score.flaggedValid}/${p.score.negatives} | ${p.correctness === 'PASS' ? 'PASS' : `FAIL (${p.correctnessFailures.map((f) => f.split(':')[0]).join(', ')})`} |`);
  }
  L.push('');
  return L.join('\n') + '\n';
}
