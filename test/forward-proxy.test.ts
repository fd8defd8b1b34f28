// The forward proxy of the proxy tests: what it records, and host names only it resolves.
import { request } from 'node:http';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startFakeService, type FakeService } from './helpers/fake-service.ts';
import { startForwardProxy, type ForwardProxy } from './helpers/forward-proxy.ts';

let service: FakeService;
let proxy: ForwardProxy;
beforeEach(async () => {
  service = await startFakeService();
  proxy = await startForwardProxy({ hosts: { 'tracker.test': '127.0.0.1' } });
});
afterEach(async () => {
  await proxy.close();
  await service.close();
});

it('forwards an absolute-form request to a host name it maps, keeping the Host header', async () => {
  const target = `tracker.test:${service.port}`;
  const proxyUrl = new URL(proxy.url);
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const body = JSON.stringify({ status: 'SUCCEEDED' });
    const req = request(
      {
        host: proxyUrl.hostname,
        port: proxyUrl.port,
        method: 'PATCH',
        path: `http://${target}/deployment/9`,
        headers: { host: target, 'x-api-key': service.apiKey, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

  expect(answer).toEqual({ status: 404, body: JSON.stringify({ detail: 'Deployment 9 not found' }) });
  expect(proxy.seen).toEqual([target]);
  expect(proxy.tunnels).toEqual([]);
  expect(service.requests.map((r) => [r.method, r.path, r.headers.host])).toEqual([['PATCH', '/deployment/9', target]]);
});
