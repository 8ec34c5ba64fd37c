// QA round 26. Rust's minimum supported version in Cargo's words (`MSRV 1.89`, "Minimum supported
// Rust version: 1.89", `rust-version = "1.89"`) is compared with Cargo's `rust-version` like "Rust
// 1.89+" (and only with it). Go modules named in prose by their display name, the short name
// capitalised ("a Gin HTTP server", "Bubbletea", "Cobra subcommands"), are checked like the npm,
// Ruby and Gradle display names once the module left go.mod. Real git repositories in temp folders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, planRows, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PKG = new Set(['package-missing', 'package-renamed']);

afterAll(cleanupRepos);

describe('Rust MSRV statements against Cargo `rust-version`', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '## Code Conventions',
    '',
    '- **Rust edition**: 2024, MSRV 1.89.',
    '- Minimum supported Rust version: 1.89',
    '- Keep `rust-version = "1.89"` in `Cargo.toml` in sync with CI.',
    '- The MSRV is 1.89; bump it only with a release.',
    '- Requires Rust 1.89+.',
    '- Since MSRV 1.80 we can use `std::sync::LazyLock`.',
    '- Edition 2024 everywhere.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('Cargo.toml', '[package]\nname = "qdrant"\nversion = "1.15.0"\nedition = "2024"\nrust-version = "1.89"\n');
    await r.write('src/main.rs', 'fn main() {}\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-09-10');
    await r.write('Cargo.toml', '[package]\nname = "qdrant"\nversion = "1.15.0"\nedition = "2024"\nrust-version = "1.92"\n');
    await r.commit('Bump MSRV to 1.92', '2026-03-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports every wording of the old floor; a feature statement stays', () => {
    expect(findingRows(report, (f) => f.kind === 'version-drift')).toEqual([
      `version-drift|${l('MSRV 1.89.')}|MSRV 1.89|MSRV 1.92`,
      `version-drift|${l('Minimum supported')}|Minimum supported Rust version: 1.89|Minimum supported Rust version: 1.92`,
      `version-drift|${l('Keep `rust-version')}|rust-version = "1.89"|rust-version = "1.92"`,
      `version-drift|${l('The MSRV is')}|MSRV is 1.89|MSRV is 1.92`,
      `version-drift|${l('Requires Rust')}|Rust 1.89+|Rust 1.92+`,
    ]);
    expect(report.findings.find((f) => f.ref === 'MSRV 1.89')!.message).toBe(
      '`MSRV 1.89` no longer matches the project: `Cargo.toml` sets `rust-version` to `1.92`; update the stated version to 1.92.',
    );
    expect(report.findings.find((f) => f.ref === 'rust-version = "1.89"')!.message).toBe(
      '`rust-version = "1.89"` no longer matches the project: `Cargo.toml` sets `rust-version` to `1.92`; update the stated version to 1.92.',
    );
  });

  it('corrects the entries; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(planRows(res.plan)).toEqual([
      `update|4|${l('MSRV 1.89.')}`,
      `update|4|${l('Minimum supported')}`,
      `update|4|${l('Keep `rust-version')}`,
      `update|4|${l('The MSRV is')}`,
      `update|4|${l('Requires Rust')}`,
    ]);
    const after = await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8');
    expect(after.split('\n').filter((x) => x.startsWith('- ')).map((x) => x.replace(/ \[corrected \d{4}-\d\d-\d\d\]$/, ''))).toEqual([
      '- **Rust edition**: 2024, MSRV 1.92.',
      '- Minimum supported Rust version: 1.92',
      '- Keep `rust-version = "1.92"` in `Cargo.toml` in sync with CI.',
      '- The MSRV is 1.92; bump it only with a release.',
      '- Requires Rust 1.92+.',
      '- Since MSRV 1.80 we can use `std::sync::LazyLock`.',
      '- Edition 2024 everywhere.',
    ]);
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('Rust MSRV statements that hold or have nothing to compare with', () => {
  it('matches a workspace `rust-version` at the precision written', async () => {
    const memory = ['# CLAUDE.md', '', '- MSRV: 1.92', '- Minimum supported Rust version (MSRV) is 1.92.0.', '- `rust-version = "1.92"` lives in the workspace manifest.', ''].join('\n');
    const r = await makeRepo();
    await r.write('Cargo.toml', '[workspace]\nmembers = ["crates/a"]\n\n[workspace.package]\nversion = "0.3.0"\nrust-version = "1.92"\n');
    await r.write('crates/a/Cargo.toml', '[package]\nname = "a"\nversion.workspace = true\nrust-version.workspace = true\n');
    await r.write('crates/a/src/lib.rs', '\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-09-10');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => f.kind === 'version-drift')).toEqual([]);
  });

  it('says nothing without a Cargo `rust-version` (a toolchain pin is no MSRV)', async () => {
    const memory = ['# CLAUDE.md', '', '- MSRV 1.89.', '- Minimum supported Rust version: 1.89', '- Requires Rust 1.89+.', ''].join('\n');
    const r = await makeRepo();
    await r.write('Cargo.toml', '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n');
    await r.write('.tool-versions', 'rust 1.92.0\n');
    await r.write('src/main.rs', 'fn main() {}\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-09-10');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    // only the existing "Rust X+" statement is read against the toolchain's version
    expect(findingRows(report, (f) => f.kind === 'version-drift')).toEqual([`version-drift|${lineOfText(memory, 'Requires Rust')}|Rust 1.89+|Rust 1.92+`]);
  });
});

const GO_MOD_BEFORE = [
  'module github.com/ollama/ollama',
  '',
  'go 1.24.0',
  '',
  'require (',
  '\tgithub.com/gin-gonic/gin v1.10.0',
  '\tgithub.com/spf13/cobra v1.9.1',
  '\tgithub.com/charmbracelet/bubbletea v1.3.4',
  '\tgithub.com/go-chi/chi/v5 v5.1.0',
  '\tgithub.com/google/wire v0.6.0',
  ')',
  '',
].join('\n');
const GO_MOD_AFTER = ['module github.com/ollama/ollama', '', 'go 1.24.0', '', 'require (', '\tgithub.com/urfave/cli/v3 v3.3.0', '\tgithub.com/rivo/tview v0.42.0', ')', ''].join('\n');

describe('Go modules named by their display name in prose', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '- `ollama serve` → `server/routes.go` starts a Gin HTTP server on `OLLAMA_HOST`.',
    '- `cmd/` — CLI subcommands, interactive chat TUI (`cmd/tui/` — Bubbletea).',
    '- `main.go` → `cmd.NewCLI()` dispatches Cobra subcommands.',
    '- Routes are registered on a Chi router.',
    '- Dependency injection uses Wire.',
    '- Wire the handlers in `main.go` by hand.',
    '- The Wire Format section of the protocol doc is normative.',
    '- The router uses `gin`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('go.mod', GO_MOD_BEFORE);
    for (const f of ['main.go', 'server/routes.go', 'cmd/tui/tui.go', 'cmd/cmd.go']) await r.write(f, 'package main\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-11-01');
    await r.write('go.mod', GO_MOD_AFTER);
    await r.commit('Drop gin, chi, wire, cobra and bubbletea', '2026-03-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports the capitalised short names of the removed modules; an English word only where it is a name', () => {
    expect(findingRows(report, (f) => PKG.has(f.kind))).toEqual([
      `package-missing|${l('a Gin HTTP')}|Gin|`,
      `package-missing|${l('Bubbletea')}|Bubbletea|`,
      `package-missing|${l('Cobra')}|Cobra|`,
      `package-missing|${l('Chi router')}|Chi|`,
      `package-missing|${l('uses Wire')}|Wire|`,
      `package-missing|${l('uses `gin`')}|gin|`,
    ]);
    expect(report.findings.find((f) => f.ref === 'Cobra')!.message).toMatch(
      /^`Cobra` \(module `github\.com\/spf13\/cobra`\) is no longer a dependency of any manifest: it was removed from `go\.mod` in [0-9a-f]{7} \(2026-03-01, "Drop gin, chi, wire, cobra and bubbletea"\) \(that commit added `github\.com\/urfave\/cli\/v3` and `github\.com\/rivo\/tview`, and removed `github\.com\/gin-gonic\/gin`, `github\.com\/charmbracelet\/bubbletea`, `github\.com\/go-chi\/chi\/v5` and 1 more too\); remove the reference or name what replaced it\.$/,
    );
    expect(report.findings.find((f) => f.ref === 'Chi')!.message).toMatch(/^`Chi` \(module `github\.com\/go-chi\/chi\/v5`\) is no longer a dependency/);
  });

  it('reviews the entries naming live paths, deletes the others (no successor to write); a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(planRows(res.plan)).toEqual([
      `review|4|${l('a Gin HTTP')}`,
      `review|4|${l('Bubbletea')}`,
      `review|4|${l('Cobra')}`,
      `delete|4|${l('Chi router')}`,
      `delete|4|${l('uses Wire')}`,
      `delete|4|${l('uses `gin`')}`,
    ]);
    const after = await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8');
    expect(after).toContain('- Wire the handlers in `main.go` by hand.');
    expect(after).toContain('- The Wire Format section of the protocol doc is normative.');
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('Go display names that stay quiet', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '- `server/routes.go` starts a Gin HTTP server.',
    '- Interactive chat TUI (`cmd/tui/` — Bubbletea).',
    '- `main.go` dispatches Cobra subcommands.',
    '- Dependency injection uses Wire.',
    '',
  ].join('\n');

  it('stays quiet while the modules are still declared', async () => {
    const r = await makeRepo();
    await r.write('go.mod', GO_MOD_BEFORE);
    await r.write('main.go', 'package main\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-11-01');
    await r.write('go.mod', GO_MOD_BEFORE.replace('\tgithub.com/go-chi/chi/v5 v5.1.0\n', ''));
    await r.commit('Drop chi', '2026-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => PKG.has(f.kind))).toEqual([]);
  });

  it('stays quiet for capitalised words equal to the last segment of modules the repository never had', async () => {
    const r = await makeRepo();
    await r.write('go.mod', 'module example.com/app\n\ngo 1.24.0\n\nrequire (\n\tgithub.com/sirupsen/logrus v1.9.3\n\tgithub.com/rivo/tview v0.42.0\n)\n');
    await r.write('main.go', 'package main\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-11-01');
    await r.write('go.mod', 'module example.com/app\n\ngo 1.24.0\n\nrequire github.com/rivo/tview v0.42.0\n');
    await r.commit('Drop logrus', '2026-03-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(findingRows(report, (f) => PKG.has(f.kind))).toEqual([]);
  });
});
