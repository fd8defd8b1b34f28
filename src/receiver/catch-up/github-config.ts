// GitHub's catch-up is enabled by GITHUB_HOOKS, the webhooks whose deliveries it reads
// (`orgs/ORG/hooks/ID`, `repos/OWNER/REPO/hooks/ID`, space-separated), with GITHUB_TOKEN, a token
// that may read them, and GITHUB_API_URL for GitHub Enterprise Server (default
// https://api.github.com). GITHUB_TOKEN alone enables nothing (it is set for many tools); hooks
// without a token, or a value that cannot be what it says, stop the receiver at start.
import { ConfigError } from '../../core/config-error.js';
import { proxyFor } from '../../core/proxy.js';
import { quote } from '../../core/text.js';
import { instanceOf } from '../sources/fields.js';
import { type AppKey, readAppKey } from './github-app-jwt.js';

type Env = Record<string, string | undefined>;

export const HOOKS_VARIABLE = 'GITHUB_HOOKS';
export const TOKEN_VARIABLE = 'GITHUB_TOKEN';
export const API_VARIABLE = 'GITHUB_API_URL';

export interface GithubCatchUpConfig {
  /** The REST API's root, ending in `/`. */
  api: URL;
  /** For the repositories' and organizations' hooks; '' where only the App's is read. */
  token: string;
  /** The App whose own webhook is read (`app` in GITHUB_HOOKS), signing its JWT. */
  app?: AppKey;
  /** Each hook's path under the API, without slashes at its ends: `repos/acme/shop/hooks/12`, `app/hook`. */
  hooks: string[];
  /** The GitHub the deliveries came from, as the webhook's keys name it (`github.com`, or a server's host). */
  instance: string;
}

export const APP_HOOK = 'app/hook';

const HOOK = /^(?:app|(?:orgs\/[A-Za-z0-9-]{1,39}|repos\/[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100})\/hooks\/\d{1,20})$/;

/** The configuration, or undefined where GITHUB_HOOKS is not set; throws a ConfigError naming the variable at fault. */
export function readGithubCatchUp(env: Env): GithubCatchUpConfig | undefined {
  const hooksText = env[HOOKS_VARIABLE]?.trim() ?? '';
  if (!hooksText) return undefined;
  const words = hooksText.split(/\s+/);
  const wrong = words.find((hook) => !HOOK.test(hook));
  if (wrong !== undefined) {
    throw new ConfigError(
      `Environment variable ${HOOKS_VARIABLE}`,
      `holds ${quote(wrong.slice(0, 120))}, which names no webhook. Give each as orgs/ORG/hooks/ID, repos/OWNER/REPO/hooks/ID (the ID is in the webhook's settings URL) or app (a GitHub App's own webhook), separated by spaces.`,
    );
  }
  const hooks = [...new Set(words.map((word) => (word === 'app' ? APP_HOOK : word)))];
  const app = hooks.includes(APP_HOOK) ? appKeyOf(env) : undefined;
  const token = env[TOKEN_VARIABLE] ?? '';
  if (!token && hooks.some((hook) => hook !== APP_HOOK)) {
    throw new ConfigError(
      `Environment variable ${TOKEN_VARIABLE}`,
      `is not set, but ${HOOKS_VARIABLE} is: reading a webhook's deliveries needs a token that may read the webhook (docs/receiver.md, "GitHub's catch-up"). Set it, or unset ${HOOKS_VARIABLE}.`,
    );
  }
  if (token && !/^[\x21-\x7e]+$/.test(token)) {
    throw new ConfigError(
      `Environment variable ${TOKEN_VARIABLE}`,
      'holds white space or a character no HTTP header carries (a line break from `echo`?). Set it to the token alone.',
    );
  }
  const api = apiUrl(env[API_VARIABLE]?.trim() || 'https://api.github.com');
  // A proxy variable that is no URL is said now, not at the first pass.
  proxyFor(api, env);
  return { api, token, ...(app ? { app } : {}), hooks, instance: instanceFor(api) };
}

/** GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY, for `app`; an error names the variable, never the key. */
function appKeyOf(env: Env): AppKey {
  try {
    return readAppKey(env.GITHUB_APP_ID ?? '', env.GITHUB_APP_PRIVATE_KEY ?? '');
  } catch (error) {
    const [variable = 'GITHUB_APP_ID', ...rest] = (error as Error).message.split(': ');
    throw new ConfigError(`Environment variable ${variable}`, `${rest.join(': ')} (${HOOKS_VARIABLE} names \`app\`).`);
  }
}

function apiUrl(text: string): URL {
  const url = URL.parse(text);
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) {
    throw new ConfigError(
      `Environment variable ${API_VARIABLE}`,
      `is not the URL of GitHub's REST API: ${quote(text.replace(/\/\/[^/]*@/, '//***@'))}. Leave it unset for github.com, or set it to https://HOST/api/v3 for GitHub Enterprise Server.`,
    );
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** github.com's API is api.github.com; a GitHub Enterprise Server's is on its own host. */
function instanceFor(api: URL): string {
  // As the webhook's X-GitHub-Enterprise-Host names it: the host alone, whatever the API's path.
  const host = instanceOf(api.host) ?? api.host.toLowerCase();
  return host === 'api.github.com' ? 'github.com' : host;
}
