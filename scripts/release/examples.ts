// The exact version of the tool the examples install (examples/: install.sh's download URL, the npm
// package's `report-deployment@X.Y.Z`, the cache keys named after it, the image's tag
// `ghcr.io/<owner>/report-deployment:X.Y.Z` in the Kubernetes examples). A release moves them to its
// own version (`prepare`) and is refused while one names another (`check`): users copy an example
// as it is, and one that installs an older version would outlive the release it came with.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export const EXAMPLES_DIR = 'examples';

/**
 * A pin: the version after `releases/download/v`, `report-deployment@`, `report-deployment-` (a
 * cache key, a file name) or `report-deployment:` (an image's tag), prerelease included, so that
 * `1.1.0-rc.1` counts as another version.
 */
const PIN = /(?<=releases\/download\/v|\breport-deployment[@:-])\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?/g;

export interface ExamplePins {
  /** The file, relative to the repository, with `/` between its parts. */
  file: string;
  text: string;
  /** Each pin's version and line (1-based). */
  pins: { version: string; line: number }[];
}

/** Every file under examples/ that pins a version, in a stable order; none where there is no examples/. */
export function examplePins(cwd: string): ExamplePins[] {
  const dir = join(cwd, EXAMPLES_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    .map((path) => {
      const text = readFileSync(path, 'utf8');
      const pins = [...text.matchAll(PIN)].map((match) => ({
        version: match[0],
        line: text.slice(0, match.index).split('\n').length,
      }));
      return { file: relative(cwd, path).split(sep).join('/'), text, pins };
    })
    .filter((example) => example.pins.length > 0);
}

/** What `check` says of examples that pin a version other than `wanted`: one line a file. */
export function pinProblems(examples: ExamplePins[], wanted: string): string[] {
  return examples.flatMap(({ file, pins }) => {
    const others = pins.filter((pin) => pin.version !== wanted);
    if (others.length === 0) return [];
    const versions = [...new Set(others.map((pin) => pin.version))].join(', ');
    const lines = `line${others.length > 1 ? 's' : ''} ${others.map((pin) => pin.line).join(', ')}`;
    return [
      `${file} pins ${versions} (${lines}), not ${wanted}: users would install another version (npm run release -- prepare ${wanted} moves the examples' pins)`,
    ];
  });
}

/** `text` with every pin set to `version`. */
export const withPins = (text: string, version: string): string => text.replace(PIN, version);
