import { describe, expect, it } from 'vitest';
import {
  artifactIdValue,
  isLoopback,
  readArtifacts,
  readConnection,
  readDeploymentIds,
  readRequestedStatus,
  readType,
  splitList,
} from '../../src/inputs.ts';

function reader(values: Record<string, string>) {
  return (name: string) => values[name] ?? '';
}

const valid = { 'api-key': 'k', 'base-url': 'https://tracker.example.com/api', 'timeout-seconds': '10', retries: '3' };

describe('readConnection', () => {
  it('reads a valid connection and normalises the base URL', () => {
    const connection = readConnection(reader({ ...valid, 'fail-on-error': 'TRUE' }));
    expect(connection.baseUrl.href).toBe('https://tracker.example.com/api/');
    expect(connection).toMatchObject({ apiKey: 'k', timeoutMs: 10_000, retries: 3, failOnError: true, dryRun: false });
  });

  it.each([
    [{ 'api-key': '' }, /^Input 'api-key' is empty\. Set it from a secret/],
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
  ])('rejects %o', (override, message) => {
    expect(() => readConnection(reader({ ...valid, ...override }))).toThrow(message);
  });

  it('allows plain http to loopback, and elsewhere only when asked', () => {
    expect(readConnection(reader({ ...valid, 'base-url': 'http://127.0.0.1:8080' })).baseUrl.href).toBe(
      'http://127.0.0.1:8080/',
    );
    const insecure = { ...valid, 'base-url': 'http://tracker.lan/api', 'allow-insecure-http': 'true' };
    expect(readConnection(reader(insecure)).baseUrl.href).toBe('http://tracker.lan/api/');
  });

  it('accepts fractional timeouts', () => {
    expect(readConnection(reader({ ...valid, 'timeout-seconds': '0.5' })).timeoutMs).toBe(500);
  });
});

describe('small parsers', () => {
  it.each(['localhost', 'api.localhost', '127.0.0.1', '127.1.2.3', '[::1]'])('%s is loopback', (host) => {
    expect(isLoopback(host)).toBe(true);
  });
  it.each(['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com'])('%s is not loopback', (host) => {
    expect(isLoopback(host)).toBe(false);
  });

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

  it('splits lists on commas and newlines', () => {
    expect(splitList(' a, b\n\nc ,')).toEqual(['a', 'b', 'c']);
  });

  it('reads artifacts by id and by name', () => {
    expect(readArtifacts(reader({ 'artifact-id': '1, 2', 'artifact-name': 'web' }))).toEqual([
      { artifactId: 1 },
      { artifactId: 2 },
      { artifactName: 'web' },
    ]);
  });

  it.each([
    ['', undefined],
    ['started', 'STARTED'],
    ['SUCCEEDED', 'SUCCEEDED'],
    ['success', 'SUCCEEDED'],
    ['Failed', 'FAILED'],
    ['failure', 'FAILED'],
    ['cancelled', 'FAILED'],
  ])('status %s is %s', (raw, status) => {
    expect(readRequestedStatus(reader({ status: raw }))).toBe(status);
  });

  it('rejects an unknown status naming the input', () => {
    expect(() => readRequestedStatus(reader({ status: 'done' }))).toThrow(
      /^Input 'status' must be one of STARTED, SUCCEEDED, FAILED/,
    );
  });

  it('accepts only the SIMPLE type', () => {
    expect(readType(reader({}))).toBe('SIMPLE');
    expect(() => readType(reader({ type: 'BLUE_GREEN' }))).toThrow(
      "Input 'type' must be SIMPLE (the only type the service accepts), got 'BLUE_GREEN'.",
    );
  });

  it.each([
    ['', []],
    ['12', ['12']],
    ['12, 13', ['12', '13']],
    ['[12,"a-b"]', ['12', 'a-b']],
  ])('deployment-id %s', (raw, ids) => {
    expect(readDeploymentIds(reader({ 'deployment-id': raw }))).toEqual(ids);
  });

  it.each(['[1,', '[{}]', '[""]'])('rejects deployment-id %s', (raw) => {
    expect(() => readDeploymentIds(reader({ 'deployment-id': raw }))).toThrow(/^Input 'deployment-id'/);
  });
});
