// Every setting read and validated once, before any request is sent, into typed values. A bad value
// is a ConfigError that names the setting as the face calls it (an input, a flag) and says how to
// fix it; every bad setting is named at once. This module reads the settings every step and command
// shares (how to reach the service, how to treat a failure); request.ts reads what to record.
import { Limits, Settings, type SettingName } from './constants.js';
import { ConfigError, ProblemCollector } from './config-error.js';
import { checkExtraCaCerts } from './extra-ca-certs.js';
import { checkTlsVerification } from './tls-check.js';
import { isLoopback, proxyFor, withoutCredentials, type Env, type Proxy } from './proxy.js';
import { cleaner } from './secret.js';
import type { ImpliedStatus } from './status.js';
import { quote } from './text.js';
import type { Words } from './words.js';

/** A value in a configuration error: quoted, shortened, and first cleaned of the key as the log shows it. */
export type Quote = (value: string) => string;

/**
 * How values are quoted where `apiKey` is the key: cleaned (the key scrubbed in every form) before it
 * is shortened, so that a long key put by mistake into another setting shows no part of itself.
 */
export function quoterFor(apiKey: string): Quote {
  const clean = cleaner(apiKey);
  return (value) => quote(clean(value));
}

/** Where settings come from: the action's inputs, the CLI's flags and environment. */
export interface SettingSource {
  /** The setting as given; '' when it is not set. */
  get(name: SettingName): string;
  /**
   * What an empty key means here: a configuration error's text, or, where the key may be withheld
   * on purpose (a fork's pull request, an unprotected branch), a warning that nothing is recorded.
   */
  emptyKey(): { problem: string } | { warning: string };
  /**
   * What an empty `status` stands for here, where the run's own event says how the deployment ended (a
   * run started by a deployment's change of state); undefined where it does not: start now, finish later.
   */
  impliedStatus?(): ImpliedStatus | undefined;
  /** The face's words, for every message about these settings and what they lead to. */
  words: Words;
}

/** How to reach the service. */
export interface Connection {
  /** '' only where an empty key records nothing (Settings.noKey says why). */
  apiKey: string;
  /** Always ends with '/', so that `new URL('deployment', baseUrl)` keeps its path. */
  baseUrl: URL;
  timeoutMs: number;
  retries: number;
  /** The proxy that carries the requests; undefined for a direct connection. */
  proxy: Proxy | undefined;
}

/** What every step and command needs: how to reach the service, and how to treat a failure. */
export interface CommonSettings {
  connection: Connection;
  failOnError: boolean;
  dryRun: boolean;
  /** The key is empty where it may be withheld: why nothing is recorded (a warning). */
  noKey?: string;
  /** The words of the face these settings came from, for the messages of the requests they lead to. */
  words: Words;
}

/** The common settings alone (a post step, a `finish`): throws one ConfigError naming every problem. */
export function readSettings(source: SettingSource, env: Env): CommonSettings {
  const problems = new ProblemCollector();
  const settings = readCommon(source, env, problems, quoterFor(source.get(Settings.ApiKey)));
  problems.throwIfAny();
  return settings;
}

/** The common settings, each problem collected in `problems` (request.ts reads them with the request). */
export function readCommon(source: SettingSource, env: Env, problems: ProblemCollector, shown: Quote): CommonSettings {
  const keyOrWarning = problems.read(() => readApiKey(source), { apiKey: '' });
  const allowInsecureHttp = problems.read(() => readBoolean(source, Settings.AllowInsecureHttp, shown), false);
  const baseUrl = problems.read(() => readBaseUrl(source, allowInsecureHttp, shown), undefined);
  const proxy = baseUrl && problems.read(() => proxyFor(baseUrl, env, shown), undefined);
  const usesTls = baseUrl?.protocol === 'https:' || proxy?.url.protocol === 'https:';
  problems.read(() => checkExtraCaCerts(env, usesTls, shown), undefined);
  problems.read(() => checkTlsVerification(env, usesTls), undefined);
  const timeoutSeconds = problems.read(() => readNumber(source, Settings.TimeoutSeconds, SECONDS, shown), 0);
  const retries = problems.read(() => readNumber(source, Settings.Retries, RETRIES, shown), 0);
  const failOnError = problems.read(() => readBoolean(source, Settings.FailOnError, shown), false);
  const dryRun = problems.read(() => readBoolean(source, Settings.DryRun, shown), false);
  const { apiKey, noKey } = keyOrWarning;
  return {
    connection: {
      apiKey,
      baseUrl: baseUrl as URL,
      timeoutMs: timeoutSeconds * 1000,
      retries,
      proxy,
    },
    failOnError,
    dryRun,
    ...(noKey ? { noKey } : {}),
    words: source.words,
  };
}

// What an HTTP header value may hold (RFC 9110 field-value: visible characters, obs-text, space, tab).
const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;

function readApiKey(source: SettingSource): { apiKey: string; noKey?: string } {
  const apiKey = source.get(Settings.ApiKey);
  const subject = source.words.setting(Settings.ApiKey);
  if (!apiKey) {
    const empty = source.emptyKey();
    if ('problem' in empty) throw new ConfigError(subject, empty.problem);
    return { apiKey, noKey: empty.warning };
  }
  if (!HEADER_SAFE.test(apiKey)) {
    throw new ConfigError(
      subject,
      'holds a character no HTTP header can carry (a line break, another control character, or one outside Latin-1). Copy the key again from the service.',
    );
  }
  return { apiKey };
}

function readBaseUrl(source: SettingSource, allowInsecureHttp: boolean, quoted: Quote): URL {
  const raw = source.get(Settings.BaseUrl);
  const shown = quoted(withoutCredentials(raw));
  const example = 'e.g. `https://tracker.example.com/api`';
  const problem = (text: string) => new ConfigError(source.words.setting(Settings.BaseUrl), text);
  if (!raw) throw problem(`is empty. Set it to the service's address, ${example}.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw problem(`is not a URL: ${shown}. Set it to the service's address, ${example}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw problem(`must be an http(s) URL, got ${shown}. Use ${example}.`);
  }
  if (url.username || url.password) {
    throw problem(`must not carry credentials; the key goes in ${source.words.assignment(Settings.ApiKey)}.`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
    throw problem(
      `uses plain http to '${url.hostname}', which would send the API key in clear. Use https, or set ${source.words.assignment(Settings.AllowInsecureHttp, 'true')} if the network path is trusted.`,
    );
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

export function readBoolean(
  source: Pick<SettingSource, 'get' | 'words'>,
  name: SettingName,
  shown: Quote = quote,
): boolean {
  const raw = source.get(name);
  const value = raw.toLowerCase();
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  throw new ConfigError(source.words.setting(name), `must be \`true\` or \`false\`, got ${shown(raw)}.`);
}

/** The numbers a setting takes: what it must look like, its bounds, and how an error says so. */
interface NumberRange {
  accepts: RegExp;
  min: number;
  max: number;
  /** Before the maximum, in an error: "must be a whole number from 0 to 10". */
  expected: string;
}

const SECONDS: NumberRange = {
  accepts: /^\d+(\.\d+)?$/,
  min: 0.001,
  max: Limits.timeoutSeconds,
  expected: 'a number of seconds above 0 and at most',
};
const RETRIES: NumberRange = { accepts: /^\d+$/, min: 0, max: Limits.retries, expected: 'a whole number from 0 to' };

function readNumber(source: SettingSource, name: SettingName, range: NumberRange, shown: Quote): number {
  const { accepts, min, max, expected } = range;
  const raw = source.get(name);
  const value = accepts.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    throw new ConfigError(source.words.setting(name), `must be ${expected} ${max}, got ${shown(raw)}.`);
  }
  return value;
}
