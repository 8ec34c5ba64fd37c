// Cursor rule (.mdc) frontmatter: Cursor's own unquoted `globs:` values are accepted; any other
// YAML error is a `malformed` finding on the line where Cursor's line-by-line reading breaks,
// and `alwaysApply` must be true or false. The rule's entries are audited either way.
import { describe, expect, it, test } from 'vitest';
import { parseFrontmatter } from '../../src/memory/frontmatter.js';
import { parseMemoryText } from '../../src/memory/parse.js';

// The block starts on line 2 of the file (after "---\n"), at offset 4.
const mdc = (v: string) => parseFrontmatter(v, 'yaml', 4, 2, true);
const rule = (fm: string, body = '\n- Use `src/a.ts`.\n') => `---\n${fm}---\n${body}`;
const parse = (name: string, fm: string) => parseMemoryText(`.cursor/rules/${name}`, rule(fm), 'cursor-rule');

describe('Cursor rule frontmatter: what Cursor writes is accepted', () => {
  const ok: Array<[string, Record<string, unknown>]> = [
    ['description: TS\nglobs: *.ts\nalwaysApply: false\n', { description: 'TS', globs: '*.ts', alwaysApply: false }],
    ['description: TS\nglobs: *.ts,*.tsx\nalwaysApply: false\n', { description: 'TS', globs: '*.ts,*.tsx', alwaysApply: false }],
    ['description: TS\nglobs: *.ts, *.tsx\nalwaysApply: false\n', { description: 'TS', globs: '*.ts, *.tsx', alwaysApply: false }],
    ['globs: src/**/*.ts, lib/*.ts\nalwaysApply: false\n', { globs: 'src/**/*.ts, lib/*.ts', alwaysApply: false }],
    ['globs: **/*.test.ts   \n', { globs: '**/*.test.ts' }],
    ['description:\nglobs:\nalwaysApply: true\n', { description: null, globs: null, alwaysApply: true }],
    ['globs: "*.ts"\n', { globs: '*.ts' }],
    ['globs: ["src/**", "lib/**"]\nalwaysApply: false\n', { globs: ['src/**', 'lib/**'], alwaysApply: false }],
    ['description: "Rules: for TS"\nglobs: *.ts\r\nalwaysApply: false\r\n', { description: 'Rules: for TS', globs: '*.ts', alwaysApply: false }],
    ['description: x\nglobs: *.ts\nmetadata:\n  owner: web\n', { description: 'x', globs: '*.ts', metadata: { owner: 'web' } }],
  ];
  for (const [block, data] of ok) {
    it(`reads ${JSON.stringify(block)} without a problem`, () => {
      const r = mdc(block);
      expect(r.problems).toEqual([]);
      expect(r.data).toEqual(data);
    });
  }

  it('flags the reading that needed the unquoted globs quirk', () => {
    expect(mdc('globs: *.ts\n').lenient).toBe(true);
    expect(mdc('globs: src/**\n').lenient).toBeUndefined();
  });

  test('an .mdc file with `globs: *.ts` gets no finding, its globs as written and its entries', () => {
    const { file, entries, findings } = parse('ts.mdc', 'description: TS\nglobs: src/**/*.ts, lib/*.ts\nalwaysApply: false\n');
    expect(findings).toEqual([]);
    expect(file.frontmatter).toEqual({ description: 'TS', globs: 'src/**/*.ts, lib/*.ts', alwaysApply: false });
    expect(entries.map((e) => [e.line, e.text])).toEqual([[7, '- Use `src/a.ts`.']]);
  });
});

describe('Cursor rule frontmatter: real errors are reported', () => {
  const E = (line: number, what: string) => ({ line, message: `invalid YAML frontmatter: ${what}` });
  const cases: Array<[string, string, { line: number; message: string }]> = [
    ['unclosed quote (description)', 'description: "API rules\nglobs: src/**/*.ts\nalwaysApply: true\n', E(2, 'Missing closing "quote')],
    ['unclosed quote with a bare glob after it', 'description: "API rules\nglobs: *.ts\nalwaysApply: true\n', E(2, 'Missing closing "quote')],
    ['unclosed single quote', "description: 'API rules\nalwaysApply: true\n", E(2, "Missing closing 'quote")],
    ['unclosed quote (globs)', 'description: API\nglobs: "src/**\nalwaysApply: true\n', E(3, 'Missing closing "quote')],
    ['unclosed flow sequence (globs)', 'description: API\nglobs: [src/**/*.ts, lib/**\nalwaysApply: false\n', E(3, 'Flow sequence in block collection must be sufficiently indented and end with a ]')],
    ['a value with `: `', 'description: API\nalwaysApply: yes please: now\n', E(3, 'Nested mappings are not allowed in compact mappings')],
    ['a description with `: `, next to a bare glob', 'description: Rules: for TS\nglobs: *.ts\n', E(2, 'Nested mappings are not allowed in compact mappings')],
    ['a tab as indentation', 'description: API\n\tglobs: src/**\nalwaysApply: false\n', E(3, 'Tabs are not allowed as indentation')],
    ['bad indentation next to a bare glob', 'description: x\n  bad: indent\nglobs: *.ts\n', E(2, 'Nested mappings are not allowed in compact mappings')],
    ['an alias in another key', 'description: *nope\nglobs: *.ts\n', E(2, 'Unresolved alias (the anchor must be set before the alias): nope')],
  ];
  for (const [name, block, problem] of cases) {
    it(name, () => {
      expect(mdc(block)).toEqual({ problems: [problem] });
    });
  }

  it('alwaysApply must be true or false', () => {
    const A = (line: number, shown: string) => ({ line, message: `invalid Cursor rule frontmatter: alwaysApply must be true or false, not ${shown}` });
    expect(mdc('description: x\nalwaysApply: yes\n')).toEqual({ data: { description: 'x', alwaysApply: 'yes' }, problems: [A(3, '"yes"')] });
    expect(mdc('alwaysApply: "true"\n').problems).toEqual([A(2, '"true"')]);
    expect(mdc('alwaysApply: 1\n').problems).toEqual([A(2, '1')]);
    expect(mdc('globs: *.ts\nalwaysApply: [true]\n').problems).toEqual([A(3, 'a list')]);
    expect(mdc('alwaysApply: True\n').problems).toEqual([]);
    expect(mdc('alwaysApply:\n').problems).toEqual([]);
    // Only Cursor rules are held to it.
    expect(parseFrontmatter('alwaysApply: yes\n', 'yaml', 4, 2).problems).toEqual([]);
  });
});

describe('QA scenario 09 / 03: malformed .mdc frontmatter is a finding, and the rule is still audited', () => {
  const finding = (file: string, line: number, message: string) => ({
    entryId: null,
    file,
    line,
    kind: 'malformed',
    severity: 'error',
    message: `${file}:${line}: ${message}`,
    evidence: { frontmatter: 'yaml' },
  });
  const cases: Array<[string, string, number, string]> = [
    ['quote.mdc', 'description: "API rules\nglobs: src/**/*.ts\nalwaysApply: true\n', 2, 'invalid YAML frontmatter: Missing closing "quote'],
    ['flow.mdc', 'description: API\nglobs: [src/**/*.ts, lib/**\nalwaysApply: false\n', 3, 'invalid YAML frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ]'],
    ['colon.mdc', 'description: API\nalwaysApply: yes please: now\n', 3, 'invalid YAML frontmatter: Nested mappings are not allowed in compact mappings'],
    ['bad.mdc', 'description: "unterminated\nglobs: [src/**\nalwaysApply: true\n', 2, 'invalid YAML frontmatter: Missing closing "quote'],
    ['always.mdc', 'description: API\nglobs: *.ts\nalwaysApply: yes\n', 4, 'invalid Cursor rule frontmatter: alwaysApply must be true or false, not "yes"'],
  ];
  for (const [name, fm, line, message] of cases) {
    test(name, () => {
      const path = `.cursor/rules/${name}`;
      const { entries, findings } = parse(name, fm);
      expect(findings).toEqual([finding(path, line, message)]);
      const bodyLine = fm.split('\n').length + 3; // fence, block lines, fence, blank line
      expect(entries.map((e) => [e.line, e.text])).toEqual([[bodyLine, '- Use `src/a.ts`.']]);
    });
  }
});
