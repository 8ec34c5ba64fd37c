// Builds a synthetic, deterministic git repository with one `git fast-import` stream.
// The history simulates a monorepo: files added over time under src/, packages/*/src,
// docs/ and tests/, edits, single-file renames (some with edits, some chained),
// directory moves, deletions, and a root package.json whose dependencies are swapped,
// removed and added and whose scripts come and go. Everything the generator did is
// returned as `meta` so memory sets can be built with known answers.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { Rng, PickSet } from './prng.mjs';
import { AREAS, WORDS, AUTHORS, TEAMS, packageNames, scriptNames, BASE_SCRIPTS } from './words.mjs';

/** Bump whenever the generated history changes: it is part of the cache key. */
export const GEN_VERSION = 3;

export const SIZES = {
  tiny: { files: 200, commits: 100, renames: 20, deletions: 8, dirMoves: 1, packages: 3, deps: 16, depSwaps: 2, depRemovals: 2, depAdds: 2, scriptAdds: 3, scriptRemovals: 3 },
  small: { files: 1000, commits: 1000, renames: 50, deletions: 20, dirMoves: 2, packages: 5, deps: 24, depSwaps: 4, depRemovals: 4, depAdds: 6, scriptAdds: 6, scriptRemovals: 5 },
  medium: { files: 20000, commits: 10000, renames: 1000, deletions: 400, dirMoves: 10, packages: 40, deps: 50, depSwaps: 12, depRemovals: 12, depAdds: 16, scriptAdds: 20, scriptRemovals: 14 },
  large: { files: 100000, commits: 50000, renames: 5000, deletions: 2000, dirMoves: 30, packages: 120, deps: 80, depSwaps: 30, depRemovals: 30, depAdds: 40, scriptAdds: 40, scriptRemovals: 30 },
};

const DIR_CAP = 40;
const T0 = Date.UTC(2022, 0, 3, 9, 0, 0) / 1000;

function git(cwd, args, opts = {}) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

/** Content of a generated file: unique per file id, so renames are always detectable. */
function fileContent(path, id, rev, edited) {
  const k = (id * 7919) % 100003;
  let s;
  if (path.endsWith('.md')) {
    s = `# Note ${id}\n\nThis page documents generated item ${id} (constant ${k}).\n\n- first point about ${id}\n- second point about ${k}\n- third point, id ${id}\n\nEnd of note ${id}.\n`;
  } else if (path.endsWith('.test.ts')) {
    s = `import { describe, it, expect } from 'vitest';\n\ndescribe('item ${id}', () => {\n  it('computes ${k}', () => {\n    const value = ${id} * 2;\n    expect(value).toBe(${id * 2});\n  });\n  it('keeps ${id}', () => {\n    expect(${k}).toBeGreaterThan(-1);\n  });\n});\n`;
  } else {
    s = `// item ${id}\nimport { helper } from './shared-${id % 97}';\n\nexport const ID_${id} = ${id};\n\nexport function fn${id}(x: number): number {\n  const k = ${k};\n  const y = helper(x) + ${id};\n  if (y > k) return y - k;\n  return y + k;\n}\n`;
  }
  if (edited) s += path.endsWith('.md') ? `\nMoved and edited (${id}).\n` : `// moved and edited (${id})\n`;
  for (let r = 1; r <= rev; r++) s += `// revision ${r} of ${id}\n`;
  return s;
}

function pkgJson(obj) {
  return JSON.stringify(obj, null, 2) + '\n';
}

/**
 * Generate the repository into `dir` (created; must not exist or be empty).
 * @returns {Promise<object>} meta
 */
export async function generateRepo(dir, spec, seed, { log = () => {} } = {}) {
  const rng = new Rng(seed * 7 + 1);
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'core.autocrlf', 'false']);
  git(dir, ['config', 'gc.auto', '0']);

  const fi = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
  let fiErr = '';
  fi.stderr.on('data', (b) => (fiErr += b));
  const fiDone = new Promise((resolve) => fi.on('close', resolve));
  let buf = [];
  let bufLen = 0;
  const write = async (s) => {
    buf.push(s);
    bufLen += s.length;
    if (bufLen > 1 << 20) await flush();
  };
  const flush = async () => {
    if (!bufLen) return;
    const chunk = buf.join('');
    buf = [];
    bufLen = 0;
    if (!fi.stdin.write(chunk)) await new Promise((r) => fi.stdin.once('drain', r));
  };

  // ------------------------------------------------------------------ state
  const live = new PickSet(); // live generated files (not manifests)
  const info = new Map(); // path -> { id, rev }
  const dirFiles = new Map(); // dir -> Set(paths)
  const openDirs = new PickSet(); // dirs that take new files
  const movableDirs = new PickSet(); // dirs with >= 3 files
  const everDirs = new Set();
  const renamedTo = new Map(); // old path -> new path (files)
  const renameEvents = []; // {from, to, commit, edited, viaDir}
  const deleted = new Map(); // path -> commit index
  const dirMoves = []; // {from, to, commit, files}
  let nameCounter = 0;
  let fileIdCounter = 0;

  const pkgRng = rng.fork(11);
  const taken = new Set(WORDS);
  const workspaces = packageNames(pkgRng, spec.packages, taken).map((n) => n.replace(/-.*/, '') + '-' + (n.length % 10));
  const wsNames = [...new Set(workspaces)];
  while (wsNames.length < spec.packages) wsNames.push(`pkg${wsNames.length}`);
  const depPool = packageNames(pkgRng, spec.deps + spec.depSwaps + spec.depAdds + 10, taken);
  const wsDepPool = packageNames(pkgRng, 30, taken);
  const scriptPool = scriptNames(pkgRng);

  const root = { deps: new Map(), dev: new Set(), scripts: new Map() };
  const ever = { deps: new Set(), scripts: new Set() };
  const depEvents = []; // {type:'removed'|'added'|'swapped', name, successor?, commit}
  const scriptEvents = []; // {type:'added'|'removed', name, commit}
  for (let i = 0; i < spec.deps; i++) {
    const n = depPool.shift();
    root.deps.set(n, `^${pkgRng.range(0, 9)}.${pkgRng.range(0, 30)}.${pkgRng.range(0, 20)}`);
    if (pkgRng.chance(0.35)) root.dev.add(n);
    ever.deps.add(n);
  }
  for (const s of BASE_SCRIPTS) root.scripts.set(s, s === 'test' ? 'vitest run' : `node scripts/${s}.mjs`);
  const initialScripts = Math.min(18, Math.max(6, spec.scriptRemovals + 4));
  for (let i = 0; i < initialScripts; i++) {
    const s = scriptPool.shift();
    root.scripts.set(s, `node scripts/${s.replace(':', '-')}.mjs`);
  }
  for (const s of root.scripts.keys()) ever.scripts.add(s);
  const removableScripts = () => [...root.scripts.keys()].filter((s) => !BASE_SCRIPTS.includes(s));

  const rootPkgText = () => {
    const deps = {};
    const dev = {};
    for (const [n, v] of [...root.deps].sort((a, b) => (a[0] < b[0] ? -1 : 1))) (root.dev.has(n) ? dev : deps)[n] = v;
    return pkgJson({ name: 'bench-monorepo', version: '1.0.0', private: true, workspaces: ['packages/*'], scripts: Object.fromEntries(root.scripts), dependencies: deps, devDependencies: dev });
  };

  const newDir = () => {
    for (;;) {
      const r = rng.next();
      let d;
      if (r < 0.45) d = `src/${rng.pick(AREAS)}/${rng.pick(WORDS)}`;
      else if (r < 0.8) d = `packages/${rng.pick(wsNames)}/src/${rng.pick(WORDS)}`;
      else if (r < 0.9) d = `docs/${rng.pick(WORDS)}`;
      else d = `tests/${rng.pick(AREAS)}`;
      if (everDirs.has(d)) d = `${d}-${++nameCounter}`;
      if (everDirs.has(d)) continue;
      everDirs.add(d);
      dirFiles.set(d, new Set());
      openDirs.add(d);
      return d;
    }
  };
  const extFor = (d) => (d.startsWith('docs/') ? '.md' : d.startsWith('tests/') || d.endsWith('/test') ? '.test.ts' : '.ts');
  const newName = (d) => `${d}/${rng.pick(WORDS)}-${rng.pick(WORDS)}-${++nameCounter}${extFor(d)}`;
  const dirOf = (p) => p.slice(0, p.lastIndexOf('/'));
  const attach = (p) => {
    const d = dirOf(p);
    let set = dirFiles.get(d);
    if (!set) {
      set = new Set();
      dirFiles.set(d, set);
      everDirs.add(d);
    }
    set.add(p);
    live.add(p);
    if (set.size >= DIR_CAP) openDirs.delete(d);
    if (set.size >= 3) movableDirs.add(d);
  };
  const detach = (p) => {
    const d = dirOf(p);
    const set = dirFiles.get(d);
    set.delete(p);
    live.delete(p);
    if (set.size < 3) movableDirs.delete(d);
  };

  let time = T0;
  let commitIdx = 0;
  const commitHeader = async (msg) => {
    time += rng.range(600, 5400);
    const [name, email] = AUTHORS[rng.int(AUTHORS.length)];
    const m = `${msg}\n`;
    await write(`commit refs/heads/main\nauthor ${name} <${email}> ${time} +0000\ncommitter ${name} <${email}> ${time} +0000\ndata ${Buffer.byteLength(m)}\n${m}`);
  };
  const inline = async (path, text) => {
    await write(`M 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
  };

  // ------------------------------------------------------------- plan the ops
  const created = spec.files - (wsNames.length + 2) + spec.deletions;
  const initialFiles = Math.floor(created * 0.4);
  const restCommits = spec.commits - 1;
  const addCommits = Math.max(1, Math.floor(restCommits * 0.45));
  const dirMoveBudget = Math.floor(spec.renames * 0.2);
  const tokens = [];
  for (let i = 0; i < addCommits; i++) tokens.push('add');
  for (let i = 0; i < spec.dirMoves; i++) tokens.push('dirmove');
  // single renames fill whatever the directory moves leave (tracked at run time)
  for (let i = 0; i < spec.renames; i++) tokens.push('rename');
  for (let i = 0; i < spec.deletions; i++) tokens.push('delete');
  for (let i = 0; i < spec.depSwaps; i++) tokens.push('depswap');
  for (let i = 0; i < spec.depRemovals; i++) tokens.push('depremove');
  for (let i = 0; i < spec.depAdds; i++) tokens.push('depadd');
  for (let i = 0; i < spec.scriptAdds; i++) tokens.push('scriptadd');
  for (let i = 0; i < spec.scriptRemovals; i++) tokens.push('scriptremove');
  rng.shuffle(tokens);
  // Directory moves happen in the first half of the history, so that single renames can
  // top the total up to exactly spec.renames afterwards.
  const half = Math.floor(Math.min(tokens.length, restCommits) / 2);
  for (let i = half; i < tokens.length; i++) {
    if (tokens[i] !== 'dirmove') continue;
    let j;
    do j = rng.int(half);
    while (tokens[j] === 'dirmove');
    tokens[i] = tokens[j];
    tokens[j] = 'dirmove';
  }
  // Keep the first 2% of commits free of destructive ops so there is something to rename.
  const perCommit = Array.from({ length: restCommits }, () => []);
  let ci = 0;
  for (const t of tokens) {
    perCommit[ci % restCommits].push(t);
    ci++;
  }
  const addsLeft = { files: created - initialFiles, commits: addCommits };

  // ------------------------------------------------------------ initial commit
  await commitHeader('chore: initial import');
  await inline('package.json', rootPkgText());
  await inline('README.md', '# bench-monorepo\n\nSynthetic repository generated by memory-audit bench.\n');
  for (const ws of wsNames) {
    const deps = {};
    for (let i = 0; i < 3; i++) deps[wsDepPool[(ws.length * 7 + i * 5) % wsDepPool.length]] = '^1.0.0';
    await inline(`packages/${ws}/package.json`, pkgJson({ name: `@bench/${ws}`, version: '0.1.0', scripts: { build: 'tsc -p .', test: 'vitest run' }, dependencies: deps }));
  }
  for (let i = 0; i < initialFiles; i++) {
    const d = openDirs.size > 0 && rng.chance(0.85) ? openDirs.pick(rng) : newDir();
    const p = newName(d);
    const id = ++fileIdCounter;
    info.set(p, { id, rev: 0, edited: false });
    attach(p);
    await inline(p, fileContent(p, id, 0, false));
  }
  await write('\n');
  commitIdx = 1;

  // ------------------------------------------------------------ the history
  let renamesDone = 0;
  let dirMovedFiles = 0;
  for (let c = 0; c < restCommits; c++, commitIdx++) {
    let ops = perCommit[c];
    if (ops.length === 0) ops = ['modify'];
    const lines = [];
    const msgs = [];
    let pkgTouched = false;
    for (const op of ops) {
      switch (op) {
        case 'add': {
          const n = Math.round(addsLeft.files / addsLeft.commits);
          addsLeft.files -= n;
          addsLeft.commits -= 1;
          for (let i = 0; i < n; i++) {
            const d = openDirs.size > 0 && rng.chance(0.85) ? openDirs.pick(rng) : newDir();
            const p = newName(d);
            const id = ++fileIdCounter;
            info.set(p, { id, rev: 0, edited: false });
            attach(p);
            lines.push(`M 100644 inline ${p}\ndata ${Buffer.byteLength(fileContent(p, id, 0, false))}\n${fileContent(p, id, 0, false)}\n`);
          }
          msgs.push(`feat: add ${n} file(s)`);
          break;
        }
        case 'modify': {
          const p = live.pick(rng);
          if (!p) break;
          const f = info.get(p);
          f.rev++;
          const t = fileContent(p, f.id, f.rev, f.edited);
          lines.push(`M 100644 inline ${p}\ndata ${Buffer.byteLength(t)}\n${t}\n`);
          msgs.push(`fix: update ${p.slice(p.lastIndexOf('/') + 1)}`);
          break;
        }
        case 'rename': {
          if (renamesDone + dirMovedFiles + (c < restCommits / 2 ? dirMoveBudget - dirMovedFiles : 0) >= spec.renames) break;
          const p = live.pick(rng);
          if (!p) break;
          let d = dirOf(p);
          if (rng.chance(0.4) && openDirs.size > 1) {
            const o = openDirs.pick(rng);
            if (o !== d && extFor(o) === extFor(d)) d = o;
          }
          const q = newName(d);
          const f = info.get(p);
          detach(p);
          info.delete(p);
          info.set(q, f);
          attach(q);
          renamedTo.set(p, q);
          const edited = rng.chance(0.3);
          lines.push(`R ${p} ${q}\n`);
          if (edited) {
            f.edited = true;
            const t = fileContent(q, f.id, f.rev, true);
            lines.push(`M 100644 inline ${q}\ndata ${Buffer.byteLength(t)}\n${t}\n`);
          }
          renameEvents.push({ from: p, to: q, commit: commitIdx, edited, viaDir: false });
          renamesDone++;
          msgs.push(`refactor: rename ${p} to ${q}`);
          break;
        }
        case 'dirmove': {
          if (dirMovedFiles >= dirMoveBudget) break;
          const room = Math.max(3, dirMoveBudget - dirMovedFiles);
          let d;
          for (let tries = 0; tries < 40; tries++) {
            const cand = movableDirs.pick(rng);
            if (cand && dirFiles.get(cand).size <= room && (!d || dirFiles.get(cand).size > dirFiles.get(d).size)) d = cand;
          }
          if (!d) break;
          const files = [...dirFiles.get(d)];
          const base = d.slice(d.lastIndexOf('/') + 1).replace(/-\d+$/, '');
          let to;
          do {
            if (d.startsWith('src/')) to = rng.chance(0.5) ? `packages/${rng.pick(wsNames)}/src/${base}-${++nameCounter}` : `src/${rng.pick(AREAS)}/${base}-${++nameCounter}`;
            else if (d.startsWith('packages/')) to = `src/${rng.pick(AREAS)}/${base}-${++nameCounter}`;
            else if (d.startsWith('docs/')) to = `docs/${rng.pick(TEAMS)}/${base}-${++nameCounter}`;
            else to = `tests/${rng.pick(AREAS)}-${++nameCounter}`;
          } while (everDirs.has(to));
          everDirs.add(to);
          openDirs.delete(d);
          lines.push(`R ${d} ${to}\n`);
          const moved = [];
          for (const p of files) {
            const q = `${to}/${p.slice(d.length + 1)}`;
            const f = info.get(p);
            detach(p);
            info.delete(p);
            info.set(q, f);
            attach(q);
            renamedTo.set(p, q);
            renameEvents.push({ from: p, to: q, commit: commitIdx, edited: false, viaDir: true });
            moved.push(p);
          }
          dirMovedFiles += files.length;
          if (dirFiles.get(to).size < DIR_CAP) openDirs.add(to);
          dirMoves.push({ from: d, to, commit: commitIdx, files: files.length });
          msgs.push(`refactor: move ${d}/ to ${to}/`);
          break;
        }
        case 'delete': {
          const p = live.pick(rng);
          if (!p) break;
          detach(p);
          info.delete(p);
          deleted.set(p, commitIdx);
          lines.push(`D ${p}\n`);
          msgs.push(`chore: delete ${p}`);
          break;
        }
        case 'depswap': {
          const cands = [...root.deps.keys()];
          const x = cands[rng.int(cands.length)];
          const y = depPool.shift();
          if (!x || !y) break;
          const dev = root.dev.has(x);
          root.deps.delete(x);
          root.dev.delete(x);
          root.deps.set(y, `^${rng.range(1, 9)}.${rng.range(0, 20)}.0`);
          if (dev) root.dev.add(y);
          ever.deps.add(y);
          depEvents.push({ type: 'swapped', name: x, successor: y, commit: commitIdx });
          pkgTouched = true;
          msgs.push(`deps: replace ${x} with ${y}`);
          break;
        }
        case 'depremove': {
          const cands = [...root.deps.keys()];
          if (cands.length < 5) break;
          const x = cands[rng.int(cands.length)];
          root.deps.delete(x);
          root.dev.delete(x);
          depEvents.push({ type: 'removed', name: x, commit: commitIdx });
          pkgTouched = true;
          msgs.push(`deps: drop ${x}`);
          break;
        }
        case 'depadd': {
          const y = depPool.shift();
          if (!y) break;
          root.deps.set(y, `^${rng.range(1, 9)}.${rng.range(0, 20)}.0`);
          ever.deps.add(y);
          depEvents.push({ type: 'added', name: y, commit: commitIdx });
          pkgTouched = true;
          msgs.push(`deps: add ${y}`);
          break;
        }
        case 'scriptadd': {
          const s = scriptPool.shift();
          if (!s) break;
          root.scripts.set(s, `node scripts/${s.replace(':', '-')}.mjs`);
          ever.scripts.add(s);
          scriptEvents.push({ type: 'added', name: s, commit: commitIdx });
          pkgTouched = true;
          msgs.push(`build: add script ${s}`);
          break;
        }
        case 'scriptremove': {
          const cands = removableScripts();
          if (cands.length < 3) break;
          const s = cands[rng.int(cands.length)];
          root.scripts.delete(s);
          scriptEvents.push({ type: 'removed', name: s, commit: commitIdx });
          pkgTouched = true;
          msgs.push(`build: remove script ${s}`);
          break;
        }
      }
    }
    if (pkgTouched) {
      const t = rootPkgText();
      lines.push(`M 100644 inline package.json\ndata ${Buffer.byteLength(t)}\n${t}\n`);
    }
    if (lines.length === 0) {
      // nothing applicable happened: make it a modify so the commit is not empty
      const p = live.pick(rng);
      const f = info.get(p);
      f.rev++;
      const t = fileContent(p, f.id, f.rev, f.edited);
      lines.push(`M 100644 inline ${p}\ndata ${Buffer.byteLength(t)}\n${t}\n`);
      msgs.push(`fix: update ${p.slice(p.lastIndexOf('/') + 1)}`);
    }
    await commitHeader(msgs.join('; ').slice(0, 200));
    for (const l of lines) await write(l);
    await write('\n');
    if (c % 5000 === 0 && c) log(`  ${c}/${restCommits} commits`);
  }
  await write('done\n');
  await flush();
  fi.stdin.end();
  const code = await fiDone;
  if (code !== 0) throw new Error(`git fast-import failed (${code}): ${fiErr}`);
  git(dir, ['reset', '--hard', '-q']);

  const manifests = ['package.json', ...wsNames.map((w) => `packages/${w}/package.json`)];
  const livePaths = [...live.items].sort();
  return {
    genVersion: GEN_VERSION,
    seed,
    spec,
    commits: spec.commits,
    lastTime: time,
    head: git(dir, ['rev-parse', 'HEAD']).trim(),
    livePaths,
    manifests,
    workspaces: wsNames,
    renameEvents,
    deleted: [...deleted].map(([path, commit]) => ({ path, commit })),
    dirMoves,
    dirsAtHead: [...dirFiles].filter(([, s]) => s.size > 0).map(([d]) => d).sort(),
    deps: { head: [...root.deps.keys()].sort(), ever: [...ever.deps].sort(), events: depEvents, workspaceDeps: wsDepPool },
    scripts: { head: [...root.scripts.keys()].sort(), ever: [...ever.scripts].sort(), events: scriptEvents },
    stats: { renames: renamesDone + dirMovedFiles, singleRenames: renamesDone, dirMovedFiles, deletions: deleted.size, files: livePaths.length + manifests.length + 1 },
  };
}

/** Path of a repo's cache folder: keyed by size, seed and generator version. */
export function repoCacheDir(cacheRoot, sizeName, seed) {
  return join(cacheRoot, `repo-${sizeName}-s${seed}-g${GEN_VERSION}`);
}

/** Build (or reuse) the cached repository for a size. */
export async function ensureRepo(cacheRoot, sizeName, seed, { log = () => {}, spec } = {}) {
  const s = spec ?? SIZES[sizeName];
  if (!s) throw new Error(`unknown size ${sizeName}`);
  const dir = repoCacheDir(cacheRoot, sizeName, seed);
  const metaFile = `${dir}.meta.json`;
  if (existsSync(metaFile) && existsSync(join(dir, '.git'))) {
    return { dir, meta: JSON.parse(readFileSync(metaFile, 'utf8')), cached: true, seconds: 0 };
  }
  rmSync(dir, { recursive: true, force: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const t0 = performance.now();
  log(`building ${sizeName} repository (${s.files} files, ${s.commits} commits, seed ${seed})...`);
  const meta = await generateRepo(tmp, s, seed, { log });
  renameSync(tmp, dir);
  const seconds = (performance.now() - t0) / 1000;
  meta.buildSeconds = seconds;
  writeFileSync(metaFile, JSON.stringify(meta));
  log(`built ${sizeName} in ${seconds.toFixed(1)} s`);
  return { dir, meta, cached: false, seconds };
}

/** What became of a path at HEAD: present, renamed (final successor) or deleted. */
export function makeFate(meta) {
  const liveSet = new Set(meta.livePaths);
  const renamed = new Map(meta.renameEvents.map((e) => [e.from, e.to]));
  const del = new Map(meta.deleted.map((d) => [d.path, d.commit]));
  return (p) => {
    if (liveSet.has(p)) return { status: 'present' };
    let cur = p;
    let hops = 0;
    while (renamed.has(cur)) {
      cur = renamed.get(cur);
      hops++;
    }
    if (hops && liveSet.has(cur)) return { status: 'renamed', successor: cur, hops };
    if (del.has(cur)) return { status: 'deleted', commit: del.get(cur), hops };
    return { status: 'unknown' };
  };
}
