// PLACEHOLDER until the CI tables land (branch ci-context): the CI the CLI runs in and its defaults.
import type { FieldDefaults } from '../core/deployment.js';
import type { Log } from '../core/log.js';
import { readEventFile } from './event-file.js';
import { githubDefaults } from './github.js';

export interface CiContext {
  name: string | undefined;
  defaults: FieldDefaults;
}

export async function readCiContext(
  env: Record<string, string | undefined>,
  options: { cwd: string; log: Pick<Log, 'warning' | 'debug'> },
): Promise<CiContext> {
  await Promise.resolve();
  if (env.GITHUB_ACTIONS === 'true') {
    const payload = readEventFile(env.GITHUB_EVENT_PATH, options.log);
    return {
      name: 'GitHub Actions',
      defaults: githubDefaults({ eventName: env.GITHUB_EVENT_NAME ?? '', payload, env, checkRunId: '' }),
    };
  }
  return { name: undefined, defaults: { values: {}, missing: (field) => `is not set. Set \`--${field}\`.` } };
}
