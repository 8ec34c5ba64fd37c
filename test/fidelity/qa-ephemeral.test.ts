// QA regressions for `ephemeral`: an auto-memory note with content of its own is no copy of
// CLAUDE.md; forward-looking relative dates are flagged and dated like the backward ones; the
// rewrite keeps the capital of the phrase it replaces.
import { afterAll, describe, expect, it, test } from 'vitest';
import { absoluteFor, findEphemeral, sameCase } from '../../src/checks/ephemeral.js';
import { runPrune } from '../../src/commands/prune.js';
import { cleanup, makeRepo, NOW } from '../prune/helpers.js';
import { context, evidence, parseFiles } from './helpers.js';

afterAll(cleanup);

const topic = (name: string, type: string, body: string) => `---\nname: ${name}\ndescription: ${name}\ntype: ${type}\n---\n\n${body}\n`;
const RULE = 'Always use pnpm, never npm or yarn: the lockfile is pnpm-lock.yaml.';

/** The claude-md-copy findings for one topic file `mem/t.md` of `type` with `body`, next to CLAUDE.md holding RULE. */
function copies(type: string, body: string) {
  const { files, entries } = parseFiles({
    'CLAUDE.md': `# shop\n\n- ${RULE}\n`,
    'mem/MEMORY.md': '- [Package manager](t.md) — pnpm\n',
    'mem/t.md': topic('t', type, body),
  });
  return findEphemeral(context(files, entries))
    .filter((f) => f.evidence?.filter === 'claude-md-copy')
    .map((f) => [f.file, f.line, f.message]);
}
const COPY = [['mem/t.md', 1, 'Copies CLAUDE.md:3, which is already loaded in every session; delete this copy from auto memory.']];

describe('claude-md-copy: a note that adds content of its own is not a copy (QA1 04)', () => {
  it('keeps a feedback topic whose "Why:" is in no other file', () => {
    expect(copies('feedback', `${RULE}\n\n**Why:** npm once rewrote the lockfile and broke CI for a day.`)).toEqual([]);
  });

  it('keeps a project note with a rationale line of its own', () => {
    expect(copies('project', `${RULE}\n\nHow to apply: run pnpm dedupe after rebasing.`)).toEqual([]);
  });

  it('keeps a project note that adds more than a small margin of words', () => {
    expect(copies('project', `${RULE} The CI image caches the pnpm store between jobs.`)).toEqual([]);
  });

  it('keeps a feedback note that adds even one content word', () => {
    expect(copies('feedback', 'Always use pnpm in this repo, never npm or yarn: the lockfile is pnpm-lock.yaml.')).toEqual([]);
  });

  it('still flags a project note reworded with a word or two', () => {
    expect(copies('project', 'Always use pnpm in this repo, never npm or yarn: the lockfile is pnpm-lock.yaml.')).toEqual(COPY);
  });

  it('still flags exact copies of any type, and a "Why:" that only restates the rule', () => {
    expect(copies('feedback', RULE)).toEqual(COPY);
    expect(copies('project', `${RULE}\n\n**Why:** the lockfile is pnpm-lock.yaml.`)).toEqual(COPY);
  });
});

/** Relative-date findings for CLAUDE.md items, every line blamed to `written`. */
function dated(lines: string[], written = '2026-01-05') {
  const { files, entries } = parseFiles({ 'CLAUDE.md': '# x\n\n' + lines.map((l) => `- ${l}`).join('\n') + '\n' });
  const ev = evidence(['CLAUDE.md']);
  const t = Date.parse(`${written}T10:00:00Z`);
  ev.usage = { lines: new Map([['CLAUDE.md', Array(lines.length + 2).fill(t)]]), entries: new Map(), unblamed: [] };
  const ctx = context(files, entries);
  ctx.evidence = ev;
  return findEphemeral(ctx).map((f) => [f.line, f.evidence?.filter, f.ref, f.evidence?.absolute, f.suggestion?.replace]);
}

describe('relative-date: forward-looking phrases (QA1 11)', () => {
  it('flags and dates them from blame (written Monday 2026-01-05)', () => {
    expect(
      dated([
        'Merge freeze begins next Thursday for the mobile release.',
        "Auth rewrite ships in two weeks; don't touch `src/auth` until then.",
        'Deploys are paused until Monday.',
        'The v1 API shuts down 3 days from now.',
        'Billing moves to Stripe next month.',
        'Standup moves to Zoom next week.',
        'Until Friday, route payments through the fallback provider.',
        'The SDK upgrade lands in a month.',
      ]),
    ).toEqual([
      [3, 'relative-date', 'next Thursday', '2026-01-08', '2026-01-08'],
      [4, 'relative-date', 'in two weeks', 'around 2026-01-19', 'around 2026-01-19'],
      [5, 'relative-date', 'until Monday', 'until 2026-01-12', 'until 2026-01-12'],
      [6, 'relative-date', '3 days from now', '2026-01-08', '2026-01-08'],
      [7, 'relative-date', 'next month', '2026-02', '2026-02'],
      [8, 'relative-date', 'next week', 'the week of 2026-01-12', 'the week of 2026-01-12'],
      [9, 'relative-date', 'Until Friday', 'until 2026-01-09', 'Until 2026-01-09'],
      [10, 'relative-date', 'in a month', '2026-02', '2026-02'],
    ]);
  });

  it('flags a sprint with no date it could compute', () => {
    const { files, entries } = parseFiles({ 'CLAUDE.md': '# x\n\n- The search rewrite lands next sprint.\n' });
    const ev = evidence(['CLAUDE.md']);
    const t = Date.parse('2026-01-05T10:00:00Z');
    ev.usage = { lines: new Map([['CLAUDE.md', [t, t, t]]]), entries: new Map(), unblamed: [] };
    const ctx = context(files, entries);
    ctx.evidence = ev;
    const [f] = findEphemeral(ctx);
    expect([f.line, f.ref, f.suggestion, f.message]).toEqual([
      3,
      'next sprint',
      undefined,
      'The relative date "next sprint" loses its meaning once written; the line was written on 2026-01-05; write the absolute date instead.',
    ]);
  });

  it('leaves durations, spans and weekly schedules alone', () => {
    expect(
      dated([
        'Invite links expire in 7 days.',
        'Access tokens are valid for two weeks.',
        'Deploys are frozen from Friday until Monday.',
        'No deploys until Monday on release weekends.',
        'Sprint planning happens every Monday for the next week.',
        'Logs are kept in S3 for 30 days, then deleted.',
        'Retry in 5 minutes if the webhook returns 429.',
        'Read the next section before editing the schema.',
      ]),
    ).toEqual([]);
  });

  it('computes forward dates', () => {
    expect(absoluteFor('next thursday', '2026-01-08')).toBe('2026-01-15'); // written on a Thursday: a week on
    expect(absoluteFor('next sunday', '2026-01-05')).toBe('2026-01-11');
    expect(absoluteFor('next week', '2026-01-11')).toBe('the week of 2026-01-12'); // a Sunday: the week from the next day
    expect(absoluteFor('next month', '2026-01-31')).toBe('2026-02');
    expect(absoluteFor('next year', '2026-01-31')).toBe('2027');
    expect(absoluteFor('in 10 days', '2026-01-25')).toBe('2026-02-04');
    expect(absoluteFor('in a couple of weeks', '2026-01-05')).toBe('around 2026-01-19');
    expect(absoluteFor('two months from now', '2026-12-31')).toBe('2027-02');
    expect(absoluteFor('until tomorrow', '2026-01-05')).toBeUndefined(); // "tomorrow" alone is the phrase matched
    expect(absoluteFor('next sprint', '2026-01-05')).toBeUndefined();
  });

  it('counts months from the first of the month', () => {
    expect(absoluteFor('3 months ago', '2026-05-31')).toBe('2026-02');
    expect(absoluteFor('in one month', '2026-01-31')).toBe('2026-02');
  });
});

describe('relative-date: the rewrite keeps the capital of the phrase (QA1 11)', () => {
  it('capitalises a replacement for a phrase opening a sentence or an item', () => {
    expect(dated(['Last week we moved CI to GitHub Actions.', 'We moved CI last week.'])).toEqual([
      [3, 'relative-date', 'Last week', 'the week of 2025-12-29', 'The week of 2025-12-29'],
      [4, 'relative-date', 'last week', 'the week of 2025-12-29', 'the week of 2025-12-29'],
    ]);
    expect([sameCase('Yesterday', '2026-01-04'), sameCase('In two weeks', 'around 2026-01-19'), sameCase('in two weeks', 'around x')]).toEqual([
      '2026-01-04',
      'Around 2026-01-19',
      'around x',
    ]);
  });
});

test('prune rewrites forward and backward relative dates in place; a second prune changes nothing', async () => {
  const C =
    '# x\n\n- Merge freeze begins next Thursday for the mobile release.\n- The staging DB was reset yesterday; re-run migrations if you see missing tables.\n' +
    "- Last week we moved CI to GitHub Actions.\n- Auth rewrite ships in two weeks; don't touch `src/auth` until then.\n- Deploys are paused until Monday.\n";
  const M = 'memory';
  const repo = await makeRepo(
    {
      'CLAUDE.md': C,
      [`${M}/MEMORY.md`]: '- [Release freeze](project_freeze.md) — merge freeze before the release\n',
      [`${M}/project_freeze.md`]: topic('freeze', 'project', 'Merge freeze for non-critical PRs begins next Thursday, for the mobile release cut.'),
    },
    '2026-01-05',
  );
  const first = await runPrune({ root: repo.dir, now: NOW, write: true });
  expect(first.plan.filter((p) => p.action !== 'keep').map((p) => [p.action, p.rule, p.file, p.line])).toEqual([
    ['update', 1, 'CLAUDE.md', 3],
    ['update', 1, 'CLAUDE.md', 4],
    ['update', 1, 'CLAUDE.md', 5],
    ['update', 1, 'CLAUDE.md', 6],
    ['update', 1, 'CLAUDE.md', 7],
    ['update', 1, `${M}/project_freeze.md`, 1],
  ]);
  expect(await repo.read('CLAUDE.md')).toBe(
    '# x\n\n- Merge freeze begins 2026-01-08 for the mobile release. [corrected 2026-03-10]\n' +
      '- The staging DB was reset 2026-01-04; re-run migrations if you see missing tables. [corrected 2026-03-10]\n' +
      '- The week of 2025-12-29 we moved CI to GitHub Actions. [corrected 2026-03-10]\n' +
      "- Auth rewrite ships around 2026-01-19; don't touch `src/auth` until then. [corrected 2026-03-10]\n" +
      '- Deploys are paused until 2026-01-12. [corrected 2026-03-10]\n',
  );
  // a topic file committed once: every line was written by that commit
  expect(await repo.read(`${M}/project_freeze.md`)).toBe(
    topic('freeze', 'project', 'Merge freeze for non-critical PRs begins 2026-01-08, for the mobile release cut. [corrected 2026-03-10]'),
  );
  const second = await runPrune({ root: repo.dir, now: NOW, write: true });
  expect(second.changes).toEqual([]);
});
