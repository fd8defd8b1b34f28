// Deployments other tools report to GitHub (in-process, from src/): a workflow on deployment_status
// records each from the event, whatever created it (a hosting platform's bot, a GitHub App, a user
// through the REST API), on a branch, a tag or a bare commit; states that have not ended, and
// deployment events, record nothing and say why. test/e2e/deployment-status.test.ts runs one case of
// each class on dist/.
import { describe, expect, it } from 'vitest';
import {
  deploymentRun,
  exampleWith,
  fixture,
  fixtureRun,
  readmeWith,
  RUN_REFS,
  type FixtureName,
} from '../helpers/deployment-events.ts';
import { useFakeService } from '../helpers/fixture.ts';
import { runJobInProcess } from '../helpers/in-process.ts';
import type { JobOptions, StepResult } from '../helpers/run-action.ts';

const fake = useFakeService();

/** The step of examples/deployment-status.yml, as written but for the fake's address. */
const recordStep = (extra: Record<string, string> = {}) => ({
  ...exampleWith(),
  'base-url': fake.service.url,
  ...extra,
});

function record(
  run: Pick<JobOptions, 'event' | 'env'>,
  extra: Record<string, string> = {},
  more: Partial<JobOptions> = {},
) {
  return runJobInProcess({
    inputs: recordStep(extra),
    contexts: { secrets: { DEPLOY_TRACKER_API_KEY: fake.service.apiKey } },
    ...run,
    ...more,
  });
}

/** The job summary of one recorded deployment, as the action writes it. */
function recordedSummary(body: Record<string, string>, host: string): string {
  return [
    '<h3>Deployment recorded</h3>',
    '<table><tr><th>Artifact</th><th>Environment</th><th>Version</th><th>Commit</th><th>Branch</th><th>Status</th><th>Id</th><th>Link</th></tr>' +
      `<tr><td>shop-web</td><td>${body.environment}</td><td>${body.version}</td><td><code>${body.commitSha?.slice(0, 7)}</code></td>` +
      `<td>${body.branch}</td><td>${body.status}</td><td>1</td><td><a href="${body.link}">${host}</a></td></tr></table>`,
    '',
  ].join('\n');
}

const VERCEL_SHA = '73ff055b9bdf6acd07e10478ce6ef3dc8423a932';
const SHA_REF = '6e34a94445b483cd1ddfee6d918d6ef5ffc5bd74';

/** What each finished fixture records: the body the service receives, and the link's host in the summary. */
const RECORDED: [FixtureName, Record<string, string>, string][] = [
  [
    'vercel-success',
    {
      version: VERCEL_SHA,
      environment: 'Preview',
      commitSha: VERCEL_SHA,
      user: 'vercel[bot]',
      branch: VERCEL_SHA,
      description: 'success: Deployment has completed; GitHub deployment 6289442817 by vercel[bot]',
      link: 'https://marketing-site-k3j9x2p7q-acme-web.vercel.app',
      status: 'SUCCEEDED',
    },
    'marketing-site-k3j9x2p7q-acme-web.vercel.app',
  ],
  [
    'netlify-failure',
    {
      version: 'bd37c542b968b3cb915b38b913344e31fdfd288f',
      environment: 'deploy-preview-42',
      commitSha: 'bd37c542b968b3cb915b38b913344e31fdfd288f',
      user: 'netlify[bot]',
      branch: 'feature/login',
      description:
        'failure: Deploy Preview failed: build script returned non-zero exit code: 2; GitHub deployment 6289440075 by netlify[bot]',
      link: 'https://app.netlify.com/projects/acme-marketing/deploys/67cefa15d3c2b40008a41e7c',
      status: 'FAILED',
    },
    'app.netlify.com',
  ],
  [
    'app-error',
    {
      version: '2.4.1',
      environment: 'staging',
      commitSha: '643d1bb445d48d6c308a2f4af4a393dded835356',
      user: 'acme-deployer[bot]',
      branch: 'main',
      description:
        'Deploy storefront 2.4.1 to staging; error: Helm upgrade failed: timed out waiting for the condition; GitHub deployment 6290117342 by acme-deployer[bot] via Acme Deployer',
      link: 'https://argocd.acme-web.example/applications/storefront-staging?operation=true',
      status: 'FAILED',
    },
    'argocd.acme-web.example',
  ],
  [
    'tag-ref-success',
    {
      version: 'v1.4.0',
      environment: 'production',
      commitSha: 'fd67dd0a82ca847690729d220a3614366879dfa3',
      user: 'maria-lopez-dev',
      branch: 'v1.4.0',
      description:
        'Release v1.4.0; success: Deployed v1.4.0 to production; GitHub deployment 6291503388 by maria-lopez-dev',
      link: 'https://ci.acme-web.example/deploys/8812',
      status: 'SUCCEEDED',
    },
    'ci.acme-web.example',
  ],
  [
    'sha-ref-success',
    {
      version: SHA_REF,
      environment: 'staging',
      commitSha: SHA_REF,
      user: 'acme-release-bot',
      branch: SHA_REF,
      description: 'success: Deployed to staging; GitHub deployment 6291877410 by acme-release-bot',
      link: 'https://ci.acme-web.example/deploys/8820',
      status: 'SUCCEEDED',
    },
    'ci.acme-web.example',
  ],
  [
    'payload-string',
    {
      version: '3.0.0',
      environment: 'production',
      commitSha: 'c32f05c49e984e33781c9d3eb744ba24da3d81b0',
      user: 'acme-release-bot',
      branch: 'release/3.0',
      description:
        'Deploy storefront 3.0.0; success: Deployed 3.0.0 to production; GitHub deployment 6294420097 by acme-release-bot',
      link: 'https://ci.acme-web.example/deploys/8901',
      status: 'SUCCEEDED',
    },
    'ci.acme-web.example',
  ],
];

const NOT_FINAL: FixtureName[] = ['pending', 'queued', 'in_progress', 'inactive'];

/** What a step left that a user sees, the ids aside: the request bodies, outputs, log, summary and post. */
function seen({ main, post }: { main: StepResult; post: StepResult }) {
  return {
    bodies: fake.service.requests.map((request) => request.body),
    outputs: main.outputs,
    log: main.logLines,
    warnings: main.warnings,
    summary: main.summary,
    post: post.logLines,
    postSummary: post.summary,
  };
}

describe('a finished state records one finished deployment, and post sends nothing', () => {
  it.each(RECORDED)('%s', async (name, body, host) => {
    const { main, post } = await record(fixtureRun(name));

    expect(main.exitCode).toBe(0);
    expect(fake.received()).toEqual(['POST /deployment']);
    expect(fake.service.requests[0]?.body).toEqual({ artifactName: 'shop-web', type: 'SIMPLE', ...body });
    expect(main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '[1]', status: body.status });
    expect(main.logLines).toEqual([
      `Recorded deployment 1: artifact 'shop-web' version ${body.version} to ${body.environment} (${body.status}).`,
    ]);
    expect(main.warnings).toEqual([]);
    expect(main.summary).toBe(recordedSummary(body, host));
    expect(post.exitCode).toBe(0);
    expect(post.logLines).toEqual([
      `Nothing to finish: the main step was given status ${body.status}, so the job status is not reported.`,
    ]);
    expect(post.summary).toBe('');
    expect(fake.service.deployments.get('1')?.statuses).toEqual([body.status]);
  });
});

describe('a state that has not ended records nothing, and says why', () => {
  const cases: [string, JobOptions['event'] & {}, Pick<JobOptions, 'env'>][] = NOT_FINAL.map((name) => {
    const run = fixtureRun(name);
    return [name, run.event as JobOptions['event'] & {}, { env: run.env }];
  });
  // A state GitHub gives deployments waiting for a reviewer's approval.
  const waiting = fixture('queued');
  (waiting.deployment_status as Record<string, unknown>).state = 'waiting';
  const waitingRun = deploymentRun(waiting, RUN_REFS.queued);
  cases.push(['waiting', waitingRun.event as JobOptions['event'] & {}, { env: waitingRun.env }]);

  it.each(cases)('%s', async (state, event, { env }) => {
    const { main, post } = await record({ event, env });

    const line = `Nothing recorded: the deployment is '${state}', not a final state. A workflow on \`deployment_status\` records it once its state is success, failure or error (a STARTED record now would stay unfinished beside that one).`;
    expect(main.exitCode).toBe(0);
    expect(fake.service.requests).toEqual([]);
    expect(main.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: '' });
    expect(main.logLines).toEqual([line]);
    expect(main.warnings).toEqual([]);
    expect(main.summary).toBe(
      `<h3>Deployment not recorded: not finished yet</h3>\n<p>${line.replaceAll("'", '&#39;')}</p>\n`,
    );
    expect(post.exitCode).toBe(0);
    expect(post.logLines).toEqual([`Nothing to finish: the deployment was '${state}', so nothing was recorded.`]);
    expect(post.summary).toBe('');
  });
});

describe('status: ${{ github.event.deployment_status.state }} means what an empty status means', () => {
  it.each([...RECORDED.map(([name]) => name), ...NOT_FINAL])('%s', async (name) => {
    const implied = seen(await record(fixtureRun(name)));
    await fake.restart({});
    const explicit = await record(fixtureRun(name), { status: '${{ github.event.deployment_status.state }}' });

    const state = (fixture(name).deployment_status as { state: string }).state;
    expect(explicit.main.inputs.status).toBe(state);
    expect(seen(explicit)).toEqual(implied);
  });
});

describe('a deployment event', () => {
  it('records nothing without status, and says to listen to deployment_status', async () => {
    const { main, post } = await record(fixtureRun('deployment-created'));

    const line =
      'Nothing recorded: a `deployment` event comes when a deployment is created, before it has a state. Run this workflow on `deployment_status` to record each deployment once it has succeeded or failed, or set `status` to record it here.';
    expect(main.exitCode).toBe(0);
    expect(fake.service.requests).toEqual([]);
    expect(main.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: '' });
    expect(main.warnings).toEqual([line]);
    expect(main.logLines).toEqual([]);
    expect(main.summary).toBe(`<h3>Deployment not recorded: no state yet</h3>\n<p>${line}</p>\n`);
    expect(post.logLines).toEqual(['Nothing to finish: the deployment had no state yet, so nothing was recorded.']);
  });

  it.each([
    ['success', 'SUCCEEDED'],
    ['STARTED', 'STARTED'],
  ])('with status %s records it from the deployment', async (status, sent) => {
    const { main } = await record(fixtureRun('deployment-created'), { status });

    expect(main.exitCode).toBe(0);
    expect(fake.service.requests[0]?.body).toEqual({
      artifactName: 'shop-web',
      version: '2.6.0',
      environment: 'production',
      commitSha: '92e71ca35a8f1d71f0a8b18082d4f560a853cee0',
      user: 'maria-lopez-dev',
      branch: 'main',
      type: 'SIMPLE',
      description: 'Deploy storefront 2.6.0 to production; GitHub deployment 6293011845 by maria-lopez-dev',
      // No status yet, so no status URL: the job that recorded it.
      link: 'https://github.com/acme-web/storefront/actions/runs/9100/job/31415926',
      status: sent,
    });
  });
});

describe('the defaults from the event', () => {
  it('each input wins over its default', async () => {
    const given = {
      version: '2.4.1-hotfix',
      environment: 'Staging EU',
      'commit-sha': 'f'.repeat(40),
      user: 'ops-team',
      branch: 'hotfix/helm',
      description: 'Helm rollout',
      link: 'https://status.acme-web.example/rollouts/1',
      status: 'SUCCEEDED',
    };
    await record(fixtureRun('app-error'), given);

    expect(fake.service.requests[0]?.body).toEqual({
      artifactName: 'shop-web',
      version: '2.4.1-hotfix',
      environment: 'Staging EU',
      commitSha: 'f'.repeat(40),
      user: 'ops-team',
      branch: 'hotfix/helm',
      type: 'SIMPLE',
      description: 'Helm rollout',
      link: 'https://status.acme-web.example/rollouts/1',
      status: 'SUCCEEDED',
    });
  });

  it.each([
    [
      "'' for the log and target URLs (as real payloads carry)",
      { log_url: '', target_url: '' },
      'https://marketing-site-k3j9x2p7q-acme-web.vercel.app',
    ],
    [
      'null for every URL',
      { log_url: null, target_url: null, environment_url: null },
      'https://github.com/acme-web/marketing-site/actions/runs/9100/job/31415926',
    ],
    [
      'no URL at all',
      { log_url: undefined, target_url: '', environment_url: undefined },
      'https://github.com/acme-web/marketing-site/actions/runs/9100/job/31415926',
    ],
    [
      'a target URL of its own',
      { log_url: '', target_url: 'https://vercel.com/acme-web/marketing-site/x' },
      'https://vercel.com/acme-web/marketing-site/x',
    ],
  ])('the link with %s', async (_, urls, link) => {
    const payload = fixture('vercel-success');
    Object.assign(payload.deployment_status as Record<string, unknown>, urls);
    await record(deploymentRun(payload, ''));

    expect(fake.service.requests[0]?.body).toMatchObject({ link });
  });

  it.each([
    ['Production', 'main', 'Production'],
    ['Preview', VERCEL_SHA, 'Staging'],
  ])(
    "the README's expressions on a bare-SHA ref: a Vercel %s deployment is on %s, in the service's %s",
    async (vercelEnvironment, branch, environment) => {
      const payload = fixture('vercel-success');
      (payload.deployment as Record<string, unknown>).environment = vercelEnvironment;
      (payload.deployment_status as Record<string, unknown>).environment = vercelEnvironment;
      const given = readmeWith('branch');
      const { main } = await record(deploymentRun(payload, ''), { ...given, 'base-url': fake.service.url });

      expect(given.branch).toContain('github.event.repository.default_branch');
      expect(fake.service.requests[0]?.body).toMatchObject({ branch, environment, status: 'SUCCEEDED' });
      // An expression that gives '' leaves the input empty: the default applies.
      expect(main.inputs.branch).toBe(vercelEnvironment === 'Production' ? 'main' : '');
      expect(main.inputs.environment).toBe(vercelEnvironment === 'Production' ? '' : 'Staging');
    },
  );

  it('deployment-id: the deployments it names are set to the event state', async () => {
    const start = await runJobInProcess({ inputs: fake.inputs({ status: 'STARTED' }) });

    const { main, post } = await record(fixtureRun('netlify-failure'), {
      'deployment-id': start.main.outputs['deployment-id'] as string,
    });

    expect(fake.received()).toEqual(['POST /deployment', 'PATCH /deployment/1']);
    expect(fake.service.requests[1]?.body).toEqual({ status: 'FAILED' });
    expect(main.logLines).toEqual(['Deployment 1 set to FAILED.']);
    expect(post.logLines).toEqual(['Nothing to finish: the main step already set the deployment status to FAILED.']);
  });
});

describe('a state the action does not know', () => {
  const odd = () => {
    const payload = fixture('vercel-success');
    (payload.deployment_status as Record<string, unknown>).state = 'paused';
    return deploymentRun(payload, '');
  };

  it('from the event: a configuration error that says where the state came from', async () => {
    const { main, post } = await record(odd());

    const error =
      "Input 'status' is empty, so the status comes from the event's `deployment_status.state`: 'paused', which is neither a finished state nor one that records nothing. Set `status` to say what to record.";
    expect(main.exitCode).toBe(1);
    expect(fake.service.requests).toEqual([]);
    expect(main.errors).toEqual([error]);
    expect(main.summary).toBe(
      `<h3>Deployment not recorded: configuration error</h3>\n<ul><li>${error.replaceAll("'", '&#39;')}</li></ul>\n`,
    );
    expect(post.logLines).toEqual(['Nothing to finish: the main step stopped on a configuration error.']);
  });

  it('given as status: the usual error, and what an empty one would mean', async () => {
    const { main } = await record(odd(), { status: '${{ github.event.deployment_status.state }}' });

    expect(main.exitCode).toBe(1);
    expect(main.errors).toEqual([
      "Input 'status' must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped, or a GitHub deployment's state), got 'paused'. Leave it empty to take it from the event's `deployment_status.state`.",
    ]);
  });

  it('an event whose state is no string, or that cannot be read: the same error, and a warning for the file', async () => {
    const payload = fixture('vercel-success');
    (payload.deployment_status as Record<string, unknown>).state = { toString: 'success' };
    const wrongType = await record(deploymentRun(payload, ''));
    const unreadable = await record(fixtureRun('vercel-success'), {}, { eventText: '{"deployment_status":' });

    const stateError =
      "Input 'status' is empty, so the status comes from the event's `deployment_status.state`: '', which is neither a finished state nor one that records nothing. Set `status` to say what to record.";
    expect(wrongType.main.errors).toEqual([stateError]);
    // A bare-SHA ref's run has no GITHUB_REF: without the event, no branch either (every problem at once).
    expect(unreadable.main.errors).toEqual([
      `${stateError}\nInput 'branch' is empty, and neither the event's deployment.ref nor GITHUB_REF gives a default. Set \`branch\`.`,
    ]);
    expect([wrongType.main.exitCode, unreadable.main.exitCode]).toEqual([1, 1]);
    expect(unreadable.main.warnings).toEqual([
      'The event file (GITHUB_EVENT_PATH) could not be read (it is not JSON): the defaults come from the GITHUB_* variables alone.',
    ]);
    expect(fake.service.requests).toEqual([]);
  });
});
