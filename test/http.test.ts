// The HTTP client in-process against the fake service and a few hostile servers: the retry policy,
// the waits it asks for (an injected sleep: nothing really waits), timeouts and the answer bound.
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient, type HttpRequest } from '../src/core/http.ts';
import type { Log } from '../src/core/log.ts';
import { NetworkError } from '../src/core/network-error.ts';
import type { Proxy } from '../src/core/proxy.ts';
import { startFakeService, type FakeService } from './helpers/fake-service.ts';

// A key as real ones look (a one-letter key could hide a letter of the output that quotes it).
const KEY = 'rd-test-key-3f7a0c92e1b4';
const lines: string[] = [];
const log: Log = {
  info: (text) => lines.push(...(typeof text === 'string' ? [text] : text)),
  warning: () => undefined,
  debug: () => undefined,
  clean: (line) => line,
};

let service: FakeService | undefined;
let client: HttpClient | undefined;
const servers: Server[] = [];
afterEach(async () => {
  lines.length = 0;
  await client?.close();
  await service?.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A client whose waits are recorded, not slept. */
async function clientFor(options: { retries?: number; timeoutMs?: number; proxy?: Proxy } = {}) {
  const waits: number[] = [];
  client = await createHttpClient({
    serviceAddress: '`base-url`',
    timeoutMs: options.timeoutMs ?? 5000,
    retries: options.retries ?? 3,
    proxy: options.proxy,
    log,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
  });
  return { client, waits };
}

async function fake(): Promise<FakeService> {
  service = await startFakeService();
  return service;
}

function post(url: string, apiKey: string): HttpRequest {
  return {
    method: 'POST',
    url: new URL(`${url}/deployment`),
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({
      artifactId: 1,
      version: '1',
      environment: 'Production',
      commitSha: 'a',
      user: 'u',
      branch: 'b',
    }),
  };
}

function patch(url: string, apiKey: string, id = '1'): HttpRequest {
  return {
    method: 'PATCH',
    url: new URL(`${url}/deployment/${id}`),
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: '{"status":"SUCCEEDED"}',
  };
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The address of a server that has just closed: a connection there is refused. */
async function refusing(): Promise<string> {
  const url = await listen(() => undefined);
  const server = servers.pop() as Server;
  await new Promise((resolve) => server.close(resolve));
  return url;
}

describe('retries that cannot duplicate a deployment', () => {
  it.each([503, 429])('retries a create answered %i after its Retry-After, once', async (status) => {
    const s = await fake();
    const { url, apiKey, deployments } = s;
    s.fail('POST', { status, body: { detail: 'busy' }, headers: { 'retry-after': '2' } });
    const { client, waits } = await clientFor();

    const response = await client.send(post(url, apiKey));

    expect(response.status).toBe(200);
    expect(waits).toEqual([2000]);
    expect(deployments.size).toBe(1);
    expect(lines).toEqual([`POST ${url}/deployment: HTTP ${status}; retrying in 2.0 s (retry 1 of 3)`]);
  });

  it.each([500, 502, 504, 408, 422])('never retries a create answered %i', async (status) => {
    const s = await fake();
    const { url, apiKey, requests } = s;
    s.fail('POST', { status, body: { detail: 'no' } });
    const { client, waits } = await clientFor();

    expect((await client.send(post(url, apiKey))).status).toBe(status);
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('never retries a create whose connection dropped: it may have been recorded', async () => {
    const s = await fake();
    const { url, apiKey, requests } = s;
    s.fail('POST', { drop: true });
    const { client } = await clientFor();

    const error = await client.send(post(url, apiKey)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(
      /^connection closed before an answer \(127\.0\.0\.1:\d+\); it may have reached the service, so it is not sent again$/,
    );
    // What it ran into travels with it, for the receiver's retry policy.
    expect((error as NetworkError).category).toBe('reset');
    expect(requests).toHaveLength(1);
  });

  it('retries a refused create with backoff and jitter, then says so', async () => {
    const url = await refusing();
    const { client, waits } = await clientFor({ retries: 2 });

    const error = await client.send(post(url, KEY)).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe(`connection refused (${new URL(url).host})`);
    expect((error as NetworkError).cause).toBeInstanceOf(Error);
    expect(waits).toEqual([250, 500]); // 500 ms and 1 s, times the jitter 0.5
  });
});

describe('a cancelled run tries nothing again', () => {
  it('a create answered 503 is not retried once the run is cancelled: its answer stands', async () => {
    const s = await fake();
    s.fail('POST', { status: 503, body: { detail: 'busy' } });
    const { client, waits } = await clientFor();
    const cancelled = new AbortController();
    cancelled.abort();

    const response = await client.send(post(s.url, s.apiKey), cancelled.signal);

    expect(response.status).toBe(503);
    expect(waits).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });

  it('a wait before a retry ends when the run is cancelled, and the last answer stands', async () => {
    const s = await fake();
    s.fail('POST', { status: 429, body: { detail: 'slow down' }, headers: { 'retry-after': '10' } });
    const cancelled = new AbortController();
    const waits: number[] = [];
    client = await createHttpClient({
      serviceAddress: '`base-url`',
      timeoutMs: 5000,
      retries: 3,
      proxy: undefined,
      log,
      // The run is cancelled during the wait; the wait ends at that.
      sleep: (ms, signal) => {
        waits.push(ms);
        const over = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve()));
        cancelled.abort();
        return over;
      },
    });

    const response = await client.send(post(s.url, s.apiKey), cancelled.signal);

    expect(response.status).toBe(429);
    expect(waits).toEqual([10_000]);
    expect(s.requests).toHaveLength(1);
  });

  it('a wait after a refused update ends when the run is cancelled, and the network error stands', async () => {
    const url = await refusing();
    const cancelled = new AbortController();
    const debug: string[] = [];
    client = await createHttpClient({
      serviceAddress: '`base-url`',
      timeoutMs: 5000,
      retries: 3,
      proxy: undefined,
      log: { ...log, debug: (text) => debug.push(String(text)) },
      sleep: () => {
        cancelled.abort();
        return Promise.resolve();
      },
    });

    const error = await client.send(patch(url, KEY), cancelled.signal).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe(`connection refused (${new URL(url).host})`);
    expect((error as NetworkError).cause).toBeInstanceOf(Error);
    // The debug log names the request and the cause, then the error as Node.js gave it.
    expect(debug[1]).toMatch(new RegExp(`^PATCH ${url}/deployment/1 -> refused: \\S`));
  });

  it('a refused create is not tried again once the run is cancelled: the network error stands', async () => {
    const url = await refusing();
    const { client, waits } = await clientFor();
    const cancelled = new AbortController();
    cancelled.abort();

    await expect(client.send(post(url, KEY), cancelled.signal)).rejects.toThrow(/^connection refused/);
    expect(waits).toEqual([]);
  });
});

describe('the default wait before a retry (no sleep injected)', () => {
  /** A log that calls `onRetry` when the client says it is about to wait. */
  function logCalling(onRetry: () => void): Log {
    return { ...log, info: (text) => (String(text).includes('retrying in') ? onRetry() : undefined) };
  }

  it("really waits the answer's Retry-After before the retry", async () => {
    const events: string[] = [];
    let requests = 0;
    const url = await listen((_, res) => {
      requests++;
      events.push(`request ${requests}`);
      if (requests === 1) res.writeHead(503, { 'retry-after': '1', 'content-type': 'application/json' });
      else res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{}');
    });
    // Scheduled as the client logs its retry, just before it starts its 1 s wait: a timer of 100 ms
    // fires before that wait is over, so before the second request, however slow the machine is.
    const retrying = logCalling(() => setTimeout(() => events.push('100 ms after the retry was announced'), 100));
    client = await createHttpClient({
      serviceAddress: '`base-url`',
      timeoutMs: 5000,
      retries: 1,
      proxy: undefined,
      log: retrying,
    });

    const response = await client.send(post(url, KEY));

    expect(response.status).toBe(201);
    expect(events).toEqual(['request 1', '100 ms after the retry was announced', 'request 2']);
  });

  it('ends its wait when the run is cancelled, and the last answer stands', async () => {
    const events: string[] = [];
    let requests = 0;
    const url = await listen((_, res) => {
      requests++;
      res.writeHead(429, { 'retry-after': '10', 'content-type': 'application/json' });
      res.end('{"detail":"slow down"}');
    });
    const cancelled = new AbortController();
    let timerFired: () => void = () => undefined;
    const fired = new Promise<void>((resolve) => (timerFired = resolve));
    // The run is cancelled while the client waits its 10 s. The wait ends at once (promise callbacks
    // only, no I/O), so before any timer set then: a wait that ignored the signal would still return
    // the last answer, but only after 10 s, after that timer.
    const retrying = logCalling(() =>
      setImmediate(() => {
        cancelled.abort();
        setTimeout(() => {
          events.push('a timer set at the cancel');
          timerFired();
        }, 1000);
      }),
    );
    client = await createHttpClient({
      serviceAddress: '`base-url`',
      timeoutMs: 5000,
      retries: 3,
      proxy: undefined,
      log: retrying,
    });

    const response = await client.send(post(url, KEY), cancelled.signal).finally(() => events.push('answer'));

    expect(response.status).toBe(429);
    expect(requests).toBe(1);
    await fired;
    expect(events).toEqual(['answer', 'a timer set at the cancel']);
  });
});

describe('updates are idempotent', () => {
  it.each([500, 502, 503, 504, 408, 429])('retries an update answered %i', async (status) => {
    const s = await fake();
    const { url, apiKey } = s;
    await fetch(`${url}/deployment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: post(url, apiKey).body,
    });
    s.fail('PATCH', { status, body: { detail: 'again' } });
    const { client, waits } = await clientFor();

    expect((await client.send(patch(url, apiKey))).status).toBe(200);
    expect(waits).toHaveLength(1);
  });

  it('retries a dropped update, and gives up after the retries with the last answer', async () => {
    const s = await fake();
    const { url, apiKey, requests } = s;
    s.fail(
      'PATCH',
      { drop: true },
      ...Array.from({ length: 3 }, () => ({ status: 503, body: { detail: 'maintenance' } })),
    );
    const { client } = await clientFor();

    const response = await client.send(patch(url, apiKey, '9'));

    expect(response.status).toBe(503);
    expect(JSON.parse(response.text)).toEqual({ detail: 'maintenance' });
    expect(requests).toHaveLength(4);
  });
});

describe('what the client never does', () => {
  it('never waits past its timeout for an answer', async () => {
    const s = await fake();
    const { url, apiKey } = s;
    s.fail('PATCH', { hang: true }, { hang: true });
    const { client } = await clientFor({ retries: 1, timeoutMs: 100 });

    await expect(client.send(patch(url, apiKey))).rejects.toThrow(/^no answer in time \(127\.0\.0\.1:\d+\)$/);
  });

  it('never follows a redirect (the key would go along)', async () => {
    let hits = 0;
    const url = await listen((_, res) => {
      hits++;
      res.writeHead(302, { location: 'https://elsewhere.example/x' }).end();
    });
    const { client } = await clientFor();

    const response = await client.send(post(url, KEY));

    expect({ status: response.status, location: response.location, hits }).toEqual({
      status: 302,
      location: 'https://elsewhere.example/x',
      hits: 1,
    });
  });

  it('reads at most 64 KiB of an answer, however long it is', async () => {
    let written = 0;
    const url = await listen((_, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (written < 300 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
        if (written < 300 * 1024 * 1024) res.once('drain', pump);
        else res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    const { client } = await clientFor();

    const response = await client.send(post(url, KEY));

    expect(response.truncated).toBe(true);
    expect(response.text).toHaveLength(64 * 1024);
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('closes its kept-alive connections when closed', async () => {
    const closed: Promise<void>[] = [];
    const url = await listen((_, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const server = servers[0] as Server;
    // The server itself would keep the connection for a minute: only the client can end it sooner.
    server.keepAliveTimeout = 60_000;
    server.on('connection', (socket) => closed.push(new Promise((resolve) => socket.on('close', () => resolve()))));
    const { client } = await clientFor({ retries: 0 });
    expect((await client.send(post(url, KEY))).status).toBe(201);
    expect(closed).toHaveLength(1);

    await client.close();

    await Promise.all(closed);
  });

  it('reads an answer without a content type as one with an empty one', async () => {
    const url = await listen((_, res) => {
      res.writeHead(500);
      res.end('oops');
    });
    const { client } = await clientFor({ retries: 0 });

    expect(await client.send(post(url, KEY))).toMatchObject({ status: 500, contentType: '', text: 'oops' });
  });

  it.each([
    [64 * 1024, false],
    [64 * 1024 + 1, true],
  ])('reads an answer of %i bytes whole up to exactly 64 KiB (cut: %s)', async (bytes, truncated) => {
    const url = await listen((_, res) => {
      res.writeHead(500, { 'content-type': 'application/json', 'content-length': String(bytes) });
      res.end(Buffer.alloc(bytes, 'x'));
    });
    const { client } = await clientFor({ retries: 0 });

    const response = await client.send(post(url, KEY));

    expect(response.truncated).toBe(truncated);
    expect(response.text).toBe('x'.repeat(64 * 1024));
  });

  it('ends an attempt at its timeout while a proxy never answers the CONNECT', async () => {
    const silent = createNetServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const { client } = await clientFor({
      retries: 0,
      timeoutMs: 200,
      proxy: { url: new URL(proxyUrl), variable: 'HTTPS_PROXY' },
    });
    const started = performance.now();

    await expect(client.send(post('https://tracker.test', KEY))).rejects.toThrow(
      /^no answer in time \(tracker\.test through the proxy HTTPS_PROXY/,
    );
    expect(performance.now() - started).toBeLessThan(2000);
    silent.close();
  });

  it('ends an attempt at its timeout while a TLS handshake never completes', async () => {
    const silent = createNetServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { client } = await clientFor({ retries: 0, timeoutMs: 200 });
    const started = performance.now();

    await expect(client.send(post(`https://127.0.0.1:${(silent.address() as AddressInfo).port}`, KEY))).rejects.toThrow(
      /^no answer in time/,
    );
    expect(performance.now() - started).toBeLessThan(2000);
    silent.close();
  });

  it('names a proxy that asks for credentials', async () => {
    const proxyUrl = await listen((_, res) => res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end());
    const { client } = await clientFor({ proxy: { url: new URL(proxyUrl), variable: 'HTTP_PROXY' } });

    await expect(client.send(post('http://tracker.test', KEY))).rejects.toThrow(
      `the proxy HTTP_PROXY (${proxyUrl}) asks for credentials (HTTP 407): put them in HTTP_PROXY as http://user:password@host:port`,
    );
  });
});
