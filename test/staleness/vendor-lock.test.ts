// A dependency that left the manifest but not the project: wrapped by the one that took its place
// (`stripe` under `pay` in Gemfile.lock), still installed through another (any lockfile), or a
// service a dependency declared now integrates (`@slack/web-api`, `langchain-ollama`). Prose
// naming it is still true; a real replacement (`axios` -> `ky`, even with `axios` still
// locked under another library) and a leftover plugin (`redux-thunk`) are reported as before.
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { addLockfile, dependsOn, emptyLockGraph } from '../../src/evidence/manifests/lock-graph.js';
import { cleanupRepos, findingRows, makeRepo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);
const pkg = (f: { kind: string }) => f.kind.startsWith('package-');

const GEMFILE_LOCK = `GEM
  remote: https://rubygems.org/
  specs:
    pay (7.1.1)
      rails (>= 6.0.0)
      stripe (>= 10.0)
    rails (7.1.3)
    stripe (10.15.0)

PLATFORMS
  ruby

DEPENDENCIES
  pay (~> 7.0)
  rails (~> 7.1)

BUNDLED WITH
   2.5.6
`;

describe('dependencies that left the manifest but not the project', () => {
  it('says nothing of a gem wrapped by its successor, or of a service a declared dependency integrates', async () => {
    const r = await makeRepo();
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\ngem "stripe", "~> 10.0"\n');
    await r.write('package.json', JSON.stringify({ name: 'web', dependencies: { 'slack-notify': '^2.0.0', react: '^18.0.0', redux: '^5.0.0', 'redux-thunk': '^3.0.0' } }, null, 2) + '\n');
    await r.write('pyproject.toml', '[project]\nname = "agent"\ndependencies = ["ollama>=0.3", "httpx"]\n');
    await r.commit('init', '2025-01-01');
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\ngem "pay", "~> 7.0"\n');
    await r.write('Gemfile.lock', GEMFILE_LOCK);
    await r.write('package.json', JSON.stringify({ name: 'web', dependencies: { '@slack/web-api': '^7.0.0', react: '^18.0.0', redux: '^5.0.0', 'redux-thunk': '^3.0.0' } }, null, 2) + '\n');
    await r.write('pyproject.toml', '[project]\nname = "agent"\ndependencies = ["langchain-ollama>=0.2", "httpx"]\n');
    await r.commit('Bill through pay; Slack web API; langchain-ollama', '2025-02-01');
    await r.write('package.json', JSON.stringify({ name: 'web', dependencies: { '@slack/web-api': '^7.0.0', react: '^18.0.0', 'redux-thunk': '^3.0.0' } }, null, 2) + '\n');
    await r.commit('Drop redux', '2025-02-10');
    await r.write(
      'CLAUDE.md',
      [
        '# Project',
        '',
        '- Billing uses Stripe: the Pay gem wraps it.',
        '- We use Stripe for payments and subscriptions.',
        '- Alerts go to Slack through the incoming webhook.',
        '- We use Ollama for local models during development.',
        '- Use `slack-notify` for alerts.',
        '- We use Redux for client state.',
        '',
      ].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, pkg)).toEqual(['package-renamed|7|slack-notify|@slack/web-api', 'package-missing|8|Redux|']);
  });

  it('still reports a replacement whose old package some other dependency keeps installed', async () => {
    const r = await makeRepo();
    await r.write('package.json', JSON.stringify({ name: 'web', dependencies: { axios: '^1.6.0', 'chart.js': '^4.0.0', 'legacy-sdk': '^1.0.0' } }, null, 2) + '\n');
    await r.commit('init', '2025-01-01');
    await r.write('package.json', JSON.stringify({ name: 'web', dependencies: { ky: '^1.2.0', 'chart.js': '^4.0.0', 'legacy-sdk': '^1.0.0' } }, null, 2) + '\n');
    const lock = {
      name: 'web',
      lockfileVersion: 3,
      packages: {
        '': { name: 'web', dependencies: { ky: '^1.2.0', 'chart.js': '^4.0.0', 'legacy-sdk': '^1.0.0' } },
        'node_modules/ky': { version: '1.2.0' },
        'node_modules/chart.js': { version: '4.4.0' },
        'node_modules/legacy-sdk': { version: '1.0.0', dependencies: { axios: '^1.6.0' } },
        'node_modules/axios': { version: '1.6.8' },
      },
    };
    await r.write('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
    await r.commit('Replace axios with ky', '2025-02-01');
    await r.write('CLAUDE.md', '# Project\n\n- Fetch JSON with axios.\n- Wrap every Axios call in `withRetry`.\n');
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    // a swap: the successor does not depend on axios, so both lines are reported as before
    expect(findingRows(report, pkg)).toEqual(['package-renamed|3|axios|ky', 'package-renamed|4|Axios|Ky']);
  });

  it('says nothing of a prose mention of a gem removed without a successor that Gemfile.lock still installs for another gem', async () => {
    const r = await makeRepo();
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails"\ngem "faraday"\ngem "octokit"\n');
    await r.commit('init', '2025-01-01');
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails"\ngem "octokit"\n');
    await r.write('Gemfile.lock', 'GEM\n  remote: https://rubygems.org/\n  specs:\n    faraday (2.9.0)\n    octokit (8.1.0)\n      faraday (>= 1, < 3)\n    rails (7.1.3)\n    sidekiq (7.2.0)\n\nDEPENDENCIES\n  octokit\n  rails\n  sidekiq\n');
    await r.commit('Drop the direct faraday dependency', '2025-02-01');
    await r.write('CLAUDE.md', '# App\n\n- GitHub calls go over faraday with retries.\n- Call `Faraday.new` directly for other hosts.\n');
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    // prose: still installed (octokit needs it); code that uses it directly relies on a dependency nothing declares
    expect(findingRows(report, pkg)).toEqual(['package-missing|4|Faraday|']);
  });

  it('reports a crate removed from Cargo.toml though the lockfile keeps it for another crate (crates see only their own dependencies)', async () => {
    const r = await makeRepo();
    await r.write('Cargo.toml', '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1"\ntokio = "1"\n');
    await r.commit('init', '2025-01-01');
    await r.write('Cargo.toml', '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\naxum = "0.7"\n');
    await r.write(
      'Cargo.lock',
      [
        'version = 3',
        '',
        '[[package]]',
        'name = "app"',
        'version = "0.1.0"',
        'dependencies = [',
        ' "axum",',
        ']',
        '',
        '[[package]]',
        'name = "axum"',
        'version = "0.7.5"',
        'dependencies = [',
        ' "serde",',
        ' "tokio 1.38.0",',
        ']',
        '',
        '[[package]]',
        'name = "serde"',
        'version = "1.0.200"',
        '',
        '[[package]]',
        'name = "tokio"',
        'version = "1.38.0"',
        '',
      ].join('\n'),
    );
    await r.commit('Serve with axum', '2025-02-01');
    await r.write('CLAUDE.md', '# Project\n\n- Handlers run on the tokio runtime.\n- Derive serde traits on every DTO.\n');
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, pkg)).toEqual(['package-missing|3|tokio|', 'package-missing|4|serde|']);
  });
});

describe('lock graph (names and dependency edges)', () => {
  it('reads Gemfile.lock, Cargo.lock, uv.lock, poetry.lock, composer.lock, yarn.lock and pnpm-lock.yaml', () => {
    const g = emptyLockGraph();
    addLockfile(g, 'Gemfile.lock', GEMFILE_LOCK);
    addLockfile(g, 'uv.lock', 'version = 1\n\n[[package]]\nname = "langchain-ollama"\nversion = "0.2.0"\ndependencies = [\n    { name = "ollama" },\n    { name = "langchain-core" },\n]\n\n[[package]]\nname = "ollama"\nversion = "0.3.0"\n');
    addLockfile(g, 'poetry.lock', '[[package]]\nname = "celery"\nversion = "5.3.0"\n\n[package.dependencies]\nkombu = ">=5.3"\n"billiard" = "*"\n\n[[package]]\nname = "kombu"\nversion = "5.3.4"\n');
    addLockfile(g, 'composer.lock', JSON.stringify({ packages: [{ name: 'laravel/cashier', require: { php: '^8.1', 'stripe/stripe-php': '^13.0' } }, { name: 'stripe/stripe-php' }] }));
    addLockfile(g, 'yarn.lock', '# yarn lockfile v1\n\n"@slack/bolt@^3.0.0":\n  version "3.17.0"\n  dependencies:\n    "@slack/web-api" "^6.10.0"\n    express "^4.18.0"\n\n"@slack/web-api@^6.10.0":\n  version "6.10.0"\n');
    addLockfile(g, 'pnpm-lock.yaml', "lockfileVersion: '9.0'\n\npackages:\n\n  '@nestjs/core@10.0.0':\n    resolution: {integrity: x}\n\nsnapshots:\n\n  '@nestjs/core@10.0.0(rxjs@7.8.1)':\n    dependencies:\n      rxjs: 7.8.1\n      tslib: 2.6.2\n\n  rxjs@7.8.1: {}\n");
    expect([...g.names].sort()).toEqual(['@nestjs/core', '@slack/bolt', '@slack/web-api', 'billiard', 'celery', 'express', 'kombu', 'langchain-core', 'langchain-ollama', 'laravel/cashier', 'ollama', 'pay', 'rails', 'rxjs', 'stripe', 'stripe/stripe-php', 'tslib']);
    expect([dependsOn(g, 'pay', 'stripe'), dependsOn(g, 'langchain-ollama', 'ollama'), dependsOn(g, 'celery', 'billiard'), dependsOn(g, 'laravel/cashier', 'stripe/stripe-php'), dependsOn(g, '@slack/bolt', 'express'), dependsOn(g, '@nestjs/core', 'tslib')]).toEqual([true, true, true, true, true, true]);
    expect([dependsOn(g, 'rails', 'stripe'), dependsOn(g, 'ollama', 'langchain-ollama')]).toEqual([false, false]);
  });
});

describe('services and plugins', () => {
  it('keeps "stored in Redis" when the client changed (redis -> ioredis), and reports a replaced tool a leftover plugin names', async () => {
    const r = await makeRepo();
    await r.write('package.json', JSON.stringify({ name: 'api', dependencies: { redis: '^4.6.0', mongodb: '^6.0.0', express: '^4.19.0' }, devDependencies: { jest: '^29.0.0', 'eslint-plugin-jest': '^28.0.0' } }, null, 2) + '\n');
    await r.commit('init', '2025-01-01');
    await r.write('package.json', JSON.stringify({ name: 'api', dependencies: { ioredis: '^5.4.0', mongodb: '^6.0.0', express: '^4.19.0' }, devDependencies: { jest: '^29.0.0', 'eslint-plugin-jest': '^28.0.0' } }, null, 2) + '\n');
    await r.commit('Switch to ioredis', '2025-02-01');
    await r.write('package.json', JSON.stringify({ name: 'api', dependencies: { ioredis: '^5.4.0', mongoose: '^8.0.0', express: '^4.19.0' }, devDependencies: { jest: '^29.0.0', 'eslint-plugin-jest': '^28.0.0' } }, null, 2) + '\n');
    await r.commit('Switch to mongoose', '2025-02-05');
    await r.write('package.json', JSON.stringify({ name: 'api', dependencies: { ioredis: '^5.4.0', mongoose: '^8.0.0', express: '^4.19.0' }, devDependencies: { vitest: '^2.0.0', 'eslint-plugin-jest': '^28.0.0' } }, null, 2) + '\n');
    await r.commit('Jest to Vitest', '2025-02-10');
    await r.write(
      'CLAUDE.md',
      ['# API', '', '- Sessions are stored in Redis with a 24h TTL.', '- Orders are persisted in MongoDB.', '- Create clients with `redis.createClient()`.', '- Unit tests use Jest.', ''].join('\n'),
    );
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, pkg)).toEqual(['package-renamed|6|Jest|Vitest']);
  });

  it('does not count an orphan lockfile entry nothing declared depends on (a lockfile not regenerated)', async () => {
    const r = await makeRepo();
    await r.write('package.json', JSON.stringify({ name: 'web', dependencies: { react: '^18.0.0', axios: '^1.6.0' } }, null, 2) + '\n');
    await r.commit('init', '2025-01-01');
    await r.write('package.json', JSON.stringify({ name: 'web', dependencies: { react: '^18.0.0' } }, null, 2) + '\n');
    const lock = { name: 'web', lockfileVersion: 3, packages: { '': { name: 'web', dependencies: { react: '^18.0.0' } }, 'node_modules/react': { version: '18.3.1' }, 'node_modules/axios': { version: '1.6.8' } } };
    await r.write('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
    await r.commit('Drop axios', '2025-02-01');
    await r.write('CLAUDE.md', '# Web\n\n- We fetch with axios everywhere.\n');
    await r.commit('docs', '2025-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, pkg)).toEqual(['package-missing|3|axios|']);
  });
});
