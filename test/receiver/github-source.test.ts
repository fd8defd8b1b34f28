import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IncomingRequest } from '../../src/receiver/event.ts';
import { github, parseGithub, verifyGithub } from '../../src/receiver/sources/github.ts';
import { deploymentStatus, signed } from './helpers/github-delivery.ts';

const request = (headers: Record<string, string>, body: Buffer): IncomingRequest => ({ headers, body, now: 0 });

describe('the GitHub source', () => {
  it("checks GitHub's own test vector", () => {
    const secret = Buffer.from("It's a Secret to Everybody");
    const body = Buffer.from('Hello, World!');
    const header = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
    expect(verifyGithub(request({ 'x-hub-signature-256': header }, body), secret)).toEqual({ ok: true });
    expect(verifyGithub(request({ 'x-hub-signature-256': header.replace('757', '758') }, body), secret).ok).toBe(false);
    expect(verifyGithub(request({ 'x-hub-signature': 'sha1=abc' }, body), secret).ok).toBe(false);
  });

  it('says whether the signature header is missing or malformed, from the headers alone', () => {
    const secret = github.secrets({ GITHUB_WEBHOOK_SECRET: 'a-secret-of-20-chars' })!;
    const reason = (headers: Record<string, string>) => {
      const checked = github.checkHeaders({ headers, now: 0 }, secret);
      return checked.ok ? 'ok' : checked.reason;
    };
    expect(reason({})).toBe('no X-Hub-Signature-256 header');
    expect(reason({ 'x-hub-signature-256': 'sha256=zz' })).toBe('X-Hub-Signature-256 is not sha256=<64 hex digits>');
    expect(reason({ 'x-hub-signature-256': `sha1=${'0'.repeat(40)}` })).toBe(
      'X-Hub-Signature-256 is not sha256=<64 hex digits>',
    );
    // Well formed: only the body can tell whether it is right.
    expect(reason({ 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` })).toBe('ok');
  });

  it('refuses at start a secret of white space or under 16 characters, naming the variable and not the value', () => {
    for (const value of [' ', '\u00a0\u2003', 'hunter2', 'a-secret-of-20-chars\n']) {
      expect(() => github.secrets({ GITHUB_WEBHOOK_SECRET: value })).toThrow(
        /^Environment variable GITHUB_WEBHOOK_SECRET /,
      );
    }
    expect(() => github.secrets({ GITHUB_WEBHOOK_SECRET: 'hunter2' })).toThrow(/under the 16/);
    expect(() => github.secrets({ GITHUB_WEBHOOK_SECRET: 'hunter2' })).not.toThrow(/hunter2/);
    expect(() => github.secrets({ GITHUB_WEBHOOK_SECRET: 'replace-with-the-github-webhook-secret' })).toThrow(
      /placeholder of an example/,
    );
    expect(github.secrets({ GITHUB_WEBHOOK_SECRET: '' })).toBeUndefined();
    expect(github.secrets({ GITHUB_WEBHOOK_SECRET: 'sixteen-chars-ok' })).toEqual(Buffer.from('sixteen-chars-ok'));
  });

  it('maps deployment_status states, and keys a deployment by repository and deployment id', () => {
    const statuses = ['queued', 'in_progress', 'success', 'failure', 'error', 'pending', 'inactive', 'waiting'].map(
      (state) => {
        const parsed = parseGithub(request(deploymentStatus(state, 7).headers, deploymentStatus(state, 7).body));
        return parsed.verdict === 'accepted' ? parsed.events[0]?.status : parsed.verdict;
      },
    );
    expect(statuses).toEqual(['STARTED', 'STARTED', 'SUCCEEDED', 'FAILED', 'FAILED', 'ignored', 'ignored', 'ignored']);
    const delivery = deploymentStatus('success', 7);
    const parsed = parseGithub(request(delivery.headers, delivery.body));
    expect(parsed).toMatchObject({
      verdict: 'accepted',
      deliveryId: delivery.headers['x-github-delivery'],
      events: [
        {
          key: 'github:github.com:742519063:7',
          object: 'storefront',
          fields: { artifactName: 'storefront', user: 'acme-deployer[bot]', branch: 'main' },
        },
      ],
    });
  });

  it('keys a deployment by its instance: GitHub Enterprise Server names itself, github.com does not', () => {
    const keyOf = (headers: Record<string, string | string[]>) => {
      const delivery = deploymentStatus('success', 7);
      const parsed = parseGithub(request({ ...delivery.headers, ...headers } as Record<string, string>, delivery.body));
      return parsed.verdict === 'accepted' ? parsed.events[0]?.key : parsed;
    };
    expect(keyOf({})).toBe('github:github.com:742519063:7');
    expect(keyOf({ 'x-github-enterprise-host': 'GHES.example.com' })).toBe('github:ghes.example.com:742519063:7');
    for (const host of ['ghes example', 'https://user@ghes.example.com', ['a.example.com', 'b.example.com']]) {
      expect(keyOf({ 'x-github-enterprise-host': host })).toMatchObject({
        verdict: 'invalid',
        reason: 'X-GitHub-Enterprise-Host is no host name',
      });
    }
  });

  it('gives the digest of the signed body as a second dedupe id, the same under any delivery id', () => {
    const delivery = deploymentStatus('success', 7);
    const digest = `sha256:${createHash('sha256').update(delivery.body).digest('hex')}`;
    for (const guid of ['guid-1', 'guid-2']) {
      const headers = { ...delivery.headers, 'x-github-delivery': guid };
      expect(parseGithub(request(headers, delivery.body))).toMatchObject({ deliveryId: guid, digestId: digest });
    }
  });

  it('ignores a ping, and says "GitHub" where no one is named', () => {
    expect(parseGithub(request(signed('ping', Buffer.from('{}')).headers, Buffer.from('{}'))).verdict).toBe('ignored');
    const delivery = deploymentStatus('success', 8);
    const payload = JSON.parse(delivery.body.toString()) as { deployment: { creator?: unknown } };
    delete payload.deployment.creator;
    const parsed = parseGithub(request(delivery.headers, Buffer.from(JSON.stringify(payload))));
    expect(parsed.verdict === 'accepted' && parsed.events[0]?.fields.user).toBe('GitHub');
  });

  it('cleans every value as the other sources do: one line, no control or bidirectional override, bounded', () => {
    const delivery = deploymentStatus('success', 10);
    const payload = JSON.parse(delivery.body.toString()) as {
      deployment: { environment: string; creator: { login: string }; payload: { version: string } };
      deployment_status: { environment: string; description: string; log_url: string };
      repository: { name: string };
    };
    payload.repository.name = 'store\u202efront';
    payload.deployment.creator.login = 'eve\r\n::error::forged';
    payload.deployment.payload.version = `2.5.0\u0000${'x'.repeat(2000)}`;
    payload.deployment_status.environment = '\u2028\n';
    payload.deployment_status.log_url = `https://ci.example.com/${'l'.repeat(1100)}`;
    const parsed = parseGithub(request(delivery.headers, Buffer.from(JSON.stringify(payload))));
    expect(parsed.verdict).toBe('accepted');
    const event = parsed.verdict === 'accepted' ? parsed.events[0] : undefined;
    expect(event?.object).toBe('store front');
    expect(event?.fields).toMatchObject({
      artifactName: 'store front',
      user: 'eve ::error::forged',
      version: `2.5.0 ${'x'.repeat(994)}`,
      // A status environment that cleans to nothing gives way to the deployment's.
      environment: 'staging',
    });
    // A link too long to keep whole is left out, never cut.
    expect(event?.fields.link).toBeUndefined();
  });

  it('never throws, and accepts only what holds a deployment id, a repository and a commit (hostile bodies and headers)', () => {
    const secret = Buffer.from('s');
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.json(), fc.constant(deploymentStatus('success', 9).body.toString())),
        fc.dictionary(fc.constantFrom('x-github-event', 'x-github-delivery', 'x-hub-signature-256'), fc.string()),
        (text, headers) => {
          const body = Buffer.from(text);
          const incoming = request({ 'x-github-event': 'deployment_status', ...headers }, body);
          const verification = github.verify(incoming, secret);
          const sig = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
          expect(verification.ok).toBe(headers['x-hub-signature-256']?.toLowerCase() === sig);
          const parsed = github.parse(incoming);
          if (parsed.verdict === 'accepted') {
            const [event] = parsed.events;
            expect(event?.key).toMatch(/^github:github\.com:\d+:\d+$/);
            expect(
              Object.keys(event?.fields ?? {}).every((name) =>
                [
                  'artifactName',
                  'version',
                  'environment',
                  'commitSha',
                  'user',
                  'branch',
                  'description',
                  'link',
                ].includes(name),
              ),
            ).toBe(true);
            expect(event?.fields.commitSha).toMatch(/^[0-9a-f]{7,64}$/i);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
