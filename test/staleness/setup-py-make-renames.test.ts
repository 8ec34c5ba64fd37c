// setuptools' setup.py / setup.cfg read as manifests (QA19: dagster, celery, ray keep their
// dependencies there), and Make targets / just recipes paired with their successors by their
// recipe text when one commit renames several (QA19: terraform-provider-aws). Real git
// repositories in temp folders, audited and pruned end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit, type AuditResult } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { parseJustfile, parseMakefile, parseSetupCfg, parseSetupPy, readIni, RECIPE_TEXT_MAX } from '../../src/evidence/manifests/parse.js';
import type { Finding } from '../../src/types.js';
import { cleanupRepos, makeRepo, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');

afterAll(cleanupRepos);

/** `kind|line|message|replace` of a memory file's findings, by line then ref. */
function rows(findings: Finding[], file: string): string[] {
  return findings
    .filter((f) => f.file === file)
    .sort((a, b) => a.line - b.line || (a.ref ?? '').localeCompare(b.ref ?? ''))
    .map((f) => `${f.kind}|${f.line}|${f.message}|${f.suggestion?.replace ?? ''}`);
}

const short = async (r: Repo) => (await r.git.revparse(['HEAD'])).trim().slice(0, 7);

// ------------------------------------------------------------------ setup.py / setup.cfg

const setupPy = (http: string, mock: string, floor: string) =>
  [
    'from setuptools import setup, find_packages',
    '',
    'setup(',
    '    name="acme",',
    '    version="1.0",',
    '    packages=find_packages(exclude=["tests*"]),',
    `    python_requires=">=${floor}",`,
    `    install_requires=["${http}>=2", "click>=8"],`,
    `    extras_require={"test": ["pytest", "${mock}"]},`,
    ')',
    '',
  ].join('\n');

const setupCfg = (http: string, mock: string, floor: string) =>
  [
    '[metadata]',
    'name = acme',
    '',
    '[options]',
    `python_requires = >=${floor}`,
    'install_requires =',
    `    ${http}>=2`,
    '    click>=8',
    '',
    '[options.extras_require]',
    'test =',
    '    pytest',
    `    ${mock}`,
    '',
  ].join('\n');

const MEMORY = [
  '# Acme',
  '- HTTP calls go through `requests`; mock them with `responses` in tests.',
  '- Code must be compatible with Python 3.9 and later.',
  '- The CLI is built on `click`.',
  '',
].join('\n');

describe.each([
  ['setup.py', setupPy],
  ['setup.cfg', setupCfg],
] as const)('%s read as a manifest, with history', (file, write) => {
  let r: Repo;
  let sha: string;
  let result: AuditResult;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('acme/__init__.py', '');
    await r.write(file, write('requests', 'responses', '3.9'));
    await r.write('CLAUDE.md', MEMORY);
    await r.commit('init', '2025-06-01');
    await r.write(file, write('httpx', 'respx', '3.10'));
    await r.commit('Switch to httpx; drop Python 3.9', '2025-10-20');
    sha = await short(r);
    result = await audit({ root: r.dir, now: NOW });
  });

  it('reports the swapped dependencies and the raised python_requires, as for pyproject.toml', () => {
    const commit = `${sha} (2025-10-20, "Switch to httpx; drop Python 3.9")`;
    expect(rows(result.report.findings, 'CLAUDE.md')).toEqual([
      `package-renamed|2|\`requests\` was replaced by \`httpx\` in \`${file}\` in ${commit}; update the reference.|httpx`,
      `package-renamed|2|\`responses\` was replaced by \`respx\` in \`${file}\` in ${commit}; update the reference.|respx`,
      `version-drift|3|\`Python 3.9\` no longer matches the project: \`${file}\` requires Python \`>=3.10\`; update the stated version to 3.10.|Python 3.10`,
    ]);
    expect(result.evidence.manifests.problems).toEqual([]);
    expect(result.evidence.manifests.runtimes.get('python')).toEqual({ spec: '>=3.10', source: file });
    const field = (name: string) => result.evidence.manifests.dependencies.get(name)?.map((d) => `${d.manifest}:${d.field}:${d.spec}`);
    expect(field('httpx')).toEqual([`${file}:install_requires:>=2`]);
    expect(field('respx')).toEqual([`${file}:extras_require.test:`]);
  });

  it('prune corrects both lines in place; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(res.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}|${p.line}`)).toEqual(['update|4|2', 'update|4|3']);
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(
      [
        '# Acme',
        '- HTTP calls go through `httpx`; mock them with `respx` in tests. [corrected 2026-06-01]',
        '- Code must be compatible with Python 3.10 and later. [corrected 2026-06-01]',
        '- The CLI is built on `click`.',
        '',
      ].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('a healthy setup.py whose install_requires is computed', () => {
  let result: AuditResult;

  beforeAll(async () => {
    const r = await makeRepo();
    await r.write('acme/__init__.py', '');
    await r.write(
      'setup.py',
      ['from setuptools import setup', '', 'setup(', '    name="acme",', '    python_requires=">=3.9",', '    install_requires=["requests>=2", "tomli>=2"],', ')', ''].join('\n'),
    );
    await r.commit('init', '2025-06-01');
    // The list moves into a file setup.py reads (not a manifest: its name is no requirements
    // file's): `tomli` is still a dependency, and nothing may say it was removed.
    await r.write('deps/base.pip', 'requests>=2\ntomli>=2\n');
    await r.write(
      'setup.py',
      [
        'from pathlib import Path',
        'from setuptools import setup',
        '',
        'def read_requirements():',
        '    return Path("deps/base.pip").read_text().splitlines()',
        '',
        'setup(',
        '    name="acme",',
        '    python_requires=">=3.9",',
        '    install_requires=read_requirements(),',
        '    extras_require={"test": ["pytest"], "all": [r for r in read_requirements()]},',
        ')',
        '',
      ].join('\n'),
    );
    await r.write(
      'CLAUDE.md',
      ['# Acme', '- HTTP calls go through `requests`.', '- The config is parsed with `tomli`.', '- Tests run with `pytest`.', '- Supports Python 3.9+.', ''].join('\n'),
    );
    await r.commit('Read the requirements from deps/', '2025-10-20');
    result = await audit({ root: r.dir, now: NOW });
  });

  it('gives nothing and no error; the literal extra is read', () => {
    expect(rows(result.report.findings, 'CLAUDE.md')).toEqual([]);
    expect(result.evidence.manifests.problems).toEqual([]);
    expect(result.evidence.manifests.dependencies.get('pytest')?.map((d) => d.field)).toEqual(['extras_require.test']);
    expect(result.evidence.manifests.dependencies.has('tomli')).toBe(false);
    // The version with a computed field is not read in history: no removal is recorded.
    expect(result.evidence.manifests.everDependencies.get('tomli')?.map((e) => e.type)).toEqual(['added']);
  });
});

describe('setup.py and setup.cfg parsers', () => {
  it('reads literal keyword arguments of setup(...) only', () => {
    const p = parseSetupPy(
      [
        'import setuptools  # setup(name="comment")',
        '"""setup(name="docstring")"""',
        'def setup_extras(): pass',
        'extras = {"all": ["x"]}',
        'setuptools.setup(',
        '    name="acme" "-web",',
        '    version=get_version(),',
        '    python_requires=">=3.9,<3.14",',
        '    tests_require=("pytest", \'mock; python_version < "3.3"\',),',
        '    extras_require={',
        '        "test": ["starlette[full]>=0.30", "requests @ https://x.test/r.tar.gz"],',
        '        "all": extras["all"],',
        '        "lint": "ruff\\nblack  # formatter\\n",',
        '    },',
        '    install_requires=[f"acme-core{PIN}", "click"],',
        ')',
        '',
      ].join('\n'),
    );
    expect(p.name).toBe('acme-web');
    expect(p.runtimes).toEqual([{ name: 'python', spec: '>=3.9,<3.14' }]);
    expect(p.deps.map((d) => `${d.field}:${d.name}:${d.spec}`)).toEqual([
      'tests_require:pytest:',
      'tests_require:mock:',
      'extras_require.test:starlette:>=0.30',
      'extras_require.test:requests:https://x.test/r.tar.gz',
      'extras_require.lint:ruff:',
      'extras_require.lint:black:',
    ]);
    // `"all": extras["all"]` and the f-string list are built by code.
    expect(p.partial).toBe(true);
    expect(parseSetupPy('from setuptools import setup\nsetup()\n')).toEqual({ kind: 'setup-py', deps: [], problems: [] });
    expect(parseSetupPy('from setuptools import setup\nsetup(name="a", **kwargs)\n').partial).toBe(true);
    expect(parseSetupPy('print("no call")\n').partial).toBe(true);
    expect(parseSetupPy('from setuptools import setup\nsetup(install_requires=["a"] + EXTRA)\n')).toMatchObject({ deps: [], partial: true });
    expect(parseSetupPy('setup(install_requires=[\n  "a>=1",  # why\n  "b",\n], name=("acme"))\n')).toMatchObject({
      name: 'acme',
      deps: [
        { name: 'a', spec: '>=1', field: 'install_requires' },
        { name: 'b', spec: '', field: 'install_requires' },
      ],
    });
  });

  it('reads setup.cfg as configparser does', () => {
    expect(readIni('[a]\nk = v\n  more\n\n  after blank\n# c\nother: x\n[b]\nK=1\n')).toEqual(
      new Map([
        ['a', new Map([['k', 'v\nmore\n\nafter blank'], ['other', 'x']])],
        ['b', new Map([['K', '1']])],
      ]),
    );
    const p = parseSetupCfg(
      [
        '[metadata]',
        'name = acme',
        '',
        '[options]',
        'python-requires = >=3.8',
        'install_requires =',
        '    requests>=2  # http',
        '    # a comment',
        '    click>=8; python_version >= "3.8"',
        '',
        '    attrs',
        'package_dir =',
        '    =src',
        'tests_require = pytest; python_version < "3.8"',
        '',
        '[options.extras_require]',
        'Test =',
        '    pytest-cov',
        'docs = file: docs/requirements.txt',
        '',
      ].join('\n'),
    );
    expect(p.name).toBe('acme');
    expect(p.runtimes).toEqual([{ name: 'python', spec: '>=3.8' }]);
    expect(p.deps.map((d) => `${d.field}:${d.name}:${d.spec}`)).toEqual([
      'install_requires:requests:>=2',
      'install_requires:click:>=8',
      'install_requires:attrs:',
      'tests_require:pytest:',
      'extras_require.Test:pytest-cov:',
    ]);
    expect(p.partial).toBe(true); // `file:` is read by setuptools from another file
  });
});

// ------------------------------------------------------------------ Make targets, just recipes

describe('Make targets renamed together, recipes unchanged', () => {
  const memory = [
    '# AGENTS.md',
    '',
    '### Documentation Checklist',
    '- Run `make swissshepherd` to verify.',
    '',
    '### Copyright headers',
    '- All applicable files must have a copyright header.',
    '- Run `make copyright-fix` to ensure headers are correct.',
    '- Lint with `make lint` before pushing.',
    '- Tests: `make test`.',
    '',
  ].join('\n');
  let r: Repo;
  let sha: string;
  let result: AuditResult;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write(
      'GNUmakefile',
      [
        'copyright-fix:',
        '\t@copywrite headers',
        '',
        'swissshepherd: ## check the docs',
        '\tswissshepherd check website/docs',
        '',
        'lint:',
        '\tgolangci-lint run ./...',
        '',
        'test:',
        '\tgo test ./...',
        '',
      ].join('\n'),
    );
    await r.write('AGENTS.md', memory);
    await r.commit('init', '2025-10-01');
    // Two renames and an unrelated swap (`lint` removed, `fmt` added) in one commit.
    await r.write(
      'GNUmakefile',
      [
        'copyright:',
        '\tcopywrite headers',
        '',
        'docs-check: ## check the docs',
        '\tswissshepherd check website/docs',
        '',
        'fmt:',
        '\tgofmt -w .',
        '',
        'test:',
        '\tgo test ./...',
        '',
      ].join('\n'),
    );
    await r.commit('GNUmakefile: rename copyright-fix and swissshepherd targets', '2025-12-04');
    sha = await short(r);
    result = await audit({ root: r.dir, now: NOW });
  });

  it('pairs each renamed target by its recipe; the unrelated one stays removed', () => {
    const commit = `${sha} (2025-12-04, "GNUmakefile: rename copyright-fix and swissshepherd targets")`;
    expect(rows(result.report.findings, 'AGENTS.md')).toEqual([
      `script-missing|4|\`make swissshepherd\` no longer works: the target was renamed to \`docs-check\` in ${commit}; use \`make docs-check\` instead.|make docs-check`,
      `script-missing|8|\`make copyright-fix\` no longer works: the target was renamed to \`copyright\` in ${commit}; use \`make copyright\` instead.|make copyright`,
      `script-missing|9|\`make lint\` no longer works: the target was removed from \`GNUmakefile\` in ${commit}; update or remove the command.|`,
    ]);
    const removed = result.evidence.manifests.scriptHistory.get('GNUmakefile#copyright-fix')?.at(-1);
    // `@` is make's quiet prefix, not part of what the target runs.
    expect(removed).toMatchObject({ type: 'removed', source: 'make', command: 'copywrite headers', renamedTo: 'copyright' });
  });

  it('prune corrects the renamed ones in place; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(res.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}|${p.line}`)).toEqual(['update|4|4', 'update|4|8', 'delete|4|9']);
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(
      [
        '# AGENTS.md',
        '',
        '### Documentation Checklist',
        '- Run `make docs-check` to verify. [corrected 2026-06-01]',
        '',
        '### Copyright headers',
        '- All applicable files must have a copyright header.',
        '- Run `make copyright` to ensure headers are correct. [corrected 2026-06-01]',
        '- Tests: `make test`.',
        '',
      ].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('just recipes renamed together', () => {
  let r: Repo;
  let sha: string;
  let result: AuditResult;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('justfile', ['# build it', 'build-all:', '    cargo build --workspace', '', 'check-all *args:', '    @cargo clippy --workspace {{args}}', '    cargo fmt --check', ''].join('\n'));
    await r.write('CLAUDE.md', ['# Tasks', '- Build: `just build-all`.', '- Check: `just check-all` before pushing.', ''].join('\n'));
    await r.commit('init', '2025-10-01');
    await r.write('justfile', ['# build it', 'build:', '    cargo build --workspace', '', 'check *args:', '    @cargo clippy --workspace {{args}}', '    cargo fmt --check', ''].join('\n'));
    await r.commit('Shorter recipe names', '2025-12-04');
    sha = await short(r);
    result = await audit({ root: r.dir, now: NOW });
  });

  it('pairs each by its body and corrects both lines', async () => {
    const commit = `${sha} (2025-12-04, "Shorter recipe names")`;
    expect(rows(result.report.findings, 'CLAUDE.md')).toEqual([
      `script-missing|2|\`just build-all\` no longer works: the recipe was renamed to \`build\` in ${commit}; use \`just build\` instead.|just build`,
      `script-missing|3|\`just check-all\` no longer works: the recipe was renamed to \`check\` in ${commit}; use \`just check\` instead.|just check`,
    ]);
    await runPrune({ root: r.dir, now: NOW, write: true });
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(
      ['# Tasks', '- Build: `just build`. [corrected 2026-06-01]', '- Check: `just check` before pushing. [corrected 2026-06-01]', ''].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('recipe text', () => {
  it('joins a Makefile recipe, prefixes and comments dropped, capped', () => {
    const p = parseMakefile(
      [
        'BIN := acme',
        '.PHONY: test build',
        'test: build ; go test ./...',
        '\t@echo   done',
        '# a make comment',
        '',
        '\t-rm -f x',
        '\t# a shell comment',
        'ifeq ($(CI),1)',
        '\techo ci',
        'endif',
        '$(BIN)-linux: build',
        '\tGOOS=linux go build',
        'x = 1',
        '\techo orphan',
        '%.o: %.c',
        '\tcc $<',
        'long:',
        `\techo ${'word '.repeat(100)}`,
        'all: test build',
        '',
      ].join('\n'),
    );
    expect(p.recipeCommands).toEqual(
      new Map([
        ['test', 'go test ./... && echo done && rm -f x && echo ci'],
        ['acme-linux', 'GOOS=linux go build'],
        ['long', `echo${' word'.repeat(39)}`],
      ]),
    );
    expect(p.recipeCommands!.get('long')!.length).toBeLessThanOrEqual(RECIPE_TEXT_MAX);
  });

  it('keeps a just recipe body, the alias without one', () => {
    const p = parseJustfile(['alias t := test', '[private]', 'test *args:', '    @cargo test {{args}}', '    echo ok', 'build:', '  #!/usr/bin/env bash', '  cargo build', ''].join('\n'));
    expect(p.recipes).toEqual(['t', 'test', 'build']);
    expect(p.recipeCommands).toEqual(new Map([['test', 'cargo test {{args}} && echo ok'], ['build', 'cargo build']]));
  });
});
