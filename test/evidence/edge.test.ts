import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { gatherEvidence } from '../../src/evidence/index.js';
import { HistoryBuilder } from '../../src/evidence/history.js';
import { baseEnv, body, cleanupAll, makeRepo } from './helpers.js';

afterAll(cleanupAll);

describe('edge cases of the history pass', () => {
  it('a branch renames a file that main keeps editing: the merge keeps the branch rename', async () => {
    const r = await makeRepo();
    await r.write('lib/config.ts', body('config'));
    await r.write('lib/other.ts', body('other'));
    await r.commit('init', '2024-01-01');
    await r.git.checkout(['-q', '-b', 'topic']);
    await r.move('lib/config.ts', 'lib/settings/config.ts');
    const branchSha = await r.commit('move config into settings', '2024-01-02');
    await r.git.checkout(['-q', 'main']);
    await r.write('lib/config.ts', body('config', 12, '// main edit'));
    await r.commit('tweak config on main', '2024-01-03');
    await r.git.env(baseEnv({ GIT_AUTHOR_DATE: '2024-01-04T12:00:00Z', GIT_COMMITTER_DATE: '2024-01-04T12:00:00Z' })).merge(['--no-ff', '-q', '-m', 'Merge topic', 'topic']);
    const { evidence } = await gatherEvidence({ root: r.dir, config: DEFAULT_CONFIG, entries: [], offline: true });
    expect(evidence.files.files.has('lib/settings/config.ts')).toBe(true);
    const f = evidence.history.fate('lib/config.ts');
    expect([f.status, f.successor, f.commit?.sha]).toEqual(['renamed', 'lib/settings/config.ts', branchSha]);
    expect(evidence.history.events.get('lib/config.ts')!.map((e) => e.type)).toEqual(['added', 'renamed-from', 'modified']);
  });

  it('a root below the top level sees paths relative to itself', async () => {
    const r = await makeRepo();
    await r.write('app/src/a.ts', body('a'));
    await r.write('app/package.json', JSON.stringify({ name: 'app', dependencies: { left: '1.0.0' } }));
    await r.write('other/x.ts', body('x'));
    await r.commit('init', '2024-01-01');
    await r.move('app/src/a.ts', 'app/src/b.ts');
    await r.write('app/package.json', JSON.stringify({ name: 'app', dependencies: { right: '1.0.0' } }));
    await r.move('other/x.ts', 'app/x.ts');
    await r.commit('rename and swap', '2024-01-02');
    const { evidence } = await gatherEvidence({ root: `${r.dir}/app`, config: DEFAULT_CONFIG, entries: [], offline: true });
    expect([...evidence.files.files].sort()).toEqual(['package.json', 'src/b.ts', 'x.ts']);
    expect(evidence.history.fate('src/a.ts').successor).toBe('src/b.ts');
    expect(evidence.history.events.get('x.ts')!.map((e) => e.type)).toEqual(['added']);
    expect(evidence.history.events.has('other/x.ts')).toBe(false);
    expect(evidence.manifests.everDependencies.get('left')!.map((e) => [e.type, e.manifest, e.addedInSameCommit])).toEqual([
      ['added', 'package.json', undefined],
      ['removed', 'package.json', ['right']],
    ]);
  });

  it('parses git log -z output with odd paths (spaces, unicode, colons) and empty merges', () => {
    const b = new HistoryBuilder();
    const c1 = { sha: 'a'.repeat(40), date: '2024-01-01', time: '2024-01-01T00:00:00Z', author: 'x', subject: 's1' };
    const c2 = { ...c1, sha: 'b'.repeat(40), subject: 's2' };
    // log order: newest first
    b.startCommit(c2);
    b.addChange({ status: 'R', similarity: 90, src: 'dir with space/ünï:code.ts', dst: 'new dir/ünï:code.ts', srcBlob: '1', dstBlob: '2', srcMode: '100644', dstMode: '100644' });
    b.startCommit(c1);
    b.addChange({ status: 'A', src: 'dir with space/ünï:code.ts', srcBlob: '0'.repeat(40), dstBlob: '1', srcMode: '000000', dstMode: '100644' });
    const h = b.finish((p) => (p === 'new dir/ünï:code.ts' ? 'file' : p === 'new dir' ? 'dir' : undefined), false);
    expect(h.fate('dir with space/ünï:code.ts')).toMatchObject({ status: 'renamed', successor: 'new dir/ünï:code.ts' });
    expect(h.fate('dir with space')).toMatchObject({ status: 'renamed', successor: 'new dir', isDirectory: true });
    expect(h.commits).toBe(2);
  });
});

describe('rename detection limits', () => {
  it('turns git skipping inexact rename detection into one info finding', async () => {
    const { runLogPass } = await import('../../src/evidence/history.js');
    const r = await makeRepo();
    for (const f of ['a', 'b', 'c']) await r.write(`${f}.txt`, body(f));
    await r.commit('init', '2024-01-01');
    for (const f of ['a', 'b', 'c']) {
      await r.move(`${f}.txt`, `${f}-new.txt`);
      await r.write(`${f}-new.txt`, body(f, 12, 'extra'));
    }
    await r.commit('move all', '2024-01-02');
    const pass = await runLogPass(r.dir, { renameLimit: 1 });
    expect(pass.code).toBe(0);
    expect(pass.builder.warnings[0]).toMatch(/rename detection was skipped/);
    const h = pass.builder.finish(() => undefined, false);
    expect(h.fate('a.txt').status).toBe('deleted');
  });
});

describe('the file index reflects the working tree', () => {
  it('a tracked file deleted from the working tree (not yet staged) is not present; an untracked new file is', async () => {
    const r = await makeRepo();
    await r.write('docs/keep.md', body('keep'));
    await r.write('docs/gone.md', body('gone'));
    await r.commit('init', '2024-01-01');
    const { rmSync, writeFileSync } = await import('node:fs');
    rmSync(`${r.dir}/docs/gone.md`);
    writeFileSync(`${r.dir}/docs/new.md`, 'new\n');
    const { evidence } = await gatherEvidence({ root: r.dir, config: DEFAULT_CONFIG, entries: [], offline: true });
    expect([...evidence.files.files].sort()).toEqual(['docs/keep.md', 'docs/new.md']);
    expect(evidence.files.untracked).toEqual(new Set(['docs/new.md']));
  });
});
