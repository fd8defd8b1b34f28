// The part of env-ci 11 (ESM only, no types of its own; @types/env-ci describes an older API) that
// src/ci/env-ci-fallback.ts uses. Every field may be missing, or hold "undefined/..." text.
declare module 'env-ci' {
  interface EnvCiResult {
    isCi?: boolean;
    /** "Travis CI"; set with `service` only where one of env-ci's CIs was detected. */
    name?: string;
    service?: string;
    commit?: string;
    /** The branch built; for a pull request, its target. */
    branch?: string;
    /** A pull request's source branch. */
    prBranch?: string;
    isPr?: boolean;
    tag?: string;
    buildUrl?: string;
    jobUrl?: string;
  }
  export default function envCi(options?: { env?: Record<string, string | undefined>; cwd?: string }): EnvCiResult;
}
