// Runs a child process and measures wall time, peak RSS and (optionally) the time to the
// first line of stdout. Peak RSS comes from GNU time (`/usr/bin/time -f %M`, the maximum
// resident set of the process or of any of its waited-for children, e.g. git), or, when
// that is missing, from polling /proc/<pid>/status VmHWM (the node process alone).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GNU_TIME = '/usr/bin/time';
let gnuTimeOk;
export function rssMethod() {
  if (gnuTimeOk === undefined) gnuTimeOk = existsSync(GNU_TIME);
  return gnuTimeOk ? 'GNU time %M (max RSS of the process tree\'s largest process)' : '/proc VmHWM polling (node process only)';
}

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {{cwd?: string, env?: object, keepStdout?: boolean, maxStdout?: number}} opts
 * @returns {Promise<{code: number, wallMs: number, cpuMs: number|null, rssKb: number|null, firstLineMs: number|null, stdout: string, stderr: string, stdoutBytes: number}>}
 */
export function runMeasured(cmd, args, opts = {}) {
  rssMethod();
  const tmp = mkdtempSync(join(tmpdir(), 'ma-bench-'));
  const timeFile = join(tmp, 'time.txt');
  const [file, argv] = gnuTimeOk ? [GNU_TIME, ['-f', '%M %U %S', '-o', timeFile, cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(file, argv, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let firstLineMs = null;
    const out = [];
    let outBytes = 0;
    const err = [];
    let hwm = null;
    let poll;
    if (!gnuTimeOk) {
      poll = setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) hwm = Math.max(hwm ?? 0, Number(m[1]));
        } catch {}
      }, 10);
    }
    child.stdout.on('data', (b) => {
      if (firstLineMs === null && b.includes(10)) firstLineMs = Number(process.hrtime.bigint() - t0) / 1e6;
      outBytes += b.length;
      if (opts.keepStdout !== false) out.push(b);
    });
    child.stderr.on('data', (b) => err.push(b));
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : null;
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      if (poll) clearInterval(poll);
      if (timer) clearTimeout(timer);
      let rssKb = hwm;
      let cpuMs = null;
      if (gnuTimeOk) {
        try {
          const lines = readFileSync(timeFile, 'utf8').trim().split('\n');
          const [m, u, sy] = lines[lines.length - 1].split(' ').map(Number);
          if (Number.isFinite(m)) rssKb = m;
          if (Number.isFinite(u) && Number.isFinite(sy)) cpuMs = (u + sy) * 1000;
        } catch {}
      }
      rmSync(tmp, { recursive: true, force: true });
      resolve({ code: code ?? -1, wallMs, cpuMs, rssKb, firstLineMs, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stdoutBytes: outBytes });
    });
  });
}

/** The git floor: `git ls-files` + one `git log --name-status -M` pass, output consumed and discarded. */
export async function gitBaseline(repoDir) {
  const lsFiles = await runMeasured('git', ['-c', 'core.quotePath=false', 'ls-files', '-z'], { cwd: repoDir, keepStdout: false });
  const log = await runMeasured('git', ['-c', 'core.quotePath=false', 'log', '--name-status', '-M', '-z', '--format=%H%x00%aI%x00%an%x00%s'], { cwd: repoDir, keepStdout: false });
  if (lsFiles.code !== 0 || log.code !== 0) throw new Error(`git baseline failed in ${repoDir}: ${lsFiles.stderr}${log.stderr}`);
  return { lsFilesMs: lsFiles.wallMs, logMs: log.wallMs, totalMs: lsFiles.wallMs + log.wallMs, cpuMs: lsFiles.cpuMs !== null && log.cpuMs !== null ? lsFiles.cpuMs + log.cpuMs : null, logBytes: log.stdoutBytes, rssKb: Math.max(lsFiles.rssKb ?? 0, log.rssKb ?? 0) };
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}
