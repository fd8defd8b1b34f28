// Bad configuration fails the step before any request, naming the input; the key never leaks
// (in-process, from src/; every message is test/unit/settings.test.ts's).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StepResult } from '../helpers/run-action.ts';
import { runJobInProcess } from '../helpers/in-process.ts';
import { useFakeService } from '../helpers/fixture.ts';

const fake = useFakeService();
const { inputs } = fake;

describe('bad configuration', () => {
  it.each([
    [{ 'api-key': '' }, "Input 'api-key' is empty."],
    [{ 'base-url': '' }, "Input 'base-url' is empty."],
    [{ 'base-url': 'tracker.example.com/api' }, "Input 'base-url' is not a URL: 'tracker.example.com/api'."],
    [
      { 'base-url': 'ftp://tracker.example.com' },
      "Input 'base-url' must be an http(s) URL, got 'ftp://tracker.example.com'.",
    ],
    [{ 'base-url': 'http://tracker.example.com/api' }, "Input 'base-url' uses plain http to 'tracker.example.com'"],
    [{ 'artifact-id': '' }, "Input 'artifact-id' or 'artifact-name' must be set"],
    [
      { status: 'DONE' },
      "Input 'status' must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped, or a GitHub deployment's state), got 'DONE'.",
    ],
    [{ type: 'ROLLING' }, "Input 'type' must be SIMPLE (the only type the service accepts), got 'ROLLING'."],
    [
      { 'timeout-seconds': '10s' },
      "Input 'timeout-seconds' must be a number of seconds above 0 and at most 600, got '10s'.",
    ],
    [{ retries: 'three' }, "Input 'retries' must be a whole number from 0 to 10, got 'three'."],
    [{ 'fail-on-error': 'yes' }, "Input 'fail-on-error' must be `true` or `false`, got 'yes'."],
    [{ 'dry-run': 'maybe' }, "Input 'dry-run' must be `true` or `false`, got 'maybe'."],
    [{ 'allow-insecure-http': '1' }, "Input 'allow-insecure-http' must be `true` or `false`, got '1'."],
    [{ 'deployment-id': '[1,' }, "Input 'deployment-id' looks like a JSON array but is not one: '[1,'."],
  ])('%o fails the step naming the input, and nothing is sent', async (override, message) => {
    const { main, post } = await runJobInProcess({ inputs: inputs(override) });

    expect(main.exitCode).toBe(1);
    expect(main.errors).toHaveLength(1);
    expect(main.errors[0]?.startsWith(message)).toBe(true);
    expect(main.summary).toContain('Deployment not recorded: configuration error');
    expect(main.outputs).toEqual({});
    expect(post.exitCode).toBe(0);
    expect(fake.service.requests).toEqual([]);
  });

  it('fails even with fail-on-error false: configuration is not an outage', async () => {
    const { main } = await runJobInProcess({ inputs: inputs({ 'fail-on-error': 'false', type: 'BLUE' }) });

    expect(main.exitCode).toBe(1);
    expect(fake.service.requests).toEqual([]);
  });

  it('allows plain http to a remote host only when asked', async () => {
    const { main } = await runJobInProcess({
      inputs: inputs({ 'base-url': 'http://tracker.invalid', 'allow-insecure-http': 'true', 'dry-run': 'true' }),
    });

    expect(main.exitCode).toBe(0);
    expect(main.logLines).toContain('POST http://tracker.invalid/deployment');
  });
});

describe('the API key', () => {
  function everyLine(...steps: StepResult[]): string[] {
    return steps.flatMap((step) =>
      [step.stdout, step.stderr, step.summary, ...Object.values(step.outputs), ...Object.values(step.state)].flatMap(
        (text) => text.split('\n'),
      ),
    );
  }

  it('appears in no line but the mask command, with debug logging on, also when the service echoes it', async () => {
    fake.service.fail('PATCH', { status: 503, body: { detail: `Key ${fake.service.apiKey} is rate limited` } });

    const { main, post } = await runJobInProcess({ inputs: inputs(), env: { RUNNER_DEBUG: '1' } });

    const leaks = everyLine(main, post).filter((line) => line.includes(fake.service.apiKey));
    expect(leaks).toEqual([`::add-mask::${fake.service.apiKey}`, `::add-mask::${fake.service.apiKey}`]);
    // The debug log shows requests and answers, scrubbed.
    expect(main.stdout).toContain(`::debug::POST ${fake.service.url}/deployment {"artifactId":42,`);
    expect(main.stdout).toContain(`::debug::POST ${fake.service.url}/deployment -> HTTP 200 {"success":true,"id":1}`);
    expect(post.stdout).toContain('::debug::PATCH');
    expect(post.stdout).toContain('Key *** is rate limited');
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
  });

  it('is masked before a configuration error is reported', async () => {
    const { main } = await runJobInProcess({ inputs: inputs({ type: 'BLUE' }) });

    const lines = main.stdout.split('\n');
    expect(lines[0]).toBe(`::add-mask::${fake.service.apiKey}`);
    expect(lines.filter((line) => line.includes(fake.service.apiKey))).toHaveLength(1);
  });
});

describe('a key put by mistake into another setting', () => {
  /** 300 letters of no pattern: any 6 of them in a row appear nowhere by chance. */
  const LONG_KEY = Array.from(createHash('sha256').update('long key').digest())
    .concat(
      ...Array.from({ length: 9 }, (_, index) => Array.from(createHash('sha256').update(`more ${index}`).digest())),
    )
    .map((byte) => String.fromCharCode(byte % 52 < 26 ? 65 + (byte % 52) : 71 + (byte % 52)))
    .join('')
    .slice(0, 300);

  /** Every 6 characters in a row of the key that the step shows anywhere but in its mask commands. */
  function shownPieces(step: StepResult): string[] {
    const shown = [...step.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::')), step.summary].join(
      '\n',
    );
    const pieces: string[] = [];
    for (let at = 0; at + 6 <= LONG_KEY.length; at++) {
      const piece = LONG_KEY.slice(at, at + 6);
      if (shown.includes(piece)) pieces.push(piece);
    }
    return pieces;
  }

  it.each([
    ['retries', { retries: LONG_KEY }, {}, "Input 'retries' must be a whole number from 0 to 10, got '***'."],
    [
      'timeout-seconds',
      { 'timeout-seconds': LONG_KEY },
      {},
      "Input 'timeout-seconds' must be a number of seconds above 0 and at most 600, got '***'.",
    ],
    ['fail-on-error', { 'fail-on-error': LONG_KEY }, {}, "Input 'fail-on-error' must be `true` or `false`, got '***'."],
    [
      'dry-run, before an x',
      { 'dry-run': `${LONG_KEY}x` },
      {},
      "Input 'dry-run' must be `true` or `false`, got '***x'.",
    ],
    [
      'allow-insecure-http, after an x',
      { 'allow-insecure-http': `x${LONG_KEY}` },
      {},
      "Input 'allow-insecure-http' must be `true` or `false`, got 'x***'.",
    ],
    ['status', { status: LONG_KEY }, {}, "Input 'status' must be one of STARTED, SUCCEEDED, FAILED"],
    ['type', { type: LONG_KEY }, {}, "Input 'type' must be SIMPLE (the only type the service accepts), got '***'."],
    ['base-url', { 'base-url': LONG_KEY }, {}, "Input 'base-url' is not a URL: '***'."],
    [
      'deployment-id, after a [',
      { 'deployment-id': `[${LONG_KEY}` },
      {},
      "Input 'deployment-id' looks like a JSON array but is not one: '[***'.",
    ],
    [
      'HTTPS_PROXY',
      { 'base-url': 'https://tracker.example.com' },
      { HTTPS_PROXY: LONG_KEY },
      "Environment variable HTTPS_PROXY is not a proxy URL: '***'.",
    ],
  ])('in %s: the error quotes it as ***, and no 6 characters of it show', async (_, override, env, message) => {
    const { main } = await runJobInProcess({ inputs: inputs({ 'api-key': LONG_KEY, ...override }), env });

    expect(main.exitCode).toBe(1);
    expect(main.errors[0]).toContain(message);
    expect(shownPieces(main)).toEqual([]);
    expect(fake.service.requests).toEqual([]);
  });
});
