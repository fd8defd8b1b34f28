import { describe, expect, it } from 'vitest';
import { describeNetworkError } from '../../src/core/network-error.ts';

const proxy = { url: new URL('http://proxy.example.com:3128'), variable: 'HTTPS_PROXY' };
const systemError = (code: string) => Object.assign(new Error('fetch failed'), { cause: { code } });

describe('describeNetworkError', () => {
  it.each([
    [systemError('ECONNREFUSED'), undefined, 'refused', 'connection refused (t.example.com)'],
    [
      systemError('ECONNREFUSED'),
      proxy,
      'refused',
      'cannot reach the proxy HTTPS_PROXY (http://proxy.example.com:3128): connection refused',
    ],
    [{ code: 'ENOTFOUND' }, undefined, 'dns', 'host name not found (t.example.com)'],
    [
      { code: 'EAI_AGAIN' },
      proxy,
      'dns',
      'cannot reach the proxy HTTPS_PROXY (http://proxy.example.com:3128): host name not found',
    ],
    [
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      undefined,
      'timeout',
      'no answer in time (t.example.com)',
    ],
    [
      { code: 'UND_ERR_HEADERS_TIMEOUT' },
      proxy,
      'timeout',
      'no answer in time (t.example.com through the proxy HTTPS_PROXY (http://proxy.example.com:3128))',
    ],
    [
      { code: 'UND_ERR_SOCKET', name: 'SocketError' },
      undefined,
      'reset',
      'connection closed before an answer (t.example.com)',
    ],
    [{ code: 'ECONNRESET' }, undefined, 'reset', 'connection closed before an answer (t.example.com)'],
    [new Error('something else'), undefined, 'other', 'network error (t.example.com)'],
    [
      { name: 'HTTPParserError', message: 'Response does not match the HTTP/1.1 protocol (Invalid status code)' },
      undefined,
      'malformed',
      "the answer of t.example.com is not valid HTTP/1.1 (Invalid status code): is `base-url` the service's address, with the right scheme (http or https)?",
    ],
    [
      { name: 'Error', code: 'HPE_INVALID_CONSTANT', message: 'Parse Error' },
      proxy,
      'malformed',
      "the answer of t.example.com through the proxy HTTPS_PROXY (http://proxy.example.com:3128) is not valid HTTP/1.1 (HPE_INVALID_CONSTANT): is `base-url` the service's address, with the right scheme (http or https)?",
    ],
    [
      { name: 'SocketError', code: 'UND_ERR_SOCKET', message: 'bad response' },
      undefined,
      'malformed',
      'the answer of t.example.com is one this client cannot read: an interim `100 Continue` it did not ask for, or an answer before any request (the service may have acted on the request)',
    ],
    [
      { code: 'UND_ERR_HEADERS_OVERFLOW' },
      undefined,
      'other',
      'network error UND_ERR_HEADERS_OVERFLOW (t.example.com)',
    ],
    [
      { name: 'InvalidArgumentError', message: 'Proxy Authentication Required (407)' },
      proxy,
      'proxy-auth',
      'the proxy HTTPS_PROXY (http://proxy.example.com:3128) asks for credentials (HTTP 407): put them in HTTPS_PROXY as http://user:password@host:port',
    ],
    [
      { name: 'RequestAbortedError', message: 'Proxy response (407) !== 200 when HTTP Tunneling' },
      proxy,
      'proxy-auth',
      'the proxy HTTPS_PROXY (http://proxy.example.com:3128) asks for credentials (HTTP 407): put them in HTTPS_PROXY as http://user:password@host:port',
    ],
    [
      { name: 'RequestAbortedError', message: 'Proxy response (502) !== 200 when HTTP Tunneling' },
      proxy,
      'proxy-refused',
      'the proxy HTTPS_PROXY (http://proxy.example.com:3128) would not connect to t.example.com (HTTP 502)',
    ],
  ])('%o through %o: %s', (error, through, cause, text) => {
    expect(describeNetworkError(error, 't.example.com', through, '`base-url`')).toEqual({ cause, text });
  });

  it.each([
    [
      { code: 'ERR_SSL_WRONG_VERSION_NUMBER' },
      'the TLS handshake with t.example.com failed (ERR_SSL_WRONG_VERSION_NUMBER)',
    ],
    [{ code: 'EPROTO' }, 'the TLS handshake with t.example.com failed (EPROTO)'],
    [
      { name: 'Error', message: 'CERT_UNTRUSTED' },
      'the TLS certificate of t.example.com was refused (TLS). If the service uses a private certificate authority, point NODE_EXTRA_CA_CERTS at its certificate',
    ],
    [
      { name: 'HTTPParserError', message: 'Response does not match the HTTP/1.1 protocol' },
      "the answer of t.example.com is not valid HTTP/1.1 (unreadable): is `base-url` the service's address, with the right scheme (http or https)?",
    ],
    [
      { name: 'HTTPParserError', code: 'HPE_INVALID_HEADER_TOKEN', message: 'Invalid header (x) value' },
      "the answer of t.example.com is not valid HTTP/1.1 (HPE_INVALID_HEADER_TOKEN): is `base-url` the service's address, with the right scheme (http or https)?",
    ],
  ])('%o: %s', (error, text) => {
    expect(describeNetworkError(error, 't.example.com', undefined, '`base-url`').text).toBe(text);
  });

  it('a 407 through a proxy URL that holds credentials: they were refused, not missing', () => {
    const withCredentials = { url: new URL('http://deploy:pw@proxy.example.com:3128'), variable: 'HTTPS_PROXY' };
    const error = { name: 'RequestAbortedError', message: 'Proxy response (407) !== 200 when HTTP Tunneling' };
    expect(describeNetworkError(error, 't.example.com', withCredentials, '`base-url`')).toEqual({
      cause: 'proxy-auth',
      text: 'the proxy HTTPS_PROXY (http://proxy.example.com:3128) refused the credentials its URL gives (HTTP 407): check the user name and password there (a `%`, `@`, `:` or `/` in them written `%25`, `%40`, `%3A`, `%2F`)',
    });
  });

  it('an answer that is no HTTP names the address setting as the face names it', () => {
    const error = { name: 'HTTPParserError', code: 'HPE_INVALID_CONSTANT', message: 'Expected HTTP/' };
    expect(describeNetworkError(error, 't.example.com', undefined, 'DEPLOY_TRACKER_URL').text).toBe(
      "the answer of t.example.com is not valid HTTP/1.1 (HPE_INVALID_CONSTANT): is DEPLOY_TRACKER_URL the service's address, with the right scheme (http or https)?",
    );
  });

  it('may blame the proxy too, when it is an https proxy', () => {
    const httpsProxy = { url: new URL('https://proxy.example.com:3128'), variable: 'HTTPS_PROXY' };
    expect(
      describeNetworkError(systemError('DEPTH_ZERO_SELF_SIGNED_CERT'), 't.example.com', httpsProxy, '`base-url`').text,
    ).toMatch(
      /^the TLS certificate of t\.example\.com \(or of the proxy HTTPS_PROXY \(https:\/\/proxy\.example\.com:3128\)\) is self-signed/,
    );
  });

  it.each([
    ['CERT_HAS_EXPIRED', 'has expired'],
    ['CERT_NOT_YET_VALID', 'is not valid yet'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'is self-signed (no trusted authority issued it)'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'is self-signed (no trusted authority issued it)'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'is issued by an authority this runner does not trust'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'is issued by an authority this runner does not trust'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'is for another host name'],
  ])('a certificate problem %s says so, and never retries', (code, problem) => {
    expect(describeNetworkError(systemError(code), 't.example.com', undefined, '`base-url`')).toEqual({
      cause: 'tls',
      text: `the TLS certificate of t.example.com ${problem} (${code}). If the service uses a private certificate authority, point NODE_EXTRA_CA_CERTS at its certificate`,
    });
  });
});
