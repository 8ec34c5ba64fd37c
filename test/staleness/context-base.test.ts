// Paths written relative to a folder their context names: a parent list item, the intro line
// of the list ("... in `codex-rs`, especially:"), or the nearest heading. Real git repositories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import type { Finding } from '../../src/types.js';
import { body, cleanupRepos, makeRepo, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

const all = (r: { findings: Finding[]; notes?: Finding[] }) => [...r.findings, ...(r.notes ?? [])];
const brief = (fs: Finding[]) => fs.filter((f) => f.kind.startsWith('path-')).map((f) => `${f.kind}|${f.line}|${f.ref}|${f.suggestion?.replace ?? ''}`);

describe('paths relative to a folder named by their context', () => {
  let r: Repo;
  let sha: string;
  beforeAll(async () => {
    r = await makeRepo();
    for (const f of [
      'codex-rs/app-server-protocol/src/protocol/common.rs', 'codex-rs/app-server-protocol/src/protocol/v2.rs', 'codex-rs/app-server/README.md',
      'packages/next/src/cli/next-dev.ts', 'packages/next/src/server/dev/next-dev-server.ts', 'packages/next/src/build/index.ts',
      'src/vs/workbench/browser/x.ts', 'codex-rs/core/src/old_name.rs',
      // a second `app-server/README.md` in another folder: without a context folder the short
      // path is ambiguous (a unique suffix alone would resolve it)
      'codex-rs-legacy/app-server/README.md',
    ]) await r.write(f, body(f));
    await r.commit('init', '2026-01-02');
    await r.move('codex-rs/core/src/old_name.rs', 'codex-rs/core/src/new_name.rs');
    sha = (await r.commit('Rename old_name to new_name', '2026-02-02')).slice(0, 7);
  });

  it('resolves an intro line folder, a heading folder and a parent list item folder', async () => {
    await r.write('a.md', [
      '## App-server API',
      '',
      'These guidelines apply to app-server protocol work in `codex-rs`, especially:',
      '',
      '- `app-server-protocol/src/protocol/common.rs`',
      '- `app-server-protocol/src/protocol/v2.rs`',
      '- `app-server/README.md`',
      '',
      '### Core Package: `packages/next`',
      '',
      '- Dev server: `src/cli/next-dev.ts` → `src/server/dev/next-dev-server.ts`',
      '- Build: `src/build/index.ts`',
      '',
      '### Core Architecture (`src/` folder)',
      '- `src/vs/workbench/` - Main application workbench',
      '  - `workbench/browser/` - Core workbench UI components',
      '',
    ].join('\n'));
    const { report } = await audit({ root: r.dir, memory: ['a.md'], now: NOW });
    expect(brief(all(report))).toEqual([]);
  });

  it('still reports a path found under no folder, with the evidence as before', async () => {
    await r.write('b.md', [
      '## Protocol',
      '',
      'Work in `codex-rs`, especially:',
      '',
      '- `app-server/MISSING.md`',
      '',
      'Work in `nowhere`, especially:',
      '',
      '- `app-server/README.md`',
      '',
      '### Package `packages/next`',
      '',
      '- `src/cli/next-start.ts`',
      '',
    ].join('\n'));
    const { report } = await audit({ root: r.dir, memory: ['b.md'], now: NOW });
    const f = all(report).filter((x) => x.kind.startsWith('path-'));
    expect(brief(f)).toEqual([
      'path-unverified|5|app-server/MISSING.md|',
      'path-unverified|9|app-server/README.md|',
      'path-unverified|13|src/cli/next-start.ts|',
    ]);
    expect(f.map((x) => x.evidence)).toEqual([{ path: 'app-server/MISSING.md' }, { path: 'app-server/README.md' }, { path: 'src/cli/next-start.ts' }]);
  });

  it('an intro line without a colon, or a folder that is not a list parent, is no context', async () => {
    await r.write('c.md', ['Work in `codex-rs`.', '', '- `app-server/README.md`', ''].join('\n'));
    const { report } = await audit({ root: r.dir, memory: ['c.md'], now: NOW });
    expect(brief(all(report))).toEqual(['path-unverified|3|app-server/README.md|']);
  });

  it('reports a path renamed under the context folder with the successor written the same way', async () => {
    await r.write('d.md', ['The core crate in `codex-rs/core`:', '', '- `src/old_name.rs` holds the loop', ''].join('\n'));
    const { report } = await audit({ root: r.dir, memory: ['d.md'], now: NOW });
    const f = all(report).filter((x) => x.kind.startsWith('path-'));
    expect(brief(f)).toEqual(['path-renamed|3|src/old_name.rs|src/new_name.rs']);
    expect(f[0].message).toBe(
      `\`src/old_name.rs\` (codex-rs/core/src/old_name.rs) was renamed to \`codex-rs/core/src/new_name.rs\` in ${sha} (2026-02-02, "Rename old_name to new_name"); update the reference.`,
    );
    expect(f[0].evidence?.path).toBe('codex-rs/core/src/old_name.rs');
  });
});

describe('a folder written from the root in a heading', () => {
  it('(`/backend/open_webui`) is the same context folder as `backend/open_webui/` (open-webui, QA round 14)', async () => {
    const r = await makeRepo();
    for (const f of ['backend/open_webui/main.py', 'backend/open_webui/socket/main.py', 'backend/open_webui/routers/chats.py']) await r.write(f, body(f));
    const memory = ['# CLAUDE.md', '', '#### Backend core (`/backend/open_webui`)', '', '- **`main.py`**: FastAPI entry point', '- **`socket/`**: Socket.IO realtime service', ''].join('\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('init', '2026-01-05');
    await r.move('backend/open_webui/socket', 'backend/open_webui/realtime');
    await r.commit('Rename socket -> realtime', '2026-02-09');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(brief(all(report))).toEqual(['path-renamed|6|socket/|realtime/']);
  });
});
