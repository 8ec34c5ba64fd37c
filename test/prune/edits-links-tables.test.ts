// How prune edits memory files (src/apply/edits.ts), QA regressions: links to a deleted topic
// inside an entry that is itself updated in the same run are unlinked in the update's text; a
// table whose body rows all went loses its header and delimiter (and then its emptied section its
// heading), with an archive record restore puts back; a deleted topic file with a byte order mark
// comes back with it. Real git repositories, the real audit and decision tree.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive, type ArchiveRecord } from '../../src/apply/archive.js';
import { carryEdits } from '../../src/apply/edits.js';
import { NOW, cleanup, config, makeRepo, type Repo } from './helpers.js';

afterAll(cleanup);

async function archive(repo: Repo): Promise<ArchiveRecord[]> {
  return parseArchive(await repo.read('.memory-audit/archive.jsonl')).records;
}

const topic = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`;

describe('links to a deleted topic inside an updated entry', () => {
  const INDEX =
    '# Memory\n\n' +
    '- [WASM target](project_wasm.md) — the wasm crate\n' +
    '- [Parser notes](project_parser.md) — recursive descent\n';
  const WASM = topic('WASM target', 'the wasm crate', 'The browser build lives in `crates/wasm/src/lib.rs`.');
  const PARSER = topic(
    'Parser notes',
    'recursive descent',
    'The parser in `crates/core/src/parser.rs` recovers from errors at `;` tokens.\n' +
      'The wasm bindings ([[project_wasm]]) expose the same error type; see [WASM target](project_wasm.md).',
  );

  async function fixture(): Promise<Repo> {
    const repo = await makeRepo(
      {
        'crates/core/src/parser.rs': '// parser\n',
        'crates/wasm/src/lib.rs': '// wasm\n',
        '.claude/memory/MEMORY.md': INDEX,
        '.claude/memory/project_wasm.md': WASM,
        '.claude/memory/project_parser.md': PARSER,
      },
      '2026-01-05',
    );
    await repo.remove('crates/wasm');
    await repo.commit('Drop the wasm crate', '2026-02-01');
    // Same content: git sees a rename.
    await repo.write('crates/core/src/parser/mod.rs', '// parser\n');
    await repo.remove('crates/core/src/parser.rs');
    await repo.commit('Split the parser into a module', '2026-02-10');
    return repo;
  }

  test('the update is applied with the links unlinked; one record keeps the original; a second prune changes nothing; restore gives the bytes back', async () => {
    const repo = await fixture();
    const res = await runPrune({ root: repo.dir, now: NOW, write: true });
    const planOf = (file: string) => res.plan.find((p) => p.file === file && p.action !== 'keep');
    expect(planOf('.claude/memory/project_wasm.md')).toMatchObject({ action: 'delete', rule: 4 });
    expect(planOf('.claude/memory/project_parser.md')).toMatchObject({ action: 'update', rule: 4 });
    expect(res.warnings).toEqual([]);

    const after = topic(
      'Parser notes',
      'recursive descent',
      'The parser in `crates/core/src/parser/mod.rs` recovers from errors at `;` tokens. [corrected 2026-03-10]\n' +
        'The wasm bindings (project_wasm) expose the same error type; see WASM target.',
    );
    expect(await repo.read('.claude/memory/project_parser.md')).toBe(after);
    expect(await repo.exists('.claude/memory/project_wasm.md')).toBe(false);
    expect(await repo.read('.claude/memory/MEMORY.md')).toBe('# Memory\n\n- [Parser notes](project_parser.md) — recursive descent\n');

    const recs = await archive(repo);
    const upd = recs.filter((r) => r.file === '.claude/memory/project_parser.md');
    expect(upd).toHaveLength(1);
    expect(upd[0]).toMatchObject({ action: 'update', rule: 4, text: PARSER, replacement: after });
    expect(upd[0].reason).toMatch(/^stale, corrected: .*; links to removed memory unlinked or redirected$/);

    // No dangling link is left for the audit to report, and nothing is left to prune.
    const again = await audit({ root: repo.dir, now: NOW, config: config() });
    expect(again.findings.filter((f) => f.file === '.claude/memory/project_parser.md')).toEqual([]);
    const second = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);

    // Restoring the updated entry brings its original text back, links included.
    await runRestore({ root: repo.dir, id: upd[0].entryId, config: config() });
    expect(await repo.read('.claude/memory/project_parser.md')).toBe(PARSER);
    // Then the topic (with its index line): every memory file is back byte for byte.
    const wasm = recs.find((r) => r.file === '.claude/memory/project_wasm.md')!;
    await runRestore({ root: repo.dir, id: wasm.id, config: config() });
    expect(await repo.read('.claude/memory/project_wasm.md')).toBe(WASM);
    expect(await repo.read('.claude/memory/MEMORY.md')).toBe(INDEX);
  });

  test('links to a merged topic inside an updated entry are redirected to the kept topic', async () => {
    const M = '.claude/memory';
    const files = {
      [`${M}/MEMORY.md`]: '- [A](a.md) — tabs rule\n- [B](b.md) — tabs\n- [C](c.md) — lint\n',
      [`${M}/a.md`]: topic('a', 'tabs rule', 'Use tabs for indentation in all TypeScript files; the formatter is configured for it.'),
      [`${M}/b.md`]: topic('b', 'tabs', 'Use tabs for indentation in all TypeScript files.'),
      [`${M}/c.md`]: topic('c', 'lint', 'Lint config is `config/lint.json`; see [tabs](b.md) and [[b]].'),
      'config/lint.json': '{}\n',
    };
    const repo = await makeRepo(files);
    await repo.write('config/eslint.json', '{}\n');
    await repo.remove('config/lint.json');
    await repo.commit('Rename the lint config', '2026-02-01');
    const res = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(res.plan.find((p) => p.file === `${M}/b.md`)).toMatchObject({ action: 'merge' });
    expect(res.plan.find((p) => p.file === `${M}/c.md` && p.action !== 'keep')).toMatchObject({ action: 'update', rule: 4 });
    expect(res.warnings).toEqual([]);
    expect(await repo.read(`${M}/c.md`)).toBe(topic('c', 'lint', 'Lint config is `config/eslint.json`; see [tabs](a.md) and [[a]]. [corrected 2026-03-10]'));
    expect((await runPrune({ root: repo.dir, now: NOW, write: true })).changes).toEqual([]);
    const c = (await archive(repo)).find((r) => r.file === `${M}/c.md`)!;
    await runRestore({ root: repo.dir, id: c.entryId, config: config() });
    expect(await repo.read(`${M}/c.md`)).toBe(files[`${M}/c.md`]);
  });

  test('carryEdits moves an edit onto the rewritten text only where its text is unchanged', () => {
    const from = 'See [A](a.md) and `old/x.ts`; also [B](b.md).';
    const to = 'See [A](a.md) and `new/dir/x.ts`; also [B](b.md). [corrected 2026-03-10]';
    const edits = [
      { start: 4, end: 13, text: 'A', why: 'unlink a.md' },
      { start: 35, end: 44, text: 'B', why: 'unlink b.md' },
    ];
    expect(carryEdits(from, to, edits)).toEqual({
      edits: [
        { start: 4, end: 13, text: 'A', why: 'unlink a.md' },
        { start: 39, end: 48, text: 'B', why: 'unlink b.md' },
      ],
      missed: [],
    });
    // The rewrite changed the link itself: not carried, reported.
    expect(carryEdits('See [A](a.md).', 'See [A](c.md).', [{ start: 4, end: 13, text: 'A', why: 'unlink a.md' }])).toEqual({
      edits: [],
      missed: [{ start: 4, end: 13, text: 'A', why: 'unlink a.md' }],
    });
  });
});

describe('tables emptied by the prune', () => {
  const PKG = '{ "name": "app", "scripts": { "test": "vitest", "storybook": "storybook dev", "chromatic": "chromatic" } }\n';
  const PKG_AFTER = '{ "name": "app", "scripts": { "test": "vitest" } }\n';

  test('header and delimiter go with the last rows, then the emptied section heading; restore puts the table back', async () => {
    const C =
      '# app\n\n## Testing\n\n- `npm test` runs vitest.\n\n## Storybook\n\n' +
      '| Command | What |\n| --- | --- |\n| `npm run storybook` | dev server |\n| `npm run chromatic` | visual review |\n\n' +
      '## Deploy\n\n- Deploys go through the `deploy` GitHub workflow.\n';
    const repo = await makeRepo({ 'package.json': PKG, 'CLAUDE.md': C }, '2026-01-05');
    await repo.write('package.json', PKG_AFTER);
    await repo.commit('Remove storybook', '2026-02-01');

    const res = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(res.plan.filter((p) => p.action !== 'keep').map((p) => [p.line, p.action, p.rule])).toEqual([
      [11, 'delete', 4],
      [12, 'delete', 4],
    ]);
    expect(await repo.read('CLAUDE.md')).toBe(
      '# app\n\n## Testing\n\n- `npm test` runs vitest.\n\n## Deploy\n\n- Deploys go through the `deploy` GitHub workflow.\n',
    );
    const recs = await archive(repo);
    const table = recs.find((r) => r.kind === 'table-header')!;
    const rows = recs.filter((r) => r.kind === 'table-row').map((r) => r.entryId);
    expect(table).toMatchObject({
      entryId: expect.stringMatching(/^t_[0-9a-f]{8}$/),
      action: 'reintegrate',
      rule: 0,
      reason: 'table header left without rows',
      file: 'CLAUDE.md',
      line: 9,
      endLine: 10,
      text: '| Command | What |\n| --- | --- |',
      lines: '| Command | What |\n| --- | --- |\n',
      group: rows,
      prevLine: '## Storybook',
      keptBefore: '- `npm test` runs vitest.',
      blankBefore: true,
      blankAfter: false,
    });
    expect(recs.find((r) => r.kind === 'heading')).toMatchObject({ text: '## Storybook', line: 7, group: rows });

    const second = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);

    // Restoring one row brings its table (header included) and its section heading back.
    const r = await runRestore({ root: repo.dir, id: rows[0], config: config() });
    expect(r.skipped).toEqual([]);
    expect(await repo.read('CLAUDE.md')).toBe(C);
  });

  test('a table that keeps a row keeps its header; an emptied table under a kept paragraph leaves the heading; CRLF', async () => {
    const C = [
      '# app',
      '',
      '## Scripts',
      '',
      '| Command | What |',
      '|:--|--:|',
      '| `npm test` | unit tests |',
      '| `npm run storybook` | dev server |',
      '',
      '## Visual',
      '',
      'Visual review runs on every PR.',
      '',
      'Command | What',
      '--- | ---',
      '`npm run chromatic` | visual review',
      '',
    ].join('\r\n');
    const repo = await makeRepo({ 'package.json': PKG, 'CLAUDE.md': C }, '2026-01-05');
    await repo.write('package.json', PKG_AFTER);
    await repo.commit('Remove storybook', '2026-02-01');

    await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(await repo.read('CLAUDE.md')).toBe(
      ['# app', '', '## Scripts', '', '| Command | What |', '|:--|--:|', '| `npm test` | unit tests |', '', '## Visual', '', 'Visual review runs on every PR.', ''].join('\r\n'),
    );
    const recs = await archive(repo);
    expect(recs.filter((r) => r.kind === 'table-header').map((r) => [r.line, r.lines])).toEqual([[14, 'Command | What\r\n--- | ---\r\n']]);
    expect(recs.filter((r) => r.kind === 'heading')).toEqual([]);
    expect((await runPrune({ root: repo.dir, now: NOW, write: true })).changes).toEqual([]);
    for (const rec of recs) await runRestore({ root: repo.dir, id: rec.id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe(C);
  });
});

describe('a deleted topic file with a byte order mark', () => {
  test('its archive record notes the BOM and restore writes it back', async () => {
    const BOM = '\uFEFF';
    const INDEX = '# Memory\n\n- [Legacy](legacy.md) — the legacy sync tool\n- [Style](style.md) — code style\n';
    const LEGACY = `${BOM}---\nname: legacy\ndescription: the legacy sync tool\ntype: project\n---\n\nThe nightly sync is \`tools/legacy-sync.js\`.\n`;
    const STYLE = topic('style', 'code style', 'Two-space indentation everywhere.');
    const repo = await makeRepo(
      { 'tools/legacy-sync.js': 'x\n', '.claude/memory/MEMORY.md': INDEX, '.claude/memory/legacy.md': LEGACY, '.claude/memory/style.md': STYLE },
      '2026-01-05',
    );
    await repo.remove('tools');
    await repo.commit('Remove the legacy tools', '2026-02-01');

    const res = await runPrune({ root: repo.dir, now: NOW, write: true });
    expect(res.plan.find((p) => p.file === '.claude/memory/legacy.md' && p.action !== 'keep')).toMatchObject({ action: 'delete', rule: 4 });
    expect(await repo.exists('.claude/memory/legacy.md')).toBe(false);
    const rec = (await archive(repo)).find((r) => r.fileDeleted)!;
    expect(rec).toMatchObject({ file: '.claude/memory/legacy.md', bom: true, lines: LEGACY.slice(1) });
    // Files without a mark get no `bom` field.
    expect((await archive(repo)).filter((r) => r.bom !== undefined).map((r) => r.file)).toEqual(['.claude/memory/legacy.md']);

    await runRestore({ root: repo.dir, id: rec.id, config: config() });
    const bytes = await readFile(path.join(repo.dir, '.claude/memory/legacy.md'));
    expect(bytes.equals(Buffer.from(LEGACY, 'utf8'))).toBe(true);
    expect(await repo.read('.claude/memory/MEMORY.md')).toBe(INDEX);
  });
});
