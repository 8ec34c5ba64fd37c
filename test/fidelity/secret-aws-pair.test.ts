// An AWS secret access key written after its key id without a label is a secret too: redacted
// in every output, reported by location only.
import { describe, expect, it } from 'vitest';
import { findSecretRanges, redactSecrets } from '../../src/report/redact.js';

const ID = 'AKIAQ5XNB2RTYZ7KLM3P';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKQ';

describe('AWS key pairs', () => {
  it('redacts the unlabelled secret access key that follows a key id on the same line', () => {
    const line = `- AWS access key for staging is ${ID} with secret ${SECRET}`;
    expect(findSecretRanges(line).map((r) => [line.slice(r.start, r.end), r.rule])).toEqual([
      [ID, 'aws-access-key'],
      [SECRET, 'aws-secret-key'],
    ]);
    const out = redactSecrets(line);
    expect(out).not.toContain(SECRET.slice(0, 8));
    expect(out).not.toContain(ID);
  });

  it('leaves 40-character runs alone without a key id, on another line, or after a documentation id', () => {
    for (const text of [
      `- The commit ${'a1b2c3d4e5'.repeat(4)} fixed it.`,
      `- Key id ${ID}\n- Hash ${SECRET}`,
      `- Example: AKIAIOSFODNN7EXAMPLE with wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`,
      `- ${ID} then ${'abcdefghij'.repeat(4)}`,
    ])
      expect(findSecretRanges(text).filter((r) => r.rule === 'aws-secret-key')).toEqual([]);
  });
});
