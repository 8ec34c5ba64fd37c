// Real-world claim phrasings (QA 7): versions in feature statements are not the project's
// requirement; counts written folder-first; what a cold entry names that the project still has.
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { coldKind } from '../../src/policy/health.js';
import { isFeatureVersion, scanCountsIn, scanProse } from '../../src/memory/refs/prose.js';
import { cleanupRepos, makeRepo, pkg } from './helpers.js';

afterAll(cleanupRepos);

const NOW = new Date('2026-06-01T12:00:00Z');

const versions = (text: string) => scanProse(text).filter((h) => h.kind === 'version').map((h) => h.raw);

describe('versions in feature statements (home-assistant copilot instructions)', () => {
  it('reads a version that is the subject or object of a feature or history verb as no claim', () => {
    expect(versions('- Node 18 ships a global fetch; do not add node-fetch.')).toEqual([]);
    expect(versions('- Python 3.14 evaluates annotations lazily (PEP 649).')).toEqual([]);
    expect(versions('- Python 3.14 explicitly allows except without parentheses.')).toEqual([]);
    expect(versions('- React 18 batches state updates automatically.')).toEqual([]);
    expect(versions("- Node 18's fetch is global.")).toEqual([]);
    expect(versions('- Pattern matching arrived in Python 3.10; use it freely.')).toEqual([]);
    expect(versions('- `distutils` was removed in Python 3.12.')).toEqual([]);
    expect(versions('- The flag is deprecated in Node 22.')).toEqual([]);
    expect(versions('- Available since Go 1.21, as of TypeScript 5.0 and new in Python 3.12.')).toEqual([]);
  });

  it('keeps a version the sentence ties to the project', () => {
    expect(versions('- Home Assistant officially supports Python 3.14 as its minimum version.')).toEqual(['Python 3.14']);
    expect(versions('- Requires Node 18+.')).toEqual(['Node 18+']);
    expect(versions('- We require Node 18, which ships a global fetch.')).toEqual(['Node 18']);
    expect(versions('- Python 3.14 has been our minimum for a year.')).toEqual(['Python 3.14']);
    expect(versions('- Run tests against Python 3.9 in an isolated environment.')).toEqual(['Python 3.9']);
    expect(versions('- Tests run on vitest 1.x.')).toEqual(['vitest 1.x']);
    expect(versions('- Node 20 is required.')).toEqual(['Node 20']);
  });

  it('isFeatureVersion takes the span of a version with its subject', () => {
    const t = 'Node 18 ships a global fetch';
    expect(isFeatureVersion(t, 0, 7)).toBe(true);
    const u = 'We require Node 18 ships';
    expect(isFeatureVersion(u, 11, 18)).toBe(false);
  });

  it('reports drift only for the project claim, and prune rewrites only that line', async () => {
    const r = await makeRepo();
    await r.write('pyproject.toml', '[project]\nname = "homeassistant"\nversion = "2026.5.0"\nrequires-python = ">=3.15.0"\n');
    await r.write('package.json', pkg({ name: 'frontend', private: true, engines: { node: '>=22' }, dependencies: { react: '^19.1.0' } }));
    const memory = [
      '# Copilot instructions',
      '',
      '- Home Assistant officially supports Python 3.14 as its minimum version.',
      '- Python 3.14 evaluates annotations lazily (PEP 649). Forward references need no quotes.',
      '- Structural pattern matching (`match`) arrived in Python 3.10; use it freely.',
      '- Node 18 ships a global `fetch`; do not add `node-fetch`.',
      '- React 18 batches state updates automatically.',
      '',
    ].join('\n');
    await r.write('.github/copilot-instructions.md', memory);
    await r.commit('copilot instructions', '2026-03-01');
    const res = await audit({ root: r.dir, now: NOW, checks: ['version'] });
    expect(res.findings.map((f) => [f.kind, f.line, f.ref, f.message])).toEqual([
      [
        'version-drift',
        3,
        'Python 3.14',
        '`Python 3.14` no longer matches the project: `pyproject.toml` requires Python `>=3.15.0`; update the stated version to 3.15.',
      ],
    ]);
    await runPrune({ root: r.dir, now: NOW, write: true, checks: ['version'] });
    const after = memory.replace(
      '- Home Assistant officially supports Python 3.14 as its minimum version.',
      '- Home Assistant officially supports Python 3.15 as its minimum version. [corrected 2026-06-01]',
    );
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(`${r.dir}/.github/copilot-instructions.md`, 'utf8')).toBe(after);
    const second = await runPrune({ root: r.dir, now: NOW, write: true, checks: ['version'] });
    expect(second.changes).toEqual([]);
    expect(await readFile(`${r.dir}/.github/copilot-instructions.md`, 'utf8')).toBe(after);
  });
});

describe('counts written folder-first (PictoPy backend/AGENTS.md)', () => {
  const counts = (text: string) => scanCountsIn(text).map((h) => [h.raw, h.where ?? null]);

  it('maps "`dir/` has|contains|holds N nouns" and "`dir/` — it has N nouns" to the folder', () => {
    expect(counts('- `app/utils/` has 19 modules.')).toEqual([['19 modules', 'app/utils/']]);
    expect(counts('- `app/utils/` contains 19 modules.')).toEqual([['19 modules', 'app/utils/']]);
    expect(counts('- The `app/utils/` folder holds about 19 modules.')).toEqual([['19 modules', 'app/utils/']]);
    expect(counts('- Check `app/utils/` — it already has 19 modules covering metadata.')).toEqual([['19 modules', 'app/utils/']]);
    expect(counts('- There are 19 modules in `app/utils/`.')).toEqual([['19 modules', 'app/utils/']]);
  });

  it('needs a written path right before the verb, and a noun that counts files', () => {
    // a plain word is any subject
    expect(counts('- Each package has 3 modules.')).toEqual([['3 modules', null]]);
    // another clause between the folder and the count
    expect(counts('- `app/utils/` is the helpers folder; it has 19 modules.')).toEqual([['19 modules', null]]);
    expect(counts('- `app/utils/` is shared and the app has 19 modules.')).toEqual([['19 modules', null]]);
    // what files hold, not files
    expect(counts('- `tests/` has 310 tests.')).toEqual([['310 tests', null]]);
  });

  it('reports each phrasing against the folder, relative to the memory file', async () => {
    const r = await makeRepo();
    for (let i = 1; i <= 19; i++) await r.write(`backend/app/utils/util_${i}.py`, `# u${i}\n`);
    await r.write(
      'backend/AGENTS.md',
      [
        '# backend',
        '',
        '- Before writing a helper, check `app/utils/` — it already has 19 modules covering image metadata.',
        '- `app/utils/` has 19 modules.',
        '- `app/utils/` contains 19 modules.',
        '- There are 19 modules in `app/utils/`.',
        '- `app/utils/util_3.py` has 19 functions.',
        '',
      ].join('\n'),
    );
    await r.commit('rules', '2025-10-01');
    const valid = await audit({ root: r.dir, now: NOW, checks: ['count'] });
    expect(valid.findings).toEqual([]);
    await r.remove('backend/app/utils/util_1.py');
    await r.remove('backend/app/utils/util_2.py');
    await r.commit('Drop unused utils', '2025-11-10');
    const res = await audit({ root: r.dir, now: NOW, checks: ['count'] });
    const msg = '"19 modules" no longer matches the repository: there are 17 files in `backend/app/utils/`; update the count to 17.';
    expect(res.findings.map((f) => [f.kind, f.line, f.ref, f.message])).toEqual([3, 4, 5, 6].map((l) => ['count-drift', l, '19 modules', msg]));
  });
});

describe('cold entries that name what the project still has (polyglot workspaces, Cursor rules)', () => {
  it('counts workspace members, folders in commands, existing link targets, folder globs and declared runtimes as live', async () => {
    const r = await makeRepo();
    await r.write('Cargo.toml', '[workspace]\nmembers = ["crates/*"]\n');
    await r.write('crates/core/Cargo.toml', '[package]\nname = "acme-core"\nversion = "0.4.0"\nedition = "2021"\n');
    await r.write('crates/core/src/lib.rs', '// core\n');
    await r.write('go.work', 'go 1.22\n\nuse (\n\t./services/api\n)\n');
    await r.write('services/api/go.mod', 'module github.com/acme/platform/services/api\n\ngo 1.22\n');
    await r.write('services/api/main.go', 'package main\n');
    await r.write('pyproject.toml', '[project]\nname = "acme-platform"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n\n[tool.uv.workspace]\nmembers = ["python/*"]\n');
    await r.write('python/ingest/pyproject.toml', '[project]\nname = "acme-ingest"\nversion = "0.1.0"\n');
    await r.write('python/ingest/src/acme_ingest/__init__.py', '\n');
    await r.write('apps/web/env.ts', 'export {};\n');
    const lines = [
      '# Acme',
      '',
      '- Test one crate with `cargo test -p acme-core`.',
      '- Run `go test ./services/api/...` for the API.',
      '- Run ingest tests with `uv run --package acme-ingest pytest`.',
      '- `uv sync` installs every member of the uv workspace (`python/*`).',
      '- Go 1.22 is required.',
      '- Environment: [env](mdc:apps/web/env.ts).',
      '- Test the old crate with `cargo test -p acme-legacy` in `./crates/legacy/...`.',
      '- Talk to the design team first.',
      '',
    ];
    await r.write('CLAUDE.md', lines.join('\n'));
    await r.commit('platform', '2024-01-05');
    const res = await audit({ root: r.dir, now: NOW, checks: [] });
    const ctx = { files: res.files, entries: res.entries, evidence: res.evidence, config: res.config };
    const kinds = res.entries.filter((e) => e.line >= 3).map((e) => [e.line, coldKind(e, ctx)]);
    expect(kinds).toEqual([
      [3, 'disuse'],
      [4, 'disuse'],
      [5, 'disuse'],
      [6, 'disuse'],
      [7, 'disuse'],
      [8, 'disuse'],
      [9, 'irrelevance'],
      [10, 'irrelevance'],
    ]);
  });
});

describe('cold entries that run a task the project still defines (just, go-task, composer, deno)', () => {
  it('counts defined recipes and tasks as live, undefined ones not', async () => {
    const r = await makeRepo();
    await r.write('justfile', 'lint:\n\techo lint\n');
    await r.write('Taskfile.yml', "version: '3'\ntasks:\n  build:\n    cmds: [go build ./...]\n");
    await r.write('composer.json', '{ "scripts": { "test:unit": "phpunit" } }\n');
    await r.write('deno.json', '{ "tasks": { "dev": "deno run -A main.ts" } }\n');
    const lines = ['# Tasks', '', '- Lint with `just lint`.', '- Build with `task build`.', '- Unit tests: `composer test:unit`.', '- Serve with `deno task dev`.', '- Ship with `task deploy`.', ''];
    await r.write('CLAUDE.md', lines.join('\n'));
    await r.commit('tasks', '2024-01-05');
    const res = await audit({ root: r.dir, now: NOW, checks: [] });
    const ctx = { files: res.files, entries: res.entries, evidence: res.evidence, config: res.config };
    expect(res.entries.filter((e) => e.line >= 3).map((e) => [e.line, coldKind(e, ctx)])).toEqual([
      [3, 'disuse'],
      [4, 'disuse'],
      [5, 'disuse'],
      [6, 'disuse'],
      [7, 'irrelevance'],
    ]);
  });
});
