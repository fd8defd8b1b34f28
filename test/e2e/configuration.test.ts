// The built dist/ as the runner runs it: bad configuration fails before any request, naming the
// input, the key masked first; the key appears in no line, also with debug logging on.
import { describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { runJob, runStep, type StepResult } from '../helpers/run-action.ts';

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

describe('the key echoed in more forms', () => {
  it('Latin-1 percent-encoding, form-encoding, HTML5 named entities, a raw BEL the log would spell as \\u0007: none shows', async () => {
    const key = 'kéy \\u0007-5f2b9c';
    await fake.restart({ apiKey: key });
    fake.service.fail('POST', {
      status: 422,
      body: {
        detail: [
          { loc: ['header', 'x-api-key'], msg: 'key=k%E9y%20%5Cu0007-5f2b9c' },
          { loc: ['header', 'x-api-key'], msg: 'key=k%C3%A9y+%5Cu0007-5f2b9c' },
          { loc: ['header', 'x-api-key'], msg: 'key k&eacute;y &bsol;u0007&#x2d;5f2b9c' },
          { loc: ['header', 'x-api-key'], msg: 'key kéy \u0007-5f2b9c' },
        ],
      },
    });

    const main = await runStep('main', { inputs: fake.inputs(), env: { RUNNER_DEBUG: '1' } }, {});

    expect(main.warnings).toEqual([
      [
        'Could not record the deployment of artifact 42: HTTP 422:',
        '  header.x-api-key: key=***',
        '  header.x-api-key: key=***',
        '  *** (not shown: it held the API key in an escaped form)',
        '  header.x-api-key: key ***',
        'The step goes on (fail-on-error is false).',
      ].join('\n'),
    ]);
    const masks = main.commands.filter((command) => command.command === 'add-mask').map((command) => command.data);
    expect(masks).toEqual(expect.arrayContaining([key, 'k%E9y%20%5Cu0007-5f2b9c', 'k%C3%A9y+%5Cu0007-5f2b9c']));
    const shown = [...main.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::')), main.summary].join(
      '\n',
    );
    for (const form of masks) expect(shown).not.toContain(form.slice(0, 6));
  });
});

describe('a secret inside a configuration error', () => {
  it('a 300-character key put into other inputs too: each error quotes it as ***, and no 6 characters of it show', async () => {
    const key = Array.from({ length: 30 }, (_, index) =>
      `Kq${String.fromCharCode(65 + index)}xZvWmPj`.slice(0, 10),
    ).join('');
    expect(key).toHaveLength(300);

    const { main, post } = await runJob({
      inputs: fake.inputs({ 'api-key': key, retries: key, type: key, status: `${key}!` }),
    });

    expect(main.exitCode).toBe(1);
    expect(main.errors).toEqual([
      [
        "Input 'retries' must be a whole number from 0 to 10, got '***'.",
        "Input 'status' must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped, or a GitHub deployment's state), got '***!'. Leave it empty to start the deployment here and finish it when the job ends.",
        "Input 'type' must be SIMPLE (the only type the service accepts), got '***'.",
      ].join('\n'),
    ]);
    const shown = [...main.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::')), main.summary].join(
      '\n',
    );
    for (let at = 0; at + 6 <= key.length; at++) expect(shown).not.toContain(key.slice(at, at + 6));
    expect(post.exitCode).toBe(0);
    expect(fake.service.requests).toEqual([]);
  });

  it('the same key put into job-status: the post step quotes it as ***, and no 6 characters of it show', async () => {
    const key = Array.from({ length: 30 }, (_, index) =>
      `Kq${String.fromCharCode(65 + index)}xZvWmPj`.slice(0, 10),
    ).join('');

    await fake.restart({ apiKey: key });

    const { post } = await runJob({ inputs: fake.inputs({ 'job-status': key }) });

    expect(post.exitCode).toBe(0);
    expect(post.warnings).toEqual([
      "The job status is unknown ('***'), so deployment 1 is left as it is. The `job-status` input must keep its default, `${{ job.status }}`.",
    ]);
    const shown = [...post.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::')), post.summary].join(
      '\n',
    );
    for (let at = 0; at + 6 <= key.length; at++) expect(shown).not.toContain(key.slice(at, at + 6));
    expect(fake.service.requests.map((request) => request.method)).toEqual(['POST']);
  });
});

describe('a secret GitHub withholds', () => {
  const pullRequest = (head: string) => ({
    name: 'pull_request',
    payload: {
      pull_request: {
        head: { repo: { full_name: head }, sha: 'f00dfeedf00dfeedf00dfeedf00dfeedf00dfeed', ref: 'feature' },
        base: { repo: { full_name: 'acme/shop' } },
        html_url: 'https://github.com/acme/shop/pull/7',
        user: { login: 'mallory' },
      },
    },
  });
  /** The key as a workflow passes it, from a secret the run is not given. */
  const withheld = () => ({ ...fake.inputs(), 'api-key': '${{ secrets.DEPLOY_TRACKER_API_KEY }}' });

  it.each([
    [
      'a pull request from a fork',
      { event: pullRequest('mallory/shop') },
      'GitHub gives a workflow run for a pull request from a fork no secrets',
    ],
    [
      'a push Dependabot started',
      {
        event: { name: 'push', payload: {} },
        env: { GITHUB_ACTOR: 'dependabot[bot]', GITHUB_TRIGGERING_ACTOR: 'dependabot[bot]' },
      },
      "GitHub gives a workflow run that Dependabot started Dependabot's secrets only",
    ],
  ])('%s: an empty api-key records nothing, warns, and the job goes on', async (_, run, why) => {
    const { main, post } = await runJob({ inputs: withheld(), contexts: { secrets: {} }, ...run });

    expect(main.inputs['api-key']).toBe('');
    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([`Input 'api-key' is empty: ${why}, so nothing is recorded and the job goes on.`]);
    expect(main.summary).toContain('<h3>Deployment not recorded: no API key</h3>');
    expect(main.outputs).toEqual({ 'deployment-id': '', 'deployment-ids': '[]', status: '' });
    expect(post.exitCode).toBe(0);
    expect(post.logLines).toEqual(['Nothing to finish: without an API key nothing was recorded.']);
    expect(fake.service.requests).toEqual([]);
  });

  it('a pull request from a branch of the repository: an empty api-key stays a configuration error (a typo in a secret name is loud)', async () => {
    const { main, post } = await runJob({
      inputs: withheld(),
      contexts: { secrets: {} },
      event: pullRequest('acme/shop'),
    });

    expect(main.exitCode).toBe(1);
    expect(main.errors).toEqual([
      "Input 'api-key' is empty. Set it from a secret, e.g. `api-key: ${{ secrets.DEPLOY_TRACKER_API_KEY }}`, and check that the secret exists for this repository and environment.",
    ]);
    expect(post.logLines).toEqual(['Nothing to finish: the main step stopped on a configuration error.']);
    expect(fake.service.requests).toEqual([]);
  });
});
