// One source of deliveries (GitHub, GitLab, Argo CD, Flux): the environment variables that enable it,
// how it proves a request is its own, and what a verified request holds. The server routes
// `POST /webhooks/<name>` to it; a source whose secret is unset has no route.
import type { IncomingRequest, Parsed, SourceName } from './event.js';

type Env = Record<string, string | undefined>;

/**
 * How the mapping file names one of a source's objects: the form of the `object` its events carry.
 * A key of another form could never match, and is refused at start with `form` said.
 */
export interface MappingKey {
  readonly pattern: RegExp;
  /** The form in words, with an example: `the repository's name (shop-web)`. */
  readonly form: string;
  /** The labels its events may carry, which a key may select on (`@cluster=prod-eu`). */
  readonly labels?: readonly string[];
}

export type Verification = Verified | { ok: false; reason: string };

/** A request proven the source's own. */
export interface Verified {
  ok: true;
  /** The delivery id the proof covers (GitLab's signed `webhook-id`): parse deduplicates on it, not on an unsigned one. */
  signedId?: string;
}

/** A request before its body is read. */
export type RequestHead = Pick<IncomingRequest, 'headers' | 'now'>;

export interface Source<Secrets = unknown> {
  readonly name: SourceName;
  /** The variables that hold its secrets (any one set enables it). Secrets come only from the environment. */
  readonly secretVariables: readonly string[];
  /** How the mapping file names its objects. */
  readonly mappingKey: MappingKey;
  /** Its secrets, read from `env`; undefined when none is set. Throws a ConfigError for a malformed one. */
  secrets(env: Env): Secrets | undefined;
  /**
   * What the headers alone can tell, before a byte of the body is read (a token, a signature header
   * missing or malformed): a request that fails here is refused unread. `verify` checks it again.
   */
  checkHeaders(request: RequestHead, secrets: Secrets): Verification;
  /** Whether the request is the source's own, before a byte of it is parsed; comparisons in constant time. */
  verify(request: IncomingRequest, secrets: Secrets): Verification;
  /** What the verified request holds (`verified`: what verify proved of it). Never throws. */
  parse(request: IncomingRequest, verified?: Verified): Parsed;
  /** The status for an authentic request that is `invalid` (GitLab disables a hook for good on a 4xx); 400 where unset. */
  readonly invalidStatus?: number;
}
