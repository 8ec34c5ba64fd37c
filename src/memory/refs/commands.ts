// Parsing shell commands into script, package and path references.
import { isSpaceCode } from './chars.js';

export type Tool = 'npm' | 'pnpm' | 'yarn' | 'bun' | 'npx' | 'make' | 'just' | 'pip' | 'cargo' | 'go' | 'other';

/** Built-in commands per tool: `pnpm <x>` with x in this list is not a script. */
export const BUILTINS: Record<'npm' | 'pnpm' | 'yarn' | 'bun', Set<string>> = {
  npm: new Set(
    (
      'access adduser audit bugs cache ci completion config dedupe deprecate diff dist-tag docs doctor edit exec explain ' +
      'explore find-dupes fund get help help-search hook init install install-ci-test install-test link ll login logout ls ' +
      'org outdated owner pack ping pkg prefix profile prune publish query rebuild repo root run run-script sbom search set ' +
      'shrinkwrap star stars team token undeprecate uninstall unpublish unstar update version view whoami i in ins inst insta ' +
      'instal isnt isnta isntal add un remove rm r unlink list la up upgrade c x create t tst test start stop restart it cit ' +
      'clean-install issues home v info show author rb s se find why'
    ).split(/\s+/),
  ),
  pnpm: new Set(
    (
      'add install i update up upgrade remove rm uninstall un link ln unlink import rebuild rb prune fetch install-test it ' +
      'patch patch-commit patch-remove audit list ls outdated why licenses run exec dlx create start test t tst publish pack ' +
      'recursive server store root bin setup init deploy doctor config c env self-update cat-file cat-index find-hash ' +
      'sbom approve-builds ignored-builds dedupe catalog help completion -r --recursive'
    ).split(/\s+/),
  ),
  yarn: new Set(
    (
      'add audit autoclean bin cache check config create dedupe dlx exec explain generate-lock-entry global help import ' +
      'info init install licenses link list login logout node npm outdated owner pack patch patch-commit plugin policies ' +
      'publish rebuild remove run search set tag team test start unlink unplug up upgrade upgrade-interactive version ' +
      'versions why workspace workspaces constraints stage'
    ).split(/\s+/),
  ),
  bun: new Set(
    (
      'run test x repl exec install i add a remove rm update outdated link unlink pm build init create upgrade publish ' +
      'patch patch-commit audit info why feedback completions help'
    ).split(/\s+/),
  ),
};

/** npm runs these lifecycle scripts without `run`. */
const NPM_SCRIPT_SHORTCUTS = new Set(['test', 't', 'tst', 'start', 'stop', 'restart']);
const INSTALL_VERBS = new Set(['i', 'install', 'add', 'in', 'ins', 'a']);

export interface CommandPiece {
  kind: 'script' | 'package' | 'path' | 'tool';
  tool?: Tool;
  /** Offset of the token (or of the command for scripts) within the command line. */
  start: number;
  end: number;
  value: string;
  script?: string;
  workspace?: string;
  /** For scripts: a folder the command runs in (`cd x &&`, `make -C x`, `npm --prefix x`). */
  cwd?: string;
  makefile?: string;
  /** Paths: known to be a folder (`cd x`). */
  dir?: boolean;
}

interface Tok { t: string; s: number; e: number }

export function tokenize(line: string): Tok[] {
  const out: Tok[] = [];
  const re = /"[^"]*"|'[^']*'|[^\s]+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push({ t: m[0], s: m.index, e: m.index + m[0].length });
  return out;
}

const SEPARATORS = /^(?:&&|\|\||;|\||&)$/;
/** Package-manager options naming a workspace or a folder (their value follows). */
const TARGET_OPTIONS = new Set(['--filter', '-F', '--workspace', '-w', '--prefix', '-C', '--dir', '--cwd']);

export const KNOWN_TOOLS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'npx', 'bunx', 'pnpx', 'make', 'just', 'pip', 'pip3', 'cargo', 'go', 'uv', 'poetry', 'pipx']);

/** Does a line start like a command? Used to decide whether an unlabelled fence is shell. */
export function looksLikeCommand(line: string): boolean {
  const t = line.trim().replace(/^\$\s+/, '');
  if (!t) return false;
  // The first word (t starts with one): up to the first whitespace.
  let e = 0;
  while (e < t.length && !isSpaceCode(t.charCodeAt(e))) e++;
  const w = e === t.length ? t : t.slice(0, e);
  return (
    KNOWN_TOOLS.has(w) ||
    /^(?:git|docker|docker-compose|node|python3?|deno|cd|ls|cat|echo|export|curl|wget|gh|brew|apt(?:-get)?|sudo|mkdir|rm|cp|mv|source|\.\/[\w./-]+|bash|sh|kubectl|terraform|psql|sqlite3|pytest|tsc|eslint|vitest|jest|uvx|pre-commit|golangci-lint|rustup|conda|pipenv|rake|bundle|gradle|mvn|dotnet|swift|flutter|composer|php)$/.test(w)
  );
}

/**
 * Parses one command line (no newline) into pieces. Segments separated by && ; | are
 * parsed independently; `cd dir &&` sets the folder for what follows.
 */
export function parseCommandLine(line: string): CommandPiece[] {
  const toks = tokenize(line);
  const out: CommandPiece[] = [];
  let seg: Tok[] = [];
  let cwd: string | undefined;
  const flush = () => {
    if (seg.length) {
      const cd = parseSegment(seg, cwd, out);
      if (cd !== undefined) cwd = cd;
    }
    seg = [];
  };
  for (const t of toks) {
    if (t.t.length <= 2 && SEPARATORS.test(t.t)) {
      flush();
      continue;
    }
    if (t.t.startsWith('#') && (t.s === 0 || /\s/.test(line[t.s - 1]))) break; // comment
    seg.push(t);
  }
  flush();
  return out;
}

function unquote(t: string): string {
  return t.replace(/^["']|["']$/g, '');
}

/** Returns a new cwd when the segment is `cd dir`. */
function parseSegment(seg: Tok[], cwd: string | undefined, out: CommandPiece[]): string | undefined {
  let i = 0;
  while (i < seg.length && /^\$$/.test(seg[i].t)) i++; // prompt
  while (i < seg.length && /^[A-Z_][A-Z0-9_]*=/.test(seg[i].t)) i++; // env assignments
  if (i < seg.length && (seg[i].t === 'sudo' || seg[i].t === 'time' || seg[i].t === 'exec')) i++;
  if (i >= seg.length) return undefined;
  const head = seg[i];
  const w = head.t;
  const rest = seg.slice(i + 1);
  if (w === 'cd' && rest.length) {
    const d = unquote(rest[0].t);
    out.push({ kind: 'path', start: rest[0].s, end: rest[0].e, value: rest[0].t, dir: true });
    return d.replace(/^\.\//, '').replace(/\/$/, '');
  }

  if (w === 'npm' || w === 'pnpm' || w === 'yarn' || w === 'bun') {
    const tool = w as 'npm' | 'pnpm' | 'yarn' | 'bun';
    let workspace: string | undefined;
    let dir = cwd;
    let k = 0;
    // Leading options.
    while (k < rest.length && rest[k].t.startsWith('-')) {
      const o = rest[k].t;
      const eq = o.indexOf('=');
      const name = eq === -1 ? o : o.slice(0, eq);
      const val = eq === -1 ? rest[k + 1]?.t : o.slice(eq + 1);
      if (name === '-r' || name === '--recursive' || name === '--workspaces' || name === '-ws') {
        workspace = '*';
        k++;
        continue;
      }
      if (TARGET_OPTIONS.has(name)) {
        if (name === '-w' && tool === 'pnpm') {
          k++;
          continue; // pnpm -w = workspace root
        }
        if (name === '--prefix' || name === '-C' || name === '--dir' || name === '--cwd') {
          dir = val && unquote(val).replace(/^\.\//, '').replace(/\/$/, '');
          // The folder is a path reference of its own, like the target of `cd dir &&`: a moved
          // folder breaks `pnpm -C dir x` / `npm --prefix dir run x` just as it breaks `cd dir`.
          folderPiece(rest[k], eq === -1 ? rest[k + 1] : undefined, eq, out);
        } else workspace = val && unquote(val);
        k += eq === -1 ? 2 : 1;
        continue;
      }
      k++;
    }
    if (tool === 'yarn' && rest[k]?.t === 'workspace' && rest[k + 1]) {
      workspace = unquote(rest[k + 1].t);
      k += 2;
    }
    const sub = rest[k];
    if (!sub) return undefined;
    const subName = sub.t;
    if (subName === 'run' || subName === 'run-script' || (tool === 'bun' && subName === 'run')) {
      let j = k + 1;
      while (j < rest.length && rest[j].t.startsWith('-')) j++;
      const s = rest[j];
      if (!s) return undefined;
      const name = unquote(s.t);
      if (tool === 'bun' && (/[/.]/.test(name) && /\.[cm]?[jt]sx?$|\//.test(name))) {
        out.push({ kind: 'path', start: s.s, end: s.e, value: name });
        return undefined;
      }
      const after = trailingOptions(rest.slice(j + 1));
      out.push({ kind: 'script', tool, start: head.s, end: s.e, value: `${w} ${subName} ${name}`, script: name, workspace: workspace ?? after.workspace, cwd: after.cwd ?? dir });
      scanArgs(rest.slice(j + 1), out);
      return undefined;
    }
    if (INSTALL_VERBS.has(subName) || (tool === 'npm' && (subName === 'uninstall' || subName === 'list' || subName === 'ls')) || subName === 'remove' || subName === 'why') {
      for (const a of rest.slice(k + 1)) {
        if (a.t.startsWith('-')) continue;
        pushPackage(a, out, tool);
      }
      return undefined;
    }
    if (subName === 'dlx' || subName === 'exec' || subName === 'x' || (tool === 'npm' && subName === 'exec')) {
      const a = rest.slice(k + 1).find((x) => !x.t.startsWith('-'));
      if (a) pushPackage(a, out, 'npx', true);
      return undefined;
    }
    const builtins = BUILTINS[tool];
    if (tool === 'npm') {
      if (NPM_SCRIPT_SHORTCUTS.has(subName)) {
        const name = subName === 't' || subName === 'tst' ? 'test' : subName;
        const after = trailingOptions(rest.slice(k + 1));
        out.push({ kind: 'script', tool, start: head.s, end: sub.e, value: `${w} ${subName}`, script: name, workspace: workspace ?? after.workspace, cwd: after.cwd ?? dir });
      }
      return undefined;
    }
    if (tool === 'bun' && subName === 'test') {
      scanArgs(rest.slice(k + 1), out); // bun's own test runner
      return undefined;
    }
    if ((tool === 'pnpm' || tool === 'yarn') && (subName === 'test' || subName === 'start' || subName === 't')) {
      const after = trailingOptions(rest.slice(k + 1));
      out.push({ kind: 'script', tool, start: head.s, end: sub.e, value: `${w} ${subName}`, script: subName === 't' ? 'test' : subName, workspace: workspace ?? after.workspace, cwd: after.cwd ?? dir });
      return undefined;
    }
    if (builtins.has(subName) || subName.startsWith('-')) {
      scanArgs(rest.slice(k + 1), out);
      return undefined;
    }
    if (!/^[\w:.@/-]+$/.test(subName)) return undefined;
    if (tool === 'bun' && /\.[cm]?[jt]sx?$/.test(subName)) {
      out.push({ kind: 'path', start: sub.s, end: sub.e, value: subName });
      return undefined;
    }
    const after = trailingOptions(rest.slice(k + 1));
    out.push({ kind: 'script', tool, start: head.s, end: sub.e, value: `${w} ${subName}`, script: subName, workspace: workspace ?? after.workspace, cwd: after.cwd ?? dir });
    // `pnpm vitest`, `yarn eslint .`: without a script of that name the tool runs the package's binary.
    if (/^[a-z@][\w.@/-]*$/.test(subName) && !subName.includes(':')) out.push({ kind: 'package', tool, start: sub.s, end: sub.e, value: subName });
    scanArgs(rest.slice(k + 1), out);
    return undefined;
  }
  if (w === 'npx' || w === 'bunx' || w === 'pnpx' || w === 'uvx' || w === 'pipx') {
    let k = 0;
    while (k < rest.length && rest[k].t.startsWith('-')) {
      if (rest[k].t === '-p' || rest[k].t === '--package') {
        if (rest[k + 1]) pushPackage(rest[k + 1], out, 'npx', true);
        k += 2;
        continue;
      }
      k++;
    }
    if (w === 'pipx' && rest[k] && (rest[k].t === 'run' || rest[k].t === 'install')) k++;
    if (rest[k]) pushPackage(rest[k], out, w === 'uvx' || w === 'pipx' ? 'pip' : 'npx', true);
    scanArgs(rest.slice(k + 1), out);
    return undefined;
  }
  if (w === 'make' || w === 'just') {
    const tool = w as 'make' | 'just';
    let dir = cwd;
    let makefile: string | undefined;
    for (let k = 0; k < rest.length; k++) {
      const a = rest[k].t;
      if (a === '-C' || a === '--directory' || a === '-d' || a === '--justfile' || a === '-f' || a === '--file' || a === '--working-directory') {
        const v = rest[k + 1] && unquote(rest[k + 1].t);
        // `make -C dir`, `just --working-directory dir`, `make -f build/Makefile`: the folder or
        // file is a path reference too (a moved folder breaks the command).
        if (rest[k + 1]) folderPiece(rest[k], rest[k + 1], -1, out, a === '-f' || a === '--file' || a === '--justfile');
        if (a === '-f' || a === '--file' || a === '--justfile') makefile = v;
        else dir = v?.replace(/^\.\//, '').replace(/\/$/, '');
        k++;
        continue;
      }
      if (a.startsWith('-') || a.includes('=')) continue;
      if (!/^[\w.:/%-]+$/.test(a)) break;
      if (tool === 'just' && k > 0 && !rest.slice(0, k).every((x) => x.t.startsWith('-'))) break; // just recipe arguments
      const first = !out.some((p) => p.kind === 'script' && p.start === head.s);
      out.push({
        kind: 'script',
        tool,
        start: first ? head.s : rest[k].s,
        end: rest[k].e,
        value: `${w} ${a}`,
        script: a,
        cwd: dir,
        makefile,
      });
    }
    return undefined;
  }
  if (w === 'pip' || w === 'pip3' || (w === 'uv' && rest[0]?.t === 'pip') || ((w === 'python' || w === 'python3') && rest[0]?.t === '-m' && rest[1]?.t === 'pip')) {
    const skip = w === 'uv' ? 1 : w.startsWith('python') ? 2 : 0;
    const r = rest.slice(skip);
    if (r[0] && (r[0].t === 'install' || r[0].t === 'uninstall' || r[0].t === 'show')) {
      for (let k = 1; k < r.length; k++) {
        const a = r[k].t;
        if (a === '-r' || a === '--requirement' || a === '-c' || a === '-e' || a === '--editable') {
          if (r[k + 1] && a !== '-e' && a !== '--editable') out.push({ kind: 'path', start: r[k + 1].s, end: r[k + 1].e, value: unquote(r[k + 1].t) });
          k++;
          continue;
        }
        if (a.startsWith('-') || a === '.') continue;
        pushPackage(r[k], out, 'pip');
      }
    }
    return undefined;
  }
  if ((w === 'uv' || w === 'poetry') && (rest[0]?.t === 'add' || rest[0]?.t === 'remove')) {
    for (const a of rest.slice(1)) if (!a.t.startsWith('-')) pushPackage(a, out, 'pip');
    return undefined;
  }
  if ((w === 'uv' || w === 'poetry') && rest[0]?.t === 'run') {
    let k = 1;
    while (k < rest.length && rest[k].t.startsWith('-')) k++;
    if (rest[k] && !/^(python3?|-m)$/.test(rest[k].t) && !/[/.]/.test(rest[k].t)) pushPackage(rest[k], out, 'pip', true);
    scanArgs(rest.slice(k + 1), out);
    return undefined;
  }
  if (w === 'cargo') {
    if (rest[0] && (rest[0].t === 'add' || rest[0].t === 'install')) for (const a of rest.slice(1)) if (!a.t.startsWith('-')) pushPackage(a, out, 'cargo');
    scanArgs(rest, out);
    return undefined;
  }
  if (w === 'go') {
    if (rest[0] && (rest[0].t === 'get' || rest[0].t === 'install')) {
      for (const a of rest.slice(1)) if (!a.t.startsWith('-') && !a.t.startsWith('.')) pushPackage(a, out, 'go');
      return undefined;
    }
    scanArgs(rest, out);
    return undefined;
  }
  if (/^\.{0,2}\/?[\w.-]+\/[\w./-]+$/.test(w) || /^\.\/[\w.-]+\.\w+$/.test(w)) {
    out.push({ kind: 'path', start: head.s, end: head.e, value: w });
    scanArgs(rest, out);
    return undefined;
  }
  // Any other command: the program may be a dependency (`tsdown`, `pm2 list`); its args may be paths.
  if (/^[a-z][\w.-]*$/.test(w) && !/^(git|cd|ls|cat|echo|export|curl|wget|gh|brew|sudo|mkdir|rm|cp|mv|source|bash|sh|node|python3?|docker|docker-compose|kubectl|psql|test|set|if|then|fi|for|do|done|grep|find|sed|awk|chmod|touch|open|code|claude|tail|head|kill|pkill|jq|xargs|tee|env|which|read|true|false|exit|return|printf)$/.test(w)) {
    out.push({ kind: 'tool', tool: 'other', start: head.s, end: head.e, value: w });
  }
  scanArgs(rest, out);
  return undefined;
}

/**
 * The value of a folder option (`-C dir`, `--prefix dir`, `--dir=dir`) as a path piece: the
 * separate token after the option, or the part after `=`. `isFile` for `-f Makefile`.
 */
function folderPiece(opt: Tok, next: Tok | undefined, eq: number, out: CommandPiece[], isFile = false): void {
  if (eq !== -1) {
    const v = opt.t.slice(eq + 1);
    if (v) out.push({ kind: 'path', start: opt.s + eq + 1, end: opt.e, value: v, ...(isFile ? {} : { dir: true }) });
    return;
  }
  if (!next || next.t.startsWith('-')) return;
  out.push({ kind: 'path', start: next.s, end: next.e, value: next.t, ...(isFile ? {} : { dir: true }) });
}

/** `npm run build -w web`, `--workspace=web`, `--prefix dir` written after the script name (before `--`). */
function trailingOptions(args: Tok[]): { workspace?: string; cwd?: string } {
  const out: { workspace?: string; cwd?: string } = {};
  for (let k = 0; k < args.length; k++) {
    const o = args[k].t;
    if (o === '--') break;
    const eq = o.indexOf('=');
    const name = eq === -1 ? o : o.slice(0, eq);
    const val = eq === -1 ? args[k + 1]?.t : o.slice(eq + 1);
    if (name === '-ws' || name === '--workspaces' || name === '-r' || name === '--recursive') out.workspace = '*';
    else if ((name === '-w' || name === '--workspace' || name === '--filter' || name === '-F') && val) out.workspace = unquote(val);
    else if ((name === '--prefix' || name === '-C' || name === '--dir') && val) out.cwd = unquote(val).replace(/^\.\//, '').replace(/\/$/, '');
  }
  return out;
}

function pushPackage(t: Tok, out: CommandPiece[], tool: Tool, fetched = false): void {
  let v = unquote(t.t);
  // Strip version specifiers: foo@1.2, @scope/foo@latest, foo==1.0, foo>=1, foo[extra].
  let name = v.replace(/\[.*$/, '').replace(/(?:==|>=|<=|~=|!=|>|<).*$/, '');
  if (name.startsWith('@')) {
    const at = name.indexOf('@', 1);
    if (at > 0) name = name.slice(0, at);
  } else if (name.includes('@')) name = name.slice(0, name.indexOf('@'));
  if (!/^(@[\w.-]+\/)?[\w.-]+$/.test(name) && !(tool === 'go' && /^[\w.-]+(\/[\w.-]+)+$/.test(name))) return;
  if (/^\d/.test(name) || name.length < 2) return;
  out.push({ kind: 'package', tool, start: t.s + (t.t.startsWith('"') || t.t.startsWith("'") ? 1 : 0), end: t.s + (t.t.startsWith('"') || t.t.startsWith("'") ? 1 : 0) + name.length, value: name, ...(fetched && v !== name ? { script: 'registry' } : fetched ? { script: 'exec' } : {}) });
}

function scanArgs(args: Tok[], out: CommandPiece[]): void {
  for (const a of args) {
    if (a.t.startsWith('-')) {
      const eq = a.t.indexOf('=');
      if (eq > 0) {
        const v = a.t.slice(eq + 1);
        if (v) out.push({ kind: 'path', start: a.s + eq + 1, end: a.e, value: v });
      }
      continue;
    }
    out.push({ kind: 'path', start: a.s, end: a.e, value: a.t });
  }
}
