// Stand-in for `@actions/http-client`, which @actions/core imports only for its OIDC helper
// (core.getIDToken). The bundler maps that import here (`paths` in src/tsconfig.json). The real
// module (with tunnel and undici 6) has top-level side effects, so without this the bundler keeps
// and evaluates it in every step's entry; this stand-in has none, so the bundler drops it (and the
// real module) while getIDToken is unused, and if it ever is used, each request method loads the
// real module on first use and forwards to a real HttpClient made with the same arguments.
// Keep this module free of top-level side effects, or the bundler keeps it.
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
