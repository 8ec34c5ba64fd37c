// runPrune end to end with every registered check: invariants that must hold whatever the
// checks find — dry run writes nothing, protected entries stay byte-identical, a second prune
// is a no-op, restore brings every removed line back, identical output for the same --now.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { NOW, cleanup, makeRepo, type Repo } from './helpers.js';

afterAll(cleanup);

const CLAUDE = `# Demo

## Commands

- Run tests with \`npm test\`.
- Currently working on issue #42, WIP.

## Notes

- I think the rate limit is 100/min.
- Yesterday the user seemed frustrated with the slow build.

<!-- PROTECTED -->
- Never force-push to main.
`;

const FILES: Record<string, string> = {
  'package.json': '{"name":"demo","scripts":{"test":"vitest"}}\n',
  'src/index.ts': 'export {}\n',
  'CLAUDE.md': CLAUDE,
  '.claude/memory/MEMORY.md': '# Memory\n\n- [Testing](testing.md) — how to run tests\n- [Pool](pool.md) — connection pool tuning\n- [Session](session.md) — current session\n- Tests run with `npm test`.\n',
  '.claude/memory/testing.md': '---\nname: testing\ndescription: how to run tests\ntype: project\n---\n\nTests run with `npm test`; vitest is the runner.\n',
  '.claude/memory/pool.md': '---\nname: pool\ndescription: connection pool tuning\ntype: pattern\n---\n\nTried raising the connection pool size to fix the login timeout; it didn\'t work, the pool is not the bottleneck.\n',
  '.claude/memory/session.md': '---\nname: session\ndescription: current session\ntype: project\n---\n\nCurrently debugging the login page; right now the form is half done.\n',
};

async function snapshot(repo: Repo): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string) => {
    for (const ent of await readdir(path.join(repo.dir, d), { withFileTypes: true })) {
      const rel = d ? `${d}/${ent.name}` : ent.name;
      if (ent.name === '.git') continue;
      if (ent.isDirectory()) await walk(rel);
      else out[rel] = await repo.read(rel);
    }
  };
  await walk('');
  return out;
}

describe('runPrune end to end', () => {
  test('dry run, write, second run, restore, determinism', async () => {
    const repo = await makeRepo(FILES);
    const initial = await snapshot(repo);
    const dry = await runPrune({ root: repo.dir, now: NOW, write: false });
    expect(dry.written).toBe(false);
    expect(await snapshot(repo)).toEqual(initial);
    expect(dry.summary.pruned).toBeGreaterThan(0);
    expect(dry.plan.length).toBe(dry.audit.entries.length);
    // The abandoned approach is deleted with a counter-memory, indexed from MEMORY.md.
    const pool = dry.audit.entries.find((e) => e.file === '.claude/memory/pool.md')!;
    expect(dry.supersededFiles).toEqual([`.claude/memory/superseded-${pool.id.slice(2)}.md`]);

    const wrote = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(wrote.diff).toBe(dry.diff);
    expect(wrote.written).toBe(true);
    const claude = await repo.read('CLAUDE.md');
    expect(claude.endsWith('<!-- PROTECTED -->\n- Never force-push to main.\n')).toBe(true);

    const second = await runPrune({ root: repo.dir, now: new Date('2026-05-01T00:00:00Z'), write: true });
    expect(second.changes).toEqual([]);
    expect(second.logEntry).toBe('');

    // Same --now on a fresh copy: byte-identical diff and log.
    const copy = await makeRepo(FILES);
    const again = await runPrune({ root: copy.dir, now: NOW, write: false });
    expect(again.diff).toBe(dry.diff);
    expect(again.logEntry).toBe(dry.logEntry);

    // Every removed line comes back.
    const { records } = parseArchive(await repo.read('.memory-audit/archive.jsonl'));
    for (const id of [...new Set(records.filter((r) => r.entryId.startsWith('e_')).map((r) => r.entryId))])
      await runRestore({ root: repo.dir, id });
    const restored = await snapshot(repo);
    for (const [file, text] of Object.entries(initial)) {
      const now = restored[file] ?? '';
      for (const line of text.split('\n')) expect(now.split('\n')).toContain(line);
    }
    expect(restored['CLAUDE.md']).toBe(CLAUDE);
  });

  test('a repository with only CLAUDE.md keeps its log in .memory-audit/', async () => {
    const repo = await makeRepo({ 'CLAUDE.md': CLAUDE });
    const r = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(r.logPath).toBe('.memory-audit/pruning-log.md');
    expect(r.changes.map((c) => c.file)).toEqual(['.memory-audit/archive.jsonl', '.memory-audit/pruning-log.md', 'CLAUDE.md']);
    expect((await repo.read('.memory-audit/pruning-log.md')).includes('## 2026-03-10 audit')).toBe(true);
  });
});

describe('with the staleness checks', () => {
  test('renamed paths and packages are corrected in place, removed ones deleted; then nothing to do', async () => {
    const repo = await makeRepo(
      {
        'package.json': '{"name":"demo","scripts":{"test":"vitest","lint":"eslint ."},"dependencies":{"acquaint":"1.0.0"}}\n',
        'src/server.ts': 'export {}\n',
        'src/old.ts': 'x\n',
        'CLAUDE.md':
          '# Demo\n\n- Run `npm run lint` before pushing.\n- Start the server from `src/server.ts`.\n- Use acquaint for MCP sessions.\n- Helpers live in `src/old.ts`.\n\n<!-- PROTECTED -->\n- The old server was `src/server.ts`.\n',
      },
      '2025-06-01',
    );
    await repo.git.mv('src/server.ts', 'src/app.ts');
    await repo.remove('src/old.ts');
    await repo.write('package.json', '{"name":"demo","scripts":{"test":"vitest"},"dependencies":{"mcptools":"1.0.0"}}\n');
    await repo.commit('rename', '2026-01-10');
    const r = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(await repo.read('CLAUDE.md')).toBe(
      '# Demo\n\n- Start the server from `src/app.ts`. [corrected 2026-03-10]\n- Use mcptools for MCP sessions. [corrected 2026-03-10]\n\n<!-- PROTECTED -->\n- The old server was `src/server.ts`.\n',
    );
    expect(r.summary).toMatchObject({ pruned: 2, updated: 2 });
    expect(r.logEntry).toContain('- **Staleness found**: path-renamed ×2, package-renamed ×1, path-missing ×1, script-missing ×1\n');
    const again = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
  });
});

describe('reproducible dates', () => {
  test('without --now, SOURCE_DATE_EPOCH dates the log, the markers and the archive', async () => {
    const repo = await makeRepo({ 'CLAUDE.md': '- Keep.\n- Currently working on issue #42, WIP.\n' });
    const saved = process.env.SOURCE_DATE_EPOCH;
    process.env.SOURCE_DATE_EPOCH = String(Date.parse('2026-07-04T00:00:00Z') / 1000);
    try {
      const a = await runPrune({ root: repo.dir, write: false });
      const b = await runPrune({ root: repo.dir, write: false });
      expect(a.logEntry.startsWith('## 2026-07-04 audit\n')).toBe(true);
      expect(a.diff).toBe(b.diff);
      expect(a.changes.find((c) => c.file === '.memory-audit/archive.jsonl')!.after).toContain('"date":"2026-07-04"');
    } finally {
      if (saved === undefined) delete process.env.SOURCE_DATE_EPOCH;
      else process.env.SOURCE_DATE_EPOCH = saved;
    }
  });
});
