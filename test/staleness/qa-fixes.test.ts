// Regression tests for bugs found by QA in the staleness checks.
import { describe, expect, it } from 'vitest';
import type { Check, Evidence, Finding } from '../../src/types.js';
import type { Config } from '../../src/config/types.js';
import { extractReferences } from '../../src/memory/references.js';
import { statusCheck } from '../../src/checks/status.js';
import { packageCheck } from '../../src/checks/package.js';
import { expiredCheck, expiryInstant, realDate } from '../../src/checks/expired.js';
import { pathCheck } from '../../src/checks/path.js';
import { brokenLinkCheck } from '../../src/checks/broken-link.js';
import { entryOf, fileOf } from './refs-helpers.js';
import { config, evidence, github, historyIndex, manifestIndex } from './evidence-helpers.js';

function run(check: Check, text: string, ev: Evidence, opts: { path?: string; cfg?: Config; validUntil?: string } = {}): Finding[] {
  const file = fileOf(text, opts.path ?? 'CLAUDE.md');
  const entry = entryOf(file);
  if (opts.validUntil) entry.meta.validUntil = opts.validUntil;
  entry.refs = extractReferences(entry, file);
  return check.run({ files: [file], entries: [entry], evidence: ev, config: opts.cfg ?? config() });
}

describe('expired: impossible valid_until dates (QA 1)', () => {
  it('does not roll impossible days or months over to later real dates', () => {
    expect(realDate('2025-02-30')).toBe(false);
    expect(realDate('2025-13-45')).toBe(false);
    expect(realDate('2025-02-29')).toBe(false);
    expect(realDate('2024-02-29')).toBe(true);
    expect(realDate('2025-12-31')).toBe(true);
    expect(expiryInstant('2025-02-30')).toBeNull();
    expect(expiryInstant('2025-13-45')).toBeNull();
    expect(expiryInstant('2025-04-31T10:00')).toBeNull();
    expect(expiryInstant('2025-04-31T10:00:00+02:00')).toBeNull();
    expect(expiryInstant('2024-02-29')?.toISOString()).toBe('2024-03-01T00:00:00.000Z');
  });

  it('reports an impossible date as an info finding (never silently valid)', () => {
    const ev = evidence({ now: new Date('2025-03-01T00:00:00Z') });
    for (const v of ['2025-02-30', '2025-13-45']) {
      const f = run(expiredCheck, 'Use the staging host.', ev, { validUntil: v });
      expect(f.map((x) => [x.kind, x.severity, x.evidence?.unreadable, x.evidence?.impossible])).toEqual([['expired', 'info', true, true]]);
      expect(f[0].message).toBe(`\`valid_until: ${v}\` is not a real calendar date, so this entry never expires; correct it (YYYY-MM-DD, UTC).`);
    }
    // a real date that passed still expires, a readable future one does not
    expect(run(expiredCheck, 'Use the staging host.', ev, { validUntil: '2025-02-28' }).map((x) => x.severity)).toEqual(['warning']);
    expect(run(expiredCheck, 'Use the staging host.', ev, { validUntil: '2025-03-31' })).toEqual([]);
  });
});

describe('status: a token the API refused (QA 2)', () => {
  it('after a 403 says the token lacks permission instead of asking for a token', () => {
    const gh = github({ 'acme/app#42': { error: 'forbidden (403): Resource not accessible by integration' } }, { checked: false, reason: 'forbidden (403): Resource not accessible by integration' });
    const f = run(statusCheck, '- Issue #42 is still open; waiting on review.', evidence({ github: gh }));
    expect(f.map((x) => [x.kind, x.severity])).toEqual([['status-unchecked', 'info']]);
    expect(f[0].message).not.toContain('pass a GitHub token');
    expect(f[0].message).toBe(
      'Could not check whether `Issue #42` is still open: GitHub refused the token (forbidden (403): Resource not accessible by integration); give the token read access to issues and pull requests (`issues: read`, `pull-requests: read` in the workflow `permissions:`, or the matching fine-grained token scopes) for this repository.',
    );
    expect(f[0].evidence).toEqual({ reason: 'forbidden (403): Resource not accessible by integration', tokenRefused: true });
  });

  it('after a 401 says the token is invalid', () => {
    const gh = github({ 'acme/app#42': { error: 'unauthorized (401): Bad credentials' } }, { checked: false, reason: 'unauthorized (401): Bad credentials' });
    const f = run(statusCheck, '- Issue #42 is still open.', evidence({ github: gh }));
    expect(f[0].message).toBe(
      'Could not check whether `Issue #42` is still open: GitHub refused the token (unauthorized (401): Bad credentials); check that the token (GITHUB_TOKEN or --token) is valid and not expired or revoked.',
    );
  });

  it('still asks for a token when none was given', () => {
    const f = run(statusCheck, '- Issue #42 is still open.', evidence({ github: github({}, { checked: false, reason: 'no token' }) }));
    expect(f[0].message).toContain('pass a GitHub token (GITHUB_TOKEN or --token)');
  });
});

describe('a missing @import is reported once (QA 4)', () => {
  const C1 = { sha: 'a1b2c3d'.padEnd(40, '0'), date: '2026-03-02', time: '2026-03-02T12:00:00Z', author: 'Ada', subject: 'split docs' };
  const text = '# Root\n\n- Old notes: @docs/old.md\n- Moved: @docs/moved.md\n- Never there: @docs/never.md\n';
  const both = (ev: Evidence, cfg: Config = config()) => {
    const file = fileOf(text, 'CLAUDE.md');
    const entry = entryOf(file);
    entry.refs = extractReferences(entry, file);
    const ctx = { files: [file], entries: [entry], evidence: ev, config: cfg };
    return [...pathCheck.run(ctx), ...brokenLinkCheck.run(ctx)].map((f) => `${f.kind}|${f.line}|${f.ref}`).sort();
  };
  const hist = historyIndex({
    'docs/old.md': { status: 'deleted', commit: C1 },
    'docs/moved.md': { status: 'renamed', successor: 'docs/new.md', commit: C1, chain: [{ from: 'docs/moved.md', to: 'docs/new.md', commit: C1 }] },
  });

  it('path-missing / path-renamed when history explains it, broken-link otherwise', () => {
    expect(both(evidence({ files: ['docs/new.md'], history: hist }))).toEqual([
      'broken-link|5|@docs/never.md',
      'path-missing|3|@docs/old.md',
      'path-renamed|4|@docs/moved.md',
    ]);
  });

  it('broken-link reports every missing import when the path check is off', () => {
    const cfg = config();
    cfg.checks = { ...cfg.checks, path: false };
    const file = fileOf(text, 'CLAUDE.md');
    const entry = entryOf(file);
    entry.refs = extractReferences(entry, file);
    const f = brokenLinkCheck.run({ files: [file], entries: [entry], evidence: evidence({ files: ['docs/new.md'], history: hist }), config: cfg });
    expect(f.map((x) => `${x.kind}|${x.line}|${x.ref}`)).toEqual(['broken-link|3|@docs/old.md', 'broken-link|4|@docs/moved.md', 'broken-link|5|@docs/never.md']);
  });
});

describe('package: a name left only in a pnpm catalog (QA 5)', () => {
  const C1 = { sha: 'a1b2c3d'.padEnd(40, '0'), date: '2026-01-10', time: '2026-01-10T12:00:00Z', author: 'Ada', subject: 'add date libs' };
  const C2 = { sha: 'b2c3d4e'.padEnd(40, '0'), date: '2026-04-10', time: '2026-04-10T12:00:00Z', author: 'Bob', subject: 'drop moment from web' };
  const man = () => {
    const m = manifestIndex({
      deps: { zod: [{ spec: 'catalog:', manifest: 'apps/web/package.json' }] },
      ever: {
        moment: [{ name: 'moment', manifest: 'apps/web/package.json', type: 'added', commit: C1 }, { name: 'moment', manifest: 'apps/web/package.json', type: 'removed', commit: C2 }],
        lodash: [{ name: 'lodash', manifest: 'apps/web/package.json', type: 'added', commit: C1 }, { name: 'lodash', manifest: 'apps/web/package.json', type: 'removed', commit: C2 }],
        zod: [{ name: 'zod', manifest: 'apps/web/package.json', type: 'added', commit: C1 }],
      },
    });
    m.catalogs = new Map([
      ['default', new Map([['Moment', '^2.30.0'], ['zod', '^3.23.0']])],
    ]);
    m.manifestFiles = new Map([['pnpm-workspace.yaml', 'pnpm-workspace'], ['apps/web/package.json', 'package.json']]);
    return m;
  };

  it('is an info finding that says the catalog entry is all that is left', () => {
    const f = run(packageCheck, 'Dates go through `moment` and helpers through `lodash`; validation uses `zod`.', evidence({ manifests: man() }));
    expect(f.map((x) => [x.kind, x.severity, x.ref])).toEqual([
      ['package-missing', 'info', 'moment'],
      ['package-missing', 'warning', 'lodash'],
    ]);
    expect(f[0].message).toBe(
      '`moment` survives only as an entry of the default pnpm catalog in `pnpm-workspace.yaml`: no workspace package depends on it since it was removed from `apps/web/package.json` in b2c3d4e (2026-04-10, "drop moment from web"); update or delete this reference, and drop the unused catalog entry.',
    );
    expect(f[0].evidence).toMatchObject({ catalog: 'default', catalogFile: 'pnpm-workspace.yaml', catalogOnly: true, package: 'moment' });
    expect(f[1].message).not.toContain('catalog');
  });
});
