// A fake sender API's server on 127.0.0.1: listening on a free port, and closed with its open
// connections (a client's keep-alive or an answer that never ends must not hold the test).
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export async function onLoopback(
  server: Server,
  scheme: 'http' | 'https' = 'http',
): Promise<{ url: string; close(this: void): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
