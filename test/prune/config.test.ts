// .memory-audit.yml: defaults, merging, and errors that name file:line:column and the key.
import { afterAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { DEFAULT_CONFIG } from '../../src/config/defaults.js';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanup, tempDir } from './helpers.js';

/** loadConfig needs no git: a plain temp folder. */
async function makeRepo(): Promise<{ dir: string; write(f: string, t: string): Promise<void> }> {
  const dir = await tempDir();
  return { dir, write: (f, t) => writeFile(path.join(dir, f), t) };
}

afterAll(cleanup);

async function load(text: string, name = '.memory-audit.yml') {
  const repo = await makeRepo();
  await repo.write(name, text);
  return loadConfig(repo.dir);
}

async function error(text: string): Promise<string> {
  try {
    await load(text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('no error');
}

describe('loadConfig', () => {
  test('no file: the defaults (a copy)', async () => {
    const repo = await makeRepo();
    const c = await loadConfig(repo.dir);
    expect(c).toEqual(DEFAULT_CONFIG);
    expect(c).not.toBe(DEFAULT_CONFIG);
  });

  test('merges over the defaults: mappings key by key, lists replace', async () => {
    const c = await load(
      [
        'memory: .claude/memory',
        'protect: ["deploy"]',
        'rules:',
        '  "7": false',
        'scoring:',
        '  weights: { priority: 0.5 }',
        '  threshold: 0.25',
        'budgets:',
        '  files:',
        '    "CLAUDE.md": { lines: 150 }',
        'accessLog: .memory-audit/access.jsonl',
        'now: 2026-03-10',
        '',
      ].join('\n'),
    );
    expect(c.memory).toEqual(['.claude/memory']);
    expect(c.protect).toEqual(['deploy']);
    expect(c.rules).toEqual({ ...DEFAULT_CONFIG.rules, '7': false });
    expect(c.scoring).toEqual({ ...DEFAULT_CONFIG.scoring, weights: { priority: 0.5, recency: 0.3, frequency: 0.3 }, threshold: 0.25 });
    expect(c.budgets.files).toEqual({ 'CLAUDE.md': { lines: 150 } });
    expect(c.budgets.memoryIndex).toEqual(DEFAULT_CONFIG.budgets.memoryIndex);
    expect(c.accessLog).toBe('.memory-audit/access.jsonl');
    expect(c.now).toBe('2026-03-10');
  });

  test('.memory-audit.yaml is read too; an empty file is the defaults', async () => {
    expect((await load('log: logs/prune.md\n', '.memory-audit.yaml')).log).toBe('logs/prune.md');
    expect(await load('')).toEqual(DEFAULT_CONFIG);
  });

  test('an unknown key names the file, line, column and key, with a suggestion', async () => {
    expect(await error('scoring:\n  wieghts:\n    priority: 1\n')).toBe(
      '.memory-audit.yml:2:3: scoring.wieghts: unknown key; did you mean "weights"?',
    );
    expect(await error('rules:\n  "9": true\n')).toBe('.memory-audit.yml:2:3: rules.9: unknown key: expected a rule number 1..7');
    expect(await error('checks:\n  secrets: false\n')).toMatch(
      /^\.memory-audit\.yml:2:3: checks\.secrets: unknown key: expected a check id \(.*\bsecret\b.*\); did you mean "secret"\?$/,
    );
    expect((await load('checks:\n  count: false\nfilters:\n  tone: false\n')).checks).toEqual({ count: false });
  });

  test('wrong types, bad regular expressions and bad dates are errors; all are listed', async () => {
    expect(await error('maxFileBytes: lots\nprotect:\n  - "(unclosed"\nnow: someday\nrules:\n  "1": yes please\n')).toBe(
      [
        '.memory-audit.yml:1:15: maxFileBytes: expected a whole number, got the string "lots"',
        '.memory-audit.yml:3:5: protect[0]: invalid regular expression: Invalid regular expression: /(unclosed/i: Unterminated group',
        '.memory-audit.yml:4:6: now: expected an ISO date such as 2026-03-01 or 2026-03-01T12:00:00Z, got "someday"',
        '.memory-audit.yml:6:8: rules.1: expected true or false, got the string "yes please"',
      ].join('\n'),
    );
    expect(await error('counts:\n  - glob: "skills/**"\n')).toBe('.memory-audit.yml:2:5: counts[0]: missing required key "pattern"');
    expect(await error('scoring:\n  threshold: 2\n')).toBe('.memory-audit.yml:2:14: scoring.threshold: must be at most 1, got 2');
  });

  test('YAML syntax errors and a missing explicit file', async () => {
    expect(await error('rules: [1, 2\n')).toMatch(/^\.memory-audit\.yml:\d+:\d+: YAML syntax error: /);
    const repo = await makeRepo();
    await expect(loadConfig(repo.dir, 'nope.yml')).rejects.toThrow('nope.yml: cannot read configuration file (ENOENT)');
  });
});
