// A release's download folder on 127.0.0.1, as GitHub serves one (…/releases/download/vX.Y.Z/<file>):
// for install.sh and the examples that install the tool with it. Files are given by content or by
// path (the executable: 130 MB, streamed); any other path is a 404. Records each request, with the
// client that made it.
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReleaseServer {
  /** What REPORT_DEPLOYMENT_DOWNLOAD_URL takes: files are at `${base}/v${version}/${name}`. */
  base: string;
  requests: { path: string; userAgent: string }[];
  close(): Promise<void>;
}

/** A file of the release: its content, or the file to stream it from. */
export type ReleaseFile = string | Buffer | { path: string };

export async function startReleaseServer(
  version: string,
  files: Record<string, ReleaseFile>,
  options: { host?: string } = {},
): Promise<ReleaseServer> {
  const requests: ReleaseServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ path, userAgent: req.headers['user-agent'] ?? '' });
    const prefix = `/releases/download/v${version}/`;
    const file = path.startsWith(prefix) ? files[path.slice(prefix.length)] : undefined;
    if (file === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    if (typeof file === 'object' && 'path' in file) createReadStream(file.path).pipe(res);
    else res.end(file);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://${options.host ?? '127.0.0.1'}:${port}/releases/download`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** SHA256SUMS as `sha256sum` writes it, for these files. */
export function sha256sums(files: Record<string, ReleaseFile>): string {
  return Object.entries(files)
    .map(([name, file]) => {
      const content = typeof file === 'object' && 'path' in file ? readFileSync(file.path) : file;
      return `${createHash('sha256').update(content).digest('hex')}  ${name}\n`;
    })
    .join('');
}
