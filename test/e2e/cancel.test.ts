// A run cancelled while the built main step creates 20 deployments, as the runner cancels: SIGINT
// (then SIGTERM, then SIGKILL after a grace period). What was created before the signal reaches the
// post step, which finishes it; nothing new is created after it. The fake holds the second wave of
// answers until the step has taken the signal, so the order of events is fixed, not timed.
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/fake-service.ts';
import { useFakeService } from '../helpers/fixture.ts';
import { runStep } from '../helpers/run-action.ts';

const fake = useFakeService();
const ARTIFACTS = Array.from({ length: 20 }, (_, index) => String(index + 1)).join('\n');

/**
 * A fake that answers the first 8 creates (one wave: 8 in flight), holds the next 8 until
 * `release()`, and calls `arrived` when the 16th create has arrived: then the step has 8 in flight
 * and can start no other until an answer comes.
 */
async function holdingSecondWave(arrived: () => void): Promise<{ release: () => void }> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const creates: RecordedRequest[] = [];
  await fake.restart({
    gate: (request) => {
      if (request.method !== 'POST') return undefined;
      creates.push(request);
      if (creates.length === 16) arrived();
      return creates.length > 8 ? released : undefined;
    },
  });
  return { release };
}

describe('cancelled mid-step', () => {
  it('SIGINT during 20 creates: none starts after it, the 16 created reach the post step, which sets each FAILED', async () => {
    let child: ChildProcess | undefined;
    let signalledAt = Infinity;
    const { release } = await holdingSecondWave(() => {
      signalledAt = performance.now();
      child?.kill('SIGINT');
    });

    const main = await runStep(
      'main',
      {
        inputs: fake.inputs({ 'artifact-id': ARTIFACTS }),
        killAfterMs: 20_000,
        onSpawn: (spawned) => {
          child = spawned;
          // The held answers go out once the step says it has taken the signal.
          // (The output read as a whole so far: a line may come in two chunks.)
          let seen = '';
          spawned.stdout?.on('data', (chunk: Buffer) => {
            seen += chunk.toString();
            if (seen.includes('The run is being cancelled')) release();
          });
        },
      },
      {},
    );
    const post = await runStep('post', { inputs: fake.inputs(), jobStatus: 'cancelled' }, main.state);

    const creates = fake.service.requests.filter((request) => request.method === 'POST');
    expect(creates).toHaveLength(16);
    expect(creates.filter((request) => request.at > signalledAt)).toEqual([]);
    expect(main.exitCode).toBe(0);
    expect(main.logLines).toContain(
      'The run is being cancelled: no further deployment is created; those already sent are waited for, and the post step sets each one created from the job status.',
    );
    expect(main.warnings).toHaveLength(4);
    expect(main.warnings[0]).toBe(
      'Could not record the deployment of artifact 17: not sent: the run was cancelled before its turn\nThe step goes on (fail-on-error is false).',
    );
    expect(main.summary).toContain('<h3>16 of 20 deployments recorded</h3>');
    expect(JSON.parse(main.outputs['deployment-ids'] ?? '')).toHaveLength(16);
    expect(post.exitCode).toBe(0);
    expect(fake.service.deployments.size).toBe(16);
    for (const deployment of fake.service.deployments.values())
      expect(deployment.statuses).toEqual(['STARTED', 'FAILED']);
  });

  it('killed (SIGKILL) with 8 creates still open: the 8 already answered were handed on as they came, and are finished', async () => {
    let child: ChildProcess | undefined;
    await holdingSecondWave(() => child?.kill('SIGKILL'));

    const main = await runStep(
      'main',
      {
        inputs: fake.inputs({ 'artifact-id': ARTIFACTS }),
        killAfterMs: 20_000,
        onSpawn: (spawned) => (child = spawned),
      },
      {},
    );
    const post = await runStep('post', { inputs: fake.inputs(), jobStatus: 'cancelled' }, main.state);

    expect(main.exitCode).toBeNull();
    const handoff = JSON.parse(main.state.handoff ?? '') as { kind: string; ids: number[] };
    expect(handoff.kind).toBe('finish');
    expect(handoff.ids.toSorted((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(post.exitCode).toBe(0);
    expect(post.logLines[0]).toMatch(/^Deployments (\d, ){7}\d set to FAILED after \d+s\.$/);
    expect(fake.service.deployments.size).toBe(8);
    for (const deployment of fake.service.deployments.values())
      expect(deployment.statuses).toEqual(['STARTED', 'FAILED']);
  });
});
