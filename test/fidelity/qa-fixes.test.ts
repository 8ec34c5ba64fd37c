// Regression tests for bugs found by QA in the fidelity checks.
import { describe, expect, it } from 'vitest';
import { findDuplicates } from '../../src/checks/duplicate.js';
import { findEphemeral } from '../../src/checks/ephemeral.js';
import { corpusOf, isNearDuplicate, opposed } from '../../src/checks/fidelity/corpus.js';
import { context, parseFiles } from './helpers.js';

describe('duplicate: reversed decisions are not duplicates (QA 3)', () => {
  const pairs: Array<[string, string]> = [
    ['We use Jest for tests because it is the default.', 'We use Vitest, not Jest, because of ESM support.'],
    ['We decided to use Jest for unit tests, because it was the default.', 'We decided to use Vitest for unit tests, not Jest, because of ESM support.'],
    ['We decided to use Jest for unit tests, because it was the default.', 'We decided to use Vitest for unit tests instead of Jest, because of ESM support.'],
    ['We decided to use Jest for unit tests, because it was the default.', 'We no longer use Jest for unit tests; we decided on Vitest because of ESM support.'],
    ['We decided to use Jest for unit tests, because it was the default.', 'We replaced Jest with Vitest for unit tests, because of ESM support and speed.'],
    ['We decided to use Jest for unit tests, because it was the default.', 'We switched from Jest to Vitest for unit tests, because of ESM support and speed.'],
  ];
  for (const [older, newer] of pairs) {
    it(`keeps both: "${newer}"`, () => {
      const { files, entries } = parseFiles({ 'CLAUDE.md': `# Decisions\n\n- ${older}\n- ${newer}\n` });
      expect(findDuplicates(context(files, entries))).toEqual([]);
    });
  }

  it('tells reversal from agreement', () => {
    expect(opposed('we use jest for tests', 'we use vitest not jest')).toBe(true);
    expect(opposed('we switched from jest to vitest', 'use jest for unit tests')).toBe(true);
    // both turn away from npm: they agree
    expect(opposed('always use pnpm never npm', 'use pnpm not npm')).toBe(false);
    expect(opposed('do not commit env files', 'never commit env files or secrets')).toBe(false);
  });

  it('still finds copies that agree, reworded or not', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md':
        '# Tooling\n\n- Use pnpm, not npm: npm rewrites the lockfile and breaks the workspace links between packages.\n- Use pnpm here, not npm, because npm rewrites the lockfile and breaks the workspace links between packages.\n',
    });
    expect(findDuplicates(context(files, entries)).map((f) => f.kind)).toEqual(['duplicate']);
  });

  it('needs enough shared content words for a reworded match', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md': '# Decisions\n\n- We decided to use Jest for unit tests, because it was the default.\n- We decided to use Vitest for unit tests, because of ESM support.\n',
    });
    const c = corpusOf(entries, files);
    expect(c.near.filter((p) => isNearDuplicate(p, c))).toEqual([]);
  });

  it('an auto-memory note that reverses CLAUDE.md is not a copy of it', () => {
    const { files, entries } = parseFiles({
      'CLAUDE.md': '# Testing\n\n- We decided to use Jest for unit tests, because it was the default.\n',
      'mem/MEMORY.md': '- [Tests](tests.md) — runner\n',
      'mem/tests.md': '---\nname: tests\ndescription: runner\ntype: project\n---\n\nWe decided to use Vitest for unit tests, not Jest, because of ESM support.\n',
    });
    expect(findEphemeral(context(files, entries)).filter((f) => f.evidence?.filter === 'claude-md-copy')).toEqual([]);
  });
});
