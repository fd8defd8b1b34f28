// GitHub webhooks, `POST /webhooks/github` (an organization's, a repository's or an App's):
// `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>` with GITHUB_WEBHOOK_SECRET.
// `deployment_status` events record; the fields are the action's own `deployment_status` mapping
// (src/ci/github.ts), so both faces say the same of one GitHub deployment.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { githubDefaults, deploymentFacts } from '../../ci/github.js';
import { DefaultEnvironment, type DeploymentStatus } from '../../core/constants.js';
import { isObject } from '../../core/json.js';
import type { EventFields, IncomingRequest, Parsed } from '../event.js';
import type { RequestHead, Source, Verification } from '../source.js';
import { readSecret } from './secret.js';
import { bounded, clean, instanceOf, optional } from './fields.js';
import { bodyDigest } from './verify.js';
import { rfc3339 } from './times.js';

// A Map, not an object: a state named `__proto__` or `constructor` must find nothing.
const STATES = new Map<string, DeploymentStatus>([
  ['queued', 'STARTED'],
  ['in_progress', 'STARTED'],
  ['success', 'SUCCEEDED'],
  ['failure', 'FAILED'],
  ['error', 'FAILED'],
]);

export const github: Source<Buffer> = {
  name: 'github',
  secretVariables: ['GITHUB_WEBHOOK_SECRET'],
  mappingKey: { pattern: /^[A-Za-z0-9._-]{1,100}$/, form: "the repository's name, without its owner (shop-web)" },
  secrets: (env) => readSecret(env, 'GITHUB_WEBHOOK_SECRET'),
  checkHeaders: checkGithubHeaders,
  verify: verifyGithub,
  parse: parseGithub,
};

function header(request: RequestHead, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The signature's hex digits, or why the header is no signature (missing, or not `sha256=<64 hex digits>`). */
function signatureOf(request: RequestHead): { hex: string; reason?: never } | { hex?: never; reason: string } {
  const value = header(request, 'x-hub-signature-256');
  if (value === undefined) return { reason: 'no X-Hub-Signature-256 header' };
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(value)?.[1];
  return hex === undefined ? { reason: 'X-Hub-Signature-256 is not sha256=<64 hex digits>' } : { hex };
}

function checkGithubHeaders(request: RequestHead): Verification {
  const signature = signatureOf(request);
  return signature.reason === undefined ? { ok: true } : { ok: false, reason: signature.reason };
}

export function verifyGithub(request: IncomingRequest, secret: Buffer): Verification {
  const signature = signatureOf(request);
  if (signature.reason !== undefined) return { ok: false, reason: signature.reason };
  const expected = createHmac('sha256', secret).update(request.body).digest();
  // Both 32 bytes: the comparison takes the same time whatever it finds.
  return timingSafeEqual(Buffer.from(signature.hex, 'hex'), expected)
    ? { ok: true }
    : { ok: false, reason: 'X-Hub-Signature-256 does not match GITHUB_WEBHOOK_SECRET' };
}

export function parseGithub(request: IncomingRequest): Parsed {
  const deliveryId = header(request, 'x-github-delivery')?.trim() ?? '';
  if (!/^[\w.-]{1,100}$/.test(deliveryId)) {
    return { verdict: 'invalid', reason: 'X-GitHub-Delivery is missing or is no delivery id' };
  }
  const event = header(request, 'x-github-event') ?? '';
  if (event === 'ping') return { verdict: 'ignored', deliveryId, reason: 'a ping (the webhook was created)' };
  if (event !== 'deployment_status') {
    return { verdict: 'ignored', deliveryId, reason: `${safe(event) || 'an unnamed'} event records nothing` };
  }
  // GitHub Enterprise Server names itself; github.com sends no such header.
  const host = request.headers['x-github-enterprise-host'];
  const instance = host === undefined ? 'github.com' : typeof host === 'string' ? instanceOf(host) : undefined;
  if (instance === undefined) return { verdict: 'invalid', reason: 'X-GitHub-Enterprise-Host is no host name' };
  const payload = json(request.body);
  if (payload === undefined)
    return { verdict: 'invalid', reason: "the body is not JSON (set the webhook's content type to application/json)" };
  const parsed = deploymentStatus(payload, deliveryId, instance);
  // The signed body is the delivery too: sent again under a fresh X-GitHub-Delivery, it is a duplicate.
  return parsed.verdict === 'accepted' ? { ...parsed, digestId: bodyDigest(request.body) } : parsed;
}

function deploymentStatus(payload: unknown, deliveryId: string, instance: string): Parsed {
  const facts = deploymentFacts(payload);
  const repository = isObject(payload) ? payload.repository : undefined;
  const repositoryId = isObject(repository) ? repository.id : undefined;
  const repositoryName = isObject(repository) && typeof repository.name === 'string' ? clean(repository.name) : '';
  if (
    !facts ||
    !facts.id ||
    !Number.isSafeInteger(repositoryId) ||
    (repositoryId as number) <= 0 ||
    repositoryName === ''
  ) {
    return {
      verdict: 'invalid',
      reason: 'a deployment_status event needs deployment.id, repository.id and repository.name',
    };
  }
  const status = STATES.get(facts.state);
  if (!status) {
    return { verdict: 'ignored', deliveryId, reason: `the state ${safe(facts.state) || '(none)'} records nothing` };
  }
  const defaults = githubDefaults({ eventName: 'deployment_status', payload, env: {} }).values;
  // Each value cleaned before it is taken: one that cleans to nothing gives way to the default.
  const value = (name: keyof typeof defaults) => clean(defaults[name]?.value ?? '') || undefined;
  const commitSha = value('commitSha') ?? '';
  const branch = value('branch') ?? '';
  if (!/^[0-9a-f]{7,64}$/i.test(commitSha) || branch === '') {
    return {
      verdict: 'invalid',
      reason: 'a deployment_status event needs deployment.sha (a commit) and deployment.ref',
    };
  }
  const fields: EventFields = {
    artifactName: repositoryName,
    // The core's rule: the version is the commit where the deployment names none.
    version: value('version') ?? commitSha,
    environment: value('environment') ?? DefaultEnvironment,
    commitSha,
    user: value('user') ?? 'GitHub',
    branch,
    ...optional('description', value('description') ?? ''),
    // Never cut: a link too long to keep whole is left out (bounded).
    ...optional('link', clean(defaults.link?.value ?? '', Infinity)),
  };
  // The instance first: github.com's and a GitHub Enterprise Server's ids are counted apart.
  const key = `github:${instance}:${repositoryId as number}:${facts.id}`;
  const sentAt = rfc3339(stringAt(payload, 'deployment_status', 'updated_at'));
  // The same cleaner as every source's: one bounded line per value, whatever the signed payload holds.
  const event = bounded({ key, status, object: repositoryName, fields });
  return { verdict: 'accepted', deliveryId, events: [event], sentAt };
}

/** The string at `payload.<outer>.<name>`; '' where there is none. */
function stringAt(payload: unknown, outer: string, name: string): string {
  const value = isObject(payload) && isObject(payload[outer]) ? payload[outer][name] : undefined;
  return typeof value === 'string' ? value : '';
}

function json(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** A name from the request, for a reason: one clean line, and short. */
function safe(text: string): string {
  return clean(text, 60);
}
