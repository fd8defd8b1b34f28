// One source of deliveries (GitHub, GitLab, Argo CD, Flux): the environment variables that enable it,
// how it proves a request is its own, and what a verified request holds. The server routes
// `POST /webhooks/<name>` to it; a source whose secret is unset has no route.
import type { IncomingRequest, Parsed, SourceName } from './event.js';

type Env = Record<string, string | undefined>;

export type Verification = { ok: true } | { ok: false; reason: string };

/** A request before its body is read. */
export type RequestHead = Pick<IncomingRequest, 'headers' | 'now'>;

export interface Source<Secrets = unknown> {
  readonly name: SourceName;
  /** The variables that hold its secrets (any one set enables it). Secrets come only from the environment. */
  readonly secretVariables: readonly string[];
  /** Its secrets, read from `env`; undefined when none is set. Throws a ConfigError for a malformed one. */
  secrets(env: Env): Secrets | undefined;
  /**
   * What the headers alone can tell, before a byte of the body is read (a token, a signature header
   * missing or malformed): a request that fails here is refused unread. `verify` checks it again.
   */
  checkHeaders(request: RequestHead, secrets: Secrets): Verification;
  /** Whether the request is the source's own, before a byte of it is parsed; comparisons in constant time. */
  verify(request: IncomingRequest, secrets: Secrets): Verification;
  /** What the verified request holds. Never throws. */
  parse(request: IncomingRequest): Parsed;
  /** The status for an authentic request that is `invalid` (GitLab disables a hook for good on a 4xx); 400 where unset. */
  readonly invalidStatus?: number;
}
