// The layers of src/ (CONTRIBUTING.md, "Development"), checked from the imports themselves: the core
// knows nothing of where it runs, neither face imports the other, src/ci/ serves both faces, and no
// module imports itself round a circle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/run-action.ts';

const SRC = join(ROOT, 'src');

/** What each folder of src/ may import from src/, besides itself. */
const MAY_IMPORT: Record<string, string[]> = {
  deps: [],
  core: ['deps'],
  ci: ['core', 'deps'],
  action: ['core', 'ci', 'deps'],
  // The receiver (`serve`) is a face of its own; the CLI starts it and reads its store.
  receiver: ['core', 'ci', 'deps'],
  cli: ['core', 'ci', 'deps', 'receiver'],
};

/** The relative imports of a module's text (static, `export ... from`, and `import()`), as written. */
export function importsOf(text: string): string[] {
  const found = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?\bfrom\s+'([^']+)'/gm),
    ...text.matchAll(/^\s*import\s+'([^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
    ...text.matchAll(/\brequire\(\s*'([^']+)'\s*\)/g),
  ].map((match) => match[1] as string);
  return found.filter((specifier) => specifier.startsWith('.'));
}

/**
 * Every TypeScript module of src/ (path relative to src/, `/`-separated) and the modules of src/ it
 * imports. Not src/cli/bin.cjs: the launcher is copied beside the built bundle, and its requires name
 * the built files.
 */
function moduleGraph(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(SRC, join(entry.parentPath, entry.name)).replaceAll('\\', '/'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(SRC, file), 'utf8');
    const targets = importsOf(text)
      .map((specifier) => relative(SRC, resolve(SRC, dirname(file), specifier)).replaceAll('\\', '/'))
      .filter((target) => !target.startsWith('..'))
      .map((target) => target.replace(/\.js$/, '.ts'));
    graph.set(file, targets);
  }
  return graph;
}

const layerOf = (file: string) => file.split('/')[0] as string;

describe('the layers of src/', () => {
  const graph = moduleGraph();

  it('are the six folders, each importing only what its layer may', () => {
    expect([...new Set([...graph.keys()].map(layerOf))].sort()).toEqual(Object.keys(MAY_IMPORT).sort());
    const crossings = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => layerOf(target) !== layerOf(file) && !MAY_IMPORT[layerOf(file)]?.includes(layerOf(target)))
        .map((target) => `${file} imports ${target}`),
    );
    expect(crossings).toEqual([]);
    // Not vacuous: the faces do reach into the core and src/ci/.
    const reaches = (from: string, to: string) =>
      [...graph].some(([file, targets]) => layerOf(file) === from && targets.some((target) => layerOf(target) === to));
    expect([reaches('cli', 'core'), reaches('cli', 'ci'), reaches('action', 'core'), reaches('core', 'deps')]).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it('hold no import circle', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(circles).toEqual([]);
  });

  it('are read from every kind of import a module can make', () => {
    const text = [
      "import { a } from '../core/a.js';",
      "import type { B } from './b.js';",
      "export { c } from '../ci/c.js';",
      "import 'node:fs';",
      "const d = await import('../deps/d.js');",
      "const e = require('./e.js');",
      "import { f } from 'undici';",
    ].join('\n');
    expect(importsOf(text)).toEqual(['../core/a.js', './b.js', '../ci/c.js', '../deps/d.js', './e.js']);
  });
});
