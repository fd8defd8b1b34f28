// The chaos scenario (test/receiver/helpers/chaos.ts) as a soak, in `npm run test:soak` (CI runs it
// too): a random seed each run, 60 deployments over 30 s. A failure prints its seed; CHAOS_SEED=N
// runs that seed again.
import { beforeAll, describe, it, onTestFailed } from 'vitest';
import { chaos } from './helpers/chaos.ts';
import { INSTALL_TIMEOUT_MS, installedCli } from '../helpers/run-cli.ts';

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

describe('chaos soak: replicas killed at random on one PostgreSQL, the service faulting', () => {
  it(
    `records every deployment exactly once, in order, and hands a dead replica’s work on (seed ${SEED})`,
    { timeout: 150_000 },
    async () => {
      onTestFailed(() => console.error(`chaos seed ${SEED}: rerun with CHAOS_SEED=${SEED} npm run test:soak`));
      await chaos({ seed: SEED, deployments: 60, chaosMs: 30_000 });
    },
  );
});
