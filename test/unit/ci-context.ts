// readCiContext as the CI tests call it: the defaults as plain records (field → value, field →
// source), so that a table says every value there is and, by leaving a field out, that there is none.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCiContext, type CiContextOptions } from '../../src/ci/detect.ts';
import type { Lines } from '../../src/core/log.ts';

export interface Seen {
  name: string | undefined;
  values: Record<string, string>;
  sources: Record<string, string>;
  missing: (field: 'commitSha' | 'branch' | 'user') => string;
  warnings: string[];
}

/** A fresh folder, in no git repository. */
export function freshDir(prefix = 'ci-context-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * The context `env` gives, read in `cwd`. git runs with `env` only, and never looks above `cwd`'s
 * parent: a table's git finds no repository unless the test made one.
 */
export async function contextOf(
  env: Record<string, string>,
  cwd: string,
  options: Pick<CiContextOptions, 'given' | 'signal'> & { debug?: string[] } = {},
): Promise<Seen> {
  const warnings: string[] = [];
  const log = {
    warning: (text: string | readonly string[]) => void warnings.push(String(text)),
    debug: (text: Lines | (() => Lines)) => {
      const lines = typeof text === 'function' ? text() : text;
      options.debug?.push(...(typeof lines === 'string' ? [lines] : lines));
    },
  };
  const { given, signal } = options;
  const context = await readCiContext(
    { GIT_CEILING_DIRECTORIES: join(cwd, '..'), ...env },
    { cwd, log, given, signal },
  );
  const values: Record<string, string> = {};
  const sources: Record<string, string> = {};
  for (const [field, sourced] of Object.entries(context.defaults.values)) {
    values[field] = sourced.value;
    sources[field] = sourced.source;
  }
  return { name: context.name, values, sources, missing: (field) => context.defaults.missing(field), warnings };
}
