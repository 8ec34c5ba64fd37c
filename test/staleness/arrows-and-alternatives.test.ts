// Arrows and contrasted alternatives around a reference.
//
// An arrow in memory is mostly a mapping or a flow ("`@acme/math` → `packages/math/src/`",
// "`scripts/build.js` → custom build logic", "`a.ts` → `b.ts` → `c.ts`"): both sides are checked, and
// a correction rewrites both sides consistently. It records a change ("x was replaced by y") only when
// the text says so (a change verb on the line, a "Renames:" / "Migration:" label or heading, "→ now",
// "→ removed") or when it points at x's successor in history; such lines are not reported.
// A reference named as the wrong choice (", not `x`", "(not `x`)", "not: `x`") is not stale either,
// while "Never run `x`" still presupposes x and is checked. Real git repositories, audited and pruned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import type { Report } from '../../src/types.js';
import { body, cleanupRepos, findingRows, lineOfText, makeRepo, pkg, planRows, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const STALE = new Set(['path-missing', 'path-renamed', 'path-unverified', 'package-missing', 'package-renamed', 'script-missing']);
const C = '[corrected 2026-06-01]';

afterAll(cleanupRepos);

async function read(r: Repo, file: string): Promise<string> {
  return readFile(path.join(r.dir, file), 'utf8');
}

describe('arrows as mappings and flows: both sides checked', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '## Path aliases',
    '',
    '- `@acme/math` → `packages/math/src/`',
    '- `@acme/math` -> `packages/math/src/`',
    '- `@acme/common` → `packages/common/src/`',
    '',
    '## Build',
    '',
    '- `scripts/buildPackage.js` → custom build logic for packages',
    '- Build flow: `scripts/buildPackage.js` => `packages/math/src/index.ts` → `app/main.ts`',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('package.json', pkg({ name: 'acme-monorepo', private: true, workspaces: ['packages/*'] }));
    await r.write('packages/math/package.json', pkg({ name: '@acme/math' }));
    await r.write('packages/math/src/index.ts', body('math index'));
    await r.write('packages/common/package.json', pkg({ name: '@acme/common' }));
    await r.write('packages/common/src/index.ts', body('common index'));
    await r.write('scripts/buildPackage.js', body('build script'));
    await r.write('app/main.ts', body('app main'));
    await r.write('CLAUDE.md', memory);
    await r.commit('Monorepo with CLAUDE.md', '2025-06-20');
    await r.move('packages/math', 'packages/geometry');
    await r.write('packages/geometry/package.json', pkg({ name: '@acme/geometry' }));
    await r.move('scripts/buildPackage.js', 'scripts/buildPackage.mjs');
    await r.commit('Rename @acme/math to @acme/geometry; ESM build script', '2025-11-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports the left side of each arrow as well as the right side', () => {
    expect(findingRows(report, (f) => STALE.has(f.kind))).toEqual([
      `package-renamed|${l('- `@acme/math` →')}|@acme/math|@acme/geometry`,
      `path-renamed|${l('- `@acme/math` →')}|packages/math/src/|packages/geometry/src/`,
      `package-renamed|${l('- `@acme/math` ->')}|@acme/math|@acme/geometry`,
      `path-renamed|${l('- `@acme/math` ->')}|packages/math/src/|packages/geometry/src/`,
      `path-renamed|${l('custom build logic')}|scripts/buildPackage.js|scripts/buildPackage.mjs`,
      `path-renamed|${l('Build flow')}|packages/math/src/index.ts|packages/geometry/src/index.ts`,
      `path-renamed|${l('Build flow')}|scripts/buildPackage.js|scripts/buildPackage.mjs`,
    ]);
    const left = report.findings.find((f) => f.ref === 'scripts/buildPackage.js' && f.line === l('custom build logic'))!;
    expect(left.message).toMatch(
      /^`scripts\/buildPackage\.js` was renamed to `scripts\/buildPackage\.mjs` in [0-9a-f]{7} \(2025-11-01, "Rename @acme\/math to @acme\/geometry; ESM build script"\); update the reference\.$/,
    );
    expect(planRows(report.plan)).toEqual([
      `update|4|${l('- `@acme/math` →')}`,
      `update|4|${l('- `@acme/math` ->')}`,
      `update|4|${l('custom build logic')}`,
      `update|4|${l('Build flow')}`,
    ]);
  });

  it('corrects both sides of a mapping consistently; a second prune changes nothing; restore brings the bytes back', async () => {
    await runPrune({ root: r.dir, now: NOW, write: true });
    const text = await read(r, 'CLAUDE.md');
    expect(text).toBe(
      [
        '# CLAUDE.md',
        '',
        '## Path aliases',
        '',
        `- \`@acme/geometry\` → \`packages/geometry/src/\` ${C}`,
        `- \`@acme/geometry\` -> \`packages/geometry/src/\` ${C}`,
        '- `@acme/common` → `packages/common/src/`',
        '',
        '## Build',
        '',
        `- \`scripts/buildPackage.mjs\` → custom build logic for packages ${C}`,
        `- Build flow: \`scripts/buildPackage.mjs\` => \`packages/geometry/src/index.ts\` → \`app/main.ts\` ${C}`,
        '',
      ].join('\n'),
    );
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
    expect(await read(r, 'CLAUDE.md')).toBe(text);
    const { records } = parseArchive(await read(r, '.memory-audit/archive.jsonl'));
    const ids = [...new Set(records.map((x) => x.entryId))];
    expect(ids).toHaveLength(4);
    for (const id of ids) await runRestore({ root: r.dir, id });
    expect(await read(r, 'CLAUDE.md')).toBe(memory);
  });
});

describe('arrows that record a change: not reported', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '## Layout',
    '',
    '- `src/old.ts` → `src/new.ts` (renamed)',
    '- `src/parse.ts` → `src/parser.ts`',
    '- Moved `lib/util/` → `src/util/`',
    '- Migration: `src/v1.ts` → `src/api.ts`',
    '- `src/legacy.ts` → removed',
    '- `src/first.ts` → `src/second.ts`',
    '',
    '## Renames',
    '',
    '- `src/cfg.ts` → configuration',
    '',
  ].join('\n');
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('package.json', pkg({ name: 'app', scripts: { test: 'vitest' } }));
    for (const f of ['src/old.ts', 'src/parse.ts', 'lib/util/a.ts', 'src/v1.ts', 'src/legacy.ts', 'src/first.ts', 'src/cfg.ts']) await r.write(f, body(f));
    await r.write('CLAUDE.md', memory);
    await r.commit('Initial layout', '2025-06-01');
    await r.move('src/old.ts', 'src/new.ts');
    await r.move('src/parse.ts', 'src/parser.ts');
    await r.move('lib/util', 'src/util');
    await r.move('src/v1.ts', 'src/api.ts');
    await r.remove('src/legacy.ts');
    await r.move('src/first.ts', 'src/second.ts');
    await r.move('src/cfg.ts', 'src/config.ts');
    await r.commit('Reorganise sources', '2025-09-01');
    // `src/second.ts` was renamed once more: the arrow points at a step of the chain, which is
    // reported on its own (the right side), not on the left.
    await r.move('src/second.ts', 'src/third.ts');
    await r.commit('Rename second to third', '2025-10-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports only the arrow target that moved on since', () => {
    expect(findingRows(report, (f) => STALE.has(f.kind))).toEqual([
      `path-renamed|${lineOfText(memory, 'src/first.ts')}|src/second.ts|src/third.ts`,
    ]);
  });
});

describe('a reference named as the wrong alternative', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '## Miscellaneous',
    '',
    '- Check `package.json` for available scripts before trying to verify builds (e.g., `npm run compile`, not `npm run build`).',
    '- Run `npm run compile` (not `npm run build`) before packaging.',
    '- Entry point: `src/main.ts`, not `src/index.ts`.',
    '- Dates go through `dayjs` — not `moment`.',
    '- Pad strings with `String.prototype.padStart`; not: `left-pad`.',
    '- Never run `npm run build`; use `npm run compile`.',
    '',
  ].join('\n');
  let report: Report;

  beforeAll(async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'claude-dev', scripts: { build: 'tsc', compile: 'tsc --noEmit', test: 'mocha' }, dependencies: { moment: '^2.29.0', 'left-pad': '^1.3.0' } }));
    await r.write('src/index.ts', body('index'));
    await r.write('CLAUDE.md', memory);
    await r.commit('Extension with CLAUDE.md', '2025-08-01');
    await r.write('package.json', pkg({ name: 'claude-dev', scripts: { compile: 'tsc --noEmit', test: 'mocha' }, dependencies: { dayjs: '^1.11.0' } }));
    await r.remove('src/index.ts');
    await r.write('src/main.ts', '// a different entry point\nexport {};\n');
    await r.commit('Drop build script, moment and left-pad; new entry point', '2025-10-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('reports nothing for ", not x", "(not x)", "— not x" and "not: x"; "Never run x" stays checked', () => {
    expect(findingRows(report, (f) => STALE.has(f.kind))).toEqual([`script-missing|${lineOfText(memory, 'Never run')}|npm run build|`]);
    expect(planRows(report.plan)).toEqual([`review|4|${lineOfText(memory, 'Never run')}`]);
  });
});

describe('a package arrow: its successor or a mapping', () => {
  const memory = ['# CLAUDE.md', '', '- `moment` → `Dayjs`', '- `moment` → date formatting helpers', ''].join('\n');
  let report: Report;

  beforeAll(async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'app', dependencies: { moment: '^2.29.0' } }));
    await r.write('CLAUDE.md', memory);
    await r.commit('App with CLAUDE.md', '2025-08-01');
    await r.write('package.json', pkg({ name: 'app', dependencies: { dayjs: '^1.11.0' } }));
    await r.commit('Replace moment with dayjs', '2025-10-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('leaves an arrow to the swapped-in package (any letter case) and reports a mapping', () => {
    expect(findingRows(report, (f) => STALE.has(f.kind))).toEqual([`package-renamed|${lineOfText(memory, 'date formatting')}|moment|dayjs`]);
  });
});
