import { describe, expect, it } from 'vitest';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import type { Root } from 'mdast';
import { fastBlocks } from '../../src/memory/fastblocks.js';

// The same processor configuration as parse.ts.
const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml', 'toml']).use(remarkGfm).freeze();
const remark = (text: string) => JSON.parse(JSON.stringify((processor.parse(text) as Root).children));
const fast = (text: string) => {
  const r = fastBlocks(text);
  return r === undefined ? undefined : JSON.parse(JSON.stringify(r));
};

/** Deterministic pseudo-random numbers (mulberry32). */
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

const WORDS = [
  'alpha', 'Use', 'pnpm', 'snake_case_name', 'src/a.ts', '2024', 'é', '—', '#', '(', ')', '!', ':', 'x.y', '`unclosed', '🎉',
  '`code`', '`` a`b ``', '` sp `', '``', '`unclosed', '[t](u.md)', '[`c`](d/e.md)', '[T x](a/b%20c.md)', '[t]', ']', '[',
  '![i](p.png)', 'x@y.com', '@docs/a.md', 'www.x.com', 'https://e.com', '*em*', '**b**', '_u_', 'a_b', '__init__', '&amp;',
  '\\*', '<br>', '~~s~~', '|', '[^1]', 'a & b', '<= c', '`*.ts`', 'C:\\Users', '**x:**', '**`y`**', '(**z**)', 'a**b**', '** c', '&copy;', '[a](b(c))', '[a](<x>)', '[a]( x)', '[](x)', '[a]()', "it's", '"q"', '--', '+',
];
const LINES = [
  (t: string) => '# ' + t, (t: string) => '## ' + t, (t: string) => '###### ' + t, (t: string) => '####### ' + t,
  (t: string) => '- ' + t, (t: string) => '* ' + t, (t: string) => '+ ' + t, (t: string) => '1. ' + t, (t: string) => '2) ' + t,
  (t: string) => '10. ' + t, (t: string) => t, (t: string) => t, (t: string) => '      ' + t, (t: string) => '  ' + t, (t: string) => '   ' + t,
  () => '', () => '', () => '---', () => '***', (t: string) => '> ' + t, () => '```', (t: string) => '- [ ] ' + t, () => '<!-- x -->', () => '<!-- PROTECTED -->', () => '<!-- a', () => 'b -->', () => '<!-->',
  (t: string) => '  - ' + t, (t: string) => '  1. ' + t, (t: string) => '   - ' + t, (t: string) => '    - ' + t, (t: string) => '     * ' + t,
  () => '  ```', () => '  ```sh', () => '   ```', () => '    ```', () => '```sh', () => '~~~', () => '````', () => '```js meta x', () => '  ```', () => '    code', () => '===', () => 'a | b', () => '|-|-|', () => '| x | y |', () => '|---|:-:|', () => '-|-', (t: string) => '| ' + t + ' |', (t: string) => t + ' | ' + t, () => '[x]: ./y.md', (t: string) => t + '  ', (t: string) => '-\t' + t,
  (t: string) => '-  ' + t, () => '- ', () => '#', (t: string) => '# ' + t + ' #', (t: string) => '- # ' + t, (t: string) => '- - ' + t,
];

function doc(r: () => number): string {
  const fm = r() < 0.15 ? (r() < 0.5 ? '---\nname: x\ntype: y\n---\n' : r() < 0.5 ? '---\n---\n' : '+++\na = 1\n+++\n') : '';
  return fm + body(r);
}

function body(r: () => number): string {
  const eol = r() < 0.3 ? '\r\n' : '\n';
  const n = 1 + Math.floor(r() * 8);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const words: string[] = [];
    const m = 1 + Math.floor(r() * 5);
    // Mostly simple words, so that a good share of documents is in the fast subset.
    for (let j = 0; j < m; j++) words.push(r() < 0.8 ? WORDS[Math.floor(r() * 16)] : WORDS[Math.floor(r() * WORDS.length)]);
    const kind = r() < 0.75 ? LINES[Math.floor(r() * 13)] : LINES[Math.floor(r() * LINES.length)];
    lines.push(kind(words.join(' ')));
  }
  return lines.join(eol) + (r() < 0.7 ? eol : '');
}

describe('fastBlocks', () => {
  it('builds exactly the mdast remark builds, or declines (differential, 1500 random documents)', () => {
    const r = rng(20261129);
    let accepted = 0;
    for (let k = 0; k < 1500; k++) {
      const text = doc(r);
      const f = fast(text);
      if (f === undefined) continue;
      accepted++;
      expect(f, JSON.stringify(text)).toEqual(remark(text));
    }
    // The subset must actually be used, not declined wholesale.
    console.log(`fastBlocks accepted ${accepted} of 1500 random documents`);
    expect(accepted).toBeGreaterThan(200);
  });

  it('handles typical memory files on the fast path, exactly', () => {
    const samples = [
      '# Project\n\nUse `pnpm test` before pushing.\nWrapped line of the same paragraph.\n\n## Commands\n\n- `pnpm build` builds [the CLI](src/cli.ts)\n- `pnpm lint` — runs the linter\n  on all packages\n\n1. First step\n2. Second step\n',
      '- [Auth flow](auth-flow.md) — how sessions work\n- [DB choice](db_choice.md) — why Postgres\n',
      '# T\r\n\r\n- one `c`\r\n- two\r\n\r\nText with snake_case_name and a_b.\r\n',
      '## Gotchas\n\n- Jest hangs on open handles; pass `--forceExit`\n- The `` a`b `` span and ` padded ` span\n',
      'No final newline',
      'a | b\n--|--\n| x |\n',
      '**Fix Issue (GitHub):**\n1. User: comments on issue 42\n2. Clone repo if needed\n',
      '| Command | What |\n| --- | :-: |\n| `pnpm build` | builds  x |\n|a|\n\na | b\n-|-:\nc | **d**\n',
      '<!-- PROTECTED -->\n- a\n<!-- protected: keep -->\ntext\n<!--\nmulti\nline --> tail\n- b\n',
      '---\nname: x\ntype: project\n---\n\nBody `x`.\n', '+++\ntitle = 1\n+++\n# H\n', '---\n---\n', '---\r\na: 1\r\n\r\nb: *x\r\n---\r\n- i\r\n',
      '**Location:** `AGENTS.md` at **root**. a & b <= c, C:\\Users, `*.ts`\n- **Build**: `pnpm build`\n',
      '- a\n  - b `c`\n    wrapped\n    - deep\n  1. one\n  1. two\n- e\n  ```sh\n  npm test\n   more\n  ```\n  - after\n1. x\n   - y\n',
      'Run:\n```bash\npnpm test\n  indented\n\n```\n~~~\n~~~\n````md title\n```\n````\n',
    ];
    for (const text of samples) {
      const f = fast(text);
      expect(f, JSON.stringify(text)).not.toBeUndefined();
      expect(f).toEqual(remark(text));
    }
  });

  it('declines what it does not support', () => {
    for (const text of [
      '*em*\n', '***x***\n', 'a**b**c\n', '** x**\n', '[**x**](y)\n', '**a **b** c**\n', '_em_\n', 'a \\* b\n', '&amp;\n', '<br>\n', '<!-- PROTECTED\n- a\n', '<!-->\n', '<!--->\n', 'a <!-- x -->\n', '  <!-- x -->\n', 'see https://x.y\n',
      'www.x.com\n', 'mail me@x.com\n', '- [ ] task\n', '- a\n\n- b\n', '- a\n  2. b\n', '- a\n   - b\n', '- a\n  ```\n\n  ```\n', '> quote\n', '```sh\nnpm\n', '```\nx\n  ```\n', '```a`b\nx\n```\n',
      '    code\n', '| a | b |\n|---|---|\n| `x|y` | z |\n', '| a |\n|---|\n| b | c |\n', '| a |\n|---|\n||\n', 'Title\n===\n', 'Title\n---\n', '[x]: ./y.md\n', 'trailing  \n', 'tab\there\n',
      '---\nname: x\n', '---  \nname: x\n---\n', '---\n\n---\n', 'x\n---\nname: x\n---\n', 'a `x\nb` c\n', '- a `x\n  b` c\n', '![img](a.png)\n', '[ref]\n', '[a](b(c))\n', '~~s~~\n', '# closed #\n', 'text\n2. not a list\n',
    ]) {
      expect(fastBlocks(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('matches remark or declines on garbage (NUL, BOM, bare CR, odd whitespace), and on deep nesting', () => {
    const PIECES = [
      '---', '+++', '\n', '\r\n', '\r', ' ', '\t', '- ', '1. ', '> ', '# ', '```', '~~~', '|', '<!--', '-->', '<div>', '[', ']', '(',
      ')', '`', '*', '_', '\\', '&amp;', '&#0;', '\u0000', '\uFEFF', '\u2028', '🙂', 'name: x', 'type: [', ': ', '[x]: y', '[^1]',
      '![a](b)', 'https://x.y', 'a@b.c', '[[wiki]]', '@import', 'text', '    ', '===', '***', '<!-- PROTECTED -->', '{{', '%',
      '\u000b', '\f', '\u00a0', '\u0085',
    ];
    const r = rng(99);
    let accepted = 0;
    for (let d = 0; d < 2500; d++) {
      let t = '';
      const n = Math.floor(r() * 30);
      for (let i = 0; i < n; i++) t += PIECES[Math.floor(r() * PIECES.length)];
      const f = fast(t);
      if (f === undefined) continue;
      accepted++;
      expect(f, JSON.stringify(t)).toEqual(remark(t));
    }
    expect(accepted).toBeGreaterThan(50);
    expect(fastBlocks('\uFEFFtext\n')).toBeUndefined();
    expect(fastBlocks('a\u0000b\n')).toBeUndefined();
    const deep = Array.from({ length: 3000 }, (_, i) => ' '.repeat(2 * i) + '- x').join('\n') + '\n';
    expect(fastBlocks(deep)).toBeUndefined();
  });

  it('parses a region with absolute offsets and lines', () => {
    const text = 'head\n\n- a `b`\n- c\n';
    const region = fastBlocks(text, 6, text.length, 3);
    expect(JSON.parse(JSON.stringify(region))).toEqual(remark(text).slice(1));
  });

  it('takes a 10,000-entry file on the fast path, in linear time', () => {
    let s = '# Title\n';
    for (let i = 0; i < 10000; i++) {
      if (i % 50 === 0) s += `\n## Section ${i}\n\n`;
      s += `- Use \`pnpm test:${i}\` to run tests in [packages/core](packages/core/src/file${i}.ts); never edit dist/ by hand.\n`;
    }
    const t0 = performance.now();
    const nodes = fastBlocks(s);
    const ms = performance.now() - t0;
    expect(nodes).not.toBeUndefined();
    const items = nodes!.filter((n) => n.type === 'list').reduce((a, l) => a + (l.type === 'list' ? l.children.length : 0), 0);
    expect(items).toBe(10000);
    // Generous: only a quadratic regression could reach it (typical: ~100 ms on an idle machine).
    console.log(`fastBlocks: 10,000 items in ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(5000);
  });
});
