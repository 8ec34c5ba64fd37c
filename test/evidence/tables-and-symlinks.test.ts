// Task tables and wildcard patterns built from repository content, and manifests reached through
// symlinks. Adversarial inputs finish quickly with the right result: Taskfile include aliases
// multiplying namespaces are capped (past the cap the namespaces are open), go-task wildcards and
// make pattern targets are matched in linear time (no backtracking on names from memory), and a
// manifest or include that is a symlink leading outside the repository is not read but reported
// as a problem naming it (an include of that kind is open). Real git repositories in temp folders.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { LINK_OUT, makeTargetDefined, taskNameDefined, taskTables } from '../../src/evidence/manifests.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, makeRepo } from '../staleness/helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const outsideDirs: string[] = [];

afterAll(async () => {
  await cleanupRepos();
  await Promise.all(outsideDirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const rows = (r: Report) => findingRows(r, (f) => f.kind === 'script-missing').map((x) => x.split('|').slice(0, 3).join('|'));

describe('Taskfile include aliases', () => {
  it('a chain of includes with many aliases is capped: the namespaces past the cap are open', async () => {
    const r = await makeRepo('ma-tables-');
    const L = 5;
    const aliases = Array.from({ length: 30 }, (_, i) => `a${i + 1}`).join(', ');
    for (let i = 0; i <= L; i++) {
      const dir = 'l/'.repeat(i);
      const inc = i < L ? `includes:\n  n:\n    taskfile: ./l\n    aliases: [${aliases}]\n` : '';
      await r.write(`${dir}Taskfile.yml`, `version: '3'\n${inc}tasks:\n  t${i}: echo ${i}\n`);
    }
    await r.write('CLAUDE.md', '- Run `task n:t1`, `task a7:a3:t2` and `task gone`.\n- `task n:nope`.\n');
    await r.commit('init', '2026-01-01');
    const started = Date.now();
    const { report, evidence } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(Date.now() - started).toBeLessThan(15_000);
    const t = taskTables(evidence!.manifests).get('Taskfile.yml')!;
    // Levels 0-2 are read (1 + 31 + 961 namespaces); the 29,791 of level 3 would pass the cap of
    // 1,000: the 961 namespaces of level 2 stay open instead.
    expect(t.sources.length).toBe(1 + 31 + 961);
    expect(t.openPrefixes.length).toBe(961);
    expect(t.openPrefixes).toContain('n:n:');
    expect(t.names.size).toBe(1 + 31 + 961);
    expect(['n:t1', 'a7:a3:t2', 'n:n:t3', 'n:a1:n:x', 'n:nope', 'gone'].map((n) => taskNameDefined(t, n))).toEqual([true, true, true, true, false, false]);
    expect(rows(report)).toEqual(['script-missing|1|task gone', 'script-missing|2|task n:nope']);
    expect(evidence!.manifests.problems).toEqual([]);
  });
});

describe('wildcard tasks and make pattern targets', () => {
  const K = 16;
  const name = `${'a-'.repeat(40)}a`;
  // Sixteen `x-` and a `!`: what the wildcard task and the make target name.
  const hit = `${'a-'.repeat(40)}!`;

  it('names almost matching many wildcards are matched in linear time', async () => {
    const r = await makeRepo('ma-tables-');
    await r.write('t/Taskfile.yml', `version: '3'\ntasks:\n  '${'*-'.repeat(K)}!': echo wild\n  'gen:*': echo gen\n  build: echo\n`);
    await r.write('m/Makefile', `${Array.from({ length: K }, (_, i) => `$(V${i + 1})-`).join('')}!:\n\techo\nrelease-%:\n\techo\nbuild:\n\techo\n`);
    await r.write('CLAUDE.md', `- \`cd t && task ${name}\`\n- \`cd m && make ${name}\`\n- \`cd t && task gen:api\`, \`cd m && make release-linux\`.\n- \`cd t && task ${hit}\`\n`);
    await r.commit('init', '2026-01-01');
    const started = Date.now();
    const { report, evidence } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    expect(Date.now() - started).toBeLessThan(15_000);
    const t = taskTables(evidence!.manifests).get('t/Taskfile.yml')!;
    expect([name, hit, 'gen:api', 'gen:', 'gen', 'build'].map((n) => taskNameDefined(t, n))).toEqual([false, true, true, true, false, true]);
    const make = evidence!.manifests.makeTargets.get('m/Makefile')!;
    expect([name, hit, 'release-linux', 'release-', 'build'].map((n) => makeTargetDefined(make, n))).toEqual([false, true, true, false, true]);
    // Neither name is defined: both reported, fast.
    expect(rows(report)).toEqual([`script-missing|1|task ${name}`, `script-missing|2|make ${name}`]);
  });

  it('matches make patterns as before: `%` a non-empty stem, a reference any text, adjacent ones joined', () => {
    const set = new Set(['a%b%c', 'x$(A)$(B)y', 'lit$$%', '%-%']);
    expect(['a1b2c', 'abc', 'a1bc', 'abbc', 'xy', 'x12y', 'lit$1', 'lit$', '1-2', 'a-b-c', '-2', '1-', 'q'].map((n) => makeTargetDefined(set, n))).toEqual([
      true, false, false, false, true, true, true, false, true, true, false, false, false,
    ]);
    // `$(X)%`: one wildcard of at least one character; no literal text, so left out in `literal` mode.
    const open = new Set(['build', '$(X)%']);
    expect(['q', ''].map((n) => makeTargetDefined(open, n))).toEqual([true, false]);
    expect(makeTargetDefined(open, 'q', true)).toBe(false);
  });
});

describe('symlinks leading outside the repository', () => {
  it('are not read: a problem names each, and an include of that kind is open', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'ma-outside-'));
    outsideDirs.push(outside);
    await writeFile(path.join(outside, 'Taskfile.yml'), "version: '3'\ntasks:\n  secret: echo\n");
    await writeFile(path.join(outside, 'package.json'), '{"name":"o","scripts":{"outside-only":"x"}}\n');
    await writeFile(path.join(outside, 'common.mk'), 'outside-target:\n\techo\n');
    const r = await makeRepo('ma-tables-');
    await r.write('Taskfile.yml', "version: '3'\nincludes:\n  sym: ./linked.yml\n  in: ./inside.yml\ntasks:\n  build: echo\n");
    await r.write('real/Taskfile.yml', "version: '3'\ntasks:\n  here: echo\n");
    await symlink(path.join(outside, 'Taskfile.yml'), path.join(r.dir, 'linked.yml'));
    // A symlink staying inside the repository is read as before.
    await symlink('real/Taskfile.yml', path.join(r.dir, 'inside.yml'));
    await r.write('web/.keep', '');
    await symlink(path.join(outside, 'package.json'), path.join(r.dir, 'web/package.json'));
    await r.write('Makefile', 'include common.mk\nbuild:\n\techo\n');
    await symlink(path.join(outside, 'common.mk'), path.join(r.dir, 'common.mk'));
    await r.write('CLAUDE.md', '- `task sym:secret`, `task sym:nothere`, `task in:here`, `task in:nope`.\n- `make build`.\n');
    await r.commit('init', '2026-01-01');
    const { report, evidence } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    const m = evidence!.manifests;
    expect(m.problems.filter((p) => p.message === LINK_OUT).map((p) => p.file).sort()).toEqual(['common.mk', 'linked.yml', 'web/package.json']);
    expect(LINK_OUT).toBe('symlink leads outside the repository, not read');
    expect(m.scripts.has('web/package.json')).toBe(false);
    expect(m.manifestFiles!.has('web/package.json')).toBe(false);
    const t = taskTables(m).get('Taskfile.yml')!;
    expect(t.openPrefixes).toEqual(['sym:']);
    expect([...t.names].sort()).toEqual(['build', 'in:here']);
    expect(t.sources.map((s) => s.file)).not.toContain('linked.yml');
    // The Makefile's include was not read: its target set is open.
    expect([...m.makeTargets.get('Makefile')!]).toEqual(['build', '$(unknown)']);
    expect(rows(report)).toEqual(['script-missing|1|task in:nope']);
  });

  it('tsconfig and .gitignore files are read the same way: outside links and broken files are notes, the run goes on', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'ma-outside-'));
    outsideDirs.push(outside);
    await writeFile(path.join(outside, 'tsconfig.json'), '{"compilerOptions":{"paths":{"@outside/*":["./src/*"]}}}\n');
    await writeFile(path.join(outside, '.gitignore'), 'secret-build/\n');
    const r = await makeRepo('ma-tables-');
    await r.write('src/app.ts', 'export {};\n');
    await r.write('web/src/main.ts', 'export {};\n');
    await r.write('web/tsconfig.json', '{"compilerOptions":{"paths":{"@web/*":["./src/*"]}}}\n');
    await r.write('bad/tsconfig.json', '{"compilerOptions": {"paths": \n');
    await r.write('api/.keep', '');
    await symlink(path.join(outside, 'tsconfig.json'), path.join(r.dir, 'tsconfig.json'));
    await symlink(path.join(outside, '.gitignore'), path.join(r.dir, 'api/.gitignore'));
    await r.write(
      'CLAUDE.md',
      ['- Web entry: `@web/main.ts`.', '- Shared code under `@outside/app.ts`.', '- API build output lands in `api/secret-build/out.js`.', ''].join('\n'),
    );
    await r.commit('init', '2026-01-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    const notes = (report.notes ?? []).filter((n) => n.kind === ('manifest-unreadable' as never)).map((n) => [n.file, n.message]);
    expect(notes).toEqual([
      ['api/.gitignore', '`api/.gitignore` could not be read: symlink leads outside the repository, not read; its ignore rules are not applied.'],
      ['bad/tsconfig.json', '`bad/tsconfig.json` could not be read: invalid JSON (with comments); its path aliases are not applied.'],
      ['tsconfig.json', '`tsconfig.json` could not be read: symlink leads outside the repository, not read; its path aliases are not applied.'],
    ]);
    // the alias of the readable config still resolves (`@web/main.ts`); the outside rules are not
    // applied (with them the build output would be excused as ignored on purpose)
    expect(findingRows(report, (f) => f.kind.startsWith('path')).map((x) => x.split('|').slice(0, 3).join('|'))).toEqual([
      'path-unverified|3|api/secret-build/out.js',
    ]);
  });

  it('a tsconfig extends target below a symlinked folder leading outside is not read (QA round 25)', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'ma-outside-'));
    outsideDirs.push(outside);
    await writeFile(path.join(outside, 'tsconfig.base.json'), '{"compilerOptions":{"paths":{"@/*":["../src/*"]}}}\n');
    const r = await makeRepo('ma-tables-');
    await r.write('web/src/components/Button.tsx', 'export const B = 1;\n');
    await r.write('web/tsconfig.json', '{ "extends": "./shared/tsconfig.base.json" }\n');
    await symlink(outside, path.join(r.dir, 'web/shared'));
    await r.write('CLAUDE.md', '- UI primitives: `@/components/Button.tsx`.\n');
    await r.commit('init', '2026-01-01');
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    const notes = (report.notes ?? []).filter((n) => n.kind === ('manifest-unreadable' as never)).map((n) => [n.file, n.message]);
    expect(notes).toEqual([
      ['web/shared/tsconfig.base.json', '`web/shared/tsconfig.base.json` could not be read: symlink leads outside the repository, not read; its path aliases are not applied.'],
    ]);
  });
});

