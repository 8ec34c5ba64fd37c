// Package names that are everyday English (`listen`, `spring`, `moment`, `express`) count in plain
// prose only when the sentence uses them as a name (capitalised mid-sentence, or next to a cue:
// "the X gem", "use X", "migrated from X"); `bundle exec x` reads `x` as a package like `npx x`;
// an entry whose stale reference is one item of a list of examples goes to review, not delete.
// Real git repositories in temp folders, audited and pruned end to end (QA round 9).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { parseCommandLine } from '../../src/memory/refs/commands.js';
import type { Finding, Report } from '../../src/types.js';
import { cleanupRepos, lineOfText, makeRepo, pkg, planRows as plans, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PKG = new Set(['package-missing', 'package-renamed']);

afterAll(cleanupRepos);

/** kind | line | ref */
function rows(findings: Finding[], file: string): string[] {
  return findings
    .filter((f) => f.file === file && PKG.has(f.kind))
    .sort((a, b) => a.line - b.line || (a.ref ?? '').localeCompare(b.ref ?? ''))
    .map((f) => `${f.kind}|${f.line}|${f.ref ?? ''}`);
}

describe('everyday-English package names in prose (Rails default gems, npm words)', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '## Development',
    '',
    '- The dev server listens on port 3000; Puma will listen on `PORT` when it is set.',
    '- Spring cleaning: delete unused partials when you touch a view.',
    '- Express your intent in commit messages; components react to store changes.',
    "- Ruby's standard library covers JSON parsing.",
    '- Deploys happen every spring.',
    '- **Spring Boot** services live in another repository.',
    '- Note: Listen for the `ready` event before sending.',
    '- We use moment for dates.',
    '- The listen gem watches files in development.',
    '- Boot is faster with Spring preloading the app.',
    '- Requests go through our Express server.',
    '- HTTP server: Express, sessions in cookies.',
    '- Format Ruby with `bundle exec standard --fix` before pushing.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\ngem "puma"\ngem "listen"\ngem "spring"\ngem "standard"\ngem "debug"\n');
    await r.write('package.json', pkg({ name: 'app', dependencies: { moment: '^2.29.0', express: '^4.18.0', react: '^18.2.0' } }));
    await r.write('CLAUDE.md', memory);
    await r.commit('Initial Rails app', '2025-11-01');
    await r.write('Gemfile', 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\ngem "puma"\n');
    await r.write('package.json', pkg({ name: 'app', dependencies: {} }));
    await r.commit('Remove listen, spring, standard and debug; drop the node server', '2026-02-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports the words only where the sentence names the package', () => {
    expect(rows(report.findings, 'CLAUDE.md')).toEqual([
      `package-missing|${l('We use moment')}|moment`,
      `package-missing|${l('The listen gem')}|listen`,
      `package-missing|${l('with Spring preloading')}|Spring`,
      `package-missing|${l('our Express server')}|Express`,
      `package-missing|${l('HTTP server: Express')}|Express`,
      `package-missing|${l('bundle exec standard')}|standard`,
    ]);
    const f = report.findings.find((x) => x.ref === 'listen')!;
    expect(f.message).toMatch(/^`listen` is no longer a dependency of any manifest: it was removed from `Gemfile` in [0-9a-f]{7} \(2026-02-01, "Remove listen, spring, standard and debug; drop the node server"\); remove the reference or name what replaced it\.$/);
  });

  it('prunes only the entries naming a removed package; a second prune changes nothing', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(plans(res.plan)).toEqual([
      `delete|4|${l('We use moment')}`,
      `delete|4|${l('The listen gem')}`,
      `delete|4|${l('with Spring preloading')}`,
      `delete|4|${l('our Express server')}`,
      `delete|4|${l('HTTP server: Express')}`,
      `delete|4|${l('bundle exec standard')}`,
    ]);
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(
      [
        '# CLAUDE.md',
        '',
        '## Development',
        '',
        '- The dev server listens on port 3000; Puma will listen on `PORT` when it is set.',
        '- Spring cleaning: delete unused partials when you touch a view.',
        '- Express your intent in commit messages; components react to store changes.',
        "- Ruby's standard library covers JSON parsing.",
        '- Deploys happen every spring.',
        '- **Spring Boot** services live in another repository.',
        '- Note: Listen for the `ready` event before sending.',
        '',
      ].join('\n'),
    );
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('`bundle exec x` and example lists (chatwoot AGENTS.md)', () => {
  const memory = [
    '# Chatwoot Development Guidelines',
    '',
    '## Build / Test / Lint',
    '',
    '- **Lint Ruby**: `bundle exec rubocop -a`',
    '- Refresh model annotations with `bundle exec annotate --models`.',
    '- Always prefer `bundle exec` for Ruby CLI tasks (rspec, rake, rubocop, etc.)',
    '- Code quality tools such as rubocop and brakeman run in CI.',
    '- Ruby CLI tools: rspec, rake, rubocop.',
    '- Lint with rubocop and then push the branch.',
    '- Migrate with `bundle exec rails db:migrate` and test with `bundle exec rspec spec/models`.',
    '- Run `bundle exec rubocop-rspec --help` never; `bundle exec rake -T` lists tasks.',
    '',
    '```bash',
    'bundle exec rubocop -a app/models',
    '```',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    const gems = (names: string[]) => `source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\n${names.map((n) => `gem '${n}', require: false\n`).join('')}`;
    await r.write('Gemfile', gems(['rspec-rails', 'rubocop', 'rubocop-rails', 'annotate', 'brakeman']));
    await r.write('app/models/user.rb', 'class User < ApplicationRecord\nend\n');
    await r.write('AGENTS.md', memory);
    await r.commit('chore: add AGENTS.md', '2026-01-20');
    await r.write('Gemfile', gems(['rspec-rails', 'standard', 'brakeman']));
    await r.commit('chore: switch from rubocop to standard, drop annotate', '2026-02-25');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reads `bundle exec x` as the package `x`, inline and in a fence', () => {
    expect(rows(report.findings, 'AGENTS.md')).toEqual([
      `package-missing|${l('**Lint Ruby**')}|rubocop`,
      `package-missing|${l('bundle exec annotate')}|annotate`,
      `package-missing|${l('Always prefer')}|rubocop`,
      `package-missing|${l('such as rubocop')}|rubocop`,
      `package-missing|${l('Ruby CLI tools:')}|rubocop`,
      `package-missing|${l('Lint with rubocop and')}|rubocop`,
      `package-missing|${l('bundle exec rubocop -a app')}|rubocop`,
    ]);
    const f = report.findings.find((x) => x.line === l('**Lint Ruby**'))!;
    expect(f.message).toMatch(
      /^`rubocop` is no longer a dependency of any manifest: it was removed from `Gemfile` in [0-9a-f]{7} \(2026-02-25, "chore: switch from rubocop to standard, drop annotate"\) \(that commit added `standard`, and removed `rubocop-rails` and `annotate` too\); remove the reference or name what replaced it\.$/,
    );
  });

  it('sends an entry whose stale name is one example of a list to review', async () => {
    const res = await runPrune({ root: r.dir, now: NOW, write: false });
    const at = (line: number) => res.plan.find((p) => p.line === line)!;
    expect(plans(res.plan)).toEqual([
      `delete|4|${l('**Lint Ruby**')}`,
      `delete|4|${l('bundle exec annotate')}`,
      `review|4|${l('Always prefer')}`,
      `review|4|${l('such as rubocop')}`,
      `review|4|${l('Ruby CLI tools:')}`,
      `delete|4|${l('Lint with rubocop and')}`,
      `review|4|${l('```bash')}`,
    ]);
    for (const s of ['Always prefer', 'such as rubocop', 'Ruby CLI tools:']) {
      expect(at(l(s)).reason).toMatch(/^stale \(package-missing\): `rubocop` is no longer a dependency of any manifest: .*; `rubocop` is one example of a list, the rest of the entry may still be useful$/);
    }
  });

  it('parses `bundle exec` commands as their program', () => {
    const pieces = (line: string) => parseCommandLine(line).map((p) => `${p.kind}:${p.value}`);
    expect(pieces('bundle exec rubocop -a')).toEqual(['tool:rubocop']);
    expect(pieces('bundle exec rake db:migrate')).toEqual(['tool:rake', 'path:db:migrate']);
    expect(pieces('bundle exec rails test test/models/user_test.rb')).toEqual(['tool:rails', 'path:test', 'path:test/models/user_test.rb']);
    expect(pieces('bundle exec --keep-file-descriptors annotate --models')).toEqual(['tool:annotate']);
    expect(pieces('bundle exec')).toEqual([]);
    expect(pieces('bundle install')).toEqual(['tool:bundle', 'path:install']);
  });
});

describe('a program still installed through a plugin that extends it', () => {
  it('does not report `bundle exec rubocop` while `rubocop-rails` is declared', async () => {
    const r = await makeRepo();
    await r.write('Gemfile', "source 'https://rubygems.org'\ngem 'rubocop'\ngem 'rubocop-rails'\n");
    await r.write('AGENTS.md', '# Lint\n\n- Lint with `bundle exec rubocop -a`.\n');
    await r.commit('init', '2026-01-01');
    await r.write('Gemfile', "source 'https://rubygems.org'\ngem 'rubocop-rails'\n");
    await r.commit('rubocop comes with rubocop-rails', '2026-02-01');
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(rows(report.findings, 'AGENTS.md')).toEqual([]);
  });
});
