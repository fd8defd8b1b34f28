// The built dist/ as the runner runs it: bad configuration fails before any request, naming the
// input, the key masked first; the key appears in no line, also with debug logging on.
import { describe, expect, it } from 'vitest';
import { useFakeService } from '../fixture.ts';
import { runJob, type StepResult } from '../run-action.ts';

const fake = useFakeService();

describe('configuration and the key', () => {
  it('names every bad input, masks the key first, sends nothing, and post does nothing', async () => {
    const { main, post } = await runJob({ inputs: fake.inputs({ type: 'BLUE', retries: 'three' }) });

    expect(main.exitCode).toBe(1);
    expect(main.stdout.split('\n')[0]).toBe(`::add-mask::${fake.service.apiKey}`);
    expect(main.errors).toEqual([
      "Input 'retries' must be a whole number from 0 to 10, got 'three'.\nInput 'type' must be SIMPLE (the only type the service accepts), got 'BLUE'.",
    ]);
    expect(main.summary).toContain('<h3>Deployment not recorded: configuration error</h3>');
    expect(main.outputs).toEqual({});
    expect(post.exitCode).toBe(0);
    expect(post.logLines).toEqual(['Nothing to finish: the main step stopped on a configuration error.']);
    expect(fake.service.requests).toEqual([]);
  });

  it('appears in no line but the mask command, with debug logging on, also when the service echoes it', async () => {
    fake.service.fail('PATCH', {
      status: 503,
      body: { detail: `Key ${fake.service.apiKey} is rate limited` },
      headers: { 'retry-after': '0' },
    });

    const { main, post } = await runJob({ inputs: fake.inputs(), env: { RUNNER_DEBUG: '1' } });

    const lines = (step: StepResult) =>
      [step.stdout, step.stderr, step.summary, ...Object.values(step.outputs), ...Object.values(step.state)].flatMap(
        (text) => text.split('\n'),
      );
    const leaks = [main, post].flatMap(lines).filter((line) => line.includes(fake.service.apiKey));
    expect(leaks).toEqual([`::add-mask::${fake.service.apiKey}`, `::add-mask::${fake.service.apiKey}`]);
    expect(main.stdout).toContain(`::debug::POST ${fake.service.url}/deployment {"artifactId":42,`);
    expect(post.stdout).toContain('Key *** is rate limited');
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });
});
