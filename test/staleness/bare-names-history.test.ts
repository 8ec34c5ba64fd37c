// Bare file names checked against history (QA round 9): a name written without its folder
// (`temporary.xml`) whose only file lives deep in the tree is reported when that file was
// renamed or deleted; variant files of well-known extensionless names (`Procfile.dev`,
// `Dockerfile.dev`, `Gemfile.next`) are paths. Real git repositories, audited end to end.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { asPath } from '../../src/memory/refs/paths.js';
import type { Report } from '../../src/types.js';
import { body, cleanupRepos, findingRows, findingsAndNotesOf, makeRepo, shallowClone, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

const all = findingsAndNotesOf;
/** kind|line|ref|replace of the path findings and notes, by line. */
const brief = (r: Report): string[] => findingRows(r, (f) => f.kind.startsWith('path-'));
const short = (sha: string) => sha.slice(0, 7);
const RES = 'libraries/ui-strings/src/main/res/values';

describe('bare names of deep files, against history', () => {
  let r: Repo;
  let report: Report;
  const sha: Record<string, string> = {};
  const memory = [
    '# AGENTS.md',
    '',
    '- **Never edit `localazy.xml`**: it is auto-generated and overwritten.',
    '- New English strings go in **`temporary.xml`**. The core team imports these to Localazy.',
    '- The outer loop runs in `tests-outerloop.yml`; releases in pre-release.yml.',
    '- Checks: `config.yml` (two different files had that name), `strings.xml` (still in the tree), `moved.json`.',
    '- Docs: `guide.md` has the setup.',
    '- The stage file is `stage.toml`; also see `local.xml`.',
    '',
  ].join('\n');

  beforeAll(async () => {
    r = await makeRepo();
    for (const f of [
      `${RES}/localazy.xml`, `${RES}/temporary.xml`, `${RES}/strings.xml`, 'app/src/main/AndroidManifest.xml',
      '.github/workflows/tests-outerloop.yml', '.github/workflows/pre-release.yml', '.github/workflows/ci.yml',
      'a/config.yml', 'b/config.yml', 'data/moved.json', 'docs/guide/guide.md', 'docs/other/readme.md',
      'deploy/stage.toml', 'x/local.xml',
    ]) await r.write(f, body(f));
    await r.commit('initial', '2025-12-01');
    await r.write('AGENTS.md', memory);
    await r.commit('Add AGENTS.md', '2026-01-10');
    await r.move(`${RES}/temporary.xml`, `${RES}/strings_temporary.xml`);
    sha.tmp = short(await r.commit('Rename temporary strings file', '2026-02-20'));
    await r.remove(`${RES}/localazy.xml`);
    sha.loc = short(await r.commit('Drop Localazy export file', '2026-03-20'));
    // one file, moved between folders and then renamed: one identity, followed to its successor
    await r.move('.github/workflows/tests-outerloop.yml', '.github/workflows/old/tests-outerloop.yml');
    await r.commit('Move the outer loop workflow', '2026-03-21');
    await r.move('.github/workflows/old/tests-outerloop.yml', '.github/workflows/outerloop.yml');
    sha.outer = short(await r.commit('Rename the outer loop workflow', '2026-03-22'));
    // renamed to a name another file has at HEAD: the correction is written in full
    await r.move('.github/workflows/pre-release.yml', `.github/workflows/release/ci.yml`);
    sha.pre = short(await r.commit('Fold pre-release into release', '2026-03-23'));
    // two different files had the name: ambiguous
    await r.remove('a/config.yml');
    await r.remove('b/config.yml');
    // moved, the name kept: the bare name still names it
    await r.move('data/moved.json', 'assets/moved.json');
    await r.remove('docs/guide/guide.md');
    // a file of the same name in another letter case is at HEAD
    await r.remove('x/local.xml');
    await r.write('y/LOCAL.XML', body('y'));
    await r.commit('Tidy', '2026-03-24');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('reports the rename or deletion of the only file so named; silent when ambiguous or present (in any letter case)', () => {
    expect(brief(report)).toEqual([
      'path-missing|3|localazy.xml|',
      'path-renamed|4|temporary.xml|strings_temporary.xml',
      'path-renamed|5|pre-release.yml|.github/workflows/release/ci.yml',
      'path-renamed|5|tests-outerloop.yml|outerloop.yml',
      'path-missing|7|guide.md|',
    ]);
    const msg = (line: number, ref: string) => all(report).find((f) => f.line === line && f.ref === ref)!.message;
    expect(msg(3, 'localazy.xml')).toBe(
      `\`localazy.xml\` (${RES}/localazy.xml) was deleted in ${sha.loc} (2026-03-20, "Drop Localazy export file") by Test Author; remove the reference or point it at what replaced it.`,
    );
    expect(msg(4, 'temporary.xml')).toBe(
      `\`temporary.xml\` (${RES}/temporary.xml) was renamed to \`${RES}/strings_temporary.xml\` in ${sha.tmp} (2026-02-20, "Rename temporary strings file"); update the reference.`,
    );
    expect(msg(5, 'tests-outerloop.yml')).toBe(
      `\`tests-outerloop.yml\` (.github/workflows/old/tests-outerloop.yml) was renamed to \`.github/workflows/outerloop.yml\` in ${sha.outer} (2026-03-22, "Rename the outer loop workflow"); update the reference.`,
    );
    expect(msg(5, 'pre-release.yml')).toBe(
      `\`pre-release.yml\` (.github/workflows/pre-release.yml) was renamed to \`.github/workflows/release/ci.yml\` in ${sha.pre} (2026-03-23, "Fold pre-release into release"); update the reference.`,
    );
  });

  it('prune corrects the bare names as written and deletes the lines of deleted files; a second prune changes nothing', async () => {
    await runPrune({ root: r.dir, now: NOW, write: true, memory: ['AGENTS.md'] });
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe(
      [
        '# AGENTS.md',
        '',
        '- New English strings go in **`strings_temporary.xml`**. The core team imports these to Localazy. [corrected 2026-06-01]',
        '- The outer loop runs in `outerloop.yml`; releases in .github/workflows/release/ci.yml. [corrected 2026-06-01]',
        '- Checks: `config.yml` (two different files had that name), `strings.xml` (still in the tree), `moved.json`.',
        '- The stage file is `stage.toml`; also see `local.xml`.',
        '',
      ].join('\n'),
    );
    const again = await runPrune({ root: r.dir, now: NOW, write: true, memory: ['AGENTS.md'] });
    expect(again.changes).toEqual([]);
  });
});

describe('bare names: when history cannot tell', () => {
  let r: Repo;
  beforeAll(async () => {
    r = await makeRepo();
    await r.write('res/values/temporary.xml', body('temporary'));
    await r.write('README.md', '# app\n');
    await r.commit('initial', '2025-12-01');
    await r.remove('res/values/temporary.xml');
    await r.commit('Drop temporary strings', '2026-01-05');
    // written after the only file of that name was gone: the name means something else
    await r.write('AGENTS.md', '# Agents\n\n- Put local overrides in `temporary.xml` (not committed).\n');
    await r.commit('Add memory', '2026-02-01');
  });

  it('not when the memory file was added after the file was renamed or deleted', async () => {
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(brief(report)).toEqual([]);
  });

  it('not in a shallow clone', async () => {
    const src = await makeRepo();
    await src.write('res/values/temporary.xml', body('temporary'));
    await src.write('CLAUDE.md', '# Claude\n\n- Strings go in `temporary.xml`.\n');
    await src.commit('initial', '2025-12-01');
    await src.remove('res/values/temporary.xml');
    await src.commit('Drop temporary strings', '2026-01-05');
    await src.write('README.md', '# app\n');
    await src.commit('Readme', '2026-01-06');
    const full = await audit({ root: src.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(brief(full.report)).toEqual(['path-missing|3|temporary.xml|']);
    const shallow = await shallowClone(src);
    const { report } = await audit({ root: shallow, memory: ['CLAUDE.md'], now: NOW });
    expect(brief(report)).toEqual([]);
  });
});

describe('variant files of well-known extensionless names', () => {
  it('reads `Procfile.dev`, `Dockerfile.dev`, `Gemfile.next` in code and command arguments as paths, not in prose', () => {
    for (const t of ['Procfile.dev', 'Procfile.worktree', 'Dockerfile.dev', 'Gemfile.next', 'Makefile.local', 'Containerfile.arm64', 'Jenkinsfile.nightly', 'Brewfile.ci', 'Vagrantfile.local']) {
      expect(asPath(t, 'code'), t).toMatchObject({ value: t, anchor: 'plain', strong: true });
      expect(asPath(t, 'prose'), t).toBeNull();
    }
    expect(asPath('docker/Dockerfile.prod', 'code')).toMatchObject({ value: 'docker/Dockerfile.prod', strong: true });
    for (const t of ['Procfile.', 'Dockerfiles.dev', 'MyDockerfile.dev', 'Gemfile.1']) expect(asPath(t, 'code'), t).toBeNull();
  });

  it('reports their deletion like `.env.example`; prune deletes the lines; a second prune changes nothing', async () => {
    const r = await makeRepo();
    for (const f of ['Procfile.worktree', 'Dockerfile.dev', 'Procfile.dev', 'Gemfile.next', '.env.example', 'Dockerfile.prod']) await r.write(f, body(f));
    const memory = [
      '# Chatwoot Development Guidelines',
      '',
      '- **Run Project**: `overmind start -f Procfile.dev`',
      '- Keep Codex-specific local setup under `.codex/` and use `Procfile.worktree` for worktree process orchestration.',
      '- Build the dev image from `Dockerfile.dev`.',
      '- Dual-boot the next Rails with `BUNDLE_GEMFILE=Gemfile.next bundle install`.',
      '- Copy `.env.example` to `.env`.',
      '- Production images use `Dockerfile.prod`.',
      '',
    ].join('\n');
    await r.write('AGENTS.md', memory);
    await r.commit('chore: add AGENTS.md', '2026-01-20');
    for (const f of ['Procfile.worktree', 'Dockerfile.dev', 'Procfile.dev', 'Gemfile.next', '.env.example']) await r.remove(f);
    const sha = short(await r.commit('chore: drop Procfiles', '2026-03-15'));
    const { report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW });
    expect(brief(report)).toEqual([
      'path-missing|3|Procfile.dev|',
      'path-missing|4|Procfile.worktree|',
      'path-missing|5|Dockerfile.dev|',
      'path-missing|6|Gemfile.next|',
      'path-missing|7|.env.example|',
    ]);
    expect(report.findings.find((f) => f.line === 3)!.message).toBe(
      `\`Procfile.dev\` was deleted in ${sha} (2026-03-15, "chore: drop Procfiles") by Test Author; remove the reference or point it at what replaced it.`,
    );
    await runPrune({ root: r.dir, now: NOW, write: true, memory: ['AGENTS.md'] });
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe('# Chatwoot Development Guidelines\n\n- Production images use `Dockerfile.prod`.\n');
    const again = await runPrune({ root: r.dir, now: NOW, write: true, memory: ['AGENTS.md'] });
    expect(again.changes).toEqual([]);
  });
});
