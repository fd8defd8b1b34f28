// Node builtins that a bundled dependency requires at load but a run may never use, each behind a
// stand-in that loads the builtin on first use. Which builtins, and why, is said by each dependency's
// reach (src/deps/): this only writes the stand-ins. ncc's `externals` maps the dependency's require
// to its stand-in, which the build writes next to the bundle (scripts/bundle.ts). Pinned by
// test/deps/lazy-builtins.test.ts.
import { coreLazyBuiltins } from '../src/deps/actions-core.ts';
import { undiciLazyBuiltins } from '../src/deps/undici.ts';

export interface LazyBuiltin {
  file: string;
  /** Constants answered without loading the builtin. */
  constants?: Record<string, string | number>;
}

/** Each required name (as the dependency spells it) to its stand-in. */
export type LazyBuiltins = Record<string, LazyBuiltin>;

/** The action's (@actions/core's and undici's), or the CLI's (undici's: it does not bundle core). */
export function lazyBuiltins(forAction: boolean): LazyBuiltins {
  return { ...(forAction ? coreLazyBuiltins() : {}), ...undiciLazyBuiltins() };
}

/** The stand-ins, by file name. */
export function lazyBuiltinFiles(builtins: LazyBuiltins): Record<string, string> {
  return Object.fromEntries(
    Object.entries(builtins).map(([name, { file, constants }]) => [file, standIn(name, constants)]),
  );
}

/** What ncc's `externals` takes: each required name to its stand-in. */
export function lazyBuiltinExternals(builtins: LazyBuiltins): Record<string, string> {
  return Object.fromEntries(Object.entries(builtins).map(([name, { file }]) => [name, `./${file}`]));
}

function standIn(name: string, constants?: Record<string, string | number>): string {
  const fixed = constants
    ? `const fixed = ${JSON.stringify(constants, null, 2)};
const constants = new Proxy(fixed, { get: (_, key) => (key in fixed ? fixed[key] : real().constants[key]) });
`
    : '';
  return `// ${name}, loaded on first use: written by scripts/build.ts (see src/deps/).
let loaded;
const real = () => (loaded ??= require('${name}'));
${fixed}module.exports = new Proxy(
  {},
  {
    get: (_, key) => (${constants ? "key === 'constants' ? constants : " : ''}real()[key]),
    has: (_, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  },
);
`;
}
