// The mapping file (`serve --mapping FILE`): per source object, the artifact and environment to
// record instead of those the source gives; and per source or per object, environment names to
// translate. YAML, as the rest of a platform team's configuration:
//
//   environments:
//     gitlab: { production: Production, staging: Staging }
//   argocd:
//     argocd/payments-prod: { artifact: payments-api, environment: Production }
//   flux:
//     Kustomization/flux-system/apps: { environment: Staging }
//     Kustomization/flux-system/apps@cluster=prod-eu: { environment: Production EU }
//
// Each key has the form its source's objects take (the source says it: MappingKey), so that a key
// that could never match is refused at start. Values are refused where the sources' cleaner would
// change them: what the file says is what is recorded. The file is bounded (MAX_MAPPING_BYTES) and
// parsed in linear time: the YAML parser's own duplicate-key check compares each key with every
// other, so duplicates are found here, with a Set. The YAML parser is loaded only when a mapping is
// given: a receiver without one never loads it.
import { readFile, stat } from 'node:fs/promises';
import { ConfigError } from '../core/config-error.js';
import type { DeploymentEvent, SourceName } from './event.js';
import { readEntries, type Fail, type YamlMap } from './mapping-entries.js';
import type { Candidate, SourceMapping } from './mapping-entries.js';
import { SOURCES } from './sources/index.js';

export type Mapping = Partial<Record<SourceName, SourceMapping>>;

/** The largest mapping file read: some 17,000 objects, parsed in under a second. */
export const MAX_MAPPING_BYTES = 1024 * 1024;
/** The YAML parser's options: `uniqueKeys` off, as its check takes time quadratic in a map's size. */
export const YAML_OPTIONS = { prettyErrors: false, uniqueKeys: false } as const;

const SUBJECT = '--mapping';
const ENVIRONMENTS = 'environments';

/** The mapping in `path`. Throws a ConfigError naming `--mapping`, the file, and the line and key at fault. */
export async function readMapping(path: string): Promise<Mapping> {
  const source = await readBounded(path);
  const yaml = await import('yaml');
  const lines = new yaml.LineCounter();
  const document = yaml.parseDocument(source, { ...YAML_OPTIONS, lineCounter: lines });
  // The line of the node at fault: every node the parser makes carries its range in the text.
  const fail: Fail = (node, text) => {
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    const line = range ? `line ${lines.linePos(range[0]).line}: ` : '';
    throw new ConfigError(SUBJECT, `${path}: ${line}${text}`);
  };
  const [syntax] = document.errors;
  if (syntax) {
    const line = lines.linePos(syntax.pos[0]).line;
    throw new ConfigError(SUBJECT, `${path}: line ${line}: ${syntax.message.split('\n')[0]}`);
  }
  const root = document.contents;
  if (root === null) return {};
  const names = SOURCES.map((known) => known.name);
  if (!yaml.isMap(root)) return fail(root, `must be a map of sources (${names.join(', ')}) and/or ${ENVIRONMENTS}.`);
  const seen = new Set<string>();
  let translations: YamlMap | undefined;
  const objects = new Map<SourceName, YamlMap>();
  for (const pair of root.items) {
    const name = yaml.isScalar(pair.key) ? String(pair.key.value) : '';
    if (seen.has(name)) return fail(pair.key, `${JSON.stringify(name)} is given twice: give each once.`);
    seen.add(name);
    if (name !== ENVIRONMENTS && !(names as string[]).includes(name)) {
      return fail(pair.key, `${JSON.stringify(name)} is no source: use ${names.join(', ')} (or ${ENVIRONMENTS}).`);
    }
    if (!yaml.isMap(pair.value)) {
      const what = name === ENVIRONMENTS ? 'a map of sources, each a map of names' : 'a map of objects';
      return fail(pair.value ?? pair.key, `${name} must be ${what}.`);
    }
    if (name === ENVIRONMENTS) translations = pair.value;
    else objects.set(name as SourceName, pair.value);
  }
  return readEntries(yaml, SOURCES, objects, translations, fail);
}

/** The file's text, refused past MAX_MAPPING_BYTES (before a byte of it is parsed). */
async function readBounded(path: string): Promise<string> {
  try {
    const { size } = await stat(path);
    if (size > MAX_MAPPING_BYTES) {
      throw new ConfigError(
        SUBJECT,
        `${path} is ${size} bytes, over the ${MAX_MAPPING_BYTES} a mapping file may hold: map fewer objects, or use per-source environments.`,
      );
    }
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigError(SUBJECT, `${path} cannot be read (${code}). Give the path of a YAML mapping file.`);
  }
}

/** The events, each with the artifact and environment its object's entry and its source's names give. */
export function applyMapping(
  mapping: Mapping,
  source: SourceName,
  events: readonly DeploymentEvent[],
): DeploymentEvent[] {
  const sourceMapping = mapping[source];
  if (!sourceMapping) return [...events];
  return events.map((event) => {
    const entry = chosen(sourceMapping.objects.get(event.object), event.labels ?? {});
    const given = event.fields.environment;
    const environment =
      entry?.environment ?? entry?.environments?.get(given) ?? sourceMapping.environments.get(given) ?? given;
    const artifact = entry?.artifact;
    if (!artifact && environment === given) return event;
    return {
      ...event,
      fields: { ...event.fields, ...(artifact ? { artifactName: artifact } : {}), environment },
    };
  });
}

/** The entry for an event with `labels`: the first whose selector they all match (the most specific come first). */
function chosen(candidates: readonly Candidate[] | undefined, labels: Readonly<Record<string, string>>) {
  return candidates?.find((candidate) =>
    candidate.labels.every(([name, value]) => Object.hasOwn(labels, name) && labels[name] === value),
  );
}
