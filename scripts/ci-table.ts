// The command line's table of CI variables, read from the code's own tables (src/ci/*.ts) rather
// than restated: each provider's `detect` and `values` are run on environments that record which
// variables they read, in order, and the sources the values name say which variable gave which field.
// So the table follows the code: a variable added to a provider shows up, a variable dropped goes.
//
// How a field's variables are found, for each provider:
// - every variable it reads, on an empty environment and then on the ones below, until none is new;
// - the order they are tried in: every variable set at once (in a few shapes of value: a full SHA,
//   `refs/heads/...`, `refs/tags/...`, `origin/...`), the variable(s) the field's source names are
//   the first; taken out, the next; and so on;
// - then each variable set alone, for those a condition hides while others are set (Jenkins'
//   BRANCH_NAME only counts outside a pull request): appended after the others.
// A value built from several variables (a link) is shown as built from their names.
import { createHash } from 'node:crypto';

export interface Sourced {
  value: string;
  source: string;
}
export type Env = Record<string, string | undefined>;
export interface Provider {
  name: string;
  detect(env: Env): boolean;
  values(env: Env, log: { warning(message: string): void }): Partial<Record<string, Sourced | undefined>>;
}

/** The fields of the table, in its order, with their column headings. */
export const COLUMNS = [
  ['commitSha', 'commit'],
  ['branch', 'branch'],
  ['version', 'version (a tag build)'],
  ['user', 'user'],
  ['link', 'link'],
  ['description', 'description'],
] as const;
type Field = (typeof COLUMNS)[number][0];

/** One way a field's value is found: the variables it comes from, and how it is shown. */
interface Way {
  names: string[];
  /** A prefix the value loses (`refs/heads/`), where it does. */
  without: Set<string>;
}

const SHAPES: ((name: string) => string)[] = [
  (name) => createHash('sha1').update(name).digest('hex'),
  (name) => `refs/heads/${name}`,
  (name) => `refs/tags/${name}`,
  (name) => `origin/${name}`,
];

const quiet = { warning: () => undefined };

/** `env` wrapped so that every variable read is recorded, in the order first read. */
function recording(values: Record<string, string>): { env: Env; read: string[] } {
  const read: string[] = [];
  const env = new Proxy(values, {
    get(target, name) {
      if (typeof name === 'string' && !read.includes(name)) read.push(name);
      return typeof name === 'string' ? target[name] : undefined;
    },
  });
  return { env, read };
}

/** The variables a source names: "GitLab CI (CI_JOB_URL)" or "Azure Pipelines (A, B, C)". */
function namesOf(source: string): string[] {
  const inner = /\(([^()]*)\)$/.exec(source)?.[1];
  return inner ? inner.split(',').map((name) => name.trim()) : [];
}

function setAll(names: readonly string[], shape: (name: string) => string): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, shape(name)]));
}

/** Every variable the provider reads, in the order first read. */
function variablesRead(provider: Provider): string[] {
  const all: string[] = [];
  const note = (read: string[]) => read.forEach((name) => all.includes(name) || all.push(name));
  const empty = recording({});
  provider.detect(empty.env);
  provider.values(empty.env, quiet);
  note(empty.read);
  for (let round = 0; round < 5; round++) {
    const before = all.length;
    for (const shape of SHAPES) {
      const probe = recording(setAll(all, shape));
      provider.values(probe.env, quiet);
      note(probe.read);
    }
    if (all.length === before) break;
  }
  return all;
}

/** The ways a field is found, in the order they are tried. */
function waysOf(provider: Provider, field: Field, variables: string[]): Way[] {
  const ways: Way[] = [];
  const add = (names: string[], value: string, given: Record<string, string>) => {
    const key = names.join(',');
    let way = ways.find((candidate) => candidate.names.join(',') === key);
    if (!way) ways.push((way = { names, without: new Set() }));
    const original = names.length === 1 ? given[names[0] as string] : undefined;
    if (original !== undefined && original !== value && original.endsWith(value)) {
      way.without.add(original.slice(0, original.length - value.length));
    }
  };
  // Everything set; peel off the winner, again and again.
  for (const shape of SHAPES) {
    const removed = new Set<string>();
    for (let step = 0; step < variables.length; step++) {
      const given = setAll(
        variables.filter((name) => !removed.has(name)),
        shape,
      );
      const found = provider.values(recording(given).env, quiet)[field];
      const names = found ? namesOf(found.source) : [];
      if (!found || names.length === 0) break;
      add(names, found.value, given);
      names.forEach((name) => removed.add(name));
    }
  }
  // Each alone, for the variables a condition on the others hides.
  for (const name of variables) {
    for (const shape of SHAPES) {
      const given = { [name]: shape(name) };
      const found = provider.values(recording(given).env, quiet)[field];
      if (found && namesOf(found.source).join(',') === name) add([name], found.value, given);
    }
  }
  return ways;
}

/** How a way reads in a cell: the variable, or the value built from several, shown with their names. */
function showWay(provider: Provider, field: Field, way: Way): string {
  const built = provider.values(recording(setAll(way.names, (name) => name)).env, quiet)[field];
  if (built && built.value !== way.names.join()) return `\`${built.value}\``;
  const without = [...way.without].map((prefix) => `\`${prefix}\``);
  return (
    way.names.map((name) => `\`${name}\``).join(' + ') + (without.length ? ` without ${without.join(' or ')}` : '')
  );
}

/** A description names the parts of the build that are set: each part alone is no way of its own. */
function distinct(ways: Way[]): Way[] {
  return ways.filter(
    (way, index) =>
      !ways
        .slice(0, index)
        .some((earlier) => earlier.names.length > 1 && way.names.every((name) => earlier.names.includes(name))),
  );
}

/** The variables whose presence alone says the process runs in this CI. */
function detectedBy(provider: Provider): string[] {
  const probe = recording({});
  provider.detect(probe.env);
  return probe.read.filter((name) => provider.detect({ [name]: 'true' }));
}

export interface CiTableOptions {
  /**
   * Providers the table does not probe, by name: each field's cell, and where its name links to
   * (GitHub Actions: the action's defaults, which depend on the event as much as on variables).
   */
  fixed?: Record<string, { cell: string; href: string }>;
}

/** The table, one row per provider in `providers` (in their order of detection). */
export function renderCiTable(providers: readonly Provider[], options: CiTableOptions = {}): string {
  const rows = providers.map((provider) => {
    const detection = detectedBy(provider)
      .map((name) => `\`${name}\``)
      .join(' or ');
    const fixed = options.fixed?.[provider.name];
    if (fixed)
      return `| [${provider.name}](${fixed.href}) (${detection}) | ${COLUMNS.map(() => fixed.cell).join(' | ')} |`;
    const variables = variablesRead(provider);
    const cells = COLUMNS.map(([field]) =>
      (field === 'description' ? distinct : (ways: Way[]) => ways)(waysOf(provider, field, variables))
        .map((way) => showWay(provider, field, way))
        .join(', '),
    );
    return `| ${provider.name} (${detection}) | ${cells.map((cell) => cell || 'none').join(' | ')} |`;
  });
  return [
    `| CI (detected by) | ${COLUMNS.map(([, heading]) => heading).join(' | ')} |`,
    `|---|${COLUMNS.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n');
}
