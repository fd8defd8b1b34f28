// The mapping file: what it overrides, and the error that names --mapping, the file and the line at fault.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type * as YamlModule from 'yaml';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/core/config-error.ts';
import type { DeploymentEvent } from '../../src/receiver/event.ts';
import { applyMapping, MAX_MAPPING_BYTES, readMapping } from '../../src/receiver/mapping.ts';
import { SOURCES } from '../../src/receiver/sources/index.ts';
import { hostileText } from '../helpers/hostile.ts';
import { codeBlocks } from '../helpers/markdown.ts';

// The parser, watched: how readMapping calls it is part of what it promises (a linear parse).
const { parseDocument } = vi.hoisted(() => ({ parseDocument: vi.fn() }));
vi.mock('yaml', async (importOriginal) => {
  const actual = await importOriginal<typeof YamlModule>();
  parseDocument.mockImplementation(actual.parseDocument);
  return { ...actual, parseDocument };
});

const dir = mkdtempSync(join(tmpdir(), 'mapping-'));
function file(text: string): string {
  const path = join(dir, `m${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return path;
}

const event = (object: string): DeploymentEvent => ({
  key: `argocd:x:${object}`,
  status: 'STARTED',
  object,
  fields: {
    artifactName: 'guestbook',
    version: 'a',
    environment: 'Production',
    commitSha: 'a',
    user: 'u',
    branch: 'main',
  },
});

describe('the mapping file', () => {
  it('overrides the artifact and environment of the objects it names, in their source only', async () => {
    const mapping = await readMapping(
      file(
        [
          'argocd:',
          '  argocd/guestbook: { artifact: guestbook-ui, environment: Staging }',
          '  argocd/other:',
          '    environment: "Production EU"',
          'flux:',
          '  Kustomization/flux-system/apps: { artifact: apps }',
        ].join('\n'),
      ),
    );
    const events = applyMapping(mapping, 'argocd', [
      event('argocd/guestbook'),
      event('argocd/other'),
      event('argocd/none'),
    ]);
    expect(events.map((e) => [e.fields.artifactName, e.fields.environment])).toEqual([
      ['guestbook-ui', 'Staging'],
      ['guestbook', 'Production EU'],
      ['guestbook', 'Production'],
    ]);
    expect(applyMapping(mapping, 'gitlab', [event('argocd/guestbook')])[0]!.fields.artifactName).toBe('guestbook');
    expect(await readMapping(file(''))).toEqual({});
  });

  it.each([
    ['argo:\n  a/b: { artifact: x }\n', /line 1: "argo" is no source/],
    ['argocd:\n  a/b: { artifact: x, owner: y }\n', /line 2: argocd\.a\/b: "owner" is not a field/],
    ['argocd:\n  a/b:\n    artifact: [x]\n', /line 3: argocd\.a\/b\.artifact must be a non-empty one-line string/],
    ['argocd:\n  a/b:\n    artifact: ""\n', /line 3: .*non-empty/],
    ['argocd:\n  a/b: x\n', /line 2: argocd\.a\/b must be a map/],
    ['argocd: [a]\n', /line 1: argocd must be a map of objects/],
    ['argocd:\n  a/b: { artifact: x\n', /line \d+: /],
    ['- a\n', /must be a map of sources/],
  ])('names --mapping and the line at fault: %j', async (text, message) => {
    const path = file(text);
    const error = await readMapping(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/^--mapping /);
    expect((error as ConfigError).message).toContain(path);
    expect((error as ConfigError).message).toMatch(message);
  });

  it('reads the mapping docs/receiver.md shows (its ```yml block, not a workflow)', async () => {
    const blocks = codeBlocks('docs/receiver.md').filter((block) => block.lang === 'yml');
    expect(blocks).toHaveLength(1);
    const mapping = await readMapping(file(blocks[0]!.text));
    expect(applyMapping(mapping, 'argocd', [event('argocd/payments-staging')])[0]!.fields).toMatchObject({
      artifactName: 'payments-api',
      environment: 'Staging',
    });
    expect(mapping.flux?.objects.get('Kustomization/flux-system/apps')?.[1]).toEqual({
      environment: 'Production EU',
      labels: [],
    });
    const gitlab = (environment: string) => ({ ...event('acme/shop'), fields: { ...event('x').fields, environment } });
    expect(
      applyMapping(mapping, 'gitlab', [gitlab('production'), gitlab('staging')]).map((e) => e.fields.environment),
    ).toEqual(['Shop production', 'Staging']);
  });

  it('names a file it cannot read', async () => {
    await expect(readMapping(join(dir, 'missing.yaml'))).rejects.toThrow(
      /--mapping .*missing\.yaml cannot be read \(ENOENT\)/,
    );
  });
});

/** An event of `source`'s object, in `environment`, with `labels`. */
function sourceEvent(object: string, environment = 'production', labels?: Record<string, string>): DeploymentEvent {
  const base = event(object);
  return { ...base, ...(labels ? { labels } : {}), fields: { ...base.fields, environment } };
}

async function refusal(text: string): Promise<string> {
  const error = await readMapping(file(text)).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).message;
}

describe('environment names (item 23)', () => {
  it('translates per source and per object, the others keep theirs; `environment` still names them all', async () => {
    const mapping = await readMapping(
      file(
        [
          'environments:',
          '  gitlab: { production: Production, staging: Staging }',
          'gitlab:',
          '  acme/shop: { environments: { production: Shop production, review: Review } }',
          '  acme/payments: { environment: Payments }',
          '  acme/other: { artifact: other }',
        ].join('\n'),
      ),
    );
    const environments = (object: string, ...names: string[]) =>
      applyMapping(
        mapping,
        'gitlab',
        names.map((name) => sourceEvent(object, name)),
      ).map((e) => e.fields.environment);

    expect(environments('acme/shop', 'production', 'staging', 'review', 'dev')).toEqual([
      'Shop production',
      'Staging',
      'Review',
      'dev',
    ]);
    expect(environments('acme/payments', 'production', 'staging')).toEqual(['Payments', 'Payments']);
    expect(environments('acme/other', 'production', 'Production', 'dev')).toEqual(['Production', 'Production', 'dev']);
    expect(environments('acme/none', 'staging')).toEqual(['Staging']);
    // Another source's names are its own.
    expect(applyMapping(mapping, 'argocd', [sourceEvent('a/b', 'staging')])[0]!.fields.environment).toBe('staging');
  });

  it.each([
    [
      'gitlab:\n  acme/shop: { environment: A, environments: { production: B } }\n',
      /line 2: gitlab\.acme\/shop: give environment .* or environments .*, not both/,
    ],
    ['environments:\n  gitlub: { production: P }\n', /line 2: environments: "gitlub" is no source/],
    ['environments:\n  gitlab: [production]\n', /line 2: environments\.gitlab must be a map of names/],
    ['environments:\n  gitlab: { production: "" }\n', /line 2: environments\.gitlab\.production must be a non-empty/],
    [
      'gitlab:\n  acme/shop:\n    environments: { production: P, production: Q }\n',
      /line 3: .*"production" is given twice/,
    ],
  ])('refuses %j', async (text, message) => {
    expect(await refusal(text)).toMatch(message);
  });
});

describe('keys that can never match (item 22)', () => {
  it.each([
    [
      'flux:\n  apps: { environment: P }\n',
      'flux: "apps" can match no object: name it by Kind/namespace/name, Kind Kustomization or HelmRelease (Kustomization/flux-system/apps)',
    ],
    [
      'flux:\n  GitRepository/flux-system/apps: { environment: P }\n',
      'flux: "GitRepository/flux-system/apps" can match no object',
    ],
    [
      'github:\n  acme/shop-web: { environment: P }\n',
      `github: "acme/shop-web" can match no object: name it by the repository's name, without its owner (shop-web)`,
    ],
    [
      'gitlab:\n  shop: { environment: P }\n',
      `gitlab: "shop" can match no object: name it by the project's path with its namespace`,
    ],
    [
      'argocd:\n  Argo/Guestbook: { environment: P }\n',
      `argocd: "Argo/Guestbook" can match no object: name it by the application's namespace/name`,
    ],
    ['argocd:\n  a/b/c: { environment: P }\n', 'argocd: "a/b/c" can match no object'],
  ])('refuses %j, with the form expected and the line', async (text, message) => {
    const refused = await refusal(text);
    expect(refused).toContain(`line 2: ${message}`);
  });

  it('takes every form the sources give', async () => {
    const mapping = await readMapping(
      file(
        [
          'github:',
          '  shop-web: { artifact: a }',
          'gitlab:',
          '  group/sub/project.x: { artifact: b }',
          '  42: { artifact: c }',
          'argocd:',
          '  guestbook: { artifact: d }',
          '  argocd/guestbook: { artifact: e }',
          'flux:',
          '  HelmRelease/podinfo/podinfo: { artifact: f }',
        ].join('\n'),
      ),
    );
    expect(applyMapping(mapping, 'gitlab', [sourceEvent('42')])[0]!.fields.artifactName).toBe('c');
    expect(applyMapping(mapping, 'argocd', [sourceEvent('guestbook')])[0]!.fields.artifactName).toBe('d');
    expect(applyMapping(mapping, 'flux', [sourceEvent('HelmRelease/podinfo/podinfo')])[0]!.fields.artifactName).toBe(
      'f',
    );
  });

  it('reads the source names from the sources: each source has its key form', () => {
    expect(SOURCES.map((source) => [source.name, source.mappingKey.pattern instanceof RegExp])).toEqual([
      ['github', true],
      ['gitlab', true],
      ['argocd', true],
      ['flux', true],
    ]);
  });
});

describe("one cluster's Flux object: a key with selectors (labels)", () => {
  const text = [
    'flux:',
    '  Kustomization/flux-system/apps: { environment: Any }',
    '  Kustomization/flux-system/apps@cluster=prod-eu: { environment: Production EU }',
    '  Kustomization/flux-system/apps@env=prod@cluster=prod-eu: { environment: Production EU prod }',
    '  Kustomization/flux-system/apps@cluster=prod-us: { artifact: apps-us }',
  ].join('\n');

  it('an entry whose selectors all match wins over the bare name; the most selectors first', async () => {
    const mapping = await readMapping(file(text));
    const apps = (labels?: Record<string, string>) =>
      applyMapping(mapping, 'flux', [sourceEvent('Kustomization/flux-system/apps', 'staging', labels)])[0]!.fields;

    expect(apps().environment).toBe('Any');
    expect(apps({ cluster: 'prod-eu', uid: 'u' }).environment).toBe('Production EU');
    expect(apps({ cluster: 'prod-eu', env: 'prod' }).environment).toBe('Production EU prod');
    expect(apps({ cluster: 'prod-us' })).toMatchObject({ artifactName: 'apps-us', environment: 'staging' });
    expect(apps({ cluster: 'prod-asia' }).environment).toBe('Any');
  });

  it.each([
    [
      'flux:\n  Kustomization/a/b@team=x: { environment: P }\n',
      /line 2: .*each selector is @label=value, label one of uid, cluster, env, environment/,
    ],
    ['flux:\n  Kustomization/a/b@cluster=: { environment: P }\n', /line 2: .*each selector/],
    ['flux:\n  Kustomization/a/b@cluster=a b: { environment: P }\n', /line 2: .*each selector/],
    ['flux:\n  "Kustomization/a/b@cluster=\\u202e": { environment: P }\n', /line 2: .*each selector/],
    ['flux:\n  Kustomization/a/b@cluster=a@cluster=b: { environment: P }\n', /line 2: .*selects on a label twice/],
    [
      'github:\n  shop@cluster=a: { environment: P }\n',
      /line 2: github: "shop@cluster=a": github objects carry no labels/,
    ],
    [
      'flux:\n  Kustomization/a/b@cluster=x@env=y: { environment: P }\n  Kustomization/a/b@env=y@cluster=x: { environment: Q }\n',
      /line 3: flux: "Kustomization\/a\/b@env=y@cluster=x" names an object given before/,
    ],
  ])('refuses %j', async (given, message) => {
    expect(await refusal(given)).toMatch(message);
  });
});

describe('values, duplicates and size (item 18)', () => {
  it.each([
    [
      'argocd:\n  a/b: { environment: "Prod\\u202e" }\n',
      'line 2: argocd.a/b.environment must be a non-empty one-line string, with no control or bidirectional character',
    ],
    ['argocd:\n  a/b: { artifact: "a\\u2066b" }\n', 'line 2: argocd.a/b.artifact must be'],
    ['argocd:\n  a/b: { artifact: "a\\nb" }\n', 'line 2: argocd.a/b.artifact must be'],
    ['argocd:\n  a/b: { artifact: "a\\u0000b" }\n', 'line 2: argocd.a/b.artifact must be'],
    [`argocd:\n  a/b: { artifact: ${'x'.repeat(1001)} }\n`, 'line 2: argocd.a/b.artifact must be'],
    ['environments:\n  argocd: { "prod\\u202e": Production }\n', 'line 2: environments.argocd (a name) must be'],
  ])("refuses a value the sources' cleaner would change: %j", async (text, message) => {
    expect(await refusal(text)).toContain(message);
  });

  it.each([
    [
      'argocd:\n  a/b: { artifact: x }\n  a/b: { artifact: y }\n',
      'line 3: argocd: "a/b" is given twice: give each once.',
    ],
    [
      'argocd:\n  a/b: { artifact: x }\nargocd:\n  c/d: { artifact: y }\n',
      'line 3: "argocd" is given twice: give each once.',
    ],
    ['argocd:\n  a/b: { artifact: x, artifact: y }\n', 'line 2: argocd.a/b: "artifact" is given twice'],
    ['gitlab:\n  42: { artifact: x }\n  "42": { artifact: y }\n', 'line 3: gitlab: "42" is given twice'],
  ])('refuses a key given twice, with its line: %j', async (text, message) => {
    expect(await refusal(text)).toContain(message);
  });

  it(`refuses a file over ${MAX_MAPPING_BYTES} bytes before parsing it, saying the bound`, async () => {
    const path = file(`argocd:\n${'  a/b: { artifact: x }\n'.repeat(MAX_MAPPING_BYTES / 20)}`);
    await expect(readMapping(path)).rejects.toThrow(
      /--mapping .* is \d+ bytes, over the 1048576 a mapping file may hold: map fewer objects/,
    );
  });

  it('parses with the YAML parser’s quadratic duplicate check off (duplicates are found above, with a Set)', async () => {
    parseDocument.mockClear();
    await readMapping(file('argocd:\n  a/b: { artifact: x }\n'));
    expect(parseDocument).toHaveBeenCalledTimes(1);
    expect(parseDocument.mock.calls[0]?.[1]).toMatchObject({ uniqueKeys: false });
  });
});

describe('hostile values (property)', () => {
  const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
  const PLACES = ['artifact', 'environment', 'name', 'translation', 'selector', 'key'] as const;
  const mappingWith = (value: string, place: (typeof PLACES)[number]) => {
    const quoted = JSON.stringify(value);
    return {
      artifact: `flux:\n  Kustomization/a/b: { artifact: ${quoted} }\n`,
      environment: `flux:\n  Kustomization/a/b: { environment: ${quoted} }\n`,
      name: `environments:\n  flux: { ${quoted}: Production }\n`,
      translation: `flux:\n  Kustomization/a/b: { environments: { staging: ${quoted} } }\n`,
      selector: `flux:\n  ${JSON.stringify(`Kustomization/a/b@cluster=${value}`)}: { environment: Selected }\n`,
      key: `flux:\n  ${JSON.stringify(`Kustomization/a/${value}`)}: { environment: Selected }\n`,
    }[place];
  };

  it('a value with a control, line-separator or bidi character is refused, never changed, never recorded raw', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(), fc.constantFrom(...PLACES), async (value, place) => {
        const read = await readMapping(file(mappingWith(value, place))).catch((error: unknown) => error);
        if (read instanceof ConfigError) return;
        expect(read).not.toBeInstanceOf(Error);
        // Accepted: nothing in it was unsafe (white space around it aside, as YAML trims a block's end).
        const kept = value.trim();
        expect(kept).not.toMatch(UNSAFE);
        const object = place === 'key' ? `Kustomization/a/${value}` : 'Kustomization/a/b';
        const given = sourceEvent(object, place === 'name' ? kept : 'staging', { cluster: value });
        const [mapped] = applyMapping(read as Awaited<ReturnType<typeof readMapping>>, 'flux', [given]);
        for (const field of Object.values(mapped!.fields)) expect(field).not.toMatch(UNSAFE);
        const expected = {
          artifact: ['artifactName', kept],
          name: ['environment', 'Production'],
          selector: ['environment', 'Selected'],
          key: ['environment', 'Selected'],
        };
        const [field, recorded] = expected[place as keyof typeof expected] ?? ['environment', kept];
        expect(mapped!.fields[field as 'environment']).toBe(recorded);
      }),
      { numRuns: 300 },
    );
  });
});
