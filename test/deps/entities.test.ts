// The reach into `entities` (src/deps/entities.cjs) pays only where it is used: the package, whose
// tables take time to decode, is loaded by the first text that holds a character reference, not
// when the step starts. Test files share their worker's modules (vitest.config.ts), so the file is
// required afresh here, with the package out of the cache.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const REACH = join(import.meta.dirname, '..', '..', 'src', 'deps', 'entities.cjs');
const isEntities = (file: string) => /[/\\]node_modules[/\\]entities[/\\]/.test(file);
const loaded = () => Object.keys(require.cache).filter(isEntities);

it('src/deps/entities.cjs loads the package on its first call, not when it is loaded', () => {
  for (const file of [REACH, ...loaded()]) delete require.cache[file];

  const { decodeHtml } = require(REACH) as { decodeHtml: (text: string) => string };
  expect(loaded()).toEqual([]);

  expect(decodeHtml('k3y&#45;5f2b9c&hyphen;Secret &amp')).toBe('k3y-5f2b9c‐Secret &');
  expect(loaded()).not.toEqual([]);
});
