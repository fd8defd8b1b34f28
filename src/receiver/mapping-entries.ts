// The mapping file's entries, read from its parsed YAML (mapping.ts reads the file): each object's
// key checked against the form its source's objects take, each value against the sources' cleaner,
// each map for keys given twice (with a Set: the parser's own check is quadratic).
import type * as YamlModule from 'yaml';
import type { YAMLMap } from 'yaml';
import type { SourceName } from './event.js';
import type { Source } from './source.js';
import { clean } from './sources/fields.js';

export type YamlMap = YAMLMap<unknown, unknown>;
type Yaml = Pick<typeof YamlModule, 'isMap' | 'isScalar'>;
/** Throws the ConfigError that names the line of `node`. */
export type Fail = (node: unknown, text: string) => never;

export interface MappingEntry {
  artifact?: string;
  /** Every environment of the object is recorded as this one. */
  environment?: string;
  /** The object's environments, each by the name the source gives, recorded as another. */
  environments?: ReadonlyMap<string, string>;
}

/** An entry, and the labels an event must carry for it to apply (none: the bare object). */
export interface Candidate extends MappingEntry {
  labels: ReadonlyArray<readonly [string, string]>;
}

export interface SourceMapping {
  /** Per object, its entries, those with the most labels first. */
  objects: ReadonlyMap<string, readonly Candidate[]>;
  /** The environments of every object of the source, each by the name the source gives. */
  environments: ReadonlyMap<string, string>;
}

const FIELDS = ['artifact', 'environment', 'environments'] as const;

/** The mapping of each source from its objects' map and the `environments` map. */
export function readEntries(
  yaml: Yaml,
  sources: readonly Source[],
  objects: ReadonlyMap<SourceName, YamlMap>,
  translations: YamlMap | undefined,
  fail: Fail,
): Partial<Record<SourceName, SourceMapping>> {
  const read = new Reader(yaml, fail);
  const names = new Map<string, ReadonlyMap<string, string>>();
  for (const pair of read.pairs(translations, 'environments')) {
    const source = sources.find((known) => known.name === pair.name);
    if (!source) {
      const known = sources.map((each) => each.name).join(', ');
      return fail(pair.node, `environments: ${JSON.stringify(pair.name)} is no source: use ${known}.`);
    }
    names.set(source.name, read.names(pair.value, `environments.${source.name}`));
  }
  const mapping: Partial<Record<SourceName, SourceMapping>> = {};
  for (const source of sources) {
    const map = objects.get(source.name);
    if (!map && !names.has(source.name)) continue;
    const entries = new Map<string, Candidate[]>();
    // The same object and labels, however the key orders its selectors: a Set, so that the check stays linear.
    const selected = new Set<string>();
    for (const pair of read.pairs(map, source.name)) {
      const [object, labels] = read.key(pair.name, pair.node, source);
      const candidate = { ...read.entry(pair.value ?? pair.node, `${source.name}.${pair.name}`), labels };
      const identity = JSON.stringify([object, labels]);
      if (selected.has(identity)) {
        return fail(pair.node, `${source.name}: ${JSON.stringify(pair.name)} names an object given before.`);
      }
      selected.add(identity);
      const list = entries.get(object);
      if (list) list.push(candidate);
      else entries.set(object, [candidate]);
    }
    // An entry with a selector wins over the bare object; among several, the one with the most labels (then the first).
    for (const list of entries.values()) list.sort((a, b) => b.labels.length - a.labels.length);
    mapping[source.name] = { objects: entries, environments: names.get(source.name) ?? new Map() };
  }
  return mapping;
}

class Reader {
  private readonly yaml: Yaml;
  private readonly fail: Fail;

  constructor(yaml: Yaml, fail: Fail) {
    this.yaml = yaml;
    this.fail = fail;
  }

  /** The pairs of `map` by their key's text, each key once. */
  *pairs(map: YamlMap | undefined, where: string): Generator<{ name: string; node: unknown; value: unknown }> {
    const seen = new Set<string>();
    for (const pair of map?.items ?? []) {
      const name = this.yaml.isScalar(pair.key) ? String(pair.key.value) : '';
      if (!name) this.fail(pair.key ?? map, `${where}: each key must be a string.`);
      if (seen.has(name)) this.fail(pair.key, `${where}: ${JSON.stringify(name)} is given twice: give each once.`);
      seen.add(name);
      yield { name, node: pair.key, value: pair.value };
    }
  }

  /** The object a key names and the labels it selects on: `Kind/namespace/name@cluster=prod-eu`. */
  key(text: string, node: unknown, source: Source): [string, Array<readonly [string, string]>] {
    const [object = '', ...selectors] = text.split('@');
    const { pattern, form, labels: known = [] } = source.mappingKey;
    if (!pattern.test(object)) {
      this.fail(node, `${source.name}: ${JSON.stringify(text)} can match no object: name it by ${form}.`);
    }
    if (selectors.length && known.length === 0) {
      this.fail(node, `${source.name}: ${JSON.stringify(text)}: ${source.name} objects carry no labels to select on.`);
    }
    const labels = selectors.map((selector) => {
      const [name = '', value = '', ...rest] = selector.split('=');
      if (!known.includes(name) || !value || rest.length || clean(value) !== value || /\s/.test(value)) {
        this.fail(
          node,
          `${source.name}: ${JSON.stringify(text)}: each selector is @label=value, label one of ${known.join(', ')}, the value one word.`,
        );
      }
      return [name, value] as const;
    });
    if (new Set(labels.map(([name]) => name)).size < labels.length) {
      this.fail(node, `${source.name}: ${JSON.stringify(text)} selects on a label twice.`);
    }
    return [object, labels.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))];
  }

  /** One object's entry: artifact, environment, environments. */
  entry(node: unknown, where: string): MappingEntry {
    if (!this.yaml.isMap(node)) return this.fail(node, `${where} must be a map with artifact and/or environment(s).`);
    const entry: { -readonly [F in keyof MappingEntry]: MappingEntry[F] } = {};
    for (const pair of this.pairs(node, where)) {
      if (pair.name === 'environments')
        entry.environments = this.names(pair.value ?? pair.node, `${where}.environments`);
      else if (pair.name === 'artifact' || pair.name === 'environment')
        entry[pair.name] = this.value(pair.value ?? pair.node, `${where}.${pair.name}`);
      else this.fail(pair.node, `${where}: ${JSON.stringify(pair.name)} is not a field: use ${FIELDS.join(', ')}.`);
    }
    if (entry.environment && entry.environments) {
      this.fail(
        node,
        `${where}: give environment (every environment of the object) or environments (some, by name), not both.`,
      );
    }
    return entry;
  }

  /** A map of environment names: each as the source gives it, and as it is recorded. */
  names(node: unknown, where: string): ReadonlyMap<string, string> {
    if (!this.yaml.isMap(node)) return this.fail(node, `${where} must be a map of names (production: Production).`);
    const names = new Map<string, string>();
    for (const pair of this.pairs(node, where)) {
      const given = this.value(pair.node, `${where} (a name)`);
      names.set(given, this.value(pair.value ?? pair.node, `${where}.${pair.name}`));
    }
    return names;
  }

  /** A value, refused where the sources' cleaner would change it (a control, line-separator or bidi character; too long). */
  value(node: unknown, where: string): string {
    const value = this.yaml.isScalar(node) ? node.value : undefined;
    const text = typeof value === 'string' ? value.trim() : '';
    if (!text || clean(text) !== text) {
      this.fail(
        node,
        `${where} must be a non-empty one-line string, with no control or bidirectional character, of at most 1000 characters.`,
      );
    }
    return text;
  }
}
