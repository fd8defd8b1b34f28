// The image's pinned Debian packages (examples/receiver/container/debian-packages.txt) as
// scripts/image.ts reads them: the same packages and versions for both architectures, each path the
// archive's for that package, version and architecture, and a clear refusal of a line it cannot read.
// Building and running the image: test/image/ (npm run test:image).
import { describe, expect, it } from 'vitest';
import { IMAGE_ARCHES, readPins } from '../scripts/image.ts';

describe('the image’s pinned Debian packages', () => {
  const pins = readPins();

  it('pin the same packages at the same versions for amd64 and arm64', () => {
    const of = (arch: string) =>
      pins
        .filter((pin) => pin.arch === arch)
        .map((pin) => `${pin.name} ${pin.version}`)
        .sort();
    expect(of('amd64')).toEqual([
      'gcc-12-base 12.2.0-14+deb12u1',
      'libc6 2.36-9+deb12u14',
      'libgcc-s1 12.2.0-14+deb12u1',
      'libstdc++6 12.2.0-14+deb12u1',
    ]);
    expect(of('arm64')).toEqual(of('amd64'));
    expect(Object.keys(IMAGE_ARCHES)).toEqual(['amd64', 'arm64']);
  });

  it('name each file as the archive does, and no file twice', () => {
    for (const pin of pins) {
      expect(pin.path).toMatch(/^pool\/main\/[a-z0-9]+\/[a-z0-9.+-]+\//);
      expect(pin.path.endsWith(`/${pin.name}_${pin.version}_${pin.arch}.deb`), pin.path).toBe(true);
    }
    expect(new Set(pins.map((pin) => pin.sha256)).size).toBe(pins.length);
  });

  it.each([
    ['amd64 libc6 2.36 pool/main/g/glibc/libc6_2.36_amd64.deb 0123', 'a short hash'],
    ['i386 libc6 2.36 pool/main/g/glibc/libc6_2.36_i386.deb ' + 'a'.repeat(64), 'an architecture the image lacks'],
    ['amd64 libc6 2.36 pool/main/g/glibc/libc6_2.36_amd64.deb', 'no hash'],
    ['amd64 libc6 2.36 pool/main/g/glibc/libc6_2.36_amd64.deb ' + 'a'.repeat(64) + ' more', 'a field too many'],
  ])('refuse "%s" (%s), naming the file and the format', (line) => {
    expect(() => readPins(`# a comment\n\n${line}\n`)).toThrow(
      `examples/receiver/container/debian-packages.txt: "${line}" is not "<amd64|arm64> <package> <version> <path> <sha256>"`,
    );
  });
});
