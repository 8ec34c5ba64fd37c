// Throughput of parse (no git, no I/O) on synthetic memory sets. Prints entries/s
// (`npx vitest run test/memory/throughput.test.ts`); asserts only a generous floor so that
// slow or loaded CI machines do not flake.
import { expect, test } from 'vitest';
import { parseMemoryText } from '../../src/memory/parse.js';

function claudeMd(entries: number, rich: boolean): string {
  const out: string[] = ['# Project', ''];
  for (let i = 0; i < entries; i++) {
    if (i % 20 === 0) out.push('', `## Area ${i / 20}`, '');
    if (i % 10 === 5) out.push('', `Paragraph ${i}: the service in \`src/area${i}/index.ts\` talks to [docs](docs/a${i}.md).`, '');
    else if (rich) out.push(`- *Always* run \`pnpm --filter web${i} test\` before touching _src/web${i}/app.ts_ (see #${i})`);
    else out.push(`- Run \`pnpm --filter web${i} test\` before touching src/web${i}/app.ts (see #${i})`);
  }
  return out.join('\n') + '\n';
}

function measure(label: string, run: () => number): number {
  const t = performance.now();
  const n = run();
  const ms = performance.now() - t;
  const rate = Math.round(n / (ms / 1000));
  console.log(`[memory-audit] parse ${label}: ${n} entries in ${ms.toFixed(0)} ms = ${rate} entries/s`);
  return rate;
}

test('parse throughput: 10,000-entry CLAUDE.md, 2,000-entry CLAUDE.md with emphasis, 2,000 topic files', () => {
  parseMemoryText('CLAUDE.md', claudeMd(300, false) + claudeMd(300, true), 'claude-md'); // warm up
  const plain = claudeMd(10_000, false);
  const rich = claudeMd(2_000, true);
  const topics: string[] = [];
  for (let i = 0; i < 2000; i++) {
    topics.push(`---\nname: topic-${i}\ndescription: Topic number ${i}\ntype: project\n---\n\nThe \`src/m${i}.ts\` module owns retries; see [notes](n${i}.md).\n`);
  }
  const r1 = measure('plain CLAUDE.md (fast path)', () => parseMemoryText('CLAUDE.md', plain, 'claude-md').entries.length);
  measure('CLAUDE.md with emphasis (micromark)', () => parseMemoryText('CLAUDE.md', rich, 'claude-md').entries.length);
  measure('topic files', () => {
    let n = 0;
    for (let i = 0; i < topics.length; i++) n += parseMemoryText(`.claude/memory/t${i}.md`, topics[i], 'auto-memory-topic').entries.length;
    return n;
  });
  expect(parseMemoryText('CLAUDE.md', plain, 'claude-md').entries.length).toBe(10_000);
  expect(r1).toBeGreaterThan(1000);
});
