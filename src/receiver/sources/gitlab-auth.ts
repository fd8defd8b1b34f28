// How a GitLab delivery proves itself: the secret token as typed in the hook (`X-Gitlab-Token`, no
// integrity, replayable), and signed webhooks (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
// `webhook-signature: v1,<base64 HMAC-SHA256>` over `{id}.{timestamp}.{body}`).
import { timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../../core/config-error.js';
import type { IncomingRequest } from '../event.js';
import type { Verification } from '../source.js';
import { header } from './fields.js';
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
  const token = env.GITLAB_WEBHOOK_TOKEN;
  const signing = env.GITLAB_WEBHOOK_SIGNING_TOKEN;
  const secrets: GitLabSecrets = {};
  if (token) secrets.token = Buffer.from(token, 'utf8');
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
  return Buffer.from(base64, 'base64');
}

/**
 * Each credential the request presents and the receiver holds a secret for is checked; one that
 * fails rejects the request, and at least one must pass. A credential the receiver has no secret
 * for is not looked at (a hook may carry both while the receiver is given one).
 */
export function verifyGitLab(request: IncomingRequest, secrets: GitLabSecrets): Verification {
  let passed = false;
  let signedId: string | undefined;
  const token = header(request.headers, 'x-gitlab-token');
  if (token !== undefined && secrets.token) {
    if (!sameSecret(token, secrets.token))
      return { ok: false, reason: 'X-Gitlab-Token does not match GITLAB_WEBHOOK_TOKEN' };
    passed = true;
  }
  const signature = header(request.headers, 'webhook-signature');
  if (signature !== undefined && secrets.signingKey) {
    const checked = checkSignature(request, signature, secrets.signingKey);
    if (!checked.ok) return checked;
    passed = true;
    signedId = checked.signedId;
  }
  if (passed) return signedId === undefined ? { ok: true } : { ok: true, signedId };
  return {
    ok: false,
    reason: `no ${[secrets.token && 'X-Gitlab-Token', secrets.signingKey && 'webhook-signature'].filter(Boolean).join(' or ')}`,
  };
}

function checkSignature(request: IncomingRequest, signature: string, key: Buffer): Verification {
  const id = header(request.headers, 'webhook-id');
  const timestamp = header(request.headers, 'webhook-timestamp');
  if (!id || !timestamp || !/^\d{1,12}$/.test(timestamp)) {
    return { ok: false, reason: 'webhook-signature without a webhook-id and a webhook-timestamp in seconds' };
  }
  if (Math.abs(request.now / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) {
    return { ok: false, reason: 'webhook-timestamp is more than 5 minutes off: a replay, or a clock far off' };
  }
  const expected = hmacSha256(key, `${id}.${timestamp}.`, request.body);
  // Several signatures may be sent (while a key is rotated), each `v1,<base64>`; one that matches is enough.
  const matches = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  return matches
    ? { ok: true, signedId: id }
    : { ok: false, reason: 'webhook-signature does not match GITLAB_WEBHOOK_SIGNING_TOKEN' };
}
