// The receiver's Kubernetes examples (examples/receiver/kubernetes/) checked against the Kubernetes
// API's own schemas (kubernetes-models), then for what a platform team relies on: two replicas that
// stop gracefully, probes on the receiver's own routes, a non-root read-only container running the
// image's executable, a Service and a budget that reach its pods, and the Secret holding every
// variable the receiver reads. The schemas accept unknown fields (the API's are open), so each field
// the examples rely on is pinned here. The image's Dockerfile is parsed and linted for its own rules.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Namespace, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const DIR = join(import.meta.dirname, '..', 'examples', 'receiver', 'kubernetes');
const DOCKERFILE = join(import.meta.dirname, '..', 'examples', 'receiver', 'container', 'Dockerfile');
/** How long `serve` takes at most to stop on SIGTERM (issue: "exit 0 within 10 s"). */
const RECEIVER_STOP_SECONDS = 10;

const MODELS = {
  'apps/v1 Deployment': Deployment,
  'v1 Namespace': Namespace,
  'v1 PersistentVolumeClaim': PersistentVolumeClaim,
  'v1 Secret': Secret,
  'v1 Service': Service,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
} as const;

type Manifest = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } } & Record<
  string,
  unknown
>;

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
const one = <T>(file: string, kind: string) => {
  const found = (all.get(file) ?? []).filter((manifest) => manifest.kind === kind);
  expect(found, `${file}: one ${kind}`).toHaveLength(1);
  return found[0] as unknown as T;
};

const replicated = one<Deployment>('deployment.yaml', 'Deployment');
const single = one<Deployment>('single-replica/deployment.yaml', 'Deployment');
const service = one<Service>('service.yaml', 'Service');
const secret = one<Secret>('secret.yaml', 'Secret');
const budget = one<PodDisruptionBudget>('pod-disruption-budget.yaml', 'PodDisruptionBudget');
const claim = one<PersistentVolumeClaim>('single-replica/persistent-volume-claim.yaml', 'PersistentVolumeClaim');

const container = (deployment: Deployment) => {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  expect(containers).toHaveLength(1);
  return containers[0] as NonNullable<(typeof containers)[0]>;
};
/** The value after `flag` in the container's arguments. */
const argument = (deployment: Deployment, flag: string) => {
  const args = container(deployment).args ?? [];
  return args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined;
};

describe('the receiver’s Kubernetes examples', () => {
  it('are each valid against the Kubernetes API’s schema, in the namespace the examples make', () => {
    expect([...all.keys()]).toEqual([
      'deployment.yaml',
      'namespace.yaml',
      'pod-disruption-budget.yaml',
      'secret.yaml',
      'service.yaml',
      'single-replica/deployment.yaml',
      'single-replica/persistent-volume-claim.yaml',
    ]);
    const namespace = one<Namespace>('namespace.yaml', 'Namespace').metadata?.name;
    for (const [file, documents] of all) {
      for (const manifest of documents) {
        const Model = MODELS[`${manifest.apiVersion} ${manifest.kind}` as keyof typeof MODELS];
        expect(Model, `${file}: ${manifest.apiVersion} ${manifest.kind} has a model`).toBeDefined();
        expect(() => new Model(manifest as never).validate(), file).not.toThrow();
        if (manifest.kind !== 'Namespace') expect(manifest.metadata.namespace, file).toBe(namespace);
      }
    }
  });

  it('rejects what the API would: the schemas do check', () => {
    const broken = structuredClone(replicated) as unknown as { spec: { replicas: unknown } };
    broken.spec.replicas = 'two';
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas/);
  });

  it.each([
    ['deployment.yaml', replicated],
    ['single-replica/deployment.yaml', single],
  ] as const)('%s: probes, a graceful stop, resources, a non-root read-only container', (_file, deployment) => {
    const pod = deployment.spec?.template.spec;
    const receiver = container(deployment);
    const port = receiver.ports?.find((candidate) => candidate.name === 'http')?.containerPort;
    expect(argument(deployment, '--listen')).toBe(`0.0.0.0:${port}`);
    expect(receiver.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(receiver.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    // The pod's grace outlasts whatever runs before SIGTERM plus the receiver's own stop.
    const preStop = receiver.lifecycle?.preStop?.sleep?.seconds ?? 0;
    expect(pod?.terminationGracePeriodSeconds).toBeGreaterThan(preStop + RECEIVER_STOP_SECONDS);
    expect(typeof receiver.resources?.requests?.cpu).toBe('string');
    expect(typeof receiver.resources?.requests?.memory).toBe('string');
    expect(typeof receiver.resources?.limits?.memory).toBe('string');
    // The image's entrypoint (the executable, `serve`) runs: no command of the manifest's own.
    expect(receiver.command).toBeUndefined();
    expect(receiver.image).toMatch(/\/report-deployment-receiver:/);
    expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod?.securityContext?.runAsUser).not.toBe(0);
    expect(pod?.automountServiceAccountToken).toBe(false);
    expect(receiver.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      privileged: false,
      capabilities: { drop: ['ALL'] },
    });
    // Its variables come from the Secret.
    expect(receiver.envFrom).toEqual([{ secretRef: { name: secret.metadata?.name } }]);
    expect(deployment.spec?.selector.matchLabels).toEqual(deployment.spec?.template.metadata?.labels);
  });

  it('runs two replicas on PostgreSQL, updated one at a time and drained one at a time', () => {
    expect(replicated.spec?.replicas).toBe(2);
    expect(replicated.spec?.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 0, maxSurge: 1 },
    });
    // No --store: the store is DATABASE_URL, from the Secret.
    expect(argument(replicated, '--store')).toBeUndefined();
    expect(Object.keys(secret.stringData ?? {})).toContain('DATABASE_URL');
    expect(String(secret.stringData?.DATABASE_URL)).toMatch(/^postgres:\/\/[^?]+\?sslmode=verify-full$/);
    expect(budget.spec?.minAvailable).toBe(1);
    expect(budget.spec?.selector?.matchLabels).toEqual(replicated.spec?.template.metadata?.labels);
  });

  it('the single-replica variant keeps its SQLite file on its own volume, never two pods on it', () => {
    expect(single.spec?.replicas).toBe(1);
    expect(single.spec?.strategy).toEqual({ type: 'Recreate' });
    const pod = single.spec?.template.spec;
    const volume = pod?.volumes?.find((candidate) => candidate.persistentVolumeClaim);
    expect(volume?.persistentVolumeClaim?.claimName).toBe(claim.metadata?.name);
    expect(claim.spec?.accessModes).toEqual(['ReadWriteOnce']);
    const mount = container(single).volumeMounts?.find((candidate) => candidate.name === volume?.name);
    expect(argument(single, '--store')).toBe(`${mount?.mountPath}/receiver.sqlite`);
    // The volume is writable by the receiver's group, the root file system read-only.
    expect(pod?.securityContext?.fsGroup).toBe(pod?.securityContext?.runAsGroup);
  });

  it('the Service reaches the pods’ http port', () => {
    expect(service.spec?.selector).toEqual(replicated.spec?.template.metadata?.labels);
    expect(service.spec?.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
  });

  it('the Secret holds the service key and each source’s secret, placeholders only', () => {
    expect(Object.keys(secret.stringData ?? {}).sort()).toEqual(
      [
        'ARGOCD_WEBHOOK_TOKEN',
        'DATABASE_URL',
        'DEPLOY_TRACKER_API_KEY',
        'FLUX_WEBHOOK_KEY',
        'GITHUB_WEBHOOK_SECRET',
        'GITLAB_WEBHOOK_TOKEN',
      ].sort(),
    );
    for (const [name, value] of Object.entries(secret.stringData ?? {})) expect(value, name).toMatch(/replace-with-/);
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
    for (const deployment of [replicated, single]) {
      expect(deployment.spec?.template.spec?.securityContext).toMatchObject({ runAsUser: user, runAsGroup: group });
    }
  });
});
