// A source's secret as the environment gives it: unset or empty leaves the source off; anything else
// must be a secret worth the name, or the receiver does not start. A secret of only white space, or of
// a few characters, would let anyone who guesses it record deployments.
import { ConfigError } from '../../core/config-error.js';

type Env = Record<string, string | undefined>;

/**
 * Characters a secret holds at least: a random secret of 16 characters from any of the usual
 * generators (`openssl rand -hex 16` gives 32, GitLab's signing token 32 bytes) is far past guessing,
 * and a shorter one is a word someone typed. See docs/receiver.md#secrets.
 */
export const MIN_SECRET_CHARACTERS = 16;

/** How the placeholders of the examples once shipped begin (an example Secret applied unedited). */
const PLACEHOLDER = 'replace-with-';

/** The secret in `variable`, as UTF-8 bytes; undefined when it is unset or empty. */
export function readSecret(env: Env, variable: string): Buffer | undefined {
  const value = env[variable];
  if (!value) return undefined;
  checkSecret(variable, value);
  return Buffer.from(value, 'utf8');
}

/** Throws a ConfigError naming `variable` (never its value) when `value` is no secret worth the name. */
export function checkSecret(variable: string, value: string): void {
  const problem = problemOf(value);
  if (problem) {
    throw new ConfigError(
      `Environment variable ${variable}`,
      `${problem} Set it to a random secret of at least ${MIN_SECRET_CHARACTERS} characters (\`openssl rand -hex 32\`), the same as the sender's.`,
    );
  }
}

function problemOf(value: string): string | undefined {
  if (value.trim() === '') return 'is only white space: anyone could send it.';
  if (value.trim() !== value) {
    return 'starts or ends with white space (a line break from `echo`?): senders do not send it, so nothing would match.';
  }
  const length = [...value].length;
  if (length < MIN_SECRET_CHARACTERS) {
    return `is ${length} characters long, under the ${MIN_SECRET_CHARACTERS} a secret needs.`;
  }
  if (value.startsWith(PLACEHOLDER)) return 'is the placeholder of an example, which anyone can read.';
  return undefined;
}
