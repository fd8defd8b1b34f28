// The receiver's container image (examples/receiver/container/Dockerfile), built with no registry: its
// base is not pulled but made here from exact Debian packages (examples/receiver/container/
// debian-packages.txt), each checked against its SHA-256 and unpacked with dpkg-deb, of which only the
// shared libraries the executable is linked against are kept, beside their licenses.
//
//   node scripts/image.ts fetch [amd64|arm64 ...]     the pinned .deb files into build/debian/ (the only step that
//                                                     downloads; skipped for a file already there and intact)
//   node scripts/image.ts context <arch>=<executable> ...
//                                                     the build context, build/image/<arch>/: rootfs/ and the executable
//   node scripts/image.ts build [--tag NAME] [--tool podman|buildah|docker]
//                                                     `npm run image`: fetch, context and build for this machine, from
//                                                     build/report-deployment-linux-<x64|arm64> (`npm run build -- sea`)
//
// The build itself runs with no network (`--network none`): the Dockerfile only copies the context.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { SEA_DIR, SEA_LICENSES, seaName } from './sea.ts';

const root = join(import.meta.dirname, '..');
export const CONTAINER_DIR = join(root, 'examples', 'receiver', 'container');
export const DOCKERFILE = join(CONTAINER_DIR, 'Dockerfile');
const PINS = join(CONTAINER_DIR, 'debian-packages.txt');
/** Where `fetch` keeps the .deb files, and where `context` assembles the build context. */
export const DEBIAN_DIR = join(root, 'build', 'debian');
export const CONTEXT_DIR = join(root, 'build', 'image');
const ARCHIVE = 'https://deb.debian.org/debian/';

/** The image's architectures (OCI's names), with the names the executable and glibc give them. */
export const IMAGE_ARCHES = {
  amd64: { node: 'x64', triplet: 'x86_64-linux-gnu', loader: 'lib64/ld-linux-x86-64.so.2' },
  arm64: { node: 'arm64', triplet: 'aarch64-linux-gnu', loader: 'lib/ld-linux-aarch64.so.1' },
} as const;
export type ImageArch = keyof typeof IMAGE_ARCHES;

/** What the executable (Node) is linked against (`ldd`), its loader aside: all the image keeps of the packages. */
export const LIBRARIES = ['libc.so.6', 'libm.so.6', 'libdl.so.2', 'libpthread.so.0', 'libgcc_s.so.1', 'libstdc++.so.6'];

/** The unprivileged user the image runs as, by number (the Dockerfile's USER). */
export const IMAGE_USER = { uid: 65532, gid: 65532, name: 'report-deployment' };

export interface Pin {
  arch: ImageArch;
  name: string;
  version: string;
  path: string;
  sha256: string;
}

export function readPins(text = readFileSync(PINS, 'utf8')): Pin[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [arch, name, version, path, sha256, extra] = line.split(/\s+/);
      if (
        !arch ||
        !(arch in IMAGE_ARCHES) ||
        !name ||
        !version ||
        !path ||
        !/^[0-9a-f]{64}$/.test(sha256 ?? '') ||
        extra
      )
        throw new Error(
          `${relative(root, PINS)}: "${line}" is not "<amd64|arm64> <package> <version> <path> <sha256>"`,
        );
      return { arch: arch as ImageArch, name, version, path, sha256: sha256 as string };
    });
}

const sha256Of = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const debFile = (pin: Pin) => join(DEBIAN_DIR, pin.path.split('/').pop() as string);

/** The pinned packages of these architectures, downloaded where missing; every file checked. */
export async function fetchDebs(arches: ImageArch[]): Promise<void> {
  mkdirSync(DEBIAN_DIR, { recursive: true });
  for (const pin of readPins().filter((pin) => arches.includes(pin.arch))) {
    const file = debFile(pin);
    if (existsSync(file) && sha256Of(file) === pin.sha256) continue;
    const response = await fetch(ARCHIVE + pin.path);
    if (!response.ok) throw new Error(`${ARCHIVE}${pin.path}: HTTP ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    const got = createHash('sha256').update(body).digest('hex');
    if (got !== pin.sha256) throw new Error(`${ARCHIVE}${pin.path}: SHA-256 ${got}, not the pinned ${pin.sha256}`);
    writeFileSync(file, body);
  }
}

/** Copies `path` (relative to both roots), and the file a symlink names, from `from` into `to`. */
function copyFollowing(from: string, to: string, path: string): void {
  const source = join(from, path);
  mkdirSync(dirname(join(to, path)), { recursive: true });
  if (!lstatSync(source).isSymbolicLink()) return copyFileSync(source, join(to, path));
  const target = readlinkSync(source);
  rmSync(join(to, path), { force: true });
  symlinkSync(target, join(to, path));
  copyFollowing(from, to, target.startsWith('/') ? target.slice(1) : join(dirname(path), target));
}

/** Where a library lies in the unpacked packages (glibc's in /lib, libstdc++ in /usr/lib). */
function libraryPath(unpacked: string, triplet: string, library: string): string {
  for (const dir of [`lib/${triplet}`, `usr/lib/${triplet}`]) {
    if (existsSync(join(unpacked, dir, library))) return join(dir, library);
  }
  throw new Error(`No ${library} in the pinned ${triplet} packages: ${relative(root, PINS)} lacks its package`);
}

/**
 * build/image/<arch>/: rootfs/ (the loader and libraries, /etc/passwd and /etc/group with the image's
 * user, the packages' copyright files and the executable's licenses), state/ (the store's empty folder,
 * owned by that user in the image) and the executable itself.
 */
export function assembleContext(arch: ImageArch, executable: string, licenses?: string): string {
  const { triplet, loader } = IMAGE_ARCHES[arch];
  const context = join(CONTEXT_DIR, arch);
  rmSync(context, { recursive: true, force: true });
  const rootfs = join(context, 'rootfs');
  const unpacked = mkdtempSync(join(tmpdir(), `rd-image-${arch}-`));
  try {
    for (const pin of readPins().filter((pin) => pin.arch === arch)) {
      const file = debFile(pin);
      if (!existsSync(file) || sha256Of(file) !== pin.sha256)
        throw new Error(
          `${relative(root, file)} is missing or not the pinned file: run node scripts/image.ts fetch ${arch}`,
        );
      execFileSync('dpkg-deb', ['-x', file, unpacked]);
    }
    // Each package's copyright file, where it holds one (libgcc-s1's and libstdc++6's are gcc-12-base's).
    for (const pin of readPins().filter((pin) => pin.arch === arch)) {
      const doc = join('usr', 'share', 'doc', pin.name);
      if (!lstatSync(join(unpacked, doc)).isSymbolicLink()) copyFollowing(unpacked, rootfs, join(doc, 'copyright'));
    }
    copyFollowing(unpacked, rootfs, loader);
    for (const library of LIBRARIES) copyFollowing(unpacked, rootfs, libraryPath(unpacked, triplet, library));
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
  const { uid, gid, name } = IMAGE_USER;
  mkdirSync(join(rootfs, 'etc'), { recursive: true });
  writeFileSync(
    join(rootfs, 'etc', 'passwd'),
    `root:x:0:0:root:/root:/sbin/nologin\n${name}:x:${uid}:${gid}:${name}:/var/lib/report-deployment:/sbin/nologin\n`,
  );
  writeFileSync(join(rootfs, 'etc', 'group'), `root:x:0:\n${name}:x:${gid}:\n`);
  if (licenses) {
    mkdirSync(join(rootfs, 'usr', 'share', 'doc', 'report-deployment'), { recursive: true });
    copyFileSync(licenses, join(rootfs, 'usr', 'share', 'doc', 'report-deployment', 'licenses.txt'));
  }
  mkdirSync(join(context, 'state'), { recursive: true });
  cpSync(executable, join(context, 'report-deployment'));
  return context;
}

/** This machine's architecture, as the image names it. */
export function hostArch(): ImageArch {
  const arch = Object.entries(IMAGE_ARCHES).find(([, names]) => names.node === process.arch)?.[0];
  if (process.platform !== 'linux' || !arch)
    throw new Error(
      `The image holds a Linux executable for amd64 or arm64: this is ${process.platform}-${process.arch}`,
    );
  return arch as ImageArch;
}

/** The first of the tools that build images found on PATH. */
function findTool(): string {
  for (const tool of ['podman', 'buildah', 'docker']) {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
      return tool;
    } catch {
      // not installed: the next one
    }
  }
  throw new Error('No podman, buildah or docker on PATH: install one of them to build the image');
}

/** The build's arguments for podman, buildah or docker: no network, the labels' values, the tool's own `extra`. */
export function buildArgs(options: {
  tag: string;
  version: string;
  revision: string;
  arch: ImageArch;
  extra?: string[];
}): string[] {
  return [
    'build',
    '--network',
    'none',
    '--platform',
    `linux/${options.arch}`,
    '--build-arg',
    `VERSION=${options.version}`,
    '--build-arg',
    `REVISION=${options.revision}`,
    '--file',
    DOCKERFILE,
    '--tag',
    options.tag,
    ...(options.extra ?? []),
    CONTEXT_DIR,
  ];
}

/** `npm run image`: the image of build/'s executable for this machine, tagged localhost/report-deployment:<version>. */
export async function buildLocalImage(options: { tag?: string; tool?: string } = {}): Promise<string> {
  const arch = hostArch();
  const executable = join(SEA_DIR, seaName('linux', IMAGE_ARCHES[arch].node));
  if (!existsSync(executable)) throw new Error(`No ${relative(root, executable)}: run npm run build -- sea first`);
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const revision = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  await fetchDebs([arch]);
  const licenses = join(SEA_DIR, SEA_LICENSES);
  assembleContext(arch, executable, existsSync(licenses) ? licenses : undefined);
  const tag = options.tag ?? `localhost/report-deployment:${version}`;
  execFileSync(options.tool ?? findTool(), buildArgs({ tag, version, revision, arch }), { stdio: 'inherit' });
  return tag;
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (command === 'fetch') {
    const arches = rest.length > 0 ? rest : Object.keys(IMAGE_ARCHES);
    for (const arch of arches)
      if (!(arch in IMAGE_ARCHES)) throw new Error(`No image is made for ${arch}: amd64, arm64`);
    await fetchDebs(arches as ImageArch[]);
  } else if (command === 'context') {
    for (const pair of rest.filter((arg) => arg.includes('='))) {
      const [arch, executable] = pair.split('=');
      if (!arch || !(arch in IMAGE_ARCHES) || !executable)
        throw new Error(`"${pair}" is not <amd64|arm64>=<executable>`);
      assembleContext(arch as ImageArch, executable, option(rest, '--licenses'));
    }
  } else if (command === 'build') {
    const tag = await buildLocalImage({ tag: option(rest, '--tag'), tool: option(rest, '--tool') });
    console.error(`Built ${tag}`);
  } else {
    throw new Error(
      'usage: node scripts/image.ts fetch [arch ...] | context <arch>=<executable> ... | build [--tag NAME] [--tool podman|buildah|docker]',
    );
  }
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
