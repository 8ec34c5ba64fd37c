import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../src/version.js';

describe('dist/', () => {
  it('matches a fresh build of src/ (run `npm run build` and commit dist/ when this fails)', () => {
    const out = execFileSync(process.execPath, ['scripts/check-dist.mjs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toContain('dist/ is up to date (cli.js, index.js)');
  });

  it('src/version.ts agrees with package.json', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
