// Signed GitHub deliveries as GitHub sends them: a deployment_status payload from
// test/fixtures/deployment-status/, its state and ids set by the test, and the headers GitHub sets.
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/run-action.ts';
import { rfc3339, SENT_AT } from './request.ts';

export const SECRET = 'It is a Secret to Everybody, really';

export interface Delivery {
  headers: Record<string, string>;
  body: Buffer;
}

export function deploymentStatus(
  state: string,
  deploymentId: number,
  options: { guid?: string; secret?: string } = {},
): Delivery {
  const payload = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/deployment-status/queued.json'), 'utf8')) as {
    deployment: { id: number };
    deployment_status: { state: string; updated_at: string };
  };
  payload.deployment.id = deploymentId;
  payload.deployment_status.state = state;
  payload.deployment_status.updated_at = rfc3339(SENT_AT);
  return signed('deployment_status', Buffer.from(JSON.stringify(payload)), options);
}

export function signed(
  event: string,
  body: Buffer,
  { guid = randomUUID(), secret = SECRET }: { guid?: string; secret?: string } = {},
): Delivery {
  return {
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': guid,
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
    body,
  };
}

/** POSTs a delivery; the answer's status and text. */
export async function post(
  port: number,
  delivery: Delivery,
  path = '/webhooks/github',
): Promise<{ status: number; text: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: delivery.headers,
    body: delivery.body,
  });
  return { status: response.status, text: await response.text() };
}
