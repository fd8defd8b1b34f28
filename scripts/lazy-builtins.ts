// Node builtins that a bundled dependency requires at load but a run may never use, each behind a
// stand-in that loads the builtin on first use. Which builtins, and why, is said by each dependency's
// reach (src/deps/): this only writes the stand-ins. ncc's `externals` maps the dependency's require
// to its stand-in, which the build writes next to the bundle (scripts/build.ts, and the benchmark's
// probes).
import { coreLazyBuiltins } from '../src/deps/actions-core.ts';
import { undiciLazyBuiltins } from '../src/deps/undici.ts';

interface LazyBuiltin {
  file: string;
  /** Constants answered without loading the builtin. */
  constants?: Record<string, string | number>;
}

const builtins = (forAction: boolean): Record<string, LazyBuiltin> => ({
  ...(forAction ? coreLazyBuiltins() : {}),
  ...undiciLazyBuiltins(),
});

/** The stand-ins, by file name. `forAction`: also @actions/core's (the CLI does not bundle core). */
export function lazyBuiltinFiles(forAction = true): Record<string, string> {
  return Object.fromEntries(
    Object.entries(builtins(forAction)).map(([name, { file, constants }]) => [file, standIn(name, constants)]),
  );
}

/** What ncc's `externals` takes: each required name to its stand-in. */
export function lazyBuiltinExternals(forAction = true): Record<string, string> {
  return Object.fromEntries(Object.entries(builtins(forAction)).map(([name, { file }]) => [name, `./${file}`]));
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
