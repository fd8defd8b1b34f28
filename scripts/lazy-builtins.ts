// Node builtins that a bundled package requires at load but a step may never use, each behind a
// stand-in that loads the builtin on first use. ncc's `externals` maps the package's require to the
// stand-in, which the build writes next to the bundle (scripts/build.ts, and the benchmark's probes).

/**
 * The stand-ins, by file name:
 * - crypto: @actions/core requires it at load for the randomUUID() of its file commands (outputs,
 *   state), ~7-10 ms a step: a post step with nothing to send never needs it, and one that sends
 *   gets it with TLS.
 * - node:http2: undici's client requires it at load for HTTP/2, which this action never negotiates
 *   (with tls and crypto, ~11-18 ms a step). At load undici reads only `http2.constants`, header
 *   names and error codes that RFC 9113 fixes: the stand-in answers those without loading http2
 *   (any other constant, and everything else, loads the real module).
 */
export const LAZY_BUILTINS: Record<string, string> = {
  'node-crypto.js': lazyBuiltin('crypto', 'node:crypto', ''),
  'node-http2.js': lazyBuiltin(
    'node:http2',
    'node:http2',
    `const fixed = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  NGHTTP2_NO_ERROR: 0,
  NGHTTP2_REFUSED_STREAM: 7,
};
const constants = new Proxy(fixed, { get: (_, name) => (name in fixed ? fixed[name] : real().constants[name]) });
`,
  ),
};

/** What ncc's `externals` takes: each required name to its stand-in. */
export const LAZY_BUILTIN_EXTERNALS = { crypto: './node-crypto.js', 'node:http2': './node-http2.js' };

function lazyBuiltin(name: string, builtin: string, extra: string): string {
  return `// ${name}, loaded on first use: written by scripts/build.ts (see LAZY_BUILTINS there).
let loaded;
const real = () => (loaded ??= require('${builtin}'));
${extra}module.exports = new Proxy(
  {},
  {
    get: (_, name) => (${extra ? "name === 'constants' ? constants : " : ''}real()[name]),
    has: (_, name) => name in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, name) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), name);
      return descriptor && { ...descriptor, configurable: true };
    },
  },
);
`;
}
