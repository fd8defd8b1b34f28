// Reading a CI's variables into default values, each named by the variables it came from
// ("GitLab CI (CI_COMMIT_SHA)"). A variable that is empty counts as absent: CIs export empty
// variables for the builds they do not apply to (GitLab's merge request variables on a push).
import type { FieldName, Sourced } from '../core/deployment.js';
import { isBlank } from '../core/text.js';

/** The environment as given: strings only (detect.ts keeps nothing else). */
export type Env = Record<string, string | undefined>;

/** A CI's defaults; a field is left out (or undefined, or '') where the build gives none: detect.ts keeps the others. */
export type CiValues = Partial<Record<FieldName, Sourced | undefined>>;

/** A variable's value; '' when it is unset or empty. */
export function variable(env: Env, name: string): string {
  return env[name] ?? '';
}

/** Whether a variable that marks a CI is there: any value but an empty one, as env-ci decides. */
export function isSet(env: Env, name: string): boolean {
  return variable(env, name) !== '';
}

/** `value` without `prefix`, or '' where it does not start with it. */
export function after(value: string, prefix: string): string {
  return value.startsWith(prefix) ? value.slice(prefix.length) : '';
}

/** The variables of one CI, each value named `${ci} (${variable})`. */
export class CiVariables {
  readonly #env: Env;
  readonly #ci: string;

  constructor(env: Env, ci: string) {
    this.#env = env;
    this.#ci = ci;
  }

  get(name: string): string {
    return variable(this.#env, name);
  }

  /** `value` as coming from `names`; undefined for '' or a blank one. */
  sourced(value: string, ...names: string[]): Sourced | undefined {
    return !isBlank(value) ? { value, source: `${this.#ci} (${names.join(', ')})` } : undefined;
  }

  /** The first of `names` that holds a value, not a blank one. */
  first(...names: string[]): Sourced | undefined {
    const name = names.find((candidate) => !isBlank(this.get(candidate)));
    return name ? this.sourced(this.get(name), name) : undefined;
  }

  /**
   * One line naming the build from its parts that hold a value, each a label and a variable:
   * "GitLab CI pipeline 123, job deploy". undefined where none does.
   */
  describe(parts: readonly (readonly [label: string, name: string])[]): Sourced | undefined {
    const given = parts.filter(([, name]) => !isBlank(this.get(name)));
    if (given.length === 0) return undefined;
    const text = given.map(([label, name]) => `${label} ${this.get(name)}`).join(', ');
    return this.sourced(`${this.#ci} ${text}`, ...given.map(([, name]) => name));
  }
}
