// Regressions for the QA findings on prune: secrets never leave the working tree (diff, archive,
// log), protection of index lines, wikilink redirects, config paths, restore order, corrupt
// archive lines, absolute diff headers, and the CLI summary of a prune with nothing to do.
import { existsSync, symlinkSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cli } from '../integration/helpers.js';
import { applyAudit, runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive, type ArchiveRecord } from '../../src/apply/archive.js';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { redactSecrets } from '../../src/report/redact.js';
import { NOW, cleanup, config, makeRepo, tempDir, type Repo } from './helpers.js';

afterAll(cleanup);

// Fake but pattern-valid credentials (built at run time so no scanner flags this file).
const GH = 'ghp_' + 'x1Y2'.repeat(9);
const SLACK = 'xoxb-' + '123456789012' + '-' + '1234567890123' + '-' + 'AbCdEfGhIjKlMnOpQrStUvWx';

async function archive(repo: Repo): Promise<ArchiveRecord[]> {
  return parseArchive(await repo.read('.memory-audit/archive.jsonl')).records;
}

const topic = (name: string, type: string, body: string) => `---\nname: ${name}\ndescription: ${name}\ntype: ${type}\n---\n\n${body}\n`;

describe('secrets never leave the working tree', () => {
  test('a secret next to a pruned line: diff context and archive anchors are redacted; restore still finds the anchor', async () => {
    const C = `# Notes\n\n- Bot token: ${GH}\n- Currently working on the deploy script, right now.\n- Indent with two spaces.\n`;
    const repo = await makeRepo({ 'CLAUDE.md': C });
    const dry = await runPrune({ root: repo.dir, now: NOW, write: false });
    const redactedLine = redactSecrets(`- Bot token: ${GH}`);
    expect(redactedLine).not.toContain(GH);
    expect(dry.diff).not.toContain(GH);
    expect(dry.diff).toContain(` ${redactedLine}\n-- Currently working on the deploy script, right now.\n`);
    expect(dry.diff).toContain('diff --git a/CLAUDE.md b/CLAUDE.md\n--- a/CLAUDE.md\n+++ b/CLAUDE.md\n');
    const res = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(res.plan.find((p) => p.line === 3)).toMatchObject({ action: 'review', rule: 0 });
    // The credential stays only where it was: the working-tree line prune does not touch.
    expect(await repo.read('CLAUDE.md')).toBe(`# Notes\n\n- Bot token: ${GH}\n- Indent with two spaces.\n`);
    const raw = await repo.read('.memory-audit/archive.jsonl');
    const log = await repo.read('.memory-audit/pruning-log.md');
    expect([raw.includes(GH), log.includes(GH)]).toEqual([false, false]);
    const [rec] = await archive(repo);
    expect(rec).toMatchObject({ text: '- Currently working on the deploy script, right now.', prevLine: redactedLine, keptBefore: redactedLine, headings: ['Notes'] });
    await runRestore({ root: repo.dir, id: rec.id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe(C);
  });

  test('a secret in a heading: its emptied section keeps the heading, nothing emitted holds the value', async () => {
    const C = `# Notes\n\n- Indent with two spaces.\n\n## Deploy with ${GH}\n\n- Currently working on the deploy script, right now.\n`;
    const repo = await makeRepo({ 'CLAUDE.md': C });
    const res = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(await repo.read('CLAUDE.md')).toBe(`# Notes\n\n- Indent with two spaces.\n\n## Deploy with ${GH}\n`);
    expect(res.warnings).toEqual([
      'CLAUDE.md:5: section heading holds a credential-like string; kept although its section is empty (rotate it and remove it by hand)',
    ]);
    const raw = await repo.read('.memory-audit/archive.jsonl');
    expect([res.diff.includes(GH), raw.includes(GH), res.logEntry.includes(GH)]).toEqual([false, false, false]);
    // A second prune changes nothing (the heading is not removed later either).
    expect((await runPrune({ root: repo.dir, now: NOW, write: false })).changes).toEqual([]);
    const recs = await archive(repo);
    expect(recs.map((r) => [r.kind, r.text, r.headings])).toEqual([
      ['item', '- Currently working on the deploy script, right now.', ['Notes', redactSecrets(`Deploy with ${GH}`)]],
    ]);
    await runRestore({ root: repo.dir, id: recs[0].id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe(C);
  });

  test('an index line holding a secret: review (rule 0) for the line and its topic; nothing is written', async () => {
    const M = '.claude/memory';
    const repo = await makeRepo({
      [`${M}/MEMORY.md`]: `- [Session](session.md) — deploy with ${SLACK}\n- [Style](style.md) — style\n`,
      [`${M}/session.md`]: topic('session', 'project', 'Currently working on the login refactor; left off at the token refresh step.'),
      [`${M}/style.md`]: topic('style', 'feedback', 'Prefer small functions.'),
    });
    const res = await runPrune({ root: repo.dir, now: NOW, write: true });
    const byFile = (f: string, line: number) => res.plan.find((p) => p.file === f && p.line === line)!;
    expect(byFile(`${M}/MEMORY.md`, 1)).toMatchObject({ action: 'review', rule: 0, reason: 'contains a credential-like string: rotate it and remove it by hand' });
    expect(byFile(`${M}/session.md`, 1)).toMatchObject({ action: 'review', rule: 0 });
    expect(byFile(`${M}/session.md`, 1).reason).toMatch(/^its index line \.claude\/memory\/MEMORY\.md:1 holds a credential-like string; the topic and its index line are left for a human \(would be: delete, rule 1: /);
    expect(res.changes).toEqual([]);
    expect(existsSync(path.join(repo.dir, `${M}/session.md`))).toBe(true);
    expect(existsSync(path.join(repo.dir, '.memory-audit'))).toBe(false);
  });
});

test('with the secret check off, an entry holding a credential is still review; a forced delete is refused by apply', async () => {
  const C = `# Notes\n\n- Currently working on the deploy with ${GH}, right now.\n- Indent with two spaces.\n`;
  const repo = await makeRepo({ 'CLAUDE.md': C });
  const cfg = config({ checks: { secret: false } });
  const res = await runPrune({ root: repo.dir, now: NOW, write: false, config: cfg });
  expect(res.audit.findings.filter((f) => f.kind === 'secret')).toEqual([]);
  expect(res.plan.find((p) => p.line === 3)).toMatchObject({ action: 'review', rule: 0 });
  const forced = res.plan.map((p) => (p.line === 3 ? { ...p, action: 'delete' as const, rule: 1, reason: 'ephemeral' } : p));
  const out = await applyAudit({ ...res.audit, plan: forced }, { root: repo.dir, now: NOW, write: true });
  expect(out.warnings).toEqual([`CLAUDE.md:3: ${forced.find((p) => p.line === 3)!.entryId} holds a credential-like string; not deleted (review it by hand)`]);
  expect(out.changes).toEqual([]);
  expect(await repo.read('CLAUDE.md')).toBe(C);
});

test('a forced delete of a topic file holding a credential is refused with its index line and links', async () => {
  const M = '.claude/memory';
  const files = {
    [`${M}/MEMORY.md`]: '- [Session](session.md) — current session\n- [C](c.md) — lint\n',
    [`${M}/session.md`]: topic('session', 'project', `Currently deploying with ${GH}; left off at the token refresh step.`),
    [`${M}/c.md`]: topic('c', 'project', 'Lint runs before commit; see [[session]].'),
  };
  const repo = await makeRepo(files);
  const res = await runPrune({ root: repo.dir, now: NOW, write: false });
  expect(res.plan.filter((p) => p.file === `${M}/session.md`).map((p) => [p.action, p.rule])).toEqual([['review', 0]]);
  const forced = res.plan.map((p) => (p.file === `${M}/session.md` || (p.file === `${M}/MEMORY.md` && p.line === 1) ? { ...p, action: 'delete' as const, rule: 1, reason: 'ephemeral' } : p));
  const out = await applyAudit({ ...res.audit, plan: forced }, { root: repo.dir, now: NOW, write: true });
  expect(out.warnings).toEqual([`${M}/session.md: holds a credential-like string; not deleted (review it by hand)`]);
  expect(out.changes).toEqual([]);
  for (const [f, t] of Object.entries(files)) expect(await repo.read(f)).toBe(t);
});

describe('protection and reintegration', () => {
  test('a PROTECTED index line protects its topic file', async () => {
    const M = '.claude/memory';
    const files = {
      [`${M}/MEMORY.md`]: '<!-- PROTECTED -->\n- [Session](session.md) — notes\n',
      [`${M}/session.md`]: topic('session', 'project', 'Currently working on the login refactor; left off at the token refresh step.'),
    };
    const repo = await makeRepo(files);
    const res = await runPrune({ root: repo.dir, now: NOW, write: true });
    const tp = res.plan.find((p) => p.file === `${M}/session.md`)!;
    expect(tp).toMatchObject({ action: 'keep', rule: 0 });
    expect(tp.reason).toMatch(/^protected by its index line \.claude\/memory\/MEMORY\.md:2 \(e_[0-9a-f]{8}\)$/);
    expect(res.changes).toEqual([]);
    for (const [f, t] of Object.entries(files)) expect(await repo.read(f)).toBe(t);
  });

  test('a merge redirects [[name]] wikilinks to the kept topic; restore puts them back', async () => {
    const M = '.claude/memory';
    const files = {
      [`${M}/MEMORY.md`]: '- [A](a.md) — tabs rule\n- [B](b.md) — tabs\n- [C](c.md) — lint\n',
      [`${M}/a.md`]: topic('a', 'feedback', 'Use tabs for indentation in all TypeScript files; the formatter is configured for it.'),
      [`${M}/b.md`]: topic('b', 'feedback', 'Use tabs for indentation in all TypeScript files.'),
      [`${M}/c.md`]: topic('c', 'project', 'Lint runs before commit; see [tabs](b.md), [[b]] and [[B|the rule]].'),
    };
    const repo = await makeRepo(files);
    const res = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(res.plan.find((p) => p.file === `${M}/b.md`)).toMatchObject({ action: 'merge' });
    expect(await repo.read(`${M}/c.md`)).toBe(topic('c', 'project', 'Lint runs before commit; see [tabs](a.md), [[a]] and [[a|the rule]].'));
    expect(res.audit.findings.filter((f) => f.kind === 'broken-link')).toEqual([]);
    const after = await runPrune({ root: repo.dir, now: NOW, write: false });
    expect(after.audit.findings.filter((f) => f.kind === 'broken-link')).toEqual([]);
    expect(after.changes).toEqual([]);
    const b = res.plan.find((p) => p.file === `${M}/b.md`)!;
    await runRestore({ root: repo.dir, id: b.entryId, config: config() });
    for (const [f, t] of Object.entries(files)) expect(await repo.read(f)).toBe(t);
  });
});

test('a deleted topic: [[name]] links to it are unlinked like markdown links (names match case-insensitively)', async () => {
  const M = '.claude/memory';
  const files = {
    [`${M}/MEMORY.md`]: '- [Session](session.md) — current session\n- [C](c.md) — lint\n',
    [`${M}/session.md`]: topic('session', 'project', 'Currently working on the login refactor; left off at the token refresh step.'),
    [`${M}/c.md`]: topic('c', 'project', 'Lint runs before commit; see [the session](session.md) and [[Session]].'),
  };
  const repo = await makeRepo(files);
  const res = await runPrune({ root: repo.dir, now: NOW, write: true });
  expect(res.changes.filter((c) => c.after === null).map((c) => c.file)).toEqual([`${M}/session.md`]);
  expect(await repo.read(`${M}/c.md`)).toBe(topic('c', 'project', 'Lint runs before commit; see the session and Session.'));
  expect(await repo.read(`${M}/MEMORY.md`)).toBe('- [C](c.md) — lint\n');
  const id = res.plan.find((p) => p.file === `${M}/session.md`)!.entryId;
  await runRestore({ root: repo.dir, id, config: config() });
  for (const [f, t] of Object.entries(files)) expect(await repo.read(f)).toBe(t);
});

describe('configured paths stay inside the repository', () => {
  test('archive / log leading out of the repository: a config error naming file:line:column and the key', async () => {
    const repo = await makeRepo({ 'CLAUDE.md': '- Indent.\n' });
    await repo.write('.memory-audit.yml', '# trail\narchive: ../escaped/archive.jsonl\nlog: /tmp/log.md\n');
    const err = await loadConfig(repo.dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(
      '.memory-audit.yml:2:10: archive: must be a path inside the repository (relative to its root), got "../escaped/archive.jsonl": `..` leads out of it\n' +
        '.memory-audit.yml:3:6: log: must be a path inside the repository (relative to its root), got "/tmp/log.md": an absolute path',
    );
    const run = await cli(repo.dir, ['prune', '--write', '--now', '2026-03-10', '--fail-on', 'never']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('.memory-audit.yml:2:10: archive: must be a path inside the repository');
    await repo.write('.memory-audit.yml', 'archive: .git/hooks/pre-commit\n');
    await expect(loadConfig(repo.dir)).rejects.toThrow(
      '.memory-audit.yml:1:10: archive: must be a path inside the repository (relative to its root), got ".git/hooks/pre-commit": inside `.git`',
    );
    expect(existsSync(path.join(repo.dir, '../escaped'))).toBe(false);
  });

  test('apply refuses to write the trail outside the root (bypassing validation, or through a symlink)', async () => {
    const C = '# P\n\n- Currently working on issue #3, right now.\n- Indent with two spaces.\n';
    const repo = await makeRepo({ 'CLAUDE.md': C });
    const outside = await tempDir();
    const escaped = path.relative(repo.dir, path.join(outside, 'archive.jsonl'));
    await expect(runPrune({ root: repo.dir, now: NOW, write: true, config: config({ archive: escaped }) })).rejects.toThrow(
      `the archive (config \`archive\`) ${escaped} resolves outside the repository (${repo.dir}); refusing to write it`,
    );
    await expect(runPrune({ root: repo.dir, now: NOW, write: true, config: config({ log: escaped }) })).rejects.toThrow(/^the pruning log \(config `log`\) .* refusing to write it$/);
    symlinkSync(outside, path.join(repo.dir, '.memory-audit'));
    await expect(runPrune({ root: repo.dir, now: NOW, write: true })).rejects.toThrow(
      `the archive (config \`archive\`) .memory-audit/archive.jsonl resolves outside the repository (${repo.dir}); refusing to write it`,
    );
    expect(await repo.read('CLAUDE.md')).toBe(C);
    expect(existsSync(path.join(outside, 'archive.jsonl'))).toBe(false);
  });
});

describe('restore', () => {
  test('any order: a deleted line restored before the update of the line above it goes back in place', async () => {
    const repo = await makeRepo({ 'src/auth.ts': 'x\n', 'src/old.ts': 'x\n' });
    await repo.git.mv('src/auth.ts', 'src/session.ts');
    await repo.git.rm(['-q', 'src/old.ts']);
    const C = '# P\n\n- Authentication lives in `src/auth.ts`.\n- Old helpers are in `src/old.ts`.\n\n<!-- PROTECTED -->\n- Never push to main.\n';
    await repo.write('CLAUDE.md', C);
    await repo.commit('m', '2026-01-06');
    await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(await repo.read('CLAUDE.md')).toBe('# P\n\n- Authentication lives in `src/session.ts`. [corrected 2026-03-10]\n\n<!-- PROTECTED -->\n- Never push to main.\n');
    const recs = await archive(repo);
    expect(recs.map((r) => r.action)).toEqual(['update', 'delete']);
    await runRestore({ root: repo.dir, id: recs[1].id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe('# P\n\n- Authentication lives in `src/session.ts`. [corrected 2026-03-10]\n- Old helpers are in `src/old.ts`.\n\n<!-- PROTECTED -->\n- Never push to main.\n');
    await runRestore({ root: repo.dir, id: recs[0].id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe(C);
  });

  test('a corrupt archive line is reported as file:line and restore goes on', async () => {
    const C = '# P\n\n- Currently working on issue #3, right now.\n- Indent with two spaces.\n';
    const repo = await makeRepo({ 'CLAUDE.md': C });
    await runPrune({ root: repo.dir, now: NOW, write: true });
    const [rec] = await archive(repo);
    const evil = { ...rec, id: 'a_evil0000', file: '../evil.md', text: 'x', lines: 'x\n' };
    await appendFile(path.join(repo.dir, '.memory-audit/archive.jsonl'), `{"id": "a_broken", ${JSON.stringify(GH)}\n{"id":"a_x"}\n${JSON.stringify(evil)}\n`);
    const res = await runRestore({ root: repo.dir, id: rec.entryId, config: config() });
    expect(res.warnings).toEqual([
      '.memory-audit/archive.jsonl:2: not valid JSON; skipped',
      '.memory-audit/archive.jsonl:3: not an archive record (needs id, file and text); skipped',
      '.memory-audit/archive.jsonl: record a_evil0000 names ../evil.md, outside the repository; not restored',
    ]);
    expect(res.warnings.join('\n')).not.toContain(GH);
    expect(existsSync(path.join(repo.dir, '../evil.md'))).toBe(false);
    expect(res.restored).toEqual([{ file: 'CLAUDE.md', line: 3 }]);
    expect(await repo.read('CLAUDE.md')).toBe(C);
  });
});

describe('output', () => {
  test('diff headers of memory outside the repository carry a clean path', async () => {
    const repo = await makeRepo({ 'README.md': 'x\n' });
    const dir = await tempDir();
    const file = path.join(dir, 'CLAUDE.md');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, '# P\n\n- Currently working on issue #3, right now.\n- Indent with two spaces.\n');
    const res = await runPrune({ root: repo.dir, now: NOW, write: false, memory: [file] });
    const clean = file.replace(/^\/+/, '');
    const lines = res.diff.split('\n');
    const at = lines.indexOf(`diff --git a/${clean} b/${clean}`);
    const header = lines.slice(at, at + 3);
    expect(header).toEqual([`diff --git a/${clean} b/${clean}`, `--- a/${clean}`, `+++ b/${clean}`]);
    expect(res.diff).not.toContain('a//');
  });

  test('a second prune --write says nothing was changed', async () => {
    const repo = await makeRepo({ 'CLAUDE.md': '# P\n\n- Currently working on issue #3, right now.\n- Indent with two spaces.\n' });
    const first = await cli(repo.dir, ['prune', '--write', '--now', '2026-03-10', '--fail-on', 'never']);
    expect(first.stderr).toBe('Applied: 2 audited, 1 pruned, 0 updated, 0 archived, 0 SUPERSEDED, 0 for review.\n');
    const second = await cli(repo.dir, ['prune', '--write', '--now', '2026-03-10', '--fail-on', 'never']);
    expect(second).toEqual({ code: 0, stdout: 'Nothing to prune: memory is already clean.\n', stderr: 'Applied: 0 changes: 1 audited, nothing changed, 0 for review.\n' });
    const dry = await cli(repo.dir, ['prune', '--now', '2026-03-10', '--fail-on', 'never']);
    expect(dry.stderr).toBe('Nothing to prune: 1 audited, nothing changed, 0 for review.\n');
    expect((await readFile(path.join(repo.dir, '.memory-audit/archive.jsonl'), 'utf8')).split('\n').length).toBe(2);
  });
});

