// The `[corrected YYYY-MM-DD]` marker of an update stays only where it is inert markdown: never
// after a link reference definition, on a fence's info line, a setext underline, a table
// delimiter row or in an HTML block (src/apply/marker.ts). And a file whose edits fail the
// re-parse check loses only the edit at fault, not every other correction of the file.
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { applyAudit, runPrune } from '../../src/commands/prune.js';
import { runRestore } from '../../src/commands/restore.js';
import { parseArchive } from '../../src/apply/archive.js';
import { inertMarker } from '../../src/apply/marker.js';
import { audit } from '../../src/audit.js';
import { parseMemoryText } from '../../src/memory/parse.js';
import type { PlanItem } from '../../src/types.js';
import { NOW, cleanup, config, entry, makeRepo, type Repo } from './helpers.js';

afterAll(cleanup);

const M = '[corrected 2026-03-10]';

/** The link reference definitions a markdown parser sees in `text` (label -> url). */
function definitions(text: string): string[] {
  return parseMemoryText('CLAUDE.md', text, 'claude-md')
    .entries.filter((e) => /^\[[^\]]+\]:/.test(e.text))
    .map((e) => e.text);
}

async function archive(repo: Repo) {
  return parseArchive(await repo.read('.memory-audit/archive.jsonl')).records;
}

describe('a correction of a link reference definition', () => {
  const CLAUDE = [
    '# CLAUDE.md',
    '',
    '## Front-end',
    '',
    '- Wrappers: see the [Radix wrappers][radix-wrappers] and the [design tokens][tokens].',
    '- Guide: `docs/guide.md`.',
    '',
    '[radix-wrappers]: packages/front-end/components/Radix/README.md "Radix wrapper conventions"',
    '[tokens]: packages/front-end/styles/tokens.scss',
    '',
  ].join('\n');

  async function repoWithMoves(): Promise<Repo> {
    const repo = await makeRepo({
      'packages/front-end/components/Radix/README.md': 'x\n',
      'packages/front-end/styles/tokens.scss': 'x\n',
      'docs/guide.md': 'x\n',
      'CLAUDE.md': CLAUDE,
    });
    execFileSync('git', ['mv', 'packages/front-end/components/Radix', 'packages/front-end/ui'], { cwd: repo.dir });
    execFileSync('git', ['mv', 'docs/guide.md', 'docs/handbook.md'], { cwd: repo.dir });
    await repo.commit('Move Radix wrappers; rename the guide', '2026-02-01');
    return repo;
  }

  test('rewrites the destination, keeps it a definition (no marker), and the adjacent definition and other corrections apply', async () => {
    const repo = await repoWithMoves();
    const res = await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    expect(res.warnings).toEqual([]);
    expect(res.summary).toMatchObject({ updated: 2, review: 0 });
    const after = await repo.read('CLAUDE.md');
    expect(after).toBe(
      CLAUDE.replace('- Guide: `docs/guide.md`.', `- Guide: \`docs/handbook.md\`. ${M}`).replace(
        'packages/front-end/components/Radix/README.md "Radix',
        'packages/front-end/ui/README.md "Radix',
      ),
    );
    expect(definitions(after)).toEqual([
      '[radix-wrappers]: packages/front-end/ui/README.md "Radix wrapper conventions"',
      '[tokens]: packages/front-end/styles/tokens.scss',
    ]);
    // The correction is still recorded: archive record and pruning-log row say why there is no marker.
    const recs = await archive(repo);
    const def = recs.find((r) => r.line === 8)!;
    expect(def).toMatchObject({
      action: 'update',
      text: '[radix-wrappers]: packages/front-end/components/Radix/README.md "Radix wrapper conventions"',
      replacement: '[radix-wrappers]: packages/front-end/ui/README.md "Radix wrapper conventions"',
    });
    expect(def.reason).toMatch(/; no \[corrected\] marker: it would change a link reference definition$/);
    expect(await repo.read('.memory-audit/pruning-log.md')).toContain('; no [corrected] marker: it would change a link reference definition |');
    // A second prune changes nothing; restoring every record gives back the original bytes.
    const again = await runPrune({ root: repo.dir, now: NOW, write: true, config: config() });
    expect(again.changes).toEqual([]);
    for (const r of recs) await runRestore({ root: repo.dir, id: r.id, config: config() });
    expect(await repo.read('CLAUDE.md')).toBe(CLAUDE);
  });
});

describe('inertMarker: where trailing text changes what the markdown is', () => {
  test.each([
    ['a definition with a title', `[a]: x/y.md "T" ${M}`, `[a]: x/y.md "T"`, 'a link reference definition'],
    ['a definition inside a list item', `- [a]: x/y.md ${M}`, `- [a]: x/y.md`, 'a link reference definition'],
    ['a definition followed by another', `[a]: x/y.md ${M}\n[b]: z.md`, `[a]: x/y.md\n[b]: z.md`, 'a link reference definition'],
    ['a fence info line', '```bash ' + M + '\nnpm x\n```', '```bash\nnpm x\n```', "a fenced code block's info string"],
    ['a fence without a language', '``` ' + M + '\nnpm x\n```', '```\nnpm x\n```', "a fenced code block's info string"],
    ['a table delimiter row', `| a | b |\n| --- | --- ${M} |\n| c | d |`, `| a | b |\n| --- | --- |\n| c | d |`, 'a table'],
    ['an HTML block line', `<div>\nsee x/y.md ${M}\n</div>`, `<div>\nsee x/y.md\n</div>`, 'an HTML block'],
    ['an HTML block tag', `<img src="x/y.png"> ${M}`, `<img src="x/y.png">`, 'an HTML block'],
    ['a hard line break', `foo\\ ${M}\nbar`, `foo\\\nbar`, 'a hard line break'],
  ])('%s: no marker', (_name, marked, bare, what) => {
    expect(inertMarker(marked, '2026-03-10')).toEqual({ text: bare, dropped: what });
  });

  test.each([
    ['a list item', `- Guide: \`docs/x.md\`. ${M}`],
    ['a list item ending in inline code (the marker is a text run of its own)', `3) GGUF readers: \`src/gguf/*.cc\` ${M}`],
    ['after emphasis and a link', `- See **this** and [the guide](docs/x.md) ${M}`],
    ['a list item starting with a link', `- [Guide](docs/x.md) — how to build ${M}`],
    ['a task item', `- [ ] move \`docs/x.md\` ${M}`],
    ['a table body row (inside its last cell)', `| c | d ${M} |`],
    ['an ATX heading', `## Working in packages/api ${M}`],
    ['a paragraph line with a hard break after', `See \`a/b\`. ${M}  \nnext`],
  ])('%s: the marker stays', (_name, marked) => {
    expect(inertMarker(marked, '2026-03-10')).toEqual({ text: marked });
  });

  test('a setext underline or a fence inside a list item: the marker moves up to the line of text in the same block', () => {
    expect(inertMarker(`Title\n===== ${M}`, '2026-03-10')).toEqual({ text: `Title ${M}\n=====`, moved: true });
    expect(inertMarker('3. **Build** Two builds are required:\n   ```bash ' + M + '\n   npm run build:assets\n   ```', '2026-03-10')).toEqual({
      text: '3. **Build** Two builds are required: ' + M + '\n   ```bash\n   npm run build:assets\n   ```',
      moved: true,
    });
    // An older marker on that line gets today's date instead of a second marker.
    expect(inertMarker('- Run: [corrected 2025-01-01]\n  ```bash ' + M + '\n  x\n  ```', '2026-03-10')).toEqual({
      text: '- Run: ' + M + '\n  ```bash\n  x\n  ```',
      moved: true,
    });
  });

  test('an indented code block: the marker would change the code itself, and the reason says so', () => {
    expect(inertMarker(`    indented code: src/xx.ts ${M}`, '2026-03-10')).toEqual({ text: '    indented code: src/xx.ts', dropped: "a code block's content" });
  });

  test('no marker of today: the text as is', () => {
    expect(inertMarker('[a]: x.md [corrected 2025-01-01]', '2026-03-10')).toEqual({ text: '[a]: x.md [corrected 2025-01-01]' });
  });
});

describe('apply writes updates without an unsafe marker', () => {
  async function applyUpdates(text: string, updates: Array<[needle: string, replacement: string]>) {
    const repo = await makeRepo({ 'CLAUDE.md': text });
    const a = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const byId = new Map(updates.map(([needle, replacement]) => [entry(a, needle).id, replacement]));
    const plan: PlanItem[] = a.plan.map((p) =>
      byId.has(p.entryId) ? { ...p, action: 'update', rule: 4, reason: 'stale, corrected', replacement: byId.get(p.entryId)! } : p,
    );
    const res = await applyAudit({ ...a, plan }, { root: repo.dir, now: NOW, write: true });
    return { repo, res, a };
  }

  test('a top-level fence: the info string stays as it was', async () => {
    const text = '# P\n\n```bash\ncat docs/guide.md\n```\n';
    const { repo, res } = await applyUpdates(text, [['cat docs/guide.md', '```bash ' + M + '\ncat docs/handbook.md\n```']]);
    expect(await repo.read('CLAUDE.md')).toBe('# P\n\n```bash\ncat docs/handbook.md\n```\n');
    expect(res.warnings).toEqual([]);
    expect((await archive(repo))[0].reason).toBe("stale, corrected; no [corrected] marker: it would change a fenced code block's info string");
  });

  test('an HTML block: the tag line stays as it was', async () => {
    const text = '# P\n\n<p>See docs/guide.md</p>\n\n- Keep.\n';
    const { repo } = await applyUpdates(text, [['<p>See', `<p>See docs/handbook.md</p> ${M}`]]);
    expect(await repo.read('CLAUDE.md')).toBe('# P\n\n<p>See docs/handbook.md</p>\n\n- Keep.\n');
  });
});

describe('an edit that fails the re-parse check is left out alone', () => {
  test("the other corrections of the file still apply; the one at fault goes to review with its file and line", async () => {
    const text = '# P\n\n- Guide: `docs/guide.md`.\n\n[a]: docs/a.md\n[b]: docs/b.md\n';
    const repo = await makeRepo({ 'CLAUDE.md': text });
    const a = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const guide = entry(a, 'Guide');
    const defA = entry(a, '[a]:');
    const defB = entry(a, '[b]:');
    // Trailing words after a definition make it paragraph text, which swallows the next definition.
    const plan: PlanItem[] = a.plan.map((p) =>
      p.entryId === guide.id
        ? { ...p, action: 'update', rule: 4, reason: 'stale, corrected', replacement: '- Guide: `docs/handbook.md`.' }
        : p.entryId === defA.id
          ? { ...p, action: 'update', rule: 4, reason: 'stale, corrected', replacement: '[a]: docs/a2.md, moved' }
          : p,
    );
    const res = await applyAudit({ ...a, plan }, { root: repo.dir, now: NOW, write: true });
    expect(await repo.read('CLAUDE.md')).toBe('# P\n\n- Guide: `docs/handbook.md`.\n\n[a]: docs/a.md\n[b]: docs/b.md\n');
    expect(res.warnings).toEqual([
      `CLAUDE.md:5: update of ${defA.id} not applied, the re-parse check failed (entry ${defB.id} (line 6) was not planned to change but is no longer present byte-identical); review it by hand`,
    ]);
    expect(res.summary).toMatchObject({ updated: 1, review: 1 });
    expect((await archive(repo)).map((r) => r.entryId)).toEqual([guide.id]);
    expect(await repo.read('.memory-audit/pruning-log.md')).not.toContain('[a]:');
  });

  test('two edits that only fail together leave the file unchanged, as before', async () => {
    const text = '# P\n\nAlpha.\n\nBeta.\n\nGamma.\n';
    const repo = await makeRepo({ 'CLAUDE.md': text });
    const a = await audit({ root: repo.dir, now: NOW, config: config(), checks: [] });
    const alpha = entry(a, 'Alpha');
    const beta = entry(a, 'Beta');
    // Alone, each rewrite passes; together the old text "Alpha." is still there (Beta's new text).
    const plan: PlanItem[] = a.plan.map((p) =>
      p.entryId === alpha.id
        ? { ...p, action: 'update', rule: 4, reason: 'r', replacement: 'Gamma.' }
        : p.entryId === beta.id
          ? { ...p, action: 'update', rule: 4, reason: 'r', replacement: 'Alpha.' }
          : p,
    );
    const res = await applyAudit({ ...a, plan }, { root: repo.dir, now: NOW, write: false });
    expect(res.changes).toEqual([]);
    expect(res.warnings).toEqual([`CLAUDE.md: entry ${alpha.id} (line 3) was planned to be changed but is still present; the file is left unchanged`]);
    expect(res.summary).toMatchObject({ updated: 0, review: 2 });
  });
});
