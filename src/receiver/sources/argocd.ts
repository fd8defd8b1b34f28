// Argo CD notifications, `POST /webhooks/argocd`: the body is what the template this project ships
// renders (examples/receiver/argocd-notifications-cm.yaml), one template per catalog trigger. Argo
// CD cannot sign a request: it sends the token from its notifications secret as a bearer token.
import type { DeploymentStatus } from '../../core/constants.js';
import type { DeploymentEvent, IncomingRequest, Parsed } from '../event.js';
import type { RequestHead, Source, Verification } from '../source.js';
import { readSecret } from './secret.js';
import { at, bounded, clean, firstOf, header, kubernetesUid, optional, parseJson, text } from './fields.js';
import { rfc3339 } from './times.js';
import { derivedId, sameSecret } from './verify.js';

export const argocd: Source<Buffer> = {
  name: 'argocd',
  secretVariables: ['ARGOCD_WEBHOOK_TOKEN'],
  mappingKey: {
    pattern: /^(?:[a-z0-9](?:[-a-z0-9]*[a-z0-9])?\/)?[a-z0-9](?:[-.a-z0-9]*[a-z0-9])?$/,
    form: "the application's namespace/name (argocd/guestbook), or its name",
  },
  secrets: (env) => readSecret(env, 'ARGOCD_WEBHOOK_TOKEN'),
  checkHeaders: verifyArgoCd,
  verify: verifyArgoCd,
  parse: parseArgoCd,
};

/** The whole check is in the headers: a bearer token, its scheme in any case (RFC 7235), compared as the bytes sent. */
function verifyArgoCd(request: RequestHead, token: Buffer): Verification {
  const value = header(request.headers, 'authorization');
  if (value === undefined) return { ok: false, reason: 'no Authorization header' };
  const given = /^bearer +(\S.*)$/i.exec(value)?.[1];
  if (given === undefined) return { ok: false, reason: 'Authorization is not Bearer <token>' };
  // Node reads header values as Latin-1: back to the bytes the client sent, so a UTF-8 token matches.
  return sameSecret(Buffer.from(given, 'latin1'), token)
    ? { ok: true }
    : { ok: false, reason: 'the bearer token does not match ARGOCD_WEBHOOK_TOKEN' };
}

function parseArgoCd(request: IncomingRequest): Parsed {
  const body = parseJson(request.body);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { verdict: 'invalid', reason: 'the body is not a JSON object' };
  }
  const uid = kubernetesUid(text(body, 'app', 'uid'));
  const name = text(body, 'app', 'name');
  if (!uid || !name) return { verdict: 'invalid', reason: 'app.uid (a Kubernetes uid) and app.name are required' };
  const trigger = text(body, 'trigger');
  const startedAt = text(body, 'operation', 'startedAt');
  const decided = decide(trigger, text(body, 'operation', 'phase'), text(body, 'health'));
  // Argo CD sends no delivery id, and its retries send the same body: the operation, the status
  // and the trigger make the delivery one (a PreSync hook's second on-sync-running is a duplicate).
  const deliveryId = derivedId('argocd', uid, startedAt, decided.status ?? decided.reason, trigger);
  if (!decided.status) return { verdict: 'ignored', deliveryId, reason: decided.reason };
  const made = syncEvent(body, decided.status);
  if ('reason' in made) return { verdict: 'invalid', reason: made.reason };
  // When the sync ended (or started): a degraded application's notification may come long after
  // its sync, and carries no time of its own.
  const sentAt =
    trigger === 'on-health-degraded' ? undefined : rfc3339(firstOf(text(body, 'operation', 'finishedAt'), startedAt));
  return { verdict: 'accepted', deliveryId, events: [made.event], sentAt };
}

/**
 * The deployment event of one sync, from a body in the shape the shipped template renders: the
 * webhook's, and catch-up's (catch-up/argocd-events.ts), which renders Argo CD's own record of a
 * sync into that shape so that both give the same key and fields.
 */
export function syncEvent(body: unknown, status: DeploymentStatus): { event: DeploymentEvent } | { reason: string } {
  const uid = kubernetesUid(text(body, 'app', 'uid'));
  const name = text(body, 'app', 'name');
  if (!uid || !name) return { reason: 'app.uid (a Kubernetes uid) and app.name are required' };
  const startedAt = text(body, 'operation', 'startedAt');
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/.test(startedAt)) {
    return { reason: 'operation.startedAt (RFC 3339, UTC) is required to tie a sync to its end' };
  }
  // What the operation synced, else (while it runs) what it syncs, else what the application is synced to.
  const revision = firstOf(
    text(body, 'operation', 'revision'),
    firstRevision(body),
    text(body, 'operation', 'syncingRevision'),
    text(body, 'syncRevision'),
  );
  if (!revision) return { reason: 'the body names no revision' };
  const namespace = text(body, 'app', 'namespace');
  const object = namespace ? `${namespace}/${name}` : name;
  const trigger = text(body, 'trigger');
  const argocdUrl = text(body, 'argocdUrl').replace(/\/+$/, '');
  const event: DeploymentEvent = {
    key: `argocd:${uid}:${startedAt}`,
    status,
    object,
    fields: {
      artifactName: firstOf(text(body, 'app', 'artifact'), name),
      version: revision,
      environment: firstOf(text(body, 'app', 'environment'), 'Production'),
      commitSha: revision,
      user: firstOf(text(body, 'operation', 'initiatedBy', 'username'), 'Argo CD'),
      branch: branchOf(text(body, 'app', 'targetRevision'), revision),
      description: clean(
        `Argo CD sync of ${object} (project ${firstOf(text(body, 'app', 'project'), 'default')}), ${trigger || 'no trigger named'}`,
      ),
      ...optional('changelog', text(body, 'app', 'repoURL')),
      ...optional('link', /^https?:\/\//.test(argocdUrl) ? `${argocdUrl}/applications/${object}?operation=true` : ''),
    },
  };
  return { event: bounded(event) };
}

type Decision = { status: DeploymentStatus; reason?: never } | { status?: never; reason: string };

/**
 * A running sync starts; a sync that succeeded ends only once the application is healthy
 * (`on-deployed`): one that succeeded and never becomes healthy stays STARTED. A failed sync, or a
 * degraded application, fails.
 */
function decide(trigger: string, phase: string, health: string): Decision {
  if (trigger === 'on-health-degraded') {
    return health === 'Degraded'
      ? { status: 'FAILED' }
      : { reason: `health ${JSON.stringify(health)} is not Degraded` };
  }
  if (phase === 'Running') return { status: 'STARTED' };
  if (phase === 'Failed' || phase === 'Error') return { status: 'FAILED' };
  if (phase === 'Succeeded') {
    return health === 'Healthy'
      ? { status: 'SUCCEEDED' }
      : { reason: 'the sync succeeded but the application is not healthy yet: on-deployed ends it' };
  }
  return { reason: `operation phase ${JSON.stringify(phase)} records nothing` };
}

/** A multi-source application's first revision (the template sends syncResult.revisions). */
function firstRevision(body: unknown): string {
  const revisions = at(body, ['operation', 'revisions']);
  return Array.isArray(revisions) ? text({ first: revisions[0] as unknown }, 'first') : '';
}

/**
 * The branch: the application's targetRevision when it names one. `HEAD` (the repository's default
 * branch, unnamed), a commit SHA, a Helm version range or none at all name no branch: the deployed
 * revision is recorded as the branch, as for any deployment that names none.
 */
function branchOf(targetRevision: string, revision: string): string {
  const named = targetRevision.replace(/^refs\/(heads|tags)\//, '');
  if (!named || named === 'HEAD' || /^[0-9a-f]{7,64}$/i.test(named) || /[*^~<>=|\s]/.test(named)) return revision;
  return named;
}
