// GitLab's catch-up pass (src/receiver/catch-up/gitlab.ts) against a fake of GitLab's webhook-events
// API and a real SQLite store: what GitLab failed to deliver is taken from its listing and stored
// once, under the delivery id the webhook would have had; what it saw answered 2xx, other triggers,
// what is older than 7 days and what the store holds are not; paging, refusals and rate limits
// bounded and said, the token never.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitlabCatchUpPass } from '../../src/receiver/catch-up/gitlab.ts';
import { readGitLabCatchUp } from '../../src/receiver/catch-up/gitlab-config.ts';
import { openStore } from '../../src/receiver/store/index.ts';
import type { Store } from '../../src/receiver/store/store.ts';
import { type FakeGitLab, hookEvent, startFakeGitLab } from './helpers/fake-gitlab-api.ts';
import { gitlabDelivery } from './helpers/deliveries.ts';

const TOKEN = 'glpat-CatchUpToken3b7d29e1f0a4c5';
const HOOK = 'projects/42/hooks/7';
const HOUR = 3_600_000;

const payload = (status: string, deploymentId: number) =>
  JSON.parse(gitlabDelivery(status, deploymentId).body.toString()) as object;

let gitlab: FakeGitLab;
let store: Store;
beforeEach(async () => {
  gitlab = await startFakeGitLab(TOKEN);
  store = openStore(join(mkdtempSync(join(tmpdir(), 'rd-gl-catch-up-')), 'receiver.sqlite'), { sole: true });
});
afterEach(async () => {
  await gitlab.close();
  await store.close();
});

function config() {
  const read = readGitLabCatchUp({ GITLAB_HOOKS: HOOK, GITLAB_TOKEN: TOKEN, GITLAB_URL: gitlab.url });
  if (!read) throw new Error('no configuration');
  return read;
}

const pass = () =>
  gitlabCatchUpPass(config(), {
    holds: (source, id) => store.holds(source, id),
    accept: (delivery) => store.accept(delivery),
    env: {},
  });

describe("GitLab's catch-up", () => {
  it('takes each failed deployment event of the last 7 days from the listing, oldest first, once, under its Idempotency-Key', async () => {
    const now = Date.now();
    gitlab.hooks.set(HOOK, [
      hookEvent(payload('running', 301), { at: now - 2 * HOUR, key: 'idem-start' }),
      hookEvent(payload('success', 301), { at: now - HOUR, key: 'idem-end' }),
      hookEvent(payload('success', 302), { at: now - HOUR, key: 'idem-ok', ok: true }),
      // Failed, then resent by hand and answered: received.
      hookEvent(payload('success', 303), { at: now - 3 * HOUR, key: 'idem-resent' }),
      hookEvent(payload('success', 303), { at: now - HOUR, key: 'idem-resent', ok: true }),
      hookEvent({ object_kind: 'push' }, { at: now - HOUR, trigger: 'push_hooks' }),
      hookEvent(payload('success', 304), { at: now - 8 * 24 * HOUR, key: 'idem-old' }),
    ]);

    const first = await pass();

    expect(first).toMatchObject({ found: 2, fetched: 2 });
    expect(first.failure).toBeUndefined();
    expect(first.line).toMatch(
      /^GitLab catch-up \(127\.0\.0\.1:\d+, 1 hook\): 2 failed deliveries not held, 2 got in$/,
    );
    const items = await store.list(['pending'], 10);
    expect(items.map(({ deliveryId, status, key }) => [deliveryId, status, key])).toEqual([
      ['idem-start', 'STARTED', 'gitlab:gitlab.example.com:30:301'],
      ['idem-end', 'SUCCEEDED', 'gitlab:gitlab.example.com:30:301'],
    ]);
    expect(await pass()).toMatchObject({ found: 0, fetched: 0 });
  });

  it('reads every page (20 a page, X-Next-Page), and a live delivery after it is a duplicate', async () => {
    const now = Date.now();
    gitlab.hooks.set(
      HOOK,
      Array.from({ length: 45 }, (_, index) =>
        hookEvent(payload('success', 400 + index), {
          at: now - HOUR - index * 1000,
          key: `idem-${index}`,
          ok: index !== 44,
        }),
      ),
    );
    expect(await pass()).toMatchObject({ found: 1, fetched: 1 });
    expect(gitlab.requests.map((path) => new URL(path, gitlab.url).searchParams.get('page'))).toEqual(['1', '2', '3']);
    expect((await store.accept({ source: 'gitlab', deliveryId: 'idem-44', events: [] })).kind).toBe('duplicate');
  });

  it('says a refused token, a GitLab without the events API and a rate limit, and keeps the wait asked for', async () => {
    gitlab.hooks.set(HOOK, [hookEvent(payload('success', 501))]);
    gitlab.script({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await pass()).failure?.reason).toBe(
      `${HOOK}: HTTP 401 (401 Unauthorized): GITLAB_TOKEN is wrong, expired or revoked`,
    );
    gitlab.script({ status: 404, body: { error: '404 Not Found' } });
    expect((await pass()).failure?.reason).toContain('a GitLab before 17.4, which lists no hook events');
    gitlab.script({ status: 429, body: { message: 'Retry later' }, headers: { 'retry-after': '60' } });
    expect((await pass()).failure).toMatchObject({ retryAfterMs: 60_000 });
  });

  it('never says the token, whatever GitLab answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 200, max: 599 }),
        fc.constantFrom('message', 'error'),
        async (status, field) => {
          gitlab.script({ status, body: { [field]: `no ${TOKEN}` } });
          const report = await pass();
          expect(`${report.line}\n${report.failure?.reason ?? ''}`).not.toContain(TOKEN);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('refuses at start hooks without a token and a hook that is no hook, naming the variable', () => {
    expect(readGitLabCatchUp({ GITLAB_TOKEN: TOKEN })).toBeUndefined();
    expect(() => readGitLabCatchUp({ GITLAB_HOOKS: HOOK })).toThrow(
      /Environment variable GITLAB_TOKEN.*is not set, but GITLAB_HOOKS is/s,
    );
    expect(() => readGitLabCatchUp({ GITLAB_HOOKS: 'group/project', GITLAB_TOKEN: TOKEN })).toThrow(
      /Environment variable GITLAB_HOOKS.*'group\/project'.*projects\/ID\/hooks\/HID/s,
    );
    expect(readGitLabCatchUp({ GITLAB_HOOKS: HOOK, GITLAB_TOKEN: TOKEN })?.api.href).toBe('https://gitlab.com/api/v4/');
  });
});
