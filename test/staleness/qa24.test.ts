// QA round 24 (real memory files: traefik, litellm, caddy, home-assistant): a prohibition governs every item of the list
// after it ("do not import `log`, `slog`, or `logrus`", "avoid `date-fns` and `moment`"), so a
// replaced package named there is not stale and is never rewritten to its successor (which would
// forbid the library the project uses); `make <word>` in running prose is the English verb when the
// Makefile never had such a target ("always make self-contained commits"); a replaced tool run
// through a runner (`uv run black --check .`, `npx jest --runInBand x`) is rewritten only when nothing
// follows it, as through a package manager; a two-segment Go package folder in a repository with a
// go.mod (`caddyconfig/httpcaddyfile`, also readable as a Composer `vendor/name`) is checked as a path.
// Real git repositories.
import { afterAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { cleanupRepos, findingRows, makeRepo, pkg } from './helpers.js';

afterAll(cleanupRepos);

const NOW = new Date('2026-06-01T00:00:00Z');

describe('prohibitions over lists', () => {
  it('leave every item of the list alone, in Go and npm projects; prune changes nothing', async () => {
    const r = await makeRepo();
    const gomod = (dep: string) => `module github.com/acme/proxy\n\ngo 1.24.0\n\nrequire (\n\t${dep}\n)\n`;
    await r.write('go.mod', gomod('github.com/sirupsen/logrus v1.9.0'));
    await r.write('web/package.json', pkg({ name: 'web', dependencies: { moment: '^2.29.0' } }));
    await r.commit('init', '2025-03-01');
    await r.write('go.mod', gomod('github.com/rs/zerolog v1.33.0'));
    await r.write('web/package.json', pkg({ name: 'web', dependencies: { dayjs: '^1.11.0' } }));
    await r.commit('Use zerolog instead of logrus, dayjs instead of moment', '2025-04-01');
    const memory = [
      '# AGENTS.md',
      '',
      '- Logging uses `github.com/rs/zerolog` exclusively — do not import `log`, `slog`, or `logrus`.',
      '- Do not use `log`, `slog`, or `logrus` directly.',
      '- Never import `moment`; use `dayjs`.',
      '- Dates: use `dayjs`. Do not use `Date` math, `luxon`, or `moment`.',
      '- Avoid `date-fns` and `moment` in new code.',
      '- Format timestamps with `moment` in the web app.',
      '- Do not import `moment` directly; go through `web/time.ts`.',
      '',
    ].join('\n');
    await r.write('AGENTS.md', memory);
    await r.commit('Add AGENTS.md', '2025-09-01');
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    // only the line that uses the old library is stale
    // "do not import `moment` directly" is a rule about reaching the library in use: checked
    expect(findingRows(report, (f) => f.kind.startsWith('package'))).toEqual(['package-renamed|8|moment|dayjs', 'package-renamed|9|moment|dayjs']);
    await runPrune({ root: r.dir, now: NOW, write: true });
    const after = await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8');
    expect(after.split('\n').slice(0, 7)).toEqual(memory.split('\n').slice(0, 7));
    expect(after).toContain('- Format timestamps with `dayjs` in the web app. [corrected 2026-06-01]');
  });
});

describe('make in running prose', () => {
  it('is the English verb when the Makefile never had the target; a removed target is still reported', async () => {
    const r = await makeRepo();
    await r.write('Makefile', '.PHONY: lint lint-any docs-build\nlint:\n\truff check .\nlint-any:\n\tpython scripts/check_any.py\ndocs-build:\n\tmkdocs build\n');
    await r.commit('init', '2025-10-01');
    await r.write('Makefile', '.PHONY: lint lint-any\nlint:\n\truff check .\nlint-any:\n\tpython scripts/check_any.py\n');
    await r.commit('Drop the docs build', '2025-11-01');
    const memory = [
      '# Conventions',
      '',
      '- If you ever make public-facing PR descriptions, keep them short.',
      '- Always make self-contained commits.',
      '- Do not make user-facing changes without a changelog entry.',
      '- We make non-breaking releases on minor versions.',
      '- Run make lint-any before pushing.',
      '- Build the docs with make docs-build.',
      '',
    ].join('\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('memory', '2025-11-02');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'script-missing')).toEqual(['script-missing|8|make docs-build|']);
    const res = await runPrune({ root: r.dir, now: NOW, write: false });
    expect(res.diff).not.toContain('self-contained');
  });
});

describe('replaced tools run through a runner', () => {
  it('are rewritten only when nothing follows them; with arguments the entry goes to review', async () => {
    const r = await makeRepo();
    await r.write('pyproject.toml', '[project]\nname = "app"\nversion = "0.1.0"\n\n[dependency-groups]\ndev = ["black>=24.1.0"]\n');
    await r.write('package.json', pkg({ name: 'web', private: true, devDependencies: { jest: '^29.0.0' } }));
    const memory = [
      '# Dev',
      '',
      '- Check formatting with `uv run black --check .` before pushing.',
      '- Format: `poetry run black src tests`',
      '- Run one web test: `npx jest --runInBand src/a.test.ts`',
      '- Format notebooks: `uvx black --ipynb notebooks/`',
      '- Run one web test: `pnpm exec jest --ci`',
      '- Format everything with `uv run black`.',
      '- Run the web tests with `npx jest`.',
      '',
    ].join('\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-01-01');
    await r.write('pyproject.toml', '[project]\nname = "app"\nversion = "0.1.0"\n\n[dependency-groups]\ndev = ["ruff>=0.6.0"]\n');
    await r.write('package.json', pkg({ name: 'web', private: true, devDependencies: { vitest: '^3.2.0' } }));
    await r.commit('Replace black with ruff, jest with vitest', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('package'))).toEqual([
      'package-renamed|3|black|',
      'package-renamed|4|black|',
      'package-renamed|5|jest|',
      'package-renamed|6|black|',
      'package-renamed|7|jest|',
      'package-renamed|8|black|ruff',
      'package-renamed|9|jest|vitest',
    ]);
    await runPrune({ root: r.dir, now: NOW, write: true });
    const after = await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8');
    expect(after.split('\n').slice(0, 7)).toEqual(memory.split('\n').slice(0, 7));
    expect(after).toContain('- Format everything with `uv run ruff`. [corrected 2026-06-01]');
    expect(after).toContain('- Run the web tests with `npx vitest`. [corrected 2026-06-01]');
  });
});

describe('Go package folders written without a slash', () => {
  it('are checked as paths in a repository with a go.mod', async () => {
    const r = await makeRepo();
    await r.write('go.mod', 'module github.com/caddyserver/caddy/v2\n\ngo 1.24\n');
    for (const f of ['caddyconfig/httpcaddyfile/httptype.go', 'pkg/legacy/legacy.go', 'cmd/caddy/main.go']) await r.write(f, 'package x\n');
    await r.write(
      'AGENTS.md',
      ['# Guide', '', '- Caddyfile → JSON via `caddyconfig/httpcaddyfile`.', '- Old helpers are in `pkg/legacy`; keep them small.', '- The CLI is `cmd/caddy`.', ''].join('\n'),
    );
    await r.commit('init', '2025-10-01');
    await r.move('caddyconfig/httpcaddyfile', 'caddyconfig/caddyfilehttp');
    await r.remove('pkg/legacy');
    await r.commit('refactor: rename packages', '2026-01-10');
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('path'))).toEqual([
      'path-renamed|3|caddyconfig/httpcaddyfile|caddyconfig/caddyfilehttp',
      'path-missing|4|pkg/legacy|',
    ]);
  });
});

describe('a file named through a workspace package (tldraw)', () => {
  it('is looked up in that package folder: present says nothing, renamed is reported there', async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: '@tldraw/monorepo', private: true, workspaces: ['packages/*'] }));
    await r.write('packages/editor/package.json', pkg({ name: '@tldraw/editor', version: '3.15.0' }));
    await r.write('packages/editor/editor.css', '.tl{}\n');
    await r.write('packages/editor/theme.css', '.t{}\n');
    await r.write('packages/app/package.json', pkg({ name: 'app', dependencies: { '@types/react': '^18.0.0' } }));
    await r.write(
      'CLAUDE.md',
      ['# CLAUDE.md', '', "- Import CSS: `import '@tldraw/editor/editor.css'` (editor only).", '- Theme: `@tldraw/editor/theme.css`.', '- Types: `@types/react/index.d.ts`.', ''].join('\n'),
    );
    await r.commit('init', '2025-09-01');
    await r.move('packages/editor/theme.css', 'packages/editor/themes.css');
    await r.commit('Rename the theme', '2026-01-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind.startsWith('path'))).toEqual(['path-renamed|4|@tldraw/editor/theme.css|@tldraw/editor/themes.css']);
  });
});

