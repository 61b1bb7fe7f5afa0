import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest leaves a core free by default; most files here wait on child processes and servers,
    // so one file per core finishes the suite about a third sooner on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism()),
    // The end-to-end tests spawn the built CLI; build once before any test file runs.
    globalSetup: ['test/global-setup.ts'],
  },
});
