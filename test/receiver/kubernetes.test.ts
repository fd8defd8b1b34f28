// The receiver's Kubernetes examples (examples/receiver/kubernetes/: a Kustomize base and an overlay)
// as files, with Node alone: each parses, each kustomization names every file of its folder and only
// those, and the base's Deployment is valid against the Kubernetes API's schema. What `kubectl
// kustomize` renders of each tree, object by object, is checked by test/kube/kustomize.test.ts
// (`npm run test:kube`, which needs kubectl). The image's Dockerfile is parsed and linted for its own rules.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { Deployment } from 'kubernetes-models/apps/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const DIR = join(import.meta.dirname, '..', '..', 'examples', 'receiver', 'kubernetes');
const DOCKERFILE = join(import.meta.dirname, '..', '..', 'examples', 'receiver', 'container', 'Dockerfile');

type Manifest = Record<string, unknown>;

/** Every document of every YAML file under `dir`, by file. */
function manifests(dir: string): Map<string, Manifest[]> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.yaml'));
  return new Map(
    files.sort().map((file) => {
      const documents = parseAllDocuments(readFileSync(join(dir, file), 'utf8'));
      for (const document of documents) expect(document.errors, file).toEqual([]);
      return [file, documents.map((document) => document.toJS() as Manifest)];
    }),
  );
}

const all = manifests(DIR);
const single = all.get('base/deployment.yaml')?.[0] as unknown as Deployment;

const container = (deployment: Deployment) => {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  expect(containers).toHaveLength(1);
  return containers[0] as NonNullable<(typeof containers)[0]>;
};

describe('the receiver’s Kubernetes examples, as files', () => {
  it('are a base and an overlay, each file one document that parses', () => {
    expect([...all.keys()]).toEqual([
      'base/deployment.yaml',
      'base/kustomization.yaml',
      'base/namespace.yaml',
      'base/persistent-volume-claim.yaml',
      'base/service.yaml',
      'postgres/kustomization.yaml',
      'postgres/no-sqlite-volume.yaml',
      'postgres/pod-disruption-budget.yaml',
      'postgres/replicas.yaml',
    ]);
    for (const [file, documents] of all) expect(documents, file).toHaveLength(1);
  });

  it.each(['base', 'postgres'])('%s/kustomization.yaml names every file of its folder, once', (tree) => {
    const kustomization = all.get(`${tree}/kustomization.yaml`)?.[0] as {
      resources?: string[];
      patches?: { path: string }[];
    };
    const named = [
      ...(kustomization.resources ?? []).filter((resource) => !resource.startsWith('../')),
      ...(kustomization.patches ?? []).map((patch) => patch.path),
    ];
    const files = [...all.keys()]
      .filter((file) => file.startsWith(`${tree}/`) && file !== `${tree}/kustomization.yaml`)
      .map((file) => file.slice(tree.length + 1));
    expect(named.sort()).toEqual(files.sort());
  });

  it('the base’s Deployment is valid against the Kubernetes API’s schema, which does check', () => {
    expect(() => new Deployment(single as never).validate()).not.toThrow();
    const broken = structuredClone(single) as unknown as { spec: { replicas: unknown } };
    broken.spec.replicas = 'two';
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas/);
  });
});

describe('the receiver’s image (examples/receiver/container/Dockerfile)', () => {
  const text = readFileSync(DOCKERFILE, 'utf8');
  const dockerfile = DockerfileParser.parse(text);
  const instructions = dockerfile.getInstructions().map((instruction) => ({
    keyword: instruction.getKeyword(),
    args: instruction.getArguments().map((argument) => argument.getValue()),
  }));
  const only = (keyword: string) => {
    const found = instructions.filter((instruction) => instruction.keyword === keyword);
    expect(found, keyword).toHaveLength(1);
    return (found[0] as { args: string[] }).args;
  };

  it('lints clean', () => {
    expect(
      lintDockerfile(text).map((problem) => `${problem.range.start.line + 1}: ${JSON.stringify(problem.message)}`),
    ).toEqual([]);
  });

  it('holds only the executable and the context scripts/image.ts assembles, nothing pulled, run by a non-root user as `serve`', () => {
    expect(instructions.map((instruction) => instruction.keyword)).toEqual([
      'FROM',
      'ARG',
      'ARG',
      'ARG',
      'ARG',
      'COPY',
      'COPY',
      'COPY',
      'LABEL',
      'ENV',
      'VOLUME',
      'USER',
      'EXPOSE',
      'ENTRYPOINT',
      'CMD',
    ]);
    // No base image: the libraries come from pinned Debian packages (examples/receiver/container/debian-packages.txt).
    expect(only('FROM')).toEqual(['scratch']);
    expect(dockerfile.getCOPYs().map((copy) => copy.getArguments().map((argument) => argument.getValue()))).toEqual([
      ['${TARGETARCH}/rootfs/', '/'],
      ['${TARGETARCH}/state/', '/var/lib/report-deployment/'],
      ['${TARGETARCH}/report-deployment', '/usr/local/bin/report-deployment'],
    ]);
    expect(
      dockerfile.getCOPYs().map((copy) => copy.getFlags().map((flag) => `${flag.getName()}=${flag.getValue()}`)),
    ).toEqual([[], ['chown=65532:65532'], ['chmod=0555']]);
    const [user, group] = (only('USER')[0] ?? '').split(':').map(Number);
    expect(user).toBeGreaterThan(0);
    expect(group).toBeGreaterThan(0);
    // The store's default place is the volume ($STATE_DIRECTORY/receiver.sqlite).
    expect(only('ENV')).toEqual(['STATE_DIRECTORY=/var/lib/report-deployment']);
    expect(only('VOLUME')).toEqual(['/var/lib/report-deployment']);
    // Exec form: the executable is PID 1 and hears SIGTERM itself (a shell form would need a shell).
    const entrypoint = dockerfile.getInstructions().find((instruction) => instruction.getKeyword() === 'ENTRYPOINT');
    expect(JSON.parse(entrypoint?.getArgumentsContent() ?? '')).toEqual(['/usr/local/bin/report-deployment']);
    expect(JSON.parse(dockerfile.getCMDs()[0]?.getArgumentsContent() ?? '')).toEqual([
      'serve',
      '--listen',
      '0.0.0.0:8080',
    ]);
    expect(only('EXPOSE')).toEqual([String(container(single).ports?.[0]?.containerPort)]);
  });

  it('runs as the user the Kubernetes examples ask for', () => {
    const [user, group] = (only('USER')[0] ?? '').split(':').map(Number);
    expect(single.spec?.template.spec?.securityContext).toMatchObject({ runAsUser: user, runAsGroup: group });
  });
});
