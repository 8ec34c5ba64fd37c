#!/usr/bin/env node
// Fails when the committed dist/ differs from a fresh build of src/ (CI's check-dist step).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = mkdtempSync(join(tmpdir(), 'memory-audit-dist-'));
try {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), out], { cwd: root, stdio: 'inherit' });
  const fresh = readdirSync(out).sort();
  const committed = readdirSync(join(root, 'dist')).sort();
  const stale = [];
  for (const name of new Set([...fresh, ...committed])) {
    let a = null;
    let b = null;
    try { a = readFileSync(join(out, name)); } catch {}
    try { b = readFileSync(join(root, 'dist', name)); } catch {}
    if (!a || !b || !a.equals(b)) stale.push(name);
  }
  if (stale.length > 0) {
    console.error(`dist/ is out of date (${stale.join(', ')}): run \`npm run build\` and commit dist/.`);
    process.exit(1);
  }
  console.log(`dist/ is up to date (${fresh.join(', ')}).`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
