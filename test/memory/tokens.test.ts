import { expect, test } from 'vitest';
import { countTokens, TOKENIZER } from '../../src/memory/tokens.js';

// Expected values are js-tiktoken cl100k_base counts (bpe.test.ts compares the two at large).
test('countTokens gives cl100k_base counts on memory-like text', () => {
  expect(TOKENIZER).toBe('cl100k_base');
  expect(countTokens('')).toBe(0);
  expect(countTokens('hello world')).toBe(2);
  expect(countTokens('# CLAUDE.md\r\n\r\n- Run `pnpm test` before pushing <!-- PROTECTED -->\n')).toBe(19);
  expect(countTokens('---\nname: x\ntype: project\n---\nÜnïcödé — “quotes” 日本語 🙂 <|endoftext|>\n')).toBe(32);
});
