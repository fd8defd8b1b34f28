// The contract of src/deps/undici.ts with undici: the files it loads by path are those undici's index
// exports, it repeats what the index does with them (the request API on Dispatcher.prototype, and
// `request(url, options)`), undici's dispatchers take the options it passes, and the constants
// lib/dispatcher/client-h2.js reads from node:http2 at load are those its stand-in answers. Every
// failure names the file to update.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { constants as http2Constants } from 'node:http2';
import { createRequire } from 'node:module';
import { createServer as createNetServer, type Server } from 'node:net';
import { join, relative } from 'node:path';
import type { Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createProxyAgent, request, undiciLazyBuiltins } from '../../src/deps/undici.ts';
import { ROOT } from '../helpers/run-action.ts';
import { destructured, memberUses, parseJs, requireCalls } from './source.ts';

const UPDATE = 'undici changed shape: update src/deps/undici.ts';
const load = createRequire(join(ROOT, 'package.json'));
const UNDICI = join(ROOT, 'node_modules', 'undici');

interface Undici {
  Dispatcher: unknown;
  Agent: unknown;
  ProxyAgent: unknown;
  Pool: unknown;
  request(url: string | URL, options: object): Promise<Dispatcher.ResponseData>;
}

describe('the files src/deps/undici.ts loads by path', () => {
  it('load by path (undici has no exports map), and are the classes its index exports', () => {
    const manifest = JSON.parse(readFileSync(join(UNDICI, 'package.json'), 'utf8')) as Record<string, unknown>;
    const undici = load('undici') as Undici;

    expect(manifest.exports, `${UPDATE}: undici now has an exports map, which may close its files`).toBeUndefined();
    expect(load('undici/lib/dispatcher/dispatcher.js'), `${UPDATE}: Dispatcher`).toBe(undici.Dispatcher);
    expect(load('undici/lib/dispatcher/agent.js'), `${UPDATE}: Agent`).toBe(undici.Agent);
    expect(load('undici/lib/dispatcher/proxy-agent.js'), `${UPDATE}: ProxyAgent`).toBe(undici.ProxyAgent);
    expect(load('undici/lib/dispatcher/pool.js'), `${UPDATE}: Pool`).toBe(undici.Pool);
  });

  it('the request API (lib/api/index.js) is what the index installs on Dispatcher.prototype, and only the index', () => {
    // A fresh process: in this one, src/deps/undici.ts has installed it already.
    const script = `
      const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
      const api = require('undici/lib/api/index.js');
      const before = Object.keys(api).filter((name) => name in Dispatcher.prototype);
      require('undici');
      const after = Object.keys(api).filter((name) => Dispatcher.prototype[name] === api[name]);
      console.log(JSON.stringify({ api: Object.keys(api), before, after }));`;
    const ran = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
    const { api, before, after } = JSON.parse(ran.stdout) as Record<'api' | 'before' | 'after', string[]>;

    expect(api, `${UPDATE} (and its types in src/deps/undici-modules.d.ts): the request API changed`).toEqual([
      'request',
      'stream',
      'pipeline',
      'upgrade',
      'connect',
    ]);
    expect(before, `${UPDATE}: Dispatcher has the request API of its own now; the Object.assign may go`).toEqual([]);
    expect(after, `${UPDATE}: the index no longer installs the request API as src/deps/undici.ts does`).toEqual(api);
  });
});

/** A dispatcher that records what it is asked and answers 201 with a small JSON body. */
function recordingDispatcher(): { asked: unknown[]; dispatcher: Dispatcher } {
  const asked: unknown[] = [];
  const dispatcher = {
    dispatch(options: unknown, handler: Dispatcher.DispatchHandler) {
      asked.push(options);
      const controller = {
        abort: () => undefined,
        pause: () => undefined,
        resume: () => undefined,
        paused: false,
        aborted: false,
        reason: null,
      } as unknown as Dispatcher.DispatchController;
      handler.onRequestStart?.(controller, {});
      handler.onResponseStart?.(controller, 201, { 'content-type': 'application/json', 'x-seen': 'yes' }, 'Created');
      handler.onResponseData?.(controller, Buffer.from('{"success":true,"id":7}'));
      handler.onResponseEnd?.(controller, {});
      return true;
    },
  };
  return { asked, dispatcher: dispatcher as unknown as Dispatcher };
}

describe("src/deps/undici.ts's request() is the index's request(url, options)", () => {
  const signal = new AbortController().signal;
  const cases: [string, URL | string, Record<string, unknown>, Record<string, unknown>][] = [
    [
      'a POST to a URL with a query',
      new URL('http://127.0.0.1:8080/api/deployment?dry=1'),
      {
        method: 'POST',
        headers: { 'x-api-key': 'rd-test-key-1c6e8a0f4b97', 'content-type': 'application/json' },
        body: '{"a":1}',
        signal,
      },
      { origin: 'http://127.0.0.1:8080', path: '/api/deployment?dry=1', method: 'POST', body: '{"a":1}' },
    ],
    [
      'a PATCH to a string URL',
      'https://tracker.example/api/deployment/7',
      { method: 'PATCH', body: '{"status":"SUCCEEDED"}' },
      { origin: 'https://tracker.example', path: '/api/deployment/7', method: 'PATCH' },
    ],
    [
      'no method, a body',
      'https://tracker.example:8443/deployment',
      { body: 'x' },
      { origin: 'https://tracker.example:8443', path: '/deployment', method: 'PUT' },
    ],
    [
      'no method, no body',
      new URL('https://tracker.example/'),
      {},
      { origin: 'https://tracker.example', path: '/', method: 'GET' },
    ],
  ];

  it.each(cases)('%s: the same dispatch, the same answer', async (_, url, options, expected) => {
    const ours = recordingDispatcher();
    const theirs = recordingDispatcher();
    const undici = load('undici') as Undici;

    const ourAnswer = await request(url, { ...options, dispatcher: ours.dispatcher });
    const theirAnswer = await undici.request(url, { ...options, dispatcher: theirs.dispatcher });

    expect(ours.asked, `${UPDATE}: the index's request() dispatches otherwise now`).toEqual(theirs.asked);
    expect(ours.asked).toEqual([expect.objectContaining(expected)]);
    expect(
      [ourAnswer.statusCode, ourAnswer.headers, await ourAnswer.body.text()],
      `${UPDATE}: the index's request() answers otherwise now`,
    ).toEqual([theirAnswer.statusCode, theirAnswer.headers, await theirAnswer.body.text()]);
    expect([ourAnswer.statusCode, ourAnswer.headers['x-seen']]).toEqual([201, 'yes']);
  });
});

describe('the dispatchers take the phase timeouts src/deps/undici.ts passes', () => {
  const servers: Server[] = [];
  const dispatchers: Dispatcher[] = [];
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.destroy()));
    await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
  });

  /** A loopback server that accepts and never answers; `received` gets the first bytes. */
  async function silentServer(): Promise<{ port: number; received: Promise<string> }> {
    let heard: (text: string) => void = () => undefined;
    const received = new Promise<string>((resolve) => (heard = resolve));
    const server = createNetServer((socket) => socket.once('data', (chunk) => heard(chunk.toString('latin1'))));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as { port: number }).port, received };
  }

  /**
   * The error code `attempt` fails with. A dispatcher that ignored the option would wait undici's
   * default (10 s to connect, 300 s for headers or body): the bound makes that a failure that says so.
   */
  async function failure(attempt: Promise<unknown>): Promise<string> {
    const bound = new Promise<string>((resolve) => setTimeout(() => resolve('no error within 20 s'), 20_000).unref());
    return Promise.race([
      attempt.then(
        () => 'no error',
        (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
      ),
      bound,
    ]);
  }

  it('Agent: connectTimeout bounds the TLS handshake', async () => {
    const { port } = await silentServer();
    const dispatcher = createAgent({ timeoutMs: 50 });
    dispatchers.push(dispatcher);

    const error = await failure(
      request(`https://127.0.0.1:${port}/deployment`, { method: 'POST', body: '{}', dispatcher }),
    );

    expect(error, `${UPDATE}: Agent ignores connectTimeout`).toBe(
      `UND_ERR_CONNECT_TIMEOUT: Connect Timeout Error (attempted address: 127.0.0.1:${port}, timeout: 50ms)`,
    );
  });

  it('Agent: headersTimeout bounds the wait for an answer', async () => {
    const { port, received } = await silentServer();
    const dispatcher = createAgent({ timeoutMs: 50 });
    dispatchers.push(dispatcher);

    const error = await failure(
      request(`http://127.0.0.1:${port}/deployment`, { method: 'POST', body: '{}', dispatcher }),
    );

    expect(error, `${UPDATE}: Agent ignores headersTimeout`).toBe('UND_ERR_HEADERS_TIMEOUT: Headers Timeout Error');
    expect(await received).toMatch(/^POST \/deployment HTTP\/1\.1\r\n/);
  });

  it('Agent: bodyTimeout bounds a body that stops coming', async () => {
    const server = createHttpServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dispatcher = createAgent({ timeoutMs: 50 });
    dispatchers.push(dispatcher);
    const { port } = server.address() as { port: number };

    const error = await failure(
      request(`http://127.0.0.1:${port}/deployment`, { method: 'POST', body: '{}', dispatcher }).then((answer) =>
        answer.body.text(),
      ),
    );

    expect(error, `${UPDATE}: Agent ignores bodyTimeout`).toBe('UND_ERR_BODY_TIMEOUT: Body Timeout Error');
    server.closeAllConnections();
  });

  it("ProxyAgent: clientFactory gives the proxy's own client the timeouts (a CONNECT that gets no answer)", async () => {
    const proxy = await silentServer();
    const dispatcher = await createProxyAgent(new URL(`http://127.0.0.1:${proxy.port}`), { timeoutMs: 50 });
    dispatchers.push(dispatcher);

    const error = await failure(
      request('https://tracker.example/deployment', { method: 'POST', body: '{}', dispatcher }),
    );

    expect(error, `${UPDATE}: ProxyAgent ignores clientFactory, or Pool headersTimeout`).toBe(
      'UND_ERR_HEADERS_TIMEOUT: Headers Timeout Error',
    );
    expect(await proxy.received).toMatch(/^CONNECT tracker\.example:443 HTTP\/1\.1\r\n/);
  });
});

describe('what undici reads from node:http2 at load (the stand-in of src/deps/undici.ts)', () => {
  const clientH2 = parseJs(join(UNDICI, 'lib', 'dispatcher', 'client-h2.js'));

  it('only lib/dispatcher/client-h2.js requires it, as node:http2, at load', () => {
    const lib = join(UNDICI, 'lib');
    const requiring = readdirSync(lib, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) =>
        requireCalls(parseJs(join(lib, file)))
          .filter(({ specifier }) => /^(node:)?http2$/.test(specifier))
          .map((call) => ({ file: relative(UNDICI, join(lib, file)), ...call })),
      );

    expect(
      requiring,
      `${UPDATE}: undici requires http2 elsewhere or otherwise (ncc's externals match the name)`,
    ).toEqual([{ file: join('lib', 'dispatcher', 'client-h2.js'), specifier: 'node:http2', atLoad: true }]);
    expect(Object.keys(undiciLazyBuiltins())).toEqual(['node:http2']);
  });

  it('client-h2.js reads exactly the constants the stand-in answers, at load, and nothing else of http2 then', () => {
    const read = destructured(clientH2, 'http2', 'constants');
    const answered = undiciLazyBuiltins()['node:http2'].constants;

    expect(
      read.map(({ name }) => name).sort(),
      `${UPDATE}: client-h2.js reads other constants from http2 at load`,
    ).toEqual(Object.keys(answered).sort());
    expect(
      read.every(({ atLoad }) => atLoad),
      `${UPDATE}: client-h2.js reads http2's constants lazily now`,
    ).toBe(true);
    expect(
      memberUses(clientH2, 'http2').filter(({ atLoad }) => atLoad),
      `${UPDATE}: client-h2.js uses more of http2 at load`,
    ).toEqual([]);
    expect(memberUses(clientH2, 'http2').map(({ name }) => name)).toContain('connect');
  });

  it("the stand-in's constants are node:http2's", () => {
    const answered = undiciLazyBuiltins()['node:http2'].constants;
    const real = http2Constants as unknown as Record<string, string | number>;

    for (const [name, value] of Object.entries(answered)) {
      expect(value, `${UPDATE}: node:http2's ${name} is ${String(real[name])}`).toBe(real[name]);
    }
    expect(answered).toMatchObject({ HTTP2_HEADER_STATUS: ':status', NGHTTP2_REFUSED_STREAM: 7 });
  });
});
