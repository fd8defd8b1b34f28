// A fake of GitHub's webhook-deliveries API on 127.0.0.1, for catch-up's tests, in the documented
// shapes (REST "Repository webhooks" / "Organization webhooks"): `GET .../hooks/ID/deliveries`
// (newest first, `per_page` at most 100, the next page's `cursor` in a `Link: <...>; rel="next"`
// header) and `GET .../hooks/ID/deliveries/DELIVERY_ID` (the delivery with its `request` headers and
// payload). The Bearer token is checked (401 "Bad credentials"); scripted answers take the place of
// the next requests (a 403 or 429 with its headers, a page whose next link never ends).
import { createVerify, type KeyObject } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { onLoopback } from './loopback.ts';

export interface FakeDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  payload: object;
}

export type FakeGithubAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | { endless: true };

export interface FakeGithub {
  /** What GITHUB_API_URL is set to. */
  url: string;
  /** Each hook's deliveries (`repos/acme/shop/hooks/12` → its deliveries), in any order. */
  hooks: Map<string, FakeDelivery[]>;
  /** Each request's path with its query. */
  requests: string[];
  /** How long each delivery's own answer (`.../deliveries/ID`) waits: a pass that takes time. */
  detailDelayMs: number;
  /** The GitHub App whose JWT `/app/hook/...` takes: its id and its public key. */
  app?: { appId: string; publicKey: KeyObject };
  /** Called as each delivery's own answer goes out, with how many have so far. */
  onDetail?: (served: number) => void;
  script(...answers: FakeGithubAnswer[]): void;
  close(): Promise<void>;
}

let nextId = 1_000_000;

/** A delivery as GitHub lists it: `ok` answered 2xx, else 502 (the receiver was down). */
export function fakeDelivery(
  guid: string,
  payload: object,
  { at = Date.now(), ok = false, event = 'deployment_status' } = {},
): FakeDelivery {
  return {
    id: nextId++,
    guid,
    delivered_at: new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    redelivery: false,
    status: ok ? 'OK' : 'Invalid HTTP Response: 502',
    status_code: ok ? 202 : 502,
    event,
    action: 'created',
    payload,
  };
}

export async function startFakeGithub(token: string): Promise<FakeGithub> {
  const scripted: FakeGithubAnswer[] = [];
  let detailsServed = 0;
  const server = createServer((req, res) => {
    fake.requests.push(req.url ?? '');
    const answer = scripted.shift();
    if (answer && 'endless' in answer) {
      const url = new URL(req.url ?? '/', fake.url);
      url.searchParams.set('cursor', String(Number(url.searchParams.get('cursor') ?? 0) + 1));
      res.setHeader('link', `<${url.href}>; rel="next"`);
      scripted.unshift(answer);
      return json(res, 200, []);
    }
    if (answer) {
      for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
      return json(res, answer.status, answer.body ?? {});
    }
    const url = new URL(req.url ?? '/', fake.url);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    // The App's own webhook takes the App's JWT; every other, the token.
    const appHook = url.pathname.startsWith('/app/hook/');
    if (appHook ? !fake.app || !validJwt(bearer, fake.app) : bearer !== token) {
      return json(res, 401, { message: appHook ? 'A JSON web token could not be decoded' : 'Bad credentials' });
    }
    const match = /^\/(app\/hook|.+\/hooks\/\d+)\/deliveries(?:\/(\d+))?$/.exec(url.pathname);
    const deliveries = match ? fake.hooks.get(match[1] as string) : undefined;
    if (!match || !deliveries) return json(res, 404, { message: 'Not Found' });
    const newestFirst = [...deliveries].sort((a, b) => b.delivered_at.localeCompare(a.delivered_at) || b.id - a.id);
    if (match[2]) {
      const delivery = newestFirst.find((each) => each.id === Number(match[2]));
      if (!delivery) return json(res, 404, { message: 'Not Found' });
      const answer = () => {
        detailsServed++;
        fake.onDetail?.(detailsServed);
      };
      return void setTimeout(() => {
        answer();
        json(res, 200, {
          ...listedOf(delivery),
          url: 'https://receiver.example.com/webhooks/github',
          request: {
            headers: {
              'X-GitHub-Delivery': delivery.guid,
              'X-GitHub-Event': delivery.event,
              'Content-Type': 'application/json',
            },
            payload: delivery.payload,
          },
          response: { headers: {}, payload: null },
        });
      }, fake.detailDelayMs);
    }
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const page = newestFirst.slice(start, start + perPage).map(listedOf);
    if (start + perPage < newestFirst.length) {
      url.searchParams.set('cursor', String(start + perPage));
      res.setHeader('link', `<${url.href}>; rel="next"`);
    }
    json(res, 200, page);
  });
  const listening = onLoopback(server);
  const fake: FakeGithub = {
    url: '',
    hooks: new Map(),
    requests: [],
    detailDelayMs: 0,
    script: (...answers) => void scripted.push(...answers),
    close: () => listening.then(({ close }) => close()),
  };
  fake.url = (await listening).url;
  return fake;
}

/** A delivery as the list shows it: without its payload. */
function listedOf(delivery: FakeDelivery): Omit<FakeDelivery, 'payload'> {
  const listed: Partial<FakeDelivery> = { ...delivery };
  delete listed.payload;
  return listed as Omit<FakeDelivery, 'payload'>;
}

/** An RS256 JWT the App signed, issued by it, not expired (GitHub's checks of an App's JWT). */
function validJwt(jwt: string, app: { appId: string; publicKey: KeyObject }): boolean {
  const [header = '', claims = '', signature = ''] = jwt.split('.');
  const signed = createVerify('RSA-SHA256')
    .update(`${header}.${claims}`)
    .verify(app.publicKey, Buffer.from(signature, 'base64url'));
  const { iss, exp, iat } = JSON.parse(Buffer.from(claims, 'base64url').toString() || '{}') as Record<string, unknown>;
  const now = Date.now() / 1000;
  return (
    signed &&
    iss === app.appId &&
    typeof exp === 'number' &&
    exp > now &&
    typeof iat === 'number' &&
    iat <= now &&
    exp - iat <= 600
  );
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
