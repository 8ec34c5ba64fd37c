// A Go import path inside the repository's own module (`github.com/acme/svc/internal/store` with
// `module github.com/acme/svc` in go.mod) names a folder under the go.mod's folder: a moved folder is
// reported and written back through the module path; a deleted one is reported; a nested module's
// longer prefix wins; a path that never was a folder (generated code) and third-party modules are not
// path references. Real git repositories, audited and pruned end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, lineOfText, makeRepo, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PATHS = new Set(['path-missing', 'path-renamed', 'path-unverified']);

afterAll(cleanupRepos);

describe('Go import paths of the own module', () => {
  const memory = [
    '# AGENTS.md',
    '',
    '- Persistence lives in `github.com/acme/svc/internal/store`; never import it from `cmd/`.',
    '- HTTP handlers are in `github.com/acme/svc/internal/api/...`.',
    '- Legacy billing is in `github.com/acme/svc/internal/billing`.',
    '- The linter config lives in `github.com/acme/svc/tools/lint` (its own module).',
    '- Protobuf stubs are generated into `github.com/acme/svc/gen/proto` (not committed).',
    '- The CLI is built on `github.com/spf13/cobra`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('go.mod', 'module github.com/acme/svc\n\ngo 1.22\n\nrequire github.com/spf13/cobra v1.8.0\n');
    await r.write('internal/store/store.go', 'package store\n');
    await r.write('internal/api/api.go', 'package api\n');
    await r.write('internal/billing/billing.go', 'package billing\n');
    await r.write('tools/go.mod', 'module github.com/acme/svc/tools\n\ngo 1.22\n');
    await r.write('tools/lint/lint.go', 'package lint\n');
    await r.write('cmd/svc/main.go', 'package main\n');
    await r.write('AGENTS.md', memory);
    await r.commit('Initial service', '2025-11-01');
    await r.move('internal/store', 'internal/storage');
    await r.move('internal/api', 'pkg/api');
    await r.remove('internal/billing');
    await r.move('tools/lint', 'tools/linters');
    await r.commit('Reorganise packages', '2026-02-10');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports moved and deleted package folders, by the longest module prefix, and nothing else', () => {
    expect(findingRows(report, (f) => PATHS.has(f.kind))).toEqual([
      `path-renamed|${l('Persistence lives')}|github.com/acme/svc/internal/store|github.com/acme/svc/internal/storage`,
      `path-renamed|${l('HTTP handlers')}|github.com/acme/svc/internal/api|github.com/acme/svc/pkg/api`,
      `path-missing|${l('Legacy billing')}|github.com/acme/svc/internal/billing|`,
      `path-renamed|${l('The linter config')}|github.com/acme/svc/tools/lint|github.com/acme/svc/tools/linters`,
    ]);
    const moved = report.findings.find((f) => f.ref === 'github.com/acme/svc/internal/store')!;
    expect(moved.message).toMatch(
      /^Directory `github\.com\/acme\/svc\/internal\/store` \(internal\/store\) was moved to `internal\/storage\/` in [0-9a-f]{7} \(2026-02-10, "Reorganise packages"\); update the reference\.$/,
    );
    expect(moved.suggestion).toEqual({ replace: 'github.com/acme/svc/internal/storage' });
  });

  it('writes the successors back as import paths; a second prune changes nothing', async () => {
    await runPrune({ root: r.dir, now: NOW, write: true });
    const text = await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8');
    expect(text.split('\n').slice(2, 7)).toEqual([
      '- Persistence lives in `github.com/acme/svc/internal/storage`; never import it from `cmd/`. [corrected 2026-06-01]',
      '- HTTP handlers are in `github.com/acme/svc/pkg/api/...`. [corrected 2026-06-01]',
      '- The linter config lives in `github.com/acme/svc/tools/linters` (its own module). [corrected 2026-06-01]',
      '- Protobuf stubs are generated into `github.com/acme/svc/gen/proto` (not committed).',
      '- The CLI is built on `github.com/spf13/cobra`.',
    ]);
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(text);
  });
});
