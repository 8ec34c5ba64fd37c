// A UTF-8 byte order mark survives prune --write and restore, byte for byte: memory text is
// BOM-less inside (src/memory/read.ts), and both writers put the mark back in front. A file
// without one never gains one; CRLF stays CRLF. Real git repository, real files on disk.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { audit, type AuditResult } from '../../src/audit.js';
import { applyAudit } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { decide } from '../../src/policy/decide.js';
import type { Finding } from '../../src/types.js';
import { NOW, cleanup, config, finding, makeRepo, type Repo } from './helpers.js';

const BOM = '\uFEFF';
const BOM_BYTES = Buffer.from([0xef, 0xbb, 0xbf]);

// BOM + CRLF: one line goes (ephemeral), one is corrected (renamed path).
const AGENTS = `${BOM}# Agents\r\n\r\n- Server is \`src/server.ts\`.\r\n- Currently working on issue #42, WIP.\r\n- Build with \`npm test\`.\r\n`;
// No BOM, LF: must not gain one.
const CLAUDE = `# Project\r\n\r\n- Currently debugging the flaky login test.\r\n- Keep commits small.\r\n`.replace(/\r\n/g, '\n');
// An auto-memory index with a BOM: its line to the deleted topic goes, a SUPERSEDED line comes.
const MEMORY = `${BOM}# Memory\n\n- [Debug](debug.md) — debugging the login timeout\n- [Style](style.md) — code style\n`;
const DEBUG = `---\nname: debug\ndescription: debugging the login timeout\ntype: pattern\n---\n\nLogin timeout: tried raising the pool size, it did not help.\n`;
const STYLE = `---\nname: style\ndescription: code style\ntype: feedback\n---\n\nTwo-space indentation everywhere.\n`;

const bytes = (repo: Repo, file: string) => readFile(path.join(repo.dir, file));

async function fixture(): Promise<Repo> {
  const repo = await makeRepo(
    {
      'package.json': '{"name":"demo","scripts":{"test":"vitest"}}\n',
      'src/server.ts': 'export {}\n',
      'AGENTS.md': AGENTS,
      'CLAUDE.md': CLAUDE,
      '.claude/memory/MEMORY.md': MEMORY,
      '.claude/memory/debug.md': DEBUG,
      '.claude/memory/style.md': STYLE,
    },
    '2026-01-05',
  );
  await repo.git.mv('src/server.ts', 'src/http.ts');
  await repo.commit('rename the server', '2026-02-01');
  return repo;
}

/** No checks run; the findings a real run would have are injected, the plan comes from the real decision tree. */
async function auditWith(repo: Repo): Promise<AuditResult> {
  const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
  const extra: Finding[] = [];
  const has = (file: string, s: string) => r.entries.find((e) => e.file === file && e.text.includes(s));
  const wip = has('AGENTS.md', 'Currently working on issue #42');
  if (wip) extra.push(finding('ephemeral', wip, { evidence: { filter: 'session-state' } }));
  const dbgLine = has('CLAUDE.md', 'Currently debugging');
  if (dbgLine) extra.push(finding('ephemeral', dbgLine, { evidence: { filter: 'session-state' } }));
  const dbg = r.entries.find((e) => e.file === '.claude/memory/debug.md');
  if (dbg) extra.push(finding('ephemeral', dbg, { evidence: { filter: 'reasoning' } }));
  const srv = has('AGENTS.md', 'src/server.ts');
  if (srv)
    extra.push(
      finding('path-renamed', srv, {
        ref: 'src/server.ts',
        message: 'src/server.ts was renamed to src/http.ts (2026-02-01)',
        suggestion: { replace: 'src/http.ts' },
      }),
    );
  const findings = [...r.findings, ...extra];
  const plan = decide({ files: r.files, entries: r.entries, evidence: r.evidence, config: r.config }, findings);
  return { ...r, findings, plan };
}

afterAll(cleanup);

describe('byte order mark', () => {
  test('the reader notes the BOM; prune --write puts it back and changes only the pruned lines', async () => {
    const repo = await fixture();
    const before = await auditWith(repo);
    expect(before.files.filter((f) => f.bom).map((f) => f.path)).toEqual(['.claude/memory/MEMORY.md', 'AGENTS.md']);

    const w = await applyAudit(before, { root: repo.dir, now: NOW, write: true });
    expect(w.written).toBe(true);
    // The diff is about the prune only: no BOM line in it.
    expect(w.diff).not.toContain(BOM);

    const agents = await bytes(repo, 'AGENTS.md');
    expect(agents.subarray(0, 3)).toEqual(BOM_BYTES);
    expect(agents.toString('utf8')).toBe(`${BOM}# Agents\r\n\r\n- Server is \`src/http.ts\`. [corrected 2026-03-10]\r\n- Build with \`npm test\`.\r\n`);

    const claude = await bytes(repo, 'CLAUDE.md');
    expect(claude.toString('utf8')).toBe('# Project\n\n- Keep commits small.\n');
    expect(claude[0]).toBe(0x23); // '#': no BOM gained

    const dbgId = before.entries.find((e) => e.file === '.claude/memory/debug.md')!.id.slice(2);
    const memory = await bytes(repo, '.claude/memory/MEMORY.md');
    expect(memory.subarray(0, 3)).toEqual(BOM_BYTES);
    expect(memory.toString('utf8')).toBe(
      `${BOM}# Memory\n\n- [Style](style.md) — code style\n` +
        `- [superseded-${dbgId}](superseded-${dbgId}.md) — Counter-memory preventing re-derivation of debugging the login timeout\n`,
    );
    expect(await repo.exists('.claude/memory/debug.md')).toBe(false);

    // git sees only the pruned lines: the first line of each BOM file is unchanged.
    const numstat = await repo.git.raw(['diff', '--numstat', '--', 'AGENTS.md', 'CLAUDE.md', '.claude/memory/MEMORY.md']);
    expect(numstat).toBe('1\t1\t.claude/memory/MEMORY.md\n1\t2\tAGENTS.md\n0\t1\tCLAUDE.md\n');

    // A second prune reads the written files back: nothing left to do, BOM still there.
    const second = await applyAudit(await auditWith(repo), { root: repo.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);
    expect((await bytes(repo, 'AGENTS.md')).subarray(0, 3)).toEqual(BOM_BYTES);
  });

  test('restore puts every line back inside the BOM file: the bytes equal the original, BOM and CRLF included', async () => {
    const repo = await fixture();
    const before = await auditWith(repo);
    await applyAudit(before, { root: repo.dir, now: NOW, write: true });
    const { records } = parseArchive(await repo.read('.memory-audit/archive.jsonl'));
    const agentsRecords = records.filter((r) => r.file === 'AGENTS.md');
    expect(agentsRecords.map((r) => r.action).sort()).toEqual(['delete', 'update']);

    // A dry run computes the diff on BOM-less text and writes nothing.
    const dry = await runRestore({ root: repo.dir, id: agentsRecords[0].id, config: config(), write: false });
    expect(dry.diff).not.toContain(BOM);
    expect(dry.restored.length).toBe(1);
    expect((await bytes(repo, 'AGENTS.md')).toString('utf8')).toContain('[corrected 2026-03-10]');

    for (const r of agentsRecords) {
      const res = await runRestore({ root: repo.dir, id: r.id, config: config() });
      expect(res.restored).toEqual([{ file: 'AGENTS.md', line: r.line }]);
      expect(res.skipped).toEqual([]);
      expect((await bytes(repo, 'AGENTS.md')).subarray(0, 3)).toEqual(BOM_BYTES);
    }
    expect(await bytes(repo, 'AGENTS.md')).toEqual(Buffer.from(AGENTS, 'utf8'));

    // The CLAUDE.md line and the topic (with its index line) come back; no BOM is added anywhere.
    for (const r of records.filter((x) => x.file !== 'AGENTS.md' && x.entryId.startsWith('e_') && x.kind !== 'index-line'))
      await runRestore({ root: repo.dir, id: r.entryId, config: config() });
    expect(await bytes(repo, 'CLAUDE.md')).toEqual(Buffer.from(CLAUDE, 'utf8'));
    expect(await bytes(repo, '.claude/memory/debug.md')).toEqual(Buffer.from(DEBUG, 'utf8'));
    const dbgId = before.entries.find((e) => e.file === '.claude/memory/debug.md')!.id.slice(2);
    expect(await bytes(repo, '.claude/memory/MEMORY.md')).toEqual(
      Buffer.from(
        MEMORY + `- [superseded-${dbgId}](superseded-${dbgId}.md) — Counter-memory preventing re-derivation of debugging the login timeout\n`,
        'utf8',
      ),
    );
    const status = await repo.git.raw(['status', '--porcelain', '--', 'AGENTS.md', 'CLAUDE.md', '.claude/memory/debug.md']);
    expect(status).toBe('');
  });

  test('a line anchored on the first line of a BOM file goes back in place', async () => {
    // The removed line directly follows the title: its anchor is line 1, which carries the BOM on disk.
    const text = `${BOM}# Title\r\n- Currently working on issue #7, WIP.\r\n- Stay.\r\n`;
    const repo = await makeRepo({ 'AGENTS.md': text });
    const a = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const wip = a.entries.find((e) => e.text.includes('issue #7'))!;
    const plan = decide({ ...a }, [finding('ephemeral', wip, { evidence: { filter: 'session-state' } })]);
    await applyAudit({ ...a, plan }, { root: repo.dir, now: NOW, write: true });
    expect((await bytes(repo, 'AGENTS.md')).toString('utf8')).toBe(`${BOM}# Title\r\n- Stay.\r\n`);
    const res = await runRestore({ root: repo.dir, id: wip.id, config: config() });
    expect(res.restored).toEqual([{ file: 'AGENTS.md', line: 2 }]);
    expect(await bytes(repo, 'AGENTS.md')).toEqual(Buffer.from(text, 'utf8'));
  });
});
