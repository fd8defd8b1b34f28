// GitHub's catch-up pass (src/receiver/catch-up/github.ts) against a fake of GitHub's
// webhook-deliveries API and a real SQLite store: what GitHub failed to deliver is read back and
// stored once, under its own delivery id; what GitHub saw answered 2xx, what is older than 3 days,
// other events and what the store holds are not fetched; paging, refusals and rate limits bounded
// and said, the token never.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { githubCatchUpPass } from '../../src/receiver/catch-up/github.ts';
import { readGithubCatchUp } from '../../src/receiver/catch-up/github-config.ts';
import { openStore } from '../../src/receiver/store/index.ts';
import type { Store } from '../../src/receiver/store/store.ts';
import { fakeDelivery, type FakeGithub, startFakeGithub } from './helpers/fake-github-api.ts';
import { deploymentStatus } from './helpers/github-delivery.ts';

const TOKEN = 'ghp_CatchUpToken8f2a61b9c04d7e35aa1';
const HOOK = 'repos/octo-org/shop-web/hooks/4081';
const HOUR = 3_600_000;

const payload = (state: string, deploymentId: number) =>
  JSON.parse(deploymentStatus(state, deploymentId).body.toString()) as object;

let github: FakeGithub;
let store: Store;
beforeEach(async () => {
  github = await startFakeGithub(TOKEN);
  store = openStore(join(mkdtempSync(join(tmpdir(), 'rd-gh-catch-up-')), 'receiver.sqlite'), { sole: true });
});
afterEach(async () => {
  await github.close();
  await store.close();
});

function config(hooks = HOOK) {
  const read = readGithubCatchUp({ GITHUB_HOOKS: hooks, GITHUB_TOKEN: TOKEN, GITHUB_API_URL: github.url });
  if (!read) throw new Error('no configuration');
  return read;
}

const pass = () =>
  githubCatchUpPass(config(), {
    holds: (source, id) => store.holds(source, id),
    accept: (delivery) => store.accept(delivery),
    env: {},
  });

const details = () => github.requests.filter((path) => /\/deliveries\/\d+$/.test(path));

describe("GitHub's catch-up", () => {
  it('reads back and stores each failed deployment_status delivery of the last 3 days, oldest first, once', async () => {
    const now = Date.now();
    const started = fakeDelivery('guid-start', payload('in_progress', 71), { at: now - 2 * HOUR });
    const ended = fakeDelivery('guid-end', payload('success', 71), { at: now - HOUR });
    const received = fakeDelivery('guid-ok', payload('success', 72), { at: now - HOUR, ok: true });
    // A delivery that failed, then GitHub's redelivery of it that was answered: received.
    const retried = fakeDelivery('guid-retried', payload('success', 73), { at: now - 3 * HOUR });
    const redelivered = {
      ...fakeDelivery('guid-retried', payload('success', 73), { at: now - HOUR, ok: true }),
      redelivery: true,
    };
    const push = fakeDelivery('guid-push', { ref: 'refs/heads/main' }, { at: now - HOUR, event: 'push' });
    const old = fakeDelivery('guid-old', payload('success', 74), { at: now - 4 * 24 * HOUR });
    github.hooks.set(HOOK, [started, ended, received, retried, redelivered, push, old]);

    const first = await pass();

    expect(first).toMatchObject({ found: 2, fetched: 2 });
    expect(first.failure).toBeUndefined();
    expect(first.line).toMatch(
      /^GitHub catch-up \(127\.0\.0\.1:\d+, 1 hook\): 2 failed deliveries not held, 2 got in$/,
    );
    expect(details()).toEqual([`/${HOOK}/deliveries/${started.id}`, `/${HOOK}/deliveries/${ended.id}`]);
    const items = await store.list(['pending'], 10);
    expect(
      items.map(({ deliveryId, status, key }) => [
        deliveryId,
        status,
        key.replace(/^github:127\.0\.0\.1:\d+:/, 'github:LOOPBACK:'),
      ]),
    ).toEqual([
      ['guid-start', 'STARTED', expect.stringMatching(/^github:LOOPBACK:\d+:71$/)],
      ['guid-end', 'SUCCEEDED', expect.stringMatching(/^github:LOOPBACK:\d+:71$/)],
    ]);

    // The next pass finds them held: nothing is fetched again.
    github.requests.length = 0;
    expect(await pass()).toMatchObject({ found: 0, fetched: 0 });
    expect(details()).toEqual([]);
  });

  it('fetches nothing that a live delivery brought first, and a live delivery after it is a duplicate', async () => {
    const live = fakeDelivery('guid-live', payload('success', 81), { at: Date.now() - HOUR });
    const missed = fakeDelivery('guid-missed', payload('success', 82), { at: Date.now() - HOUR });
    github.hooks.set(HOOK, [live, missed]);
    // GitHub recorded the live one as failed (its answer timed out), though the receiver stored it.
    await store.accept({ source: 'github', deliveryId: 'guid-live', events: [] });

    expect(await pass()).toMatchObject({ found: 1, fetched: 1 });
    expect(details()).toEqual([`/${HOOK}/deliveries/${missed.id}`]);
    expect((await store.accept({ source: 'github', deliveryId: 'guid-missed', events: [] })).kind).toBe('duplicate');
  });

  it('follows the cursor of Link across pages, and stops at 100 pages, saying so', async () => {
    const now = Date.now();
    github.hooks.set(
      HOOK,
      Array.from({ length: 250 }, (_, index) =>
        fakeDelivery(`guid-${index}`, payload('success', 1000 + index), {
          at: now - HOUR - index * 1000,
          ok: index !== 249,
        }),
      ),
    );
    expect(await pass()).toMatchObject({ found: 1, fetched: 1 });
    expect(github.requests.filter((path) => path.includes('/deliveries?'))).toHaveLength(3);

    github.requests.length = 0;
    github.script({ endless: true });
    const endless = await pass();
    expect(github.requests).toHaveLength(100);
    expect(endless.failure?.reason).toBe(`${HOOK}: more than 100 pages of deliveries; read the first 100`);
  });

  it('says a refused token, a missing hook and a rate limit, keeps the wait GitHub asks for, and never says the token', async () => {
    github.script({ status: 401, body: { message: `Bad credentials ${TOKEN}` } });
    const bad = await pass();
    expect(bad.failure?.reason).toBe(
      `${HOOK}: HTTP 401 (Bad credentials ***): GITHUB_TOKEN is wrong, expired or revoked`,
    );
    expect(`${bad.line} ${bad.failure?.reason}`).not.toContain(TOKEN);

    github.script({ status: 404, body: { message: 'Not Found' } });
    expect((await pass()).failure?.reason).toMatch(
      /HTTP 404 \(Not Found\): no such webhook, or GITHUB_TOKEN may not read it/,
    );

    github.script({ status: 429, body: { message: 'secondary rate limit' }, headers: { 'retry-after': '120' } });
    expect((await pass()).failure).toMatchObject({ retryAfterMs: 120_000 });

    const reset = Math.floor(Date.now() / 1000) + 600;
    github.script({
      status: 403,
      body: { message: 'API rate limit exceeded' },
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    });
    const limited = await pass();
    expect(limited.failure?.reason).toContain('rate-limited');
    expect(limited.failure?.retryAfterMs).toBeGreaterThan(590_000);
    expect(limited.failure?.retryAfterMs).toBeLessThanOrEqual(600_000);
  });

  it('never says the token, whatever GitHub answers (any status, any body echoing it, any headers)', async () => {
    github.hooks.set(HOOK, [fakeDelivery('guid-hostile', payload('success', 99))]);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 200, max: 599 }),
        fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ maxLength: 40 })),
        fc.constantFrom('message', 'documentation_url', 'errors'),
        async (status, noise, field) => {
          github.script({
            status,
            body: { [field]: `${String(JSON.stringify(noise))} ${TOKEN}` },
            headers: { 'retry-after': TOKEN },
          });
          const report = await pass();
          expect(`${report.line}\n${report.failure?.reason ?? ''}`).not.toContain(TOKEN);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("reads a GitHub App's own webhook with the App's JWT, and the others with the token", async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    github.app = { appId: '4242', publicKey };
    const now = Date.now();
    github.hooks.set('app/hook', [fakeDelivery('guid-app', payload('success', 121), { at: now - HOUR })]);
    github.hooks.set(HOOK, [fakeDelivery('guid-repo', payload('success', 122), { at: now - HOUR })]);
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString().replaceAll('\n', '\\n');
    const read = readGithubCatchUp({
      GITHUB_HOOKS: `app ${HOOK}`,
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
      GITHUB_APP_ID: '4242',
      GITHUB_APP_PRIVATE_KEY: pem,
    });
    if (!read) throw new Error('no configuration');
    const report = await githubCatchUpPass(read, {
      holds: (source, id) => store.holds(source, id),
      accept: (delivery) => store.accept(delivery),
      env: {},
    });
    expect(report).toMatchObject({ found: 2, fetched: 2 });
    expect(report.failure).toBeUndefined();
    expect(github.requests.filter((path) => path.startsWith('/app/hook/deliveries'))).toHaveLength(2);
    // Without a token, the App's hook alone is read; a key that is no key names its variable, never its value.
    expect(
      readGithubCatchUp({ GITHUB_HOOKS: 'app', GITHUB_APP_ID: '4242', GITHUB_APP_PRIVATE_KEY: pem }),
    ).toMatchObject({
      hooks: ['app/hook'],
      token: '',
    });
    expect(() =>
      readGithubCatchUp({ GITHUB_HOOKS: 'app', GITHUB_APP_ID: '4242', GITHUB_APP_PRIVATE_KEY: 'not-a-key-sekrit' }),
    ).toThrow(/^Environment variable GITHUB_APP_PRIVATE_KEY.*\(GITHUB_HOOKS names `app`\)/s);
    expect(() =>
      readGithubCatchUp({ GITHUB_HOOKS: 'app', GITHUB_APP_ID: '4242', GITHUB_APP_PRIVATE_KEY: 'not-a-key-sekrit' }),
    ).not.toThrow(/sekrit/);
  });

  it('refuses at start hooks without a token, a hook that is no hook, and an API that is no URL, naming the variable', () => {
    expect(readGithubCatchUp({ GITHUB_TOKEN: TOKEN })).toBeUndefined();
    expect(() => readGithubCatchUp({ GITHUB_HOOKS: HOOK })).toThrow(
      /Environment variable GITHUB_TOKEN.*is not set, but GITHUB_HOOKS is/s,
    );
    expect(() => readGithubCatchUp({ GITHUB_HOOKS: 'octo-org/shop-web', GITHUB_TOKEN: TOKEN })).toThrow(
      /Environment variable GITHUB_HOOKS.*'octo-org\/shop-web'.*repos\/OWNER\/REPO\/hooks\/ID/s,
    );
    expect(() =>
      readGithubCatchUp({
        GITHUB_HOOKS: HOOK,
        GITHUB_TOKEN: TOKEN,
        GITHUB_API_URL: 'https://user:pw@ghe.example.com/api/v3',
      }),
    ).toThrow(/Environment variable GITHUB_API_URL.*https:\/\/\*\*\*@ghe/s);
    expect(readGithubCatchUp({ GITHUB_HOOKS: `${HOOK} orgs/octo-org/hooks/7`, GITHUB_TOKEN: TOKEN })).toMatchObject({
      hooks: [HOOK, 'orgs/octo-org/hooks/7'],
      instance: 'github.com',
    });
    expect(
      readGithubCatchUp({ GITHUB_HOOKS: HOOK, GITHUB_TOKEN: TOKEN, GITHUB_API_URL: 'https://GHE.example.com/api/v3' })
        ?.instance,
    ).toBe('ghe.example.com');
  });
});
