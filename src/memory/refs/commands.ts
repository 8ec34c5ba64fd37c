// Parsing shell commands into script, package and path references.
import { isSpaceCode } from './chars.js';
import { FILE_EXTENSIONS, pytestNodePath } from './paths.js';

export type Tool = 'npm' | 'pnpm' | 'yarn' | 'bun' | 'npx' | 'make' | 'just' | 'pip' | 'cargo' | 'go' | 'composer' | 'deno' | 'task' | 'turbo' | 'nx' | 'other';

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

/**
 * Composer's own commands and their aliases (getcomposer.org/doc/03-cli.md, and Symfony
 * Console's `list`, `help`, `completion`): `composer <x>` with x in this list runs no script.
 */
export const COMPOSER_BUILTINS = new Set(
  (
    'about archive audit browse home bump check-platform-reqs clear-cache clearcache cc completion config ' +
    'create-project depends why diagnose dump-autoload dumpautoload exec fund global help init install i licenses ' +
    'list outdated prohibits why-not reinstall remove rm uninstall repository repo require r run-script run search ' +
    'self-update selfupdate show info status suggests update u upgrade validate _complete'
  ).split(/\s+/),
);

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
  /** The workspace package selected (`--filter x`, `-w x`, `yarn workspace x`); for paths, the one they are relative to. */
  workspace?: string;
  /**
   * The folder the command runs in (`cd x &&`, `cd x` on an earlier line of the fence, `make -C x`,
   * `npm --prefix x`): for scripts, where the manifest is looked up; for paths, the folder they are
   * relative to (only a folder inside the memory file's tree: see `insideFolder`).
   */
  cwd?: string;
  makefile?: string;
  /** Paths: known to be a folder (`cd x`). */
  dir?: boolean;
  /** Paths: low confidence (the path-like value of `NAME=value`, which may be a non-path such as `linux/amd64`). */
  weak?: boolean;
  /** Paths: a fully-qualified class name given to a test filter (`--tests com.acme.FooTest`), its class part only (see `splitFqcn`). */
  fqcn?: boolean;
}

/**
 * The folder a shell fence is in, carried from line to line: `cd web` on a line of its own
 * sets it for the lines below (the fence is a script run top to bottom); `prev` is for `cd -`.
 * `undefined` is the memory file's folder (where a reader starts).
 */
export interface ShellState {
  cwd?: string;
  prev?: string;
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
/**
 * A word ending in a separator: the word, then `;`, `&`, `|`, `&&` or `||`. Not after a backslash
 * (`find … -exec rm {} \;`: an escaped `;` is find's argument) nor in a quoted word (`"a;"`, whose
 * last character is the quote), and only when the word itself is not separators alone.
 */
const TRAILING_SEPARATOR = /^(.*[^;&|\\])(?:;|&&|\|\||\||&)$/s;
/** Package-manager options naming a workspace or a folder (their value follows). */
const TARGET_OPTIONS = new Set(['--filter', '-F', '--workspace', '-w', '--prefix', '-C', '--dir', '--cwd']);

// `task` is go-task's command. As a line's or a code span's first word it is read as the command,
// like `make` and `just`; in prose the word is left alone (the prose scanner never reads it).
export const KNOWN_TOOLS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'npx', 'bunx', 'pnpx', 'make', 'just', 'pip', 'pip3', 'cargo', 'go', 'uv', 'poetry', 'pipx', 'task']);

/** First words of commands of other ecosystems that `looksLikeCommand` accepts (see there). */
const OTHER_TOOL_WORDS = new Set([
  'pwsh', 'powershell', 'java', 'javac', 'kotlin', 'kotlinc', 'sbt', 'ant', 'msbuild', 'nuget', 'xcodebuild', 'xcrun',
  'swiftlint', 'swiftformat', 'fastlane', 'pod', 'tuist', 'xcodegen', 'mix', 'iex', 'elixir', 'gradlew', 'gradlew.bat',
  'dart', 'fvm',
]);

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
    // Python task runners (their scripts are read by `pythonRunnerPieces`).
    w === 'hatch' || w === 'pdm' || w === 'poe' || w === 'poethepoet' ||
    /^(?:git|docker|docker-compose|node|python3?|deno|cd|ls|cat|echo|export|curl|wget|gh|brew|apt(?:-get)?|sudo|mkdir|rm|cp|mv|source|\.\/[\w./-]+|bash|sh|kubectl|terraform|psql|sqlite3|pytest|tsc|eslint|vitest|jest|uvx|pre-commit|golangci-lint|rustup|conda|pipenv|rake|bundle|gradle|mvnd?|dotnet|swift|flutter|composer|php)$/.test(w) ||
    // PowerShell, the JVM, .NET, Apple and Elixir tool words (`pwsh dev/migrate.ps1`, `xcodebuild
    // -scheme App`, `mix credo`): the first word of a command line in the memory of such projects.
    OTHER_TOOL_WORDS.has(w) ||
    // Monorepo task runners (`turbo run build --filter=web`, `nx run web:e2e`): their tasks and
    // selectors are read (see `monorepoRunnerPieces`).
    MONOREPO_RUNNERS.has(w) ||
    // A wrapper (`env X=1`, `ssh host`, `../tools/dev`…) running a package-manager or task command.
    ((w.includes('/') || WRAPPER_WORDS.has(w)) && unwrap(tokenize(t), 0, [], undefined) !== -1) ||
    // `mise exec -- <command>` / `asdf exec <command>`: the command after it starts like one.
    ((w === 'mise' || w === 'rtx' || w === 'asdf') && miseCommandLooks(t))
  );
}

function miseCommandLooks(t: string): boolean {
  const toks = tokenize(t);
  const k = toolVersionExecEnd(toks, 0);
  return k !== -1 && looksLikeCommand(t.slice(toks[k].s));
}

/**
 * Parses one command line (no newline) into pieces. Segments separated by && ; | are
 * parsed independently; `cd dir &&` sets the folder for what follows (joined with the folder
 * it is in: `cd web && cd src` is `web/src`). `state` carries the folder of a shell fence from
 * line to line (or names the folder a command is said to run in, "run `x` in `apps/web`"): the
 * line starts there, and a line holding nothing but `cd` moves it (`cd ..`, `cd -` included).
 * A line chaining `cd` with a command (`cd api && make run`) ends the carried folder: such
 * lines are mostly written one per terminal, each from the top folder, so the next line's
 * folder is not known better than before.
 */
export function parseCommandLine(line: string, state?: ShellState): CommandPiece[] {
  const toks = tokenize(line);
  const out: CommandPiece[] = [];
  let seg: Tok[] = [];
  let cwd = state?.cwd;
  let prev = state?.prev;
  let cds = 0;
  let others = 0;
  const flush = () => {
    if (seg.length) {
      const cd = parseSegment(seg, cwd, out);
      if (cd !== undefined) {
        cds++;
        const next = cd === '-' ? prev : joinCwd(cwd, cd);
        prev = cwd;
        cwd = next;
      } else others++;
    }
    seg = [];
  };
  for (const t of toks) {
    if (t.t.length <= 2 && SEPARATORS.test(t.t)) {
      flush();
      continue;
    }
    if (t.t.startsWith('#') && (t.s === 0 || /\s/.test(line[t.s - 1]))) break; // comment
    // A separator written against the word before it (`task build; touch x`, `make a& b`,
    // `deno task dev|tee log`): the shell ends the command there as it does at a free-standing
    // one, so the word (without the separator) is the segment's last, and what follows is
    // another command; otherwise every tool's reader (task, composer, deno, turbo, nx, make,
    // npm…) would read the next command's words as its own arguments (task names).
    const cut = TRAILING_SEPARATOR.exec(t.t);
    if (cut) {
      seg.push({ t: cut[1]!, s: t.s, e: t.s + cut[1]!.length });
      flush();
      continue;
    }
    seg.push(t);
  }
  flush();
  if (state && cds) {
    if (others) state.cwd = state.prev = undefined;
    else {
      state.cwd = cwd;
      state.prev = prev;
    }
  }
  return out;
}

/**
 * The folder `cd target` leads to from `cwd` (`undefined`: the memory file's folder): `..`
 * steps up (kept as a leading `..` above the start), `~`, `/abs` and `$VAR` targets stand for
 * themselves. `undefined` when it is the starting folder again.
 */
export function joinCwd(cwd: string | undefined, target: string): string | undefined {
  const t = unquote(target).replace(/\/+$/, '');
  if (t === '' && target) return '/';
  if (/^[~/$]/.test(t) || t.includes('$') || t.includes('`')) return t || undefined;
  const segs = cwd ? cwd.split('/').filter(Boolean) : [];
  for (const s of t.split('/')) {
    if (s === '' || s === '.') continue;
    const last = segs[segs.length - 1];
    // `..` cancels the folder before it, but not a `..` already above the start, nor `~` / `$HOME`.
    if (s === '..' && last !== undefined && last !== '..' && !(segs.length === 1 && /^[~$]/.test(last))) segs.pop();
    else segs.push(s);
  }
  const out = (cwd && cwd.startsWith('/') ? '/' : '') + segs.join('/');
  return out || undefined;
}

/**
 * `cwd` when it is a folder below the memory file's folder, written plainly (`web`, `apps/www`):
 * the folder paths of the command are resolved against. Home, absolute, `$VAR` and `..` folders
 * give none (those paths are then resolved as before).
 */
export function insideFolder(cwd: string | undefined): string | undefined {
  if (!cwd || /^[~/$]/.test(cwd) || /[$`*?{}<>]/.test(cwd) || cwd.split('/').includes('..')) return undefined;
  return cwd;
}

function unquote(t: string): string {
  return t.replace(/^["']|["']$/g, '');
}

/** A piece whose path is relative to `cwd`, the folder the shell is in (not the one the command runs in). */
function withCwd(p: CommandPiece, cwd: string | undefined): CommandPiece {
  p.cwd = insideFolder(cwd); // set even when undefined: `parseSegment` leaves it alone
  return p;
}

/**
 * The commands a wrapper prefix is looked through for: package-manager scripts and task runners'
 * targets. Composer scripts, Deno tasks and go-task tasks too (`./vendor/bin/sail composer test`,
 * `docker compose exec php composer test`, `docker compose exec app deno task dev`): a container
 * or wrapper script runs them in the folder that mirrors the repository's, like `npm run x`, so
 * they name the composer.json / deno.json / Taskfile of the folder the text is in.
 */
const WRAPPED_TOOLS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'make', 'just', 'composer', 'deno', 'task']);
/** First words of the wrappers `wrapperEnd` reads (besides a path to a script). */
const WRAPPER_WORDS = new Set(['sudo', 'time', 'nice', 'exec', 'env', 'cross-env', 'dotenv', 'npx', 'docker', 'docker-compose', 'kubectl', 'ssh', 'mise', 'rtx', 'asdf']);
const NO_OPTIONS: ReadonlySet<string> = new Set();
/** Per wrapper, the options whose value is the next token (skipped with it). */
const SUDO_VALUES = new Set(['-u', '--user', '-g', '--group', '-h', '--host', '-p', '--prompt', '-C', '--close-from', '-r', '--role', '-t', '--type', '-T', '--command-timeout', '-U', '--other-user']);
/** sudo options that run the command elsewhere (a login shell starts in home, `-D` / `-R` move it) or through a shell. */
const SUDO_MOVES = new Set(['-i', '--login', '-s', '--shell', '-D', '--chdir', '-R', '--chroot']);
const TIME_VALUES = new Set(['-o', '--output', '-f', '--format']);
const NICE_VALUES = new Set(['-n', '--adjustment']);
const EXEC_VALUES = new Set(['-a']);
const ENV_VALUES = new Set(['-u', '--unset']);
const ENV_MOVES = new Set(['-C', '--chdir', '-S', '--split-string']);
const DOTENV_VALUES = new Set(['-e', '-v']);
const DOCKER_VALUES = new Set(['--context', '-c', '-H', '--host', '--config', '-l', '--log-level']);
const COMPOSE_VALUES = new Set(['-f', '--file', '-p', '--project-name', '--project-directory', '--profile', '--env-file', '--ansi', '--parallel', '--progress']);
const CONTAINER_VALUES = new Set([
  '-e', '--env', '--env-file', '-u', '--user', '--index', '--detach-keys', '-l', '--label', '--name', '-p', '--publish', '-v', '--volume',
  '--cap-add', '--cap-drop', '--pull', '--network', '--mount',
]);
/** Options that run the command in a folder the text gives (`-w /srv`) or through another program (`--entrypoint`). */
const CONTAINER_MOVES = new Set(['-w', '--workdir', '--entrypoint']);
/** mise's (and rtx's, its former name) options whose value follows, before and after `exec`. */
const MISE_VALUES = new Set(['-E', '--env', '-j', '--jobs', '--log-level', '--shell', '-s']);
/** mise options that run the command in another folder (`-C dir`) or as a shell string (`-c "…"`). */
const MISE_MOVES = new Set(['-C', '--cd', '-c', '--command']);
const SSH_VALUES = new Set(['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B']);

/**
 * The index of the package-manager or task command (`npm|pnpm|yarn|bun …`, `make x`, `just x`)
 * a chain of wrapper prefixes runs — `sudo`, `time`, `nice`, `exec`, `env VAR=x`, `cross-env
 * VAR=x`, `[npx] dotenv [-e f] --`, `docker compose exec|run [opts] <service>`, `docker-compose
 * exec|run`, `docker exec [opts] <container>`, `kubectl exec … --`, `ssh [opts] host`, or a path
 * to a script run with the command as its arguments (`../tools/container/dev npm run watch`) —
 * so the command is read as if it stood alone: the wrapper passes it on unchanged, and a container
 * or a wrapper script runs it in the folder that mirrors the repository's (the folder rules of the
 * standalone command apply). -1 when the segment is no such chain: then nothing is added. The
 * wrapper's own arguments (service names, hosts, option values) are not paths; the path of a
 * wrapper script is one (like a command's), as are `NAME=./path` values and a compose `-f` file.
 * An option that moves the command elsewhere (`-w dir`, `sudo -i`, `env -C dir`) ends the reading:
 * its folder is not the one the text is in.
 */
function unwrap(seg: Tok[], i: number, out: CommandPiece[], cwd: string | undefined): number {
  const pieces: CommandPiece[] = [];
  let k = i;
  while (k < seg.length && !WRAPPED_TOOLS.has(seg[k].t)) {
    if (k > i && /^[A-Z_][A-Z0-9_]*=/.test(seg[k].t)) {
      assignmentPath(seg[k], pieces); // `env NODE_ENV=x`, `cross-env X=./y`
      k++;
      continue;
    }
    const next = wrapperEnd(seg, k, pieces);
    if (next <= k) return -1;
    k = next;
  }
  if (k === i || k >= seg.length) return -1;
  for (const p of pieces) out.push(p.kind === 'path' ? withCwd(p, cwd) : p); // relative to the shell's folder
  return k;
}

/** The index after one wrapper starting at `k` and its own arguments; -1 when `seg[k]` starts none. */
function wrapperEnd(seg: Tok[], k: number, out: CommandPiece[]): number {
  const t = seg[k].t;
  if (t === 'sudo') return skipOptions(seg, k + 1, SUDO_VALUES, SUDO_MOVES, out);
  if (t === 'time') return skipOptions(seg, k + 1, TIME_VALUES, NO_OPTIONS, out);
  if (t === 'nice') return skipOptions(seg, k + 1, NICE_VALUES, NO_OPTIONS, out);
  if (t === 'exec') return skipOptions(seg, k + 1, EXEC_VALUES, NO_OPTIONS, out);
  if (t === 'env') return skipOptions(seg, k + 1, ENV_VALUES, ENV_MOVES, out);
  if (t === 'mise' || t === 'rtx' || t === 'asdf') return toolVersionExecEnd(seg, k);
  let j = k;
  if (t === 'npx') {
    // `npx dotenv -e .env -- npm run x`: the package is fetched as `npx x` fetches it.
    j++;
    while (j < seg.length && (seg[j].t === '-y' || seg[j].t === '--yes' || seg[j].t === '-q' || seg[j].t === '--quiet')) j++;
    if (j >= seg.length || (seg[j].t !== 'dotenv' && seg[j].t !== 'cross-env')) return -1;
    pushPackage(seg[j], out, 'npx', true);
  } else if (t === 'dotenv' || t === 'cross-env') out.push({ kind: 'tool', tool: 'other', start: seg[j].s, end: seg[j].e, value: t });
  if (seg[j]?.t === 'cross-env') return j + 1; // the assignments follow
  if (seg[j]?.t === 'dotenv') {
    j++;
    for (; j < seg.length && seg[j].t.startsWith('-') && seg[j].t !== '--'; j++) {
      const o = seg[j].t;
      if (o === '-p') return -1; // prints a variable, runs nothing
      if (DOTENV_VALUES.has(o)) j++;
      // `-c [environment]`: the value is optional.
      else if (o === '-c' && seg[j + 1] && !seg[j + 1].t.startsWith('-') && !WRAPPED_TOOLS.has(seg[j + 1].t)) j++;
    }
    return seg[j]?.t === '--' ? j + 1 : j;
  }
  if (t === 'docker' || t === 'docker-compose') {
    let compose = t === 'docker-compose';
    j = skipOptions(seg, k + 1, compose ? COMPOSE_VALUES : DOCKER_VALUES, NO_OPTIONS, out);
    if (j === -1) return -1;
    if (!compose && seg[j]?.t === 'compose') {
      compose = true;
      j = skipOptions(seg, j + 1, COMPOSE_VALUES, NO_OPTIONS, out);
      if (j === -1) return -1;
    } else if (!compose && seg[j]?.t === 'container') j++; // `docker container exec`
    // `exec` into a running container or service; `compose run` a service's container (`docker
    // run <image>` is left out: an image's working folder is its own).
    const sub = seg[j]?.t;
    if (sub !== 'exec' && !(compose && sub === 'run')) return -1;
    j = skipOptions(seg, j + 1, CONTAINER_VALUES, CONTAINER_MOVES, []);
    if (j === -1 || !seg[j] || !/^[\w$][\w.${}-]*$/.test(seg[j].t)) return -1; // the service / container
    return j + 1;
  }
  if (t === 'kubectl') {
    // `kubectl [-n ns] exec [-it] pod [-c c] -- cmd`: the command follows `--`.
    let sawExec = false;
    for (j = k + 1; j < seg.length && seg[j].t !== '--'; j++) if (seg[j].t === 'exec') sawExec = true;
    return sawExec && j < seg.length ? j + 1 : -1;
  }
  if (t === 'ssh') {
    j = skipOptions(seg, k + 1, SSH_VALUES, NO_OPTIONS, []);
    if (j === -1 || !seg[j] || seg[j].t.includes('/')) return -1; // the host
    return j + 1;
  }
  // A path to a script or program (`./bin/dev`, `../tools/container/dev`), right before the command.
  if (t.includes('/') && !t.startsWith('-') && !t.includes('=') && !t.includes('://') && seg[k + 1] && WRAPPED_TOOLS.has(seg[k + 1].t)) {
    if (/^\.{0,2}\/?[\w.-]+\/[\w./-]+$/.test(t)) {
      out.push({ kind: 'path', start: seg[k].s, end: seg[k].e, value: t });
      vendorBin(seg[k], out); // `./vendor/bin/sail composer test`: Laravel Sail, a Composer package
    }
    return k + 1;
  }
  return -1;
}

/**
 * The index of the command a tool-version manager runs with the project's pinned tools, in the
 * folder it is in: `mise exec [opts] [tool@version…] -- cmd`, `mise x -- cmd` (also `rtx`, mise's
 * former name) and `asdf exec cmd`; -1 for anything else, or an option that moves the command
 * (`mise exec -C dir`, `mise exec -c "…"`).
 */
function toolVersionExecEnd(seg: Tok[], k: number): number {
  if (seg[k].t === 'asdf') return seg[k + 1]?.t === 'exec' && seg[k + 2] && !seg[k + 2].t.startsWith('-') ? k + 2 : -1;
  let j = skipMiseOptions(seg, k + 1);
  if (j === -1 || (seg[j]?.t !== 'exec' && seg[j]?.t !== 'x')) return -1;
  for (j++; j < seg.length && seg[j].t !== '--'; j++) {
    if (seg[j].t.startsWith('-')) {
      j = skipMiseOptions(seg, j) - 1;
      if (j < 0) return -1;
    } else if (!/^[\w.@:/+-]+$/.test(seg[j].t)) return -1; // a tool spec: `node@20`, `go`, `npm:prettier@3`
  }
  return j < seg.length - 1 ? j + 1 : -1;
}

/** The index after mise's options from `k` (`--` not included); -1 on an option that moves the command. */
function skipMiseOptions(seg: Tok[], k: number): number {
  for (; k < seg.length && seg[k].t.length > 1 && seg[k].t.startsWith('-') && seg[k].t !== '--'; k++) {
    const o = seg[k].t;
    const eq = o.indexOf('=');
    const name = eq === -1 ? o : o.slice(0, eq);
    if (MISE_MOVES.has(name)) return -1;
    if (eq === -1 && MISE_VALUES.has(name)) k++;
  }
  return k;
}

/**
 * The index of the first token from `k` that is not an option of a wrapper (`values`: options
 * whose value follows; `--` ends them); -1 when an option in `moves` runs the command elsewhere.
 * A compose file (`-f docker/compose.yml`) is a path reference, like `make -f`'s.
 */
function skipOptions(seg: Tok[], k: number, values: ReadonlySet<string>, moves: ReadonlySet<string>, out: CommandPiece[]): number {
  for (; k < seg.length && seg[k].t.length > 1 && seg[k].t.startsWith('-'); k++) {
    const o = seg[k].t;
    if (o === '--') return k + 1;
    const eq = o.indexOf('=');
    const name = eq === -1 ? o : o.slice(0, eq);
    if (moves.has(name)) return -1;
    if (values === COMPOSE_VALUES && (name === '-f' || name === '--file')) folderPiece(seg[k], eq === -1 ? seg[k + 1] : undefined, eq, out, true, undefined);
    if (eq === -1 && values.has(name)) k++;
  }
  return k;
}

/**
 * Returns the target when the segment is `cd dir` (`-` for `cd -`, `~` for `cd` alone). The
 * path pieces of the segment are relative to the folder the command runs in (`cd web &&
 * bin/test test/x.rb`, `make -C dir WHAT=./x`): they carry it as `cwd` when it is a folder
 * inside the memory file's tree (see `insideFolder`), unless they set their own.
 */
function parseSegment(seg: Tok[], cwd: string | undefined, out: CommandPiece[]): string | undefined {
  const from = out.length;
  const at: SegmentFolder = { dir: cwd };
  const cd = segmentPieces(seg, cwd, out, at);
  const inside = insideFolder(at.dir);
  if (inside) for (let k = from; k < out.length; k++) if (out[k].kind === 'path' && !Object.hasOwn(out[k], 'cwd')) out[k].cwd = inside;
  // Path arguments of a script run in a workspace package: relative to that package's folder.
  if (at.workspace && !inside) for (let k = from; k < out.length; k++) if (out[k].kind === 'path' && !Object.hasOwn(out[k], 'cwd')) out[k].workspace = at.workspace;
  return cd;
}

/** Where the program of a segment runs: the shell's folder, or the one `-C` / `--prefix` names (`undefined`: not known). */
interface SegmentFolder {
  dir: string | undefined;
  /** The workspace package a selector names (`pnpm --filter web test x`), when `dir` is not known. */
  workspace?: string;
}

function segmentPieces(seg: Tok[], cwd: string | undefined, out: CommandPiece[], at: SegmentFolder): string | undefined {
  let i = 0;
  while (i < seg.length && /^\$$/.test(seg[i].t)) i++; // prompt
  // Env assignments; a path-like value is a path (`KUBE_ROOT=./hack make x`).
  for (; i < seg.length && /^[A-Z_][A-Z0-9_]*=/.test(seg[i].t); i++) assignmentPath(seg[i], out);
  // Wrapper prefixes (`docker compose exec app`, `sudo -u x`, `./bin/dev`…) before a package-manager
  // or task command: that command is read as if it stood alone (see `unwrap`).
  const inner = unwrap(seg, i, out, cwd);
  if (inner !== -1) i = inner;
  else if (i < seg.length && (seg[i].t === 'sudo' || seg[i].t === 'time' || seg[i].t === 'exec')) i++;
  // `mise exec -- go test ./...`, `asdf exec cargo build`: the command itself, whatever it is.
  else if (i < seg.length && (seg[i].t === 'mise' || seg[i].t === 'rtx' || seg[i].t === 'asdf') && toolVersionExecEnd(seg, i) !== -1) i = toolVersionExecEnd(seg, i);
  // `bundle exec x …` runs the Gemfile's `x` (Ruby's `npx x` / `uv run x`): read as `x …` itself,
  // so its program is a package reference like any command's (`bundle exec rake db:migrate` is
  // `rake db:migrate`); `bundle exec` alone names nothing.
  if (i + 1 < seg.length && seg[i].t === 'bundle' && seg[i + 1].t === 'exec') {
    i += 2;
    while (i < seg.length && seg[i].t.startsWith('-')) i++; // `--keep-file-descriptors`
  }
  // `fvm flutter …` / `fvm dart …`: FVM runs the project's pinned SDK's command, read as that command.
  if (i + 1 < seg.length && seg[i].t === 'fvm' && (seg[i + 1].t === 'flutter' || seg[i + 1].t === 'dart')) i++;
  if (i >= seg.length) return undefined;
  const head = seg[i];
  const w = head.t;
  const rest = seg.slice(i + 1);
  if (w === 'cd') {
    // `cd -P dir`: options first; `cd` alone goes home, `cd -` back to the previous folder.
    let k = 0;
    while (k < rest.length && rest[k].t.length > 1 && rest[k].t.startsWith('-')) k++;
    const target = rest[k];
    if (!target) return '~';
    if (target.t === '-') return '-';
    // The target is relative to the folder the shell is in.
    out.push(withCwd({ kind: 'path', start: target.s, end: target.e, value: target.t, dir: true }, cwd));
    return target.t;
  }

  pythonRunnerPieces(seg, i, out, cwd);
  gradleTaskPieces(seg, i, out, cwd);
  mavenPieces(seg, i, out, cwd);
  if (w === 'composer') composerPieces(seg, i, out, cwd);
  if (w === 'deno') denoTaskPieces(seg, i, out, cwd);
  if (w === 'task') {
    at.dir = goTaskPieces(seg, i, out, cwd);
    return undefined;
  }
  if (w === 'npm' || w === 'pnpm' || w === 'yarn' || w === 'bun') {
    const tool = w as 'npm' | 'pnpm' | 'yarn' | 'bun';
    let workspace: string | undefined;
    let dir = cwd;
    let k = 0;
    // Leading options.
    const target: { workspace?: string; dir?: string } = { dir };
    while (k < rest.length && rest[k].t.startsWith('-')) k = targetOption(rest, k, tool, cwd, out, target);
    workspace = target.workspace;
    dir = target.dir;
    if (tool === 'yarn' && rest[k]?.t === 'workspace' && rest[k + 1]) {
      workspace = unquote(rest[k + 1].t);
      k += 2;
    }
    // A workspace selector runs the command in that package's folder, which the text does not name.
    at.dir = workspace ? undefined : dir;
    if (workspace && workspace !== '*') at.workspace = workspace;
    const sub = rest[k];
    if (!sub) return undefined;
    const subName = sub.t;
    if (subName === 'run' || subName === 'run-script' || (tool === 'bun' && subName === 'run')) {
      // Options between `run` and the script name: a selector or folder option takes its value
      // with it (`pnpm run -F docs codegen`, `npm run -w apps/docs x`, `pnpm run -C web x`: the
      // value is the workspace or folder, not the script) and applies as it does before `run`.
      let j = k + 1;
      const target: { workspace?: string; dir?: string } = { workspace, dir };
      while (j < rest.length && rest[j].t.startsWith('-')) j = targetOption(rest, j, tool, cwd, out, target);
      workspace = target.workspace;
      dir = target.dir;
      at.dir = workspace ? undefined : dir;
      at.workspace = workspace && workspace !== '*' ? workspace : undefined;
      const s = rest[j];
      if (!s) return undefined;
      const name = unquote(s.t);
      if (isPlaceholderScript(name)) return undefined;
      if (tool === 'bun' && (/[/.]/.test(name) && /\.[cm]?[jt]sx?$|\//.test(name))) {
        out.push({ kind: 'path', start: s.s, end: s.e, value: name });
        return undefined;
      }
      const after = trailingOptions(rest.slice(j + 1), tool);
      out.push({ kind: 'script', tool, start: head.s, end: reach(s.e, workspace, after), value: `${w} ${subName} ${name}`, script: name, workspace: workspace ?? after.workspace, cwd: after.cwd ?? dir });
      argsAt(at, workspace, after, dir);
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
      const ai = rest.findIndex((x, n) => n > k && !x.t.startsWith('-'));
      const a = ai === -1 ? undefined : rest[ai];
      if (a) pushPackage(a, out, 'npx', true);
      // `pnpm exec turbo run build`, `pnpm dlx turbo run build`: the runner's tasks and selector.
      if (a) monorepoRunnerPieces(a, rest, ai + 1, head, out);
      return undefined;
    }
    const builtins = BUILTINS[tool];
    if (tool === 'npm') {
      if (NPM_SCRIPT_SHORTCUTS.has(subName)) {
        const name = subName === 't' || subName === 'tst' ? 'test' : subName;
        const after = trailingOptions(rest.slice(k + 1), tool);
        out.push({ kind: 'script', tool, start: head.s, end: reach(sub.e, workspace, after), value: `${w} ${subName}`, script: name, workspace: workspace ?? after.workspace, cwd: after.cwd ?? dir });
        argsAt(at, workspace, after, dir);
        fileArgs(rest.slice(k + 1), out);
      }
      return undefined;
    }
    if (tool === 'bun' && subName === 'test') {
      scanArgs(rest.slice(k + 1), out); // bun's own test runner
      return undefined;
    }
    if ((tool === 'pnpm' || tool === 'yarn') && (subName === 'test' || subName === 'start' || subName === 't')) {
      const after = trailingOptions(rest.slice(k + 1), tool);
      out.push({ kind: 'script', tool, start: head.s, end: reach(sub.e, workspace, after), value: `${w} ${subName}`, script: subName === 't' ? 'test' : subName, workspace: workspace ?? after.workspace, cwd: after.cwd ?? dir });
      argsAt(at, workspace, after, dir);
      fileArgs(rest.slice(k + 1), out);
      return undefined;
    }
    if (builtins.has(subName) || subName.startsWith('-')) {
      scanArgs(rest.slice(k + 1), out);
      return undefined;
    }
    if (!/^[\w:.@/-]+$/.test(subName) || isPlaceholderScript(subName)) return undefined;
    if (tool === 'bun' && /\.[cm]?[jt]sx?$/.test(subName)) {
      out.push({ kind: 'path', start: sub.s, end: sub.e, value: subName });
      return undefined;
    }
    // `pnpm turbo run lint --filter web`, `yarn nx run web:e2e`: the options after the name are
    // the runner's (its own `--filter`), not the package manager's: no selector is read there.
    const runner = MONOREPO_RUNNERS.has(subName);
    const after = runner ? {} : trailingOptions(rest.slice(k + 1), tool);
    out.push({ kind: 'script', tool, start: head.s, end: reach(sub.e, workspace, after), value: `${w} ${subName}`, script: subName, workspace: workspace ?? after.workspace, cwd: after.cwd ?? dir });
    argsAt(at, workspace, after, dir);
    // `pnpm vitest`, `yarn eslint .`: without a script of that name the tool runs the package's binary.
    if (/^[a-z@][\w.@/-]*$/.test(subName) && !subName.includes(':')) out.push({ kind: 'package', tool, start: sub.s, end: sub.e, value: subName });
    if (runner) monorepoRunnerPieces(sub, rest, k + 1, head, out);
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
    // `npx turbo run build --filter=web`, `bunx nx run web:e2e`.
    if (rest[k] && w !== 'uvx' && w !== 'pipx') monorepoRunnerPieces(rest[k], rest, k + 1, head, out);
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
        if (rest[k + 1]) folderPiece(rest[k], rest[k + 1], -1, out, a === '-f' || a === '--file' || a === '--justfile', cwd);
        if (a === '-f' || a === '--file' || a === '--justfile') makefile = v;
        else dir = v && joinCwd(cwd, v);
        k++;
        continue;
      }
      if (a.startsWith('-')) continue;
      if (a.includes('=')) {
        assignmentPath(rest[k], out); // `make test WHAT=./pkg/kubelet`
        continue;
      }
      if (!/^[\w.:/%-]+$/.test(a)) break;
      if (isPlaceholderScript(a)) continue;
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
    at.dir = dir;
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
    while (k < rest.length && rest[k].t.startsWith('-')) {
      const o = rest[k].t;
      const eq = o.indexOf('=');
      const name = eq === -1 ? o : o.slice(0, eq);
      // `uv run --package acme-ingest pytest`: the workspace member is a package reference.
      if (w === 'uv' && name === '--package') selectedPackage(rest[k], eq === -1 ? rest[k + 1] : undefined, eq, out, 'pip');
      // Options taking a value: the value is not the program (`uv run --with httpx python x.py`).
      k += eq === -1 && (w === 'uv' ? UV_RUN_VALUE_OPTIONS : POETRY_RUN_VALUE_OPTIONS).has(name) ? 2 : 1;
    }
    if (rest[k] && !/^(python3?|-m)$/.test(rest[k].t) && !/[/.]/.test(rest[k].t)) pushPackage(rest[k], out, 'pip', true);
    scanArgs(rest.slice(k + 1), out);
    return undefined;
  }
  let args = rest;
  if (w === 'uv' && rest[0] && UV_PACKAGE_COMMANDS.has(rest[0].t)) {
    // `uv sync --package x`, `uv build --package x`: the workspace member selected (then the
    // command is read like any other, without the selector).
    args = [];
    for (let k = 0; k < rest.length; k++) {
      const o = rest[k].t;
      const eq = o.indexOf('=');
      if (o === '--') {
        args.push(...rest.slice(k));
        break;
      }
      if ((eq === -1 ? o : o.slice(0, eq)) === '--package') {
        selectedPackage(rest[k], eq === -1 ? rest[k + 1] : undefined, eq, out, 'pip');
        if (eq === -1) k++;
        continue;
      }
      args.push(rest[k]);
    }
  }
  if (w === 'cargo') {
    if (rest[0] && (rest[0].t === 'add' || rest[0].t === 'install')) for (const a of rest.slice(1)) if (!a.t.startsWith('-')) pushPackage(a, out, 'cargo');
    // `cargo test -p hir-ty`, `--package foo`, `--package=foo`, `-pfoo`: the crate selected (a
    // workspace member or a dependency) is a package reference; its value is no path argument.
    const cargoArgs: Tok[] = [];
    for (let k = 0; k < rest.length; k++) {
      const o = rest[k].t;
      if (o === '--') {
        cargoArgs.push(...rest.slice(k));
        break;
      }
      if (o === '-p' || o === '--package') {
        selectedPackage(rest[k], rest[k + 1], -1, out, 'cargo');
        k++;
        continue;
      }
      if (o.startsWith('--package=')) {
        selectedPackage(rest[k], undefined, o.indexOf('='), out, 'cargo');
        continue;
      }
      if (/^-p[\w]/.test(o)) {
        pushPackage({ t: o.slice(2), s: rest[k].s + 2, e: rest[k].e }, out, 'cargo');
        continue;
      }
      cargoArgs.push(rest[k]);
    }
    scanArgs(cargoArgs, out);
    return undefined;
  }
  if (w === 'go') {
    if (rest[0] && (rest[0].t === 'get' || rest[0].t === 'install')) {
      for (const a of rest.slice(1)) {
        if (a.t.startsWith('-')) continue;
        if (a.t.startsWith('.')) scanArgs([a], out, true); // `go install ./cmd/...`: a folder of the module
        else pushPackage(a, out, 'go');
      }
      return undefined;
    }
    scanArgs(rest, out, true);
    return undefined;
  }
  if (/^\.{0,2}\/?[\w.-]+\/[\w./-]+$/.test(w) || /^\.\/[\w.-]+\.\w+$/.test(w)) {
    out.push({ kind: 'path', start: head.s, end: head.e, value: w });
    vendorBin(head, out);
    scanArgs(rest, out);
    return undefined;
  }
  if (w === 'mix') mixTask(rest, out); // then read like any other command
  if (w === 'dart' || w === 'flutter') pubRun(w, rest, out); // then read like any other command
  // `turbo run build --filter=web`, `nx run web:e2e`: their tasks, then read like any other command.
  if (MONOREPO_RUNNERS.has(w)) monorepoRunnerPieces(head, rest, 0, head, out);
  // `php vendor/bin/phpunit`: the program is Composer's bin, as when it is run directly.
  if (w === 'php') {
    const a = rest.find((x) => !x.t.startsWith('-'));
    if (a) vendorBin(a, out);
  }
  // Go tools that take package patterns like `go` does (`golangci-lint run ./pkg/...`).
  if (GO_PATTERN_TOOLS.has(w)) {
    out.push({ kind: 'tool', tool: 'other', start: head.s, end: head.e, value: w });
    scanArgs(args, out, true);
    return undefined;
  }
  // Any other command: the program may be a dependency (`tsdown`, `pm2 list`); its args may be paths.
  if (/^[a-z][\w.-]*$/.test(w) && !/^(git|cd|ls|cat|echo|export|curl|wget|gh|brew|sudo|mkdir|rm|cp|mv|source|bash|sh|node|python3?|docker|docker-compose|kubectl|psql|test|set|if|then|fi|for|do|done|grep|find|sed|awk|chmod|touch|open|code|claude|tail|head|kill|pkill|jq|xargs|tee|env|which|read|true|false|exit|return|printf)$/.test(w)) {
    out.push({ kind: 'tool', tool: 'other', start: head.s, end: head.e, value: w });
  }
  scanArgs(args, out);
  return undefined;
}

/**
 * `composer run-script x` / `composer run x` / `composer x` (x no command of Composer's own):
 * the script x, as a script piece of tool `composer` whose value is written `composer run-script x`
 * or `composer x` (the check tells the two apart: only `run-script` runs nothing but scripts).
 * `-d dir` / `--working-dir dir` (anywhere before `--`) is the folder whose composer.json applies.
 * `composer global …` (another composer.json), `exec`, `run-script --list` name no script. Adds
 * pieces only: the segment is read as before.
 */
function composerPieces(seg: Tok[], i: number, out: CommandPiece[], cwd: string | undefined): void {
  let dir = cwd;
  let sub: Tok | undefined;
  let name: Tok | undefined;
  for (let k = i + 1; k < seg.length; k++) {
    const o = seg[k]!.t;
    if (o === '--') break;
    if (o.startsWith('-')) {
      const eq = o.indexOf('=');
      const opt = eq === -1 ? o : o.slice(0, eq);
      if (opt === '-d' || opt === '--working-dir') {
        const v = eq === -1 ? seg[k + 1]?.t : o.slice(eq + 1);
        if (!v) return;
        dir = joinCwd(cwd, v);
        if (eq === -1) k++;
      } else if (/^-d[^-]/.test(o)) dir = joinCwd(cwd, o.slice(2)); // `-dapi`
      else if (o === '-l' || o === '--list') return; // `composer run-script --list`
      else if (o === '--timeout' && sub && !name) k++; // `run-script --timeout 0 x`
      continue;
    }
    if (!sub) {
      sub = seg[k];
      if (sub.t === 'global') return; // another composer.json: the user's global one
    } else if ((sub.t === 'run-script' || sub.t === 'run') && !name) name = seg[k];
    // `composer require vendor/name:^2.0`, `composer remove vendor/name`: the packages named.
    else if (COMPOSER_PACKAGE_VERBS.has(sub.t)) pushPackage(seg[k], out, 'composer');
  }
  if (!sub) return;
  const explicit = sub.t === 'run-script' || sub.t === 'run';
  if (!explicit && COMPOSER_BUILTINS.has(sub.t)) return;
  const tok = explicit ? name : sub;
  if (!tok) return;
  const v = unquote(tok.t);
  if (!/^[\w][\w:.-]*$/.test(v) || isPlaceholderScript(v)) return;
  const p: CommandPiece = { kind: 'script', tool: 'composer', start: seg[i]!.s, end: tok.e, value: explicit ? `composer ${sub.t} ${v}` : `composer ${v}`, script: v };
  if (dir) p.cwd = dir;
  out.push(p);
}

/** Composer commands whose arguments are package names (`vendor/name`, with an optional `:constraint`). */
const COMPOSER_PACKAGE_VERBS = new Set(['require', 'r', 'remove', 'rm', 'uninstall', 'update', 'u', 'upgrade']);

/**
 * Mix's own tasks, and those of Hex, Rebar, Phoenix and Ecto, by the first dotted segment of the
 * task name (`deps` for `deps.get`, `phx` for `phx.server`; hexdocs.pm/mix, Phoenix's and Ecto's
 * task lists). Any other `mix <x>[.<y>]` runs a task a dependency named `x` provides
 * (`mix credo`, `mix sobelow`, `mix igniter.install`, `mix gettext.extract`) or a project alias.
 */
const MIX_OWN_TASKS = new Set(
  (
    'app archive clean cmd compile deps do escript eval format help iex loadconfig loadpaths local new profile ' +
    'release run test xref hex rebar phx phoenix ecto'
  ).split(' '),
);

/**
 * `mix <task>` / `mix <ns>.<task>`: the first dotted segment as a program reference (a `tool`
 * piece of tool `other`, like `bundle exec rubocop`'s): the Mix dependency of that name, which
 * provides the task. The package check reports it only on evidence (a dependency of that name
 * was removed and none is declared now), so a project alias (`mix setup`) stays silent.
 */
function mixTask(rest: Tok[], out: CommandPiece[]): void {
  const t = rest[0];
  if (!t || t.t.startsWith('-')) return;
  const m = /^([a-z][a-z0-9_]*)(?:\.[a-z0-9_.]+)?$/.exec(t.t);
  if (!m || MIX_OWN_TASKS.has(m[1]!) || m[1]!.length < 2) return;
  out.push({ kind: 'tool', tool: 'other', start: t.s, end: t.s + m[1]!.length, value: m[1]! });
}

/** `dart run` options whose value is the next token (unless written `--opt=value`). */
const DART_RUN_VALUES = new Set(['-D', '--define', '--enable-experiment', '--verbosity', '--resident-compiler-info-file']);

/**
 * `dart run <package>[:<executable>]`, `dart pub run …`, `flutter pub run …` (also after `fvm`):
 * the Pub dependency whose executable runs, as a program reference (a `tool` piece of tool
 * `other`, like `bundle exec x`'s and `mix credo`'s), reported by the package check only on
 * evidence (a dependency of that name was removed and none is declared now). `dart run` alone
 * (the root package's own executable), a `.dart` file or a path names no package.
 */
function pubRun(w: string, rest: Tok[], out: CommandPiece[]): void {
  let k: number;
  if (w === 'dart' && rest[0]?.t === 'run') k = 1;
  else if (rest[0]?.t === 'pub' && rest[1]?.t === 'run') k = 2;
  else return;
  for (; k < rest.length && rest[k]!.t.startsWith('-'); k++) {
    const o = rest[k]!.t;
    if (o === '--') {
      k++;
      break;
    }
    if (!o.includes('=') && DART_RUN_VALUES.has(o)) k++;
  }
  const t = rest[k];
  if (!t) return;
  const m = /^([a-z][a-z0-9_]*)(?::[\w-]+)?$/.exec(t.t);
  if (!m || m[1]!.length < 2) return;
  out.push({ kind: 'tool', tool: 'other', start: t.s, end: t.s + m[1]!.length, value: m[1]! });
}

/**
 * `vendor/bin/<tool>` (`./vendor/bin/pest`, `php vendor/bin/phpunit`): Composer's bin folder, so the
 * program is a Composer package's bin, named like the package (`pestphp/pest`, `phpstan/phpstan`,
 * `laravel/pint`): a program reference (a `tool` piece) to that name, reported by the package check
 * only on evidence, as `bundle exec x`'s program is (the name was a dependency and none is
 * declared now; a bin named otherwise than its package is never matched, so never reported).
 */
function vendorBin(t: Tok, out: CommandPiece[]): void {
  const m = /^(?:\.\/)?vendor\/bin\/([a-z][\w.-]*)$/.exec(t.t);
  if (!m) return;
  const name = m[1]!;
  out.push({ kind: 'tool', tool: 'other', start: t.e - name.length, end: t.e, value: name });
}

/** `deno task` options whose value is the next token (unless written `--opt=value`). */
const DENO_TASK_VALUE_OPTIONS = new Set(['--cwd', '-c', '--config', '-L', '--log-level']);
/** `deno task` options that run something other than one named task of one configuration. */
const DENO_TASK_OTHER = /^(?:-r|--recursive|-f|--filter|--eval|--members|--no-config)(?:=|$)/;

/**
 * `deno task x`: the task x of the deno.json / deno.jsonc that applies, as a script piece of tool
 * `deno`: the nearest one up from the folder (`--cwd dir`), or the file `-c` / `--config` names.
 * `deno task` alone lists the tasks; `--recursive`, `--filter` (workspace members) and `--eval`
 * (a command line, not a name) name no task of one file. Adds pieces only: the segment is read as
 * before.
 */
function denoTaskPieces(seg: Tok[], i: number, out: CommandPiece[], cwd: string | undefined): void {
  if (seg[i + 1]?.t !== 'task') return;
  let dir = cwd;
  let config: string | undefined;
  let k = i + 2;
  for (; k < seg.length && seg[k]!.t.startsWith('-'); k++) {
    const o = seg[k]!.t;
    if (o === '--') return;
    if (DENO_TASK_OTHER.test(o)) return;
    const eq = o.indexOf('=');
    const opt = eq === -1 ? o : o.slice(0, eq);
    const v = eq === -1 ? seg[k + 1]?.t : o.slice(eq + 1);
    if (opt === '--cwd' && v) dir = joinCwd(cwd, v);
    else if ((opt === '-c' || opt === '--config') && v) config = unquote(v);
    if (eq === -1 && DENO_TASK_VALUE_OPTIONS.has(opt)) k++;
  }
  const name = seg[k];
  if (!name) return;
  const v = unquote(name.t);
  if (!/^[\w][\w:.-]*$/.test(v) || isPlaceholderScript(v)) return;
  const p: CommandPiece = { kind: 'script', tool: 'deno', start: seg[i]!.s, end: name.e, value: `deno task ${v}`, script: v };
  if (dir) p.cwd = dir;
  if (config) p.makefile = config;
  out.push(p);
}

/** go-task options whose value is the next token (unless written `--opt=value`). */
const GO_TASK_VALUE_OPTIONS = new Set([
  '-d', '--dir', '-t', '--taskfile', '-o', '--output', '-C', '--concurrency', '-I', '--interval', '--sort',
  '--output-group-begin', '--output-group-end', '--completion', '--remote-cache-dir', '--cacert', '--cert',
  '--cert-key', '--timeout', '--expiry', '--cache-expiry',
]);
/** go-task options after which no task is run by name: listings, help, a new Taskfile, the global Taskfile. */
const GO_TASK_NO_RUN = /^(?:-l|--list|-a|--list-all|-i|--init|--version|-h|--help|--completion|-g|--global|--experiments|--clear-cache)(?:=|$)/;

/**
 * `task x`, `task x y`, `task ns:x` (go-task): each task named, as a script piece of tool `task`
 * (the first from the command word, like `make a b`), with the folder `-d` / `--dir` names and the
 * Taskfile `-t` / `--taskfile` names (both also path pieces: a moved folder or file breaks the
 * command). `NAME=value` arguments are variables; what follows `--` is the tasks' arguments.
 * `task` alone runs `default`; `--list`, `--init`, `--global`… name no task. Returns the folder
 * the command runs in, for its path arguments.
 */
function goTaskPieces(seg: Tok[], i: number, out: CommandPiece[], cwd: string | undefined): string | undefined {
  let dir = cwd;
  let taskfile: string | undefined;
  const names: Tok[] = [];
  for (let k = i + 1; k < seg.length; k++) {
    const t = seg[k]!;
    const o = t.t;
    if (o === '--') break;
    if (o.startsWith('-') && o.length > 1) {
      if (GO_TASK_NO_RUN.test(o)) return dir;
      const eq = o.indexOf('=');
      const opt = eq === -1 ? o : o.slice(0, eq);
      const next = eq === -1 ? seg[k + 1] : undefined;
      if (opt === '-d' || opt === '--dir' || opt === '-t' || opt === '--taskfile') {
        const v = eq === -1 ? next?.t : o.slice(eq + 1);
        const file = opt === '-t' || opt === '--taskfile';
        if (v) {
          folderPiece(t, next, eq, out, file, cwd);
          if (file) taskfile = unquote(v);
          else dir = joinCwd(cwd, v);
        }
      }
      if (eq === -1 && GO_TASK_VALUE_OPTIONS.has(opt)) k++;
      continue;
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(o)) {
      assignmentPath(t, out); // `task deploy ENV=./envs/prod`
      continue;
    }
    names.push(t);
  }
  for (const t of names) {
    const v = unquote(t.t);
    // (Not a path: Task takes only task names and variables before `--`; `task test ./...` fails anyway.)
    if (!/^[\w][\w:.-]*$/.test(v) || isPlaceholderScript(v)) continue;
    const first = !out.some((p) => p.kind === 'script' && p.start === seg[i]!.s);
    const p: CommandPiece = { kind: 'script', tool: 'task', start: first ? seg[i]!.s : t.s, end: t.e, value: `task ${v}`, script: v, cwd: dir };
    if (taskfile) p.makefile = taskfile;
    out.push(p);
  }
  return dir;
}

/** Options of the Python runners whose value is the next token. */
const HATCH_VALUE_OPTIONS = new Set(['-e', '--env', '-i', '--include', '-x', '--exclude', '--filter', '-f', '--data-dir', '--cache-dir', '--config']);
const PDM_RUN_VALUE_OPTIONS = new Set(['--venv', '--json']);
const POE_VALUE_OPTIONS = new Set(['-e', '--executor']);
/** Options that make a runner read another project's configuration: the command is not checked. */
const OTHER_PROJECT = /^(?:-p|--project|-C|--directory|--root|--dir|--cwd|-P)(?:=|$)/;

/**
 * The script a Python task runner runs, as a script piece of tool `other` whose value starts with
 * the runner's word (the script check tells them apart by it): `hatch run [env:]x` (the env of
 * `-e env` / `HATCH_ENV=env` as `workspace`), `pdm run x`, `poe x` / `poethepoet x`, and `uv run x`
 * / `poetry run x` (an executable, checked only against `[project.scripts]` history); `uv run poe
 * x` and the like are the poe task. A command pointed at another project (`--project`,
 * `-C dir`) is left out: its configuration is not the one the folder has. Adds pieces only: the
 * segment is read as before.
 */
function pythonRunnerPieces(seg: Tok[], i: number, out: CommandPiece[], cwd: string | undefined): void {
  const head = seg[i]!;
  const w = head.t;
  if (w !== 'hatch' && w !== 'pdm' && w !== 'poe' && w !== 'poethepoet' && w !== 'uv' && w !== 'poetry') return;
  let env: string | undefined;
  for (let k = 0; k < i; k++) if (seg[k]!.t.startsWith('HATCH_ENV=')) env = unquote(seg[k]!.t.slice(10));
  let k = i + 1;
  let runner = w;
  let start = head.s;
  if (w !== 'poe' && w !== 'poethepoet') {
    // Root options (`hatch -e test run x`), then `run`, then its options.
    for (; k < seg.length && seg[k]!.t !== 'run'; k++) {
      const o = seg[k]!.t;
      if (!o.startsWith('-')) return; // another subcommand
      if (OTHER_PROJECT.test(o)) return;
      if (w === 'hatch' && (o === '-e' || o === '--env')) env = seg[k + 1] && unquote(seg[k + 1]!.t);
      else if (w === 'hatch' && o.startsWith('--env=')) env = unquote(o.slice(6));
      if (w === 'hatch' && HATCH_VALUE_OPTIONS.has(o)) k++;
    }
    k++;
  }
  const values = w === 'hatch' ? HATCH_VALUE_OPTIONS : w === 'pdm' ? PDM_RUN_VALUE_OPTIONS : w === 'uv' ? UV_RUN_VALUE_OPTIONS : w === 'poetry' ? POETRY_RUN_VALUE_OPTIONS : POE_VALUE_OPTIONS;
  for (; k < seg.length; k++) {
    const o = seg[k]!.t;
    if (o === '--') {
      k++;
      break;
    }
    // hatch's `+py=3.12` / `-py=3.12` select matrix variables.
    if (!o.startsWith('-') && !(w === 'hatch' && /^\+\w+=/.test(o))) break;
    if (OTHER_PROJECT.test(o)) return;
    if (o === '-l' || o === '--list') return; // `pdm run --list`
    if (values.has(o)) k++;
  }
  let name = seg[k];
  if (!name) return;
  // A runner running poe (`uv run poe docs`): the poe task.
  if (runner !== 'poe' && runner !== 'poethepoet' && (name.t === 'poe' || name.t === 'poethepoet')) {
    runner = name.t;
    start = name.s;
    for (k++; k < seg.length && seg[k]!.t.startsWith('-'); k++) {
      if (OTHER_PROJECT.test(seg[k]!.t)) return;
      if (POE_VALUE_OPTIONS.has(seg[k]!.t)) k++;
    }
    name = seg[k];
    if (!name) return;
  }
  const v = unquote(name.t);
  if (!/^[\w][\w:.@+-]*$/.test(v) || isPlaceholderScript(v)) return;
  // The interpreter or a script file is no runner's script (`uv run python -m x`, `uv run x.py`).
  if (runner !== 'poe' && runner !== 'poethepoet' && (/^python[\d.]*$/.test(v) || /\.py$/.test(v))) return;
  const value = runner === 'poe' || runner === 'poethepoet' ? `${runner} ${v}` : `${runner} run ${v}`;
  const p: CommandPiece = { kind: 'script', tool: 'other', start, end: name.e, value, script: v };
  if (runner === 'hatch' && env) p.workspace = env;
  if (cwd) p.cwd = cwd;
  out.push(p);
}

/**
 * The value of a folder option (`-C dir`, `--prefix dir`, `--dir=dir`) as a path piece: the
 * separate token after the option, or the part after `=`. `isFile` for `-f Makefile`.
 */
function folderPiece(opt: Tok, next: Tok | undefined, eq: number, out: CommandPiece[], isFile: boolean, cwd: string | undefined): void {
  if (eq !== -1) {
    const v = opt.t.slice(eq + 1);
    if (v) out.push(withCwd({ kind: 'path', start: opt.s + eq + 1, end: opt.e, value: v, ...(isFile ? {} : { dir: true }) }, cwd));
    return;
  }
  if (!next || next.t.startsWith('-')) return;
  out.push(withCwd({ kind: 'path', start: next.s, end: next.e, value: next.t, ...(isFile ? {} : { dir: true }) }, cwd));
}

/** uv / poetry `run` options whose value is the next token. */
const UV_RUN_VALUE_OPTIONS = new Set([
  '--package', '--with', '--with-editable', '--with-requirements', '--python', '-p', '--project', '--directory', '--extra',
  '--group', '--only-group', '--no-group', '--env-file', '--index', '--default-index', '--index-url', '-i', '--extra-index-url',
  '--find-links', '-f', '--config-file', '--cache-dir', '--exclude-newer', '--prerelease', '--resolution', '--config-setting',
  '-C', '--link-mode', '--python-platform', '--no-binary-package', '--no-build-package', '--reinstall-package', '--upgrade-package', '-P',
]);
const POETRY_RUN_VALUE_OPTIONS = new Set(['--directory', '-C', '--project', '-P']);
/** uv commands that take `--package <workspace member>`. */
const UV_PACKAGE_COMMANDS = new Set(['sync', 'build', 'tree', 'export', 'version']);

/** The package a selector option names (`-p x`, `--package x`, `--package=x`), as a package piece. */
function selectedPackage(opt: Tok, next: Tok | undefined, eq: number, out: CommandPiece[], tool: Tool): void {
  if (eq !== -1) {
    if (eq + 1 < opt.t.length) pushPackage({ t: opt.t.slice(eq + 1), s: opt.s + eq + 1, e: opt.e }, out, tool);
    return;
  }
  if (next && !next.t.startsWith('-')) pushPackage(next, out, tool);
}

/**
 * The path-like value of a `NAME=value` argument or env prefix (`make test WHAT=./pkg/kubelet`,
 * `KUBE_ROOT=./hack`): a path piece when it starts with `./` / `../` or holds a `/`. Weak unless
 * it starts with `./` / `../`: `PLATFORM=linux/amd64` or `TZ=Europe/Paris` are not paths, and a
 * weak path is only reported when history shows it was renamed or deleted.
 */
function assignmentPath(t: Tok, out: CommandPiece[]): void {
  const eq = t.t.indexOf('=');
  if (eq <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(t.t.slice(0, eq))) return;
  let s = t.s + eq + 1;
  let v = t.t.slice(eq + 1);
  const q = v.charCodeAt(0);
  if ((q === 34 || q === 39) && v.length > 2 && v.charCodeAt(v.length - 1) === q) {
    v = v.slice(1, -1);
    s++;
  }
  // One plain path: no URL, variable, list or home / absolute folder.
  if (!/^[\w.@+-][\w./@+-]*$/.test(v) || !v.includes('/') || v.includes('//')) return;
  const dotted = v.startsWith('./') || v.startsWith('../');
  out.push({ kind: 'path', start: s, end: s + v.length, value: v, ...(dotted ? {} : { weak: true }) });
}

/**
 * The folder a script's arguments are relative to: none known when a workspace selector picks
 * the package; then the package named (not `*`, all of them) is carried instead, for a check
 * that knows the workspace folders.
 */
function argsAt(at: SegmentFolder, workspace: string | undefined, after: { workspace?: string; cwd?: string }, dir: string | undefined): void {
  const ws = workspace ?? after.workspace;
  at.dir = ws ? undefined : after.cwd ?? dir;
  at.workspace = ws && ws !== '*' ? ws : undefined;
}

/**
 * A script name that stands for any script: `pnpm run ...`, `npm run …`, `pnpm run <script>`,
 * `yarn run [name]`, `npm run {script}`, `make TARGET`. Made only of punctuation, wrapped in
 * brackets, or all capitals (the way usage lines write a name to fill in): never checked.
 */
export function isPlaceholderScript(name: string): boolean {
  return /^[^\p{L}\p{N}]+$/u.test(name) || /^(?:<.*>|\[.*\]|\{.*\})$/.test(name) || /^[A-Z][A-Z0-9_]*$/.test(name);
}

/**
 * One option of a package-manager command at `rest[k]` (before the subcommand, or between `run`
 * and the script name); returns the index after it and its value. `-r` / `--recursive` /
 * `--workspaces` select every package; a selector (`--filter x`, `-F x`, `--workspace x`, `-w x`)
 * names the workspace package; a folder option (`--prefix`, `-C`, `--dir`, `--cwd`) the folder,
 * which is also a path reference of its own, like the target of `cd dir &&`: a moved folder
 * breaks `pnpm -C dir x` / `npm --prefix dir run x` just as it breaks `cd dir`. pnpm's `-w` is
 * the workspace root and takes no value. Any other option is skipped alone.
 */
function targetOption(rest: Tok[], k: number, tool: 'npm' | 'pnpm' | 'yarn' | 'bun', cwd: string | undefined, out: CommandPiece[], st: { workspace?: string; dir?: string }): number {
  const o = rest[k].t;
  const eq = o.indexOf('=');
  const name = eq === -1 ? o : o.slice(0, eq);
  const val = eq === -1 ? rest[k + 1]?.t : o.slice(eq + 1);
  if (name === '-r' || name === '--recursive' || name === '--workspaces' || name === '-ws') {
    st.workspace = '*';
    return k + 1;
  }
  if (!TARGET_OPTIONS.has(name)) return k + 1;
  if (name === '-w' && tool === 'pnpm') return k + 1; // pnpm -w = workspace root
  if (name === '--prefix' || name === '-C' || name === '--dir' || name === '--cwd') {
    st.dir = val && joinCwd(cwd, val);
    folderPiece(rest[k], eq === -1 ? rest[k + 1] : undefined, eq, out, false, cwd);
  } else st.workspace = val && unquote(val);
  return k + (eq === -1 ? 2 : 1);
}

/**
 * `npm run build -w web`, `--workspace=web`, `pnpm run dev --filter webapp`, `--prefix dir`
 * written after the script name (before `--`). `end`: where the selector's value ends in the
 * line, when a package is named (not `*`): the script's reference reaches it (see `reach`).
 * pnpm's `-w` is the workspace root and takes no value.
 */
function trailingOptions(args: Tok[], tool?: 'npm' | 'pnpm' | 'yarn' | 'bun'): { workspace?: string; cwd?: string; end?: number } {
  const out: { workspace?: string; cwd?: string; end?: number } = {};
  for (let k = 0; k < args.length; k++) {
    const o = args[k].t;
    if (o === '--') break;
    const eq = o.indexOf('=');
    const name = eq === -1 ? o : o.slice(0, eq);
    const val = eq === -1 ? args[k + 1]?.t : o.slice(eq + 1);
    if (name === '-ws' || name === '--workspaces' || name === '-r' || name === '--recursive') {
      out.workspace = '*';
      out.end = undefined;
    } else if (name === '-w' && tool === 'pnpm') continue;
    else if ((name === '-w' || name === '--workspace' || name === '--filter' || name === '-F') && val) {
      out.workspace = unquote(val);
      out.end = eq === -1 ? args[k + 1]!.e : args[k].e;
    } else if ((name === '--prefix' || name === '-C' || name === '--dir') && val) out.cwd = unquote(val).replace(/^\.\//, '').replace(/\/$/, '');
  }
  return out;
}

/**
 * Where a script's reference ends: at the script name, or, when the package is selected after
 * it (`pnpm run dev --filter webapp`, as Turborepo monorepos write their commands), at the
 * selector's value, so that the reference holds the selector and a correction can rewrite it
 * wherever it stands.
 */
function reach(end: number, leading: string | undefined, after: { workspace?: string; end?: number }): number {
  return leading === undefined && after.workspace !== undefined && after.end !== undefined ? Math.max(end, after.end) : end;
}

function pushPackage(t: Tok, out: CommandPiece[], tool: Tool, fetched = false): void {
  let v = unquote(t.t);
  // Strip version specifiers: foo@1.2, @scope/foo@latest, foo==1.0, foo>=1, foo[extra].
  let name = v.replace(/\[.*$/, '').replace(/(?:==|>=|<=|~=|!=|>|<).*$/, '');
  if (name.startsWith('@')) {
    const at = name.indexOf('@', 1);
    if (at > 0) name = name.slice(0, at);
  } else if (name.includes('@')) name = name.slice(0, name.indexOf('@'));
  // A Composer package is `vendor/name`, its constraint after `:` (`composer require a/b:^2.0`).
  if (tool === 'composer') name = name.replace(/:.*$/, '');
  if (!/^(@[\w.-]+\/)?[\w.-]+$/.test(name) && !(tool === 'go' && /^[\w.-]+(\/[\w.-]+)+$/.test(name)) && !(tool === 'composer' && /^[\w.-]+\/[\w.-]+$/.test(name))) return;
  // Composer's arguments name packages only as `vendor/name` (a bare word is a platform package
  // such as `php`, or `composer update lock` / `nothing`).
  if (tool === 'composer' && !name.includes('/')) return;
  if (/^\d/.test(name) || name.length < 2) return;
  out.push({ kind: 'package', tool, start: t.s + (t.t.startsWith('"') || t.t.startsWith("'") ? 1 : 0), end: t.s + (t.t.startsWith('"') || t.t.startsWith("'") ? 1 : 0) + name.length, value: name, ...(fetched && v !== name ? { script: 'registry' } : fetched ? { script: 'exec' } : {}) });
}

/**
 * The arguments of a command as path pieces (`asPath` later decides which are paths). `goPatterns`
 * for `go` and Go tools: a package pattern `./internal/api/...` names the folder `./internal/api`
 * and everything below it, so the piece is that folder (the `/...` stays outside the reference,
 * and a correction keeps it); `./...` and `...` alone are the whole module (no reference).
 */
function scanArgs(args: Tok[], out: CommandPiece[], goPatterns = false): void {
  const filters = testFilterPieces(args, out);
  for (const a of args) {
    if (filters?.has(a)) continue;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a.t)) {
      assignmentPath(a, out); // `NAME=./dir`: the value, never the whole token
      continue;
    }
    if (a.t.startsWith('-')) {
      const eq = a.t.indexOf('=');
      if (eq > 0) {
        const v = a.t.slice(eq + 1);
        if (v) argPiece(a.s + eq + 1, a.e, v, out, goPatterns); // `-coverpkg=./internal/...`
      }
      continue;
    }
    argPiece(a.s, a.e, a.t, out, goPatterns);
  }
}

function argPiece(s: number, e: number, v: string, out: CommandPiece[], goPatterns: boolean): void {
  if (goPatterns && v.endsWith('/...')) {
    const dir = v.slice(0, -4);
    if (dir === '' || dir === '.' || dir === '..' || dir.includes('...')) return;
    out.push({ kind: 'path', start: s, end: e - 4, value: dir, dir: true });
    return;
  }
  // A pytest node id (`tests/x.py::TestX::test_y`, also quoted): its file only, the `::…` stays outside (see `pytestNodePath`).
  const q = v.length > 2 && (v[0] === '"' || v[0] === "'") && v.endsWith(v[0]) ? v.slice(0, -1) : v;
  const file = pytestNodePath(q);
  out.push(file !== q ? { kind: 'path', start: s, end: s + file.length, value: file } : { kind: 'path', start: s, end: e, value: v });
}

/** Monorepo task runners whose tasks and selectors are read (`monorepoRunnerPieces`). */
const MONOREPO_RUNNERS = new Set(['turbo', 'nx']);

/** Turborepo's own commands: `turbo <x>` with x in this list runs no task (`turbo <task>` is `turbo run <task>`). */
const TURBO_COMMANDS = new Set((
  'prune gen generate login logout link unlink daemon ls query info scan telemetry bin completion boundaries devtools ' +
  'docs config get-mfe-port help version'
).split(' '));
/** `turbo run` options whose value is the next token (any other option is read as a flag). */
const TURBO_VALUE_OPTIONS = new Set([
  '--filter', '-F', '--cache-dir', '--concurrency', '--cwd', '--env-mode', '--global-deps', '--heap', '--log-order',
  '--log-prefix', '--output-logs', '--profile', '--team', '--token', '--trace', '--ui', '--cache', '--api', '--login',
  '--remote-cache-timeout', '--cache-workers', '--pkg-inference-root', '--anon-profile', '--verbosity', '--exclude',
]);
/**
 * Nx's own commands (nx.dev CLI reference): `nx <x>` with x in this list runs no target of a
 * project named on the command line (`nx affected -t test`, `nx run-many`, `nx graph`).
 */
const NX_COMMANDS = new Set((
  'add affected run-many graph dep-graph generate g migrate report list format format:check format:write init reset ' +
  'repair release show sync sync:check watch exec daemon connect connect-to-nx-cloud view-logs login logout import ' +
  'print-affected workspace-lint activate-powerpack mcp configure-ai-agents record start-ci-run fix-ci help version ' +
  'completion register'
).split(' '));
/** A turbo task as written: `build`, `web#build`, `@acme/web#build`, `//#lint`. */
const TURBO_TASK = /^(?:(?:\/\/|@?[\w.-]+(?:\/[\w.-]+)?)#)?[\w:.-]+$/;
/** An Nx project name (`web`, `@acme/web`, `web-e2e`) and a target (`e2e`, `build:prod`). */
const NX_PROJECT = /^@?[\w.-]+(?:\/[\w.-]+)?$/;
const NX_TARGET = /^[\w.-]+(?::[\w.-]+)*$/;

/**
 * The tasks of a Turborepo or Nx command, as script pieces of tool `turbo` / `nx`. `prog` is
 * the token naming the runner (`turbo`, `nx`, `turbo@2`), its arguments are `rest` from `from`
 * on, and `head` the command's first word (`turbo`, `npx`, `pnpm`): the first piece starts
 * there, so its reference reads as the whole command.
 * - `turbo [run|watch] <task…> [--filter[=] / -F sel]`: one piece per task, `script` the task as
 *   written; the first carries the selector as `workspace` and reaches its value, so that a
 *   correction can rewrite it. Tasks are the words after `run` up to `--` (options are skipped,
 *   with the value of those that take one); `turbo <x>` with x one of Turborepo's own commands
 *   runs no task.
 * - `nx run <project>:<target>[:<config>]` and `nx <target> <project>`: one piece, `script` the
 *   target (with colons in the spec, all but its last part: `api:db:init:prod` reads `db:init`;
 *   the script check resolves the target against the project's) and `workspace` the project; `nx <target>` alone (the project of the folder it runs in)
 *   and Nx's own commands (`nx affected`, `nx graph`, `nx run-many`) give none.
 */
function monorepoRunnerPieces(prog: Tok, rest: Tok[], from: number, head: Tok, out: CommandPiece[]): void {
  const runner = unquote(prog.t).replace(/(?<=.)@.*$/, '');
  if (!MONOREPO_RUNNERS.has(runner)) return;
  let k = from;
  if (runner === 'nx') {
    while (k < rest.length && rest[k]!.t.startsWith('-')) k++;
    const sub = rest[k];
    if (!sub) return;
    if (sub.t === 'run') {
      let j = k + 1;
      while (j < rest.length && rest[j]!.t.startsWith('-')) j++;
      const spec = rest[j];
      // `project:target[:config]`; a target name may hold colons itself (`web:graphql:generate`,
      // `api:database:init:prod`), which only the project's targets tell apart from a
      // configuration: with three parts or more the script is read as all but the last part, and
      // the script check takes the longest prefix that is (or was) a target of the project.
      const parts = spec && /^[^:\s"']+(?::[^:\s"']+)+$/.test(spec.t) ? spec.t.split(':') : undefined;
      if (!parts) return;
      const project = parts[0]!;
      const target = parts.length <= 3 ? parts[1]! : parts.slice(1, -1).join(':');
      if (!NX_PROJECT.test(project) || !NX_TARGET.test(target) || isPlaceholderScript(project) || target.split(':').some((x) => isPlaceholderScript(x))) return;
      out.push({ kind: 'script', tool: 'nx', start: head.s, end: spec!.e, value: `nx run ${project}:${target}`, script: target, workspace: project });
      return;
    }
    if (NX_COMMANDS.has(sub.t) || !NX_TARGET.test(sub.t) || isPlaceholderScript(sub.t)) return;
    const proj = rest[k + 1];
    if (!proj || proj.t.startsWith('-') || !NX_PROJECT.test(proj.t) || isPlaceholderScript(proj.t)) return;
    out.push({ kind: 'script', tool: 'nx', start: head.s, end: proj.e, value: `nx ${sub.t} ${proj.t}`, script: sub.t, workspace: proj.t });
    return;
  }
  // Turborepo: global options may come first (`turbo --cwd x run build`).
  while (k < rest.length && rest[k]!.t.startsWith('-')) k += TURBO_VALUE_OPTIONS.has(rest[k]!.t) ? 2 : 1;
  if (rest[k]?.t === 'run' || rest[k]?.t === 'watch') k++;
  else if (!rest[k] || TURBO_COMMANDS.has(rest[k]!.t)) return;
  const tasks: Tok[] = [];
  let filter: { value: string; end: number } | undefined;
  for (; k < rest.length; k++) {
    const t = rest[k]!;
    if (t.t === '--') break;
    if (t.t.startsWith('-') && t.t.length > 1) {
      const eq = t.t.indexOf('=');
      const name = eq === -1 ? t.t : t.t.slice(0, eq);
      if ((name === '--filter' || name === '-F') && !filter) {
        const v = eq === -1 ? rest[k + 1] : { t: t.t.slice(eq + 1), s: t.s + eq + 1, e: t.e };
        if (v && v.t) filter = { value: unquote(v.t), end: v.e };
      }
      if (eq === -1 && TURBO_VALUE_OPTIONS.has(name)) k++;
      continue;
    }
    // A flag with an optional value (`--graph out.html`) may be followed by a word that is no
    // task: harmless, a task is only reported on history showing turbo.json dropped that key.
    if (!TURBO_TASK.test(t.t) || isPlaceholderScript(t.t)) continue;
    tasks.push(t);
  }
  tasks.forEach((t, n) => {
    const p: CommandPiece = { kind: 'script', tool: 'turbo', start: n ? t.s : head.s, end: n ? t.e : Math.max(t.e, filter?.end ?? 0), value: `turbo run ${t.t}`, script: t.t };
    if (!n && filter) p.workspace = filter.value;
    out.push(p);
  });
}

/** Go linters and test runners whose arguments are package patterns (`./pkg/...`) like `go test`'s. */
const GO_PATTERN_TOOLS = new Set(['golangci-lint', 'staticcheck', 'govulncheck', 'gotestsum', 'ginkgo', 'revive', 'errcheck', 'gosec', 'ineffassign']);

/**
 * The file arguments of a package-manager script run by its shorthand (`pnpm test
 * test/x.test.ts`, `npm test -- test/x.test.ts`, `yarn start src/server.ts`): the script passes
 * them on (to jest, vitest, node…), so they are read like `npx jest <file>` arguments. Only what
 * is a file beyond doubt: a token with a `/` ending in a known file extension (a bare word is a
 * test-name filter or a pattern; options are skipped).
 */
function fileArgs(args: Tok[], out: CommandPiece[]): void {
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a.t.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(a.t)) continue;
    const v = unquote(a.t);
    const dot = v.lastIndexOf('.');
    if (!v.includes('/') || dot <= v.lastIndexOf('/') + 1 || !FILE_EXTENSIONS.has(v.slice(dot + 1).toLowerCase())) continue;
    out.push({ kind: 'path', start: a.s, end: a.e, value: a.t });
  }
}

/**
 * A fully-qualified JVM class name as memory writes it in test filters and imports: two or more
 * lower-case package segments, then one capitalised class segment (`com.acme.app.login.LoginViewModelTest`),
 * optionally followed by a method or wildcard (`.shouldLogIn`, `#shouldLogIn`, `*`, `.*`). `name`
 * is the class part (what names a source file), `tail` the rest, kept as written by a correction.
 * Undefined for anything else: `org.acme.*` (no class), `LoginViewModelTest` (no package),
 * `*.LoginViewModelTest` (a pattern).
 */
export function splitFqcn(v: string): { name: string; tail: string } | undefined {
  const m = /^((?:[a-z][a-z0-9_]*\.){2,}[A-Z][A-Za-z0-9_]*)((?:[.#][A-Za-z_$][\w$]*)?\*?|\.\*)$/.exec(v);
  return m ? { name: m[1]!, tail: m[2]! } : undefined;
}

/**
 * Test filters naming classes (`--tests X` / `--tests=X` of Gradle, `-Dtest=X[#m][,Y]` of Maven
 * Surefire): each fully-qualified class name among their values (see `splitFqcn`) is a path piece
 * marked `fqcn`, covering the class part only. The option's tokens are returned so the caller
 * does not read them as paths too; undefined when there are none (most commands).
 */
function testFilterPieces(args: Tok[], out: CommandPiece[]): Set<Tok> | undefined {
  let used: Set<Tok> | undefined;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    let v: Tok | undefined;
    if (a.t === '--tests' && args[k + 1]) v = args[k + 1];
    else if (a.t.startsWith('--tests=')) v = { t: a.t.slice(8), s: a.s + 8, e: a.e };
    else if (a.t.startsWith('-Dtest=')) v = { t: a.t.slice(7), s: a.s + 7, e: a.e };
    if (!v) continue;
    (used ??= new Set()).add(a);
    if (v === args[k + 1]) {
      used.add(v);
      k++;
    }
    let t = v.t;
    let s = v.s;
    const q = t.charCodeAt(0);
    if ((q === 34 || q === 39) && t.length > 2 && t.charCodeAt(t.length - 1) === q) {
      t = t.slice(1, -1);
      s++;
    }
    // Surefire takes a comma list (`-Dtest=A,B#m`).
    let at = 0;
    for (const part of t.split(',')) {
      const f = splitFqcn(part);
      if (f) out.push({ kind: 'path', start: s + at, end: s + at + f.name.length, value: f.name, fqcn: true });
      at += part.length + 1;
    }
  }
  return used;
}

/** The Gradle wrapper or Gradle itself as a command's first word (`./gradlew`, `gradlew.bat`, `gradle`). */
export const GRADLE_COMMAND = /^(?:(?:\.\.?[\\/])?gradlew(?:\.bat)?|gradle)$/;

/** Gradle's own command-line options that take no value; any other option is taken to have one (`-p dir`, `--tests X`, `-x task`). */
const GRADLE_FLAGS = new Set([
  '-?', '-h', '--help', '-v', '--version', '-s', '--stacktrace', '-S', '--full-stacktrace', '-i', '--info', '-d', '--debug',
  '-q', '--quiet', '-w', '--warn', '--scan', '--no-scan', '--offline', '--continue', '--parallel', '--no-parallel', '--daemon',
  '--no-daemon', '--foreground', '--stop', '--status', '--build-cache', '--no-build-cache', '--configuration-cache',
  '--no-configuration-cache', '--configure-on-demand', '--no-configure-on-demand', '--rerun-tasks', '--rerun',
  '--refresh-dependencies', '-m', '--dry-run', '--profile', '-t', '--continuous', '--watch-fs', '--no-watch-fs', '--write-locks',
  '-a', '--no-rebuild', '--export-keys', '--no-problems-report', '--problems-report',
]);

/**
 * The tasks a Gradle command runs (`./gradlew spotlessApply`, `gradle :app:detekt`, `gradlew.bat
 * clean build`), each a script piece of tool `other` whose value starts with the command word (the
 * script check tells them apart by it: see `GRADLE_COMMAND`); `script` is the task path as written.
 * Options are skipped, with the value of any option not known to take none (a task option such as
 * `--tests X` or `--dependency x` never becomes a task). Reading stops at a token that is no task
 * name. Adds pieces only: the segment is read as before.
 */
function gradleTaskPieces(seg: Tok[], i: number, out: CommandPiece[], cwd: string | undefined): void {
  const head = seg[i]!;
  if (!GRADLE_COMMAND.test(head.t)) return;
  let first = true;
  for (let k = i + 1; k < seg.length; k++) {
    const t = seg[k]!.t;
    if (t.startsWith('-')) {
      const eq = t.indexOf('=');
      const opt = eq > 0 ? t.slice(0, eq) : t;
      // `-p dir` / `--project-dir dir`: the build of that folder (as `cd dir` would); `-c` /
      // `--settings-file` / `-b` / `--build-file`: a build the tasks cannot be told against
      if (opt === '-p' || opt === '--project-dir') {
        const v = eq > 0 ? t.slice(eq + 1) : seg[k + 1]?.t;
        if (v === undefined) return;
        cwd = joinCwd(cwd, v);
        if (cwd === undefined || cwd.startsWith('/') || /^[~$]|\.\.(?:\/|$)/.test(cwd)) return;
      } else if (opt === '-c' || opt === '--settings-file' || opt === '-b' || opt === '--build-file') return;
      // `-Pkey=value`, `-Dkey=value`, `--opt=value` hold their value; others may take the next token.
      if (!t.includes('=') && !/^-[DPx]./.test(t) && !GRADLE_FLAGS.has(t)) k++;
      continue;
    }
    if (!/^:?[A-Za-z][\w-]*(?::[A-Za-z][\w-]*)*$/.test(t)) break;
    if (isPlaceholderScript(t)) continue;
    const p: CommandPiece = { kind: 'script', tool: 'other', start: first ? head.s : seg[k]!.s, end: seg[k]!.e, value: `${head.t} ${t}`, script: t };
    if (cwd) p.cwd = cwd;
    out.push(p);
    first = false;
  }
}

/** The Maven wrapper, Maven or the Maven daemon as a command's first word (`./mvnw`, `mvnw.cmd`, `mvn`, `mvnd`). */
export const MAVEN_COMMAND = /^(?:(?:\.\.?[\\/])?mvnw(?:\.cmd)?|mvnd?)$/;

/** Maven's options that take the next token as their value (`-pl api`, `-P ci`, `-T 4`, `-f sub/pom.xml`). */
const MAVEN_VALUE_OPTIONS = new Set([
  '-pl', '--projects', '-f', '--file', '-P', '--activate-profiles', '-T', '--threads', '-s', '--settings', '-gs', '--global-settings',
  '-t', '--toolchains', '-rf', '--resume-from', '-l', '--log-file', '-b', '--builder', '-D', '--define', '-gt', '--global-toolchains',
]);

/**
 * What a Maven command names (`mvn -pl services/billing -am verify`, `./mvnw spotless:apply`,
 * `mvn com.diffplug.spotless:spotless-maven-plugin:2.43.0:apply`): each plugin goal (`prefix:goal`,
 * `group:artifact[:version]:goal`) is a script piece of tool `other` whose value starts with the
 * command word (the script check tells it by `MAVEN_COMMAND`); lifecycle phases (`clean`,
 * `verify`) name nothing. The modules of `-pl` / `--projects` written as folders (`api`,
 * `services/billing`; not `:artifact` or `group:artifact` selectors, nor `!x` exclusions) and the
 * POM of `-f` are paths relative to the folder the command runs in. `-Dkey=value` and the values of
 * other options are skipped. Adds pieces only: the segment is read as before.
 */
function mavenPieces(seg: Tok[], i: number, out: CommandPiece[], cwd: string | undefined): void {
  const head = seg[i]!;
  if (!MAVEN_COMMAND.test(head.t)) return;
  let first = true;
  for (let k = i + 1; k < seg.length; k++) {
    const tok = seg[k]!;
    const t = tok.t;
    if (t.startsWith('-')) {
      const eq = t.indexOf('=');
      const opt = eq > 0 ? t.slice(0, eq) : t;
      if (!MAVEN_VALUE_OPTIONS.has(opt)) continue;
      const value = eq > 0 ? { t: t.slice(eq + 1), s: tok.s + eq + 1, e: tok.e } : seg[++k];
      if (!value) break;
      if (opt === '-pl' || opt === '--projects') mavenModulePaths(value, out, cwd);
      else if ((opt === '-f' || opt === '--file') && /^[\w./-]+$/.test(value.t)) {
        // a POM file, or the folder holding one (`-f agent`, `-f agent/`)
        // (as written: `-f agent/` is the same reference the path reader makes of that token)
        const folder = !/\.xml$/i.test(value.t);
        out.push(withCwd({ kind: 'path', start: value.s, end: value.e, value: value.t, ...(folder ? { dir: true } : {}) }, cwd));
      }
      continue;
    }
    if (!/^[A-Za-z][\w.-]*(?::[\w.-]+){1,3}$/.test(t)) {
      if (/^[a-z][a-z-]*$/.test(t)) continue; // a lifecycle phase
      break;
    }
    if (isPlaceholderScript(t)) continue;
    const p: CommandPiece = { kind: 'script', tool: 'other', start: first ? head.s : tok.s, end: tok.e, value: `${head.t} ${t}`, script: t };
    if (cwd) p.cwd = cwd;
    out.push(p);
    first = false;
  }
}

/** Modules of one `-pl` list read as paths: real lists name a few; a generated one of thousands says nothing more. */
const MAX_PL_MODULES = 64;

/** The folders of a `-pl` list (`api,services/billing`), each a path piece at its own offset (as written). */
function mavenModulePaths(value: Tok, out: CommandPiece[], cwd: string | undefined): void {
  let at = value.s;
  for (const part of value.t.split(',', MAX_PL_MODULES)) {
    // `:api` and `com.acme:api` select by artifact id; `!x` / `-x` exclude; `.` is the root
    if (part && part !== '.' && !part.includes(':') && /^[\w.][\w./-]*$/.test(part) && !part.includes('..')) {
      out.push(withCwd({ kind: 'path', start: at, end: at + part.length, value: part, dir: true }, cwd));
    }
    at += part.length + 1;
  }
}
