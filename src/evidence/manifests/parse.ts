// One parser per manifest format. Structured formats go through real parsers (JSON, yaml,
// smol-toml); line-oriented formats (requirements.txt, go.mod, Gemfile, Makefile, justfile,
// version files) are read line by line, which is their grammar. A parser never throws: it
// returns what it could read plus problems with a line number when the parser gives one.
import { readYaml } from './yaml.js';
import { parse as parseYaml } from 'yaml';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { AnyManifestKind } from './kinds.js';
import { parseJsonc } from '../tsconfig-paths.js';
import { type GradleProjects, parseComposer, parseGradleBuild, parseGradleCatalog, parseGradleSettings, parseMavenPom, parseMix, parseMsbuild, parsePubspec, parseSwiftPackage } from './ecosystems.js';

export interface ParsedDep {
  name: string;
  spec: string;
  field: string;
  /**
   * Another spelling of a declared dependency, or a name the manifest declares for itself:
   * counted as declared at HEAD, never followed through history (see ecosystems.ts).
   */
  presence?: boolean;
}

export interface ParsedManifest {
  kind: AnyManifestKind;
  deps: ParsedDep[];
  /** npm scripts (name -> command), pyproject scripts/tasks (name -> target). */
  scripts?: Map<string, string>;
  /**
   * pyproject.toml / hatch.toml: the tables of the Python runners, `<runner> <name>` -> command
   * (see `pythonRunners`); `<runner> ?` when the runner's table is open (includes, plugins).
   */
  runners?: Map<string, string>;
  targets?: string[];
  /**
   * The tasks of a task runner, name -> command (`''` for an alias, which has none of its own):
   * composer.json `scripts` (and the names of `scripts-aliases`), deno.json / deno.jsonc
   * `tasks`, a Taskfile's `tasks` (and each task's `aliases`). Set (maybe empty) whenever the
   * file could be read; absent when it could not (nothing is then said about its names).
   */
  tasks?: Map<string, string>;
  /** Taskfile: its `includes`, as written (resolved against the work tree in manifests.ts). */
  taskIncludes?: TaskInclude[];
  /** Taskfile: task names holding `*` (go-task's wildcard tasks, `start:*`). */
  taskPatterns?: string[];
  /** deno.json: it declares a `workspace` (its members' tasks are not its own). */
  denoWorkspace?: boolean;
  /**
   * settings.gradle(.kts): the project paths its `include` / `includeFlat` calls name (`:app`,
   * `:core:data`, and every ancestor of one: `:core`) and the names of its `includeBuild` builds;
   * `open` when some call's arguments are not string literals (a loop, a variable, a template).
   */
  gradleProjects?: GradleProjects;
  /** Makefile: rules, variables and includes as written (patterns and included files are added at HEAD). */
  make?: MakeParts;
  recipes?: string[];
  /**
   * Makefile targets and just recipes -> their recipe text (`recipeText`): what history pairs a
   * renamed target with its successor by, as npm scripts by their command.
   */
  recipeCommands?: Map<string, string>;
  /**
   * setup.py / setup.cfg: a field it declares is built by code (a variable, a call, a
   * comprehension, `**kwargs`, `file:`), so what it declares there is unknown. At HEAD the field
   * declares nothing; history does not read this version (manifests.ts `summarize`), so that a
   * list moved into code is not taken for dependencies removed.
   */
  partial?: boolean;
  name?: string;
  version?: string;
  workspaces?: string[];
  runtimes?: Array<{ name: string; spec: string }>;
  classifiers?: string[];
  catalogs?: Map<string, Map<string, string>>;
  goModule?: string;
  /**
   * Nx: project.json `name`, package.json `nx.name` (the project name Nx gives the package; a
   * package.json without it is named by its `name`).
   */
  nxName?: string;
  /** Nx: package.json `nx.targets` keys (project.json targets are in `tasks`). */
  nxTargets?: string[];
  /** nx.json: whether it declares plugins (they infer targets), and its `targetDefaults` keys. */
  nxConfig?: { plugins: boolean; targetDefaults: string[] };
  problems: Array<{ message: string; line?: number }>;
}

/** One entry of a Taskfile's `includes:`. */
export interface TaskInclude {
  /** The namespace: the include's key (`docs` for `task docs:build`). */
  ns: string;
  /** The Taskfile or folder as written; undefined when it is not a plain string. */
  taskfile?: string;
  /** Other namespaces for the same file (`aliases: [d]`). */
  aliases: string[];
  /** `flatten: true`: its tasks are called without the namespace. */
  flatten: boolean;
}

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

export function parseManifest(kind: AnyManifestKind, path: string, text: string): ParsedManifest {
  try {
    switch (kind) {
      case 'package.json':
        return parsePackageJson(text);
      case 'pnpm-workspace':
        return parsePnpmWorkspace(text);
      case 'pyproject':
        // hatch.toml is read as a pyproject (its kind for the index): its tables are Hatch's own.
        return /(?:^|\/)hatch\.toml$/.test(path) ? parseHatchToml(text) : parsePyproject(text);
      case 'cargo':
        return parseCargo(text);
      case 'requirements':
        return parseRequirements(text);
      case 'setup-py':
        return parseSetupPy(text);
      case 'setup-cfg':
        return parseSetupCfg(text);
      case 'go.mod':
        return parseGoMod(text);
      case 'gemfile':
        return parseGemfile(text);
      case 'makefile':
        return parseMakefile(text);
      case 'justfile':
        return parseJustfile(text);
      case 'runtime-file':
        return parseRuntimeFile(path, text);
      case 'composer':
        return parseComposer(text);
      case 'deno':
        return parseDenoConfig(text);
      case 'taskfile':
        return parseTaskfile(text);
      case 'pubspec':
        return parsePubspec(text);
      case 'mix':
        return parseMix(text);
      case 'gradle-catalog':
        return parseGradleCatalog(text);
      case 'gradle-build': {
        const out = parseGradleBuild(text);
        if (/(^|\/)settings\.gradle(\.kts)?$/.test(path)) out.gradleProjects = parseGradleSettings(text);
        return out;
      }
      case 'msbuild':
        return parseMsbuild(path, text);
      case 'maven':
        return parseMavenPom(text);
      case 'swift-package':
        return parseSwiftPackage(text);
      case 'turbo':
        return parseTurboJson(text);
      case 'nx-project':
        return parseNxProject(text);
      case 'nx':
        return parseNxJson(text);
      default:
        return { kind, deps: [], problems: [] };
    }
  } catch (err) {
    return { kind, deps: [], problems: [{ message: `could not be read: ${(err as Error).message}` }] };
  }
}

// ------------------------------------------------------------------ JSON

/** Line (1-based) of a JSON.parse error, from "position N" or "(line L column C)". */
export function jsonErrorLine(message: string, text: string): number | undefined {
  const lc = /line (\d+) column \d+/.exec(message);
  if (lc) return Number(lc[1]);
  const pos = /position (\d+)/.exec(message);
  if (pos) {
    const n = Math.min(Number(pos[1]), text.length);
    let line = 1;
    for (let i = 0; i < n; i++) if (text.charCodeAt(i) === 10) line++;
    return line;
  }
  return undefined;
}

const NPM_DEP_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/**
 * A JSON manifest's value (a BOM ignored), or `undefined` with the problem, line included, added
 * to `out.problems` when the text is not JSON.
 */
export function parseJsonManifest(text: string, out: ParsedManifest): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const message = (err as Error).message;
    out.problems.push({ message: `invalid JSON: ${message}`, line: jsonErrorLine(message, text) });
    return undefined;
  }
}

export function parsePackageJson(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'package.json', deps: [], problems: [] };
  const data = parseJsonManifest(text, out);
  if (data === undefined) return out;
  const pkg = obj(data);
  if (!pkg) {
    out.problems.push({ message: 'package.json is not a JSON object' });
    return out;
  }
  for (const field of NPM_DEP_FIELDS) {
    const deps = obj(pkg[field]);
    if (!deps) continue;
    for (const [name, spec] of Object.entries(deps)) out.deps.push({ name, spec: str(spec) ?? '', field });
  }
  for (const field of ['bundledDependencies', 'bundleDependencies']) {
    const b = pkg[field];
    if (Array.isArray(b)) for (const name of b) if (typeof name === 'string') out.deps.push({ name, spec: '', field });
  }
  const scripts = obj(pkg.scripts);
  out.scripts = new Map();
  if (scripts) for (const [k, v] of Object.entries(scripts)) out.scripts.set(k, str(v) ?? '');
  if (typeof pkg.name === 'string') out.name = pkg.name;
  if (typeof pkg.version === 'string') out.version = pkg.version;
  const ws = pkg.workspaces;
  if (Array.isArray(ws)) out.workspaces = ws.filter((w): w is string => typeof w === 'string');
  else if (obj(ws) && Array.isArray(obj(ws)!.packages)) {
    out.workspaces = (obj(ws)!.packages as unknown[]).filter((w): w is string => typeof w === 'string');
  }
  const runtimes: Array<{ name: string; spec: string }> = [];
  const engines = obj(pkg.engines);
  if (engines) for (const [k, v] of Object.entries(engines)) if (str(v)) runtimes.push({ name: k, spec: str(v)! });
  const volta = obj(pkg.volta);
  if (volta) for (const [k, v] of Object.entries(volta)) if (str(v)) runtimes.push({ name: k, spec: str(v)! });
  if (typeof pkg.packageManager === 'string') {
    const m = /^([\w-]+)@([^+\s]+)/.exec(pkg.packageManager);
    if (m) runtimes.push({ name: m[1]!, spec: m[2]! });
  }
  if (runtimes.length) out.runtimes = runtimes;
  // Nx reads a package.json as a project: `nx.name` overrides the name, `nx.targets` adds targets.
  const nx = obj(pkg.nx);
  if (nx) {
    if (typeof nx.name === 'string') out.nxName = nx.name;
    const t = obj(nx.targets);
    if (t) out.nxTargets = Object.keys(t);
  }
  return out;
}

// ------------------------------------------------------------------ Turborepo, Nx

/**
 * A task's or target's configuration as one line of words (`dependsOn ^build outputs dist/**`):
 * what history pairs a renamed key with its successor by (`commandSimilarity` compares words),
 * as npm scripts by their command. `''` for an empty configuration (`{}`): pairing is then one
 * for one.
 */
function configWords(v: unknown): string {
  const o = obj(v);
  if (!o || !Object.keys(o).length) return '';
  return JSON.stringify(o).replace(/[{}[\],:"]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** JSON with comments (turbo.json, project.json, deno.jsonc), or undefined after recording an "invalid JSON (with comments)" problem. */
function readJsonc(text: string, problems: ParsedManifest['problems']): unknown {
  const data = parseJsonc(text);
  if (data === undefined) problems.push({ message: 'invalid JSON (with comments)' });
  return data;
}

/**
 * turbo.json / turbo.jsonc (JSON with comments): the keys of `tasks` (Turborepo 2) or `pipeline`
 * (1.x) as `tasks`, each a task name (`build`), a package's task (`web#build`) or a root task
 * (`//#lint`). A file that is not an object, or has neither table, defines no task.
 */
export function parseTurboJson(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'turbo', deps: [], problems: [] };
  const data = readJsonc(text, out.problems);
  if (data === undefined) return out;
  const doc = obj(data);
  const tasks = new Map<string, string>();
  const table = obj(doc?.tasks) ?? obj(doc?.pipeline);
  if (table) for (const [k, v] of Object.entries(table)) tasks.set(k, configWords(v));
  out.tasks = tasks;
  return out;
}

/** An Nx project.json: its `name` (`nxName`) and the keys of `targets` (as `tasks`). */
export function parseNxProject(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'nx-project', deps: [], problems: [] };
  const data = readJsonc(text, out.problems);
  if (data === undefined) return out;
  const doc = obj(data);
  if (!doc) {
    out.problems.push({ message: 'project.json is not a JSON object' });
    return out;
  }
  if (typeof doc.name === 'string') out.nxName = doc.name;
  const tasks = new Map<string, string>();
  const t = obj(doc.targets);
  if (t) {
    for (const [k, v] of Object.entries(t)) {
      const o = obj(v);
      // The executor or command it runs, then the rest: what pairs a renamed target.
      const head = str(o?.executor) ?? str(o?.command) ?? str(obj(o?.options)?.command) ?? '';
      tasks.set(k, `${head} ${configWords(o?.options)}`.trim());
    }
  }
  out.tasks = tasks;
  return out;
}

/** nx.json: whether `plugins` lists any (targets are then inferred), and its `targetDefaults` keys. */
export function parseNxJson(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'nx', deps: [], problems: [] };
  const data = parseJsonc(text);
  const doc = obj(data);
  if (!doc) {
    out.problems.push({ message: 'invalid JSON (with comments)' });
    // Unreadable: what it declares is unknown, so targets are open.
    out.nxConfig = { plugins: true, targetDefaults: [] };
    return out;
  }
  const plugins = Array.isArray(doc.plugins) && doc.plugins.length > 0;
  out.nxConfig = { plugins, targetDefaults: Object.keys(obj(doc.targetDefaults) ?? {}) };
  return out;
}

// ------------------------------------------------------------------ YAML

export function parsePnpmWorkspace(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'pnpm-workspace', deps: [], problems: [] };
  const yaml = readYaml(text, out.problems);
  if (!yaml) return out;
  const data = yaml.data;
  const doc = obj(data);
  if (!doc) return out;
  if (Array.isArray(doc.packages)) out.workspaces = doc.packages.filter((w): w is string => typeof w === 'string');
  const catalogs = new Map<string, Map<string, string>>();
  const cat = obj(doc.catalog);
  if (cat) catalogs.set('default', new Map(Object.entries(cat).map(([k, v]) => [k, str(v) ?? ''])));
  const cats = obj(doc.catalogs);
  if (cats) {
    for (const [name, c] of Object.entries(cats)) {
      const m = obj(c);
      if (m) catalogs.set(name, new Map(Object.entries(m).map(([k, v]) => [k, str(v) ?? ''])));
    }
  }
  if (catalogs.size) out.catalogs = catalogs;
  return out;
}

// ------------------------------------------------------------------ TOML

function tomlProblem(err: unknown): { message: string; line?: number } {
  if (err instanceof TomlError) return { message: `invalid TOML: ${err.message.split('\n')[0]}`, line: err.line };
  return { message: `invalid TOML: ${(err as Error).message}` };
}

/** The TOML document `text`, or undefined with the parse error recorded as a problem of `out` (file and line named by the caller). */
export function readToml(text: string, out: ParsedManifest): Record<string, unknown> | undefined {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    out.problems.push(tomlProblem(err));
    return undefined;
  }
}

/** PEP 508: the distribution name leads the requirement string. */
export function pep508(req: string): { name: string; spec: string } | undefined {
  const s = req.trim();
  const m = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)$/.exec(s);
  if (!m) return undefined;
  let spec = (m[3] ?? '').trim();
  const semi = spec.indexOf(';');
  if (semi >= 0) spec = spec.slice(0, semi).trim();
  if (spec.startsWith('@')) spec = spec.slice(1).trim();
  spec = spec.replace(/^\((.*)\)$/, '$1');
  return { name: m[1]!, spec };
}

/** PEP 508 requirement strings (pyproject.toml, setup.py, setup.cfg) as dependencies of `field`. */
export function addRequirements(out: ParsedManifest, reqs: Iterable<string>, field: string): void {
  for (const r of reqs) {
    const p = pep508(r);
    if (p) out.deps.push({ name: p.name, spec: p.spec, field });
  }
}

export function parsePyproject(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'pyproject', deps: [], problems: [] };
  const data = readToml(text, out);
  if (!data) return out;
  const scripts = new Map<string, string>();
  const runners = new Map<string, string>();
  const runtimes: Array<{ name: string; spec: string }> = [];
  const addReqs = (list: unknown, field: string) => {
    if (Array.isArray(list)) addRequirements(out, list.filter((r): r is string => typeof r === 'string'), field);
  };
  const project = obj(data.project);
  if (project) {
    if (typeof project.name === 'string') out.name = project.name;
    if (typeof project.version === 'string') out.version = project.version;
    addReqs(project.dependencies, 'project.dependencies');
    const opt = obj(project['optional-dependencies']);
    if (opt) for (const [g, list] of Object.entries(opt)) addReqs(list, `project.optional-dependencies.${g}`);
    if (typeof project['requires-python'] === 'string') runtimes.push({ name: 'python', spec: project['requires-python'] });
    if (Array.isArray(project.classifiers)) {
      const py = project.classifiers
        .filter((c): c is string => typeof c === 'string')
        .map((c) => /^Programming Language :: Python :: (\d+(?:\.\d+)?)\s*$/.exec(c)?.[1])
        .filter((v): v is string => !!v);
      if (py.length) out.classifiers = py;
    }
    for (const key of ['scripts', 'gui-scripts']) {
      const s = obj(project[key]);
      if (s) for (const [k, v] of Object.entries(s)) {
        scripts.set(k, str(v) ?? '');
        runners.set(`entry ${k}`, str(v) ?? '');
      }
    }
  }
  const groups = obj(data['dependency-groups']);
  if (groups) for (const [g, list] of Object.entries(groups)) addReqs(list, `dependency-groups.${g}`);
  const build = obj(data['build-system']);
  if (build) addReqs(build.requires, 'build-system.requires');
  const tool = obj(data.tool);
  const poetry = obj(tool?.poetry);
  if (poetry) {
    if (!out.name && typeof poetry.name === 'string') out.name = poetry.name;
    if (!out.version && typeof poetry.version === 'string') out.version = poetry.version;
    const addPoetry = (deps: unknown, field: string) => {
      const d = obj(deps);
      if (!d) return;
      for (const [name, spec] of Object.entries(d)) {
        const s = str(spec) ?? str(obj(spec)?.version) ?? (Array.isArray(spec) ? '*' : '');
        if (name.toLowerCase() === 'python') {
          runtimes.push({ name: 'python', spec: s });
          continue;
        }
        out.deps.push({ name, spec: s, field });
      }
    };
    addPoetry(poetry.dependencies, 'tool.poetry.dependencies');
    addPoetry(poetry['dev-dependencies'], 'tool.poetry.dev-dependencies');
    const pg = obj(poetry.group);
    if (pg) for (const [g, v] of Object.entries(pg)) addPoetry(obj(v)?.dependencies, `tool.poetry.group.${g}.dependencies`);
    const ps = obj(poetry.scripts);
    if (ps) for (const [k, v] of Object.entries(ps)) {
      scripts.set(k, str(v) ?? str(obj(v)?.reference) ?? '');
      runners.set(`entry ${k}`, str(v) ?? str(obj(v)?.reference) ?? '');
    }
  }
  for (const [toolName, key] of [['pdm', 'scripts'], ['poe', 'tasks'], ['rye', 'scripts'], ['taskipy', 'tasks']] as const) {
    const t = obj(obj(tool?.[toolName])?.[key]);
    if (!t) continue;
    for (const [k, v] of Object.entries(t)) {
      if (k.startsWith('_')) continue;
      scripts.set(k, str(v) ?? str(obj(v)?.cmd) ?? str(obj(v)?.shell) ?? '');
      if (toolName === 'pdm' || toolName === 'poe') runners.set(`${toolName} ${k}`, taskCommand(v));
    }
  }
  // Poe reads more tasks from the files `include` / `include_script` name: its table is open.
  const poe = obj(tool?.poe);
  if (poe && (poe.include !== undefined || poe.include_script !== undefined)) runners.set('poe ?', '');
  const hatch = obj(tool?.hatch);
  if (hatch) hatchScripts(hatch, scripts, runners);
  const pdmDev = obj(obj(tool?.pdm)?.['dev-dependencies']);
  if (pdmDev) for (const [g, list] of Object.entries(pdmDev)) addReqs(list, `tool.pdm.dev-dependencies.${g}`);
  const uv = obj(tool?.uv);
  if (uv) {
    addReqs(uv['dev-dependencies'], 'tool.uv.dev-dependencies');
    const members = obj(uv.workspace)?.members;
    if (Array.isArray(members)) out.workspaces = members.filter((m): m is string => typeof m === 'string');
  }
  if (scripts.size) out.scripts = scripts;
  if (runners.size) out.runners = runners;
  if (runtimes.length) out.runtimes = runtimes;
  return out;
}

/** The command a pdm script / poe task runs, as one line (for pairing renamed ones). */
function taskCommand(v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => str(x) ?? str(obj(x)?.cmd) ?? str(obj(x)?.ref) ?? '').join(' && ');
  const o = obj(v);
  if (!o) return str(v) ?? '';
  for (const k of ['cmd', 'shell', 'script', 'call', 'ref', 'expr']) {
    const c = o[k];
    if (typeof c === 'string') return c;
    if (Array.isArray(c)) return c.filter((x) => typeof x === 'string').join(' ');
  }
  for (const k of ['sequence', 'composite']) if (Array.isArray(o[k])) return taskCommand(o[k]);
  return '';
}

/**
 * Hatch environment scripts (`[tool.hatch.envs.<env>.scripts]`, or `[envs.<env>.scripts]` of
 * hatch.toml): `env:script` in `scripts` (bare for the `default` env, as `hatch run` is written),
 * and `hatch <env>:<script>` in `runners` with the scripts each env inherits from its template
 * (the `default` env unless `template` names another; itself: none), as `hatch run` resolves
 * them. Environment collectors other than the default one make envs the file does not list:
 * the table is open (`hatch ?`).
 */
function hatchScripts(hatch: Record<string, unknown>, scripts: Map<string, string>, runners: Map<string, string>): void {
  const envs = obj(hatch.envs);
  const collectors = obj(obj(hatch.env)?.collectors);
  if (collectors && Object.keys(collectors).some((c) => c !== 'default')) runners.set('hatch ?', '');
  if (!envs) return;
  const own = new Map<string, Map<string, string>>();
  for (const [env, cfg] of Object.entries(envs)) {
    const m = new Map<string, string>();
    const s = obj(obj(cfg)?.scripts);
    if (s) {
      for (const [k, v] of Object.entries(s)) {
        const cmd = Array.isArray(v) ? v.filter((x) => typeof x === 'string').join(' && ') : str(v) ?? '';
        scripts.set(env === 'default' ? k : `${env}:${k}`, cmd);
        m.set(k, cmd);
      }
    }
    own.set(env, m);
  }
  for (const env of own.keys()) {
    // Follow the template chain (cycles stop it).
    const seen = new Set<string>();
    for (let e: string | undefined = env; e !== undefined && !seen.has(e); ) {
      seen.add(e);
      for (const [k, cmd] of own.get(e) ?? []) if (!runners.has(`hatch ${env}:${k}`)) runners.set(`hatch ${env}:${k}`, cmd);
      const t: unknown = obj(envs[e])?.template;
      e = typeof t === 'string' ? (t === e ? undefined : t) : e === 'default' ? undefined : 'default';
    }
  }
}

/** hatch.toml: Hatch's configuration without the `[tool.hatch]` prefix (scripts only). */
export function parseHatchToml(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'pyproject', deps: [], problems: [] };
  const data = readToml(text, out);
  if (!data) return out;
  const scripts = new Map<string, string>();
  const runners = new Map<string, string>();
  hatchScripts(data, scripts, runners);
  if (scripts.size) out.scripts = scripts;
  if (runners.size) out.runners = runners;
  return out;
}

export function parseCargo(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'cargo', deps: [], problems: [] };
  const data = readToml(text, out);
  if (!data) return out;
  const addDeps = (table: unknown, field: string) => {
    const d = obj(table);
    if (!d) return;
    for (const [key, spec] of Object.entries(d)) {
      const o = obj(spec);
      const name = typeof o?.package === 'string' ? o.package : key; // renamed dependency
      const s = str(spec) ?? str(o?.version) ?? (o?.workspace === true ? 'workspace' : o?.path ? `path:${str(o.path)}` : o?.git ? `git:${str(o.git)}` : '');
      out.deps.push({ name, spec: s, field });
    }
  };
  for (const f of ['dependencies', 'dev-dependencies', 'build-dependencies']) addDeps(data[f], f);
  const target = obj(data.target);
  if (target) for (const [cfg, t] of Object.entries(target)) for (const f of ['dependencies', 'dev-dependencies', 'build-dependencies']) addDeps(obj(t)?.[f], `target.${cfg}.${f}`);
  const ws = obj(data.workspace);
  if (ws) {
    addDeps(ws.dependencies, 'workspace.dependencies');
    if (Array.isArray(ws.members)) out.workspaces = ws.members.filter((m): m is string => typeof m === 'string');
  }
  const pkg = obj(data.package);
  if (pkg) {
    if (typeof pkg.name === 'string') out.name = pkg.name;
    const v = pkg.version;
    if (typeof v === 'string') out.version = v;
    else if (obj(v)?.workspace === true) {
      const wv = obj(ws?.package)?.version;
      if (typeof wv === 'string') out.version = wv;
    }
    if (typeof pkg['rust-version'] === 'string') out.runtimes = [{ name: 'rust', spec: pkg['rust-version'] }];
  } else {
    const wv = obj(ws?.package)?.version;
    if (typeof wv === 'string') out.version = wv;
    const rv = obj(ws?.package)?.['rust-version'];
    if (typeof rv === 'string') out.runtimes = [{ name: 'rust', spec: rv }];
  }
  return out;
}

// ------------------------------------------------------------------ line formats

export function parseRequirements(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'requirements', deps: [], problems: [] };
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  for (const raw of lines) {
    let line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) continue;
    const egg = /#egg=([A-Za-z0-9._-]+)/.exec(raw);
    if (line.startsWith('-e ') || line.startsWith('--editable')) {
      if (egg) out.deps.push({ name: egg[1]!, spec: '', field: 'requirements' });
      continue;
    }
    if (line.startsWith('-') || /^[a-z+]+:\/\//i.test(line) || line.startsWith('.') || line.startsWith('/')) continue;
    line = line.replace(/\s--\S+(=\S+)?/g, '').trim(); // per-requirement options (--hash=...)
    const at = /^([A-Za-z0-9._-]+)\s*(\[[^\]]*\])?\s*@\s*\S+/.exec(line);
    if (at) {
      out.deps.push({ name: at[1]!, spec: '', field: 'requirements' });
      continue;
    }
    const p = pep508(line);
    if (p) out.deps.push({ name: p.name, spec: p.spec, field: 'requirements' });
  }
  return out;
}

// ------------------------------------------------------------------ setuptools

/** The `setup(...)` keywords read from setup.py (setuptools' names; setup.cfg's `[options]` keys are the same). */
const SETUP_REQ_FIELDS = ['install_requires', 'tests_require'] as const;

/** PEP 508 environment-marker variables: a chunk starting with one is a marker, not a requirement. */
const PEP508_MARKER = /^(?:python_version|python_full_version|os_name|sys_platform|platform_\w+|implementation_\w+|extra)\b/;

/**
 * `raw` without a trailing ` # comment` (`raw.replace(/\s+#.*$/, '')`, by hand: that regex rescans
 * a long run of blanks from each of its characters): from the blanks before the first `#` that
 * follows a blank and has no line break after it.
 */
function dropInlineComment(raw: string): string {
  const lastBreak = Math.max(raw.lastIndexOf('\r'), raw.lastIndexOf('\u2028'), raw.lastIndexOf('\u2029'), raw.lastIndexOf('\n'));
  for (let h = raw.indexOf('#', lastBreak + 1); h >= 0; h = raw.indexOf('#', h + 1)) {
    if (h === 0 || !/\s/.test(raw[h - 1]!)) continue;
    let b = h - 1;
    while (b > 0 && /\s/.test(raw[b - 1]!)) b--;
    return raw.slice(0, b);
  }
  return raw;
}

/**
 * The requirement lines of a setuptools value written as one string (setuptools' `yield_lines`):
 * one per line, blank lines and `#` lines skipped; a trailing ` # comment` is dropped (pip's
 * reading of requirement files; a URL's `#egg=` has no space before it).
 */
function requirementLines(s: string): string[] {
  const out: string[] = [];
  for (const raw of s.split(/\r?\n/)) {
    const line = dropInlineComment(raw).trim();
    if (line && !line.startsWith('#')) out.push(line);
  }
  return out;
}

type PyTok = { t: 'str'; v: string; f: boolean } | { t: 'name'; v: string } | { t: 'op'; v: string };

/** Python escapes a requirement string may hold (`\\`, quotes, a line continuation); others kept as written. */
function pyUnescape(s: string): string {
  return s.replace(/\\(\r?\n|[\\'"nt])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c.startsWith('\r') || c === '\n' ? '' : c));
}

/**
 * Python source as tokens: names, string literals (with their prefixes: raw, bytes, f-strings
 * flagged), operators. Comments and whitespace dropped; numbers come out as names (never read).
 * An unterminated string ends the tokens (what precedes is kept).
 */
function pyTokens(text: string): PyTok[] {
  const out: PyTok[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\\') {
      i++;
      continue;
    }
    if (c === '#') {
      const e = text.indexOf('\n', i);
      i = e < 0 ? n : e;
      continue;
    }
    let prefix = '';
    if (/[\w]/.test(c)) {
      let j = i + 1;
      while (j < n && /\w/.test(text[j]!)) j++;
      const word = text.slice(i, j);
      if (!(j < n && (text[j] === '"' || text[j] === "'") && /^[rRbBuUfF]{1,2}$/.test(word))) {
        out.push({ t: 'name', v: word });
        i = j;
        continue;
      }
      prefix = word.toLowerCase();
      i = j;
    }
    const q = text[i]!;
    if (q === '"' || q === "'") {
      const triple = text.startsWith(q.repeat(3), i);
      const close = triple ? q.repeat(3) : q;
      let j = i + close.length;
      let end = -1;
      while (j < n) {
        const d = text[j]!;
        if (d === '\\') j += 2;
        else if (!triple && d === '\n') break;
        else if (text.startsWith(close, j)) {
          end = j;
          break;
        } else j++;
      }
      if (end < 0) return out;
      const body = text.slice(i + close.length, end);
      out.push({ t: 'str', v: prefix.includes('r') ? body : pyUnescape(body), f: prefix.includes('f') });
      i = end + close.length;
      continue;
    }
    // `==`, `!=`, `<=`, augmented assignments, `**`, `:=`: two characters, so that a lone `=` is a keyword's.
    const two = text.slice(i, i + 2);
    if (/^(?:[=!<>:+\-*/%&|^@]=|\*\*|\/\/|->)$/.test(two)) {
      out.push({ t: 'op', v: two });
      i += 2;
      continue;
    }
    out.push({ t: 'op', v: c });
    i++;
  }
  return out;
}

/** A Python literal: a string, a list (list, tuple or set display), a dict with string keys. */
type PyLiteral = string | PyLiteral[] | Map<string, PyLiteral>;

const OPEN_OF: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/**
 * Tokens with their brackets matched, in one pass: `close[k]` is the index of the bracket closing
 * the one at `k` (-1 when it is never closed, or `k` is no opening bracket). Any closing bracket
 * closes the innermost open one (a depth count, as the reading always did). Matching once keeps
 * every look-up below constant: scanning for the close at each nesting level was quadratic.
 */
interface PyToks {
  ts: PyTok[];
  close: Int32Array;
}

const isOpen = (t: PyTok): boolean => t.t === 'op' && (t.v === '(' || t.v === '[' || t.v === '{');
const isClose = (t: PyTok): boolean => t.t === 'op' && OPEN_OF[t.v] !== undefined;

function pyMatch(ts: PyTok[]): PyToks {
  const close = new Int32Array(ts.length).fill(-1);
  const stack: number[] = [];
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k]!;
    if (isOpen(t)) stack.push(k);
    else if (isClose(t) && stack.length) close[stack.pop()!] = k;
  }
  return { ts, close };
}

/** Literals nested deeper than this are not read (the field is left unread, as if code built it). */
const MAX_PY_DEPTH = 100;

/** The index of the bracket closing the one at `a` before `b` (or -1). */
function pyClose(p: PyToks, a: number, b: number): number {
  const c = p.close[a] ?? -1;
  return c >= 0 && c < b ? c : -1;
}

/**
 * The ranges of `ts[a, b)` between top-level commas (empty ones, a trailing comma's, dropped).
 * A bracketed part is stepped over to its close; one never closed holds the rest.
 */
function pySplit(p: PyToks, a: number, b: number, sep = ','): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = a;
  for (let k = a; k < b; k++) {
    const t = p.ts[k]!;
    if (t.t !== 'op') continue;
    if (isOpen(t)) {
      const c = p.close[k]!;
      if (c < 0 || c >= b) break;
      k = c;
    } else if (t.v === sep) {
      if (k > start) out.push([start, k]);
      start = k + 1;
    }
  }
  if (b > start) out.push([start, b]);
  return out;
}

/**
 * `ts[a, b)` as a literal, or undefined when code builds it: a name, a call, an operator
 * (`["a"] + extra`), a comprehension, an f-string, `*spread` — or when it nests deeper than
 * MAX_PY_DEPTH. Adjacent strings concatenate.
 */
function pyLiteral(p: PyToks, a: number, b: number, depth = 0): PyLiteral | undefined {
  if (a >= b || depth > MAX_PY_DEPTH) return undefined;
  const ts = p.ts;
  const first = ts[a]!;
  if (first.t === 'str') {
    let s = '';
    for (let k = a; k < b; k++) {
      const t = ts[k]!;
      if (t.t !== 'str' || t.f) return undefined;
      s += t.v;
    }
    return s;
  }
  if (first.t !== 'op' || !(first.v === '(' || first.v === '[' || first.v === '{')) return undefined;
  if (pyClose(p, a, b) !== b - 1) return undefined;
  const parts = pySplit(p, a + 1, b - 1);
  // `("a")` is the string, `("a",)` a tuple: a parenthesis without a top-level comma only groups.
  if (first.v === '(' && parts.length === 1 && parts[0]![1] === b - 1) return pyLiteral(p, a + 1, b - 1, depth + 1);
  if (first.v === '{') {
    const d = pyDict(p, a, b, depth);
    if (d) return [...d.values()].every((v) => v !== undefined) ? (d as Map<string, PyLiteral>) : undefined;
    if (parts.some(([x, y]) => pySplit(p, x, y, ':').length !== 1)) return undefined;
  }
  const list: PyLiteral[] = [];
  for (const [x, y] of parts) {
    const v = pyLiteral(p, x, y, depth + 1);
    if (v === undefined) return undefined;
    list.push(v);
  }
  return list;
}

/**
 * A dict display `ts[a, b)` with literal string keys: key -> its value as a literal (undefined
 * for a value code builds, `"all": extras["all"]`); undefined when it is no such dict (a
 * computed key, `**other`, a set).
 */
function pyDict(p: PyToks, a: number, b: number, depth = 0): Map<string, PyLiteral | undefined> | undefined {
  const first = p.ts[a];
  if (first?.t !== 'op' || first.v !== '{' || pyClose(p, a, b) !== b - 1 || depth > MAX_PY_DEPTH) return undefined;
  const m = new Map<string, PyLiteral | undefined>();
  for (const [x, y] of pySplit(p, a + 1, b - 1)) {
    const kv = pySplit(p, x, y, ':');
    if (kv.length !== 2) return undefined;
    const k = pyLiteral(p, kv[0]![0], kv[0]![1], depth + 1);
    if (typeof k !== 'string') return undefined;
    m.set(k, pyLiteral(p, kv[1]![0], kv[1]![1], depth + 1));
  }
  return m;
}

/**
 * Requirement strings of a literal setuptools value: a list (tuple) of strings, or one string of
 * lines (setuptools takes both); undefined for anything else.
 */
function requirementList(v: PyLiteral | undefined): string[] | undefined {
  if (typeof v === 'string') return requirementLines(v);
  if (!Array.isArray(v) || !v.every((x): x is string => typeof x === 'string')) return undefined;
  return v.flatMap(requirementLines);
}

/**
 * setup.py / setup.cfg above this size are not read: real ones are a few kilobytes, and reading a
 * generated or hostile one of tens of megabytes (one token object per character) took minutes and
 * gigabytes. Such a file is reported and declares nothing (`partial`: its fields are unknown).
 */
export const MAX_SETUP_BYTES = 2 * 1024 * 1024;

function tooLargeSetup(out: ParsedManifest, text: string): boolean {
  if (text.length <= MAX_SETUP_BYTES / 4 || Buffer.byteLength(text, 'utf8') <= MAX_SETUP_BYTES) return false;
  out.problems.push({ message: `larger than ${MAX_SETUP_BYTES} bytes, not read` });
  out.partial = true;
  return true;
}

/**
 * setup.py: the keyword arguments of every `setup(...)` call (`setuptools.setup(` too; not `def
 * setup`), read as literals only — setup.py is a program, and running it is out of the question:
 * `install_requires`, `tests_require` (requirement lists), `extras_require` (a dict of them,
 * field `extras_require.<extra>`), `python_requires` (the Python runtime, like
 * `requires-python`), `name`. A field built by code (a variable, a call, a comprehension, an
 * f-string) declares nothing and marks the parse `partial`, as do `**kwargs` in the call and a
 * file with no `setup(` call (the literal extras of a partly computed `extras_require` are read).
 */
export function parseSetupPy(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'setup-py', deps: [], problems: [] };
  if (tooLargeSetup(out, text)) return out;
  const ts = pyTokens(text);
  const p = pyMatch(ts);
  let calls = 0;
  for (let k = 0; k + 1 < ts.length; k++) {
    const t = ts[k]!;
    const next = ts[k + 1]!;
    if (t.t !== 'name' || t.v !== 'setup' || next.t !== 'op' || next.v !== '(') continue;
    const prev = ts[k - 1];
    if (prev?.t === 'name' && prev.v === 'def') continue;
    const close = pyClose(p, k + 1, ts.length);
    const end = close < 0 ? ts.length : close;
    calls++;
    for (const [x, y] of pySplit(p, k + 2, end)) {
      const a = ts[x]!;
      if (a.t === 'op' && a.v === '**') {
        out.partial = true;
        continue;
      }
      const eq = ts[x + 1];
      if (a.t !== 'name' || eq?.t !== 'op' || eq.v !== '=') continue; // positional, `*args`
      if (a.v === 'extras_require') {
        // Each extra on its own: `"all": all_deps` leaves the literal ones readable.
        const extras = pyDict(p, x + 2, y);
        if (!extras) out.partial = true;
        for (const [extra, list] of extras ?? []) {
          const reqs = requirementList(list);
          if (reqs) addRequirements(out, reqs, `extras_require.${extra}`);
          else out.partial = true;
        }
        continue;
      }
      const v = pyLiteral(p, x + 2, y);
      if (a.v === 'name' || a.v === 'python_requires') {
        if (typeof v !== 'string') out.partial = true;
        else if (a.v === 'name') out.name ??= v.trim();
        else out.runtimes = [...(out.runtimes ?? []), { name: 'python', spec: v.trim() }];
      } else if ((SETUP_REQ_FIELDS as readonly string[]).includes(a.v)) {
        const reqs = requirementList(v);
        if (reqs) addRequirements(out, reqs, a.v);
        else out.partial = true;
      }
    }
    k = end;
  }
  if (!calls) out.partial = true;
  return out;
}

/**
 * An INI file as Python's configparser reads it (setuptools reads setup.cfg so): `[section]`
 * headers; `key = value` or `key: value` (the first `=` or `:`), keys as written (setuptools'
 * `optionxform = str`: the extras keep their case; the last of a repeated key wins); a value goes
 * on over the lines indented deeper than its key's line, blank lines inside kept; full-line
 * `#` / `;` comments skipped anywhere (no inline comments). Lines configparser would reject are
 * skipped. Section -> key -> value (lines joined with `\n`, trailing blank lines dropped).
 */
export function readIni(text: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let key: string | undefined;
  let lines: string[] = [];
  let indent = Number.MAX_SAFE_INTEGER;
  const flush = () => {
    if (section && key !== undefined) section.set(key, lines.join('\n').replace(/\s+$/, ''));
    key = undefined;
    lines = [];
  };
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const value = raw.trim();
    if (value.startsWith('#') || value.startsWith(';')) continue;
    if (!value) {
      if (key !== undefined) lines.push('');
      continue;
    }
    const cur = raw.length - raw.trimStart().length;
    if (key !== undefined && cur > indent) {
      lines.push(value);
      continue;
    }
    flush();
    indent = cur;
    const header = /^\[(.+)\]/.exec(value);
    if (header) {
      const name = header[1]!;
      section = out.get(name) ?? new Map<string, string>();
      out.set(name, section);
      continue;
    }
    if (!section) continue;
    // `key = value`: split at the first `=` or `:` by hand (`/^(.*?)\s*[=:]\s*(.*)$/` backtracked
    // quadratically on a long run of blanks without either); neither side spans a line break.
    const eq = value.search(/[=:]/);
    if (eq < 0) continue;
    const k = value.slice(0, eq).trimEnd();
    const rest = value.slice(eq + 1).trimStart();
    if (!k || /[\r\u2028\u2029]/.test(k) || /[\r\u2028\u2029]/.test(rest)) continue;
    key = k;
    lines = [rest];
  }
  flush();
  return out;
}

/**
 * A setup.cfg requirement value as setuptools splits it (`_parse_list_semicolon`): one per line
 * when it spans lines, else split on `;`, `#` lines dropped. A chunk that is an environment
 * marker cut off by that split (`x; python_version < "3.8"` on one line) is no requirement.
 */
function cfgRequirements(value: string): string[] {
  const chunks = value.includes('\n') ? value.split('\n') : value.split(';');
  return chunks.flatMap(requirementLines).filter((c) => !PEP508_MARKER.test(c));
}

/**
 * setup.cfg (setuptools' declarative configuration): `[metadata] name`, `[options]`
 * `install_requires` / `tests_require` / `python_requires`, `[options.extras_require]` (one key
 * per extra, field `extras_require.<extra>`). Keys written with dashes are setuptools' old
 * spelling of the same keys. A `file:` value is read from other files by setuptools: that field
 * declares nothing here and the parse is `partial`.
 */
export function parseSetupCfg(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'setup-cfg', deps: [], problems: [] };
  if (tooLargeSetup(out, text)) return out;
  const ini = readIni(text);
  // setuptools reads `[metadata]` / `[options]` keys in any case, dashes for underscores (its old spelling).
  const get = (section: string, key: string): string | undefined => {
    for (const [k, v] of ini.get(section) ?? []) if (k.toLowerCase().replace(/-/g, '_') === key) return v;
    return undefined;
  };
  const name = get('metadata', 'name');
  if (name) out.name = name.trim();
  const py = get('options', 'python_requires');
  if (py?.trim()) out.runtimes = [{ name: 'python', spec: py.trim() }];
  const reqs = (value: string | undefined, field: string) => {
    if (value === undefined) return;
    if (/^\s*file:/.test(value)) out.partial = true;
    else addRequirements(out, cfgRequirements(value), field);
  };
  for (const f of SETUP_REQ_FIELDS) reqs(get('options', f), f);
  const extras = ini.get('options.extras_require');
  if (extras) for (const [extra, value] of extras) reqs(value, `extras_require.${extra}`);
  return out;
}

export function parseGoMod(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'go.mod', deps: [], problems: [] };
  const runtimes: Array<{ name: string; spec: string }> = [];
  let block: string | null = null;
  text.split(/\r?\n/).forEach((raw) => {
    const indirect = /\/\/\s*indirect/.test(raw);
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (!line) return;
    if (block) {
      if (line === ')') {
        block = null;
        return;
      }
      if (block === 'require') {
        const [mod, ver] = line.split(/\s+/);
        if (mod && ver) out.deps.push({ name: mod, spec: ver, field: indirect ? 'require-indirect' : 'require' });
      }
      return;
    }
    const m = /^(\w+)\s*(.*)$/.exec(line);
    if (!m) return;
    const [, kw, rest = ''] = m;
    if (rest === '(') {
      block = kw!;
      return;
    }
    if (kw === 'module') out.goModule = out.name = rest.replace(/^"|"$/g, '');
    else if (kw === 'go') runtimes.push({ name: 'go', spec: rest });
    else if (kw === 'toolchain') runtimes.push({ name: 'go-toolchain', spec: rest.replace(/^go/, '') });
    else if (kw === 'require') {
      const [mod, ver] = rest.split(/\s+/);
      if (mod && ver) out.deps.push({ name: mod, spec: ver, field: indirect ? 'require-indirect' : 'require' });
    }
  });
  if (runtimes.length) out.runtimes = runtimes;
  return out;
}

export function parseGemfile(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'gemfile', deps: [], problems: [] };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const g = /^gem\s*\(?\s*["']([^"']+)["'](?:\s*,\s*["']([^"']+)["'])?/.exec(line);
    if (g) {
      out.deps.push({ name: g[1]!, spec: g[2] ?? '', field: 'gem' });
      continue;
    }
    const r = /^ruby\s+["']([^"']+)["']/.exec(line);
    if (r) out.runtimes = [...(out.runtimes ?? []), { name: 'ruby', spec: r[1]! }];
  }
  return out;
}

/**
 * What one Makefile (or a file it includes) says about its targets, before variables are
 * resolved: the Makefile's targets may come from variables assigned in the files it includes.
 */
export interface MakeParts {
  /** Rule targets as written: plain names, patterns (`release-%`, `%`), variable forms (`$(EXECUTABLE)`). */
  rules: string[];
  /** `.PHONY` prerequisites as written (a phony name runs even without a rule). */
  phony: string[];
  /** Variable name -> its assignments in file order (`op` `=`, `:=`, `?=`, `+=`, `!=`...). */
  vars: Map<string, Array<{ op: string; value: string }>>;
  /** `include` / `-include` / `sinclude` paths as written, one per word. */
  includes: string[];
  /** The words of `-include` / `sinclude` (optional: make goes on without the file). */
  optionalIncludes?: Set<string>;
  /**
   * The file makes targets no reading of its lines can list: `$(eval …)` (or another function
   * call standing as a line of its own, whose expansion is read as makefile text), a `.DEFAULT`
   * rule (its recipe runs for any target without a rule of its own).
   */
  open: boolean;
  /** The prerequisites of each match-anything rule (`%: common-% ;`), as written. */
  anyRules: string[][];
  /**
   * Rule target as written -> its recipe (`recipeText`); the last rule with a recipe wins, as
   * in make (which overrides an earlier recipe of the same target).
   */
  recipes: Map<string, string>;
}

/**
 * How much of a recipe is kept: enough to pair a renamed target with its successor by what it
 * runs (the first lines of a recipe say it), while the history pass keeps one summary per
 * Makefile version (thousands on a long history) and the text must stay small.
 */
export const RECIPE_TEXT_MAX = 200;

/**
 * Collects a recipe's lines into one bounded text: each line without make's own prefixes
 * (`@` quiet, `-` ignore errors, `+` always run: they change how, not what, it runs), shell
 * comment lines skipped, whitespace collapsed, lines joined with ` && ` (make stops at the first
 * line that fails, like `&&`). Lines past `RECIPE_TEXT_MAX` are not even looked at.
 */
class RecipeText {
  text = '';
  add(line: string): void {
    if (this.text.length >= RECIPE_TEXT_MAX) return;
    // A line is looked at up to twice the cap: a generated one-line recipe may be very long.
    const l = line.slice(0, 2 * RECIPE_TEXT_MAX).replace(/^[\s@+-]+/, '').replace(/\s+/g, ' ').trim();
    if (!l || l.startsWith('#')) return;
    this.text = this.text ? `${this.text} && ${l}` : l;
  }
  /** The text cut at `RECIPE_TEXT_MAX`, without the word the cut splits. */
  done(): string {
    const t = this.text;
    if (t.length <= RECIPE_TEXT_MAX) return t;
    const cut = t.slice(0, RECIPE_TEXT_MAX);
    return t[RECIPE_TEXT_MAX] === ' ' ? cut : cut.replace(/\s*\S*$/, '') || cut;
  }
}

/** The index of the `)` / `}` closing the reference opened at `i` (`$(` or `${`), or -1. */
function refEnd(s: string, i: number): number {
  const open = s[i + 1]!;
  const close = open === '(' ? ')' : '}';
  let depth = 0;
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j];
    if (c === open) depth++;
    else if (c === close && --depth === 0) return j;
  }
  return -1;
}

/** The first `:` outside variable references, or -1. */
function ruleColon(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '$' && (s[i + 1] === '(' || s[i + 1] === '{')) {
      const e = refEnd(s, i);
      if (e < 0) return -1;
      i = e;
    } else if (c === '$') i++;
    else if (c === ':') return i;
    else if (c === '=' || c === ';') return -1;
  }
  return -1;
}

const MAKE_DIRECTIVE = /^(?:ifeq|ifneq|ifdef|ifndef|else|endif|include|-include|sinclude|export|unexport|override|private|vpath|undefine|load|-load)(?:\s|$)/;
const MAKE_ASSIGN = /^(?:(?:override|export|private)\s+)*([^\s:=#?+!]+)\s*(:::=|::=|:=|\?=|\+=|!=|=)\s*(.*)$/;
/** Functions whose expansion, standing as a line, is nothing (messages). */
const QUIET_FUNCTION = /^\$[({](?:info|warning|error)\s/;

/** Reads a Makefile's rules, variables and includes line by line (its grammar). */
export function readMakeParts(text: string): MakeParts {
  const out: MakeParts = { rules: [], phony: [], vars: new Map(), includes: [], open: false, anyRules: [], recipes: new Map() };
  const texts = new Map<string, RecipeText>();
  // The targets of the rule whose recipe lines follow (none once another line ends the rule), and
  // the text their recipe goes to (given to the targets at its first line).
  let ruleTargets: string[] = [];
  let recipe: RecipeText | null = null;
  const recipeLine = (l: string) => {
    if (!ruleTargets.length) return;
    if (!recipe) {
      recipe = new RecipeText();
      for (const t of ruleTargets) texts.set(t, recipe);
    }
    recipe.add(l);
  };
  let inDefine = false;
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  for (const raw of lines) {
    if (inDefine) {
      if (/^\s*endef\b/.test(raw)) inDefine = false;
      continue;
    }
    // A recipe line (tab), a comment (neither ends the rule above).
    if (raw.startsWith('\t')) {
      recipeLine(raw);
      continue;
    }
    if (/^\s*#/.test(raw)) continue;
    if (/^\s*(?:(?:override|export|private)\s+)*define\b/.test(raw)) {
      ruleTargets = [];
      inDefine = true;
      continue;
    }
    const line = raw.replace(/(^|[^\\])#.*$/, '$1').trim();
    if (!line) continue;
    // Conditionals may stand between a rule and its recipe lines; any other line ends the rule.
    if (/^(?:ifeq|ifneq|ifdef|ifndef|else|endif)(?:\s|$)/.test(line)) continue;
    ruleTargets = [];
    recipe = null;
    const inc = /^(-?include|sinclude)\s+(.*)$/.exec(line);
    if (inc) {
      for (const w of splitWords(inc[2]!)) {
        out.includes.push(w);
        if (inc[1] !== 'include') (out.optionalIncludes ??= new Set()).add(w);
      }
      continue;
    }
    const asg = MAKE_ASSIGN.exec(line);
    if (asg && ruleColonBeforeAssign(line)) {
      const list = out.vars.get(asg[1]!);
      const a = { op: asg[2]!, value: asg[3]!.trim() };
      if (list) list.push(a);
      else out.vars.set(asg[1]!, [a]);
      continue;
    }
    if (MAKE_DIRECTIVE.test(line)) continue;
    // A line that is one function call: its expansion is parsed as makefile text.
    if (/^\$[({]/.test(line) && refEnd(line, 0) === line.length - 1) {
      if (!QUIET_FUNCTION.test(line)) out.open = true;
      continue;
    }
    if (/\$[({]eval\s/.test(line)) out.open = true;
    const c = ruleColon(line);
    if (c <= 0) continue;
    const lhs = line.slice(0, c).trim();
    let rest = line.slice(c + 1);
    if (rest.startsWith(':')) rest = rest.slice(1); // double-colon rule
    if (rest.startsWith('=')) continue;
    const semi = rest.indexOf(';');
    const inline = semi >= 0 ? rest.slice(semi + 1) : undefined;
    if (semi >= 0) rest = rest.slice(0, semi);
    const targets = splitWords(lhs);
    // The recipe is what `make <target>` runs: kept for plain targets (special ones, patterns, `%` skipped).
    ruleTargets = targets.filter((t) => !t.startsWith('.') && !t.includes('%'));
    if (inline !== undefined) recipeLine(inline); // `t: prereqs ; command`
    if (targets.length === 1 && targets[0] === '.PHONY') {
      for (const t of splitWords(rest.replace(/\|.*$/, ''))) out.phony.push(t);
      continue;
    }
    if (targets.includes('.DEFAULT')) out.open = true;
    // Static pattern rule (`$(OBJS): %.o: %.c`): every target matches the target pattern, which
    // stands for targets the reading cannot resolve.
    const c2 = ruleColon(rest);
    const staticPattern = c2 >= 0 && rest[c2 + 1] !== '=' ? rest.slice(0, c2).trim() : undefined;
    for (const t of targets) {
      if (t.startsWith('.')) continue; // special targets, suffix rules
      if (t === '%' && !staticPattern) {
        out.anyRules.push(splitWords(rest.replace(/\|.*$/, '')));
        continue;
      }
      out.rules.push(staticPattern && staticPattern.includes('%') && t.includes('$') ? staticPattern : t);
    }
  }
  for (const [t, r] of texts) {
    const s = r.done();
    if (s) out.recipes.set(t, s);
  }
  return out;
}

/** An assignment line, not a rule with a target-specific assignment (`t: X = 1`). */
function ruleColonBeforeAssign(line: string): boolean {
  const c = ruleColon(line);
  // `X := y`, `X ::= y`: the first colon opens the operator.
  return c < 0 || line[c + 1] === '=' || (line[c + 1] === ':' && (line[c + 2] === '=' || (line[c + 2] === ':' && line[c + 3] === '=')));
}

/** Whitespace-separated words, a variable reference (`$(addprefix a, b)`) kept whole. */
function splitWords(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '$' && (s[i + 1] === '(' || s[i + 1] === '{')) {
      const e = refEnd(s, i);
      const end = e < 0 ? s.length - 1 : e;
      cur += s.slice(i, end + 1);
      i = end;
    } else if (/\s/.test(c)) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

/** More alternative values than this for one name: not resolved. */
const MAX_ALTERNATIVES = 64;
/**
 * More characters than this in all the expansions of one text (alternatives × length): not
 * resolved, left as written (open), like a value with too many alternatives.
 */
const MAX_EXPANSION = 64 * 1024;
/** Rule targets longer than this are not resolved (left as written: a pattern, open). */
const MAX_RESOLVED_TARGET = 512;

/**
 * Resolves variable references with the simple assignments of `vars` (every file of the
 * Makefile: the file and those it includes). A variable's alternatives are all the values it is
 * given (conditional branches, `?=` defaults: more targets, never fewer); `+=` appends. What does
 * not resolve (`!=`, functions, automatic, environment or undefined variables) stays as written
 * inside the value (`PROMU := $(FIRST_GOPATH)/bin/promu`), and a target holding it is matched
 * with a wildcard there (`makeTargetDefined`).
 */
export class MakeResolver {
  private readonly memo = new Map<string, string[] | null>();
  constructor(private readonly vars: Map<string, Array<{ op: string; value: string }>>) {}

  /** The variable's values, `null` when it has none the reading can know. */
  variable(name: string, depth = 0): string[] | null {
    const hit = this.memo.get(name);
    if (hit !== undefined) return hit;
    const list = this.vars.get(name);
    if (!list || depth > 8) return null;
    this.memo.set(name, null); // a self-reference stays as written
    let alts: string[] | null = [];
    for (const a of list) {
      const v = a.op === '!=' ? null : this.text(a.value, depth + 1);
      if (!v) {
        alts = null;
        break;
      }
      if (a.op === '+=' && alts.length) alts = alts.flatMap((x) => v.map((y) => (x && y ? `${x} ${y}` : x || y)));
      else alts.push(...v);
      alts = [...new Set(alts)];
      // Both caps, so that a `+=` product (at most 64 × 64 pairs of bounded values) stays small.
      if (alts.length > MAX_ALTERNATIVES || alts.reduce((sum, x) => sum + x.length, 0) > MAX_EXPANSION) {
        alts = null;
        break;
      }
    }
    this.memo.set(name, alts);
    return alts;
  }

  /**
   * Every expansion of `s`, references that do not resolve kept as written; `null` when too many
   * (more than MAX_ALTERNATIVES, or more than MAX_EXPANSION characters in all: a value expanded
   * into every alternative could otherwise take minutes and gigabytes on one crafted Makefile).
   * Literal runs are copied with one slice each.
   */
  text(s: string, depth = 0): string[] | null {
    let outs = [''];
    let total = 0; // the characters of `outs` together
    const add = (piece: string): boolean => {
      total += outs.length * piece.length;
      if (total > MAX_EXPANSION) return false;
      if (piece) outs = outs.map((o) => o + piece);
      return true;
    };
    let i = 0;
    while (i < s.length) {
      const d = s.indexOf('$', i);
      if (d !== i) {
        if (!add(s.slice(i, d < 0 ? s.length : d))) return null;
        if (d < 0) break;
        i = d;
      }
      const n = s[i + 1];
      let ref: string;
      let name = ''; // automatic variables ($@, $*) and `$$` are not resolved
      if (n === '(' || n === '{') {
        const e = refEnd(s, i);
        ref = e < 0 ? s.slice(i) : s.slice(i, e + 1);
        if (e >= 0) name = s.slice(i + 2, e);
        i = e < 0 ? s.length : e + 1;
      } else {
        ref = s.slice(i, i + 2);
        i += 2;
      }
      const vals = /^[A-Za-z_][\w.-]*$/.test(name) ? this.variable(name, depth) : null;
      if (!vals) {
        if (!add(ref)) return null;
        continue;
      }
      if (outs.length * vals.length > MAX_ALTERNATIVES) return null;
      // Every alternative so far once per value: their characters vals.length times, plus each value once per alternative.
      total = total * vals.length + outs.length * vals.reduce((sum, v) => sum + v.length, 0);
      if (total > MAX_EXPANSION) return null;
      outs = outs.flatMap((o) => vals.map((v) => o + v));
    }
    return outs;
  }

  /**
   * The targets a rule target as written stands for (words of every expansion). A target name
   * longer than MAX_RESOLVED_TARGET is no name anyone types: left as written (a pattern, open).
   */
  targets(t: string): string[] {
    if (!t.includes('$')) return [t];
    if (t.length > MAX_RESOLVED_TARGET) return [t];
    const alts = this.text(t);
    if (!alts) return [t];
    return [...new Set(alts.flatMap(splitWords))];
  }
}

/** A target as written holds a pattern (`%`) or an unresolved reference (`$(X)`, `$@`). */
export const isMakePattern = (t: string): boolean => t.includes('%') || /\$(?!\$)/.test(t.replace(/\$\$/g, ''));

/** The literal text before the first `%` or reference. */
const literalHead = (t: string): string => t.slice(0, t.search(/[%$]|$/));
/** The literal text after the last `%` or reference. */
function literalTail(t: string): string {
  const m = /[%)}]([^%$)}]*)$/.exec(t);
  return m ? m[1]! : t;
}

/**
 * What a target pattern says about the names `x` for which `${pre}x${post}` matches it (a
 * superset: a wildcard at an end absorbs the affix); `null` when no name can.
 */
function forwardPattern(t: string, pre: string, post: string): string | null {
  const head = literalHead(t);
  let rest: string;
  if (head.startsWith(pre)) rest = t.slice(pre.length);
  else if (pre.startsWith(head)) rest = t.slice(head.length);
  else return null;
  const tail = literalTail(rest);
  if (tail.endsWith(post)) rest = rest.slice(0, rest.length - post.length);
  else if (post.endsWith(tail)) rest = rest.slice(0, rest.length - tail.length);
  else return null;
  return rest || null;
}

/**
 * The targets of one Makefile from its parts and those of the files it includes: `names` are
 * the plain target names (variables resolved), `patterns` the rest (`release-%`, `$(BIN)-%`).
 * A match-anything rule makes `x` when it can make its prerequisites: with one prerequisite
 * pattern `pre%post` (Prometheus' `%: common-% ;`) that is the names whose `pre…post` form is
 * a target, unless `filesLike(pre)` says a file may stand for it (an existing prerequisite file
 * counts too); any other match-anything rule (`%: ;`, `%:` with a recipe) matches every name.
 */
export function makeTargets(parts: MakeParts[], filesLike: (pre: string) => boolean = () => true): { names: string[]; patterns: string[] } {
  const vars = new Map<string, Array<{ op: string; value: string }>>();
  for (const p of parts) for (const [k, v] of p.vars) vars.set(k, [...(vars.get(k) ?? []), ...v]);
  const r = new MakeResolver(vars);
  const names = new Set<string>();
  const patterns = new Set<string>();
  const forwards: Array<[string, string]> = [];
  for (const p of parts) {
    for (const raw of p.rules) for (const t of r.targets(raw)) (isMakePattern(t) ? patterns : names).add(t);
    // A phony name is a target only when it resolves to a plain name (the rule defines it otherwise).
    for (const raw of p.phony) for (const t of r.targets(raw)) if (!isMakePattern(t) && !t.startsWith('.')) names.add(t);
    for (const prereqs of p.anyRules) {
      const words = prereqs.flatMap((w) => r.targets(w));
      const stems = words.filter((w) => w.includes('%'));
      const pre = stems.length === 1 ? stems[0]!.slice(0, stems[0]!.indexOf('%')) : '';
      const post = stems.length === 1 ? stems[0]!.slice(stems[0]!.indexOf('%') + 1) : '';
      if (stems.length !== 1 || words.some((w) => w.includes('$')) || !pre || post.includes('%') || filesLike(pre)) patterns.add('%');
      else forwards.push([pre, post]);
    }
  }
  if (forwards.length && !patterns.has('%')) {
    const found = new Set<string>();
    for (const [pre, post] of forwards) {
      for (const n of names) if (n.length > pre.length + post.length && n.startsWith(pre) && n.endsWith(post)) found.add(n.slice(pre.length, n.length - post.length));
      for (const t of patterns) {
        const f = forwardPattern(t, pre, post);
        if (f) found.add(f);
      }
    }
    for (const f of found) (isMakePattern(f) ? patterns : names).add(f);
  }
  return { names: [...names], patterns: [...patterns] };
}

/**
 * Makefile targets: plain names from explicit rules and `.PHONY` (variables resolved with the
 * file's own simple assignments; special targets skipped); `make` holds what the index needs to
 * add patterns and the files it includes (manifests.ts).
 */
export function parseMakefile(text: string): ParsedManifest {
  const parts = readMakeParts(text);
  const recipeCommands = new Map<string, string>();
  let resolver: MakeResolver | undefined;
  for (const [raw, recipe] of parts.recipes) {
    // A target written with variables (`$(BIN):`) stands for the names they resolve to.
    const names = raw.includes('$') ? (resolver ??= new MakeResolver(parts.vars)).targets(raw) : [raw];
    for (const n of names) if (!isMakePattern(n)) recipeCommands.set(n, recipe);
  }
  return { kind: 'makefile', deps: [], targets: makeTargets([parts]).names, make: parts, recipeCommands, problems: [] };
}

/**
 * The recipe a justfile line declares (`name params...: deps`, `@name:`), or undefined: the name,
 * then straight a `:` or whitespace and the parameters up to the first `:` outside quotes, which
 * must not be followed by `=` (`x := 1` is an assignment); a quote left open declares nothing.
 * A hand-written scan, linear in the line: the regex it replaces
 * (`/^@?([A-Za-z_][\w-]*)((?:\s+(?:[^:'"]|'[^']*'|"[^"]*")*?)?)\s*:(?!=)/`) backtracked
 * cubically on a long line without a colon, hanging the run on one bad justfile.
 */
export function justRecipeName(line: string): string | undefined {
  let i = line[0] === '@' ? 1 : 0;
  const start = i;
  if (!/[A-Za-z_]/.test(line[i] ?? '')) return undefined;
  i++;
  while (i < line.length && /[\w-]/.test(line[i]!)) i++;
  const name = line.slice(start, i);
  // No parameters: the colon right after the name.
  if (line[i] === ':') return line[i + 1] === '=' ? undefined : name;
  if (!/\s/.test(line[i] ?? '')) return undefined;
  for (; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const e = line.indexOf(c, i + 1);
      if (e < 0) return undefined;
      i = e;
    } else if (c === ':') return line[i + 1] === '=' ? undefined : name;
  }
  return undefined;
}

/**
 * A justfile's recipes and aliases, with each recipe's body (its indented lines, as
 * `recipeText`: what a renamed recipe is paired with its successor by; an alias has none).
 */
export function parseJustfile(text: string): ParsedManifest {
  const recipes = new Set<string>();
  const bodies = new Map<string, RecipeText>();
  let body: RecipeText | null = null;
  for (const raw of text.split(/\r?\n/)) {
    if (!raw) continue;
    if (/^\s/.test(raw)) {
      body?.add(raw);
      continue;
    }
    if (/^[#[]/.test(raw)) continue; // comments and attributes (`[private]`) do not end the recipe above
    body = null;
    const alias = /^alias\s+([A-Za-z_][\w-]*)\s*:=/.exec(raw);
    if (alias) {
      recipes.add(alias[1]!);
      continue;
    }
    if (/^(set|export|import|mod|if|else)\b/.test(raw)) continue;
    const name = justRecipeName(raw);
    if (name !== undefined) {
      recipes.add(name);
      bodies.set(name, (body = new RecipeText()));
    }
  }
  const recipeCommands = new Map<string, string>();
  for (const [name, b] of bodies) {
    const s = b.done();
    if (s) recipeCommands.set(name, s);
  }
  return { kind: 'justfile', deps: [], recipes: [...recipes], recipeCommands, problems: [] };
}

// ------------------------------------------------------------------ Deno, go-task

/**
 * deno.json / deno.jsonc: the names of `tasks` (a command string, or an object whose `command`
 * it runs), read as JSON with comments and trailing commas (Deno reads both files so).
 */
export function parseDenoConfig(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'deno', deps: [], problems: [] };
  const data = readJsonc(text, out.problems);
  if (data === undefined) return out;
  const doc = obj(data);
  if (!doc) return out;
  const tasks = new Map<string, string>();
  const t = obj(doc.tasks);
  if (t) for (const [k, v] of Object.entries(t)) tasks.set(k, str(v) ?? str(obj(v)?.command) ?? '');
  out.tasks = tasks;
  if (doc.workspace !== undefined) out.denoWorkspace = true;
  return out;
}

/** The command lines of a go-task task (`cmds` items, `cmd`, or the shorthand string / list), as one line. */
function goTaskCommand(v: unknown): string {
  const line = (x: unknown): string => str(x) ?? str(obj(x)?.cmd) ?? '';
  if (Array.isArray(v)) return v.map(line).filter(Boolean).join(' && ');
  const o = obj(v);
  if (!o) return str(v) ?? '';
  if (typeof o.cmd === 'string') return o.cmd;
  return Array.isArray(o.cmds) ? o.cmds.map(line).filter(Boolean).join(' && ') : '';
}

/**
 * A Taskfile (go-task): the keys of `tasks` and their `aliases`; task names holding `*` are
 * wildcard tasks (patterns); `includes` as written, each a namespace of another Taskfile's tasks.
 */
export function parseTaskfile(text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'taskfile', deps: [], problems: [] };
  const yaml = readYaml(text, out.problems);
  if (!yaml) return out;
  const data = yaml.data;
  const doc = obj(data);
  const tasks = new Map<string, string>();
  const patterns: string[] = [];
  const includes: TaskInclude[] = [];
  const strings = (v: unknown) => (Array.isArray(v) ? v.map(str).filter((x): x is string => !!x) : []);
  for (const [name, v] of Object.entries(obj(doc?.tasks) ?? {})) {
    if (name.includes('*')) patterns.push(name);
    else tasks.set(name, goTaskCommand(v));
    for (const a of strings(obj(v)?.aliases)) if (!tasks.has(a)) tasks.set(a, '');
  }
  for (const [ns, v] of Object.entries(obj(doc?.includes) ?? {})) {
    const o = obj(v);
    includes.push({ ns, taskfile: str(v) ?? str(o?.taskfile), aliases: strings(o?.aliases), flatten: o?.flatten === true });
  }
  out.tasks = tasks;
  if (patterns.length) out.taskPatterns = patterns;
  if (includes.length) out.taskIncludes = includes;
  return out;
}

const TOOL_VERSIONS_NAMES: Record<string, string> = { nodejs: 'node', node: 'node', python: 'python', golang: 'go', go: 'go', rust: 'rust', ruby: 'ruby', pnpm: 'pnpm', yarn: 'yarn', bun: 'bun', deno: 'deno', java: 'java', php: 'php', elixir: 'elixir', dotnet: 'dotnet', 'dotnet-core': 'dotnet', swift: 'swift' };

export function parseRuntimeFile(path: string, text: string): ParsedManifest {
  const out: ParsedManifest = { kind: 'runtime-file', deps: [], problems: [] };
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === 'global.json') {
    // The .NET SDK a repository pins (`sdk.version`, e.g. 10.0.100): the SDK the build runs with.
    const out2 = readJsonc(text, out.problems);
    const v = str(obj(obj(out2)?.sdk)?.version);
    if (v && /^\d+\.\d+/.test(v)) out.runtimes = [{ name: 'dotnet', spec: v }];
    return out;
  }
  const first = text.split(/\r?\n/).map((l) => l.replace(/#.*$/, '').trim()).find((l) => l) ?? '';
  if (base === '.tool-versions') {
    out.runtimes = [];
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.replace(/#.*$/, '').trim();
      const [tool, ver] = line.split(/\s+/);
      if (tool && ver) out.runtimes.push({ name: (Object.hasOwn(TOOL_VERSIONS_NAMES, tool) ? TOOL_VERSIONS_NAMES[tool] : undefined) ?? tool, spec: ver });
    }
  } else if (first) {
    const name = base === '.python-version' ? 'python' : base === '.ruby-version' ? 'ruby' : 'node';
    out.runtimes = [{ name, spec: first }];
  }
  return out;
}

export { parseYaml };
