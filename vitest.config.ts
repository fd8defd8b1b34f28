import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The CLI's end-to-end files that hold for every way the CLI is shipped: run once on the npm package
 * and once on the single executable (test/helpers/run-cli.ts). Not these: the npm package's own launcher and
 * tarball (package.test.ts), the executable's own (executable.test.ts), the CLI run in-process
 * (properties.test.ts), and the examples, which install the tool as each example says
 * (examples.test.ts).
 */
const CLI_ON_EVERY_SUBJECT = ['test/cli/*.test.ts'];
const RUN_ONCE = [
  'test/cli/package.test.ts',
  'test/cli/executable.test.ts',
  'test/cli/properties.test.ts',
  'test/cli/examples.test.ts',
];

/**
 * install.sh's tests: they run it under dash and BusyBox's sh, lint it with ShellCheck and mount a
 * noexec file system with unshare, tools a machine with Node and npm alone lacks. `npm run
 * test:shell` runs them (vitest.shell.config.ts), after `npm test`, where .ci/run installed the tools.
 */
export const NEEDS_SHELL_TOOLS = ['test/install-script.test.ts'];

/**
 * The Kubernetes examples rendered by `kubectl kustomize` (Kustomize 5): `npm run test:kube`
 * (vitest.kube.config.ts), after `npm test`, where .ci/run installed kubectl.
 */
export const NEEDS_KUBECTL = ['test/kube/**/*.test.ts'];

/**
 * The container image's tests: they build it with buildah and run it with podman and runc. `npm run
 * test:image` runs them (vitest.image.config.ts), after the executable and the image's Debian packages
 * (node scripts/image.ts fetch) are there, as .ci/run does.
 */
export const NEEDS_IMAGE_TOOLS = ['test/image/**/*.test.ts'];

/**
 * The chaos soak with a random seed (test/receiver/chaos.test.ts runs a fixed one): `npm run
 * test:soak` (vitest.soak.config.ts), after `npm test` in .ci/run.
 */
export const SOAK = ['test/receiver/chaos-soak.test.ts'];

/** Windows' own tests (cmd.exe, PATHEXT) run where Windows is: the CI workflow's Windows job. */
const WINDOWS_ONLY = process.platform === 'win32' ? [] : ['test/windows/**'];

export default defineConfig({
  test: {
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
    projects: [
      // Every test file; the CLI's on the npm package.
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: [...WINDOWS_ONLY, ...NEEDS_SHELL_TOOLS, ...NEEDS_KUBECTL, ...NEEDS_IMAGE_TOOLS, ...SOAK],
          provide: { cliSubject: 'npm' },
          // A real PostgreSQL for the store's tests and the replicas' (test/helpers/postgres.ts).
          globalSetup: ['test/helpers/postgres-setup.ts'],
        },
      },
      // The CLI's again, on the executable.
      {
        extends: true,
        test: {
          name: 'executable',
          include: CLI_ON_EVERY_SUBJECT,
          exclude: RUN_ONCE,
          provide: { cliSubject: 'sea' },
        },
      },
    ],
  },
});
