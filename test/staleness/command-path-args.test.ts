// Path references missed before: the file arguments of a package-manager script run by its
// shorthand (`pnpm test test/x.test.ts`, `npm test -- x`), build and docs files whose extension or
// name the path reader did not know (`MANIFEST.in`, `Pipfile`, `WORKSPACE`, `build.sbt`), and Go
// package patterns (`go test ./internal/api/...`). Extraction checked exactly; real git
// histories audited and pruned end to end.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { extractReferences } from '../../src/memory/references.js';
import { asPath } from '../../src/memory/refs/paths.js';
import type { Reference, Report } from '../../src/types.js';
import { cleanupRepos, findingRows, makeRepo, pkg, type Repo } from './helpers.js';
import { entryOf, fileOf } from './refs-helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

const refs = (text: string, file = 'AGENTS.md'): Reference[] => {
  const f = fileOf(text, file, 'agents-md');
  return extractReferences(entryOf(f), f);
};
/** `line|raw|base|workspace|weak` of the path references. */
const paths = (rs: Reference[]) => rs.filter((r) => r.kind === 'path').map((r) => `${r.line}|${r.raw}|${r.base ?? ''}|${r.workspace ?? ''}|${r.weak ? 'weak' : ''}`);
const pathRows = (res: Report) => findingRows(res, (f) => f.kind.startsWith('path-'));

describe('file arguments of a package-manager script run by its shorthand', () => {
  it('are paths when they hold a `/` and end in a known extension, relative to the folder the command runs in', () => {
    const rs = refs(
      [
        '```bash',
        'cd packages/back-end',
        'pnpm test test/services/stats.test.ts',
        'pnpm test -- test/models/metric.test.ts',
        'npm test -- --runInBand test/a/b.spec.js',
        'yarn start src/server.ts',
        'npm t "test/quoted/q.test.ts"',
        '```',
      ].join('\n'),
    );
    expect(paths(rs)).toEqual([
      '2|packages/back-end|||',
      '3|test/services/stats.test.ts|packages/back-end/||',
      '4|test/models/metric.test.ts|packages/back-end/||',
      '5|test/a/b.spec.js|packages/back-end/||',
      '6|src/server.ts|packages/back-end/||',
      '7|test/quoted/q.test.ts|packages/back-end/||',
    ]);
    expect(rs.filter((r) => r.kind === 'command').map((r) => `${r.line}|${r.value}|${r.base ?? ''}`)).toEqual([
      '3|pnpm test|packages/back-end/',
      '4|pnpm test|packages/back-end/',
      '5|npm test|packages/back-end/',
      '6|yarn start|packages/back-end/',
      '7|npm t|packages/back-end/',
    ]);
  });

  it('a test-name filter, a folder, a name without a folder or an option value is no path', () => {
    const rs = refs(
      [
        '- `pnpm test auth`, `pnpm test src/auth`, `pnpm test user.test.ts`, `npm test -- -t login/flow`',
        '- `yarn test --coverage`, `pnpm test -- --grep "a b"`, `npm test NODE_ENV=ci/x.ts`',
      ].join('\n'),
    );
    expect(paths(rs)).toEqual([]);
  });

  it('with a workspace selector, the path carries the workspace instead of the shell folder', () => {
    const rs = refs(
      [
        '```sh',
        'cd web',
        'pnpm --filter back-end test test/services/other.test.ts',
        'yarn workspace api test src/x.test.ts',
        'npm -w docs test -- src/y.test.ts',
        'pnpm -r test test/z.test.ts',
        'pnpm test test/w.test.ts --filter ui',
        '```',
      ].join('\n'),
    );
    expect(paths(rs)).toEqual([
      '2|web|||weak',
      '3|test/services/other.test.ts||back-end|',
      '4|src/x.test.ts||api|',
      '5|src/y.test.ts||docs|',
      '6|test/z.test.ts|||',
      '7|test/w.test.ts||ui|',
    ]);
  });
});

describe('Go package patterns', () => {
  it('`./dir/...` is the folder `./dir` (the `/...` outside the reference); `./...` is the module', () => {
    const text = [
      '- `go test ./...` and `go test ./internal/api/...`; `go vet ./pkg/client/... ./cmd/svc`',
      '- `go test -coverpkg=./internal/... ./...`, `go install ./cmd/...`, `golangci-lint run ./pkg/...`',
      '- `go test ...` and `go build ./cmd/svc`',
    ].join('\n');
    const rs = refs(text);
    expect(paths(rs)).toEqual([
      '1|./internal/api|||',
      '1|./pkg/client|||',
      '1|./cmd/svc|||weak',
      '2|./internal|||weak',
      '2|./cmd|||weak',
      '2|./pkg|||weak',
      '3|./cmd/svc|||weak',
    ]);
    const api = rs.find((r) => r.raw === './internal/api')!;
    expect(text.slice(api.start, api.end + 4)).toBe('./internal/api/...');
    expect(api.value).toBe('internal/api');
  });

  it('`/...` is not stripped from the arguments of other commands', () => {
    expect(paths(refs('- `ls ./src/...` and `cat docs/...`'))).toEqual([]);
  });
});

describe('file names and extensions of build and docs files', () => {
  it('are paths in code, bare at the root', () => {
    const got = ['TESTING.asciidoc', 'MANIFEST.in', 'requirements.in', 'build.sbt', 'MODULE.bazel', 'defs.bzl', 'Pipfile', 'Podfile', 'gradlew', 'mvnw', 'WORKSPACE'].map((t) => {
      const p = asPath(t, 'code');
      return p ? `${p.value}|${p.strong ? 'strong' : 'weak'}` : null;
    });
    expect(got).toEqual([
      'TESTING.asciidoc|strong', 'MANIFEST.in|strong', 'requirements.in|strong', 'build.sbt|strong', 'MODULE.bazel|strong',
      'defs.bzl|strong', 'Pipfile|strong', 'Podfile|strong', 'gradlew|strong', 'mvnw|strong', 'WORKSPACE|weak',
    ]);
  });

  it('keep words words: `in` and `.in` alone, `WORKSPACE` in prose', () => {
    expect(['in', '.in', 'IN', 'workspace'].map((t) => asPath(t, 'code'))).toEqual([null, null, null, null]);
    expect(asPath('WORKSPACE', 'prose')).toBeNull();
    const rs = refs('- Log in with the admin account, then check in the changes.\n- Jenkins sets WORKSPACE; sign-in.\n');
    expect(paths(rs)).toEqual([]);
  });
});

describe('end to end', () => {
  describe('test files passed to a package script (QA11 scenario 03)', () => {
    let r: Repo;
    const memory = [
      '# CLAUDE.md',
      '',
      '```bash',
      'cd packages/back-end',
      'pnpm test test/services/stats-legacy.test.ts',
      'pnpm test -- test/models/metric.test.ts',
      'pnpm test test/models/kept.test.ts',
      'npx jest test/models/user.test.ts',
      '```',
      '',
      '- `pnpm --filter back-end test test/services/other.test.ts` runs one file.',
      '- `pnpm --filter back-end test test/services/live.test.ts` runs another.',
      '',
    ].join('\n');
    beforeAll(async () => {
      r = await makeRepo();
      await r.write('package.json', pkg({ name: 'root', private: true, scripts: { test: 'pnpm -r test' } }));
      await r.write('pnpm-workspace.yaml', 'packages:\n  - "packages/*"\n');
      await r.write('packages/back-end/package.json', pkg({ name: 'back-end', scripts: { test: 'jest' }, devDependencies: { jest: '^29' } }));
      for (const f of ['services/stats-legacy', 'services/other', 'services/live', 'models/metric', 'models/user', 'models/kept']) {
        await r.write(`packages/back-end/test/${f}.test.ts`, `// ${f}\n`);
      }
      await r.commit('init', '2025-08-01');
      await r.write('CLAUDE.md', memory);
      await r.commit('claude', '2025-09-15');
      for (const f of ['services/stats-legacy', 'services/other', 'models/metric', 'models/user']) await r.remove(`packages/back-end/test/${f}.test.ts`);
      await r.commit('drop tests', '2026-02-01');
    });

    it('reports every deleted file, whatever the command; files still there are not reported', async () => {
      const res = await audit({ root: r.dir, now: NOW });
      expect(pathRows(res.report)).toEqual([
        'path-missing|5|test/services/stats-legacy.test.ts|',
        'path-missing|6|test/models/metric.test.ts|',
        'path-missing|8|test/models/user.test.ts|',
        'path-missing|11|test/services/other.test.ts|',
      ]);
      const f = res.findings.find((x) => x.line === 11)!;
      expect(f.message).toMatch(/^`test\/services\/other\.test\.ts` \(packages\/back-end\/test\/services\/other\.test\.ts\) was deleted in [0-9a-f]{7} \(2026-02-01, "drop tests"\)/);
    });
  });

  describe('root build files with an extension or name not known before (QA10 scenario 04)', () => {
    let r: Repo;
    const memory = [
      '- Refer to BUILDING.md & `TESTING.asciidoc` for build/test instructions.',
      '- Add runtime dependencies to `Pipfile` and run `pipenv lock`.',
      '- Non-Python files shipped in the sdist are listed in `MANIFEST.in`.',
      '- Pin dev tools in `requirements.in`, then run `pip-compile`.',
      '- External repositories are declared in `WORKSPACE`.',
      '- Scala settings live in `build.sbt`; Gradle runs through `./gradlew build`.',
      '',
    ].join('\n');
    beforeAll(async () => {
      r = await makeRepo();
      for (const f of ['BUILDING.md', 'TESTING.asciidoc', 'Pipfile', 'MANIFEST.in', 'requirements.in', 'WORKSPACE', 'build.sbt', 'gradlew']) await r.write(f, `# ${f}\n`);
      await r.write('AGENTS.md', memory);
      await r.commit('Add AGENTS.md', '2025-09-01');
      await r.move('TESTING.asciidoc', 'TESTING.md');
      for (const f of ['Pipfile', 'MANIFEST.in', 'requirements.in', 'WORKSPACE', 'build.sbt']) await r.remove(f);
      await r.write('pyproject.toml', '[project]\nname = "x"\n');
      await r.commit('Move to pyproject and bzlmod; convert TESTING to markdown', '2026-01-10');
    });

    it('reports the rename and the deletions; the files still there are not reported', async () => {
      const res = await audit({ root: r.dir, now: NOW });
      expect(pathRows(res.report)).toEqual([
        'path-renamed|1|TESTING.asciidoc|TESTING.md',
        'path-missing|2|Pipfile|',
        'path-missing|3|MANIFEST.in|',
        'path-missing|4|requirements.in|',
        'path-missing|5|WORKSPACE|',
        'path-missing|6|build.sbt|',
      ]);
    });
  });

  describe('a Jenkins `WORKSPACE` where no such file ever was', () => {
    it('is no finding', async () => {
      const r = await makeRepo();
      await r.write('third_party/x/BUILD', '# x\n');
      await r.write('AGENTS.md', '- Jenkins sets `WORKSPACE` to the checkout folder.\n');
      await r.commit('init', '2025-09-01');
      await r.remove('third_party/x/BUILD');
      await r.write('README.md', '# x\n');
      await r.commit('later', '2026-01-01');
      const res = await audit({ root: r.dir, now: NOW });
      expect(pathRows(res.report)).toEqual([]);
    });
  });

  describe('Go package patterns (QA10 scenario 08)', () => {
    let r: Repo;
    const memory = [
      '- Run `go test ./...` before pushing; `go test ./internal/api/...` for the HTTP API only.',
      '- `go vet ./pkg/client/...` must pass.',
      '- `go run ./cmd/svc` starts the server; `go test ./internal/kept/...` still works.',
      '',
    ].join('\n');
    beforeAll(async () => {
      r = await makeRepo();
      await r.write('go.mod', 'module github.com/acme/svc\n\ngo 1.24\n');
      for (const f of ['cmd/svc/main.go', 'internal/api/handler.go', 'internal/kept/kept.go', 'pkg/client/client.go']) await r.write(f, `package ${path.basename(path.dirname(f))}\n`);
      await r.write('AGENTS.md', memory);
      await r.commit('Add AGENTS.md', '2025-10-01');
      await r.move('internal/api', 'internal/httpapi');
      await r.move('cmd/svc', 'cmd/server');
      await r.remove('pkg/client');
      await r.commit('Rename api->httpapi, cmd/svc->cmd/server; drop pkg/client', '2026-02-01');
    });

    it('resolves `./dir/...` as the folder; the correction keeps `/...`; a second prune changes nothing', async () => {
      const res = await audit({ root: r.dir, now: NOW });
      expect(pathRows(res.report)).toEqual([
        'path-renamed|1|./internal/api|./internal/httpapi',
        'path-missing|2|./pkg/client|',
        'path-renamed|3|./cmd/svc|./cmd/server',
      ]);
      const first = await runPrune({ root: r.dir, now: NOW, write: true });
      expect(first.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}`)).toEqual(['update|4', 'delete|4', 'update|4']);
      const after = [
        '- Run `go test ./...` before pushing; `go test ./internal/httpapi/...` for the HTTP API only. [corrected 2026-06-01]',
        '- `go run ./cmd/server` starts the server; `go test ./internal/kept/...` still works. [corrected 2026-06-01]',
        '',
      ].join('\n');
      expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(after);
      const second = await runPrune({ root: r.dir, now: NOW, write: true });
      expect(second.changes).toEqual([]);
      expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(after);
    });
  });

  describe('a path argument of a command run in one workspace package', () => {
    it("resolves in that package's folder only: the root's own history of the same path says nothing", async () => {
      const r = await makeRepo();
      const memory = ['- Lint one file: `pnpm --filter web lint src/c.ts`.', '- Or the old one: `pnpm --filter web lint src/old.ts`.', ''].join('\n');
      await r.write('package.json', pkg({ name: 'root', private: true }));
      await r.write('pnpm-workspace.yaml', 'packages:\n  - "packages/*"\n');
      await r.write('packages/web/package.json', pkg({ name: 'web', scripts: { lint: 'eslint' } }));
      await r.write('packages/web/src/c.ts', 'export const c = 1;\n');
      await r.write('packages/web/src/old.ts', 'export const old = 1;\n');
      await r.write('src/c.ts', 'export const rootC = 1;\n');
      await r.write('AGENTS.md', memory);
      await r.commit('init', '2025-08-01');
      // the root's src/c.ts is renamed (it is not the file the command lints), the package's old.ts too
      await r.move('src/c.ts', 'src/d.ts');
      await r.move('packages/web/src/old.ts', 'packages/web/src/new.ts');
      await r.commit('renames', '2026-02-01');
      const res = await audit({ root: r.dir, now: NOW });
      expect(pathRows(res.report)).toEqual(['path-renamed|2|src/old.ts|src/new.ts']);
    });
  });
});
