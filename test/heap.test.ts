// Heap tuning at start-up: a V8 flag set from the environment, never a crash.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tuneHeap } from '../src/heap.js';

describe('heap growth setting', () => {
  it('accepts the default, a number, 0 and garbage without throwing', () => {
    for (const v of [undefined, '40', '0', '-3', 'lots', '1000']) {
      expect(() => tuneHeap({ MEMORY_AUDIT_HEAP_GROWING_PERCENT: v })).not.toThrow();
    }
  });

  it('the flag it sets exists in this V8 (a renamed flag would silently do nothing)', () => {
    const opts = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    expect(opts).toContain('--heap-growing-percent');
  });
});
