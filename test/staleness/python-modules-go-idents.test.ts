// Dotted Python names of the repository's own packages (`celery._state.get_current_app()`,
// `python -m acme.tools.migrate`, `gunicorn acme.wsgi:app`) name module files: when the module
// moved they are corrected to the new dotted name (attribute tail kept), when it was deleted they
// are reported. Go `dir/pkg.Ident` references and templated paths (`pkg/register/<name>.go`)
// name folders: a moved folder is corrected keeping `.Ident(…)` / `<name>.go`. A whole inline
// code span `tests/x.py:42` is the path `tests/x.py`. Third-party and standard-library names,
// existing modules and folders say nothing. Real git repositories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { extractReferences } from '../../src/memory/references.js';
import type { Entry, Finding, MemoryFile, Report } from '../../src/types.js';
import { body, cleanupRepos, findingRows, lineOfText, makeRepo, planRows, shallowClone, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const KINDS = new Set(['path-missing', 'path-renamed', 'path-unverified']);
const rows = (r: Report) => findingRows(r, (f: Finding) => KINDS.has(f.kind));
const read = (r: Repo, f: string) => readFile(path.join(r.dir, f), 'utf8');
const short = (sha: string) => sha.slice(0, 7);

afterAll(cleanupRepos);

/** The path references of one line of inline code, as `raw@start`. */
function pathRefs(text: string): string[] {
  const file = { path: 'CLAUDE.md', text, format: 'claude-md' } as unknown as MemoryFile;
  const entry = { id: 'e', file: 'CLAUDE.md', format: 'claude-md', line: 1, endLine: 1, start: 0, end: text.length, kind: 'item', text, headings: [], refs: [] } as unknown as Entry;
  return extractReferences(entry, file)
    .filter((r) => r.kind === 'path')
    .map((r) => `${r.raw}@${r.start}${r.weak ? ' weak' : ''}`);
}

describe('extraction', () => {
  it('reads dotted Python names, Go package folders before an identifier, templated folders and `file:line` spans', () => {
    expect(pathRefs('- `celery._state.get_current_app()`')).toEqual(['celery._state.get_current_app@3 weak']);
    expect(pathRefs('- `python -m acme.tools.migrate --dry-run`')).toEqual(['acme.tools.migrate@13 weak']);
    expect(pathRefs('- `gunicorn acme.wsgi:app`')).toEqual(['acme.wsgi@12 weak']);
    expect(pathRefs('- `runtime/esutils/resolvers.SecretKeyRef(ctx, kube)`')).toEqual(['runtime/esutils/resolvers@3 weak']);
    // a single span: the folder, and the span as written (a module specifier, as before)
    expect(pathRefs('- `pkg/util.NewClient`')).toEqual(['pkg/util@3 weak', 'pkg/util.NewClient@3 weak']);
    expect(pathRefs('- `pkg/register/<name>.go`')).toEqual(['pkg/register/@3 weak']);
    expect(pathRefs('- `tests/test_x.py:42`')).toEqual(['tests/test_x.py@3']);
    expect(pathRefs('- `src/a.ts:42:7`')).toEqual(['src/a.ts@3']);
    // not folders: a file's suffix, a lone top folder of a template, a placeholder, a module path
    expect(pathRefs('- `perl/Makefile.PL`, `docs/README.Md`')).toEqual(['perl/Makefile.PL@3', 'docs/README.Md@23']);
    expect(pathRefs('- `src/{platform}-auth.ts`, `path/to/<x>.go`, `k8s.io/api/core/v1.Pod`')).toEqual([]);
    expect(pathRefs('- `localhost:3000`, `redis:7`')).toEqual([]);
  });
});

describe('Python modules of the own packages after moves and a deletion', () => {
  const memory = [
    '# Notes',
    '- The default app is accessible via `celery._state.get_current_app()`.',
    '- Migrations: `python -m acme.tools.migrate --dry-run`',
    '- Loader lives in `acme.ingest.loader` (`src/acme/ingest/loader.py`).',
    '- The nightly job calls `acme.legacy.import_all`.',
    '- Version string: `acme._version.__version__`.',
    '- S3 storage: `acme.plugins.s3.S3Store`.',
    '- Flaky: `tests/test_loader.py:42`.',
    '- Settings: `celery.app.base` holds the `Celery` class; `app.conf` holds config.',
    '- HTTP goes through `requests.adapters.HTTPAdapter`; paths through `os.path.join`.',
    '',
    '```bash',
    'gunicorn acme.wsgi:app',
    '```',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let moved = '';
  let removed = '';

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('pyproject.toml', '[project]\nname = "acme"\nversion = "1.0.0"\n');
    for (const f of [
      'celery/__init__.py',
      'celery/_state.py',
      'celery/app/__init__.py',
      'celery/app/base.py',
      'src/acme/__init__.py',
      'src/acme/tools/__init__.py',
      'src/acme/tools/migrate.py',
      'src/acme/ingest/__init__.py',
      'src/acme/ingest/loader.py',
      'src/acme/legacy.py',
      'src/acme/_version.py',
      'src/acme/plugins/__init__.py',
      'src/acme/plugins/s3.py',
      'src/acme/wsgi.py',
      'tests/test_loader.py',
      // a vendored copy of a third-party package, removed below: its names import the installed one
      'requests/__init__.py',
      'requests/adapters.py',
    ]) await r.write(f, body(f));
    await r.write('CLAUDE.md', memory);
    await r.commit('Initial layout', '2026-01-01');
    await r.move('celery/_state.py', 'celery/app/_state.py');
    await r.move('src/acme/tools/migrate.py', 'src/acme/db/migrate.py');
    await r.write('src/acme/db/__init__.py', body('src/acme/db/__init__.py', 'db'));
    await r.move('src/acme/ingest/loader.py', 'src/acme/ingest/readers/loader.py');
    await r.write('src/acme/ingest/readers/__init__.py', body('src/acme/ingest/readers/__init__.py', 'readers'));
    // into another import package: no dotted name of `acme` to write
    await r.move('src/acme/plugins/s3.py', 'src/acme_ext/s3.py');
    await r.write('src/acme_ext/__init__.py', body('src/acme_ext/__init__.py', 'ext'));
    await r.move('src/acme/wsgi.py', 'src/acme/web/wsgi.py');
    await r.write('src/acme/web/__init__.py', body('src/acme/web/__init__.py', 'web'));
    await r.move('tests/test_loader.py', 'tests/ingest/test_loader.py');
    moved = short(await r.commit('Move modules into subpackages', '2026-02-01'));
    await r.remove('src/acme/legacy.py');
    // generated from now on (setuptools-scm): out of git, not gone
    await r.remove('src/acme/_version.py');
    await r.write('.gitignore', 'src/acme/_version.py\n');
    await r.write('src/acme/_version.py', body('generated'));
    await r.remove('requests');
    removed = short(await r.commit('Remove the legacy importer and the vendored requests', '2026-03-01'));
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports each moved or deleted module once, with the dotted successor, and nothing else', () => {
    expect(rows(report)).toEqual([
      `path-renamed|${l('celery._state')}|celery._state.get_current_app|celery.app._state.get_current_app`,
      `path-renamed|${l('python -m')}|acme.tools.migrate|acme.db.migrate`,
      `path-renamed|${l('Loader lives')}|acme.ingest.loader|acme.ingest.readers.loader`,
      `path-renamed|${l('Loader lives')}|src/acme/ingest/loader.py|src/acme/ingest/readers/loader.py`,
      `path-missing|${l('acme.legacy')}|acme.legacy.import_all|`,
      `path-renamed|${l('acme.plugins.s3')}|acme.plugins.s3.S3Store|`,
      `path-renamed|${l('Flaky')}|tests/test_loader.py|tests/ingest/test_loader.py`,
      `path-renamed|${l('gunicorn')}|acme.wsgi|acme.web.wsgi`,
    ]);
    const msg = (ref: string) => report.findings.find((f) => f.ref === ref)!.message;
    const mv = `${moved} (2026-02-01, "Move modules into subpackages")`;
    expect(msg('celery._state.get_current_app')).toBe(
      `\`celery._state.get_current_app\` (module \`celery/_state.py\`) was renamed to \`celery/app/_state.py\` in ${mv}; the module is now \`celery.app._state\`: update the reference.`,
    );
    expect(msg('acme.legacy.import_all')).toBe(
      `\`acme.legacy.import_all\` (module \`src/acme/legacy.py\`) was deleted in ${removed} (2026-03-01, "Remove the legacy importer and the vendored requests") by Test Author; remove the reference or point it at what replaced it.`,
    );
    expect(msg('acme.plugins.s3.S3Store')).toBe(
      `\`acme.plugins.s3.S3Store\` (module \`src/acme/plugins/s3.py\`) was renamed to \`src/acme_ext/s3.py\` in ${mv}; update the reference by hand (the new file is no module of the \`acme\` package).`,
    );
    const f = report.findings.find((x) => x.ref === 'acme.tools.migrate')!;
    expect(f.evidence).toMatchObject({ path: 'src/acme/tools/migrate.py', now: 'acme.db.migrate', date: '2026-02-01' });
  });

  it('corrects the dotted names in place (call, attribute and `:app` kept); a second prune changes nothing; restore brings the bytes back', async () => {
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(planRows(first.plan)).toEqual([
      `update|4|${l('celery._state')}`,
      `update|4|${l('python -m')}`,
      `update|4|${l('Loader lives')}`,
      `delete|4|${l('acme.legacy')}`,
      `review|4|${l('acme.plugins.s3')}`,
      `update|4|${l('Flaky')}`,
      `update|4|${l('```bash')}`,
    ]);
    const lines = memory.split('\n');
    const set = (needle: string, text: string) => (lines[l(needle) - 1] = text);
    set('celery._state', '- The default app is accessible via `celery.app._state.get_current_app()`. [corrected 2026-06-01]');
    set('python -m', '- Migrations: `python -m acme.db.migrate --dry-run` [corrected 2026-06-01]');
    set('Loader lives', '- Loader lives in `acme.ingest.readers.loader` (`src/acme/ingest/readers/loader.py`). [corrected 2026-06-01]');
    set('Flaky', '- Flaky: `tests/ingest/test_loader.py:42`. [corrected 2026-06-01]');
    set('gunicorn', 'gunicorn acme.web.wsgi:app');
    lines.splice(l('acme.legacy') - 1, 1);
    const text = await read(r, 'CLAUDE.md');
    expect(text).toBe(lines.join('\n'));
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
    expect(await read(r, 'CLAUDE.md')).toBe(text);
    const { records } = parseArchive(await read(r, '.memory-audit/archive.jsonl'));
    const ids = [...new Set(records.map((x) => x.entryId))];
    expect(ids).toHaveLength(6);
    for (const id of ids) await runRestore({ root: r.dir, id });
    expect(await read(r, 'CLAUDE.md')).toBe(memory);
  });

  it('says nothing with a shallow history', async () => {
    const dir = await shallowClone(r);
    const { report: shallow } = await audit({ root: dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(shallow).filter((x) => !x.includes('/'))).toEqual([]);
  });
});

describe('Go package folders before an identifier and templated folders after folder moves', () => {
  const memory = [
    '# External Secrets Operator',
    '',
    'A provider is its own Go module under `providers/v1/<name>/` with no build tags on the package itself.',
    'Build tags live in `pkg/register/<name>.go`.',
    '',
    '- `runtime/esutils/resolvers.SecretKeyRef(ctx, kube, storeKind, namespace, ref)` for credential resolution.',
    '- Patches `runtime/esutils/resolvers/generator.go` `clusterGeneratorToVirtual` switch.',
    '- `runtime/esutils.FetchCACertFromSource(ctx, esutils.CreateCertOpts{...})` for CA bundles.',
    '- Old webhooks: `pkg/legacy.Serve(mgr)`.',
    '- Code generation: `hack/gen.Main` drives it.',
    '- Plugins: `internal/plugins/{name}/plugin.go`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let moved = '';

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('go.mod', 'module github.com/external-secrets/external-secrets\n\ngo 1.25.0\n\nreplace github.com/external-secrets/external-secrets/runtime => ./runtime\n');
    await r.write('runtime/go.mod', 'module github.com/external-secrets/external-secrets/runtime\n\ngo 1.25.0\n');
    for (const f of [
      'main.go',
      'runtime/esutils/utils.go',
      'runtime/esutils/resolvers/secretkeyref.go',
      'runtime/esutils/resolvers/generator.go',
      'pkg/register/aws.go',
      'pkg/register/vault.go',
      'pkg/legacy/webhook.go',
      'hack/gen',
      'internal/plugins/aws/plugin.go',
    ]) await r.write(f, body(f));
    await r.write('AGENTS.md', memory);
    await r.commit('init', '2025-09-15');
    await r.move('runtime/esutils/resolvers', 'runtime/resolvers');
    await r.move('pkg/register', 'internal/register');
    // a file, not a package folder: `hack/gen.Main` names no folder that moved
    await r.move('hack/gen', 'hack/generate');
    await r.move('internal/plugins', 'plugins');
    await r.remove('pkg/legacy');
    moved = short(await r.commit('Move resolvers and register packages', '2026-01-20'));
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports the moved folders once each, written the way the text wrote them', () => {
    expect(rows(report)).toEqual([
      `path-renamed|${l('pkg/register')}|pkg/register/|internal/register/`,
      `path-renamed|${l('resolvers.SecretKeyRef')}|runtime/esutils/resolvers|runtime/resolvers`,
      `path-renamed|${l('resolvers/generator.go')}|runtime/esutils/resolvers/generator.go|runtime/resolvers/generator.go`,
      `path-missing|${l('pkg/legacy')}|pkg/legacy|`,
      `path-renamed|${l('internal/plugins')}|internal/plugins/|plugins/`,
    ]);
    expect(report.findings.find((f) => f.ref === 'runtime/esutils/resolvers')!.message).toBe(
      `Directory \`runtime/esutils/resolvers\` was moved to \`runtime/resolvers/\` in ${moved} (2026-01-20, "Move resolvers and register packages"); update the reference.`,
    );
  });

  it('corrects the folders keeping `.Ident(…)` and the placeholder tail; a second prune changes nothing; restore brings the bytes back', async () => {
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(planRows(first.plan)).toEqual([
      `update|4|${l('A provider')}`,
      `update|4|${l('resolvers.SecretKeyRef')}`,
      `update|4|${l('resolvers/generator.go')}`,
      `delete|4|${l('pkg/legacy')}`,
      `update|4|${l('internal/plugins')}`,
    ]);
    const lines = memory.split('\n');
    const set = (needle: string, text: string) => (lines[l(needle) - 1] = text);
    set('pkg/register', 'Build tags live in `internal/register/<name>.go`. [corrected 2026-06-01]');
    set('resolvers.SecretKeyRef', '- `runtime/resolvers.SecretKeyRef(ctx, kube, storeKind, namespace, ref)` for credential resolution. [corrected 2026-06-01]');
    set('resolvers/generator.go', '- Patches `runtime/resolvers/generator.go` `clusterGeneratorToVirtual` switch. [corrected 2026-06-01]');
    set('internal/plugins', '- Plugins: `plugins/{name}/plugin.go`. [corrected 2026-06-01]');
    lines.splice(l('pkg/legacy') - 1, 1);
    const text = await read(r, 'AGENTS.md');
    expect(text).toBe(lines.join('\n'));
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
    expect(await read(r, 'AGENTS.md')).toBe(text);
    const { records } = parseArchive(await read(r, '.memory-audit/archive.jsonl'));
    for (const id of [...new Set(records.map((x) => x.entryId))]) await runRestore({ root: r.dir, id });
    expect(await read(r, 'AGENTS.md')).toBe(memory);
  });
});

describe('a healthy repository: third-party, standard-library and existing names say nothing', () => {
  it('reports nothing', async () => {
    const memory = [
      '# Notes',
      '- Models: `django.db.models.Model`, `np.linalg.norm(x)`, `pd.DataFrame`, `self.client.get()`.',
      '- Use `os.path.join` and `asyncio.run(main())`; `json.loads` for payloads.',
      '- Migrations: `python -m acme.db.migrate --dry-run`, `python -m pytest`, `python -m http.server`.',
      '- `acme.db.migrate.run(db)` and `acme.utils.slugify` are the entry points; settings in `acme.settings.DEBUG`.',
      '- Serve with `gunicorn acme.web.wsgi:app`; the CLI is `acme.cli:main`.',
      '- Namespace package: `acme_plugins.s3.S3Store`.',
      '- Go: `fmt.Println`, `http.StatusOK`, `internal/register.Register(ctx)`, `pkg/util.NewClient`.',
      '- Templates: `internal/register/<name>.go`, `plugins/{name}/plugin.go`, `providers/v1/<name>/`.',
      '- Failing test: `tests/test_loader.py:42`.',
      '',
    ].join('\n');
    const r = await makeRepo();
    await r.write('pyproject.toml', '[project]\nname = "acme"\nversion = "1.0.0"\n');
    await r.write('plugins/pyproject.toml', '[project]\nname = "acme-plugins"\nversion = "0.1.0"\n');
    for (const f of [
      'src/acme/__init__.py',
      'src/acme/db/__init__.py',
      'src/acme/db/migrate.py',
      'src/acme/utils/__init__.py',
      'src/acme/web/__init__.py',
      'src/acme/web/wsgi.py',
      'src/acme/cli.py',
      'plugins/src/acme_plugins/s3.py',
      'tests/test_loader.py',
      'go.mod',
      'internal/register/aws.go',
      'pkg/util/client.go',
      'plugins/aws/plugin.go',
    ]) await r.write(f, body(f));
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2026-01-01');
    // history that moved things around before landing where the memory says
    await r.move('src/acme/utils/__init__.py', 'src/acme/utils.py');
    await r.move('src/acme/utils.py', 'src/acme/utils/__init__.py');
    await r.commit('shuffle', '2026-02-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual([]);
    expect(report.plan.filter((p) => p.action !== 'keep')).toEqual([]);
  });
});
