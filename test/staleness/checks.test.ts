import { describe, expect, it } from 'vitest';
import type { Check, Evidence, Finding } from '../../src/types.js';
import type { Config } from '../../src/config/types.js';
import { extractReferences } from '../../src/memory/references.js';
import { pathCheck } from '../../src/checks/path.js';
import { scriptCheck } from '../../src/checks/script.js';
import { packageCheck } from '../../src/checks/package.js';
import { versionCheck, lowerBound } from '../../src/checks/version.js';
import { countCheck } from '../../src/checks/count.js';
import { statusCheck } from '../../src/checks/status.js';
import { expiredCheck, expiryInstant } from '../../src/checks/expired.js';
import { supersededCheck } from '../../src/checks/superseded.js';
import { CHECKS } from '../../src/checks/registry.js';
import { entryOf, fileOf } from './refs-helpers.js';
import { commit, config, evidence, github, historyIndex, manifestIndex } from './evidence-helpers.js';

const C1 = commit('a1b2c3d4e5', '2026-03-02', 'split auth', 'Ada');
const C2 = commit('b2c3d4e5f6', '2026-04-10', 'drop legacy', 'Bob');

function run(check: Check, text: string, ev: Evidence, opts: { path?: string; cfg?: Config; validUntil?: string } = {}): Finding[] {
  const file = fileOf(text, opts.path ?? 'CLAUDE.md');
  const entry = entryOf(file);
  if (opts.validUntil) entry.meta.validUntil = opts.validUntil;
  entry.refs = extractReferences(entry, file);
  return check.run({ files: [file], entries: [entry], evidence: ev, config: opts.cfg ?? config() });
}
const short = (fs: Finding[]) => fs.map((f) => `${f.kind}|${f.line}|${f.ref ?? ''}|${String(f.evidence?.now ?? '')}|${f.suggestion?.replace ?? ''}`);

describe('registry', () => {
  it('registers every staleness check once', () => {
    const ids = CHECKS.map((c) => c.id);
    for (const id of ['path', 'script', 'package', 'version', 'count', 'status', 'expired', 'superseded']) expect(ids.filter((x) => x === id)).toEqual([id]);
  });
});

describe('path check', () => {
  const hist = historyIndex({
    'src/auth/session.ts': { status: 'renamed', successor: 'src/auth/sessions.ts', commit: C1, chain: [{ from: 'src/auth/session.ts', to: 'src/auth/sessions.ts', commit: C1 }] },
    'src/legacy': { status: 'deleted', commit: C2, isDirectory: true },
    'docs/EXTENDING.md': { status: 'deleted', commit: C2 },
    'old': { status: 'renamed', successor: 'lib', commit: C1, isDirectory: true, chain: [{ from: 'old', to: 'lib', commit: C1 }] },
  });
  const ev = evidence({ files: ['src/auth/sessions.ts', 'README.md', 'docs/AGENTS.md', 'lib/a.ts', 'src/app/x.ts'], history: hist });

  it('reports a rename with the final successor, the commit and a replacement', () => {
    const f = run(pathCheck, 'Auth lives in `src/auth/session.ts`.', ev);
    expect(short(f)).toEqual(['path-renamed|1|src/auth/session.ts|src/auth/sessions.ts|src/auth/sessions.ts']);
    expect(f[0].message).toBe('`src/auth/session.ts` was renamed to `src/auth/sessions.ts` in a1b2c3d (2026-03-02, "split auth"); update the reference.');
    expect(f[0].severity).toBe('warning');
  });

  it('reports a deleted directory with the deleting commit and author', () => {
    const f = run(pathCheck, 'Old code: `src/legacy/`', ev);
    expect(short(f)).toEqual(['path-missing|1|src/legacy/|b2c3d4e|']);
    expect(f[0].message).toBe('Directory `src/legacy/` no longer exists: its last files were removed or split up by b2c3d4e (2026-04-10, "drop legacy") by Bob; remove the reference or point it at the new location.');
  });

  it('resolves against the memory file folder and the root, whichever matches history', () => {
    expect(short(run(pathCheck, 'See EXTENDING.md and AGENTS.md and README.md.', ev, { path: 'docs/CLAUDE.md' }))).toEqual(['path-missing|1|EXTENDING.md|b2c3d4e|']);
  });

  it('keeps the written style in the replacement (./, /, @, trailing slash)', () => {
    const ev2 = evidence({ files: ['lib/a.ts'], history: historyIndex({ 'old/a.ts': { status: 'renamed', successor: 'lib/a.ts', commit: C1 }, old: { status: 'renamed', successor: 'lib', commit: C1, isDirectory: true } }) });
    expect(short(run(pathCheck, 'Use `/old/a.ts`, `./old/` and @old/a.ts', ev2))).toEqual([
      'path-renamed|1|/old/a.ts|lib/a.ts|/lib/a.ts',
      'path-renamed|1|./old/|lib|./lib/',
      'path-renamed|1|@old/a.ts|lib/a.ts|@lib/a.ts',
    ]);
  });

  it('follows a bare file name that history renamed, even when its new home has the same name', () => {
    const ev2 = evidence({ files: ['docs/CONTRIBUTING.md'], history: historyIndex({ 'CONTRIBUTING.md': { status: 'renamed', successor: 'docs/CONTRIBUTING.md', commit: C1 } }) });
    expect(short(run(pathCheck, 'Read CONTRIBUTING.md first.', ev2))).toEqual(['path-renamed|1|CONTRIBUTING.md|docs/CONTRIBUTING.md|docs/CONTRIBUTING.md']);
  });

  it('reports a directory split across folders as missing, naming where its files went', () => {
    const ev2 = evidence({
      files: ['packages/core/src/a.ts', 'packages/server/src/b.ts'],
      history: historyIndex({ src: { status: 'renamed', successor: 'packages/core/src', commit: C1, isDirectory: true, destinations: [{ path: 'packages/core/src', files: 65 }, { path: 'packages/server/src', files: 10 }] } as never }),
    });
    const f = run(pathCheck, 'Code is in `src/`.', ev2);
    expect(short(f)).toEqual(['path-missing|1|src/|a1b2c3d|']);
    expect(f[0].message).toBe('Directory `src/` was split up in a1b2c3d (2026-03-02, "split auth"): its files moved to `packages/core/src/` (65 files), `packages/server/src/` (10 files); point the reference at the part you mean.');
  });

  it('flags case-only mismatches with the real spelling', () => {
    expect(short(run(pathCheck, 'Read `readme.md`.', ev))).toEqual(['path-renamed|1|readme.md|README.md|README.md']);
  });

  it('checks only the fixed prefix of a glob', () => {
    expect(short(run(pathCheck, 'Tests: `src/app/**/*.test.ts` and `src/legacy/*.ts`.', ev))).toEqual(['path-missing|1|src/legacy/*.ts|b2c3d4e|']);
  });

  it('reports never-existing clear paths as unverified info, and nothing for prose or placeholders', () => {
    const f = run(pathCheck, 'Config in `config/app.yml`; see notes/ideas and `path/to/x.ts`.', ev);
    expect(short(f)).toEqual(['path-unverified|1|config/app.yml||']);
    expect(f[0].severity).toBe('info');
  });

  it('does not report bare names that exist elsewhere, home paths or URLs', () => {
    expect(run(pathCheck, 'Edit x.ts, `~/.claude/settings.json`, https://example.com/a/b.md', ev)).toEqual([]);
  });
});

describe('script check', () => {
  const RM = commit('c3d4e5f6a7', '2026-02-01', 'move tasks to just');
  const man = manifestIndex({
    scripts: { 'package.json': ['build', 'fix'], 'packages/web/package.json': ['dev'] },
    make: { Makefile: ['test', 'lint', 'build-%'] },
    just: { justfile: ['test'] },
    workspaces: { '@acme/web': 'packages/web' },
    scriptHistory: {
      'package.json#lint:fix': [{ name: 'lint:fix', manifest: 'package.json', type: 'added', commit: C1 }, { name: 'lint:fix', manifest: 'package.json', type: 'removed', commit: RM }],
      'package.json#fix': [{ name: 'fix', manifest: 'package.json', type: 'added', commit: RM }],
      'package.json#test': [{ name: 'test', manifest: 'package.json', type: 'added', commit: C1 }, { name: 'test', manifest: 'package.json', type: 'removed', commit: C2 }],
    },
  });
  const ev = evidence({ manifests: man });

  it('names the rename from the same commit', () => {
    const f = run(scriptCheck, '`npm run lint:fix`', ev);
    expect(short(f)).toEqual(['script-missing|1|npm run lint:fix|package.json|npm run fix']);
    expect(f[0].message).toBe('`npm run lint:fix` no longer works: the script was renamed to `fix` in c3d4e5f (2026-02-01, "move tasks to just"); use `npm run fix` instead.');
  });

  it('points at a just recipe of the same name', () => {
    const f = run(scriptCheck, '`pnpm test`', ev);
    expect(short(f)).toEqual(['script-missing|1|pnpm test|package.json|just test']);
  });

  it('leaves built-ins, existing scripts, workspace scripts and make pattern rules alone', () => {
    expect(run(scriptCheck, '`pnpm install`, `pnpm build`, `npm ci`, `yarn add x`, `pnpm --filter @acme/web dev`, `make test`, `make build-linux`, `bun test`', ev)).toEqual([]);
  });

  it('flags a missing make target and a missing workspace script', () => {
    expect(short(run(scriptCheck, '`make old_version_tests` and `pnpm --filter @acme/web e2e`', ev))).toEqual([
      'script-missing|1|make old_version_tests|Makefile|',
      'script-missing|1|pnpm --filter @acme/web e2e|packages/web/package.json|',
    ]);
  });

  it('treats `pnpm <binary>` as running a dependency, not a script', () => {
    expect(run(scriptCheck, '`pnpm vitest run`, `yarn eslint .`, `pnpm tsc -b`', ev)).toEqual([]);
  });

  it('does not flag a script that another package defines and the root never had', () => {
    expect(run(scriptCheck, '`pnpm dev`', ev)).toEqual([]);
  });
});

describe('package check', () => {
  const SWAP = commit('d4e5f6a7b8', '2026-02-20', 'replace acquaint with mcptools');
  const man = manifestIndex({
    deps: { mcptools: [{ spec: '^1.0.0', manifest: 'package.json' }], zod: [{ spec: '^3.0.0', manifest: 'package.json' }] },
    ever: {
      acquaint: [{ name: 'acquaint', manifest: 'package.json', type: 'added', commit: C1 }, { name: 'acquaint', manifest: 'package.json', type: 'removed', commit: SWAP }],
      mcptools: [{ name: 'mcptools', manifest: 'package.json', type: 'added', commit: SWAP }],
      mkdocs: [{ name: 'mkdocs', manifest: 'pyproject.toml', type: 'added', commit: C1 }, { name: 'mkdocs', manifest: 'pyproject.toml', type: 'removed', commit: C2 }],
      zod: [{ name: 'zod', manifest: 'package.json', type: 'added', commit: C1 }],
    },
    everProjectNames: { '@ccr/ui': [{ name: '@ccr/ui', manifest: 'packages/ui/package.json', type: 'added', commit: C1 }, { name: '@ccr/ui', manifest: 'packages/ui/package.json', type: 'removed', commit: C2 }] },
  });
  const ev = evidence({ manifests: man });

  it('reports a swap as a rename with the successor', () => {
    const f = run(packageCheck, 'We use `acquaint` for discovery.', ev);
    expect(short(f)).toEqual(['package-renamed|1|acquaint|mcptools|mcptools']);
    expect(f[0].message).toBe('`acquaint` was replaced by `mcptools` in `package.json` in d4e5f6a (2026-02-20, "replace acquaint with mcptools"); update the reference.');
  });

  it('treats one dependency replacing a couple in one commit as their successor', () => {
    const SW = commit('e5f6a7b8c9', '2026-03-16', 'Replace moment with dayjs');
    const m2 = manifestIndex({
      deps: { dayjs: [{ spec: '^1.11.0', manifest: 'package.json' }] },
      ever: {
        moment: [{ name: 'moment', manifest: 'package.json', type: 'added', commit: C1 }, { name: 'moment', manifest: 'package.json', type: 'removed', commit: SW }],
        'moment-timezone': [{ name: 'moment-timezone', manifest: 'package.json', type: 'added', commit: C1 }, { name: 'moment-timezone', manifest: 'package.json', type: 'removed', commit: SW }],
        dayjs: [{ name: 'dayjs', manifest: 'package.json', type: 'added', commit: SW }],
      },
    });
    expect(short(run(packageCheck, 'Dates go through moment and moment-timezone.', evidence({ manifests: m2 })))).toEqual([
      'package-renamed|1|moment|dayjs|dayjs',
      'package-renamed|1|moment-timezone|dayjs|dayjs',
    ]);
  });

  it('matches prose case-insensitively and leaves current and never-seen names alone', () => {
    expect(short(run(packageCheck, 'Docs are built with MkDocs; validation with zod; nothing about Banana.', ev))).toEqual(['package-missing|1|MkDocs||']);
  });

  it('leaves references that the memory itself records as replaced or removed', () => {
    const text = '- Use mcptools instead of acquaint.\n- MkDocs was removed in favour of plain markdown.\n- `acquaint` → `mcptools`.';
    expect(run(packageCheck, text, ev)).toEqual([]);
    const hist = historyIndex({ 'src/a.ts': { status: 'renamed', successor: 'src/b.ts', commit: C1 } });
    expect(run(pathCheck, '`src/a.ts` was renamed to `src/b.ts`; never use src/a.ts again.', evidence({ files: ['src/b.ts'], history: hist }))).toEqual([]);
  });

  it('reports workspace package names no manifest declares any more', () => {
    expect(short(run(packageCheck, 'UI package: `@CCR/ui`.', ev))).toEqual(['package-missing|1|@CCR/ui||']);
  });
});

describe('version check', () => {
  const man = manifestIndex({
    deps: { react: [{ spec: '^18.2.0', manifest: 'package.json', locked: '18.3.1' }], typescript: [{ spec: '~5.6.2', manifest: 'package.json' }], vite: [{ spec: '^0.9.1', manifest: 'package.json' }] },
    runtimes: { node: { spec: '>=20', source: 'package.json' }, python: { spec: '>=3.10', source: 'pyproject.toml' } },
    projectVersions: [{ name: 'app', version: '1.4.0', manifest: 'package.json' }],
  });
  const ev = evidence({ manifests: man });

  it('reports runtime, dependency and project drift; accepts what still holds', () => {
    const text = ['- Node 18+ and Python 3.9+.', '- React 17, TypeScript 5.4, Vite 0.8.', '- The project is at v1.2.0.', '- Node 20+ and Python 3.12 and React 18 and React 17+.'].join('\n');
    expect(short(run(versionCheck, text, ev))).toEqual([
      'version-drift|1|Node 18+|>=20|Node 20+',
      'version-drift|1|Python 3.9+|>=3.10|Python 3.10+',
      'version-drift|2|React 17|18.3.1|React 18',
      'version-drift|2|Vite 0.8|^0.9.1|Vite 0.9',
    ]);
  });

  it('keeps a written wildcard: "React 17.x" becomes "React 18.x"', () => {
    expect(short(run(versionCheck, '- Components target React 17.x.', ev))).toEqual(['version-drift|1|React 17.x|18.3.1|React 18.x']);
  });

  it('computes lower bounds of specs', () => {
    expect([lowerBound('>=3.10'), lowerBound('^18.2.0 || ^20'), lowerBound('>= 1.21, < 2'), lowerBound('<5')]).toEqual([[3, 10], [18, 2, 0], [1, 21], null]);
  });
});

describe('count check', () => {
  const files = [...Array.from({ length: 37 }, (_, i) => `.archon/commands/defaults/c${i}.md`), ...Array.from({ length: 3 }, (_, i) => `skills/s${i}/SKILL.md`), 'hooks/a.sh', 'hooks/b.sh'];
  const ev = evidence({ files, manifests: manifestIndex({ workspaces: { a: 'packages/a', b: 'packages/b', c: 'packages/c' } }) });

  it('counts a named folder, files by name, hooks and workspace packages', () => {
    const text = 'This monorepo has 16 default commands in `.archon/commands/defaults/`, 310 SKILL.md files, 5 hooks, 12 packages and 2+ skills in `skills/`.';
    const f = run(countCheck, text, ev);
    expect(short(f)).toEqual([
      'count-drift|1|16 default commands|37|37 default commands',
      'count-drift|1|310 SKILL.md files|3|3 SKILL.md files',
      'count-drift|1|5 hooks|2|2 hooks',
      'count-drift|1|12 packages|3|3 packages',
    ]);
    expect(f[0].message).toBe('"16 default commands" no longer matches the repository: there are 37 files in `.archon/commands/defaults/`; update the count to 37.');
  });

  it('counts files of a kind, and stays silent when subfolders make the mapping uncertain', () => {
    const ev2 = evidence({ files: ['docs/a.md', 'docs/b.md', 'docs/logo.png', 'src/a.ts', 'src/b.ts', 'src/lib/c.ts'] });
    expect(short(run(countCheck, 'We keep 5 markdown files in `docs/` and 7 files in `src/`.', ev2))).toEqual(['count-drift|1|5 markdown files|2|2 markdown files']);
  });

  it('uses configured anchors', () => {
    const cfg = config({ counts: [{ pattern: '(\\d+) command files', glob: '.archon/commands/**/*.md' }] });
    expect(short(run(countCheck, 'We ship 30 command files.', ev, { cfg }))).toEqual(['count-drift|1|30 command files|37|37 command files']);
  });
});

describe('status check', () => {
  it('reports closed issues and merged PRs described as open', () => {
    const gh = github({
      'acme/app#42': { number: 42, repo: 'acme/app', kind: 'issue', state: 'closed', closedAt: '2026-03-01T10:00:00Z', title: 'Login fails' },
      '#42': { number: 42, repo: 'acme/app', kind: 'issue', state: 'closed', closedAt: '2026-03-01T10:00:00Z', title: 'Login fails' },
      'acme/app#45': { number: 45, repo: 'acme/app', kind: 'pr', state: 'closed', merged: true, closedAt: '2026-03-05T10:00:00Z' },
      'acme/app#50': { number: 50, repo: 'acme/app', kind: 'issue', state: 'open' },
    });
    const f = run(statusCheck, '- Working on issue #42 (in progress).\n- PR #45 is pending review.\n- #50 is still open.', evidence({ github: gh }));
    expect(short(f)).toEqual(['status-drift|1|issue #42|closed|', 'status-drift|2|PR #45|merged|']);
    expect(f[1].message).toBe('PR acme/app#45 is described as open but was merged on 2026-03-05; remove the entry or record the outcome.');
  });

  it('says once per entry when it could not check', () => {
    const f = run(statusCheck, '- Blocked on #7 and #8 (open).', evidence({ github: github({}, { checked: false, reason: 'no token' }) }));
    expect(short(f)).toEqual(['status-unchecked|1|#7||']);
    expect(f[0].message).toBe('Could not check whether `#7`, `#8` are still open (no token); pass a GitHub token (GITHUB_TOKEN or --token) to verify.');
  });
});

describe('expired and superseded', () => {
  it('expires date-only values at the end of that UTC day', () => {
    expect(expiryInstant('2026-05-31')?.toISOString()).toBe('2026-06-01T00:00:00.000Z');
    expect(expiryInstant('2026-05-31 10:00')?.toISOString()).toBe('2026-05-31T10:00:00.000Z');
    const ev = evidence({ now: new Date('2026-06-03T00:00:00Z') });
    expect(short(run(expiredCheck, 'Temporary flag.', ev, { validUntil: '2026-05-31' }))).toEqual(['expired|1||2026-05-31|']);
    expect(run(expiredCheck, 'Temporary flag.', ev, { validUntil: '2026-06-03' })).toEqual([]);
  });

  it('reads a slot date before a full stop, and a rule the entry opens with "Until <date>:"', () => {
    const ev = evidence({ now: new Date('2026-06-03T00:00:00Z') });
    expect(short(run(expiredCheck, 'Deploys are frozen.\nvalid until: 2026-05-31.', ev))).toEqual(['expired|1||2026-05-31|']);
    const lead = run(expiredCheck, '- Until 2026-05-31: deploys are frozen, see `src/deploy.ts`.', ev);
    expect(short(lead)).toEqual(['expired|1||2026-05-31|']);
    expect(lead[0].message).toBe('This entry expired: "Until 2026-05-31" passed 2 days ago (now 2026-06-03 UTC); delete it or renew the date after checking it still holds.');
    expect(short(run(expiredCheck, '**Until 2026-05-31**, use the v1 endpoint.', ev))).toEqual(['expired|1||2026-05-31|']);
    // not yet passed; a date in the middle of a sentence is about something else; code is an example
    expect(run(expiredCheck, '- Until 2026-06-03: deploys are frozen.', ev)).toEqual([]);
    expect(run(expiredCheck, '- Node 18 is supported until 2026-04-30: keep the polyfill.', ev)).toEqual([]);
    expect(short(run(expiredCheck, '- Until 2026-02-30: frozen.', ev))).toEqual(['expired|1||2026-02-30|']);
    expect(run(expiredCheck, '- Until 2026-02-30: frozen.', ev)[0].message).toBe('"Until 2026-02-30" is not a real calendar date, so this entry never expires; correct it (YYYY-MM-DD, UTC).');
  });

  it('links SUPERSEDED records to the entries they name', () => {
    const recFile = fileOf('SUPERSEDED 2026-05-01\nPattern: retry loop\nSupersedes: retry-loop.md\n', '.claude/memory/superseded-retry.md', 'auto-memory-topic');
    const rec = entryOf(recFile, { type: 'superseded' });
    rec.id = 'e_rec00001';
    const topicFile = fileOf('Retry three times on 429.\n', '.claude/memory/retry-loop.md', 'auto-memory-topic');
    const topic = entryOf(topicFile);
    topic.id = 'e_topic001';
    const f = supersededCheck.run({ files: [recFile, topicFile], entries: [rec, topic], evidence: evidence({}), config: config() });
    expect(f.map((x) => [x.entryId, x.kind, x.evidence?.now])).toEqual([['e_topic001', 'superseded', '.claude/memory/superseded-retry.md']]);
    expect(f[0].message).toBe('A SUPERSEDED record (`.claude/memory/superseded-retry.md`, line 3) says this entry was abandoned; delete it or keep it only with a pointer to the record.');
  });

  it('a `file#e_<id>` anchor (as prune writes it) names that entry only, and nothing once it is gone', () => {
    const claude = fileOf('- Use Jest.\n- Run `npm test`.\n', 'CLAUDE.md');
    const a = entryOf(claude);
    a.id = 'e_1a2b3c4d';
    const b = { ...entryOf(claude), id: 'e_5e6f7a8b', line: 2, endLine: 2 };
    const mk = (target: string) => {
      const recFile = fileOf(`SUPERSEDED 2026-05-01\nPattern: jest\nSupersedes: ${target}\n`, '.memory-audit/superseded-jest.md', 'other');
      const rec = entryOf(recFile, { type: 'superseded' });
      rec.id = 'e_rec00002';
      return supersededCheck.run({ files: [recFile, claude], entries: [rec, a, b], evidence: evidence({}), config: config() });
    };
    expect(mk('CLAUDE.md#e_5e6f7a8b').map((x) => x.entryId)).toEqual(['e_5e6f7a8b']);
    expect(mk('CLAUDE.md#e_00000000')).toEqual([]);
  });
});

describe('throughput', () => {
  // Throughput is measured by `npm run bench`, not asserted here: this checks that 50,000 valid
  // entries (one object each, sharing their references) give no finding and no error.
  it('checks 50,000 valid entries without a finding', () => {
    const ev = evidence({ files: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'package.json'], manifests: manifestIndex({ scripts: { 'package.json': ['build'] }, deps: { zod: [{ spec: '^3.0.0', manifest: 'package.json' }] } }) });
    const file = fileOf('- `src/a.ts` via `pnpm build` with zod and Node 20+ and 3 files in `src/`.\n', 'CLAUDE.md');
    const base = entryOf(file);
    base.refs = extractReferences(base, file);
    const entries = Array.from({ length: 50_000 }, (_, i) => ({ ...base, id: `e_${i}` }));
    const mine = CHECKS.filter((c) => ['path', 'script', 'package', 'version', 'count', 'status', 'expired', 'superseded'].includes(c.id));
    expect(mine).toHaveLength(8);
    for (const c of mine) expect(c.run({ files: [file], entries, evidence: ev, config: config() })).toEqual([]);
  });
});
