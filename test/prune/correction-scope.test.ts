// Rule 4 corrections replace text only where the flagged references are written: the same text
// elsewhere in the entry that still refers to something valid (the root's `npm run build` next to
// a sub-project's renamed one) stays; a link whose text is its own destination is rewritten with
// it. A second prune changes nothing, restore brings the bytes back, protected entries stay.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { audit, type AuditResult } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { NOW, cleanup, config, entry, finding, makeRepo, planWith, type Repo } from './helpers.js';

afterAll(cleanup);

const short = (r: AuditResult) => r.findings.filter((f) => f.severity !== 'info').map((f) => `${f.kind}|${f.file}:${f.line}|${f.ref}|${f.suggestion?.replace ?? ''}`);
const planOf = (r: AuditResult) =>
  r.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}|${p.file}:${p.line}|${p.reason.replace(/:.*/, '')}`);

/** prune --write, then a second prune (nothing to do), then every archive record restored: the original bytes. */
async function cycle(repo: Repo, file: string, original: string, expected: string): Promise<void> {
  await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
  expect(await repo.read(file)).toBe(expected);
  const again = await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
  expect(again.changes).toEqual([]);
  const recs = parseArchive(await readFile(path.join(repo.dir, '.memory-audit/archive.jsonl'), 'utf8')).records;
  for (const r of recs) await runRestore({ root: repo.dir, id: r.id, config: config() });
  expect(await repo.read(file)).toBe(original);
}

describe('a correction replaces only the flagged references', () => {
  const CLAUDE = [
    '# CLAUDE.md',
    '',
    '3. **Build assets** if you changed any CSS or JS files. Two builds are required:',
    '   ```bash',
    '   # Terminal 1: compile package dist output',
    '   npm run build',
    '',
    '   # Terminal 2: bundle the docs app',
    '   cd docs-assets/app && npm run build',
    '   ```',
    '',
    '- Root build: `npm run build`; docs app: `cd docs-assets/app && npm run build`.',
    '',
    '<!-- PROTECTED -->',
    '- Release: `npm run build` then `cd docs-assets/app && npm run build`.',
    '',
  ].join('\n');

  async function repoWithRenamedDocsScript(claude = CLAUDE): Promise<Repo> {
    const repo = await makeRepo({
      'package.json': '{ "private": true, "scripts": { "build": "node bin/build.js" } }\n',
      'docs-assets/app/package.json': '{ "private": true, "scripts": { "build": "vite build" } }\n',
      'bin/build.js': 'x\n',
      'CLAUDE.md': claude,
    });
    await repo.write('docs-assets/app/package.json', '{ "private": true, "scripts": { "build:assets": "vite build" } }\n');
    await repo.commit('Rename docs app build script', '2026-02-10');
    return repo;
  }

  test("the root's `npm run build` stays when only the docs app's is renamed (fence and inline, same line)", async () => {
    const repo = await repoWithRenamedDocsScript();
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['path', 'script'] });
    expect(short(r)).toEqual([
      'script-missing|CLAUDE.md:9|npm run build|npm run build:assets',
      'script-missing|CLAUDE.md:12|npm run build|npm run build:assets',
      'script-missing|CLAUDE.md:15|npm run build|npm run build:assets',
    ]);
    expect(planOf(r)).toEqual(['update|4|CLAUDE.md:3|stale, corrected', 'update|4|CLAUDE.md:12|stale, corrected']);
    const expected = CLAUDE.replace('Two builds are required:\n', 'Two builds are required: [corrected 2026-03-10]\n')
      .replace('   cd docs-assets/app && npm run build\n', '   cd docs-assets/app && npm run build:assets\n')
      .replace(
        '- Root build: `npm run build`; docs app: `cd docs-assets/app && npm run build`.\n',
        '- Root build: `npm run build`; docs app: `cd docs-assets/app && npm run build:assets`. [corrected 2026-03-10]\n',
      );
    expect(expected).toContain('<!-- PROTECTED -->\n- Release: `npm run build` then `cd docs-assets/app && npm run build`.\n');
    await cycle(repo, 'CLAUDE.md', CLAUDE, expected);
  });

  test('the old name also written where no edit reaches (inside a longer name) sends the entry to review', async () => {
    const repo = await makeRepo({ 'src/auth.ts': 'x\n', 'CLAUDE.md': '# P\n\n- Sessions live in `src/auth.ts` (generated from `src/auth.ts.tmpl`).\n' });
    execFileSync('git', ['mv', 'src/auth.ts', 'src/session.ts'], { cwd: repo.dir });
    await repo.commit('auth -> session', '2026-02-01');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['path'] });
    expect(short(r)).toEqual(['path-renamed|CLAUDE.md:3|src/auth.ts|src/session.ts']);
    expect(planOf(r)).toEqual(['review|4|CLAUDE.md:3|stale (path-renamed)']);
    expect(r.plan.find((p) => p.line === 3)!.reason).toMatch(/; the old name also appears where it is not corrected automatically$/);
  });

  test('a finding that cannot be pinned to one of several same-text references on its line goes to review', async () => {
    const repo = await repoWithRenamedDocsScript('# P\n\n- Build: `npm run build`, then `cd bin && npm run build`.\n');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const e = entry(r, 'Build:');
    // A finding no check would give on either reference: which one it means cannot be told.
    const p = planWith(r, [
      finding('script-missing', e, { ref: 'npm run build', line: 3, message: 'gone', suggestion: { replace: 'npm run make' } }),
    ]).get(e.id);
    expect(p).toMatchObject({ action: 'review', rule: 4, reason: 'stale (script-missing): gone; the old name also appears where it is not corrected automatically' });
  });

  test('the old name left in a longer token (an import path) still sends the entry to review', async () => {
    const repo = await makeRepo({ 'CLAUDE.md': '- Use moment for dates.\n  Import `moment/locale/fr` first.\n' });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const e = entry(r, 'moment/locale/fr');
    const p = planWith(r, [finding('package-renamed', e, { ref: 'moment', line: 1, message: 'moment was replaced by dayjs', suggestion: { replace: 'dayjs' } })]).get(e.id);
    expect(p).toMatchObject({ action: 'review', rule: 4, reason: 'stale (package-renamed): moment was replaced by dayjs; the old name also appears where it is not corrected automatically' });
  });
});

describe('a link whose text is its destination', () => {
  const AGENTS = [
    '# Agent Guide',
    '',
    '- **System tests**: see [tests/README.md](tests/README.md).',
    '- **Benchmarks**: see [jmh-benchmarks/README.md](jmh-benchmarks/README.md).',
    '- **Benchmarks (code)**: see [`jmh-benchmarks/README.md`](jmh-benchmarks/README.md).',
    '- **Benchmarks (titled)**: see [JMH benchmarks](jmh-benchmarks/README.md).',
    '- **Running**: see [jmh-benchmarks/README.md](jmh-benchmarks/README.md#running).',
    '- **Cursor**: see [jmh-benchmarks/README.md](mdc:jmh-benchmarks/README.md).',
    '',
    '| Topic | Location |',
    '|-------|----------|',
    '| JMH   | [jmh-benchmarks/README.md](jmh-benchmarks/README.md) |',
    '',
    '<!-- PROTECTED -->',
    '- Pinned: [jmh-benchmarks/README.md](jmh-benchmarks/README.md).',
    '',
  ].join('\n');

  test('has its text rewritten with the destination (plain, in backticks, with an #anchor, mdc:, in a table row): update, not review', async () => {
    const repo = await makeRepo({ 'jmh-benchmarks/README.md': 'x\n', 'tests/README.md': 'x\n', 'AGENTS.md': AGENTS });
    await repo.write('benchmarks/.keep', '');
    execFileSync('git', ['mv', 'jmh-benchmarks', 'benchmarks/jmh'], { cwd: repo.dir });
    await repo.commit('Move JMH benchmarks under benchmarks/', '2026-02-02');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['path'] });
    expect(planOf(r)).toEqual([
      'update|4|AGENTS.md:4|stale, corrected',
      'update|4|AGENTS.md:5|stale, corrected',
      'update|4|AGENTS.md:6|stale, corrected',
      'update|4|AGENTS.md:7|stale, corrected',
      'update|4|AGENTS.md:8|stale, corrected',
      'update|4|AGENTS.md:12|stale, corrected',
    ]);
    const expected = AGENTS.replace(
      '- **Benchmarks**: see [jmh-benchmarks/README.md](jmh-benchmarks/README.md).\n',
      '- **Benchmarks**: see [benchmarks/jmh/README.md](benchmarks/jmh/README.md). [corrected 2026-03-10]\n',
    )
      .replace(
        '- **Benchmarks (code)**: see [`jmh-benchmarks/README.md`](jmh-benchmarks/README.md).\n',
        '- **Benchmarks (code)**: see [`benchmarks/jmh/README.md`](benchmarks/jmh/README.md). [corrected 2026-03-10]\n',
      )
      .replace(
        '- **Benchmarks (titled)**: see [JMH benchmarks](jmh-benchmarks/README.md).\n',
        '- **Benchmarks (titled)**: see [JMH benchmarks](benchmarks/jmh/README.md). [corrected 2026-03-10]\n',
      )
      .replace(
        '- **Running**: see [jmh-benchmarks/README.md](jmh-benchmarks/README.md#running).\n',
        '- **Running**: see [benchmarks/jmh/README.md](benchmarks/jmh/README.md#running). [corrected 2026-03-10]\n',
      )
      .replace(
        '- **Cursor**: see [jmh-benchmarks/README.md](mdc:jmh-benchmarks/README.md).\n',
        '- **Cursor**: see [benchmarks/jmh/README.md](mdc:benchmarks/jmh/README.md). [corrected 2026-03-10]\n',
      )
      .replace(
        '| JMH   | [jmh-benchmarks/README.md](jmh-benchmarks/README.md) |\n',
        '| JMH   | [benchmarks/jmh/README.md](benchmarks/jmh/README.md) [corrected 2026-03-10] |\n',
      );
    expect(expected).toContain('<!-- PROTECTED -->\n- Pinned: [jmh-benchmarks/README.md](jmh-benchmarks/README.md).\n');
    await cycle(repo, 'AGENTS.md', AGENTS, expected);
  });
});
