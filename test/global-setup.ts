// Builds the two bundles (the CLI and the Action) once per test run, with the project's own build
// script, into a temp folder that every test file reads through `inject('bundleDir')`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A fresh build of src/ (cli.js and index.js), made once per run. */
    bundleDir: string;
  }
}

let dir = '';

export default function setup(project: TestProject): () => void {
  const root = resolve(import.meta.dirname, '..');
  dir = mkdtempSync(join(tmpdir(), 'ma-test-bundle-'));
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), dir], { cwd: root, stdio: 'pipe' });
  project.provide('bundleDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
