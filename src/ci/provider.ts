// What the CLI knows of one CI it reads itself: how to tell that a process runs in it, and what its
// variables say of the deployment. One module a CI (gitlab-ci.ts, jenkins.ts, ...), each a table
// from that CI's documented variables.
import type { Log } from '../core/log.js';
import type { CiValues, Env } from './variables.js';

export interface CiProvider {
  /** As the CI names itself: "GitLab CI". */
  name: string;
  detect(env: Env): boolean;
  /** The build's defaults; the tag of a tag build as `version`, left out otherwise. */
  values(env: Env, log: Pick<Log, 'warning'>): CiValues;
  /** Where a user could come from, for the error when this CI's variables name none. */
  userHint?: string;
}
