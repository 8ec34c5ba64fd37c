// Non-negotiable 1, end to end: nothing is lost. Every removed or changed line is in the diff,
// the archive and the pruning log; restore brings it back; protected entries stay byte-identical;
// a second prune --write changes nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runPrune } from '../../src/commands/prune.js';
import { cleanupAll, cli, makeRepo, NOW, snapshot, type Repo } from './helpers.js';

afterAll(cleanupAll);

const CLAUDE = [
  '# Project',
  '',
  '## Structure',
  '',
  '- Run tests with `npm test`.',
  '- Authentication lives in `src/auth.ts`.',
  '- Old helpers are in `src/old.ts`.',
  '- Currently working on issue #42, halfway through the refactor.',
  '',
  '<!-- PROTECTED -->',
  '- Never push to main directly; `src/old.ts` is kept here on purpose.',
  '',
  '## Conventions',
  '',
  '- Indent with two spaces everywhere.',
  '',
].join('\n');

const INDEX = ['- [Style](style.md) — code style', '- [Session](session.md) — current session', ''].join('\n');
const STYLE = ['---', 'name: style', 'description: code style', 'type: feedback', '---', '', 'Prefer small pure functions.', ''].join('\n');
const SESSION = [
  '---',
  'name: session',
  'description: current session',
  'type: project',
  '---',
  '',
  'Currently working on the login refactor; left off at the token refresh step.',
  '',
].join('\n');

async function fixture(): Promise<Repo> {
  const r = await makeRepo({
    'package.json': '{\n  "name": "w",\n  "scripts": { "test": "vitest" }\n}\n',
    'src/auth.ts': 'export const a = 1;\n',
    'src/old.ts': 'export const o = 1;\n',
  });
  await r.git.mv('src/auth.ts', 'src/session.ts');
  await r.git.rm(['-q', 'src/old.ts']);
  await r.commit('move auth, drop old', '2026-01-06');
  r.write('CLAUDE.md', CLAUDE);
  r.write('.claude/memory/MEMORY.md', INDEX);
  r.write('.claude/memory/style.md', STYLE);
  r.write('.claude/memory/session.md', SESSION);
  await r.commit('memory', '2026-01-07');
  return r;
}

interface ArchiveRecord {
  id: string;
  entryId: string;
  action: string;
  file: string;
  text: string;
  lines?: string;
  replacement?: string;
  fileDeleted?: boolean;
}

function archive(r: Repo): ArchiveRecord[] {
  return r
    .read('.memory-audit/archive.jsonl')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as ArchiveRecord);
}

describe('prune --write through the CLI: nothing is lost', () => {
  it('records every removed or changed line in the diff, the archive and the log; protected bytes untouched; idempotent', async () => {
    const r = await fixture();
    const before = snapshot(r.dir);

    // Dry run first: same diff as the write, nothing written.
    const dry = await cli(r.dir, ['prune', '--now', NOW, '--fail-on', 'never']);
    expect(dry.code).toBe(0);
    expect(snapshot(r.dir)).toEqual(before);

    const w = await cli(r.dir, ['prune', '--write', '--now', NOW, '--fail-on', 'never']);
    expect(w.code).toBe(0);
    expect(w.stdout).toBe(dry.stdout);
    expect(w.stderr).toMatch(/^Applied: 10 audited, 4 pruned, 1 updated, /);

    const claude = r.read('CLAUDE.md');
    // The exact result: the update in place, the two deletes, everything else byte-identical.
    expect(claude).toBe(
      CLAUDE.replace('- Authentication lives in `src/auth.ts`.', `- Authentication lives in \`src/session.ts\`. [corrected ${NOW}]`)
        .replace('- Old helpers are in `src/old.ts`.\n', '')
        .replace('- Currently working on issue #42, halfway through the refactor.\n', ''),
    );
    // Protected: the marker and its entry, byte for byte.
    const prot = '<!-- PROTECTED -->\n- Never push to main directly; `src/old.ts` is kept here on purpose.\n';
    expect(claude).toContain(prot);
    // The emptied topic file is gone, its index line too; the other topic is untouched.
    expect(existsSync(path.join(r.dir, '.claude/memory/session.md'))).toBe(false);
    expect(r.read('.claude/memory/MEMORY.md')).toBe('- [Style](style.md) — code style\n');
    expect(r.read('.claude/memory/style.md')).toBe(STYLE);

    // Every removed or changed line of memory is in the diff (as a '-' line), in the archive
    // (full text) and summarised in the pruning log.
    const removed = [
      ['CLAUDE.md', '- Authentication lives in `src/auth.ts`.'],
      ['CLAUDE.md', '- Old helpers are in `src/old.ts`.'],
      ['CLAUDE.md', '- Currently working on issue #42, halfway through the refactor.'],
      ['.claude/memory/MEMORY.md', '- [Session](session.md) — current session'],
      ...SESSION.split('\n').filter((l) => l).map((l) => ['.claude/memory/session.md', l]),
    ];
    const diffLines = new Set(w.stdout.split('\n'));
    const recs = archive(r);
    const archived = recs.map((x) => x.lines ?? x.text).join('\n');
    for (const [file, line] of removed) {
      expect(diffLines.has(`-${line}`), `diff misses -${line}`).toBe(true);
      expect(archived.includes(line), `archive misses ${line}`).toBe(true);
      expect(recs.some((x) => x.file === file && (x.lines ?? x.text).includes(line)), `${file}: ${line}`).toBe(true);
    }
    expect(w.stdout).toContain('diff --git a/.claude/memory/session.md b/.claude/memory/session.md\ndeleted file mode 100644\n');
    const log = r.read('.claude/memory/pruning-log.md');
    expect(log).toContain(`## ${NOW} audit`);
    expect(log).toContain('- **Entries audited**: 10');
    expect(log).toContain('| "Authentication lives in src/auth.ts." | project | rule 4, update: ');
    expect(log).toContain('| "Old helpers are in src/old.ts." | project | rule 4, delete: ');
    expect(log).toContain('| "Currently working on issue #42, halfway through the refactor." | ephemeral | rule 1, delete: ');
    // The update is recoverable from its record: original text and replacement.
    const upd = recs.find((x) => x.action === 'update')!;
    expect(upd.text).toBe('- Authentication lives in `src/auth.ts`.');
    expect(upd.replacement).toBe(`- Authentication lives in \`src/session.ts\`. [corrected ${NOW}]`);

    // Second --write: no edit, no new log entry, no archive record, no diff.
    const afterFirst = snapshot(r.dir);
    const w2 = await cli(r.dir, ['prune', '--write', '--now', NOW, '--fail-on', 'never']);
    expect(w2.code).toBe(0);
    expect(w2.stdout).toBe('Nothing to prune: memory is already clean.\n');
    expect(snapshot(r.dir)).toEqual(afterFirst);
    // ...even on a later day.
    const w3 = await cli(r.dir, ['prune', '--write', '--now', '2026-02-01', '--fail-on', 'never']);
    expect(w3.stdout).toBe('Nothing to prune: memory is already clean.\n');
    expect(snapshot(r.dir)).toEqual(afterFirst);
  });

  it('restore brings every archived entry back, byte for byte (update restored before the deletion that followed it)', async () => {
    const r = await fixture();
    const original = snapshot(r.dir);
    expect((await cli(r.dir, ['prune', '--write', '--now', NOW, '--fail-on', 'never'])).code).toBe(0);
    const recs = archive(r);
    const upd = recs.find((x) => x.action === 'update')!;
    const session = recs.find((x) => x.file === '.claude/memory/session.md')!;
    const others = recs.filter((x) => x !== upd && x !== session && x.file === 'CLAUDE.md');
    expect(others.length).toBe(2);

    // By archive record id (a_…) and by entry id (e_…).
    const r1 = await cli(r.dir, ['restore', upd.id]);
    expect(r1.code).toBe(0);
    expect(r1.stdout).toContain(`-- Authentication lives in \`src/session.ts\`. [corrected ${NOW}]`.slice(1));
    for (const x of others) expect((await cli(r.dir, ['restore', x.entryId])).code).toBe(0);
    const rs = await cli(r.dir, ['restore', session.entryId]);
    expect(rs.code).toBe(0);

    const now = snapshot(r.dir);
    for (const f of ['CLAUDE.md', '.claude/memory/MEMORY.md', '.claude/memory/session.md', '.claude/memory/style.md'])
      expect(now.get(f), f).toBe(original.get(f));

    // Restoring again is a no-op.
    const again = await cli(r.dir, ['restore', session.entryId]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    expect(snapshot(r.dir)).toEqual(now);
  });

  it('restore with an unknown id is a clear error (exit 2), not a crash', async () => {
    const r = await fixture();
    const none = await cli(r.dir, ['restore', 'e_00000000']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('memory-audit: no archive at .memory-audit/archive.jsonl: nothing has been pruned here\n');
    await cli(r.dir, ['prune', '--write', '--now', NOW, '--fail-on', 'never']);
    const bad = await cli(r.dir, ['restore', 'e_00000000']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'memory-audit: e_00000000 is not in .memory-audit/archive.jsonl (give an entry id e_… or an archive record id a_…)\n',
    );
  });

  it('runPrune(): the dry-run result equals what --write then does, and protected entries are byte-identical', async () => {
    const r = await fixture();
    const dry = await runPrune({ root: r.dir, now: new Date(`${NOW}T00:00:00Z`), write: false });
    expect(dry.written).toBe(false);
    const protectedBefore = dry.audit.entries.filter((e) => e.protected);
    expect(protectedBefore.length).toBe(1);
    const wet = await runPrune({ root: r.dir, now: new Date(`${NOW}T00:00:00Z`), write: true });
    expect(wet.written).toBe(true);
    expect(wet.diff).toBe(dry.diff);
    expect(wet.changes).toEqual(dry.changes);
    for (const c of wet.changes) {
      const abs = path.join(r.dir, c.file);
      if (c.after === null) expect(existsSync(abs)).toBe(false);
      else expect(readFileSync(abs, 'utf8')).toBe(c.after);
    }
    // Every entry the plan removes or changes has an archive record with its full original text.
    const recs = archive(r);
    for (const p of wet.plan.filter((x) => ['delete', 'update', 'merge', 'archive'].includes(x.action))) {
      const e = wet.audit.entries.find((x) => x.id === p.entryId)!;
      expect(recs.some((x) => x.entryId === e.id && x.text === e.text), e.id).toBe(true);
    }
    const text = r.read('CLAUDE.md');
    for (const e of protectedBefore) {
      expect(text.includes(e.text)).toBe(true);
    }
    const second = await runPrune({ root: r.dir, now: new Date(`${NOW}T00:00:00Z`), write: true });
    expect(second.changes).toEqual([]);
    expect(second.diff).toBe('');
    expect(second.written).toBe(false);
  });

  it('CRLF memory, an inline PROTECTED marker, a protected topic, a SUPERSEDED record, an expired topic: exact edits, idempotent, restorable', async () => {
    const crlf = '# P\r\n\r\n- Keep `src/a.ts` small.\r\n- Tried A, it did not work either.\r\n- Indent.  <!-- PROTECTED -->\r\n- Currently working on issue #9.\r\n';
    const dup = '---\nname: dup\ndescription: tabs\ntype: project\nprotected: true\n---\n\nUse tabs for indentation in all TypeScript files under `src/`.\n';
    const style = '---\nname: style\ndescription: tabs\ntype: project\n---\n\nUse tabs for indentation in all TypeScript files under `src/`.\n';
    const old = '---\nname: old\ndescription: old host\ntype: project\nvalid_until: 2025-12-01\n---\n\nDemos run on the blue staging host.\n';
    const r = await makeRepo({
      'src/a.ts': 'export {};\n',
      'CLAUDE.md': crlf,
      '.claude/memory/MEMORY.md': '- [Dup](dup.md) — tabs\n- [Style](style.md) — tabs\n- [Old](old.md) — old host\n',
      '.claude/memory/dup.md': dup,
      '.claude/memory/style.md': style,
      '.claude/memory/old.md': old,
    });
    const original = snapshot(r.dir);
    const w = await cli(r.dir, ['prune', '--write', '--now', NOW, '--fail-on', 'never']);
    expect(w.code).toBe(0);
    expect(w.stderr).toBe('Applied: 10 audited, 6 pruned, 0 updated, 0 archived, 1 SUPERSEDED, 0 for review.\n');
    // CRLF kept, the inline-protected line byte-identical, only the two planned lines gone.
    expect(r.read('CLAUDE.md')).toBe('# P\r\n\r\n- Keep `src/a.ts` small.\r\n- Indent.  <!-- PROTECTED -->\r\n');
    // The protected duplicate is the one kept; its twin and the expired topic are gone with their index lines.
    expect(r.read('.claude/memory/dup.md')).toBe(dup);
    expect(r.read('.claude/memory/MEMORY.md')).toBe('- [Dup](dup.md) — tabs\n');
    expect(existsSync(path.join(r.dir, '.claude/memory/style.md'))).toBe(false);
    expect(existsSync(path.join(r.dir, '.claude/memory/old.md'))).toBe(false);
    // The SUPERSEDED record, in the documented format.
    const sup = r.read('.memory-audit/superseded-' + archive(r).find((x) => x.text === '- Tried A, it did not work either.')!.entryId.slice(2) + '.md');
    expect(sup).toMatch(/^---\nname: superseded-[0-9a-f]{8}\ndescription: Counter-memory preventing re-derivation of .+\ntype: superseded\n---\n\nSUPERSEDED 2026-01-10\nPattern: .+\nPeriod: .+\nEvidence: .+\nAbandonment reason: .+\nDo not re-derive from: .+\nSupersedes: CLAUDE\.md#e_[0-9a-f]{8}\n$/);
    const after = snapshot(r.dir);
    const w2 = await cli(r.dir, ['prune', '--write', '--now', NOW, '--fail-on', 'never']);
    expect(w2.stdout).toBe('Nothing to prune: memory is already clean.\n');
    expect(snapshot(r.dir)).toEqual(after);
    // Every archived entry comes back (restore order: the file-level records first).
    const recs = archive(r);
    expect(recs.length).toBe(6);
    for (const x of [...recs].sort((a, b) => Number(Boolean(b.fileDeleted)) - Number(Boolean(a.fileDeleted))))
      expect((await cli(r.dir, ['restore', x.id])).code).toBe(0);
    const back = snapshot(r.dir);
    for (const f of ['CLAUDE.md', '.claude/memory/MEMORY.md', '.claude/memory/dup.md', '.claude/memory/style.md', '.claude/memory/old.md'])
      expect(back.get(f), f).toBe(original.get(f));
  });
});
