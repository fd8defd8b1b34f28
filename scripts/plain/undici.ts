// What src/deps/undici.ts would be without its reach: undici through its index, as its README uses
// it. `npm run bench -- --reaches` builds the bundle with this file in that one's place, to measure
// what the reach gains; the benchmark checks (at type level) that it exports what that one does.
import { Agent, Pool, ProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';

export interface Timeouts {
  timeoutMs: number;
}

function phaseTimeouts({ timeoutMs }: Timeouts) {
  const ms = Math.max(1, Math.ceil(timeoutMs));
  return { connectTimeout: ms, headersTimeout: ms, bodyTimeout: ms };
}

export function createAgent(timeouts: Timeouts): Dispatcher {
  return new Agent(phaseTimeouts(timeouts));
}

export function createProxyAgent(proxy: URL, timeouts: Timeouts): Promise<Dispatcher> {
  const phases = phaseTimeouts(timeouts);
  return Promise.resolve(
    new ProxyAgent({
      uri: proxy.href,
      ...phases,
      clientFactory: (origin: URL, options: object) => new Pool(origin, { ...options, ...phases }),
    }),
  );
}

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> &
  Partial<Pick<Dispatcher.RequestOptions, 'method'>> & { dispatcher: Dispatcher };

export function request(url: URL | string, options: RequestOptions): Promise<Dispatcher.ResponseData<unknown>> {
  return undiciRequest(url, options);
}
