// Python task runners (QA10 scenario 06): `hatch run [env:]x`, `poe x`, `pdm run x`, and
// `uv run x` / `poetry run x` for `[project.scripts]` / `[tool.poetry.scripts]` entry points,
// checked against pyproject.toml (and hatch.toml) and their history like npm scripts against
// package.json: a renamed script is `script-missing` with its successor. Runners that run any
// executable (Hatch, PDM, uv, Poetry) are reported only on history showing the name was theirs
// and was removed. Real git repositories in temp folders, audited end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { parseCommandLine } from '../../src/memory/refs/commands.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');

afterAll(cleanupRepos);

const rows = (r: Report) => findingRows(r, (f) => f.kind === 'script-missing');
const short = async (r: Repo) => (await r.git.revparse(['HEAD'])).trim().slice(0, 7);

describe('renamed Hatch, Poe and PDM scripts and entry points', () => {
  const pyproject = (v: Record<string, string>) =>
    [
      '[project]',
      'name = "acme"',
      'dependencies = ["httpx>=0.27", "black"]',
      '[project.scripts]',
      `${v.server} = "acme.server:main"`,
      'acme-worker = "acme.worker:main"',
      '[tool.poetry.scripts]',
      `${v.cli} = "acme.cli:run"`,
      '',
      '[tool.hatch.envs.default.scripts]',
      `${v.fmt} = "ruff format ."`,
      'check = "ruff check ."',
      '[tool.hatch.envs.test]',
      'dependencies = ["pytest"]',
      '[[tool.hatch.envs.test.matrix]]',
      'python = ["3.11", "3.12"]',
      '[tool.hatch.envs.test.scripts]',
      `${v.cov} = "pytest --cov"`,
      '[tool.hatch.envs.lint.scripts]',
      `${v.typing} = "mypy src"`,
      '',
      '[tool.poe.tasks]',
      `${v.docs} = "mkdocs serve"`,
      'build-docs = { cmd = "mkdocs build" }',
      '',
      '[tool.pdm.scripts]',
      `${v.test} = "pytest"`,
      ...(v.gone ? [`${v.gone} = "python tools/seed.py"`] : []),
      ...(v.black ? [`${v.black} = "black ."`] : []),
      ...(v.worker ? [`${v.worker} = "python -m acme.worker"`] : []),
      '',
    ].join('\n');
  const before = { server: 'acme-server', cli: 'acme-cli', fmt: 'fmt', cov: 'cov', typing: 'typing', docs: 'docs', test: 'test', gone: 'seed', black: 'black', worker: 'acme-worker' };
  const after = { server: 'acme-api', cli: 'acme', fmt: 'format', cov: 'coverage', typing: 'types', docs: 'serve-docs', test: 'tests', gone: '', black: '', worker: '' };
  const memory = [
    '# Workflow',
    '',
    '- Run `hatch run test:cov` for coverage; type-check with `hatch run lint:typing`.',
    '- Format with `hatch run fmt`; coverage on one Python: `hatch run test.py3.12:cov`.',
    '- Serve the docs with `poe docs`; run tests with `pdm run test`.',
    '- Start the API locally with `uv run acme-server`; the CLI is `poetry run acme-cli`.',
    '- Seed the database with `pdm run seed`.',
    '- Lint with `uv run ruff check .` and `uv run pytest -x`; `poetry run python -m acme` starts it too.',
    '- `pdm run black` formats; `pdm run acme-worker` starts the worker; `pdm run mypy src` type-checks.',
    '- Build the docs with `poe build-docs`; `hatch run test:check` lints in the test env.',
    '- `hatch run hatch-test:run` is Hatch\'s own test env.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let sha: string;

  beforeAll(async () => {
    r = await makeRepo('ma-pyrun-');
    await r.write('pyproject.toml', pyproject(before));
    await r.write('src/acme/server.py', 'def main(): ...\n');
    await r.write('AGENTS.md', memory);
    await r.commit('Add AGENTS.md', '2025-10-01');
    await r.write('pyproject.toml', pyproject(after));
    await r.commit('Rename the scripts, drop seed', '2026-02-01');
    sha = await short(r);
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports each renamed script, task and entry point with its successor, and nothing else', () => {
    expect(rows(report)).toEqual([
      `script-missing|${l('hatch run lint:typing')}|hatch run lint:typing|hatch run lint:types`,
      `script-missing|${l('hatch run test:cov')}|hatch run test:cov|hatch run test:coverage`,
      `script-missing|${l('hatch run fmt')}|hatch run fmt|hatch run format`,
      `script-missing|${l('hatch run fmt')}|hatch run test.py3.12:cov|hatch run test.py3.12:coverage`,
      `script-missing|${l('poe docs')}|pdm run test|pdm run tests`,
      `script-missing|${l('poe docs')}|poe docs|poe serve-docs`,
      `script-missing|${l('uv run acme-server')}|poetry run acme-cli|poetry run acme`,
      `script-missing|${l('uv run acme-server')}|uv run acme-server|uv run acme-api`,
      `script-missing|${l('pdm run seed')}|pdm run seed|`,
    ]);
  });

  it('says what was renamed or removed, where and when', () => {
    const msg = (ref: string) => report.findings.find((f) => f.ref === ref)?.message;
    expect(msg('poe docs')).toBe(
      `\`poe docs\` no longer works: the task was renamed to \`serve-docs\` in ${sha} (2026-02-01, "Rename the scripts, drop seed"); use \`poe serve-docs\` instead.`,
    );
    expect(msg('uv run acme-server')).toBe(
      `\`uv run acme-server\` no longer works: the entry point was renamed to \`acme-api\` in ${sha} (2026-02-01, "Rename the scripts, drop seed"); use \`uv run acme-api\` instead.`,
    );
    expect(msg('hatch run test:cov')).toBe(
      `\`hatch run test:cov\` no longer works: the script was renamed to \`test:coverage\` in ${sha} (2026-02-01, "Rename the scripts, drop seed"); use \`hatch run test:coverage\` instead.`,
    );
    expect(msg('pdm run seed')).toBe(
      `\`pdm run seed\` no longer works: the script was removed from \`pyproject.toml\` in ${sha} (2026-02-01, "Rename the scripts, drop seed"); update or remove the command.`,
    );
  });

  it('corrects the lines in place; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true, memory: ['AGENTS.md'] });
    expect(res.plan.find((p) => p.line === l('poe docs'))).toMatchObject({ action: 'update', rule: 4 });
    expect(res.plan.find((p) => p.line === l('pdm run seed'))).toMatchObject({ action: 'delete', rule: 4 });
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(
      [
        '# Workflow',
        '',
        '- Run `hatch run test:coverage` for coverage; type-check with `hatch run lint:types`. [corrected 2026-06-01]',
        '- Format with `hatch run format`; coverage on one Python: `hatch run test.py3.12:coverage`. [corrected 2026-06-01]',
        '- Serve the docs with `poe serve-docs`; run tests with `pdm run tests`. [corrected 2026-06-01]',
        '- Start the API locally with `uv run acme-api`; the CLI is `poetry run acme`. [corrected 2026-06-01]',
        '- Lint with `uv run ruff check .` and `uv run pytest -x`; `poetry run python -m acme` starts it too.',
        '- `pdm run black` formats; `pdm run acme-worker` starts the worker; `pdm run mypy src` type-checks.',
        '- Build the docs with `poe build-docs`; `hatch run test:check` lints in the test env.',
        '- `hatch run hatch-test:run` is Hatch\'s own test env.',
        '',
      ].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: false, memory: ['AGENTS.md'] })).changes).toEqual([]);
  });
});

describe('Python runners: configuration that is open, elsewhere or missing', () => {
  it('hatch.toml: renamed there is reported; moved there from pyproject.toml is not', async () => {
    const r = await makeRepo('ma-pyrun-');
    await r.write('pyproject.toml', '[project]\nname = "acme"\n[tool.hatch.envs.docs.scripts]\nbuild = "mkdocs build"\n');
    await r.write('hatch.toml', '[envs.test.scripts]\ncov = "pytest --cov"\n');
    await r.write('CLAUDE.md', '- Coverage: `hatch run test:cov`.\n- Docs: `hatch run docs:build`.\n');
    await r.commit('init', '2025-10-01');
    await r.write('pyproject.toml', '[project]\nname = "acme"\n');
    await r.write('hatch.toml', '[envs.test.scripts]\ncoverage = "pytest --cov"\n[envs.docs.scripts]\nbuild = "mkdocs build"\n');
    await r.commit('Move docs scripts to hatch.toml, rename cov', '2026-01-10');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual(['script-missing|1|hatch run test:cov|hatch run test:coverage']);
  });

  it('Poe: an included task file or a poe_tasks file opens the table; a complete one reports a task it never had', async () => {
    const r = await makeRepo('ma-pyrun-');
    await r.write('pyproject.toml', '[project]\nname = "acme"\n[tool.poe.tasks]\nlint = "ruff check ."\n');
    await r.write('CLAUDE.md', '- Check with `poe check`; lint with `poe lint`.\n');
    await r.commit('init', '2025-10-01');
    let { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual(['script-missing|1|poe check|']);
    expect(report.findings.find((f) => f.ref === 'poe check')?.message).toBe(
      '`poe check` does not work: `pyproject.toml` defines no `check` task; update or remove the command.',
    );
    await r.write('poe_tasks.toml', '[tasks]\ncheck = "ruff check ."\n');
    await r.commit('tasks file', '2025-10-02');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
    expect(rows(report)).toEqual([]);
    await r.remove('poe_tasks.toml');
    await r.write('pyproject.toml', '[project]\nname = "acme"\n[tool.poe]\ninclude = "tasks/*.toml"\n[tool.poe.tasks]\nlint = "ruff check ."\n');
    await r.commit('include', '2025-10-03');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
    expect(rows(report)).toEqual([]);
  });

  it('no pyproject, or runners that run any command with a name never theirs: nothing', async () => {
    const r = await makeRepo('ma-pyrun-');
    await r.write('CLAUDE.md', '- `poe docs`, `hatch run test:cov`, `pdm run test`, `uv run acme-server`.\n');
    await r.commit('init', '2025-10-01');
    let { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual([]);
    await r.write('pyproject.toml', '[project]\nname = "acme"\n[tool.pdm.scripts]\nlint = "ruff check ."\n[tool.hatch.envs.test.scripts]\nunit = "pytest"\n');
    await r.write('CLAUDE.md', '- `hatch run test:cov`, `pdm run test`, `uv run acme-server`, `poetry run acme`.\n');
    await r.commit('pyproject', '2025-10-02');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
    expect(rows(report)).toEqual([]);
  });

  it('`hatch -e env run x` uses that env; `uv run poe x` is the poe task', async () => {
    const r = await makeRepo('ma-pyrun-');
    const py = (cov: string, docs: string) => `[project]\nname = "acme"\n[tool.hatch.envs.test.scripts]\n${cov} = "pytest --cov"\n[tool.poe.tasks]\n${docs} = "mkdocs serve"\n`;
    await r.write('pyproject.toml', py('cov', 'docs'));
    await r.write('CLAUDE.md', '- Coverage: `hatch -e test run cov`.\n- Docs: `uv run poe docs`.\n');
    await r.commit('init', '2025-10-01');
    await r.write('pyproject.toml', py('coverage', 'serve-docs'));
    await r.commit('rename', '2026-01-10');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual(['script-missing|1|hatch -e test run cov|hatch -e test run coverage', 'script-missing|2|poe docs|poe serve-docs']);
  });

  it('uv workspace: an entry point renamed in a member is reported from the root; one still defined by another member is not', async () => {
    const r = await makeRepo('ma-pyrun-');
    await r.write('pyproject.toml', '[project]\nname = "acme"\n[tool.uv.workspace]\nmembers = ["packages/*"]\n');
    await r.write('packages/api/pyproject.toml', '[project]\nname = "acme-api"\n[project.scripts]\nacme-serve = "acme_api.main:run"\nacme-admin = "acme_api.admin:run"\n');
    await r.write('packages/tools/pyproject.toml', '[project]\nname = "acme-tools"\n');
    await r.write('CLAUDE.md', '- Serve: `uv run acme-serve`; admin: `uv run acme-admin`.\n');
    await r.commit('init', '2025-10-01');
    await r.write('packages/api/pyproject.toml', '[project]\nname = "acme-api"\n[project.scripts]\nacme-api = "acme_api.main:run"\n');
    await r.write('packages/tools/pyproject.toml', '[project]\nname = "acme-tools"\n[project.scripts]\nacme-admin = "acme_api.admin:run"\n');
    await r.commit('Rename acme-serve, move acme-admin', '2026-01-10');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual(['script-missing|1|uv run acme-serve|uv run acme-api']);
  });
});

describe('Python runner commands as script pieces', () => {
  const scripts = (line: string) =>
    parseCommandLine(line)
      .filter((p) => p.kind === 'script')
      .map((p) => `${p.value}|${p.script}|${p.workspace ?? ''}|${line.slice(p.start, p.end)}`);

  it('reads the runner, the env and the name; skips other projects, the interpreter and script files', () => {
    expect(scripts('hatch run test:cov')).toEqual(['hatch run test:cov|test:cov||hatch run test:cov']);
    expect(scripts('hatch -e test run cov -- -x')).toEqual(['hatch run cov|cov|test|hatch -e test run cov']);
    expect(scripts('HATCH_ENV=lint hatch run +py=3.12 typing')).toEqual(['hatch run typing|typing|lint|hatch run +py=3.12 typing']);
    expect(scripts('uv run --with httpx poe docs')).toEqual(['poe docs|docs||poe docs']);
    expect(scripts('poe -q docs')).toEqual(['poe docs|docs||poe -q docs']);
    expect(scripts('pdm run -s test')).toEqual(['pdm run test|test||pdm run -s test']);
    expect(scripts('poetry run acme-cli serve')).toEqual(['poetry run acme-cli|acme-cli||poetry run acme-cli']);
    for (const line of ['uv run --project ../other acme-server', 'pdm run -p sub test', 'poe -C docs build', 'uv run python -m acme', 'uv run tools/x.py', 'uv run seed.py', 'pdm run --list', 'uv sync', 'hatch env create', 'poe <task>'])
      expect(scripts(line)).toEqual([]);
  });
});
