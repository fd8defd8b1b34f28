// The end-to-end tests judge dist/, so they must never judge a dist/ built from other sources than
// the ones beside it: a stale bundle passes or fails for the wrong reasons. `npm run build` records
// the fingerprint of its sources in dist/source-hash.txt (scripts/source-hash.ts); test/helpers/run-action.ts
// compares it with the sources at load time, so every end-to-end file fails at once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SOURCE_HASH_FILE, sourceHash } from '../../scripts/source-hash.ts';

export const STALE_DIST_MESSAGE = 'dist/ is stale (built from other sources than src/ now holds): run `npm run build`';

/**
 * Throws unless `recorded` (the contents of dist/source-hash.txt, undefined when there is none) is
 * the fingerprint `current` of the sources now.
 */
export function assertDistBuiltFrom(current: string, recorded: string | undefined): void {
  if (recorded === undefined) throw new Error(`${STALE_DIST_MESSAGE} (there is no ${SOURCE_HASH_FILE})`);
  if (recorded.trim() !== current) {
    throw new Error(`${STALE_DIST_MESSAGE} (sources ${current.slice(0, 12)}, dist/ ${recorded.trim().slice(0, 12)})`);
  }
}

/** The check for a checkout at `root`: its sources against its dist/source-hash.txt. */
export function assertFreshDist(root: string): void {
  let recorded: string | undefined;
  try {
    recorded = readFileSync(join(root, SOURCE_HASH_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  assertDistBuiltFrom(sourceHash(root), recorded);
}
