// Mutation testing with StrykerJS: `npm run mutate` (slow, so not part of `npm test`). It mutates
// src/ and runs, for each mutant, the in-process tests that cover it (vitest.stryker.config.ts:
// test/unit/, test/http.test.ts, test/steps/; the end-to-end tests run the built dist/ and never see
// a mutant). scripts/patch-stryker.ts, run first by `npm run mutate`, makes the vitest runner work
// with vitest 5. Reports: the table and the survivors on the console, every mutant in
// reports/mutation/mutation.json.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  mutate: [
    'src/**/*.ts',
    // Type declarations and the action's bundle entry: no behaviour of ours to test.
    '!src/**/*.d.ts',
    '!src/action/index.ts',
    // The reaches into dependencies (undici's modules, @actions/core's stand-ins): their contract
    // tests (test/deps/) pin them against the dependencies, not against a mutant of ours.
    '!src/deps/**',
  ],
  // Each mutant runs only the tests that reached it (needs scripts/patch-stryker.ts with vitest 5).
  coverageAnalysis: 'perTest',
  // One vitest a core (the machines have 2).
  concurrency: 2,
  // A mutant that outlasts its time is counted as detected ("Timeout"), so a spurious timeout hides a
  // survivor. Stryker's 5 s over the initial run's time was too little on a busy machine: the tests
  // of the steps ran 10x slower under load, and mutants that every test lets through (the anchoring
  // of isLoopback's regex, `url.username && url.password`) were reported as timeouts.
  timeoutMS: 20_000,
  thresholds: { high: 90, low: 85, break: null },
  reporters: ['clear-text', 'json', 'progress-append-only'],
  clearTextReporter: { allowEmojis: false, logTests: false },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
};
