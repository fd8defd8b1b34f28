// The fake's own contract: what it answers to requests the action should never send, so that a fake
// grown too lenient (and tests passing against it that the service would fail) is noticed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeService, validateCreate, validateUpdate, type FakeService } from './helpers/fake-service.ts';

const KEY = 'contract-key';
const VALID = {
  artifactId: 42,
  version: '1.2.3',
  environment: 'Production',
  commitSha: 'a1b2c3d',
  user: 'alice',
  branch: 'main',
  status: 'STARTED',
};

let service: FakeService;
beforeEach(async () => {
  service = await startFakeService({ apiKey: KEY, prefix: '/api' });
});
afterEach(async () => {
  await service.close();
});

interface Call {
  method: string;
  /** Path from the server's root (the fake serves under /api). */
  path: string;
  /** Sent as is when a string, as JSON otherwise; none when undefined. */
  body?: unknown;
  headers?: Record<string, string>;
}

const JSON_KEY = { 'x-api-key': KEY, 'content-type': 'application/json' };

async function call({ method, path, body, headers = JSON_KEY }: Call) {
  const origin = new URL(service.url).origin;
  const response = await fetch(`${origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    allow: response.headers.get('allow'),
    body: await response.json(),
  };
}

/** The seed's error shape: `detail` a string, or an array of {type, loc, msg, input[, ctx]}. */
function expectSeedError(body: unknown): void {
  expect(Object.keys(body as object)).toEqual(['detail']);
  const { detail } = body as { detail: unknown };
  if (typeof detail === 'string') return;
  expect(Array.isArray(detail)).toBe(true);
  for (const entry of detail as Record<string, unknown>[]) {
    expect(Object.keys(entry).filter((key) => key !== 'ctx')).toEqual(['type', 'loc', 'msg', 'input']);
    expect(typeof entry.type).toBe('string');
    expect(entry.loc).toEqual(expect.arrayContaining(['body']));
    expect(typeof entry.msg).toBe('string');
  }
}

describe('requests the service refuses', () => {
  it.each<[string, Call, number, unknown]>([
    [
      'no X-Api-Key',
      { method: 'POST', path: '/api/deployment', body: VALID, headers: { 'content-type': 'application/json' } },
      401,
      'Invalid or missing API key',
    ],
    [
      'a wrong X-Api-Key',
      { method: 'POST', path: '/api/deployment', body: VALID, headers: { ...JSON_KEY, 'x-api-key': 'nope' } },
      401,
      'Invalid or missing API key',
    ],
    [
      'no Content-Type',
      { method: 'POST', path: '/api/deployment', body: VALID, headers: { 'x-api-key': KEY } },
      415,
      'Requests with a body must send Content-Type: application/json',
    ],
    [
      'Content-Type text/plain',
      {
        method: 'PATCH',
        path: '/api/deployment/1',
        body: '{}',
        headers: { ...JSON_KEY, 'content-type': 'text/plain' },
      },
      415,
      'Requests with a body must send Content-Type: application/json',
    ],
    [
      'a body that is not JSON',
      { method: 'POST', path: '/api/deployment', body: '{"artifactId": 42,' },
      422,
      [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: '{"artifactId": 42,' }],
    ],
    [
      'no body at all',
      { method: 'POST', path: '/api/deployment' },
      422,
      [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: '' }],
    ],
    [
      'a create without the required fields',
      { method: 'POST', path: '/api/deployment', body: { artifactId: 42 } },
      422,
      ['version', 'environment', 'commitSha', 'user', 'branch'].map((field) => ({
        type: 'missing',
        loc: ['body', field],
        msg: 'Field required',
        input: { artifactId: 42 },
      })),
    ],
    [
      'a create with a status outside the enum',
      { method: 'POST', path: '/api/deployment', body: { ...VALID, status: 'DONE' } },
      422,
      [
        {
          type: 'enum',
          loc: ['body', 'status'],
          msg: "Input should be 'STARTED', 'SUCCEEDED', 'FAILED'",
          input: 'DONE',
          ctx: { expected: "'STARTED', 'SUCCEEDED', 'FAILED'" },
        },
      ],
    ],
    [
      'a create with a field the service does not have',
      { method: 'POST', path: '/api/deployment', body: { ...VALID, artefact: 42 } },
      422,
      [{ type: 'extra_forbidden', loc: ['body', 'artefact'], msg: 'Extra inputs are not permitted', input: 42 }],
    ],
    [
      'an update of an unknown id',
      { method: 'PATCH', path: '/api/deployment/99', body: { status: 'SUCCEEDED' } },
      404,
      'Deployment 99 not found',
    ],
    [
      'an update with a status outside the enum',
      { method: 'PATCH', path: '/api/deployment/1', body: { status: 'succeeded' } },
      422,
      [
        {
          type: 'enum',
          loc: ['body', 'status'],
          msg: "Input should be 'STARTED', 'SUCCEEDED', 'FAILED'",
          input: 'succeeded',
          ctx: { expected: "'STARTED', 'SUCCEEDED', 'FAILED'" },
        },
      ],
    ],
    [
      'GET of the collection',
      { method: 'GET', path: '/api/deployment', headers: { 'x-api-key': KEY } },
      405,
      'Method Not Allowed',
    ],
    [
      'PUT of a deployment',
      { method: 'PUT', path: '/api/deployment/1', body: { status: 'FAILED' } },
      405,
      'Method Not Allowed',
    ],
    ['POST to a deployment', { method: 'POST', path: '/api/deployment/1', body: VALID }, 405, 'Method Not Allowed'],
    [
      'PATCH of the collection',
      { method: 'PATCH', path: '/api/deployment', body: { status: 'FAILED' } },
      405,
      'Method Not Allowed',
    ],
    ['a path outside the prefix', { method: 'POST', path: '/deployment', body: VALID }, 404, 'Not Found'],
    [
      'a path under the prefix it does not serve',
      { method: 'POST', path: '/api/deployments', body: VALID },
      404,
      'Not Found',
    ],
    [
      'a deeper path',
      { method: 'PATCH', path: '/api/deployment/1/status', body: { status: 'FAILED' } },
      404,
      'Not Found',
    ],
  ])('%s', async (_name, request, status, detail) => {
    if (request.path === '/api/deployment/1') await call({ method: 'POST', path: '/api/deployment', body: VALID });

    const answer = await call(request);

    expect(answer.status).toBe(status);
    expect(answer.contentType).toBe('application/json');
    expect(answer.body).toEqual({ detail });
    expectSeedError(answer.body);
  });

  it('answers 405 with the method the path takes, before looking at the key', async () => {
    const answer = await call({ method: 'DELETE', path: '/api/deployment/1', headers: {} });

    expect(answer).toMatchObject({ status: 405, allow: 'PATCH', body: { detail: 'Method Not Allowed' } });
  });

  it('records what it refused too, and changes no deployment', async () => {
    await call({ method: 'POST', path: '/api/deployment', body: { ...VALID, status: 'DONE' } });

    expect(service.requests.map((request) => [request.method, request.path, request.body])).toEqual([
      ['POST', '/api/deployment', { ...VALID, status: 'DONE' }],
    ]);
    expect(service.deployments.size).toBe(0);
  });
});

describe('requests the service accepts', () => {
  it('creates, answering {success, id}, and updates, answering {success}', async () => {
    const created = await call({ method: 'POST', path: '/api/deployment', body: VALID });
    const updated = await call({ method: 'PATCH', path: '/api/deployment/1', body: { status: 'SUCCEEDED' } });

    expect(created).toMatchObject({ status: 200, contentType: 'application/json', body: { success: true, id: 1 } });
    expect(updated).toMatchObject({ status: 200, body: { success: true } });
    expect(service.deployments.get('1')).toEqual({ id: 1, body: VALID, statuses: ['STARTED', 'SUCCEEDED'] });
  });

  it('acts on a request whose answer it loses (a create creates), and says which answers were written', async () => {
    service.fail('POST', { lost: true });
    await expect(call({ method: 'POST', path: '/api/deployment', body: VALID })).rejects.toThrow();
    await call({ method: 'PATCH', path: '/api/deployment/1', body: { status: 'SUCCEEDED' } });
    expect(service.deployments.get('1')?.statuses).toEqual(['STARTED', 'SUCCEEDED']);
    expect(service.requests.map((request) => request.answered ?? false)).toEqual([false, true]);
    expect(service.requests.every((request) => (request.closedAt ?? 0) >= request.at)).toBe(true);
  });

  it('numbers ids from 1 and takes a query string', async () => {
    await call({ method: 'POST', path: '/api/deployment', body: VALID });
    const second = await call({ method: 'POST', path: '/api/deployment?source=test', body: VALID });

    expect(second.body).toEqual({ success: true, id: 2 });
  });

  it('tracks a deployment created without a status as SUCCEEDED (the seed)', async () => {
    const { status, ...finished } = VALID;
    expect(status).toBe('STARTED');

    await call({ method: 'POST', path: '/api/deployment', body: finished });

    expect(service.deployments.get('1')?.statuses).toEqual(['SUCCEEDED']);
  });

  it('accepts artifactName instead of artifactId, null version and environment, every optional field', async () => {
    const { artifactId, ...rest } = VALID;
    expect(artifactId).toBe(42);
    const body = {
      ...rest,
      artifactName: 'shop-api',
      version: null,
      environment: null,
      changelog: 'https://example.test/compare',
      description: 'a deploy',
      link: 'https://example.test/job',
      type: 'SIMPLE',
    };

    expect(await call({ method: 'POST', path: '/api/deployment', body })).toMatchObject({ status: 200 });
  });

  it('gives UUID ids with ids: uuid, and finds them again', async () => {
    const uuids = await startFakeService({ apiKey: KEY, ids: 'uuid' });
    try {
      const origin = uuids.url;
      const created = await fetch(`${origin}/deployment`, {
        method: 'POST',
        headers: JSON_KEY,
        body: JSON.stringify(VALID),
      });
      const { id } = (await created.json()) as { id: string };
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const updated = await fetch(`${origin}/deployment/${id}`, {
        method: 'PATCH',
        headers: JSON_KEY,
        body: JSON.stringify({ status: 'FAILED' }),
      });
      expect(updated.status).toBe(200);
      expect(uuids.deployments.get(id)?.statuses).toEqual(['STARTED', 'FAILED']);
    } finally {
      await uuids.close();
    }
  });
});

/** `type at loc` of each validation entry, the part that says what is wrong where. */
const summary = (entries: { type: string; loc: (string | number)[] }[]) =>
  entries.map((entry) => `${entry.type} at ${entry.loc.join('.')}`);

describe('validateCreate', () => {
  it.each<[string, unknown, string[]]>([
    ['a valid body', VALID, []],
    ['artifactName instead of artifactId', { ...VALID, artifactId: undefined, artifactName: 'api' }, []],
    ['artifactId as a string', { ...VALID, artifactId: 'api-42' }, []],
    ['artifactId a fraction', { ...VALID, artifactId: 4.2 }, ['string_type at body.artifactId']],
    ['artifactId a boolean', { ...VALID, artifactId: true }, ['string_type at body.artifactId']],
    [
      'neither artifactId nor artifactName',
      { version: '1', environment: 'P', commitSha: 'c', user: 'u', branch: 'b' },
      ['value_error at body'],
    ],
    ['version and environment null', { ...VALID, version: null, environment: null }, []],
    ['branch null (not nullable here)', { ...VALID, branch: null }, ['string_type at body.branch']],
    ['commitSha a number', { ...VALID, commitSha: 1234 }, ['string_type at body.commitSha']],
    ['user missing', { ...VALID, user: undefined }, ['missing at body.user']],
    ['link a number', { ...VALID, link: 7 }, ['string_type at body.link']],
    ['status lower case', { ...VALID, status: 'started' }, ['enum at body.status']],
    ['type ROLLING', { ...VALID, type: 'ROLLING' }, ['enum at body.type']],
    ['an unknown field', { ...VALID, id: 1 }, ['extra_forbidden at body.id']],
    ['an array', [VALID], ['model_type at body']],
    ['null', null, ['model_type at body']],
    ['a string', 'VALID', ['model_type at body']],
    [
      'several faults at once, all reported',
      { artifactId: 42, status: 'X', extra: 1 },
      [
        'missing at body.version',
        'missing at body.environment',
        'missing at body.commitSha',
        'missing at body.user',
        'missing at body.branch',
        'enum at body.status',
        'extra_forbidden at body.extra',
      ],
    ],
  ])('%s', (_name, body, expected) => {
    // JSON drops undefined fields, as the wire would.
    const wire = JSON.parse(JSON.stringify(body)) as unknown;
    expect(summary(validateCreate(wire))).toEqual(expected);
  });

  it('the missing-artifact error as the seed words it', () => {
    const body = { version: '1', environment: 'P', commitSha: 'c', user: 'u', branch: 'b' };
    expect(validateCreate(body)).toEqual([
      {
        type: 'value_error',
        loc: ['body'],
        msg: 'Value error, Either artifactId or artifactName must be provided',
        input: body,
        ctx: { error: {} },
      },
    ]);
  });
});

describe('validateUpdate', () => {
  it.each<[string, unknown, string[]]>([
    ['SUCCEEDED', { status: 'SUCCEEDED' }, []],
    ['FAILED', { status: 'FAILED' }, []],
    ['STARTED', { status: 'STARTED' }, []],
    ['no status', {}, ['missing at body.status']],
    ['status null', { status: null }, ['enum at body.status']],
    ['status success (job.status, not the service enum)', { status: 'success' }, ['enum at body.status']],
    ['another field beside status', { status: 'FAILED', version: '2' }, ['extra_forbidden at body.version']],
    ['an array', [{ status: 'FAILED' }], ['model_type at body']],
  ])('%s', (_name, body, expected) => {
    expect(summary(validateUpdate(body))).toEqual(expected);
  });
});
