// Vitest configuration for mutation testing only (`npm run mutate`, see stryker.config.mjs).
// It differs from vitest.config.ts in three ways:
// - only the tests that import src/ in-process: the end-to-end tests (and the other tests that spawn
//   the built dist/ or check files) never see a mutated src/, so they cannot kill a mutant and only
//   cost time;
// - every test file in its own fresh module graph (isolate: true): Stryker's instrumented src/
//   reads the active mutant from a global, and a mutant that changes module-level state must not
//   leak into the next test file;
// - workers are forked processes (pool: 'forks', forced by the plugin below), one at a time:
//   Stryker's own `concurrency` runs several vitest instances;
// - the CLI's property tests run each property 5 times, not 30 (CLI_PROPERTY_RUNS).
// The other thing vitest 5 changed for Stryker (the full names of tests) needs code, not
// configuration: scripts/patch-stryker.ts.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  plugins: [
    {
      // @stryker-mutator/vitest-runner 9.6 starts vitest with `pool: 'threads'` as a command-line
      // option, which wins over `test.pool` of any config file or project. In a worker thread the
      // stack is larger than in a process, so the tests that count on a stack overflow (an answer
      // nested thousands deep) fail there, and the initial test run with them. This plugin runs after
      // vitest has merged those options and puts back the pool this project's tests run in.
      name: 'stryker-forks-pool',
      enforce: 'post',
      configResolved(config) {
        (config as { test: { pool?: string } }).test.pool = 'forks';
      },
    },
  ],
  test: {
    ...base.test,
    // One run of the in-process tests: the CLI's subjects (vitest.config.ts) are for the end-to-end ones.
    projects: undefined,
    include: ['test/unit/*.test.ts', 'test/http.test.ts', 'test/steps/*.test.ts', 'test/cli/properties.test.ts'],
    // The CLI's properties run 5 times a mutant (their examples always): see test/cli/properties.test.ts.
    env: { ...base.test?.env, CLI_PROPERTY_RUNS: '5' },
    isolate: true,
    pool: 'forks',
    maxWorkers: 1,
  },
});
