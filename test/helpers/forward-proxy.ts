// A forward proxy on 127.0.0.1 for the proxy tests: forwards absolute-form requests and CONNECT
// tunnels, and records what it was asked to reach. It can resolve made-up host names to loopback.
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ForwardProxy {
  url: string;
  /** `host:port` of every request or tunnel it carried. */
  seen: string[];
  /** `host:port` of every CONNECT tunnel it opened (HTTPS goes through those). */
  tunnels: string[];
  close(): Promise<void>;
}

export interface ForwardProxyOptions {
  /**
   * Host names the proxy resolves itself, as its DNS would: `{ 'tracker.test': '127.0.0.1' }`
   * lets the action name a host that only the proxy can reach (so it cannot bypass the proxy).
   */
  hosts?: Record<string, string>;
}

export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const seen: string[] = [];
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const resolve = (host: string): string => options.hosts?.[host.toLowerCase()] ?? host;
  const server: Server = createServer((req, res) => {
    const target = new URL(req.url ?? '');
    seen.push(target.host);
    const address = {
      host: resolve(target.hostname),
      port: target.port || 80,
      path: `${target.pathname}${target.search}`,
    };
    const upstream = request({ ...address, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const [host, port] = (req.url ?? '').split(':');
    seen.push(req.url ?? '');
    tunnels.push(req.url ?? '');
    const upstream = connect(Number(port), resolve(host ?? '127.0.0.1'), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [upstream, client]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
