import { describe, expect, it } from 'vitest';
import type { HttpClient, HttpRequest, HttpResponse } from '../../src/core/http.ts';
import { NetworkError } from '../../src/core/network-error.ts';
import { ACTION_WORDS } from '../../src/action/words.ts';
import {
  createAll,
  createTracker,
  deploymentUrl,
  describeFailure,
  ServiceError,
  setStatusAll,
} from '../../src/core/service.ts';
import type { CreateBody } from '../../src/core/deployment.ts';

const json = { contentType: 'application/json', truncated: false };

describe('describeFailure', () => {
  it('shows a string detail as is, shortened when long', () => {
    expect(describeFailure({ status: 404, ...json }, { detail: 'Deployment 9 not found' })).toEqual([
      'HTTP 404: Deployment 9 not found',
    ]);
    const [line] = describeFailure({ status: 500, ...json }, { detail: 'x'.repeat(5000) });
    expect(line).toBe(`HTTP 500: ${'x'.repeat(2000)}… (truncated)`);
  });

  it('shows a validation array one line per entry, at most 20', () => {
    const detail = [
      { type: 'missing', loc: ['body', 'commitSha'], msg: 'Field required', input: {} },
      {
        type: 'value_error',
        loc: ['body'],
        msg: 'Value error, Either artifactId or artifactName must be provided',
        input: {},
      },
    ];
    expect(describeFailure({ status: 422, ...json }, { detail })).toEqual([
      'HTTP 422:',
      '  body.commitSha: Field required',
      '  body: Value error, Either artifactId or artifactName must be provided',
    ]);
    const many = Array.from({ length: 25 }, (_, index) => ({ loc: ['body', index], msg: 'bad' }));
    const lines = describeFailure({ status: 422, ...json }, { detail: many });
    expect(lines).toHaveLength(22);
    expect(lines[1]).toBe('  body.0: bad');
    expect(lines[21]).toBe('  (and 5 more)');
  });

  it('shows a detail that is an object or a number', () => {
    expect(describeFailure({ status: 400, ...json }, { detail: { reason: 'quota', left: 0 } })).toEqual([
      'HTTP 400: {"reason":"quota","left":0}',
    ]);
    expect(describeFailure({ status: 400, ...json }, { detail: 7 })).toEqual(['HTTP 400: 7']);
  });

  it('reports a body that is not JSON by its status, and a long one as not read whole', () => {
    expect(
      describeFailure({ status: 502, contentType: 'text/html; charset=utf-8', truncated: false }, undefined),
    ).toEqual(['HTTP 502 (the answer is not JSON: text/html)']);
    expect(describeFailure({ status: 502, contentType: '', truncated: false }, undefined)).toEqual([
      'HTTP 502 (the answer is not JSON)',
    ]);
    expect(describeFailure({ status: 500, ...json, truncated: true }, undefined)).toEqual([
      'HTTP 500 (the answer is over 64 KiB; it was not read whole)',
    ]);
  });

  it('says when the JSON has no detail', () => {
    expect(describeFailure({ status: 500, ...json }, { error: 'x' })).toEqual(['HTTP 500 (no `detail` in the answer)']);
    expect(describeFailure({ status: 500, ...json }, { detail: null })).toEqual([
      'HTTP 500 (no `detail` in the answer)',
    ]);
    expect(describeFailure({ status: 500, ...json }, null)).toEqual(['HTTP 500 (no `detail` in the answer)']);
    expect(describeFailure({ status: 500, ...json }, [{ detail: 'x' }])).toEqual([
      'HTTP 500 (no `detail` in the answer)',
    ]);
  });

  // The service's validation entries are {loc: (string|number)[], msg: string}; anything else is
  // shown as JSON, never dropped, never a crash.
  it('shows a malformed validation entry as JSON', () => {
    const detail = [
      'a string',
      7,
      null,
      true,
      [1, 'x'],
      { msg: 5 },
      { loc: ['body', 'x'], msg: null },
      { loc: ['body', 0, null, 1.5, true, { a: 1 }], msg: 'bad' },
      { loc: 'body', msg: 'not a list' },
      { loc: [], msg: 'empty loc' },
    ];
    expect(describeFailure({ status: 422, ...json }, { detail })).toEqual([
      'HTTP 422:',
      '  "a string"',
      '  7',
      '  null',
      '  true',
      '  [1,"x"]',
      '  {"msg":5}',
      '  body.x: {"loc":["body","x"],"msg":null}',
      '  body.0.null.1.5.true.{"a":1}: bad',
      '  not a list',
      '  empty loc',
    ]);
  });
});

describe('deploymentUrl', () => {
  it('puts the id, URL-encoded, in one segment under the base path', () => {
    const url = (id: string) => deploymentUrl(new URL('https://t.example/api/'), { text: id, numeric: false }).href;
    expect(url('a/b c')).toBe('https://t.example/api/deployment/a%2Fb%20c');
    expect(url('%2e%2e')).toBe('https://t.example/api/deployment/%252e%252e');
    expect(url('?x#y')).toBe('https://t.example/api/deployment/%3Fx%23y');
    expect(() => url('..')).toThrow("Deployment id '..' leaves the deployment path");
    expect(() => url('.')).toThrow("Deployment id '.' leaves the deployment path");
  });
});

const body: CreateBody = {
  artifactId: 42,
  version: '1',
  environment: 'Production',
  commitSha: 'abc',
  user: 'alice',
  branch: 'main',
  type: 'SIMPLE',
  status: 'STARTED',
};
const connection = {
  apiKey: 'the-key',
  baseUrl: new URL('https://t.example/'),
  timeoutMs: 1000,
  retries: 0,
  proxy: undefined,
};

/** An HTTP client that answers every request with `answer`. */
function answering(answer: Partial<HttpResponse> | Error): HttpClient & { sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  return {
    sent,
    send(request) {
      sent.push(request);
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve({ status: 200, contentType: 'application/json', text: '', truncated: false, ...answer });
    },
    close: () => Promise.resolve(),
  };
}

async function createError(answer: Partial<HttpResponse>): Promise<string> {
  const error = await createTracker(answering(answer), connection, ACTION_WORDS)
    .create(body)
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ServiceError);
  return (error as ServiceError).message;
}

describe('the tracker', () => {
  it('sends the key, the JSON body, and keeps a big id exactly', async () => {
    const http = answering({ text: '{"success":true,"id":9007199254740993}' });
    expect(await createTracker(http, connection, ACTION_WORDS).create(body)).toEqual({
      text: '9007199254740993',
      numeric: true,
    });
    expect(http.sent[0]?.headers).toEqual({
      'content-type': 'application/json',
      accept: 'application/json',
      'accept-encoding': 'identity',
      'x-api-key': 'the-key',
    });
    expect(JSON.parse(http.sent[0]?.body ?? '')).toEqual(body);
  });

  it.each([
    [{ status: 201, text: '{"success":true}' }, 'HTTP 201, but the answer has no deployment `id`'],
    [{ text: '{"success":true,"id":""}' }, 'HTTP 200, but the answer has no deployment `id`'],
    [{ text: '{"success":true,"id":null}' }, 'HTTP 200, but the answer has no deployment `id`'],
    [{ text: '{"success":false,"id":1}' }, 'HTTP 200, but the answer does not say `success: true`'],
    [{ text: '<html>' }, 'HTTP 200, but the answer is not a JSON object, so it is not taken as a success'],
    // JSON, but no object: `null` must not reach `body.success` (a TypeError, reported as a bug of ours).
    [{ status: 201, text: 'null' }, 'HTTP 201, but the answer is not a JSON object, so it is not taken as a success'],
    [{ status: 201, text: '[]' }, 'HTTP 201, but the answer is not a JSON object, so it is not taken as a success'],
    [{ status: 201, text: '"ok"' }, 'HTTP 201, but the answer is not a JSON object, so it is not taken as a success'],
    [
      { status: 422, text: '{"detail":[null,"x",{"msg":1},{"loc":["body",2,null],"msg":"m"}]}' },
      'HTTP 422:\n  null\n  "x"\n  {"msg":1}\n  body.2.null: m',
    ],
    [{ status: 500, text: 'null' }, 'HTTP 500 (no `detail` in the answer)'],
    // 300 is a redirect like the rest of 3xx; a 1xx as the final status is no success.
    [
      { status: 300, text: '' },
      "HTTP 300: a redirect, which is not followed (the API key would go along); it names no address. Set `base-url` to the service's own address.",
    ],
    [{ status: 101, text: '{"success":true,"id":1}' }, 'HTTP 101 (no `detail` in the answer)'],
    [
      { status: 502, contentType: 'text/html ; charset=utf-8', text: '<html>' },
      'HTTP 502 (the answer is not JSON: text/html)',
    ],
    [
      { text: '{"succ', truncated: true },
      'HTTP 200, but the answer is over 64 KiB (only that much is read), so it is not taken as a success',
    ],
    [
      { text: `{"success":true,"id":"${'9'.repeat(200)}"}` },
      'HTTP 200, but the deployment id it returned is 200 characters long (at most 128), so it is not kept (the service may have recorded a deployment this action cannot finish)',
    ],
    [
      { text: '{"success":true,"id":"1\\n::error::x"}' },
      'HTTP 200, but the deployment id it returned holds control characters, so it is not kept (the service may have recorded a deployment this action cannot finish)',
    ],
    [
      { text: '{"success":true,"id":"xthe-keyx"}' },
      'HTTP 200, but the deployment id it returned holds the API key, so it is not kept (the service may have recorded a deployment this action cannot finish)',
    ],
    [
      { status: 301, location: 'https://elsewhere.example/api/deployment', text: '' },
      "HTTP 301: a redirect, which is not followed (the API key would go along); it points to 'https://elsewhere.example/api/deployment'. Set `base-url` to the service's own address.",
    ],
    [
      { status: 307, text: '' },
      "HTTP 307: a redirect, which is not followed (the API key would go along); it names no address. Set `base-url` to the service's own address.",
    ],
  ])('refuses the answer %o', async (answer, message) => {
    expect(await createError(answer)).toBe(message);
  });

  it('a redirect names the setting as the face names it (the CLI: where its address came from)', async () => {
    const error = await createTracker(answering({ status: 308, text: '' }), connection, {
      ...ACTION_WORDS,
      serviceAddress: 'DEPLOY_TRACKER_URL',
    })
      .update({ text: '7', numeric: true }, 'SUCCEEDED')
      .catch((caught: unknown) => caught);
    expect((error as ServiceError).message).toBe(
      "HTTP 308: a redirect, which is not followed (the API key would go along); it names no address. Set DEPLOY_TRACKER_URL to the service's own address.",
    );
  });

  it.each(['identity', 'IDENTITY', ' identity ', ''])(
    'takes an answer with content-encoding %j as it is',
    async (encoding) => {
      const http = answering({ status: 201, contentEncoding: encoding, text: '{"success":true,"id":5}' });
      expect(await createTracker(http, connection, ACTION_WORDS).create(body)).toEqual({ text: '5', numeric: true });
    },
  );

  it('names its errors ServiceError', async () => {
    const error = await createTracker(answering({ status: 500, text: '' }), connection, ACTION_WORDS)
      .create(body)
      .catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('ServiceError');
    expect(new ServiceError(['a', 'b']).message).toBe('a\nb');
  });

  it("gives each error the answer's status, for the receiver's retry policy", async () => {
    const statusOf = (answer: Parameters<typeof answering>[0]) =>
      createTracker(answering(answer), connection, ACTION_WORDS)
        .create(body)
        .then(
          () => 'created',
          (caught: unknown) => (caught as ServiceError).status,
        );
    expect(await statusOf({ status: 401, text: '{"detail":"Invalid or missing API key"}' })).toBe(401);
    expect(await statusOf({ status: 403, text: '' })).toBe(403);
    expect(await statusOf({ status: 302, text: '' })).toBe(302);
    expect(await statusOf({ status: 201, text: '{"success":true}' })).toBe(201);
    expect(await statusOf({ status: 200, text: 'null' })).toBe(200);
    expect(new ServiceError(['a']).status).toBeUndefined();
  });

  it('sends nothing once the run is cancelled, and says which were not sent', async () => {
    const http = answering({ status: 201, text: '{"success":true,"id":5}' });
    const cancelled = new AbortController();
    cancelled.abort();
    expect(
      await createAll(createTracker(http, connection, ACTION_WORDS), [body, body], { signal: cancelled.signal }),
    ).toEqual([
      { body, notSent: true },
      { body, notSent: true },
    ]);
    expect(http.sent).toEqual([]);
  });

  it('refuses an update answered with JSON null, saying so rather than failing as a bug', async () => {
    const tracker = createTracker(answering({ status: 200, text: 'null' }), connection, ACTION_WORDS);
    expect(await setStatusAll(tracker, [{ text: '1', numeric: true }], 'SUCCEEDED')).toEqual([
      {
        id: { text: '1', numeric: true },
        failure: ['HTTP 200, but the answer is not a JSON object, so it is not taken as a success'],
      },
    ]);
  });

  it('settles every create and update, a failure on one not stopping the others', async () => {
    const tracker = createTracker(
      answering(new NetworkError('connection refused (t.example)')),
      connection,
      ACTION_WORDS,
    );
    expect(await createAll(tracker, [body])).toEqual([{ body, failure: ['connection refused (t.example)'] }]);
    const id = { text: '1', numeric: true };
    expect(await setStatusAll(tracker, [id], 'FAILED')).toEqual([{ id, failure: ['connection refused (t.example)'] }]);
  });

  it('says a bug of ours is one, for that deployment alone, and still reports the others', async () => {
    const tracker = createTracker(answering(new TypeError('oops')), connection, ACTION_WORDS);
    const [result] = await createAll(tracker, [body]);
    expect(result && 'failure' in result ? result.failure.slice(0, 2) : []).toEqual([
      'unexpected error (a bug of report-deployment: please report it):',
      'TypeError: oops',
    ]);
  });

  it('reads an answer nested thousands deep: its id, exactly where it can', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const small = answering({ text: `{"success":true,"id":7,"x":${deep}}` });
    expect(await createTracker(small, connection, ACTION_WORDS).create(body)).toEqual({ text: '7', numeric: true });
    expect(await createError({ text: `{"success":true,"id":9007199254740993,"x":${deep}}` })).toBe(
      'HTTP 200, but the answer nests too deep for its numeric id to be read exactly (the service may have recorded a deployment this action cannot finish)',
    );
  });

  it('names the face that could not finish the deployment, where it says who it is', async () => {
    const cli = { ...ACTION_WORDS, tool: 'report-deployment' };
    const refused = async (text: string) =>
      String(
        await createTracker(answering({ text }), connection, cli)
          .create(body)
          .catch((caught: unknown) => caught),
      );
    expect(await refused('{"success":true,"id":"a\\u0000b"}')).toBe(
      'ServiceError: HTTP 200, but the deployment id it returned holds control characters, so it is not kept (the service may have recorded a deployment report-deployment cannot finish)',
    );
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(await refused(`{"success":true,"id":9007199254740993,"x":${deep}}`)).toBe(
      'ServiceError: HTTP 200, but the answer nests too deep for its numeric id to be read exactly (the service may have recorded a deployment report-deployment cannot finish)',
    );
  });

  it("never runs an answer's own toString, and scrubs the key before it cuts", async () => {
    const loc = await createError({ status: 422, text: '{"detail":[{"loc":[{"toString":1},"body",3],"msg":"m"}]}' });
    expect(loc).toBe('HTTP 422:\n  {"toString":1}.body.3: m');
    const detail = `${'x'.repeat(1995)}the-key and more`;
    const cut = await createError({ status: 400, text: JSON.stringify({ detail }) });
    expect(cut).toBe(`HTTP 400: ${'x'.repeat(1995)}*** a… (truncated)`);
    expect(cut).not.toMatch(/the-|he-ke/);
  });
});
