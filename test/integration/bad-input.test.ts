// Non-negotiable 2, end to end: bad input gets a clear message naming the file (and line), never
// a crash or a silent skip, and the rest of the audit goes on.
import { afterAll, describe, expect, it } from 'vitest';
import { symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { audit } from '../../src/audit.js';
import { cleanupAll, cli, makeRepo, NOW, tempDir } from './helpers.js';

afterAll(cleanupAll);

interface JsonFinding {
  file: string;
  line: number;
  kind: string;
  severity: string;
  message: string;
}

const GOOD = '- Run tests with `npm test`.\n- Currently working on issue #42, right now.\n';

describe.concurrent('bad input never stops the audit', () => {
  it('malformed frontmatter, binary, non-UTF-8, oversized, escaping symlink, missing --memory path: one error each, the rest audited', async () => {
    const r = await makeRepo({
      'package.json': '{ "name": "w", "scripts": { "test": "vitest" } }\n',
      'CLAUDE.md': GOOD,
      '.claude/memory/MEMORY.md': '- [Bad](bad.md) — x\n- [Bin](bin.md) — y\n- [Latin](latin.md) — z\n',
      '.claude/memory/bad.md': '---\nname: bad\ntype: [unclosed\n---\nBody about the build.\n',
      '.claude/memory/bin.md': Buffer.from([0x61, 0x62, 0x63, 0x00, 0x01, 0x02, 0x64]),
      '.claude/memory/latin.md': Buffer.from('caf\xe9 au lait\n', 'latin1'),
      'AGENTS.md': 'a'.repeat(4 * 1024 * 1024 + 1),
    });
    symlinkSync('/etc/hostname', path.join(r.dir, 'GEMINI.md'));
    await r.commit('bad inputs', '2026-01-06');

    const res = await cli(r.dir, ['--now', NOW, '--format', 'json', '--fail-on', 'never', '--memory', '.', '--memory', 'missing/path.md']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    const report = JSON.parse(res.stdout) as { findings: JsonFinding[]; entries: Array<{ file: string }> };
    const malformed = report.findings.filter((f) => f.kind === 'malformed').map((f) => `${f.file}:${f.line} ${f.severity} ${f.message}`);
    expect(malformed).toEqual([
      '.claude/memory/bad.md:3 error .claude/memory/bad.md:3: invalid YAML frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ]',
      '.claude/memory/bin.md:1 error .claude/memory/bin.md:1: binary content (NUL byte at offset 3); not read as memory',
      '.claude/memory/latin.md:1 error .claude/memory/latin.md:1: not valid UTF-8 (first bad byte at offset 3); not read as memory',
      'AGENTS.md:1 error AGENTS.md: 4194305 bytes is over the 4194304-byte limit (maxFileBytes); skipped',
      'GEMINI.md:1 error GEMINI.md: symbolic link leads outside the repository (to /etc/hostname); not read',
      'missing/path.md:1 error memory path not found: missing/path.md',
    ]);
    // The rest went on: CLAUDE.md audited, its ephemeral line found; bad.md's body still an entry.
    expect(report.findings.some((f) => f.file === 'CLAUDE.md' && f.line === 2 && f.kind === 'ephemeral')).toBe(true);
    expect(report.entries.filter((e) => e.file === 'CLAUDE.md').length).toBe(2);
    expect(report.entries.some((e) => e.file === '.claude/memory/bad.md')).toBe(true);

    // Text output names the same files; exit code 1 for the errors by default.
    const text = await cli(r.dir, ['--now', NOW, '--memory', '.', '--memory', 'missing/path.md']);
    expect(text.code).toBe(1);
    for (const f of ['.claude/memory/bad.md', '.claude/memory/bin.md', '.claude/memory/latin.md', 'AGENTS.md', 'GEMINI.md', 'missing/path.md'])
      expect(text.stdout).toContain(f);
  });

  it('a folder that is not a git repository: one notice, files read from disk', async () => {
    const dir = tempDir('ma-int-nogit-');
    writeFileSync(path.join(dir, 'CLAUDE.md'), '- Auth lives in `src/a.ts`.\n');
    const res = await cli(dir, ['--now', NOW, '--format', 'json', '--fail-on', 'never']);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout) as { repo: { head: string | null }; findings: JsonFinding[]; notes?: JsonFinding[] };
    expect(report.repo.head).toBe(null);
    expect(report.findings.filter((f) => f.kind === 'shallow-history')).toEqual([]); // a note, not a finding
    const notices = (report.notes ?? []).filter((f) => f.kind === 'shallow-history');
    expect(notices.map((f) => f.message)).toEqual([
      `${dir} is not a git repository: files were read from disk, and renames, deletions and history cannot be checked.`,
    ]);
    expect(report.findings.filter((f) => f.file === 'CLAUDE.md').map((f) => f.kind)).toEqual(['path-missing']);
  });

  it('a shallow clone: one notice naming fetch-depth: 0, existence still checked at HEAD', async () => {
    const r = await makeRepo({ 'src/auth.ts': 'export {};\n', 'src/keep.ts': 'export {};\n' });
    await r.git.mv('src/auth.ts', 'src/session.ts');
    r.write('CLAUDE.md', '- Auth lives in `src/auth.ts`.\n- Helpers are in `src/keep.ts`.\n');
    await r.commit('rename', '2026-01-06');
    const clone = path.join(tempDir('ma-int-shallow-'), 'c');
    await simpleGit().clone(`file://${r.dir}`, clone, ['--depth', '1', '-q']);
    const res = await cli(clone, ['--now', NOW, '--format', 'json', '--fail-on', 'never']);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout) as { findings: JsonFinding[]; notes?: JsonFinding[] };
    expect(report.findings.filter((f) => f.kind === 'shallow-history')).toEqual([]); // a note, not a finding
    const notices = (report.notes ?? []).filter((f) => f.kind === 'shallow-history');
    expect(notices.length).toBe(1);
    expect(notices[0].message).toContain('fetch-depth: 0');
    const claude = report.findings.filter((f) => f.file === 'CLAUDE.md');
    expect(claude.map((f) => `${f.line} ${f.kind}`)).toEqual(['1 path-missing']);
    expect(claude[0].message).toBe(
      '`src/auth.ts` does not exist at HEAD and the clone is shallow (use actions/checkout with fetch-depth: 0), so its rename or deletion cannot be traced; fix or remove the reference.',
    );
    // The full clone tells the rename.
    const full = JSON.parse((await cli(r.dir, ['--now', NOW, '--format', 'json', '--fail-on', 'never'])).stdout) as { findings: JsonFinding[] };
    expect(full.findings.filter((f) => f.file === 'CLAUDE.md').map((f) => f.kind)).toEqual(['path-renamed']);
  });

  it('an invalid .memory-audit.yml: file:line:column and exit 2', async () => {
    const r = await makeRepo({ 'CLAUDE.md': GOOD });
    const cases: Array<[string, string]> = [
      ['checks:\n  secret: true\nbogus: 1\n', 'memory-audit: .memory-audit.yml:3:1: bogus: unknown key\n'],
      ['budgets: nope\n', 'memory-audit: .memory-audit.yml:1:10: budgets: expected a mapping, got the string "nope"\n'],
      ['maxFileBytes: "big"\n', 'memory-audit: .memory-audit.yml:1:15: maxFileBytes: expected a whole number, got the string "big"\n'],
    ];
    for (const [yml, msg] of cases) {
      r.write('.memory-audit.yml', yml);
      const res = await cli(r.dir, ['--now', NOW]);
      expect(res.code).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toBe(msg);
    }
    // --config pointing at a missing file: a clear error too.
    r.write('.memory-audit.yml', '{}\n');
    const missing = await cli(r.dir, ['--now', NOW, '--config', 'nope.yml']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.yml');
  });

  it('a GitHub token without permission (403): the issue is reported unchecked with the reason, the audit goes on', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' }));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    try {
      const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await makeRepo({ 'CLAUDE.md': '- Issue #42 is still open; waiting on review.\n- Use `npm test`.\n', 'package.json': '{"scripts":{"test":"x"}}\n' });
      const token = 'ghp_' + 'Ab12'.repeat(9);
      // The evidence layer reads GITHUB_API_URL from process.env (not from main()'s io.env).
      const saved = process.env.GITHUB_API_URL;
      process.env.GITHUB_API_URL = apiUrl;
      let res;
      try {
        res = await cli(r.dir, ['--now', NOW, '--format', 'json', '--fail-on', 'never', '--token', token, '--github-repo', 'acme/widgets']);
      } finally {
        if (saved === undefined) delete process.env.GITHUB_API_URL;
        else process.env.GITHUB_API_URL = saved;
      }
      expect(res.code).toBe(0);
      expect(seen).toEqual([`GET /repos/acme/widgets/issues/42 Bearer ${token}`]);
      const report = JSON.parse(res.stdout) as { findings: Array<JsonFinding & { evidence?: { reason?: string } }>; notes?: Array<JsonFinding & { evidence?: { reason?: string } }> };
      const un = (report.notes ?? []).filter((f) => f.kind === 'status-unchecked');
      expect(un.length).toBe(1);
      expect(un[0].file).toBe('CLAUDE.md');
      expect(un[0].line).toBe(1);
      expect(un[0].evidence?.reason).toBe('forbidden (403): Resource not accessible by integration');
      expect(res.stdout.includes(token)).toBe(false);
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  it('audit() API: a missing memory path is a finding, not a throw', async () => {
    const r = await makeRepo({ 'CLAUDE.md': GOOD });
    const res = await audit({ root: r.dir, memory: ['CLAUDE.md', 'does/not/exist'], now: new Date(`${NOW}T00:00:00Z`) });
    expect(res.findings.filter((f) => f.kind === 'malformed').map((f) => [f.file, f.line, f.severity, f.message])).toEqual([
      ['does/not/exist', 1, 'error', 'memory path not found: does/not/exist'],
    ]);
    expect(res.entries.length).toBe(2);
  });

  it('usage errors: exit 2 with a message, nothing on stdout', async () => {
    const r = await makeRepo({ 'CLAUDE.md': GOOD });
    const cases: Array<[string[], string]> = [
      [['--format', 'xml'], 'memory-audit: --format must be text, markdown or json (got xml)\n'],
      [['--now', 'yesterday-ish'], 'memory-audit: --now: not a date: yesterday-ish\n'],
      [['--repo', 'no/such/dir'], `memory-audit: --repo: no such directory: ${path.join(r.dir, 'no/such/dir')}\n`],
      [['prune', '--write', '--dry-run'], 'memory-audit: --write and --dry-run exclude each other\n'],
    ];
    for (const [argv, msg] of cases) {
      const res = await cli(r.dir, argv);
      expect(res.code).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toBe(`${msg}Run memory-audit --help for usage.\n`);
    }
  });
});
