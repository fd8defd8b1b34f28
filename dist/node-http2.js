// node:http2, loaded on first use: written by scripts/build.ts (see src/deps/).
let loaded;
const real = () => (loaded ??= require('node:http2'));
const fixed = {
  "HTTP2_HEADER_AUTHORITY": ":authority",
  "HTTP2_HEADER_METHOD": ":method",
  "HTTP2_HEADER_PATH": ":path",
  "HTTP2_HEADER_SCHEME": ":scheme",
  "HTTP2_HEADER_STATUS": ":status",
  "HTTP2_HEADER_PROTOCOL": ":protocol",
  "HTTP2_HEADER_CONTENT_LENGTH": "content-length",
  "HTTP2_HEADER_EXPECT": "expect",
  "NGHTTP2_NO_ERROR": 0,
  "NGHTTP2_REFUSED_STREAM": 7
};
const constants = new Proxy(fixed, { get: (_, key) => (key in fixed ? fixed[key] : real().constants[key]) });
module.exports = new Proxy(
  {},
  {
    get: (_, key) => (key === 'constants' ? constants : real()[key]),
    has: (_, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  },
);
