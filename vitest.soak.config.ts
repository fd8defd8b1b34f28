// `npm run test:soak`: the chaos soak with a random seed (SOAK in vitest.config.ts; CHAOS_SEED=N runs
// one seed again), with the same settings as `npm test` and its PostgreSQL server.
import { defineConfig } from 'vitest/config';
import base, { SOAK } from './vitest.config.ts';

export default defineConfig({
  test: {
    ...base.test,
    projects: [
      {
        extends: true,
        test: {
          name: 'soak',
          include: SOAK,
          provide: { cliSubject: 'npm' },
          globalSetup: ['test/helpers/postgres-setup.ts'],
        },
      },
    ],
  },
});
