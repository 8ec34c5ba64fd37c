import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { gatherEvidence } from '../../src/evidence/index.js';
import { manifestKind } from '../../src/evidence/manifests/kinds.js';
import { parseLockfile } from '../../src/evidence/manifests/lockfiles.js';
import { parseManifest } from '../../src/evidence/manifests/parse.js';
import type { Evidence } from '../../src/types.js';
import { cleanupAll, makeRepo, type TestRepo } from './helpers.js';

afterAll(cleanupAll);

describe('manifest kinds', () => {
  it('recognises manifests at any depth and skips vendored trees', () => {
    expect(manifestKind('packages/a/package.json')).toBe('package.json');
    expect(manifestKind('node_modules/x/package.json')).toBeUndefined();
    expect(manifestKind('a/vendor/b/go.mod')).toBeUndefined();
    expect(manifestKind('requirements-dev.txt')).toBe('requirements');
    expect(manifestKind('requirements/test.txt')).toBe('requirements');
    expect(manifestKind('docs/requirements.txt')).toBe('requirements');
    expect(manifestKind('Justfile')).toBe('justfile');
    expect(manifestKind('GNUmakefile')).toBe('makefile');
    expect(manifestKind('.tool-versions')).toBe('runtime-file');
    expect(manifestKind('src/main.ts')).toBeUndefined();
  });
});

describe('manifest parsers', () => {
  it('package.json: every dependency field, scripts, workspaces, engines, packageManager', () => {
    const p = parseManifest(
      'package.json',
      'package.json',
      JSON.stringify({
        name: 'demo',
        version: '1.4.0',
        dependencies: { react: '^18.2.0' },
        devDependencies: { vitest: '1.6.0' },
        peerDependencies: { 'react-dom': '>=18' },
        optionalDependencies: { fsevents: '*' },
        bundledDependencies: ['left-pad'],
        scripts: { build: 'tsc -b', 'lint:fix': 'eslint --fix .' },
        workspaces: { packages: ['packages/*'] },
        engines: { node: '>=20' },
        packageManager: 'pnpm@9.1.0+sha512.abc',
      }),
    );
    expect(p.deps).toEqual([
      { name: 'react', spec: '^18.2.0', field: 'dependencies' },
      { name: 'vitest', spec: '1.6.0', field: 'devDependencies' },
      { name: 'react-dom', spec: '>=18', field: 'peerDependencies' },
      { name: 'fsevents', spec: '*', field: 'optionalDependencies' },
      { name: 'left-pad', spec: '', field: 'bundledDependencies' },
    ]);
    expect([...p.scripts!]).toEqual([['build', 'tsc -b'], ['lint:fix', 'eslint --fix .']]);
    expect(p.workspaces).toEqual(['packages/*']);
    expect(p.runtimes).toEqual([{ name: 'node', spec: '>=20' }, { name: 'pnpm', spec: '9.1.0' }]);
    expect([p.name, p.version]).toEqual(['demo', '1.4.0']);
  });

  it('broken JSON becomes a problem with its line', () => {
    const p = parseManifest('package.json', 'package.json', '{\n  "name": "x",\n  "version": 1.0.0\n}\n');
    expect(p.deps).toEqual([]);
    expect(p.problems).toHaveLength(1);
    expect(p.problems[0]!.line).toBe(3);
    expect(p.problems[0]!.message).toMatch(/^invalid JSON/);
  });

  it('pnpm-workspace.yaml: packages and catalogs', () => {
    const p = parseManifest('pnpm-workspace', 'pnpm-workspace.yaml', "packages:\n  - 'apps/*'\ncatalog:\n  react: ^18.3.0\ncatalogs:\n  testing:\n    vitest: ^2.0.0\n");
    expect(p.workspaces).toEqual(['apps/*']);
    expect([...p.catalogs!].map(([k, v]) => [k, [...v]])).toEqual([
      ['default', [['react', '^18.3.0']]],
      ['testing', [['vitest', '^2.0.0']]],
    ]);
  });

  it('pyproject.toml: PEP 621, optional groups, dependency groups, Poetry, scripts, classifiers', () => {
    const text = [
      '[project]',
      'name = "tool"',
      'version = "0.2.0"',
      'requires-python = ">=3.9,<3.14"',
      'dependencies = ["httpx[http2]>=0.27; python_version>\'3.8\'", "pydantic"]',
      'classifiers = ["Programming Language :: Python :: 3.9", "Programming Language :: Python :: 3.13", "License :: OSI Approved"]',
      '[project.optional-dependencies]',
      'viz = ["graphviz>=0.20"]',
      '[project.scripts]',
      'tool-cli = "tool.cli:main"',
      '[dependency-groups]',
      'dev = ["pytest>=8"]',
      '[tool.poetry.dependencies]',
      'python = "^3.10"',
      'requests = { version = "^2.31" }',
      '[tool.poetry.group.lint.dependencies]',
      'ruff = "0.5.0"',
      '[tool.poe.tasks]',
      'check = "ruff check ."',
    ].join('\n');
    const p = parseManifest('pyproject', 'pyproject.toml', text);
    expect(p.deps).toEqual([
      { name: 'httpx', spec: '>=0.27', field: 'project.dependencies' },
      { name: 'pydantic', spec: '', field: 'project.dependencies' },
      { name: 'graphviz', spec: '>=0.20', field: 'project.optional-dependencies.viz' },
      { name: 'pytest', spec: '>=8', field: 'dependency-groups.dev' },
      { name: 'requests', spec: '^2.31', field: 'tool.poetry.dependencies' },
      { name: 'ruff', spec: '0.5.0', field: 'tool.poetry.group.lint.dependencies' },
    ]);
    expect(p.runtimes).toEqual([{ name: 'python', spec: '>=3.9,<3.14' }, { name: 'python', spec: '^3.10' }]);
    expect(p.classifiers).toEqual(['3.9', '3.13']);
    expect([...p.scripts!.keys()]).toEqual(['tool-cli', 'check']);
    expect([p.name, p.version]).toEqual(['tool', '0.2.0']);
  });

  it('broken TOML becomes a problem with its line', () => {
    const p = parseManifest('cargo', 'Cargo.toml', '[package]\nname = "x"\nversion = \n');
    expect(p.problems[0]!.line).toBe(3);
    expect(p.problems[0]!.message).toMatch(/^invalid TOML/);
  });

  it('Cargo.toml: dependency tables, renamed packages, workspace members and versions', () => {
    const p = parseManifest(
      'cargo',
      'Cargo.toml',
      '[package]\nname = "cli"\nversion.workspace = true\nrust-version = "1.80"\n[workspace]\nmembers = ["crates/*"]\n[workspace.package]\nversion = "3.1.0"\n[dependencies]\nserde = { version = "1", features = ["derive"] }\nmy-json = { package = "serde_json", version = "1.0" }\ncore = { path = "../core" }\n[dev-dependencies]\ninsta = "1.39"\n[target.\'cfg(unix)\'.dependencies]\nlibc = "0.2"\n',
    );
    expect(p.deps).toEqual([
      { name: 'serde', spec: '1', field: 'dependencies' },
      { name: 'serde_json', spec: '1.0', field: 'dependencies' },
      { name: 'core', spec: 'path:../core', field: 'dependencies' },
      { name: 'insta', spec: '1.39', field: 'dev-dependencies' },
      { name: 'libc', spec: '0.2', field: "target.cfg(unix).dependencies" },
    ]);
    expect([p.name, p.version, p.workspaces, p.runtimes]).toEqual(['cli', '3.1.0', ['crates/*'], [{ name: 'rust', spec: '1.80' }]]);
  });

  it('requirements.txt, go.mod and Gemfile', () => {
    const r = parseManifest('requirements', 'requirements.txt', '# deps\nDjango>=4.2,<5 # web\n-r base.txt\nrequests[socks]==2.31.0 ; python_version >= "3.8"\n-e git+https://x/y.git#egg=mylib\nflask @ https://example.com/flask.whl\n--index-url https://pypi\nnumpy==1.26 --hash=sha256:abc\n');
    expect(r.deps.map((d) => [d.name, d.spec])).toEqual([
      ['Django', '>=4.2,<5'],
      ['requests', '==2.31.0'],
      ['mylib', ''],
      ['flask', ''],
      ['numpy', '==1.26'],
    ]);
    const g = parseManifest('go.mod', 'go.mod', 'module github.com/acme/tool\n\ngo 1.22\ntoolchain go1.22.4\n\nrequire github.com/spf13/cobra v1.8.0\nrequire (\n\tgolang.org/x/sync v0.7.0 // indirect\n\tgithub.com/stretchr/testify v1.9.0\n)\n');
    expect(g.deps).toEqual([
      { name: 'github.com/spf13/cobra', spec: 'v1.8.0', field: 'require' },
      { name: 'golang.org/x/sync', spec: 'v0.7.0', field: 'require-indirect' },
      { name: 'github.com/stretchr/testify', spec: 'v1.9.0', field: 'require' },
    ]);
    expect([g.goModule, g.runtimes]).toEqual(['github.com/acme/tool', [{ name: 'go', spec: '1.22' }, { name: 'go-toolchain', spec: '1.22.4' }]]);
    const gem = parseManifest('gemfile', 'Gemfile', "source 'https://rubygems.org'\nruby '3.3.0'\ngem 'rails', '~> 7.1'\n  gem \"pg\"\n# gem 'old'\n");
    expect(gem.deps.map((d) => [d.name, d.spec])).toEqual([['rails', '~> 7.1'], ['pg', '']]);
    expect(gem.runtimes).toEqual([{ name: 'ruby', spec: '3.3.0' }]);
  });

  it('Makefile targets skip pattern rules, special targets and variables; .PHONY names count', () => {
    const p = parseManifest('makefile', 'Makefile', '.PHONY: all test release\nCC := gcc\nFLAGS = -O2\nX ::= y\nall: build test\n\t$(CC) x\n%.o: %.c\n\tcc\nbuild dist: deps\n$(OUT): x\ndefine TEMPLATE\nfake: x\nendef\nlint:: ; echo\n.DEFAULT_GOAL := all\n');
    expect(p.targets!.sort()).toEqual(['all', 'build', 'dist', 'lint', 'release', 'test']);
  });

  it('justfile recipes, with parameters, quiet markers, aliases and attributes', () => {
    const p = parseManifest('justfile', 'justfile', "set shell := ['bash', '-c']\nversion := '1.0'\n# build it\nbuild target='all':\n    cargo build\n[private]\n@fmt:\n    cargo fmt\nalias b := build\ntest *args: build\n    cargo test {{args}}\n");
    expect(p.recipes!.sort()).toEqual(['b', 'build', 'fmt', 'test']);
  });

  it('version files', () => {
    expect(parseManifest('runtime-file', '.nvmrc', 'v20.11.0\n').runtimes).toEqual([{ name: 'node', spec: 'v20.11.0' }]);
    expect(parseManifest('runtime-file', 'x/.python-version', '3.12\n').runtimes).toEqual([{ name: 'python', spec: '3.12' }]);
    expect(parseManifest('runtime-file', '.tool-versions', 'nodejs 20.1.0\npython 3.11.4 # pinned\n').runtimes).toEqual([
      { name: 'node', spec: '20.1.0' },
      { name: 'python', spec: '3.11.4' },
    ]);
  });
});

describe('lockfiles', () => {
  it('package-lock v3 with a workspace, and v1', () => {
    const v3 = parseLockfile('package-lock', 'package-lock.json', JSON.stringify({
      lockfileVersion: 3,
      packages: { '': {}, 'node_modules/react': { version: '18.3.1' }, 'packages/a/node_modules/react': { version: '17.0.2' } },
    })).lock!;
    expect(v3.lookup('', 'react', '^18')).toBe('18.3.1');
    expect(v3.lookup('packages/a', 'react', '^17')).toBe('17.0.2');
    expect(v3.lookup('packages/b', 'react', '^18')).toBe('18.3.1');
    const v1 = parseLockfile('package-lock', 'package-lock.json', JSON.stringify({ lockfileVersion: 1, dependencies: { lodash: { version: '4.17.21' } } })).lock!;
    expect(v1.lookup('', 'lodash', '^4')).toBe('4.17.21');
  });

  it('pnpm-lock.yaml v9 importers, parsing only the importers section', () => {
    const text = "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    devDependencies:\n      typescript:\n        specifier: ^5.4.0\n        version: 5.4.5\n  packages/web:\n    dependencies:\n      react:\n        specifier: ^18.2.0\n        version: 18.2.0(react-dom@18.2.0)\n\npackages:\n\n  broken: [yaml that is never parsed\n";
    const l = parseLockfile('pnpm-lock', 'pnpm-lock.yaml', text).lock!;
    expect(l.lookup('', 'typescript', '^5.4.0')).toBe('5.4.5');
    expect(l.lookup('packages/web', 'react', '^18.2.0')).toBe('18.2.0');
    expect(l.lookup('packages/web', 'vue', '^3')).toBeUndefined();
  });

  it('yarn.lock classic and berry', () => {
    const classic = '# yarn lockfile v1\n\n\n"@babel/core@^7.0.0", "@babel/core@^7.1.0":\n  version "7.24.0"\n  resolved "x"\n\nlodash@^4.17.0:\n  version "4.17.21"\n';
    const c = parseLockfile('yarn-lock', 'yarn.lock', classic).lock!;
    expect(c.lookup('', '@babel/core', '^7.1.0')).toBe('7.24.0');
    expect(c.lookup('', 'lodash', '^4.17.0')).toBe('4.17.21');
    const berry = '__metadata:\n  version: 8\n\n"react@npm:^18.2.0":\n  version: 18.3.1\n  resolution: "react@npm:18.3.1"\n';
    expect(parseLockfile('yarn-lock', 'yarn.lock', berry).lock!.lookup('', 'react', '^18.2.0')).toBe('18.3.1');
  });
});

describe('manifests at HEAD and through history', () => {
  let repo: TestRepo;
  let ev: Evidence;
  const sha: Record<string, string> = {};
  beforeAll(async () => {
    repo = await makeRepo();
    await repo.write('package.json', JSON.stringify({ name: 'root', version: '0.1.0', workspaces: ['packages/*'], dependencies: { acquaint: '^1.0.0', lodash: '^4.0.0' }, scripts: { 'lint:fix': 'eslint --fix .', build: 'tsc' } }, null, 2));
    await repo.write('packages/a/package.json', JSON.stringify({ name: '@x/a', version: '0.1.0', dependencies: { chalk: '^5.0.0' }, scripts: { test: 'vitest' } }, null, 2));
    await repo.write('Makefile', 'deploy:\n\t./deploy.sh\nbuild:\n\tmake -C src\n');
    await repo.write('justfile', 'check:\n    cargo check\n');
    sha.init = await repo.commit('init', '2024-01-01');
    await repo.write('package.json', JSON.stringify({ name: 'root', version: '0.2.0', workspaces: ['apps/*'], dependencies: { mcptools: '^2.0.0', lodash: '^4.17.21' }, scripts: { lint: 'eslint --fix .', build: 'tsc' } }, null, 2));
    await repo.write('Makefile', 'build:\n\tmake -C src\n');
    await repo.write('justfile', 'check:\n    cargo check\nfmt:\n    cargo fmt\n');
    sha.swap = await repo.commit('swap acquaint for mcptools', '2024-02-01');
    await repo.move('packages/a', 'apps/a');
    sha.move = await repo.commit('move packages to apps', '2024-03-01');
    await repo.write('package-lock.json', JSON.stringify({ lockfileVersion: 3, packages: { 'node_modules/lodash': { version: '4.17.21' }, 'node_modules/chalk': { version: '5.3.0' } } }));
    await repo.write('pyproject.toml', '[project]\nname = "py"\ndependencies = [\n');
    await repo.write('.nvmrc', '20\n');
    sha.lock = await repo.commit('lockfile and broken pyproject', '2024-04-01');
    await repo.write('apps/a/package.json', JSON.stringify({ name: '@x/alpha', version: '0.1.0', dependencies: { chalk: '^5.0.0' }, scripts: { test: 'vitest' } }, null, 2));
    sha.rename = await repo.commit('rename workspace package', '2024-05-01');
    ev = (await gatherEvidence({ root: repo.dir, config: DEFAULT_CONFIG, entries: [], offline: true })).evidence;
  });

  it('indexes dependencies at HEAD with lockfile versions', () => {
    const m = ev.manifests;
    expect([...m.dependencies.keys()].sort()).toEqual(['chalk', 'lodash', 'mcptools']);
    expect(m.dependencies.get('lodash')).toEqual([{ name: 'lodash', spec: '^4.17.21', manifest: 'package.json', field: 'dependencies', locked: '4.17.21' }]);
    expect(m.dependencies.get('chalk')).toEqual([{ name: 'chalk', spec: '^5.0.0', manifest: 'apps/a/package.json', field: 'dependencies', locked: '5.3.0' }]);
    expect([...m.scripts].map(([k, v]) => [k, [...v]])).toEqual([['package.json', ['lint', 'build']], ['apps/a/package.json', ['test']]]);
    expect([...m.makeTargets.get('Makefile')!]).toEqual(['build']);
    expect([...m.justRecipes.get('justfile')!]).toEqual(['check', 'fmt']);
    expect([...m.workspaces]).toEqual([['@x/alpha', 'apps/a']]);
    expect(m.runtimes.get('node')).toEqual({ spec: '20', source: '.nvmrc' });
    expect(m.projectVersions).toEqual([
      { name: 'root', version: '0.2.0', manifest: 'package.json' },
      { name: '@x/alpha', version: '0.1.0', manifest: 'apps/a/package.json' },
    ]);
    expect(m.workspaceGlobs).toEqual([{ glob: 'apps/*', source: 'package.json' }]);
  });

  it('reports a broken manifest as a problem naming the file and line, and carries on', () => {
    expect(ev.manifests.problems).toHaveLength(1);
    expect(ev.manifests.problems[0]!.file).toBe('pyproject.toml');
    expect(ev.manifests.problems[0]!.line).toBe(4);
  });

  it('records when each dependency was added and removed, with rename candidates', () => {
    const acq = ev.manifests.everDependencies.get('acquaint')!;
    expect(acq.map((e) => [e.type, e.manifest, e.commit.sha, e.spec, e.addedInSameCommit])).toEqual([
      ['added', 'package.json', sha.init, '^1.0.0', undefined],
      ['removed', 'package.json', sha.swap, '^1.0.0', ['mcptools']],
    ]);
    // The moved workspace package.json does not look like removals.
    expect(ev.manifests.everDependencies.get('chalk')!.map((e) => [e.type, e.manifest])).toEqual([['added', 'packages/a/package.json']]);
    expect(ev.manifests.dependencyVersions!.get('lodash')!.map((e) => [e.from, e.to, e.commit.sha])).toEqual([['^4.0.0', '^4.17.21', sha.swap]]);
  });

  it('records the names manifests declared for themselves', () => {
    const n = ev.manifests.everProjectNames!;
    expect(n.get('@x/a')!.map((e) => [e.type, e.manifest, e.commit.sha])).toEqual([
      ['added', 'packages/a/package.json', sha.init],
      ['removed', 'apps/a/package.json', sha.rename],
    ]);
    expect(n.get('@x/alpha')!.map((e) => [e.type, e.commit.sha])).toEqual([['added', sha.rename]]);
    expect(n.get('root')!.map((e) => e.type)).toEqual(['added']);
  });

  it('records script, target and recipe history, with renames by identical command', () => {
    const h = ev.manifests.scriptHistory;
    expect(h.get('package.json#lint:fix')!.map((e) => [e.type, e.commit.sha, e.renamedTo, e.addedInSameCommit, e.source])).toEqual([
      ['added', sha.init, undefined, undefined, 'npm'],
      ['removed', sha.swap, 'lint', ['lint'], 'npm'],
    ]);
    expect(h.get('Makefile#deploy')!.map((e) => [e.type, e.commit.subject, e.source])).toEqual([
      ['added', 'init', 'make'],
      ['removed', 'swap acquaint for mcptools', 'make'],
    ]);
    expect(h.get('justfile#fmt')!.map((e) => [e.type, e.commit.sha])).toEqual([['added', sha.swap]]);
    expect(h.has('package.json#build')).toBe(true);
  });
});
