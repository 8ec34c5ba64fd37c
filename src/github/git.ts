// Git plumbing for the Action: everything that touches git lives here (the GitHub API
// lives in ./pull-request.ts and ./comment.ts). Every call is an argument array passed to
// execFile: no shell, so untrusted values (branch names, paths) cannot inject commands.
//
// The prune commit is built with a temporary index (read-tree HEAD, update-index the
// changed paths, write-tree, commit-tree) so the checkout's own index and HEAD are left
// alone, and the result is pushed with --force-with-lease to `origin` exactly as
// actions/checkout left it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GitIdentity {
  name: string;
  email: string;
}

export const BOT_IDENTITY: GitIdentity = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

export class GitError extends Error {
  constructor(
    message: string,
    readonly args: string[],
    readonly code: number,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

export interface GitRunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** One changed path as `git diff --name-status -M -z` reports it. */
export interface DiffChange {
  /** A added, M modified, D deleted, R renamed, C copied, T type change. */
  status: 'A' | 'M' | 'D' | 'R' | 'C' | 'T' | 'U' | 'X';
  /** The path after the change (for D: the deleted path). */
  path: string;
  /** R / C: the path before. */
  from?: string;
  similarity?: number;
}

/**
 * The `-c` arguments that authenticate git over http(s) the way actions/checkout does:
 * an AUTHORIZATION extra header scoped to the remote's server. The empty value first
 * resets any header actions/checkout persisted for the same URL (two Authorization
 * headers make GitHub answer 400). Other remotes (file paths, ssh) get nothing.
 */
export function authConfigArgs(remoteUrl: string, token: string | undefined): string[] {
  if (!token) return [];
  let url: URL;
  try {
    url = new URL(remoteUrl);
  } catch {
    return [];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return [];
  const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
  const key = `http.${url.origin}/.extraheader`;
  return ['-c', `${key}=`, '-c', `${key}=AUTHORIZATION: basic ${basic}`];
}

/** The base64 credential that authConfigArgs sends, so the caller can mask it too. */
export function basicCredential(token: string): string {
  return Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
}

/** Parses `git diff --name-status -z` output. */
export function parseNameStatusZ(out: string): DiffChange[] {
  const parts = out.split('\0');
  const changes: DiffChange[] = [];
  for (let i = 0; i < parts.length; ) {
    const head = parts[i++];
    if (!head) continue;
    const status = head[0] as DiffChange['status'];
    const score = head.length > 1 ? Number(head.slice(1)) : undefined;
    if (status === 'R' || status === 'C') {
      const from = parts[i++] ?? '';
      const to = parts[i++] ?? '';
      changes.push({ status, path: to, from, similarity: score });
    } else {
      const path = parts[i++] ?? '';
      changes.push({ status, path });
    }
  }
  return changes;
}

/** One path's blobs on both sides of `git diff-tree -r` (the all-zero id where the path is absent). */
export interface BlobChange {
  before: string;
  after: string;
}

/** Parses `git diff-tree -r -z --no-renames` output (`:mode mode sha sha status NUL path NUL`...). */
export function parseDiffTreeZ(out: string): Map<string, BlobChange> {
  const parts = out.split('\0');
  const changes = new Map<string, BlobChange>();
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const head = parts[i].replace(/^\n/, '');
    if (!head.startsWith(':')) break;
    const [, , before, after] = head.slice(1).split(' ');
    changes.set(parts[i + 1], { before, after });
  }
  return changes;
}

/** Parses the new-side line numbers of the hunks in a `git diff -U0` patch of one file. */
export function parseAddedLines(patch: string): number[] {
  const lines: number[] = [];
  for (const m of patch.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    for (let k = 0; k < count; k++) lines.push(start + k);
  }
  return lines;
}

/** The text of the removed (`-`) lines of a patch, without the `---` header. */
export function removedText(patch: string): string {
  return patch
    .split('\n')
    .filter((l) => l.startsWith('-') && !l.startsWith('---'))
    .map((l) => l.slice(1))
    .join('\n');
}

export interface CommitInfo {
  parents: string[];
  author: GitIdentity;
  committer: GitIdentity;
  subject: string;
}

export interface GitOptions {
  /** Token for http(s) remotes (sent as an extra header, never in a URL). */
  token?: string;
  remote?: string;
  /** Extra environment (tests). */
  env?: NodeJS.ProcessEnv;
}

export class Git {
  readonly remote: string;
  private remoteUrlCache: string | null = null;

  constructor(
    readonly dir: string,
    private readonly opts: GitOptions = {},
  ) {
    this.remote = opts.remote ?? 'origin';
  }

  /** Runs git; never throws (see `exec` for the throwing form). */
  async run(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<GitRunResult> {
    const r = await this.runRaw(args, extraEnv);
    return { code: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr };
  }

  /** Runs git with `input` on stdin, stdout as bytes (object contents); never throws. */
  private runRaw(args: string[], extraEnv: NodeJS.ProcessEnv = {}, input?: string): Promise<{ code: number; stdout: Buffer; stderr: string }> {
    // git gets the environment minus the Action's inputs (INPUT_TOKEN among them).
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('INPUT_')));
    const env = {
      ...inherited,
      ...this.opts.env,
      ...extraEnv,
      GIT_TERMINAL_PROMPT: '0',
      GIT_PAGER: 'cat',
      LC_ALL: 'C',
    };
    const full = ['-c', 'core.quotePath=false', '-c', 'color.ui=false', ...args];
    return new Promise((resolve) => {
      const child = execFile('git', full, { cwd: this.dir, env, maxBuffer: 256 * 1024 * 1024, encoding: 'buffer' }, (err, stdout, stderr) => {
        const raw = err ? (err as { code?: unknown }).code : 0;
        const code = typeof raw === 'number' ? raw : err ? 1 : 0;
        resolve({ code, stdout: Buffer.from(stdout), stderr: Buffer.from(stderr).toString('utf8') });
      });
      if (input !== undefined) {
        child.stdin?.on('error', () => undefined); // git exiting early is reported through its exit code
        child.stdin?.end(input);
      }
    });
  }

  async exec(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
    const r = await this.run(args, extraEnv);
    if (r.code !== 0) {
      const shown = args.filter((a) => !/extraheader=AUTHORIZATION/i.test(a));
      throw new GitError(`git ${shown.join(' ')} failed (${r.code}): ${r.stderr.trim()}`, shown, r.code, r.stderr);
    }
    return r.stdout;
  }

  async remoteUrl(): Promise<string> {
    if (this.remoteUrlCache === null) this.remoteUrlCache = (await this.exec(['remote', 'get-url', this.remote])).trim();
    return this.remoteUrlCache;
  }

  /** Runs a command that talks to the remote, with the auth header for http(s) remotes. */
  private async remoteExec(args: string[]): Promise<string> {
    const auth = authConfigArgs(await this.remoteUrl(), this.opts.token);
    return this.exec([...auth, ...args]);
  }

  async isShallow(): Promise<boolean> {
    const r = await this.run(['rev-parse', '--is-shallow-repository']);
    return r.code === 0 && r.stdout.trim() === 'true';
  }

  async head(): Promise<string> {
    return (await this.exec(['rev-parse', 'HEAD'])).trim();
  }

  /** The checked-out branch name, or null when HEAD is detached. */
  async currentBranch(): Promise<string | null> {
    const r = await this.run(['symbolic-ref', '--quiet', '--short', 'HEAD']);
    return r.code === 0 ? r.stdout.trim() || null : null;
  }

  async hasCommit(rev: string): Promise<boolean> {
    const r = await this.run(['cat-file', '-e', `${rev}^{commit}`]);
    return r.code === 0;
  }

  /** The parents of a commit (empty for a root commit). */
  async parents(rev: string): Promise<string[]> {
    const out = await this.exec(['rev-list', '--parents', '-n', '1', rev, '--']);
    return out.trim().split(/\s+/).slice(1);
  }

  /** The blobs that differ between two trees or commits, by path (no rename detection). */
  async changedBlobs(from: string, to: string): Promise<Map<string, BlobChange>> {
    return parseDiffTreeZ(await this.exec(['diff-tree', '-r', '-z', '--no-renames', from, to, '--']));
  }

  /** Who made a commit, its parents and subject (`git log -1`). */
  async commitInfo(rev: string): Promise<CommitInfo> {
    const out = await this.exec(['log', '-1', '--format=%P%x00%an%x00%ae%x00%cn%x00%ce%x00%s', rev, '--']);
    const [parents, authorName, authorEmail, committerName, committerEmail, subject] = out.replace(/\n$/, '').split('\0');
    return {
      parents: (parents ?? '').split(' ').filter(Boolean),
      author: { name: authorName ?? '', email: authorEmail ?? '' },
      committer: { name: committerName ?? '', email: committerEmail ?? '' },
      subject: subject ?? '',
    };
  }

  /** True when `ancestor` is `rev` or one of its ancestors. */
  async isAncestor(ancestor: string, rev: string): Promise<boolean> {
    const r = await this.run(['merge-base', '--is-ancestor', ancestor, rev]);
    return r.code === 0;
  }

  /** The text of some blobs in one `git cat-file --batch` call, by sha (a missing blob is left out). */
  async readBlobs(shas: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const uniq = [...new Set(shas)];
    if (uniq.length === 0) return out;
    const r = await this.runRaw(['cat-file', '--batch'], {}, `${uniq.join('\n')}\n`);
    if (r.code !== 0) return out;
    // `<sha> blob <size>\n<content>\n` per object; sizes are in bytes, so walk the bytes.
    const buf = r.stdout;
    let at = 0;
    while (at < buf.length) {
      const nl = buf.indexOf(10, at);
      if (nl < 0) break;
      const [sha, type, size] = buf.subarray(at, nl).toString('utf8').split(' ');
      at = nl + 1;
      if (type === 'missing' || size === undefined) continue;
      const n = Number(size);
      if (type === 'blob') out.set(sha, buf.subarray(at, at + n).toString('utf8'));
      at += n + 1;
    }
    return out;
  }

  async treeOf(rev: string): Promise<string> {
    return (await this.exec(['rev-parse', `${rev}^{tree}`])).trim();
  }

  /** True when `name` is a valid branch name (git check-ref-format --branch). */
  async isValidBranch(name: string): Promise<boolean> {
    if (name.startsWith('-')) return false;
    const r = await this.run(['check-ref-format', '--branch', name]);
    return r.code === 0;
  }

  /** The sha of `refs/heads/<branch>` on the remote, or null when it does not exist. */
  async remoteBranchSha(branch: string): Promise<string | null> {
    const out = await this.remoteExec(['ls-remote', '--heads', '--', this.remote, `refs/heads/${branch}`]);
    const line = out.split('\n').find((l) => l.endsWith(`\trefs/heads/${branch}`));
    return line ? line.split('\t')[0] : null;
  }

  /**
   * Turns a shallow clone into a complete one (`git fetch --unshallow`, with the same auth as the
   * other remote calls): the prune's staleness evidence is the history a shallow clone lacks.
   */
  async unshallow(): Promise<void> {
    await this.remoteExec(['fetch', '--unshallow', '--no-tags', '--quiet', '--', this.remote]);
  }

  /** Fetches commits by sha or ref into the object store (no local refs are moved). */
  async fetch(refs: string[], depth?: number): Promise<void> {
    const args = ['fetch', '--no-tags', '--no-write-fetch-head', '--quiet'];
    if (depth !== undefined) args.push(`--depth=${depth}`);
    await this.remoteExec([...args, '--', this.remote, ...refs]);
  }

  /**
   * Builds a tree from HEAD plus the working-tree content of `paths` (paths missing on
   * disk are removed), in a throwaway index so the checkout's index is left untouched.
   */
  async buildTree(base: string, paths: string[]): Promise<string> {
    const tmp = mkdtempSync(join(tmpdir(), 'memory-audit-index-'));
    const env = { GIT_INDEX_FILE: join(tmp, 'index') };
    try {
      await this.exec(['read-tree', base], env);
      if (paths.length > 0) {
        // --add picks up new files, --remove drops the ones that are gone from disk.
        await this.exec(['update-index', '--add', '--remove', '--', ...paths], env);
      }
      return (await this.exec(['write-tree'], env)).trim();
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }

  async commitTree(tree: string, parent: string, message: string, author: GitIdentity, date?: string): Promise<string> {
    const env: NodeJS.ProcessEnv = {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
    };
    if (date) {
      env.GIT_AUTHOR_DATE = date;
      env.GIT_COMMITTER_DATE = date;
    }
    return (await this.exec(['commit-tree', tree, '-p', parent, '-m', message], env)).trim();
  }

  /**
   * Pushes `commit` to `refs/heads/<branch>` on the remote with --force-with-lease:
   * the update only happens when the remote branch is still at `expected` (null: must not exist).
   */
  async pushBranch(commit: string, branch: string, expected: string | null): Promise<void> {
    const lease = `--force-with-lease=refs/heads/${branch}:${expected ?? ''}`;
    await this.remoteExec(['push', '--quiet', lease, '--', this.remote, `${commit}:refs/heads/${branch}`]);
  }

  async deleteRemoteBranch(branch: string, expected: string | null): Promise<void> {
    const args = ['push', '--quiet'];
    if (expected) args.push(`--force-with-lease=refs/heads/${branch}:${expected}`);
    await this.remoteExec([...args, '--', this.remote, `:refs/heads/${branch}`]);
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    const r = await this.run(['merge-base', a, b]);
    return r.code === 0 ? r.stdout.trim() : null;
  }

  /** `git diff --name-status -M` between two revisions (`threeDot`: from their merge base). */
  async diffNameStatus(base: string, head: string, threeDot: boolean): Promise<DiffChange[]> {
    const range = threeDot ? [`${base}...${head}`] : [base, head];
    const out = await this.exec(['diff', '--no-ext-diff', '--name-status', '-M', '-z', ...range, '--']);
    return parseNameStatusZ(out);
  }

  /** The zero-context patch of some paths (a rename: both sides) between two revisions. */
  async diffPatch(base: string, head: string, threeDot: boolean, paths: string[]): Promise<string> {
    const range = threeDot ? [`${base}...${head}`] : [base, head];
    const specs = paths.map((p) => `:(literal)${p}`);
    return this.exec(['diff', '--no-ext-diff', '-M', '-U0', '--no-color', ...range, '--', ...specs]);
  }
}
