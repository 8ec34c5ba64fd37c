// Bundles the Action (dist/index.js) and the CLI (dist/cli.js) with esbuild.
// Usage: node scripts/build.mjs [outdir]   (default: dist)
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

const outdir = resolve(process.argv[2] ?? 'dist');
mkdirSync(outdir, { recursive: true });

// ESM output of CommonJS dependencies needs `require`, `__filename` and `__dirname`.
const banner = [
  "import { createRequire as __maCreateRequire } from 'node:module';",
  "import { fileURLToPath as __maFileURLToPath } from 'node:url';",
  "import { dirname as __maDirname } from 'node:path';",
  'const require = __maCreateRequire(import.meta.url);',
  'const __filename = __maFileURLToPath(import.meta.url);',
  'const __dirname = __maDirname(__filename);',
].join('\n');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  legalComments: 'none',
  logLevel: 'warning',
  sourcemap: false,
  minify: false,
  charset: 'utf8',
};

await build({ ...common, entryPoints: ['src/index.ts'], outfile: `${outdir}/index.js`, banner: { js: banner } });
await build({ ...common, entryPoints: ['src/cli-main.ts'], outfile: `${outdir}/cli.js`, banner: { js: `#!/usr/bin/env node\n${banner}` } });
