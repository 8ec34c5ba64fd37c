// A program the project had only through dependencies extending it (`rspec` through `rspec-rails`,
// `rubocop` through `rubocop-rails-omakase`) is gone once every such dependency is removed; while one
// is declared, or the program is declared itself, or the history is shallow, nothing is said.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, shallowClone, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const gemfile = (gems: string[]) => ['source "https://rubygems.org"', 'gem "rails", "~> 8.0"', 'group :development, :test do', ...gems.map((g) => `  gem "${g}", require: false`), 'end', ''].join('\n');
const PKG = (f: { kind: string }) => f.kind === 'package-missing' || f.kind === 'package-renamed';

afterAll(cleanupRepos);

describe('programs of removed extending dependencies', () => {
  const memory = ['# Rails app', '', '- Run `bundle exec rspec` before pushing.', '- Lint with `bundle exec rubocop -a`.', '- Check types with `bundle exec srb tc`.', ''].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('Gemfile', gemfile(['rspec-rails', 'rubocop-rails-omakase', 'sorbet-runtime', 'srb-extra']));
    await r.write('CLAUDE.md', memory);
    await r.commit('base', '2025-03-01');
    await r.write('Gemfile', gemfile(['minitest', 'standard', 'srb-extra']));
    await r.commit('Switch to minitest + standard', '2025-06-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports the programs whose every extender is gone, naming the removal', () => {
    expect(findingRows(report, PKG)).toEqual([`package-missing|${l('bundle exec rspec')}|rspec|`, `package-missing|${l('rubocop -a')}|rubocop|`]);
    expect(report.findings.find((f) => f.ref === 'rspec')!.message).toMatch(
      /^`rspec` is no longer installed: the project had it through `rspec-rails`, which was removed from `Gemfile` in [0-9a-f]{7} \(2025-06-01, "Switch to minitest \+ standard"\), and no dependency declared now provides it; remove the reference or name what replaced it\.$/,
    );
  });

  it('says nothing on a shallow clone', async () => {
    const dir = await shallowClone(r);
    const shallow = await audit({ root: dir, memory: ['CLAUDE.md'], now: NOW });
    expect(shallow.report.findings.filter(PKG)).toEqual([]);
  });

  it('says nothing while an extender is declared or the program is declared itself', async () => {
    const h = await makeRepo();
    await h.write('Gemfile', gemfile(['rspec-rails', 'rspec-mocks', 'rubocop', 'rubocop-rails']));
    await h.write('CLAUDE.md', memory);
    await h.commit('base', '2025-03-01');
    await h.write('Gemfile', gemfile(['rspec-mocks', 'rubocop']));
    await h.commit('Drop rspec-rails and rubocop-rails', '2025-06-01');
    const res = await audit({ root: h.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(res.report.findings.filter(PKG)).toEqual([]);
  });
});
