// The receiver's HTTP face in-process (src/receiver/server.ts) over real sockets on loopback, with
// short limits: a client that trickles is cut off while others are served, and hostile requests of
// every shape crash nothing and store nothing without a valid signature.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Log } from '../../src/core/log.ts';
import { Metrics } from '../../src/receiver/metrics.ts';
import { createReceiverServer, type EnabledSource, type ServerLimits } from '../../src/receiver/server.ts';
import { SOURCES } from '../../src/receiver/sources/index.ts';
import { github } from '../../src/receiver/sources/github.ts';
import { gitlab } from '../../src/receiver/sources/gitlab.ts';
import { openStore } from '../../src/receiver/store/index.ts';
import type { Store } from '../../src/receiver/store/store.ts';
import { deploymentStatus, post, SECRET, signed } from './helpers/github-delivery.ts';
import { fixture, gitlabTime, SENT_AT, standardSignature } from './helpers/request.ts';

const LIMITS: ServerLimits = { bodyBytes: 16 * 1024, requestMs: 400, headers: 30, connections: 64 };
const lines: string[] = [];
const keep = (text: string | readonly string[] | (() => string | readonly string[])) => {
  const value = typeof text === 'function' ? text() : text;
  lines.push(...(typeof value === 'string' ? [value] : value));
};
const log: Log = { debug: keep, info: keep, warning: keep, clean: (line) => line };

let store: Store;
let port: number;
let server: ReturnType<typeof createReceiverServer>;
beforeAll(async () => {
  store = openStore(':memory:');
  server = createReceiverServer({
    known: SOURCES,
    enabled: [{ source: github, secrets: github.secrets({ GITHUB_WEBHOOK_SECRET: SECRET }) }],
    store,
    metrics: new Metrics(),
    log,
    stored: () => undefined,
    limits: LIMITS,
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

/** Everything the server sent on one connection until it closed it (or the client gave up). */
function exchange(bytes: Buffer | string, { end = true } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset after the answer is part of the game
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write(bytes, (error) => {
      if (error) reject(error);
      else if (end) socket.end();
    });
  });
}

/** Writes one byte of `text` at a time, a byte each 20 ms, until the server closes the socket (bounded by the text). */
function trickle(text: string): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  let index = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || index >= text.length) return clearInterval(timer);
    socket.write(text[index++] as string);
  }, 20);
  const closed = new Promise<string>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    }),
  );
  return { socket, closed };
}

/** A signature header of the right form (and the wrong value): what passes the check of the headers alone. */
const FORMED = `X-Hub-Signature-256: sha256=${'0'.repeat(64)}\r\n`;

const all = () => store.list(['pending', 'sending', 'done', 'skipped', 'held', 'failed'], 1000);

describe('a client that trickles', () => {
  // Far longer than requestMs: the server must cut it off before it is done.
  const slowHeaders = `POST /webhooks/github HTTP/1.1\r\nHost: x\r\n${'X-Padding: aaaaaaaaaa\r\n'.repeat(20)}\r\n`;

  it.each([
    ['its headers', slowHeaders],
    ['its body', `POST /webhooks/github HTTP/1.1\r\nHost: x\r\n${FORMED}Content-Length: 500\r\n\r\n${'{'.repeat(500)}`],
  ])('a byte at a time (%s) is cut off, while another client is served', async (_what, text) => {
    const slow = trickle(text);
    await once(slow.socket, 'connect');
    // Served meanwhile, and the slow one is still connected then.
    const delivery = deploymentStatus('success', 700 + text.length);
    expect(await post(port, delivery)).toMatchObject({ status: 202 });
    expect(slow.socket.destroyed).toBe(false);
    const answer = await slow.closed;
    expect(answer === '' || answer.startsWith('HTTP/1.1 408'), answer).toBe(true);
    expect(slow.socket.bytesWritten).toBeLessThan(text.length);
    expect((await all()).map((item) => item.deliveryId)).not.toContain(undefined);
  });
});

describe('hostile requests', () => {
  const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,20}$/);
  const headerValue = fc.string({ maxLength: 60 }).map((text) => text.replace(/[\r\n\0]/g, ' '));
  const request = fc.record({
    method: fc.oneof(fc.constantFrom('POST', 'GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH'), token),
    path: fc.oneof(
      fc.constantFrom('/webhooks/github', '/webhooks/gitlab', '/webhooks/', '/healthz', '/metrics', '/', '*'),
      fc.webPath(),
      fc.string({ maxLength: 80 }).map((text) => `/${encodeURIComponent(text)}`),
      fc.constant(`/webhooks/github?${'x'.repeat(3000)}`),
    ),
    headers: fc
      .tuple(
        fc.dictionary(
          fc.oneof(
            token,
            fc.constantFrom('x-github-event', 'x-github-delivery', 'x-hub-signature-256', 'content-type'),
          ),
          headerValue,
          { maxKeys: 40 },
        ),
        // Mostly GitHub's own headers, so that the body is read as GitHub's when the signature is let by.
        fc.option(fc.constantFrom('deployment_status', 'ping'), { freq: 4 }),
        fc.option(fc.uuid(), { freq: 4 }),
      )
      .map(([others, event, delivery]) => ({
        ...others,
        ...(event ? { 'x-github-event': event } : {}),
        ...(delivery ? { 'x-github-delivery': delivery } : {}),
      })),
    body: fc.oneof(
      fc.uint8Array({ maxLength: 9000 }).map((bytes) => Buffer.from(bytes)),
      fc.json().map((text) => Buffer.from(text)),
      fc.constant(deploymentStatus('success', 1).body),
      fc.integer({ min: 16 * 1024 + 1, max: 40_000 }).map((size) => Buffer.alloc(size, '{')),
    ),
    length: fc.constantFrom('exact', 'absent', 'shorter', 'longer', 'huge', 'junk'),
    signature: fc.constantFrom('none', 'wrong secret', 'garbage', 'the right secret for another body'),
  });

  // A GitHub delivery but for its signature, and perhaps its length: what a forger sends.
  const nearlyGithub = fc
    .record({
      request,
      state: fc.constantFrom('queued', 'success', 'failure'),
      id: fc.integer({ min: 1, max: 1e9 }),
      length: fc.constantFrom('exact', 'shorter', 'longer'),
    })
    .map(({ request: base, state, id, length }) => ({
      ...base,
      method: 'POST',
      path: '/webhooks/github',
      body: deploymentStatus(state, id).body,
      headers: { ...base.headers, 'x-github-event': 'deployment_status', 'x-github-delivery': `d-${id}` },
      length,
    }));

  it('crash nothing, store nothing without a valid signature, and leave the receiver serving', async () => {
    const before = (await all()).length;
    await fc.assert(
      fc.asyncProperty(fc.oneof(request, nearlyGithub), async ({ method, path, headers, body, length, signature }) => {
        const sent: Record<string, string> = { ...headers };
        for (const name of Object.keys(sent))
          if (/^(content-length|transfer-encoding|connection|host|expect)$/i.test(name)) delete sent[name];
        if (signature !== 'none') {
          const key = signature === 'wrong secret' ? 'not the secret' : SECRET;
          const signedBody = signature === 'the right secret for another body' ? Buffer.from(`${body.length}x`) : body;
          sent['x-hub-signature-256'] =
            signature === 'garbage'
              ? 'sha256=zz'
              : (signed('deployment_status', signedBody, { secret: key }).headers['x-hub-signature-256'] as string);
        }
        const declared = {
          exact: String(body.length),
          absent: undefined,
          shorter: String(Math.max(0, body.length - 1)),
          longer: String(body.length + 10),
          huge: String(10 * 1024 * 1024 * 1024),
          junk: 'twelve',
        }[length];
        const head = [
          `${method} ${path} HTTP/1.1`,
          'Host: 127.0.0.1',
          'Connection: close',
          ...(declared === undefined ? [] : [`Content-Length: ${declared}`]),
          ...Object.entries(sent).map(([name, value]) => `${name}: ${value}`),
        ].join('\r\n');
        const answer = await exchange(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), body]));
        const status = /^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1];
        // An answer, when there is one, is never a failure of ours.
        if (answer !== '') expect(status, answer.slice(0, 200)).toBeDefined();
        expect(status).not.toBe('500');
        if (status === '200' || status === '202')
          expect(
            ['/healthz', '/metrics'].includes(path.split('?')[0] as string) || path.startsWith('/webhooks/github'),
          ).toBe(true);
        expect(await all()).toHaveLength(before);
      }),
      { numRuns: 150 },
    );
    // Still serving, and still storing what is signed.
    expect(await post(port, deploymentStatus('queued', 800))).toMatchObject({ status: 202 });
    expect((await all()).slice(before).map((item) => item.status)).toEqual(['STARTED']);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('answers a body over the limit 413 from its Content-Length, before a byte of it is sent', async () => {
    const head = `POST /webhooks/github HTTP/1.1\r\nHost: x\r\n${FORMED}Content-Length: ${LIMITS.bodyBytes + 1}\r\n\r\n`;
    const answer = await exchange(head, { end: false });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('cuts off a body that streams past the limit without reading the rest', async () => {
    const chunked = `POST /webhooks/github HTTP/1.1\r\nHost: x\r\n${FORMED}Transfer-Encoding: chunked\r\n\r\n`;
    const piece = `1000\r\n${'a'.repeat(0x1000)}\r\n`;
    const answer = await exchange(`${chunked}${piece.repeat(6)}`, { end: false });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });
});

/** Another receiver on its own store, with the given sources enabled; closed by the caller. */
async function anotherReceiver(enabled: EnabledSource[]) {
  const own = openStore(':memory:');
  const other = createReceiverServer({
    known: SOURCES,
    enabled,
    store: own,
    metrics: new Metrics(),
    log,
    stored: () => undefined,
    limits: LIMITS,
  });
  other.listen(0, '127.0.0.1');
  await once(other, 'listening');
  return {
    store: own,
    port: (other.address() as AddressInfo).port,
    close: async () => {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
      await own.close();
    },
  };
}

describe('a signed GitLab delivery', () => {
  it('is deduplicated on its signed webhook-id: a replay with a fresh Idempotency-Key stores nothing', async () => {
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    const secrets = gitlab.secrets({ GITLAB_WEBHOOK_SIGNING_TOKEN: `whsec_${key.toString('base64')}` });
    const receiver = await anotherReceiver([{ source: gitlab, secrets }]);
    try {
      const body = Buffer.from(
        JSON.stringify({ ...fixture('gitlab', 'deployment-success.json'), status_changed_at: gitlabTime(SENT_AT) }),
      );
      const at = Math.floor(Date.now() / 1000);
      const headers = {
        'content-type': 'application/json',
        'webhook-id': 'msg_2c4e',
        'webhook-timestamp': String(at),
        'webhook-signature': standardSignature(key, 'msg_2c4e', at, body),
      };
      const send = (idempotencyKey: string) =>
        post(receiver.port, { headers: { ...headers, 'idempotency-key': idempotencyKey }, body }, '/webhooks/gitlab');
      expect(await send('k1')).toEqual({ status: 202, text: 'stored\n' });
      // The replay, within the signature's 5 minutes, under another unsigned key.
      expect(await send('k2')).toEqual({ status: 200, text: 'already stored\n' });
      const items = await receiver.store.list(['pending', 'skipped'], 10);
      expect(items.map((item) => item.deliveryId)).toEqual(['msg_2c4e']);
    } finally {
      await receiver.close();
    }
  });
});

describe('two instances of a sender behind one receiver', () => {
  it('records GitHub.com and a GitHub Enterprise Server deployment of the same ids, both', async () => {
    const before = (await all()).length;
    const fromGithubCom = deploymentStatus('success', 901);
    // The same ids, and the same payload but for the URLs in it, which name the server.
    const enterpriseBody = Buffer.from(
      fromGithubCom.body
        .toString()
        .replaceAll('https://api.github.com/', 'https://ghes.example.com/api/v3/')
        .replaceAll('https://github.com/', 'https://ghes.example.com/'),
    );
    const fromEnterprise = signed('deployment_status', enterpriseBody);
    fromEnterprise.headers['x-github-enterprise-host'] = 'ghes.example.com';
    expect(await post(port, fromGithubCom)).toEqual({ status: 202, text: 'stored\n' });
    expect(await post(port, fromEnterprise)).toEqual({ status: 202, text: 'stored\n' });
    const items = (await all()).slice(before);
    expect(items.map((item) => [item.key, item.state])).toEqual([
      ['github:github.com:742519063:901', 'pending'],
      ['github:ghes.example.com:742519063:901', 'pending'],
    ]);
  });

  it('records two GitLab instances’ deployments of the same project and deployment ids, both', async () => {
    const receiver = await anotherReceiver([
      { source: gitlab, secrets: gitlab.secrets({ GITLAB_WEBHOOK_TOKEN: 'tok-3f9a-5e1d7c20b4' }) },
    ]);
    try {
      const body = Buffer.from(
        JSON.stringify({ ...fixture('gitlab', 'deployment-success.json'), status_changed_at: gitlabTime(SENT_AT) }),
      );
      for (const instance of ['https://gitlab.com', 'https://gitlab.example.com']) {
        const headers = {
          'x-gitlab-token': 'tok-3f9a-5e1d7c20b4',
          'x-gitlab-instance': instance,
          'idempotency-key': instance,
        };
        expect(await post(receiver.port, { headers, body }, '/webhooks/gitlab')).toEqual({
          status: 202,
          text: 'stored\n',
        });
      }
      const items = await receiver.store.list(['pending', 'skipped'], 10);
      expect(items.map((item) => [item.key, item.state])).toEqual([
        ['gitlab:gitlab.com:30:15', 'pending'],
        ['gitlab:gitlab.example.com:30:15', 'pending'],
      ]);
    } finally {
      await receiver.close();
    }
  });
});

describe('one signed GitHub body', () => {
  it('is stored once, whatever fresh delivery ids it comes under, and its own id stays known', async () => {
    const before = (await all()).length;
    const delivery = deploymentStatus('success', 902);
    expect(await post(port, delivery)).toEqual({ status: 202, text: 'stored\n' });
    for (const guid of ['fresh-1', 'fresh-2', 'fresh-3']) {
      const replay = { ...delivery, headers: { ...delivery.headers, 'x-github-delivery': guid } };
      expect(await post(port, replay)).toEqual({ status: 200, text: 'already stored\n' });
    }
    expect(await post(port, delivery)).toEqual({ status: 200, text: 'already stored\n' });
    expect((await all()).slice(before).map((item) => item.deliveryId)).toEqual([delivery.headers['x-github-delivery']]);
  });
});

describe('an event skipped as it arrives', () => {
  it('is said in the log with its reason; the delivery is answered 202 and leaves no item', async () => {
    const before = (await all()).length;
    expect(await post(port, deploymentStatus('success', 903, { guid: 'end-903' }))).toEqual({
      status: 202,
      text: 'stored\n',
    });
    lines.length = 0;
    expect(await post(port, deploymentStatus('in_progress', 903, { guid: 'late-903' }))).toEqual({
      status: 202,
      text: 'stored\n',
    });
    expect(lines).toEqual([
      'github delivery late-903: stored (1 event(s), 1 skipped)',
      'github delivery late-903: skipped github:github.com:742519063:903 STARTED: the deployment has ended already (SUCCEEDED)',
    ]);
    expect((await all()).slice(before).map((item) => item.deliveryId)).toEqual(['end-903']);
  });
});

/** A server of its own, with `limits`, its log in `said`; closed by the caller. */
async function ownServer(limits: ServerLimits, said: string[] = []) {
  const own = createReceiverServer({
    known: SOURCES,
    enabled: [{ source: github, secrets: github.secrets({ GITHUB_WEBHOOK_SECRET: SECRET }) }],
    store,
    metrics: new Metrics(),
    log: {
      ...log,
      info: (text) => {
        said.push(...(typeof text === 'string' ? [text] : text));
      },
    },
    stored: () => undefined,
    limits,
  });
  own.listen(0, '127.0.0.1');
  await once(own, 'listening');
  const ownPort = (own.address() as AddressInfo).port;
  const close = async () => {
    own.closeAllConnections();
    await new Promise((resolve) => own.close(resolve));
  };
  return { server: own, port: ownPort, said, close };
}

/** Resolves once `check` holds, looking again on each turn of the event loop (bounded). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let turn = 0; turn < 5000; turn++) {
    if (await check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('never came true');
}

const connections = (server: ReturnType<typeof createReceiverServer>) =>
  new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));

describe('what a client without a credential can make the receiver hold', () => {
  it('refuses a request whose headers carry no signature before reading a byte of its body', async () => {
    // The body never comes: without the check of the headers the server would wait for it until requestMs.
    const head = `POST /webhooks/github HTTP/1.1\r\nHost: x\r\nContent-Length: 10000\r\nX-GitHub-Delivery: evil\r\n\r\n`;
    const answer = await exchange(head, { end: false });
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain('not authenticated: no X-Hub-Signature-256 header');
    expect(answer.toLowerCase()).toContain('connection: close');
  });

  it('answers 503 with Retry-After a body that would pass the budget of bodies under way, and takes it once there is room', async () => {
    const own = await ownServer({ ...LIMITS, bodyBytes: 32 * 1024, bodyBudgetBytes: 32 * 1024 });
    try {
      // A slow client holds 25,000 bytes of a body it never finishes.
      const slow = connect(own.port, '127.0.0.1');
      slow.on('error', () => undefined);
      slow.write(`POST /webhooks/github HTTP/1.1\r\nHost: x\r\n${FORMED}Content-Length: 30000\r\n\r\n`);
      slow.write('{'.repeat(25_000));
      await until(async () => (await connections(own.server)) === 1);
      const delivery = deploymentStatus('success', 9101);
      expect(delivery.body.length + 25_000).toBeGreaterThan(32 * 1024);
      await until(async () => (await post(own.port, delivery)).status === 503);
      const response = await fetch(`http://127.0.0.1:${own.port}/webhooks/github`, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      slow.destroy();
      await until(async () => (await post(own.port, delivery)).status === 202);
    } finally {
      await own.close();
    }
  });
});

/** Opens `count` connections from `localAddress` that send nothing. */
async function idleConnections(port: number, localAddress: string, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let index = 0; index < count; index++) {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    socket.on('error', () => undefined);
    sockets.push(socket);
    await once(socket, 'connect');
  }
  return sockets;
}

/** GET `path` on a connection of its own from `localAddress`: everything the server sent. */
function probeFrom(port: number, localAddress: string, path = '/healthz'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.end(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  });
}

describe('connections', () => {
  it('idle connections of one address, or of all, never lock the probes out: the oldest idle one makes room', async () => {
    const own = await ownServer({ ...LIMITS, connections: 6, perClientConnections: 4 });
    const idle: Socket[] = [];
    try {
      // Eight idle connections from one address: past four, each closes that address's oldest.
      idle.push(...(await idleConnections(own.port, '127.0.0.1', 8)));
      await until(() => idle.filter((socket) => socket.closed).length === 4);
      expect(idle.slice(0, 4).every((socket) => socket.closed)).toBe(true);
      // A probe from that very address (a kubelet behind the same SNAT) and from another are answered.
      expect(await probeFrom(own.port, '127.0.0.1')).toMatch(/^HTTP\/1\.1 200 /);
      expect(await probeFrom(own.port, '127.0.0.2', '/readyz')).toMatch(/^HTTP\/1\.1 200 /);
      // The server full of idle connections from two addresses (3 and 3): a third address is served too.
      idle.push(...(await idleConnections(own.port, '127.0.0.2', 3)));
      await until(async () => (await connections(own.server)) === 6);
      expect(await probeFrom(own.port, '127.0.0.3')).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      for (const socket of idle) socket.destroy();
      await own.close();
    }
  });

  it('a connection whose request is under way is not closed to make room: the newcomer is', async () => {
    const own = await ownServer({ ...LIMITS, requestMs: 5000, connections: 8, perClientConnections: 1 });
    try {
      const busy = connect({ port: own.port, host: '127.0.0.1', localAddress: '127.0.0.4' });
      busy.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => busy.on('close', () => resolve()));
      busy.write(`POST /webhooks/github HTTP/1.1\r\nHost: x\r\n${FORMED}Content-Length: 100\r\n\r\n{`);
      await until(async () => (await connections(own.server)) === 1);
      // Its headers are in: the request is under way (the server holds it until the body comes).
      await new Promise((resolve) => setImmediate(resolve));
      expect(await probeFrom(own.port, '127.0.0.4')).toBe('');
      expect(busy.closed).toBe(false);
      busy.destroy();
      await closed;
    } finally {
      await own.close();
    }
  });
});

describe('refused requests in the log', () => {
  it('are counted, and said in one line per interval without the ids the clients chose', async () => {
    const own = await ownServer({ ...LIMITS, refusalLogMs: 60_000 });
    const metrics = async () => (await fetch(`http://127.0.0.1:${own.port}/metrics`)).text();
    try {
      for (let index = 0; index < 20; index++) {
        const forged = deploymentStatus('success', 950 + index, { secret: 'not the secret', guid: `evil-${index}` });
        expect((await post(own.port, forged)).status).toBe(401);
      }
      expect(await metrics()).toContain(
        'report_deployment_deliveries_total{source="github",verdict="unauthorized"} 20',
      );
    } finally {
      await own.close();
    }
    expect(own.said.join('\n')).not.toContain('evil-');
    expect(own.said).toEqual([
      'refused 1 request(s) (github unauthorized 1); the last: github unauthorized: X-Hub-Signature-256 does not match GITHUB_WEBHOOK_SECRET',
      // The rest, once the server closes (or the interval ends).
      'refused 19 request(s) (github unauthorized 19); the last: github unauthorized: X-Hub-Signature-256 does not match GITHUB_WEBHOOK_SECRET',
    ]);
  });
});

describe('one secret per source', () => {
  // A documented decision (docs/receiver.md#one-secret-per-source): the secret of a source speaks
  // for every object of that source; a tenant of its own gets a receiver of its own.
  it('accepts a delivery signed with the source secret whatever repository it names', async () => {
    const stored: string[] = [];
    for (const [index, repository] of ['acme/payments', 'other-org/anything'].entries()) {
      const payload = JSON.parse(deploymentStatus('queued', 990 + index).body.toString()) as {
        repository: { id: number; name: string; full_name: string };
      };
      payload.repository = { ...payload.repository, id: 4200 + index, name: repository, full_name: repository };
      const delivery = signed('deployment_status', Buffer.from(JSON.stringify(payload)));
      expect((await post(port, delivery)).status).toBe(202);
      stored.push(delivery.headers['x-github-delivery'] as string);
    }
    const ids = (await all()).map((item) => item.deliveryId);
    expect(ids).toEqual(expect.arrayContaining(stored));
  });
});
