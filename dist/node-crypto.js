// crypto, loaded on first use: written by scripts/build.ts (see LAZY_BUILTINS there).
let loaded;
const real = () => (loaded ??= require('node:crypto'));
module.exports = new Proxy(
  {},
  {
    get: (_, name) => (real()[name]),
    has: (_, name) => name in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, name) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), name);
      return descriptor && { ...descriptor, configurable: true };
    },
  },
);
