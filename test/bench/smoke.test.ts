// The benchmark's own tests: the generators produce the history and the known answers they
// claim, and the smoke bench runs end to end against a CLI built into a temp folder.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { simpleGit } from 'simple-git';
import { generateRepo, makeFate, SIZES } from '../../bench/lib/repo.mjs';
import { generateMemory } from '../../bench/lib/memory.mjs';
import { ensureMemorySet } from '../../bench/lib/memset.mjs';
import { scoreReport } from '../../bench/lib/score.mjs';

const ROOT = resolve(__dirname, '..', '..');
const temps: string[] = [];
const temp = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), p));
  temps.push(d);
  return d;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const norm = (s: string) => s.toLowerCase().replace(/\*\*/g, '').replace(/\s+/g, ' ').trim();

describe('bench generators', () => {
  it('builds a tiny repository with the renames, deletions and known answers it claims', async () => {
    const dir = join(temp('ma-bench-gen-'), 'repo');
    const spec = { ...SIZES.tiny };
    const meta = await generateRepo(dir, spec, 3);
    const git = simpleGit({ baseDir: dir });

    expect(Number((await git.raw(['rev-list', '--count', 'HEAD'])).trim())).toBe(spec.commits);
    const tracked = new Set((await git.raw(['ls-files'])).split('\n').filter(Boolean));
    expect(tracked.size).toBe(spec.files);
    for (const p of meta.livePaths) expect(tracked.has(p)).toBe(true);

    // Every rename and deletion the generator recorded is what git itself reports.
    const renames = new Set<string>();
    const deletions = new Set<string>();
    for (const line of (await git.raw(['log', '--name-status', '-M', '--format='])).split('\n')) {
      const [status, a, b] = line.split('\t');
      if (status?.startsWith('R')) renames.add(`${a} -> ${b}`);
      else if (status === 'D') deletions.add(a!);
    }
    expect(meta.renameEvents.length).toBe(meta.stats.renames);
    expect(meta.stats.renames).toBeGreaterThanOrEqual(spec.renames * 0.8);
    for (const e of meta.renameEvents) expect(renames.has(`${e.from} -> ${e.to}`), `${e.from} -> ${e.to}`).toBe(true);
    expect(renames.size).toBe(meta.renameEvents.length);
    expect(meta.deleted.length).toBe(spec.deletions);
    for (const d of meta.deleted) {
      expect(deletions.has(d.path)).toBe(true);
      expect(tracked.has(d.path)).toBe(false);
    }
    expect(meta.dirMoves.length).toBeGreaterThan(0);

    // The memory set and its answers agree with the repository.
    const { files, answers } = generateMemory(meta, 100, 3);
    expect(answers.entries).toBe(100);
    const text = new Map(files.map((f) => [f.path, f.text.split('\n')]));
    const lineOf = (l: { file: string; line: number }) => text.get(l.file)![l.line - 1]!;
    const fate = makeFate(meta);
    const pkg = JSON.parse(await git.show(['HEAD:package.json']));
    const kinds = new Set(answers.expected.map((x) => x.kind));
    for (const k of ['path-renamed', 'path-missing', 'script-missing', 'package-missing', 'package-renamed']) expect(kinds.has(k), k).toBe(true);
    for (const x of answers.expected) {
      expect(lineOf(x)).toContain(x.ref);
      if (x.kind === 'path-renamed' && !x.ref.endsWith('/')) {
        expect(tracked.has(x.ref)).toBe(false);
        expect(tracked.has(x.now!)).toBe(true);
        expect(fate(x.ref).successor).toBe(x.now);
      } else if (x.kind === 'path-renamed') {
        expect([...tracked].some((p) => p.startsWith(x.ref))).toBe(false);
        expect([...tracked].some((p) => p.startsWith(x.now!))).toBe(true);
      } else if (x.kind === 'path-missing') {
        expect(tracked.has(x.ref)).toBe(false);
        expect(deletions.has(x.ref)).toBe(true);
      } else if (x.kind === 'script-missing') {
        const name = x.ref.replace(/^npm run /, '');
        expect(pkg.scripts[name]).toBeUndefined();
        expect((await git.raw(['log', '--format=%h', `-S"${name}":`, '--', 'package.json'])).trim()).not.toBe('');
      } else if (x.kind === 'package-missing' || x.kind === 'package-renamed') {
        expect({ ...pkg.dependencies, ...pkg.devDependencies }[x.ref]).toBeUndefined();
        expect((await git.raw(['log', '--format=%h', `-S"${x.ref}":`, '--', 'package.json'])).trim()).not.toBe('');
        if (x.now) expect({ ...pkg.dependencies, ...pkg.devDependencies }[x.now]).toBeDefined();
      }
    }
    for (const n of answers.negatives) {
      expect(lineOf(n)).toContain(n.ref);
      if (n.kind === 'path') expect(tracked.has(n.ref)).toBe(true);
      if (n.kind === 'script') expect(pkg.scripts[n.ref.replace(/^npm run /, '')]).toBeDefined();
    }
    expect(answers.duplicates.length).toBeGreaterThanOrEqual(3);
    for (const g of answers.duplicates) {
      expect(g.length).toBeGreaterThanOrEqual(2);
      const texts = new Set(g.map((l) => norm(lineOf(l))));
      expect(texts.size).toBe(1);
      expect(new Set(g.map((l) => lineOf(l))).size).toBe(g.length); // not byte-identical
    }
    expect(answers.ephemeral.length).toBeGreaterThanOrEqual(3);

    // Committed on its own branch and checked out: the work tree holds exactly those files.
    const committed = ensureMemorySet(dir, meta, 100, 3);
    expect(committed.expected).toEqual(answers.expected);
    for (const f of files) expect(readFileSync(join(dir, f.path), 'utf8')).toBe(f.text);
    expect((await git.raw(['status', '--porcelain'])).trim()).toBe('');

    // The scorer gives full marks to a report made of the answers themselves.
    const findings = [
      ...answers.expected.map((x) => ({ entryId: null, file: x.file, line: x.line, kind: x.kind, ref: x.ref, evidence: { now: x.now } })),
      ...answers.duplicates.map((g) => ({ entryId: null, file: g[1]!.file, line: g[1]!.line, kind: 'duplicate' })),
      ...answers.ephemeral.map((l) => ({ entryId: null, file: l.file, line: l.line, kind: 'ephemeral' })),
    ];
    const score = scoreReport({ entries: [], findings }, answers);
    for (const [k, v] of Object.entries(score.kinds)) if (v.expected) expect([k, v.recall, v.precision]).toEqual([k, 1, 1]);
    expect(score.flaggedValid).toBe(0);
  });
});

describe('smoke bench, end to end', () => {
  it('passes `npm run bench -- --smoke` with a fresh build of the CLI', () => {
    const dist = inject('bundleDir');
    expect(existsSync(join(dist, 'cli.js'))).toBe(true);
    const out = temp('ma-bench-out-');
    const run = spawnSync(process.execPath, [join(ROOT, 'bench', 'run.mjs'), '--smoke', '--cli', join(dist, 'cli.js'), '--out', out, '--cache', join(out, 'cache')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.pairs).toHaveLength(1);
    expect(results.pairs[0].label).toBe('small×100');
    expect(results.pairs[0].entries).toBeGreaterThan(0);
    expect(results.pairs[0].correctness).toBe('PASS');
    expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain('| small×100');
  }, 120_000);
});
