import { describe, expect, it } from 'vitest';
import { absoluteFor, findEphemeral } from '../../src/checks/ephemeral.js';
import type { Evidence } from '../../src/types.js';
import { config, context, evidence, parseFiles } from './helpers.js';

function topic(name: string, type: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${name}\ntype: ${type}\n---\n\n${body}\n`;
}

function run(files: Record<string, string>, cfg = config(), ev?: Evidence) {
  const parsed = parseFiles(files);
  const ctx = context(parsed.files, parsed.entries, undefined, cfg);
  if (ev) ctx.evidence = ev;
  return { findings: findEphemeral(ctx), ...parsed };
}

const filterOf = (f: { evidence?: Record<string, unknown> }) => f.evidence?.filter;

describe('ephemeral filters', () => {
  const cases: Array<[string, string, string, number]> = [
    ['session-state', 'project', 'Currently working on the checkout refactor in PR #412; left off at the rounding test.', 7],
    ['session-state', 'project', 'WIP: moving the dunning templates to Postmark.', 7],
    ['relative-date', 'project', 'The nightly export failed yesterday because the bucket policy changed.', 7],
    ['reasoning', 'project', 'Tried raising the pool size to 50, it did not help either.', 7],
    ['debug-output', 'project', 'Traceback (most recent call last):\n  File "app.py", line 12, in <module>\nKeyError: \'id\'', 7],
    ['pinned-command', 'project', 'Upgrade: `pip install django==4.2.7 && pip install celery==5.3.4`.', 7],
    ['tone', 'user', 'User seemed frustrated with the slow CI today.', 7],
    ['unverified', 'reference', 'I think the API rate limit is 100 requests per minute.', 7],
    ['session-state', 'project', 'This session: fixed the ledger export typo, still need to push the branch.', 7],
    ['session-state', 'project', 'TODO for today: finish wiring the retry queue into the webhook worker.', 7],
    ['reasoning', 'project', "Tried raising the webhook timeout to 3000 ms, it didn't work because the queue mock never resolves.", 7],
  ];
  for (const [filter, type, body, line] of cases) {
    it(`flags ${filter}: ${body.slice(0, 40)}`, () => {
      const { findings, entries } = run({ 'mem/MEMORY.md': '- [x](x.md) — x\n', 'mem/x.md': topic('x', type, body) });
      const e = entries.find((x) => x.file === 'mem/x.md')!;
      expect(findings.map((f) => [f.entryId, f.kind, f.severity, filterOf(f), f.line])).toEqual([[e.id, 'ephemeral', 'warning', filter, line]]);
      expect(findings[0].message.endsWith('.')).toBe(true);
    });
  }

  it('keeps lessons learnt from a failed attempt and sessions of the product itself', () => {
    const { findings } = run({
      'mem/MEMORY.md': '- [a](a.md) — a\n- [b](b.md) — b\n- [c](c.md) — c\n',
      'mem/a.md': topic('a', 'project', "Tried raising the pool size to 50; it didn't help, so never raise it above 20."),
      'mem/b.md': topic('b', 'project', 'Start with `src/billing/tax.ts` where the session rounding rules live.'),
      'mem/c.md': topic('c', 'project', 'Each user session stores the cart; the session store is Redis.'),
    });
    expect(findings).toEqual([]);
  });

  it('does not flag decision and feedback entries that merely mention today or probably', () => {
    const { findings } = run({
      'mem/MEMORY.md': '- [a](a.md) — a\n- [b](b.md) — b\n- [c](c.md) — c\n',
      'mem/a.md': topic('a', 'decision', 'Checkout totals are computed on the server. Today we also agreed tax rounding is per line.'),
      'mem/b.md': topic('b', 'feedback', 'Owen wants terse reviews; he said it again today. Probably keep it under ten bullets.'),
      'mem/c.md': topic('c', 'feedback', 'She gets annoyed by long diff summaries; don\'t restate the diff.'),
    });
    expect(findings).toEqual([]);
  });

  it('keeps patterns that state their conclusion', () => {
    const { findings } = run({
      'CLAUDE.md':
        '# Notes\n\n- We tried relying on `acks_late` alone but it double-charged; the fix is an idempotency key.\n- Pin `pnpm add -D typescript@5.4.5` because 5.5 breaks our decorators.\n- `TypeError: fetch failed` in tests means the mock server is not running; start it with `pnpm mock`.\n',
    });
    expect(findings).toEqual([]);
  });

  it('leaves tricky but lasting project facts alone', () => {
    const lines = [
      "The dashboard shows today's orders and yesterday's refunds side by side.",
      'Orders in progress are locked for editing until payment settles.',
      'Users whose email is not verified cannot log in.',
      'Jest is confused by ESM packages; add them to `transformIgnorePatterns`.',
      'TypeScript is happy with `moduleResolution: bundler`, but tsc in CI needs NodeNext.',
      'Sprint planning happens every Monday for the next week.',
      'The cache may be stale for up to 5 minutes after a deploy.',
      'Retries back off exponentially, starting at 200 ms.',
      'Stack traces from workers go to Sentry, never to the logs.',
      'Pin Node with `.nvmrc`; `nvm use` picks it up.',
      'Install dependencies with `pnpm install --frozen-lockfile` in CI.',
      'Logs older than 30 days are archived to S3.',
      'Run `git log --since="2 weeks ago"` to find recent migrations.',
      'The `currently_active` flag on subscriptions is maintained by a trigger.',
      'Use `date-fns` for dates; `moment` is deprecated here.',
      'If a test fails with `ECONNREFUSED 127.0.0.1:5432`, start the database container first.',
      'Read the user id from the current session, never from the request body.',
      'The current branch is used as the release tag by the deploy script.',
      'Refresh tokens rotate; the next session token is issued by `/auth/refresh`.',
    ];
    const { findings } = run({ 'CLAUDE.md': '# Notes\n\n' + lines.map((l) => `- ${l}`).join('\n') + '\n' });
    expect(findings.map((f) => [f.line, filterOf(f)])).toEqual([]);
  });

  it('flags a copy of CLAUDE.md content inside auto memory, pointing at the CLAUDE.md entry', () => {
    const { findings, entries } = run({
      'CLAUDE.md': '# Rules\n\n- Money is stored as integer cents, never as floats.\n',
      '.claude/memory/MEMORY.md': '- [Money](money.md) — cents\n',
      '.claude/memory/money.md': topic('money', 'project', 'Money is stored as integer cents, never as floats.'),
    });
    const claude = entries.find((e) => e.file === 'CLAUDE.md' && e.kind === 'item')!;
    expect(findings.map((f) => [f.file, filterOf(f), f.evidence?.now])).toEqual([['.claude/memory/money.md', 'claude-md-copy', claude.id]]);
    expect(findings[0].message).toBe(`Copies CLAUDE.md:3, which is already loaded in every session; delete this copy from auto memory.`);
  });

  it('switches filters off through config.filters', () => {
    const cfg = config();
    cfg.filters = { 'relative-date': false };
    const { findings } = run({ 'CLAUDE.md': '- The export failed yesterday because the bucket policy changed.\n' }, cfg);
    expect(findings).toEqual([]);
  });

  it('suggests the absolute date from blame when evidence.usage has the line date', () => {
    const parsed = parseFiles({ 'CLAUDE.md': '# Notes\n\n- The export failed yesterday because the bucket policy changed.\n' });
    const ev = evidence(['CLAUDE.md']);
    const t = Date.parse('2026-03-02T15:00:00Z');
    ev.usage = { lines: new Map([['CLAUDE.md', [t, t, t]]]), entries: new Map(), unblamed: [] };
    const ctx = context(parsed.files, parsed.entries);
    ctx.evidence = ev;
    const [f] = findEphemeral(ctx);
    expect([f.line, f.ref, f.evidence?.absolute, f.suggestion]).toEqual([3, 'yesterday', '2026-03-01', { replace: '2026-03-01' }]);
    expect(f.message).toBe('The relative date "yesterday" loses its meaning once written; the line was written on 2026-03-02, so write 2026-03-01 instead.');
  });

  it('says the date is unknown without blame', () => {
    const { findings } = run({ 'CLAUDE.md': '- The export failed last week because the bucket policy changed.\n' });
    expect(findings[0].message).toBe(
      'The relative date "last week" loses its meaning once written; write the absolute date instead (date unknown: no blame for this line).',
    );
  });

  it('computes absolute dates for relative phrases', () => {
    expect(absoluteFor('yesterday', '2026-03-02')).toBe('2026-03-01');
    expect(absoluteFor('last month', '2026-03-02')).toBe('2026-02');
    expect(absoluteFor('3 days ago', '2026-03-02')).toBe('2026-02-27');
    expect(absoluteFor('last friday', '2026-03-02')).toBe('2026-02-27');
    expect(absoluteFor('last week', '2026-03-04')).toBe('the week of 2026-02-23');
  });
});
