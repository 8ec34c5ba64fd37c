// The decision tree: each rule fires for its case and only then (real repositories, real
// parsing and blame; findings injected so each rule is isolated from the checks' heuristics).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuditResult } from '../../src/audit.js';
import { audit } from '../../src/audit.js';
import { correctedText, decide, healthWarnings } from '../../src/policy/decide.js';
import { isPublicDocUrl } from '../../src/policy/signals.js';
import type { Finding } from '../../src/types.js';
import { NOW, cleanup, config, entry, finding, makeRepo, planWith } from './helpers.js';

const CLAUDE = `# Project

## Build

- Run tests with \`npm test\`.
- The session lifetime is 30 minutes.
- Start the server from \`src/server.ts\`.
- The legacy importer lives in \`src/legacy.ts\`.

## Decisions

- We chose Postgres over MySQL for JSONB support.
- The design rationale is in #14.

<!-- PROTECTED -->
- Currently the release branch is frozen.
`;

const MEMORY = `# Memory

- [Sessions](sessions.md) — session handling
- [Links](links.md) — fetch docs
- [Dashboards](dashboards.md) — our dashboards
- [Outage](outage.md) — the March outage
- [Pool fix](poolfix.md) — connection pool fix
- [Prefs](prefs.md) — user preferences
- [Deploy](deploy.md) — how deploys go
- [Gone](gone.md) — a topic file that was deleted
- Session lifetime is 60 minutes.
- Deploys go through staging first.
- Migrations: don't use the connection pool for migrations; it deadlocks.
- Debug note: the flaky test passes on rerun.
- Working on the exporter right now.
- The cache warmer script is somewhere in tools.
`;

const topic = (name: string, type: string, body: string, extra = '') =>
  `---\nname: ${name}\ndescription: ${name} notes\ntype: ${type}\n${extra}---\n\n${body}\n`;

let result: AuditResult;
let repoDir: string;

beforeAll(async () => {
  const repo = await makeRepo(
    {
      'package.json': '{"name":"demo","scripts":{"test":"vitest"}}\n',
      'src/server.ts': 'export {}\n',
      'src/legacy.ts': 'export {}\n',
      'CLAUDE.md': CLAUDE,
      '.claude/memory/MEMORY.md': MEMORY,
      '.claude/memory/sessions.md': topic('sessions', 'project', 'Sessions are stored in Redis.'),
      '.claude/memory/links.md': topic('links', 'reference', 'Fetch API docs: https://developer.mozilla.org/en-US/docs/Web/API/fetch'),
      '.claude/memory/dashboards.md': topic('dashboards', 'reference', 'Our Grafana dashboard: https://grafana.example.com/d/abc'),
      '.claude/memory/outage.md': topic('outage', 'project', 'Issue #12 tracked the March outage of the exporter.'),
      '.claude/memory/poolfix.md': topic('poolfix', 'project', 'Issue #13: the fix was to always close connections in finally blocks.'),
      '.claude/memory/prefs.md': topic('prefs', 'feedback', 'User prefers small pull requests.'),
      '.claude/memory/deploy.md': topic('deploy', 'project', 'Deploys go through staging first, then production after a smoke test.', 'priority: 10\n'),
    },
    '2025-01-05',
  );
  // A newer decision reverses the older one.
  await repo.write('CLAUDE.md', CLAUDE.replace('for JSONB support.\n', 'for JSONB support.\n- We chose MySQL over Postgres for replication.\n'));
  await repo.commit('reverse the database decision', '2026-03-01');
  repoDir = repo.dir;
  result = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
});
afterAll(cleanup);

const plan = (findings: Finding[], over?: unknown) => planWith(result, findings, over ? config(over) : undefined);

describe('the decision tree', () => {
  test('without findings every entry is kept; index lines follow their topic', () => {
    const p = plan([]);
    expect(p.size).toBe(result.entries.length);
    const actions = new Set([...p.values()].map((x) => x.action));
    // Only the freely available reference (rule 7) goes without any finding.
    const removed = [...p.values()].filter((x) => x.action !== 'keep');
    expect(removed.map((x) => [x.file, x.rule, x.action])).toEqual([
      ['.claude/memory/MEMORY.md', 7, 'delete'],
      ['.claude/memory/links.md', 7, 'delete'],
    ]);
    expect(actions).toEqual(new Set(['keep', 'delete']));
    const idx = p.get(entry(result, '[Sessions](sessions.md)').id)!;
    expect(idx).toMatchObject({ action: 'keep', reason: 'index line of .claude/memory/sessions.md, which is kept' });
  });

  test('rule 0: a protected entry is kept whatever its findings', () => {
    const e = entry(result, 'release branch is frozen');
    expect(e.protected).toBe(true);
    const p = plan([finding('ephemeral', e), finding('path-missing', e)]);
    expect(p.get(e.id)).toMatchObject({ action: 'keep', rule: 0, reason: 'protected (marker)' });
  });

  test('rule 0: secrets and retention.keep', () => {
    const e = entry(result, 'Deploys go through staging first.');
    expect(plan([finding('secret', e), finding('ephemeral', e)]).get(e.id)).toMatchObject({ action: 'review', rule: 0 });
    expect(plan([finding('ephemeral', e)], { retention: { keep: ['[Dd]eploy'] } }).get(e.id)).toMatchObject({
      action: 'keep',
      rule: 0,
      reason: 'retention.keep matches /[Dd]eploy/',
    });
  });

  test('rule 1: ephemeral -> delete, only with an ephemeral finding, and not when switched off', () => {
    const e = entry(result, 'Working on the exporter right now.');
    expect(plan([finding('ephemeral', e, { evidence: { filter: 'session-state' } })]).get(e.id)).toMatchObject({
      action: 'delete',
      rule: 1,
      reason: 'ephemeral: session-state',
    });
    expect(plan([]).get(e.id)!.action).toBe('keep');
    expect(plan([finding('ephemeral', e)], { rules: { '1': false } }).get(e.id)!.action).toBe('keep');
  });

  test('rule 2: the memory side of a contradiction with CLAUDE.md is deleted; peers go to review', () => {
    const mem = entry(result, 'Session lifetime is 60 minutes.');
    const doc = entry(result, 'The session lifetime is 30 minutes.');
    const p = plan([
      finding('contradiction', mem, { evidence: { now: doc.id } }),
      finding('contradiction', doc, { evidence: { now: mem.id } }),
    ]);
    expect(p.get(mem.id)).toMatchObject({ action: 'delete', rule: 2, reason: `contradicts CLAUDE.md:6 (${doc.id}), which is authoritative` });
    expect(p.get(doc.id)!.action).toBe('keep');
    const peer = entry(result, 'Deploys go through staging first.');
    expect(plan([finding('contradiction', mem, { evidence: { now: peer.id } })]).get(mem.id)).toMatchObject({ action: 'review', rule: 2 });
  });

  test('rule 2: a reversed decision is kept and inoculated; the newer one stays', () => {
    const old = entry(result, 'We chose Postgres');
    const neu = entry(result, 'We chose MySQL');
    const p = plan([
      finding('contradiction', old, { evidence: { now: neu.id } }),
      finding('contradiction', neu, { evidence: { now: old.id } }),
    ]);
    expect(p.get(old.id)).toMatchObject({
      action: 'inoculate',
      rule: 2,
      superseded: `.memory-audit/superseded-${old.id.slice(2)}.md`,
    });
    expect(p.get(neu.id)!.action).toBe('keep');
  });

  test('rule 2: an abandoned dangerous pattern is deleted with a SUPERSEDED record', () => {
    const e = entry(result, "don't use the connection pool");
    const doc = entry(result, 'Run tests with');
    const p = plan([finding('contradiction', e, { evidence: { now: doc.id } })]);
    expect(p.get(e.id)).toMatchObject({ action: 'delete', rule: 2, superseded: `.claude/memory/superseded-${e.id.slice(2)}.md` });
  });

  test('rule 2: an index line whose topic file is gone is deleted', () => {
    const e = entry(result, '[Gone](gone.md)');
    expect(plan([finding('broken-link', e, { evidence: { reason: 'index-target-missing' } })]).get(e.id)).toMatchObject({
      action: 'delete',
      rule: 2,
      reason: 'index line points at a missing topic file (gone.md)',
    });
    expect(plan([]).get(e.id)!.action).toBe('keep');
  });

  test('rule 3: a duplicate is merged into the kept version; not when that one is removed', () => {
    const dup = entry(result, 'Deploys go through staging first.');
    const kept = result.entries.find((e) => e.file === '.claude/memory/deploy.md')!;
    expect(plan([finding('duplicate', dup, { evidence: { now: kept.id } })]).get(dup.id)).toMatchObject({
      action: 'merge',
      rule: 3,
      keep: kept.id,
    });
    const p = plan([finding('duplicate', dup, { evidence: { now: kept.id } }), finding('ephemeral', kept)]);
    expect(p.get(kept.id)!.action).toBe('delete');
    expect(p.get(dup.id)!.action).toBe('keep');
  });

  test('rule 4: a renamed path is corrected in place; a missing one deletes; a decision goes to review', () => {
    const e = entry(result, 'src/server.ts');
    const ref = e.refs.find((r) => r.raw === 'src/server.ts')!;
    expect(ref).toBeDefined();
    const p = plan([finding('path-renamed', e, { ref: 'src/server.ts', line: ref.line, suggestion: { replace: 'src/app/server.ts' } })]);
    expect(p.get(e.id)).toMatchObject({
      action: 'update',
      rule: 4,
      replacement: '- Start the server from `src/app/server.ts`. [corrected 2026-03-10]',
    });
    const gone = entry(result, 'src/legacy.ts');
    expect(plan([finding('path-missing', gone, { ref: 'src/legacy.ts' })]).get(gone.id)).toMatchObject({ action: 'delete', rule: 4 });
    const dec = entry(result, 'We chose Postgres');
    expect(plan([finding('path-missing', dec, { ref: 'x' })]).get(dec.id)).toMatchObject({ action: 'review', rule: 4 });
    expect(plan([]).get(gone.id)!.action).toBe('keep');
  });

  test('rule 4: an info-level stale finding (not verified stale) changes nothing', () => {
    const gone = entry(result, 'src/legacy.ts');
    const unsure = finding('expired', gone, { severity: 'info', message: 'valid_until is not a real calendar date' });
    expect(plan([unsure]).get(gone.id)!.action).toBe('keep');
    expect(plan([{ ...finding('package-missing', gone, { ref: 'left-pad' }), severity: 'info' }]).get(gone.id)!.action).toBe('keep');
  });

  test('rule 5: low fidelity and low use deletes; a never-seen path alone goes to review; high priority or feedback stays', () => {
    const e = entry(result, 'cache warmer script');
    expect(plan([finding('broken-link', e, { evidence: { reason: 'missing' } })]).get(e.id)).toMatchObject({ action: 'delete', rule: 5 });
    // An orphan topic is a structural problem, not low fidelity.
    expect(plan([finding('broken-link', e, { evidence: { reason: 'orphan' } })]).get(e.id)!.action).toBe('keep');
    // A path never in history may be a typo or relative to a folder the text names: a person decides.
    expect(plan([finding('path-unverified', e)]).get(e.id)).toMatchObject({ action: 'review', rule: 5 });
    expect(plan([finding('path-unverified', e)]).get(e.id)!.reason).toMatch(
      /^low fidelity \(path-unverified: .*\) and low use \(score 0\.2\d < 0\.30\); the path may be relative to a folder the entry names$/,
    );
    const deploy = result.entries.find((x) => x.file === '.claude/memory/deploy.md')!;
    expect(plan([finding('path-unverified', deploy)]).get(deploy.id)!.action).toBe('keep');
    const prefs = result.entries.find((x) => x.file === '.claude/memory/prefs.md')!;
    expect(plan([finding('path-unverified', prefs)]).get(prefs.id)).toMatchObject({ action: 'keep', rule: 5 });
    // retention.prune lowers the bar: no finding needed.
    const dbg = entry(result, 'Debug note');
    expect(plan([], { retention: { prune: ['^- Debug'] } }).get(dbg.id)).toMatchObject({ action: 'delete', rule: 5 });
    expect(plan([]).get(dbg.id)!.action).toBe('keep');
  });

  test('rule 6: finished work is archived unless it holds a reusable pattern', () => {
    const outage = result.entries.find((x) => x.file === '.claude/memory/outage.md')!;
    const fix = result.entries.find((x) => x.file === '.claude/memory/poolfix.md')!;
    const p = plan([
      finding('status-drift', outage, { message: 'issue #12 is closed' }),
      finding('status-drift', fix, { message: 'issue #13 is closed' }),
    ]);
    expect(p.get(outage.id)).toMatchObject({ action: 'archive', rule: 6, reason: 'about finished work: issue #12 is closed' });
    expect(p.get(entry(result, '[Outage](outage.md)').id)).toMatchObject({ action: 'archive', rule: 6 });
    expect(p.get(fix.id)).toMatchObject({ action: 'keep', rule: 6 });
  });

  test('rule 6: with GitHub state, progress notes about a closed issue are archived; a mere citation is not', () => {
    const outage = result.entries.find((x) => x.file === '.claude/memory/outage.md')!;
    const cite = entry(result, 'design rationale is in #14');
    expect(outage.refs.some((r) => r.kind === 'issue' && r.number === 12)).toBe(true);
    expect(cite.refs.some((r) => r.kind === 'issue' && r.number === 14)).toBe(true);
    const closed = (n: number) => ({ number: n, repo: 'o/r', kind: 'issue' as const, state: 'closed' as const });
    const github = { checked: true, repo: 'o/r', issues: new Map([['o/r#12', closed(12)], ['o/r#14', closed(14)]]) };
    const ctx = { files: result.files, entries: result.entries, evidence: { ...result.evidence, github }, config: result.config };
    const p = new Map(decide(ctx, []).map((x) => [x.entryId, x]));
    expect(p.get(outage.id)).toMatchObject({ action: 'archive', rule: 6, reason: 'about finished work: issue #12 is closed' });
    expect(p.get(cite.id)!.action).toBe('keep');
  });

  test('rule 7: freely available references go, project-specific ones stay', () => {
    const p = plan([]);
    const links = result.entries.find((x) => x.file === '.claude/memory/links.md')!;
    const dash = result.entries.find((x) => x.file === '.claude/memory/dashboards.md')!;
    expect(p.get(links.id)).toMatchObject({ action: 'delete', rule: 7, reason: 'freely available reference (developer.mozilla.org); findable with a search' });
    expect(p.get(dash.id)!.action).toBe('keep');
    expect(plan([], { rules: { '7': false } }).get(links.id)!.action).toBe('keep');
  });

  test('rule 7: a team document on a public host (Google Docs, Drive, Notion, Confluence) is not a freely available reference', () => {
    for (const url of [
      'https://developer.mozilla.org/en-US/docs/Web/HTTP',
      'https://docs.python.org/3/library/asyncio.html',
      'https://www.google.com/search?q=x',
    ])
      expect(isPublicDocUrl(url), url).toBe(true);
    for (const url of [
      'https://docs.google.com/document/d/1tBw9A4j62ruI5omIJbMxly-la5w4q_TjyJgJL_jN2fI/',
      'https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOpQrStUv/edit#gid=0',
      'https://drive.google.com/file/d/1AbCdEfGhIjKlMnOpQrStUv/view',
      'https://www.notion.so/acme/Release-process-0123456789abcdef',
      'https://acme.atlassian.net/wiki/spaces/ENG/pages/123/Runbook',
      'https://www.figma.com/file/abc/Design-system',
      'https://paper.dropbox.com/doc/Plan-abc',
    ])
      expect(isPublicDocUrl(url), url).toBe(false);
  });

  test('security-related entries go to review instead of delete', () => {
    const sessions = result.entries.find((x) => x.file === '.claude/memory/sessions.md')!;
    expect(plan([finding('ephemeral', sessions)]).get(sessions.id)!.action).toBe('delete');
    const e = entry(result, 'Session lifetime is 60 minutes.');
    const withAuth = { ...e, text: e.text + ' Auth tokens included.' };
    const ctx = { files: result.files, entries: result.entries.map((x) => (x.id === e.id ? withAuth : x)), evidence: result.evidence, config: result.config };
    const p = decide(ctx, [finding('ephemeral', e)]).find((x) => x.entryId === e.id)!;
    expect(p).toMatchObject({ action: 'review', rule: 1 });
  });

  test('the plan is deterministic', () => {
    const f = [finding('ephemeral', entry(result, 'Working on the exporter'))];
    expect([...plan(f).values()]).toEqual([...plan(f).values()]);
  });
});

describe('corrections', () => {
  test('the marker goes on the last changed line and replaces an older marker', () => {
    const e = { ...entry(result, 'src/server.ts') };
    const s = e.text.indexOf('src/server.ts') + e.start;
    expect(correctedText(e, [{ start: s, end: s + 13, text: 'lib/server.ts' }], '2026-03-10')).toBe(
      '- Start the server from `lib/server.ts`. [corrected 2026-03-10]',
    );
    const again = { ...e, text: '- Start the server from `src/server.ts`. [corrected 2025-01-01]' };
    expect(correctedText(again, [{ start: s, end: s + 13, text: 'lib/server.ts' }], '2026-03-10')).toBe(
      '- Start the server from `lib/server.ts`. [corrected 2026-03-10]',
    );
  });
});

describe('partial corrections', () => {
  test('two corrections of the same words that disagree go to review, never delete', async () => {
    const repo = await makeRepo({ 'CLAUDE.md': '- Format dates with moment.\n' });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const e = entry(r, 'moment');
    const f = (to: string) => finding('package-renamed', e, { ref: 'moment', line: 1, message: `moment was replaced by ${to}`, suggestion: { replace: to } });
    const [p] = decide(r, [f('dayjs'), f('luxon')]);
    expect(p).toMatchObject({ action: 'review', rule: 4, reason: 'stale (package-renamed): moment was replaced by dayjs; two corrections of the same words disagree' });
  });

  test('when the old name still appears elsewhere in the entry, the correction is not applied', async () => {
    const repo = await makeRepo({ 'CLAUDE.md': '- Use moment for dates.\n  Import `moment/locale/fr` first.\n- Format with moment.\n' });
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const two = entry(r, 'moment/locale/fr');
    const one = entry(r, 'Format with moment');
    const f = (e: typeof one, line: number) =>
      finding('package-renamed', e, { ref: 'moment', line, message: 'moment was replaced by dayjs', suggestion: { replace: 'dayjs' } });
    const p = new Map(decide(r, [f(two, 1), f(one, 3)]).map((x) => [x.entryId, x]));
    expect(p.get(one.id)).toMatchObject({ action: 'update', replacement: '- Format with dayjs. [corrected 2026-03-10]' });
    expect(p.get(two.id)).toMatchObject({ action: 'review', rule: 4 });
  });
});

describe('corrections in code blocks and tables', () => {
  const fake = (text: string) => ({ ...entry(result, 'src/server.ts'), text, start: 0, end: text.length });
  test('inside a fenced block the marker goes on the opening fence, keeping the code runnable', () => {
    const text = '```bash\n# run one file\nbun test src/a.test.ts\n```';
    const s = text.indexOf('src/a.test.ts');
    expect(correctedText(fake(text), [{ start: s, end: s + 13, text: 'packages/core/a.test.ts' }], '2026-03-10')).toBe(
      '```bash [corrected 2026-03-10]\n# run one file\nbun test packages/core/a.test.ts\n```',
    );
  });
  test('in a table row the marker goes inside the last cell', () => {
    const text = '| server | `src/server.ts` |';
    const s = text.indexOf('src/server.ts');
    expect(correctedText(fake(text), [{ start: s, end: s + 13, text: 'src/app.ts' }], '2026-03-10')).toBe(
      '| server | `src/app.ts` [corrected 2026-03-10] |',
    );
  });
});

describe('budgets and health', () => {
  test('over budget, the lowest scores are archived until MEMORY.md fits', async () => {
    const items = Array.from({ length: 12 }, (_, i) => (i % 4 === 0 ? `- Fact ${i} about \`src/hot.ts\`.` : `- Fact ${i} about the project.`));
    const repo = await makeRepo({ 'src/hot.ts': '1\n', '.claude/memory/MEMORY.md': `# Memory\n\n${items.join('\n')}\n` }, '2025-06-01');
    for (const d of ['2026-02-01', '2026-02-15', '2026-03-01']) {
      await repo.write('src/hot.ts', d + '\n');
      await repo.commit('touch hot', d);
    }
    const r = await audit({ root: repo.dir, now: NOW, config: config({ budgets: { memoryIndex: { lines: 10 } } }), checks: [] });
    const p = new Map(decide({ ...r, config: r.config }, []).map((x) => [x.entryId, x]));
    const archived = r.entries.filter((e) => p.get(e.id)!.action === 'archive');
    // 14 lines, budget 10: four items go, the latest untouched ones first; hot items survive.
    expect(archived.map((e) => e.text)).toEqual(['- Fact 7 about the project.', '- Fact 9 about the project.', '- Fact 10 about the project.', '- Fact 11 about the project.']);
    expect(p.get(archived[0].id)!.reason).toMatch(/^over budget \(\.claude\/memory\/MEMORY\.md: 1[1-4]\/10 lines\); lowest score 0\.\d\d$/);
    expect(r.entries.filter((e) => e.text.includes('hot')).every((e) => p.get(e.id)!.action === 'keep')).toBe(true);
  });

  test('health warnings: loose protection, wide drift, cold entries', () => {
    const entries = result.entries;
    const ctx = { files: result.files, entries, evidence: result.evidence, config: result.config };
    const stale = entries.slice(0, 6).map((e) => finding('path-missing', e));
    const p = decide(ctx, stale);
    const warnings = healthWarnings(ctx, stale, p);
    expect(warnings[0]).toMatch(/^Drift touches 6 of \d+ entries \(\d+(\.\d)?%\): rebuild the memory rather than patch it/);
    expect(warnings.some((w) => /cold from irrelevance/.test(w))).toBe(true);
    // Index lines are as cold as their topic file, and user / feedback / decision entries are kept on principle.
    const listed = warnings.filter((w) => /^\d+ cold from/.test(w)).join(' ');
    for (const e of entries.filter((x) => x.kind === 'index-line' || ['user', 'feedback', 'decision'].includes(x.type) || /\b(?:always|never|don't)\b/i.test(x.text)))
      expect(listed).not.toMatch(new RegExp(`${e.file.replace(/\./g, '\\.')}:${e.line}\\b`));
    const prot = { ...ctx, entries: entries.map((e, i) => (i % 2 ? { ...e, protected: true } : e)) };
    expect(healthWarnings(prot, [], decide(prot, []))[0]).toMatch(/are protected: the protection criteria are too loose/);
  });

  test("a file's preamble is never listed as cold; a cold paragraph of a section is", async () => {
    const md = [
      '# CLAUDE.md',
      '',
      'This file provides guidance to Claude Code when working with code in this repository.',
      '',
      'Acme is a billing service for small shops.',
      '',
      '## Notes',
      '',
      'The quarterly report template was discussed with finance.',
      '',
    ].join('\n');
    const repo = await makeRepo({ 'CLAUDE.md': md, 'src/a.ts': '1\n' }, '2024-01-01');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const warnings = healthWarnings(r, [], decide(r, []));
    expect(warnings.filter((w) => /cold from/.test(w))).toEqual([
      '1 cold from irrelevance (score < 0.3, naming nothing the project still has; delete next cycle unless still wanted): CLAUDE.md:9',
    ]);
  });

  test('paths a nested memory file names with `../` count as named where they resolve (never above the root)', async () => {
    const md = [
      '# API',
      '',
      '- Design notes live in [the API doc](../../docs/api.md).',
      '',
      '- Shared types come from `../shared/types.ts`.',
      '',
      '- The old notes were in `../../../outside/notes.md`.',
      '',
    ].join('\n');
    const repo = await makeRepo({ 'services/api/CLAUDE.md': md, 'services/shared/types.ts': 'x\n', 'docs/api.md': 'd\n' }, '2024-01-01');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const warnings = healthWarnings(r, [], decide(r, []));
    expect(warnings.filter((w) => /cold from/.test(w))).toEqual([
      '1 cold from irrelevance (score < 0.3, naming nothing the project still has; delete next cycle unless still wanted): services/api/CLAUDE.md:7',
    ]);
  });

  test('while a manifest cannot be read, entries naming dependencies are cold from disuse, not irrelevance (QA round 25)', async () => {
    const md = ['# CLAUDE.md', '', '## Stack', '', '- Forms are validated with zod schemas.', '', '- UI is react with hooks only.', ''].join('\n');
    const broken = '{\n  "name": "web",\n<<<<<<< HEAD\n  "scripts": { "build": "vite build" },\n=======\n>>>>>>> feature\n  "dependencies": { "react": "^18.2.0", "zod": "^3.23.0" }\n}\n';
    const repo = await makeRepo({ 'CLAUDE.md': md, 'package.json': broken }, '2024-01-01');
    const r = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const warnings = healthWarnings(r, [], decide(r, []));
    expect(warnings.filter((w) => /cold from/.test(w))).toEqual([
      '2 cold from disuse (score < 0.3, but what they name is still in the project; keep): CLAUDE.md:5, CLAUDE.md:7',
    ]);
  });
});

