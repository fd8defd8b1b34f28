// Flux notification-controller events, `POST /webhooks/flux`, from a Provider of type `generic-hmac`:
// `X-Signature: sha256=<hex HMAC-SHA256 of the body>` with the Provider's secret `token`.
import type { DeploymentStatus } from '../../core/constants.js';
import type { DeploymentEvent, IncomingRequest, Parsed } from '../event.js';
import type { RequestHead, Source, Verification } from '../source.js';
import { readSecret } from './secret.js';
import { at, bounded, clean, firstOf, header, kubernetesUid, parseJson, text } from './fields.js';
import { revisionFacts } from './flux-revision.js';
import { rfc3339 } from './times.js';
import { derivedId, hmacSha256 } from './verify.js';
import { timingSafeEqual } from 'node:crypto';

/** The objects whose events are deployments. */
const KINDS = new Set(['Kustomization', 'HelmRelease']);

/** Reasons that end a deployment well. A rollback deploys a revision too (the one it returns to). */
const SUCCEEDED = new Set(['ReconciliationSucceeded', 'InstallSucceeded', 'UpgradeSucceeded', 'RollbackSucceeded']);

/**
 * helm-controller's reasons for a Helm action it took: sent once per install, upgrade or rollback,
 * never repeated at the next interval, so each is a deployment whatever the object's baseline.
 */
const HELM_ACTIONS = /^(Install|Upgrade|Rollback)(Succeeded|Failed)$/;

/** helm-controller's reasons for its Helm actions and tests: each is about one Helm release. */
const HELM_RELEASE_EVENTS = /^(Install|Upgrade|Rollback|Uninstall|Test)(Succeeded|Failed)$/;

/**
 * The Helm release version in helm-controller's messages (`… for release podinfo/podinfo.v7 with
 * chart podinfo@6.7.1`; a rollback's names the release it returns to). Its install and upgrade
 * failures name none (`release <namespace>/<name> with chart …`).
 */
const HELM_RELEASE = /\brelease [^\s/]+\/\S+\.v(\d{1,9}) with chart\b/;

/**
 * The event metadata keys (an Alert's `eventMetadata`) that tell one cluster's object from another
 * of the same name: with the uid, the object's identity, and its labels for the mapping file.
 */
const LABELS = ['cluster', 'env', 'environment'] as const;

/** The event metadata keys (an Alert's `eventMetadata`) that name the environment and the artifact. */
const FLUX_METADATA = { environment: ['env', 'environment'], artifact: ['artifact'] } as const;

/** Older controllers prefix their metadata keys with their API group; newer ones send them bare. */
const GROUPS = ['kustomize.toolkit.fluxcd.io', 'helm.toolkit.fluxcd.io'];

export const flux: Source<Buffer> = {
  name: 'flux',
  secretVariables: ['FLUX_WEBHOOK_KEY'],
  mappingKey: {
    pattern: new RegExp(
      `^(?:${[...KINDS].join('|')})/[a-z0-9](?:[-a-z0-9]*[a-z0-9])?/[a-z0-9](?:[-.a-z0-9]*[a-z0-9])?$`,
    ),
    form: 'Kind/namespace/name, Kind Kustomization or HelmRelease (Kustomization/flux-system/apps)',
    labels: ['uid', 'cluster', 'env', 'environment'],
  },
  secrets: (env) => readSecret(env, 'FLUX_WEBHOOK_KEY'),
  checkHeaders: checkFluxHeaders,
  verify: verifyFlux,
  parse: parseFlux,
};

/** The signature's hex digits, or why the header is no signature (missing, or not `sha256=<64 hex digits>`). */
function signatureOf(request: RequestHead): { hex: string; reason?: never } | { hex?: never; reason: string } {
  const value = header(request.headers, 'x-signature');
  if (value === undefined) return { reason: 'no X-Signature header' };
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(value)?.[1];
  return hex === undefined ? { reason: 'X-Signature is not sha256=<64 hex digits>' } : { hex };
}

function checkFluxHeaders(request: RequestHead): Verification {
  const signature = signatureOf(request);
  return signature.reason === undefined ? { ok: true } : { ok: false, reason: signature.reason };
}

function verifyFlux(request: IncomingRequest, key: Buffer): Verification {
  const signature = signatureOf(request);
  if (signature.reason !== undefined) return { ok: false, reason: signature.reason };
  const expected = hmacSha256(key, request.body);
  return timingSafeEqual(Buffer.from(signature.hex, 'hex'), expected)
    ? { ok: true }
    : { ok: false, reason: 'X-Signature does not match FLUX_WEBHOOK_KEY' };
}

function parseFlux(request: IncomingRequest): Parsed {
  const body = parseJson(request.body);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { verdict: 'invalid', reason: 'the body is not a JSON object' };
  }
  const kind = text(body, 'involvedObject', 'kind');
  const uid = kubernetesUid(text(body, 'involvedObject', 'uid'));
  const name = text(body, 'involvedObject', 'name');
  if (!uid || !name || !kind) {
    return { verdict: 'invalid', reason: 'involvedObject.kind, .name and .uid (a Kubernetes uid) are required' };
  }
  const reason = text(body, 'reason');
  const revision = clean(metadata(body, 'revision'), 300);
  const key = [`flux:${uid}:${revision}`, ...helmAction(body, reason)].join(':');
  const status = statusOf(reason);
  // Flux sends no delivery id, and repeats ReconciliationSucceeded after every reconcile: the object,
  // its revision, the status and the reason make the delivery one, so a repeat (or a retry) is a
  // duplicate and stores nothing. Not the timestamp: it differs on every repeat.
  const deliveryId = derivedId(key, status ?? '', reason);
  if (!KINDS.has(kind)) return { verdict: 'ignored', deliveryId, reason: `${kind} events are not deployments` };
  if (!status) return { verdict: 'ignored', deliveryId, reason: `reason ${JSON.stringify(reason)} records nothing` };
  if (!revision) return { verdict: 'ignored', deliveryId, reason: 'the event names no revision' };
  // The object's own order, and the delivery's age (retention.ts).
  const at = rfc3339(text(body, 'timestamp'));
  if (at === undefined) {
    return { verdict: 'invalid', reason: 'timestamp (RFC 3339, as notification-controller sends it) is required' };
  }
  const namespace = text(body, 'involvedObject', 'namespace');
  const object = [kind, namespace, name].filter(Boolean).join('/');
  const labels = labelsOf(body, uid);
  const facts = revisionFacts(revision, metadata(body, 'originRevision'));
  const event: DeploymentEvent = {
    key,
    status,
    object,
    labels,
    fields: {
      artifactName: firstOf(...FLUX_METADATA.artifact.map((k) => metadata(body, k)), name),
      version: facts.version,
      environment: firstOf(...FLUX_METADATA.environment.map((k) => metadata(body, k)), 'Production'),
      commitSha: facts.commitSha,
      user: 'Flux',
      branch: facts.branch,
      description: clean(`Flux ${object} ${reason}: ${text(body, 'message')}`),
    },
    baseline: { object: identity(object, labels), revision, at, repeats: !HELM_ACTIONS.test(reason) },
  };
  return { verdict: 'accepted', deliveryId, events: [bounded(event)], sentAt: at };
}

/**
 * The uid, and each of LABELS the event's metadata holds. Each at most 150 characters: with a
 * Kubernetes name and namespace, the identity stays within a field's length, its uid whole.
 */
function labelsOf(body: unknown, uid: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const name of LABELS) {
    const value = clean(metadata(body, name), 150);
    if (value) labels[name] = value;
  }
  return { ...labels, uid };
}

/**
 * One object among several of its name: `Kustomization/flux-system/apps@cluster=prod-eu@env=Production@uid=<uid>`.
 * The uid comes last and always: no label's value can make two objects' identities one.
 */
function identity(object: string, labels: Record<string, string>): string {
  return [object, ...[...LABELS, 'uid'].flatMap((name) => (labels[name] ? [`${name}=${labels[name]}`] : []))].join('@');
}

/**
 * What tells one Helm action from another at the same chart version (a values-only upgrade, a retry
 * after a failure): the Helm release version its message names, else the digest of its values that
 * notification-controller forwarded before v1.2.3 (`token`). Nothing for other reasons, or where the
 * event carries neither (an install or upgrade failure, from a recent notification-controller).
 */
function helmAction(body: unknown, reason: string): string[] {
  if (!HELM_RELEASE_EVENTS.test(reason)) return [];
  // Their message names the release as `<namespace>/<name>`, and a name may end in `.v2`.
  const names = !/^(Install|Upgrade)Failed$/.test(reason);
  const release = names ? HELM_RELEASE.exec(text(body, 'message'))?.[1] : undefined;
  if (release) return [reason.startsWith('Rollback') ? `rollback-to-v${release}` : `v${release}`];
  const token = clean(metadata(body, 'token'), 100);
  return token ? [token] : [];
}

/** `Progressing` is a change set being applied; `*Failed` any failure; the successes above. */
function statusOf(reason: string): DeploymentStatus | undefined {
  if (reason === 'Progressing') return 'STARTED';
  if (SUCCEEDED.has(reason)) return 'SUCCEEDED';
  if (/^[A-Za-z]+Failed$/.test(reason)) return 'FAILED';
  return undefined;
}

/** A metadata value, by its bare key or with a controller's group prefix. */
function metadata(body: unknown, key: string): string {
  const values = at(body, ['metadata']);
  return firstOf(text(values, key), ...GROUPS.map((group) => text(values, `${group}/${key}`)));
}
