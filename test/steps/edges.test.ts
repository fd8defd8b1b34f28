// The promises at the edges, step by step (in-process, from src/): the tables behind
// test/e2e/edges.test.ts.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { runJobInProcess, runStepInProcess } from '../helpers/in-process.ts';

const fake = useFakeService();
const updateInputs = (extra: Record<string, string>) => ({
  'api-key': fake.service.apiKey,
  'base-url': fake.service.url,
  ...extra,
});

describe('fail-open across jobs', () => {
  it('deployment-id [] with a status: a warning, no request, exit 0', async () => {
    const { main, post } = await runJobInProcess({ inputs: updateInputs({ 'deployment-id': '[]', status: 'FAILED' }) });

    expect([main.exitCode, post.exitCode]).toEqual([0, 0]);
    expect(main.warnings).toHaveLength(1);
    expect(main.summary).toContain('<h3>No deployment to update</h3>');
    expect(fake.service.requests).toEqual([]);
  });
});

describe('ids', () => {
  it('updates a deployment-id JSON array without losing a digit', async () => {
    await runJobInProcess({
      inputs: updateInputs({ 'deployment-id': '[9007199254740993, "a/b"]', status: 'success' }),
    });

    expect(fake.received().sort()).toEqual(['PATCH /deployment/9007199254740993', 'PATCH /deployment/a%2Fb']);
  });

  it.each([
    ['"x".repeat(5000)', JSON.stringify('x'.repeat(5000)), 'is 5000 characters long (at most 128)'],
    ['".."', '".."', "is '..', which is no deployment but a path"],
    ['"1\\n::error::x"', '"1\\n::error::x"', 'holds control characters'],
    ['the key', '"test-key-5f2b9c"', 'holds the API key'],
    ['" 7"', '" 7"', 'has white space at its ends, which a later job would not read back'],
    ['"7,8"', '"7,8"', 'holds a comma, which a later job would read as two ids'],
    ['"[7]"', '"[7]"', "starts with '[', which a later job would read as a JSON array"],
  ])('never keeps an id that does not fit the protocol: %s', async (_, idText, problem) => {
    await fake.restart({ ids: () => idText });

    const { main, post } = await runJobInProcess({ inputs: fake.inputs() });

    expect(main.warnings[0]).toContain(`HTTP 200, but the deployment id it returned ${problem}, so it is not kept`);
    expect(main.outputs['deployment-ids']).toBe('[]');
    expect(post.logLines).toEqual(['Nothing to finish: the main step could not record a deployment.']);
    expect(fake.received()).toEqual(['POST /deployment']);
  });

  it.each(['..', '.', '[".."]'])('refuses deployment-id %s before any request', async (id) => {
    const { main } = await runJobInProcess({ inputs: updateInputs({ 'deployment-id': id, status: 'success' }) });

    expect(main.exitCode).toBe(1);
    expect(main.errors[0]).toMatch(
      /^Input 'deployment-id' holds an id that is '\.\.?', which is no deployment but a path/,
    );
    expect(fake.service.requests).toEqual([]);
  });
});

describe('the key goes nowhere else', () => {
  it('a key no HTTP header can carry is a configuration error naming api-key, and is not printed', async () => {
    const key = 'abc123\ndef456';
    const { main } = await runJobInProcess({ inputs: fake.inputs({ 'api-key': key }) });

    expect(main.exitCode).toBe(1);
    expect(main.errors[0]).toMatch(/^Input 'api-key' holds a character no HTTP header can carry/);
    expect(main.commands.filter((command) => command.command === 'add-mask').map((command) => command.data)).toEqual(
      expect.arrayContaining(['abc123', 'def456']),
    );
    expect(main.stdout.replace(/^::add-mask::.*$/gm, '')).not.toMatch(/abc123|def456/);
    expect(fake.service.requests).toEqual([]);
  });

  it('credentials in a base-url that is no URL are never printed', async () => {
    const { main } = await runJobInProcess({
      inputs: fake.inputs({ 'base-url': 'https://deploy:hunter2@tracker example.com' }),
    });

    expect(main.errors).toEqual([
      "Input 'base-url' is not a URL: 'https://***@tracker example.com'. Set it to the service's address, e.g. `https://tracker.example.com/api`.",
    ]);
  });
});

describe('errors say what happened', () => {
  it('a proxy that cannot be reached is named as the proxy, with its variable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const main = await runStepInProcess(
      'main',
      {
        inputs: fake.inputs({ 'base-url': 'https://tracker.test/api', retries: '0' }),
        env: { HTTPS_PROXY: `http://127.0.0.1:${port}` },
      },
      {},
    );

    expect(main.warnings[0]).toBe(
      `Could not record the deployment of artifact 42: cannot reach the proxy HTTPS_PROXY (http://127.0.0.1:${port}): connection refused\nThe step goes on (fail-on-error is false).`,
    );
  });

  it('an HTTPS_PROXY that is no URL is a configuration error naming the variable', async () => {
    const main = await runStepInProcess(
      'main',
      { inputs: fake.inputs({ 'base-url': 'https://tracker.test/api' }), env: { HTTPS_PROXY: 'proxy:3128' } },
      {},
    );

    expect(main.exitCode).toBe(1);
    expect(main.errors).toEqual([
      "Environment variable HTTPS_PROXY is not a proxy URL: 'proxy:3128'. Set it to e.g. `http://proxy.example.com:3128`, or unset it.",
    ]);
  });

  it('proxy credentials undici cannot decode are a configuration error naming the variable (they threw at the request)', async () => {
    const main = await runStepInProcess(
      'main',
      {
        inputs: fake.inputs({ 'base-url': 'https://tracker.test/api' }),
        env: { HTTPS_PROXY: 'http://us%ZZer:secret@proxy:3128' },
      },
      {},
    );

    expect(main.exitCode).toBe(1);
    expect(main.errors).toEqual([
      "Environment variable HTTPS_PROXY has a user name or password that is not percent-encoded: 'http://***@proxy:3128'. Write each `%` in them as `%25` (and `@`, `:`, `/` as `%40`, `%3A`, `%2F`).",
    ]);
  });

  it.each([
    [{ status: 201, body: { success: true } }, 'HTTP 201, but the answer has no deployment `id`'],
    [{ status: 400, body: { detail: { code: 'quota', left: 0 } } }, 'HTTP 400: {"code":"quota","left":0}'],
    [
      { status: 308, body: '', headers: { location: 'https://tracker.example.com/v2/deployment' } },
      "HTTP 308: a redirect, which is not followed (the API key would go along); it points to 'https://tracker.example.com/v2/deployment'. Set `base-url` to the service's own address.",
    ],
  ])('the service answers %o: %s', async (answer, message) => {
    fake.service.fail('POST', answer);

    const main = await runStepInProcess('main', { inputs: fake.inputs() }, {});

    expect(main.warnings).toEqual([
      `Could not record the deployment of artifact 42: ${message}\nThe step goes on (fail-on-error is false).`,
    ]);
    expect(main.stdout).not.toMatch(/\bat .*\.ts:\d+/); // no stack trace
  });
});

describe('wire oddities', () => {
  const host = () => new URL(fake.service.url).host;
  const goesOn = '\nThe step goes on (fail-on-error is false).';

  it('asks for an answer without compression (accept-encoding: identity)', async () => {
    await runJobInProcess({ inputs: fake.inputs() });

    expect(fake.service.requests.map((request) => request.headers['accept-encoding'])).toEqual([
      'identity',
      'identity',
    ]);
  });

  it.each([
    [
      'an unsolicited 100 Continue before the answer',
      { interim: 'HTTP/1.1 100 Continue\r\n\r\n' },
      'the answer of %h is one this client cannot read: an interim `100 Continue` it did not ask for, or an answer before any request (the service may have acted on the request)',
    ],
    [
      'an answer with no valid status',
      { raw: 'HTTP/1.1 2OO OK\r\n\r\n' },
      "the answer of %h is not valid HTTP/1.1 (Invalid status code): is `base-url` the service's address, with the right scheme (http or https)?",
    ],
    [
      'an answer that is no HTTP at all',
      { raw: 'SSH-2.0-OpenSSH_9.6\r\n' },
      "the answer of %h is not valid HTTP/1.1 (Expected HTTP/, RTSP/ or ICE/): is `base-url` the service's address, with the right scheme (http or https)?",
    ],
    [
      'a gzipped answer, asked for none',
      { gzip: true as const },
      'HTTP 200, but the answer is compressed (content-encoding: gzip) although it was asked for none (accept-encoding: identity), so it is not read nor taken as a success (the service may have acted on the request)',
    ],
  ])('a create answered with %s: said plainly, not tried again', async (_, fault, message) => {
    fake.service.fail('POST', fault);

    const main = await runStepInProcess('main', { inputs: fake.inputs() }, {});

    expect(main.warnings).toEqual([
      `Could not record the deployment of artifact 42: ${message.replace('%h', host())}${goesOn}`,
    ]);
    expect(fake.received()).toEqual(['POST /deployment']);
  });

  it.each([
    [
      'an unsolicited 100 Continue',
      { interim: 'HTTP/1.1 100 Continue\r\n\r\n' },
      'the answer of %h is one this client cannot read: an interim `100 Continue` it did not ask for, or an answer before any request (the service may have acted on the request)',
    ],
    [
      'a gzipped refusal',
      { gzip: true as const },
      'HTTP 404 (the answer is compressed (content-encoding: gzip) although it was asked for none (accept-encoding: identity), so it is not read)',
    ],
  ])('an update answered with %s: said plainly, not tried again', async (_, fault, message) => {
    fake.service.fail('PATCH', fault);

    const main = await runStepInProcess(
      'main',
      { inputs: updateInputs({ 'deployment-id': '404', status: 'success' }) },
      {},
    );

    expect(main.warnings).toEqual([
      `Could not set deployment 404 to SUCCEEDED: ${message.replace('%h', host())}${goesOn}`,
    ]);
    expect(fake.received()).toEqual(['PATCH /deployment/404']);
  });
});

describe('what the post step is handed', () => {
  it('an update that failed for every id: the post step says the main step could not update it', async () => {
    const { main, post } = await runJobInProcess({
      inputs: updateInputs({ 'deployment-id': '404', status: 'success' }),
    });

    expect(main.warnings[0]).toMatch(/^Could not set deployment 404 to SUCCEEDED: HTTP 404/);
    expect(post.logLines).toEqual(['Nothing to finish: the main step could not update the deployment.']);
  });

  it('a GITHUB_OUTPUT that cannot be written is a warning; the state is still handed on, and post finishes', async () => {
    const { main, post } = await runJobInProcess({
      inputs: fake.inputs(),
      env: { GITHUB_OUTPUT: '/nonexistent/output' },
    });

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([
      "Could not write the step's outputs: GITHUB_OUTPUT (/nonexistent/output) does not exist",
    ]);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
    expect(post.exitCode).toBe(0);
  });
});

describe('runner files that block', () => {
  /** A FIFO nobody reads, at a fresh path. */
  function pipe(): string {
    const path = join(mkdtempSync(join(tmpdir(), 'runner-file-')), 'fifo');
    execFileSync('mkfifo', [path]);
    return path;
  }

  // A pipe nobody reads is test/e2e's: in-process, a step that waited on one (as @actions/core's
  // appendFileSync does) would hold the test runner itself, where a spawned step is killed at a bound.
  it('a runner file that is a pipe somebody reads, or a device: not written, one warning naming it', async () => {
    const fifo = pipe();
    // A reader that never reads: the pipe opens, and a write could fill it and wait.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const main = await runStepInProcess(
        'main',
        { inputs: fake.inputs(), env: { GITHUB_OUTPUT: fifo, GITHUB_STEP_SUMMARY: '/dev/null' } },
        {},
      );

      expect(main.warnings).toEqual([
        `Could not write the step's outputs: GITHUB_OUTPUT (${fifo}) is not a regular file (writing to it could hold the step)`,
        'Could not write the job summary: GITHUB_STEP_SUMMARY (/dev/null) is not a regular file (writing to it could hold the step)',
      ]);
    } finally {
      closeSync(reader);
      rmSync(dirname(fifo), { recursive: true, force: true });
    }
  });
});

describe('bounded fan-out', () => {
  it('records 100 artifacts with at most 8 requests in flight, and finishes them all', async () => {
    await fake.restart({ answerDelayMs: 10 });
    const ids = Array.from({ length: 100 }, (_, index) => String(index + 1)).join(',');

    const { main, post } = await runJobInProcess({ inputs: fake.inputs({ 'artifact-id': ids }) });

    expect(main.exitCode).toBe(0);
    expect(fake.service.deployments.size).toBe(100);
    // Never more than 8 (exactly 8 at once is test/unit/pool.test.ts's; here, under load, a wave may not fill).
    expect(fake.service.maxInFlight).toBeLessThanOrEqual(8);
    expect(fake.service.maxInFlight).toBeGreaterThan(1);
    // Listed in the artifacts' order; the fake numbers the deployments as their creates arrive, in
    // any order within a wave of 8.
    const [, listed] = /^Deployments (.*) set to SUCCEEDED after \d+s\.$/.exec(post.logLines[0] ?? '') ?? [];
    const listedIds = (listed ?? '').split(', ').map(Number);
    expect(listedIds.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
    const byArtifact = [...fake.service.deployments.values()]
      .toSorted((a, b) => Number(a.body.artifactId) - Number(b.body.artifactId))
      .map((deployment) => Number(deployment.id));
    expect(listedIds).toEqual(byArtifact);
    expect(
      [...fake.service.deployments.values()].every((deployment) => deployment.statuses.join() === 'STARTED,SUCCEEDED'),
    ).toBe(true);
  });
});

describe('broken runner data', () => {
  it.each([
    [
      'null',
      'null',
      ['The event file (GITHUB_EVENT_PATH) holds no JSON object: the defaults come from the GITHUB_* variables alone.'],
    ],
    ['wrongly typed fields', JSON.stringify({ pull_request: { head: { sha: 7, ref: ['x'] }, html_url: {} } }), []],
  ])('an event that is %s gives the GITHUB_* defaults and no wrongly typed field', async (_, eventText, warnings) => {
    const main = await runStepInProcess(
      'main',
      { inputs: fake.inputs(), eventText, event: { name: 'pull_request', payload: {} } },
      {},
    );

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual(warnings);
    expect(fake.service.requests[0]?.body).toMatchObject({
      commitSha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
      branch: 'main',
    });
    expect(fake.service.requests[0]?.body).not.toHaveProperty('changelog');
  });

  it('an event file that is a pipe: one warning and the GITHUB_* defaults, never a wait', async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'event-')), 'event.json');
    execFileSync('mkfifo', [fifo]);

    const main = await runStepInProcess('main', { inputs: fake.inputs(), env: { GITHUB_EVENT_PATH: fifo } }, {});

    expect(main.warnings).toEqual([
      'The event file (GITHUB_EVENT_PATH) is not a file: the defaults come from the GITHUB_* variables alone.',
    ]);
    expect(fake.service.deployments.size).toBe(1);
    rmSync(dirname(fifo), { recursive: true, force: true });
  });

  describe('every error reading the event path: one warning, and the GITHUB_* defaults', () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-paths-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const at = (name: string) => join(dir, name);
    symlinkSync(at('loop-b'), at('loop-a'));
    symlinkSync(at('loop-a'), at('loop-b'));
    mkdirSync(at('folder'));
    writeFileSync(at('file'), '{}');
    const fallback = ': the defaults come from the GITHUB_* variables alone.';

    it.each([
      ['a loop of symbolic links', at('loop-a'), 'is a loop of symbolic links'],
      ['a name too long', at('x'.repeat(300)), 'has a name too long to open'],
      ['a path through a file', join(at('file'), 'event.json'), 'does not exist (a part of its path is no folder)'],
      ['a folder', at('folder'), 'is not a file'],
      ['a procfs file whose size says 0', '/proc/self/status', 'could not be read (it is not JSON)'],
      ['a procfs file beyond the bound whose size says 0', '/proc/self/pagemap', 'is over 25 MiB'],
      ['a character device', '/dev/zero', 'is not a file'],
    ])('%s', async (_, path, problem) => {
      const main = await runStepInProcess('main', { inputs: fake.inputs(), env: { GITHUB_EVENT_PATH: path } }, {});

      expect(main.exitCode).toBe(0);
      expect(main.warnings).toEqual([`The event file (GITHUB_EVENT_PATH) ${problem}${fallback}`]);
      expect(fake.service.requests[0]?.body).toMatchObject({
        commitSha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
        branch: 'main',
        user: 'alice',
      });
    });
  });

  it('a missing event file: one warning, and the GITHUB_* defaults', async () => {
    const main = await runStepInProcess(
      'main',
      { inputs: fake.inputs(), env: { GITHUB_EVENT_PATH: '/nonexistent/event.json' } },
      {},
    );

    expect(main.warnings).toEqual([
      'The event file (GITHUB_EVENT_PATH) does not exist: the defaults come from the GITHUB_* variables alone.',
    ]);
    expect(fake.service.deployments.size).toBe(1);
  });
});

describe('answers nested deep (well under 64 KiB)', () => {
  const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const json = { 'content-type': 'application/json' };

  it.each([
    ['a detail array of arrays', `{"detail":${deep(30_000)}}`, 400, ['HTTP 400:', `  ${'['.repeat(300)}… (truncated)`]],
    ['a detail object', `{"detail":{"a":${deep(30_000)}}}`, 500, [`HTTP 500: {"a":${'['.repeat(1995)}… (truncated)`]],
    [
      'a validation entry whose msg is deep',
      `{"detail":[{"loc":["body"],"msg":${deep(30_000)}}]}`,
      422,
      ['HTTP 422:', `  body: {"loc":["body"],"msg":${'['.repeat(272)}… (truncated)`],
    ],
    [
      'a validation entry whose loc is deep',
      `{"detail":[{"loc":["body",${deep(30_000)}],"msg":"bad"}]}`,
      422,
      ['HTTP 422:', `  body.${'['.repeat(295)}… (truncated)`],
    ],
  ])('%s: a refusal with its status and a shortened detail, never a bug of ours', async (_, body, status, lines) => {
    expect(body.length).toBeLessThan(64 * 1024);
    fake.service.fail('POST', { status, body, headers: json });

    const main = await runStepInProcess('main', { inputs: fake.inputs() }, {});

    expect(main.exitCode).toBe(0);
    expect(main.warnings).toEqual([
      `Could not record the deployment of artifact 42: ${lines.join('\n')}\nThe step goes on (fail-on-error is false).`,
    ]);
  });

  it.each([
    ['a numeric id', '7', []],
    ['a text id', '"d-7"', []],
    [
      'a numeric id beyond 2^53',
      '9007199254740993',
      [
        'Could not record the deployment of artifact 42: HTTP 200, but the answer nests too deep for its numeric id to be read exactly (the service may have recorded a deployment this action cannot finish)\nThe step goes on (fail-on-error is false).',
      ],
    ],
  ])('a success nested deep beside %s: recorded, or a refusal that says why', async (_, id, warnings) => {
    fake.service.fail('POST', {
      status: 200,
      body: `{"success":true,"id":${id},"more":${deep(30_000)}}`,
      headers: json,
    });

    const { main } = await runJobInProcess({ inputs: fake.inputs() });

    expect(main.warnings).toEqual(warnings);
    expect(main.outputs['deployment-ids']).toBe(warnings.length ? '[]' : `[${id}]`);
  });
});
