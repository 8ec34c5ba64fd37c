// QA15 false positives of the fidelity checks on real memory files:
// (1) a version that qualifies a noun ("in a Laravel 10 structure") read as the version in use;
// (2) sizes of different files in one list read as one claim ("11KB" contradicts "10KB");
// (3) an "always run X" reminder merged into the description of command X and deleted.
import { afterAll, describe, expect, it, test } from 'vitest';
import { findContradictions } from '../../src/checks/contradiction.js';
import { findDuplicates } from '../../src/checks/duplicate.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { cleanup, config, makeRepo, NOW } from '../prune/helpers.js';
import { context, parseFiles } from './helpers.js';

afterAll(cleanup);

const contradictions = (input: Record<string, string>) => {
  const { files, entries } = parseFiles(input);
  return findContradictions(context(files, entries)).map((f) => `${f.file}:${f.line} ${f.ref} | ${f.message}`);
};
const dups = (input: Record<string, string>) => {
  const { files, entries } = parseFiles(input);
  return findDuplicates(context(files, entries)).map((f) => [f.file, f.line, f.evidence?.file, f.evidence?.line, f.evidence?.exact]);
};
const rows = (plan: Array<{ action: string; rule: number; file?: string; line?: number; reason: string }>) =>
  plan.filter((p) => p.action !== 'keep').map((p) => `${p.action} rule ${p.rule} ${p.file}:${p.line} | ${p.reason}`);

// ------------------------------------------------------------------ (1) versions qualifying a noun

describe('a version that qualifies a noun is not the version in use', () => {
  const STACK = '# App\n\n## Technology Stack\n- **Backend**: Laravel 12 (PHP 8.4)\n\n## Notes\n\n';

  it('Laravel Boost: "in a Laravel 10 structure" and "the existing structure from Laravel 10" in a Laravel 12 app', () => {
    const claude =
      STACK +
      '- This project upgraded from Laravel 10 without migrating to the new streamlined Laravel file structure.\n' +
      '- There is no `bootstrap/app.php` application configuration in a Laravel 10 structure.\n' +
      '- Follow the existing structure from Laravel 10.\n';
    expect(contradictions({ 'CLAUDE.md': claude })).toEqual([]);
  });

  it.each([
    ['a layout with modifiers', '- Keep the Laravel 10 directory layout.'],
    ['a hyphenated style', '- Write Laravel 10-style controllers.'],
    ['conventions', '- We follow Laravel 10 conventions for service providers.'],
    ['docs', '- The Laravel 10 docs explain the old Kernel.'],
    ['since', '- Since Laravel 11, middleware is registered in `bootstrap/app.php`.'],
    ['before', '- Before Laravel 11, middleware lived in the HTTP kernel.'],
    ['pre-', '- The pre-Laravel 11 skeleton had a console kernel.'],
    ['until', '- Until Laravel 11 the app had a console kernel.'],
    ['legacy', '- Legacy Laravel 10 controllers live in `app/Http/Legacy/`.'],
  ])('%s', (_label, line) => {
    expect(contradictions({ 'CLAUDE.md': STACK + line + '\n' })).toEqual([]);
  });

  it('a version stated as the one in use still contradicts', () => {
    expect(contradictions({ 'CLAUDE.md': STACK + '- This app runs Laravel 10.\n' })).toEqual([
      'CLAUDE.md:4 Laravel 12 | "Laravel 12" contradicts "Laravel 10" at CLAUDE.md:8 for laravel; keep the one that is true and fix or delete the other.',
      'CLAUDE.md:8 Laravel 10 | "Laravel 10" contradicts "Laravel 12" at CLAUDE.md:4 for laravel; keep the one that is true and fix or delete the other.',
    ]);
  });

  it('limited to a release\'s APIs ("Expo SDK 50 APIs only"), the code must run on it: still a claim', () => {
    expect(
      contradictions({ 'CLAUDE.md': '# App\n\nReact Native app (Expo SDK 51).\n', '.github/copilot-instructions.md': '- Use Expo SDK 50 APIs only.\n' }),
    ).toEqual([
      'CLAUDE.md:3 Expo SDK 51 | "Expo SDK 51" contradicts "Expo SDK 50" at .github/copilot-instructions.md:1 for expo; keep the one that is true and fix or delete the other.',
      '.github/copilot-instructions.md:1 Expo SDK 50 | "Expo SDK 50" contradicts "Expo SDK 51" at CLAUDE.md:3 for expo; keep the one that is true and fix or delete the other.',
    ]);
  });
});

// ------------------------------------------------------------------ (2) numbers of different named things

describe('numbers about different named things do not contradict', () => {
  it('a Cursor rule listing model files with their sizes (links)', () => {
    const rule =
      '---\ndescription: Laravel application structure\nglobs: app/**/*.php\nalwaysApply: false\n---\n# Application Architecture\n\n' +
      '#### **Standalone Database Models**\n' +
      '- **[StandalonePostgresql.php](mdc:app/Models/StandalonePostgresql.php)** (11KB, 351 lines)\n' +
      '- **[StandaloneMariadb.php](mdc:app/Models/StandaloneMariadb.php)** (10KB, 337 lines)\n' +
      '- **[StandaloneMongodb.php](mdc:app/Models/StandaloneMongodb.php)** (12KB, 370 lines)\n';
    expect(contradictions({ '.cursor/rules/application-architecture.mdc': rule })).toEqual([]);
  });

  it('plain code spans', () => {
    const claude =
      '# Compiler\n\n## Files\n\n- `src/parser.ts` (48KB, the recursive-descent parser)\n- `src/checker.ts` (120KB, the type checker)\n';
    expect(contradictions({ 'CLAUDE.md': claude })).toEqual([]);
  });

  it('items of one list that start with the thing they describe, the number in a later sentence', () => {
    const claude =
      '# Compiler\n\n- `src/parser.ts`: parser module. Source file size is 48KB.\n- `src/checker.ts`: checker module. Source file size is 120KB.\n';
    expect(contradictions({ 'CLAUDE.md': claude })).toEqual([]);
  });

  it('two configuration keys', () => {
    const claude = '# Auth\n\n- `ACCESS_TOKEN_TTL` sets the token lifetime to 15 minutes.\n- `REFRESH_TOKEN_TTL` sets the token lifetime to 7 days.\n';
    expect(contradictions({ 'CLAUDE.md': claude })).toEqual([]);
  });

  it('the same named file with two sizes still contradicts (also written as a path and as its base name)', () => {
    expect(
      contradictions({
        'CLAUDE.md': '# App\n\n- [StandaloneMariadb.php](app/Models/StandaloneMariadb.php) model file is 10KB.\n',
        'AGENTS.md': '# App\n\n- `StandaloneMariadb.php` model file is 14KB.\n',
      }),
    ).toEqual([
      'CLAUDE.md:3 10KB | "10KB" contradicts "14KB" at AGENTS.md:3 for the same size; keep the one that is true and fix or delete the other.',
      'AGENTS.md:3 14KB | "14KB" contradicts "10KB" at CLAUDE.md:3 for the same size; keep the one that is true and fix or delete the other.',
    ]);
  });

  it('a code span holding the number is the value, not a name', () => {
    expect(
      contradictions({
        'CLAUDE.md': '# API\n\n- The request timeout of the API gateway is `30s`.\n',
        'AGENTS.md': '# API\n\n- The request timeout of the API gateway is `60s`.\n',
      }),
    ).toEqual([
      'CLAUDE.md:3 30s | "30s" contradicts "60s" at AGENTS.md:3 for the same duration; keep the one that is true and fix or delete the other.',
      'AGENTS.md:3 60s | "60s" contradicts "30s" at CLAUDE.md:3 for the same duration; keep the one that is true and fix or delete the other.',
    ]);
  });

  it('a thing named elsewhere in the entry (not at its start) leaves the number unnamed: still compared by its words', () => {
    expect(
      contradictions({
        'CLAUDE.md': '# Auth\n\n- The access token is valid for 15 minutes. See `src/auth/jwt.ts`.\n',
        '.claude/memory/MEMORY.md': '- The access token is valid for 60 minutes.\n',
      }),
    ).toEqual([
      'CLAUDE.md:3 15 minutes | "15 minutes" contradicts "60 minutes" at .claude/memory/MEMORY.md:1 for the same duration; keep the one that is true and fix or delete the other.',
      '.claude/memory/MEMORY.md:1 60 minutes | "60 minutes" contradicts "15 minutes" at CLAUDE.md:3 for the same duration; keep the one that is true and fix or delete the other.',
    ]);
  });

  test('prune: the line of a deleted file is deleted (rule 4), not sent to review as a contradiction; restore brings it back', async () => {
    const RULE =
      '---\ndescription: Laravel application structure\nglobs: app/**/*.php\nalwaysApply: false\n---\n# Application Architecture\n\n' +
      '#### **Standalone Database Models**\n' +
      '- **[StandalonePostgresql.php](mdc:app/Models/StandalonePostgresql.php)** (11KB, 351 lines)\n' +
      '- **[StandaloneMariadb.php](mdc:app/Models/StandaloneMariadb.php)** (10KB, 337 lines)\n' +
      '- **[StandaloneMongodb.php](mdc:app/Models/StandaloneMongodb.php)** (12KB, 370 lines)\n';
    const php = '<?php\n';
    const repo = await makeRepo(
      {
        '.cursor/rules/application-architecture.mdc': RULE,
        'app/Models/StandalonePostgresql.php': php,
        'app/Models/StandaloneMariadb.php': php,
        'app/Models/StandaloneMongodb.php': php,
      },
      '2025-07-01',
    );
    const healthy = await runPrune({ root: repo.dir, now: NOW, write: false, config: config() });
    expect(healthy.audit.findings.filter((f) => f.kind === 'contradiction')).toEqual([]);
    expect(rows(healthy.plan)).toEqual([]);

    await repo.remove('app/Models/StandaloneMongodb.php');
    await repo.commit('Remove MongoDB support', '2025-09-01');
    const first = await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    expect(first.audit.findings.filter((f) => f.kind === 'contradiction')).toEqual([]);
    expect(first.plan.filter((p) => p.action !== 'keep').map((p) => [p.action, p.rule, p.file, p.line])).toEqual([
      ['delete', 4, '.cursor/rules/application-architecture.mdc', 11],
    ]);
    const after = RULE.replace('- **[StandaloneMongodb.php](mdc:app/Models/StandaloneMongodb.php)** (12KB, 370 lines)\n', '');
    expect(await repo.read('.cursor/rules/application-architecture.mdc')).toBe(after);

    const second = await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    expect(second.changes).toEqual([]);
    expect(await repo.read('.cursor/rules/application-architecture.mdc')).toBe(after);

    const { records } = parseArchive(await repo.read('.memory-audit/archive.jsonl'));
    expect(records.length).toBe(1);
    await runRestore({ root: repo.dir, id: records[0].entryId, config: config() });
    expect(await repo.read('.cursor/rules/application-architecture.mdc')).toBe(RULE);
  });
});

// ------------------------------------------------------------------ (3) an instruction and a description

describe('a reminder to run a command is not a copy of the command\'s description', () => {
  const CLAUDE =
    '# CLAUDE.md\n\n## Development Commands\n\n### Code Quality\n- `./vendor/bin/pint` - Run Laravel Pint for code formatting\n' +
    '- `./vendor/bin/pest` - Run the Pest test suite\n\n' +
    '## Important Reminders\n\n- Always run code formatting: `./vendor/bin/pint`\n- Run the Pest test suite: `./vendor/bin/pest`\n- Use existing patterns and helpers\n';

  it('"Always run …" and an imperative of its own are kept next to the command list', () => {
    expect(dups({ 'CLAUDE.md': CLAUDE })).toEqual([]);
  });

  it('two copies of the reminder are still duplicates', () => {
    expect(
      dups({ 'CLAUDE.md': CLAUDE, '.claude/rules/php.md': '- Always run code formatting with `./vendor/bin/pint`\n' }),
    ).toEqual([['CLAUDE.md', 11, '.claude/rules/php.md', 1, false]]);
  });

  it('two descriptions of the command are still duplicates', () => {
    expect(
      dups({ 'CLAUDE.md': CLAUDE, '.claude/rules/php.md': '- `./vendor/bin/pint` - Runs Laravel Pint for code formatting\n' }),
    ).toEqual([['.claude/rules/php.md', 1, 'CLAUDE.md', 6, false]]);
  });

  it('a description that already holds the instruction is still a copy of it', () => {
    expect(
      dups({
        'CLAUDE.md': '# Commands\n\n- `./vendor/bin/pint` - always run it for code formatting before committing\n',
        'AGENTS.md': '# Rules\n\n- Always run `./vendor/bin/pint` for code formatting before committing\n',
      }),
    ).toEqual([['AGENTS.md', 3, 'CLAUDE.md', 3, false]]);
  });

  test('prune changes nothing: the reminder is not merged away', async () => {
    const repo = await makeRepo(
      { '.gitignore': '/vendor\n', 'composer.json': '{"name":"acme/app","require-dev":{"laravel/pint":"^1.21","pestphp/pest":"^3.0"}}\n', 'CLAUDE.md': CLAUDE },
      '2025-07-01',
    );
    const r = await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    expect(r.audit.findings.filter((f) => f.kind === 'duplicate')).toEqual([]);
    expect(rows(r.plan)).toEqual([]);
    expect(r.changes).toEqual([]);
    expect(await repo.read('CLAUDE.md')).toBe(CLAUDE);
  });
});
