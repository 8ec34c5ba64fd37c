// Versions tied to a language feature (QA round 10): "(Python 3.10+ syntax)", "Range-over-func iterators
// need Go 1.23+", "`tomllib` is in the standard library from Python 3.11" say when a feature appeared, not
// what the project requires; a floor above them keeps them true, so they are never rewritten upward and
// never paired with the project's version as a contradiction. Project requirements ("Requires Python
// 3.11+", "Node 18+ required", "Use Go 1.22") are still checked and corrected. Tables indexed by memory
// text (runners, synonyms, tools, job labels, runtime labels) never read Object.prototype.
import { afterAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { findContradictions } from '../../src/checks/contradiction.js';
import { runPrune } from '../../src/commands/prune.js';
import { isFeatureVersion, scanProse } from '../../src/memory/refs/prose.js';
import { context, parseFiles } from '../fidelity/helpers.js';
import { cleanupRepos, makeRepo, pkg } from './helpers.js';

afterAll(cleanupRepos);

const NOW = new Date('2026-06-01T12:00:00Z');

const versions = (text: string) => scanProse(text).filter((h) => h.kind === 'version').map((h) => h.raw);

describe('versions of a language feature', () => {
  it('reads a version qualifying syntax, features or semantics as no claim', () => {
    expect(versions('- Type annotations: `str | None`, `list[str]` (Python 3.10+ syntax)')).toEqual([]);
    expect(versions('- Union types: use `X | Y` (Python 3.10+ syntax), never `Optional[X]`')).toEqual([]);
    expect(versions('- Lowercase generics such as `dict[str, int]` (Python 3.9+ syntax)')).toEqual([]);
    expect(versions('- We use Python 3.12 type parameter syntax everywhere.')).toEqual([]);
    expect(versions('- Go 1.22 loop variable semantics apply to every `for` loop.')).toEqual([]);
    expect(versions('- Prefer Python 3.11 features such as `ExceptionGroup`.')).toEqual([]);
  });

  it('reads a version a language construct needs as no claim', () => {
    expect(versions('- Range-over-func iterators need Go 1.23+, which we already require.')).toEqual([]);
    expect(versions('- Generics require Go 1.18.')).toEqual([]);
    expect(versions('- `match` statements require at least Python 3.10.')).toEqual([]);
    expect(versions('- `tomllib` needs Python 3.11.')).toEqual([]);
    expect(versions('- Use `X | Y` unions (requires Python 3.10+).')).toEqual([]);
  });

  it('reads a version after `from` as when something came, unless the clause ties it to the project', () => {
    expect(versions('- `tomllib` is in the standard library from Python 3.11, so no `tomli` dependency is needed.')).toEqual([]);
    expect(versions('- The CLI works from Node 18 on.')).toEqual(['Node 18']);
    expect(versions('- Supported from Python 3.10 onwards.')).toEqual(['Python 3.10']);
  });

  it('keeps the project requirements', () => {
    expect(versions('- Node 18+ required')).toEqual(['Node 18+']);
    expect(versions('- Requires Python 3.11+')).toEqual(['Python 3.11+']);
    expect(versions('- Use Go 1.22')).toEqual(['Go 1.22']);
    expect(versions('- We need Node 20.')).toEqual(['Node 20']);
    expect(versions('- The CLI requires Go 1.22.')).toEqual(['Go 1.22']);
    expect(versions('- This project requires Python 3.11+.')).toEqual(['Python 3.11+']);
    expect(versions('- Tests need Python 3.11.')).toEqual(['Python 3.11']);
    expect(versions('- `pnpm dev` needs Node 20.')).toEqual(['Node 20']);
    expect(versions('- Install deps (requires Python 3.11+).')).toEqual(['Python 3.11+']);
    expect(versions('- Requires Node 20 for new features.')).toEqual(['Node 20']);
    expect(versions('- CI tests on Python 3.13.')).toEqual(['Python 3.13']);
  });

  it('isFeatureVersion takes the span of the version with its subject', () => {
    const t = 'Iterators need Go 1.23+';
    expect(isFeatureVersion(t, 15, 23)).toBe(true);
    const u = 'Requires Go 1.23+';
    expect(isFeatureVersion(u, 9, 17)).toBe(false);
  });

  it('never rewrites a feature version upward; still corrects the project requirements', async () => {
    const r = await makeRepo();
    await r.write('pyproject.toml', '[project]\nname = "acme"\nrequires-python = ">=3.12"\ndependencies = ["httpx>=0.27"]\n');
    await r.write('go.mod', 'module example.com/acme\n\ngo 1.24.0\n');
    await r.write('package.json', pkg({ name: 'web', private: true, engines: { node: '>=20' } }));
    await r.write('src/acme/__init__.py', '\n');
    const memory = [
      '## Code style',
      '',
      '- Type annotations: `str | None`, `list[str]` (Python 3.10+ syntax)',
      '- Union types: use `X | Y` (Python 3.10+ syntax), never `Optional[X]`',
      '- Lowercase generics such as `dict[str, int]` (Python 3.9+ syntax)',
      '- Range-over-func iterators need Go 1.23+, which we already require.',
      '- Requires Python 3.11+.',
      '- Node 18+ required.',
      '- Use Go 1.22 for builds.',
      '',
    ].join('\n');
    await r.write('AGENTS.md', memory);
    await r.commit('Add AGENTS.md', '2025-10-01');
    const { report } = await audit({ root: r.dir, now: NOW });
    expect(report.findings.filter((f) => f.severity !== 'info').map((f) => [f.kind, f.line, f.ref, f.message])).toEqual([
      ['version-drift', 7, 'Python 3.11+', '`Python 3.11+` no longer matches the project: `pyproject.toml` requires Python `>=3.12`; update the stated version to 3.12+.'],
      ['version-drift', 8, 'Node 18+', '`Node 18+` no longer matches the project: `package.json` requires Node.js `>=20`; update the stated version to 20+.'],
      ['version-drift', 9, 'Go 1.22', '`Go 1.22` no longer matches the project: `go.mod` requires Go `1.24.0`; update the stated version to 1.24.'],
    ]);
    await runPrune({ root: r.dir, now: NOW, write: true });
    const after = memory
      .replace('- Requires Python 3.11+.', '- Requires Python 3.12+. [corrected 2026-06-01]')
      .replace('- Node 18+ required.', '- Node 20+ required. [corrected 2026-06-01]')
      .replace('- Use Go 1.22 for builds.', '- Use Go 1.24 for builds. [corrected 2026-06-01]');
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(after);
    const second = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(after);
  });

  it('leaves a feature version alone when the floor is below it (not rewritten down either)', async () => {
    const r = await makeRepo();
    await r.write('pyproject.toml', '[project]\nname = "acme"\nrequires-python = ">=3.9"\n');
    await r.write('AGENTS.md', '- Union types: use `X | Y` (Python 3.10+ syntax), never `Optional[X]`\n');
    await r.commit('Add AGENTS.md', '2025-10-01');
    const { report } = await audit({ root: r.dir, now: NOW, checks: ['version'] });
    expect(report.findings).toEqual([]);
  });
});

describe('contradiction: the same feature-statement exclusions as version references', () => {
  it('does not pair a feature statement with the CI version', () => {
    const { files, entries } = parseFiles({
      'AGENTS.md':
        '- CI tests on Python 3.13.\n- `tomllib` is in the standard library from Python 3.11, so no `tomli` dependency is needed.\n' +
        '- Range-over-func iterators need Go 1.23+.\n- Go 1.22 loop variable semantics apply.\n- Builds use Go 1.24.\n',
    });
    expect(findContradictions(context(files, entries))).toEqual([]);
  });

  it('still pairs two project statements', () => {
    const { files, entries } = parseFiles({ 'AGENTS.md': '- CI tests on Python 3.13.\n- The service runs on Python 3.11.\n' });
    expect(findContradictions(context(files, entries)).map((f) => [f.line, f.ref, f.message])).toEqual([
      [1, 'Python 3.13', '"Python 3.13" contradicts "Python 3.11" at AGENTS.md:2 for python; keep the one that is true and fix or delete the other.'],
      [2, 'Python 3.11', '"Python 3.11" contradicts "Python 3.13" at AGENTS.md:1 for python; keep the one that is true and fix or delete the other.'],
    ]);
  });

  it('end to end: no finding and nothing to review (QA10 scenario 10)', async () => {
    const r = await makeRepo();
    await r.write('pyproject.toml', '[project]\nname = "acme"\nrequires-python = ">=3.11"\n');
    await r.write('AGENTS.md', '- CI tests on Python 3.13.\n- `tomllib` is in the standard library from Python 3.11, so no `tomli` dependency is needed.\n');
    await r.commit('Add AGENTS.md', '2025-10-01');
    const { report } = await audit({ root: r.dir, now: NOW });
    expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(report.plan.filter((p) => p.action !== 'keep')).toEqual([]);
  });
});

describe('contradiction and version tables read own properties only', () => {
  it('reads `constructor` / `toString` as ordinary script and subject words', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md': '- Build with `yarn constructor`.\n- Run `npx toString` once.\n- The constructor timeout is 30 seconds.\n',
      'AGENTS.md': '- Build with `pnpm constructor`.\n- Run `bunx toString` once.\n- The constructor timeout is 60 seconds.\n',
    });
    const f = findContradictions(context(files, entries));
    // no job for `constructor` / `toString` (they are no runner): only the two durations disagree
    expect(f.map((x) => [x.file, x.line, x.ref, x.message])).toEqual([
      ['CLAUDE.md', 3, '30 seconds', '"30 seconds" contradicts "60 seconds" at AGENTS.md:3 for the same duration; keep the one that is true and fix or delete the other.'],
      ['AGENTS.md', 3, '60 seconds', '"60 seconds" contradicts "30 seconds" at CLAUDE.md:3 for the same duration; keep the one that is true and fix or delete the other.'],
    ]);
    expect(JSON.stringify(f)).not.toMatch(/native code|function Object/);
  });

  it('audits version-like `constructor 2` / `toString 3.1` phrases without error or finding', async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'app', engines: { node: '>=20' }, scripts: { constructor: 'node build.js', toString: 'node s.js' } }));
    const memory = '- Constructor 2 and toString 3.1 need Node 20+; `yarn constructor` builds, `pnpm constructor` too.\n- Constructor syntax requires TypeScript 5.0.\n';
    await r.write('AGENTS.md', memory);
    await r.commit('Add AGENTS.md', '2025-10-01');
    const { report } = await audit({ root: r.dir, now: NOW });
    expect(report.findings.filter((f) => f.severity !== 'info').map((f) => `${f.kind}|${f.line}|${f.ref}`)).toEqual([]);
    expect(JSON.stringify(report)).not.toMatch(/native code|function Object|\[object Object\]/);
  });
});
