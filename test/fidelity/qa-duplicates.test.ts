// QA regressions for `duplicate`: a second prune must not merge what the first one corrected.
// Root cause: the `[corrected YYYY-MM-DD]` marker added four content words ("corrected" and the
// date's three numbers) to both corrected lines, lifting a table row and a numbered step that
// share one command over the reworded-copy bar (six shared content words).
import { afterAll, describe, expect, it, test } from 'vitest';
import { findDuplicates } from '../../src/checks/duplicate.js';
import { normalise } from '../../src/checks/fidelity/text.js';
import { runPrune } from '../../src/commands/prune.js';
import { cleanup, makeRepo, NOW } from '../prune/helpers.js';
import { context, parseFiles } from './helpers.js';

afterAll(cleanup);

const dups = (input: Record<string, string>) => {
  const { files, entries } = parseFiles(input);
  return findDuplicates(context(files, entries)).map((f) => [f.file, f.line, f.evidence?.file, f.evidence?.line, f.evidence?.exact]);
};

describe('the [corrected YYYY-MM-DD] marker is not content', () => {
  it('is normalised away', () => {
    expect(normalise('| migrate | `npm run migrate` [corrected 2026-06-01] |')).toBe('migrate npm run migrate');
    expect(normalise('2. Migrate with `npm run migrate`. [corrected 2026-06-01]')).toBe('migrate with npm run migrate');
    // other bracketed dates are content
    expect(normalise('- Shipped [2026-06-01] to prod')).toBe('shipped 2026-06-01 to prod');
  });

  it('two short lines corrected the same day are not a reworded copy of each other', () => {
    expect(
      dups({
        'CLAUDE.md': '# Commands\n\n- Migrate: `npm run migrate` [corrected 2026-06-01]\n',
        'AGENTS.md': '# Steps\n\n2. Migrate with `npm run migrate`. [corrected 2026-06-01]\n',
      }),
    ).toEqual([]);
  });

  it('a corrected line still repeats its uncorrected copy exactly', () => {
    expect(
      dups({
        'CLAUDE.md': '# Setup\n\n- Run the migrations with `npm run migrate` before starting the server. [corrected 2026-06-01]\n',
        'AGENTS.md': '# Setup\n\n- Run the migrations with `npm run migrate` before starting the server.\n',
      }),
    ).toEqual([['AGENTS.md', 3, 'CLAUDE.md', 3, true]]);
  });
});

describe('a table row and a prose line of the same file are different forms', () => {
  const row = '| migrate | `npm run db:migrate -- --schema prisma/schema.prisma` |';
  const step = '2. Migrate with `npm run db:migrate -- --schema prisma/schema.prisma`.';

  it('are not merged in one file (a command table and a procedure)', () => {
    expect(dups({ 'CLAUDE.md': `# Commands\n\n| task | command |\n| --- | --- |\n${row}\n\n1. Build.\n${step}\n` })).toEqual([]);
  });

  it('are still a copy across files', () => {
    expect(
      dups({ 'CLAUDE.md': `# Commands\n\n| task | command |\n| --- | --- |\n${row}\n`, 'AGENTS.md': `# Steps\n\n1. Build.\n${step}\n` }),
    ).toEqual([['CLAUDE.md', 5, 'AGENTS.md', 4, false]]);
  });

  it('two rows of two tables repeating each other are still a copy', () => {
    expect(
      dups({
        'CLAUDE.md': `# Commands\n\n| task | command |\n| --- | --- |\n${row}\n\n## Again\n\n| task | command |\n| --- | --- |\n${row}\n`,
      }),
    ).toEqual([['CLAUDE.md', 11, 'CLAUDE.md', 5, true]]);
  });
});

test('a second prune changes nothing after correcting a table row and a numbered step (QA2 10)', async () => {
  const pkg = (name: string) => JSON.stringify({ name: 'x', scripts: { test: 'vitest', [name]: 'prisma migrate deploy' } }) + '\n';
  const claude =
    '# Project\n\n## Commands\n\n| task | command |\n| --- | --- |\n| test | `npm test` |\n| migrate | `npm run db:migrate` |\n\n' +
    '1. Test with `npm test`.\n2. Migrate with `npm run db:migrate`.\n';
  const repo = await makeRepo({ 'package.json': pkg('db:migrate'), 'CLAUDE.md': claude }, '2026-01-05');
  await repo.write('package.json', pkg('migrate'));
  await repo.commit('rename migrate script', '2026-02-02');

  const first = await runPrune({ root: repo.dir, now: NOW, write: true });
  expect(first.plan.filter((p) => p.action !== 'keep').map((p) => [p.action, p.rule, p.line])).toEqual([
    ['update', 4, 8],
    ['update', 4, 11],
  ]);
  const after =
    '# Project\n\n## Commands\n\n| task | command |\n| --- | --- |\n| test | `npm test` |\n| migrate | `npm run migrate` [corrected 2026-03-10] |\n\n' +
    '1. Test with `npm test`.\n2. Migrate with `npm run migrate`. [corrected 2026-03-10]\n';
  expect(await repo.read('CLAUDE.md')).toBe(after);

  const second = await runPrune({ root: repo.dir, now: NOW, write: true });
  expect(second.audit.findings.filter((f) => f.kind === 'duplicate')).toEqual([]);
  expect(second.changes).toEqual([]);
  expect(await repo.read('CLAUDE.md')).toBe(after);
});

describe('numbered procedures', () => {
  test('two procedures of one file that share steps keep them; the same step in another file is still a copy', async () => {
    const { makeRepo, cleanup, NOW, config } = await import('../prune/helpers.js');
    const { audit } = await import('../../src/audit.js');
    const procedure = (title: string) =>
      `## ${title}\n\n1. Add the new year's tax curve to \`data/tax_curves/\`.\n2. Update \`config.py\` validation to support new years.\n3. Add tests for the new year.\n4. Verify calculations against the official BMF calculators.\n`;
    const repo = await makeRepo({
      'config.py': 'x = 1\n',
      'data/tax_curves/2025.json': '{}\n',
      'CLAUDE.md': `# Netto\n\n${procedure('Tasks')}\n${procedure('Updating tax data')}`,
      'AGENTS.md': '# Agents\n\n- Verify calculations against the official BMF calculators.\n',
    });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['duplicate'] });
    expect(r.findings.filter((f) => f.file === 'CLAUDE.md').map((f) => [f.line, f.message, r.entries.find((e) => e.id === f.entryId)?.text])).toEqual([]);
    expect(r.plan.filter((p) => p.file === 'CLAUDE.md' && p.action !== 'keep')).toEqual([]);
    await cleanup();
  });
});

describe('folders under different parents', () => {
  test('the same description of same-named folders under different headings is not a duplicate; under one heading it is', async () => {
    const { makeRepo, cleanup, NOW, config } = await import('../prune/helpers.js');
    const { audit } = await import('../../src/audit.js');
    const repo = await makeRepo({
      'src/bun.js/node/x.ts': '1\n',
      'src/js/node/x.ts': '1\n',
      'CLAUDE.md': [
        '# Bun',
        '',
        '## Runtime (`src/bun.js/`)',
        '',
        '- `node/` - Node.js compatibility layer for the runtime modules',
        '',
        '## Modules (`src/js/`)',
        '',
        '- `node/` - Node.js compatibility layer for the runtime modules (`node:fs`)',
        '',
        '## Again (`src/js/`)',
        '',
        '- `node/` - Node.js compatibility layer for the runtime modules (`node:fs`).',
        '',
      ].join('\n'),
    });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['duplicate'] });
    expect(r.findings.map((f) => [f.kind, f.line, f.evidence?.line])).toEqual([['duplicate', 13, 9]]);
    await cleanup();
  });
});

describe('a shared command', () => {
  test('a rule, a checklist step and an error fix that run the same script are not duplicates; a reworded copy still is', async () => {
    const { makeRepo, cleanup, NOW, config } = await import('../prune/helpers.js');
    const { audit } = await import('../../src/audit.js');
    const repo = await makeRepo({
      'utils/modular_model_converter.py': 'x = 1\n',
      'AGENTS.md': [
        '# Models',
        '',
        'If a model has `modular_<name>.py`, do not edit generated `modeling_*.py` files directly. Edit modular and run `make fix-repo` (or `python utils/modular_model_converter.py <name>`).',
        '',
        '## Adding models',
        '',
        '- Run `python utils/modular_model_converter.py <name>` to generate standard files',
        '',
        '## Common errors',
        '',
        '- "modular conversion failed": modular file has syntax errors. Run `python utils/modular_model_converter.py <name>` to debug.',
        '',
        '## Again',
        '',
        '- Run `python utils/modular_model_converter.py <name>` to generate the standard files.',
        '',
      ].join('\n'),
    });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: ['duplicate'] });
    expect(r.findings.map((f) => [f.kind, f.line, f.evidence?.line])).toEqual([['duplicate', 7, 15]]);
    await cleanup();
  });
});
