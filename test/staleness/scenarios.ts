// A labelled scenario suite: git histories that reproduce real churn (monorepo moves,
// script renames, dependency swaps, directory renames, files deleted and re-added), each
// with a memory file written before the churn and labels in the shared case format
// (../shared/eval/README.md). Used by test/staleness/scenarios.test.ts and by
// eval/staleness.eval.ts.
import { body, lineOfText, makeRepo, pkg, type Repo } from './helpers.js';

export interface Label {
  line: number;
  ref: string;
  kind: string;
  now?: string;
}

export interface Negative {
  line: number;
  ref: string;
  type: string;
}

export interface BuiltScenario {
  name: string;
  dir: string;
  memory_path: string;
  expected: Label[];
  negatives: Negative[];
  /** Short SHAs by label, for exact message assertions. */
  shas: Record<string, string>;
}

type Builder = () => Promise<BuiltScenario>;

function exp(memory: string, needle: string, kind: string, now?: string, ref = needle): Label {
  return { line: lineOfText(memory, needle), ref, kind, ...(now !== undefined ? { now } : {}) };
}
function neg(memory: string, needle: string, type: string, ref = needle): Negative {
  return { line: lineOfText(memory, needle), ref, type };
}

async function finish(r: Repo, memoryPath: string, memory: string, date: string): Promise<void> {
  await r.write(memoryPath, memory);
  await r.commit('memory snapshot', date);
}

/** A single-package app split into a workspace monorepo; a script renamed on the way. */
export const monorepoMove: Builder = async () => {
  const r = await makeRepo();
  await r.write('package.json', pkg({ name: 'app', version: '1.4.0', scripts: { dev: 'node src/server/index.js', build: 'tsc', 'lint:fix': 'eslint --fix .' }, dependencies: { express: '^4.19.0' }, devDependencies: { typescript: '^5.4.0', eslint: '^8.57.0' } }));
  await r.write('src/server/index.ts', body('server index'));
  await r.write('src/server/routes.ts', body('server routes'));
  await r.write('src/server/db.ts', body('server db'));
  await r.write('src/client/app.ts', body('client app'));
  await r.write('src/client/view.ts', body('client view'));
  await r.commit('initial app', '2026-01-05');
  const memory = [
    '# CLAUDE.md',
    '',
    '## Layout',
    '',
    '- The server starts in `src/server/index.ts` and routes live in `src/server/routes.ts`.',
    '- Client code is under `src/client/`.',
    '- Server code: `src/server/`.',
    '',
    '## Commands',
    '',
    '```bash',
    'npm run dev',
    'npm run build',
    'npm run lint:fix',
    '```',
    '',
  ].join('\n');
  await r.move('src/server', 'packages/server/src');
  await r.write('packages/server/package.json', pkg({ name: '@app/server', version: '1.4.0', dependencies: { express: '^4.19.0' } }));
  await r.write('package.json', pkg({ name: 'app', version: '2.0.0', private: true, workspaces: ['packages/*'], scripts: { dev: 'npm -w @app/server run dev', build: 'tsc -b', fix: 'eslint --fix .' }, devDependencies: { typescript: '^5.4.0', eslint: '^8.57.0' } }));
  const move = await r.commit('refactor: move the server into packages/server', '2026-02-10');
  await finish(r, 'CLAUDE.md', memory, '2026-03-01');
  return {
    name: 'scenario-monorepo-move',
    dir: r.dir,
    memory_path: 'CLAUDE.md',
    expected: [
      exp(memory, 'src/server/index.ts', 'path-renamed', 'packages/server/src/index.ts'),
      exp(memory, 'src/server/routes.ts', 'path-renamed', 'packages/server/src/routes.ts'),
      exp(memory, '`src/server/`', 'path-renamed', 'packages/server/src', 'src/server/'),
      exp(memory, 'npm run lint:fix', 'script-missing'),
    ],
    negatives: [neg(memory, 'src/client/', 'path'), neg(memory, 'npm run dev', 'script'), neg(memory, 'npm run build', 'script')],
    shas: { move: move.slice(0, 7) },
  };
};

/** One dependency swapped for another in a single commit; another removed among many changes. */
export const dependencySwap: Builder = async () => {
  const r = await makeRepo();
  await r.write('package.json', pkg({ name: 'svc', version: '0.3.1', dependencies: { moment: '^2.29.0', express: '^4.18.0', zod: '^3.22.0', 'node-fetch': '^3.3.0' }, devDependencies: { jest: '^29.0.0', vitest: '^1.6.0' }, engines: { node: '>=18' } }));
  await r.write('src/index.ts', body('index'));
  await r.commit('initial service', '2026-01-03');
  const memory = [
    '# Notes',
    '',
    '- Dates are formatted with `moment` (see src/index.ts).',
    '- HTTP server: Express, validation with zod.',
    '- HTTP calls go through node-fetch.',
    '- Tests run on vitest 1.x; the project is at v0.3.1.',
    '- Requires Node 18+.',
    '- Add packages with `npm i zod` only after review.',
    '',
  ].join('\n');
  await r.write('package.json', pkg({ name: 'svc', version: '0.3.2', dependencies: { dayjs: '^1.11.0', express: '^4.18.0', zod: '^3.22.0', 'node-fetch': '^3.3.0' }, devDependencies: { jest: '^29.0.0', vitest: '^1.6.0' }, engines: { node: '>=18' } }));
  const swap = await r.commit('chore: replace moment with dayjs', '2026-02-01');
  await r.write('package.json', pkg({ name: 'svc', version: '0.5.0', dependencies: { dayjs: '^1.11.0', hono: '^4.0.0', '@hono/node-server': '^1.8.0', zod: '^3.22.0' }, devDependencies: { vitest: '^3.1.0' }, engines: { node: '>=20' } }));
  const hono = await r.commit('feat: move to hono, drop jest and node-fetch', '2026-03-15');
  await finish(r, 'CLAUDE.md', memory, '2026-04-01');
  return {
    name: 'scenario-dependency-swap',
    dir: r.dir,
    memory_path: 'CLAUDE.md',
    expected: [
      exp(memory, 'moment', 'package-renamed', 'dayjs'),
      exp(memory, 'Express', 'package-missing'),
      exp(memory, 'node-fetch', 'package-missing'),
      exp(memory, 'vitest 1.x', 'version-drift'),
      exp(memory, 'v0.3.1', 'version-drift'),
      exp(memory, 'Node 18+', 'version-drift'),
    ],
    negatives: [neg(memory, 'zod', 'package'), neg(memory, 'src/index.ts', 'path'), neg(memory, 'npm i zod', 'package')],
    shas: { swap: swap.slice(0, 7), hono: hono.slice(0, 7) },
  };
};

/** A docs folder renamed, a file renamed twice (a -> b -> c), and a nested memory file. */
export const directoryRename: Builder = async () => {
  const r = await makeRepo();
  await r.write('docs/guides/setup.md', body('setup guide'));
  await r.write('docs/guides/deploy.md', body('deploy guide'));
  await r.write('docs/guides/testing.md', body('testing guide'));
  await r.write('lib/util.ts', body('util'));
  await r.write('web/src/App.tsx', body('app'));
  await r.write('web/src/main.tsx', body('main'));
  await r.commit('initial', '2026-01-02');
  const memory = [
    '# Web',
    '',
    '- Entry point: `./src/main.tsx`; the root component is `./src/App.tsx`.',
    '- Setup is described in [the setup guide](../docs/guides/setup.md) and all guides live in `../docs/guides/`.',
    '- Shared helpers: `lib/util.ts` (from the repository root).',
    '',
  ].join('\n');
  await r.move('docs/guides', 'docs/handbook');
  const dirMove = await r.commit('docs: rename guides to handbook', '2026-02-02');
  await r.move('lib/util.ts', 'lib/helpers.ts');
  await r.commit('refactor: util -> helpers', '2026-02-03');
  await r.move('lib/helpers.ts', 'shared/helpers.ts');
  const second = await r.commit('refactor: move helpers to shared/', '2026-02-04');
  await r.move('web/src/App.tsx', 'web/src/Root.tsx');
  const app = await r.commit('refactor: App -> Root', '2026-02-05');
  await finish(r, 'web/CLAUDE.md', memory, '2026-03-01');
  return {
    name: 'scenario-directory-rename',
    dir: r.dir,
    memory_path: 'web/CLAUDE.md',
    expected: [
      exp(memory, './src/App.tsx', 'path-renamed', 'web/src/Root.tsx'),
      exp(memory, '../docs/guides/setup.md', 'path-renamed', 'docs/handbook/setup.md'),
      exp(memory, '../docs/guides/`', 'path-renamed', 'docs/handbook', '../docs/guides/'),
      exp(memory, 'lib/util.ts', 'path-renamed', 'shared/helpers.ts'),
    ],
    negatives: [neg(memory, './src/main.tsx', 'path')],
    shas: { dirMove: dirMove.slice(0, 7), second: second.slice(0, 7), app: app.slice(0, 7) },
  };
};

/** Files deleted for good, deleted and re-added at the same path, and re-added under another path. */
export const deletedReadded: Builder = async () => {
  const r = await makeRepo();
  await r.write('scripts/deploy.sh', body('deploy script'));
  await r.write('scripts/seed.sh', body('seed script'));
  await r.write('config/legacy.yml', body('legacy config'));
  await r.write('Makefile', 'test:\n\tgo test ./...\nlint:\n\tgolangci-lint run\nold-tests:\n\tgo test -tags old ./...\n');
  await r.write('go.mod', 'module example.com/app\n\ngo 1.21\n');
  await r.commit('initial', '2026-01-10');
  const memory = [
    '# AGENTS.md',
    '',
    '- Deploy with `scripts/deploy.sh`; seed data with `scripts/seed.sh`.',
    '- Legacy settings: `config/legacy.yml`.',
    '- Run `make test` and `make lint` before pushing; `make old-tests` covers the old runtime.',
    '- Examples elsewhere use `path/to/file.go` and `~/.config/app/settings.json`.',
    '- Requires Go 1.21.',
    '',
  ].join('\n');
  await r.remove('scripts/deploy.sh');
  await r.remove('scripts/seed.sh');
  await r.commit('chore: remove scripts', '2026-02-01');
  await r.write('scripts/seed.sh', body('seed script', 'echo again'));
  await r.write('tools/deploy.sh', body('deploy script', 'echo moved'));
  const readd = await r.commit('chore: bring deploy back under tools/', '2026-02-03');
  await r.remove('config/legacy.yml');
  const legacy = await r.commit('chore: drop legacy config', '2026-02-04');
  await r.write('Makefile', 'test:\n\tgo test ./...\nlint:\n\tgolangci-lint run\n');
  await r.write('go.mod', 'module example.com/app\n\ngo 1.23\n');
  await r.commit('build: drop old-tests, go 1.23', '2026-02-05');
  await finish(r, 'AGENTS.md', memory, '2026-03-01');
  return {
    name: 'scenario-deleted-readded',
    dir: r.dir,
    memory_path: 'AGENTS.md',
    expected: [
      exp(memory, 'scripts/deploy.sh', 'path-renamed', 'tools/deploy.sh'),
      exp(memory, 'config/legacy.yml', 'path-missing'),
      exp(memory, 'make old-tests', 'script-missing'),
      exp(memory, 'Go 1.21', 'version-drift'),
    ],
    negatives: [
      neg(memory, 'scripts/seed.sh', 'path'),
      neg(memory, 'make test', 'script'),
      neg(memory, 'make lint', 'script'),
      neg(memory, 'path/to/file.go', 'path'),
      neg(memory, '~/.config/app/settings.json', 'home-path'),
    ],
    shas: { readd: readd.slice(0, 7), legacy: legacy.slice(0, 7) },
  };
};

/** pnpm workspaces, a justfile taking over from package.json scripts, counts and Python. */
export const toolingMigration: Builder = async () => {
  const r = await makeRepo();
  await r.write('package.json', pkg({ name: 'mono', private: true, scripts: { test: 'vitest', format: 'prettier -w .', typecheck: 'tsc -b' }, devDependencies: { vitest: '^2.0.0', prettier: '^3.0.0', typescript: '^5.5.0' } }));
  await r.write('pnpm-workspace.yaml', 'packages:\n  - packages/*\n');
  await r.write('packages/core/package.json', pkg({ name: '@mono/core', version: '1.0.0', scripts: { build: 'tsc' } }));
  await r.write('packages/cli/package.json', pkg({ name: '@mono/cli', version: '1.0.0', scripts: { build: 'tsc', start: 'node dist/cli.js' }, dependencies: { '@mono/core': 'workspace:*' } }));
  for (let i = 1; i <= 4; i++) await r.write(`rules/rule-${i}.yml`, body(`rule ${i}`));
  await r.write('pyproject.toml', '[project]\nname = "mono-tools"\nversion = "0.1.0"\nrequires-python = ">=3.9"\ndependencies = ["requests>=2.31"]\n');
  await r.commit('initial', '2026-01-04');
  const memory = [
    '# CLAUDE.md',
    '',
    '## Commands',
    '',
    '- `pnpm test` runs the suite; `pnpm format` formats; `pnpm typecheck` checks types.',
    '- Build one package: `pnpm --filter @mono/cli build`.',
    '- Start the CLI: `pnpm --filter @mono/cli start`.',
    '- Install deps with `pnpm install` and check with `pnpm audit`.',
    '',
    '## Facts',
    '',
    '- There are 4 rules in `rules/` and 2+ packages in the monorepo.',
    '- Python tools support Python 3.9-3.13 and use requests.',
    '',
  ].join('\n');
  await r.write('justfile', 'test:\n    pnpm vitest\nfmt:\n    pnpm prettier -w .\ntypecheck:\n    pnpm tsc -b\n');
  await r.write('package.json', pkg({ name: 'mono', private: true, devDependencies: { vitest: '^2.0.0', prettier: '^3.0.0', typescript: '^5.5.0' } }));
  const just = await r.commit('chore: move tasks to just', '2026-02-01');
  await r.write('packages/cli/package.json', pkg({ name: '@mono/cli', version: '1.1.0', scripts: { build: 'tsc', run: 'node dist/cli.js' }, dependencies: { '@mono/core': 'workspace:*' } }));
  const start = await r.commit('cli: rename start to run', '2026-02-02');
  for (let i = 5; i <= 7; i++) await r.write(`rules/rule-${i}.yml`, body(`rule ${i}`));
  await r.write('pyproject.toml', '[project]\nname = "mono-tools"\nversion = "0.2.0"\nrequires-python = ">=3.10"\ndependencies = ["requests>=2.31"]\n');
  await r.commit('more rules; python 3.10+', '2026-02-03');
  await finish(r, 'CLAUDE.md', memory, '2026-03-01');
  return {
    name: 'scenario-tooling-migration',
    dir: r.dir,
    memory_path: 'CLAUDE.md',
    expected: [
      exp(memory, 'pnpm test', 'script-missing'),
      exp(memory, 'pnpm format', 'script-missing'),
      exp(memory, 'pnpm typecheck', 'script-missing'),
      exp(memory, 'pnpm --filter @mono/cli start', 'script-missing'),
      exp(memory, '4 rules', 'count-drift'),
      exp(memory, 'Python 3.9-3.13', 'version-drift'),
    ],
    negatives: [
      neg(memory, 'pnpm --filter @mono/cli build', 'script'),
      neg(memory, 'pnpm install', 'script'),
      neg(memory, 'pnpm audit', 'script'),
      neg(memory, '2+ packages', 'count'),
      neg(memory, 'requests', 'package'),
    ],
    shas: { just: just.slice(0, 7), start: start.slice(0, 7) },
  };
};

/** A source folder split into two workspace packages: no single successor for the folder itself. */
export const directorySplit: Builder = async () => {
  const r = await makeRepo();
  for (const n of ['server', 'routes', 'db']) await r.write(`src/api/${n}.ts`, body(`api ${n}`));
  for (const n of ['app', 'view', 'store']) await r.write(`src/web/${n}.ts`, body(`web ${n}`));
  await r.write('package.json', pkg({ name: 'split', version: '1.0.0', scripts: { build: 'tsc' } }));
  await r.commit('initial', '2026-01-02');
  const memory = ['# CLAUDE.md', '', '- All code is in `src/`.', '- The API is in `src/api/` (start at `src/api/server.ts`).', '- Build with `npm run build`.', ''].join('\n');
  await r.move('src/api', 'packages/api/src');
  await r.move('src/web', 'packages/web/src');
  const split = await r.commit('refactor: split src into packages', '2026-02-02');
  await finish(r, 'CLAUDE.md', memory, '2026-03-01');
  return {
    name: 'scenario-directory-split',
    dir: r.dir,
    memory_path: 'CLAUDE.md',
    expected: [
      exp(memory, '`src/`', 'path-missing', undefined, 'src/'),
      exp(memory, '`src/api/`', 'path-renamed', 'packages/api/src', 'src/api/'),
      exp(memory, 'src/api/server.ts', 'path-renamed', 'packages/api/src/server.ts'),
    ],
    negatives: [neg(memory, 'npm run build', 'script')],
    shas: { split: split.slice(0, 7) },
  };
};

export const SCENARIOS: Array<{ name: string; build: Builder }> = [
  { name: 'scenario-directory-split', build: directorySplit },
  { name: 'scenario-monorepo-move', build: monorepoMove },
  { name: 'scenario-dependency-swap', build: dependencySwap },
  { name: 'scenario-directory-rename', build: directoryRename },
  { name: 'scenario-deleted-readded', build: deletedReadded },
  { name: 'scenario-tooling-migration', build: toolingMigration },
];
