// Large blobs arrive from `git cat-file --batch` in many pipe chunks: both readers wait for a whole
// body without re-copying the buffer per chunk, and give back exactly the bytes git stored, also when
// small and large blobs alternate. Bodies over the size limit are passed over as they stream (null,
// never kept), wherever the pipe cuts them. Real git repository.
import { afterAll, describe, expect, it } from 'vitest';
import { BlobStream, CatFileBatchParser, readBlobs, runGit } from '../../src/evidence/git.js';
import { cleanupRepos, makeRepo } from '../staleness/helpers.js';

afterAll(cleanupRepos);

describe('blob readers with large bodies', () => {
  it('return every blob exactly, in request order', async () => {
    const r = await makeRepo();
    const big = (c: string, n: number) => Array.from({ length: n }, (_, i) => `${c}${i} é\n`).join('');
    const files: Record<string, string> = { 'a.txt': 'small a\n', 'b.txt': big('b', 400_000), 'c.txt': 'small c\n', 'd.txt': big('d', 250_000) };
    for (const [f, t] of Object.entries(files)) await r.write(f, t);
    await r.commit('blobs', '2026-01-01');
    const ids: string[] = [];
    for (const f of Object.keys(files)) ids.push((await runGit(r.dir, ['rev-parse', `HEAD:${f}`])).stdout.trim());
    const want = Object.values(files);

    const got: Array<string | null> = [];
    const res = await readBlobs(r.dir, [...ids, '0'.repeat(40)], (_id, content) => got.push(content));
    expect(res.code).toBe(0);
    expect(got).toEqual([...want, null]);

    const streamed: Array<string | null> = [];
    const s = new BlobStream(r.dir, (_id, content) => streamed.push(content));
    for (const id of ids) s.request(id);
    expect((await s.end()).code).toBe(0);
    expect(streamed).toEqual(want);
  });

  it('give null for bodies over the limit, in order, from a real git and from every cut of the stream', async () => {
    const r = await makeRepo();
    const files: Record<string, string> = { 'a.txt': 'small a\n', 'big.txt': 'x'.repeat(300_000), 'c.txt': 'small c\n' };
    for (const [f, t] of Object.entries(files)) await r.write(f, t);
    await r.commit('blobs', '2026-01-01');
    const ids: string[] = [];
    for (const f of Object.keys(files)) ids.push((await runGit(r.dir, ['rev-parse', `HEAD:${f}`])).stdout.trim());
    const got: Array<string | null> = [];
    expect((await readBlobs(r.dir, ids, (_id, content) => got.push(content), 1000)).code).toBe(0);
    expect(got).toEqual(['small a\n', null, 'small c\n']);
    const streamed: Array<string | null> = [];
    const s = new BlobStream(r.dir, (_id, content) => streamed.push(content), 1000);
    for (const id of ids) s.request(id);
    expect((await s.end()).code).toBe(0);
    expect(streamed).toEqual(['small a\n', null, 'small c\n']);

    // The same protocol text cut into chunks of every size from 1 byte up: same answers.
    const out = Buffer.from(
      'aaa blob 3\nabc\n' + 'bbb blob 12\n0123456789AB\n' + 'ccc missing\n' + 'ddd blob 0\n\n' + 'eee blob 10\n0123456789\n' + 'fff blob 2\nhi\n',
    );
    for (let size = 1; size <= out.length; size++) {
      const seen: Array<string | null> = [];
      const p = new CatFileBatchParser(10, (b) => seen.push(b));
      for (let i = 0; i < out.length; i += size) p.push(out.subarray(i, i + size));
      expect(seen, `chunks of ${size}`).toEqual(['abc', null, null, '', '0123456789', 'hi']);
    }
  });
});
