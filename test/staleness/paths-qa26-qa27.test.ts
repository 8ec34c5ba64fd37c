// Paths QA rounds 26 and 27 found misread on real memory files:
// - route folders of file-system routers (`[environmentId]`, `[locale]`, `[...slug]`, `(marketing)`,
//   formbricks .cursor/rules): checked as written when the repository has or had them so named;
// - `owner/name` repository slugs (`ggml-org/llama.cpp`, ollama CLAUDE.md): no path-unverified note;
// - examples introduced with `e.g.,` (a comma after the abbreviation): no path-unverified note;
// - `<word>` placeholders attached to a path in shell fences (`cat docs/<topic>.md`, zulip AGENTS.md):
//   part of the word, not a redirect; the literal folder is checked as in inline code.
// Real git repositories, audited and pruned end to end.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArchive } from '../../src/apply/archive.js';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import type { Report } from '../../src/types.js';
import { body, cleanupRepos, findingRows, lineOfText, makeRepo, planRows, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const PATHS = new Set(['path-missing', 'path-renamed', 'path-unverified']);
const rows = (r: Report) => findingRows(r, (f) => PATHS.has(f.kind));
const short = (sha: string) => sha.slice(0, 7);
const read = (r: Repo, f: string) => readFile(path.join(r.dir, f), 'utf8');

afterAll(cleanupRepos);

/** Write back every archived entry, oldest id first. */
async function restoreAll(r: Repo): Promise<void> {
  const { records } = parseArchive(await read(r, '.memory-audit/archive.jsonl'));
  for (const id of [...new Set(records.map((x) => x.entryId))]) await runRestore({ root: r.dir, id });
}

describe('route folders of file-system routers', () => {
  const E = 'apps/web/app/api/v1/client/[environmentId]/environment';
  const memory = [
    '# Cache',
    '',
    `- [${E}/route.ts](mdc:${E}/route.ts) - Main endpoint serving SDK clients`,
    '- Settings page: `apps/web/app/[locale]/settings/page.tsx`',
    '- Docs catch-all: `apps/web/app/docs/[...slug]/page.tsx`',
    '- Marketing pages: `apps/web/app/(marketing)/about/page.tsx`',
    '- Optional catch-all: `apps/web/app/shop/[[...filters]]/page.tsx`',
    '- User page (Nuxt): `apps/site/pages/users/[id].vue`',
    '- A new post goes to `apps/web/app/blog/[slug]/page.tsx`.',
    '- Checkout lives in `apps/web/app/(shop)/checkout/page.tsx`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let sha = '';

  beforeAll(async () => {
    r = await makeRepo();
    for (const f of [
      `${E}/route.ts`,
      'apps/web/app/[locale]/settings/page.tsx',
      'apps/web/app/docs/[...slug]/page.tsx',
      'apps/web/app/(marketing)/about/page.tsx',
      'apps/web/app/shop/[[...filters]]/page.tsx',
      'apps/site/pages/users/[id].vue',
      'apps/web/app/blog/page.tsx',
      'apps/web/app/checkout/page.tsx',
    ]) await r.write(f, body(f));
    await r.write('.cursor/rules/cache.mdc', memory);
    await r.commit('Initial import', '2025-10-20');
    await r.move('apps/web/app/api/v1/client/[environmentId]', 'apps/web/app/api/v1/client/[environmentSlug]');
    await r.move('apps/web/app/[locale]', 'apps/web/app/[lang]');
    await r.remove('apps/web/app/docs/[...slug]/page.tsx');
    await r.move('apps/web/app/(marketing)', 'apps/web/app/(site)');
    sha = short(await r.commit('Rename route params, drop docs', '2026-02-01'));
    ({ report } = await audit({ root: r.dir, memory: ['.cursor/rules/cache.mdc'], now: NOW }));
  });

  it('reports renamed and deleted route folders like plain paths; present ones and never-literal placeholders say nothing', () => {
    expect(rows(report)).toEqual([
      `path-renamed|${l('route.ts')}|${E}/route.ts|apps/web/app/api/v1/client/[environmentSlug]/environment/route.ts`,
      `path-renamed|${l('[locale]')}|apps/web/app/[locale]/settings/page.tsx|apps/web/app/[lang]/settings/page.tsx`,
      `path-missing|${l('[...slug]')}|apps/web/app/docs/[...slug]/page.tsx|`,
      `path-renamed|${l('(marketing)')}|apps/web/app/(marketing)/about/page.tsx|apps/web/app/(site)/about/page.tsx`,
    ]);
    const msg = (ref: string) => report.findings.find((f) => f.ref === ref)!.message;
    expect(msg('apps/web/app/[locale]/settings/page.tsx')).toBe(
      `\`apps/web/app/[locale]/settings/page.tsx\` was renamed to \`apps/web/app/[lang]/settings/page.tsx\` in ${sha} (2026-02-01, "Rename route params, drop docs"); update the reference.`,
    );
    expect(msg('apps/web/app/docs/[...slug]/page.tsx')).toBe(
      `\`apps/web/app/docs/[...slug]/page.tsx\` was deleted in ${sha} (2026-02-01, "Rename route params, drop docs") by Test Author; remove the reference or point it at what replaced it.`,
    );
  });

  it('corrects the link text and target and the inline paths; a second prune changes nothing; restore brings the bytes back', async () => {
    const file = '.cursor/rules/cache.mdc';
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(planRows(first.plan)).toEqual([
      `update|4|${l('route.ts')}`,
      `update|4|${l('[locale]')}`,
      `delete|4|${l('[...slug]')}`,
      `update|4|${l('(marketing)')}`,
    ]);
    const F = 'apps/web/app/api/v1/client/[environmentSlug]/environment';
    const text = await read(r, file);
    expect(text).toBe(
      [
        '# Cache',
        '',
        `- [${F}/route.ts](mdc:${F}/route.ts) - Main endpoint serving SDK clients [corrected 2026-06-01]`,
        '- Settings page: `apps/web/app/[lang]/settings/page.tsx` [corrected 2026-06-01]',
        '- Marketing pages: `apps/web/app/(site)/about/page.tsx` [corrected 2026-06-01]',
        '- Optional catch-all: `apps/web/app/shop/[[...filters]]/page.tsx`',
        '- User page (Nuxt): `apps/site/pages/users/[id].vue`',
        '- A new post goes to `apps/web/app/blog/[slug]/page.tsx`.',
        '- Checkout lives in `apps/web/app/(shop)/checkout/page.tsx`.',
        '',
      ].join('\n'),
    );
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
    expect(await read(r, file)).toBe(text);
    await restoreAll(r);
    expect(await read(r, file)).toBe(memory);
  });
});

describe('owner/name repository slugs', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '`llama/llama.cpp/` is synced from upstream `ggml-org/llama.cpp` via patches.',
    '',
    '- The docs site is a fork of `vercel/next.js`.',
    '- Realtime goes through `socketio/socket.io`.',
    '- Helpers are in `lib/helpers.ts`.',
    '- The entry point is `src/app.js`.',
    '- The build writes `dist/index.js` and `out/main.js`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let report: Report;

  beforeAll(async () => {
    const r = await makeRepo();
    for (const f of ['llama/llama.cpp/src/llama.cpp', 'src/main.ts']) await r.write(f, body(f));
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-01-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW }));
  });

  it('are no paths; a file under a folder of the repository, or with an extension it uses, is still noted', () => {
    // a build folder or a file's usual name is a path even where the folder is not tracked
    expect(rows(report)).toEqual([
      `path-unverified|${l('lib/helpers.ts')}|lib/helpers.ts|`,
      `path-unverified|${l('src/app.js')}|src/app.js|`,
      `path-unverified|${l('dist/index.js')}|dist/index.js|`,
      `path-unverified|${l('dist/index.js')}|out/main.js|`,
    ]);
    expect(report.plan.filter((p) => p.action !== 'keep' && (p.line === l('ggml-org') || p.line === l('next.js') || p.line === l('socket.io')))).toEqual([]);
  });
});

describe('examples introduced with `e.g.,`', () => {
  const memory = [
    '# Stories',
    '',
    '- importPath - Relative path from cwd (e.g., `./stories/Button.stories.tsx`)',
    '- Use a story path such as: `./stories/Card.stories.tsx`',
    '- The shared story is `./stories/Missing.stories.tsx`.',
    '',
  ].join('\n');
  let report: Report;

  beforeAll(async () => {
    const r = await makeRepo();
    await r.write('stories/Header.stories.tsx', body('header'));
    await r.write('AGENTS.md', memory);
    await r.commit('init', '2025-01-01');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('are no paths of this repository; a path named as its own is still noted', () => {
    expect(rows(report)).toEqual([`path-unverified|${lineOfText(memory, 'Missing')}|./stories/Missing.stories.tsx|`]);
  });
});

describe('placeholders attached to a path in shell fences', () => {
  const memory = [
    '# AGENTS.md',
    '',
    '```bash',
    '# Read relevant documentation',
    'cat starlight_help/src/content/docs/<topic>.md',
    'cat api_docs/<topic>.md',
    '```',
    '',
    '## For webhooks',
    '',
    '```bash',
    './tools/test-backend zerver/webhooks/<integration>',
    'git checkout -b feature/<name>',
    'ls zerver/lib/<module>.py',
    '```',
    '',
    '- Help articles live in `starlight_help/src/content/docs/<topic>.md`.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  let sha = '';

  beforeAll(async () => {
    r = await makeRepo();
    for (const f of ['zerver/webhooks/github/view.py', 'zerver/lib/cache.py', 'starlight_help/src/content/docs/index.mdx', 'tools/test-backend', 'api_docs/x.md'])
      await r.write(f, body(f));
    await r.write('AGENTS.md', memory);
    await r.commit('init', '2025-12-01');
    await r.move('starlight_help', 'help_center');
    await r.move('zerver/webhooks', 'zerver/integrations');
    sha = short(await r.commit('Reorganise folders', '2026-02-01'));
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('are part of the word: the literal folder is checked as inline; present folders say nothing', () => {
    expect(rows(report)).toEqual([
      `path-renamed|${l('cat starlight_help')}|starlight_help/src/content/docs/|help_center/src/content/docs/`,
      `path-renamed|${l('zerver/webhooks')}|zerver/webhooks/|zerver/integrations/`,
      `path-renamed|${l('Help articles')}|starlight_help/src/content/docs/|help_center/src/content/docs/`,
    ]);
    expect(report.findings.find((f) => f.line === l('zerver/webhooks'))!.message).toBe(
      `Directory \`zerver/webhooks/\` was moved to \`zerver/integrations/\` in ${sha} (2026-02-01, "Reorganise folders"); update the reference.`,
    );
  });

  it('prune corrects the folder and keeps the placeholder; a second prune changes nothing; restore brings the bytes back', async () => {
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    // (a fence is one entry, planned at its opening line)
    expect(planRows(first.plan)).toEqual([`update|4|${l('```bash')}`, `update|4|${l('## For webhooks') + 2}`, `update|4|${l('Help articles')}`]);
    const text = await read(r, 'AGENTS.md');
    expect(text).toBe(
      memory
        .replace('cat starlight_help/', 'cat help_center/')
        .replace('zerver/webhooks/<integration>', 'zerver/integrations/<integration>')
        .replace('live in `starlight_help/src/content/docs/<topic>.md`.', 'live in `help_center/src/content/docs/<topic>.md`. [corrected 2026-06-01]'),
    );
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
    expect(await read(r, 'AGENTS.md')).toBe(text);
    await restoreAll(r);
    expect(await read(r, 'AGENTS.md')).toBe(memory);
  });
});

describe('URL route tables', () => {
  it('a route with bracketed parameters is no path; a route file with an extension is still checked', async () => {
    const r = await makeRepo();
    for (const f of ['app/[locale]/settings/page.tsx', 'app/dashboard/[teamSlug]/settings/page.tsx']) await r.write(f, body(f));
    const memory = [
      '# Routes',
      '',
      '- `/[locale]/settings` — user settings.',
      '- `/dashboard/[teamSlug]/settings` — team settings, owners only.',
      '- `/api/users/[id]` — GET/PATCH/DELETE a user.',
      '- The page is `app/[locale]/profile/page.tsx`.',
      '',
    ].join('\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2025-01-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(rows(report)).toEqual([`path-unverified|6|app/[locale]/profile/page.tsx|`]);
  });
});
