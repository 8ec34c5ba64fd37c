#!/usr/bin/env node
// Builds the demo repository: a small invoicing API ("Tally") with real git history —
// a file rename, a directory move, a deleted file, a package swap (moment -> dayjs), a renamed
// npm script, new migrations and a major vitest bump — and then commits the agent memory in
// examples/demo/ (CLAUDE.md + an auto-memory folder at .claude/memory/) on top.
//
//   node examples/build-demo.mjs <dir>
//
// Deterministic: fixed author, committer and dates, so every build has the same commit ids.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export function buildDemo(dir) {
  const root = resolve(dir);
  if (existsSync(root) && readdirSync(root).length > 0) throw new Error(`refusing to build the demo into a non-empty folder: ${root}`);
  mkdirSync(root, { recursive: true });

  const git = (args, date) =>
    execFileSync('git', args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Dana Reyes',
        GIT_AUTHOR_EMAIL: 'dana@tally.example',
        GIT_COMMITTER_NAME: 'Dana Reyes',
        GIT_COMMITTER_EMAIL: 'dana@tally.example',
        ...(date ? { GIT_AUTHOR_DATE: `${date}T10:00:00Z`, GIT_COMMITTER_DATE: `${date}T10:00:00Z` } : {}),
      },
    });
  const write = (path, text) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const move = (from, to) => {
    mkdirSync(dirname(join(root, to)), { recursive: true });
    renameSync(join(root, from), join(root, to));
  };
  const commit = (date, subject) => {
    git(['add', '-A']);
    git(['commit', '-q', '-m', subject], date);
  };
  const pkg = (over) =>
    `${JSON.stringify(
      {
        name: 'tally',
        version: over.version,
        private: true,
        type: 'module',
        engines: { node: '>=18' },
        scripts: over.scripts,
        dependencies: over.dependencies,
        devDependencies: over.devDependencies,
      },
      null,
      2,
    )}\n`;

  git(['init', '-q', '-b', 'main']);
  git(['config', 'user.name', 'Dana Reyes']);
  git(['config', 'user.email', 'dana@tally.example']);
  git(['config', 'commit.gpgsign', 'false']);

  // 1. The project as it was when the memory was written.
  const scripts = {
    build: 'tsc -p .',
    dev: 'tsx watch src/server/index.ts',
    test: 'vitest run',
    'test:watch': 'vitest',
    lint: 'eslint .',
    'lint:fix': 'eslint . --fix',
    'db:migrate': 'tsx scripts/migrate.ts',
  };
  const dependencies = { express: '^4.19.2', moment: '^2.30.1', 'moment-timezone': '^0.5.45', pg: '^8.11.3', redis: '^4.6.13' };
  const devDependencies = { eslint: '^8.57.0', tsx: '^4.7.1', typescript: '~5.4.5', vitest: '^1.6.0' };
  write('package.json', pkg({ version: '1.4.0', scripts, dependencies, devDependencies }));
  write('README.md', '# Tally\n\nInvoicing API.\n');
  write('tsconfig.json', '{ "compilerOptions": { "strict": true, "module": "NodeNext", "outDir": "dist" } }\n');
  write('.gitignore', 'node_modules/\ndist/\n');
  write('src/server/index.ts', "import express from 'express';\nimport { invoices } from './routes/invoices.js';\n\nexport const app = express();\napp.use('/invoices', invoices);\n");
  write('src/server/routes/invoices.ts', "import { Router } from 'express';\n\nexport const invoices = Router();\ninvoices.get('/', (_req, res) => res.json([]));\n");
  write('src/server/routes/customers.ts', "import { Router } from 'express';\n\nexport const customers = Router();\n");
  write('src/auth/session.ts', "export const SESSION_TTL_MINUTES = 30;\n\nexport function sessionKey(id: string): string {\n  return `session:${id}`;\n}\n");
  write('src/billing/tax.ts', 'export function roundHalfEven(cents: number): number {\n  return Math.round(cents);\n}\n');
  write('src/billing/currency.ts', 'export const toCents = (amount: number): number => Math.round(amount * 100);\n');
  write('src/billing/dates.ts', "import moment from 'moment-timezone/builds/moment-timezone-with-data';\n\nexport const dueDate = (days: number) => moment().add(days, 'days');\n");
  write('src/db/migrations/001_init.sql', 'CREATE TABLE customers (id serial PRIMARY KEY);\n');
  write('src/db/migrations/002_invoice_seq.sql', 'CREATE SEQUENCE invoice_seq_default;\n');
  write('src/db/migrations/003_invoices.sql', 'CREATE TABLE invoices (id serial PRIMARY KEY, total_cents bigint NOT NULL);\n');
  write('scripts/migrate.ts', "console.log('migrating');\n");
  write('legacy/import-csv.ts', "// One-off importer for the 2024 CSV exports.\nconsole.log('import');\n");
  write('docs/payments.md', '# Payments\n\nSandbox dashboard and webhook setup.\n');
  write('test/invoices.test.ts', "import { test } from 'vitest';\n\ntest('lists invoices', () => {});\n");
  write('test/integration/db.test.ts', "import { test } from 'vitest';\n\ntest('migrates', () => {});\n");
  commit('2026-01-05', 'Initial Tally API');

  // 2. A file rename.
  move('src/auth/session.ts', 'src/auth/sessions.ts');
  commit('2026-02-10', 'Split the session store into sessions.ts');

  // 3. A directory move: src/server/ -> src/http/.
  move('src/server', 'src/http');
  scripts.dev = 'tsx watch src/http/index.ts';
  write('package.json', pkg({ version: '1.5.0', scripts, dependencies, devDependencies }));
  commit('2026-03-02', 'Move the HTTP layer to src/http');

  // 4. A package swap: moment + moment-timezone -> dayjs.
  delete dependencies.moment;
  delete dependencies['moment-timezone'];
  dependencies.dayjs = '^1.11.13';
  write('src/billing/dates.ts', "import dayjs from 'dayjs';\n\nexport const dueDate = (days: number) => dayjs().add(days, 'day');\n");
  write('package.json', pkg({ version: '1.5.0', scripts, dependencies, devDependencies }));
  commit('2026-03-16', 'Replace moment with dayjs');

  // 5. A deleted file.
  rmSync(join(root, 'legacy'), { recursive: true });
  commit('2026-04-02', 'Remove the legacy CSV importer');

  // 6. A renamed npm script.
  delete scripts['lint:fix'];
  scripts.fix = 'eslint . --fix';
  write('package.json', pkg({ version: '1.5.0', scripts, dependencies, devDependencies }));
  commit('2026-04-20', 'Rename lint:fix to fix');

  // 7. New migrations (the count in memory drifts).
  write('src/db/migrations/004_customers_email.sql', 'ALTER TABLE customers ADD COLUMN email text;\n');
  write('src/db/migrations/005_payments.sql', 'CREATE TABLE payments (id serial PRIMARY KEY);\n');
  write('src/db/migrations/006_refunds.sql', 'CREATE TABLE refunds (id serial PRIMARY KEY);\n');
  commit('2026-05-11', 'Payments and refunds tables');

  // 8. A major test-runner bump and a new release.
  devDependencies.vitest = '^3.2.4';
  write('package.json', pkg({ version: '2.0.0', scripts, dependencies, devDependencies }));
  commit('2026-06-01', 'Upgrade vitest to 3 and release 2.0.0');

  // 9. The agent memory, as it was written before all of the above.
  cpSync(join(here, 'demo', 'CLAUDE.md'), join(root, 'CLAUDE.md'));
  cpSync(join(here, 'demo', 'memory'), join(root, '.claude', 'memory'), { recursive: true });
  commit('2026-06-15', 'Commit the agent memory');
  return root;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node examples/build-demo.mjs <dir>');
    process.exit(2);
  }
  console.log(buildDemo(dir));
}
