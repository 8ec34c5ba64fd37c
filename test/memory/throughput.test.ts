// Throughput of parse (no git, no I/O) on a synthetic 10,000-entry memory set.
// Prints entries/s; asserts only a generous floor so that slow CI machines do not flake.
import { expect, test } from 'vitest';
import { parseMemoryText } from '../../src/memory/parse.js';

function claudeMd(entries: number): string {
  const out: string[] = ['# Project', ''];
  for (let i = 0; i < entries; i++) {
    if (i % 20 === 0) out.push('', `## Area ${i / 20}`, '');
    if (i % 10 === 5) out.push('', `Paragraph ${i}: the service in \`src/area${i}/index.ts\` talks to [docs](docs/a${i}.md).`, '');
    else out.push(`- Run \`pnpm --filter web${i} test\` before touching src/web${i}/app.ts (see #${i})`);
  }
  return out.join('\n') + '\n';
}

test('parse throughput on a 10,000-entry CLAUDE.md and on 2,000 topic files', () => {
  const text = claudeMd(10_000);
  parseMemoryText('CLAUDE.md', claudeMd(200), 'claude-md'); // warm up
  let t = performance.now();
  const { entries } = parseMemoryText('CLAUDE.md', text, 'claude-md');
  let ms = performance.now() - t;
  expect(entries.length).toBe(10_000);
  const rate = Math.round(entries.length / (ms / 1000));
  console.log(`[memory-audit] parse: ${entries.length} entries (${text.length} chars, one file) in ${ms.toFixed(0)} ms = ${rate} entries/s`);

  const topics: string[] = [];
  for (let i = 0; i < 2000; i++) {
    topics.push(`---\nname: topic-${i}\ndescription: Topic number ${i}\ntype: project\n---\n\nThe \`src/m${i}.ts\` module owns retries; see [notes](n${i}.md).\n`);
  }
  t = performance.now();
  let n = 0;
  for (let i = 0; i < topics.length; i++) n += parseMemoryText(`.claude/memory/t${i}.md`, topics[i], 'auto-memory-topic').entries.length;
  ms = performance.now() - t;
  console.log(`[memory-audit] parse: ${n} topic files in ${ms.toFixed(0)} ms = ${Math.round(n / (ms / 1000))} files/s`);
  expect(rate).toBeGreaterThan(1000);
});
