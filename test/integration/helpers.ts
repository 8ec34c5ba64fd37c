// Shared fixtures for the end-to-end integration tests: real git repositories in temp folders
// (simple-git, fixed dates), the CLI's main() run in-process, the bundles built into a temp dir.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { main } from '../../src/cli.js';
import { inject } from 'vitest';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const NOW = '2026-01-10';

const dirs: string[] = [];

export function tempDir(prefix: string): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

export function cleanupAll(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export interface Repo {
  dir: string;
  git: SimpleGit;
  write(file: string, content: string | Buffer): void;
  read(file: string): string;
  commit(message: string, date?: string): Promise<void>;
}

/** A git repository with `files` committed on 2026-01-05 (nothing committed when empty). */
export async function makeRepo(files: Record<string, string | Buffer> = {}, date = '2026-01-05'): Promise<Repo> {
  const dir = tempDir('ma-int-');
  const git = simpleGit({ baseDir: dir, allowEnvironment: ['GIT_AUTHOR_DATE', 'GIT_COMMITTER_DATE'] } as never);
  await git.init(['-q', '-b', 'main']);
  await git.addConfig('user.name', 'Int Tester');
  await git.addConfig('user.email', 'int@example.com');
  await git.addConfig('commit.gpgsign', 'false');
  const repo: Repo = {
    dir,
    git,
    write(file, content) {
      const abs = path.join(dir, file);
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, content);
    },
    read: (file) => readFileSync(path.join(dir, file), 'utf8'),
    async commit(message, d = date) {
      const stamp = `${d}T12:00:00Z`;
      await git.add(['-A']);
      await git
        .env({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), LC_ALL: 'C', GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp })
        .commit(message, ['--allow-empty', '-q']);
    },
  };
  for (const [f, c] of Object.entries(files)) repo.write(f, c);
  if (Object.keys(files).length) await repo.commit('initial', date);
  return repo;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI's main() in-process, with captured streams and a clean environment. */
export async function cli(cwd: string, argv: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { NO_COLOR: '1', ...env },
    cwd,
  });
  return { code, stdout, stderr };
}

/** The bundles (cli.js, index.js) built once per run by test/global-setup.ts, never into dist/. */
export function buildBundles(): { dir: string; cli: string; action: string } {
  const dir = inject('bundleDir');
  return { dir, cli: path.join(dir, 'cli.js'), action: path.join(dir, 'index.js') };
}

export function runNode(script: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, encoding: 'utf8', timeout: 120_000 },
      (err, stdout, stderr) => {
        const raw = err ? (err as { code?: unknown }).code : 0;
        resolve({ code: typeof raw === 'number' ? raw : err ? 1 : 0, stdout, stderr });
      },
    );
  });
}

/** Every file under `dir` (relative paths, .git excluded), with its bytes. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      if (name === '.git') continue;
      const abs = path.join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out.set(path.relative(dir, abs).split(path.sep).join('/'), readFileSync(abs).toString('latin1'));
    }
  };
  walk(dir);
  return out;
}

// ------------------------------------------------------------------ fake but pattern-valid secrets
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

export const SECRETS = {
  github: 'ghp_' + 'x1Y2'.repeat(9),
  aws: 'AKIA' + 'QZ7X' + 'M2K9' + 'P4L8' + 'W3N6',
  slack: 'xoxb-' + '123456789012' + '-' + '1234567890123' + '-' + 'AbCdEfGhIjKlMnOpQrStUvWx',
  urlPassword: 'Wq9zT4vB' + '7nR2',
  jwt: b64url({ alg: 'HS256', typ: 'JWT' }) + '.' + b64url({ sub: '1234567890', name: 'Jane Roe', iat: 1516239022 }) + '.' + 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  privateKeyBody: 'q7Bv'.repeat(15),
};

export const PRIVATE_KEY =
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA' + SECRETS.privateKeyBody + '\n' + 'Zk9x'.repeat(16) + '\n-----END RSA PRIVATE KEY-----';

/** A CLAUDE.md holding one of each secret, plus an ephemeral line far from them (line 20). */
export const SECRET_MEMORY = [
  '# Notes',
  '',
  '## Creds',
  '',
  `- Bot token: ${SECRETS.github}`,
  `- AWS key ${SECRETS.aws} for CI.`,
  `- Slack bot uses ${SECRETS.slack} to post.`,
  `- Database at postgres://deploy:${SECRETS.urlPassword}@db.internal.example.com:5432/app for staging.`,
  `- Test JWT ${SECRETS.jwt} for the API.`,
  '',
  'The deploy key:',
  '',
  '```',
  PRIVATE_KEY,
  '```',
  '',
  '## Work',
  '',
  '- Currently working on the deploy script, right now.',
  '',
].join('\n');

/** The secret values that appear in `text`. */
export function leaked(text: string): string[] {
  return Object.entries(SECRETS)
    .filter(([, v]) => text.includes(v))
    .map(([k]) => k);
}
