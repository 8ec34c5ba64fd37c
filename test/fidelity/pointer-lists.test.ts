// QA 6 (llama.cpp AGENTS.md): an index item listing file names is not a near duplicate of a rule
// that names the same files for another reason; the same list twice still is.
import { afterAll, describe, expect, test } from 'vitest';
import { findDuplicates } from '../../src/checks/duplicate.js';
import { runPrune } from '../../src/commands/prune.js';
import { cleanup, config, makeRepo, NOW } from '../prune/helpers.js';
import { context, parseFiles } from './helpers.js';

afterAll(cleanup);

const dups = (input: Record<string, string>) => {
  const { files, entries } = parseFiles(input);
  return findDuplicates(context(files, entries)).map((f) => [f.file, f.line, f.evidence?.file, f.evidence?.line]);
};

const MEMORY = [
  '## 5) iFairy / LUT Special Rules (global summary only)',
  '',
  '- If adding/changing iFairy LUT env knobs or routing, update the V2 docs (do not modify the legacy `IFAIRY_ARM_3W_LUT_*.md` series):',
  '  - `IFAIRY_ARM_3W_LUT_V2_REFACTOR_PLAN.md`',
  '  - `IFAIRY_ARM_3W_LUT_V2_LUT_C_INTEGRATION_PLAN.md`',
  '  - `IFAIRY_ARM_3W_LUT_V2_STATUS.md`',
  '',
  'Detailed iFairy rules live in:',
  '- `ggml/src/ggml-cpu/AGENTS.md`',
  '- V2 docs: `IFAIRY_ARM_3W_LUT_V2_REFACTOR_PLAN.md`, `IFAIRY_ARM_3W_LUT_V2_LUT_C_INTEGRATION_PLAN.md`, `IFAIRY_ARM_3W_LUT_V2_STATUS.md`',
  '- Legacy reference docs (do not edit): `IFAIRY_ARM_3W_LUT_DESIGN.md`',
  '',
].join('\n');

describe('pointer lists', () => {
  test('an index item and a rule that share only file names are not duplicates; prune keeps both', async () => {
    expect(dups({ 'AGENTS.md': MEMORY })).toEqual([]);
    const repo = await makeRepo({
      'IFAIRY_ARM_3W_LUT_V2_REFACTOR_PLAN.md': '# plan\n',
      'IFAIRY_ARM_3W_LUT_V2_LUT_C_INTEGRATION_PLAN.md': '# integration\n',
      'IFAIRY_ARM_3W_LUT_V2_STATUS.md': '# status\n',
      'IFAIRY_ARM_3W_LUT_DESIGN.md': '# design\n',
      'ggml/src/ggml-cpu/AGENTS.md': '# cpu rules\n',
      'AGENTS.md': MEMORY,
    });
    const r = await runPrune({ root: repo.dir, now: NOW, config: config(), write: true });
    expect(r.audit.findings.filter((f) => f.kind === 'duplicate')).toEqual([]);
    expect(await repo.read('AGENTS.md')).toBe(MEMORY);
  });

  test('the same labelled list twice, or two unlabelled lists, are still duplicates', () => {
    const list = '`docs/api.md`, `docs/auth.md`, `docs/errors.md`, `docs/limits.md`';
    expect(
      dups({
        'CLAUDE.md': `# Docs\n\n- API reference docs: ${list}\n`,
        'AGENTS.md': `# Docs\n\n- API reference docs: ${list}, \`docs/paging.md\`\n`,
      }),
    ).toEqual([['CLAUDE.md', 3, 'AGENTS.md', 3]]);
    expect(
      dups({
        'CLAUDE.md': `# Docs\n\n- ${list}\n`,
        'AGENTS.md': `# Docs\n\n- ${list}, \`docs/paging.md\`\n`,
      }),
    ).toEqual([['CLAUDE.md', 3, 'AGENTS.md', 3]]);
  });
});
