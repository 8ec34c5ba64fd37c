import { describe, expect, test } from 'vitest';
import { chunkStarts, parseBlocks, parseMemoryText } from '../../src/memory/parse.js';
import type { Entry } from '../../src/types.js';

const brief = (e: Entry) => [e.kind, e.line, e.endLine, e.type, e.protected, e.headings.join(' > '), e.text];

describe('CLAUDE.md-like files', () => {
  const text = [
    '# Project', //                                                    1
    '', //                                                             2
    'Monorepo built with `pnpm`; see [docs](docs/setup.md).', //       3
    '', //                                                             4
    '## Commands', //                                                  5
    '', //                                                             6
    '- Run `pnpm test` before pushing', //                             7
    '  - nested detail stays with its parent', //                      8
    '- Build with `make dist`', //                                     9
    '', //                                                             10
    '```sh', //                                                        11
    'npm run lint', //                                                 12
    '```', //                                                          13
    '', //                                                             14
    '## Decisions', //                                                 15
    '', //                                                             16
    '| Choice | Why |', //                                              17
    '| --- | --- |', //                                                18
    '| Postgres | joins |', //                                         19
    '| Redis | cache |', //                                            20
    '', //                                                             21
    '> Quoted rule', //                                                22
    '> on two lines', //                                               23
    '', //                                                             24
    '### Sub', //                                                      25
    '', //                                                             26
    'Deep paragraph.', //                                              27
    '', //                                                             28
  ].join('\n');

  test('one entry per item, paragraph, code block, table row and quote, with exact lines and headings', () => {
    const { entries, findings, file } = parseMemoryText('CLAUDE.md', text, 'claude-md');
    expect(findings).toEqual([]);
    expect(file.lines).toBe(27);
    expect(file.eol).toBe('\n');
    expect(entries.map((e) => [e.kind, e.line, e.endLine, e.headings])).toEqual([
      ['paragraph', 3, 3, ['Project']],
      ['item', 7, 8, ['Project', 'Commands']],
      ['item', 9, 9, ['Project', 'Commands']],
      ['code', 11, 13, ['Project', 'Commands']],
      ['table-row', 19, 19, ['Project', 'Decisions']],
      ['table-row', 20, 20, ['Project', 'Decisions']],
      ['quote', 22, 23, ['Project', 'Decisions']],
      ['paragraph', 27, 27, ['Project', 'Decisions', 'Sub']],
    ]);
    expect(entries[1].text).toBe('- Run `pnpm test` before pushing\n  - nested detail stays with its parent');
    for (const e of entries) {
      expect(text.slice(e.start, e.end)).toBe(e.text);
      expect(e.format).toBe('claude-md');
      expect(e.id).toMatch(/^e_[0-9a-f]{8}$/);
    }
    // heading hints drive the type of the entries under "## Decisions"
    expect(entries[4].type).toBe('decision');
    expect(entries[4].typeSource).toBe('heuristic');
  });

  test('spans carry exact offsets, lines, urls and code languages', () => {
    const { entries } = parseMemoryText('CLAUDE.md', text, 'claude-md');
    const s = entries[0].spans.map((x) => [x.kind, text.slice(x.start, x.end), x.value, x.line, x.url]);
    expect(s).toEqual([
      ['text', 'Monorepo built with ', 'Monorepo built with ', 3, undefined],
      ['inlineCode', 'pnpm', 'pnpm', 3, undefined],
      ['text', '; see ', '; see ', 3, undefined],
      ['link', '[docs](docs/setup.md)', 'docs', 3, 'docs/setup.md'],
      ['text', '.', '.', 3, undefined],
    ]);
    const code = entries[3].spans;
    const at = text.indexOf('npm run lint');
    expect(code).toEqual([{ kind: 'code', value: 'npm run lint', start: at, end: at + 12, line: 12, lang: 'sh' }]);
    const nested = entries[1].spans.filter((x) => x.kind === 'text').map((x) => [x.value, x.line]);
    expect(nested).toEqual([
      ['Run ', 7],
      [' before pushing', 7],
      ['nested detail stays with its parent', 8],
    ]);
  });

  test('formats other than claude-md parse the same way', () => {
    for (const fmt of ['agents-md', 'gemini-md', 'copilot', 'other'] as const) {
      const { entries } = parseMemoryText('X.md', '# A\n\n- one\n- two\n', fmt);
      expect(entries.map((e) => [e.format, e.kind, e.line, e.text])).toEqual([
        [fmt, 'item', 3, '- one'],
        [fmt, 'item', 4, '- two'],
      ]);
    }
  });

  test('HTML comments are not entries; other HTML blocks are', () => {
    const t = '<!-- a note -->\n\n<details>\n<summary>x</summary>\n</details>\n';
    const { entries } = parseMemoryText('CLAUDE.md', t, 'claude-md');
    expect(entries.map((e) => [e.kind, e.line, e.endLine])).toEqual([['paragraph', 3, 5]]);
    expect(entries[0].spans[0].kind).toBe('html');
  });

  test('link references resolve their url from the definition', () => {
    const t = 'See [the guide][g].\n\n[g]: docs/guide.md\n';
    const { entries } = parseMemoryText('CLAUDE.md', t, 'claude-md');
    expect(entries[0].spans.find((s) => s.kind === 'link')).toMatchObject({ value: 'the guide', url: 'docs/guide.md', line: 1 });
    expect(entries[1].spans).toEqual([{ kind: 'link', value: 'g', url: 'docs/guide.md', start: 21, end: 39, line: 3 }]);
  });
});

describe('spans are exact per source line', () => {
  test('multi-line text in list items and blockquotes, CRLF, inline code with padding, indented fenced code', () => {
    const t = [
      '- item one',
      '  continued `a`` b` and `` `x` ``',
      '> quoted line',
      '> more src/x.ts',
      '',
      '1. step',
      '   ```bash',
      '   npm ci',
      '',
      '   npm test',
      '   ```',
      '',
      'Para.',
      '',
      '    indented code',
      '    second',
      '',
    ].join('\r\n');
    const { entries } = parseMemoryText('CLAUDE.md', t, 'claude-md');
    const all = entries.flatMap((e) => e.spans.map((s) => [e.kind, s.kind, s.value, t.slice(s.start, s.end), s.line, s.lang]));
    expect(all).toEqual([
      ['item', 'text', 'item one', 'item one', 1, undefined],
      ['item', 'text', 'continued ', 'continued ', 2, undefined],
      ['item', 'inlineCode', 'a`` b', 'a`` b', 2, undefined],
      ['item', 'text', ' and ', ' and ', 2, undefined],
      ['item', 'inlineCode', '`x`', '`x`', 2, undefined],
      ['quote', 'text', 'quoted line', 'quoted line', 3, undefined],
      ['quote', 'text', 'more src/x.ts', 'more src/x.ts', 4, undefined],
      ['item', 'text', 'step', 'step', 6, undefined],
      ['item', 'code', 'npm ci', 'npm ci', 8, 'bash'],
      ['item', 'code', 'npm test', 'npm test', 10, 'bash'],
      ['paragraph', 'text', 'Para.', 'Para.', 13, undefined],
      ['code', 'code', 'indented code', 'indented code', 15, undefined],
      ['code', 'code', 'second', 'second', 16, undefined],
    ]);
  });
});

describe('Cursor rules and .claude/rules frontmatter', () => {
  test('.mdc frontmatter goes to MemoryFile.frontmatter (Cursor globs read leniently)', () => {
    const t = '---\ndescription: TS rules\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\n- Use strict mode\n';
    const { file, entries, findings } = parseMemoryText('.cursor/rules/ts.mdc', t, 'cursor-rule');
    expect(findings).toEqual([]);
    expect(file.frontmatter).toEqual({ description: 'TS rules', globs: '*.ts,*.tsx', alwaysApply: false });
    expect(file.frontmatterRange).toEqual([0, t.indexOf('---\n- Use') + 3]);
    expect(entries.map((e) => [e.kind, e.line, e.text])).toEqual([['item', 6, '- Use strict mode']]);
  });

  test('.claude/rules paths frontmatter', () => {
    const t = '---\npaths:\n  - "src/api/**/*.ts"\n---\n\n# API\n\nValidate input with zod.\n';
    const { file, entries } = parseMemoryText('.claude/rules/api.md', t, 'claude-md');
    expect(file.frontmatter).toEqual({ paths: ['src/api/**/*.ts'] });
    expect(entries.map((e) => [e.line, e.headings, e.text])).toEqual([[8, ['API'], 'Validate input with zod.']]);
  });

  test('invalid YAML frontmatter: a malformed finding with the exact line, and the body is still parsed', () => {
    const t = '---\nname: x\ndescription: [unclosed\ntype: project\n---\n\n- still parsed\n';
    const { findings, entries, file } = parseMemoryText('CLAUDE.md', t, 'claude-md');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'malformed', severity: 'error', file: 'CLAUDE.md', entryId: null });
    expect(findings[0].line).toBe(4);
    expect(findings[0].message).toMatch(/^CLAUDE\.md:4: invalid YAML frontmatter/);
    expect(file.frontmatter).toBeUndefined();
    expect(entries.map((e) => [e.line, e.text])).toEqual([[7, '- still parsed']]);
  });

  test('unclosed frontmatter fence is reported, and the rest parses as plain Markdown', () => {
    const { findings } = parseMemoryText('m/a.md', '---\nname: x\n\nbody\n', 'auto-memory-topic');
    expect(findings.map((f) => [f.line, f.severity, f.message])).toEqual([
      [1, 'error', 'm/a.md:1: frontmatter fence is never closed; the file is read as plain Markdown'],
    ]);
    // remark-frontmatter would let the failed fence swallow the blockquote into the paragraph
    const r = parseMemoryText('CLAUDE.md', '---\nText a\n> quote\n* star\n', 'claude-md');
    expect(r.entries.map((e) => [e.kind, e.line, e.text])).toEqual([
      ['paragraph', 2, 'Text a'],
      ['quote', 3, '> quote'],
      ['item', 4, '* star'],
    ]);
    expect(r.findings.map((f) => f.severity)).toEqual(['warning']);
  });

  test('structured slot frontmatter (claude-mem): content becomes an entry with its meta', () => {
    const t = '---\nid: db-choice\ntype: decision\nscope: backend\npriority: 8\ncontent: Use Postgres for all services\nlast_updated: 2026-01-05\nvalid_until: 2026-06-30\n---\n';
    const { entries } = parseMemoryText('notes/slot.md', t, 'other');
    expect(entries).toHaveLength(1);
    const e = entries[0];
    expect([e.kind, e.line, e.endLine, e.type, e.typeSource, e.text]).toEqual([
      'frontmatter-field', 6, 6, 'decision', 'frontmatter', 'Use Postgres for all services',
    ]);
    expect(e.meta).toMatchObject({ slotId: 'db-choice', scope: 'backend', priority: 8, lastUpdated: '2026-01-05', validUntil: '2026-06-30' });
  });
});

describe('auto-memory topic files and MEMORY.md', () => {
  test('a topic file is one entry with flat frontmatter meta', () => {
    const t = '---\nname: testing-setup\ndescription: How tests run\ntype: project\nmodified: 2026-02-01\npriority: 8\npinned: true\n---\n\nTests use `vitest`.\n\nRun `npm test`.\n';
    const { entries, file } = parseMemoryText('.claude/memory/testing.md', t, 'auto-memory-topic', { memoryDir: '.claude/memory' });
    expect(file.memoryDir).toBe('.claude/memory');
    expect(entries.map(brief)).toEqual([['topic', 1, 12, 'project', false, '', t]]);
    expect(entries[0].meta).toMatchObject({ name: 'testing-setup', description: 'How tests run', modified: '2026-02-01', priority: 8, pinned: true });
    expect(entries[0].typeSource).toBe('frontmatter');
    expect(entries[0].spans[0]).toMatchObject({ kind: 'frontmatter', start: 0, line: 1 });
    expect(entries[0].spans.filter((s) => s.kind === 'inlineCode').map((s) => [s.value, s.line])).toEqual([
      ['vitest', 10],
      ['npm test', 12],
    ]);
  });

  test('type nested under metadata:', () => {
    const t = '---\nname: prefs\nmetadata:\n  type: feedback\n  valid_until: 2026-03-01\n---\nNo emojis in commit messages.\n';
    const { entries } = parseMemoryText('m/prefs.md', t, 'auto-memory-topic');
    expect([entries[0].type, entries[0].typeSource, entries[0].meta.validUntil]).toEqual(['feedback', 'frontmatter', '2026-03-01']);
  });

  test('type: superseded and a topic without type falls back to the classifier', () => {
    const sup = '---\nname: superseded-a1\ndescription: Counter-memory\ntype: superseded\n---\n\nSUPERSEDED 2026-01-01\nPattern: retries\n';
    expect(parseMemoryText('m/s.md', sup, 'auto-memory-topic').entries[0].type).toBe('superseded');
    const none = 'Currently working on issue #42, next steps: fix the test.\n';
    const e = parseMemoryText('m/n.md', none, 'auto-memory-topic').entries[0];
    expect([e.type, e.typeSource, e.line, e.endLine]).toEqual(['ephemeral', 'heuristic', 1, 1]);
  });

  test('MEMORY.md: one index-line entry per index line, with target, title and hook', () => {
    const t = [
      '# Memory index',
      '',
      '- [Testing setup](testing.md) — how tests run',
      '- [Prefs](prefs.md#style): style rules',
      '- plain note without link',
      '',
      'A paragraph.',
      '- [External](https://example.com/x.md)',
      '- **[Bold](sub/bold%20file.md)** - wrapped',
    ].join('\n');
    const { entries } = parseMemoryText('.claude/memory/MEMORY.md', t, 'auto-memory-index', { memoryDir: '.claude/memory' });
    expect(entries.map((e) => [e.kind, e.line, e.meta.target, e.meta.name, e.meta.description])).toEqual([
      ['index-line', 3, 'testing.md', 'Testing setup', 'how tests run'],
      ['index-line', 4, 'prefs.md', 'Prefs', 'style rules'],
      ['item', 5, undefined, undefined, undefined],
      ['paragraph', 7, undefined, undefined, undefined],
      ['item', 8, undefined, undefined, undefined],
      ['index-line', 9, 'sub/bold file.md', 'Bold', 'wrapped'],
    ]);
  });
});

describe('stable ids', () => {
  test('same text gives the same id across runs and after lines move; repeats get distinct ids', () => {
    const a = parseMemoryText('CLAUDE.md', '- alpha\n- beta\n- alpha\n', 'claude-md').entries;
    const b = parseMemoryText('CLAUDE.md', '# New heading\n\nIntro.\n\n* beta\n*   alpha\n- alpha\n', 'claude-md').entries;
    const again = parseMemoryText('CLAUDE.md', '- alpha\n- beta\n- alpha\n', 'claude-md').entries;
    expect(again.map((e) => e.id)).toEqual(a.map((e) => e.id));
    expect(new Set(a.map((e) => e.id)).size).toBe(3);
    const idsB = b.map((e) => e.id);
    expect(idsB).toContain(a[0].id);
    expect(idsB).toContain(a[1].id);
    expect(idsB).toContain(a[2].id);
    // the file path is part of the identity
    expect(parseMemoryText('AGENTS.md', '- alpha\n', 'agents-md').entries[0].id).not.toBe(a[0].id);
  });

  test('renumbering an ordered list keeps ids', () => {
    const a = parseMemoryText('CLAUDE.md', '1. first\n2. second\n', 'claude-md').entries;
    const b = parseMemoryText('CLAUDE.md', '1. zero\n2. first\n3. second\n', 'claude-md').entries;
    expect(b.slice(1).map((e) => e.id)).toEqual(a.map((e) => e.id));
  });
});

describe('protection', () => {
  test('marker on its own line before a block, inline on the entry, with a reason, before a heading', () => {
    const t = [
      '- free', //                                    1
      '', //                                          2
      '<!-- PROTECTED -->', //                        3
      'Guarded paragraph.', //                        4
      '', //                                          5
      '- inline <!-- protected: legal said so -->', // 6
      '- not guarded', //                             7
      '', //                                          8
      '<!-- Protected: security -->', //              9
      '## Security', //                               10
      '', //                                          11
      '- all of this section', //                     12
      '', //                                          13
      '### Deeper', //                                14
      '', //                                          15
      '- still protected', //                         16
      '', //                                          17
      '## Next', //                                   18
      '', //                                          19
      '- free again', //                              20
    ].join('\n');
    const { entries } = parseMemoryText('CLAUDE.md', t, 'claude-md');
    expect(entries.map((e) => [e.line, e.protected, e.meta.protectedReason])).toEqual([
      [1, false, undefined],
      [4, true, 'marker'],
      [6, true, 'legal said so'],
      [7, false, undefined],
      [12, true, 'security'],
      [16, true, 'security'],
      [20, false, undefined],
    ]);
  });

  test('a marker before a list protects its first item only; config.protect regexes protect too', () => {
    const t = '<!-- PROTECTED -->\n- a\n- b\n\nParagraph about billing.\n\nOther.\n';
    const { entries } = parseMemoryText('CLAUDE.md', t, 'claude-md', { protectPatterns: ['billing'] });
    expect(entries.map((e) => [e.line, e.protected, e.meta.protectedReason])).toEqual([
      [2, true, 'marker'],
      [3, false, undefined],
      [5, true, 'config'],
      [7, false, undefined],
    ]);
  });

  test('topic files: a marker anywhere, or protected: true in frontmatter', () => {
    expect(parseMemoryText('m/a.md', 'Body\n\n<!-- PROTECTED -->\n', 'auto-memory-topic').entries[0].protected).toBe(true);
    const fm = parseMemoryText('m/b.md', '---\nname: b\nprotected: true\n---\nBody\n', 'auto-memory-topic').entries[0];
    expect([fm.protected, fm.meta.protectedReason]).toEqual([true, 'frontmatter']);
    expect(parseMemoryText('m/c.md', 'Body\n', 'auto-memory-topic').entries[0].protected).toBe(false);
  });
});

describe('line endings and edge cases', () => {
  test('CRLF: lines and offsets are exact, entry text keeps CRLF', () => {
    const t = '# A\r\n\r\n- one\r\n- two\r\n  continued\r\n\r\nPara\r\n';
    const { entries, file } = parseMemoryText('CLAUDE.md', t, 'claude-md');
    expect(file.eol).toBe('\r\n');
    expect(file.lines).toBe(7);
    expect(entries.map((e) => [e.line, e.endLine, e.text])).toEqual([
      [3, 3, '- one'],
      [4, 5, '- two\r\n  continued'],
      [7, 7, 'Para'],
    ]);
    for (const e of entries) expect(t.slice(e.start, e.end)).toBe(e.text);
  });

  test('empty and whitespace-only files give no entries and no findings', () => {
    for (const t of ['', '\n\n', '   \n']) {
      const r = parseMemoryText('CLAUDE.md', t, 'claude-md');
      expect([r.entries.length, r.findings.length]).toEqual([0, 0]);
    }
    const topic = parseMemoryText('m/e.md', '', 'auto-memory-topic');
    expect(topic.entries.map((e) => [e.kind, e.line, e.endLine])).toEqual([['topic', 1, 1]]);
  });
});

describe('chunked parsing of long files', () => {
  function bigDoc(): string {
    const parts: string[] = ['---', 'name: big', '', 'description: has a blank line', '---', '', '# Big', ''];
    for (let i = 0; i < 60; i++) {
      parts.push(`## Section ${i}`, '', `Paragraph ${i} with \`src/m${i}.ts\` and [ref][r].`, '');
      parts.push(`- item ${i}`, `  - nested ${i}`, '', `  continued ${i} after a blank line`, `- second ${i}`, '');
      if (i % 7 === 0) parts.push('```md', '# not a heading', '', 'still code', '```', '');
      if (i % 11 === 0) parts.push('<!--', '', 'comment with blank line', '-->', '');
      if (i % 13 === 0) parts.push('| a | b |', '| - | - |', `| ${i} | x |`, '');
    }
    parts.push('[r]: docs/ref.md', '');
    return parts.join('\n');
  }

  test('gives exactly the nodes of a one-piece parse', async () => {
    const t = bigDoc();
    expect(chunkStarts(t).length).toBeGreaterThan(2);
    const { unified } = await import('unified');
    const remarkParse = (await import('remark-parse')).default;
    const remarkFrontmatter = (await import('remark-frontmatter')).default;
    const remarkGfm = (await import('remark-gfm')).default;
    const whole = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm).parse(t);
    const strip = (n: unknown): unknown => JSON.parse(JSON.stringify(n, (k, v) => (k === 'column' ? undefined : v)));
    expect(strip(parseBlocks(t, { fast: false }))).toEqual(strip(whole.children));
  });

  // The fast path (fastblocks.ts) and the remark path must give identical entries.
  const LINES = [
    '# Title', '## Section two', '### Deep `code` heading', '', '', '', '- plain item', '- item with `src/a.ts` and [docs](docs/a.md)',
    '  continued line', '  - nested item', '1. first', '2. second', 'A paragraph with `npm run build`.', 'Second line of it',
    '* star item', '> quote', '```sh', 'npm test', '```', '| a | b |', '| - | - |', '| 1 | 2 |', '<!-- PROTECTED -->',
    '- *emphasis* item', 'Text with **bold** and a\\* escape', '    indented', '---', 'Setext', '===', '- [ ] task',
    'Visit https://example.com now', '- [Title](topic.md) — hook', 'Line with trailing spaces  ', '\tTabbed',
  ];
  const FRONTMATTERS = [
    '---\nname: a\ntype: project\n---\n',
    '---\n---\n',
    '---\n\n---\n\n',
    '---  \nname: b\n\ndescription: c\n---  \n',
    '+++\ntitle = "x"\n+++\n',
    '---\nname: [broken\n---\n',
    '---\nname: unclosed\n\n',
  ];
  test('frontmatter nodes built without the processor equal remark-frontmatter\'s', async () => {
    const { unified } = await import('unified');
    const remarkParse = (await import('remark-parse')).default;
    const remarkFrontmatter = (await import('remark-frontmatter')).default;
    const remarkGfm = (await import('remark-gfm')).default;
    const proc = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm);
    for (const f of FRONTMATTERS.slice(0, 6)) {
      for (const eol of ['\n', '\r\n']) {
        for (const body of ['', 'Body text\n', '- item\n\nPara\n']) {
          const t = f.replace(/\n/g, eol) + body.replace(/\n/g, eol);
          expect(JSON.parse(JSON.stringify(parseBlocks(t))), JSON.stringify(t)).toEqual(JSON.parse(JSON.stringify(proc.parse(t).children)));
        }
      }
    }
  });
  function rng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const DOCS = Number(process.env.MA_DIFF_DOCS ?? 60);
  test(`fast path and remark path give identical entries (${DOCS} random documents, LF and CRLF)`, () => {
    const r = rng(Number(process.env.MA_DIFF_SEED ?? 42));
    let fastHits = 0;
    for (let d = 0; d < DOCS; d++) {
      const n = 5 + Math.floor(r() * 40);
      const lines: string[] = [];
      for (let i = 0; i < n; i++) lines.push(LINES[Math.floor(r() * LINES.length)]);
      const eol = d % 5 === 0 ? '\r\n' : '\n';
      const fm = d % 4 === 0 ? FRONTMATTERS[Math.floor(r() * FRONTMATTERS.length)].replace(/\n/g, eol) : '';
      const t = fm + lines.join(eol) + (d % 3 === 0 ? '' : '\n');
      for (const fmt of ['claude-md', 'auto-memory-index'] as const) {
        const a = parseMemoryText('CLAUDE.md', t, fmt, { skipTokens: true, fast: false });
        const b = parseMemoryText('CLAUDE.md', t, fmt, { skipTokens: true });
        expect({ entries: b.entries, findings: b.findings }, `document ${JSON.stringify(t)}`).toEqual({ entries: a.entries, findings: a.findings });
      }
      if (parseBlocks(t).length > 0) fastHits++;
    }
    expect(fastHits).toBeGreaterThan(0);
  });
});
