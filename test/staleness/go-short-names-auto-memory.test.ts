// Auto memory names a Go module in full in a topic's body and by its short name in the topic's
// `description:` and its MEMORY.md index line. When the module is swapped, all three are corrected
// together (asynq -> river); a prose word is read as the short name only where the module is named
// in full nearby (the entry, or the topic its index line links to). Real git repository.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, makeRepo, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const goMod = (req: string) => `module github.com/acme/ledger/worker\n\ngo 1.23\n\nrequire (\n\t${req}\n\tgithub.com/jackc/pgx/v5 v5.7.1\n)\n`;
const INDEX = '- [Reconcile worker queue](project_worker_queue.md) — asynq on Redis, `worker/jobs/reconcile.go`\n- [Notes](notes.md) — retry jobs with asynq when the queue is full\n';
const TOPIC = '---\nname: Reconcile worker queue\ndescription: The Go worker consumes reconcile jobs from asynq\ntype: project\n---\n\nThe reconcile worker (`worker/jobs/reconcile.go`) uses `github.com/hibiken/asynq`; retries are capped at 5.\n';
const NOTES = '---\nname: Notes\ndescription: Odds and ends\ntype: project\n---\n\nWhen asynq is mentioned alone it is only a word here.\n';

afterAll(cleanupRepos);

describe('a Go module by its short name in auto memory', () => {
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('worker/go.mod', goMod('github.com/hibiken/asynq v0.24.1'));
    await r.write('worker/jobs/reconcile.go', 'package jobs\n');
    await r.write('.claude/memory/MEMORY.md', INDEX);
    await r.write('.claude/memory/project_worker_queue.md', TOPIC);
    await r.write('.claude/memory/notes.md', NOTES);
    await r.commit('auto memory', '2025-11-03');
    await r.write('worker/go.mod', goMod('github.com/riverqueue/river v0.14.2'));
    await r.commit('worker: replace asynq with river', '2026-02-10');
    ({ report } = await audit({ root: r.dir, memory: ['.claude/memory'], now: NOW }));
  });

  it('reports the full name and the short name beside it, not the short name alone', () => {
    expect(findingRows(report, (f) => f.kind === 'package-renamed')).toEqual([
      'package-renamed|1|asynq|river',
      'package-renamed|7|github.com/hibiken/asynq|github.com/riverqueue/river',
    ]);
  });

  it('corrects the body, the description and the index line together; a second prune changes nothing', async () => {
    await runPrune({ root: r.dir, now: NOW, write: true });
    const read = (f: string) => readFile(path.join(r.dir, '.claude/memory', f), 'utf8');
    expect(await read('MEMORY.md')).toBe(INDEX.replace('— asynq on Redis, `worker/jobs/reconcile.go`', '— river on Redis, `worker/jobs/reconcile.go` [corrected 2026-06-01]'));
    expect(await read('project_worker_queue.md')).toBe(
      TOPIC.replace('jobs from asynq', 'jobs from river').replace('`github.com/hibiken/asynq`; retries are capped at 5.', '`github.com/riverqueue/river`; retries are capped at 5. [corrected 2026-06-01]'),
    );
    expect(await read('notes.md')).toBe(NOTES);
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});

describe('a Go module named by its short name and in full on one line', () => {
  it('is one finding on the full name; when the short name has no successor spelling, nothing is rewritten', async () => {
    const r = await makeRepo();
    const mod = (req: string) => `module example.com/svc\n\ngo 1.22\n\nrequire (\n\t${req}\n\tgithub.com/stretchr/testify v1.10.0\n)\n`;
    await r.write('go.mod', mod('github.com/spf13/cobra v1.8.0'));
    await r.write('cmd/svc/main.go', 'package main\n');
    await r.write('AGENTS.md', '# Svc\n\n- The CLI is built with cobra (`github.com/spf13/cobra`); commands live in `cmd/svc/`.\n');
    await r.commit('base', '2025-10-01');
    await r.write('go.mod', mod('github.com/urfave/cli/v2 v2.27.0'));
    await r.commit('Move CLI from cobra to urfave/cli', '2026-01-15');
    const res = await runPrune({ root: r.dir, now: NOW, write: false });
    expect(findingRows(res.audit.report, (f) => f.kind.startsWith('package-'))).toEqual(['package-renamed|3|github.com/spf13/cobra|']);
    expect(res.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.line}`)).toEqual(['review|3']);
  });
});
