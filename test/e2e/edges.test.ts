// The promises at the edges, on the built dist/ as the runner runs it: fail-open across jobs, status
// words from the runner, no foreign workflow command, ids kept exactly and kept to the protocol,
// bounded answers, broken runner data. Tables and generated cases of each run in-process
// (test/steps/edges.test.ts, test/steps/properties.test.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { runJob, runStep } from '../helpers/run-action.ts';

const fake = useFakeService();

describe('fail-open across jobs and status words from the runner', () => {
  it('deployment-id [] (an earlier job recorded nothing): a warning, no request, and the post step too does nothing', async () => {
    const { main, post } = await runJob({
      inputs: { 'api-key': fake.service.apiKey, 'base-url': fake.service.url, 'deployment-id': '[]' },
    });

    expect([main.exitCode, post.exitCode]).toEqual([0, 0]);
    expect(main.warnings).toEqual([
      "Input 'deployment-id' is an empty list: the job that started the deployment recorded none (see its log), so there is nothing to update.",
    ]);
    expect(main.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: '' });
    expect(post.logLines).toEqual(["Nothing to finish: Input 'deployment-id' was an empty list."]);
    expect(fake.service.requests).toEqual([]);
  });

  it("status: ${{ steps.deploy.outcome }} that is 'skipped' records nothing, and says so", async () => {
    const { main, post } = await runJob({
      inputs: fake.inputs({ status: '${{ steps.deploy.outcome }}' }),
      contexts: { steps: { deploy: { outcome: 'skipped', conclusion: 'skipped' } } },
    });

    expect([main.exitCode, post.exitCode]).toEqual([0, 0]);
    expect(main.logLines).toEqual(["Nothing recorded: status is 'skipped', so nothing was deployed."]);
    expect(main.summary).toBe(
      '<h3>Deployment not recorded: skipped</h3>\n<p>Nothing recorded: status is &#39;skipped&#39;, so nothing was deployed.</p>\n',
    );
    expect(post.logLines).toEqual(["Nothing to finish: status was 'skipped', so nothing was recorded."]);
    expect(fake.service.requests).toEqual([]);
  });
});

describe('no workflow command but the action’s own', () => {
  it('values with line breaks and commands, from inputs and the service, are shown, never run', async () => {
    fake.service.fail('PATCH', {
      status: 409,
      body: { detail: 'conflict\n::stop-commands::t0k3n\n::error::from the service\n::t0k3n::' },
    });
    const hostile = {
      version: '1.0\n::error::pwned\n::add-mask::everything',
      environment: 'Staging ##[set-output name=status]SUCCEEDED',
      branch: 'main\n\n# Injected heading\n\n![beacon](https://evil.example/b.png)\n\n',
    };

    const { main, post } = await runJob({ inputs: fake.inputs(hostile) });

    expect(main.commands.map((command) => command.command)).toEqual(['add-mask']);
    expect(post.commands.map((command) => command.command)).toEqual(['add-mask', 'warning']);
    expect(post.warnings[0]).toBe(
      'Could not set deployment 1 to SUCCEEDED: HTTP 409: conflict\\n::stop-commands::t0k3n\\n::error::from the service\\n::t0k3n::\nThe step goes on (fail-on-error is false).',
    );
    expect(main.logLines).toContain(
      'Recorded deployment 1: artifact 42 version 1.0\\n::error::pwned\\n::add-mask::everything to Staging ##[set-output name=status]SUCCEEDED (STARTED).',
    );
    // The values went to the service as they were given.
    const { version, environment, branch } = hostile;
    // (The runner passes inputs as they are; @actions/core trims their ends.)
    expect(fake.service.requests[0]?.body).toMatchObject({ version, environment, branch: branch.trim() });
    // The summary stays one HTML element a line: no Markdown heading, no remote image.
    for (const step of [main, post]) {
      for (const line of step.summary.split('\n').slice(0, -1)) expect(line).toMatch(/^<(h3|p|table|ul)>.*<\/\1>$/);
    }
    expect(main.summary).toContain('main\\n\\n# Injected heading');
    expect(main.outputs).toEqual({ 'deployment-id': '1', 'deployment-ids': '[1]', status: 'STARTED' });
  });
});

describe('ids', () => {
  it('keeps a numeric id beyond 2^53 exactly, from the answer to the outputs and the PATCH path', async () => {
    await fake.restart({ ids: () => '9007199254740993' });

    const { main } = await runJob({ inputs: fake.inputs() });

    expect(main.outputs).toEqual({
      'deployment-id': '9007199254740993',
      'deployment-ids': '[9007199254740993]',
      status: 'STARTED',
    });
    expect(fake.received()).toEqual(['POST /deployment', 'PATCH /deployment/9007199254740993']);
    expect(fake.service.deployments.get('9007199254740993')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });

  it('never keeps an id longer than 128 characters: not stored, and the post step sends nothing', async () => {
    await fake.restart({ ids: () => JSON.stringify('x'.repeat(10_000)) });

    const { main, post } = await runJob({ inputs: fake.inputs() });

    expect(main.warnings[0]).toMatch(
      /^Could not record the deployment of artifact 42: HTTP 200, but the deployment id it returned is 10000 characters long \(at most 128\), so it is not kept/,
    );
    expect(main.outputs['deployment-ids']).toBe('[]');
    expect(post.logLines).toEqual(['Nothing to finish: the main step could not record a deployment.']);
    expect(fake.received()).toEqual(['POST /deployment']);
  });

  it('never keeps a 200 kB id (an answer over 64 KiB): the post step can still start, and sends nothing', async () => {
    await fake.restart({ ids: () => JSON.stringify('x'.repeat(200_000)) });

    const { main, post } = await runJob({ inputs: fake.inputs() });

    expect(main.exitCode).toBe(0);
    expect(main.warnings[0]).toMatch(
      /^Could not record the deployment of artifact 42: HTTP 200, but the answer is over 64 KiB \(only that much is read\), so it is not taken as a success/,
    );
    expect(main.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: '' });
    expect(JSON.stringify(main.state).length).toBeLessThan(200);
    expect(post.exitCode).toBe(0);
    expect(post.logLines).toEqual(['Nothing to finish: the main step could not record a deployment.']);
    expect(fake.received()).toEqual(['POST /deployment']);
  });
});

describe('ids that survive the trip to a later job', () => {
  it("refuses an id a later job would read as two ('7,8') when it arrives; the later job is handed [] and updates nothing", async () => {
    await fake.restart({ ids: () => '"7,8"' });

    const start = await runStep('main', { inputs: fake.inputs({ status: 'STARTED' }) }, {});
    const later = await runStep(
      'main',
      {
        inputs: {
          'api-key': fake.service.apiKey,
          'base-url': fake.service.url,
          'deployment-id': '${{ needs.start.outputs.deployment-ids }}',
          status: 'success',
        },
        contexts: { needs: { start: { outputs: start.outputs, result: 'success' } } },
      },
      {},
    );

    expect(start.warnings).toEqual([
      'Could not record the deployment of artifact 42: HTTP 200, but the deployment id it returned holds a comma, which a later job would read as two ids, so it is not kept (the service may have recorded a deployment this action cannot finish)\nThe step goes on (fail-on-error is false).',
    ]);
    expect(start.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: '' });
    expect(later.exitCode).toBe(0);
    expect(later.inputs['deployment-id']).toBe('[]');
    expect(fake.received()).toEqual(['POST /deployment']);
  });
});

describe('bounded fan-out', () => {
  it('records 100 artifacts with at most 8 requests in flight', async () => {
    await fake.restart({ answerDelayMs: 5 });
    const ids = Array.from({ length: 100 }, (_, index) => String(index + 1)).join('\n');

    const main = await runStep('main', { inputs: fake.inputs({ 'artifact-id': ids }) }, {});

    expect(main.exitCode).toBe(0);
    expect(fake.service.deployments.size).toBe(100);
    expect(fake.service.maxInFlight).toBeLessThanOrEqual(8);
    expect(JSON.parse(main.outputs['deployment-ids'] ?? '')).toHaveLength(100);
  });
});

describe('bounded answers', () => {
  it('reads 64 KiB of a 300 MB answer: small memory, a short message, a small summary', async () => {
    fake.service.fail('POST', { status: 500, stream: 300 * 1024 * 1024 });

    const main = await runStep('main', { inputs: fake.inputs(), probe: true, env: { RUNNER_DEBUG: '1' } }, {});

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([
      'Could not record the deployment of artifact 42: HTTP 500 (the answer is over 64 KiB; it was not read whole)\nThe step goes on (fail-on-error is false).',
    ]);
    expect(main.probe?.maxRssKiB).toBeLessThan(150 * 1024);
    expect(main.summary.length).toBeLessThan(1000);
    expect(main.stdout.length).toBeLessThan(20_000);
  });
});

describe('wire oddities', () => {
  it('a create answered after an unsolicited 100 Continue: said plainly, not tried again, and asked without compression', async () => {
    fake.service.fail('POST', { interim: 'HTTP/1.1 100 Continue\r\n\r\n' });

    const { main, post } = await runJob({ inputs: fake.inputs() });

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([
      `Could not record the deployment of artifact 42: the answer of ${new URL(fake.service.url).host} is one this client cannot read: an interim \`100 Continue\` it did not ask for, or an answer before any request (the service may have acted on the request)\nThe step goes on (fail-on-error is false).`,
    ]);
    expect(fake.received()).toEqual(['POST /deployment']);
    expect(fake.service.requests[0]?.headers['accept-encoding']).toBe('identity');
    expect(post.logLines).toEqual(['Nothing to finish: the main step could not record a deployment.']);
  });
});

describe('runner files that block', () => {
  it('GITHUB_OUTPUT, GITHUB_STATE and GITHUB_STEP_SUMMARY each a pipe nobody reads: the steps end by themselves, a warning naming each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'runner-files-'));
    const fifo = (name: string) => {
      const path = join(dir, name);
      execFileSync('mkfifo', [path]);
      return path;
    };
    const env = { GITHUB_OUTPUT: fifo('output'), GITHUB_STATE: fifo('state'), GITHUB_STEP_SUMMARY: fifo('summary') };
    const nobody = '(writing to it would hold the step)';

    try {
      const main = await runStep('main', { inputs: fake.inputs(), env, killAfterMs: 10_000 }, {});
      // The state the main step could not hand on, as the runner would have had it.
      const handoff = '{"kind":"finish","ids":[1],"startedAt":1}';
      const post = await runStep('post', { inputs: fake.inputs(), env, killAfterMs: 10_000 }, { handoff });

      expect(main.exitCode).toBe(0);
      expect(main.warnings).toEqual([
        `Could not write the step's state: GITHUB_STATE (${env.GITHUB_STATE}) is a pipe that nobody reads ${nobody}`,
        `Could not write the step's outputs: GITHUB_OUTPUT (${env.GITHUB_OUTPUT}) is a pipe that nobody reads ${nobody}`,
        `Could not write the job summary: GITHUB_STEP_SUMMARY (${env.GITHUB_STEP_SUMMARY}) is a pipe that nobody reads ${nobody}`,
      ]);
      expect(post.exitCode).toBe(0);
      expect(post.warnings).toEqual([
        `Could not write the job summary: GITHUB_STEP_SUMMARY (${env.GITHUB_STEP_SUMMARY}) is a pipe that nobody reads ${nobody}`,
      ]);
      expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('broken runner data', () => {
  it('an event file that is not JSON: one warning, and the deployment recorded from the GITHUB_* variables', async () => {
    const main = await runStep(
      'main',
      { inputs: fake.inputs(), eventText: '{"compare": "https://x', event: { name: 'push', payload: {} } },
      {},
    );

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([
      'The event file (GITHUB_EVENT_PATH) could not be read (it is not JSON): the defaults come from the GITHUB_* variables alone.',
    ]);
    expect(fake.service.requests[0]?.body).toMatchObject({ branch: 'main', status: 'STARTED' });
    expect(fake.service.requests[0]?.body).not.toHaveProperty('changelog');
    expect(main.stderr).toBe('');
  });

  it('an event path to a procfs file beyond the bound whose size says 0: read up to the bound, one warning, the GITHUB_* defaults', async () => {
    const main = await runStep(
      'main',
      { inputs: fake.inputs(), env: { GITHUB_EVENT_PATH: '/proc/self/pagemap' }, killAfterMs: 10_000 },
      {},
    );

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([
      'The event file (GITHUB_EVENT_PATH) is over 25 MiB: the defaults come from the GITHUB_* variables alone.',
    ]);
    expect(fake.service.requests[0]?.body).toMatchObject({
      commitSha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
      branch: 'main',
      user: 'alice',
    });
  });

  it('state the post step cannot read: one warning, no request, no stack trace', async () => {
    const post = await runStep('post', { inputs: fake.inputs() }, { handoff: '{"kind":"finish","ids":"1,2"}' });

    expect(post.exitCode).toBe(0);
    expect(post.warnings).toEqual([
      "The main step's state could not be read (its ids are no list of deployment ids), so nothing is sent: the deployment stays as the main step left it.",
    ]);
    expect(fake.service.requests).toEqual([]);
    expect(post.stderr).toBe('');
  });
});

describe('answers nested deep', () => {
  it('a detail nested 30000 levels deep (60 kB): a refusal with its status and a shortened detail, never a bug of ours', async () => {
    const body = `{"detail":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    fake.service.fail('POST', { status: 400, body, headers: { 'content-type': 'application/json' } });

    const { main, post } = await runJob({ inputs: fake.inputs() });

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([
      `Could not record the deployment of artifact 42: HTTP 400:\n  ${'['.repeat(300)}… (truncated)\nThe step goes on (fail-on-error is false).`,
    ]);
    expect(main.summary).toContain('<h3>0 of 1 deployments recorded</h3>');
    expect(post.exitCode).toBe(0);
    expect(post.logLines).toEqual(['Nothing to finish: the main step could not record a deployment.']);
  });
});
