// Release versions: X.Y.Z only (no prerelease, no build metadata, no leading zeros), as tags vX.Y.Z.
// No dependency: the release workflow runs scripts/release.ts before (or without) `npm ci`.

export interface Version {
  major: number;
  minor: number;
  patch: number;
}

const STABLE = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** `1.2.3` (or `v1.2.3`) as a version; undefined for anything else, prereleases included. */
export function parseVersion(text: string): Version | undefined {
  const match = STABLE.exec(text.startsWith('v') ? text.slice(1) : text);
  if (!match) return undefined;
  const [major, minor, patch] = match.slice(1, 4).map(Number) as [number, number, number];
  if (![major, minor, patch].every(Number.isSafeInteger)) return undefined;
  return { major, minor, patch };
}

export const formatVersion = (version: Version): string => `${version.major}.${version.minor}.${version.patch}`;

/** The release tag of a version: `v1.2.3`. */
export const tagOf = (version: Version): string => `v${formatVersion(version)}`;

/** The moving tag of a version's major: `v1`. */
export const majorTagOf = (version: Version): string => `v${version.major}`;

/** The version a release tag names (`v1.2.3`, with the `v`); undefined for any other tag (`v1`, `1.2.3`). */
export const versionOfTag = (tag: string): Version | undefined => (tag.startsWith('v') ? parseVersion(tag) : undefined);

export function compareVersions(a: Version, b: Version): number {
  return Math.sign(a.major - b.major || a.minor - b.minor || a.patch - b.patch);
}

/** The highest of some versions (undefined for none). */
export function newest(versions: Version[]): Version | undefined {
  return versions.reduce<Version | undefined>(
    (best, version) => (best === undefined || compareVersions(version, best) > 0 ? version : best),
    undefined,
  );
}

/**
 * Whether a tool's version (`11.5.1`, `12.0.0-pre.1`, `2.93.0`) is at least `minimum` (X.Y.Z). A
 * prerelease of the minimum is below it, as semver orders them; anything unreadable is not enough.
 */
export function isAtLeast(have: string, minimum: string): boolean {
  const need = parseVersion(minimum);
  if (!need) throw new Error(`the minimum "${minimum}" is not X.Y.Z`);
  const match = /^v?(\d+\.\d+\.\d+)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(have.trim());
  const release = match?.[1] === undefined ? undefined : parseVersion(match[1]);
  if (!release) return false;
  const order = compareVersions(release, need);
  return order > 0 || (order === 0 && match?.[2] === undefined);
}
