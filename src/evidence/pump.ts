// A pipe pump: long git commands (the log pass, ls-files) are spawned and read by one worker
// thread, which forwards their stdout to the main thread in large transferred buffers.
//
// Why: a pipe holds 64 KiB. `git log --raw` on a large repository writes ~6 MB/s, so any
// synchronous stretch of 10 ms on the main thread (parsing memory, running checks) fills the
// pipe and stops git. Measured on a 50,000-commit repository: the log pass took 4.2 s alone
// and 6.4 s inside the audit. With the worker reading the pipe, git never waits on the main
// thread; chunks queue in the worker's message port until the main thread takes them (at most
// 8 MiB ahead of it: past that the worker stops reading and git waits, so memory stays bounded).
import { getPriority, setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface PumpHandlers {
  onData(chunk: Buffer): void;
  onClose(code: number, stderr: string): void;
  onError(message: string): void;
}

export interface PumpedProcess {
  kill(): void;
}

// CommonJS source evaluated in the worker (no bundler involvement, node built-ins only).
const WORKER_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const FLUSH_BYTES = 512 * 1024;
const FLUSH_MS = 8;
const children = new Map();
// Back-pressure: when the main thread is this far behind, stop reading (git then waits).
const HIGH_WATER = 8 * 1024 * 1024;
const LOW_WATER = 2 * 1024 * 1024;
parentPort.on('message', (m) => {
  if (m.op === 'ack') {
    const c = children.get(m.id);
    if (!c) return;
    c.inflight -= m.bytes;
    if (c.paused && c.inflight <= LOW_WATER) { c.paused = false; c.child.stdout.resume(); }
    return;
  }
  if (m.op === 'kill') {
    const c = children.get(m.id);
    if (c) c.child.kill();
    return;
  }
  if (m.op !== 'spawn') return;
  const id = m.id;
  let child;
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    parentPort.postMessage({ id, t: 'error', message: String(err && err.message || err) });
    return;
  }
  const st = { child, parts: [], size: 0, timer: null, err: [], errLen: 0, inflight: 0, paused: false };
  children.set(id, st);
  const flush = () => {
    if (st.timer) { clearTimeout(st.timer); st.timer = null; }
    if (st.size === 0) return;
    const b = st.parts.length === 1 ? st.parts[0] : Buffer.concat(st.parts, st.size);
    st.parts = []; st.size = 0;
    let ab;
    if (b.byteOffset === 0 && b.buffer.byteLength === b.length) ab = b.buffer;
    else ab = b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
    st.inflight += ab.byteLength;
    parentPort.postMessage({ id, t: 'data', ab }, [ab]);
    if (!st.paused && st.inflight >= HIGH_WATER) { st.paused = true; child.stdout.pause(); }
  };
  child.stdout.on('data', (b) => {
    st.parts.push(b); st.size += b.length;
    if (st.size >= FLUSH_BYTES) flush();
    else if (!st.timer) st.timer = setTimeout(flush, FLUSH_MS);
  });
  child.stderr.on('data', (b) => { if (st.errLen < 65536) { st.err.push(b); st.errLen += b.length; } });
  let reported = false;
  child.on('error', (err) => {
    if (reported) return;
    reported = true;
    children.delete(id);
    parentPort.postMessage({ id, t: 'error', message: String(err && err.message || err) });
  });
  child.on('close', (code) => {
    if (reported) return;
    reported = true;
    flush();
    children.delete(id);
    parentPort.postMessage({ id, t: 'close', code: code == null ? -1 : code, stderr: Buffer.concat(st.err).toString('utf8') });
  });
});
`;

interface Pending {
  handlers: PumpHandlers;
}

let worker: Worker | null = null;
let broken = false;
let nextId = 1;
const active = new Map<number, Pending>();

function ensureWorker(): Worker | null {
  if (worker) return worker;
  if (broken) return null;
  try {
    const w = new Worker(WORKER_SOURCE, { eval: true, stdout: false, stderr: false });
    w.on('message', (m: { id: number; t: string; ab?: ArrayBuffer; code?: number; stderr?: string; message?: string }) => {
      const p = active.get(m.id);
      if (!p) return;
      if (m.t === 'data' && m.ab) {
        const n = m.ab.byteLength;
        p.handlers.onData(Buffer.from(m.ab));
        w.postMessage({ op: 'ack', id: m.id, bytes: n });
        return;
      }
      active.delete(m.id);
      if (active.size === 0) w.unref();
      if (m.t === 'close') p.handlers.onClose(m.code ?? -1, m.stderr ?? '');
      else p.handlers.onError(m.message ?? 'git could not be started');
    });
    w.on('error', (err) => failAll(`the git reader thread failed: ${err.message}`));
    w.on('exit', () => failAll('the git reader thread stopped'));
    w.unref();
    worker = w;
    return w;
  } catch {
    broken = true;
    return null;
  }
}

function failAll(message: string): void {
  worker = null;
  broken = true;
  const list = [...active.values()];
  active.clear();
  for (const p of list) p.handlers.onError(message);
}

/**
 * Spawns `file args` in the pump thread. Returns null when no worker thread can be started
 * (the caller then reads the pipe itself).
 */
export function pumpSpawn(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, handlers: PumpHandlers): PumpedProcess | null {
  const w = ensureWorker();
  if (!w) return null;
  const id = nextId++;
  active.set(id, { handlers });
  w.ref();
  w.postMessage({ op: 'spawn', id, file, args, cwd, env: { ...env } });
  return {
    kill: () => {
      if (active.has(id)) w.postMessage({ op: 'kill', id });
    },
  };
}

let lowered = false;

/**
 * While the log pass runs, git is the floor of the audit's wall time: nothing else should slow
 * it. On a 2-core runner the main thread (parsing memory, early checks, reading git's output) and
 * V8's helper threads compete with git for the cores, and git ran 25-40% slower than alone. This
 * lowers the priority of the calling thread only (Linux keeps a nice value per thread), after the
 * pump thread that spawns git was started at normal priority; git keeps its full share, and our
 * work still gets every cycle git leaves. Measured on the 50,000-commit benchmark repository:
 * 6.4-6.6 s -> 5.7-6.0 s. `MEMORY_AUDIT_NICE` sets the niceness (0 turns this off); errors
 * (e.g. a platform without priorities) are ignored.
 */
export function yieldCpuToGit(): void {
  if (lowered || !worker) return;
  lowered = true;
  // Only Linux keeps priorities per thread; elsewhere this would slow git down with us.
  if (process.platform !== 'linux') return;
  const raw = process.env.MEMORY_AUDIT_NICE;
  const nice = raw === undefined || raw === '' ? 19 : Number(raw);
  if (!Number.isInteger(nice) || nice <= 0) return;
  try {
    if (getPriority() < nice) setPriority(Math.min(nice, 19));
  } catch {
    // not permitted or not supported: run at the priority we have
  }
}
