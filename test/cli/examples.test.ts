// Every command line of examples/cli/ (and the CLI's GitHub Actions example), run as that CI would
// run it, against the fake service, the CI's documented variables in the environment, a deploy script
// that succeeds or fails in place of `./deploy.sh`. Each example installs the tool in a step of its
// own before the deploy, as its CI would: the executable through install.sh, from a release served
// on 127.0.0.1 (test/release-server.ts) with no `node` on the PATH, or the npm package installed
// offline from the packed tarball, the release under test in place of the version the example pins.
// What the service records must be what the CI says of the build; where the tool could not be
// installed, the deploy must run all the same, and the job end as the deploy did.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { pathWithoutNode, seaName } from '../../scripts/sea.ts';
import { useFakeService } from '../helpers/fixture.ts';
import { sha256sums, startReleaseServer, type ReleaseServer } from '../helpers/release-server.ts';
import { INSTALL_TIMEOUT_MS, installedCli, installedSea } from '../helpers/run-cli.ts';
import { ROOT } from '../helpers/run-action.ts';

const fake = useFakeService();
const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';
const RELEASES = 'https://github.com/acme/report-deployment/releases/download';
/** The version under test, which the release served here and the packed package are. */
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let release: ReleaseServer;
/** A release whose install.sh is there, but not the executable: install.sh fails. */
let broken: ReleaseServer;
let tarball: string;
beforeAll(async () => {
  const executable = { path: installedSea().bin };
  const pinned = readFileSync(join(ROOT, 'install.sh'), 'utf8').replace(
    /^pinned_version=''$/m,
    `pinned_version='${VERSION}'`,
  );
  release = await startReleaseServer(VERSION, {
    'install.sh': pinned,
    [seaName()]: executable,
    SHA256SUMS: sha256sums({ 'install.sh': pinned, [seaName()]: executable }),
  });
  // SHA256SUMS lists the executable (install.sh reads it before downloading), which is not there.
  broken = await startReleaseServer(VERSION, {
    'install.sh': pinned,
    SHA256SUMS: sha256sums({ 'install.sh': pinned, [seaName()]: executable }),
  });
  const pack = join(installedCli().dir, '..', 'pack');
  tarball = join(pack, readdirSync(pack).find((name) => name.endsWith('.tgz')) as string);
}, INSTALL_TIMEOUT_MS);
afterAll(() => Promise.all([release.close(), broken.close()]));

const works: string[] = [];
afterEach(() => {
  for (const dir of works.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A step of a CI job: its shell command, when it runs, and the environment the CI gives it. */
interface Step {
  command: string;
  when?: 'always' | 'on_success' | 'on_fail';
  env?: Record<string, string>;
  /** A failure of this step fails nothing (Azure's continueOnError, GitHub's continue-on-error). */
  continueOnError?: boolean;
}

/** What a job keeps between its runs: its workspace and home (a CI's cache, an agent's disk). */
interface Job {
  workspace: string;
  home: string;
}

function newJob(): Job {
  const dir = mkdtempSync(join(tmpdir(), 'report-deployment-example-'));
  works.push(dir);
  mkdirSync(join(dir, 'workspace'));
  mkdirSync(join(dir, 'home'));
  return { workspace: join(dir, 'workspace'), home: join(dir, 'home') };
}

/** The PATH a job runs with: no `node` where the example installs the executable. */
function jobPath(installs: 'executable' | 'npm', job: Job): string {
  const withoutNode = pathWithoutNode(
    process.env.PATH ?? '',
    join(ROOT, 'node_modules', '.cache', 'report-deployment-sea', 'path-without-node'),
  );
  if (installs === 'executable') return withoutNode;
  // An image with Node.js: the project's 24, and npm run by it.
  const npm = join(job.home, 'npm-shim');
  mkdirSync(npm, { recursive: true });
  if (process.env.npm_execpath) {
    writeFileSync(join(npm, 'npm'), `#!/bin/sh\nexec "${process.execPath}" "${process.env.npm_execpath}" "$@"\n`);
    chmodSync(join(npm, 'npm'), 0o755);
  }
  return [join(job.home, 'npm-global', 'bin'), npm, dirname(process.execPath), withoutNode].join(delimiter);
}

interface JobResult {
  /** A step that could fail the job failed. */
  failed: boolean;
  deployed: boolean;
}

/**
 * Runs a job's steps as a CI does: in order, a failed step skips the rest but those meant for failure
 * (or those after a step allowed to fail). Each step without blocking: the fake service answers from
 * this process's event loop. `reachable`: whether the tool can be installed (where not, install.sh
 * finds no executable in the release, npm no package).
 */
async function runJob(
  example: Example,
  env: Record<string, string>,
  deployExitCode: number,
  options: { job?: Job; reachable?: boolean; override?: Record<string, string> } = {},
): Promise<JobResult> {
  const job = options.job ?? newJob();
  const reachable = options.reachable ?? true;
  const scratch = mkdtempSync(join(tmpdir(), 'report-deployment-example-run-'));
  works.push(scratch);
  const deploy = join(scratch, 'deploy.sh');
  const deployed = join(scratch, 'deployed');
  writeFileSync(deploy, `#!/bin/sh\necho deploying\ntouch '${deployed}'\nexit ${deployExitCode}\n`);
  chmodSync(deploy, 0o755);
  const bashEnv = join(scratch, 'bash-env');
  const githubPath = join(scratch, 'github-path');
  writeFileSync(bashEnv, '');
  writeFileSync(githubPath, '');
  const base = reachable ? release.base : broken.base;
  let path = jobPath(example.installs, job);
  let failed = false;
  for (const step of example.steps()) {
    const runs = step.when === 'always' || (step.when === 'on_fail' ? failed : !failed);
    if (!runs) continue;
    const command = step.command
      .replaceAll(new RegExp(`${RELEASES}/v\\d+\\.\\d+\\.\\d+/`, 'g'), `${base}/v${VERSION}/`)
      .replaceAll(/report-deployment@\d+\.\d+\.\d+/g, reachable ? tarball : join(scratch, 'no-such.tgz'))
      .replaceAll('./deploy.sh', `"${deploy}"`);
    try {
      const [shell, ...flags] = example.shell;
      const running = promisify(execFile)(shell as string, [...flags, `. "$BASH_ENV"\n${command}`], {
        cwd: job.workspace,
        env: {
          PATH: path,
          HOME: job.home,
          WORKSPACE: job.workspace,
          BASH_ENV: bashEnv,
          GITHUB_PATH: githubPath,
          REPORT_DEPLOYMENT_DOWNLOAD_URL: base,
          npm_config_prefix: join(job.home, 'npm-global'),
          npm_config_cache: join(job.home, '.npm'),
          npm_config_offline: 'true',
          npm_config_audit: 'false',
          npm_config_fund: 'false',
          npm_config_update_notifier: 'false',
          ...env,
          ...step.env,
          ...options.override,
        },
      });
      // Nothing to read, as a CI's step has.
      running.child.stdin?.end();
      await running;
    } catch {
      if (!step.continueOnError) failed = true;
    }
    // GitHub Actions: what a step adds to GITHUB_PATH is on the PATH of the steps after it.
    const added = readFileSync(githubPath, 'utf8').split('\n').filter(Boolean).reverse();
    path = [...added, path].join(delimiter);
    writeFileSync(githubPath, '');
  }
  return { failed, deployed: existsSync(deployed) };
}

/** One shell for all of a job's lines, stopping at the first that fails (GitLab's and Buildkite's). */
const oneShell = (lines: string[]): Step[] => [{ command: ['set -e', ...lines].join('\n') }];

const read = (file: string) => readFileSync(join(ROOT, 'examples', file), 'utf8');
const service = () => ({ DEPLOY_TRACKER_URL: fake.service.url, DEPLOY_TRACKER_API_KEY: fake.service.apiKey });

interface Example {
  file: string;
  /** The shell its CI runs a step's script with, up to the script (each stops at a failure but Azure's). */
  shell: string[];
  steps: () => Step[];
  /** How it installs the tool: the executable (install.sh), or the npm package. */
  installs: 'executable' | 'npm';
  /** What it installs is kept for its next run (a cache, an agent's disk): nothing downloaded again. */
  keeps: boolean;
  ci: Record<string, string>;
  link: string;
  user: string;
}

/** Each example: its steps, and the variables its CI sets for a push build of main. */
const EXAMPLES: Example[] = [
  {
    file: 'cli/gitlab-ci.yml',
    // The runner's script for bash: `set -eo pipefail`.
    shell: ['bash', '-eo', 'pipefail', '-c'],
    steps: () => {
      const { deploy } = parse(read('cli/gitlab-ci.yml')) as { deploy: { before_script: string[]; script: string[] } };
      return oneShell([...deploy.before_script, ...deploy.script]);
    },
    installs: 'executable',
    keeps: true,
    ci: {
      CI: 'true',
      GITLAB_CI: 'true',
      CI_COMMIT_SHA: SHA,
      CI_COMMIT_BRANCH: 'main',
      CI_COMMIT_REF_NAME: 'main',
      CI_ENVIRONMENT_NAME: 'Production',
      GITLAB_USER_LOGIN: 'alice',
      CI_JOB_URL: 'https://gitlab.example.com/acme/shop/-/jobs/77',
      CI_PIPELINE_ID: '12',
      CI_JOB_NAME: 'deploy',
    },
    link: 'https://gitlab.example.com/acme/shop/-/jobs/77',
    user: 'alice',
  },
  {
    file: 'cli/Jenkinsfile',
    // The sh step: `sh -xe` (-x only traces).
    shell: ['sh', '-e', '-c'],
    steps: () =>
      [...read('cli/Jenkinsfile').matchAll(/sh '([^']+)'/g)].map((match) => ({ command: match[1] as string })),
    installs: 'executable',
    keeps: true,
    ci: {
      JENKINS_URL: 'https://jenkins.example.com/',
      GIT_COMMIT: SHA,
      GIT_BRANCH: 'origin/main',
      BUILD_URL: 'https://jenkins.example.com/job/shop/42/',
      BUILD_NUMBER: '42',
      JOB_NAME: 'shop',
    },
    link: 'https://jenkins.example.com/job/shop/42/',
    // Stock Jenkins names no user (BUILD_USER_ID is the Build User Vars plugin's), and the job's
    // folder is no checkout that has the commit: the CI's own name stands in.
    user: 'Jenkins',
  },
  {
    file: 'cli/circleci-config.yml',
    // A run step's default shell.
    shell: ['bash', '-eo', 'pipefail', '-c'],
    steps: () =>
      (
        parse(read('cli/circleci-config.yml')) as {
          jobs: { deploy: { steps: (string | { run?: { command: string; when?: Step['when'] } })[] } };
        }
      ).jobs.deploy.steps.flatMap((step) =>
        typeof step === 'object' && step.run ? [{ command: step.run.command, when: step.run.when }] : [],
      ),
    installs: 'executable',
    keeps: true,
    ci: {
      CI: 'true',
      CIRCLECI: 'true',
      CIRCLE_SHA1: SHA,
      CIRCLE_BRANCH: 'main',
      CIRCLE_BUILD_URL: 'https://app.circleci.com/pipelines/gh/acme/shop/9/workflows/w/jobs/31',
      CIRCLE_BUILD_NUM: '31',
      CIRCLE_JOB: 'deploy',
    },
    link: 'https://app.circleci.com/pipelines/gh/acme/shop/9/workflows/w/jobs/31',
    // CIRCLE_USERNAME is set only when whoever pushed has a CircleCI account: here, no one has.
    user: 'CircleCI',
  },
  {
    file: 'cli/buildkite-pipeline.yml',
    // The agent's default shell.
    shell: ['bash', '-e', '-c'],
    steps: () =>
      (parse(read('cli/buildkite-pipeline.yml')) as { steps: { commands: string[] }[] }).steps.flatMap((step) =>
        oneShell(step.commands),
      ),
    installs: 'executable',
    keeps: true,
    ci: {
      CI: 'true',
      BUILDKITE: 'true',
      BUILDKITE_COMMIT: SHA,
      BUILDKITE_BRANCH: 'main',
      BUILDKITE_BUILD_CREATOR: 'Alice',
      BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/shop/builds/1514',
      BUILDKITE_JOB_ID: '0190c0e4-0000-4000-8000-000000000001',
      BUILDKITE_BUILD_NUMBER: '1514',
      BUILDKITE_PULL_REQUEST: 'false',
    },
    link: 'https://buildkite.com/acme/shop/builds/1514#0190c0e4-0000-4000-8000-000000000001',
    user: 'Alice',
  },
  {
    file: 'cli/azure-pipelines.yml',
    // A script step on Linux: bash --noprofile --norc, no -e.
    shell: ['bash', '--noprofile', '--norc', '-c'],
    steps: () =>
      (
        parse(read('cli/azure-pipelines.yml')) as {
          steps: { script?: string; env?: Record<string, string>; continueOnError?: boolean }[];
        }
      ).steps
        .filter((step) => step.script)
        // The service's variables as the test's fake, in place of the pipeline's own.
        .map((step) => ({
          command: step.script as string,
          env: { ...step.env, ...service() },
          continueOnError: step.continueOnError,
        })),
    installs: 'npm',
    keeps: false,
    ci: {
      TF_BUILD: 'True',
      BUILD_BUILDURI: 'vstfs:///Build/Build/310',
      BUILD_SOURCEVERSION: SHA,
      BUILD_SOURCEBRANCH: 'refs/heads/main',
      BUILD_REQUESTEDFOR: 'Alice Smith',
      BUILD_BUILDID: '310',
      SYSTEM_COLLECTIONURI: 'https://dev.azure.com/acme/',
      SYSTEM_TEAMPROJECT: 'Shop Web',
    },
    link: 'https://dev.azure.com/acme/Shop%20Web/_build/results?buildId=310',
    user: 'Alice Smith',
  },
  {
    file: 'cli-in-github-actions.yml',
    // run: with bash found, GitHub's default.
    shell: ['bash', '--noprofile', '--norc', '-eo', 'pipefail', '-c'],
    steps: () =>
      (
        parse(read('cli-in-github-actions.yml')) as {
          jobs: { deploy: { steps: { run?: string; 'continue-on-error'?: boolean }[] } };
        }
      ).jobs.deploy.steps
        .filter((step) => step.run)
        .map((step) => ({ command: step.run as string, env: service(), continueOnError: step['continue-on-error'] })),
    installs: 'executable',
    // A hosted runner starts afresh every time.
    keeps: false,
    ci: {
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_SHA: SHA,
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REF_NAME: 'main',
      GITHUB_EVENT_NAME: 'push',
      GITHUB_ACTOR: 'alice',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_RUN_ID: '9100',
      GITHUB_RUN_ATTEMPT: '1',
    },
    link: 'https://github.com/acme/shop/actions/runs/9100/attempts/1',
    user: 'alice',
  },
];

/** Bitbucket Pipelines: the script in one shell, then after-script whatever it came to. */
const BITBUCKET: Example = {
  file: 'cli/bitbucket-pipelines.yml',
  // Each command of the script stops the step where it fails.
  shell: ['bash', '-e', '-c'],
  steps: () => {
    const step = (
      parse(read('cli/bitbucket-pipelines.yml')) as {
        pipelines: { branches: { main: { step: { script: string[]; 'after-script': string[] } }[] } };
      }
    ).pipelines.branches.main[0]?.step;
    return [
      ...oneShell(step?.script ?? []),
      // An after-script that fails leaves the step's status as the script made it.
      ...(step?.['after-script'] ?? []).map((command) => ({ command, when: 'always' as const, continueOnError: true })),
    ];
  },
  installs: 'npm',
  keeps: false,
  ci: {
    CI: 'true',
    BITBUCKET_BUILD_NUMBER: '88',
    BITBUCKET_COMMIT: SHA,
    BITBUCKET_BRANCH: 'main',
    BITBUCKET_REPO_FULL_NAME: 'acme/shop',
    BITBUCKET_STEP_TRIGGERER_UUID: '{0a1b2c3d-0000-4000-8000-000000000001}',
  },
  link: 'https://bitbucket.org/acme/shop/pipelines/results/88',
  user: '{0a1b2c3d-0000-4000-8000-000000000001}',
};

/** Downloads of the executable from the release served here. */
const executableDownloads = () => release.requests.filter((request) => request.path.endsWith(`/${seaName()}`)).length;

describe('each example, run with its CI’s variables', () => {
  it.each(EXAMPLES.map((example) => [example.file, example] as const))(
    '%s installs the tool in a step of its own, records the build its CI describes, SUCCEEDED, then FAILED for a failed deploy',
    async (_, example) => {
      const downloadsBefore = executableDownloads();
      const job = newJob();
      const succeeded = await runJob(example, { ...example.ci, ...service() }, 0, { job });
      const failed = await runJob(example, { ...example.ci, ...service() }, 1, example.keeps ? { job } : {});

      expect(succeeded).toEqual({ failed: false, deployed: true });
      expect(failed).toEqual({ failed: true, deployed: true });
      const bodies = fake.service.requests
        .filter((request) => request.method === 'POST')
        .map((request) => request.body);
      expect(bodies).toHaveLength(2);
      expect(bodies[0]).toMatchObject({
        artifactName: 'shop-web',
        environment: 'Production',
        commitSha: SHA,
        version: SHA,
        branch: 'main',
        user: example.user,
        link: example.link,
      });
      expect([...fake.service.deployments.values()].map((deployment) => deployment.statuses)).toEqual([
        ['STARTED', 'SUCCEEDED'],
        ['STARTED', 'FAILED'],
      ]);
      // The executable: downloaded once where the CI keeps it, from the release each time where not.
      const expected = example.installs === 'npm' ? 0 : example.keeps ? 1 : 2;
      expect(executableDownloads() - downloadsBefore).toBe(expected);
    },
  );

  it('bitbucket-pipelines.yml installs the npm package before the deploy, and records in after-script what the script came to', async () => {
    for (const exitCode of [0, 1]) {
      // Bitbucket runs the script, then after-script with the script's exit code.
      await runJob(BITBUCKET, { ...BITBUCKET.ci, ...service(), BITBUCKET_EXIT_CODE: String(exitCode) }, exitCode);
    }

    expect(fake.service.requests.map((request) => request.body)).toEqual([
      expect.objectContaining({
        artifactName: 'shop-web',
        environment: 'Production',
        commitSha: SHA,
        branch: 'main',
        user: BITBUCKET.user,
        link: BITBUCKET.link,
        status: 'SUCCEEDED',
      }),
      expect.objectContaining({ status: 'FAILED' }),
    ]);
  });
});

describe('where the tool could not be installed, the deploy runs all the same, and the job ends as it did', () => {
  it.each([...EXAMPLES, BITBUCKET].map((example) => [example.file, example] as const))('%s', async (_, example) => {
    const env = { ...example.ci, ...service(), BITBUCKET_EXIT_CODE: '0' };
    const succeeded = await runJob(example, env, 0, { reachable: false });
    const failed = await runJob(example, { ...env, BITBUCKET_EXIT_CODE: '3' }, 3, { reachable: false });

    expect(succeeded).toEqual({ failed: false, deployed: true });
    expect(failed).toEqual({ failed: true, deployed: true });
    expect(fake.service.requests).toEqual([]);
    // It was tried: install.sh ran and found no executable to download.
    if (example.installs === 'executable') {
      expect(broken.requests.filter((request) => request.path.endsWith(`/${seaName()}`)).length).toBeGreaterThan(0);
    }
  });
});

describe('where a setting is wrong, the deploy runs all the same, and the job ends as it did', () => {
  // A bad setting: start and record exit 2, run says it and runs the command. No step may stop the
  // job before the deploy, nor fail it after, in its CI's own shell (set -e where the CI has it).
  it.each([...EXAMPLES, BITBUCKET].map((example) => [example.file, example] as const))('%s', async (_, example) => {
    const env = { ...example.ci, ...service(), BITBUCKET_EXIT_CODE: '0' };
    const override = { DEPLOY_TRACKER_URL: 'tracker.example.com/api' };
    const succeeded = await runJob(example, env, 0, { override });
    const failed = await runJob(example, { ...env, BITBUCKET_EXIT_CODE: '3' }, 3, { override });

    expect(succeeded).toEqual({ failed: false, deployed: true });
    expect(failed).toEqual({ failed: true, deployed: true });
    expect(fake.service.requests).toEqual([]);
  });
});

describe('an id the service answers is data, not shell code, in the steps after start', () => {
  it('circleci-config.yml hands a hostile id on through BASH_ENV as it was, running nothing of it', async () => {
    const example = EXAMPLES.find((candidate) => candidate.file === 'cli/circleci-config.yml') as Example;
    const id = "7';touch injected;echo '$(touch injected2)";
    fake.service.fail('POST', { status: 201, body: { success: true, id } });
    const job = newJob();
    const result = await runJob(example, { ...example.ci, ...service() }, 0, { job });

    expect(result).toEqual({ failed: false, deployed: true });
    expect(readdirSync(job.workspace).filter((name) => name.startsWith('injected'))).toEqual([]);
    // finish got the very id start printed.
    const patch = fake.service.requests.find((request) => request.method === 'PATCH');
    expect(patch?.path).toBe(`/deployment/${encodeURIComponent(id)}`);
  });
});

describe('the examples pin what they install', () => {
  const files = [
    'cli/gitlab-ci.yml',
    'cli/Jenkinsfile',
    'cli/circleci-config.yml',
    'cli/buildkite-pipeline.yml',
  ].concat(['cli/azure-pipelines.yml', 'cli/bitbucket-pipelines.yml', 'cli-in-github-actions.yml']);

  it('one exact version, the same in every example, and no npx (the registry is never in a deploy’s path)', () => {
    const pins = files.map((file) => {
      const text = read(file);
      const versions = [
        ...text.matchAll(/releases\/download\/v(\d+\.\d+\.\d+)\/install\.sh|report-deployment@(\d+\.\d+\.\d+)/g),
      ].map((match) => match[1] ?? match[2]);
      return { file, versions: [...new Set(versions)], npx: text.includes('npx') };
    });

    expect(pins.map(({ file, npx }) => ({ file, npx }))).toEqual(files.map((file) => ({ file, npx: false })));
    expect(new Set(pins.flatMap(({ versions }) => versions)).size).toBe(1);
    for (const { file, versions } of pins) expect(versions, file).toHaveLength(1);
    expect([...EXAMPLES, BITBUCKET].map((example) => example.file).sort()).toEqual([...files].sort());
  });
});
