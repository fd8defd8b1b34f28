// The mapping file (`serve --mapping FILE`): per source object, the artifact and environment to
// record instead of those the source gives. YAML, as the rest of a platform team's configuration:
//
//   argocd:
//     argocd/payments-prod: { artifact: payments-api, environment: Production }
//   flux:
//     Kustomization/flux-system/apps: { environment: Staging }
//
// The YAML parser is loaded only when a mapping is given: a receiver without one never loads it.
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../core/config-error.js';
import type { DeploymentEvent, SourceName } from './event.js';

interface MappingEntry {
  artifact?: string;
  environment?: string;
}

type Mapping = Partial<Record<SourceName, ReadonlyMap<string, MappingEntry>>>;

const SOURCES: readonly SourceName[] = ['github', 'gitlab', 'argocd', 'flux'];
const FIELDS = ['artifact', 'environment'] as const;
const SUBJECT = '--mapping';

/** The mapping in `path`. Throws a ConfigError naming `--mapping`, the file, and the line and key at fault. */
export async function readMapping(path: string): Promise<Mapping> {
  let source: string;
  try {
    source = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigError(SUBJECT, `${path} cannot be read (${code}). Give the path of a YAML mapping file.`);
  }
  const { LineCounter, isMap, isScalar, parseDocument } = await import('yaml');
  const lines = new LineCounter();
  const document = parseDocument(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  // The line of the node at fault: every node the parser makes carries its range in the text.
  const fail = (node: unknown, text: string): never => {
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    const line = range ? `line ${lines.linePos(range[0]).line}: ` : '';
    throw new ConfigError(SUBJECT, `${path}: ${line}${text}`);
  };
  const [syntax] = document.errors;
  if (syntax) {
    const line = lines.linePos(syntax.pos[0]).line;
    throw new ConfigError(SUBJECT, `${path}: line ${line}: ${syntax.message.split('\n')[0]}`);
  }
  const mapping: Partial<Record<SourceName, Map<string, MappingEntry>>> = {};
  const root = document.contents;
  if (root === null) return mapping;
  if (!isMap(root)) return fail(root, `must be a map of sources (${SOURCES.join(', ')}).`);
  for (const pair of root.items) {
    const sourceName = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!(SOURCES as readonly string[]).includes(sourceName)) {
      return fail(pair.key, `${JSON.stringify(sourceName)} is no source: use ${SOURCES.join(', ')}.`);
    }
    if (!isMap(pair.value)) return fail(pair.value ?? pair.key, `${sourceName} must be a map of objects.`);
    const entries = new Map<string, MappingEntry>();
    for (const objectPair of pair.value.items) {
      const object = isScalar(objectPair.key) ? String(objectPair.key.value) : '';
      const where = `${sourceName}.${object}`;
      if (!object) return fail(objectPair.key, `${sourceName}: an object must be named by a string.`);
      if (!isMap(objectPair.value)) {
        return fail(objectPair.value ?? objectPair.key, `${where} must be a map with artifact and/or environment.`);
      }
      const entry: MappingEntry = {};
      for (const fieldPair of objectPair.value.items) {
        const field = isScalar(fieldPair.key) ? String(fieldPair.key.value) : '';
        if (!(FIELDS as readonly string[]).includes(field)) {
          return fail(fieldPair.key, `${where}: ${JSON.stringify(field)} is not a field: use artifact or environment.`);
        }
        const value = isScalar(fieldPair.value) ? fieldPair.value.value : undefined;
        if (typeof value !== 'string' || !value.trim() || /[\p{Cc}\u2028\u2029]/u.test(value) || value.length > 1000) {
          return fail(fieldPair.value ?? fieldPair.key, `${where}.${field} must be a non-empty one-line string.`);
        }
        entry[field as (typeof FIELDS)[number]] = value.trim();
      }
      entries.set(object, entry);
    }
    mapping[sourceName as SourceName] = entries;
  }
  return mapping;
}

/** The events, each with the artifact and environment its object's entry gives, where it has one. */
export function applyMapping(
  mapping: Mapping,
  source: SourceName,
  events: readonly DeploymentEvent[],
): DeploymentEvent[] {
  const entries = mapping[source];
  return events.map((event) => {
    const entry = entries?.get(event.object);
    if (!entry) return event;
    return {
      ...event,
      fields: {
        ...event.fields,
        ...(entry.artifact ? { artifactName: entry.artifact } : {}),
        ...(entry.environment ? { environment: entry.environment } : {}),
      },
    };
  });
}
