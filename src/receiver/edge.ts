// What an outsider can make the receiver hold, bounded: connections, in all and per client address
// (so that idle or slow clients cannot lock out the probes), and the bytes of all bodies being read
// at once (so that slow clients cannot take the memory the pod is given).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

interface Connection {
  address: string;
  /** A request of it is being read or answered; otherwise it is idle (no request yet, or between two). */
  busy: boolean;
}

/**
 * At most `connections` at once, and `perClient` from one address. A connection past either bound
 * closes the oldest idle one within that bound to make room, so that a new client (a probe) is
 * always served while others only hold connections open; where none is idle, it is closed itself.
 */
export function limitConnections(server: Server, connections: number, perClient: number): void {
  // Oldest first: a Map keeps the order of insertion.
  const open = new Map<Socket, Connection>();
  // Node's own bound is past ours, so that a connection over ours is accepted and can make room.
  server.maxConnections = connections + perClient;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    open.set(socket, { address, busy: false });
    socket.once('close', () => open.delete(socket));
    const mine = (entry: Connection) => entry.address === address;
    if ([...open.values()].filter(mine).length > perClient) makeRoom(open, socket, mine);
    else if (open.size > connections) makeRoom(open, socket, () => true);
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const entry = open.get(request.socket);
    if (!entry) return;
    entry.busy = true;
    response.once('close', () => (entry.busy = false));
  });
}

function makeRoom(open: Map<Socket, Connection>, newcomer: Socket, within: (entry: Connection) => boolean): void {
  for (const [socket, entry] of open) {
    if (socket === newcomer || entry.busy || !within(entry)) continue;
    open.delete(socket);
    socket.destroy();
    return;
  }
  open.delete(newcomer);
  newcomer.destroy();
}

/** Bytes of the bodies under way, shared by every request: a request whose body would pass it waits for none and is told to come back. */
export class BodyBudget {
  private held = 0;
  readonly bytes: number;

  constructor(bytes: number) {
    this.bytes = bytes;
  }

  /** Whether `size` more bytes fit; when they do they are held until `release`. */
  take(size: number): boolean {
    if (this.held + size > this.bytes) return false;
    this.held += size;
    return true;
  }

  /** Whether `size` bytes would fit now (a declared Content-Length), without holding them. */
  fits(size: number): boolean {
    return this.held + size <= this.bytes;
  }

  release(size: number): void {
    this.held = Math.max(0, this.held - size);
  }
}

/** The body; 'too-large' as soon as it passes `limit`, 'busy' as soon as it would pass the budget (the rest is never read). */
export function readBody(
  request: IncomingMessage,
  limit: number,
  budget: BodyBudget,
): Promise<Buffer | 'too-large' | 'busy' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    // What this body holds of the budget goes back when it ends unread; a body read whole keeps it
    // until the delivery is answered (the caller releases it).
    const finish = (result: Buffer | 'too-large' | 'busy' | 'aborted') => {
      if (done) return;
      done = true;
      if (!Buffer.isBuffer(result)) {
        budget.release(size);
        request.off('data', onData);
        request.pause();
      }
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > limit) return finish('too-large');
      if (!budget.take(chunk.length)) return finish('busy');
      size += chunk.length;
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.on('end', () => finish(Buffer.concat(chunks, size)));
    request.on('error', () => finish('aborted'));
    request.on('close', () => {
      if (!request.complete) finish('aborted');
    });
  });
}
