// GitLab's catch-up is enabled by GITLAB_HOOKS, the webhooks whose events it reads
// (`projects/ID/hooks/HID`, `groups/ID/hooks/HID`, space-separated), with GITLAB_TOKEN, a token that
// may read them, and GITLAB_URL for a self-managed GitLab (default https://gitlab.com). Hooks
// without a token, or a value that cannot be what it says, stop the receiver at start.
import { ConfigError } from '../../core/config-error.js';
import { proxyFor } from '../../core/proxy.js';
import { quote } from '../../core/text.js';

type Env = Record<string, string | undefined>;

export const HOOKS_VARIABLE = 'GITLAB_HOOKS';
export const TOKEN_VARIABLE = 'GITLAB_TOKEN';
export const URL_VARIABLE = 'GITLAB_URL';

export interface GitLabCatchUpConfig {
  /** The REST API's root (`…/api/v4/`). */
  api: URL;
  token: string;
  /** Each hook's path under the API: `projects/42/hooks/7`. */
  hooks: string[];
  /** The GitLab, for the log: its host. */
  instance: string;
}

const HOOK = /^(?:projects|groups)\/\d{1,15}\/hooks\/\d{1,15}$/;

/** The configuration, or undefined where GITLAB_HOOKS is not set; throws a ConfigError naming the variable at fault. */
export function readGitLabCatchUp(env: Env): GitLabCatchUpConfig | undefined {
  const hooksText = env[HOOKS_VARIABLE]?.trim() ?? '';
  if (!hooksText) return undefined;
  const hooks = hooksText.split(/\s+/);
  const wrong = hooks.find((hook) => !HOOK.test(hook));
  if (wrong !== undefined) {
    throw new ConfigError(
      `Environment variable ${HOOKS_VARIABLE}`,
      `holds ${quote(wrong.slice(0, 120))}, which names no webhook. Give each as projects/ID/hooks/HID or groups/ID/hooks/HID (numeric ids: Settings > Webhooks shows the hook's), separated by spaces.`,
    );
  }
  const token = env[TOKEN_VARIABLE] ?? '';
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new ConfigError(
      `Environment variable ${TOKEN_VARIABLE}`,
      token
        ? 'holds white space or a character no HTTP header carries (a line break from `echo`?). Set it to the token alone.'
        : `is not set, but ${HOOKS_VARIABLE} is: reading a webhook's events needs a token of a maintainer (docs/receiver.md, "GitLab's catch-up"). Set it, or unset ${HOOKS_VARIABLE}.`,
    );
  }
  const text = env[URL_VARIABLE]?.trim() || 'https://gitlab.com';
  const base = URL.parse(text);
  if (!base || !/^https?:$/.test(base.protocol) || base.username || base.password || base.search || base.hash) {
    throw new ConfigError(
      `Environment variable ${URL_VARIABLE}`,
      `is not the URL of a GitLab: ${quote(text.replace(/\/\/[^/]*@/, '//***@'))}. Leave it unset for gitlab.com, or set it to https://gitlab.example.com.`,
    );
  }
  const api = new URL(`${base.pathname.replace(/\/+$/, '')}/api/v4/`, base);
  // A proxy variable that is no URL is said now, not at the first pass.
  proxyFor(api, env);
  return { api, token, hooks: [...new Set(hooks)], instance: base.host.toLowerCase() };
}
