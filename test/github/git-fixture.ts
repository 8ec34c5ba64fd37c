// Throwaway git repositories for the Action tests: a bare `origin` and a clone of it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'Dev',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
  GIT_AUTHOR_DATE: '2026-01-05T10:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-05T10:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

export function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface Fixture {
  dir: string;
  origin: string;
  work: string;
  cleanup(): void;
  write(path: string, text: string): void;
  commit(message: string, date?: string): string;
}

/** A bare origin with branch `main` and a working clone of it. */
export function makeRepo(files: Record<string, string>): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'ma-gh-'));
  const origin = join(dir, 'origin.git');
  const work = join(dir, 'work');
  git(dir, ['init', '-q', '--bare', '-b', 'main', origin]);
  git(dir, ['init', '-q', '-b', 'main', work]);
  const fx: Fixture = {
    dir,
    origin,
    work,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
    write(path, text) {
      const abs = join(work, path);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    },
    commit(message, date = '2026-01-05T10:00:00Z') {
      git(work, ['add', '-A']);
      git(work, ['commit', '-q', '-m', message], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
      return git(work, ['rev-parse', 'HEAD']).trim();
    },
  };
  for (const [p, t] of Object.entries(files)) fx.write(p, t);
  fx.commit('initial');
  git(work, ['remote', 'add', 'origin', origin]);
  git(work, ['push', '-q', 'origin', 'main']);
  return fx;
}
