// Which files are manifests, by name. Any depth; vendored trees are skipped.
import type { ManifestKind } from '../../types.js';

const SKIP_SEGMENT = /(^|\/)(node_modules|vendor|bower_components|\.git|\.venv|venv|site-packages|third_party)\//;

export function manifestKind(path: string): ManifestKind | undefined {
  if (SKIP_SEGMENT.test(path)) return undefined;
  const slash = path.lastIndexOf('/');
  const base = slash < 0 ? path : path.slice(slash + 1);
  switch (base) {
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
      return 'pyproject';
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
    case '.nvmrc':
    case '.node-version':
    case '.python-version':
    case '.ruby-version':
    case '.tool-versions':
      return 'runtime-file';
  }
  if (/^requirements([-_.][\w.-]*)?\.(txt|in)$/i.test(base) || /(^|\/)requirements\/[\w.-]+\.(txt|in)$/i.test(path)) {
    return 'requirements';
  }
  return undefined;
}

/** Lockfiles are large: read at HEAD only, never through history. */
export function isLockfile(kind: ManifestKind): boolean {
  return kind === 'package-lock' || kind === 'pnpm-lock' || kind === 'yarn-lock';
}

/** Kinds whose history is followed (dependencies, scripts, targets, recipes). */
export function hasHistory(kind: ManifestKind): boolean {
  return kind !== 'runtime-file' && !isLockfile(kind) && kind !== 'pnpm-workspace';
}
