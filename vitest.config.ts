import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// In CI (.ci/run) the results are also written as JSON, from which .ci/run prints the plain
// closing line "N passed, N failed".
const ci = Boolean(process.env.CI);
// Most tests wait on git child processes: one worker more than there are cores keeps the cores
// busy (on 2 cores: 60 s instead of 110 s for the suite).
const workers = Math.max(2, Math.min(6, availableParallelism() + 1));
// Tests that change the process itself (the audit lowers the main thread's scheduling priority,
// which a process cannot raise again) run in a fresh process each; every other file shares its
// worker's module graph (no re-import of the bundle per file: ~25% faster on 2 cores).
const processTests = ['test/evidence/overlap.test.ts'];

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: workers,
    // Files that run their tests concurrently (the Action end-to-end suites, each test spawning
    // several Action runs) do so two at a time: more only oversubscribes a 2-core machine, where
    // an Action run then takes tens of seconds.
    maxConcurrency: 2,
    reporters: ci ? ['default', 'json'] : ['default'],
    ...(ci ? { outputFile: { json: '.vitest-results.json' } } : {}),
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: processTests, isolate: false } },
      { extends: true, test: { name: 'isolated', include: processTests, isolate: true } },
    ],
  },
});
