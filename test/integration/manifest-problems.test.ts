// Manifests that do not parse at HEAD are reported (one `manifest-unreadable` note per file, no
// parser text in it), history versions that did not parse are not; and three defects of reading
// untrusted manifest and command text: `task build; touch x` (the `;` ends the command), a
// megabyte `packageManager` version (not a version: no finding, no "npm Infinity"), a NuGet
// package named in an entry (a live name: the entry goes to review, not delete).
import { afterAll, describe, expect, test } from 'vitest';
import { audit } from '../../src/audit.js';
import { buildReport } from '../../src/report/json.js';
import { renderText } from '../../src/report/text.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { runPrune } from '../../src/commands/prune.js';
import { manifestProblemNotes } from '../../src/report/manifest-problems.js';
import { parseCommandLine } from '../../src/memory/refs/commands.js';
import { parseVersion } from '../../src/checks/version.js';
import { NOW, cleanup, config, makeRepo } from '../prune/helpers.js';

afterAll(cleanup);

const SECRET = 'hunter2' + 'TOPSECRET';

const run = (dir: string) => audit({ root: dir, now: NOW, config: config() });

describe('manifest-unreadable notes', () => {
  test('each broken manifest at HEAD gives one note naming the file, no file text; other findings stay', async () => {
    const memory = [
      '- Lint PHP with `composer lint` (in php/).',
      '- Start with `deno task dev` (in deno/).',
      '- Build docs with `task docs` (in task/).',
      '- Install with `npm run setup` (in node/).',
      '- Check types with `npm run typecheck`.',
      '',
    ].join('\n');
    const repo = await makeRepo({
      'CLAUDE.md': memory,
      'package.json': '{"name":"root","scripts":{"build":"tsc"}}\n',
      // V8 quotes the text around the error ("Unexpected token 'x', "…" is not valid JSON").
      'php/composer.json': `{"name":"a/b","config":{"token":"${SECRET}"}, x}\n`,
      'deno/deno.jsonc': `{"tasks": {"dev": "${SECRET}" \n`,
      'task/Taskfile.yml': `version: "3"\ntasks:\n  docs: [\n  ${SECRET}: {\n`,
      'node/package.json': `{"name":"n",\n"scripts":{"setup":"${SECRET}"\n`,
      'py/pyproject.toml': `[project]\nname = "${SECRET}\n`,
      // fast-xml-parser names the tags it expected
      // the .NET SDK pin, read as JSON with comments like the SDK reads it
      'dotnet/global.json': `{ "sdk": { "version": "${SECRET}" \n`,
      'jvm/pom.xml': `<project>\n  <dependencies>\n    <${SECRET}>\n  </dependencies>\n</project>\n`,
    });
    const r = await run(repo.dir);
    const notes = (r.report.notes ?? []).filter((n) => n.kind === ('manifest-unreadable' as never));
    expect(notes.map((n) => [n.file, n.line, n.severity, n.entryId, n.message])).toEqual([
      ['deno/deno.jsonc', 1, 'info', null, '`deno/deno.jsonc` could not be read as a manifest: invalid JSON (with comments); its scripts, dependencies and versions are not checked.'],
      ['dotnet/global.json', 1, 'info', null, '`dotnet/global.json` could not be read as a manifest: invalid JSON (with comments); its scripts, dependencies and versions are not checked.'],
      ['jvm/pom.xml', 4, 'info', null, '`jvm/pom.xml` could not be read as a manifest: invalid XML at line 4; its scripts, dependencies and versions are not checked.'],
      ['node/package.json', 3, 'info', null, '`node/package.json` could not be read as a manifest: invalid JSON at line 3, column 1; its scripts, dependencies and versions are not checked.'],
      ['php/composer.json', 1, 'info', null, '`php/composer.json` could not be read as a manifest: invalid JSON at line 1, column 54; its scripts, dependencies and versions are not checked.'],
      ['py/pyproject.toml', 2, 'info', null, '`py/pyproject.toml` could not be read as a manifest: invalid TOML at line 2; its scripts, dependencies and versions are not checked.'],
      ['task/Taskfile.yml', 4, 'info', null, '`task/Taskfile.yml` could not be read as a manifest: invalid YAML at line 4; its scripts, dependencies and versions are not checked.'],
    ]);
    // Notes are not findings: counted apart, never failing the run.
    expect(r.report.summary.notes).toBe((r.report.notes ?? []).length);
    // The run went on: the valid root package.json is still checked.
    const scripts = r.report.findings.filter((f) => f.kind === 'script-missing').map((f) => [f.line, f.ref]);
    expect(scripts).toContainEqual([5, 'npm run typecheck']);
    // No output holds the manifests' text.
    const report = buildReport({ root: repo.dir, evidence: r.evidence, files: r.files, entries: r.entries, findings: r.findings, plan: r.plan, health: [] });
    for (const out of [JSON.stringify(report), renderText(report, { color: false }), renderMarkdown(report)]) {
      expect(out).not.toContain(SECRET);
      expect(out).toContain('could not be read as a manifest');
    }
  });

  test('a manifest broken only in history gives no note', async () => {
    const repo = await makeRepo({ 'CLAUDE.md': '- Build with `npm run build`.\n', 'package.json': '{"name":"x","scripts":{"build":\n' }, '2026-01-05');
    await repo.write('package.json', '{"name":"x","scripts":{"build":"tsc"}}\n');
    await repo.commit('fix package.json', '2026-02-01');
    const r = await run(repo.dir);
    expect((r.report.notes ?? []).filter((n) => n.kind === ('manifest-unreadable' as never))).toEqual([]);
    expect(r.report.findings).toEqual([]);
  });

  test('one note per file; reasons are reduced to a fixed vocabulary', () => {
    const notes = manifestProblemNotes([
      { file: 'a/package.json', message: `invalid JSON: Unexpected token 'x', "{"k":"${SECRET}", x}" is not valid JSON`, line: 3 },
      { file: 'a/package.json', message: 'package.json is not a JSON object' },
      { file: '', message: 'git cat-file --batch failed: boom' },
      { file: 'b/Cargo.toml', message: `invalid TOML: unexpected "${SECRET}"`, line: 7 },
      { file: 'c/pubspec.yaml', message: `could not be read: ${SECRET}` },
      { file: 'd/package.json', message: `EACCES: permission denied, open '/home/${SECRET}/d/package.json'` },
      { file: 'e/package.json', message: 'larger than 1048576 bytes, not read' },
    ]);
    expect(notes.map((n) => [n.file, n.line, n.evidence?.reason])).toEqual([
      ['a/package.json', 3, 'invalid JSON at line 3'],
      ['b/Cargo.toml', 7, 'invalid TOML at line 7'],
      ['c/pubspec.yaml', 1, 'could not be parsed'],
      ['d/package.json', 1, 'not readable (EACCES)'],
      ['e/package.json', 1, 'larger than 1048576 bytes, not read'],
    ]);
    expect(JSON.stringify(notes)).not.toContain(SECRET);
  });
});

describe('a separator written against a word ends the command', () => {
  test('`task build; touch out/.stamp`: `touch` is not a task; prune changes nothing', async () => {
    const memory = [
      '- Build then stamp: `task build; touch out/.stamp`',
      '- Make then stamp: `make build; date > out/.stamp`',
      '- Deno then stamp: `deno task dev; echo done`',
      '- Just then stamp: `just build; echo done`',
      '- npm then stamp: `npm run build; echo done`',
      '- Compose then stamp: `composer lint; echo done`',
      '- Missing task: `task nope; touch x`',
      '',
    ].join('\n');
    const repo = await makeRepo({
      'Taskfile.yml': "version: '3'\ntasks:\n  build: echo\n",
      Makefile: 'build:\n\techo\n',
      'deno.json': '{"tasks":{"dev":"deno run main.ts"}}\n',
      'package.json': '{"name":"n","scripts":{"build":"tsc"}}\n',
      'composer.json': '{"name":"a/b","scripts":{"lint":"phpcs"}}\n',
      justfile: 'build:\n  echo\n',
      'CLAUDE.md': memory,
    });
    const r = await run(repo.dir);
    expect(r.report.findings.map((f) => [f.kind, f.line, f.ref])).toEqual([['script-missing', 7, 'task nope']]);
    await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    const after = await repo.read('CLAUDE.md');
    expect(after.split('\n').slice(0, 6)).toEqual(memory.split('\n').slice(0, 6));
  });

  test('command pieces stop at `;`, `&`, `|` glued to a word; an escaped `\\;` stays an argument', () => {
    const scripts = (line: string) => parseCommandLine(line).filter((p) => p.kind === 'script').map((p) => [p.tool, p.script, line.slice(p.start, p.end)]);
    expect(scripts('task build; touch out/.stamp')).toEqual([['task', 'build', 'task build']]);
    expect(scripts('task lint& task test| tee log')).toEqual([['task', 'lint', 'task lint'], ['task', 'test', 'task test']]);
    expect(scripts('composer test&& echo ok')).toEqual([['composer', 'test', 'composer test']]);
    expect(scripts('deno task dev|| exit 1')).toEqual([['deno', 'dev', 'deno task dev']]);
    expect(scripts('make a b; make c')).toEqual([['make', 'a', 'make a'], ['make', 'b', 'b'], ['make', 'c', 'make c']]);
    expect(parseCommandLine('find . -name x -exec rm {} \\; && task build').filter((p) => p.kind === 'script').map((p) => p.script)).toEqual(['build']);
  });
});

describe('untrusted version values', () => {
  test('a packageManager version of hundreds of digits is not a version: no finding, prune changes nothing', async () => {
    const repo = await makeRepo({
      'package.json': JSON.stringify({ name: 'c', packageManager: 'npm@' + '9'.repeat(400) }),
      'CLAUDE.md': '- Use npm 9.\n',
    });
    const r = await run(repo.dir);
    expect(r.report.findings).toEqual([]);
    await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe('- Use npm 9.\n');
    const again = await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    expect(again.changes).toEqual([]);
  });

  test('a long declared spec is cut in the message', async () => {
    const spec = '10.0.0-' + 'a'.repeat(5000);
    const repo = await makeRepo({ 'package.json': JSON.stringify({ name: 'c', packageManager: `npm@${spec}` }), 'CLAUDE.md': '- Use npm 9.\n' });
    const r = await run(repo.dir);
    expect(r.report.findings.map((f) => [f.kind, f.line, f.message])).toEqual([
      ['version-drift', 1, `\`npm 9\` no longer matches the project: \`package.json\` declares npm \`${spec.slice(0, 80)}…\`; update the stated version to 10.`],
    ]);
  });

  test('parseVersion rejects components longer than 9 digits', () => {
    expect(parseVersion('1.2.3')).toEqual([1, 2, 3]);
    expect(parseVersion('20240115.1')).toEqual([20240115, 1]);
    expect(parseVersion('9'.repeat(10))).toBeNull();
    expect(parseVersion('1.' + '9'.repeat(400))).toBeNull();
  });
});

describe('dependencies of any ecosystem are live names', () => {
  test('a NuGet package named in an entry keeps it for review, like an npm one', async () => {
    const repo = await makeRepo({
      'app.csproj': '<Project><ItemGroup><PackageReference Include="Newtonsoft.Json" Version="13.0.1"/></ItemGroup></Project>\n',
      'package.json': '{"name":"x","dependencies":{"react":"^18.0.0"}}\n',
      'build.gradle.kts': 'kotlin { jvmToolchain(17) }\njava { sourceCompatibility = JavaVersion.VERSION_21 }\n',
      'CLAUDE.md': '- Java 11; uses `Newtonsoft.Json`.\n\n- Java 11 here; uses `react`.\n',
    });
    const r = await run(repo.dir);
    expect(r.plan.filter((p) => p.action !== 'keep').map((p) => [p.line, p.action, p.rule])).toEqual([
      [1, 'review', 4],
      [3, 'review', 4],
    ]);
    expect(r.plan.find((p) => p.line === 1)!.reason).toMatch(/the rest of the entry may still be useful$/);
  });
});
