// parseMemoryText makes a file's entries while it parses it (blocks are pushed into an
// EntryBuilder), except when the text holds `]:` (a possible link reference definition, which
// entries anywhere in the file may need): then it parses the whole file first. Both ways must
// give the same entries. A trailing HTML comment holding `]:` switches the way without
// changing any entry.
import { describe, expect, it } from 'vitest';
import { parseMemoryText } from '../../src/memory/parse.js';
import { countTokens } from '../../src/memory/tokens.js';

const DOC = [
  '# Project',
  '',
  '<!-- PROTECTED -->',
  '## Commands',
  '',
  '- Run `pnpm test` before pushing; see [the guide](docs/guide.md)',
  '- **Never** edit `dist/` by hand',
  '  continued on a second line',
  '1. first',
  '2. second',
  '',
  '| Key | Value |',
  '| --- | ----- |',
  '| a | `b` |',
  '',
  '```bash',
  'make build',
  '```',
  '',
  '> a quote with <b>html</b> and an escaped \\* star',
  '',
  'A paragraph with a tab\there, currently working on the parser.',
  '',
  '- Duplicate entry',
  '- Duplicate entry',
  '',
].join('\n');

const strip = (r: ReturnType<typeof parseMemoryText>) => ({
  entries: r.entries.map(({ refs, ...e }) => e),
  findings: r.findings,
  frontmatter: r.file.frontmatter,
});

describe('entries made while parsing', () => {
  for (const format of ['claude-md', 'auto-memory-index', 'cursor-rule'] as const) {
    it(`equal the entries made after parsing (${format})`, () => {
      for (const head of ['', '---\nname: x\ntype: decision\n---\n', '---\nunclosed: yes\n']) {
        const text = head + DOC;
        const streamed = parseMemoryText('m.md', text, format, { protectPatterns: ['pnpm'] });
        const whole = parseMemoryText('m.md', text + '\n<!-- ]: -->\n', format, { protectPatterns: ['pnpm'] });
        expect(streamed.entries.length).toBeGreaterThan(5);
        expect(strip(streamed)).toEqual(strip(whole));
      }
    });
  }
});

describe('file.tokens', () => {
  it('is counted on first read, and behaves as a plain property', () => {
    const text = 'hello world, `code`\n';
    const r = parseMemoryText('m.md', text, 'claude-md');
    expect(Object.keys(r.file)).toContain('tokens');
    expect(r.file.tokens).toBe(countTokens(text));
    expect(JSON.parse(JSON.stringify(r.file)).tokens).toBe(countTokens(text));
    expect({ ...r.file }.tokens).toBe(countTokens(text));
    r.file.tokens = 7;
    expect(r.file.tokens).toBe(7);
    expect(parseMemoryText('m.md', text, 'claude-md', { skipTokens: true }).file.tokens).toBe(0);
  });
});
