// The dependency reaches (src/deps/), each as `npm run bench -- --reaches` takes it out: a copy of
// the project's sources with that one reach replaced by the plain use of the dependency, built as
// `npm run build` builds (scripts/build.ts), so that the benchmark can time the steps it touches
// against the shipped build. A reach that gains less than 5 ms goes (issue "Dependency internals
// pay rent"); when one goes, remove its entry here with it.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { buildAction, buildCli } from './build.ts';
import { lazyBuiltins, type LazyBuiltins } from './lazy-builtins.ts';
import type * as Shipped from '../src/deps/undici.ts';
import type * as Plain from './plain/undici.ts';

const root = join(import.meta.dirname, '..');

// scripts/plain/undici.ts must export what src/ uses of src/deps/undici.ts, with the same types.
const parity = (plain: typeof Plain): Omit<typeof Shipped, 'undiciLazyBuiltins'> => plain;
void parity;

/** What the benchmark times: the action's steps, and the CLI's one-shot `record`. */
export type Step = 'main' | 'post' | 'idle' | 'record';

export interface Reach {
  /** The anchor of its row in docs/performance.md, which CONTRIBUTING.md links to. */
  id: string;
  dependency: string;
  file: string;
  /** What is taken out, in a few words. */
  what: string;
  /** The steps that load what it changes. */
  steps: Step[];
  /** Takes it out of the copy at `dir` (its src/, tsconfig), or out of the builtins each bundle gets. */
  takeOut(dir: string, builtins: { action: LazyBuiltins; cli: LazyBuiltins }): void;
}

export const REACHES: Reach[] = [
  {
    id: 'reach-undici-by-path',
    dependency: 'undici',
    file: 'src/deps/undici.ts',
    what: "undici's files by path instead of its index",
    steps: ['main', 'post', 'record'],
    takeOut: (dir) => cpSync(join(root, 'scripts', 'plain', 'undici.ts'), join(dir, 'src', 'deps', 'undici.ts')),
  },
  {
    id: 'reach-undici-http2',
    dependency: 'undici',
    file: 'src/deps/undici.ts',
    what: '`node:http2` behind a stand-in that answers its constants',
    steps: ['main', 'post', 'record'],
    takeOut: (_, builtins) => {
      delete builtins.action['node:http2'];
      delete builtins.cli['node:http2'];
    },
  },
  {
    id: 'reach-core-aliases',
    dependency: '@actions/core',
    file: 'src/deps/actions-core.ts',
    what: '`@actions/http-client` and `@actions/exec` aliased to stand-ins',
    steps: ['main', 'post', 'idle'],
    takeOut: (dir) => {
      const file = join(dir, 'src', 'tsconfig.json');
      const parsed = ts.parseConfigFileTextToJson(file, readFileSync(file, 'utf8'));
      if (parsed.error)
        throw new Error(`src/tsconfig.json: ${ts.flattenDiagnosticMessageText(parsed.error.messageText, '\n')}`);
      const tsconfig = parsed.config as { compilerOptions: Record<string, unknown> };
      delete tsconfig.compilerOptions.paths;
      writeFileSync(file, JSON.stringify(tsconfig, null, 2));
    },
  },
  {
    id: 'reach-core-crypto',
    dependency: '@actions/core',
    file: 'src/deps/actions-core.ts',
    what: '`crypto` behind a stand-in loaded on first use',
    steps: ['main', 'post', 'idle'],
    takeOut: (_, builtins) => {
      delete builtins.action.crypto;
    },
  },
];

/** A build the benchmark runs: `actionRoot`/dist/ (as action.yml names it) and the CLI's launcher. */
export interface Build {
  actionRoot: string;
  cli: string;
}

/**
 * The project built with `reach` taken out, into a scratch folder: a copy of src/ and the files the
 * build reads beside it (tsconfig.json, package.json for the CLI's version), and node_modules/ as a
 * link to the project's, so that src/deps/'s paths into it hold. Only the bundles the reach's steps
 * load are built. Call `remove()` when done.
 */
export async function buildWithout(reach: Reach): Promise<Build & { remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), `report-deployment-${reach.id}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true });
    for (const file of ['tsconfig.json', 'package.json']) cpSync(join(root, file), join(dir, file));
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const builtins = { action: lazyBuiltins(true), cli: lazyBuiltins(false) };
    reach.takeOut(dir, builtins);
    const src = join(dir, 'src');
    if (reach.steps.some((step) => step !== 'record')) {
      await buildAction({ src, out: join(dir, 'dist'), lazyBuiltins: builtins.action, shipped: false });
    } else {
      mkdirSync(join(dir, 'dist'));
    }
    if (reach.steps.includes('record')) {
      await buildCli({ src, out: join(dir, 'cli'), lazyBuiltins: builtins.cli, shipped: false });
    }
    return { actionRoot: dir, cli: join(dir, 'cli'), remove };
  } catch (error) {
    remove();
    throw error;
  }
}
