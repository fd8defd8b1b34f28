// Makes @stryker-mutator/vitest-runner 9.6 name tests as vitest 5 does; `npm run mutate` runs it
// before Stryker. Idempotent; it fails, naming the file, when the code it patches has changed.
//
// Why: with coverageAnalysis 'perTest', Stryker runs for each mutant only the tests that cover it,
// and the runner selects them with vitest's `testNamePattern`, a regex of the tests' full names.
// The runner builds those names itself (collectTestName: the suite names and the test name joined
// by ' '), both in the test worker (the coverage of each test, stryker-setup.js) and in Stryker's
// process (the ids of the tests, test-helpers.js). Vitest 5 matches the pattern against the
// test's `fullTestName`, whose parts are joined by ' > ' ("isRetryable > %o: POST…"), so no test
// inside a `describe` matches: every such test is skipped, and every mutant that only they would
// kill "survives" (retry.ts scored 18% for 100% killed). No configuration changes either side's
// names, hence a patch: collectTestName answers vitest's own `fullTestName` when the task has one,
// and keeps the old join otherwise. Both files must agree, as the ids of the coverage are looked
// up among the ids of the tests.
//
// A script rather than patch-package: two one-line edits of files that npm ci puts back, applied
// without another dependency, and checked on each run instead of failing to apply quietly after an
// upgrade. The other difference with vitest 5 (the runner asks for pool 'threads') is undone by
// configuration, in vitest.stryker.config.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const MARK = '/* patched by scripts/patch-stryker.ts: vitest >= 4 names tests `a > b > c` */';
const runnerDir = dirname(createRequire(import.meta.url).resolve('@stryker-mutator/vitest-runner/package.json'));

interface Patch {
  file: string;
  from: string;
  to: string;
}

const collectTestName = (prefix: string): Patch => ({
  file: '',
  from: `${prefix}function collectTestName({ name, suite, }) {\n`,
  to: `${prefix}function collectTestName({ name, suite, fullTestName, }) {\n    ${MARK}\n    if (typeof fullTestName === 'string') return fullTestName;\n`,
});

const patches: Patch[] = [
  // Stryker's process: the ids of the tests of the initial run, and of the tests a mutant runs.
  { ...collectTestName('export '), file: 'dist/src/test-helpers.js' },
  // The test worker (copied into the sandbox as stryker-setup-N.js): the coverage of each test.
  { ...collectTestName(''), file: 'dist/src/stryker-setup.js' },
];

for (const patch of patches) {
  const path = join(runnerDir, patch.file);
  const shown = relative(process.cwd(), path);
  const text = readFileSync(path, 'utf8');
  if (text.includes(patch.to)) {
    console.log(`patch-stryker: ${shown} already patched`);
    continue;
  }
  if (text.split(patch.from).length !== 2) {
    throw new Error(
      `patch-stryker: ${shown} no longer holds exactly one\n${patch.from}` +
        'The runner changed (another version?): check whether it now names tests as vitest does ' +
        '(`fullTestName`, parts joined by " > ") and update or drop scripts/patch-stryker.ts.',
    );
  }
  writeFileSync(path, text.replace(patch.from, patch.to));
  console.log(`patch-stryker: patched ${shown}`);
}
