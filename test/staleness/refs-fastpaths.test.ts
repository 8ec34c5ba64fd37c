// Differential tests for the issue scan of reference extraction (shared expressions, sentence
// ends by character code): compared with the former version on random and adversarial texts.
import { describe, expect, it } from 'vitest';
import { scanProse, type ProseHit } from '../../src/memory/refs/prose.js';
import { rng } from '../rng.js';

/** The former issue scan's sentence: stops at [.!?\n], at most 160 characters each side. */
function sentenceReference(text: string, s: number, e: number): string {
  let a = s;
  while (a > 0 && !/[.!?\n]/.test(text[a - 1]) && s - a < 160) a--;
  let b = e;
  while (b < text.length && !/[.!?\n]/.test(text[b]) && b - e < 160) b++;
  return text.slice(a, b);
}

const OPEN_WORDS =
  /\b(?:open|opened|in[- ]progress|wip|pending|blocked|blocking|being worked on|working on|work in progress|todo|to-do|tracking|tracked in|awaiting|waiting (?:on|for)|not yet (?:merged|fixed|resolved|done)|unresolved|ongoing|draft|under review|needs review|in review|until .{0,20}(?:merged|fixed|lands|resolved)|once .{0,30}(?:merged|fixed|lands|resolved)|upcoming|planned)\b/i;
const CLOSED_WORDS = /\b(?:closed|fixed|merged|resolved|landed|done|shipped|completed|reverted)\b/i;

/** The former scanIssues (fresh expressions at every call). */
function issuesReference(text: string): ProseHit[] {
  const out: ProseHit[] = [];
  if (!/\d/.test(text)) return out;
  const push = (s: number, e: number, n: number, kind: ProseHit['issueKind'], repo?: string) => {
    const rest = sentenceReference(text, s, e).replace(text.slice(s, e), ' ');
    const open = OPEN_WORDS.test(rest) && !CLOSED_WORDS.test(rest);
    out.push({ kind: 'issue', start: s, end: e, raw: text.slice(s, e), value: `${repo ? repo : ''}#${n}`, number: n, issueKind: kind, repo, describedOpen: open });
  };
  let m: RegExpExecArray | null;
  const url = /https?:\/\/github\.com\/([\w.-]+\/[\w.-]+)\/(issues|pull)\/(\d+)\b/g;
  const taken: Array<[number, number]> = [];
  if (text.includes('github.com/')) while ((m = url.exec(text))) {
    push(m.index, m.index + m[0].length, Number(m[3]), m[2] === 'pull' ? 'pr' : 'issue', m[1]);
    taken.push([m.index, m.index + m[0].length]);
  }
  const inTaken = (i: number) => taken.some(([a, b]) => i >= a && i < b);
  const words = /(?<![\w#&/.-])(?:(PRs?|pull requests?|issues?|bugs?|tickets?)\s+)?(?:([\w.-]+\/[\w.-]+))?#(\d{1,6})\b/gi;
  if (text.includes('#')) while ((m = words.exec(text))) {
    if (inTaken(m.index)) continue;
    const hashAt = m.index + m[0].lastIndexOf('#');
    const before = text[hashAt - 1];
    if (before && !m[2] && /[\w&/]/.test(before)) continue;
    const after = text[hashAt + 1 + m[3].length];
    if (after && /[\w-]/.test(after)) continue;
    const w = (m[1] || '').toLowerCase();
    push(m.index, m.index + m[0].length, Number(m[3]), w.startsWith('p') ? 'pr' : w ? 'issue' : 'unknown', m[2]);
  }
  const spelled = /\b(PR|pull request|issue)\s+(\d{1,6})\b/gi;
  if (/\s\d/.test(text)) while ((m = spelled.exec(text))) {
    if (inTaken(m.index)) continue;
    push(m.index, m.index + m[0].length, Number(m[2]), m[1].toLowerCase() === 'issue' ? 'issue' : 'pr');
  }
  return out;
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

// Digits, every kind of whitespace (ASCII and Unicode), sentence ends, surrogates, words.
const PIECES = [
  '0', '1', '7', '42', '+', '++', ' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u200a', '\u200b', '\u2028',
  '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u0085', 'a', 'files', ' hooks', '.', '!', '?', '—', '😀', '\ud800', '<!--', '-->',
  '#', '#12', 'PR ', 'issue ', 'pull request ', 'bugs ', 'org/repo', 'https://github.com/o/r/issues/', 'pull/', '&', '/', '-', '_',
  ' open', ' fixed', ' merged', ' until it is merged', ' wip', 'x'.repeat(170),
];

function randomText(r: () => number): string {
  let s = '';
  const n = Math.floor(r() * 24);
  for (let i = 0; i < n; i++) s += pick(r, PIECES);
  return s;
}

describe('scanProse issues (shared expressions, sentence by character codes)', () => {
  it('finds the same issues as the former scan, call after call', () => {
    const r = rng(0x1550e5);
    let found = 0;
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(r);
      const want = issuesReference(text);
      const got = scanProse(text).filter((h) => h.kind === 'issue');
      expect(got, JSON.stringify(text)).toEqual(want);
      found += want.length;
    }
    expect(found).toBeGreaterThan(1_000);
  });
});
