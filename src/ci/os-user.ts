// Who runs this process, where git names no one: the OS account, else USER or USERNAME.
import { userInfo } from 'node:os';
import type { Sourced } from '../core/deployment.js';
import { isBlank } from '../core/text.js';
import { variable, type Env } from './variables.js';

/** `account` is node:os's userInfo, or a test's. */
export function osUser(env: Env, account: () => { username: string } = userInfo): Sourced | undefined {
  try {
    // Throws where the account has no entry in the user database (a container run as a bare uid).
    const { username } = account();
    if (!isBlank(username)) return { value: username, source: 'the OS user' };
  } catch {
    // USER or USERNAME, then.
  }
  for (const name of ['USER', 'USERNAME']) {
    const value = variable(env, name);
    if (!isBlank(value)) return { value, source: name };
  }
  return undefined;
}
