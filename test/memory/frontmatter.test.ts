import { describe, expect, it } from 'vitest';
import {
  field,
  frontmatterProtected,
  frontmatterType,
  metaFromFrontmatter,
  parseFrontmatter,
} from '../../src/memory/frontmatter.js';

// In these tests the block content starts at offset 4 on line 2 of the file (after "---\n").
const yaml = (v: string, lenient = false) => parseFrontmatter(v, 'yaml', 4, 2, lenient);

describe('parseFrontmatter: YAML', () => {
  it('reads a flat topic-file block', () => {
    expect(yaml('name: db-choice\ndescription: Why Postgres\ntype: decision\n')).toEqual({
      data: { name: 'db-choice', description: 'Why Postgres', type: 'decision' },
      problems: [],
    });
  });

  it('keeps unquoted dates as the strings written (YAML 1.2 core schema)', () => {
    expect(yaml('modified: 2026-03-02\nvalid_until: 2026-04-01T00:00:00Z\n').data).toEqual({
      modified: '2026-03-02',
      valid_until: '2026-04-01T00:00:00Z',
    });
  });

  it('treats an empty block as an empty mapping', () => {
    expect(yaml('')).toEqual({ data: {}, problems: [] });
    expect(yaml('# only a comment\n')).toEqual({ data: {}, problems: [] });
  });

  it('reports a syntax error on the file line where YAML found it, without block-relative positions', () => {
    // Content line 3 ("type: project") is file line 4.
    expect(yaml('name: x\ndescription: [unclosed\ntype: project\n')).toEqual({
      problems: [
        {
          line: 4,
          message: 'invalid YAML frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ]',
        },
      ],
    });
    expect(yaml('name: x\n  bad: indent\n')).toEqual({
      problems: [{ line: 2, message: 'invalid YAML frontmatter: Nested mappings are not allowed in compact mappings' }],
    });
  });

  it('clamps an error found at end of input to the last line of the block', () => {
    expect(yaml('key: "unterminated\n').problems).toEqual([{ line: 2, message: 'invalid YAML frontmatter: Missing closing "quote' }]);
  });

  it('reports an unresolved alias (Cursor `globs: *.ts`) on its own line instead of throwing', () => {
    expect(yaml('description: r\nglobs: *.ts\n')).toEqual({
      problems: [{ line: 3, message: 'invalid YAML frontmatter: Unresolved alias (the anchor must be set before the alias): .ts' }],
    });
  });

  it('falls back to lenient key: value reading when asked (Cursor rules)', () => {
    expect(yaml('description: Rules for TS\nglobs: *.ts,*.tsx\nalwaysApply: false\n', true)).toEqual({
      data: { description: 'Rules for TS', globs: '*.ts,*.tsx', alwaysApply: false },
      problems: [],
      lenient: true,
    });
  });

  it('the lenient reading gives up on lines that are not key: value', () => {
    expect(yaml('name: x\n  bad: indent\n', true).problems).toHaveLength(1);
  });

  it('the lenient reading (Cursor rules) covers unquoted globs only, not other YAML errors', () => {
    // QA 09: these were silently accepted.
    expect(yaml('description: "API rules\nglobs: src/**/*.ts\nalwaysApply: true\n', true)).toEqual({
      problems: [{ line: 2, message: 'invalid YAML frontmatter: Missing closing "quote' }],
    });
    expect(yaml('description: API\nglobs: [src/**/*.ts, lib/**\nalwaysApply: false\n', true)).toEqual({
      problems: [{ line: 3, message: 'invalid YAML frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ]' }],
    });
    expect(yaml('description: API\nalwaysApply: yes please: now\n', true)).toEqual({
      problems: [{ line: 3, message: 'invalid YAML frontmatter: Nested mappings are not allowed in compact mappings' }],
    });
    // Outside Cursor rules the same blocks keep yaml's own position (end of the unclosed scalar).
    expect(yaml('description: "API rules\nglobs: src/**/*.ts\nalwaysApply: true\n').problems).toEqual([
      { line: 4, message: 'invalid YAML frontmatter: Missing closing "quote' },
    ]);
  });

  it('rejects a block that is not a mapping', () => {
    expect(yaml('- a\n- b\n')).toEqual({ problems: [{ line: 2, message: 'frontmatter is not a mapping of keys to values' }] });
  });

  it('gives the file offsets of a structured-slot `content:` value', () => {
    const block = 'id: s1\ntype: project\ncontent: Uses pnpm workspaces\npriority: 8\n';
    const file = '---\n' + block + '---\n';
    const r = yaml(block);
    expect(r.contentRange).toEqual([34, 54]);
    expect(file.slice(r.contentRange![0], r.contentRange![1])).toBe('Uses pnpm workspaces');
  });
});

describe('parseFrontmatter: TOML', () => {
  it('reads TOML and turns dates into ISO strings', () => {
    expect(parseFrontmatter('title = "x"\nwhen = 2026-03-02T10:00:00Z\n', 'toml', 4, 2)).toEqual({
      data: { title: 'x', when: '2026-03-02T10:00:00.000Z' },
      problems: [],
    });
  });
  it('reports a TOML error on its file line', () => {
    expect(parseFrontmatter('title = "x"\nok = 1\nbad = \n', 'toml', 4, 2).problems).toEqual([
      { line: 4, message: 'invalid TOML frontmatter: Invalid TOML document: invalid value' },
    ]);
  });
});

describe('frontmatter meta', () => {
  it('reads flat fields', () => {
    const fm = {
      name: 'n',
      description: 'd',
      type: 'feedback',
      modified: '2026-01-02',
      last_updated: '2026-01-03',
      valid_until: '2026-02-01',
      priority: 8,
      pinned: true,
      scope: 'repo',
    };
    expect(metaFromFrontmatter(fm)).toEqual({
      name: 'n',
      description: 'd',
      modified: '2026-01-02',
      lastUpdated: '2026-01-03',
      validUntil: '2026-02-01',
      priority: 8,
      pinned: true,
      scope: 'repo',
    });
    expect(frontmatterType(fm)).toBe('feedback');
  });

  it('reads fields nested under metadata:, flat ones first', () => {
    const fm = { name: 'flat', metadata: { name: 'nested', type: 'user', priority: '10', pinned: 'false', expires: '2027-01-01' } };
    expect(metaFromFrontmatter(fm)).toEqual({ name: 'flat', priority: 10, pinned: false, validUntil: '2027-01-01' });
    expect(frontmatterType(fm)).toBe('user');
    expect(field(fm, 'type')).toBe('user');
  });

  it('ignores unusable values', () => {
    expect(metaFromFrontmatter({ priority: 'high', pinned: 'maybe', name: { x: 1 } })).toEqual({});
    expect(frontmatterType({ type: 'banana' })).toBeUndefined();
    expect(frontmatterType(undefined)).toBeUndefined();
  });

  it('protected: true protects, flat or nested', () => {
    expect(frontmatterProtected({ protected: true })).toBe(true);
    expect(frontmatterProtected({ metadata: { protected: 'yes' } })).toBe(true);
    expect(frontmatterProtected({ protected: false })).toBe(false);
    expect(frontmatterProtected(undefined)).toBe(false);
  });
});
