// The pruning log is committed and rendered on GitHub: memory text in its table is neutralised
// (raw HTML, comment openers, @mentions) as in the pull request body, pipes escaped.
import { describe, expect, test } from 'vitest';
import { renderLogEntry } from '../../src/apply/log.js';
import type { Entry, PlanItem } from '../../src/types.js';

describe('pruning log table cells', () => {
  test('raw HTML, an HTML comment opener, an @mention and a pipe in memory text cannot change the rendered log', () => {
    const e = { id: 'e_1', file: 'CLAUDE.md', line: 3, endLine: 3, type: 'project', kind: 'item', text: '- Currently working on the <details> fix | step 2 @octocat <!-- x' } as unknown as Entry;
    const plan: PlanItem[] = [{ entryId: 'e_1', action: 'delete', rule: 1, reason: 'ephemeral: session-state' } as PlanItem];
    const log = renderLogEntry({ date: '2026-03-10', entries: [e], findings: [], plan, supersededFiles: [], foldCandidates: [] });
    const row = log.split('\n').find((l) => l.startsWith('| "'))!;
    expect(row).not.toMatch(/<details>|<!--|@octocat/);
    expect(row).toContain('&lt;details> fix \\| step 2 @\u200boctocat &lt;!-- x');
  });
});
