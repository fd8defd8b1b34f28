import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.ts';
import { isLoopback, proxyFor, withoutCredentials } from '../../src/core/proxy.ts';
import { createProxyAgent } from '../../src/deps/undici.ts';

const proxy = 'http://proxy.example.com:3128';

function route(target: string, env: Record<string, string>): string {
  return proxyFor(new URL(target), env)?.variable ?? 'direct';
}

describe('proxyFor', () => {
  it.each([
    ['http://proxy.example.com:3128/some/path', 'http://proxy.example.com:3128/'],
    ['http://proxy.example.com:3128/x?q=1#f', 'http://proxy.example.com:3128/'],
    ['https://u:p%40ss@proxy.example.com/p', 'https://u:p%40ss@proxy.example.com/'],
    ['http://proxy.example.com:3128', 'http://proxy.example.com:3128/'],
  ])('takes of %s what curl takes: %s', (value, taken) => {
    expect(proxyFor(new URL('https://t.example.com'), { HTTPS_PROXY: value })?.url.href).toBe(taken);
  });

  it.each([
    ['https://t.example.com', {}, 'direct'],
    ['https://t.example.com', { HTTPS_PROXY: proxy }, 'HTTPS_PROXY'],
    ['https://t.example.com', { https_proxy: proxy, HTTPS_PROXY: 'x' }, 'https_proxy'],
    ['https://t.example.com', { HTTP_PROXY: proxy }, 'HTTP_PROXY'],
    ['http://t.example.com', { HTTPS_PROXY: proxy }, 'direct'],
    ['http://t.example.com', { http_proxy: '', HTTP_PROXY: proxy }, 'direct'],
    ['https://t.example.com', { HTTPS_PROXY: proxy, NO_PROXY: 't.example.com' }, 'direct'],
    ['https://t.example.com', { HTTPS_PROXY: proxy, no_proxy: '.example.com' }, 'direct'],
    ['https://t.example.com', { HTTPS_PROXY: proxy, NO_PROXY: '*.example.com' }, 'direct'],
    ['https://example.com', { HTTPS_PROXY: proxy, NO_PROXY: '*.example.com' }, 'HTTPS_PROXY'],
    ['https://t.example.com', { HTTPS_PROXY: proxy, NO_PROXY: 'other.com, *' }, 'direct'],
    ['https://t.example.com', { HTTPS_PROXY: proxy, NO_PROXY: 't.example.com:8443' }, 'HTTPS_PROXY'],
    ['https://t.example.com:8443', { HTTPS_PROXY: proxy, NO_PROXY: 't.example.com:8443' }, 'direct'],
    ['https://t.example.com', { HTTPS_PROXY: proxy, NO_PROXY: 'xt.example.com' }, 'HTTPS_PROXY'],
    ['https://T.Example.com./api', { HTTPS_PROXY: proxy, NO_PROXY: 't.example.com' }, 'direct'],
    ['https://[2001:db8::1]:443', { HTTPS_PROXY: proxy, NO_PROXY: '[2001:db8::1]:443' }, 'direct'],
    ['https://[2001:db8::1]', { HTTPS_PROXY: proxy, NO_PROXY: '[2001:db8::1]' }, 'direct'],
    ['https://[2001:db8::1]', { HTTPS_PROXY: proxy, NO_PROXY: '2001:db8::1' }, 'direct'],
    ['https://t.example.com', { HTTPS_PROXY: proxy, NO_PROXY: 'T.Example.com.' }, 'direct'],
    ['https://t.example.com', { HTTPS_PROXY: 'https://proxy.example.com:3128' }, 'HTTPS_PROXY'],
    // An entry with more around the host or port than NO_PROXY's syntax has matches nothing.
    ['https://[2001:db8::1]', { HTTPS_PROXY: proxy, NO_PROXY: 'x[2001:db8::1]:443' }, 'HTTPS_PROXY'],
    ['https://[2001:db8::1]', { HTTPS_PROXY: proxy, NO_PROXY: '[2001:db8::1]:443x' }, 'HTTPS_PROXY'],
    ['https://[2001:db8::1]', { HTTPS_PROXY: proxy, NO_PROXY: '.[2001:db8::1]' }, 'HTTPS_PROXY'],
    ['https://[2001:db8::1]', { HTTPS_PROXY: proxy, NO_PROXY: '[2001:db8::1].' }, 'HTTPS_PROXY'],
    ['https://t.example.com', { HTTPS_PROXY: proxy, NO_PROXY: 't.example.com:443x' }, 'HTTPS_PROXY'],
    ['http://127.0.0.1:8080', { HTTP_PROXY: proxy }, 'direct'],
    ['http://localhost:8080', { HTTP_PROXY: proxy }, 'direct'],
    ['https://[::1]:8443', { HTTPS_PROXY: proxy }, 'direct'],
    // Only a whole loopback address skips the proxy: these names are anywhere a resolver sends them.
    ['http://127.0.0.1.evil:8080', { HTTP_PROXY: proxy }, 'HTTP_PROXY'],
    ['https://127.0.0.1.example.com', { HTTPS_PROXY: proxy }, 'HTTPS_PROXY'],
    ['https://127.0.0.10', { HTTPS_PROXY: proxy }, 'direct'],
    ['https://127.255.255.254', { HTTPS_PROXY: proxy }, 'direct'],
  ])('%s with %o: %s', (target, env, expected) => {
    expect(route(target, env as Record<string, string>)).toBe(expected);
  });

  it('names the variable that is no proxy URL, without its credentials', () => {
    for (const value of ['proxy.example.com:3128', 'socks5://proxy:1080', 'http://user:pw@', 'not a url']) {
      const error = (() => {
        try {
          proxyFor(new URL('https://t.example.com'), { HTTPS_PROXY: value });
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toMatch(/^Environment variable HTTPS_PROXY is not a proxy URL/);
      expect((error as ConfigError).message).not.toContain('pw');
    }
  });
});

describe('the proxy’s credentials', () => {
  // undici decodes them for Proxy-Authorization, and threw at the first request.
  it.each([
    ['http://us%ZZer:pw@proxy.example.com:3128', 'user'],
    ['http://user:p%ss@proxy.example.com:3128', 'password'],
    ['http://user:%FFpw@proxy.example.com:3128', 'password, no UTF-8'],
    ['http://us%er@proxy.example.com:3128', 'user, no password'],
  ])('refuses %s (%s): each %% as %%25, the credentials not shown', (value) => {
    const call = () => proxyFor(new URL('https://t.example.com'), { HTTPS_PROXY: value });
    expect(call).toThrow(ConfigError);
    expect(call).toThrow(
      'Environment variable HTTPS_PROXY has a user name or password that is not percent-encoded: ' +
        "'http://***@proxy.example.com:3128'. Write each `%` in them as `%25` (and `@`, `:`, `/` as `%40`, `%3A`, `%2F`).",
    );
  });

  it('takes credentials whose escapes decode (undici decodes them the same way)', () => {
    const taken = proxyFor(new URL('https://t.example.com'), {
      HTTPS_PROXY: 'http://%C3%A9:p%25%40@proxy.example.com',
    });
    expect(decodeURIComponent(taken?.url.username ?? '')).toBe('é');
    expect(decodeURIComponent(taken?.url.password ?? '')).toBe('p%@');
  });

  // Whatever the credentials hold: refused as a ConfigError that shows neither, or a URL that undici's
  // own ProxyAgent takes (it decodes them as it is made, where it threw at the first request).
  it('any credentials: refused without showing them, or taken by undici', async () => {
    const piece = fc.string({ unit: fc.constantFrom('%', 'Z', 'F', '4', '0', 'é', '@', ':', '/', 'x'), minLength: 1 });
    await fc.assert(
      fc.asyncProperty(piece, piece, async (user, password) => {
        const value = `http://${user}:${password}@proxy.example.com:3128`;
        let proxy;
        try {
          proxy = proxyFor(new URL('https://t.example.com'), { HTTPS_PROXY: value });
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          expect((error as Error).message).toMatch(/^Environment variable HTTPS_PROXY /);
          expect((error as Error).message).not.toContain(`${user}:${password}`);
          return;
        }
        const agent = await createProxyAgent(proxy?.url as URL, { timeoutMs: 1000 });
        await agent.close();
      }),
      { numRuns: 200 },
    );
  });
});

describe('small helpers', () => {
  it.each([
    'localhost',
    'LocalHost',
    '127.0.0.1',
    '127.1.2.3',
    '127.0.0.10',
    '127.255.255.254',
    '127.10.100.1',
    '[::1]',
  ])('%s is loopback', (host) => {
    expect(isLoopback(host)).toBe(true);
  });
  it.each([
    'example.com',
    '10.0.0.1',
    '128.0.0.1',
    'localhost.example.com',
    'api.localhost',
    'localhost.',
    // Anchored at both ends: a name that only starts or ends like a loopback address is any host.
    // (`new URL` refuses a host whose last label is a number but that is no IPv4 address, so only
    // these direct calls reach the start anchor; `127.0.0.1.evil` reaches the end anchor via a URL too.)
    '127.0.0.1.evil',
    '127.0.0.1.',
    'evil127.0.0.1',
    'x.127.0.0.1',
    '1127.0.0.1',
    '127.0.0.1000',
    '127.0.0',
  ])('%s is not loopback', (host) => {
    expect(isLoopback(host)).toBe(false);
  });
  it.each([
    ['https://user:pw@host/x', 'https://***@host/x'],
    ['user:pw@host', '***@host'],
    ['https://host/x@y', 'https://***@y'],
    ['https://deploy:hun/ter2@tracker.example.com', 'https://***@tracker.example.com'],
    ['https://deploy:hun?ter2@tracker.example.com', 'https://***@tracker.example.com'],
    ['http://u:p#w@proxy example:3128', 'http://***@proxy example:3128'],
    ['https://host', 'https://host'],
  ])('%s is shown as %s', (text, shown) => {
    expect(withoutCredentials(text)).toBe(shown);
  });
});
