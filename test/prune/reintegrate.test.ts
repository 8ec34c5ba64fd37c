// Reintegration and the less common edits: merged topics redirect, budget archiving takes the
// topic with its index line, CRLF files, log summarisation.
import { afterAll, describe, expect, test } from 'vitest';
import { audit } from '../../src/audit.js';
import { applyAudit } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { appendLog } from '../../src/apply/log.js';
import { decide } from '../../src/policy/decide.js';
import { NOW, cleanup, config, entry, finding, makeRepo } from './helpers.js';

afterAll(cleanup);

const topic = (name: string, body: string) => `---\nname: ${name}\ndescription: ${name} notes\ntype: project\n---\n\n${body}\n`;

describe('reintegration', () => {
  test('a topic merged into another: its index line goes, links to it are redirected', async () => {
    const repo = await makeRepo({
      '.claude/memory/MEMORY.md': '# Memory\n\n- [Deploy](deploy.md) — deploys\n- [Deploy 2](deploy2.md) — deploys again\n',
      '.claude/memory/deploy.md': topic('deploy', 'Deploys go through staging first, then production.'),
      '.claude/memory/deploy2.md': topic('deploy2', 'Deploys go through staging first.'),
      '.claude/memory/notes.md': topic('notes', 'See [deploys](deploy2.md) before releasing.'),
    });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const loser = r.entries.find((e) => e.file === '.claude/memory/deploy2.md')!;
    const kept = r.entries.find((e) => e.file === '.claude/memory/deploy.md')!;
    const plan = decide(r, [finding('duplicate', loser, { evidence: { now: kept.id } })]);
    const res = await applyAudit({ ...r, plan }, { root: repo.dir, now: NOW, write: true });
    expect(res.changes.filter((c) => c.file.endsWith('.md') && !c.file.endsWith('pruning-log.md')).map((c) => [c.file, c.after])).toEqual([
      ['.claude/memory/MEMORY.md', '# Memory\n\n- [Deploy](deploy.md) — deploys\n'],
      ['.claude/memory/deploy2.md', null],
      ['.claude/memory/notes.md', topic('notes', 'See [deploys](deploy.md) before releasing.')],
    ]);
    expect(res.logEntry).toContain(`| "deploy2 notes" | project | rule 3, merge: duplicate of .claude/memory/deploy.md:1 (${kept.id}), the more complete version |`);
    // Restore brings the topic, its index line and the original link back.
    await runRestore({ root: repo.dir, id: loser.id, config: config() });
    expect(await repo.read('.claude/memory/MEMORY.md')).toBe('# Memory\n\n- [Deploy](deploy.md) — deploys\n- [Deploy 2](deploy2.md) — deploys again\n');
    expect(await repo.read('.claude/memory/notes.md')).toBe(topic('notes', 'See [deploys](deploy2.md) before releasing.'));
    expect(await repo.read('.claude/memory/deploy2.md')).toBe(topic('deploy2', 'Deploys go through staging first.'));
  });

  test('a topic file whose stale lines are a minority goes to review; one with nothing else left is deleted with its index line', async () => {
    const repo = await makeRepo({
      'src/old.ts': 'export const a = 1;\n',
      'src/keep.ts': 'export const k = 1;\n',
      '.claude/memory/MEMORY.md': '# Memory\n\n- [Legacy](legacy.md) — the legacy module\n- [Keep](keep.md) — the keep module\n',
      '.claude/memory/legacy.md': topic('legacy', '- The legacy entry point is `src/old.ts`.\n- `src/old.ts` exports the constant `a`.'),
      '.claude/memory/keep.md': topic(
        'keep',
        '- `src/keep.ts` exports `k`.\n- The old helper lives in `src/old.ts`.\n- Tests for `src/keep.ts` are missing on purpose.\n- `src/keep.ts` must stay tiny.',
      ),
    });
    await repo.remove('src/old.ts');
    await repo.commit('drop the old module', '2026-02-01');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['path'] });
    const byFile = (f: string, kind = 'topic') => r.plan.find((p) => p.file === f && r.entries.find((e) => e.id === p.entryId)?.kind === kind)!;
    // One stale line of four: the other three are facts about a file that exists.
    expect(byFile('.claude/memory/keep.md')).toMatchObject({ action: 'review', rule: 4 });
    expect(byFile('.claude/memory/keep.md').reason).toMatch(/the rest of the entry may still be useful$/);
    // Every line stale: the topic goes, and its index line with it.
    expect(byFile('.claude/memory/legacy.md')).toMatchObject({ action: 'delete', rule: 4 });
    const res = await applyAudit(r, { root: repo.dir, now: NOW, write: true });
    expect(res.changes.filter((c) => c.file !== '.claude/memory/pruning-log.md' && !c.file.endsWith('.jsonl')).map((c) => [c.file, c.after])).toEqual([
      ['.claude/memory/MEMORY.md', '# Memory\n\n- [Keep](keep.md) — the keep module\n'],
      ['.claude/memory/legacy.md', null],
    ]);
  });

  test("an emptied file keeps its title; a topic file left with only its title is deleted; restore puts everything back", async () => {
    const repo = await makeRepo({
      'CLAUDE.md': '# Widgets\n\n## Status\n\n- Currently working on issue #42, halfway through the refactor.\n',
      '.claude/memory/MEMORY.md': '# Memory\n\n- [Wip](wip.md) — work in progress\n',
      '.claude/memory/wip.md': topic('wip', '# Work in progress\n\n- Right now I am debugging the login flow.'),
    });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['ephemeral'] });
    const res = await applyAudit(r, { root: repo.dir, now: NOW, write: true });
    expect(res.changes.filter((c) => c.file.endsWith('.md') && !c.file.endsWith('pruning-log.md')).map((c) => [c.file, c.after])).toEqual([
      ['.claude/memory/MEMORY.md', '# Memory\n'],
      ['.claude/memory/wip.md', null],
      ['CLAUDE.md', '# Widgets\n'],
    ]);
    const again = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['ephemeral'] });
    expect((await applyAudit(again, { root: repo.dir, now: NOW, write: false })).changes).toEqual([]);
    for (const e of r.entries.filter((x) => x.kind !== 'index-line')) await runRestore({ root: repo.dir, id: e.id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe('# Widgets\n\n## Status\n\n- Currently working on issue #42, halfway through the refactor.\n');
    expect(await repo.read('.claude/memory/wip.md')).toBe(topic('wip', '# Work in progress\n\n- Right now I am debugging the login flow.'));
    expect(await repo.read('.claude/memory/MEMORY.md')).toBe('# Memory\n\n- [Wip](wip.md) — work in progress\n');
  });

  test('a stale glob in a rule file\'s frontmatter puts the first entry under review; no body entry is deleted, run after run', async () => {
    const rule = '---\npaths:\n  - "src/api/**"\n---\n\n- Log with the request id.\n- Never throw raw strings.\n';
    const repo = await makeRepo({ 'src/api/a.ts': 'export const a = 1;\n', '.claude/rules/api.md': rule });
    await repo.commit('x', '2026-01-06');
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['mv', 'src/api', 'src/routes'], { cwd: repo.dir });
    await repo.commit('api -> routes', '2026-02-01');
    for (const _ of [1, 2]) {
      const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['path'] });
      expect(r.findings.map((f) => [f.kind, f.line])).toEqual([['path-renamed', 3]]);
      const first = r.entries.find((e) => e.text.includes('request id'))!;
      expect(r.plan.find((p) => p.entryId === first.id)).toMatchObject({ action: 'review', rule: 4 });
      expect(r.plan.find((p) => p.entryId === first.id)!.reason).toMatch(/^stale \(path-renamed\) at line 3, the file's frontmatter, outside this entry: /);
      const res = await applyAudit(r, { root: repo.dir, now: NOW, write: true });
      expect(res.changes).toEqual([]);
      expect(await repo.read('.claude/rules/api.md')).toBe(rule);
    }
  });

  test('over budget: index lines are archived with their topic files', async () => {
    const files: Record<string, string> = {};
    const lines: string[] = [];
    for (let i = 1; i <= 6; i++) {
      files[`.claude/memory/t${i}.md`] = topic(`t${i}`, `Fact number ${i}.`) ;
      lines.push(`- [T${i}](t${i}.md) — fact ${i}`);
    }
    files['.claude/memory/t1.md'] = topic('t1', 'Fact number 1.').replace('type: project\n', 'type: project\npriority: 10\n');
    files['.claude/memory/MEMORY.md'] = `# Memory\n\n${lines.join('\n')}\n`;
    const repo = await makeRepo(files);
    const r = await audit({ root: repo.dir, now: NOW, config: config({ budgets: { memoryIndex: { lines: 5 } } }), checks: [] });
    const res = await applyAudit(r, { root: repo.dir, now: NOW, write: true });
    expect(await repo.read('.claude/memory/MEMORY.md')).toBe('# Memory\n\n- [T1](t1.md) — fact 1\n- [T2](t2.md) — fact 2\n- [T3](t3.md) — fact 3\n');
    expect(res.changes.filter((c) => c.after === null).map((c) => c.file)).toEqual([
      '.claude/memory/t4.md',
      '.claude/memory/t5.md',
      '.claude/memory/t6.md',
    ]);
    expect(res.summary).toMatchObject({ pruned: 6, archived: 6 });
    expect(res.plan.find((p) => p.file === '.claude/memory/MEMORY.md' && p.line === 8)).toMatchObject({ action: 'archive', rule: 8 });
  });

  test('CRLF files keep their line endings', async () => {
    const text = '# Notes\r\n\r\n- Keep this.\r\n- Currently doing X.\r\n- Keep that.\r\n';
    const repo = await makeRepo({ 'CLAUDE.md': text });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const plan = decide(r, [finding('ephemeral', entry(r, 'Currently doing X'))]);
    await applyAudit({ ...r, plan }, { root: repo.dir, now: NOW, write: true });
    expect(await repo.read('CLAUDE.md')).toBe('# Notes\r\n\r\n- Keep this.\r\n- Keep that.\r\n');
    await runRestore({ root: repo.dir, id: entry(r, 'Currently doing X').id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe(text);
  });
});

describe('the pruning log', () => {
  const audit = (d: string, pruned: number) =>
    `## ${d} audit\n\n- **Entries audited**: 10\n- **Entries pruned**: ${pruned} (x%)\n- **Entries updated**: 1\n\n| Entry (summary) | Type | Reason |\n| --- | --- | --- |\n\n`;
  test('a new log gets a title; entries are appended', () => {
    const one = appendLog(null, audit('2025-01-01', 2));
    expect(one).toBe(
      '# Pruning log\n\nWritten by `memory-audit prune`: what was removed or changed, when and why. Full texts are in the archive; `memory-audit restore <id>` puts an entry back.\n\n' +
        audit('2025-01-01', 2),
    );
    expect(appendLog(one, audit('2025-02-01', 3))).toBe(one + audit('2025-02-01', 3));
  });
  test('beyond the kept number, the oldest audits are summarised per year', () => {
    let log = appendLog(null, audit('2024-12-01', 4));
    for (const [d, n] of [['2025-01-01', 2], ['2025-02-01', 3], ['2025-03-01', 5]] as const) log = appendLog(log, audit(d, n), 2);
    expect(log).toBe(
      '# Pruning log\n\nWritten by `memory-audit prune`: what was removed or changed, when and why. Full texts are in the archive; `memory-audit restore <id>` puts an entry back.\n\n' +
        '## Earlier audits (summarised)\n\n- 2024: 1 audit, 4 entries pruned, 1 updated\n- 2025: 1 audit, 2 entries pruned, 1 updated\n\n' +
        audit('2025-02-01', 3) +
        audit('2025-03-01', 5),
    );
  });
});

describe('inoculation only', () => {
  test('a reversed decision keeps its entry, gains one SUPERSEDED record, and a second run changes nothing', async () => {
    const text = '# Decisions\n\n- We chose Postgres over MySQL for JSONB support.\n';
    const repo = await makeRepo({ 'CLAUDE.md': text }, '2025-01-01');
    await repo.write('CLAUDE.md', text + '- We chose MySQL over Postgres for replication.\n');
    await repo.commit('reverse', '2026-02-01');
    const run = async (now: Date) => {
      const r = await audit({ root: repo.dir, now, config: config(), checks: [] });
      const a = entry(r, 'Postgres over MySQL');
      const b = entry(r, 'MySQL over Postgres');
      const plan = decide(r, [finding('contradiction', a, { evidence: { now: b.id } }), finding('contradiction', b, { evidence: { now: a.id } })]);
      return { a, b, res: await applyAudit({ ...r, plan }, { root: repo.dir, now, write: true }) };
    };
    const { a, b, res } = await run(NOW);
    const record = `.memory-audit/superseded-${a.id.slice(2)}.md`;
    expect(res.changes.map((c) => c.file)).toEqual(['.memory-audit/pruning-log.md', record]);
    expect(await repo.read('CLAUDE.md')).toBe(text + '- We chose MySQL over Postgres for replication.\n');
    expect(await repo.read(record)).toBe(`---
name: superseded-${a.id.slice(2)}
description: Counter-memory preventing re-derivation of We chose Postgres over MySQL for JSONB support.
type: superseded
---

SUPERSEDED 2026-03-10
Pattern: We chose Postgres over MySQL for JSONB support.
Period: 2025-01-01 to 2026-03-10
Evidence: reversed by CLAUDE.md:4 (${b.id}): "We chose MySQL over Postgres for replication."
Abandonment reason: decision reversed by newer CLAUDE.md:4 (${b.id}); reasoning kept, SUPERSEDED record added
Do not re-derive from: the observations that produced this decision entry in CLAUDE.md under "Decisions"
Supersedes: CLAUDE.md#${a.id}
`);
    const second = await run(new Date('2026-04-01T00:00:00Z'));
    expect(second.res.changes).toEqual([]);
    expect(second.res.plan.find((p) => p.entryId === a.id)).toMatchObject({ action: 'keep', rule: 2 });
  });
});

describe('restore puts lines back exactly', () => {
  test('first item after a blank line, and an item whose text repeats a kept one', async () => {
    const text = '# Dev\n\n**Testing:**\n\n- `pnpm lint` - Lint.\n- `pnpm typecheck` - Type check.\n\n## Style\n\n- `pnpm typecheck` - Type check.\n- Tabs.\n';
    const repo = await makeRepo({ 'CLAUDE.md': text });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const lint = entry(r, 'pnpm lint');
    const [first, second] = r.entries.filter((e) => e.text.includes('pnpm typecheck'));
    const plan = decide(r, [finding('ephemeral', lint), finding('duplicate', second, { evidence: { now: first.id } })]);
    await applyAudit({ ...r, plan }, { root: repo.dir, now: NOW, write: true });
    expect(await repo.read('CLAUDE.md')).toBe('# Dev\n\n**Testing:**\n\n- `pnpm typecheck` - Type check.\n\n## Style\n\n- Tabs.\n');
    await runRestore({ root: repo.dir, id: lint.id, config: config() });
    await runRestore({ root: repo.dir, id: second.id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe(text);
    const again = await runRestore({ root: repo.dir, id: second.id, config: config() });
    expect(again.restored).toEqual([]);
  });
});
