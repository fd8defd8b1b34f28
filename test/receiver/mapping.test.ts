// The mapping file: what it overrides, and the error that names --mapping, the file and the line at fault.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.ts';
import type { DeploymentEvent } from '../../src/receiver/event.ts';
import { applyMapping, readMapping } from '../../src/receiver/mapping.ts';
import { codeBlocks } from '../helpers/markdown.ts';

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
    expect(mapping.flux?.get('Kustomization/flux-system/apps')).toEqual({ environment: 'Production EU' });
  });

  it('names a file it cannot read', async () => {
    await expect(readMapping(join(dir, 'missing.yaml'))).rejects.toThrow(
      /--mapping .*missing\.yaml cannot be read \(ENOENT\)/,
    );
  });
});
