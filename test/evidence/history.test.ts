import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { gatherEvidence } from '../../src/evidence/index.js';
import type { Evidence, PathFate } from '../../src/types.js';
import { baseEnv, body, gitAt, cleanupAll, makeRepo, tempDir, type TestRepo } from './helpers.js';

let repo: TestRepo;
let ev: Evidence;
const sha: Record<string, string> = {};

const brief = (f: PathFate) => ({
  status: f.status,
  successor: f.successor,
  subject: f.commit?.subject,
  date: f.commit?.date,
  author: f.commit?.author,
  inferred: f.inferred,
  isDirectory: f.isDirectory,
  chain: f.chain?.map((h) => `${h.from} -> ${h.to} @ ${h.commit.subject}`),
});

beforeAll(async () => {
  repo = await makeRepo();
  await repo.write('src/server/index.ts', body('server-index'));
  await repo.write('src/server/routes.ts', body('server-routes'));
  await repo.write('src/server/db/pool.ts', body('server-pool'));
  await repo.write('src/client/app.ts', body('client-app'));
  await repo.write('docs/guide.md', body('guide'));
  await repo.write('old.txt', body('old'));
  await repo.write('a.ts', body('chain'));
  await repo.write('lib/helpers/strings.ts', body('strings'));
  await repo.write('README.md', 'readme\n');
  await repo.write('Docs/Setup.md', body('setup'));
  sha.init = await repo.commit('init', '2024-01-01');
  await repo.move('a.ts', 'b.ts');
  await repo.write('b.ts', body('chain', 12, '// edit 1'));
  sha.ab = await repo.commit('rename a to b', '2024-02-01');
  await repo.move('b.ts', 'c.ts');
  sha.bc = await repo.commit('rename b to c', '2024-03-01');
  await repo.move('src/server', 'packages/server/src');
  sha.mono = await repo.commit('monorepo move', '2024-04-01');
  await repo.remove('old.txt');
  sha.del = await repo.commit('delete old', '2024-05-01', 'Dana Deleter');
  await repo.remove('lib/helpers/strings.ts');
  await repo.remove('docs/guide.md');
  sha.drop = await repo.commit('drop strings and guide', '2024-06-01');
  await repo.write('packages/util/strings.ts', 'export const totally = "different";\n');
  await repo.write('site/guide-v2.md', body('guide'));
  sha.readd = await repo.commit('bring back strings and guide', '2024-06-15');
  await repo.write('packages/server/src/auth.ts', body('auth'));
  sha.auth = await repo.commit('add auth', '2024-07-01');
  // A branch renames; main changes something else; merged with a merge commit.
  await repo.git.checkout(['-q', '-b', 'feature']);
  await repo.move('src/client/app.ts', 'src/web/app.ts');
  sha.branch = await repo.commit('move client to web', '2024-08-01');
  await repo.git.checkout(['-q', 'main']);
  await repo.write('README.md', 'readme v2\n');
  sha.readme = await repo.commit('update readme', '2024-08-02');
  await repo.git
    .env(baseEnv({ GIT_AUTHOR_DATE: '2024-08-03T12:00:00Z', GIT_COMMITTER_DATE: '2024-08-03T12:00:00Z' }))
    .merge(['--no-ff', '-q', '-m', 'Merge feature', 'feature']);
  ev = (await gatherEvidence({ root: repo.dir, config: DEFAULT_CONFIG, entries: [], offline: true })).evidence;
});

afterAll(cleanupAll);

describe('history index', () => {
  it('counts every commit reachable from HEAD, merge included', () => {
    expect(ev.history.available).toBe(true);
    expect(ev.history.shallow).toBe(false);
    expect(ev.history.commits).toBe(11);
    expect(ev.head).toMatch(/^[0-9a-f]{40}$/);
  });

  it('records ordered events per path with commit details', () => {
    const evs = ev.history.events.get('a.ts')!;
    expect(evs.map((e) => [e.type, e.other, e.commit.subject, e.commit.date])).toEqual([
      ['added', undefined, 'init', '2024-01-01'],
      ['renamed-from', 'b.ts', 'rename a to b', '2024-02-01'],
    ]);
    expect(evs[1]!.commit.sha).toBe(sha.ab);
    expect(evs[1]!.commit.time).toBe('2024-02-01T12:00:00Z');
    expect(evs[1]!.commit.author).toBe('Test Author');
  });

  it('follows rename chains to the end', () => {
    expect(brief(ev.history.fate('a.ts'))).toEqual({
      status: 'renamed',
      successor: 'c.ts',
      subject: 'rename b to c',
      date: '2024-03-01',
      author: 'Test Author',
      inferred: undefined,
      isDirectory: false,
      chain: ['a.ts -> b.ts @ rename a to b', 'b.ts -> c.ts @ rename b to c'],
    });
    expect(ev.history.fate('./b.ts').successor).toBe('c.ts');
  });

  it('detects directory renames, with or without a trailing slash, and nested folders', () => {
    const f = ev.history.fate('src/server/');
    expect([f.status, f.successor, f.isDirectory, f.commit?.sha]).toEqual(['renamed', 'packages/server/src', true, sha.mono]);
    expect(ev.history.fate('src/server').successor).toBe('packages/server/src');
    expect(ev.history.fate('src/server/db').successor).toBe('packages/server/src/db');
    expect(ev.history.fate('src/server/db/pool.ts').successor).toBe('packages/server/src/db/pool.ts');
  });

  it('resolves a path that never existed through its renamed directory', () => {
    const f = ev.history.fate('src/server/auth.ts');
    expect([f.status, f.successor, f.inferred, f.existed]).toEqual(['renamed', 'packages/server/src/auth.ts', 'directory', false]);
    expect(ev.history.fate('src/server/nothing-here.ts').status).toBe('unknown');
  });

  it('reports deletions with commit, date, author and subject', () => {
    expect(brief(ev.history.fate('old.txt'))).toEqual({
      status: 'deleted',
      successor: undefined,
      subject: 'delete old',
      date: '2024-05-01',
      author: 'Dana Deleter',
      inferred: undefined,
      isDirectory: false,
      chain: undefined,
    });
    expect(ev.history.fate('old.txt').commit!.sha).toBe(sha.del);
  });

  it('finds a successor for a file deleted then re-added elsewhere (same content, or a distinctive basename)', () => {
    const g = ev.history.fate('docs/guide.md');
    expect([g.status, g.successor, g.inferred]).toEqual(['renamed', 'site/guide-v2.md', 'readded']);
    const s = ev.history.fate('lib/helpers/strings.ts');
    expect([s.status, s.successor, s.inferred, s.chain?.[0]?.commit.sha]).toEqual(['renamed', 'packages/util/strings.ts', 'readded', sha.drop]);
  });

  it('counts a rename made on a merged branch, from the branch commit', () => {
    const f = ev.history.fate('src/client/app.ts');
    expect([f.status, f.successor, f.commit?.subject, f.commit?.sha]).toEqual(['renamed', 'src/web/app.ts', 'move client to web', sha.branch]);
    expect(ev.history.fate('src/client').successor).toBe('src/web');
  });

  it('notices case-only mismatches', () => {
    const f = ev.history.fate('docs/setup.md');
    expect([f.status, f.successor, f.inferred]).toEqual(['renamed', 'Docs/Setup.md', 'case']);
    expect(ev.history.caseMatch!('docs/SETUP.md')).toBe('Docs/Setup.md');
  });

  it('says present and unknown plainly', () => {
    expect(ev.history.fate('README.md')).toEqual({ status: 'present', isDirectory: false, existed: true });
    expect(ev.history.fate('packages')).toEqual({ status: 'present', isDirectory: true, existed: true });
    expect(ev.history.fate('never/was.ts')).toEqual({ status: 'unknown', existed: false });
  });

  it('gives last touch and touch counts for files and directories', () => {
    expect(ev.history.lastTouched('README.md')?.subject).toBe('update readme');
    expect(ev.history.touchCount('README.md')).toBe(2);
    expect(ev.history.lastTouched('packages/server')?.subject).toBe('add auth');
    expect(ev.history.touchCount('packages/server')).toBe(2);
    expect(ev.history.touchCount('packages/server/src/db/pool.ts')).toBe(1);
    expect(ev.history.lastTouched('nowhere')).toBeUndefined();
    expect(ev.history.pathsUnder!('src/server')).toEqual(['src/server/db/pool.ts', 'src/server/index.ts', 'src/server/routes.ts']);
  });

  it('indexes files at HEAD with implied directories, lower-case and basename maps', () => {
    const f = ev.files;
    expect(f.files.has('packages/server/src/db/pool.ts')).toBe(true);
    expect(f.files.has('src/server/index.ts')).toBe(false);
    expect(['packages', 'packages/server', 'packages/server/src/db', 'src/web'].every((d) => f.dirs.has(d))).toBe(true);
    expect(f.lower.get('docs/setup.md')).toBe('Docs/Setup.md');
    expect(f.byBasename.get('strings.ts')).toEqual(['packages/util/strings.ts']);
    expect(f.source).toBe('git');
  });
});

describe('shallow clones and other roots', () => {
  it('reports a shallow clone once, with the fetch-depth fix, and still indexes HEAD', async () => {
    const dest = await tempDir();
    await gitAt().clone(`file://${repo.dir}`, dest, ['--depth', '1', '-q']);
    const { evidence, findings } = await gatherEvidence({ root: dest, config: DEFAULT_CONFIG, entries: [], offline: true });
    expect(evidence.history.shallow).toBe(true);
    expect(evidence.history.commits).toBe(1);
    expect(evidence.files.files.has('c.ts')).toBe(true);
    const shallow = findings.filter((f) => f.kind === 'shallow-history');
    expect(shallow).toHaveLength(1);
    expect(shallow[0]!.message).toContain('fetch-depth: 0');
    expect(shallow[0]!.severity).toBe('warning');
  });

  it('works on a folder that is not a git repository', async () => {
    const dir = await tempDir();
    const { writeFile, mkdir } = await import('node:fs/promises');
    await mkdir(`${dir}/src`, { recursive: true });
    await writeFile(`${dir}/src/a.ts`, 'x');
    await writeFile(`${dir}/package.json`, JSON.stringify({ name: 'plain', version: '1.2.3', dependencies: { zod: '^3.0.0' }, scripts: { test: 'vitest' } }));
    await writeFile(`${dir}/.gitignore`, 'dist/\n');
    await mkdir(`${dir}/dist`, { recursive: true });
    await writeFile(`${dir}/dist/out.js`, 'x');
    const { evidence, findings } = await gatherEvidence({ root: dir, config: DEFAULT_CONFIG, entries: [], offline: true });
    expect(evidence.head).toBeNull();
    expect(evidence.history.available).toBe(false);
    expect([...evidence.files.files].sort()).toEqual(['.gitignore', 'package.json', 'src/a.ts']);
    expect(evidence.files.source).toBe('filesystem');
    expect(evidence.manifests.dependencies.get('zod')?.[0]?.spec).toBe('^3.0.0');
    expect(evidence.manifests.everDependencies.has('zod')).toBe(true);
    expect(findings.map((f) => f.kind)).toEqual(['shallow-history']);
    expect(findings[0]!.message).toContain('not a git repository');
    expect(evidence.history.fate('src/a.ts').status).toBe('unknown');
  });

  it('includes untracked files that are not ignored, and a repository without commits', async () => {
    const r = await makeRepo();
    await r.write('.gitignore', 'build/\n');
    await r.write('notes/todo.md', 'x');
    await r.write('build/out.js', 'x');
    await r.write('node_modules/dep/package.json', '{}');
    const { evidence, findings } = await gatherEvidence({ root: r.dir, config: DEFAULT_CONFIG, entries: [], offline: true });
    expect([...evidence.files.files].sort()).toEqual(['.gitignore', 'notes/todo.md']);
    expect([...(evidence.files.untracked ?? [])].sort()).toEqual(['.gitignore', 'notes/todo.md']);
    expect(evidence.head).toBeNull();
    expect(evidence.history.available).toBe(false);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toContain('no commits');
  });
});
