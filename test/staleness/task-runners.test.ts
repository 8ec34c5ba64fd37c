// Composer scripts, Deno tasks and go-task tasks: `composer [run-script] x` against composer.json
// `scripts`, `deno task x` against deno.json / deno.jsonc `tasks`, `task x` against the Taskfile
// (its includes as `ns:x`), checked like npm scripts against package.json, with history: a task
// renamed in a commit is `script-missing` with its successor, and prune rewrites the command.
// Files that are absent, unreadable or open (an include not read, a Deno workspace member) say
// nothing. Real git repositories in temp folders, audited end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { parseCommandLine } from '../../src/memory/refs/commands.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, pkg, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');

afterAll(cleanupRepos);

const rows = (r: Report) => findingRows(r, (f) => f.kind === 'script-missing');
const short = async (r: Repo) => (await r.git.revparse(['HEAD'])).trim().slice(0, 7);
const msg = (r: Report, ref: string) => r.findings.find((f) => f.ref === ref)?.message;

describe('renamed Composer scripts, Deno tasks and go-task tasks', () => {
  const composer = (v: { unit: string; lint: string; seed: boolean }) =>
    pkg({
      name: 'acme/app',
      require: { php: '^8.2', 'monolog/monolog': '^3.0' },
      scripts: { [v.unit]: 'phpunit --testsuite unit', [v.lint]: ['phpcs src', 'phpstan analyse'], ...(v.seed ? { seed: 'php bin/seed.php' } : {}) },
    });
  const deno = (dev: string) => `{\n  // Deno tasks\n  "tasks": {\n    "${dev}": "deno run --watch main.ts",\n    "build": { "command": "deno compile main.ts", },\n  },\n}\n`;
  const taskfile = (build: string) => `version: '3'\nincludes:\n  docs: ./docs\ntasks:\n  ${build}:\n    cmds:\n      - go build ./...\n  test: go test ./...\n`;
  const docsTaskfile = (build: string) => `version: '3'\ntasks:\n  ${build}:\n    cmds:\n      - mkdocs build --strict\n`;
  const memory = [
    '# Workflow',
    '',
    '- Unit tests: `composer test:unit`; lint with `composer run-script lint`.',
    '- Seed the database with `composer seed`.',
    '- Start the web app with `deno task --cwd web dev`.',
    '- Build with `task build`; the docs with `task docs:build`.',
    '- In the API folder: `cd api && composer run test:unit`.',
    '- Each task runs in CI; `composer install` and `task test` set things up.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let sha: string;

  beforeAll(async () => {
    r = await makeRepo('ma-taskrun-');
    await r.write('composer.json', composer({ unit: 'test:unit', lint: 'lint', seed: true }));
    await r.write('api/composer.json', pkg({ name: 'acme/api', scripts: { 'test:unit': 'phpunit' } }));
    await r.write('web/deno.jsonc', deno('dev'));
    await r.write('Taskfile.yml', taskfile('build'));
    await r.write('docs/Taskfile.yml', docsTaskfile('build'));
    await r.write('CLAUDE.md', memory);
    await r.commit('Add CLAUDE.md', '2025-10-01');
    await r.write('composer.json', composer({ unit: 'unit', lint: 'phpcs', seed: false }));
    await r.write('web/deno.jsonc', deno('start'));
    await r.write('Taskfile.yml', taskfile('compile'));
    await r.write('docs/Taskfile.yml', docsTaskfile('html'));
    await r.commit('Rename the tasks, drop seed', '2026-02-01');
    sha = await short(r);
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports each renamed script and task with its successor, and nothing else', () => {
    expect(rows(report)).toEqual([
      `script-missing|${l('composer test:unit')}|composer run-script lint|composer run-script phpcs`,
      `script-missing|${l('composer test:unit')}|composer test:unit|composer unit`,
      `script-missing|${l('composer seed')}|composer seed|`,
      `script-missing|${l('deno task')}|deno task --cwd web dev|deno task --cwd web start`,
      `script-missing|${l('task build')}|task build|task compile`,
      `script-missing|${l('task build')}|task docs:build|task docs:html`,
    ]);
    expect(report.findings.filter((f) => f.kind !== 'script-missing').map((f) => `${f.kind}|${f.line}|${f.ref}`)).toEqual([]);
  });

  it('says what was renamed or removed, where and when', () => {
    const when = `${sha} (2026-02-01, "Rename the tasks, drop seed")`;
    expect(msg(report, 'composer test:unit')).toBe(`\`composer test:unit\` no longer works: the script was renamed to \`unit\` in ${when}; use \`composer unit\` instead.`);
    expect(msg(report, 'composer run-script lint')).toBe(
      `\`composer run-script lint\` no longer works: the script was renamed to \`phpcs\` in ${when}; use \`composer run-script phpcs\` instead.`,
    );
    expect(msg(report, 'composer seed')).toBe(`\`composer seed\` no longer works: the script was removed from \`composer.json\` in ${when}; update or remove the command.`);
    expect(msg(report, 'deno task --cwd web dev')).toBe(
      `\`deno task --cwd web dev\` no longer works: the task was renamed to \`start\` in ${when}; use \`deno task --cwd web start\` instead.`,
    );
    expect(msg(report, 'task build')).toBe(`\`task build\` no longer works: the task was renamed to \`compile\` in ${when}; use \`task compile\` instead.`);
    expect(msg(report, 'task docs:build')).toBe(`\`task docs:build\` no longer works: the task was renamed to \`docs:html\` in ${when}; use \`task docs:html\` instead.`);
    const f = report.findings.find((x) => x.ref === 'task docs:build')!;
    expect(f.evidence).toMatchObject({ manifest: 'docs/Taskfile.yml', now: 'Taskfile.yml', script: 'docs:build' });
  });

  it('corrects the lines in place; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true, memory: ['CLAUDE.md'] });
    expect(res.plan.find((p) => p.line === l('task build'))).toMatchObject({ action: 'update', rule: 4 });
    expect(res.plan.find((p) => p.line === l('composer seed'))).toMatchObject({ action: 'delete', rule: 4 });
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(
      [
        '# Workflow',
        '',
        '- Unit tests: `composer unit`; lint with `composer run-script phpcs`. [corrected 2026-06-01]',
        '- Start the web app with `deno task --cwd web start`. [corrected 2026-06-01]',
        '- Build with `task compile`; the docs with `task docs:html`. [corrected 2026-06-01]',
        '- In the API folder: `cd api && composer run test:unit`.',
        '- Each task runs in CI; `composer install` and `task test` set things up.',
        '',
      ].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: false, memory: ['CLAUDE.md'] })).changes).toEqual([]);
  });
});

describe('Composer, Deno and go-task: a healthy repository', () => {
  it('says nothing of defined scripts, aliases, includes, wildcards, listings, built-ins and prose', async () => {
    const r = await makeRepo('ma-taskrun-');
    await r.write(
      'composer.json',
      pkg({
        name: 'acme/app',
        require: { php: '^8.2' },
        scripts: { test: ['@cs:check', 'phpunit'], 'cs:check': 'php-cs-fixer fix --dry-run', 'cs:fix': 'php-cs-fixer fix', 'post-install-cmd': 'php bin/setup.php' },
        'scripts-descriptions': { test: 'Runs the tests' },
        'scripts-aliases': { 'cs:fix': ['fix'] },
      }),
    );
    await r.write('deno.jsonc', '{\n  /* tasks */\n  "tasks": {\n    "dev": "deno run -A main.ts", // watch\n    "build": { "command": "deno compile main.ts", "description": "Build" },\n  },\n}\n');
    await r.write('package.json', pkg({ name: 'acme-web', private: true, scripts: { lint: 'eslint .' } }));
    await r.write(
      'Taskfile.yml',
      [
        "version: '3'",
        'includes:',
        '  docs: ./docs',
        '  api:',
        '    taskfile: ./services/api',
        '    aliases: [a]',
        '  shared:',
        "    taskfile: '{{.ROOT_DIR}}/shared/Taskfile.yml'",
        '  remote: https://example.com/Taskfile.yml',
        'tasks:',
        '  default: task --list',
        '  build:',
        '    aliases: [b]',
        '    cmds: [go build ./...]',
        "  'gen:*':",
        "    cmds: ['go generate ./{{index .MATCH 0}}']",
        '',
      ].join('\n'),
    );
    await r.write('docs/Taskfile.yml', "version: '3'\ntasks:\n  default: mkdocs serve\n  html: mkdocs build\n");
    await r.write('services/api/Taskfile.yaml', "version: '3'\ntasks:\n  serve: go run ./cmd/api\n");
    await r.write(
      'CLAUDE.md',
      [
        '# Workflow',
        '',
        '- Tests: `composer test`; style: `composer run-script cs:fix`, or `composer fix`, `composer run post-install-cmd`.',
        '- Set up with `composer install`; add packages with `composer require monolog/monolog`; `composer dump` regenerates the autoloader.',
        '- `composer normalize` and `composer global require laravel/installer`, `composer exec phpstan` and `composer cs` work too.',
        '- Deno: `deno task dev`, `deno task build`, `deno task lint`; `deno task` lists them; `deno task --eval "echo hi"`; `deno task -r test`.',
        '- go-task: `task build`, `task b`, `task docs`, `task docs:html`, `task api:serve`, `task a:serve`, `task gen:client`.',
        '- Included from variables or URLs: `task shared:deploy`, `task remote:lint`.',
        '- `task --list`, `task -l`, `task` alone runs the default.',
        '- Each task runs in its own folder, and the task list is long: task build logs go to `out/`.',
        '',
        '```sh',
        'task build docs:html',
        'composer test',
        'deno task dev',
        '```',
        '',
      ].join('\n'),
    );
    await r.commit('init', '2025-10-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual([]);
    // The same commands with names nothing defines are read and checked.
    await r.write('CLAUDE.md', '- `composer run nope`, `deno task nope`, `task nope`, `task docs:nope`, `task a:nope`.\n');
    await r.commit('control', '2025-10-02');
    const control = (await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW })).report;
    expect(rows(control)).toEqual([
      'script-missing|1|composer run nope|',
      'script-missing|1|deno task nope|',
      'script-missing|1|task a:nope|',
      'script-missing|1|task docs:nope|',
      'script-missing|1|task nope|',
    ]);
  });
});

describe('Composer, Deno and go-task: never defined, open, unreadable', () => {
  it('a name the file never had: reported when only scripts or tasks can run it', async () => {
    const r = await makeRepo('ma-taskrun-');
    await r.write('composer.json', pkg({ name: 'acme/app', scripts: { test: 'phpunit' } }));
    await r.write('deno.json', pkg({ tasks: { dev: 'deno run main.ts' } }));
    await r.write('Taskfile.yml', "version: '3'\ntasks:\n  build: go build ./...\n");
    await r.write('CLAUDE.md', '- `composer run-script deploy`, `composer deploy`.\n- `deno task serve`.\n- `task deploy`.\n');
    await r.commit('init', '2025-10-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual(['script-missing|1|composer run-script deploy|', 'script-missing|2|deno task serve|', 'script-missing|3|task deploy|']);
    expect(msg(report, 'composer run-script deploy')).toBe('`composer run-script deploy` does not work: `composer.json` defines no `deploy` script; update or remove the command.');
    expect(msg(report, 'deno task serve')).toBe('`deno task serve` does not work: `deno.json` defines no `serve` task; update or remove the command.');
    expect(msg(report, 'task deploy')).toBe('`task deploy` does not work: `Taskfile.yml` defines no `deploy` task; update or remove the command.');
  });

  it('`task x` that a pyproject defines may be taskipy\'s: nothing', async () => {
    const r = await makeRepo('ma-taskrun-');
    await r.write('pyproject.toml', '[project]\nname = "acme"\n[tool.taskipy.tasks]\nlint = "ruff check ."\n');
    await r.write('Taskfile.yml', "version: '3'\ntasks:\n  build: go build ./...\n");
    await r.write('CLAUDE.md', '- `task lint`, `task deploy`.\n');
    await r.commit('init', '2025-10-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual(['script-missing|1|task deploy|']);
  });

  it('an include that cannot be read opens its namespace; flattened, the whole Taskfile', async () => {
    const r = await makeRepo('ma-taskrun-');
    await r.write('Taskfile.yml', "version: '3'\nincludes:\n  ops: '{{.OPS_DIR}}/Taskfile.yml'\n  local:\n    taskfile: ./Taskfile.local.yml\n    optional: true\ntasks:\n  build: go build ./...\n");
    await r.write('CLAUDE.md', '- `task ops:deploy`, `task local:seed`, `task deploy`.\n');
    await r.commit('init', '2025-10-01');
    let { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual(['script-missing|1|task deploy|']);
    await r.write('Taskfile.yml', "version: '3'\nincludes:\n  shared:\n    taskfile: https://example.com/Taskfile.yml\n    flatten: true\ntasks:\n  build: go build ./...\n");
    await r.commit('flatten a remote Taskfile', '2025-10-02');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
    expect(rows(report)).toEqual([]);
  });

  it('a Deno workspace member is open; its root is not', async () => {
    const r = await makeRepo('ma-taskrun-');
    await r.write('deno.json', pkg({ workspace: ['./app'], tasks: { check: 'deno check' } }));
    await r.write('app/deno.json', pkg({ tasks: { dev: 'deno run main.ts' } }));
    await r.write('CLAUDE.md', '- `deno task --cwd app serve`; `deno task serve`.\n');
    await r.commit('init', '2025-10-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual(['script-missing|1|deno task serve|']);
  });

  it('no file, or one that cannot be read: nothing', async () => {
    const r = await makeRepo('ma-taskrun-');
    await r.write('CLAUDE.md', '- `composer run-script deploy`, `deno task serve`, `task deploy`.\n');
    await r.commit('init', '2025-10-01');
    let { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual([]);
    await r.write('composer.json', '{ "scripts": { "test": "phpunit" }, }\n');
    await r.write('deno.json', '{ "tasks": { "dev": \n');
    await r.write('Taskfile.yml', "version: '3'\ntasks:\n  build: [go build\n");
    await r.commit('broken files', '2025-10-02');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
    expect(rows(report)).toEqual([]);
  });

  it('a task removed from an included Taskfile names that file', async () => {
    const r = await makeRepo('ma-taskrun-');
    await r.write('Taskfile.yml', "version: '3'\nincludes:\n  db: ./db/tasks.yml\n");
    await r.write('db/tasks.yml', "version: '3'\ntasks:\n  migrate: goose up\n  seed: go run ./cmd/seed\n");
    await r.write('db/Taskfile.yml', "version: '3'\ntasks:\n  reset: goose reset\n  drop: goose down-to 0\n");
    await r.write('CLAUDE.md', '- `task db:seed` fills the database; `task -d db reset` empties it.\n');
    await r.commit('init', '2025-10-01');
    await r.write('db/tasks.yml', "version: '3'\ntasks:\n  migrate: goose up\n");
    await r.write('db/Taskfile.yml', "version: '3'\ntasks:\n  drop: goose down-to 0\n");
    await r.commit('Drop seed and reset', '2026-01-10');
    const sha = await short(r);
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual(['script-missing|1|task -d db reset|', 'script-missing|1|task db:seed|']);
    // db/tasks.yml is no Taskfile by name: read at HEAD through the include, without history.
    expect(msg(report, 'task db:seed')).toBe('`task db:seed` does not work: `Taskfile.yml` defines no `db:seed` task; update or remove the command.');
    expect(msg(report, 'task -d db reset')).toBe(
      `\`task -d db reset\` no longer works: the task was removed from \`db/Taskfile.yml\` in ${sha} (2026-01-10, "Drop seed and reset"); update or remove the command.`,
    );
  });
});

describe('Composer, Deno and go-task commands as script pieces', () => {
  const scripts = (line: string) =>
    parseCommandLine(line)
      .filter((p) => p.kind === 'script')
      .map((p) => `${p.tool}|${p.value}|${p.script}|${p.cwd ?? ''}|${p.makefile ?? ''}|${line.slice(p.start, p.end)}`);

  it('reads the name, the folder and the file; skips built-ins, listings and other projects', () => {
    expect(scripts('composer test:unit -- --filter x')).toEqual(['composer|composer test:unit|test:unit|||composer test:unit']);
    expect(scripts('composer run-script --timeout 0 lint')).toEqual(['composer|composer run-script lint|lint|||composer run-script --timeout 0 lint']);
    expect(scripts('composer -d api run test')).toEqual(['composer|composer run test|test|api||composer -d api run test']);
    expect(scripts('composer --working-dir=api test')).toEqual(['composer|composer test|test|api||composer --working-dir=api test']);
    expect(scripts('deno task --cwd web dev')).toEqual(['deno|deno task dev|dev|web||deno task --cwd web dev']);
    expect(scripts('deno task -c web/deno.jsonc build')).toEqual(['deno|deno task build|build||web/deno.jsonc|deno task -c web/deno.jsonc build']);
    expect(scripts('task -d api build test VERSION=1 -- -v')).toEqual(['task|task build|build|api||task -d api build', 'task|task test|test|api||test']);
    expect(scripts('task -t ci/Taskfile.yml docs:build')).toEqual(['task|task docs:build|docs:build||ci/Taskfile.yml|task -t ci/Taskfile.yml docs:build']);
    for (const line of [
      'composer install', 'composer require monolog/monolog', 'composer global require x', 'composer exec phpstan', 'composer run-script --list',
      'composer dump-autoload -o', 'deno task', 'deno task --eval "echo hi"', 'deno task -r test', 'deno task --filter "@acme/*" test', 'deno run main.ts',
      // (Wrappers are looked through for Composer, Deno and go-task too: test/staleness/commands-qa15-qa16-qa17.test.ts.)
      'task', 'task --list', 'task -l', 'task --list-all', 'task --init', 'task -g build', 'task <name>',
    ])
      expect(scripts(line)).toEqual([]);
  });
});
