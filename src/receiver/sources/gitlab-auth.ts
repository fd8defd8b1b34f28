// How a GitLab delivery proves itself: the secret token as typed in the hook (`X-Gitlab-Token`, no
// integrity, replayable), and signed webhooks (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
// `webhook-signature: v1,<base64 HMAC-SHA256>` over `{id}.{timestamp}.{body}`).
import { timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../../core/config-error.js';
import type { IncomingRequest } from '../event.js';
import type { RequestHead, Verification } from '../source.js';
import { header } from './fields.js';
import { MIN_SECRET_CHARACTERS, readSecret } from './secret.js';
import { hmacSha256, sameSecret } from './verify.js';

export interface GitLabSecrets {
  token?: Buffer;
  /** The key a signing token holds: the bytes of its base64 after `whsec_`. */
  signingKey?: Buffer;
}

/** A signature's timestamp further off than this, either way, is a replay. */
const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

const SIGNING_PREFIX = 'whsec_';

export function gitLabSecrets(env: Record<string, string | undefined>): GitLabSecrets | undefined {
  const token = readSecret(env, 'GITLAB_WEBHOOK_TOKEN');
  const signing = env.GITLAB_WEBHOOK_SIGNING_TOKEN;
  const secrets: GitLabSecrets = {};
  if (token) secrets.token = token;
  if (signing) secrets.signingKey = signingKey(signing);
  return secrets.token || secrets.signingKey ? secrets : undefined;
}

function signingKey(value: string): Buffer {
  const base64 = value.startsWith(SIGNING_PREFIX) ? value.slice(SIGNING_PREFIX.length) : undefined;
  if (
    base64 === undefined ||
    !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(base64) ||
    !base64
  ) {
    throw new ConfigError(
      'Environment variable GITLAB_WEBHOOK_SIGNING_TOKEN',
      "is not a signing token: set it to the hook's signing token as GitLab shows it, `whsec_` followed by base64.",
    );
  }
  const key = Buffer.from(base64, 'base64');
  // GitLab's own hold 32 bytes; a key of a few bytes is a guessable one.
  if (key.length < MIN_SECRET_CHARACTERS) {
    throw new ConfigError(
      'Environment variable GITLAB_WEBHOOK_SIGNING_TOKEN',
      `holds a key of ${key.length} bytes, under the ${MIN_SECRET_CHARACTERS} a key needs: set it to the signing token GitLab generated for the hook.`,
    );
  }
  return key;
}

/** A signed webhook's headers, or why they are no signature. */
type SignatureHead = { id: string; timestamp: string; signatures: Buffer[]; reason?: never } | { reason: string };

/**
 * Each credential the request presents and the receiver holds a secret for is checked; one that
 * fails rejects the request, and at least one must pass. A credential the receiver has no secret
 * for is not looked at (a hook may carry both while the receiver is given one). The headers alone
 * settle all but the signature's HMAC, which `verifyGitLab` checks over the body.
 */
export function checkGitLabHeaders(request: RequestHead, secrets: GitLabSecrets): Verification {
  let presented = false;
  const token = header(request.headers, 'x-gitlab-token');
  if (token !== undefined && secrets.token) {
    // Node reads header values as Latin-1: back to the bytes GitLab sent, so a UTF-8 token matches.
    if (!sameSecret(Buffer.from(token, 'latin1'), secrets.token))
      return { ok: false, reason: 'X-Gitlab-Token does not match GITLAB_WEBHOOK_TOKEN' };
    presented = true;
  }
  const signature = header(request.headers, 'webhook-signature');
  if (signature !== undefined && secrets.signingKey) {
    const head = signatureHead(request, signature);
    if (head.reason !== undefined) return { ok: false, reason: head.reason };
    presented = true;
  }
  if (presented) return { ok: true };
  return {
    ok: false,
    reason: `no ${[secrets.token && 'X-Gitlab-Token', secrets.signingKey && 'webhook-signature'].filter(Boolean).join(' or ')} header`,
  };
}

export function verifyGitLab(request: IncomingRequest, secrets: GitLabSecrets): Verification {
  const checked = checkGitLabHeaders(request, secrets);
  if (!checked.ok) return checked;
  const signature = header(request.headers, 'webhook-signature');
  if (signature === undefined || !secrets.signingKey) return checked;
  const head = signatureHead(request, signature);
  if (head.reason !== undefined) return { ok: false, reason: head.reason };
  const expected = hmacSha256(secrets.signingKey, `${head.id}.${head.timestamp}.`, request.body);
  // Several signatures may be sent (while a key is rotated); one that matches is enough.
  return head.signatures.some((given) => given.length === expected.length && timingSafeEqual(given, expected))
    ? { ok: true, signedId: head.id }
    : { ok: false, reason: 'webhook-signature does not match GITLAB_WEBHOOK_SIGNING_TOKEN' };
}

function signatureHead(request: RequestHead, signature: string): SignatureHead {
  const id = header(request.headers, 'webhook-id');
  const timestamp = header(request.headers, 'webhook-timestamp');
  if (!id || !timestamp || !/^\d{1,12}$/.test(timestamp)) {
    return { reason: 'webhook-signature without a webhook-id and a webhook-timestamp in seconds' };
  }
  if (Math.abs(request.now / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) {
    return { reason: 'webhook-timestamp is more than 5 minutes off: a replay, or a clock far off' };
  }
  // Each `v1,<base64>`, space-separated.
  const signatures = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  if (signatures.length === 0) return { reason: 'webhook-signature holds no v1,<base64> signature' };
  return { id, timestamp, signatures };
}
