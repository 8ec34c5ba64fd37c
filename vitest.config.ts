import { defineConfig } from 'vitest/config';

// In CI (.ci/run) the results are also written as JSON, from which .ci/run prints the plain
// closing line "N passed, N failed".
const ci = Boolean(process.env.CI);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ci ? ['default', 'json'] : ['default'],
    ...(ci ? { outputFile: { json: '.vitest-results.json' } } : {}),
  },
});
