import { describe, expect, it } from 'vitest';
import { githubDefaults } from '../../src/ci/github.ts';
import { ConfigError } from '../../src/core/config-error.ts';
import { splitList } from '../../src/core/id-list.ts';
import { artifactIdValue, inspectSettingsAndRequest, readSettingsAndRequest } from '../../src/core/request.ts';
import { finalStatus, statusFromWord, type ImpliedStatus } from '../../src/core/status.ts';
import { sourceOf } from './source.ts';
import { ACTION_WORDS } from '../../src/action/words.ts';

const valid = {
  // A key as long as a real one: values in errors are cleaned of it, and a 1-letter key is in most words.
  'api-key': 'test-key-5f2b9c',
  'base-url': 'https://tracker.example.com/api',
  'artifact-id': '42',
  'timeout-seconds': '10',
  retries: '3',
};

const run = { GITHUB_SHA: 'sha1', GITHUB_ACTOR: 'alice', GITHUB_REF: 'refs/heads/main' };

function settings(values: Record<string, string>, env: Record<string, string> = {}) {
  const read = readSettingsAndRequest(sourceOf(values), env, () =>
    githubDefaults({ eventName: 'push', payload: {}, env: run, checkRunId: '' }),
  );
  return { ...read.settings, ...read.request };
}

function problems(values: Record<string, string>, env: Record<string, string> = {}): string[] {
  try {
    settings(values, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.lines;
    throw error;
  }
  throw new Error('no ConfigError');
}

describe('readSettings', () => {
  it('reads a valid connection and normalises the base URL', () => {
    const { connection, failOnError, dryRun } = settings({ ...valid, 'fail-on-error': 'TRUE' });
    expect(connection.baseUrl.href).toBe('https://tracker.example.com/api/');
    expect(connection).toMatchObject({ apiKey: 'test-key-5f2b9c', timeoutMs: 10_000, retries: 3, proxy: undefined });
    expect({ failOnError, dryRun }).toEqual({ failOnError: true, dryRun: false });
  });

  it.each([
    [{ 'api-key': '' }, /^Input 'api-key' is empty\. Set it from a secret/],
    [{ 'api-key': 'ab\ncd' }, /^Input 'api-key' holds a character no HTTP header can carry/],
    [{ 'api-key': 'key-€' }, /^Input 'api-key' holds a character no HTTP header can carry/],
    [{ 'base-url': '' }, /^Input 'base-url' is empty/],
    [{ 'base-url': 'tracker.example.com' }, /^Input 'base-url' is not a URL: 'tracker\.example\.com'/],
    [
      { 'base-url': 'ftp://tracker.example.com' },
      /^Input 'base-url' must be an http\(s\) URL, got 'ftp:\/\/tracker\.example\.com'/,
    ],
    [{ 'base-url': 'https://user:pw@tracker.example.com' }, /^Input 'base-url' must not carry credentials/],
    [
      { 'base-url': 'http://tracker.example.com' },
      /^Input 'base-url' uses plain http to 'tracker\.example\.com'.*allow-insecure-http: true/,
    ],
    [
      { 'timeout-seconds': 'ten' },
      /^Input 'timeout-seconds' must be a number of seconds above 0 and at most 600, got 'ten'\.$/,
    ],
    [{ 'timeout-seconds': '0' }, /^Input 'timeout-seconds' must be a number of seconds/],
    [{ 'timeout-seconds': '601' }, /^Input 'timeout-seconds' must be/],
    [{ retries: '1.5' }, /^Input 'retries' must be a whole number from 0 to 10, got '1\.5'\.$/],
    [{ retries: '-1' }, /^Input 'retries' must be a whole number/],
    [{ 'fail-on-error': 'yes' }, /^Input 'fail-on-error' must be `true` or `false`, got 'yes'\.$/],
    [{ 'dry-run': '1' }, /^Input 'dry-run' must be `true` or `false`/],
    [{ 'allow-insecure-http': 'on' }, /^Input 'allow-insecure-http' must be `true` or `false`/],
    [
      { status: 'done' },
      /^Input 'status' must be one of STARTED, SUCCEEDED, FAILED \(or success, failure, cancelled, skipped, or a GitHub deployment's state\), got 'done'\. Leave it empty to start the deployment here and finish it when the job ends\.$/,
    ],
    [{ status: 'constructor' }, /^Input 'status' must be one of STARTED, SUCCEEDED, FAILED .*, got 'constructor'\./],
    [{ type: 'BLUE_GREEN' }, /^Input 'type' must be SIMPLE \(the only type the service accepts\), got 'BLUE_GREEN'\.$/],
    [{ 'artifact-id': '' }, /^Input 'artifact-id' or 'artifact-name' must be set: /],
    [{ 'deployment-id': '[1,' }, /^Input 'deployment-id' looks like a JSON array but is not one: '\[1,'\.$/],
    [{ 'deployment-id': '[{}]' }, /^Input 'deployment-id' must be an id, a list of ids or a JSON array of ids/],
    [{ 'deployment-id': '[""]' }, /^Input 'deployment-id' must be an id/],
    [{ 'deployment-id': '..' }, /^Input 'deployment-id' holds an id that is '\.\.', which is no deployment but a path/],
    [
      { 'deployment-id': 'x'.repeat(129) },
      /^Input 'deployment-id' holds an id that is 129 characters long \(at most 128\)/,
    ],
    [{ 'deployment-id': '["a\\u0007b"]' }, /^Input 'deployment-id' holds an id that holds control characters/],
    [
      { 'api-key': 'k3y-secret', 'deployment-id': '1, k3y-secret' },
      /^Input 'deployment-id' holds the API key as an id \(are two secrets swapped\?\)\.$/,
    ],
    [{ 'deployment-id': '["\\ud800"]' }, /^Input 'deployment-id' holds an id that is not valid Unicode text/],
    // Nested too deep for a reviver (30000 levels): a configuration error, never a bug of ours.
    [
      { 'deployment-id': `${'['.repeat(30_000)}${']'.repeat(30_000)}` },
      /^Input 'deployment-id' looks like a JSON array but is not one: '\[{100}…'\.$/,
    ],
    // Never trimmed: an id is what the service returned, and no id has white space at its ends.
    [
      { 'deployment-id': '[" a-b "]' },
      /^Input 'deployment-id' holds an id that has white space at its ends, which a later job would not read back: ' a-b '\.$/,
    ],
    [
      { 'deployment-id': '["7,8"]' },
      /^Input 'deployment-id' holds an id that holds a comma, which a later job would read as two ids: '7,8'\.$/,
    ],
  ])('rejects %o naming the input', (override, message) => {
    const lines = problems({ ...valid, ...override });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });

  it('names every bad input at once', () => {
    expect(problems({ ...valid, 'api-key': '', retries: 'x', 'dry-run': 'maybe' })).toEqual([
      expect.stringMatching(/^Input 'api-key' is empty/),
      "Input 'retries' must be a whole number from 0 to 10, got 'x'.",
      "Input 'dry-run' must be `true` or `false`, got 'maybe'.",
    ]);
  });

  it('names plain http as well when allow-insecure-http is no boolean (taken as false, not true)', () => {
    expect(problems({ ...valid, 'allow-insecure-http': 'on', 'base-url': 'http://tracker.example.com' })).toEqual([
      "Input 'allow-insecure-http' must be `true` or `false`, got 'on'.",
      "Input 'base-url' uses plain http to 'tracker.example.com', which would send the API key in clear. Use https, or set `allow-insecure-http: true` if the network path is trusted.",
    ]);
  });

  it('never shows the credentials of a base URL, even one that is no URL', () => {
    for (const baseUrl of ['https://user:s3cret@exa mple.com', 'user:s3cret@tracker.example.com', 'ftp://u:s3cret@x']) {
      const lines = problems({ ...valid, 'base-url': baseUrl });
      expect(lines.join('\n')).not.toContain('s3cret');
    }
  });

  it('allows plain http to loopback, and elsewhere only when asked', () => {
    expect(settings({ ...valid, 'base-url': 'http://127.0.0.1:8080' }).connection.baseUrl.href).toBe(
      'http://127.0.0.1:8080/',
    );
    for (const host of ['127.0.0.10', '127.255.255.254']) {
      expect(settings({ ...valid, 'base-url': `http://${host}:8080` }).connection.baseUrl.href).toBe(
        `http://${host}:8080/`,
      );
    }
    const insecure = { ...valid, 'base-url': 'http://tracker.lan/api', 'allow-insecure-http': 'true' };
    expect(settings(insecure).connection.baseUrl.href).toBe('http://tracker.lan/api/');
  });

  it.each(['http://127.0.0.1.evil:8080', 'http://127.0.0.1.example.com/api'])(
    'refuses plain http to %s, which only looks like loopback, unless asked',
    (baseUrl) => {
      const host = new URL(baseUrl).hostname;
      expect(problems({ ...valid, 'base-url': baseUrl })).toEqual([
        `Input 'base-url' uses plain http to '${host}', which would send the API key in clear. Use https, or set \`allow-insecure-http: true\` if the network path is trusted.`,
      ]);
      expect(settings({ ...valid, 'base-url': baseUrl, 'allow-insecure-http': 'true' }).connection.baseUrl.host).toBe(
        new URL(baseUrl).host,
      );
    },
  );

  // A user name alone or a password alone is a credential too: the same refusal as user:password.
  it.each([
    'https://user:pw@tracker.example.com',
    'https://user@tracker.example.com',
    'https://:pw@tracker.example.com',
  ])('refuses the credentials in %s', (baseUrl) => {
    expect(problems({ ...valid, 'base-url': baseUrl })).toEqual([
      "Input 'base-url' must not carry credentials; the key goes in `api-key`.",
    ]);
  });

  it('accepts fractional timeouts', () => {
    expect(settings({ ...valid, 'timeout-seconds': '0.5' }).connection.timeoutMs).toBe(500);
    expect(settings({ ...valid, 'timeout-seconds': '0.25' }).connection.timeoutMs).toBe(250);
    expect(settings({ ...valid, 'timeout-seconds': '0.001' }).connection.timeoutMs).toBe(1);
  });

  // The maxima, exactly at and just past the bound (Limits.timeoutSeconds 600, Limits.retries 10).
  it('accepts the most retries and the longest timeout, and nothing past them', () => {
    expect(settings({ ...valid, retries: '10', 'timeout-seconds': '600' }).connection).toMatchObject({
      retries: 10,
      timeoutMs: 600_000,
    });
    expect(settings({ ...valid, retries: '0' }).connection.retries).toBe(0);
    expect(problems({ ...valid, retries: '11', 'timeout-seconds': '600.001' })).toEqual([
      "Input 'timeout-seconds' must be a number of seconds above 0 and at most 600, got '600.001'.",
      "Input 'retries' must be a whole number from 0 to 10, got '11'.",
    ]);
    expect(problems({ ...valid, 'timeout-seconds': '601' })).toEqual([
      "Input 'timeout-seconds' must be a number of seconds above 0 and at most 600, got '601'.",
    ]);
  });

  // Only plain decimal digits: Number() alone would take a sign, hex, an exponent or white space.
  it.each(['+5', '0x10', '1e2', ' 5', '5 ', '5.', '.5'])('refuses the number %j', (raw) => {
    expect(problems({ ...valid, retries: raw, 'timeout-seconds': raw })).toEqual([
      `Input 'timeout-seconds' must be a number of seconds above 0 and at most 600, got '${raw}'.`,
      `Input 'retries' must be a whole number from 0 to 10, got '${raw}'.`,
    ]);
  });

  it('reads artifacts by id and by name, each entry one artifact', () => {
    expect(settings({ ...valid, 'artifact-id': '1, 2', 'artifact-name': 'web' }).artifacts).toEqual([
      { artifactId: 1 },
      { artifactId: 2 },
      { artifactName: 'web' },
    ]);
  });

  it('takes as many artifacts or ids as one step records (100)', () => {
    const ids = Array.from({ length: 100 }, (_, index) => String(index + 1));
    expect(settings({ ...valid, 'artifact-id': ids.join(',') }).artifacts).toEqual(
      ids.map((id) => ({ artifactId: Number(id) })),
    );
    expect(
      settings({ ...valid, 'artifact-id': ids.slice(1).join(','), 'artifact-name': 'web' }).artifacts,
    ).toHaveLength(100);
    expect(settings({ ...valid, 'deployment-id': ids.join('\n') }).deploymentIds).toEqual(
      ids.map((text) => ({ text, numeric: false })),
    );
    expect(settings({ ...valid, 'deployment-id': JSON.stringify(ids.map(Number)) }).deploymentIds).toHaveLength(100);
  });

  it('refuses more artifacts or ids than one step records', () => {
    const many = Array.from({ length: 101 }, (_, index) => String(index + 1)).join(',');
    expect(problems({ ...valid, 'artifact-id': many })).toEqual([
      "Input 'artifact-id' or 'artifact-name' name 101 artifacts; one step records at most 100. Split them over several steps.",
    ]);
    expect(problems({ ...valid, 'deployment-id': many })).toEqual([
      "Input 'deployment-id' holds 101 ids; one step updates at most 100. Split them over several steps.",
    ]);
  });

  it.each([
    ['', undefined],
    ['[]', []],
    ['12', [{ text: '12', numeric: false }]],
    [
      '12, 13',
      [
        { text: '12', numeric: false },
        { text: '13', numeric: false },
      ],
    ],
    [
      '[12,"a-b"]',
      [
        { text: '12', numeric: true },
        { text: 'a-b', numeric: false },
      ],
    ],
    ['[9007199254740993]', [{ text: '9007199254740993', numeric: true }]],
  ])('deployment-id %s', (raw, ids) => {
    expect(settings({ ...valid, 'deployment-id': raw }).deploymentIds).toEqual(ids);
  });

  it('does not need artifacts when deployment-id is set', () => {
    expect(settings({ ...valid, 'artifact-id': '', 'deployment-id': '[]' }).artifacts).toEqual([]);
  });

  it('takes the proxy from the environment, and names a variable that is no URL', () => {
    expect(settings(valid, { HTTPS_PROXY: 'http://proxy.example.com:3128' }).connection.proxy).toEqual({
      url: new URL('http://proxy.example.com:3128'),
      variable: 'HTTPS_PROXY',
    });
    expect(problems(valid, { https_proxy: 'proxy.example.com:3128' })).toEqual([
      "Environment variable https_proxy is not a proxy URL: 'proxy.example.com:3128'. Set it to e.g. `http://proxy.example.com:3128`, or unset it.",
    ]);
  });
});

describe('status words', () => {
  it.each([
    ['started', 'STARTED'],
    ['SUCCEEDED', 'SUCCEEDED'],
    ['success', 'SUCCEEDED'],
    ['Failed', 'FAILED'],
    ['failure', 'FAILED'],
    ['cancelled', 'FAILED'],
    ['skipped', { nothing: 'skipped', word: 'skipped' }],
    [' Skipped ', { nothing: 'skipped', word: 'skipped' }],
    ['error', 'FAILED'],
    ['queued', { nothing: 'not-final', word: 'queued' }],
    ['IN_PROGRESS', { nothing: 'not-final', word: 'in_progress' }],
    ['waiting', { nothing: 'not-final', word: 'waiting' }],
    ['toString', undefined],
    // Names every object inherits are no status words (the table is looked up by own keys only).
    ['constructor', undefined],
    ['__proto__', undefined],
    ['done', undefined],
  ])('status %s is %s', (word, status) => {
    expect(statusFromWord(word)).toEqual(status);
  });

  it.each([
    ['success', 'SUCCEEDED'],
    ['failure', 'FAILED'],
    ['cancelled', 'FAILED'],
    ['skipped', undefined],
    ['', undefined],
    ['${{ job.status }}', undefined],
  ])('job status %s is %s', (word, status) => {
    expect(finalStatus(word)).toBe(status);
  });
});

describe('a status the place implies (a deployment event on GitHub)', () => {
  const from = "the event's `deployment_status.state`";
  /** The request read with `status` as given, where the place implies `implied` for an empty one. */
  function withImplied(implied: ImpliedStatus | undefined, status = '') {
    const source = { ...sourceOf({ ...valid, status }), impliedStatus: () => implied };
    return readSettingsAndRequest(source, {}, () =>
      githubDefaults({ eventName: 'push', payload: {}, env: run, checkRunId: '' }),
    ).request;
  }
  function impliedProblems(implied: ImpliedStatus, status = ''): string[] {
    try {
      withImplied(implied, status);
    } catch (error) {
      if (error instanceof ConfigError) return error.lines;
      throw error;
    }
    throw new Error('no ConfigError');
  }

  it.each([
    ['success', 'SUCCEEDED'],
    ['failure', 'FAILED'],
    ['error', 'FAILED'],
    ['pending', { nothing: 'not-final', word: 'pending' }],
    ['queued', { nothing: 'not-final', word: 'queued' }],
    ['in_progress', { nothing: 'not-final', word: 'in_progress' }],
    ['inactive', { nothing: 'not-final', word: 'inactive' }],
    ['waiting', { nothing: 'not-final', word: 'waiting' }],
  ])('an empty status takes the implied %s: %o', (word, status) => {
    expect(withImplied({ word, from }).status).toEqual(status);
  });

  it('a status that is set wins over the implied one', () => {
    expect(withImplied({ word: 'queued', from }, 'STARTED').status).toBe('STARTED');
    expect(withImplied({ nothing: 'no state yet' }, 'success').status).toBe('SUCCEEDED');
  });

  it('nothing implied: the face says why, and no defaults are read', () => {
    const request = withImplied({ nothing: 'Nothing recorded: no state yet.' });
    expect(request.status).toEqual({ nothing: 'not-yet', why: 'Nothing recorded: no state yet.' });
    expect(request.fields).toBeUndefined();
  });

  it('no place implies one: an empty status starts now and finishes later', () => {
    expect(withImplied(undefined).status).toBeUndefined();
  });

  it.each([
    ['waiting_for_godot', "'waiting_for_godot'"],
    ['', "''"],
    // Words of the status input that a deployment's state never is: STARTED would stay open.
    ['started', "'started'"],
  ])('an implied %o that is no end and no state that records nothing names where it came from', (word, shown) => {
    expect(impliedProblems({ word, from })).toEqual([
      `Input 'status' is empty, so the status comes from the event's \`deployment_status.state\`: ${shown}, which is neither a finished state nor one that records nothing. Set \`status\` to say what to record.`,
    ]);
  });

  it('an unknown status that is set says that an empty one comes from the place', () => {
    expect(impliedProblems({ word: 'success', from }, 'done')).toEqual([
      "Input 'status' must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped, or a GitHub deployment's state), got 'done'. Leave it empty to take it from the event's `deployment_status.state`.",
    ]);
    expect(impliedProblems({ nothing: 'no state yet' }, 'done')).toEqual([
      "Input 'status' must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped, or a GitHub deployment's state), got 'done'.",
    ]);
  });
});

describe('small parsers', () => {
  it.each([
    ['42', 42],
    ['0', 0],
    ['007', '007'],
    ['9007199254740993', '9007199254740993'],
    ['web-1', 'web-1'],
    ['4.2', '4.2'],
  ])('artifact id %s goes out as %o', (raw, sent) => {
    expect(artifactIdValue(raw)).toBe(sent);
  });

  it('splits lists on commas and line breaks', () => {
    expect(splitList(' a, b\n\nc ,\r\nd')).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe("each face's words, and the problems beside what could be read", () => {
  const words = { ...ACTION_WORDS, tool: 'the tool', unit: 'command', statusHint: 'Or give an exit code.' };

  it('the action speaks of itself as this action, a step, and when the job ends', () => {
    expect(settings(valid).words.tool).toBe('this action');
    expect(problems({ ...valid, status: 'done' })[0]).toMatch(
      /got 'done'\. Leave it empty to start the deployment here and finish it when the job ends\.$/,
    );
  });

  it('another face in its own words: what would finish a deployment, what records, what to do after a refused status', () => {
    const read = (values: Record<string, string>) =>
      readSettingsAndRequest({ ...sourceOf(values), words }, {}, () =>
        githubDefaults({ eventName: 'push', payload: {}, env: run, checkRunId: '' }),
      );
    expect(read(valid).settings.words.tool).toBe('the tool');
    const many = Array.from({ length: 101 }, (_, index) => String(index + 1)).join(',');
    expect(() => read({ ...valid, status: 'done', 'artifact-id': many })).toThrow(
      new ConfigError([
        {
          subject: "Input 'status'",
          text: "must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped, or a GitHub deployment's state), got 'done'. Or give an exit code.",
        },
        {
          subject: "Input 'artifact-id' or 'artifact-name'",
          text: 'name 101 artifacts; one command records at most 100. Split them over several commands.',
        },
      ]),
    );
    expect(() => read({ ...valid, 'deployment-id': many })).toThrow(
      "Input 'deployment-id' holds 101 ids; one command updates at most 100. Split them over several commands.",
    );
  });

  it('inspectSettingsAndRequest: every problem, and what could be read beside them', () => {
    const {
      settings: read,
      request,
      problem,
    } = inspectSettingsAndRequest(sourceOf({ ...valid, retries: 'x', 'artifact-id': '', description: 'd' }), {}, () =>
      githubDefaults({ eventName: 'push', payload: {}, env: run, checkRunId: '' }),
    );
    expect(problem?.lines).toEqual([
      "Input 'retries' must be a whole number from 0 to 10, got 'x'.",
      expect.stringMatching(/^Input 'artifact-id' or 'artifact-name' must be set/),
    ]);
    expect(read.connection.timeoutMs).toBe(10_000);
    expect(request.fields?.description).toEqual({ value: 'd', source: "Input 'description'" });
    expect(request.artifacts).toEqual([]);
    const fine = inspectSettingsAndRequest(sourceOf(valid), {}, () =>
      githubDefaults({ eventName: 'push', payload: {}, env: run, checkRunId: '' }),
    );
    expect(fine.problem).toBeUndefined();
  });
});
