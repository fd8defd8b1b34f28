// install.sh, run as a user runs it: under dash (Debian's /bin/sh) and BusyBox's sh, with a PATH that
// holds only the tools it may use (so that a new one it starts to need shows here), against a
// release's files served on 127.0.0.1. What it must never do: install anything it did not verify,
// leave half a file, or download where no executable fits.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  lstatSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { constants, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SEA_LICENSES, seaName } from '../scripts/sea.ts';
import { startForwardProxy } from './helpers/forward-proxy.ts';
import { sha256sums, startReleaseServer, type ReleaseFile, type ReleaseServer } from './helpers/release-server.ts';
import { INSTALL_TIMEOUT_MS, installedSea } from './helpers/run-cli.ts';
import { ROOT } from './helpers/run-action.ts';

const SCRIPT = join(ROOT, 'install.sh');
const VERSION = '1.2.3';
const ASSET = seaName();
/** A stand-in for the executable: all install.sh runs of it is --version. */
const FAKE_EXECUTABLE = `#!/bin/sh\necho ${VERSION}\n`;

/** The tools install.sh may use, besides the downloader and the checksum tool. */
const TOOLS = [
  'uname',
  'grep',
  'ldd',
  'ls',
  'awk',
  'cut',
  'mktemp',
  'rm',
  'rmdir',
  'mkdir',
  'mv',
  'chmod',
  'cat',
  'head',
  'wc',
  'sleep',
];

let work: string;
let server: ReleaseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(work, { recursive: true, force: true });
});

function which(name: string): string {
  const found = (process.env.PATH ?? '').split(delimiter).find((dir) => existsSync(join(dir, name)));
  if (!found) throw new Error(`${name} is not installed: the install.sh tests need it (apt-get install ${name})`);
  return join(found, name);
}

interface Run {
  /** As a shell gives it: 128 + the signal's number where a signal ended it. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

interface InstallOptions {
  shell?: 'dash' | 'busybox';
  /** The tools on PATH: the system's (default), or BusyBox's applets. */
  from?: 'system' | 'busybox';
  /** Which downloader and checksum tool are there (default: curl and sha256sum). */
  with?: string[];
  /** Scripts on PATH in place of a tool: name to its text. */
  fakes?: Record<string, string>;
  env?: Record<string, string>;
  /** Another copy of install.sh (default: the repository's). */
  script?: string;
  /** A command line it runs inside (e.g. unshare, to mount a file system for it). */
  inside?: string[];
  /** Called with install.sh's process id before it starts (it is $INSTALL_PID to the tools). */
  beforeStart?: (pid: number) => void;
  /** Every tool on PATH counts its calls, and the given one sends install.sh this signal. */
  signalAt?: { call: number; signal: string };
}

/** Runs install.sh with `args` under the given shell, PATH holding only the given tools. */
async function install(args: string[], options: InstallOptions = {}): Promise<Run> {
  const bin = join(work, `bin-${readdirSync(work).length}`);
  mkdirSync(bin);
  for (const name of [...TOOLS, ...(options.with ?? ['curl', 'sha256sum'])]) {
    if (options.from === 'busybox') symlinkSync(which('busybox'), join(bin, name));
    else if (name !== 'ldd' || existsSync('/usr/bin/ldd')) symlinkSync(which(name), join(bin, name));
  }
  for (const [name, text] of Object.entries(options.fakes ?? {})) {
    rmSync(join(bin, name), { force: true });
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  const calls = join(work, `calls-${readdirSync(work).length}`);
  if (options.signalAt) {
    // Each tool, counting its calls in one file: the one at the given count signals install.sh first.
    const { call, signal } = options.signalAt;
    const reals = `${bin}-real`;
    mkdirSync(reals);
    for (const name of readdirSync(bin)) {
      // Under its own name: BusyBox's applets are told apart by it.
      const real = join(reals, name);
      symlinkSync(realpathSync(join(bin, name)), real);
      rmSync(join(bin, name));
      writeFileSync(
        join(bin, name),
        `#!/bin/sh\necho >> '${calls}'\n[ "$(${which('wc')} -l < '${calls}')" -ne ${call} ] || kill -s ${signal} "$INSTALL_PID"\nexec '${real}' "$@"\n`,
        { mode: 0o755 },
      );
    }
  }
  const script = options.script ?? SCRIPT;
  const shell = options.shell === 'busybox' ? [which('busybox'), 'sh'] : [which('dash')];
  // Started through a shell that waits for a line on stdin, then becomes install.sh: its pid is known
  // before it starts.
  const argv = [...(options.inside ?? []), ...shell, '-c', 'INSTALL_PID=$$; export INSTALL_PID; read -r _; exec "$@"'];
  argv.push('sh', ...shell, script, ...args);
  return new Promise((resolve) => {
    const child = execFile(
      argv[0] ?? '',
      argv.slice(1),
      {
        cwd: work,
        env: {
          PATH: bin,
          HOME: join(work, 'home'),
          ...(server ? { REPORT_DEPLOYMENT_DOWNLOAD_URL: server.base } : {}),
          ...options.env,
        },
        timeout: 60_000,
        maxBuffer: 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const { code, signal } = (error ?? {}) as { code?: number; signal?: NodeJS.Signals };
        const exitCode = error ? (code ?? (signal ? 128 + constants.signals[signal] : null)) : 0;
        resolve({ exitCode, stdout, stderr });
      },
    );
    if (child.pid) options.beforeStart?.(child.pid);
    child.stdin?.end('\n');
  });
}

/** A release of VERSION with these files, and SHA256SUMS of them (or the one given). */
async function serve(files: Record<string, ReleaseFile>, sums = sha256sums(files)): Promise<ReleaseServer> {
  server = await startReleaseServer(VERSION, { ...files, SHA256SUMS: sums });
  return server;
}

const downloads = () => server?.requests.map((request) => request.path.split('/').at(-1)) ?? [];

describe('install.sh installs the verified executable', () => {
  beforeAll(() => void installedSea(), INSTALL_TIMEOUT_MS);

  it('the real one, under dash with curl: into --dir, made if missing; prints its path; then runs', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    const executable = installedSea().bin;
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    server = await startReleaseServer(version, {
      [ASSET]: { path: executable },
      SHA256SUMS: sha256sums({ [ASSET]: { path: executable }, 'install.sh': 'x' }),
    });
    const dir = join(work, 'tools', 'bin');

    const result = await install(['--version', version, '--dir', dir]);

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`${join(dir, 'report-deployment')}\n`);
    expect(result.stderr).toContain(
      `install.sh: installed report-deployment ${version}: ${join(dir, 'report-deployment')}\n`,
    );
    expect(result.stderr).toContain(`is not on PATH`);
    expect(readdirSync(dir)).toEqual(['report-deployment']);
    expect(readFileSync(join(dir, 'report-deployment')).equals(readFileSync(executable))).toBe(true);
    expect(downloads()).toEqual(['SHA256SUMS', ASSET]);
    expect(server.requests[0]?.userAgent).toMatch(/^curl\//);
  });

  it.each(['dash', 'busybox'] as const)(
    'under %s: a second run of that version downloads only SHA256SUMS, to check the copy (a CI cache); another file is replaced, never run',
    async (shell) => {
      work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
      await serve({ [ASSET]: FAKE_EXECUTABLE });
      const dir = join(work, 'cached');

      const first = await install(['--version', VERSION, '--dir', dir], { shell });
      const again = await install(['--version', VERSION, '--dir', dir], { shell });
      const ran = join(work, 'other-ran');
      writeFileSync(join(dir, 'report-deployment'), `#!/bin/sh\ntouch '${ran}'\necho ${VERSION}\n`);
      const other = await install(['--version', VERSION, '--dir', dir], { shell });

      expect([first.exitCode, again.exitCode, other.exitCode]).toEqual([0, 0, 0]);
      expect(again.stderr).toBe(
        `install.sh: report-deployment ${VERSION} is installed already: ${dir}/report-deployment\n`,
      );
      expect(again.stdout).toBe(`${dir}/report-deployment\n`);
      expect(downloads()).toEqual(['SHA256SUMS', ASSET, 'SHA256SUMS', 'SHA256SUMS', ASSET]);
      expect(other.stderr).toContain(
        "is not the release's report-deployment 1.2.3 (its SHA-256 differs): it is replaced.",
      );
      expect(existsSync(ran)).toBe(false);
      expect(readFileSync(join(dir, 'report-deployment'), 'utf8')).toBe(FAKE_EXECUTABLE);
      expect(readdirSync(dir)).toEqual(['report-deployment']);
    },
  );

  it('with BusyBox alone (its sh, wget, sha256sum, awk...), as in a minimal image', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], {
      shell: 'busybox',
      from: 'busybox',
      with: ['wget', 'sha256sum'],
    });

    expect(result.stderr).toContain(`installed report-deployment ${VERSION}`);
    expect(result.exitCode).toBe(0);
    expect(server?.requests.map((request) => request.userAgent)).toEqual(['Wget', 'Wget']);
  });

  it('with wget where there is no curl, and shasum where there is no sha256sum', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], { with: ['wget', 'shasum'] });

    expect(result.exitCode).toBe(0);
    expect(server?.requests[0]?.userAgent).toMatch(/^Wget\//);
    expect(existsSync(join(work, 'bin', 'report-deployment'))).toBe(true);
  });

  it.each([
    ['curl', 'sha256sum'],
    ['wget', 'sha256sum'],
  ])('through the proxy in http_proxy, as %s honours it', async (downloader, checksum) => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    server = await startReleaseServer(
      VERSION,
      { [ASSET]: FAKE_EXECUTABLE, SHA256SUMS: sha256sums({ [ASSET]: FAKE_EXECUTABLE }) },
      { host: 'releases.test' },
    );
    const proxy = await startForwardProxy({ hosts: { 'releases.test': '127.0.0.1' } });
    try {
      const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], {
        with: [downloader, checksum],
        env: { http_proxy: proxy.url },
      });

      expect(result.exitCode).toBe(0);
      expect(proxy.seen).toHaveLength(2);
      expect(proxy.seen[0]).toMatch(/^releases\.test:\d+$/);
    } finally {
      await proxy.close();
    }
  });

  it('defaults: the version a release wrote into it, ~/.local/bin; and the environment’s', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    const pinned = join(work, 'install.sh');
    writeFileSync(pinned, readFileSync(SCRIPT, 'utf8').replace(/^pinned_version=''$/m, `pinned_version='${VERSION}'`));

    const byDefault = await install([], { script: pinned });
    const fromEnv = await install([], {
      env: { REPORT_DEPLOYMENT_VERSION: VERSION, REPORT_DEPLOYMENT_INSTALL_DIR: join(work, 'from-env') },
    });

    expect(byDefault.exitCode).toBe(0);
    expect(byDefault.stdout).toBe(`${join(work, 'home', '.local', 'bin', 'report-deployment')}\n`);
    expect(fromEnv.exitCode).toBe(0);
    expect(fromEnv.stdout).toBe(`${join(work, 'from-env', 'report-deployment')}\n`);
  });
});

describe('a release’s install.sh checks against the checksums written into it', () => {
  /** install.sh as the release writes it: its version, and the SHA-256 of each executable. */
  const released = (sums: Record<string, string>) => {
    const path = join(work, 'released-install.sh');
    const words = Object.entries(sums)
      .map(([file, text]) => `${createHash('sha256').update(text).digest('hex')} ${file}`)
      .join(' ');
    writeFileSync(
      path,
      readFileSync(SCRIPT, 'utf8')
        .replace(/^pinned_version=''$/m, `pinned_version='${VERSION}'`)
        .replace(/^pinned_sums=''$/m, `pinned_sums='${words}'`),
    );
    return path;
  };

  it.each(['dash', 'busybox'] as const)('under %s: installs, with no SHA256SUMS downloaded', async (shell) => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    const script = released({ [ASSET]: FAKE_EXECUTABLE, 'report-deployment-other-os': 'x' });

    const result = await install(['--dir', join(work, 'bin')], { shell, script });

    expect(result.exitCode).toBe(0);
    expect(downloads()).toEqual([ASSET]);
    expect(readFileSync(join(work, 'bin', 'report-deployment'), 'utf8')).toBe(FAKE_EXECUTABLE);
  });

  it('a download that SHA256SUMS vouches for but the release does not: exit 1, nothing installed', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    const changed = `${FAKE_EXECUTABLE}# changed\n`;
    await serve({ [ASSET]: changed });
    const script = released({ [ASSET]: FAKE_EXECUTABLE });

    const result = await install(['--dir', join(work, 'bin')], { script });

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `the SHA-256 of ${ASSET} is not the one this install.sh gives: nothing was installed.`,
    );
    expect(existsSync(join(work, 'bin', 'report-deployment'))).toBe(false);
  });

  it('a copy in DIR that is not the release’s (a cache written by another): never run, replaced', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    const script = released({ [ASSET]: FAKE_EXECUTABLE });
    const dir = join(work, 'bin');
    mkdirSync(dir);
    const ran = join(work, 'impostor-ran');
    writeFileSync(join(dir, 'report-deployment'), `#!/bin/sh\ntouch '${ran}'\necho ${VERSION}\n`, { mode: 0o755 });

    const result = await install(['--dir', dir], { script });

    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      "is not the release's report-deployment 1.2.3 (its SHA-256 differs): it is replaced.",
    );
    expect(existsSync(ran)).toBe(false);
    expect(readFileSync(join(dir, 'report-deployment'), 'utf8')).toBe(FAKE_EXECUTABLE);
  });

  it('the release’s copy in DIR already: nothing downloaded', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    const script = released({ [ASSET]: FAKE_EXECUTABLE });
    const dir = join(work, 'bin');
    mkdirSync(dir);
    writeFileSync(join(dir, 'report-deployment'), FAKE_EXECUTABLE, { mode: 0o755 });

    const result = await install(['--dir', dir], { script });

    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('report-deployment 1.2.3 is installed already');
    expect(downloads()).toEqual([]);
  });

  it('another version than its own: checked against that release’s SHA256SUMS, as any copy does', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    const path = join(work, 'older-install.sh');
    writeFileSync(
      path,
      readFileSync(SCRIPT, 'utf8')
        .replace(/^pinned_version=''$/m, "pinned_version='9.9.9'")
        .replace(/^pinned_sums=''$/m, `pinned_sums='${'0'.repeat(64)} ${ASSET}'`),
    );

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], { script: path });

    expect(result.exitCode).toBe(0);
    expect(downloads()).toEqual(['SHA256SUMS', ASSET]);
  });

  it('no checksum for this machine’s executable: exit 1, the npm package named, nothing downloaded', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    const script = released({ 'report-deployment-other-os': 'x' });

    const result = await install(['--dir', join(work, 'bin')], { script });

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `install.sh: this install.sh lists no ${ASSET} for ${VERSION}: nothing was installed.`,
    );
    expect(downloads()).toEqual([]);
  });
});

describe('install.sh installs nothing it could not verify, and says why', () => {
  it.each(['dash', 'busybox'] as const)('under %s, a checksum mismatch: exit 1, nothing installed', async (shell) => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE }, sha256sums({ [ASSET]: 'something else' }));
    const dir = join(work, 'bin');

    const result = await install(['--version', VERSION, '--dir', dir], { shell });

    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `install.sh: the SHA-256 of ${ASSET} is not the one SHA256SUMS gives: nothing was installed.\n`,
    );
    expect(result.stderr).toMatch(/expected [0-9a-f]{64}\ninstall\.sh: got {6}[0-9a-f]{64}\n/);
    expect(existsSync(dir)).toBe(false);
  });

  it('SHA256SUMS without the asset: exit 1, nothing installed', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE }, sha256sums({ [`${ASSET}.old`]: FAKE_EXECUTABLE }));

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')]);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`SHA256SUMS lists no ${ASSET}: nothing was installed.`);
    expect(existsSync(join(work, 'bin'))).toBe(false);
    // Found before the executable is downloaded.
    expect(downloads()).toEqual(['SHA256SUMS']);
  });

  it.each([
    ['curl', 'dash'],
    ['wget', 'busybox'],
  ] as const)(
    'a missing asset (HTTP 404, with %s under %s): exit 1, names the URL, nothing installed',
    async (downloader, shell) => {
      work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
      // SHA256SUMS lists it; the file is not there.
      await serve({}, sha256sums({ [ASSET]: FAKE_EXECUTABLE }));

      const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], {
        shell,
        with: [downloader, 'sha256sum'],
      });

      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(
        `install.sh: could not download ${server?.base}/v${VERSION}/${ASSET}: is ${VERSION} a release, with an executable for ${ASSET.replace('report-deployment-', '').replace('.exe', '')}? Nothing was installed.\n`,
      );
      expect(result.stderr).toContain(`npm install --global report-deployment@${VERSION}`);
      expect(existsSync(join(work, 'bin'))).toBe(false);
    },
  );

  it('an executable that does not run here: exit 1, its error shown, nothing installed', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: '#!/bin/sh\necho "version GLIBC_2.28 not found" >&2\nexit 1\n' });

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')]);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      'the executable does not run on this machine, so nothing was installed:\ninstall.sh: version GLIBC_2.28 not found\n',
    );
    expect(existsSync(join(work, 'bin'))).toBe(false);
  });

  it('a directory it cannot make: exit 1, says to give another with --dir', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    writeFileSync(join(work, 'a-file'), '');

    const result = await install(['--version', VERSION, '--dir', join(work, 'a-file', 'bin')]);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `install.sh: could not create ${join(work, 'a-file', 'bin')}: give a directory you may write to with --dir DIR. Nothing was installed.\n`,
    );
  });

  it('SHA256SUMS with Windows line ends (a mirror that converted it): read as the release wrote it', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE }, sha256sums({ [ASSET]: FAKE_EXECUTABLE }).replaceAll('\n', '\r\n'));

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')]);

    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(work, 'bin', 'report-deployment'), 'utf8')).toBe(FAKE_EXECUTABLE);
  });

  it('--dir named like an option (-x): a folder of that name, in the current one', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });

    const result = await install(['--version', VERSION, '--dir', '-x']);

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('./-x/report-deployment\n');
    expect(readFileSync(join(work, '-x', 'report-deployment'), 'utf8')).toBe(FAKE_EXECUTABLE);
  });

  it('a directory where the executable would go: exit 1, nothing downloaded, nothing moved into it', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    mkdirSync(join(work, 'bin', 'report-deployment'), { recursive: true });

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')]);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `install.sh: ${join(work, 'bin', 'report-deployment')} is a directory: remove it, or give another --dir. Nothing was installed.\n`,
    );
    expect(readdirSync(join(work, 'bin', 'report-deployment'))).toEqual([]);
    expect(downloads()).toEqual([]);
  });

  it.each(['dash', 'busybox'] as const)(
    'under %s, stopped (SIGTERM) while downloading into DIR: no half-written file is left there',
    async (shell) => {
      work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
      await serve({ [ASSET]: FAKE_EXECUTABLE });
      mkdirSync(join(work, 'bin'));
      // A download that has written part of the file when the job is stopped.
      const curl = '#!/bin/sh\nprintf partial\nkill -TERM "$INSTALL_PID"\nexit 1\n';

      const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], { shell, fakes: { curl } });

      expect(result.exitCode).toBe(143);
      expect(readdirSync(join(work, 'bin'))).toEqual([]);
    },
  );

  it('a copy cut short in the download (curl ... | sh): runs nothing', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    const text = readFileSync(SCRIPT, 'utf8');
    // Cut at a line of main() that would, run alone, download and install.
    const cut = join(work, 'cut.sh');
    const at = text.indexOf('fetch "$url/$asset"');
    expect(at).toBeGreaterThan(0);
    writeFileSync(cut, text.slice(0, at));

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], { script: cut });

    expect(result.stdout).toBe('');
    expect(downloads()).toEqual([]);
    expect(existsSync(join(work, 'bin'))).toBe(false);
  });

  it('no checksum tool: refuses before downloading anything', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], { with: ['curl'] });

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      'install.sh: neither sha256sum nor shasum is installed, so the download could not be checked: nothing was installed.\n',
    );
    expect(downloads()).toEqual([]);
    expect(existsSync(join(work, 'bin'))).toBe(false);
  });

  it('neither curl nor wget: says so, and where the files are', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], { with: ['sha256sum'] });

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `install.sh: neither curl nor wget is installed: install one of them, or download ${server?.base}/v${VERSION}/${ASSET} yourself`,
    );
    expect(downloads()).toEqual([]);
  });
});

describe('install.sh where no executable fits: says so, names the npm package, downloads nothing', () => {
  const uname = (os: string, arch: string) => `#!/bin/sh\ncase "$1" in -s) echo ${os} ;; -m) echo ${arch} ;; esac\n`;

  it.each([
    ['FreeBSD', 'amd64', 'there is no executable for FreeBSD (amd64).'],
    ['Linux', 'riscv64', 'there is no executable for linux on riscv64.'],
    ['Linux', 'armv7l', 'there is no executable for linux on armv7l.'],
    ['MINGW64_NT-10.0-26100', 'aarch64', 'there is no executable for Windows on arm64.'],
  ])('%s on %s', async (os, arch, message) => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });

    const result = await install(['--version', VERSION], { fakes: { uname: uname(os, arch) } });

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `install.sh: ${message}\ninstall.sh: Use the npm package instead, with Node.js 22 or later: npm install --global report-deployment@${VERSION}\n`,
    );
    expect(downloads()).toEqual([]);
  });

  it.each(['dash', 'busybox'] as const)(
    'musl (Alpine), under %s: the npm package with the image’s Node.js',
    async (shell) => {
      work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
      await serve({ [ASSET]: FAKE_EXECUTABLE });

      const result = await install(['--version', VERSION], {
        shell,
        fakes: {
          uname: uname('Linux', 'x86_64'),
          ldd: '#!/bin/sh\necho "musl libc (x86_64)"\necho "Version 1.2.5"\nexit 1\n',
        },
      });

      expect(result.exitCode).toBe(1);
      expect(result.stderr).toBe(
        'install.sh: this Linux uses musl libc (Alpine?), and the executable needs glibc.\n' +
          `install.sh: Use the npm package with the image's Node.js instead: apk add nodejs npm && npm install --global report-deployment@${VERSION}\n`,
      );
      expect(downloads()).toEqual([]);
    },
  );

  it('Windows (Git Bash) on x64 gets the .exe, installed as report-deployment.exe', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ 'report-deployment-win-x64.exe': FAKE_EXECUTABLE });

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], {
      fakes: { uname: uname('MINGW64_NT-10.0-26100', 'x86_64') },
    });

    expect(result.exitCode).toBe(0);
    expect(readdirSync(join(work, 'bin'))).toEqual(['report-deployment.exe']);
  });
});

describe('install.sh’s command line', () => {
  it.each([
    [[], 'this copy of install.sh is not from a release: give the version, e.g. --version 1.2.3'],
    [['--version', '1.x'], "--version must be a version such as 1.2.3, got '1.x'"],
    [['--dir'], '--dir needs a value'],
    [['--sudo'], "unknown argument '--sudo'"],
  ])('%o: a usage error (exit 2) that says what is wrong; nothing downloaded', async (args, message) => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });

    const result = await install(args);

    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(`install.sh: ${message}`);
    expect(downloads()).toEqual([]);
  });

  it('--help says what it does, its flags and its variables; v1.2.3 and --version=X are taken too', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });

    const help = await install(['--help']);
    const prefixed = await install([`--version=v${VERSION}`, `--dir=${join(work, 'bin')}`]);

    expect(help.exitCode).toBe(0);
    const words = [
      '--version X.Y.Z',
      '--dir DIR',
      'REPORT_DEPLOYMENT_DOWNLOAD_URL',
      'SHA256SUMS',
      'sudo',
      SEA_LICENSES,
    ];
    for (const word of words) {
      expect(help.stdout).toContain(word);
    }
    expect(prefixed.exitCode).toBe(0);
  });

  it('passes shellcheck', async () => {
    const result = await promisify(execFile)(which('shellcheck'), ['--shell=sh', SCRIPT]).catch(
      (error: { stdout: string }) => error,
    );

    expect(result.stdout).toBe('');
  });
});

/** install.sh as a release writes it (its version, the executables' SHA-256 and sizes), with other bounds. */
function releasedCopy(
  files: Record<string, string>,
  bounds: { stall_seconds?: number; max_seconds?: number; max_bytes?: number } = {},
): string {
  const path = join(work, `released-${readdirSync(work).length}.sh`);
  const pairs = (value: (text: string) => string) =>
    Object.entries(files)
      .map(([file, text]) => `${value(text)} ${file}`)
      .join(' ');
  let text = readFileSync(SCRIPT, 'utf8')
    .replace(/^pinned_version=''$/m, `pinned_version='${VERSION}'`)
    .replace(/^pinned_sums=''$/m, `pinned_sums='${pairs((text) => createHash('sha256').update(text).digest('hex'))}'`)
    .replace(/^pinned_sizes=''$/m, `pinned_sizes='${pairs((text) => String(Buffer.byteLength(text)))}'`);
  for (const [name, value] of Object.entries(bounds)) {
    const line = new RegExp(`^${name}=\\d+$`, 'm');
    expect(text).toMatch(line);
    text = text.replace(line, `${name}=${value}`);
  }
  writeFileSync(path, text);
  return path;
}

/** What DIR holds besides the installed executable: install.sh's own temporary folders, say. */
const leftovers = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((name) => name !== 'report-deployment') : [];

/** Downloaders as they are found: curl, GNU wget, BusyBox's wget (with BusyBox's tools and sh). */
const DOWNLOADERS = {
  curl: {},
  wget: { with: ['wget', 'sha256sum'] },
  'BusyBox wget': { shell: 'busybox', from: 'busybox', with: ['wget', 'sha256sum'] },
} satisfies Record<string, InstallOptions>;

describe('install.sh in a directory others could write to', () => {
  it.each(['dash', 'busybox'] as const)(
    'under %s, links planted at names it could use write nothing through them',
    async (shell) => {
      work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
      await serve({ [ASSET]: FAKE_EXECUTABLE });
      const dir = join(work, 'cache');
      mkdirSync(dir);
      const victim = join(work, 'victim');
      writeFileSync(victim, 'precious\n', { mode: 0o600 });
      // Its pid is known before it starts: the name a partial file of its own would have.
      const planted = (pid: number) => [`.report-deployment.partial.${pid}`, `.report-deployment.${pid}`];

      const result = await install(['--version', VERSION, '--dir', dir], {
        shell,
        beforeStart: (pid) => planted(pid).forEach((name) => symlinkSync(victim, join(dir, name))),
      });

      expect(result.exitCode).toBe(0);
      expect(readFileSync(victim, 'utf8')).toBe('precious\n');
      expect(statSync(victim).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(dir, 'report-deployment'), 'utf8')).toBe(FAKE_EXECUTABLE);
      expect(leftovers(dir).every((name) => lstatSync(join(dir, name)).isSymbolicLink())).toBe(true);
    },
  );

  it.each(['dash', 'busybox'] as const)(
    'under %s, the release’s copy in a cache that kept no file modes: made runnable again, nothing downloaded',
    async (shell) => {
      work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
      await serve({ [ASSET]: FAKE_EXECUTABLE });
      const dir = join(work, 'bin');
      mkdirSync(dir);
      writeFileSync(join(dir, 'report-deployment'), FAKE_EXECUTABLE, { mode: 0o644 });

      const result = await install(['--dir', dir], { shell, script: releasedCopy({ [ASSET]: FAKE_EXECUTABLE }) });

      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain('report-deployment 1.2.3 is installed already');
      expect(statSync(join(dir, 'report-deployment')).mode & 0o111).not.toBe(0);
      expect(downloads()).toEqual([]);
    },
  );
});

describe('install.sh checks the download where it will run', () => {
  /** install.sh run with `mountpoint` a fresh noexec file system, in a mount namespace of its own. */
  const noexec = (mountpoint: string) => [
    which('unshare'),
    ...(process.getuid?.() === 0 ? ['--mount'] : ['--map-root-user', '--mount']),
    which('dash'),
    '-c',
    `${which('mount')} -t tmpfs -o noexec tmpfs '${mountpoint}' && exec "$@"`,
    'sh',
  ];

  it('a TMPDIR that lets no program run (noexec /tmp): installs', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    const tmp = join(work, 'tmp');
    mkdirSync(tmp);

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], {
      inside: noexec(tmp),
      env: { TMPDIR: tmp },
    });

    expect(result.stderr).toContain(`installed report-deployment ${VERSION}`);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(work, 'bin', 'report-deployment'), 'utf8')).toBe(FAKE_EXECUTABLE);
  });

  it('a DIR that lets no program run: exit 1, says so, before downloading the executable', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    const dir = join(work, 'bin');
    mkdirSync(dir);

    const result = await install(['--version', VERSION, '--dir', dir], { inside: noexec(dir) });

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `install.sh: ${dir} does not let programs run (a file system mounted noexec?): give another --dir. Nothing was installed.\n`,
    );
    expect(downloads()).toEqual(['SHA256SUMS']);
  });
});

describe('install.sh’s downloads are bounded, whichever downloader', () => {
  it.each(Object.entries(DOWNLOADERS))(
    'with %s, a body larger than the release’s size: stopped there, exit 1, nothing left',
    async (_, options) => {
      work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
      await serve({ [ASSET]: { start: FAKE_EXECUTABLE, then: 'endless' } });
      const dir = join(work, 'bin');

      const result = await install(['--dir', dir], { ...options, script: releasedCopy({ [ASSET]: FAKE_EXECUTABLE }) });

      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(
        `install.sh: the download of ${server?.base}/v${VERSION}/${ASSET} was stopped: it is larger than the ${FAKE_EXECUTABLE.length} bytes the release gives. Nothing was installed.\n`,
      );
      // What the sockets' buffers held when it stopped taking bytes, not a disk's worth.
      expect(server?.sent()).toBeLessThan(64 * 1024 * 1024);
      expect(existsSync(dir)).toBe(false);
    },
  );

  it('an endless SHA256SUMS: stopped at 1 MiB', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE }, { start: '', then: 'endless' } as unknown as string);

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')]);

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('was stopped: it is larger than the 1048576 bytes the release gives.');
    expect(downloads()).toEqual(['SHA256SUMS']);
  });

  it.each(Object.entries(DOWNLOADERS))(
    'with %s, a download that stalls: given up after stall_seconds, not retried, nothing left',
    async (_, options) => {
      work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
      await serve({ [ASSET]: { start: '#!/bin/sh\n', then: 'stall' } });
      const dir = join(work, 'bin');
      const script = releasedCopy({ [ASSET]: FAKE_EXECUTABLE }, { stall_seconds: 1 });

      const result = await install(['--dir', dir], { ...options, script });

      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(`/${ASSET} was stopped: no data came for 1 s. Nothing was installed.\n`);
      expect(downloads()).toEqual([ASSET]);
      expect(existsSync(dir)).toBe(false);
    },
  );

  it.each(Object.entries(DOWNLOADERS))('with %s, a trickle: given up after max_seconds in all', async (_, options) => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: { start: '#!/bin/sh\n', then: 'trickle' } });
    const dir = join(work, 'bin');
    const script = releasedCopy({ [ASSET]: FAKE_EXECUTABLE.padEnd(100_000) }, { max_seconds: 2 });

    const result = await install(['--dir', dir], { ...options, script });

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`/${ASSET} was stopped: it took longer than 2 s. Nothing was installed.\n`);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('a mirror’s credentials (REPORT_DEPLOYMENT_DOWNLOAD_URL=https://user:token@...)', () => {
  const withCredentials = (base: string, user: string, password: string) =>
    base.replace('http://', `http://${user}:${password}@`);

  it('never in what it prints, whatever they are and wherever it fails', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({}, sha256sums({ [ASSET]: FAKE_EXECUTABLE }));
    const word = fc.string({ unit: fc.constantFrom(...'abcXYZ0189-._~%'), minLength: 8, maxLength: 16 });
    await fc.assert(
      fc.asyncProperty(word, word, fc.constantFrom('1.2.3', '9.9.9'), async (user, password, version) => {
        const base = withCredentials(server?.base ?? '', user, password);
        const result = await install(['--version', version, '--dir', join(work, 'bin')], {
          env: { REPORT_DEPLOYMENT_DOWNLOAD_URL: base },
        });
        expect(result.exitCode).toBe(1);
        expect(result.stderr).toContain('could not download http://***@127.0.0.1:');
        expect(result.stderr).not.toContain(user);
        expect(result.stderr).not.toContain(password);
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it.each(['curl', 'wget'] as const)('with %s, not sent on to the host a redirect names', async (downloader) => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    const storage = await startReleaseServer(
      VERSION,
      { [ASSET]: FAKE_EXECUTABLE, SHA256SUMS: sha256sums({ [ASSET]: FAKE_EXECUTABLE }) },
      { address: '127.0.0.2' },
    );
    try {
      server = await startReleaseServer(VERSION, {}, { redirectTo: storage.base });

      const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], {
        with: [downloader, 'sha256sum'],
        env: { REPORT_DEPLOYMENT_DOWNLOAD_URL: withCredentials(server.base, 'user', 'token-123') },
      });

      expect(result.exitCode).toBe(0);
      // curl sends them to the mirror unasked, GNU wget only when asked (a 401): never further.
      expect(server.requests).toHaveLength(2);
      expect(storage.requests).toHaveLength(2);
      expect(storage.requests.map((request) => request.authorization)).toEqual([undefined, undefined]);
    } finally {
      await storage.close();
    }
  });

  it('with BusyBox’s wget, which would send them on: refused, before any request', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });

    const result = await install(['--version', VERSION, '--dir', join(work, 'bin')], {
      ...DOWNLOADERS['BusyBox wget'],
      env: { REPORT_DEPLOYMENT_DOWNLOAD_URL: withCredentials(server?.base ?? '', 'user', 'token-123') },
    });

    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      "install.sh: BusyBox's wget would send the user and password in REPORT_DEPLOYMENT_DOWNLOAD_URL on to any host a redirect names: nothing was downloaded.\n",
    );
    expect(result.stderr).not.toContain('token-123');
    expect(downloads()).toEqual([]);
  });
});

describe('install.sh stopped by any signal, at any point: never half a file, nothing of its own left', () => {
  // Those that end a shell by default and that another process sends (a CI's cancel, a closed pipe, a
  // hang-up, a timeout).
  const SIGNALS = ['HUP', 'INT', 'QUIT', 'ABRT', 'PIPE', 'ALRM', 'TERM', 'USR1', 'USR2'] as const;

  it('every signal at every tool call it makes, under dash and BusyBox', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({ [ASSET]: FAKE_EXECUTABLE });
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SIGNALS),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom('dash', 'busybox' as const),
        async (signal, call, shell) => {
          const dir = join(work, `dir-${runs}`);
          const tmp = join(work, `tmp-${runs++}`);
          mkdirSync(tmp);

          const result = await install(['--version', VERSION, '--dir', dir], {
            shell,
            signalAt: { call, signal },
            env: { TMPDIR: tmp },
          });

          // Installed whole (the signal came after the rename, or never), or stopped by it.
          expect([0, 128 + constants.signals[`SIG${signal}`]]).toContain(result.exitCode);
          if (result.exitCode === 0) expect(readFileSync(join(dir, 'report-deployment'), 'utf8')).toBe(FAKE_EXECUTABLE);
          if (existsSync(join(dir, 'report-deployment')))
            expect(readFileSync(join(dir, 'report-deployment'), 'utf8')).toBe(FAKE_EXECUTABLE);
          expect({ signal, call, shell, dir: leftovers(dir) }).toEqual({ signal, call, shell, dir: [] });
          expect({ signal, call, shell, tmp: readdirSync(tmp) }).toEqual({ signal, call, shell, tmp: [] });
        },
      ),
      { numRuns: 30 },
    );
  }, 180_000);
});

describe('install.sh’s --version', () => {
  const VALID = /^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$/;

  it('is taken whole: a line end, or anything after it, is a usage error', async () => {
    work = mkdtempSync(join(tmpdir(), 'report-deployment-install-'));
    await serve({});
    const version = fc
      .oneof(
        fc
          .tuple(
            fc.constantFrom('1.2.3', 'v1.2.3', '1.2.3-rc.1'),
            fc.constantFrom('\n', '\r\n', '\n\n', ' ', '\t'),
            fc.string(),
          )
          .map((parts) => parts.join('')),
        fc.string({ unit: fc.constantFrom(...'0123456789.-v\nabc') }),
        fc.string({ unit: 'binary' }),
      )
      .filter((text) => !text.includes('\0'));
    await fc.assert(
      fc.asyncProperty(version, async (text) => {
        const result = await install(['--version', text, '--dir', join(work, 'bin')]);
        const bare = text.startsWith('v') ? text.slice(1) : text;
        // A version it takes goes on to its release's SHA256SUMS: none here.
        expect(result.exitCode).toBe(VALID.test(bare) ? 1 : 2);
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
