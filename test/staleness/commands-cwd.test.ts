// The folder a command runs in, as memory writes it: `cd web` on a line of its own in a shell
// fence, `cd dir &&` / `-C dir` for the command's path arguments, "run `x` in `apps/www`";
// path-like `NAME=value` arguments; placeholder script names; `cargo -p` / `uv --package`
// selectors; a nested memory file's command meant for the one manifest that had the script.
// Real git histories, audited end to end.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { extractReferences } from '../../src/memory/references.js';
import { isPlaceholderScript, joinCwd, parseCommandLine } from '../../src/memory/refs/commands.js';
import type { Finding, Reference } from '../../src/types.js';
import { cleanupRepos, makeRepo, pkg, type Repo } from './helpers.js';
import { entryOf, fileOf } from './refs-helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

const brief = (fs: Finding[]) => fs.map((f) => `${f.kind}|${f.line}|${f.ref}|${f.suggestion?.replace ?? ''}`);
const refs = (text: string, file = 'AGENTS.md'): Reference[] => {
  const f = fileOf(text, file, 'agents-md');
  return extractReferences(entryOf(f), f);
};
const commands = (rs: Reference[]) => rs.filter((r) => r.kind === 'command').map((r) => `${r.line}|${r.value}|${r.base ?? ''}`);
const paths = (rs: Reference[]) => rs.filter((r) => r.kind === 'path').map((r) => `${r.line}|${r.raw}|${r.base ?? ''}|${r.weak ? 'weak' : ''}`);
const sha7 = async (r: Repo) => (await r.git.revparse(['HEAD'])).trim().slice(0, 7);

describe('the folder of a shell fence, line to line', () => {
  it('`cd web` on its own line sets the folder of the commands below, until the next cd or the end of the fence', () => {
    const rs = refs(
      ['```bash', 'cd web', 'pnpm lint', 'pnpm lint src/app.ts', 'cd ..', 'pnpm build', 'cd api/src', 'cd -', 'pnpm dev', '```', '', '```bash', 'pnpm lint', '```'].join('\n'),
    );
    expect(commands(rs)).toEqual(['3|pnpm lint|web/', '4|pnpm lint|web/', '6|pnpm build|', '9|pnpm dev|', '13|pnpm lint|']);
    expect(paths(rs)).toEqual(['2|web||weak', '4|src/app.ts|web/|', '7|api/src||']);
  });

  it('cd targets are relative to the folder the shell is in; `cd -` goes back', () => {
    const rs = refs(['```sh', 'cd packages', 'cd core', 'make gen-types', 'cd -', 'make lint-all', '```'].join('\n'));
    expect(commands(rs)).toEqual(['4|make gen-types|packages/core/', '6|make lint-all|packages/']);
    expect(paths(rs)).toEqual(['2|packages||weak', '3|core|packages/|weak']);
  });

  it('a line chaining cd with a command sets the folder of that line only, and ends a carried folder', () => {
    const rs = refs(['```bash', 'cd web', 'cd ../api && make run-dev', 'pnpm dev', 'cd backend && npm run dev', 'cd frontend && npm run dev', '```'].join('\n'));
    expect(commands(rs)).toEqual(['3|make run-dev|api/', '4|pnpm dev|', '5|npm run dev|backend/', '6|npm run dev|frontend/']);
  });

  it('joins cd targets like a shell', () => {
    expect(joinCwd(undefined, 'web/')).toBe('web');
    expect(joinCwd('web', './src')).toBe('web/src');
    expect(joinCwd('web', '..')).toBeUndefined();
    expect(joinCwd('web', '../api')).toBe('api');
    expect(joinCwd(undefined, '..')).toBe('..');
    expect(joinCwd('~/code', 'app')).toBe('~/code/app');
    expect(joinCwd('web', '/opt/x')).toBe('/opt/x');
    expect(joinCwd('web', '$REPO_ROOT')).toBe('$REPO_ROOT');
  });
});

describe('path arguments of a command run in a folder', () => {
  it('carry the folder of `cd dir &&`, `-C dir`, `--prefix dir`, `make -C dir`, but not of a workspace selector', () => {
    const rs = refs(
      [
        '- `cd actionview && bin/test test/template/form_helper_test.rb`',
        '- `pnpm -C apps/web lint src/a.ts` and `npm --prefix apps/web run lint src/b.ts`',
        '- `make -C tools/gen all WHAT=./cmd/gen` and `pnpm --filter web lint src/c.ts`',
        '- `cd ~/code/app && cat src/d.ts`',
      ].join('\n'),
    );
    expect(paths(rs)).toEqual([
      '1|actionview||weak',
      '1|bin/test|actionview/|weak',
      '1|test/template/form_helper_test.rb|actionview/|',
      '2|apps/web||',
      '2|src/a.ts|apps/web/|',
      '2|apps/web||',
      '2|src/b.ts|apps/web/|',
      '3|tools/gen||',
      '3|./cmd/gen|tools/gen/|weak',
      '3|src/c.ts||',
      '4|src/d.ts||',
    ]);
  });
});

describe('"run `x` in `dir`"', () => {
  it('takes a folder path named right after the command', () => {
    const rs = refs(
      [
        '- (run `pnpm run generate:docs` in `apps/www`), `pnpm dev` from apps/web/, `npm test` inside the `packages/ui` folder.',
        '- `pnpm test` in `watch` mode; `npm run build` in `apps/www.json`; `npm run lint` from the repository root; `pnpm dev` in `apps/*`.',
      ].join('\n'),
    );
    expect(commands(rs)).toEqual([
      '1|pnpm run generate:docs|apps/www/', '1|pnpm dev|apps/web/', '1|npm test|packages/ui/',
      '2|pnpm test|', '2|npm run build|', '2|npm run lint|', '2|pnpm dev|',
    ]);
  });
});

describe('NAME=value arguments', () => {
  it('a path-like value is a path; weak unless it starts with ./ or ../', () => {
    const rs = refs(
      ['```', 'make test WHAT=./pkg/kubelet GOFLAGS=-v     # Unit tests', 'make build PLATFORMS=linux/amd64 URL=https://x.io/a', 'KUBE_ROOT=../hack/lib ./hack/run.sh', '```'].join('\n'),
    );
    // (A folder without a trailing slash is a weak path of its own: reported when renamed or deleted.)
    expect(paths(rs)).toEqual(['2|./pkg/kubelet||weak', '3|linux/amd64||weak', '4|../hack/lib||weak', '4|./hack/run.sh||']);
    expect(refs('- `make build PLATFORMS=linux/amd64 WHAT=./pkg/x.go`').filter((r) => r.kind === 'path').map((r) => `${r.raw}|${r.weak ? 'weak' : ''}`)).toEqual([
      'linux/amd64|weak', './pkg/x.go|',
    ]);
  });
});

describe('placeholder script names', () => {
  it('are no script references', () => {
    for (const n of ['...', '…', '<script>', '[name]', '{script}', 'SCRIPT', 'NAME', 'TARGET']) expect(isPlaceholderScript(n)).toBe(true);
    for (const n of ['build', 'test:e2e', 'lint:CI', 'dev-server', 'e2e']) expect(isPlaceholderScript(n)).toBe(false);
    const pieces = ['pnpm run ...', 'npm run …', 'pnpm run <script>', 'yarn run [name]', 'npm run {script}', 'pnpm SCRIPT', 'make TARGET', 'make ...', 'just RECIPE'].flatMap((l) => parseCommandLine(l));
    expect(pieces.filter((p) => p.kind === 'script')).toEqual([]);
  });
});

describe('cargo -p / uv --package', () => {
  it('name the selected crate or workspace member as a package', () => {
    const rs = refs(
      '- `cargo test -p hir-ty`, `cargo build --package foo`, `cargo run -p acme-cli -- --help`, `cargo check --package=bar`, `uv run --package acme-ingest pytest`, `uv sync --package acme-api`, `uv run --with httpx python x.py`',
    );
    expect(rs.filter((r) => r.kind === 'package').map((r) => `${r.raw}|${r.tool}${r.fetched ? '|fetched' : ''}`)).toEqual([
      'hir-ty|cargo', 'foo|cargo', 'acme-cli|cargo', 'bar|cargo', 'acme-ingest|pip', 'pytest|pip', 'uv|other', 'acme-api|pip',
    ]);
  });
});

describe('end to end', () => {
  let r: Repo;
  beforeAll(async () => {
    r = await makeRepo();
    await r.write('package.json', pkg({ name: 'mono', private: true, scripts: { lint: 'eslint .' } }));
    await r.write('web/package.json', pkg({ name: 'web', scripts: { 'lint:fix': 'eslint --fix', 'type-check:tsgo': 'tsgo --noEmit', test: 'jest' } }));
    await r.write('web/app/page.tsx', 'export {};\n');
    await r.write('actionview/bin/test', '#!/bin/sh\n');
    await r.write('actionview/test/template/form_helper_test.rb', '# form helper tests\n' + 'x\n'.repeat(20));
    await r.write('apps/www/package.json', pkg({ name: 'www', scripts: { dev: 'next dev', 'generate:docs-redirects': 'tsx scripts/gen-redirects.ts' } }));
    await r.write('Makefile', '.PHONY: test-integration\ntest-integration:\n\thack/test-integration.sh $(WHAT)\n');
    await r.write('test/integration/scheduler/scheduler_test.go', 'package scheduler\n' + '// x\n'.repeat(20));
    await r.commit('init', '2025-10-01');
  });

  const memory = [
    '# Project',
    '',
    '```bash',
    'cd web',
    'pnpm lint:fix',
    'pnpm type-check:tsgo',
    'pnpm test',
    'cd ..',
    'pnpm lint',
    '```',
    '',
    '- Form helper tests: `cd actionview && bin/test test/template/form_helper_test.rb`.',
    '- Redirects are generated (run `pnpm run generate:docs-redirects` in `apps/www`).',
    '- Scheduler tests: `make test-integration WHAT=./test/integration/scheduler PLATFORM=linux/amd64`.',
    '- Any script: `pnpm run ...` or `pnpm run <script>`.',
    '',
  ].join('\n');

  it('stays quiet while everything is valid (no finding, no note)', async () => {
    await r.write('AGENTS.md', memory);
    await r.commit('memory', '2025-10-02');
    const res = await audit({ root: r.dir, now: NOW });
    expect(brief(res.findings)).toEqual([]);
  });

  it('follows the renames into the folder each command runs in, and prunes to a fixed point', async () => {
    await r.write('web/package.json', pkg({ name: 'web', scripts: { 'lint:fix': 'eslint --fix', typecheck: 'tsgo --noEmit', test: 'jest' } }));
    await r.commit('web: use tsgo for typecheck', '2026-03-01');
    const webSha = await sha7(r);
    await r.move('actionview/test/template/form_helper_test.rb', 'actionview/test/template/form_helper/form_helper_test.rb');
    await r.commit('Split form helper tests', '2026-03-02');
    const rbSha = await sha7(r);
    await r.write('apps/www/package.json', pkg({ name: 'www', scripts: { dev: 'next dev', 'generate:redirects': 'tsx scripts/gen-redirects.ts' } }));
    await r.commit('www: shorter redirects script name', '2026-03-03');
    await r.move('test/integration/scheduler', 'test/integration/scheduling');
    await r.commit('integration: rename scheduler dir', '2026-03-04');
    const res = await audit({ root: r.dir, now: NOW });
    expect(brief(res.findings)).toEqual([
      'script-missing|6|pnpm type-check:tsgo|pnpm typecheck',
      'path-renamed|12|test/template/form_helper_test.rb|test/template/form_helper/form_helper_test.rb',
      'script-missing|13|pnpm run generate:docs-redirects|pnpm run generate:redirects',
      'path-renamed|14|./test/integration/scheduler|./test/integration/scheduling',
    ]);
    expect(res.findings[0].message).toBe(
      `\`pnpm type-check:tsgo\` no longer works: the script was renamed to \`typecheck\` in ${webSha} (2026-03-01, "web: use tsgo for typecheck"); use \`pnpm typecheck\` instead.`,
    );
    expect(res.findings[1].message).toBe(
      `\`test/template/form_helper_test.rb\` (actionview/test/template/form_helper_test.rb) was renamed to \`actionview/test/template/form_helper/form_helper_test.rb\` in ${rbSha} (2026-03-02, "Split form helper tests"); update the reference.`,
    );
    expect(res.findings[2].evidence).toMatchObject({ manifest: 'apps/www/package.json', script: 'generate:docs-redirects' });

    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(first.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}`)).toEqual(['update|4', 'update|4', 'update|4', 'update|4']);
    const after = memory
      .replace('pnpm type-check:tsgo', 'pnpm typecheck')
      .replace('test/template/form_helper_test.rb`.', 'test/template/form_helper/form_helper_test.rb`. [corrected 2026-06-01]')
      .replace('generate:docs-redirects` in `apps/www`).', 'generate:redirects` in `apps/www`). [corrected 2026-06-01]')
      .replace('./test/integration/scheduler PLATFORM=linux/amd64`.', './test/integration/scheduling PLATFORM=linux/amd64`. [corrected 2026-06-01]');
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(after);
    const second = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(after);
  });
});

describe('a nested memory file running a script of another manifest', () => {
  let r: Repo;
  let sha: string;
  beforeAll(async () => {
    r = await makeRepo();
    await r.write('package.json', pkg({ name: 'pictopy', private: true, scripts: { 'version:bump': 'node scripts/bump.mjs', setup: 'node scripts/setup.mjs' } }));
    await r.write('frontend/package.json', pkg({ name: 'pictopy-frontend', scripts: { dev: 'vite', tauri: 'tauri', setup: 'vite setup' } }));
    await r.write('frontend/src-tauri/Cargo.toml', '[package]\nname = "picto_py"\nversion = "1.1.0"\n');
    await r.write('docs/package.json', pkg({ name: 'docs', scripts: { serve: 'docusaurus serve' } }));
    await r.write(
      'frontend/src-tauri/AGENTS.md',
      '# Tauri shell\n\n- Change the version only via `npm run version:bump -- X.Y.Z` from the repository root.\n- Serve the docs with `npm run serve`.\n- First run `npm run setup`.\n',
    );
    await r.commit('init', '2025-10-01');
  });

  it('is quiet while some manifest defines it', async () => {
    const res = await audit({ root: r.dir, now: NOW });
    expect(brief(res.findings)).toEqual([]);
  });

  it('is checked against the one manifest that had it, with its rename', async () => {
    await r.write('package.json', pkg({ name: 'pictopy', private: true, scripts: { bump: 'node scripts/bump.mjs', setup: 'node scripts/setup.mjs' } }));
    sha = (await r.commit('Rename version:bump to bump', '2025-12-20')).slice(0, 7);
    const res = await audit({ root: r.dir, now: NOW });
    expect(brief(res.findings)).toEqual(['script-missing|3|npm run version:bump|npm run bump']);
    expect(res.findings[0].message).toBe(
      `\`npm run version:bump\` no longer works: the script of \`package.json\` was renamed to \`bump\` in ${sha} (2025-12-20, "Rename version:bump to bump"); use \`npm run bump\` instead.`,
    );
    expect(res.findings[0].evidence).toMatchObject({ manifest: 'package.json', script: 'version:bump' });
  });

  it('keeps the nearest manifest when two manifests had the script', async () => {
    // `setup` was in the root and in frontend/: removing it from both leaves no single candidate.
    await r.write('package.json', pkg({ name: 'pictopy', private: true, scripts: { bump: 'node scripts/bump.mjs' } }));
    await r.write('frontend/package.json', pkg({ name: 'pictopy-frontend', scripts: { dev: 'vite', tauri: 'tauri' } }));
    const s = (await r.commit('Drop setup scripts', '2026-01-10')).slice(0, 7);
    const res = await audit({ root: r.dir, now: NOW });
    expect(brief(res.findings)).toEqual(['script-missing|3|npm run version:bump|npm run bump', 'script-missing|5|npm run setup|']);
    expect(res.findings[1].message).toBe(`\`npm run setup\` no longer works: the script was removed from \`frontend/package.json\` in ${s} (2026-01-10, "Drop setup scripts"); update or remove the command.`);
  });
});

describe('a memory file with no manifest of the tool up from its folder', () => {
  it('checks the command against the one manifest that ever defined it, once history shows it removed there', async () => {
    const r = await makeRepo();
    await r.write('python/Makefile', 'develop:\n\tmaturin develop\ntest:\n\tpytest\n');
    await r.write('AGENTS.md', '# lancedb\n\n- Run `make develop` after pulling.\n- Run `make test` for the suite.\n- Run `make docs` for the docs.\n');
    await r.commit('init', '2025-10-01');
    expect(brief((await audit({ root: r.dir, now: NOW })).findings)).toEqual([]);
    await r.write('python/Makefile', 'dev:\n\tmaturin develop\ntest:\n\tpytest\n');
    const sha = (await r.commit('python: rename develop target', '2026-01-10')).slice(0, 7);
    const res = await audit({ root: r.dir, now: NOW });
    // `make test` is still defined there; `make docs` no Makefile ever had: nothing to say without one in its folder
    expect(brief(res.findings)).toEqual(['script-missing|3|make develop|make dev']);
    expect(res.findings[0].message).toBe(
      `\`make develop\` no longer works: the target of \`python/Makefile\` was renamed to \`dev\` in ${sha} (2026-01-10, "python: rename develop target"); use \`make dev\` instead.`,
    );
  });
});

describe('cargo -p against the package check', () => {
  let r: Repo;
  beforeAll(async () => {
    r = await makeRepo();
    await r.write('Cargo.toml', '[workspace]\nmembers = ["crates/*"]\n');
    for (const c of ['hir-ty', 'ide']) {
      await r.write(`crates/${c}/Cargo.toml`, `[package]\nname = "${c}"\nversion = "0.0.0"\n`);
      await r.write(`crates/${c}/src/lib.rs`, '//\n');
    }
    await r.write('CLAUDE.md', '# ra\n\n- Run `cargo test -p hir-ty`.\n- Run `cargo test -p ide`.\n- Run `cargo test -p not-a-crate-here`.\n');
    await r.commit('init', '2025-10-01');
  });

  it('a live crate or a name never declared gives nothing', async () => {
    const res = await audit({ root: r.dir, now: NOW });
    expect(brief(res.findings)).toEqual([]);
  });

  it('a renamed workspace crate is reported on the selector', async () => {
    await r.move('crates/hir-ty', 'crates/hir-types');
    await r.write('crates/hir-types/Cargo.toml', '[package]\nname = "hir-types"\nversion = "0.0.0"\n');
    await r.commit('Rename hir-ty to hir-types', '2026-03-01');
    const res = await audit({ root: r.dir, now: NOW });
    expect(res.findings.map((f) => `${f.line}|${f.ref}`)).toEqual(['3|hir-ty']);
    expect(res.findings[0].kind).toMatch(/^package-(?:renamed|missing)$/);
  });
});

describe('a command folder in a nested memory file', () => {
  let r: Repo;
  beforeAll(async () => {
    r = await makeRepo();
    await r.write('src/tests/test_x.py', '# x tests\n' + 'assert True\n'.repeat(20));
    await r.commit('init', '2025-01-01');
    // The package moved from the root into packages/core: the root `src/` has history of its own.
    await r.move('src', 'packages/core/src');
    await r.write('packages/core/CLAUDE.md', '# core\n\n```bash\ncd src\npytest tests/test_x.py\n```\n\n- Run `cd src && pytest tests/test_x.py`.\n');
    await r.commit('Split core into packages/core', '2025-02-01');
  });

  it('resolves path arguments from the memory file\'s folder, not from the root', async () => {
    const res = await audit({ root: r.dir, now: NOW });
    expect(brief(res.findings)).toEqual([]);
    const rs = res.entries.flatMap((e) => e.refs).filter((x) => x.kind === 'path' && x.raw === 'tests/test_x.py');
    expect(rs.map((x) => `${x.line}|${x.base}`)).toEqual(['5|packages/core/src/', '8|packages/core/src/']);
  });

  it('writes the successor relative to the command folder', async () => {
    await r.move('packages/core/src/tests/test_x.py', 'packages/core/src/tests/test_core.py');
    await r.commit('Rename core tests', '2025-03-01');
    const res = await audit({ root: r.dir, now: NOW });
    expect(brief(res.findings)).toEqual(['path-renamed|5|tests/test_x.py|tests/test_core.py', 'path-renamed|8|tests/test_x.py|tests/test_core.py']);
  });
});
