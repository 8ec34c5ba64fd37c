// Successors of removed scripts and packages (QA round 2): a successor is only named, and only
// written over the old name, when the commit's pairing is unambiguous and the entry does not
// already name it; prohibitions of something that is gone ("never add `moment` back") stay true.
// Real git repositories in temp folders, audited end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { oneFamily, swapSuccessor } from '../../src/checks/package.js';
import { describedAsPast } from '../../src/checks/stale-common.js';
import { extractReferences } from '../../src/memory/references.js';
import { entryOf, fileOf } from './refs-helpers.js';
import type { Finding, Report } from '../../src/types.js';
import { body, cleanupRepos, lineOfText, makeRepo, pkg } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const STALE = new Set(['path-missing', 'path-renamed', 'script-missing', 'package-missing', 'package-renamed']);

afterAll(cleanupRepos);

/** kind | line | ref | suggestion.replace (empty when none) */
function rows(findings: Finding[], file: string): string[] {
  return findings
    .filter((f) => f.file === file && STALE.has(f.kind))
    .sort((a, b) => a.line - b.line || (a.ref ?? '').localeCompare(b.ref ?? ''))
    .map((f) => `${f.kind}|${f.line}|${f.ref ?? ''}|${f.suggestion?.replace ?? ''}`);
}

function at(report: Report, ref: string, line: number): Finding {
  const f = report.findings.find((x) => x.ref === ref && x.line === line && STALE.has(x.kind));
  if (!f) throw new Error(`no finding for ${ref} at line ${line}`);
  return f;
}

function planAt(report: Report, file: string, line: number) {
  const e = report.entries.find((x) => x.file === file && x.line <= line && x.endLine >= line);
  return report.plan.find((p) => p.entryId === e?.id);
}

describe('script successors: only unambiguous pairings are renames', () => {
  const memory = [
    '# Scripts',
    '',
    '- E2E: `npm run test:e2e` (Playwright).',
    '- Trigger the legacy sync by hand with `npm run legacy:sync`.',
    '- Seed the database with `npm run seed`.',
    '- Build the docs with `npm run docs`.',
    '- Locally `npm run test:e2e`; CI runs `npm run e2e`.',
    '',
  ].join('\n');
  let report: Report;
  const sha: Record<string, string> = {};

  beforeAll(async () => {
    const r = await makeRepo();
    await r.write('package.json', pkg({ name: 'portal', private: true, scripts: { build: 'tsc', 'test:e2e': 'playwright test', 'legacy:sync': 'node legacy/api/sync.js', seed: 'node scripts/seed.js', docs: 'typedoc src' } }));
    await r.commit('initial', '2026-01-05');
    // two removed, one added: only the one with the same command pairs
    await r.write('package.json', pkg({ name: 'portal', private: true, scripts: { build: 'tsc', e2e: 'playwright test', seed: 'node scripts/seed.js', docs: 'typedoc src' } }));
    sha.e2e = (await r.commit('Rename test:e2e to e2e; drop the legacy sync', '2026-02-01')).slice(0, 7);
    // one for one, but the commands and names have nothing in common: not a rename
    await r.write('package.json', pkg({ name: 'portal', private: true, scripts: { build: 'tsc', e2e: 'playwright test', bench: 'vitest bench', docs: 'typedoc src' } }));
    sha.seed = (await r.commit('Drop the seed script; add benchmarks', '2026-02-10')).slice(0, 7);
    // one for one with related names (`docs` -> `docs:build`): a rename even though the tool changed
    await r.write('package.json', pkg({ name: 'portal', private: true, scripts: { build: 'tsc', e2e: 'playwright test', bench: 'vitest bench', 'docs:build': 'vitepress build docs' } }));
    sha.docs = (await r.commit('Move the docs to VitePress', '2026-02-20')).slice(0, 7);
    await r.write('CLAUDE.md', memory);
    await r.commit('memory snapshot', '2026-03-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('pairs by identical command and leaves the other removed script without a successor', () => {
    const l = (s: string) => lineOfText(memory, s);
    expect(rows(report.findings, 'CLAUDE.md')).toEqual([
      `script-missing|${l('E2E:')}|npm run test:e2e|npm run e2e`,
      `script-missing|${l('legacy sync')}|npm run legacy:sync|`,
      `script-missing|${l('Seed')}|npm run seed|`,
      `script-missing|${l('Build the docs')}|npm run docs|npm run docs:build`,
      `script-missing|${l('Locally')}|npm run test:e2e|`,
    ]);
    expect(at(report, 'npm run test:e2e', l('E2E:')).message).toBe(
      `\`npm run test:e2e\` no longer works: the script was renamed to \`e2e\` in ${sha.e2e} (2026-02-01, "Rename test:e2e to e2e; drop the legacy sync"); use \`npm run e2e\` instead.`,
    );
    expect(at(report, 'npm run legacy:sync', l('legacy sync')).message).toBe(
      `\`npm run legacy:sync\` no longer works: the script was removed from \`package.json\` in ${sha.e2e} (2026-02-01, "Rename test:e2e to e2e; drop the legacy sync"); update or remove the command.`,
    );
  });

  it('does not pair one-for-one swaps whose commands and names have nothing in common', () => {
    expect(at(report, 'npm run seed', lineOfText(memory, 'Seed')).message).toBe(
      `\`npm run seed\` no longer works: the script was removed from \`package.json\` in ${sha.seed} (2026-02-10, "Drop the seed script; add benchmarks"); update or remove the command.`,
    );
    expect(at(report, 'npm run docs', lineOfText(memory, 'Build the docs')).message).toBe(
      `\`npm run docs\` no longer works: the script was renamed to \`docs:build\` in ${sha.docs} (2026-02-20, "Move the docs to VitePress"); use \`npm run docs:build\` instead.`,
    );
  });

  it('does not write the successor over an entry that already runs it', () => {
    const line = lineOfText(memory, 'Locally');
    const f = at(report, 'npm run test:e2e', line);
    expect(f.message).toBe(
      `\`npm run test:e2e\` no longer works: the script was renamed to \`e2e\` in ${sha.e2e} (2026-02-01, "Rename test:e2e to e2e; drop the legacy sync"), which the entry already names; remove \`npm run test:e2e\`.`,
    );
    expect(f.suggestion).toBeUndefined();
    expect(planAt(report, 'CLAUDE.md', line)?.action).not.toBe('update');
    // the legacy entry is never "corrected" to an unrelated script
    const legacy = planAt(report, 'CLAUDE.md', lineOfText(memory, 'legacy sync'));
    expect(legacy?.action).not.toBe('update');
  });
});

describe('package successors: one for one, or one family for one', () => {
  const memory = [
    '# Notes',
    '',
    '- Never add `moment` back: it added 300 KB to the bundle. Use `date-fns`.',
    '- Format dates with `moment`.',
    '- Time zones go through `moment-timezone`.',
    '- Use `axios` for HTTP.',
    '- Use `lodash` only for debounce/throttle.',
    '- Fetch with `request`; `got` is only for streams.',
    '- Tables use `react-table`.',
    '- Tests run on `jest`.',
    '- Colours via `chalk`.',
    "- Don't reintroduce `axios`; never install `react-query` again.",
    '- Avoid `request` in new code. `lodash` was removed.',
    '- Do not call `chalk` directly; use the logger.',
    '- Config lives in `src/config.ts`, defaults in `src/settings.ts`.',
    '',
  ].join('\n');
  let report: Report;
  const sha: Record<string, string> = {};
  const base = { moment: '^2.30.0', 'moment-timezone': '^0.5.45', axios: '^1.6.0', lodash: '^4.17.21', request: '^2.88.0', 'react-query': '^3.39.0', 'react-table': '^7.8.0', chalk: '^5.3.0' };

  beforeAll(async () => {
    const r = await makeRepo();
    const deps: Record<string, string> = { ...base };
    const dev: Record<string, string> = { jest: '^29.7.0' };
    const write = () => r.write('package.json', pkg({ name: 'svc', version: '1.0.0', dependencies: deps, devDependencies: dev }));
    await write();
    await r.write('src/config.ts', body('config'));
    await r.commit('initial', '2026-01-05');
    delete deps.moment;
    delete deps['moment-timezone'];
    deps['date-fns'] = '^3.6.0';
    await write();
    sha.dates = (await r.commit('Replace moment with date-fns', '2026-02-01')).slice(0, 7);
    delete deps.axios;
    delete deps.lodash;
    deps.ky = '^1.2.0';
    await write();
    sha.ky = (await r.commit('Switch to ky; drop lodash', '2026-02-05')).slice(0, 7);
    delete deps.request;
    deps.got = '^14.0.0';
    await write();
    sha.got = (await r.commit('Replace request with got', '2026-02-10')).slice(0, 7);
    delete deps['react-query'];
    delete deps['react-table'];
    deps['@tanstack/react-query'] = '^5.0.0';
    await write();
    sha.tanstack = (await r.commit('Move to TanStack Query', '2026-02-15')).slice(0, 7);
    // jest -> vitest in devDependencies; chalk leaves dependencies in the same commit (another field)
    delete dev.jest;
    dev.vitest = '^3.2.0';
    delete deps.chalk;
    await write();
    sha.vitest = (await r.commit('Move tests to vitest; drop chalk', '2026-02-20')).slice(0, 7);
    await r.move('src/config.ts', 'src/settings.ts');
    sha.settings = (await r.commit('Rename config to settings', '2026-02-25')).slice(0, 7);
    await r.write('CLAUDE.md', memory);
    await r.commit('memory snapshot', '2026-03-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  const l = (s: string) => lineOfText(memory, s);

  it('reports exactly the stale references, with a replacement only for certain successors', () => {
    expect(rows(report.findings, 'CLAUDE.md')).toEqual([
      `package-renamed|${l('Format dates')}|moment|date-fns`,
      `package-renamed|${l('Time zones')}|moment-timezone|date-fns`,
      `package-missing|${l('Use `axios`')}|axios|`,
      `package-missing|${l('Use `lodash`')}|lodash|`,
      `package-renamed|${l('Fetch with')}|request|`,
      `package-missing|${l('Tables')}|react-table|`,
      `package-renamed|${l('Tests run')}|jest|vitest`,
      `package-missing|${l('Colours')}|chalk|`,
      `package-missing|${l('Do not call')}|chalk|`,
      `path-renamed|${l('Config lives')}|src/config.ts|`,
    ]);
  });

  it('keeps a family of removed names (`moment` + `moment-timezone`) paired with the one added', () => {
    const f = at(report, 'moment-timezone', l('Time zones'));
    expect(f.message).toBe(`\`moment-timezone\` was replaced by \`date-fns\` in \`package.json\` in ${sha.dates} (2026-02-01, "Replace moment with date-fns"); update the reference.`);
    expect(f.evidence?.now).toBe('date-fns');
  });

  it('names what the commit added, without a successor, when several unrelated names left', () => {
    const f = at(report, 'lodash', l('Use `lodash`'));
    expect(f.message).toBe(
      `\`lodash\` is no longer a dependency of any manifest: it was removed from \`package.json\` in ${sha.ky} (2026-02-05, "Switch to ky; drop lodash") (that commit added \`ky\`, and removed \`axios\` too); remove the reference or name what replaced it.`,
    );
    expect(f.evidence).toMatchObject({ package: 'lodash', added: ['ky'] });
    expect(f.evidence?.now).toBeUndefined();
    expect(at(report, 'react-table', l('Tables')).message).toBe(
      `\`react-table\` is no longer a dependency of any manifest: it was removed from \`package.json\` in ${sha.tanstack} (2026-02-15, "Move to TanStack Query") (that commit added \`@tanstack/react-query\`, and removed \`react-query\` too); remove the reference or name what replaced it.`,
    );
    for (const s of ['Use `axios`', 'Use `lodash`', 'Tables']) expect(planAt(report, 'CLAUDE.md', l(s))?.action).not.toBe('update');
  });

  it('pairs within one dependency field only', () => {
    expect(at(report, 'jest', l('Tests run')).message).toBe(
      `\`jest\` was replaced by \`vitest\` in \`package.json\` in ${sha.vitest} (2026-02-20, "Move tests to vitest; drop chalk"); update the reference.`,
    );
    expect(at(report, 'chalk', l('Colours')).message).toBe(
      `\`chalk\` is no longer a dependency of any manifest: it was removed from \`package.json\` in ${sha.vitest} (2026-02-20, "Move tests to vitest; drop chalk"); remove the reference or name what replaced it.`,
    );
  });

  it('treats prohibitions of a removed package as still true, but not other instructions about it', () => {
    // "never add X back", "don't reintroduce X", "never install X again", "avoid X", "X was removed"
    for (const s of ['Never add', "Don't reintroduce", 'Avoid `request`']) expect(report.findings.filter((f) => f.line === l(s) && STALE.has(f.kind))).toEqual([]);
    expect(planAt(report, 'CLAUDE.md', l('Never add'))?.action).toBe('keep');
    // "Format dates with `moment`" and "Do not call `chalk` directly" still presuppose the package
    expect(at(report, 'moment', l('Format dates')).suggestion).toEqual({ replace: 'date-fns' });
    expect(at(report, 'chalk', l('Do not call')).kind).toBe('package-missing');
  });

  it('does not write a successor the entry already names (package and path)', () => {
    const f = at(report, 'request', l('Fetch with'));
    expect(f.message).toBe(
      `\`request\` was replaced by \`got\` in \`package.json\` in ${sha.got} (2026-02-10, "Replace request with got"); the entry already names \`got\`: remove or reword the reference to \`request\`.`,
    );
    expect(f.evidence?.now).toBe('got');
    expect(f.suggestion).toBeUndefined();
    const p = at(report, 'src/config.ts', l('Config lives'));
    expect([p.kind, p.evidence?.now, p.suggestion]).toEqual(['path-renamed', 'src/settings.ts', undefined]);
    for (const s of ['Fetch with', 'Config lives']) expect(planAt(report, 'CLAUDE.md', l(s))?.action).not.toBe('update');
  });
});

describe('pairing rules', () => {
  it('a family is a root name and names extending it', () => {
    expect(oneFamily(['moment'])).toBe(true);
    expect(oneFamily(['moment', 'moment-timezone'])).toBe(true);
    expect(oneFamily(['eslint-plugin-react', 'eslint', 'eslint-config-prettier'])).toBe(true);
    expect(oneFamily(['vue', '@vue/compiler-sfc'])).toBe(true);
    expect(oneFamily(['axios', 'lodash'])).toBe(false);
    expect(oneFamily(['react-query', 'react-table'])).toBe(false);
    expect(oneFamily(['moment', 'momentum'])).toBe(false);
  });

  it('a swap needs exactly one added name', () => {
    expect(swapSuccessor(['ky'], ['axios'])).toBe('ky');
    expect(swapSuccessor(['ky'], ['axios', 'lodash'])).toBeUndefined();
    expect(swapSuccessor(['dayjs'], ['moment', 'moment-timezone'])).toBe('dayjs');
    expect(swapSuccessor(['hono', '@hono/node-server'], ['express'])).toBeUndefined();
  });
});

describe('describedAsPast: prohibitions of the old thing', () => {
  /** Whether the reference `name` in `text` is already described as past or forbidden. */
  const past = (text: string, name: string): boolean => {
    const file = fileOf(text);
    const entry = entryOf(file);
    entry.refs = extractReferences(entry, file);
    const ref = entry.refs.find((r) => r.value === name || r.script === name || r.raw === name);
    if (!ref) throw new Error(`no reference ${name} in ${text}`);
    return describedAsPast(entry, ref);
  };

  it('recognises prohibitions and removals', () => {
    for (const text of [
      'Never add `moment` back: it added 300 KB to the bundle.',
      "Don't reintroduce `moment`.",
      'Do not use `moment`.',
      'Never install `moment` again.',
      'Never ever re-add `moment`.',
      'We must not depend on `moment`.',
      'Stop using `moment`.',
      '`moment` was removed in March.',
      'Avoid `moment`.',
      '`moment` is banned.',
      'Do not bring back the old `moment` package.',
    ])
      expect([text, past(text, 'moment')]).toEqual([text, true]);
  });

  it('still checks instructions that presuppose the thing exists', () => {
    for (const text of [
      'Use `moment` for dates.',
      'Dates: `moment`; never add a second date library.',
      'Do not call `moment` directly; go through `src/dates.ts`.',
      'Never forget to format with `moment`.',
      'Never add tests without `moment` fixtures.',
      'Add `moment` when you need time zones.',
    ])
      expect([text, past(text, 'moment')]).toEqual([text, false]);
  });

  it('applies to scripts and paths too', () => {
    expect(past("- Don't reintroduce `npm run legacy:sync`.", 'legacy:sync')).toBe(true);
    expect(past('- Trigger it by hand with `npm run legacy:sync`.', 'legacy:sync')).toBe(false);
    expect(past('- Never add `src/legacy/` back.', 'src/legacy/')).toBe(true);
    expect(past('- Never import from `src/legacy/`.', 'src/legacy/')).toBe(false);
  });
});
