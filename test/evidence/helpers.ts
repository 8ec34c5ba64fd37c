// Builds real git repositories in temp folders for the evidence tests.
import { mkdtemp, mkdir, rm, writeFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';

export interface TestRepo {
  dir: string;
  git: SimpleGit;
  write(file: string, content: string): Promise<void>;
  remove(file: string): Promise<void>;
  move(from: string, to: string): Promise<void>;
  /** Stages everything and commits with a fixed date (YYYY-MM-DD); returns the sha. */
  commit(message: string, date: string, author?: string): Promise<string>;
  cleanup(): Promise<void>;
}

const dirs: string[] = [];

/** simple-git with the date and author variables the tests set. */
export function gitAt(dir?: string): SimpleGit {
  return simpleGit({ baseDir: dir, allowEnvironment: ['GIT_AUTHOR_DATE', 'GIT_COMMITTER_DATE', 'GIT_AUTHOR_NAME'] });
}

/** simple-git refuses some inherited variables (EDITOR, ...): pass only what git needs. */
export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), LC_ALL: 'C' };
  return { ...env, ...extra };
}

export async function tempDir(prefix = 'ma-ev-'): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

export async function cleanupAll(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

export async function makeRepo(branch = 'main'): Promise<TestRepo> {
  const dir = await tempDir();
  let env: Record<string, string> = baseEnv();
  const git = gitAt(dir);
  await git.init(['-q', '-b', branch]);
  await git.addConfig('user.name', 'Test Author');
  await git.addConfig('user.email', 'test@example.com');
  await git.addConfig('commit.gpgsign', 'false');
  const repo: TestRepo = {
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
    async commit(message, date, author = 'Test Author') {
      const stamp = `${date}T12:00:00Z`;
      env = { ...env, GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp, GIT_AUTHOR_NAME: author };
      await git.env(env).add(['-A']);
      await git.env(env).commit(message, { '--allow-empty': null });
      return (await git.revparse(['HEAD'])).trim();
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
  return repo;
}

/** A file body that git's rename detection will pair with small edits of itself. */
export function body(name: string, lines = 12, edit = ''): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`// ${name} line ${i} ${'x'.repeat(20)}`);
  if (edit) out.push(edit);
  return out.join('\n') + '\n';
}
