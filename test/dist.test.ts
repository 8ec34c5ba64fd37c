import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { VERSION } from '../src/version.js';

describe('dist/', () => {
  it('matches a fresh build of src/ (run `npm run build` and commit dist/ when this fails)', () => {
    const fresh = inject('bundleDir');
    expect(readdirSync('dist').sort()).toEqual(readdirSync(fresh).sort());
    for (const name of readdirSync(fresh)) {
      const same = readFileSync(join(fresh, name)).equals(readFileSync(join('dist', name)));
      expect(same, `dist/${name} is out of date: run \`npm run build\` and commit dist/`).toBe(true);
    }
  });

  it('src/version.ts agrees with package.json', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
