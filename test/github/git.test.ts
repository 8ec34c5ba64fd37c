import { afterEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { Git, GitError, authConfigArgs, parseAddedLines, parseNameStatusZ, removedText } from '../../src/github/git.js';
import { git, makeRepo, type Fixture } from './git-fixture.js';

let fx: Fixture | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const BOT = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' };

describe('authConfigArgs', () => {
  it('sends the token as a basic extra header scoped to the https server, resetting the persisted one first', () => {
    const b64 = Buffer.from('x-access-token:tok123').toString('base64');
    expect(authConfigArgs('https://github.com/acme/widgets.git', 'tok123')).toEqual([
      '-c',
      'http.https://github.com/.extraheader=',
      '-c',
      `http.https://github.com/.extraheader=AUTHORIZATION: basic ${b64}`,
    ]);
  });
  it('sends nothing for file, ssh and scp-like remotes or without a token', () => {
    expect(authConfigArgs('/tmp/origin.git', 'tok')).toEqual([]);
    expect(authConfigArgs('file:///tmp/origin.git', 'tok')).toEqual([]);
    expect(authConfigArgs('ssh://git@github.com/a/b.git', 'tok')).toEqual([]);
    expect(authConfigArgs('git@github.com:a/b.git', 'tok')).toEqual([]);
    expect(authConfigArgs('https://github.com/a/b.git', undefined)).toEqual([]);
  });
});

describe('diff parsing', () => {
  it('parses -z name-status with renames', () => {
    expect(parseNameStatusZ('R087\0src/auth.ts\0src/session.ts\0D\0old.md\0M\0package.json\0A\0new file.ts\0')).toEqual([
      { status: 'R', path: 'src/session.ts', from: 'src/auth.ts', similarity: 87 },
      { status: 'D', path: 'old.md' },
      { status: 'M', path: 'package.json' },
      { status: 'A', path: 'new file.ts' },
    ]);
  });
  it('reads the new-side lines of -U0 hunks and the removed text', () => {
    const patch = [
      'diff --git a/CLAUDE.md b/CLAUDE.md',
      '--- a/CLAUDE.md',
      '+++ b/CLAUDE.md',
      '@@ -3,0 +4,2 @@ heading',
      '+one',
      '+two',
      '@@ -9 +11 @@',
      '-"build": "tsc",',
      '+x',
      '@@ -20,2 +21,0 @@',
      '-gone',
      '-gone2',
    ].join('\n');
    expect(parseAddedLines(patch)).toEqual([4, 5, 11]);
    expect(removedText(patch)).toBe('"build": "tsc",\ngone\ngone2');
  });
});

describe('Git plumbing against a bare origin', () => {
  it('builds a commit from changed paths without touching the index, pushes with lease, detects an identical tree, deletes', async () => {
    fx = makeRepo({ 'CLAUDE.md': '# Memory\n\n- a\n- b\n', 'keep.txt': 'x\n', 'gone.md': 'bye\n' });
    const g = new Git(fx.work);
    const head = await g.head();
    expect(await g.currentBranch()).toBe('main');
    expect(await g.isShallow()).toBe(false);
    expect(await g.remoteBranchSha('memory-audit/prune')).toBe(null);

    fx.write('CLAUDE.md', '# Memory\n\n- a\n');
    fx.write('.claude/memory/pruning-log.md', '# log\n');
    rmSync(`${fx.work}/gone.md`);
    const tree = await g.buildTree(head, ['.claude/memory/pruning-log.md', 'CLAUDE.md', 'gone.md']);
    // The checkout's index is untouched.
    expect(git(fx.work, ['diff', '--cached', '--name-only'])).toBe('');
    const commit = await g.commitTree(tree, head, 'memory-audit: prune', BOT, '2026-01-06T00:00:00Z');
    await g.pushBranch(commit, 'memory-audit/prune', null);
    expect(await g.remoteBranchSha('memory-audit/prune')).toBe(commit);
    expect(git(fx.origin, ['ls-tree', '-r', '--name-only', 'memory-audit/prune']).trim().split('\n')).toEqual([
      '.claude/memory/pruning-log.md',
      'CLAUDE.md',
      'keep.txt',
    ]);
    expect(git(fx.origin, ['log', '-1', '--format=%an <%ae>|%s|%P', 'memory-audit/prune']).trim()).toBe(
      `github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>|memory-audit: prune|${head}`,
    );
    // Same edits again: same tree.
    expect(await g.buildTree(head, ['CLAUDE.md', 'gone.md', '.claude/memory/pruning-log.md'])).toBe(tree);
    expect(await g.treeOf(commit)).toBe(tree);

    // A stale lease is refused.
    const other = await g.commitTree(tree, head, 'other', BOT, '2026-01-07T00:00:00Z');
    await expect(g.pushBranch(other, 'memory-audit/prune', head)).rejects.toBeInstanceOf(GitError);
    await expect(g.pushBranch(other, 'memory-audit/prune', null)).rejects.toThrow(/stale info|rejected/);
    await g.pushBranch(other, 'memory-audit/prune', commit);
    expect(await g.remoteBranchSha('memory-audit/prune')).toBe(other);

    await g.deleteRemoteBranch('memory-audit/prune', other);
    expect(await g.remoteBranchSha('memory-audit/prune')).toBe(null);
  });

  it('lists the parents of a commit and the blobs that differ between two commits or trees, by path', async () => {
    fx = makeRepo({ 'a.txt': 'a\n', 'dir/b c.md': 'b\n', 'gone.txt': 'x\n' });
    const g = new Git(fx.work);
    const first = await g.head();
    const blob = (rev: string, p: string) => git(fx!.work, ['rev-parse', `${rev}:${p}`]).trim();
    fx.write('a.txt', 'A\n');
    fx.write('new.txt', 'n\n');
    git(fx.work, ['rm', '-q', 'gone.txt']);
    const second = fx.commit('second');
    expect(await g.parents(second)).toEqual([first]);
    expect(await g.parents(first)).toEqual([]);
    const zero = '0'.repeat(40);
    expect(await g.changedBlobs(first, second)).toEqual(
      new Map([
        ['a.txt', { before: blob(first, 'a.txt'), after: blob(second, 'a.txt') }],
        ['gone.txt', { before: blob(first, 'gone.txt'), after: zero }],
        ['new.txt', { before: zero, after: blob(second, 'new.txt') }],
      ]),
    );
    // Trees work as well as commits; unchanged paths (with spaces) are not listed.
    expect([...(await g.changedBlobs(await g.treeOf(first), await g.treeOf(second))).keys()]).toEqual(['a.txt', 'gone.txt', 'new.txt']);
    expect((await g.changedBlobs(second, second)).size).toBe(0);
  });

  it('rejects branch names git would not accept and keeps option-like values away from git', async () => {
    fx = makeRepo({ 'a.txt': 'a\n' });
    const g = new Git(fx.work);
    expect(await g.isValidBranch('memory-audit/prune')).toBe(true);
    expect(await g.isValidBranch('-delete')).toBe(false);
    expect(await g.isValidBranch('a..b')).toBe(false);
    expect(await g.isValidBranch('a b')).toBe(false);
  });

  it('computes the three-dot name-status diff of a pull request and fetches a missing base', async () => {
    fx = makeRepo({ 'src/auth.ts': 'export const a = 1;\n'.repeat(5), 'old.sh': 'echo\n', 'CLAUDE.md': '- a\n' });
    const base = git(fx.work, ['rev-parse', 'HEAD']).trim();
    git(fx.work, ['checkout', '-q', '-b', 'feature']);
    git(fx.work, ['mv', 'src/auth.ts', 'src/session.ts']);
    rmSync(`${fx.work}/old.sh`);
    fx.write('CLAUDE.md', '- a\n- currently working on #42\n');
    fx.commit('feature');
    const g = new Git(fx.work);
    expect(await g.mergeBase(base, 'HEAD')).toBe(base);
    expect(await g.diffNameStatus(base, 'HEAD', true)).toEqual([
      { status: 'M', path: 'CLAUDE.md' },
      { status: 'D', path: 'old.sh' },
      { status: 'R', path: 'src/session.ts', from: 'src/auth.ts', similarity: 100 },
    ]);
    expect(parseAddedLines(await g.diffPatch(base, 'HEAD', true, ['CLAUDE.md']))).toEqual([2]);

    // A shallow clone of the feature branch lacks the base; fetching it by sha works.
    git(fx.work, ['push', '-q', 'origin', 'feature']);
    const shallow = `${fx.dir}/shallow`;
    git(fx.dir, ['clone', '-q', '--depth=1', '--branch', 'feature', `file://${fx.origin}`, shallow]);
    const s = new Git(shallow);
    expect(await s.isShallow()).toBe(true);
    expect(await s.hasCommit(base)).toBe(false);
    await s.fetch([base], 1);
    expect(await s.hasCommit(base)).toBe(true);
  });
});
