// Manifest parsers on adversarial input: each case hung the run (tens of seconds to minutes, or
// gigabytes) with the old backtracking regexes / rescans. Now each reads in milliseconds; the
// results are asserted exactly, the time only loosely (< 2 s where the old code took > 10 s).
// The linear scans that replaced regexes are checked against those regexes on many small inputs.
import { describe, expect, it } from 'vitest';
import { parseManifest, justRecipeName, MakeResolver, MAX_SETUP_BYTES } from '../../src/evidence/manifests/parse.js';
import { stripBlockComments } from '../../src/evidence/manifests/ecosystems.js';

/** `f()` and the milliseconds it took. */
function timed<T>(f: () => T): [T, number] {
  const t = performance.now();
  const r = f();
  return [r, performance.now() - t];
}

/** A deterministic pseudo-random generator (the fuzz cases are the same on every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const randomString = (r: () => number, alphabet: string, max: number): string =>
  Array.from({ length: Math.floor(r() * (max + 1)) }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');

describe('justfile recipe headers', () => {
  const OLD = /^@?([A-Za-z_][\w-]*)((?:\s+(?:[^:'"]|'[^']*'|"[^"]*")*?)?)\s*:(?!=)/;

  it('reads every header as the old regex did (fuzzed small lines)', () => {
    const r = rng(1);
    for (let i = 0; i < 20000; i++) {
      const line = randomString(r, "ab_-@:= \t'\"x9(", 12);
      expect(justRecipeName(line), JSON.stringify(line)).toBe(OLD.exec(line)?.[1]);
    }
    for (const line of ['build:', '@test arg="a:b" *rest: build', "deploy env='x:y': (build env)", 'x := 1', 'a b:=c', 'serve port = "80":']) {
      expect(justRecipeName(line)).toBe(OLD.exec(line)?.[1]);
    }
  });

  it('a long line of blanks without a colon declares nothing, at once', () => {
    const text = `build:\n    make\n${'a' + ' '.repeat(200_000) + 'x'}\n`;
    const [p, ms] = timed(() => parseManifest('justfile', 'justfile', text));
    expect(p.recipes).toEqual(['build']);
    expect(ms).toBeLessThan(2000);
  });
});

describe('Gradle build scripts', () => {
  it("an unclosed `'g$xxx…` is no dependency, and is read at once", () => {
    const good = 'dependencies {\n  implementation "com.squareup.okhttp3:okhttp:${okhttpVersion}"\n';
    const [p, ms] = timed(() => parseManifest('gradle-build', 'build.gradle', `${good}  implementation 'g$${'x'.repeat(200_000)}\n}\n`));
    expect(p.deps).toEqual(parseManifest('gradle-build', 'build.gradle', `${good}}\n`).deps);
    expect(p.deps.map((d) => d.name)).toContain('com.squareup.okhttp3:okhttp');
    expect(ms).toBeLessThan(2000);
  });

  it('long runs of blanks and unclosed block comments are read at once', () => {
    const good = "dependencies {\n  implementation 'a.b:c:1'\n";
    const text = `${good}  api${' '.repeat(100_000)}x\n  id${' '.repeat(100_000)}y\n}\n${'/* '.repeat(50_000)}`;
    const [p, ms] = timed(() => parseManifest('gradle-build', 'build.gradle', text));
    expect(p.deps).toEqual(parseManifest('gradle-build', 'build.gradle', `${good}}\n`).deps);
    expect(p.deps.map((d) => d.name)).toContain('a.b:c');
    expect(ms).toBeLessThan(2000);
  });

  it('stripBlockComments drops closed comments; an unclosed one is kept (Gradle) or dropped (XML)', () => {
    expect(stripBlockComments('a/* x */b/*/c*/d', '/*', '*/', false)).toBe('abd');
    expect(stripBlockComments("include 'src/*.java' // x", '/*', '*/', false)).toBe("include 'src/*.java' // x");
    expect(stripBlockComments('a<!-- x -->b<!---->c<!-- open', '<!--', '-->', true)).toBe('abc');
    expect(stripBlockComments('a<!--->b-->c', '<!--', '-->', true)).toBe('ac');
  });
});

describe('MSBuild projects', () => {
  const deps = (text: string) =>
    parseManifest('msbuild', 'App.csproj', text)
      .deps.filter((d) => d.field !== 'project')
      .map((d) => `${d.field} ${d.name} ${d.spec}`);

  it('reads items as before: attributes, a Version child, self-closing tags', () => {
    const text = [
      '<Project>',
      '  <!-- <PackageReference Include="Commented" Version="1" /> -->',
      '  <ItemGroup>',
      '    <PackageReference Include="Serilog" Version="3.1.1" />',
      '    <PackageReference Include="Dapper">',
      '      <Version>2.1.0</Version>',
      '    </PackageReference>',
      '    <PackageReference Include="NoVersion"></PackageReference>',
      '    <PackageVersion Include="Polly" VersionOverride="8.0.0"/>',
      '  </ItemGroup>',
      '</Project>',
    ].join('\n');
    expect(deps(text)).toEqual(['PackageReference Serilog 3.1.1', 'PackageReference Dapper 2.1.0', 'PackageReference NoVersion ', 'PackageVersion Polly 8.0.0']);
  });

  it('unclosed comments, tags and items are read at once', () => {
    const body = '<PackageReference Include="A">'.repeat(20_000) + '<PackageReference Include="B"'.repeat(20_000) + '<TargetFramework '.repeat(20_000);
    const text = `<Project><ItemGroup><PackageReference Include="Ok" Version="1.0" /></ItemGroup>${body}${'<!-- '.repeat(50_000)}</Project>`;
    const [p, ms] = timed(() => deps(text));
    expect(p).toEqual(['PackageReference Ok 1.0', 'PackageReference A ']);
    expect(ms).toBeLessThan(2000);
  });
});

describe('Makefile variable resolution', () => {
  const sixtyFour = Array.from({ length: 64 }, (_, i) => `X ?= v${i + 1}`).join('\n');

  it('still resolves every alternative of a small target', () => {
    const p = parseManifest('makefile', 'Makefile', `${sixtyFour}\n$(X)-bin:\n\techo\n`);
    expect(p.targets).toHaveLength(64);
    expect(p.targets).toContain('v1-bin');
    expect(p.targets).toContain('v64-bin');
  });

  it('a long target after a variable of 64 alternatives is left as written (open), at once', () => {
    const target = `$(X)${'a'.repeat(100_000)}`;
    const [p, ms] = timed(() => parseManifest('makefile', 'Makefile', `${sixtyFour}\nall:\n\techo\n${target}:\n\techo\n`));
    expect(p.targets).toEqual(['all']);
    expect(p.make!.rules).toContain(target);
    expect(ms).toBeLessThan(2000);
  });

  it('text() gives up past 64 KB of expansions, copies literal runs whole', () => {
    const vars = new Map([['X', Array.from({ length: 64 }, (_, i) => ({ op: '?=', value: `v${i}` }))]]);
    const r = new MakeResolver(vars);
    expect(r.text('pre-$(X)-$$-$@')).toHaveLength(64);
    expect(r.text('pre-$(X)-$$-$@')![0]).toBe('pre-v0-$$-$@');
    expect(r.text('$(Y)/x')).toEqual(['$(Y)/x']);
    expect(r.text(`$(X)${'a'.repeat(500)}`)).toHaveLength(64);
    const [big, ms] = timed(() => r.text(`$(X)${'a'.repeat(2000)}`)); // 64 × 2 KB > 64 KB
    expect(big).toBeNull();
    expect(ms).toBeLessThan(500);
  });
});

describe('setup.py / setup.cfg', () => {
  const setupPy = (value: string) => `from setuptools import setup\nsetup(name="x", install_requires=${value})\n`;

  it('reads nested groups up to 100 deep; deeper leaves the field unread (partial), at once', () => {
    const ok = parseManifest('setup-py', 'setup.py', setupPy('('.repeat(50) + '["requests"]' + ')'.repeat(50)));
    expect(ok.deps.map((d) => d.name)).toEqual(['requests']);
    expect(ok.partial).toBeUndefined();
    const [deep, ms] = timed(() => parseManifest('setup-py', 'setup.py', setupPy('['.repeat(100_000) + '"requests"' + ']'.repeat(100_000))));
    expect(deep.deps).toEqual([]);
    expect(deep.name).toBe('x');
    expect(deep.partial).toBe(true);
    expect(deep.problems).toEqual([]);
    expect(ms).toBeLessThan(2000);
  });

  it('keyword arguments and extras are still split at top-level commas only', () => {
    const p = parseManifest(
      'setup-py',
      'setup.py',
      'setup(name="x", install_requires=["a>=1", "b"], extras_require={"dev": ["c", "d"], "x": [f(1, 2)]}, python_requires=">=3.9")',
    );
    expect(p.deps.map((d) => `${d.field} ${d.name}`)).toEqual(['install_requires a', 'install_requires b', 'extras_require.dev c', 'extras_require.dev d']);
    expect(p.partial).toBe(true);
    expect(p.runtimes).toEqual([{ name: 'python', spec: '>=3.9' }]);
  });

  it('files over MAX_SETUP_BYTES are not read: a problem naming the size', () => {
    const big = `setup(name="x", install_requires=["requests"], classifiers=[${','.repeat(MAX_SETUP_BYTES)}])\n`;
    const [p, ms] = timed(() => parseManifest('setup-py', 'setup.py', big));
    expect(p.problems).toEqual([{ message: `larger than ${MAX_SETUP_BYTES} bytes, not read` }]);
    expect(p.deps).toEqual([]);
    expect(p.partial).toBe(true);
    expect(ms).toBeLessThan(2000);
    const cfg = parseManifest('setup-cfg', 'setup.cfg', `[options]\ninstall_requires = requests\n#${'x'.repeat(MAX_SETUP_BYTES)}\n`);
    expect(cfg.problems).toEqual([{ message: `larger than ${MAX_SETUP_BYTES} bytes, not read` }]);
    expect(cfg.deps).toEqual([]);
  });

  it('setup.cfg: long runs of blanks are read at once, keys and comments as before', () => {
    const text = `[options]\ninstall_requires =\n    requests  # http\n    rich;python_version>"3"\n    a${' '.repeat(200_000)}\nname${' '.repeat(200_000)}x\n`;
    const [p, ms] = timed(() => parseManifest('setup-cfg', 'setup.cfg', text));
    expect(p.deps.map((d) => d.name)).toEqual(['requests', 'rich', 'a']);
    expect(ms).toBeLessThan(2000);
  });
});
