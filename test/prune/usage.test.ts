// Usage evidence: one blame per memory file (per-line last-edit dates) and access-log reads.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { audit } from '../../src/audit.js';
import { parseBlame } from '../../src/evidence/usage.js';
import { scoreEntries } from '../../src/policy/score.js';
import { NOW, cleanup, config, entry, makeRepo } from './helpers.js';

afterAll(cleanup);

describe('gatherUsage', () => {
  test('per-line blame dates become entry edit dates; uncommitted lines count as today', async () => {
    const repo = await makeRepo({ 'CLAUDE.md': '# Notes\n\n- Old fact.\n- Another old fact.\n' }, '2025-01-10');
    await repo.write('CLAUDE.md', '# Notes\n\n- Old fact.\n- Another old fact,\n  edited later.\n');
    await repo.commit('edit', '2026-02-20');
    await repo.write('CLAUDE.md', '# Notes\n\n- Old fact.\n- Another old fact,\n  edited later.\n- Not committed.\n');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const usage = r.evidence.usage!;
    expect(usage.lines.get('CLAUDE.md')!.map((t) => (t === null ? null : new Date(t).toISOString().slice(0, 10)))).toEqual([
      '2025-01-10',
      '2025-01-10',
      '2025-01-10',
      '2026-02-20',
      '2026-02-20',
      null,
    ]);
    expect(usage.entries.get(entry(r, 'Old fact.').id)).toEqual({ reads: 0, lastEdited: '2025-01-10', firstEdited: '2025-01-10', lastEditedTime: Date.parse('2025-01-10T12:00:00Z') });
    expect(usage.entries.get(entry(r, 'edited later').id)).toMatchObject({ lastEdited: '2026-02-20', firstEdited: '2026-02-20' });
    expect(usage.entries.get(entry(r, 'Not committed').id)).toEqual({ reads: 0, uncommitted: true });
    const s = scoreEntries({ files: r.files, entries: r.entries, evidence: r.evidence, config: r.config });
    expect(s.get(entry(r, 'Not committed').id)).toMatchObject({ recency: 1, activitySource: 'uncommitted', score: 0.5 });
    expect(s.get(entry(r, 'Old fact.').id)!.recency).toBe(0.038);
  });

  test('topic files take their dates from the history pass (no blame); uncommitted edits count as today', async () => {
    const t = (body: string) => `---\nname: deploy\ndescription: deploys\ntype: project\n---\n\n${body}\n`;
    const repo = await makeRepo({ '.claude/memory/MEMORY.md': '- [Deploy](deploy.md) — deploys\n', '.claude/memory/deploy.md': t('Staging first.') }, '2025-01-10');
    await repo.write('.claude/memory/deploy.md', t('Staging first, then production.'));
    await repo.commit('edit', '2026-02-01');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const topic = r.entries.find((e) => e.kind === 'topic')!;
    expect(r.evidence.usage!.entries.get(topic.id)).toEqual({ reads: 0, lastEdited: '2026-02-01', firstEdited: '2025-01-10', lastEditedTime: Date.parse('2026-02-01T12:00:00Z') });
    expect(r.evidence.usage!.lines.has('.claude/memory/deploy.md')).toBe(false);
    expect(r.evidence.usage!.lines.has('.claude/memory/MEMORY.md')).toBe(true);
    await repo.write('.claude/memory/deploy.md', t('Staging first, then production, then a smoke test.'));
    const r2 = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    expect(r2.evidence.usage!.entries.get(r2.entries.find((e) => e.kind === 'topic')!.id)).toMatchObject({ uncommitted: true, lastEdited: '2026-02-01' });
  });

  test('the access log adds reads per entry and per file, up to now', async () => {
    const log = [
      { ts: '2026-03-01T10:00:00Z', file: '/home/dev/.claude/projects/x/memory/deploy.md' },
      { ts: '2026-03-02T10:00:00Z', file: '.claude/memory/deploy.md' },
      { ts: '2026-03-03T10:00:00Z', file: '.claude/memory/MEMORY.md', entry: 'nope' },
      { ts: '2026-04-01T10:00:00Z', file: '.claude/memory/deploy.md' },
      'not json',
      { ts: '2026-03-04T10:00:00Z', file: 'elsewhere.md' },
    ]
      .map((x) => (typeof x === 'string' ? x : JSON.stringify(x)))
      .join('\n');
    const repo = await makeRepo({
      '.claude/memory/MEMORY.md': '# Memory\n\n- [Deploy](deploy.md) — deploys\n',
      '.claude/memory/deploy.md': '---\nname: deploy\ndescription: deploys\ntype: project\n---\n\nStaging first.\n',
      '.memory-audit/access.jsonl': log + '\n',
    });
    const r = await audit({ root: repo.dir, now: NOW, config: config({ accessLog: '.memory-audit/access.jsonl' }), checks: [] });
    const usage = r.evidence.usage!;
    expect(usage.accessLog).toEqual({ path: '.memory-audit/access.jsonl', found: true, records: 3, skipped: 3 });
    const topic = r.entries.find((e) => e.file === '.claude/memory/deploy.md')!;
    expect(usage.entries.get(topic.id)).toMatchObject({ reads: 2, lastRead: '2026-03-02T10:00:00.000Z' });
    expect(usage.entries.get(entry(r, '[Deploy]').id)).toMatchObject({ reads: 1, lastRead: '2026-03-03T10:00:00.000Z' });
  });

  test('parseBlame reads --line-porcelain output', () => {
    const sha = 'a'.repeat(40);
    const zero = '0'.repeat(40);
    const out = `${sha} 1 1 1\nauthor X\nauthor-time 1700000000\nfilename f\n\tline one\n${zero} 2 2 1\nauthor Not Committed Yet\nauthor-time 1800000000\n\tline two\n`;
    expect(parseBlame(out)).toEqual([1700000000000, null]);
  });
});

describe('the access-log hook (examples/hooks)', () => {
  test('appends one line per memory file read, ignores other reads, never fails', async () => {
    const repo = await makeRepo({ 'CLAUDE.md': '- x\n' });
    const hook = path.resolve('examples/hooks/memory-access-log.mjs');
    const run = (payload: string) =>
      spawnSync(process.execPath, [hook], {
        input: payload,
        env: { PATH: process.env.PATH, CLAUDE_PROJECT_DIR: repo.dir, MEMORY_AUDIT_NOW: '2026-03-01T09:00:00.000Z' },
      }).status;
    const read = (file: string) => JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: file } });
    expect(run(read(path.join(repo.dir, '.claude/memory/deploy.md')))).toBe(0);
    expect(run(read('/home/dev/.claude/projects/p/memory/MEMORY.md'))).toBe(0);
    expect(run(read(path.join(repo.dir, 'src/index.ts')))).toBe(0);
    expect(run(read(path.join(repo.dir, '.claude/memory/pruning-log.md')))).toBe(0);
    expect(run(JSON.stringify({ tool_name: 'Edit', tool_input: { file_path: 'CLAUDE.md' } }))).toBe(0);
    expect(run('not json')).toBe(0);
    expect(await repo.read('.memory-audit/access.jsonl')).toBe(
      '{"ts":"2026-03-01T09:00:00.000Z","file":".claude/memory/deploy.md"}\n' +
        '{"ts":"2026-03-01T09:00:00.000Z","file":"/home/dev/.claude/projects/p/memory/MEMORY.md"}\n',
    );
  });
});
