// QA round 9: version lists are support matrices (never compared with one declared version),
// tree diagrams rooted at `/project` or `./`, commands offered in shell-fence comments
// (`# or: pnpm …`), and counts in layout lists (`- **Features/** - 8 feature modules`).
// Real git histories, audited and pruned end to end.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { extractReferences } from '../../src/memory/references.js';
import type { Finding, Reference } from '../../src/types.js';
import { cleanupRepos, makeRepo, pkg, type Repo } from './helpers.js';
import { entryOf, fileOf } from './refs-helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

const brief = (fs: Finding[]) => fs.map((f) => `${f.kind}|${f.file}:${f.line}|${f.ref}|${f.suggestion?.replace ?? ''}`);
const refs = (text: string): Reference[] => {
  const f = fileOf(text, 'CLAUDE.md');
  return extractReferences(entryOf(f), f);
};
const sha7 = async (r: Repo) => (await r.git.revparse(['HEAD'])).trim().slice(0, 7);
const read = (r: Repo, f: string) => readFile(path.join(r.dir, f), 'utf8');
const pruned = async (r: Repo, file: string, after: string) => {
  await runPrune({ root: r.dir, now: NOW, write: true });
  expect(await read(r, file)).toBe(after);
  const second = await runPrune({ root: r.dir, now: NOW, write: true });
  expect(second.changes).toEqual([]);
  expect(await read(r, file)).toBe(after);
};

describe('a version list is a support matrix', () => {
  it('keeps the whole list in one reference', () => {
    const v = (text: string) => refs(text).filter((r) => r.kind === 'version').map((r) => `${r.raw}|${r.value}|${r.version}`);
    expect(v('Build/test JDK: Java 17 and 25.')).toEqual(['Java 17 and 25|17|17 and 25']);
    expect(v('Matrix: Node 18, 20, or 22.')).toEqual(['Node 18, 20, or 22|18|18, 20, or 22']);
    expect(v('Java 17 and Java 25 are tested.')).toEqual(['Java 17 and Java 25|17|17 and Java 25']);
    expect(v('Tested on 3.9 and Python 3.10.')).toEqual(['Python 3.10|3.10|3.9 and 3.10']);
    // Two subjects: two statements. A unit after the number: no list.
    expect(v('Python 3.10 and Node 18 are required.')).toEqual(['Python 3.10|3.10|3.10', 'Node 18|18|18']);
    expect(v('Node 20, 4 GB of RAM.')).toEqual(['Node 20|20|20']);
  });

  let r: Repo;
  beforeAll(async () => {
    r = await makeRepo();
    await r.write('.tool-versions', 'java temurin-21.0.5+11.0.LTS\n');
    await r.write('package.json', pkg({ name: 'web', engines: { node: '>=22' } }));
    await r.write('pyproject.toml', '[project]\nname = "tools"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n');
    await r.write(
      'AGENTS.md',
      [
        '# Agent Guide',
        '',
        '- **Build/test JDK**: Java 17 and 25.',
        '- CI runs the web tests on Node 20 and 22.',
        '- Matrix: Node 18, 20, or 22.',
        '- Java 17 and Java 25 are both tested.',
        '- Tested on 3.9 and Python 3.10.',
        '- Java 11–17 in CI.',
        '- Python 3.9-3.12 is supported.',
        '- Node 20 is required.',
        '- Python 3.10 and Node 18 are required.',
        '',
      ].join('\n'),
    );
    await r.commit('add AGENTS.md', '2026-03-02');
  });

  it('reports only single versions and ranges against a floor, never a list member nor a range against a pin', async () => {
    const res = await audit({ root: r.dir, now: NOW });
    expect(brief(res.findings.filter((f) => f.kind === 'version-drift'))).toEqual([
      'version-drift|AGENTS.md:9|Python 3.9-3.12|Python 3.11-3.12',
      'version-drift|AGENTS.md:10|Node 20|Node 22',
      'version-drift|AGENTS.md:11|Node 18|Node 22',
      'version-drift|AGENTS.md:11|Python 3.10|Python 3.11',
    ]);
    expect(res.findings.find((f) => f.kind === 'version-drift' && f.line === 10)!.message).toBe(
      '`Node 20` no longer matches the project: `package.json` requires Node.js `>=22`; update the stated version to 22.',
    );
  });

  it('prunes single statements to a fixed point and leaves the lists alone', async () => {
    const p = await makeRepo();
    await p.write('.tool-versions', 'java temurin-21.0.5+11.0.LTS\n');
    await p.write('package.json', pkg({ name: 'web', engines: { node: '>=22' } }));
    await p.write('pyproject.toml', '[project]\nname = "tools"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n');
    const memory = [
      '# Agent Guide',
      '',
      '- **Build/test JDK**: Java 17 and 25.',
      '- CI runs the web tests on Node 20 and 22.',
      '- Node 20 is required.',
      '- Python 3.9-3.12 is supported.',
      '',
    ].join('\n');
    await p.write('AGENTS.md', memory);
    await p.commit('add AGENTS.md', '2026-03-02');
    expect(brief((await audit({ root: p.dir, now: NOW })).findings)).toEqual([
      'version-drift|AGENTS.md:5|Node 20|Node 22',
      'version-drift|AGENTS.md:6|Python 3.9-3.12|Python 3.11-3.12',
    ]);
    await pruned(
      p,
      'AGENTS.md',
      memory
        .replace('- Node 20 is required.', '- Node 22 is required. [corrected 2026-06-01]')
        .replace('- Python 3.9-3.12 is supported.', '- Python 3.11-3.12 is supported. [corrected 2026-06-01]'),
    );
  });
});

const TREE = (root: string) =>
  [
    '```',
    root,
    '├── src/                   # Core C++ source code',
    '│   ├── parallel/         # Parallelization',
    '│   └── main/             # Database/connection management',
    '├── tools/                # Language bindings',
    '└── benchmark/            # Benchmark suites',
    '```',
  ].join('\n');

describe('a tree diagram whose root line is the repository', () => {
  it('reads `/name` as the tree rooted at `name/`, drops `./`, and leaves deeper absolute roots alone', () => {
    const p = (text: string) => refs(text).filter((r) => r.kind === 'path').map((r) => `${r.line}|${r.raw}|${r.value}|${r.base ?? ''}|${r.via ?? ''}`);
    // The root line itself names no path (`duckdb` alone is a word), as `duckdb/` would.
    expect(p(TREE('/duckdb'))).toEqual([
      '3|src/|duckdb/src|duckdb/|tree',
      '4|parallel/|duckdb/src/parallel|duckdb/src/|tree',
      '5|main/|duckdb/src/main|duckdb/src/|tree',
      '6|tools/|duckdb/tools|duckdb/|tree',
      '7|benchmark/|duckdb/benchmark|duckdb/|tree',
    ]);
    expect(p(TREE('/duckdb/'))).toEqual(['2|/duckdb/|duckdb||tree', ...p(TREE('/duckdb'))]);
    expect(p(TREE('/duckdb/'))).toEqual(p(TREE('duckdb/')).map((l) => l.replace('|duckdb/|duckdb|', '|/duckdb/|duckdb|')));
    expect(p(TREE('./'))).toEqual([
      '3|src/|src||tree',
      '4|parallel/|src/parallel|src/|tree',
      '5|main/|src/main|src/|tree',
      '6|tools/|tools||tree',
      '7|benchmark/|benchmark||tree',
    ]);
    expect(p(TREE('/etc/nginx'))).toEqual([]);
  });

  let r: Repo;
  let moved: string;
  let removed: string;
  beforeAll(async () => {
    r = await makeRepo();
    for (const f of ['src/parallel/executor.cpp', 'src/main/database.cpp', 'benchmark/tpch/q01.benchmark', 'tools/shell/shell.cpp']) await r.write(f, `// ${f}\n`);
    await r.write('CLAUDE.md', `# CLAUDE.md\n\n### Layout\n\n${TREE('/duckdb')}\n\n### Same, from the top\n\n${TREE('./')}\n`);
    await r.commit('Add CLAUDE.md', '2026-01-10');
    await r.remove('benchmark');
    await r.commit('Move benchmarks out', '2026-03-01');
    removed = await sha7(r);
    await r.move('src/parallel', 'src/execution/parallel');
    await r.commit('Move parallel under execution', '2026-03-02');
    moved = await sha7(r);
  });

  it('reports a deleted and a moved folder under both roots', async () => {
    const res = await audit({ root: r.dir, now: NOW });
    expect(res.findings.map((f) => `${f.kind}|${f.line}|${f.ref}`)).toEqual([
      'path-renamed|8|parallel/',
      'path-missing|11|benchmark/',
      'path-renamed|19|parallel/',
      'path-missing|22|benchmark/',
    ]);
    expect(res.findings[0].message).toBe(
      `Directory \`parallel/\` (src/parallel) was moved to \`src/execution/parallel/\` in ${moved} (2026-03-02, "Move parallel under execution"); update the reference.`,
    );
    expect(res.findings[3].message).toBe(
      `Directory \`benchmark/\` no longer exists: its last files were removed or split up by ${removed} (2026-03-01, "Move benchmarks out") by Test Author; remove the reference or point it at the new location.`,
    );
    // A diagram with a stale line and others still useful goes to review: the file is not changed.
    const before = await read(r, 'CLAUDE.md');
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(first.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}`)).toEqual(['review|4', 'review|4']);
    expect(await read(r, 'CLAUDE.md')).toBe(before);
  });
});

describe('a command offered in a shell-fence comment', () => {
  it('reads the command after `# or:`, `# e.g.`, `# alternatively:` from the fence folder, without moving it; a sentence is not one', () => {
    const rs = refs(
      [
        '```bash',
        'cd web',
        'make test-web',
        '# or: pnpm run test',
        '# e.g. $ make lint',
        '# alternatively: `npm run check` (slower)',
        '# or: cd ../api && make x',
        'pnpm build',
        '# or press Ctrl+C to stop',
        '# Web unit tests: pnpm run nope',
        '# or make sure the db is up',
        '# or use yarn if you prefer',
        '```',
      ].join('\n'),
    );
    expect(rs.filter((x) => x.kind === 'command').map((x) => `${x.line}|${x.raw}|${x.value}|${x.base ?? ''}`)).toEqual([
      '3|make test-web|make test-web|web/',
      '4|pnpm run test|pnpm run test|web/',
      '5|make lint|make lint|web/',
      '6|npm run check|npm run check|web/',
      '7|make x|make x|api/',
      '8|pnpm build|pnpm build|web/',
    ]);
  });

  let r: Repo;
  let sha: string;
  beforeAll(async () => {
    r = await makeRepo();
    await r.write('pnpm-workspace.yaml', 'packages:\n  - server\n  - web\n');
    await r.write('package.json', pkg({ name: 'immich-monorepo', private: true }));
    await r.write('server/package.json', pkg({ name: 'immich', scripts: { test: 'vitest', 'sync:sql': 'node sync.js' } }));
    await r.write('web/package.json', pkg({ name: 'immich-web', scripts: { test: 'vitest' } }));
    await r.write('Makefile', 'test-web:\n\tpnpm --filter immich-web run test\nsql:\n\tpnpm --filter immich run sync:sql\n');
    await r.write(
      'CLAUDE.md',
      [
        '# CLAUDE.md',
        '',
        '### Database',
        '',
        '```bash',
        '# Sync SQL schema',
        'make sql',
        '# or: pnpm --filter immich run sync:sql',
        '```',
        '',
      ].join('\n'),
    );
    await r.commit('add CLAUDE.md', '2026-01-15');
    await r.write('server/package.json', pkg({ name: 'immich', scripts: { test: 'vitest', 'schema:sync': 'node sync.js' } }));
    await r.write('Makefile', 'test-web:\n\tpnpm --filter immich-web run test\nsql:\n\tpnpm --filter immich run schema:sync\n');
    await r.commit('rename sync:sql to schema:sync', '2026-03-10');
    sha = await sha7(r);
  });

  it('reports the commented command and corrects it in place', async () => {
    const res = await audit({ root: r.dir, now: NOW });
    expect(brief(res.findings)).toEqual(['script-missing|CLAUDE.md:8|pnpm --filter immich run sync:sql|pnpm --filter immich run schema:sync']);
    expect(res.findings[0].message).toBe(
      `\`pnpm --filter immich run sync:sql\` no longer works: the script was renamed to \`schema:sync\` in ${sha} (2026-03-10, "rename sync:sql to schema:sync"); use \`pnpm --filter immich run schema:sync\` instead.`,
    );
    const before = await read(r, 'CLAUDE.md');
    await pruned(
      r,
      'CLAUDE.md',
      before.replace('# or: pnpm --filter immich run sync:sql', '# or: pnpm --filter immich run schema:sync'),
    );
  });
});

describe('a count in a layout list', () => {
  it('takes the folder that opens the item or line before a dash or colon, only when the count ends the clause', () => {
    const c = (text: string) => refs(text).filter((x) => x.kind === 'count').map((x) => `${x.raw}|${x.base ?? ''}`);
    expect(c('- **Features/** - 28 feature modules (About, Editor)')).toEqual(['28 feature modules|Features/']);
    expect(c('- `src/components/`: 45 components')).toEqual(['45 components|src/components/']);
    expect(c('Flat form: `CodeEdit/Features/` — 8 feature modules.')).toEqual(['8 feature modules|CodeEdit/Features/']);
    // Something said of some of them, a verb before the folder, a plain word: no folder.
    expect(c('- `lib/` — 3 modules still use the old API')).toEqual(['3 modules|']);
    expect(c('- Refactored `src/utils/` - 5 modules')).toEqual(['5 modules|']);
    expect(c('- **Features** - 8 feature modules')).toEqual(['8 feature modules|']);
  });

  let r: Repo;
  beforeAll(async () => {
    r = await makeRepo();
    for (const f of ['About', 'Editor', 'LSP', 'Search']) await r.write(`CodeEdit/Features/${f}/Views/${f}View.swift`, `// ${f}\n`);
    await r.write('CodeEdit/CodeEditApp.swift', '// app\n');
    await r.write('Configs/Debug.xcconfig', '// debug\n');
    await r.write(
      'CLAUDE.md',
      [
        '# CLAUDE.md',
        '',
        '### Directory Structure',
        '',
        '- **CodeEdit/** - Main application target',
        '  - **Features/** - 4 feature modules (About, Editor, LSP, Search)',
        '- **Configs/** - Build configurations',
        '',
        'Flat form: `CodeEdit/Features/` - 4 feature modules.',
        '',
      ].join('\n'),
    );
    await r.commit('Add CLAUDE.md', '2026-01-05');
  });

  it('says nothing while the count holds', async () => {
    expect(brief((await audit({ root: r.dir, now: NOW })).findings)).toEqual([]);
  });

  it('counts the folders of the nested item’s folder and corrects both lines', async () => {
    await r.write('CodeEdit/Features/Minimap/Views/MinimapView.swift', '// m\n');
    await r.write('CodeEdit/Features/JumpBar/Views/JumpBarView.swift', '// j\n');
    await r.commit('Add Minimap and JumpBar features', '2026-02-01');
    const res = await audit({ root: r.dir, now: NOW });
    expect(brief(res.findings)).toEqual(['count-drift|CLAUDE.md:6|4 feature modules|6 feature modules', 'count-drift|CLAUDE.md:9|4 feature modules|6 feature modules']);
    expect(res.findings[0].message).toBe('"4 feature modules" no longer matches the repository: there are 6 folders in `CodeEdit/Features/`; update the count to 6.');
    const before = await read(r, 'CLAUDE.md');
    await pruned(
      r,
      'CLAUDE.md',
      before
        .replace('  - **Features/** - 4 feature modules (About, Editor, LSP, Search)', '  - **Features/** - 6 feature modules (About, Editor, LSP, Search) [corrected 2026-06-01]')
        .replace('`CodeEdit/Features/` - 4 feature modules.', '`CodeEdit/Features/` - 6 feature modules. [corrected 2026-06-01]'),
    );
  });
});
