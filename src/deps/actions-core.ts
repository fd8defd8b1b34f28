// The reaches into @actions/core: stand-ins for what it imports at load and a step never uses. Why,
// in a line each:
// - `@actions/http-client` (for core.getIDToken, OIDC) and `@actions/exec` (for
//   core.platform.getDetails) have top-level side effects (tunnel, undici 6), so the bundler keeps
//   and evaluates them in every step; `paths` in src/tsconfig.json (which the bundler applies inside
//   node_modules too) maps them to this file, which has none, so they stay out, and each function
//   here loads the real package on first use.
// - `crypto` (coreLazyBuiltins below): core requires it at load for the delimiters of its file
//   commands, which a step with nothing to write never needs.
// Nothing in src/ imports this file by name: the bundler does, for @actions/core. Keep it free of
// top-level side effects, or the bundler keeps it. Pinned by test/deps/actions-core.test.ts; its
// gain is measured by `npm run bench -- --reaches` (docs/performance.md).
import type * as RealExec from '../../node_modules/@actions/exec/lib/exec.js';
import type * as Real from '../../node_modules/@actions/http-client/lib/index.js';

type RealClient = Real.HttpClient;
type Args<M extends keyof RealClient> = RealClient[M] extends (...args: infer A) => unknown ? A : never;
type Result<M extends keyof RealClient> = RealClient[M] extends (...args: never[]) => infer R ? R : never;

let realModule: Promise<typeof Real> | undefined;
/** The real @actions/http-client, by file: its package name is mapped to this stand-in. */
function loadReal(): Promise<typeof Real> {
  return (realModule ??= import('../../node_modules/@actions/http-client/lib/index.js'));
}

export class HttpClient {
  readonly #args: ConstructorParameters<typeof Real.HttpClient>;
  #client: Promise<RealClient> | undefined;

  constructor(...args: ConstructorParameters<typeof Real.HttpClient>) {
    this.#args = args;
  }

  #real(): Promise<RealClient> {
    return (this.#client ??= loadReal().then((real) => new real.HttpClient(...this.#args)));
  }

  async #call<M extends keyof RealClient>(method: M, args: Args<M>): Promise<Awaited<Result<M>>> {
    const client = await this.#real();
    return (client[method] as (...a: Args<M>) => Awaited<Result<M>>)(...args);
  }

  options(...args: Args<'options'>) {
    return this.#call('options', args);
  }
  get(...args: Args<'get'>) {
    return this.#call('get', args);
  }
  del(...args: Args<'del'>) {
    return this.#call('del', args);
  }
  post(...args: Args<'post'>) {
    return this.#call('post', args);
  }
  patch(...args: Args<'patch'>) {
    return this.#call('patch', args);
  }
  put(...args: Args<'put'>) {
    return this.#call('put', args);
  }
  head(...args: Args<'head'>) {
    return this.#call('head', args);
  }
  sendStream(...args: Args<'sendStream'>) {
    return this.#call('sendStream', args);
  }
  getJson(...args: Args<'getJson'>) {
    return this.#call('getJson', args);
  }
  postJson(...args: Args<'postJson'>) {
    return this.#call('postJson', args);
  }
  putJson(...args: Args<'putJson'>) {
    return this.#call('putJson', args);
  }
  patchJson(...args: Args<'patchJson'>) {
    return this.#call('patchJson', args);
  }
  request(...args: Args<'request'>) {
    return this.#call('request', args);
  }
  requestRaw(...args: Args<'requestRaw'>) {
    return this.#call('requestRaw', args);
  }

  /** Callback form of requestRaw: the real client is loaded first. */
  requestRawWithCallback(...args: Args<'requestRawWithCallback'>): void {
    this.#real().then(
      (client) => client.requestRawWithCallback(...args),
      (error: unknown) => args[2](error instanceof Error ? error : new Error(String(error))),
    );
  }

  dispose(): void {
    void this.#client?.then((client) => client.dispose());
  }
}

let realExec: Promise<typeof RealExec> | undefined;
/** The real @actions/exec (by file: its package name is mapped to this stand-in). Core uses only getExecOutput. */
const loadRealExec = () => (realExec ??= import('../../node_modules/@actions/exec/lib/exec.js'));

export async function getExecOutput(
  ...args: Parameters<typeof RealExec.getExecOutput>
): ReturnType<typeof RealExec.getExecOutput> {
  return (await loadRealExec()).getExecOutput(...args);
}

/**
 * Builtins @actions/core requires at load, each written next to the bundle as a stand-in that loads
 * it on first use (scripts/lazy-builtins.ts): crypto, for the randomUUID() of its file commands (a
 * post step with nothing to send never needs it; one that sends over https gets it with TLS). A
 * function, not a constant: an exported value would keep this module, and the real packages, in
 * the bundle.
 */
export function coreLazyBuiltins() {
  return { crypto: { file: 'node-crypto.js' } };
}
