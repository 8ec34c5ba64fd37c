// QA round 20: package swaps in commands and families, link texts naming their destination, and
// contradictions one side of which a staleness check proves wrong. Real git repositories in temp
// folders, audited and pruned end to end: exact findings, plan rows and file bytes, a second prune
// that changes nothing, restore giving the bytes back.
//
// - A program is replaced by its successor in a command only when nothing follows it there: the
//   old tool's subcommands and flags (`jest --runInBand`, `prisma migrate dev`) need not work with
//   the successor, so such a command goes to review (the successor is known).
// - A commit swapping a whole family (`prisma` + `@prisma/client` -> `drizzle-kit` + `drizzle-orm`)
//   leaves the family's bare name without a replacement where it is named (which member is meant
//   cannot be told); a member's own name (`@prisma/client`) is still corrected.
// - A link whose text is the base name or the last segments of its destination (Cursor's
//   `[file.ts](mdc:path/file.ts)`) has its text rewritten with the destination.
// - A contradiction one side of which is verified stale on the same subject (a version-drift) is
//   not reviewed: the stale side is corrected by rule 4, the other side is kept.
import { afterAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, pkg, planRows, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PKG = new Set(['package-missing', 'package-renamed']);
const isPkg = (f: { kind: string }) => PKG.has(f.kind);
const COMMIT = / in [0-9a-f]{7} \(/g;

afterAll(cleanupRepos);

const read = (r: Repo, file: string) => readFile(path.join(r.dir, file), 'utf8');

/** Prunes with `write`, checks a second prune changes nothing, restores every update; returns the first plan. */
async function pruneTwiceAndRestore(r: Repo, files: Record<string, string>, after: Record<string, string>) {
  const res = await runPrune({ root: r.dir, now: NOW, write: true });
  for (const [file, text] of Object.entries(after)) expect(await read(r, file)).toBe(text);
  expect((await runPrune({ root: r.dir, now: NOW, write: true })).changes).toEqual([]);
  for (const p of res.plan.filter((x) => x.action === 'update')) await runRestore({ root: r.dir, id: p.entryId });
  for (const [file, text] of Object.entries(files)) expect(await read(r, file)).toBe(text);
  return res;
}

describe('a program swapped for its successor inside a command (jest -> vitest, prisma -> drizzle-kit)', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '- Run one test file: `pnpm jest --runInBand --detectOpenHandles src/lib/date.test.ts`',
    '- Watch mode: `pnpm jest --watch`',
    '- Run the whole suite: `pnpm jest`',
    '- Before pushing: `pnpm jest && pnpm lint`',
    '- Create a migration: `pnpm prisma migrate dev --name add_column`',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);

  it('replaces the program only when nothing follows it; the rest goes to review', async () => {
    const r = await makeRepo();
    const manifest = (scripts: Record<string, string>, dev: Record<string, string>, deps: Record<string, string>) =>
      pkg({ name: 'web', private: true, scripts, devDependencies: dev, dependencies: deps });
    await r.write('package.json', manifest({ test: 'jest', lint: 'eslint .' }, { jest: '^29.7.0', eslint: '^9.0.0', prisma: '^6.0.0' }, { '@prisma/client': '^6.0.0' }));
    await r.write('src/lib/date.ts', 'export {};\n');
    await r.write('src/lib/date.test.ts', 'export {};\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-10-01');
    await r.write('package.json', manifest({ test: 'vitest run', lint: 'eslint .' }, { vitest: '^3.2.0', eslint: '^9.0.0', prisma: '^6.0.0' }, { '@prisma/client': '^6.0.0' }));
    await r.commit('Switch from jest to vitest', '2026-02-01');
    await r.write(
      'package.json',
      manifest({ test: 'vitest run', lint: 'eslint .', 'db:generate': 'drizzle-kit generate' }, { vitest: '^3.2.0', eslint: '^9.0.0', 'drizzle-kit': '^0.31.0' }, { 'drizzle-orm': '^0.44.0' }),
    );
    await r.commit('Switch from prisma to drizzle', '2026-03-01');

    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, isPkg)).toEqual([
      `package-renamed|${l('Run one test')}|jest|`,
      `package-renamed|${l('Watch mode')}|jest|`,
      `package-renamed|${l('whole suite')}|jest|vitest`,
      `package-renamed|${l('Before pushing')}|jest|vitest`,
      `package-renamed|${l('Create a migration')}|prisma|`,
    ]);
    expect(report.findings.find((f) => f.ref === 'prisma')!.message.replace(COMMIT, ' in SHA (')).toBe(
      '`prisma` was replaced by `drizzle-kit` in `package.json` in SHA (2026-03-01, "Switch from prisma to drizzle"); update the reference.',
    );

    const after = [
      '# CLAUDE.md',
      '',
      '- Run one test file: `pnpm jest --runInBand --detectOpenHandles src/lib/date.test.ts`',
      '- Watch mode: `pnpm jest --watch`',
      '- Run the whole suite: `pnpm vitest` [corrected 2026-06-01]',
      '- Before pushing: `pnpm vitest && pnpm lint` [corrected 2026-06-01]',
      '- Create a migration: `pnpm prisma migrate dev --name add_column`',
      '',
    ].join('\n');
    const res = await pruneTwiceAndRestore(r, { 'CLAUDE.md': memory }, { 'CLAUDE.md': after });
    expect(planRows(res.plan)).toEqual([
      `review|4|${l('Run one test')}`,
      `review|4|${l('Watch mode')}`,
      `update|4|${l('whole suite')}`,
      `update|4|${l('Before pushing')}`,
      `review|4|${l('Create a migration')}`,
    ]);
    expect(res.plan.find((p) => p.line === l('Watch mode'))!.reason.replace(COMMIT, ' in SHA (')).toBe(
      'stale (package-renamed): `jest` was replaced by `vitest` in `package.json` in SHA (2026-02-01, "Switch from jest to vitest"); update the reference; the successor is known but not written here automatically',
    );
  });
});

describe('a whole family swapped in one commit (prisma + @prisma/client -> drizzle-kit + drizzle-orm)', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '- Setup code for the prisma client is in `apps/webapp/app/db.server.ts`',
    '- Never instantiate a new prisma client in a request handler; import the singleton.',
    '- Use `prisma` for migrations: `pnpm --filter @trigger.dev/database exec prisma migrate dev`',
    '- Import the generated types from `@prisma/client`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);

  it('leaves the bare family name without a replacement; corrects the member named', async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'root', private: true, packageManager: 'pnpm@10.23.0' }));
    await r.write('pnpm-workspace.yaml', 'packages:\n  - "apps/*"\n  - "internal-packages/*"\n');
    const db = (scripts: Record<string, string>, deps: Record<string, string>, dev: Record<string, string>) =>
      pkg({ name: '@trigger.dev/database', scripts, dependencies: deps, devDependencies: dev });
    await r.write('internal-packages/database/package.json', db({ generate: 'prisma generate' }, { '@prisma/client': '6.14.0' }, { prisma: '6.14.0' }));
    await r.write('internal-packages/database/src/index.ts', 'export {};\n');
    await r.write('apps/webapp/app/db.server.ts', 'export {};\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-10-01');
    await r.write('internal-packages/database/package.json', db({ generate: 'drizzle-kit generate' }, { 'drizzle-orm': '^0.44.0' }, { 'drizzle-kit': '^0.31.0' }));
    await r.commit('Switch the database package from Prisma to Drizzle', '2026-04-20');

    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, isPkg)).toEqual([
      `package-renamed|${l('Setup code')}|prisma|`,
      `package-renamed|${l('Never instantiate')}|prisma|`,
      `package-renamed|${l('Use `prisma`')}|prisma|`,
      `package-renamed|${l('generated types')}|@prisma/client|drizzle-orm`,
    ]);

    const after = memory.replace('`@prisma/client`.', '`drizzle-orm`. [corrected 2026-06-01]');
    const res = await pruneTwiceAndRestore(r, { 'CLAUDE.md': memory }, { 'CLAUDE.md': after });
    expect(planRows(res.plan)).toEqual([
      `review|4|${l('Setup code')}`,
      `review|4|${l('Never instantiate')}`,
      `review|4|${l('Use `prisma`')}`,
      `update|4|${l('generated types')}`,
    ]);
  });

  it('a family folded into one successor (moment + moment-timezone -> dayjs) is still corrected, whatever else the commit added', async () => {
    const text = ['# CLAUDE.md', '', '- Format dates with `moment`.', ''].join('\n');
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'app', dependencies: { moment: '^2.30.0', 'moment-timezone': '^0.5.45' }, devDependencies: { eslint: '^9.0.0' } }));
    await r.write('CLAUDE.md', text);
    await r.commit('init', '2025-10-01');
    await r.write('package.json', pkg({ name: 'app', dependencies: { dayjs: '^1.11.0' }, devDependencies: { eslint: '^9.0.0', vitest: '^3.2.0' } }));
    await r.commit('Replace moment with dayjs; add vitest', '2026-02-01');

    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, isPkg)).toEqual(['package-renamed|3|moment|dayjs']);
    const res = await pruneTwiceAndRestore(r, { 'CLAUDE.md': text }, { 'CLAUDE.md': ['# CLAUDE.md', '', '- Format dates with `dayjs`. [corrected 2026-06-01]', ''].join('\n') });
    expect(planRows(res.plan)).toEqual(['update|4|3']);
  });
});

describe('a link whose text is the base name or the last segments of its destination', () => {
  const rule = [
    '---',
    'description: Making updates to the main trigger.dev remix webapp',
    'globs: apps/webapp/**/*.tsx,apps/webapp/**/*.ts',
    'alwaysApply: false',
    '---',
    '',
    '## Where to look for code',
    '',
    '- The batch trigger API endpoint is [api.v1.tasks.batch.ts](mdc:apps/webapp/app/routes/api.v1.tasks.batch.ts)',
    '- Setup code for the prisma client is in [db.server.ts](mdc:apps/webapp/app/db.server.ts)',
    '- Markdown style: see [the batch route](apps/webapp/app/routes/api.v1.tasks.batch.ts) and [`routes/api.v1.tasks.batch.ts`](apps/webapp/app/routes/api.v1.tasks.batch.ts#L10)',
    '',
  ].join('\n');
  const FILE = '.cursor/rules/webapp.mdc';
  const l = (s: string) => lineOfText(rule, s);

  it('rewrites the text with the destination (mdc: and plain links, backticks, an #anchor); other texts stay', async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'root', private: true }));
    await r.write('apps/webapp/app/routes/api.v1.tasks.batch.ts', 'export const batch = 1;\n');
    await r.write('apps/webapp/app/db.server.ts', 'export {};\n');
    await r.write(FILE, rule);
    await r.commit('init', '2025-10-01');
    await r.move('apps/webapp/app/routes/api.v1.tasks.batch.ts', 'apps/webapp/app/routes/api.v2.tasks.batch.ts');
    await r.commit('Move batch trigger to v2 route', '2026-03-01');

    const after = rule
      .replace(
        '[api.v1.tasks.batch.ts](mdc:apps/webapp/app/routes/api.v1.tasks.batch.ts)',
        '[api.v2.tasks.batch.ts](mdc:apps/webapp/app/routes/api.v2.tasks.batch.ts) [corrected 2026-06-01]',
      )
      .replace(
        '[the batch route](apps/webapp/app/routes/api.v1.tasks.batch.ts) and [`routes/api.v1.tasks.batch.ts`](apps/webapp/app/routes/api.v1.tasks.batch.ts#L10)',
        '[the batch route](apps/webapp/app/routes/api.v2.tasks.batch.ts) and [`routes/api.v2.tasks.batch.ts`](apps/webapp/app/routes/api.v2.tasks.batch.ts#L10) [corrected 2026-06-01]',
      );
    const res = await pruneTwiceAndRestore(r, { [FILE]: rule }, { [FILE]: after });
    expect(planRows(res.plan)).toEqual([`update|4|${l('batch trigger API')}`, `update|4|${l('Markdown style')}`]);
  });
});

describe('a link whose text is the folder its entry file stands for (QA round 24, vllm)', () => {
  it('rewrites the text with the new folder name when only the folder was renamed', async () => {
    const memory = [
      '# AGENTS.md',
      '',
      '- Before opening a PR, run the [`pr-checklist`](.agents/skills/pr-checklist/SKILL.md) skill.',
      '- For Playwright work use the [write-e2e-tests](.claude/skills/write-e2e-tests/SKILL.md) skill.',
      '- Read [the checklist](.agents/skills/pr-checklist/SKILL.md) first.',
      '',
    ].join('\n');
    const r = await makeRepo();
    await r.write('.agents/skills/pr-checklist/SKILL.md', '# PR checklist\n');
    await r.write('.claude/skills/write-e2e-tests/SKILL.md', '# e2e\n');
    await r.write('AGENTS.md', memory);
    await r.commit('init', '2025-10-01');
    await r.move('.agents/skills/pr-checklist', '.agents/skills/pr-review');
    await r.move('.claude/skills/write-e2e-tests', '.claude/skills/e2e-tests');
    await r.commit('Rename skills', '2026-03-01');
    const after = memory
      .replace('[`pr-checklist`](.agents/skills/pr-checklist/SKILL.md) skill.', '[`pr-review`](.agents/skills/pr-review/SKILL.md) skill. [corrected 2026-06-01]')
      .replace('[write-e2e-tests](.claude/skills/write-e2e-tests/SKILL.md) skill.', '[e2e-tests](.claude/skills/e2e-tests/SKILL.md) skill. [corrected 2026-06-01]')
      .replace('[the checklist](.agents/skills/pr-checklist/SKILL.md) first.', '[the checklist](.agents/skills/pr-review/SKILL.md) first. [corrected 2026-06-01]');
    await pruneTwiceAndRestore(r, { 'AGENTS.md': memory }, { 'AGENTS.md': after });
  });
});

describe('a contradiction whose one side is verified stale on the same subject', () => {
  const claude = (v: string) => ['# CLAUDE.md', '', '### Internal Packages', '', `- **internal-packages/database** (\`@trigger.dev/database\`): Prisma ${v} client and schema`, ''].join('\n');
  const mdc = (v: string) =>
    [
      '---',
      'description: Making updates to the main trigger.dev remix webapp',
      'globs: apps/webapp/**/*.tsx,apps/webapp/**/*.ts',
      'alwaysApply: false',
      '---',
      '',
      `- \`@trigger.dev/database\` exports a Prisma ${v} client that is used extensively in the webapp to access a PostgreSQL instance.`,
      '',
    ].join('\n');
  const MDC = '.cursor/rules/webapp.mdc';

  async function repo(claudeVersion: string, mdcVersion: string): Promise<Repo> {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'triggerdotdev', private: true, packageManager: 'pnpm@10.23.0' }));
    await r.write('pnpm-workspace.yaml', 'packages:\n  - "apps/*"\n  - "internal-packages/*"\n');
    await r.write('internal-packages/database/package.json', pkg({ name: '@trigger.dev/database', dependencies: { '@prisma/client': '6.14.0' }, devDependencies: { prisma: '6.14.0' } }));
    await r.write('apps/webapp/package.json', pkg({ name: 'webapp', dependencies: { '@trigger.dev/database': 'workspace:*' } }));
    await r.write('CLAUDE.md', claude(claudeVersion));
    await r.write(MDC, mdc(mdcVersion));
    await r.commit('init', '2025-10-01');
    return r;
  }
  const rows = (report: Report) =>
    [...report.findings]
      .filter((f) => f.kind === 'contradiction' || f.kind === 'version-drift')
      .sort((a, b) => a.file.localeCompare(b.file) || a.kind.localeCompare(b.kind))
      .map((f) => `${f.file}:${f.line}|${f.kind}|${f.ref}|${f.suggestion?.replace ?? ''}`);
  const planOf = (plan: Array<{ file?: string; action: string; rule: number; line?: number }>) =>
    plan.filter((p) => p.action !== 'keep').map((p) => `${p.file}:${p.line}|${p.action}|${p.rule}`).sort();

  it('keeps the verified side, corrects the stale one; the drift message names the version written', async () => {
    const r = await repo('6.14.0', '5.4.1');
    const { report } = await audit({ root: r.dir, now: NOW });
    expect(rows(report)).toEqual([
      `${MDC}:7|contradiction|Prisma 5.4.1|`,
      `${MDC}:7|version-drift|Prisma 5.4.1|Prisma 6.14.0`,
      'CLAUDE.md:5|contradiction|Prisma 6.14.0|',
    ]);
    expect(report.findings.find((f) => f.kind === 'version-drift')!.message).toBe(
      '`Prisma 5.4.1` is out of date: `internal-packages/database/package.json` uses prisma 6.14.0; update the version to 6.14.0.',
    );
    const res = await pruneTwiceAndRestore(
      r,
      { 'CLAUDE.md': claude('6.14.0'), [MDC]: mdc('5.4.1') },
      { 'CLAUDE.md': claude('6.14.0'), [MDC]: mdc('6.14.0').replace('instance.\n', 'instance. [corrected 2026-06-01]\n') },
    );
    expect(planOf(res.plan)).toEqual([`${MDC}:7|update|4`]);
    expect(res.plan.find((p) => p.file === 'CLAUDE.md')).toMatchObject({ action: 'keep', rule: 7 });
  });

  it('both sides stale: each is corrected to what the manifest says', async () => {
    const r = await repo('4.2.0', '5.4.1');
    const res = await pruneTwiceAndRestore(
      r,
      { 'CLAUDE.md': claude('4.2.0'), [MDC]: mdc('5.4.1') },
      {
        'CLAUDE.md': claude('6.14.0').replace('schema\n', 'schema [corrected 2026-06-01]\n'),
        [MDC]: mdc('6.14.0').replace('instance.\n', 'instance. [corrected 2026-06-01]\n'),
      },
    );
    expect(planOf(res.plan)).toEqual([`${MDC}:7|update|4`, 'CLAUDE.md:5|update|4']);
  });

  it('neither side verified (no manifest declares the subject): both still go to review', async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'app', private: true }));
    await r.write('CLAUDE.md', claude('6.14.0'));
    await r.write(MDC, mdc('5.4.1'));
    await r.commit('init', '2025-10-01');
    const res = await runPrune({ root: r.dir, now: NOW, write: false });
    expect(planOf(res.plan)).toEqual([`${MDC}:7|review|2`, 'CLAUDE.md:5|review|2']);
  });
});
