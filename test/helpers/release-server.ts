// A release's download folder on 127.0.0.1, as GitHub serves one (…/releases/download/vX.Y.Z/<file>):
// for install.sh and the examples that install the tool with it. Files are given by content or by
// path (the executable: 130 MB, streamed); any other path is a 404. Records each request, with the
// client that made it.
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReleaseServer {
  /** What REPORT_DEPLOYMENT_DOWNLOAD_URL takes: files are at `${base}/v${version}/${name}`. */
  base: string;
  requests: { path: string; userAgent: string; authorization?: string }[];
  /** Bytes sent in all (a hostile body's are counted as they go). */
  sent: () => number;
  close(): Promise<void>;
}

/**
 * A file of the release: its content, or the file to stream it from; or a hostile body: `start`,
 * then `then`: "endless" (bytes as fast as they are taken, up to 1 GiB), "stall" (nothing more,
 * the connection held open), "trickle" (a byte every 100 ms, up to 10 minutes).
 */
export type ReleaseFile = string | Buffer | { path: string } | { start: string; then: 'endless' | 'stall' | 'trickle' };

export async function startReleaseServer(
  version: string,
  files: Record<string, ReleaseFile>,
  options: { host?: string; address?: string; redirectTo?: string } = {},
): Promise<ReleaseServer> {
  const requests: ReleaseServer['requests'] = [];
  let sent = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const { authorization } = req.headers;
    requests.push({ path, userAgent: req.headers['user-agent'] ?? '', ...(authorization ? { authorization } : {}) });
    const prefix = `/releases/download/v${version}/`;
    const name = path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
    // Every file on another server, as GitHub sends its downloads to its storage host.
    if (options.redirectTo && name)
      return void res.writeHead(302, { location: `${options.redirectTo}/v${version}/${name}` }).end();
    const file = name === undefined ? undefined : files[name];
    if (file === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    if (typeof file === 'object' && 'path' in file) createReadStream(file.path).pipe(res);
    else if (typeof file === 'object' && 'then' in file) hostile(file, res);
    else res.end(file);
  });
  function hostile(file: { start: string; then: 'endless' | 'stall' | 'trickle' }, res: ServerResponse) {
    res.write(file.start);
    sent += file.start.length;
    if (file.then === 'endless') {
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      const more = () => {
        while (sent < 2 ** 30 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    } else if (file.then === 'trickle') {
      let left = 6000;
      const timer = setInterval(() => {
        if (res.destroyed || left-- === 0) return void (clearInterval(timer), timers.delete(timer), res.end());
        sent += 1;
        res.write('A');
      }, 100);
      timers.add(timer);
    }
  }
  await new Promise<void>((listening) => server.listen(0, options.address ?? '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://${options.host ?? options.address ?? '127.0.0.1'}:${port}/releases/download`,
    requests,
    sent: () => sent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** SHA256SUMS as `sha256sum` writes it, for these files. */
export function sha256sums(files: Record<string, ReleaseFile>): string {
  return Object.entries(files)
    .map(([name, file]) => {
      const content =
        typeof file === 'object' && 'path' in file
          ? readFileSync(file.path)
          : typeof file === 'object' && 'then' in file
            ? file.start
            : file;
      return `${createHash('sha256').update(content).digest('hex')}  ${name}\n`;
    })
    .join('');
}
