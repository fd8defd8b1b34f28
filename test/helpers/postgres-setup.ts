// vitest's global setup for the `main` project: one PostgreSQL server for the whole run (test/helpers/postgres.ts),
// stopped at the end. Each test file that needs one makes its own database on it (`testDatabase`).
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  // Should the run itself die, the server must not outlive it.
  const orphaned = () => {
    try {
      process.kill(server.pid, 'SIGKILL');
    } catch {
      // Already stopped.
    }
  };
  process.once('exit', orphaned);
  project.provide('postgresAdminUrl', server.adminUrl);
  return async () => {
    process.off('exit', orphaned);
    await server.stop();
  };
}
