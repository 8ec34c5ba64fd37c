// Token counts for memory files. Claude's tokenizer is not public, so memory-audit counts
// with OpenAI's cl100k_base BPE (the ranks shipped by js-tiktoken) as a proxy: a byte-level
// BPE of the same family, close on English prose and code, deterministic across runs.
// Counting goes through ./bpe.ts, which runs the same ranks, split pattern and merge rule as
// js-tiktoken (identical counts, tested) but builds its table ~7x faster, which matters for
// the Action's cold start. See docs/memory.md.
import { countTokensFast } from './bpe.js';

/** Name of the proxy encoding, for reports and documentation. */
export const TOKENIZER = 'cl100k_base';

/**
 * Number of tokens in `text` (cl100k_base proxy). Special-token look-alikes such as
 * `<|endoftext|>` are counted as plain text, never rejected. The rank table is built once,
 * on first use.
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return countTokensFast(text);
}
