// The container image's size for `npm run bench` (scripts/bench.ts): the image of build/'s executable,
// built as `npm run image` builds it (scripts/image.ts) but in a storage of its own that is removed
// afterwards, measured on disk (what `podman images` shows) and as the layers a pull downloads
// (gzipped). Only where podman and buildah are installed: elsewhere it is not measured.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { assembleContext, buildArgs, CONTEXT_DIR, fetchDebs, hostArch } from './image.ts';

export interface ImageFigures {
  /** The image unpacked, as `podman image inspect` counts it. */
  bytes: number;
  /** Its one layer gzipped: what a pull downloads, near enough. */
  gzipped: number;
  /** The executable in it. */
  executableBytes: number;
}

/** The image may be at most this much larger than the executable it holds (its libraries and licenses). */
export const IMAGE_GROWTH_BUDGET_BYTES = 8_000_000;

const installed = (tool: string) => {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export async function measureImage(executable: string, licenses: string): Promise<ImageFigures | undefined> {
  if (!installed('buildah') || !installed('podman')) return undefined;
  const arch = hostArch();
  await fetchDebs([arch]);
  assembleContext(arch, executable, licenses);
  const storage = mkdtempSync(join(tmpdir(), 'rd-bench-image-'));
  const global = ['--root', join(storage, 'root'), '--runroot', join(storage, 'run'), '--storage-driver', 'vfs'];
  const tag = 'localhost/report-deployment:bench';
  try {
    execFileSync('buildah', [...global, ...buildArgs({ tag, version: 'bench', revision: 'bench', arch })], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const bytes = Number(
      execFileSync('podman', [...global, 'image', 'inspect', '--format', '{{.Size}}', tag], { encoding: 'utf8' }),
    );
    const archive = join(storage, 'image.tar');
    execFileSync('podman', [...global, 'save', '--format', 'docker-archive', '--output', archive, tag]);
    return { bytes, gzipped: gzipSync(readFileSync(archive)).length, executableBytes: statSync(executable).size };
  } finally {
    rmSync(storage, { recursive: true, force: true });
    rmSync(CONTEXT_DIR, { recursive: true, force: true });
  }
}
