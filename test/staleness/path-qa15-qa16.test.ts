// Paths QA rounds 15 and 16 found unchecked, on real memory files:
// - module specifiers written without their extension (`shared/composables/useBranding`,
//   chatwoot AGENTS.md): looked up as the module files they resolve to, now and in history;
//   renamed ones corrected without the extension, deleted ones reported, ambiguous ones silent;
// - .NET and Xcode files named bare (`Directory.Packages.props`, `Acme.slnx`,
//   `WordPressUnitTests.xctestplan`);
// - bare names listed under a list intro or parent item that names their folder
//   (WordPress-iOS "`Modules/Sources/` - Reusable Swift packages including:"), checked as
//   `base/name` only when that path was in history.
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

describe('module specifiers written without their extension', () => {
  const memory = [
    '# AGENTS.md',
    '',
    '- Prefer `replaceInstallationName` from `shared/composables/useBranding` in the UI layer.',
    '- Import date helpers from `app/javascript/dashboard/helpers/time`.',
    '- Formatting lives in `src/lib/format` (one barrel).',
    '- Session state is kept by `src/store/session`.',
    '- The old client `src/legacy/oldApi` wraps fetch.',
    '- Dates go through `utils/date`.',
    '- Never import `src/server/db` from the client.',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  const sha: Record<string, string> = {};

  beforeAll(async () => {
    r = await makeRepo();
    for (const f of [
      'app/javascript/shared/composables/useBranding.js',
      'app/javascript/dashboard/helpers/time.js',
      'src/lib/format/index.ts',
      'src/store/session.js',
      'src/legacy/oldApi.ts',
      'src/legacy/keep.ts',
      // two modules that both end with `utils/date`: which one is meant cannot be told
      'packages/a/utils/date.ts',
      'packages/b/utils/date.ts',
      'src/server/db.ts',
    ]) await r.write(f, body(f));
    await r.write('AGENTS.md', memory);
    await r.commit('Initial app', '2025-01-01');
    // a JavaScript module converted to TypeScript in place: still one module
    await r.move('src/store/session.js', 'src/store/session.ts');
    await r.commit('Convert the session store to TypeScript', '2025-03-01');
    await r.move('app/javascript/shared/composables/useBranding.js', 'app/javascript/dashboard/composables/useBranding.js');
    await r.move('app/javascript/dashboard/helpers/time.js', 'app/javascript/shared/helpers/time.js');
    await r.move('src/lib/format/index.ts', 'src/utils/format/index.ts');
    await r.move('src/store/session.ts', 'src/state/session.ts');
    sha.move = short(await r.commit('Move composables and helpers', '2025-06-01'));
    await r.remove('src/legacy/oldApi.ts');
    await r.remove('packages/a/utils/date.ts');
    await r.remove('packages/b/utils/date.ts');
    sha.del = short(await r.commit('Remove the old API client', '2025-07-01'));
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports moved and deleted modules, written back without the extension; ambiguous and present ones stay silent', () => {
    expect(rows(report)).toEqual([
      `path-renamed|${l('useBranding')}|shared/composables/useBranding|dashboard/composables/useBranding`,
      `path-renamed|${l('helpers/time')}|app/javascript/dashboard/helpers/time|app/javascript/shared/helpers/time`,
      `path-renamed|${l('src/lib/format')}|src/lib/format|src/utils/format`,
      `path-renamed|${l('src/store/session')}|src/store/session|src/state/session`,
      `path-missing|${l('oldApi')}|src/legacy/oldApi|`,
    ]);
    const msg = (ref: string) => report.findings.find((f) => f.ref === ref)!.message;
    expect(msg('shared/composables/useBranding')).toBe(
      `\`shared/composables/useBranding\` (app/javascript/shared/composables/useBranding.js) was renamed to \`app/javascript/dashboard/composables/useBranding.js\` in ${sha.move} (2025-06-01, "Move composables and helpers"); update the reference.`,
    );
    // a folder in history: its own (directory) fate, as before
    expect(msg('src/lib/format')).toBe(
      `Directory \`src/lib/format\` was moved to \`src/utils/format/\` in ${sha.move} (2025-06-01, "Move composables and helpers"); update the reference.`,
    );
    expect(msg('src/store/session')).toBe(
      `\`src/store/session\` (src/store/session.ts) was renamed to \`src/state/session.ts\` in ${sha.move} (2025-06-01, "Move composables and helpers"); update the reference.`,
    );
    expect(msg('src/legacy/oldApi')).toBe(
      `\`src/legacy/oldApi\` (src/legacy/oldApi.ts) was deleted in ${sha.del} (2025-07-01, "Remove the old API client") by Test Author; remove the reference or point it at what replaced it.`,
    );
  });

  it('corrects in place keeping the written form, deletes the gone one; a second prune changes nothing; restore brings the bytes back', async () => {
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(planRows(first.plan)).toEqual([
      `update|4|${l('useBranding')}`,
      `update|4|${l('helpers/time')}`,
      `update|4|${l('src/lib/format')}`,
      `update|4|${l('src/store/session')}`,
      `delete|4|${l('oldApi')}`,
    ]);
    const text = await read(r, 'AGENTS.md');
    expect(text).toBe(
      [
        '# AGENTS.md',
        '',
        '- Prefer `replaceInstallationName` from `dashboard/composables/useBranding` in the UI layer. [corrected 2026-06-01]',
        '- Import date helpers from `app/javascript/shared/helpers/time`. [corrected 2026-06-01]',
        '- Formatting lives in `src/utils/format` (one barrel). [corrected 2026-06-01]',
        '- Session state is kept by `src/state/session`. [corrected 2026-06-01]',
        '- Dates go through `utils/date`.',
        '- Never import `src/server/db` from the client.',
        '',
      ].join('\n'),
    );
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
    expect(await read(r, 'AGENTS.md')).toBe(text);
    const { records } = parseArchive(await read(r, '.memory-audit/archive.jsonl'));
    const ids = [...new Set(records.map((x) => x.entryId))];
    expect(ids).toHaveLength(5);
    for (const id of ids) await runRestore({ root: r.dir, id });
    expect(await read(r, 'AGENTS.md')).toBe(memory);
  });
});

describe('.NET and Xcode files named bare', () => {
  const memory = [
    '# Notes',
    '',
    '- The `WordPress` scheme runs `WordPressUnitTests.xctestplan`.',
    '- Central versions live in `Directory.Packages.props`.',
    '- Open `Acme.slnx` in Rider.',
    '- Shared settings: `Directory.Build.props` and `Directory.Build.targets`.',
    '- Open `Acme.sln` in Visual Studio.',
    '- Build settings: `Release.xcconfig`; capabilities in `App.entitlements`.',
    '- Components read `this.props` (React).',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let report: Report;

  beforeAll(async () => {
    const r = await makeRepo();
    for (const f of [
      'Tests/KeystoneTests/WordPressUnitTests.xctestplan', 'Directory.Packages.props', 'Acme.slnx', 'Directory.Build.props',
      'Directory.Build.targets', 'Acme.sln', 'Config/Release.xcconfig', 'App/App.entitlements',
    ]) await r.write(f, body(f));
    await r.write('AGENTS.md', memory);
    await r.commit('Initial', '2025-06-01');
    await r.move('Tests/KeystoneTests/WordPressUnitTests.xctestplan', 'Tests/KeystoneTests/UnitTests.xctestplan');
    await r.move('Directory.Packages.props', 'src/Directory.Packages.props');
    await r.move('Acme.slnx', 'AcmeApp.slnx');
    await r.move('Directory.Build.props', 'src/Directory.Build.props');
    await r.move('Acme.sln', 'AcmeApp.sln');
    await r.remove('Config/Release.xcconfig');
    await r.commit('Rename and move', '2025-09-01');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reads them as paths and reports the renamed and deleted ones', () => {
    expect(rows(report)).toEqual([
      `path-renamed|${l('xctestplan')}|WordPressUnitTests.xctestplan|UnitTests.xctestplan`,
      `path-renamed|${l('Packages.props')}|Directory.Packages.props|src/Directory.Packages.props`,
      `path-renamed|${l('Acme.slnx')}|Acme.slnx|AcmeApp.slnx`,
      `path-renamed|${l('Shared settings')}|Directory.Build.props|src/Directory.Build.props`,
      `path-renamed|${l('Acme.sln`')}|Acme.sln|AcmeApp.sln`,
      `path-missing|${l('Release.xcconfig')}|Release.xcconfig|`,
    ]);
  });
});

describe('bare names listed under a folder', () => {
  const memory = [
    '# AGENTS.md',
    '',
    '### Project Structure',
    'WordPress-iOS uses a modular architecture with the main app and separate Swift packages:',
    '',
    '- **Main App**: `WordPress/Classes/` - core app functionality',
    '- **Modules**: `Modules/Sources/` - Reusable Swift packages including:',
    '  - `WordPressUI` - shared UI components',
    '  - `WordPressFlux` - deprecated state management using Flux pattern (DO NOT USE)',
    '  - `WordPressKit` - API client and networking',
    '  - `DesignSystem` - colours and type',
    '  - `SwiftLint` - a tool, never a folder here',
    '',
    'Feature modules are located in `Modules/Sources/`:',
    '- `ReaderFeature` - posts from followed sites',
    '- `Core` - deleted here, but a `Core` folder lives on elsewhere',
    '- **`StatsFeature`** - site statistics',
    '- Uses `NotificationsFeature` internally (not the item\'s name)',
    '',
  ].join('\n');
  const l = (s: string) => lineOfText(memory, s);
  let r: Repo;
  let report: Report;
  const sha: Record<string, string> = {};

  beforeAll(async () => {
    r = await makeRepo();
    for (const m of ['WordPressUI', 'WordPressFlux', 'WordPressKit', 'DesignSystem', 'ReaderFeature', 'Core', 'StatsFeature', 'NotificationsFeature']) {
      await r.write(`Modules/Sources/${m}/${m}.swift`, body(m));
    }
    await r.write('WordPress/Classes/AppDelegate.swift', body('app'));
    await r.write('Legacy/Core/Core.swift', body('legacy core'));
    await r.write('AGENTS.md', memory);
    await r.commit('Initial', '2025-06-01');
    await r.remove('Modules/Sources/WordPressFlux');
    sha.flux = short(await r.commit('Remove deprecated WordPressFlux', '2025-08-01'));
    await r.move('Modules/Sources/DesignSystem', 'Modules/Sources/WordPressDesignSystem');
    sha.ds = short(await r.commit('Rename DesignSystem module', '2025-09-01'));
    await r.move('Modules/Sources/ReaderFeature', 'Modules/Sources/Reader');
    await r.move('Modules/Sources/StatsFeature', 'Modules/Sources/Stats');
    await r.remove('Modules/Sources/NotificationsFeature');
    await r.remove('Modules/Sources/Core');
    sha.reader = short(await r.commit('Rename feature modules', '2025-10-01'));
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports the deleted and renamed members, and nothing for names that never were there', () => {
    expect(rows(report)).toEqual([
      `path-missing|${l('WordPressFlux')}|WordPressFlux|`,
      `path-renamed|${l('DesignSystem')}|DesignSystem|WordPressDesignSystem`,
      `path-renamed|${l('ReaderFeature')}|ReaderFeature|Reader`,
      `path-renamed|${l('StatsFeature')}|StatsFeature|Stats`,
    ]);
    const msg = (ref: string) => report.findings.find((f) => f.ref === ref)!.message;
    expect(msg('WordPressFlux')).toBe(
      `Directory \`WordPressFlux\` (Modules/Sources/WordPressFlux) no longer exists: its last files were removed or split up by ${sha.flux} (2025-08-01, "Remove deprecated WordPressFlux") by Test Author; remove the reference or point it at the new location.`,
    );
    expect(msg('DesignSystem')).toBe(
      `Directory \`DesignSystem\` (Modules/Sources/DesignSystem) was moved to \`Modules/Sources/WordPressDesignSystem/\` in ${sha.ds} (2025-09-01, "Rename DesignSystem module"); update the reference.`,
    );
  });

  it('corrects the renamed names in place (the item with a deleted member goes to review); a second prune changes nothing', async () => {
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(planRows(first.plan)).toEqual([`review|4|${l('**Modules**')}`, `update|4|${l('ReaderFeature')}`, `update|4|${l('StatsFeature')}`]);
    const text = await read(r, 'AGENTS.md');
    expect(text.split('\n').slice(10, 18)).toEqual([
      '  - `DesignSystem` - colours and type',
      '  - `SwiftLint` - a tool, never a folder here',
      '',
      'Feature modules are located in `Modules/Sources/`:',
      '- `Reader` - posts from followed sites [corrected 2026-06-01]',
      '- `Core` - deleted here, but a `Core` folder lives on elsewhere',
      '- **`Stats`** - site statistics [corrected 2026-06-01]',
      "- Uses `NotificationsFeature` internally (not the item's name)",
    ]);
    const again = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(again.changes).toEqual([]);
    expect(await read(r, 'AGENTS.md')).toBe(text);
  });
});

describe('a healthy repository with many extensionless spans', () => {
  const memory = [
    '# CLAUDE.md',
    '',
    '- UI kit: `@acme/ui`, `@acme/ui/button`; utilities from `lodash/fp`.',
    '- The API answers on `/api/users` and `/v2/orders`.',
    '- Write imports as `foo/bar` placeholders, never `path/to/module`.',
    '- Ruby services are `Billing::Invoice` and `Accounts::User`.',
    '- The database client is `src/lib/db`; buttons are `components/Button`.',
    '- Pages: `pages/index`, `app/dashboard` (a folder), `app/(marketing)/about`.',
    '- Composer: `laravel/framework`, `spatie/laravel-permission`.',
    '- Go: `github.com/acme/tool/pkg`, `golang.org/x/sync/errgroup`.',
    '- Data flows `client/server` through `read/write` helpers in `src/hooks/useThing`.',
    '- Helpers: `src/never/there`, `services/payments`.',
    '- Auth through `firebase/auth`; files through `fs/promises`.',
    '',
    'Packages live in `packages/`:',
    '- `ui` - the component kit',
    '- `lodash` - a dependency, not a folder',
    '- `docs` - never a folder',
    '',
  ].join('\n');
  let report: Report;

  beforeAll(async () => {
    const r = await makeRepo();
    await r.write('package.json', JSON.stringify({ name: 'app', dependencies: { lodash: '^4.17.21', '@acme/ui': '1.0.0', firebase: '^11.0.0' } }, null, 2) + '\n');
    await r.write('composer.json', JSON.stringify({ require: { 'laravel/framework': '^11.0', 'spatie/laravel-permission': '^6.0' } }, null, 2) + '\n');
    for (const f of [
      'src/lib/db.ts', 'web/src/components/Button.tsx', 'pages/index.tsx', 'app/dashboard/page.tsx',
      'app/(marketing)/about/page.tsx', 'packages/ui/index.ts', 'src/hooks/useThing/index.ts',
      // a composer package's name also ends an old file's path: a dependency is never a module path
      'resources/js/laravel/framework.js',
      // a package's subpath and a Node.js core module's end old files' paths too
      'src/lib/firebase/auth.ts', 'src/fs/promises.ts',
      // deleted before AGENTS.md was written: its `legacy/thing` means something else
      'resources/js/legacy/thing.js',
    ]) await r.write(f, body(f));
    await r.write('CLAUDE.md', memory);
    await r.commit('Initial', '2025-01-01');
    for (const f of ['resources/js/laravel/framework.js', 'src/lib/firebase/auth.ts', 'src/fs/promises.ts', 'resources/js/legacy/thing.js']) await r.remove(f);
    await r.commit('Drop the shims', '2025-03-01');
    await r.write('AGENTS.md', '# AGENTS.md\n\n- Generated helpers come from `legacy/thing`.\n');
    await r.commit('Add AGENTS.md', '2025-04-01');
    ({ report } = await audit({ root: r.dir, memory: ['CLAUDE.md', 'AGENTS.md'], now: NOW }));
  });

  it('says nothing about paths', () => {
    expect(rows(report)).toEqual([]);
  });
});

describe('bare names listed under a folder, in a nested memory file', () => {
  it("are looked for under the list's folder from the memory file's folder too", async () => {
    const memory = ['# iOS app', '', 'Modules live in `Modules/Sources/`:', '- `Flux` - state', '- `Kit` - networking', ''].join('\n');
    const r = await makeRepo();
    await r.write('apps/ios/Modules/Sources/Flux/Flux.swift', body('flux'));
    await r.write('apps/ios/Modules/Sources/Kit/Kit.swift', body('kit'));
    await r.write('apps/ios/AGENTS.md', memory);
    await r.commit('Initial', '2025-06-01');
    await r.move('apps/ios/Modules/Sources/Flux', 'apps/ios/Modules/Sources/Store');
    const sha = short(await r.commit('Rename Flux to Store', '2025-07-01'));
    const { report } = await audit({ root: r.dir, memory: ['apps/ios/AGENTS.md'], now: NOW });
    expect(rows(report)).toEqual([`path-renamed|4|Flux|Store`]);
    expect(report.findings[0]!.message).toBe(
      `Directory \`Flux\` (apps/ios/Modules/Sources/Flux) was moved to \`apps/ios/Modules/Sources/Store/\` in ${sha} (2025-07-01, "Rename Flux to Store"); update the reference.`,
    );
  });
});
