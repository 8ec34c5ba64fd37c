// The import graph spans every file Claude Code loads: files brought in by @imports are audited
// like any memory (stale paths, renamed scripts), and broken-link reports cycles, depth and
// missing targets among them. A real git repository, through the whole pipeline.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { findBrokenLinks } from '../../src/checks/broken-link.js';
import { context, parseFiles } from './helpers.js';

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ma-imports-graph-'));
  const git = (date: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      stdio: 'pipe',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.com',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.com',
        GIT_AUTHOR_DATE: `${date}T10:00:00Z`,
        GIT_COMMITTER_DATE: `${date}T10:00:00Z`,
      },
    });
  const put = (rel: string, text: string) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  git('2026-01-02', 'init', '-q', '-b', 'main');
  put('package.json', '{ "name": "x", "scripts": { "test": "vitest", "lint:fix": "eslint --fix ." } }\n');
  put('src/old.ts', 'x\n');
  git('2026-01-02', 'add', '-A');
  git('2026-01-02', 'commit', '-q', '-m', 'init');
  put('CLAUDE.md', '# P\n@docs/agent/conventions.md\n@docs/agent/d1.md\n@AGENTS.md\n- Run `npm test`.\n');
  put('docs/agent/conventions.md', '# Conventions\n\n- Helpers live in `src/old.ts`.\n- Fix lint with `npm run lint:fix`.\n@loop.md\n');
  put('docs/agent/loop.md', '# Loop\n@conventions.md\n');
  for (let i = 1; i <= 6; i++) put(`docs/agent/d${i}.md`, `# d${i}\n@d${i + 1}.md\n`);
  put('docs/agent/d7.md', '# d7\n- Deep fact about `src/old.ts`.\n');
  put('AGENTS.md', '# Agents\n- Style: @docs/style.md\n');
  put('docs/style.md', '# Style\n- Shared notes: @never-written.md\n');
  git('2026-01-05', 'add', '-A');
  git('2026-01-05', 'commit', '-q', '-m', 'memory');
  git('2026-02-01', 'rm', '-q', 'src/old.ts');
  put('package.json', '{ "name": "x", "scripts": { "test": "vitest", "fix": "eslint --fix ." } }\n');
  git('2026-02-01', 'commit', '-q', '-am', 'rm old, rename lint:fix');
  return dir;
}

describe('imported files in the audit', () => {
  const root = repo();
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('audits imported files and reports cycles, depth and missing imports among them', async () => {
    const res = await audit({ root, now: new Date('2026-06-01T00:00:00Z') });
    expect(res.report.files.map((f) => [f.path, f.format])).toEqual([
      ['AGENTS.md', 'agents-md'],
      ['CLAUDE.md', 'claude-md'],
      ['docs/agent/conventions.md', 'claude-md'],
      ['docs/agent/d1.md', 'claude-md'],
      ['docs/agent/d2.md', 'claude-md'],
      ['docs/agent/d3.md', 'claude-md'],
      ['docs/agent/d4.md', 'claude-md'],
      ['docs/agent/loop.md', 'claude-md'],
      ['docs/style.md', 'claude-md'],
    ]);
    const f = res.findings.map((x) => [x.file, x.line, x.kind, x.ref, x.message]);
    expect(f).toEqual([
      [
        'docs/agent/conventions.md',
        3,
        'path-missing',
        'src/old.ts',
        expect.stringMatching(/^`src\/old\.ts` was deleted in [0-9a-f]{7} \(2026-02-01, "rm old, rename lint:fix"\) by Test; /),
      ],
      [
        'docs/agent/conventions.md',
        4,
        'script-missing',
        'npm run lint:fix',
        expect.stringMatching(/^`npm run lint:fix` no longer works: the script was renamed to `fix` in [0-9a-f]{7} .*; use `npm run fix` instead\.$/),
      ],
      [
        'docs/agent/d4.md',
        2,
        'broken-link',
        '@d5.md',
        "The import @d5.md is 5 hops from CLAUDE.md, beyond Claude Code's limit of 4, so it is never loaded; import it from a shallower file.",
      ],
      [
        'docs/agent/loop.md',
        2,
        'broken-link',
        '@conventions.md',
        'The import @conventions.md is circular (docs/agent/conventions.md -> docs/agent/loop.md -> docs/agent/conventions.md); remove one of the imports.',
      ],
      [
        'docs/style.md',
        2,
        'broken-link',
        '@never-written.md',
        'The import @never-written.md points to a file that does not exist, so Claude Code loads nothing; fix the path or remove it.',
      ],
    ]);
  });
});

describe('broken-link on the import graph', () => {
  it("follows the imports of another format's file once a CLAUDE.md imports it, and never otherwise (GEMINI.md's own imports: Gemini CLI follows them)", () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md': '# P\n@AGENTS.md\n',
      'AGENTS.md': '# A\n- @docs/a.md\n- @docs/gone.md\n',
      'docs/a.md': '# a\n',
      'GEMINI.md': '# G\n- @docs/also-gone.md\n',
      'docs/copilot.md': '# C\n- @docs/never.md\n',
    });
    const f = findBrokenLinks(context(files, entries));
    expect(f.map((x) => [x.file, x.line, x.ref, x.evidence?.reason])).toEqual([
      ['GEMINI.md', 2, '@docs/also-gone.md', 'import-missing'],
      ['AGENTS.md', 3, '@docs/gone.md', 'import-missing'],
    ]);
    expect(f[0].message).toBe('The import @docs/also-gone.md points to a file that does not exist, so Gemini CLI loads nothing; fix the path or remove it.');
  });

  it('a dense import graph is walked once per file and depth (no exponential walk); cycles are still reported', () => {
    // 40 files each importing all the others: every path of five hops would be 40^5 walks.
    const input: Record<string, string> = {};
    const n = 40;
    const names = Array.from({ length: n }, (_, i) => `docs/f${String(i).padStart(2, '0')}.md`);
    input['CLAUDE.md'] = '# P\n@docs/f00.md\n';
    for (const me of names) input[me] = ['# f', ...names.filter((x) => x !== me).map((x) => `@${x.slice(5)}`)].join('\n') + '\n';
    const { files, entries } = parseFiles(input);
    const t0 = performance.now();
    const f = findBrokenLinks(context(files, entries));
    expect(performance.now() - t0).toBeLessThan(5000);
    // every import is reported at most once (paths of more than four hops meet too-deep imports)
    expect(new Set(f.map((x) => `${x.file}:${x.line}`)).size).toBe(f.length);
    expect([...new Set(f.map((x) => x.evidence?.reason))].sort()).toEqual(['import-circular', 'import-too-deep']);
    // f00 -> f01 -> f00 is the first cycle met
    expect(f[0]).toMatchObject({
      file: 'docs/f01.md',
      line: 2,
      ref: '@f00.md',
      message: 'The import @f00.md is circular (docs/f00.md -> docs/f01.md -> docs/f00.md); remove one of the imports.',
    });
  });
});
