// Which files are manifests, by name. Any depth; vendored trees are skipped.
import type { ManifestKind } from '../../types.js';

/** Vendored and installed trees: their manifests and lockfiles are not the project's. */
export const SKIP_SEGMENT = /(^|\/)(node_modules|vendor|bower_components|\.git|\.venv|venv|site-packages|third_party)\//;
/** Copies of dependencies' manifests that tools write into the tree (Mix `deps/`, Dart tool caches, Flutter plugin links). */
const TOOL_COPIES = /(^|\/)(deps|_build|\.dart_tool|\.symlinks|\.pub-cache)\//;

/** Gradle build logic compiled before the build (conventions, dependency constants). */
const BUILD_LOGIC = /(^|\/)(buildSrc|build-logic)\//;

/** Every manifest kind (types.ts), those read by ecosystems.ts (Gradle, Composer, Mix, Pub, MSBuild) included. */
export type AnyManifestKind = ManifestKind;

export function manifestKind(path: string): AnyManifestKind | undefined {
  if (SKIP_SEGMENT.test(path)) return undefined;
  const slash = path.lastIndexOf('/');
  const base = slash < 0 ? path : path.slice(slash + 1);
  switch (base) {
    case 'composer.json':
      return 'composer';
    case 'mix.exs':
      return TOOL_COPIES.test(path) ? undefined : 'mix';
    case 'pubspec.yaml':
      return TOOL_COPIES.test(path) ? undefined : 'pubspec';
    case 'package.json':
      return 'package.json';
    case 'pnpm-workspace.yaml':
    case 'pnpm-workspace.yml':
      return 'pnpm-workspace';
    case 'package-lock.json':
    case 'npm-shrinkwrap.json':
      return 'package-lock';
    case 'pnpm-lock.yaml':
      return 'pnpm-lock';
    case 'yarn.lock':
      return 'yarn-lock';
    case 'pyproject.toml':
    // Hatch's own configuration file: read like a pyproject (its scripts; see parse.ts).
    case 'hatch.toml':
      return 'pyproject';
    // setuptools' own files: the literal arguments of `setup(...)` and setup.cfg's `[options]`
    // (see parse.ts). Projects that keep their dependencies there (dagster, celery, ray) have no
    // other manifest declaring them.
    case 'setup.py':
      return 'setup-py';
    case 'setup.cfg':
      return 'setup-cfg';
    case 'Cargo.toml':
      return 'cargo';
    case 'go.mod':
      return 'go.mod';
    case 'Gemfile':
    case 'gems.rb':
      return 'gemfile';
    case 'Makefile':
    case 'makefile':
    case 'GNUmakefile':
      return 'makefile';
    case 'justfile':
    case 'Justfile':
    case '.justfile':
      return 'justfile';
    // Deno's configuration: its `tasks` (see parse.ts).
    case 'deno.json':
    case 'deno.jsonc':
      return 'deno';
    // go-task's Taskfiles, every name Task looks for (https://taskfile.dev/docs: supported file names).
    case 'Taskfile.yml':
    case 'taskfile.yml':
    case 'Taskfile.yaml':
    case 'taskfile.yaml':
    case 'Taskfile.dist.yml':
    case 'taskfile.dist.yml':
    case 'Taskfile.dist.yaml':
    case 'taskfile.dist.yaml':
      return 'taskfile';
    // Turborepo's task configuration (the root one and packages' own): its task keys, with
    // history, so a task renamed there is seen (see parse.ts `parseTurboJson`).
    case 'turbo.json':
    case 'turbo.jsonc':
      return 'turbo';
    // Nx: a project's configuration (its name and targets, with history) and the workspace's
    // nx.json (plugins and target defaults, HEAD only).
    case 'project.json':
      return 'nx-project';
    case 'nx.json':
      return 'nx';
    // SwiftPM's manifest (dependencies, swift-tools-version, platforms; see ecosystems.ts).
    // Maven's project model (see ecosystems.ts `parseMavenPom`). POMs kept as test data of Maven
    // plugins (`src/it/`, `src/test/resources/`) and build output (`target/`) are no modules.
    case 'pom.xml':
      return /(^|\/)(target|src\/it|src\/test)\//.test(path) ? undefined : 'maven';
    case 'Package.swift':
      return TOOL_COPIES.test(path) || /(^|\/)(\.build|\.swiftpm|SourcePackages)\//.test(path) ? undefined : 'swift-package';
    // The .NET SDK pin (`sdk.version`): a runtime file like .nvmrc.
    case 'global.json':
    case '.nvmrc':
    case '.node-version':
    case '.python-version':
    case '.ruby-version':
    case '.tool-versions':
      return 'runtime-file';
  }
  // Makefiles by another name, run with `make -f Makefile.sync x` or included (`build/release.mk`);
  // Automake's `Makefile.am` / configure's `Makefile.in` are templates, not makefiles.
  if (/^(?:GNU)?[Mm]akefile\.(?!am$|in$)[\w.-]+$/.test(base) || /^[\w.-]+\.mk$/.test(base)) return 'makefile';
  if (base.endsWith('.versions.toml')) return 'gradle-catalog';
  // Every Gradle script (build, settings, `apply from:` files) and the build logic of buildSrc /
  // build-logic: dependencies move between them, and one left unread would make a dependency
  // that moved there look removed.
  if (base.endsWith('.gradle') || base.endsWith('.gradle.kts') || ((base.endsWith('.kt') || base.endsWith('.groovy')) && BUILD_LOGIC.test(path))) return 'gradle-build';
  // Projects and every imported MSBuild file (`Directory.Packages.props`, `eng/Testing.props`):
  // package items move between them the same way.
  if (/\.(cs|fs|vb)proj$|\.props$|\.targets$/.test(base)) return 'msbuild';
  if (/^requirements([-_.][\w.-]*)?\.(txt|in)$/i.test(base) || /(^|\/)requirements\/[\w.-]+\.(txt|in)$/i.test(path)) {
    return 'requirements';
  }
  return undefined;
}

/** Lockfiles are large: read at HEAD only, never through history. */
export function isLockfile(kind: AnyManifestKind): boolean {
  return kind === 'package-lock' || kind === 'pnpm-lock' || kind === 'yarn-lock';
}

/** Kinds whose history is followed (dependencies, scripts, targets, recipes). */
export function hasHistory(kind: AnyManifestKind): boolean {
  return kind !== 'runtime-file' && !isLockfile(kind) && kind !== 'pnpm-workspace' && kind !== 'nx';
}

/** go-task's Taskfile names, in the order Task looks for them in a folder. */
export const TASKFILE_NAMES = [
  'Taskfile.yml', 'taskfile.yml', 'Taskfile.yaml', 'taskfile.yaml',
  'Taskfile.dist.yml', 'taskfile.dist.yml', 'Taskfile.dist.yaml', 'taskfile.dist.yaml',
];
/**
 * The key a project.json's own `name` is kept under in the script history (`${manifest}#${key}`),
 * beside its targets: the history of Nx project names, apart from package names (a project
 * named `api` is no npm package). A target name never starts with a control character.
 */
export const NX_NAME_KEY = '\u0001name:';
/** Deno's configuration file names, in the order Deno looks for them in a folder. */
export const DENO_CONFIG_NAMES = ['deno.json', 'deno.jsonc'];
