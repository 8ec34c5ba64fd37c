// QA26 / QA27 regressions for `duplicate` and `ephemeral`:
// (1) a command-list item ("- **Codegen tests:** `cmd`") and a trigger rule that runs the same
//     command under a condition ("- Anything in `pkg/codegen/` → run codegen tests: `cmd`") are not
//     duplicates: one says what the command is, the other when to run it (pulumi pkg/AGENTS.md).
// (2) a session-end hook's "## Resume Point" (labelled fields) and "## Session Log" (timestamped
//     `[sha] branch:x` lines) in auto memory are session state (revenova .claude/memory/MEMORY.md).
import { afterAll, describe, expect, it, test } from 'vitest';
import { findDuplicates } from '../../src/checks/duplicate.js';
import { findEphemeral } from '../../src/checks/ephemeral.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { cleanup, config, makeRepo, NOW } from '../prune/helpers.js';
import { context, parseFiles } from './helpers.js';

afterAll(cleanup);

const dups = (input: Record<string, string>) => {
  const { files, entries } = parseFiles(input);
  return findDuplicates(context(files, entries)).map((f) => [f.file, f.line, f.evidence?.file, f.evidence?.line, f.evidence?.exact]);
};

// ------------------------------------------------------------------ (1) a command and when to run it

const CMD = '`cd pkg && go test -count=1 -tags all ./codegen/...`';
const PULUMI =
  '# Core Engine (`pkg/`)\n\n## Testing\n\n' +
  '- **Unit tests:** `cd pkg && go test -count=1 -tags all ./...`\n' +
  `- **Codegen tests:** ${CMD}\n` +
  '- **Codegen for a specific language:** `cd pkg && go test -count=1 -tags all ./codegen/go/...`\n' +
  '- **Lifecycle tests:** `cd pkg && go test -count=1 -tags all ./engine/lifecycletest/...`\n\n' +
  '## If you change...\n\n' +
  `- Anything in \`pkg/codegen/\` → run codegen tests: ${CMD}\n` +
  '- Anything in `pkg/backend/display/` → add a test using pre-constructed, JSON-serialized engine events (ref. `testProgressEvents`)\n';

describe('a command-list item and a trigger rule running the same command are not duplicates (QA26 08)', () => {
  it('pulumi pkg/AGENTS.md, verbatim: the Testing item and the "Anything in … →" rule', () => {
    expect(dups({ 'pkg/AGENTS.md': PULUMI })).toEqual([]);
  });

  it('other conditions: "If you change…", "After editing…", "Before committing…", "When…", a change word before an arrow', () => {
    for (const rule of [
      `If you change the code generators, run the codegen tests: ${CMD}`,
      `After editing \`pkg/codegen/\`, run the codegen tests: ${CMD}`,
      `Before committing, run the codegen tests: ${CMD}`,
      `When a schema changes, run the codegen tests: ${CMD}`,
      `Schema changes → run the codegen tests: ${CMD}`,
      `Run the codegen tests whenever the templates move: ${CMD}`,
    ])
      expect(dups({ 'AGENTS.md': `# Testing\n\n- **Codegen tests:** ${CMD}\n\n## Rules\n\n- ${rule}\n` }), rule).toEqual([]);
  });

  it('across files too: the command list in CLAUDE.md, the trigger in AGENTS.md', () => {
    expect(
      dups({ 'CLAUDE.md': `# Testing\n\n- **Codegen tests:** ${CMD}\n`, 'AGENTS.md': `# Rules\n\n- Anything in \`pkg/codegen/\` → run codegen tests: ${CMD}\n` }),
    ).toEqual([]);
  });

  it('still duplicates: the same trigger rule twice, reworded', () => {
    expect(
      dups({
        'CLAUDE.md': `# Rules\n\n- Anything in \`pkg/codegen/\` → run the codegen tests: ${CMD}\n`,
        'AGENTS.md': `# Rules\n\n- Anything in \`pkg/codegen/\` → run codegen tests: ${CMD}\n`,
      }),
    ).toEqual([['AGENTS.md', 3, 'CLAUDE.md', 3, false]]);
  });

  it('still duplicates: the same command item twice (exact), and the same rule without a condition', () => {
    expect(dups({ 'CLAUDE.md': `# Testing\n\n- **Codegen tests:** ${CMD}\n`, 'AGENTS.md': `# Testing\n\n- **Codegen tests:** ${CMD}\n` })).toEqual([
      ['AGENTS.md', 3, 'CLAUDE.md', 3, true],
    ]);
    expect(
      dups({
        'CLAUDE.md': `# Testing\n\n- Run the codegen tests for the generators with ${CMD}\n`,
        'AGENTS.md': `# Testing\n\n- Run the codegen tests for generators with ${CMD}\n`,
      }),
    ).toEqual([['AGENTS.md', 3, 'CLAUDE.md', 3, false]]);
  });

  test('prune leaves the pulumi file as it is', async () => {
    const repo = await makeRepo({ 'pkg/AGENTS.md': PULUMI, 'pkg/go.mod': 'module example.com/pkg\n\ngo 1.24\n', 'pkg/codegen/gen.go': 'package codegen\n' }, '2025-10-01');
    const r = await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    expect(r.audit.findings.filter((f) => f.kind === 'duplicate')).toEqual([]);
    expect(r.changes).toEqual([]);
    expect(await repo.read('pkg/AGENTS.md')).toBe(PULUMI);
  });
});

// ------------------------------------------------------------------ (2) a resume point and a session log

const sessionRows = (input: Record<string, string>, cfg = config()) => {
  const { files, entries } = parseFiles(input);
  return findEphemeral(context(files, entries, files.map((f) => f.path), cfg))
    .filter((f) => f.evidence?.filter === 'session-state')
    .map((f) => `${f.file}:${f.line} ${f.message}`);
};
const state = (file: string, line: number, match: string) =>
  `${file}:${line} Session task state ("${match}") is stale by the next session; delete it or restate it as a lasting fact.`;

const RESUME =
  '# Revenova Session Memory\n\n## Project State\n- **Stack:** NestJS + TypeScript + Prisma + PostgreSQL + BullMQ + Redis\n\n' +
  '## Resume Point\n<!-- Auto-updated by session-end hook — edit "In progress" manually before stopping -->\n' +
  '- **Last stop:** 2026-06-01 21:00\n' +
  '- **Branch:** feature/audit-log-webhooks-ui\n' +
  '- **Last commit:** 2d9218d fix(frontend): type WebhookEndpoint properly in webhook detail route\n' +
  '- **Modified files:**\n```\n M package-lock.json\n?? .superpowers/\n```\n' +
  '- **In progress:** _(update this manually before closing session)_\n\n' +
  '## Session Log\n' +
  '- 2026-05-31 07:25 [8936b6aa] branch:main\n' +
  '- 2026-05-31 14:16 [8936b6aa] branch:feature/payments\n' +
  '- 2026-06-01 21:00 [bd1282eb] branch:feature/audit-log-webhooks-ui\n';
const MEM = '.claude/memory/MEMORY.md';
const RESUME_ROWS = [
  state(MEM, 8, 'Last stop:'),
  state(MEM, 9, 'Branch:'),
  state(MEM, 10, 'Last commit:'),
  state(MEM, 11, 'Modified files:'),
  state(MEM, 12, 'Resume Point'),
  state(MEM, 16, 'In progress:'),
  state(MEM, 19, '2026-05-31 07:25 [8936b6aa] branch:main'),
  state(MEM, 20, '2026-05-31 14:16 [8936b6aa] branch:feature/paymen…'),
  state(MEM, 21, '2026-06-01 21:00 [bd1282eb] branch:feature/audit-…'),
];

describe('a session-end hook\'s resume point and session log in auto memory are session state (QA27 08, 09)', () => {
  it('flags every item of the Resume Point (the git status block too) and every Session Log line, not the project state', () => {
    expect(sessionRows({ [MEM]: RESUME })).toEqual(RESUME_ROWS);
  });

  it('other session headings: "Last session", "Current session", "Handoff", "Where I left off"', () => {
    for (const h of ['Last session', 'Current Session — 2026-06-01', 'Handoff', 'Where I left off on the webhooks', '📍 Resume point'])
      expect(sessionRows({ [MEM]: `# Memory\n\n## ${h}\n- Added the webhook retry queue, tests still red\n` }), h).toEqual([state(MEM, 4, h)]);
  });

  it('session fields outside a session heading, in auto memory', () => {
    expect(
      sessionRows({
        [MEM]: '# Memory\n\n## Notes\n- **Last stop:** 2026-06-01 21:00\n- In progress: webhook retries\n- Branch: `feature/payments`\n- 2026-05-31 07:25 [8936b6aa] branch:main\n',
      }),
    ).toEqual([state(MEM, 4, 'Last stop:'), state(MEM, 5, 'In progress:'), state(MEM, 6, 'Branch:'), state(MEM, 7, '2026-05-31 07:25 [8936b6aa] branch:main')]);
  });

  it('a topic file whose sections are all session state, or named for it', () => {
    const topic = (name: string, body: string) => `---\nname: ${name}\ndescription: ${name}\ntype: project\n---\n\n${body}`;
    expect(
      sessionRows({
        [MEM]: '- [Resume](resume.md) — where the last session stopped\n- [Hook](hook.md) — the session-end hook\n',
        '.claude/memory/resume.md': topic('Resume', '# Resume\n\n## Resume Point\n- **Last stop:** 2026-06-01 21:00\n\n## Session Log\n- 2026-05-31 07:25 [8936b6aa] branch:main\n'),
        '.claude/memory/session-log.md': topic('Log', '- 2026-05-31 07:25 [8936b6aa] branch:main\n'),
        '.claude/memory/hook.md': topic('Hook', '## Session hooks\n\nThe session-end hook appends to the Session Log; edit "In progress" by hand.\n'),
      }),
    ).toEqual([state('.claude/memory/resume.md', 9, 'Resume Point'), state('.claude/memory/session-log.md', 1, 'session log')]);
  });

  it('in CLAUDE.md only with both a session heading and a session field or log line', () => {
    expect(
      sessionRows({
        'CLAUDE.md':
          '# Project\n\n## Session Log\n- 2026-05-31 07:25 [8936b6aa] branch:main\n\n## Handoff\n- When handing a ticket to QA, link the preview deployment.\n' +
          '- **Last stop:** 2026-06-01 21:00\n',
      }),
    ).toEqual([state('CLAUDE.md', 4, '2026-05-31 07:25 [8936b6aa] branch:main'), state('CLAUDE.md', 8, 'Last stop:')]);
  });

  it('healthy: branch conventions and release notes are not session state, in CLAUDE.md or in auto memory', () => {
    const body =
      '# Project\n\n## Branching\n- Branch: use `main` for releases\n- **Branch:** `main`\n- Branch names: `feat/<ticket>`, `fix/<ticket>`\n' +
      '- Feature branches are squash-merged into `main`.\n\n## Releases\n- In production: v2.3 since 2026-05-01.\n- Last release is tagged by CI; never tag by hand.\n' +
      '- Modified files must pass `npm run lint` before commit.\n\n## Handoff protocol for subagents\n- Pass the ticket id and the failing test name.\n\n' +
      '## Session management\n- Sessions expire after 30 minutes; the last session id is kept in Redis.\n';
    expect(sessionRows({ 'CLAUDE.md': body })).toEqual([]);
    expect(sessionRows({ [MEM]: body })).toEqual([]);
  });

  it('is switched off with the session-state filter', () => {
    expect(sessionRows({ [MEM]: RESUME }, config({ filters: { 'session-state': false } } as never))).toEqual([]);
  });

  test('prune deletes the resume point and the log, a second prune changes nothing, restore gives the bytes back', async () => {
    const repo = await makeRepo({ 'package.json': '{ "name": "revenova", "private": true }\n', [MEM]: RESUME }, '2026-06-01');
    const first = await runPrune({ root: repo.dir, now: new Date('2026-08-01T00:00:00Z'), write: true, config: config() });
    expect(first.plan.filter((p) => p.action !== 'keep').map((p) => [p.action, p.rule, p.line])).toEqual([
      ['delete', 1, 8],
      ['delete', 1, 9],
      ['delete', 1, 10],
      ['delete', 1, 11],
      ['delete', 1, 12],
      ['delete', 1, 16],
      ['delete', 1, 19],
      ['delete', 1, 20],
      ['delete', 1, 21],
    ]);
    const after = await repo.read(MEM);
    expect(after).toBe(
      '# Revenova Session Memory\n\n## Project State\n- **Stack:** NestJS + TypeScript + Prisma + PostgreSQL + BullMQ + Redis\n\n' +
        '## Resume Point\n<!-- Auto-updated by session-end hook — edit "In progress" manually before stopping -->\n',
    );
    const second = await runPrune({ root: repo.dir, now: new Date('2026-08-01T00:00:00Z'), write: true, config: config() });
    expect(second.changes).toEqual([]);
    const { records } = parseArchive(await repo.read('.memory-audit/archive.jsonl'));
    for (const id of [...new Set(records.map((r) => r.entryId))]) await runRestore({ root: repo.dir, id, config: config() });
    expect(await repo.read(MEM)).toBe(RESUME);
  });
});
