// The pruning log, the health list and PR bodies name each entry by a one-line summary: emphasis
// markers go, code stays exactly as written (snake_case file names, globs) — QA round 12 saw
// `accounts_test.exs` become `accountstest.exs` in a pruning log.
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/policy/signals.js';

const item = (text: string, kind: 'item' | 'code' | 'paragraph' = 'item') => summarize({ text, kind, meta: {} });

describe('entry summaries', () => {
  it('keep code as written and drop emphasis markers', () => {
    expect(item('```bash\nmix test test/tuist/accounts_test.exs\nmix test test/tuist_web/live/x_live_test.exs\n```', 'code')).toBe('mix test test/tuist/accounts_test.exs');
    expect(item('- Run `mix test test/tuist/accounts_test.exs` before **every** push.')).toBe('Run mix test test/tuist/accounts_test.exs before every push.');
    expect(item('- Lint `**/*.ts` with _strict_ rules; see my_module and `__init__.py`.')).toBe('Lint **/*.ts with strict rules; see my_module and __init__.py.');
    // outside code, `__init__` is bold "init" to a markdown reader too
    expect(item('- Keep __init__ files small.')).toBe('Keep init files small.');
    expect(item('- *Never* commit `.env`; __always__ rotate keys.')).toBe('Never commit .env; always rotate keys.');
    expect(item('- See [the guide](docs/guide.md) for 2 * 3 = 6.')).toBe('See the guide for 2 * 3 = 6.');
  });
});
