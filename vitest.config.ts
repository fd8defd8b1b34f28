import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the built action; each is bounded by its own kill timer.
    testTimeout: 30_000,
    // Test files share their worker's modules instead of importing src/, undici and GitHub's parser
    // anew each: half the suite's time. Nothing in src/ keeps state between runs, and the in-process
    // runner restores the environment, stdout and exit code it borrows.
    isolate: false,
    // The end-to-end files mostly wait on the steps they spawn: one worker a core at least (vitest's
    // default leaves one core idle, two on a 2-core machine).
    maxWorkers: Math.max(2, availableParallelism()),
    // Never pick up proxy settings of the machine running the tests.
    env: { HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '', NO_PROXY: '', no_proxy: '' },
  },
});
