// The tracker a run talks to: the service over HTTP, or, in a dry run, one that prints each request
// instead of sending it. Its connections are closed once `use` is done.
import { dryRunTracker } from './dry-run.js';
import type { Log } from './log.js';
import { createTracker, type Tracker } from './service.js';
import type { CommonSettings } from './settings.js';

export async function withTracker<T>(
  { connection, words }: Pick<CommonSettings, 'connection' | 'words'>,
  log: Log,
  dryRun: boolean,
  use: (tracker: Tracker) => Promise<T>,
): Promise<T> {
  if (dryRun) return use(dryRunTracker(connection, log));
  // Loaded only when a request is sent: the HTTP client is most of a start-up.
  const { createHttpClient } = await import('./http.js');
  const http = await createHttpClient({ ...connection, log, serviceAddress: words.serviceAddress });
  try {
    return await use(createTracker(http, connection, words));
  } finally {
    await http.close();
  }
}
