// Requests as a sender makes them, for the tests of the receiver's sources.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingRequest } from '../../../src/receiver/event.ts';
import { ROOT } from '../../helpers/run-action.ts';

export const NOW = Date.parse('2026-03-02T10:16:00Z');

/**
 * When the deliveries a live receiver takes were sent: an hour before the test run started, whole
 * seconds. A receiver stores nothing sent more than its retention window ago (src/receiver/retention.ts).
 */
export const SENT_AT = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

/** `ms` as RFC 3339 in whole seconds, as Flux, GitHub and Argo CD write a time: `2026-03-02T10:15:31Z`. */
export const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** `ms` as GitLab writes `status_changed_at`: `2026-03-02 10:15:31 +0000`. */
export const gitlabTime = (ms: number) => `${rfc3339(ms).replace('T', ' ').replace('Z', '')} +0000`;

export function fixture(source: string, name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'receiver', source, name), 'utf8')) as Record<
    string,
    unknown
  >;
}

export function request(body: string | Buffer | object, headers: IncomingRequest['headers'] = {}): IncomingRequest {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return { headers, body: bytes, now: NOW };
}

/** Standard Webhooks' signature, as GitLab signs: v1,<base64 HMAC-SHA256(key, "id.timestamp.body")>. */
export function standardSignature(key: Buffer, id: string, timestamp: number, body: Buffer): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}

/** Flux's generic-hmac signature: sha256=<hex HMAC-SHA256(key, body)>. */
export function fluxSignature(key: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;
}
