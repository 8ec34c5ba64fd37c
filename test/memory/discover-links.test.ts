// `CLAUDE.md -> AGENTS.md` (one file under two names, as next.js keeps it) is read once, under
// the target's name: not audited twice, not reported as a copy of itself.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { discoverMemory } from '../../src/memory/discover.js';
import { audit } from '../../src/audit.js';
import { NOW, config } from '../prune/helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('symlinked memory files', () => {
  test('a link to a file that is itself memory is read once, as the target', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ma-links-'));
    dirs.push(root);
    writeFileSync(join(root, 'AGENTS.md'), '# Agents\n\n- Run `pnpm test` before pushing.\n- Keep PRs small.\n');
    symlinkSync('AGENTS.md', join(root, 'CLAUDE.md'));
    writeFileSync(join(root, 'notes.md'), '# Notes\n\n- A note.\n');
    symlinkSync('notes.md', join(root, 'GEMINI.md')); // its target is not memory: read as GEMINI.md
    const d = await discoverMemory({ root });
    expect(d.files.map((f) => [f.path, f.format])).toEqual([
      ['AGENTS.md', 'agents-md'],
      ['GEMINI.md', 'gemini-md'],
    ]);
    expect(d.findings).toEqual([]);
    const r = await audit({ root, now: NOW, config: config(), checks: ['duplicate'] });
    expect(r.files.map((f) => f.path)).toEqual(['AGENTS.md', 'GEMINI.md']);
    expect(r.findings.filter((f) => f.kind === 'duplicate')).toEqual([]);
  });
});
