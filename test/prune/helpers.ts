// Real git repositories in temp folders for the prune tests (simple-git, fixed dates).
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';

const dirs: string[] = [];

export interface Repo {
  dir: string;
  git: SimpleGit;
  write(file: string, content: string): Promise<void>;
  read(file: string): Promise<string>;
  exists(file: string): Promise<boolean>;
  remove(file: string): Promise<void>;
  /** Stages everything and commits with a fixed date (YYYY-MM-DD). */
  commit(message: string, date: string): Promise<void>;
}

export async function makeRepo(files: Record<string, string> = {}, date = '2026-01-05'): Promise<Repo> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ma-prune-'));
  dirs.push(dir);
  const git = simpleGit({
    baseDir: dir,
    config: ['user.name=Test Author', 'user.email=test@example.com', 'commit.gpgsign=false'],
    allowEnvironment: ['GIT_AUTHOR_DATE', 'GIT_COMMITTER_DATE'],
  } as never);
  await git.init(['-q', '-b', 'main']);
  const repo: Repo = {
    dir,
    git,
    async write(file, content) {
      const abs = path.join(dir, file);
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFile(abs, content);
    },
    read: (file) => readFile(path.join(dir, file), 'utf8'),
    async exists(file) {
      try {
        await readFile(path.join(dir, file));
        return true;
      } catch {
        return false;
      }
    },
    remove: (file) => rm(path.join(dir, file), { recursive: true, force: true }),
    async commit(message, d) {
      const stamp = `${d}T12:00:00Z`;
      await git.add(['-A']);
      await git.env({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), LC_ALL: 'C', GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp }).commit(message, ['--allow-empty', '-q']);
    },
  };
  for (const [f, c] of Object.entries(files)) await repo.write(f, c);
  if (Object.keys(files).length) await repo.commit('initial memory', date);
  return repo;
}

/** A plain temp folder (no git), removed by cleanup(). */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ma-prune-'));
  dirs.push(dir);
  return dir;
}

export async function cleanup(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

export const NOW = new Date('2026-03-10T12:00:00Z');

import { audit, type AuditResult } from '../../src/audit.js';
import { decide } from '../../src/policy/decide.js';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { mergeConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/types.js';
import type { Entry, Finding, FindingKind, PlanItem } from '../../src/types.js';

export function config(over: unknown = {}): Config {
  return mergeConfig(DEFAULT_CONFIG, over);
}

/** Audits a fresh repository with no checks running (findings are injected by the test). */
export async function auditFiles(
  files: Record<string, string>,
  opts: { config?: Config; checks?: string[]; date?: string } = {},
): Promise<{ repo: Repo; result: AuditResult }> {
  const repo = await makeRepo(files, opts.date);
  const result = await audit({ root: repo.dir, now: NOW, config: opts.config ?? config(), checks: opts.checks ?? [] });
  return { repo, result };
}

/** The entry whose text contains `needle` (exactly one). */
export function entry(result: AuditResult, needle: string): Entry {
  const found = result.entries.filter((e) => e.text.includes(needle));
  if (found.length !== 1) throw new Error(`${found.length} entries contain ${JSON.stringify(needle)}`);
  return found[0];
}

export function finding(kind: FindingKind, e: Entry, extra: Partial<Finding> = {}): Finding {
  return { entryId: e.id, file: e.file, line: e.line, kind, severity: 'warning', message: `${kind} on ${e.file}:${e.line}`, ...extra };
}

export function planWith(result: AuditResult, findings: Finding[], cfg?: Config): Map<string, PlanItem> {
  const ctx = { files: result.files, entries: result.entries, evidence: result.evidence, config: cfg ?? result.config };
  return new Map(decide(ctx, [...result.findings, ...findings]).map((p) => [p.entryId, p]));
}
