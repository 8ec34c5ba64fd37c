// Path references as real repositories write them (QA rounds 6 and 7): git-ignored build output,
// installed dependencies and submodule files; paths relative to a component folder; globs
// whose every match was renamed; memory links the path check already explains; case-only
// renames history records. Real git repositories in temp folders, audited end to end.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { gitFileIndex } from '../../src/evidence/files.js';
import { ignoredByGit, underDependencyFolder } from '../../src/evidence/untracked-on-purpose.js';
import type { Report } from '../../src/types.js';
import { body, cleanupRepos, findingRows, findingsAndNotesOf, makeRepo, shallowClone, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

const all = findingsAndNotesOf;
/** kind|line|ref|replace of the path and link findings and notes, by line. */
const brief = (r: Report): string[] => findingRows(r, (f) => f.kind.startsWith('path-') || f.kind === 'broken-link');
const short = (sha: string) => sha.slice(0, 7);

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('paths git leaves out on purpose: ignored output, dependencies, submodules', () => {
  let app: Repo;
  let shallow: string;
  let delSha: string;
  const memory = [
    '# App',
    '',
    '- `npm run build` writes `dist/index.js`; the service worker is emitted to `dist/sw.js`.',
    '- Never edit `node_modules/vite/dist/node/index.js`; patch it with patch-package instead.',
    '- The vendored C library is the submodule `third_party/vendorlib`; its entry point is `third_party/vendorlib/src/lib.c`.',
    '- clang-tidy reads `build-rel/compile_commands.json`; the web app writes `web/.cache/state.json`.',
    '- Python tools run from `.venv/bin/python`; gems are installed under `vendor/bundle/ruby/3.3.0/gems/`.',
    '- The schema is generated into `generated/schema.json`.',
    '- The typo `conf/app.yaml` is still noted.',
    '',
  ].join('\n');

  beforeAll(async () => {
    const lib = await makeRepo();
    await lib.write('src/lib.c', 'int x;\n');
    await lib.commit('lib', '2025-01-01');
    app = await makeRepo();
    await app.write('package.json', '{ "name": "app", "scripts": { "build": "tsc -p ." } }\n');
    await app.write('.gitignore', 'node_modules/\ndist/\n/build*\n');
    await app.write('web/.gitignore', '.cache/\n');
    await app.write('src/index.ts', body('index'));
    await app.write('generated/schema.json', body('schema'));
    git(app.dir, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib.dir, 'third_party/vendorlib']);
    await app.commit('initial', '2025-02-01');
    // a tracked file whose folder git ignores from now on: it became generated output, not gone
    await app.remove('generated/schema.json');
    await app.write('.gitignore', 'node_modules/\ndist/\n/build*\ngenerated/\n');
    delSha = short(await app.commit('Generate the schema at build time', '2025-03-01'));
    await app.write('CLAUDE.md', memory);
    await app.commit('Add CLAUDE.md', '2025-04-01');
    // what exists on disk only: build output and installed dependencies
    for (const f of ['dist/index.js', 'dist/sw.js', 'node_modules/vite/dist/node/index.js', 'build-rel/compile_commands.json', 'web/.cache/state.json', 'generated/schema.json'])
      await app.write(f, 'x\n');
    shallow = await shallowClone(app);
  });

  it('full history: only the never-existing path is reported (a tracked file deleted and ignored since is generated now)', async () => {
    const { report } = await audit({ root: app.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(brief(report)).toEqual(['path-unverified|9|conf/app.yaml|']);
    expect(delSha).toMatch(/^[0-9a-f]{7}$/);
    const plans = report.plan.filter((p) => p.action !== 'keep').map((p) => report.entries.find((e) => e.id === p.entryId)!.line);
    expect(plans).not.toContain(3);
    expect(plans).not.toContain(4);
    expect(plans).not.toContain(5);
    expect(plans).not.toContain(6);
    expect(plans).not.toContain(7);
    expect(plans).not.toContain(8);
  });

  it('shallow clone: no path-missing for ignored, installed or submodule paths', async () => {
    const { report } = await audit({ root: shallow, memory: ['CLAUDE.md'], now: NOW });
    // generated/schema.json is gone and ignored in the clone: history cannot say more, git says it is left out
    expect(brief(report)).toEqual(['path-missing|9|conf/app.yaml|']);
  });

  it('applies root and nested .gitignore files as git check-ignore does', async () => {
    const r = await makeRepo();
    await r.write('.gitignore', ['/build*', 'build/', 'node_modules/', '*.log', '!keep.log', 'docs/_site/', '/tmp', 'secret?.txt', '*.[oa]', ''].join('\n'));
    await r.write('sub/.gitignore', ['!build/', '*.tmp', '/local/', '!important.log', ''].join('\n'));
    await r.write('pkg/a/.gitignore', ['dist', '!dist/keep/', ''].join('\n'));
    await r.write('docs/_site/.gitignore', '!index.html\n');
    await r.write('README.md', 'x\n');
    await r.commit('rules', '2025-01-01');
    const paths = [
      'build-rel/compile_commands.json', 'build/x.o', 'src/build/x.ts', 'src/buildtools/x.ts', 'a.log', 'keep.log', 'x/keep.log', 'x/y/z.log',
      'docs/_site/index.html', 'docs/site/index.html', 'tmp/x', 'x/tmp/y', 'sub/build/x.ts', 'sub/a.tmp', 'sub/local/x', 'sub/x/local/y',
      'sub/important.log', 'sub/other.log', 'pkg/a/dist/keep/x', 'pkg/a/dist/y', 'pkg/b/dist/y', 'pkg/a/src/dist', 'secret1.txt', 'secret12.txt',
      'lib/x.o', 'lib/x.c', 'node_modules/a/b.js', 'web/node_modules/a/b.js',
    ];
    for (const p of paths) await r.write(p, 'x\n');
    const byGit = new Set(
      (await simpleGit({ baseDir: r.dir }).raw(['check-ignore', '--no-index', ...paths]).catch((e: Error) => String(e.message))).split('\n').filter(Boolean),
    );
    const { index } = await gitFileIndex(r.dir);
    const ours = paths.filter((p) => ignoredByGit(index, p));
    expect(ours).toEqual(paths.filter((p) => byGit.has(p)));
    // a few verdicts spelled out, so that a change of git's answers shows here too
    expect(ours).toContain('build-rel/compile_commands.json');
    expect(ours).toContain('pkg/a/dist/keep/x'); // no re-including below an excluded folder
    expect(ours).not.toContain('sub/build/x.ts'); // a deeper .gitignore re-includes the folder
    expect(ours).not.toContain('sub/important.log');
  });

  it('knows dependency folders by name, at any depth', () => {
    expect(['node_modules/a.js', 'web/node_modules/x/y.js', '.venv/bin/python', 'vendor/bundle/ruby/x.rb', 'ios/Pods/A/a.h'].map(underDependencyFolder)).toEqual([true, true, true, true, true]);
    expect(['vendor/github.com/x/y.go', 'src/node_modules.ts', 'node_modules', 'vendor/bundle'].map(underDependencyFolder)).toEqual([false, false, false, false]);
  });
});

describe('paths written relative to a component folder', () => {
  let report: Report;
  let renSha: string;
  let delSha: string;
  const memory = [
    '# Rails',
    '',
    '- Helper class: `actionview/lib/action_view/helpers/tags/hidden_field.rb`',
    '- Similar fixes were in `tags/check_box.rb` and `tags/file_field.rb`.',
    '- **Tag helpers** (`lib/action_view/helpers/tags/`) - individual form elements',
    '- **Form helpers** (`lib/action_view/helpers/form_helper.rb`) - form builders',
    '- **Form tag helpers** (`lib/action_view/helpers/form_tag_helper.rb`) - standalone tags',
    '- **URL helpers** (`lib/action_view/helpers/url_helper.rb`) - links',
    '- Shared utilities: `src/util.ts` in each package.',
    '- The entry point is `src/index.ts`.',
    '- Records live in `lib/missing/record.rb`.',
    '',
  ].join('\n');

  beforeAll(async () => {
    const r = await makeRepo();
    for (const f of [
      'actionview/lib/action_view/helpers/tags/hidden_field.rb', 'actionview/lib/action_view/helpers/tags/check_box.rb',
      'actionview/lib/action_view/helpers/tags/file_field.rb', 'actionview/lib/action_view/helpers/form_helper.rb',
      'actionview/lib/action_view/helpers/form_tag_helper.rb', 'actionview/lib/action_view/helpers/url_helper.rb',
      'packages/x/src/util.ts', 'packages/y/src/util.ts', 'a/src/index.ts', 'b/src/index.ts',
    ]) await r.write(f, body(f));
    await r.commit('initial', '2025-10-01');
    await r.move('actionview/lib/action_view/helpers/form_tag_helper.rb', 'actionview/lib/action_view/helpers/form_tags.rb');
    renSha = short(await r.commit('Rename form_tag_helper', '2025-11-01'));
    await r.remove('actionview/lib/action_view/helpers/url_helper.rb');
    delSha = short(await r.commit('Drop url_helper', '2025-11-02'));
    await r.write('AGENTS.md', memory);
    await r.commit('Add AGENTS.md', '2025-12-01');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('a unique suffix of a path at HEAD (or several under one folder) is found; a renamed or deleted one is reported', () => {
    expect(brief(report)).toEqual([
      'path-renamed|7|lib/action_view/helpers/form_tag_helper.rb|lib/action_view/helpers/form_tags.rb',
      'path-missing|8|lib/action_view/helpers/url_helper.rb|',
      'path-unverified|10|src/index.ts|',
      'path-unverified|11|lib/missing/record.rb|',
    ]);
    const msg = (line: number) => all(report).find((f) => f.line === line && f.kind.startsWith('path-'))!.message;
    expect(msg(7)).toBe(
      `\`lib/action_view/helpers/form_tag_helper.rb\` (actionview/lib/action_view/helpers/form_tag_helper.rb) was renamed to \`actionview/lib/action_view/helpers/form_tags.rb\` in ${renSha} (2025-11-01, "Rename form_tag_helper"); update the reference.`,
    );
    expect(msg(8)).toBe(
      `\`lib/action_view/helpers/url_helper.rb\` (actionview/lib/action_view/helpers/url_helper.rb) was deleted in ${delSha} (2025-11-02, "Drop url_helper") by Test Author; remove the reference or point it at what replaced it.`,
    );
  });
});

describe('globs whose matches are all gone', () => {
  let r: Repo;
  let report: Report;
  let sha: Record<string, string>;
  const memory = [
    '# llama.cpp',
    '',
    '1) Extend `llm_arch` + name mapping (`src/llama-arch.*`)',
    '2) Parse GGUF metadata into a dedicated hyperparams struct (`src/llama-model-loader.*`)',
    '3) GGUF readers: `src/gguf/*.cpp`',
    '4) Old Python helpers: `src/old/*.py`',
    '5) Mixed: `src/mix/*.c`',
    '6) Future kernels go in `src/kernels/*.cu`',
    '',
  ].join('\n');

  beforeAll(async () => {
    r = await makeRepo();
    sha = {};
    for (const f of [
      'src/llama-model-loader.cpp', 'src/llama-model-loader.h', 'src/llama-arch.cpp', 'src/llama-arch.h', 'src/gguf/a.cpp', 'src/gguf/b.cpp',
      'src/old/x.py', 'src/old/y.py', 'src/old/README.md', 'src/mix/p.c', 'src/mix/q.c', 'src/mix/README.md', 'src/kernels/README.md',
    ]) await r.write(f, body(f));
    await r.write('AGENTS.md', memory);
    await r.commit('Initial', '2025-10-01');
    await r.move('src/llama-model-loader.cpp', 'src/llama-loader.cpp');
    await r.move('src/llama-model-loader.h', 'src/llama-loader.h');
    sha.loader = short(await r.commit('Rename model loader', '2026-03-01'));
    await r.move('src/gguf/a.cpp', 'src/gguf/a.cc');
    await r.move('src/gguf/b.cpp', 'src/gguf/b.cc');
    sha.gguf = short(await r.commit('cpp -> cc', '2026-03-02'));
    await r.remove('src/old/x.py');
    await r.remove('src/old/y.py');
    sha.old = short(await r.commit('Drop the Python helpers', '2026-03-03'));
    await r.move('src/mix/p.c', 'src/mix2/p.c');
    await r.remove('src/mix/q.c');
    sha.mix = short(await r.commit('Split mix', '2026-03-04'));
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('offers the renamed glob when every match was renamed the same way; path-missing otherwise; silent while something matches', () => {
    expect(brief(report)).toEqual([
      'path-renamed|4|src/llama-model-loader.*|src/llama-loader.*',
      'path-renamed|5|src/gguf/*.cpp|src/gguf/*.cc',
      'path-missing|6|src/old/*.py|',
      'path-missing|7|src/mix/*.c|',
    ]);
    const msg = (line: number) => report.findings.find((f) => f.line === line)!.message;
    expect(msg(4)).toBe(
      `\`src/llama-model-loader.*\` matches no file any more: the 2 files it matched (\`src/llama-model-loader.cpp\`, \`src/llama-model-loader.h\`) were renamed to \`src/llama-loader.*\` in ${sha.loader} (2026-03-01, "Rename model loader"); update the reference.`,
    );
    expect(msg(6)).toBe(
      `\`src/old/*.py\` matches no file any more: the 2 files it matched (\`src/old/x.py\`, \`src/old/y.py\`) were deleted (the last in ${sha.old} (2026-03-03, "Drop the Python helpers") by Test Author); remove the reference or point it at what replaced them.`,
    );
    expect(msg(7)).toBe(
      `\`src/mix/*.c\` matches no file any more: the 2 files it matched (\`src/mix/p.c\`, \`src/mix/q.c\`) were renamed or deleted, not all in one way (the last in ${sha.mix} (2026-03-04, "Split mix")); remove the reference or point it at what replaced them.`,
    );
    expect(report.findings.find((f) => f.line === 4)!.evidence).toMatchObject({ path: 'src/llama-model-loader.*', now: 'src/llama-loader.*', matched: ['src/llama-model-loader.cpp', 'src/llama-model-loader.h'] });
  });

  it('prune writes the renamed globs; a second prune changes nothing', async () => {
    await runPrune({ root: r.dir, now: NOW, write: true, memory: ['AGENTS.md'] });
    const text = await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8');
    expect(text).toContain('2) Parse GGUF metadata into a dedicated hyperparams struct (`src/llama-loader.*`) [corrected 2026-06-01]\n');
    expect(text).toContain('3) GGUF readers: `src/gguf/*.cc` [corrected 2026-06-01]\n');
    expect(text).toContain('1) Extend `llm_arch` + name mapping (`src/llama-arch.*`)\n');
    expect(text).toContain('6) Future kernels go in `src/kernels/*.cu`\n');
    const again = await runPrune({ root: r.dir, now: NOW, write: true, memory: ['AGENTS.md'] });
    expect(again.changes).toEqual([]);
  });
});

describe('a moved memory link is reported once', () => {
  it('path-renamed explains it; a link to a memory file that never existed stays broken', async () => {
    const r = await makeRepo();
    await r.write('i18n/chinese/GEMINI.md', '# 中文\n');
    await r.write('src/index.ts', body('index'));
    await r.commit('init', '2025-06-25');
    await r.write('GEMINI.md', '🌐 [查看中文版](./i18n/chinese/GEMINI.md) · [Français](./i18n/french/GEMINI.md)\n\n# Gemini\n\n- Sources are in `src/`; setup in Chinese: [设置](./i18n/chinese/GEMINI.md#setup).\n');
    await r.commit('Add GEMINI.md', '2025-07-01');
    await r.move('i18n/chinese', 'docs/i18n/chinese');
    await r.commit('Move translations under docs', '2025-10-05');
    const { report } = await audit({ root: r.dir, memory: ['GEMINI.md'], now: NOW });
    expect(brief(report)).toEqual([
      'path-renamed|1|./i18n/chinese/GEMINI.md|./docs/i18n/chinese/GEMINI.md',
      'broken-link|1|./i18n/french/GEMINI.md|',
      'path-unverified|1|./i18n/french/GEMINI.md|',
      'path-renamed|5|./i18n/chinese/GEMINI.md|./docs/i18n/chinese/GEMINI.md',
    ]);
  });
});

describe('case-only renames', () => {
  it('a case-only rename history records is a rename with a successor; a case typo stays an info', async () => {
    const r = await makeRepo();
    await r.write('Readme.md', '# readme\n');
    await r.write('docs/guide.md', '# guide\n');
    await r.commit('init', '2025-01-01');
    await r.move('Readme.md', 'README.md');
    const sha = short(await r.commit('Normalise file name case', '2025-02-01'));
    await r.write('CLAUDE.md', '# Shapes\n\n- Start with `Readme.md`.\n- The guide is `docs/Guide.md`.\n');
    await r.commit('Add CLAUDE.md', '2025-07-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(all(report).filter((f) => f.kind.startsWith('path-')).map((f) => [f.kind, f.severity, f.line, f.message, f.suggestion?.replace])).toEqual([
      ['path-renamed', 'warning', 3, `\`Readme.md\` was renamed to \`README.md\` in ${sha} (2025-02-01, "Normalise file name case"); update the reference.`, 'README.md'],
      ['path-renamed', 'info', 4, '`docs/Guide.md` differs only in letter case from `docs/guide.md`, which fails on case-sensitive file systems; write `docs/guide.md`.', 'docs/guide.md'],
    ]);
    await runPrune({ root: r.dir, now: NOW, write: true, memory: ['CLAUDE.md'] });
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe('# Shapes\n\n- Start with `README.md`. [corrected 2026-06-01]\n- The guide is `docs/Guide.md`.\n');
    const again = await runPrune({ root: r.dir, now: NOW, write: true, memory: ['CLAUDE.md'] });
    expect(again.changes).toEqual([]);
  });
});
