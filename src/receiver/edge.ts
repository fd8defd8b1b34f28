// What an outsider can make the receiver hold, bounded: connections per client address (so that one
// client cannot fill the server and lock out the probes), and the bytes of all bodies being read at
// once (so that slow clients cannot take the memory the pod is given).
import type { IncomingMessage, Server } from 'node:http';

/** Closes a client's connections past `perClient` at once, as soon as they are accepted. */
export function limitConnectionsPerClient(server: Server, perClient: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > perClient) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
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
