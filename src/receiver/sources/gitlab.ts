// GitLab deployment events (project or group webhooks, "Deployment events"), `POST /webhooks/gitlab`.
// Authenticated by the secret token GitLab sends as typed (`X-Gitlab-Token`), or by a signed webhook
// (the Standard Webhooks scheme), or both: see verifyGitLab.
import type { DeploymentStatus } from '../../core/constants.js';
import type { DeploymentEvent, IncomingRequest, Parsed } from '../event.js';
import type { Source, Verified } from '../source.js';
import { at, bounded, clean, firstOf, header, instanceOf, optional, parseJson, text, wholeNumber } from './fields.js';
import { checkGitLabHeaders, gitLabSecrets, verifyGitLab, type GitLabSecrets } from './gitlab-auth.js';
import { gitlabTime } from './times.js';
import { derivedId } from './verify.js';

/**
 * GitLab's deployment statuses that record something; `blocked`, `approved`, `rejected` and others
 * record nothing. A Map, not an object: a status named `__proto__` or `constructor` finds nothing.
 */
const STATUSES = new Map<string, DeploymentStatus>([
  ['running', 'STARTED'],
  ['success', 'SUCCEEDED'],
  ['failed', 'FAILED'],
  ['canceled', 'FAILED'],
]);

export const gitlab: Source<GitLabSecrets> = {
  name: 'gitlab',
  secretVariables: ['GITLAB_WEBHOOK_TOKEN', 'GITLAB_WEBHOOK_SIGNING_TOKEN'],
  mappingKey: {
    pattern: /^(?:\d{1,15}|[\w.][\w.-]*(?:\/[\w.][\w.-]*)+)$/,
    form: "the project's path with its namespace (group/project, group/subgroup/project) or its numeric id",
  },
  secrets: gitLabSecrets,
  checkHeaders: checkGitLabHeaders,
  verify: verifyGitLab,
  parse: parseGitLab,
  // GitLab disables a hook for good after a 4xx: an authentic event the receiver cannot use is
  // answered 200 with its reason, and nothing is stored.
  invalidStatus: 200,
};

export function parseGitLab(request: IncomingRequest, verified?: Verified): Parsed {
  const payload = parseJson(request.body);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { verdict: 'invalid', reason: 'the body is not a JSON object' };
  }
  const kind = text(payload, 'object_kind');
  if (kind !== 'deployment') {
    const deliveryId = senderId(request, verified) ?? derivedId('gitlab', request.body.toString('base64'));
    return { verdict: 'ignored', deliveryId, reason: `object_kind ${JSON.stringify(kind)} is not a deployment` };
  }
  const projectId = wholeNumber(at(payload, ['project', 'id']));
  const deploymentId = wholeNumber(at(payload, ['deployment_id']));
  if (projectId === undefined || deploymentId === undefined) {
    return { verdict: 'invalid', reason: 'project.id and deployment_id must be positive whole numbers' };
  }
  const instance = gitLabInstance(request, payload);
  if (instance === undefined) {
    return { verdict: 'invalid', reason: 'neither X-Gitlab-Instance nor project.web_url names the GitLab instance' };
  }
  // The instance first: two GitLab instances count their projects and deployments apart.
  const key = `gitlab:${instance}:${projectId}:${deploymentId}`;
  const state = text(payload, 'status');
  const changedAt = text(payload, 'status_changed_at');
  // GitLab 17.4 and later: Idempotency-Key (and webhook-id, equal to it) stays the same across
  // retries and resends. Older GitLab sends neither: the deployment, its status and when it changed
  // make the delivery one. Not X-Gitlab-Event-UUID: GitLab gives every webhook fired by one request
  // the same value, so two events of one request would be taken for one.
  const deliveryId = senderId(request, verified) ?? derivedId(key, state, changedAt);
  const status = STATUSES.get(state);
  if (!status) return { verdict: 'ignored', deliveryId, reason: `status ${JSON.stringify(state)} records nothing` };
  const commitSha = fullSha(payload);
  if (!commitSha) {
    return { verdict: 'invalid', reason: 'neither commit_url nor short_sha names the commit' };
  }
  const path = text(payload, 'project', 'path_with_namespace');
  const event: DeploymentEvent = {
    key,
    status,
    object: firstOf(path, String(projectId)),
    fields: {
      artifactName: firstOf(text(payload, 'project', 'name'), path.split('/').at(-1) ?? '', String(projectId)),
      version: commitSha,
      environment: firstOf(text(payload, 'environment'), 'Production'),
      commitSha,
      user: firstOf(text(payload, 'user', 'username'), text(payload, 'user', 'name'), 'GitLab'),
      // GitLab's deployment event names no branch or tag: the commit is recorded as the branch, as
      // for any deployment that names none (docs/receiver.md says why not the default branch).
      branch: commitSha,
      description: clean(`GitLab deployment ${deploymentId}: ${text(payload, 'commit_title')}`.replace(/: $/, '')),
      ...optional('link', text(payload, 'deployable_url')),
    },
  };
  return { verdict: 'accepted', deliveryId, events: [bounded(event)], sentAt: gitlabTime(changedAt) };
}

/**
 * The delivery's own id, as GitLab sends it: the signed webhook-id where a signature proved the
 * request (a replay within the signature's 5 minutes cannot pass for a new delivery by changing
 * the unsigned Idempotency-Key); else Idempotency-Key, else webhook-id.
 */
function senderId(request: IncomingRequest, verified: Verified | undefined): string | undefined {
  const given =
    verified?.signedId !== undefined
      ? [verified.signedId]
      : ['idempotency-key', 'webhook-id'].map((name) => header(request.headers, name));
  return given.find((value) => value !== undefined && /^[\x21-\x7e]{1,200}$/.test(value));
}

/**
 * The GitLab instance that sent the event: X-Gitlab-Instance (its URL, GitLab 15.5 and later), else
 * what project.web_url holds before the project's path (the same URL, on an older GitLab).
 */
function gitLabInstance(request: IncomingRequest, payload: unknown): string | undefined {
  const given = request.headers['x-gitlab-instance'];
  if (given !== undefined) return typeof given === 'string' ? instanceOf(given) : undefined;
  const webUrl = text(payload, 'project', 'web_url');
  const path = text(payload, 'project', 'path_with_namespace');
  const base = path && webUrl.endsWith(`/${path}`) ? webUrl.slice(0, -path.length - 1) : '';
  return base ? instanceOf(base) : undefined;
}

/** The full SHA at the end of commit_url (SHA-1 or SHA-256), else the short one GitLab gives. */
function fullSha(payload: unknown): string {
  const short = text(payload, 'short_sha').toLowerCase();
  const last = /\/commit\/([0-9a-f]{40}|[0-9a-f]{64})\/?$/i.exec(text(payload, 'commit_url'))?.[1]?.toLowerCase();
  if (last && last.startsWith(short)) return last;
  return /^[0-9a-f]{7,64}$/.test(short) ? short : '';
}
