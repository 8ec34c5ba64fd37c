// `npm run eval`: accuracy scorers (staleness on time-travel cases, fidelity on labelled fixtures).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['eval/**/*.eval.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
