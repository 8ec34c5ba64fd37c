// Workspace members renamed by their own manifest (QA: rust-analyzer, deno, zed, uv workspaces):
// the commit that drops a member's `[package] name` / `[project] name` / package.json `name` and
// sets another one in the same manifest (or in the manifest at the place it moved the member to)
// names the successor: `package-renamed`, corrected in place, whatever the dependencies on the
// member did in that commit. Real git repositories in temp folders, audited end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Finding, Report } from '../../src/types.js';
import { body, cleanupRepos, lineOfText, makeRepo, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PKG = new Set(['package-missing', 'package-renamed']);

afterAll(cleanupRepos);

/** kind | line | ref | suggestion.replace (empty when none) */
function rows(findings: Finding[]): string[] {
  return findings
    .filter((f) => f.file === 'CLAUDE.md' && PKG.has(f.kind))
    .sort((a, b) => a.line - b.line || (a.ref ?? '').localeCompare(b.ref ?? ''))
    .map((f) => `${f.kind}|${f.line}|${f.ref ?? ''}|${f.suggestion?.replace ?? ''}`);
}

function at(report: Report, ref: string): Finding {
  const f = report.findings.find((x) => x.ref === ref && PKG.has(x.kind));
  if (!f) throw new Error(`no package finding for ${ref}`);
  return f;
}

const crate = (name: string, extra = '') => `[package]\nname = "${name}"\nversion = "0.0.0"\nedition = "2021"\n${extra}`;
const short = async (r: Repo) => (await r.git.revparse(['HEAD'])).trim().slice(0, 7);

describe('Cargo workspace members renamed by their own Cargo.toml', () => {
  const memory = [
    '# Crates',
    '',
    '- The `hir-ty` crate holds type inference.',
    '- `hir-def` lowers the item tree.',
    '- In Rust code the crate is `hir_ty`.',
    '- Parsing lives in the `syntax` crate.',
    '- Macro expansion is in `mbe`.',
    '- `legacy-proc` generated the proc-macro glue.',
    '- `cfg-old` evaluates cfg flags.',
    '- Serialization uses `serde`; `base-db` stores the inputs; trees are `rowan` trees.',
    '- `hir-nope` is not a crate here.',
    '- Check the syntax before committing.',
    '- Type tests: `cargo test -p hir-ty`; `cargo build --package base-db` and `cargo test -p hir-nope` stay as they are.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  const sha: Record<string, string> = {};

  beforeAll(async () => {
    r = await makeRepo();
    const ideDeps = (names: string[]) => `\n[dependencies]\nserde = "1"\n${names.map((n) => `${n} = { path = "../${n}" }\n`).join('')}`;
    await r.write('Cargo.toml', '[workspace]\nmembers = ["crates/*"]\n');
    for (const c of ['hir-ty', 'hir-def', 'mbe', 'legacy-proc', 'cfg-old', 'base-db', 'rowan']) {
      await r.write(`crates/${c}/Cargo.toml`, crate(c));
      await r.write(`crates/${c}/src/lib.rs`, body(c));
    }
    await r.write('crates/syntax/Cargo.toml', crate('syntax', 'description = "Concrete syntax trees"\n'));
    await r.write('crates/syntax/src/lib.rs', body('syntax'));
    await r.write('crates/ide/Cargo.toml', crate('ide', ideDeps(['hir-ty', 'hir-def', 'mbe', 'legacy-proc', 'cfg-old', 'base-db', 'syntax'])));
    await r.write('crates/ide/src/lib.rs', body('ide'));
    await r.commit('Initial', '2025-10-01');
    // Two members renamed with their folders in one commit; the dependency on each is renamed in
    // `crates/ide/Cargo.toml` too (two out, two in: no one-for-one swap there). Their small
    // Cargo.toml files look alike: git pairs them crosswise (`hir-ty/Cargo.toml` ->
    // `hir-definitions/Cargo.toml`), their sources pair with their own folders.
    await r.move('crates/hir-ty', 'crates/hir-types');
    await r.move('crates/hir-def', 'crates/hir-definitions');
    await r.write('crates/hir-types/Cargo.toml', crate('hir-types'));
    await r.write('crates/hir-definitions/Cargo.toml', crate('hir-definitions'));
    await r.write('crates/ide/Cargo.toml', crate('ide', ideDeps(['hir-types', 'hir-definitions', 'mbe', 'legacy-proc', 'cfg-old', 'base-db', 'syntax'])));
    // The vendored `rowan` member is renamed; the next commit depends on `rowan` from crates.io.
    await r.write('crates/rowan/Cargo.toml', crate('rowan-fork'));
    await r.commit('Rename hir-ty and hir-def', '2026-01-10');
    sha.hir = await short(r);
    // The folder moves (its source file pairs) but its Cargo.toml is rewritten beyond pairing.
    await r.move('crates/syntax', 'crates/parser');
    await r.write(
      'crates/parser/Cargo.toml',
      '[package]\nname = "parser"\nversion = "0.1.0"\nauthors = ["The Parser Team"]\nlicense = "MIT OR Apache-2.0"\nrust-version = "1.80"\nedition.workspace = true\n\n[dependencies]\nrowan = "0.15"\nsmol_str = "0.3"\n\n[dev-dependencies]\nexpect-test = "1.5"\n',
    );
    await r.write('crates/ide/Cargo.toml', crate('ide', ideDeps(['hir-types', 'hir-definitions', 'mbe', 'legacy-proc', 'cfg-old', 'base-db', 'parser'])));
    await r.commit('Rewrite the parser crate', '2026-01-20');
    sha.parser = await short(r);
    // Renamed in place, then renamed again with its folder: the last name is the successor.
    await r.write('crates/mbe/Cargo.toml', crate('macro-by-example'));
    await r.write('crates/ide/Cargo.toml', crate('ide', ideDeps(['hir-types', 'hir-definitions', 'macro-by-example', 'legacy-proc', 'cfg-old', 'base-db', 'parser'])));
    await r.commit('mbe becomes macro-by-example', '2026-02-01');
    sha.mbe = await short(r);
    await r.move('crates/mbe', 'crates/tt-macros');
    await r.write('crates/tt-macros/Cargo.toml', crate('tt-macros'));
    await r.write('crates/ide/Cargo.toml', crate('ide', ideDeps(['hir-types', 'hir-definitions', 'tt-macros', 'legacy-proc', 'cfg-old', 'base-db', 'parser'])));
    await r.commit('macro-by-example becomes tt-macros', '2026-02-15');
    // Deleted outright: no successor.
    await r.remove('crates/legacy-proc');
    await r.write('crates/ide/Cargo.toml', crate('ide', ideDeps(['hir-types', 'hir-definitions', 'tt-macros', 'cfg-old', 'base-db', 'parser'])));
    await r.commit('Drop legacy-proc', '2026-03-01');
    sha.legacy = await short(r);
    // Renamed, then the renamed crate deleted: no live successor.
    await r.write('crates/cfg-old/Cargo.toml', crate('cfg-new'));
    await r.write('crates/ide/Cargo.toml', crate('ide', ideDeps(['hir-types', 'hir-definitions', 'tt-macros', 'cfg-new', 'base-db', 'parser'])));
    await r.commit('cfg-old becomes cfg-new', '2026-03-05');
    await r.remove('crates/cfg-old');
    await r.write('crates/ide/Cargo.toml', crate('ide', ideDeps(['hir-types', 'hir-definitions', 'tt-macros', 'base-db', 'parser'])));
    await r.commit('Drop cfg-new', '2026-03-10');
    sha.cfg = await short(r);
    await r.write('CLAUDE.md', memory);
    await r.commit('memory', '2026-04-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('names the successor a member took in its own manifest, in place or where it moved', () => {
    expect(rows(report.findings)).toEqual([
      `package-renamed|${l('`hir-ty` crate')}|hir-ty|hir-types`,
      `package-renamed|${l('`hir-def`')}|hir-def|hir-definitions`,
      `package-renamed|${l('`hir_ty`')}|hir_ty|hir_types`,
      `package-renamed|${l('`syntax`')}|syntax|parser`,
      `package-renamed|${l('`mbe`')}|mbe|tt-macros`,
      `package-missing|${l('`legacy-proc`')}|legacy-proc|`,
      `package-missing|${l('`cfg-old`')}|cfg-old|`,
      // Live members (`base-db`), names still a dependency somewhere (`rowan`, the renamed member's
      // old name), never-declared names: nothing. A plain word in prose that was a member's name
      // (`syntax`) is the word: nothing.
      // `cargo -p` selects a workspace member: renamed -> its successor; live or never declared -> nothing.
      `package-renamed|${l('Type tests')}|hir-ty|hir-types`,
    ]);
    expect(at(report, 'hir-ty').message).toBe(
      `\`hir-ty\` no longer names any package: it was renamed to \`hir-types\` (\`crates/hir-types/Cargo.toml\`) in ${sha.hir} (2026-01-10, "Rename hir-ty and hir-def"); update the reference.`,
    );
    expect(at(report, 'hir-ty').evidence).toMatchObject({ manifest: 'crates/hir-types/Cargo.toml', now: 'hir-types', package: 'hir-ty', renamed: true });
    // The rewritten Cargo.toml did not pair with itself: its folder's source file says where it went.
    expect(at(report, 'syntax').message).toBe(
      `\`syntax\` no longer names any package: it was renamed to \`parser\` (\`crates/parser/Cargo.toml\`) in ${sha.parser} (2026-01-20, "Rewrite the parser crate"); update the reference.`,
    );
    expect(at(report, 'mbe').message).toBe(
      `\`mbe\` no longer names any package: it was renamed to \`macro-by-example\` (\`crates/mbe/Cargo.toml\`) in ${sha.mbe} (2026-02-01, "mbe becomes macro-by-example"), later renamed to \`tt-macros\`; update the reference.`,
    );
    // A deleted member and a rename whose successor was deleted have no successor (the dependency history says so).
    expect(at(report, 'legacy-proc').message).toBe(
      `\`legacy-proc\` is no longer a dependency of any manifest: it was removed from \`crates/ide/Cargo.toml\` in ${sha.legacy} (2026-03-01, "Drop legacy-proc"); remove the reference or name what replaced it.`,
    );
    expect(at(report, 'cfg-old').message).toContain('`cfg-old` is no longer a dependency of any manifest: it was removed from `crates/ide/Cargo.toml` in ');
  });

  it('corrects the renamed members in place; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    const planOf = (line: number) => res.plan.find((p) => p.line === line);
    for (const s of ['`hir-ty` crate', '`hir-def`', '`hir_ty`', '`syntax`', '`mbe`', 'Type tests']) expect(planOf(l(s))).toMatchObject({ action: 'update', rule: 4 });
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(
      [
        '# Crates',
        '',
        '- The `hir-types` crate holds type inference. [corrected 2026-06-01]',
        '- `hir-definitions` lowers the item tree. [corrected 2026-06-01]',
        '- In Rust code the crate is `hir_types`. [corrected 2026-06-01]',
        '- Parsing lives in the `parser` crate. [corrected 2026-06-01]',
        '- Macro expansion is in `tt-macros`. [corrected 2026-06-01]',
        '- Serialization uses `serde`; `base-db` stores the inputs; trees are `rowan` trees.',
        '- `hir-nope` is not a crate here.',
        '- Check the syntax before committing.',
        '- Type tests: `cargo test -p hir-types`; `cargo build --package base-db` and `cargo test -p hir-nope` stay as they are. [corrected 2026-06-01]',
        '',
      ].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('uv workspace members and package.json workspaces renamed by their own manifest', () => {
  const memory = [
    '# Platform',
    '',
    '- The `acme-ingest` package pulls the feeds.',
    '- Import it as `acme_ingest` in tests.',
    '- HTTP goes through `httpx`; the `acme-api` package serves it.',
    '- The `web` package holds the UI.',
    '- Never seen: `acme-nothing`.',
    '- Run its tests with `uv run --package acme-ingest pytest`.',
    '',
    '```bash',
    'uv sync --package acme-api',
    'uv run --package acme-ingest pytest  # the feeds',
    'cargo test -p hir-ty',
    '```',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let report: Report;
  const sha: Record<string, string> = {};

  beforeAll(async () => {
    const r = await makeRepo();
    await r.write('pyproject.toml', '[project]\nname = "acme-platform"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n\n[tool.uv.workspace]\nmembers = ["python/*"]\n');
    await r.write('python/ingest/pyproject.toml', '[project]\nname = "acme-ingest"\nversion = "0.1.0"\ndependencies = ["httpx>=0.27"]\n');
    await r.write('python/ingest/src/acme_ingest/__init__.py', body('ingest'));
    const api = (dep: string) => `[project]\nname = "acme-api"\nversion = "0.1.0"\ndependencies = ["${dep}", "httpx>=0.27"]\n\n[tool.uv.sources]\n${dep} = { workspace = true }\n`;
    await r.write('python/api/pyproject.toml', api('acme-ingest'));
    await r.write('python/api/src/acme_api/__init__.py', body('api'));
    await r.write('package.json', '{\n  "name": "root",\n  "private": true,\n  "workspaces": ["apps/*"]\n}\n');
    await r.write('apps/web/package.json', '{\n  "name": "web",\n  "version": "1.0.0"\n}\n');
    await r.write('apps/web/src/index.ts', body('web'));
    await r.commit('init', '2025-03-01');
    // The distribution is renamed with its folder; its import package `acme_ingest` keeps its name.
    await r.move('python/ingest', 'python/ingestion');
    await r.write('python/ingestion/pyproject.toml', '[project]\nname = "acme-ingestion"\nversion = "0.1.0"\ndependencies = ["httpx>=0.27"]\n');
    await r.write('python/api/pyproject.toml', api('acme-ingestion'));
    await r.commit('Rename ingest package', '2025-08-01');
    sha.ingest = (await r.git.revparse(['HEAD'])).trim().slice(0, 7);
    await r.move('apps/web', 'apps/site');
    await r.write('apps/site/package.json', '{\n  "name": "site",\n  "version": "1.0.0"\n}\n');
    await r.commit('Rename web to site', '2025-09-01');
    sha.web = (await r.git.revparse(['HEAD'])).trim().slice(0, 7);
    await r.write('CLAUDE.md', memory);
    await r.commit('memory', '2025-10-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('renames the pyproject and package.json names; the import package folder and live names give nothing', () => {
    expect(rows(report.findings)).toEqual([
      `package-renamed|${l('`acme-ingest`')}|acme-ingest|acme-ingestion`,
      `package-renamed|${l('`web`')}|web|site`,
      `package-renamed|${l('Run its tests')}|acme-ingest|acme-ingestion`,
      `package-renamed|${l('uv run --package acme-ingest pytest  #')}|acme-ingest|acme-ingestion`,
    ]);
    expect(at(report, 'acme-ingest').message).toBe(
      `\`acme-ingest\` no longer names any package: it was renamed to \`acme-ingestion\` (\`python/ingestion/pyproject.toml\`) in ${sha.ingest} (2025-08-01, "Rename ingest package"); update the reference.`,
    );
    expect(at(report, 'web').message).toBe(
      `\`web\` no longer names any package: it was renamed to \`site\` (\`apps/site/package.json\`) in ${sha.web} (2025-09-01, "Rename web to site"); update the reference.`,
    );
    const planOf = (line: number) => report.plan.find((p) => p.line === line);
    expect(planOf(l('`acme-ingest`'))).toMatchObject({ action: 'update', rule: 4 });
    expect(planOf(l('`web`'))).toMatchObject({ action: 'update', rule: 4 });
  });
});
