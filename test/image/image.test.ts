// The receiver's image as it ships: built from the repository's own Dockerfile by buildah with no
// network (scripts/image.ts), from the executable `npm run build -- sea` made and the pinned Debian
// packages `node scripts/image.ts fetch` downloaded, then run by podman on this machine: a signed
// GitHub delivery recorded in the fake service on the host, a stop within the grace period, the store
// on its volume, a non-root user, a read-only root file system, no shell. `npm run test:image`
// (vitest.image.config.ts), where .ci/run installed buildah, podman and runc.
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assembleContext,
  buildArgs,
  CONTEXT_DIR,
  hostArch,
  IMAGE_ARCHES,
  IMAGE_USER,
  LIBRARIES,
} from '../../scripts/image.ts';
import { SEA_DIR, SEA_LICENSES, seaName } from '../../scripts/sea.ts';
import { startFakeService, type FakeService } from '../helpers/fake-service.ts';
import { githubDelivery, SOURCE_ENV } from '../receiver/helpers/deliveries.ts';
import { post } from '../receiver/helpers/github-delivery.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const TAG = 'localhost/report-deployment:test';
const REVISION = '0123456789abcdef0123456789abcdef01234567';
const VOLUME = 'report-deployment-test-store';
/** How long `serve` takes at most to stop on SIGTERM, and the grace `podman stop` gives it before SIGKILL. */
const STOP_SECONDS = 10;

// A storage of the test's own (vfs: no overlay mount needed), so that no image or volume outlives it.
const storage = mkdtempSync(join(tmpdir(), 'rd-image-storage-'));
const global = ['--root', join(storage, 'root'), '--runroot', join(storage, 'run'), '--storage-driver', 'vfs'];
// This machine's container runtime as the sandbox allows it: runc with cgroupfs, and limits at or
// below the hard ones (raising one is refused).
const RUN = [
  '--runtime',
  'runc',
  '--cgroup-manager',
  'cgroupfs',
  '--ulimit',
  'nofile=1024:1024',
  '--ulimit',
  'nproc=4096:4096',
];
const tool = (command: 'podman' | 'buildah', args: string[]) =>
  run(command, [...global, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
const podman = (...args: string[]) => tool('podman', args);

let service: FakeService;
const arch = hostArch();
const executable = join(SEA_DIR, seaName('linux', IMAGE_ARCHES[arch].node));
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

beforeAll(async () => {
  if (!existsSync(executable)) throw new Error(`No ${executable}: run npm run build -- sea first (.ci/run does)`);
  assembleContext(arch, executable, join(SEA_DIR, SEA_LICENSES));
  await tool('buildah', [...buildArgs({ tag: TAG, version, revision: REVISION, arch })]);
  service = await startFakeService();
}, 120_000);

afterAll(async () => {
  await service?.close();
  await podman('rm', '--all', '--force').catch(() => undefined);
  await podman('volume', 'rm', '--all', '--force').catch(() => undefined);
  rmSync(storage, { recursive: true, force: true });
  rmSync(CONTEXT_DIR, { recursive: true, force: true });
}, 60_000);

/** Starts a container in the background; resolves with its log once a line matches `ready`. */
async function start(name: string, options: string[], command: string[], ready: RegExp): Promise<string> {
  await podman('run', '--detach', '--name', name, ...RUN, ...options, TAG, ...command);
  return logged(name, ready);
}

/** Follows a container's log until a line matches `ready` (no polling), bounded: one that never gets there fails with its log. */
function logged(name: string, ready: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const logs = spawn('podman', [...global, 'logs', '--follow', name]);
    let seen = '';
    const timer = setTimeout(() => {
      logs.kill();
      reject(new Error(`${name} never logged ${ready}: ${seen}`));
    }, 20_000);
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      if (!ready.test(seen)) return;
      clearTimeout(timer);
      logs.kill();
      resolve(seen);
    };
    logs.stdout.on('data', look);
    logs.stderr.on('data', look);
  });
}

/** A port free on 127.0.0.1 now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The `sh` code blocks of docs/receiver.md's section "The container image", as lines (no continuations there). */
function documentedLines(): string[] {
  const text = readFileSync(join(ROOT, 'docs', 'receiver.md'), 'utf8');
  const section = /^## The container image\n([\s\S]*?)^## /m.exec(text)?.[1] ?? '';
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => (block[1] ?? '').split('\n'));
}

const receiverEnv = (url: string, apiKey: string) => [
  '--env',
  `DEPLOY_TRACKER_URL=${url}`,
  '--env',
  `DEPLOY_TRACKER_API_KEY=${apiKey}`,
  '--env',
  `GITHUB_WEBHOOK_SECRET=${SOURCE_ENV.GITHUB_WEBHOOK_SECRET}`,
];

describe('the receiver’s image', () => {
  it('keeps every library the executable is linked against (ldd), and only those', async () => {
    const { stdout } = await run('ldd', [executable], { encoding: 'utf8' });
    const needed = [...stdout.matchAll(/^\s*(\S+) => /gm)].map((match) => match[1]).sort();
    expect(needed).toEqual([...LIBRARIES].sort());
  });

  it('holds the executable, the libraries it is linked against and their licenses: no shell, nothing else', async () => {
    const container = (await podman('create', TAG)).stdout.trim();
    const exported = join(storage, 'image.tar');
    await podman('export', '--output', exported, container);
    const { stdout } = await run('tar', ['--list', '--verbose', '--numeric-owner', '--file', exported], {
      encoding: 'utf8',
    });
    await podman('rm', container);
    // "<mode> <uid>/<gid> ... <path>", directories and the files podman makes at run time aside.
    const files = stdout
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('d'))
      .map((line) => {
        const fields = line.split(/\s+/);
        return `${fields[0]} ${fields[1]} ${fields.slice(5).join(' ')}`;
      })
      .filter((line) => !/ (\.\/)?(etc\/(hosts|hostname|resolv\.conf)|run\/.*|\.containerenv)$/.test(line))
      .sort();
    const { triplet } = IMAGE_ARCHES[arch];
    const loader = arch === 'amd64' ? 'ld-linux-x86-64.so.2' : 'ld-linux-aarch64.so.1';
    expect(files.map((line) => line.replace(/^(\S+) \S+ /, '').replace(/^\.\//, '')).sort()).toEqual(
      [
        'etc/group',
        'etc/passwd',
        `${arch === 'amd64' ? 'lib64' : 'lib'}/${loader} -> /lib/${triplet}/${loader}`,
        `lib/${triplet}/${loader}`,
        `lib/${triplet}/libc.so.6`,
        `lib/${triplet}/libdl.so.2`,
        `lib/${triplet}/libgcc_s.so.1`,
        `lib/${triplet}/libm.so.6`,
        `lib/${triplet}/libpthread.so.0`,
        `usr/lib/${triplet}/libstdc++.so.6 -> libstdc++.so.6.0.30`,
        `usr/lib/${triplet}/libstdc++.so.6.0.30`,
        'usr/local/bin/report-deployment',
        'usr/share/doc/gcc-12-base/copyright',
        'usr/share/doc/libc6/copyright',
        'usr/share/doc/report-deployment/licenses.txt',
      ].sort(),
    );
    // Root owns every file; the executable can be run, not changed, by anyone.
    expect(files.filter((line) => !/^\S+ 0\/0 /.test(line))).toEqual([]);
    expect(files.find((line) => line.endsWith('usr/local/bin/report-deployment'))).toMatch(/^-r-xr-xr-x 0\/0 /);
    // No shell to exec into: running one fails.
    await expect(podman('run', '--rm', ...RUN, '--entrypoint', '/bin/sh', TAG, '-c', 'true')).rejects.toThrow(
      /no such file or directory/i,
    );
  });

  it('runs `serve` on 0.0.0.0:8080 as a non-root user, its store on the volume, labelled for its source', async () => {
    const [config] = JSON.parse((await podman('image', 'inspect', TAG)).stdout) as Array<{
      Config: Record<string, unknown>;
    }>;
    expect(config?.Config).toMatchObject({
      User: `${IMAGE_USER.uid}:${IMAGE_USER.gid}`,
      Entrypoint: ['/usr/local/bin/report-deployment'],
      Cmd: ['serve', '--listen', '0.0.0.0:8080'],
      ExposedPorts: { '8080/tcp': {} },
      Volumes: { '/var/lib/report-deployment': {} },
      Labels: {
        'org.opencontainers.image.source': 'https://github.com/acme/report-deployment',
        'org.opencontainers.image.version': version,
        'org.opencontainers.image.revision': REVISION,
        'org.opencontainers.image.licenses': 'MIT',
      },
    });
    expect(config?.Config.Env).toContain('STATE_DIRECTORY=/var/lib/report-deployment');
    // The default command, in a network of its own (8080 on this shared machine may be taken).
    const log = await start(
      'default-command',
      ['--network', 'none', ...receiverEnv('https://tracker.example.com/api', 'a-key')],
      [],
      /listening on/,
    );
    expect(log).toMatch(
      /listening on 0\.0\.0\.0:8080 \(\/webhooks\/github\); store sqlite \/var\/lib\/report-deployment\/receiver\.sqlite/,
    );
    await podman('rm', '--force', 'default-command');
  });

  it('records a signed GitHub delivery with a read-only root, stops with 0 in time, and keeps it on its volume', async () => {
    const name = 'receiver';
    // The host's network, so that it reaches the fake service on 127.0.0.1; a port the kernel picks.
    const log = await start(
      name,
      [
        '--network',
        'host',
        '--read-only',
        '--read-only-tmpfs=false',
        '--volume',
        `${VOLUME}:/var/lib/report-deployment`,
        ...receiverEnv(service.url, service.apiKey),
      ],
      ['serve', '--listen', '127.0.0.1:0'],
      /listening on 127\.0\.0\.1:\d+ /,
    );
    const port = Number(/listening on 127\.0\.0\.1:(\d+) /.exec(log)?.[1]);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);

    // Its process, as the host sees it: the image's user, not root.
    const pid = (await podman('inspect', '--format', '{{.State.Pid}}', name)).stdout.trim();
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    expect(/^Uid:\s+(\d+)/m.exec(status)?.[1]).toBe(String(IMAGE_USER.uid));
    expect(/^Gid:\s+(\d+)/m.exec(status)?.[1]).toBe(String(IMAGE_USER.gid));

    expect(await post(port, githubDelivery('success', 3401))).toMatchObject({ status: 202 });
    await expect
      .poll(() => [...service.deployments.values()].map((d) => d.statuses.join()), { timeout: 15_000 })
      .toEqual(['SUCCEEDED']);
    expect([...service.deployments.values()][0]?.body).toMatchObject({
      artifactName: 'storefront',
      status: 'SUCCEEDED',
    });

    const stopping = Date.now();
    await podman('stop', '--time', String(STOP_SECONDS), name);
    expect(Date.now() - stopping).toBeLessThan(STOP_SECONDS * 1000);
    expect((await podman('inspect', '--format', '{{.State.ExitCode}}', name)).stdout.trim()).toBe('0');
    const { stdout: logs } = await podman('logs', name);
    expect(logs).not.toContain(service.apiKey);

    // The store outlives the container: `deliveries` in another one, on the same volume, lists it as done.
    const { stdout } = await podman(
      'run',
      '--rm',
      ...RUN,
      '--network',
      'none',
      '--read-only',
      '--volume',
      `${VOLUME}:/var/lib/report-deployment`,
      TAG,
      'deliveries',
      '--state',
      'all',
      '--json',
    );
    const listed = JSON.parse(stdout) as Array<Record<string, unknown>>;
    expect(listed.map((item) => [item.source, item.state])).toEqual([['github', 'done']]);
  });

  it('runs as docs/receiver.md says, with Podman, its port published on 127.0.0.1 (and the same line for Docker)', async () => {
    const lines = documentedLines();
    const podmanLine = lines.find((line) => line.startsWith('podman run '));
    const dockerLine = lines.find((line) => line.startsWith('docker run --detach'));
    expect(dockerLine?.replace(/^docker /, 'podman ')).toBe(podmanLine);
    const published = 'ghcr.io/acme/report-deployment:1.1.0';
    expect(podmanLine).toContain(` ${published}`);
    // As written, but for this machine: the image built here, a free port for 8080, the sandbox's runtime.
    const port = await freePort();
    const args = (podmanLine ?? '')
      .split(' ')
      .slice(2)
      .map((arg) => (arg === published ? TAG : arg === '127.0.0.1:8080:8080' ? `127.0.0.1:${port}:8080` : arg));
    const env = {
      ...process.env,
      DEPLOY_TRACKER_URL: 'https://tracker.example.com/api',
      DEPLOY_TRACKER_API_KEY: 'documented-key-5c1e',
      GITHUB_WEBHOOK_SECRET: SOURCE_ENV.GITHUB_WEBHOOK_SECRET,
    };
    await run('podman', [...global, 'run', ...RUN, ...args], { env });
    const name = args[args.indexOf('--name') + 1] as string;
    // Its port answers once it listens: the log says when.
    const log = await logged(name, /listening on/);
    expect(log).toContain(
      'listening on 0.0.0.0:8080 (/webhooks/github); store sqlite /var/lib/report-deployment/receiver.sqlite',
    );
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, 'ok\n']);

    // `deliveries` on its volume, then the stop, as written.
    const deliveriesLine = lines.find((line) => line.startsWith('docker run --rm'));
    const listArgs = (deliveriesLine ?? '')
      .split(' ')
      .slice(2)
      .map((arg) => (arg === published ? TAG : arg));
    const listed = await run('podman', [...global, 'run', ...RUN, ...listArgs], { encoding: 'utf8' });
    expect([listed.stdout, listed.stderr]).toEqual(['', 'report-deployment: no delivery is held or failed\n']);
    expect(lines).toContain(`docker stop ${name}`);
    await podman('stop', name);
    expect((await podman('inspect', '--format', '{{.State.ExitCode}}', name)).stdout.trim()).toBe('0');
    await podman('rm', name);
  });
});
