// The checks that prove a request is a sender's own: each in constant time, over the bytes as they came.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Whether `given` is `expected`, in time that depends on neither: both are hashed first, so that
 * their lengths leak nothing and `timingSafeEqual` always sees equal lengths.
 */
export function sameSecret(given: string | Buffer, expected: Buffer): boolean {
  const digest = (value: string | Buffer) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function hmacSha256(key: Buffer, ...parts: (string | Buffer)[]): Buffer {
  const hmac = createHmac('sha256', key);
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

/** A dedupe id where the sender gives none: a digest of what makes the delivery one, stable across retries. */
export function derivedId(...parts: string[]): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}

/** A dedupe id of the body's bytes (never a valid delivery id of a sender: it holds a colon). */
export function bodyDigest(body: Buffer): string {
  return `sha256:${createHash('sha256').update(body).digest('hex')}`;
}
