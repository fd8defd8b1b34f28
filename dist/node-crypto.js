// crypto, loaded on first use: written by scripts/build.ts (see src/deps/).
let loaded;
const real = () => (loaded ??= require('crypto'));
module.exports = new Proxy(
  {},
  {
    get: (_, key) => (real()[key]),
    has: (_, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  },
);
