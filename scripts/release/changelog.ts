// CHANGELOG.md as the release reads it: a "## Unreleased" section on top, then one section a
// release, newest first, each headed `## [X.Y.Z] - YYYY-MM-DD` (Keep a Changelog), and at the end
// the link definitions of those headings (`[X.Y.Z]: https://github.com/OWNER/REPO/releases/tag/vX.Y.Z`).
// HTML comments are notes for maintainers: never part of an entry nor of a release's notes.
import { formatVersion, parseVersion } from './semver.ts';

export interface Section {
  /** The version (X.Y.Z); undefined for Unreleased. */
  version: string | undefined;
  date: string | undefined;
  /** Index of the heading line. */
  start: number;
  /** Index of the line after the section's last line. */
  end: number;
  /** The section's text without its heading and HTML comments, trimmed: what the release says. */
  body: string;
}

export interface Changelog {
  lines: string[];
  unreleased: Section | undefined;
  releases: Section[];
  /** Index of the first line of the link definitions at the end (lines.length when there are none). */
  linksStart: number;
  /** What is wrong with the file's shape, one line each (empty when it is well-formed). */
  problems: string[];
}

const UNRELEASED = /^## \[?Unreleased\]?\s*$/i;
const RELEASE = /^## \[([^\]]*)\] - (\S+)\s*$/;
const LINK_DEFINITION = /^\[([^\]]+)\]:\s*\S/;
const FENCE = /^\s*(```|~~~)/;

/** Whether `text` is a real calendar date written YYYY-MM-DD. */
export function isDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `text` without its HTML comments, its lines' trailing spaces and its blank lines at either end. */
function entries(text: string): string {
  return text
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

export function parseChangelog(text: string): Changelog {
  const lines = text.replaceAll('\r\n', '\n').split('\n');
  const problems: string[] = [];
  // The link definitions (and blank lines) at the end belong to no section.
  let linksStart = lines.length;
  while (
    linksStart > 0 &&
    (lines[linksStart - 1]?.trim() === '' || LINK_DEFINITION.test(lines[linksStart - 1] ?? ''))
  ) {
    linksStart--;
  }
  while (linksStart < lines.length && lines[linksStart]?.trim() === '') linksStart++;
  const links = new Set(lines.slice(linksStart).map((line) => LINK_DEFINITION.exec(line)?.[1]?.toLowerCase()));

  const headings: { index: number; version: string | undefined; date: string | undefined }[] = [];
  let fenced = false;
  lines.slice(0, linksStart).forEach((line, index) => {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced || !line.startsWith('## ')) return;
    const where = `CHANGELOG.md line ${index + 1}`;
    if (UNRELEASED.test(line)) {
      headings.push({ index, version: undefined, date: undefined });
      return;
    }
    const match = RELEASE.exec(line);
    const version = match?.[1] === undefined ? undefined : parseVersion(match[1]);
    if (!match || !version || match[1]?.startsWith('v')) {
      problems.push(`${where}: "${line}" is neither "## Unreleased" nor "## [X.Y.Z] - YYYY-MM-DD"`);
      return;
    }
    const date = match[2] ?? '';
    if (!isDate(date)) problems.push(`${where}: "${date}" is not a date (YYYY-MM-DD)`);
    headings.push({ index, version: formatVersion(version), date });
  });

  const sections: Section[] = headings.map((heading, i) => {
    const end = headings[i + 1]?.index ?? linksStart;
    return { ...heading, start: heading.index, end, body: entries(lines.slice(heading.index + 1, end).join('\n')) };
  });
  const unreleasedSections = sections.filter((section) => section.version === undefined);
  const releases = sections.filter((section) => section.version !== undefined);
  if (unreleasedSections.length > 1) problems.push('CHANGELOG.md has more than one "## Unreleased" section');
  const unreleased = unreleasedSections[0];
  if (!unreleased) problems.push('CHANGELOG.md has no "## Unreleased" section');
  else if (sections[0] !== unreleased) problems.push('CHANGELOG.md: "## Unreleased" must come before every release');
  const seen = new Set<string>();
  for (const release of releases) {
    const version = release.version ?? '';
    if (seen.has(version)) problems.push(`CHANGELOG.md has two sections for ${version}`);
    seen.add(version);
    if (!links.has(version)) problems.push(`CHANGELOG.md has no link definition "[${version}]: ..." at its end`);
  }
  return { lines, unreleased, releases, linksStart, problems };
}

export const sectionOf = (changelog: Changelog, version: string): Section | undefined =>
  changelog.releases.find((section) => section.version === version);

/** The link a release's heading points to: its GitHub release. */
export const releaseLink = (repo: string, version: string): string =>
  `[${version}]: https://github.com/${repo}/releases/tag/v${version}`;

/**
 * CHANGELOG.md for a release of `version` made on `date`: the Unreleased entries become its section
 * (Unreleased keeps only its comments), with a link definition; or, when it has a section already
 * (not yet released), that section is dated `date` (and Unreleased must be empty: its entries would
 * ship unlisted).
 */
export function prepareChangelog(text: string, version: string, date: string, repo: string): string {
  const changelog = parseChangelog(text);
  const blocking = changelog.problems.filter((problem) => !problem.includes('link definition'));
  if (blocking.length > 0) throw new Error(blocking.join('\n'));
  const { lines, unreleased } = changelog;
  if (!unreleased) throw new Error('CHANGELOG.md has no "## Unreleased" section');
  const existing = sectionOf(changelog, version);
  const out = [...lines];
  if (existing) {
    if (unreleased.body) {
      throw new Error(
        `CHANGELOG.md has entries under Unreleased and a section for ${version} already: move them into it, then run this again`,
      );
    }
    out[existing.start] = `## [${version}] - ${date}`;
  } else {
    if (!unreleased.body)
      throw new Error(`CHANGELOG.md has no entries under Unreleased: nothing to release as ${version}`);
    const raw = lines.slice(unreleased.start + 1, unreleased.end).join('\n');
    const comments = raw.match(/<!--[\s\S]*?-->/g) ?? [];
    const kept = comments.length > 0 ? ['', ...comments.join('\n\n').split('\n')] : [];
    out.splice(
      unreleased.start,
      unreleased.end - unreleased.start,
      lines[unreleased.start] ?? '## Unreleased',
      ...kept,
      '',
      `## [${version}] - ${date}`,
      '',
      ...unreleased.body.split('\n'),
      '',
    );
  }
  const prepared = parseChangelog(out.join('\n'));
  const link = releaseLink(repo, version);
  if (!prepared.lines.slice(prepared.linksStart).some((line) => line.startsWith(`[${version}]:`))) {
    const withLink = [...prepared.lines];
    const at = prepared.linksStart < withLink.length ? prepared.linksStart : withLink.length;
    // Newest first, as the sections; a file without definitions gets a blank line before them.
    if (at === withLink.length) {
      while (withLink.length > 0 && withLink[withLink.length - 1] === '') withLink.pop();
      withLink.push('', link, '');
    } else {
      withLink.splice(at, 0, link);
    }
    return withLink.join('\n');
  }
  return prepared.lines.join('\n');
}
