// pytest node ids (`tests/test_x.py::TestX::test_y[param]`) are path references to their `.py`
// file: in inline code, in command arguments of fences (`pytest`, `python -m pytest`, `uv run
// pytest`, `poetry run pytest`, `tox -- …`, `hatch run test …`, after `cd tests` too) and in
// prose. The reference covers the file alone, so a correction rewrites the file and keeps the
// `::…` suffix as written. `::` after anything but `.py` (C++, Rust, Ruby scopes) is no path.
// Extraction checked exactly; real git histories audited and pruned end to end.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArchive } from '../../src/apply/archive.js';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { pytestNodePath, trimToken } from '../../src/memory/refs/paths.js';
import type { Reference, Report } from '../../src/types.js';
import { cleanupRepos, findingRows, makeRepo, type Repo } from './helpers.js';
import { refsOf } from './refs-helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

/** `line|raw|text at start..end|base|weak` of the path references. */
const paths = (text: string): string[] =>
  refsOf(text)
    .filter((r: Reference) => r.kind === 'path')
    .map((r) => `${r.line}|${r.raw}|${text.slice(r.start, r.end)}|${r.base ?? ''}|${r.weak ? 'weak' : ''}`);
const pathRows = (res: Report) => findingRows(res, (f) => f.kind.startsWith('path-'));
const read = (r: Repo, f: string) => readFile(path.join(r.dir, f), 'utf8');

describe('pytestNodePath', () => {
  it('keeps the `.py` file of a node id, with classes, nested classes and a parametrisation id', () => {
    expect(pytestNodePath('tests/test_loader.py::TestLoader::test_reads_csv')).toBe('tests/test_loader.py');
    expect(pytestNodePath('tests/unit/test_api.py::test_health')).toBe('tests/unit/test_api.py');
    expect(pytestNodePath('test_api.py::TestA::TestB::test_c[utf-8-True]')).toBe('test_api.py');
    expect(pytestNodePath('t/test_x.py::test_y[[1, 2]]')).toBe('t/test_x.py'); // (quoted, a command argument is one token)
    expect(pytestNodePath('t/test_x.py::test_y[[1,2]]')).toBe('t/test_x.py');
  });

  it('leaves anything else as it is', () => {
    for (const t of ['std::vector', 'crate::mod', 'Foo::Bar', 'a::b', 'src/x.rs::foo', 'lib/x.rb::Foo', 'tests/x.py', 'tests/x.py::', 'tests/x.py::1abc', 'tests/x.py:42', 'x.pyc::f', 'tests/x.py::a.b'])
      expect(pytestNodePath(t)).toBe(t);
  });

  it('trimToken drops the suffix after the surrounding punctuation, and still drops a `:42` line suffix', () => {
    expect(trimToken('(tests/test_x.py::TestX::test_y).')).toEqual([1, 'tests/test_x.py']);
    expect(trimToken('tests/test_x.py::test_y[p1],')).toEqual([0, 'tests/test_x.py']);
    expect(trimToken('src/a.py:42')).toEqual([0, 'src/a.py']);
    expect(trimToken('std::vector,')).toEqual([0, 'std::vector']);
  });
});

describe('extraction', () => {
  it('a node id in inline code, alone or among words, is a reference to its file only', () => {
    expect(
      paths(
        [
          '- One test: `tests/unit/test_api.py::test_health`',
          '- Parametrised: `tests/unit/test_api.py::TestApi::test_get[v1-json]`',
          '- Among words: `see tests/test_loader.py::TestLoader::test_reads_csv first`',
        ].join('\n'),
      ),
    ).toEqual([
      '1|tests/unit/test_api.py|tests/unit/test_api.py||',
      '2|tests/unit/test_api.py|tests/unit/test_api.py||',
      '3|tests/test_loader.py|tests/test_loader.py||',
    ]);
  });

  it('a node id argument of a pytest command, by any runner, in inline code and in a fence after `cd tests`', () => {
    expect(
      paths(
        [
          '- Run one: `uv run pytest tests/test_loader.py::TestLoader::test_reads_csv -x`',
          '',
          '```bash',
          'cd tests',
          'pytest unit/test_api.py::test_health -v',
          'python -m pytest unit/test_b.py::TestB::test_b',
          'poetry run pytest unit/test_c.py::test_c[param-1]',
          'tox -- unit/test_d.py::test_d',
          'hatch run test unit/test_e.py::test_e',
          'pytest "unit/test_f.py::test_f[a b]"',
          '```',
        ].join('\n'),
      ),
    ).toEqual([
      '1|tests/test_loader.py|tests/test_loader.py||',
      '4|tests|tests||weak',
      '5|unit/test_api.py|unit/test_api.py|tests/|',
      '6|unit/test_b.py|unit/test_b.py|tests/|',
      '7|unit/test_c.py|unit/test_c.py|tests/|',
      '8|unit/test_d.py|unit/test_d.py|tests/|',
      '9|unit/test_e.py|unit/test_e.py|tests/|',
      '10|unit/test_f.py|unit/test_f.py|tests/|',
    ]);
  });

  it('a node id in prose is a reference to its file only', () => {
    expect(paths('- The health check lives in tests/unit/test_api.py::test_health (and tests/test_x.py::TestX::test_y[p1]).')).toEqual([
      '1|tests/unit/test_api.py|tests/unit/test_api.py||',
      '1|tests/test_x.py|tests/test_x.py||',
    ]);
  });

  it('`::` in C++, Rust, Ruby and prose makes no path', () => {
    expect(
      paths(
        [
          '- Prefer `std::vector` to raw arrays; `std::unique_ptr<T>` for ownership.',
          '- Import with `crate::config::Settings` and `use super::mod_a;`.',
          '- `Foo::Bar` is the Ruby namespace; call `Acme::Client.new`.',
          '- In prose a::b and ns::name are scopes, not files.',
          '- `src/lib.rs::parse` and `lib/acme.rb::Foo` are not node ids.',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});

describe('end to end: renamed test files written as node ids (QA19 scenario 06)', () => {
  let r: Repo;
  const memory = [
    '# Acme',
    '- Run one test: `uv run pytest tests/test_loader.py::TestLoader::test_reads_csv -x`',
    '- Health check test: `tests/unit/test_api.py::test_health`',
    '- Plain file: `uv run pytest tests/test_loader.py -x`',
    '- The parser test is tests/test_parser.py::TestParser::test_empty[utf-8].',
    '',
    '```bash',
    'cd tests',
    'pytest unit/test_api.py::test_health -v',
    '```',
    '',
  ].join('\n');
  beforeAll(async () => {
    r = await makeRepo();
    await r.write('pyproject.toml', '[project]\nname = "acme"\nversion = "1"\n');
    await r.write('src/acme/__init__.py', '');
    await r.write('tests/test_loader.py', 'class TestLoader:\n    def test_reads_csv(self):\n        assert True\n');
    await r.write('tests/test_parser.py', 'class TestParser:\n    def test_empty(self):\n        assert True\n');
    await r.write('tests/unit/test_api.py', 'def test_health():\n    assert True\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2026-01-01');
    await r.move('tests/test_loader.py', 'tests/test_ingest_loader.py');
    await r.move('tests/test_parser.py', 'tests/test_text_parser.py');
    await r.move('tests/unit/test_api.py', 'tests/unit/test_http_api.py');
    await r.commit('Rename test modules', '2026-02-01');
  });

  it('reports every node id and plain path, corrects the file and keeps the `::` suffix; a second prune changes nothing; restore brings the bytes back', async () => {
    const res = await audit({ root: r.dir, now: NOW });
    expect(pathRows(res.report)).toEqual([
      'path-renamed|2|tests/test_loader.py|tests/test_ingest_loader.py',
      'path-renamed|3|tests/unit/test_api.py|tests/unit/test_http_api.py',
      'path-renamed|4|tests/test_loader.py|tests/test_ingest_loader.py',
      'path-renamed|5|tests/test_parser.py|tests/test_text_parser.py',
      'path-renamed|9|unit/test_api.py|unit/test_http_api.py',
    ]);
    const f = res.report.findings.find((x) => x.line === 9)!;
    expect(f.message).toMatch(
      /^`unit\/test_api\.py` \(tests\/unit\/test_api\.py\) was renamed to `tests\/unit\/test_http_api\.py` in [0-9a-f]{7} \(2026-02-01, "Rename test modules"\); update the reference\.$/,
    );
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(first.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}|${p.line}`)).toEqual(['update|4|2', 'update|4|3', 'update|4|4', 'update|4|5', 'update|4|7']);
    const after = [
      '# Acme',
      '- Run one test: `uv run pytest tests/test_ingest_loader.py::TestLoader::test_reads_csv -x` [corrected 2026-06-01]',
      '- Health check test: `tests/unit/test_http_api.py::test_health` [corrected 2026-06-01]',
      '- Plain file: `uv run pytest tests/test_ingest_loader.py -x` [corrected 2026-06-01]',
      '- The parser test is tests/test_text_parser.py::TestParser::test_empty[utf-8]. [corrected 2026-06-01]',
      '',
      '```bash',
      'cd tests',
      'pytest unit/test_http_api.py::test_health -v',
      '```',
      '',
    ].join('\n');
    expect(await read(r, 'CLAUDE.md')).toBe(after);
    const second = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);
    expect(await read(r, 'CLAUDE.md')).toBe(after);
    const again = await audit({ root: r.dir, now: NOW });
    expect(pathRows(again.report)).toEqual([]);
    const { records } = parseArchive(await read(r, '.memory-audit/archive.jsonl'));
    const ids = [...new Set(records.map((x) => x.entryId))];
    expect(ids).toHaveLength(5);
    for (const id of ids) await runRestore({ root: r.dir, id });
    expect(await read(r, 'CLAUDE.md')).toBe(memory);
  });
});

describe('end to end: a repository-root path in a fence (the Ray layout)', () => {
  it('`pytest ray/tests/test_actor.py::test_actor_creation` next to the plain file is corrected with it, not sent to review', async () => {
    const r = await makeRepo();
    const memory = [
      '## Testing',
      '',
      '```bash',
      'cd python',
      'pytest ray/tests/test_actor.py',
      'pytest ray/tests/test_actor.py::test_actor_creation',
      'pytest ray/tests/test_actor.py -v -s',
      '```',
      '',
    ].join('\n');
    await r.write('python/ray/__init__.py', '');
    await r.write('python/ray/tests/test_actor.py', 'def test_actor_creation():\n    assert True\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-10-01');
    await r.move('python/ray/tests/test_actor.py', 'python/ray/tests/test_actor_lifecycle.py');
    await r.commit('[core] Rename test_actor.py', '2026-01-15');
    const res = await audit({ root: r.dir, now: NOW });
    expect(pathRows(res.report)).toEqual([
      'path-renamed|5|ray/tests/test_actor.py|ray/tests/test_actor_lifecycle.py',
      'path-renamed|6|ray/tests/test_actor.py|ray/tests/test_actor_lifecycle.py',
      'path-renamed|7|ray/tests/test_actor.py|ray/tests/test_actor_lifecycle.py',
    ]);
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(first.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}`)).toEqual(['update|4']);
    const after = memory.replace(/test_actor\.py/g, 'test_actor_lifecycle.py');
    expect(after).toContain('pytest ray/tests/test_actor_lifecycle.py::test_actor_creation\n');
    expect(await read(r, 'CLAUDE.md')).toBe(after);
    const second = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);
  });
});

describe('healthy repository', () => {
  it('node ids of existing files and `::` in other languages and prose stay silent', async () => {
    const r = await makeRepo();
    const memory = [
      '# Acme',
      '',
      '- Run one test: `uv run pytest tests/test_loader.py::TestLoader::test_reads_csv -x`',
      '- Health: `tests/unit/test_api.py::test_health[v1]`, also tests/unit/test_api.py::test_health in prose.',
      '- C++: prefer `std::vector` and `std::unique_ptr<T>`; see `native/vec.cpp`.',
      '- Rust: `crate::config::Settings`, `use super::parse;`.',
      '- Ruby: `Acme::Client.new`, `Foo::Bar`.',
      '- In prose a::b and ns::name are scopes.',
      '',
      '```bash',
      'cd tests',
      'pytest unit/test_api.py::test_health -v',
      'python -m pytest test_loader.py::TestLoader',
      '```',
      '',
    ].join('\n');
    await r.write('pyproject.toml', '[project]\nname = "acme"\nversion = "1"\n');
    await r.write('native/vec.cpp', 'int main() { return 0; }\n');
    await r.write('tests/test_loader.py', 'class TestLoader:\n    def test_reads_csv(self):\n        assert True\n');
    await r.write('tests/unit/test_api.py', 'def test_health():\n    assert True\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2026-01-01');
    await r.write('tests/unit/test_api.py', 'def test_health():\n    assert 1 == 1\n');
    await r.commit('tweak', '2026-02-01');
    const res = await audit({ root: r.dir, now: NOW });
    expect(findingRows(res.report, () => true)).toEqual([]);
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(first.changes).toEqual([]);
    expect(await read(r, 'CLAUDE.md')).toBe(memory);
  });
});
