// Small helpers around the git executable. Everything streams through
// node:child_process so that large repositories never get buffered whole.
import { spawn } from 'node:child_process';
import { pumpSpawn } from './pump.js';

/** Config overrides that make git output stable whatever the user's settings. */
export const GIT_STABLE_CONFIG = [
  '-c', 'core.quotePath=false',
  '-c', 'log.showSignature=false',
  '-c', 'color.ui=false',
  '-c', 'diff.renames=true',
  '-c', 'log.follow=false',
  '-c', 'log.showRoot=true',
  '-c', 'diff.relative=false',
  '-c', 'i18n.logOutputEncoding=UTF-8',
];

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs git and collects its (small) output. Never throws for a non-zero exit; rejects only when git cannot start. */
export function runGit(cwd: string, args: string[], input?: string): Promise<GitResult> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn('git', [...GIT_STABLE_CONFIG, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: gitEnv() });
    } catch (err) {
      resolve({ code: -1, stdout: '', stderr: String((err as Error).message) });
      return;
    }
    const out: Buffer[] = [];
    const errOut: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => errOut.push(b));
    child.on('error', (err) => resolve({ code: -1, stdout: '', stderr: err.message }));
    child.on('close', (code) =>
      resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(errOut).toString('utf8') }),
    );
    child.stdin.on('error', () => {});
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

function gitEnv(): NodeJS.ProcessEnv {
  // No pager, no prompts, no locale surprises.
  return { ...process.env, GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' };
}

/**
 * Streams git's stdout as NUL-separated tokens, calling `onToken` for each complete token
 * (decoded as UTF-8). The final token (after the last NUL) is delivered too when non-empty.
 * Resolves with the exit code and stderr.
 */
export function streamGitTokens(
  cwd: string,
  args: string[],
  onToken: (token: string) => void,
): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    let rest: Buffer | null = null;
    let failed: Error | null = null;
    let kill: () => void = () => {};
    const onData = (chunk: Buffer) => {
      if (failed) return;
      const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
      let start = 0;
      try {
        for (;;) {
          const nul = buf.indexOf(0, start);
          if (nul < 0) break;
          onToken(buf.toString('utf8', start, nul));
          start = nul + 1;
        }
      } catch (err) {
        failed = err as Error;
        kill();
        return;
      }
      rest = start < buf.length ? buf.subarray(start) : null;
      if (rest && rest.length > 0 && start > 0) rest = Buffer.from(rest); // detach from the big chunk
    };
    const onClose = (code: number, stderr: string) => {
      if (!failed && rest && rest.length > 0) {
        try {
          onToken(rest.toString('utf8'));
        } catch (err) {
          failed = err as Error;
        }
      }
      resolve({ code: failed ? -2 : code, stderr: stderr + (failed ? `\n${failed.message}` : '') });
    };
    const onError = (message: string) => resolve({ code: -1, stderr: message });
    const argv = [...GIT_STABLE_CONFIG, ...args];
    // Read by the pump thread, so git never waits for the main thread (see pump.ts).
    const pumped = pumpSpawn('git', argv, cwd, gitEnv(), { onData, onClose, onError });
    if (pumped) {
      kill = pumped.kill;
      return;
    }
    let child;
    try {
      child = spawn('git', argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: gitEnv() });
    } catch (err) {
      resolve({ code: -1, stderr: String((err as Error).message) });
      return;
    }
    const c = child;
    kill = () => c.kill();
    const errOut: Buffer[] = [];
    let errLen = 0;
    c.stdout.on('data', onData);
    c.stderr.on('data', (b: Buffer) => {
      if (errLen < 64 * 1024) {
        errOut.push(b);
        errLen += b.length;
      }
    });
    c.on('error', (err) => onError(err.message));
    c.on('close', (code) => onClose(code ?? -1, Buffer.concat(errOut).toString('utf8')));
  });
}

/**
 * One long-lived `git cat-file --batch` reader. `readBlobs` writes every id at once and
 * delivers contents in request order through `onBlob`; missing objects yield `null`.
 */
export function readBlobs(
  cwd: string,
  ids: string[],
  onBlob: (id: string, content: string | null) => void,
  maxBytes = Number.MAX_SAFE_INTEGER,
): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    if (ids.length === 0) {
      resolve({ code: 0, stderr: '' });
      return;
    }
    let child;
    try {
      child = spawn('git', [...GIT_STABLE_CONFIG, 'cat-file', '--batch'], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: gitEnv() });
    } catch (err) {
      resolve({ code: -1, stderr: String((err as Error).message) });
      return;
    }
    let idx = 0;
    let errText = '';
    const parser = new CatFileBatchParser(maxBytes, (body) => {
      const id = ids[idx++] ?? '';
      try {
        onBlob(id, body);
      } catch (err) {
        errText += `${(err as Error).message}\n`;
      }
    });
    child.stdout.on('data', (chunk: Buffer) => parser.push(chunk));
    child.stderr.on('data', (b: Buffer) => {
      if (errText.length < 64 * 1024) errText += b.toString('utf8');
    });
    child.on('error', (err) => resolve({ code: -1, stderr: err.message }));
    child.on('close', (code) => resolve({ code: code ?? -1, stderr: errText }));
    child.stdin.on('error', () => {});
    // Write in slices so a huge request list does not sit in one string.
    const SLICE = 2000;
    let i = 0;
    const writeMore = () => {
      while (i < ids.length) {
        const chunk = ids.slice(i, i + SLICE).join('\n') + '\n';
        i += SLICE;
        if (!child.stdin.write(chunk)) {
          child.stdin.once('drain', writeMore);
          return;
        }
      }
      child.stdin.end();
    };
    writeMore();
  });
}

/**
 * The output of `git cat-file --batch`, chunk by chunk: one `onObject` call per requested object,
 * in request order, with its text, or null when git has no such object or the object is larger
 * than `maxBytes` (its bytes are passed over as they stream, never kept: a 2 GB blob in history
 * costs no memory). While a body is incomplete its chunks wait in a list, joined once it is whole:
 * appending each chunk to the buffer would copy a large blob once per chunk (quadratic).
 */
export class CatFileBatchParser {
  private buf: Buffer = Buffer.alloc(0);
  /** Body bytes (plus the newline after them) still expected; -1 while reading a header. */
  private need = -1;
  /** Bytes of an oversized body (plus its newline) still to pass over. */
  private skip = 0;
  private pending: Buffer[] = [];
  private pendingLen = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onObject: (body: string | null) => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.skip > 0) {
      if (chunk.length < this.skip) {
        this.skip -= chunk.length;
        return;
      }
      chunk = chunk.subarray(this.skip);
      this.skip = 0;
      this.onObject(null);
      if (!chunk.length) return;
    }
    if (this.need >= 0 && this.buf.length + this.pendingLen + chunk.length < this.need + 1) {
      this.pending.push(chunk);
      this.pendingLen += chunk.length;
      return;
    }
    if (this.pending.length) {
      this.buf = Buffer.concat([this.buf, ...this.pending, chunk]);
      this.pending = [];
      this.pendingLen = 0;
    } else this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    this.pump();
  }

  private pump(): void {
    for (;;) {
      if (this.need < 0) {
        const nl = this.buf.indexOf(10);
        if (nl < 0) return;
        const header = this.buf.toString('utf8', 0, nl);
        this.buf = this.buf.subarray(nl + 1);
        if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
          this.onObject(null);
          continue;
        }
        const size = Number(header.split(' ')[2] ?? 0);
        if (size > this.maxBytes) {
          const total = size + 1;
          if (this.buf.length >= total) {
            this.buf = this.buf.subarray(total);
            this.onObject(null);
            continue;
          }
          this.skip = total - this.buf.length;
          this.buf = Buffer.alloc(0);
          return;
        }
        this.need = size;
      } else {
        if (this.buf.length < this.need + 1) return;
        const body = this.buf.toString('utf8', 0, this.need);
        this.buf = this.buf.subarray(this.need + 1);
        this.need = -1;
        this.onObject(body);
      }
    }
  }
}

export interface RepoInfo {
  isRepo: boolean;
  /** Top level of the work tree. */
  topLevel?: string;
  /** Prefix of `root` inside the repository ('' at top level, else 'sub/dir/'). */
  prefix: string;
  head: string | null;
  shallow: boolean;
}

/** One `git rev-parse` call answering every basic question at once. */
export async function repoInfo(root: string): Promise<RepoInfo> {
  const r = await runGit(root, ['rev-parse', '--show-toplevel', '--show-prefix', '--is-shallow-repository', '--verify', '-q', 'HEAD']);
  const lines = r.stdout.split('\n');
  if (r.code !== 0 || lines.length < 4 || !lines[0]) {
    // Not a repository (or git missing); maybe a repository without commits.
    const r2 = await runGit(root, ['rev-parse', '--show-toplevel', '--show-prefix', '--is-shallow-repository']);
    if (r2.code !== 0) return { isRepo: false, prefix: '', head: null, shallow: false };
    const l2 = r2.stdout.split('\n');
    return { isRepo: true, topLevel: l2[0], prefix: l2[1] ?? '', head: null, shallow: l2[2] === 'true' };
  }
  const head = /^[0-9a-f]{40,64}$/.test(lines[3] ?? '') ? lines[3]! : null;
  return { isRepo: true, topLevel: lines[0], prefix: lines[1] ?? '', head, shallow: lines[2] === 'true' };
}

export async function remoteOriginUrl(root: string): Promise<string | undefined> {
  const r = await runGit(root, ['remote', 'get-url', 'origin']);
  if (r.code !== 0) return undefined;
  return r.stdout.trim() || undefined;
}

/** owner/name from https, ssh (scp-like and ssh://) remote URLs. */
export function parseRepoSlug(url: string): string | undefined {
  const u = url.trim();
  let path: string | undefined;
  const scp = /^[\w.-]+@[\w.-]+:(.+)$/.exec(u);
  if (scp && !u.includes('://')) path = scp[1];
  else {
    try {
      path = new URL(u).pathname;
    } catch {
      return undefined;
    }
  }
  if (!path) return undefined;
  const parts = path.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/, '').split('/');
  if (parts.length < 2) return undefined;
  const [owner, name] = parts.slice(-2);
  if (!owner || !name) return undefined;
  return `${owner}/${name}`;
}

/**
 * A `git cat-file --batch` process fed while another stream is still running: ids are
 * requested as they are discovered, contents arrive in request order through `onBlob`.
 */
export class BlobStream {
  private child: ReturnType<typeof spawn> | null = null;
  private queue: string[] = [];
  private head = 0;
  private pendingWrite: string[] = [];
  private errText = '';
  private done: Promise<{ code: number; stderr: string }> | null = null;
  private resolveDone: ((r: { code: number; stderr: string }) => void) | null = null;
  requested = 0;

  constructor(
    private readonly cwd: string,
    private readonly onBlob: (id: string, content: string | null) => void,
    private readonly maxBytes = Number.MAX_SAFE_INTEGER,
  ) {}

  private start(): void {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    try {
      this.child = spawn('git', [...GIT_STABLE_CONFIG, 'cat-file', '--batch'], { cwd: this.cwd, stdio: ['pipe', 'pipe', 'pipe'], env: gitEnv() });
    } catch (err) {
      this.resolveDone!({ code: -1, stderr: String((err as Error).message) });
      return;
    }
    const child = this.child;
    const parser = new CatFileBatchParser(this.maxBytes, (body) => {
      this.deliver(this.queue[this.head++] ?? '', body);
      if (this.head > 4096 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
    });
    child.stdout!.on('data', (chunk: Buffer) => parser.push(chunk));
    child.stderr!.on('data', (b: Buffer) => {
      if (this.errText.length < 64 * 1024) this.errText += b.toString('utf8');
    });
    child.on('error', (err) => this.resolveDone!({ code: -1, stderr: err.message }));
    child.on('close', (code) => {
      // anything never answered is missing
      while (this.head < this.queue.length) this.deliver(this.queue[this.head++]!, null);
      this.resolveDone!({ code: code ?? -1, stderr: this.errText });
    });
    child.stdin!.on('error', () => {});
  }

  private deliver(id: string, content: string | null): void {
    try {
      this.onBlob(id, content);
    } catch (err) {
      this.errText += `${(err as Error).message}\n`;
    }
  }

  request(id: string): void {
    if (!this.child && !this.done) this.start();
    if (!this.child) return;
    this.queue.push(id);
    this.requested++;
    this.pendingWrite.push(id);
    if (this.pendingWrite.length >= 64) this.flush();
  }

  private flush(): void {
    if (!this.child || this.pendingWrite.length === 0) return;
    this.child.stdin!.write(this.pendingWrite.join('\n') + '\n');
    this.pendingWrite = [];
  }

  /** No more requests: waits for every answer. */
  async end(): Promise<{ code: number; stderr: string }> {
    if (!this.done) return { code: 0, stderr: '' };
    this.flush();
    this.child?.stdin!.end();
    return this.done;
  }
}
