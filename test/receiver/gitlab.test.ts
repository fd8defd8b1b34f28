// GitLab's deployment events: which requests are GitLab's own, and what each state records.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.ts';
import { gitlab } from '../../src/receiver/sources/gitlab.ts';
import { fixture, NOW, request, standardSignature } from './helpers/request.ts';

const KEY = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'utf8');
const SIGNING_TOKEN = `whsec_${KEY.toString('base64')}`;
const secrets = gitlab.secrets({
  GITLAB_WEBHOOK_TOKEN: 'tok-3f9a-5e1d7c20b4',
  GITLAB_WEBHOOK_SIGNING_TOKEN: SIGNING_TOKEN,
})!;
const success = fixture('gitlab', 'deployment-success.json');

function signed(body: object, at = NOW / 1000, key = KEY, id = 'msg_2c4e') {
  const bytes = Buffer.from(JSON.stringify(body));
  return request(bytes, {
    'webhook-id': id,
    'webhook-timestamp': String(at),
    'webhook-signature': standardSignature(key, id, at, bytes),
  });
}

describe('GitLab: verify', () => {
  it('takes the secret token, and refuses a wrong or missing one', () => {
    const token = gitlab.secrets({ GITLAB_WEBHOOK_TOKEN: 'tok-3f9a-5e1d7c20b4' })!;
    expect(gitlab.verify(request(success, { 'x-gitlab-token': 'tok-3f9a-5e1d7c20b4' }), token)).toEqual({ ok: true });
    expect(gitlab.verify(request(success, { 'x-gitlab-token': 'tok-3f9b' }), token).ok).toBe(false);
    expect(gitlab.verify(request(success, { 'x-gitlab-token': 'tok-3f9a-5e1d7c20b4 ' }), token).ok).toBe(false);
    expect(gitlab.verify(request(success), token).ok).toBe(false);
    // A header sent twice is no value: a forged second one cannot ride on a good first.
    expect(gitlab.verify(request(success, { 'x-gitlab-token': ['tok-3f9a-5e1d7c20b4', 'x'] }), token).ok).toBe(false);
  });

  it('takes a token of any UTF-8 characters as GitLab sent its bytes (Node reads them as Latin-1)', () => {
    const typed = 'Geheimnis-für-Bereitstellungen';
    const token = gitlab.secrets({ GITLAB_WEBHOOK_TOKEN: typed })!;
    const asNodeReadsIt = Buffer.from(typed, 'utf8').toString('latin1');
    expect(gitlab.verify(request(success, { 'x-gitlab-token': asNodeReadsIt }), token)).toEqual({ ok: true });
  });

  it('says from the headers alone what is missing or malformed', () => {
    const reason = (headers: Record<string, string>) => {
      const checked = gitlab.checkHeaders({ headers, now: NOW }, secrets);
      return checked.ok ? 'ok' : checked.reason;
    };
    expect(reason({})).toBe('no X-Gitlab-Token or webhook-signature header');
    expect(reason({ 'x-gitlab-token': 'wrong' })).toBe('X-Gitlab-Token does not match GITLAB_WEBHOOK_TOKEN');
    expect(reason({ 'webhook-signature': 'v1,AAAA' })).toMatch(/^webhook-signature without a webhook-id/);
    const head = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(NOW / 1000) };
    expect(reason({ ...head, 'webhook-signature': 'v2,AAAA' })).toBe(
      'webhook-signature holds no v1,<base64> signature',
    );
    expect(reason({ ...head, 'webhook-signature': 'v1,AAAA' })).toBe('ok');
  });

  it('takes a signed webhook within 5 minutes either way, and refuses a replay', () => {
    const signing = gitlab.secrets({ GITLAB_WEBHOOK_SIGNING_TOKEN: SIGNING_TOKEN })!;
    const ok = { ok: true, signedId: 'msg_2c4e' };
    expect(gitlab.verify(signed(success), signing)).toEqual(ok);
    expect(gitlab.verify(signed(success, NOW / 1000 - 300), signing)).toEqual(ok);
    expect(gitlab.verify(signed(success, NOW / 1000 + 300), signing)).toEqual(ok);
    expect(gitlab.verify(signed(success, NOW / 1000 - 301), signing)).toMatchObject({ ok: false, reason: /replay/ });
    expect(gitlab.verify(signed(success, NOW / 1000 + 301), signing)).toMatchObject({ ok: false, reason: /replay/ });
  });

  it('refuses a signature over other bytes, another id, or with another key', () => {
    const signing = gitlab.secrets({ GITLAB_WEBHOOK_SIGNING_TOKEN: SIGNING_TOKEN })!;
    const good = signed(success);
    expect(gitlab.verify({ ...good, body: Buffer.concat([good.body, Buffer.from(' ')]) }, signing).ok).toBe(false);
    expect(gitlab.verify({ ...good, headers: { ...good.headers, 'webhook-id': 'msg_other' } }, signing).ok).toBe(false);
    expect(gitlab.verify(signed(success, NOW / 1000, Buffer.from('another key')), signing).ok).toBe(false);
  });

  it('takes any one of several space-separated signatures (a key being rotated)', () => {
    const signing = gitlab.secrets({ GITLAB_WEBHOOK_SIGNING_TOKEN: SIGNING_TOKEN })!;
    const good = signed(success);
    const other = standardSignature(Buffer.from('old key'), 'msg_2c4e', NOW / 1000, good.body);
    const headers = {
      ...good.headers,
      'webhook-signature': `${other} v1a,AAAA ${good.headers['webhook-signature'] as string}`,
    };
    expect(gitlab.verify({ ...good, headers }, signing)).toEqual({ ok: true, signedId: 'msg_2c4e' });
  });

  it('with both secrets, either authenticates, and one presented that fails rejects', () => {
    const good = signed(success);
    expect(gitlab.verify(good, secrets)).toEqual({ ok: true, signedId: 'msg_2c4e' });
    expect(gitlab.verify(request(success, { 'x-gitlab-token': 'tok-3f9a-5e1d7c20b4' }), secrets)).toEqual({ ok: true });
    expect(
      gitlab.verify({ ...good, headers: { ...good.headers, 'x-gitlab-token': 'tok-3f9a-5e1d7c20b4' } }, secrets),
    ).toEqual({
      ok: true,
      signedId: 'msg_2c4e',
    });
    expect(gitlab.verify({ ...good, headers: { ...good.headers, 'x-gitlab-token': 'wrong' } }, secrets).ok).toBe(false);
    const wrongKey = signed(success, NOW / 1000, Buffer.from('x'));
    expect(
      gitlab.verify({ ...wrongKey, headers: { ...wrongKey.headers, 'x-gitlab-token': 'tok-3f9a-5e1d7c20b4' } }, secrets)
        .ok,
    ).toBe(false);
  });

  it('does not look at a credential the receiver holds no secret for', () => {
    const token = gitlab.secrets({ GITLAB_WEBHOOK_TOKEN: 'tok-3f9a-5e1d7c20b4' })!;
    const unverifiable = signed(success, NOW / 1000, Buffer.from('x'));
    expect(
      gitlab.verify(
        { ...unverifiable, headers: { ...unverifiable.headers, 'x-gitlab-token': 'tok-3f9a-5e1d7c20b4' } },
        token,
      ),
    ).toEqual({ ok: true });
    expect(gitlab.verify(unverifiable, token).ok).toBe(false);
  });
});

describe('GitLab: secrets', () => {
  it('is off with neither variable, and names a signing token that is not whsec_ and base64', () => {
    expect(gitlab.secrets({})).toBeUndefined();
    expect(gitlab.secrets({ GITLAB_WEBHOOK_TOKEN: '' })).toBeUndefined();
    for (const value of ['MfKQ9r8G', 'whsec_', 'whsec_not base64!', 'whsec_abc']) {
      expect(() => gitlab.secrets({ GITLAB_WEBHOOK_SIGNING_TOKEN: value })).toThrow(ConfigError);
      expect(() => gitlab.secrets({ GITLAB_WEBHOOK_SIGNING_TOKEN: value })).toThrow(/GITLAB_WEBHOOK_SIGNING_TOKEN/);
    }
  });

  it('refuses a blank or short token, and a signing key under 16 bytes, naming the variable', () => {
    for (const value of ['  ', 'tok-3f9a']) {
      expect(() => gitlab.secrets({ GITLAB_WEBHOOK_TOKEN: value })).toThrow(
        /^Environment variable GITLAB_WEBHOOK_TOKEN /,
      );
    }
    const short = `whsec_${Buffer.from('fifteen bytes..').toString('base64')}`;
    expect(() => gitlab.secrets({ GITLAB_WEBHOOK_SIGNING_TOKEN: short })).toThrow(
      'Environment variable GITLAB_WEBHOOK_SIGNING_TOKEN holds a key of 15 bytes',
    );
    // GitLab's own: whsec_ and the base64 of 32 bytes.
    expect(gitlab.secrets({ GITLAB_WEBHOOK_SIGNING_TOKEN: SIGNING_TOKEN })?.signingKey).toHaveLength(32);
  });
});

describe('GitLab: parse', () => {
  it("records GitLab's documented event, the full SHA from commit_url and the commit as the branch", () => {
    expect(gitlab.parse(request(success, { 'idempotency-key': 'f6b1d7b0-3c44-4a27-9d4e-2a8c1e0b5f31' }))).toEqual({
      verdict: 'accepted',
      deliveryId: 'f6b1d7b0-3c44-4a27-9d4e-2a8c1e0b5f31',
      // status_changed_at, 2021-04-28 21:50:00 +0200: for a replay past retention (replay.test.ts).
      sentAt: Date.parse('2021-04-28T19:50:00Z'),
      events: [
        {
          key: 'gitlab:10.126.0.2:3000:30:15',
          status: 'SUCCEEDED',
          object: 'root/test-deployment-webhooks',
          fields: {
            artifactName: 'test-deployment-webhooks',
            version: '279484c09fbe69ededfced8c1bb6e6d24616b468',
            environment: 'staging',
            commitSha: '279484c09fbe69ededfced8c1bb6e6d24616b468',
            user: 'root',
            branch: '279484c09fbe69ededfced8c1bb6e6d24616b468',
            description: 'GitLab deployment 15: Add new file',
            link: 'http://10.126.0.2:3000/root/test-deployment-webhooks/-/jobs/796',
          },
        },
      ],
    });
  });

  it.each([
    ['running', 'STARTED'],
    ['success', 'SUCCEEDED'],
    ['failed', 'FAILED'],
    ['canceled', 'FAILED'],
  ])('records %s as %s', (state, status) => {
    const parsed = gitlab.parse(request({ ...success, status: state }));
    expect(parsed).toMatchObject({ verdict: 'accepted', events: [{ key: 'gitlab:10.126.0.2:3000:30:15', status }] });
  });

  it.each(['blocked', 'approved', 'rejected', 'created'])('ignores %s, with its reason', (state) => {
    expect(gitlab.parse(request({ ...success, status: state }))).toMatchObject({
      verdict: 'ignored',
      reason: expect.stringContaining(state) as string,
    });
  });

  it('ignores other events, and answers 2xx to what it cannot use (GitLab disables a hook on a 4xx)', () => {
    expect(gitlab.parse(request({ object_kind: 'push' }))).toMatchObject({ verdict: 'ignored' });
    expect(gitlab.parse(request('{"object_kind": "deploy'))).toMatchObject({ verdict: 'invalid' });
    expect(gitlab.parse(request({ ...success, deployment_id: '15' }))).toMatchObject({ verdict: 'invalid' });
    expect(gitlab.invalidStatus).toBe(200);
  });

  it('falls back to the user name, then GitLab; to the short SHA; to Production', () => {
    const bare = { ...success, user: { name: 'Ada' }, commit_url: null, environment: '', deployable_url: null };
    expect(gitlab.parse(request(bare))).toMatchObject({
      events: [{ fields: { user: 'Ada', commitSha: '279484c0', environment: 'Production' } }],
    });
    const parsed = gitlab.parse(request({ ...bare, user: null }));
    expect(parsed).toMatchObject({ events: [{ fields: { user: 'GitLab' } }] });
    expect(parsed.verdict === 'accepted' && 'link' in parsed.events[0]!.fields).toBe(false);
  });

  it('deduplicates by Idempotency-Key, else webhook-id, else what makes the event one', () => {
    const id = (headers: Record<string, string>, body: object = success) => {
      const parsed = gitlab.parse(request(body, headers));
      return parsed.verdict === 'invalid' ? undefined : parsed.deliveryId;
    };
    expect(id({ 'idempotency-key': 'k1', 'webhook-id': 'w1' })).toBe('k1');
    expect(id({ 'webhook-id': 'w1' })).toBe('w1');
    expect(id({})).toBe(id({}));
    expect(id({})).not.toBe(id({}, { ...success, status: 'running' }));
    expect(id({})).not.toBe(id({}, { ...success, deployment_id: 16 }));
  });

  it('keys a deployment by its GitLab instance: X-Gitlab-Instance, else the base of project.web_url', () => {
    const keyOf = (headers: Record<string, string | string[]>, body: object = success) => {
      const parsed = gitlab.parse(request(body, headers));
      return parsed.verdict === 'accepted' ? parsed.events[0]?.key : parsed;
    };
    expect(keyOf({ 'x-gitlab-instance': 'https://gitlab.com' })).toBe('gitlab:gitlab.com:30:15');
    expect(keyOf({ 'x-gitlab-instance': 'https://GitLab.Example.com/gitlab/' })).toBe(
      'gitlab:gitlab.example.com/gitlab:30:15',
    );
    // The same project and deployment ids on two instances are two deployments.
    expect(keyOf({ 'x-gitlab-instance': 'https://gitlab.com' })).not.toBe(
      keyOf({ 'x-gitlab-instance': 'https://gitlab.example.com' }),
    );
    // An older GitLab sends no header: project.web_url less the project's path is the same URL.
    expect(keyOf({})).toBe('gitlab:10.126.0.2:3000:30:15');
    const project = success.project as Record<string, unknown>;
    const relative = {
      ...success,
      project: { ...project, web_url: 'https://example.com/gitlab/root/test-deployment-webhooks' },
    };
    expect(keyOf({}, relative)).toBe('gitlab:example.com/gitlab:30:15');
    for (const given of [
      { 'x-gitlab-instance': 'not a url at all' },
      { 'x-gitlab-instance': ['https://a', 'https://b'] },
    ]) {
      expect(keyOf(given)).toMatchObject({ verdict: 'invalid', reason: /X-Gitlab-Instance/ });
    }
    expect(keyOf({}, { ...success, project: { ...project, web_url: undefined } })).toMatchObject({
      verdict: 'invalid',
      reason: 'neither X-Gitlab-Instance nor project.web_url names the GitLab instance',
    });
  });

  it('deduplicates a signed delivery on its signed webhook-id, never on the unsigned Idempotency-Key', () => {
    const signing = gitlab.secrets({ GITLAB_WEBHOOK_SIGNING_TOKEN: SIGNING_TOKEN })!;
    const good = signed(success);
    // A replay within the signature's 5 minutes, with a fresh Idempotency-Key each time.
    const ids = ['k1', 'k2', 'k3'].map((key) => {
      const replay = { ...good, headers: { ...good.headers, 'idempotency-key': key } };
      const verification = gitlab.verify(replay, signing);
      expect(verification.ok).toBe(true);
      const parsed = verification.ok ? gitlab.parse(replay, verification) : undefined;
      return parsed?.verdict === 'accepted' ? parsed.deliveryId : parsed?.verdict;
    });
    expect(ids).toEqual(['msg_2c4e', 'msg_2c4e', 'msg_2c4e']);
    // Authenticated by the token alone, nothing is signed: Idempotency-Key, as GitLab sends it.
    const byToken = request(success, {
      'x-gitlab-token': 'tok-3f9a-5e1d7c20b4',
      'idempotency-key': 'k1',
      'webhook-id': 'w1',
    });
    const verification = gitlab.verify(byToken, secrets);
    expect(verification).toEqual({ ok: true });
    expect(verification.ok && gitlab.parse(byToken, verification)).toMatchObject({ deliveryId: 'k1' });
  });
});
