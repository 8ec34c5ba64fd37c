// Differential test of the fast frontmatter path: whenever fastYaml accepts a block, `yaml`
// (the parser it stands in for) must give exactly the same data, key order included, and no
// error; parseFrontmatter must give the same result either way.
import { describe, expect, it } from 'vitest';
import { rng } from '../rng.js';
import { parseDocument } from 'yaml';
import { fastYaml, parseFrontmatter } from '../../src/memory/frontmatter.js';

const KEYS = ['name', 'description', 'type', 'priority', 'pinned', 'modified', 'last_updated', 'valid_until', 'scope', 'id', 'tags', 'a-b', '_x', 'content', 'true', 'Null', 'x1', 'alwaysApply', 'globs'];
const VALUES = [
  '', 'x', 'hello world', 'Static listener and queue pointers', '12', '+12', '-0', '007', '0o17', '0x1F', '0x', '1.5', '1.50', '.5', '5.', '1e3', '-2.5E-3', '1_000',
  '.inf', '-.Inf', '+.INF', '.nan', '.NaN', 'null', 'Null', 'NULL', 'nul', '~', 'true', 'True', 'TRUE', 'tRue', 'False', 'false', 'yes', 'no', 'on',
  '2026-03-02', '2026-04-01T00:00:00Z', '2026-04-01 10:00', '1.2.3', 'v1.2', '"quoted"', '""', "''", "'single'", '"esc\\n"', "'it''s'", '"a" b',
  'a "b"', 'a: b', 'a:b', 'a #c', 'a#b', '#x', '- x', '-x', '-', '? x', '?x', ':x', '[a, b]', '{a: 1}', 'a [b]', '*.ts', '*.ts,*.tsx', '&a x', '!t x', '|', '>',
  '@x', '`x`', '%x', 'é unicode ✓ 日本', 'trailing   ', 'x:', 'a , b', 'a\\b', 'tab\there', 'http://x.y/z?a=1', 'a: ', "it's", 'say "hi"', '\u2028x', '\ufeffx',
];

function genDoc(r: () => number): string {
  const lines: string[] = [];
  const n = 1 + Math.floor(r() * 6);
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)];
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.06) lines.push('# a comment');
    else if (x < 0.1) lines.push('');
    else if (x < 0.12) lines.push(pick(['- item', '---', '...', '  # indented comment', 'key : v', '"q": v', '? k', '%YAML 1.2', '<<: *a']));
    else if (x < 0.25) {
      lines.push(`${pick(['metadata', 'meta', ...KEYS])}:${pick(['', ' ', '  '])}`);
      const ind = pick(['  ', '  ', '    ', ' ', '\t']);
      const m = Math.floor(r() * 4);
      for (let j = 0; j < m; j++) {
        const y = r();
        if (y < 0.1) lines.push(ind + '  deeper: 1');
        else if (y < 0.15) lines.push(ind + '- li');
        else if (y < 0.2) lines.push('');
        else lines.push(`${r() < 0.1 ? ind + ' ' : ind}${pick(KEYS)}:${pick([' ', '  ', ''])}${pick(VALUES)}`);
      }
    } else if (x < 0.28) lines.push('  continued line');
    else lines.push(`${pick(KEYS)}:${pick([' ', ' ', '  ', ''])}${pick(VALUES)}`);
  }
  let doc = lines.join('\n') + (r() < 0.8 ? '\n' : '');
  if (r() < 0.15) doc = doc.replace(/\n/g, '\r\n');
  return doc;
}

/** JSON with key order, NaN, infinities and -0 kept apart. */
function canon(v: unknown): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : Number.isNaN(v) ? 'NaN' : String(v);
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'undefined';
  if (Array.isArray(v)) return '[' + v.map(canon).join(',') + ']';
  return '{' + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ':' + canon(x)).join(',') + '}';
}

describe('fastYaml', () => {
  it('gives exactly what yaml gives on every block it accepts (20,000 random blocks)', () => {
    const r = rng(7);
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const doc = genDoc(r);
      const fast = fastYaml(doc);
      if (!fast) continue;
      accepted++;
      const ydoc = parseDocument(doc, { uniqueKeys: false });
      if (ydoc.errors.length > 0) throw new Error(`fast path accepted invalid YAML:\n${doc}`);
      const js = ydoc.toJS() ?? {};
      if (canon(fast) !== canon(js)) throw new Error(`mismatch on\n${JSON.stringify(doc)}\nfast ${canon(fast)}\nyaml ${canon(js)}`);
    }
    expect(accepted).toBeGreaterThan(2000);
  });

  it('takes the shapes memory is written in', () => {
    const blocks = [
      'name: account-audit-236\ndescription: Static listener and queue pointers\ntype: project\n',
      'name: x\nmetadata:\n  type: decision\n  priority: 8\n  pinned: true\n  last_updated: 2026-01-05\n',
      'description: "Rules: for TS"\nalwaysApply: false\n',
      'id: db-choice\r\ntype: decision\r\nvalid_until: 2026-06-30\r\n',
    ];
    for (const b of blocks) {
      expect(fastYaml(b)).toBeDefined();
      expect(canon(fastYaml(b))).toBe(canon(parseDocument(b).toJS()));
    }
  });

  it('agrees with yaml on comments and blank lines around nested maps, and on odd scalars', () => {
    const docs = [
      'm:\n  a: 1\n# c\n  b: 2\n', 'm:\n# c\n  a: 1\n', 'm:\n\n  a: 1\n\nn: 2\n', 'm:\n  # c\n  a: 1\n', 'm:\n  a:\n  b: 2\n',
      'a: 1\n  # indented comment\nb: 2\n', 'm:\n  a: 1\n    # deeper comment\n  b: 2\n', 'm:   \n  a: 1\n', '# only\n', 'm:\n', 'm:\nn:\n',
      'k: ---\n', 'k: <<\n', 'k: 12:30\n', 'k: 0b101\n', 'k: +.5\n', 'k: -.5e3\n', 'k: 09\n', 'k: 1.e5\n', 'k: C:\\x\n', 'k: x\u00a0\n', 'k: null x\n',
    ];
    for (const d of docs) {
      const fast = fastYaml(d);
      if (fast) expect(canon(fast), JSON.stringify(d)).toBe(canon(parseDocument(d, { uniqueKeys: false }).toJS() ?? {}));
    }
  });

  it('leaves lists, block scalars, aliases, flow collections and content slots to yaml', () => {
    for (const b of ['paths:\n  - a\n', 'd: |\n  x\n', 'globs: *.ts\n', 'tags: [a, b]\n', 'content: x\n', 'a: b: c\n', 'a: 1\na: 2\n', '  a: 1\n']) {
      expect(fastYaml(b)).toBeUndefined();
    }
    // ... and parseFrontmatter still answers the same way for them
    expect(parseFrontmatter('paths:\n  - a\n', 'yaml', 4, 2).data).toEqual({ paths: ['a'] });
    expect(parseFrontmatter('content: x\n', 'yaml', 4, 2).contentRange).toEqual([13, 14]);
  });

  it('Cursor rules: valid YAML reads the same, and only unquoted globs get past a YAML error (20,000 random blocks)', () => {
    const r = rng(11);
    let lenient = 0;
    for (let i = 0; i < 20_000; i++) {
      const doc = genDoc(r);
      const plain = parseFrontmatter(doc, 'yaml', 4, 2);
      const cursor = parseFrontmatter(doc, 'yaml', 4, 2, true);
      const at = JSON.stringify(doc);
      if (plain.data) {
        // The fast path or yaml read it: Cursor mode gives the same data, at most adding the alwaysApply problem.
        expect(canon(cursor.data), at).toBe(canon(plain.data));
        expect(cursor.lenient, at).toBeUndefined();
        for (const p of cursor.problems) expect(p.message, at).toMatch(/^invalid Cursor rule frontmatter: alwaysApply /);
        continue;
      }
      if (!cursor.data) {
        expect(cursor.problems.length, at).toBeGreaterThan(0);
        continue;
      }
      // Read only thanks to the quirk: there is a bare top-level `globs:` line, and quoting its
      // value is all it takes for yaml.
      lenient++;
      expect(cursor.lenient, at).toBe(true);
      expect(doc, at).toMatch(/^globs[ \t]*:[ \t]+[^ \t\r\n"'[{|>#]/m);
      const g = cursor.data.globs;
      expect(typeof g, at).toBe('string');
    }
    expect(lenient).toBeGreaterThan(50);
  });
});
