#!/usr/bin/env node
// `npm start`: builds the demo repository in a temporary folder and audits it with the bundled CLI.
//   node scripts/demo.mjs                      audit (text report)
//   node scripts/demo.mjs --format json        any CLI options are passed through
//   node scripts/demo.mjs --build-only <dir>   only build the demo repository into <dir>
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDemo } from '../examples/build-demo.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

if (args[0] === '--build-only') {
  const dir = args[1] ?? mkdtempSync(join(tmpdir(), 'memory-audit-demo-'));
  console.log(buildDemo(dir));
  process.exit(0);
}

const dir = buildDemo(mkdtempSync(join(tmpdir(), 'memory-audit-demo-')));
process.stderr.write(`Demo repository built at ${dir}\n$ memory-audit --repo ${dir} ${args.join(' ')}\n\n`);
const run = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), '--repo', dir, '--fail-on', 'never', ...args], { stdio: 'inherit' });
process.exit(run.status ?? 2);
