// An `expired` finding (a passed `valid_until`) covers the whole entry: rule 4 deletes it even when
// its text still names live code (a path at HEAD, a dependency), is long, or has another reference
// with a known correction; decision / feedback / user entries go to review, protected ones stay.
// Rule 6: a note that an issue is still open, under a heading the classifier reads as "patterns"
// (Known issues), is archived once the issue is closed; an author-typed pattern or a reusable
// wording ("always …") is kept.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { audit, type AuditResult } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { decide } from '../../src/policy/decide.js';
import { NOW, auditFiles, cleanup, config, entry, finding, makeRepo, planWith, type Repo } from './helpers.js';

afterAll(cleanup);

const EXPIRED =
  'stale (expired): This entry expired: valid_until 2026-03-01 passed 8 days ago (now 2026-03-10 UTC); delete it or renew valid_until after checking it still h…; the expiry covers the whole entry';
const planOf = (r: AuditResult) => r.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}|${p.file}:${p.line}|${p.reason}`);

const INDEX = '# Memory Index\n\n- [Release freeze](project_release_freeze.md) — no merges to main during the 3.0 release freeze\n- [Style](style.md) — code style\n';
const topic = (body: string, type = 'project', extra = '') =>
  `---\nname: project_release_freeze\ndescription: No merges to main during the 3.0 release freeze\ntype: ${type}\nvalid_until: 2026-03-01\n${extra}---\n\n${body}\n`;
const STYLE = '---\nname: style\ndescription: code style\ntype: project\n---\n\nUse `date-fns` for dates.\n';
const LIVE_BODY = 'Release freeze for 3.0: do not merge feature PRs that touch `src/index.ts`; only fixes labelled `release-blocker`.';

async function repoWith(files: Record<string, string>): Promise<Repo> {
  return makeRepo({
    'package.json': '{ "name": "root", "private": true, "dependencies": { "date-fns": "^3.6.0" } }\n',
    'src/index.ts': 'export {};\n',
    'src/deploy.ts': 'export {};\n',
    ...files,
  }, '2026-02-10');
}

/** prune --write; a second prune changes nothing; restoring every archive record gives the original bytes back. */
async function cycle(repo: Repo, files: Record<string, string | null>, original: Record<string, string>): Promise<void> {
  await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
  for (const [f, want] of Object.entries(files)) {
    if (want === null) expect(await repo.exists(f)).toBe(false);
    else expect(await repo.read(f)).toBe(want);
  }
  const again = await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
  expect(again.changes).toEqual([]);
  const recs = parseArchive(await readFile(path.join(repo.dir, '.memory-audit/archive.jsonl'), 'utf8')).records;
  for (const r of recs) await runRestore({ root: repo.dir, id: r.id, config: config() });
  for (const [f, want] of Object.entries(original)) expect(await repo.read(f)).toBe(want);
}

describe('an expired entry is deleted whole (rule 4)', () => {
  test('a topic whose body names a live path and package is deleted with its index line', async () => {
    const body = LIVE_BODY + '\nDates in release notes use `date-fns`.';
    const files = { '.claude/memory/MEMORY.md': INDEX, '.claude/memory/project_release_freeze.md': topic(body), '.claude/memory/style.md': STYLE };
    const repo = await repoWith(files);
    const r = await audit({ root: repo.dir, now: NOW, config: config() });
    expect(r.findings.filter((f) => f.kind === 'expired').map((f) => `${f.file}:${f.line}|${f.severity}`)).toEqual([
      '.claude/memory/project_release_freeze.md:1|warning',
    ]);
    expect(planOf(r)).toEqual([
      'delete|4|.claude/memory/MEMORY.md:3|index line of .claude/memory/project_release_freeze.md (deleted: rule 4)',
      `delete|4|.claude/memory/project_release_freeze.md:1|${EXPIRED}`,
    ]);
    await cycle(
      repo,
      {
        '.claude/memory/project_release_freeze.md': null,
        '.claude/memory/MEMORY.md': '# Memory Index\n\n- [Style](style.md) — code style\n',
        '.claude/memory/style.md': STYLE,
      },
      files,
    );
  });

  test('the same topic naming nothing the repository has is deleted the same way', async () => {
    const files = {
      '.claude/memory/MEMORY.md': INDEX,
      '.claude/memory/project_release_freeze.md': topic('Release freeze for 3.0: do not merge feature PRs into main.'),
      '.claude/memory/style.md': STYLE,
    };
    const r = await audit({ root: (await repoWith(files)).dir, now: NOW, config: config() });
    expect(planOf(r)).toEqual([
      'delete|4|.claude/memory/MEMORY.md:3|index line of .claude/memory/project_release_freeze.md (deleted: rule 4)',
      `delete|4|.claude/memory/project_release_freeze.md:1|${EXPIRED}`,
    ]);
  });

  test('decision, feedback and user topics go to review; a protected topic is kept', async () => {
    for (const type of ['decision', 'feedback', 'user']) {
      const files = { '.claude/memory/MEMORY.md': INDEX, '.claude/memory/project_release_freeze.md': topic(LIVE_BODY, type), '.claude/memory/style.md': STYLE };
      const r = await audit({ root: (await repoWith(files)).dir, now: NOW, config: config() });
      expect(planOf(r)).toEqual([
        `review|4|.claude/memory/project_release_freeze.md:1|${EXPIRED.replace('; the expiry covers the whole entry', `; a ${type} entry is not deleted automatically`)}`,
      ]);
    }
    const files = {
      '.claude/memory/MEMORY.md': INDEX,
      '.claude/memory/project_release_freeze.md': topic(LIVE_BODY, 'project', 'protected: true\n'),
      '.claude/memory/style.md': STYLE,
    };
    const r = await audit({ root: (await repoWith(files)).dir, now: NOW, config: config() });
    expect(planOf(r)).toEqual([]);
    expect(r.plan.find((p) => p.file === '.claude/memory/project_release_freeze.md')).toMatchObject({ action: 'keep', rule: 0 });
  });

  test('an expired CLAUDE.md item naming a live path goes, its neighbours stay byte for byte', async () => {
    const CLAUDE = [
      '# Project',
      '',
      '## Deploys',
      '',
      '- Deploys are frozen during the 3.0 release; use `src/deploy.ts` only for hotfixes.',
      '  valid_until: 2026-03-01',
      '- Use `date-fns` for dates; see `src/index.ts`.',
      '',
    ].join('\n');
    const repo = await repoWith({ 'CLAUDE.md': CLAUDE });
    const r = await audit({ root: repo.dir, now: NOW, config: config() });
    expect(planOf(r)).toEqual([`delete|4|CLAUDE.md:5|${EXPIRED}`]);
    await cycle(repo, { 'CLAUDE.md': CLAUDE.replace(/- Deploys are frozen[^\n]*\n {2}valid_until: 2026-03-01\n/, '') }, { 'CLAUDE.md': CLAUDE });
  });

  test('another reference with a known correction, or a long entry, does not hold an expired entry back', async () => {
    const { result } = await auditFiles({
      'CLAUDE.md': [
        '# Project',
        '',
        '- Freeze: touch only `src/old.ts` and `src/index.ts`.',
        '  valid_until: 2026-03-01',
        '- Freeze checklist:',
        '  - `src/index.ts` stays as is',
        '  - `src/deploy.ts` stays as is',
        '  - hotfixes only',
        '  - labelled `release-blocker`',
        '  - reviewed twice',
        '  valid_until: 2026-03-01',
        '',
      ].join('\n'),
    });
    const short = entry(result, 'Freeze: touch only');
    const long = entry(result, 'Freeze checklist');
    expect(long.endLine - long.line + 1).toBe(7);
    const expired = (e: typeof short) =>
      finding('expired', e, { message: 'This entry expired: valid_until 2026-03-01 passed 8 days ago (now 2026-03-10 UTC); delete it or renew valid_until after checking it still holds.' });
    const p = planWith(result, [
      expired(short),
      finding('path-renamed', short, { line: short.line, ref: 'src/old.ts', suggestion: { replace: 'src/new.ts' } }),
      expired(long),
    ]);
    expect(p.get(short.id)).toMatchObject({ action: 'delete', rule: 4, reason: EXPIRED });
    expect(p.get(long.id)).toMatchObject({ action: 'delete', rule: 4, reason: EXPIRED });
  });

  test('a `valid_until:` line in the middle of a long entry dates part of it: review, not delete', async () => {
    const { result } = await auditFiles({
      'CLAUDE.md': [
        '# Project',
        '',
        '- Release notes:',
        '  - `src/index.ts` is the entry point',
        '  - the launch banner is on',
        '    valid_until: 2026-03-01',
        '  - `src/deploy.ts` ships the build',
        '  - reviewed twice',
        '',
      ].join('\n'),
    });
    const long = entry(result, 'Release notes');
    const p = planWith(result, [finding('expired', long, { message: 'This entry expired.' })]);
    expect(p.get(long.id)?.action).toBe('review');
  });

  test('an expired code block keeps the long-entry exception (a `valid_until:` line in a snippet is likely a sample)', async () => {
    const { result } = await auditFiles({
      'CLAUDE.md': ['# Memory format', '', '```yaml', 'name: x', 'description: y', 'type: project', 'priority: 5', 'valid_until: 2026-03-01', '```', ''].join('\n'),
    });
    const code = entry(result, 'valid_until: 2026-03-01');
    const p = planWith(result, [finding('expired', code, { message: 'This entry expired.' })]);
    expect(p.get(code.id)).toMatchObject({ action: 'review', rule: 4, reason: 'stale (expired): This entry expired; a 7-line code is not deleted automatically' });
  });
});

describe('rule 6: a note that an issue is open, once closed', () => {
  const CLAUDE = [
    '# Project',
    '',
    '## Known Issues',
    '',
    '- The `pnpm dev` watcher leaks memory after ~8 hours; restart it (tracked in #2790, still open).',
    '- Always close the pool in `finally` blocks (tracked in #2791, still open).',
    '',
  ].join('\n');
  const PATTERN_TOPIC = '---\nname: leak\ndescription: watcher leak\ntype: pattern\n---\n\nThe dev watcher leaks memory; restart it (tracked in #2792, still open).\n';

  test('is archived when only the section heading made it a "pattern"; kept with reusable wording or an authored pattern type', async () => {
    const { result } = await auditFiles({
      'CLAUDE.md': CLAUDE,
      '.claude/memory/MEMORY.md': '# Memory Index\n\n- [Leak](leak.md) — watcher leak\n',
      '.claude/memory/leak.md': PATTERN_TOPIC,
    });
    const leak = entry(result, 'watcher leaks memory after');
    const always = entry(result, 'Always close the pool');
    const authored = result.entries.find((e) => e.file === '.claude/memory/leak.md')!;
    expect([leak.type, leak.typeSource, leak.meta.typeRule]).toEqual(['pattern', 'heuristic', 'heading:patterns']);
    expect([authored.type, authored.typeSource]).toEqual(['pattern', 'frontmatter']);
    const closed = (n: number) => ({ number: n, repo: 'o/r', kind: 'issue' as const, state: 'closed' as const });
    const github = { checked: true, repo: 'o/r', issues: new Map([2790, 2791, 2792].map((n) => [`o/r#${n}`, closed(n)])) };
    const ctx = { files: result.files, entries: result.entries, evidence: { ...result.evidence, github }, config: result.config };
    const drift = (e: typeof leak, n: number) => finding('status-drift', e, { ref: `#${n}`, message: `Issue o/r#${n} is described as open but was closed on 2026-03-01; remove the entry or record the outcome.` });
    const p = new Map(decide(ctx, [drift(leak, 2790), drift(always, 2791), drift(authored, 2792)]).map((x) => [x.entryId, x]));
    expect(p.get(leak.id)).toMatchObject({
      action: 'archive',
      rule: 6,
      reason: 'about finished work: Issue o/r#2790 is described as open but was closed on 2026-03-01; remove the entry or record the outcome',
    });
    expect(p.get(always.id)).toMatchObject({ action: 'keep', rule: 6 });
    expect(p.get(always.id)!.reason).toMatch(/but holds a reusable pattern$/);
    expect(p.get(authored.id)).toMatchObject({ action: 'keep', rule: 6 });
    expect(p.get(entry(result, '[Leak](leak.md)').id)).toMatchObject({ action: 'keep', rule: 6 });
  });
});
