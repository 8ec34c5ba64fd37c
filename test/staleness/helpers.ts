// Real git repositories in temp folders for the staleness tests and the scenario suite.
import { mkdtemp, mkdir, rm, writeFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import type { Finding, PlanItem, Report } from '../../src/types.js';

export interface Repo {
  dir: string;
  git: SimpleGit;
  write(file: string, content: string): Promise<void>;
  remove(file: string): Promise<void>;
  move(from: string, to: string): Promise<void>;
  /** Stages everything and commits at noon UTC of `date` (YYYY-MM-DD); returns the sha. */
  commit(message: string, date: string): Promise<string>;
}

const made: string[] = [];

export async function makeRepo(prefix = 'ma-stale-'): Promise<Repo> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  made.push(dir);
  const git = simpleGit({ baseDir: dir, allowEnvironment: ['GIT_AUTHOR_DATE', 'GIT_COMMITTER_DATE'] } as never);
  await git.init(['-q', '-b', 'main']);
  await git.addConfig('user.name', 'Test Author');
  await git.addConfig('user.email', 'test@example.com');
  await git.addConfig('commit.gpgsign', 'false');
  const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), LC_ALL: 'C' };
  return {
    dir,
    git,
    async write(file, content) {
      const abs = path.join(dir, file);
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFile(abs, content);
    },
    async remove(file) {
      await rm(path.join(dir, file), { recursive: true, force: true });
    },
    async move(from, to) {
      await mkdir(path.dirname(path.join(dir, to)), { recursive: true });
      await rename(path.join(dir, from), path.join(dir, to));
    },
    async commit(message, date) {
      const stamp = `${date}T12:00:00Z`;
      const env = { ...baseEnv, GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp };
      await git.env(env).add(['-A']);
      await git.env(env).commit(message, { '--allow-empty': null });
      return (await git.revparse(['HEAD'])).trim();
    },
  };
}

/** A depth-1 clone of `repo` (as actions/checkout makes by default), removed by `cleanupRepos`. */
export async function shallowClone(repo: Repo): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ma-shallow-'));
  made.push(dir);
  await simpleGit().raw(['clone', '-q', '--depth', '1', `file://${repo.dir}`, dir]);
  return dir;
}

/** A report's findings and notes. */
export function findingsAndNotesOf(r: Report): Finding[] {
  return [...r.findings, ...(r.notes ?? [])];
}

/** `kind|line|ref|replace` of the findings and notes `keep` selects, by line then ref. */
export function findingRows(r: Report, keep: (f: Finding) => boolean): string[] {
  return findingsAndNotesOf(r)
    .filter(keep)
    .sort((a, b) => a.line - b.line || (a.ref ?? '').localeCompare(b.ref ?? ''))
    .map((f) => `${f.kind}|${f.line}|${f.ref}|${f.suggestion?.replace ?? ''}`);
}

export async function cleanupRepos(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** A file body that rename detection pairs with small edits of itself. */
export function body(name: string, edit = ''): string {
  const out: string[] = [];
  for (let i = 0; i < 14; i++) out.push(`// ${name} line ${i} ${'x'.repeat(24)}`);
  if (edit) out.push(edit);
  return out.join('\n') + '\n';
}

export function pkg(obj: Record<string, unknown>): string {
  return JSON.stringify(obj, null, 2) + '\n';
}

/** 1-based line of the first occurrence of `needle` in `text` (throws when absent). */
export function lineOfText(text: string, needle: string): number {
  const i = text.indexOf(needle);
  if (i === -1) throw new Error(`not found: ${needle}`);
  return text.slice(0, i).split('\n').length;
}

/** `action|rule|line` of the plan items that are not `keep`, by line. */
export function planRows(plan: PlanItem[]): string[] {
  return plan.filter((p) => p.action !== 'keep').sort((a, b) => (a.line ?? 0) - (b.line ?? 0)).map((p) => `${p.action}|${p.rule}|${p.line}`);
}
