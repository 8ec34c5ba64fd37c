// Commits a generated memory set on its own branch (one small fast-import stream on top of
// the repository's main branch), caches the known answers next to the repository, and
// checks the branch out so the working tree holds exactly that memory set.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { generateMemory, MEM_VERSION } from './memory.mjs';

function git(cwd, args, input) {
  const r = spawnSync('git', args, { cwd, input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

export function memBranch(n, seed) {
  return `mem-${n}-s${seed}-m${MEM_VERSION}`;
}

/** Make sure the memory set exists as a branch and is checked out; returns its answers. */
export function ensureMemorySet(repoDir, meta, n, seed) {
  const branch = memBranch(n, seed);
  const answersFile = `${repoDir}.${branch}.answers.json`;
  let answers;
  const haveBranch = spawnSync('git', ['rev-parse', '-q', '--verify', `refs/heads/${branch}`], { cwd: repoDir }).status === 0;
  if (haveBranch && existsSync(answersFile)) {
    answers = JSON.parse(readFileSync(answersFile, 'utf8'));
  } else {
    const gen = generateMemory(meta, n, seed);
    answers = gen.answers;
    const t = (meta.lastTime ?? 1700000000) + 3600;
    const msg = `docs: agent memory (${n} entries)\n`;
    const parts = [
      `commit refs/heads/${branch}\nauthor Bench Bot <bench@example.com> ${t} +0000\ncommitter Bench Bot <bench@example.com> ${t} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}from refs/heads/main^0\n`,
    ];
    for (const f of gen.files) parts.push(`M 100644 inline ${f.path}\ndata ${Buffer.byteLength(f.text)}\n${f.text}\n`);
    parts.push('\ndone\n');
    git(repoDir, ['fast-import', '--quiet', '--done', '--force'], parts.join(''));
    answers.branch = branch;
    writeFileSync(answersFile, JSON.stringify(answers));
  }
  checkout(repoDir, branch);
  return answers;
}

/** Switch the work tree to a branch and drop anything a previous run left behind. */
export function checkout(repoDir, branch) {
  git(repoDir, ['checkout', '-q', '-f', branch]);
  git(repoDir, ['clean', '-q', '-fdx']);
}
