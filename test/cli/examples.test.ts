// Every command line of examples/cli/ (and the CLI's GitHub Actions example), run as that CI would
// run it: the packed CLI in place of `npx --yes report-deployment@1`, a deploy script that succeeds
// or fails in place of `./deploy.sh`, the CI's documented variables in the environment, against the
// fake service. What the service records must be what the CI says of the build.
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { useFakeService } from '../fixture.ts';
import { INSTALL_TIMEOUT_MS, installedCli } from '../run-cli.ts';
import { ROOT } from '../run-action.ts';

beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

const fake = useFakeService();
const SHA = '9fceb02d0ae598e95dc970b74767f19372d61af8';

let work: string | undefined;
afterEach(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  work = undefined;
});

/** A step of a CI job: its shell command, when it runs, and the environment the CI gives it. */
interface Step {
  command: string;
  when?: 'always' | 'on_success' | 'on_fail';
  env?: Record<string, string>;
}

/**
 * Runs a job's steps as a CI does: in order, a failed step skips the rest but those meant for failure.
 * Each step without blocking: the fake service answers from this process's event loop.
 */
async function runJob(steps: Step[], env: Record<string, string>, deployExitCode: number): Promise<void> {
  work = mkdtempSync(join(tmpdir(), 'report-deployment-example-'));
  const deploy = join(work, 'deploy.sh');
  writeFileSync(deploy, `#!/bin/sh\necho deploying\nexit ${deployExitCode}\n`);
  chmodSync(deploy, 0o755);
  const bashEnv = join(work, 'bash-env');
  writeFileSync(bashEnv, '');
  let failed = false;
  for (const step of steps) {
    const runs = step.when === 'always' || (step.when === 'on_fail' ? failed : !failed);
    if (!runs) continue;
    const command = step.command
      .replaceAll('npx --yes report-deployment@1', `"${installedCli().bin}"`)
      .replaceAll('./deploy.sh', `"${deploy}"`);
    try {
      const running = promisify(execFile)('sh', ['-c', `. "$BASH_ENV"\n${command}`], {
        cwd: work,
        env: { PATH: process.env.PATH ?? '', HOME: work, BASH_ENV: bashEnv, ...env, ...step.env },
      });
      // Nothing to read, as a CI's step has.
      running.child.stdin?.end();
      await running;
    } catch {
      failed = true;
    }
  }
}

const read = (file: string) => readFileSync(join(ROOT, 'examples', file), 'utf8');
const service = () => ({ DEPLOY_TRACKER_URL: fake.service.url, DEPLOY_TRACKER_API_KEY: fake.service.apiKey });

/** Each example: its steps, and the variables its CI sets for a push build of main. */
const EXAMPLES: { file: string; steps: () => Step[]; ci: Record<string, string>; link: string; user: string }[] = [
  {
    file: 'cli/gitlab-ci.yml',
    steps: () =>
      (parse(read('cli/gitlab-ci.yml')) as { deploy: { script: string[] } }).deploy.script.map((command) => ({
        command,
      })),
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
    steps: () =>
      [...read('cli/Jenkinsfile').matchAll(/sh '([^']+)'/g)].map((match) => ({ command: match[1] as string })),
    ci: {
      JENKINS_URL: 'https://jenkins.example.com/',
      GIT_COMMIT: SHA,
      GIT_BRANCH: 'origin/main',
      BUILD_URL: 'https://jenkins.example.com/job/shop/42/',
      BUILD_USER_ID: 'alice',
      BUILD_NUMBER: '42',
      JOB_NAME: 'shop',
    },
    link: 'https://jenkins.example.com/job/shop/42/',
    user: 'alice',
  },
  {
    file: 'cli/circleci-config.yml',
    steps: () =>
      (
        parse(read('cli/circleci-config.yml')) as {
          jobs: { deploy: { steps: (string | { run: { command: string; when?: Step['when'] } })[] } };
        }
      ).jobs.deploy.steps.flatMap((step) =>
        typeof step === 'object' ? [{ command: step.run.command, when: step.run.when }] : [],
      ),
    ci: {
      CI: 'true',
      CIRCLECI: 'true',
      CIRCLE_SHA1: SHA,
      CIRCLE_BRANCH: 'main',
      CIRCLE_USERNAME: 'alice',
      CIRCLE_BUILD_URL: 'https://app.circleci.com/pipelines/gh/acme/shop/9/workflows/w/jobs/31',
      CIRCLE_BUILD_NUM: '31',
      CIRCLE_JOB: 'deploy',
    },
    link: 'https://app.circleci.com/pipelines/gh/acme/shop/9/workflows/w/jobs/31',
    user: 'alice',
  },
  {
    file: 'cli/buildkite-pipeline.yml',
    steps: () =>
      (parse(read('cli/buildkite-pipeline.yml')) as { steps: { command: string }[] }).steps.map((step) => ({
        command: step.command,
      })),
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
    steps: () =>
      (parse(read('cli/azure-pipelines.yml')) as { steps: { script?: string; env?: Record<string, string> }[] }).steps
        .filter((step) => step.script)
        // The service's variables as the test's fake, in place of the pipeline's own.
        .map((step) => ({ command: step.script as string, env: { ...step.env, ...service() } })),
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
    steps: () =>
      (
        parse(read('cli-in-github-actions.yml')) as {
          jobs: { deploy: { steps: { run?: string; env?: Record<string, string> }[] } };
        }
      ).jobs.deploy.steps
        .filter((step) => step.run)
        .map((step) => ({ command: step.run as string, env: service() })),
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

describe('each example, run with its CI’s variables', () => {
  it.each(EXAMPLES.map((example) => [example.file, example] as const))(
    '%s records the build its CI describes, SUCCEEDED, then FAILED for a failed deploy',
    async (_, example) => {
      await runJob(example.steps(), { ...example.ci, ...service() }, 0);
      await runJob(example.steps(), { ...example.ci, ...service() }, 1);

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
    },
  );

  it('bitbucket-pipelines.yml records in after-script what the script came to', async () => {
    const step = (
      parse(read('cli/bitbucket-pipelines.yml')) as {
        pipelines: { branches: { main: { step: { script: string[]; 'after-script': string[] } }[] } };
      }
    ).pipelines.branches.main[0]?.step;
    const ci = {
      CI: 'true',
      BITBUCKET_BUILD_NUMBER: '88',
      BITBUCKET_COMMIT: SHA,
      BITBUCKET_BRANCH: 'main',
      BITBUCKET_REPO_FULL_NAME: 'acme/shop',
      BITBUCKET_STEP_TRIGGERER_UUID: '{0a1b2c3d-0000-4000-8000-000000000001}',
      ...service(),
    };
    for (const exitCode of [0, 1]) {
      // Bitbucket runs the script, then after-script with the script's exit code.
      await runJob(
        [
          ...(step?.script ?? []).map((command) => ({ command })),
          ...(step?.['after-script'] ?? []).map((command) => ({ command, when: 'always' as const })),
        ],
        { ...ci, BITBUCKET_EXIT_CODE: String(exitCode) },
        exitCode,
      );
    }

    expect(fake.service.requests.map((request) => request.body)).toEqual([
      expect.objectContaining({
        artifactName: 'shop-web',
        environment: 'Production',
        commitSha: SHA,
        branch: 'main',
        user: '{0a1b2c3d-0000-4000-8000-000000000001}',
        link: 'https://bitbucket.org/acme/shop/pipelines/results/88',
        status: 'SUCCEEDED',
      }),
      expect.objectContaining({ status: 'FAILED' }),
    ]);
  });
});
