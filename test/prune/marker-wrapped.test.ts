// The `[corrected …]` marker in hard-wrapped prose goes where the sentence ends, not at the end of
// the changed physical line ("That became a [corrected …]\n  no-op in 26.2.0"): keycloak and saleor
// wrap their memory at 100 columns (QA round 14). A line that ends a sentence keeps the marker.
import { afterAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runPrune } from '../../src/commands/prune.js';
import { cleanupRepos, makeRepo } from '../staleness/helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

describe('the [corrected] marker in hard-wrapped prose', () => {
  it('goes after the sentence that holds the correction; a second prune changes nothing', async () => {
    const r = await makeRepo();
    const memory = [
      '# Release',
      '',
      '- `misc/set-version.sh` seds the version in `quarkus/container/Dockerfile`. That became a',
      '  no-op in 26.2.0, when the image moved. Keep it anyway.',
      '- Nothing else here.',
      '',
      'Prose paragraph: the release helper is `misc/set-version.sh`, kept at the root so that the',
      'upstream sync never conflicts on it',
      '',
      '- The helper is `misc/set-version.sh`.',
      '  It runs on every release.',
      '',
    ].join('\n');
    await r.write('misc/set-version.sh', '#!/bin/sh\necho 1\n');
    await r.write('quarkus/container/Dockerfile', 'FROM scratch\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-10-01');
    await r.move('misc/set-version.sh', 'scripts/set-version.sh');
    await r.commit('Move set-version.sh to scripts/', '2026-02-01');
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(first.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.line}`)).toEqual(['update|3', 'update|7', 'update|10']);
    const after = memory
      .replace('`misc/set-version.sh` seds', '`scripts/set-version.sh` seds')
      .replace('  no-op in 26.2.0, when the image moved. Keep it anyway.', '  no-op in 26.2.0, when the image moved. Keep it anyway. [corrected 2026-06-01]')
      .replace('helper is `misc/set-version.sh`, kept', 'helper is `scripts/set-version.sh`, kept')
      .replace('upstream sync never conflicts on it\n', 'upstream sync never conflicts on it [corrected 2026-06-01]\n')
      .replace('- The helper is `misc/set-version.sh`.', '- The helper is `scripts/set-version.sh`. [corrected 2026-06-01]');
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(after);
    const second = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);
  });
});

describe('aligned trailing comments in a command fence', () => {
  it('keep their column when a rename changes the length of the command', async () => {
    const r = await makeRepo();
    const memory = [
      '# Commands',
      '',
      '```bash',
      'make lint                 # golangci-lint (same as CI)',
      'make test                 # unit tests',
      'make fmt  # short gap',
      '```',
      '',
    ].join('\n');
    await r.write('Makefile', 'lint:\n\tgolangci-lint run\ntest:\n\tgo test ./...\nfmt:\n\tgofmt -w .\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-10-01');
    await r.write('Makefile', 'lint-go:\n\tgolangci-lint run\ntest:\n\tgo test ./...\nfmt:\n\tgofmt -w .\n');
    await r.commit('Rename lint to lint-go', '2026-02-01');
    await r.write('Makefile', 'lint-go:\n\tgolangci-lint run\ntest:\n\tgo test ./...\nformat-all-sources:\n\tgofmt -w .\n');
    await r.commit('Rename fmt to format-all-sources', '2026-02-02');
    await runPrune({ root: r.dir, now: NOW, write: true });
    const text = await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8');
    // the renamed lines keep the comment column; a gap too small for the change keeps one blank
    expect(text).toContain('make lint-go              # golangci-lint (same as CI)\nmake test                 # unit tests\nmake format-all-sources # short gap\n');
  });
});
