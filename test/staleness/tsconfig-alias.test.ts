// Paths written through tsconfig / jsconfig import aliases (`@/components/Radix/` under
// `"@/*": ["./*"]`), and URL routes written like root-absolute paths (`/api/v2/`): QA round 11.
// Real git repositories, audited end to end.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { parseJsonc, readPathAliases } from '../../src/evidence/tsconfig-paths.js';
import { indexFromPaths } from '../../src/evidence/index.js';
import type { Report } from '../../src/types.js';
import { body, cleanupRepos, findingRows, findingsAndNotesOf, makeRepo, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

/** kind|line|ref|replace of the path findings and notes, by line. */
const brief = (r: Report): string[] => findingRows(r, (f) => f.kind.startsWith('path-'));
const short = (sha: string) => sha.slice(0, 7);

describe('tsconfig path aliases: one package maps `@/`', () => {
  let r: Repo;
  let report: Report;
  let sha = '';
  const memory = [
    '# CLAUDE.md',
    '',
    '- Front-end: Use `@/components/Radix/` wrappers instead of direct Radix UI imports.',
    '- Auth: `import { useAuth } from "@/services/auth"`.',
    '- Button wrapper: `@/components/Radix/Button.tsx`.',
    '- External REST API handlers are mounted at `/api/v2/` and `/api/v1/` (prefer v2 when both exist).',
    '- Helpers: `@/utils/dates.ts` formats dates.',
    '',
  ].join('\n');

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('package.json', '{"name":"root","private":true}\n');
    await r.write('packages/front-end/package.json', '{"name":"front-end"}\n');
    // comments and trailing commas, as tsconfig files are written
    await r.write(
      'packages/front-end/tsconfig.json',
      '{\n  // Next.js\n  "compilerOptions": {\n    "baseUrl": ".", /* the package */\n    "paths": { "@/*": ["./*"], },\n  },\n}\n',
    );
    for (const f of ['components/Radix/Button.tsx', 'components/Radix/index.ts', 'services/auth.tsx']) await r.write(`packages/front-end/${f}`, body(f));
    await r.commit('init', '2025-08-01');
    await r.write('CLAUDE.md', memory);
    await r.commit('claude', '2025-09-15');
    await r.move('packages/front-end/components/Radix', 'packages/front-end/ui');
    sha = short(await r.commit('Move Radix wrappers to ui', '2025-11-03'));
    ({ report } = await audit({ root: r.dir, now: NOW }));
  });

  it('reads the alias from the package tsconfig', async () => {
    expect(report).toBeDefined();
    const files = indexFromPaths(['packages/front-end/tsconfig.json', 'CLAUDE.md']);
    expect(await readPathAliases(r.dir, files)).toEqual([{ config: 'packages/front-end/tsconfig.json', scope: 'packages/front-end', prefix: '@/', targets: ['packages/front-end/'] }]);
  });

  it('reports the move through the alias, written back in the alias form; URL routes and module specifiers are silent', () => {
    expect(brief(report)).toEqual([
      'path-renamed|3|@/components/Radix/|@/ui/',
      'path-renamed|5|@/components/Radix/Button.tsx|@/ui/Button.tsx',
      'path-unverified|7|@/utils/dates.ts|',
    ]);
    const all = findingsAndNotesOf(report);
    expect(all.find((f) => f.line === 3)!.message).toBe(
      `Directory \`@/components/Radix/\` (packages/front-end/components/Radix) was moved to \`packages/front-end/ui/\` in ${sha} (2025-11-03, "Move Radix wrappers to ui"); update the reference.`,
    );
    // one mapping, never in history: the note names the path the alias resolves to
    expect(all.find((f) => f.line === 7)).toMatchObject({
      message: '`@/utils/dates.ts` is not in the repository and never was in its history; check whether it is a typo or describes another project.',
      evidence: { path: 'packages/front-end/utils/dates.ts' },
    });
  });

  it('prune corrects both lines in place; a second prune changes nothing', async () => {
    await runPrune({ root: r.dir, now: NOW, write: true, memory: ['CLAUDE.md'] });
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(
      [
        '# CLAUDE.md',
        '',
        '- Front-end: Use `@/ui/` wrappers instead of direct Radix UI imports. [corrected 2026-06-01]',
        '- Auth: `import { useAuth } from "@/services/auth"`.',
        '- Button wrapper: `@/ui/Button.tsx`. [corrected 2026-06-01]',
        '- External REST API handlers are mounted at `/api/v2/` and `/api/v1/` (prefer v2 when both exist).',
        '- Helpers: `@/utils/dates.ts` formats dates.',
        '',
      ].join('\n'),
    );
    const again = await runPrune({ root: r.dir, now: NOW, write: true, memory: ['CLAUDE.md'] });
    expect(again.changes).toEqual([]);
  });
});

describe('tsconfig path aliases: packages that map `@/` differently', () => {
  let r: Repo;
  let root: Report;
  let inPackage: Report;

  beforeAll(async () => {
    r = await makeRepo();
    // web: `@/*` -> src/*, through a local base config it extends (no `.json` written)
    await r.write('config/ts/web-base.json', '{"compilerOptions":{"baseUrl":"../../packages/web","paths":{"@/*":["src/*"]}}}\n');
    await r.write('packages/web/tsconfig.json', '{"extends":"../../config/ts/web-base"}\n');
    // admin: `@/*` -> ./*, no baseUrl (relative to the config)
    await r.write('packages/admin/jsconfig.json', '{"compilerOptions":{"paths":{"@/*":["./*"]}}}\n');
    for (const f of [
      'packages/web/src/hooks/useCart.ts', 'packages/web/src/hooks/useUser.ts', 'packages/web/src/shared/dates.ts', 'packages/web/src/only-web.ts',
      'packages/admin/hooks/useUser.ts', 'packages/admin/shared/dates.ts', 'packages/admin/only-admin.ts',
    ]) await r.write(f, body(f));
    await r.commit('init', '2025-08-01');
    const lines = [
      '- Cart: `@/hooks/useCart.ts` (web only).',
      '- User: `@/hooks/useUser.ts` (both packages had one).',
      '- Dates: `@/shared/dates.ts` (web moved it; admin still has it).',
      '- Admin entry: `@/only-admin.ts`.',
      '- Typo: `@/hooks/useNothing.ts`.',
    ];
    await r.write('CLAUDE.md', ['# CLAUDE.md', '', ...lines, ''].join('\n'));
    await r.write('packages/admin/CLAUDE.md', ['# Admin', '', ...lines, ''].join('\n'));
    await r.commit('memory', '2025-09-01');
    await r.move('packages/web/src/hooks/useCart.ts', 'packages/web/src/store/useCart.ts');
    await r.move('packages/web/src/hooks/useUser.ts', 'packages/web/src/store/useUser.ts');
    await r.move('packages/admin/hooks/useUser.ts', 'packages/admin/state/useUser.ts');
    await r.move('packages/web/src/shared/dates.ts', 'packages/web/src/lib/dates.ts');
    await r.move('packages/admin/only-admin.ts', 'packages/admin/main.ts');
    await r.commit('Reorganise', '2025-10-01');
    ({ report: root } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
    ({ report: inPackage } = await audit({ root: r.dir, memory: ['packages/admin/CLAUDE.md'], now: NOW }));
  });

  it('at the root: reported only when no mapping finds the path now and exactly one finds it in history', () => {
    expect(brief(root)).toEqual([
      'path-renamed|3|@/hooks/useCart.ts|@/store/useCart.ts',
      'path-renamed|6|@/only-admin.ts|@/main.ts',
    ]);
    expect(findingsAndNotesOf(root).find((f) => f.line === 3)!.message).toContain('`@/hooks/useCart.ts` (packages/web/src/hooks/useCart.ts) was renamed to `packages/web/src/store/useCart.ts`');
  });

  it("inside a package: that package's config first, then the others", () => {
    expect(brief(inPackage)).toEqual([
      'path-renamed|3|@/hooks/useCart.ts|@/store/useCart.ts',
      'path-renamed|4|@/hooks/useUser.ts|@/state/useUser.ts',
      'path-renamed|6|@/only-admin.ts|@/main.ts',
    ]);
    expect(findingsAndNotesOf(inPackage).find((f) => f.line === 4)!.message).toContain('(packages/admin/hooks/useUser.ts) was renamed to `packages/admin/state/useUser.ts`');
  });
});

describe('`@/` paths without any mapping, and URL routes', () => {
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    for (const f of ['src/index.ts', 'scripts/old.sh', 'docs/guide.md']) await r.write(f, body(f));
    await r.commit('init', '2025-08-01');
    await r.write(
      'CLAUDE.md',
      [
        '# CLAUDE.md',
        '',
        '- UI kit: `@/components/ui/button.tsx` (shadcn).',
        '- Entry: `/src/index.ts`; setup: `/scripts/old.sh`; `/scripts/missing.sh` was planned.',
        '- Endpoints: `/api/v2/`, `/v1/users`, `/auth/callback`, `/users/{id}`, `/dashboard/`.',
        '- Old docs: `/docs/guide.md`.',
        '',
      ].join('\n'),
    );
    await r.commit('memory', '2025-09-01');
    await r.move('scripts/old.sh', 'scripts/setup.sh');
    await r.remove('docs/guide.md');
    await r.commit('Tidy', '2025-10-01');
    ({ report } = await audit({ root: r.dir, now: NOW }));
  });

  it('never claims an unmapped alias path never existed; routes are no paths; root-absolute files work as before', () => {
    expect(brief(report)).toEqual([
      'path-unverified|4|/scripts/missing.sh|',
      'path-renamed|4|/scripts/old.sh|/scripts/setup.sh',
      'path-missing|6|/docs/guide.md|',
    ]);
  });
});

describe('parseJsonc', () => {
  it('reads comments and trailing commas, and keeps them inside strings', () => {
    expect(parseJsonc('\ufeff{\n// c\n"a": "x//y", /* z */ "b": [1, 2,],\n"c": "a,}",\n}')).toEqual({ a: 'x//y', b: [1, 2], c: 'a,}' });
    expect(parseJsonc('{"a": }')).toBeUndefined();
  });
});
