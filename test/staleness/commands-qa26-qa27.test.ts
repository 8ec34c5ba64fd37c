// QA rounds 26 and 27 on real repositories:
// - Nx targets whose names hold colons (twenty: `nx run twenty-server:database:init:prod`,
//   `nx run twenty-front:graphql:generate`): the spec is split once after the project, then the
//   longest prefix of the rest that is (or history shows was) a target of the project is the
//   target, the remainder its configuration; with no such prefix, `p:t:c` is target `t` and
//   longer specs are not read.
// - `mise exec [opts] [tool@ver] -- cmd` / `mise x -- cmd` (pulumi runs every make target so),
//   `rtx exec`, `asdf exec cmd`: a transparent prefix, like `env` / `time`; not with `-C dir` or
//   `-c "…"`, and `mise run <task>` is a mise task (not read).
// Real git repositories in temp folders, audited end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import type { Finding, Report } from '../../src/types.js';
import { cleanupRepos, lineOfText, makeRepo, type Repo } from './helpers.js';
import { refsOf } from './refs-helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');

afterAll(cleanupRepos);

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

/** kind | line | ref | suggestion.replace (empty when none), of one memory file, by line. */
function rows(report: Report, file: string): string[] {
  return report.findings
    .filter((f) => f.file === file)
    .sort((a, b) => a.line - b.line || (a.ref ?? '').localeCompare(b.ref ?? ''))
    .map((f) => `${f.kind}|${f.line}|${f.ref ?? ''}|${f.suggestion?.replace ?? ''}`);
}

function at(report: Report, ref: string): Finding {
  const f = report.findings.find((x) => x.ref === ref);
  if (!f) throw new Error(`no finding for ${ref}`);
  return f;
}

const cmds = (text: string) =>
  refsOf(text)
    .filter((r) => r.kind === 'command')
    .map((r) => [r.raw, r.tool, r.script, r.workspace ?? ''].join('|'));

describe('nx run with colons in the target name', () => {
  it('reads `project:spec` with three parts as before and longer specs as all but the last part', () => {
    expect(
      cmds(
        [
          '- `nx run web:build:production`',
          '- `npx nx run api:database:init:prod`',
          '- `nx run api:test:integration:with-db-reset`',
          '- `nx run api:<target>:x:y`',
        ].join('\n'),
      ),
    ).toEqual([
      'nx run web:build:production|nx|build|web',
      'npx nx run api:database:init:prod|nx|database:init|api',
      'nx run api:test:integration:with-db-reset|nx|test:integration|api',
    ]);
  });

  const memory = [
    '# CLAUDE.md',
    '',
    '- `npx nx run api:database:init:prod` initialises the database',
    '- `nx run api:test:integration:with-db-reset` runs the integration tests against a fresh database',
    '- `nx run front:graphql:generate` generates the GraphQL types',
    '- `nx run api:lint:fix:all` fixes every lint error',
    '- `nx run front:graphql:check`, `nx run front:build:production`, `nx run api:build:ci:extra`, `nx run api:never:was:here`',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let sha: string;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('package.json', json({ name: 'root', private: true, workspaces: ['packages/*'], devDependencies: { nx: '21.3.11' } }));
    await r.write('nx.json', json({ targetDefaults: { build: {} }, useInferencePlugins: false }));
    await r.write('packages/front/package.json', json({ name: 'front', private: true }));
    await r.write('packages/api/package.json', json({ name: 'api', private: true }));
    const front = (gen: string) => json({
      name: 'front',
      targets: { build: { command: 'vite build' }, [gen]: { command: 'graphql-codegen --config codegen.ts' }, 'graphql:check': { command: 'graphql-inspector validate schema.graphql' } },
    });
    await r.write('packages/front/project.json', front('graphql:generate'));
    await r.write('packages/api/project.json', json({
      name: 'api',
      targets: {
        build: { command: 'nest build' },
        'database:init:prod': { command: 'node scripts/setup-db.js --seed --env production' },
        'test:integration': { command: 'jest --config jest.integration.config.ts --runInBand' },
        'lint:fix': { command: 'eslint . --fix --max-warnings 0' },
      },
    }));
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-09-01');
    await r.write('packages/front/project.json', front('codegen'));
    await r.write('packages/api/project.json', json({
      name: 'api',
      targets: {
        build: { command: 'nest build' },
        'database:init': { command: 'node scripts/setup-db.js --seed --env production' },
        'test:integration-suite': { command: 'jest --config jest.integration.config.ts --runInBand' },
      },
    }));
    sha = (await r.commit('Rename Nx targets', '2026-01-10')).slice(0, 7);
    ({ report } = await audit({ root: r.dir, now: NOW }));
  });

  it('takes the longest prefix that is or was a target: renamed with the configuration kept, removed, and quiet otherwise', () => {
    expect(rows(report, 'CLAUDE.md')).toEqual([
      `script-missing|${l('database:init:prod')}|npx nx run api:database:init:prod|npx nx run api:database:init`,
      `script-missing|${l('with-db-reset')}|nx run api:test:integration:with-db-reset|nx run api:test:integration-suite:with-db-reset`,
      `script-missing|${l('graphql:generate')}|nx run front:graphql:generate|nx run front:codegen`,
      `script-missing|${l('lint:fix:all')}|nx run api:lint:fix:all|`,
    ]);
    const why = `${sha} (2026-01-10, "Rename Nx targets")`;
    expect(at(report, 'npx nx run api:database:init:prod').message).toBe(
      `\`npx nx run api:database:init:prod\` no longer works: the Nx project \`api\` has no \`database:init:prod\` target: it was renamed to \`database:init\` in \`packages/api/project.json\` in ${why}; use \`npx nx run api:database:init\` instead.`,
    );
    expect(at(report, 'nx run api:test:integration:with-db-reset').message).toBe(
      `\`nx run api:test:integration:with-db-reset\` no longer works: the Nx project \`api\` has no \`test:integration\` target: it was renamed to \`test:integration-suite\` in \`packages/api/project.json\` in ${why}; use \`nx run api:test:integration-suite:with-db-reset\` instead.`,
    );
    expect(at(report, 'nx run front:graphql:generate').message).toBe(
      `\`nx run front:graphql:generate\` no longer works: the Nx project \`front\` has no \`graphql:generate\` target: it was renamed to \`codegen\` in \`packages/front/project.json\` in ${why}; use \`nx run front:codegen\` instead.`,
    );
    expect(at(report, 'nx run api:lint:fix:all').message).toBe(
      `\`nx run api:lint:fix:all\` no longer works: the Nx project \`api\` has no \`lint:fix\` target: it was removed from \`packages/api/project.json\` in ${why}; update or remove the command.`,
    );
  });
});

describe('mise exec / asdf exec before a command', () => {
  it('reads any command after the prefix as it reads the command alone', () => {
    const all = (text: string) => refsOf(text).map((x) => [x.kind, x.raw, x.value, x.tool ?? '', x.script ?? ''].join('|'));
    expect(all('- `mise exec -- npx nx run api:build`')).toEqual(all('- `npx nx run api:build`'));
    expect(all('- `mise exec -- npx nx run api:build`')).toEqual(['command|npx nx run api:build|nx run api:build|nx|build', 'package|nx|nx|npx|']);
    expect(all('- `mise x -- go test ./pkg/api/...`')).toEqual(all('- `go test ./pkg/api/...`'));
  });

  it('reads the command after the prefix; not after an option that moves it, nor `mise run`', () => {
    expect(
      cmds(
        [
          '- `mise exec -- make lint_fix`',
          '- `mise x -- make tidy_fix`',
          '- `mise exec go@1.24 node@20 -- make work`',
          '- `mise --env ci exec --jobs 4 -- pnpm run build`',
          '- `rtx exec -- just test`',
          '- `asdf exec make lint`',
          '- `mise exec -C sdk -- make build`',
          '- `mise exec -c "make build"`',
          '- `mise run lint`',
          '- `mise exec go@1.24 make build`',
        ].join('\n'),
      ),
    ).toEqual([
      'make lint_fix|make|lint_fix|',
      'make tidy_fix|make|tidy_fix|',
      'make work|make|work|',
      'pnpm run build|pnpm|build|',
      'just test|just|test|',
      'make lint|make|lint|',
    ]);
  });

  const memory = [
    '# Agent Instructions',
    '',
    '- **Lint:** `mise exec -- make lint`',
    '- **Lint fix:** `mise exec -- make lint_fix`',
    '- **Tidy fix:** `mise x -- make tidy_fix`',
    '- **Go workspace:** `mise exec go@1.24 -- make work`',
    '- **Build a single SDK:** `cd sdk/nodejs && mise exec -- make build`',
    '- **Check:** `asdf exec make check`',
    '- **Elsewhere:** `mise exec -C tools -- make gone`',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let sha: string;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('.mise.toml', '[tools]\ngo = "1.24"\n');
    await r.write('Makefile', 'lint::\n\tgolangci-lint run\nlint_fix::\n\tgolangci-lint run --fix\ntidy_fix::\n\t./scripts/tidy.sh\nwork::\n\tgo work init ./pkg ./sdk\ncheck::\n\tgo vet ./...\ngone::\n\techo gone\n');
    await r.write('sdk/nodejs/Makefile', 'build::\n\ttsc\n');
    await r.write('AGENTS.md', memory);
    await r.commit('init', '2025-10-01');
    await r.write('Makefile', 'lint::\n\tgolangci-lint run\nlint-fix::\n\tgolangci-lint run --fix\ncheck::\n\tgo vet ./...\n');
    await r.write('sdk/nodejs/Makefile', 'compile::\n\ttsc\n');
    sha = (await r.commit('make: rename lint_fix, drop tidy_fix, work and gone, sdk build->compile', '2026-01-15')).slice(0, 7);
    ({ report } = await audit({ root: r.dir, now: NOW }));
  });

  it('reports renamed and removed make targets run through mise, in the folder the text gives; targets still there say nothing', () => {
    expect(rows(report, 'AGENTS.md')).toEqual([
      `script-missing|${l('lint_fix')}|make lint_fix|make lint-fix`,
      `script-missing|${l('tidy_fix')}|make tidy_fix|`,
      `script-missing|${l('make work')}|make work|`,
      `script-missing|${l('make build')}|make build|make compile`,
    ]);
    expect(at(report, 'make lint_fix').message).toBe(
      `\`make lint_fix\` no longer works: the target was renamed to \`lint-fix\` in ${sha} (2026-01-15, "make: rename lint_fix, drop tidy_fix, work and gone, sdk build->compile"); use \`make lint-fix\` instead.`,
    );
  });
});
