// The chaos scenario (test/receiver/helpers/chaos.ts) in `npm test`: one fixed seed, short, yet with
// every source, a replica killed (SIGKILL) in the middle of its work and that work taken over. The
// random seeds run longer in `npm run test:soak` (chaos-soak.test.ts).
import { beforeAll, describe, it, onTestFailed } from 'vitest';
import { chaos } from './helpers/chaos.ts';
import { INSTALL_TIMEOUT_MS, installedCli } from '../helpers/run-cli.ts';

const SEED = 20261128;

beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

describe('chaos: replicas killed at random on one PostgreSQL, the service faulting', () => {
  it(
    'records every deployment exactly once, in order, and hands a dead replica’s work on',
    { timeout: 100_000 },
    async () => {
      onTestFailed(() =>
        console.error(
          `chaos seed ${SEED} (fixed): rerun with npx vitest run --project main test/receiver/chaos.test.ts`,
        ),
      );
      await chaos({ seed: SEED, deployments: 16, chaosMs: 8_000 });
    },
  );
});
