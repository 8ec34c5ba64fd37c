// Decisions a user reviewing the prune pull request would reject, each on a real repository with
// history: deleting what history cannot prove gone, deleting a fact whose fix is known, deleting
// an entry that is mostly about things that still exist, flagging paths meant to be created.
import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { audit } from '../../src/audit.js';
import { applyAudit } from '../../src/commands/prune.js';
import { NOW, cleanup, config, makeRepo } from './helpers.js';

afterAll(cleanup);

const topic = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`;

function planOf(r: Awaited<ReturnType<typeof audit>>, needle: string) {
  const e = r.entries.find((x) => x.text.includes(needle) && x.kind !== 'index-line');
  if (!e) throw new Error(`no entry holds ${needle}`);
  return r.plan.find((p) => p.entryId === e.id)!;
}

describe('decisions on real history', () => {
  test('in a shallow clone a path or script that cannot be traced goes to review, not delete; with full history it is deleted or corrected', async () => {
    const claude = '# P\n\n- Helpers in `src/util.ts`.\n- Fix lint with `npm run lint:fix`.\n- Entry point: `src/server/index.ts`.\n';
    const repo = await makeRepo({
      'package.json': '{"name":"p","scripts":{"lint:fix":"eslint --fix ."}}\n',
      'src/util.ts': 'export {}\n',
      'src/server/index.ts': 'export {}\n',
      'CLAUDE.md': claude,
    });
    await repo.remove('src/util.ts');
    await repo.write('package.json', '{"name":"p","scripts":{"fix":"eslint --fix ."}}\n');
    execFileSync('git', ['mv', 'src/server', 'src/http'], { cwd: repo.dir });
    await repo.commit('churn', '2026-02-01');

    const full = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['path', 'script'] });
    expect(planOf(full, 'src/util.ts')).toMatchObject({ action: 'delete', rule: 4 });
    expect(planOf(full, 'lint:fix')).toMatchObject({ action: 'update', rule: 4 });
    expect(planOf(full, 'src/server/index.ts')).toMatchObject({ action: 'update', rule: 4 });

    const shallow = path.join(await mkdtemp(path.join(tmpdir(), 'ma-shallow-')), 'clone');
    execFileSync('git', ['clone', '-q', '--depth=1', `file://${repo.dir}`, shallow]);
    const r = await audit({ root: shallow, now: NOW, config: config(), checks: ['path', 'script'] });
    for (const needle of ['src/util.ts', 'lint:fix', 'src/server/index.ts']) {
      const p = planOf(r, needle);
      expect(p).toMatchObject({ action: 'review', rule: 4 });
      expect(p.reason).toMatch(/; the clone is shallow, so a rename cannot be ruled out$/);
    }
    expect((await applyAudit(r, { root: shallow, now: NOW, write: false })).changes).toEqual([]);
  });

  test("a topic whose description names the renamed path is corrected in its description and body, not deleted", async () => {
    const before = topic('billing', 'Stripe webhooks are handled in src/routes/billing.ts', 'Stripe webhooks are handled in `src/routes/billing.ts`; verify signatures before parsing.');
    const repo = await makeRepo({
      'src/routes/billing.ts': 'export {}\n',
      '.claude/memory/MEMORY.md': '# Memory\n\n- [Billing](project_billing.md) — webhooks\n',
      '.claude/memory/project_billing.md': before,
    });
    execFileSync('git', ['mv', 'src/routes', 'src/handlers'], { cwd: repo.dir });
    await repo.commit('routes -> handlers', '2026-02-10');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['path'] });
    expect(planOf(r, 'verify signatures')).toMatchObject({ action: 'update', rule: 4 });
    await applyAudit(r, { root: repo.dir, now: NOW, write: true });
    expect(await repo.read('.claude/memory/project_billing.md')).toBe(
      topic(
        'billing',
        'Stripe webhooks are handled in src/handlers/billing.ts',
        'Stripe webhooks are handled in `src/handlers/billing.ts`; verify signatures before parsing. [corrected 2026-03-10]',
      ),
    );
  });

  test('an entry about a file that still exists is reviewed, not deleted, when a dependency it mentions is gone; all gone is deleted', async () => {
    const repo = await makeRepo({
      'pyproject.toml': '[project]\nname = "ingest"\ndependencies = ["requests>=2", "pyyaml>=6"]\n',
      'src/ingest/client.py': 'x = 1\n',
      'scripts/gen.py': 'x = 1\n',
      'CLAUDE.md': '# Map\n\n- `src/ingest/client.py` is the HTTP client (uses `requests`).\n- `scripts/gen.py` regenerates fixtures with `requests`.\n',
    });
    await repo.write('pyproject.toml', '[project]\nname = "ingest"\ndependencies = ["pyyaml>=6"]\n');
    await repo.remove('scripts/gen.py');
    await repo.commit('drop requests and the generator', '2026-02-01');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['path', 'package'] });
    const client = planOf(r, 'HTTP client');
    expect(client).toMatchObject({ action: 'review', rule: 4 });
    expect(client.reason).toMatch(/^stale \(package-missing\): .*; the rest of the entry may still be useful$/);
    expect(planOf(r, 'regenerates fixtures')).toMatchObject({ action: 'delete', rule: 4 });
  });

  test('the runner in the same command as a deleted file does not keep the entry alive', async () => {
    const repo = await makeRepo({
      'package.json': '{"name":"p","devDependencies":{"tsx":"^4.0.0"}}\n',
      'legacy/import.ts': 'export {}\n',
      'CLAUDE.md': '# Layout\n\n- The legacy importer is `legacy/import.ts`; run it with `npx tsx legacy/import.ts`.\n',
    });
    await repo.remove('legacy/import.ts');
    await repo.commit('remove the importer', '2026-02-01');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['path', 'package'] });
    expect(planOf(r, 'legacy importer')).toMatchObject({ action: 'delete', rule: 4 });
  });

  test('paths the line says to create, or gives as an example, are not reported as unverified', async () => {
    const repo = await makeRepo({
      'src/features/billing/index.ts': 'export {}\n',
      'CLAUDE.md': [
        '# Features',
        '',
        '- New feature: create `src/features/my-feature/index.ts` (example).',
        '- Fixtures belong in `e2e/fixtures/` (create the folder when you first need one).',
        '- Migrations go in `prisma/migrations/` (created by `prisma migrate dev`).',
        '- Billing lives in `src/features/billng/index.ts`.',
        '',
      ].join('\n'),
    });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['path'] });
    expect(r.findings.map((f) => [f.kind, f.line])).toEqual([['path-unverified', 6]]);
  });
});

describe('paths named by nested memory files', () => {
  test('a relative path in a nested file also names the file beside it (imports, package-local paths)', async () => {
    const { namedPaths } = await import('../../src/policy/score.js');
    const { coldKind } = await import('../../src/policy/health.js');
    const repo = await makeRepo({
      'CLAUDE.md': '# P\n\n@docs/agent/conventions.md\n',
      'docs/agent/conventions.md': '# Conventions\n\n@d2.md\n',
      'docs/agent/d2.md': '# More\n\n- Keep functions small.\n',
    });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const line = r.entries.find((e) => e.file === 'docs/agent/conventions.md' && e.text.includes('@d2.md'))!;
    expect(namedPaths(line)).toEqual(['d2.md', 'docs/agent/d2.md']);
    expect(coldKind(line, { files: r.files, entries: r.entries, evidence: r.evidence, config: r.config })).toBe('disuse');
  });
});

describe('cold entries naming bare file and folder names', () => {
  test('a bare name the project has somewhere (`tools.py`, `toolsets/`) makes a cold entry cold from disuse, not irrelevance', async () => {
    const { coldKind } = await import('../../src/policy/health.js');
    const repo = await makeRepo({
      'CLAUDE.md': '# P\n\n**Tool System (`tools.py`, `toolsets/`)**\n\n- Vendor-agnostic messages in `gone.py`.\n',
      'pkg/ai/tools.py': 'x = 1\n',
      'pkg/ai/toolsets/base.py': 'x = 1\n',
    });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const ctx = { files: r.files, entries: r.entries, evidence: r.evidence, config: r.config };
    const kinds = r.entries.filter((e) => e.file === 'CLAUDE.md' && e.kind !== 'section').map((e) => `${e.line}|${coldKind(e, ctx)}`);
    expect(kinds).toEqual(['3|disuse', '5|irrelevance']);
  });
});

describe('real-world memory texts', () => {
  test("a link to the project's own documentation site is not deleted as a freely available reference; a third-party one is", async () => {
    const repo = await makeRepo({
      'package.json': '{"name":"sentry"}\n',
      '.claude/memory/MEMORY.md': '# Memory\n\n- [Docs](reference_docs.md) — where the docs are\n- [MDN](reference_mdn.md) — fetch\n',
      '.claude/memory/reference_docs.md': '---\nname: docs\ndescription: where the docs are\ntype: reference\n---\n\nMain documentation: https://docs.sentry.io/\n',
      '.claude/memory/reference_mdn.md': '---\nname: mdn\ndescription: fetch\ntype: reference\n---\n\nFetch API: https://developer.mozilla.org/en-US/docs/Web/API/fetch\n',
    });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    expect(planOf(r, 'docs.sentry.io').action).toBe('keep');
    expect(planOf(r, 'developer.mozilla.org')).toMatchObject({ action: 'delete', rule: 7 });
  });

  test('a relative date inside a quoted question is not a dated statement', async () => {
    const repo = await makeRepo({
      'CLAUDE.md': '# Reviews\n\n- Ask: "Would this change break someone\'s code if they used it last week?"\n- The cache was cleared last week.\n',
    });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['ephemeral'] });
    expect(r.findings.map((f) => [f.kind, f.line])).toEqual([['ephemeral', 4]]);
  });
});
