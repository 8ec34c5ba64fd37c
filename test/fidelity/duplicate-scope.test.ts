// Rule 3 keeps the copy in the file loaded most widely: a parent folder's CLAUDE.md / AGENTS.md
// over a nested one, repository-wide instructions over applyTo / globs / paths-scoped ones, shared
// files over CLAUDE.local.md. "More complete" decides only within one scope; copies in files
// neither of which is loaded wherever the other is are not duplicates; a narrower copy that says
// more goes to review. (QA12 03, 04, 10.)
import { afterAll, describe, expect, it } from 'vitest';
import { runPrune } from '../../src/commands/prune.js';
import { cleanup, makeRepo, NOW, type Repo } from '../prune/helpers.js';

afterAll(cleanup);

type Prune = Awaited<ReturnType<typeof runPrune>>;

/** Duplicate findings: file:line -> kept file:line, scope, review, message. */
const dups = (r: Prune) =>
  r.audit.findings
    .filter((f) => f.kind === 'duplicate')
    .map((f) => [`${f.file}:${f.line}`, `${f.evidence?.file}:${f.evidence?.line}`, f.evidence?.scope, f.evidence?.review ?? false, f.message]);

/** Plan items other than keep: action, rule, file:line, reason. */
const acts = (r: Prune) => r.plan.filter((p) => p.action !== 'keep').map((p) => [p.action, p.rule, `${p.file}:${p.line}`, p.reason]);

async function snapshot(repo: Repo, files: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of files) out[f] = await repo.read(f);
  return out;
}

/** Prunes with --write twice: the second run must change nothing. */
async function pruneTwice(repo: Repo, files: string[]) {
  const first = await runPrune({ root: repo.dir, now: NOW, write: true });
  const after = await snapshot(repo, files);
  const second = await runPrune({ root: repo.dir, now: NOW, write: true });
  expect(second.changes).toEqual([]);
  expect(await snapshot(repo, files)).toEqual(after);
  return { first, after };
}

describe('nested instruction files: the parent folder keeps the line', () => {
  it('a parent AGENTS.md line repeated more completely in a nested AGENTS.md: the parent keeps it, the nested copy goes to review; siblings are not duplicates', async () => {
    const parent = '# Tuist CLI\n\n## Testing\n- Use Swift Testing for new tests.\n- Prefer running individual test cases, not the whole test target.\n';
    const kit =
      '# TuistKit\n\n## Testing\n- Use Swift Testing for new tests; use `@Test(.inTemporaryDirectory)` for tests that touch the file system.\n' +
      '- Cache warm selection is scoped from explicit non-test roots; focused test roots do not expand binary cache candidates.\n';
    const cache =
      '# TuistCache\n\n## Invariants\n- Cache warm selection is scoped from explicit non-test roots; focused test roots do not expand binary cache candidates.\n' +
      '- Cache version bumps invalidate incompatible artifacts.\n';
    const repo = await makeRepo({
      'cli/Sources/TuistKit/Commands/CacheCommand.swift': '// x\n',
      'cli/Sources/TuistCache/CacheStorage.swift': '// x\n',
      'cli/AGENTS.md': parent,
      'cli/Sources/TuistKit/AGENTS.md': kit,
      'cli/Sources/TuistCache/AGENTS.md': cache,
    });
    const { first, after } = await pruneTwice(repo, ['cli/AGENTS.md', 'cli/Sources/TuistKit/AGENTS.md', 'cli/Sources/TuistCache/AGENTS.md']);
    const kept = first.audit.entries.find((e) => e.file === 'cli/AGENTS.md' && e.line === 4)!;
    expect(dups(first)).toEqual([
      [
        'cli/Sources/TuistKit/AGENTS.md:4',
        'cli/AGENTS.md:4',
        'wider',
        true,
        'Nearly repeats cli/AGENTS.md:4, which is loaded wherever this file is; this copy adds words of its own: keep the line there and only what this copy adds here (review by hand).',
      ],
    ]);
    expect(acts(first)).toEqual([
      [
        'review',
        3,
        'cli/Sources/TuistKit/AGENTS.md:4',
        `duplicate of cli/AGENTS.md:4 (${kept.id}), which is loaded wherever this file is, but this copy adds words of its own: keep only what it adds, by hand`,
      ],
    ]);
    expect(first.changes).toEqual([]);
    expect(after).toEqual({ 'cli/AGENTS.md': parent, 'cli/Sources/TuistKit/AGENTS.md': kit, 'cli/Sources/TuistCache/AGENTS.md': cache });
  });

  it('an exact copy in a nested CLAUDE.md is merged into the root CLAUDE.md, whatever its length', async () => {
    const root = '# Koi\n\n## Conventions\n- Run `cargo nextest run` as the test runner, not `cargo test`.\n- Keep crates small.\n';
    const nested = '# koi-mdns\n\n## Conventions\n- run `cargo nextest run` as the test runner, not `cargo test`\n- mDNS tests need `--test-threads 1`.\n';
    const repo = await makeRepo({ 'Cargo.toml': '[workspace]\n', 'crates/koi-mdns/src/lib.rs': '//\n', 'CLAUDE.md': root, 'crates/koi-mdns/CLAUDE.md': nested });
    const { first, after } = await pruneTwice(repo, ['CLAUDE.md', 'crates/koi-mdns/CLAUDE.md']);
    const kept = first.audit.entries.find((e) => e.file === 'CLAUDE.md' && e.line === 4)!;
    expect(dups(first)).toEqual([
      ['crates/koi-mdns/CLAUDE.md:4', 'CLAUDE.md:4', 'wider', false, 'Repeats CLAUDE.md:4, which is loaded wherever this file is; keep that copy and delete this one.'],
    ]);
    expect(acts(first)).toEqual([['merge', 3, 'crates/koi-mdns/CLAUDE.md:4', `duplicate of CLAUDE.md:4 (${kept.id}), which is loaded wherever this file is`]]);
    expect(after).toEqual({
      'CLAUDE.md': root,
      'crates/koi-mdns/CLAUDE.md': '# koi-mdns\n\n## Conventions\n- mDNS tests need `--test-threads 1`.\n',
    });
  });

  it('the same line in two sibling packages is not a duplicate', async () => {
    const line = '- Never modify System environment variables in tests; they are shared state.\n';
    const repo = await makeRepo({ 'apps/web/CLAUDE.md': `# Web\n\n${line}`, 'apps/api/CLAUDE.md': `# API\n\n${line}` });
    const { first } = await pruneTwice(repo, ['apps/web/CLAUDE.md', 'apps/api/CLAUDE.md']);
    expect(dups(first)).toEqual([]);
    expect(acts(first)).toEqual([]);
  });
});

describe('repository-wide files over scoped ones', () => {
  const files = {
    'crates/koi-mdns/src/native.rs': '//\n',
    'crates/koi-compose/src/mdns.rs': '//\n',
    '.github/copilot-instructions.md': '# Copilot instructions\n\n- `unwrap()` is acceptable in test code only.\n',
    '.github/instructions/mdns.instructions.md':
      '---\napplyTo: "crates/koi-mdns/**/*.rs"\n---\n\n# mDNS rules\n\n- `unwrap()` is acceptable in test code only; in `native.rs` use `expect` with the op name.\n',
    '.cursor/rules/general.mdc': '---\ndescription: General rules\nalwaysApply: true\n---\n\n- Never expose mdns-sd types in public APIs.\n',
    '.cursor/rules/mdns-provider.mdc':
      '---\nglobs: crates/koi-mdns/src/{provider,native,daemon}.rs,crates/koi-compose/src/mdns.rs\nalwaysApply: false\n---\n# mDNS Provider Boundary Rules\n\n- Never expose mdns-sd types in public APIs (ServiceDaemon, ServiceInfo, ServiceEvent).\n',
  };

  it('Copilot applyTo and Cursor globs copies that say more go to review; the always-loaded files keep their line', async () => {
    const repo = await makeRepo(files);
    const { first, after } = await pruneTwice(repo, Object.keys(files));
    const id = (file: string) => first.audit.entries.find((e) => e.file === file && e.kind === 'item')!.id;
    expect(dups(first).map((d) => d.slice(0, 4))).toEqual([
      ['.cursor/rules/mdns-provider.mdc:7', '.cursor/rules/general.mdc:6', 'wider', true],
      ['.github/instructions/mdns.instructions.md:7', '.github/copilot-instructions.md:3', 'wider', true],
    ]);
    expect(acts(first)).toEqual([
      [
        'review',
        3,
        '.cursor/rules/mdns-provider.mdc:7',
        `duplicate of .cursor/rules/general.mdc:6 (${id('.cursor/rules/general.mdc')}), which is loaded wherever this file is, but this copy adds words of its own: keep only what it adds, by hand`,
      ],
      [
        'review',
        3,
        '.github/instructions/mdns.instructions.md:7',
        `duplicate of .github/copilot-instructions.md:3 (${id('.github/copilot-instructions.md')}), which is loaded wherever this file is, but this copy adds words of its own: keep only what it adds, by hand`,
      ],
    ]);
    expect(first.changes).toEqual([]);
    expect(after).toEqual(files);
  });

  it('exact copies in scoped rules are merged into the always-loaded ones (.claude/rules paths, Cursor globs)', async () => {
    const repo = await makeRepo({
      'src/api/x.ts': '//\n',
      'CLAUDE.md': '# Project\n\n- Validate request bodies with zod schemas at the route boundary.\n',
      '.claude/rules/api.md': '---\npaths:\n  - "src/api/**/*.ts"\n---\n\n# API\n\n- Validate request bodies with zod schemas at the route boundary.\n- Return problem+json errors.\n',
      '.cursor/rules/general.mdc': '---\nalwaysApply: true\n---\n\n- Never log access tokens or session cookies.\n',
      '.cursor/rules/api.mdc': '---\nglobs: src/api/**\n---\n\n- Never log access tokens or session cookies!\n- Use the shared HTTP client.\n',
    });
    const { first, after } = await pruneTwice(repo, ['CLAUDE.md', '.claude/rules/api.md', '.cursor/rules/general.mdc', '.cursor/rules/api.mdc']);
    expect(acts(first).map((a) => a.slice(0, 3))).toEqual([
      ['merge', 3, '.claude/rules/api.md:8'],
      ['merge', 3, '.cursor/rules/api.mdc:5'],
    ]);
    expect(after).toEqual({
      'CLAUDE.md': '# Project\n\n- Validate request bodies with zod schemas at the route boundary.\n',
      '.claude/rules/api.md': '---\npaths:\n  - "src/api/**/*.ts"\n---\n\n# API\n\n- Return problem+json errors.\n',
      '.cursor/rules/general.mdc': '---\nalwaysApply: true\n---\n\n- Never log access tokens or session cookies.\n',
      '.cursor/rules/api.mdc': '---\nglobs: src/api/**\n---\n\n- Use the shared HTTP client.\n',
    });
  });

  it('within one scope the more complete copy still wins; rules under two different globs are not duplicates', async () => {
    const repo = await makeRepo({
      'src/api/x.ts': '//\n',
      'web/x.tsx': '//\n',
      'CLAUDE.md': '# Project\n\n- Never commit generated protobuf files to the repository.\n- Keep PRs small.\n',
      '.claude/rules/testing.md': '# Generated code\n\n- Never commit generated protobuf files to the repository; CI regenerates them on every build.\n',
      '.cursor/rules/api.mdc': '---\nglobs: src/api/**\n---\n\n- Prefer early returns over nested conditionals in handlers.\n',
      '.cursor/rules/web.mdc': '---\nglobs: web/**\n---\n\n- Prefer early returns over nested conditionals in handlers.\n',
    });
    const { first, after } = await pruneTwice(repo, ['CLAUDE.md', '.claude/rules/testing.md', '.cursor/rules/api.mdc', '.cursor/rules/web.mdc']);
    const kept = first.audit.entries.find((e) => e.file === '.claude/rules/testing.md' && e.kind === 'item')!;
    expect(dups(first)).toEqual([
      [
        'CLAUDE.md:3',
        '.claude/rules/testing.md:3',
        'same',
        false,
        'Nearly repeats .claude/rules/testing.md:3; keep that entry (it is the more complete version) and delete this one.',
      ],
    ]);
    expect(acts(first)).toEqual([['merge', 3, 'CLAUDE.md:3', `duplicate of .claude/rules/testing.md:3 (${kept.id}), the more complete version`]]);
    expect(after['CLAUDE.md']).toBe('# Project\n\n- Keep PRs small.\n');
    expect(after['.cursor/rules/api.mdc']).toBe('---\nglobs: src/api/**\n---\n\n- Prefer early returns over nested conditionals in handlers.\n');
    expect(after['.cursor/rules/web.mdc']).toBe('---\nglobs: web/**\n---\n\n- Prefer early returns over nested conditionals in handlers.\n');
  });
});

describe('shared files over CLAUDE.local.md', () => {
  const team = '# Server\n\n## Testing\n- Never modify System environment variables in tests; they are shared state and cause flaky tests.\n- Run `mix test` from `server/`.\n';

  it('a personal copy with a personal addition goes to review; the team file keeps the line', async () => {
    const local =
      '# My notes\n\n- Never modify System environment variables in tests; they are shared state and cause flaky tests (bit me twice in the billing suite).\n- My Postgres runs on port 5433.\n';
    const repo = await makeRepo({ '.gitignore': 'CLAUDE.local.md\n', 'server/mix.exs': '#\n', 'CLAUDE.md': team });
    await repo.write('CLAUDE.local.md', local);
    const { first, after } = await pruneTwice(repo, ['CLAUDE.md', 'CLAUDE.local.md']);
    expect(dups(first).map((d) => d.slice(0, 4))).toEqual([['CLAUDE.local.md:3', 'CLAUDE.md:4', 'wider', true]]);
    expect(acts(first).map((a) => a.slice(0, 3))).toEqual([['review', 3, 'CLAUDE.local.md:3']]);
    expect(after).toEqual({ 'CLAUDE.md': team, 'CLAUDE.local.md': local });
  });

  it('an exact personal copy is merged into the team file; a nested team file and the personal file are not duplicates', async () => {
    const local = '# My notes\n\n- Never modify system environment variables in tests; they are shared state and cause flaky tests.\n- Keep the billing fixtures small and deterministic.\n';
    const nested = '# Billing\n\n- Keep the billing fixtures small and deterministic.\n';
    const repo = await makeRepo({ '.gitignore': 'CLAUDE.local.md\n', 'server/mix.exs': '#\n', 'CLAUDE.md': team, 'server/billing/CLAUDE.md': nested });
    await repo.write('CLAUDE.local.md', local);
    const { first, after } = await pruneTwice(repo, ['CLAUDE.md', 'CLAUDE.local.md', 'server/billing/CLAUDE.md']);
    expect(dups(first).map((d) => d.slice(0, 4))).toEqual([['CLAUDE.local.md:3', 'CLAUDE.md:4', 'wider', false]]);
    expect(acts(first).map((a) => a.slice(0, 3))).toEqual([['merge', 3, 'CLAUDE.local.md:3']]);
    expect(after).toEqual({ 'CLAUDE.md': team, 'CLAUDE.local.md': '# My notes\n\n- Keep the billing fixtures small and deterministic.\n', 'server/billing/CLAUDE.md': nested });
  });
});

describe('imported files', () => {
  it('a file the root CLAUDE.md imports is loaded everywhere: a nested copy that says more goes to review, not the imported line', async () => {
    const conventions = '# Conventions\n\n- Never commit generated protobuf files to the repository.\n';
    const nested = '# Docs\n\n- Never commit generated protobuf files to the repository; the docs build regenerates them.\n';
    const repo = await makeRepo({ 'CLAUDE.md': '# Project\n\nSee @docs/conventions.md for the rules.\n', 'docs/conventions.md': conventions, 'docs/CLAUDE.md': nested });
    const { first, after } = await pruneTwice(repo, ['CLAUDE.md', 'docs/conventions.md', 'docs/CLAUDE.md']);
    expect(dups(first).map((d) => d.slice(0, 4))).toEqual([['docs/CLAUDE.md:3', 'docs/conventions.md:3', 'wider', true]]);
    expect(acts(first).map((a) => a.slice(0, 3))).toEqual([['review', 3, 'docs/CLAUDE.md:3']]);
    expect(after['docs/conventions.md']).toBe(conventions);
    expect(after['docs/CLAUDE.md']).toBe(nested);
  });
});
