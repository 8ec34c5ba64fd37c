// Gradle artifact ids that are plain words (`browser`, `tracing`, `truth`, `activity`) count in prose
// only where the sentence names the library (the cues of the English-word guard); a verb cue does
// not make a word a name when it only qualifies the noun after it ("add tracing spans"). Go modules
// named in inline code (module path, import path under it, a former require's short name) are
// checked against go.mod by module prefix. `pnpm --filter x` matches package names, not folders.
// Real git repositories in temp folders, audited and pruned end to end (QA rounds 10 and 11).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, pkg, planRows as plans, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PKG = new Set(['package-missing', 'package-renamed']);

afterAll(cleanupRepos);

describe('Gradle artifact ids that are plain words (AndroidX, Google Truth)', () => {
  const kept = [
    '# AGENTS.md',
    '',
    '## Architecture',
    '',
    '- The activity is recreated on rotation; keep UI state in the ViewModel.',
    '- Open external links in the browser, never in a WebView.',
    '- Add tracing spans around slow database calls.',
    '- The server is the single source of truth for message flags.',
    '- Log through timber wrappers only.',
  ];
  const memory = [
    ...kept,
    '- Assertions are written with Truth.',
    '- We use timber for logging.',
    '- Keep `tracing` sections short.',
    '- Bump the browser artifact with the other AndroidX libraries.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write(
      'gradle/libs.versions.toml',
      [
        '[libraries]',
        'androidx-activity = { module = "androidx.activity:activity", version = "1.9.0" }',
        'androidx-browser = { module = "androidx.browser:browser", version = "1.8.0" }',
        'androidx-tracing = { module = "androidx.tracing:tracing", version = "1.2.0" }',
        'google-truth = { module = "com.google.truth:truth", version = "1.4.2" }',
        'timber = { module = "com.jakewharton.timber:timber", version = "5.0.1" }',
        '',
      ].join('\n'),
    );
    await r.write('app/build.gradle.kts', 'dependencies {\n  implementation(libs.androidx.activity)\n  testImplementation(libs.google.truth)\n}\n');
    await r.write('AGENTS.md', memory);
    await r.commit('Add AGENTS.md', '2025-10-01');
    await r.write('gradle/libs.versions.toml', '[libraries]\nandroidx-activity-compose = { module = "androidx.activity:activity-compose", version = "1.9.0" }\n');
    await r.write('app/build.gradle.kts', 'dependencies {\n  implementation(libs.androidx.activity.compose)\n}\n');
    await r.commit('Compose migration', '2026-01-10');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports the words only where the sentence names the library', () => {
    expect(findingRows(report, (f) => PKG.has(f.kind))).toEqual([
      `package-missing|${l('written with Truth')}|Truth|`,
      `package-missing|${l('We use timber')}|timber|`,
      `package-missing|${l('Keep `tracing`')}|tracing|`,
      `package-missing|${l('browser artifact')}|browser|`,
    ]);
    expect(report.findings.find((f) => f.ref === 'timber')!.message).toMatch(
      /^`timber` is no longer a dependency of any manifest: it was removed from `gradle\/libs\.versions\.toml` in [0-9a-f]{7} \(2026-01-10, "Compose migration"\) \(that commit added `activity-compose`, and removed `activity`, `browser`, `tracing` and 1 more too\); remove the reference or name what replaced it\.$/,
    );
  });

  it('prunes only the entries naming a removed library; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(plans(res.plan)).toEqual([
      `delete|4|${l('written with Truth')}`,
      `delete|4|${l('We use timber')}`,
      `delete|4|${l('Keep `tracing`')}`,
      `delete|4|${l('browser artifact')}`,
    ]);
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe([...kept, ''].join('\n'));
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('a verb cue before a word that only qualifies the next noun (Rust `tracing`)', () => {
  const memory = ['# CLAUDE.md', '', '- Add tracing spans around slow database calls.', '- We use tracing heavily in the worker.', '- Logging goes through tracing.', '- We use tracing for logs.', ''].join('\n');
  let report: Report;

  beforeAll(async () => {
    const r = await makeRepo();
    await r.write('Cargo.toml', '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\ntracing = "0.1"\nserde = "1"\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-10-01');
    await r.write('Cargo.toml', '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1"\n');
    await r.commit('Drop tracing', '2026-01-10');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reads "add tracing spans" as words, "use tracing heavily" and "use tracing for logs" as the crate', () => {
    expect(findingRows(report, (f) => PKG.has(f.kind))).toEqual([
      `package-missing|${lineOfText(memory, 'heavily')}|tracing|`,
      `package-missing|${lineOfText(memory, 'for logs')}|tracing|`,
    ]);
  });
});

describe('Go modules in inline code: module path, import path under it, short name', () => {
  const goMod = (reqs: string[]) => `module example.com/svc\n\ngo 1.22\n\nrequire (\n${reqs.map((x) => `\t${x}\n`).join('')})\n`;
  const memory = [
    '# AGENTS.md',
    '',
    '- Use `logrus` for structured logging; never `fmt.Println`.',
    '- The CLI is built with cobra (`github.com/spf13/cobra`); commands live in `cmd/svc/`.',
    '- Logging uses `github.com/go-kit/log`.',
    '- Levels come from `github.com/go-kit/log/level`.',
    '- Assertions use `github.com/stretchr/testify/require`.',
    '- Use `errgroup` from `golang.org/x/sync/errgroup` for fan-out.',
    '- Config files are `yaml`; parse them with the `log` package helpers.',
    '- Flags are parsed by `github.com/urfave/cli`.',
    '- Routes are registered on a `mux` router.',
    '- Handlers are mounted with `github.com/gorilla/mux`.',
    '- Install the linter: `go install github.com/golangci/golangci-lint/cmd/golangci-lint@latest`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write(
      'go.mod',
      goMod([
        'github.com/sirupsen/logrus v1.9.0',
        'github.com/spf13/cobra v1.8.0',
        'github.com/go-kit/log v0.2.1',
        'github.com/stretchr/testify v1.10.0',
        'golang.org/x/sync v0.10.0',
        'gopkg.in/yaml.v3 v3.0.1',
        'github.com/gorilla/mux v1.8.1',
        'github.com/golangci/golangci-lint v1.55.0',
      ]),
    );
    await r.write('cmd/svc/main.go', 'package main\n');
    await r.write('AGENTS.md', memory);
    await r.commit('Add AGENTS.md', '2025-10-01');
    await r.write(
      'go.mod',
      goMod(['github.com/stretchr/testify v1.10.0', 'golang.org/x/sync v0.10.0', 'github.com/gorilla/mux v1.8.1', 'github.com/urfave/cli/v2 v2.27.0']),
    );
    await r.commit('Replace logrus, go-kit/log, yaml and cobra', '2026-01-15');
    await r.write('go.mod', goMod(['github.com/stretchr/testify v1.10.0', 'golang.org/x/sync v0.10.0', 'github.com/urfave/cli/v2 v2.27.0', 'github.com/go-chi/chi/v5 v5.1.0']));
    await r.commit('Move routing to chi', '2026-02-01');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports removed modules however they are written; required modules, standard or generic names and `go install x@latest` stay', () => {
    expect(findingRows(report, (f) => PKG.has(f.kind))).toEqual([
      `package-missing|${l('Use `logrus`')}|logrus|`,
      // the short name beside the module path names that module too: one finding, on the full name
      `package-missing|${l('built with cobra')}|github.com/spf13/cobra|`,
      `package-missing|${l('Logging uses')}|github.com/go-kit/log|`,
      `package-missing|${l('Levels come')}|github.com/go-kit/log/level|`,
      `package-renamed|${l('a `mux` router')}|mux|chi`,
      `package-renamed|${l('mounted with')}|github.com/gorilla/mux|github.com/go-chi/chi/v5`,
    ]);
    const msg = (ref: string) => report.findings.find((f) => f.ref === ref)!.message;
    expect(msg('logrus')).toMatch(
      /^`logrus` \(module `github\.com\/sirupsen\/logrus`\) is no longer a dependency of any manifest: it was removed from `go\.mod` in [0-9a-f]{7} \(2026-01-15, "Replace logrus, go-kit\/log, yaml and cobra"\) \(that commit added `github\.com\/urfave\/cli\/v2`, and removed `github\.com\/spf13\/cobra`, `github\.com\/go-kit\/log`, `gopkg\.in\/yaml\.v3` and 1 more too\); remove the reference or name what replaced it\.$/,
    );
    expect(msg('github.com/go-kit/log/level')).toMatch(/^`github\.com\/go-kit\/log\/level` \(module `github\.com\/go-kit\/log`\) is no longer a dependency/);
    expect(msg('mux')).toMatch(
      /^`mux` \(module `github\.com\/gorilla\/mux`\) was replaced by `github\.com\/go-chi\/chi\/v5` in `go\.mod` in [0-9a-f]{7} \(2026-02-01, "Move routing to chi"\); update the reference\.$/,
    );
  });

  it('deletes, reviews and corrects the entries; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(plans(res.plan)).toEqual([
      `delete|4|${l('Use `logrus`')}`,
      `review|4|${l('built with cobra')}`,
      `delete|4|${l('Logging uses')}`,
      `delete|4|${l('Levels come')}`,
      // the short name takes the successor's short name
      `update|4|${l('a `mux` router')}`,
      `update|4|${l('mounted with')}`,
    ]);
    const after = await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8');
    expect(after.split('\n').filter((x) => x.startsWith('- ')).map((x) => x.replace(/ \[corrected \d{4}-\d\d-\d\d\]$/, ''))).toEqual([
      '- The CLI is built with cobra (`github.com/spf13/cobra`); commands live in `cmd/svc/`.',
      '- Assertions use `github.com/stretchr/testify/require`.',
      '- Use `errgroup` from `golang.org/x/sync/errgroup` for fan-out.',
      '- Config files are `yaml`; parse them with the `log` package helpers.',
      '- Flags are parsed by `github.com/urfave/cli`.',
      '- Routes are registered on a `chi` router.',
      '- Handlers are mounted with `github.com/go-chi/chi/v5`.',
      '- Install the linter: `go install github.com/golangci/golangci-lint/cmd/golangci-lint@latest`.',
    ]);
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('`pnpm --filter x` selects package names, not folders of that name', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '- Start the docs with `pnpm --filter docs dev` (port 3200).',
    '- Start the app with `pnpm --filter web dev`.',
    '- With npm: `npm run dev -w docs`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let report: Report;

  beforeAll(async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'root', private: true, workspaces: ['docs', 'apps/*'] }));
    await r.write('pnpm-workspace.yaml', 'packages:\n  - "docs"\n  - "apps/*"\n');
    await r.write('docs/package.json', pkg({ name: 'docs', scripts: { dev: 'docusaurus start' } }));
    await r.write('apps/web/package.json', pkg({ name: '@acme/web', scripts: { dev: 'next dev' } }));
    await r.commit('init', '2025-08-01');
    await r.write('CLAUDE.md', memory);
    await r.commit('claude', '2025-09-15');
    await r.write('docs/package.json', pkg({ name: 'growthbook-docs', scripts: { dev: 'docusaurus start' } }));
    await r.write('apps/web/package.json', pkg({ name: '@acme/site', scripts: { dev: 'next dev' } }));
    await r.commit('rename docs and web packages', '2026-02-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports both renamed packages; `npm -w docs` still selects the folder `docs/`', () => {
    expect(findingRows(report, (f) => f.kind === 'script-missing')).toEqual([
      `script-missing|${l('--filter docs')}|pnpm --filter docs dev|pnpm --filter growthbook-docs dev`,
      `script-missing|${l('--filter web')}|pnpm --filter web dev|pnpm --filter @acme/site dev`,
    ]);
    expect(report.findings.find((f) => f.kind === 'script-missing' && f.ref === 'pnpm --filter docs dev')!.message).toMatch(
      /^`pnpm --filter docs dev` no longer works: no workspace package is named `docs` any more: it was renamed to `growthbook-docs` in [0-9a-f]{7} \(2026-02-01, "rename docs and web packages"\); use `pnpm --filter growthbook-docs dev` instead\.$/,
    );
  });
});
