// A run cancelled while the main step creates deployments (in-process, from src/): the runner's
// SIGINT or SIGTERM, played by emitting it on the process, at the moment a wave of 8 creates is in
// flight and no other can start. The tables behind test/e2e/cancel.test.ts.
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/fake-service.ts';
import { useFakeService } from '../helpers/fixture.ts';
import { runStepInProcess } from '../helpers/in-process.ts';

const fake = useFakeService();
const artifacts = (count: number) => Array.from({ length: count }, (_, index) => String(index + 1)).join(',');

/**
 * Answers the creates of the waves before the `at`-th create's at once, and holds those of its wave
 * until it has arrived (its wave in flight, no other can start); then sends `signal` to this
 * process (which the step takes) and lets the answers go.
 */
async function cancelAt(at: number, signal: 'SIGINT' | 'SIGTERM' = 'SIGINT', times = 1): Promise<void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const creates: RecordedRequest[] = [];
  await fake.restart({
    gate: (request) => {
      if (request.method !== 'POST') return undefined;
      creates.push(request);
      if (creates.length === at) {
        for (let time = 0; time < times; time++) process.emit(signal);
        release();
      }
      const waveStart = Math.floor((at - 1) / 8) * 8;
      return creates.length > waveStart && creates.length <= at ? released : undefined;
    },
  });
}

const postSteps = (main: Awaited<ReturnType<typeof runStepInProcess>>) =>
  runStepInProcess('post', { inputs: fake.inputs(), jobStatus: 'cancelled' }, main.state);

describe('cancelled mid-step', () => {
  it.each([
    ['in the first wave', 20, 8, 'SIGINT' as const],
    ['in the second wave', 20, 16, 'SIGINT' as const],
    ['by SIGTERM', 20, 16, 'SIGTERM' as const],
    ['in the last wave, every create sent', 20, 20, 'SIGINT' as const],
    ['with one artifact', 1, 1, 'SIGINT' as const],
  ])('%s (%i artifacts): what was sent is recorded and finished, nothing new is sent', async (_, count, at, signal) => {
    await cancelAt(at, signal);

    const main = await runStepInProcess('main', { inputs: fake.inputs({ 'artifact-id': artifacts(count) }) }, {});
    const post = await postSteps(main);

    expect(fake.service.requests.filter((request) => request.method === 'POST')).toHaveLength(at);
    expect(main.exitCode).toBe(0);
    expect(main.logLines).toContain(
      'The run is being cancelled: no further deployment is created; those already sent are waited for, and the post step sets each one created from the job status.',
    );
    expect(main.warnings).toHaveLength(count - at);
    for (const [index, warning] of main.warnings.entries()) {
      expect(warning).toBe(
        `Could not record the deployment of artifact ${at + index + 1}: not sent: the run was cancelled before its turn\nThe step goes on (fail-on-error is false).`,
      );
    }
    expect(JSON.parse(main.outputs['deployment-ids'] ?? '')).toHaveLength(at);
    expect(post.exitCode).toBe(0);
    expect(fake.service.deployments.size).toBe(at);
    for (const deployment of fake.service.deployments.values())
      expect(deployment.statuses).toEqual(['STARTED', 'FAILED']);
  });

  it('a second signal changes nothing, and the step still reports', async () => {
    await cancelAt(8, 'SIGINT', 3);

    const main = await runStepInProcess('main', { inputs: fake.inputs({ 'artifact-id': artifacts(10) }) }, {});

    expect(main.logLines.filter((line) => line.startsWith('The run is being cancelled'))).toHaveLength(1);
    expect(main.warnings).toHaveLength(2);
    expect(fake.service.deployments.size).toBe(8);
  });

  it('with a status given, the deployments sent are recorded as they are, and nothing is left to finish', async () => {
    await cancelAt(8);

    const main = await runStepInProcess(
      'main',
      { inputs: fake.inputs({ 'artifact-id': artifacts(12), status: 'success' }) },
      {},
    );
    const post = await postSteps(main);

    expect(main.logLines).toContain(
      'The run is being cancelled: no further deployment is created; those already sent are waited for.',
    );
    expect(main.warnings).toHaveLength(4);
    expect(post.logLines).toEqual([
      'Nothing to finish: the main step was given status SUCCEEDED, so the job status is not reported.',
    ]);
    for (const deployment of fake.service.deployments.values()) expect(deployment.statuses).toEqual(['SUCCEEDED']);
  });

  it('updates of deployment-id are all still sent: one not sent would leave a deployment unfinished', async () => {
    let signalled = false;
    await fake.restart({
      gate: (request) => {
        if (request.method !== 'PATCH' || signalled) return undefined;
        signalled = true;
        process.emit('SIGINT');
        return undefined;
      },
    });
    const ids = Array.from({ length: 12 }, (_, index) => index + 1);
    const started = await runStepInProcess(
      'main',
      { inputs: fake.inputs({ 'artifact-id': ids.join(','), status: 'STARTED' }) },
      {},
    );
    expect(started.warnings).toEqual([]);

    const main = await runStepInProcess(
      'main',
      {
        inputs: {
          'api-key': fake.service.apiKey,
          'base-url': fake.service.url,
          'deployment-id': started.outputs['deployment-ids'] ?? '',
          status: 'failure',
        },
      },
      {},
    );

    expect(main.logLines).toContain(
      'The run is being cancelled: every deployment is still set to FAILED, so that none is left unfinished.',
    );
    expect(main.warnings).toEqual([]);
    for (const deployment of fake.service.deployments.values())
      expect(deployment.statuses).toEqual(['STARTED', 'FAILED']);
  });

  it('a create under way that is answered 503 after the signal is not tried again', async () => {
    await cancelAt(8);
    fake.service.fail('POST', { status: 503, body: { detail: 'busy' } });

    const main = await runStepInProcess('main', { inputs: fake.inputs({ 'artifact-id': artifacts(9) }) }, {});

    expect(fake.service.requests.filter((request) => request.method === 'POST')).toHaveLength(8);
    expect(main.warnings[0]).toMatch(
      /^Could not record the deployment of artifact [1-8]: HTTP 503: busy\nThe step goes on \(fail-on-error is false\)\.$/,
    );
    expect(main.warnings).toHaveLength(2);
    expect(fake.service.deployments.size).toBe(7);
  });

  it('no signal handler is left behind once the step is over', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];

    await runStepInProcess('main', { inputs: fake.inputs() }, {});

    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
  });
});

describe('handed on as each is created', () => {
  it('the state holds the deployments created so far after each answer, and the report last', async () => {
    const main = await runStepInProcess('main', { inputs: fake.inputs({ 'artifact-id': artifacts(3) }) }, {});

    const handoffs = [...main.files.state.matchAll(/^handoff<<(ghadelimiter_[0-9a-f-]+)\n(.*)\n\1$/gm)].map(
      (match) => JSON.parse(match[2] as string) as { ids: number[] },
    );
    expect(handoffs.map((handoff) => handoff.ids.length)).toEqual([1, 2, 3, 3]);
    expect(handoffs.at(-1)?.ids.toSorted()).toEqual([1, 2, 3]);
    // The runner keeps a name's last value: the report's.
    expect(JSON.parse(main.state.handoff ?? '')).toEqual(handoffs.at(-1));
  });
});
