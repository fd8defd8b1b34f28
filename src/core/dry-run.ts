// A dry run: a tracker that prints each request exactly as it would be sent, but for the key, and
// sends nothing. A deployment it "creates" has no id yet: PLACEHOLDER_ID stands for it.
import type { HttpRequest } from './http.js';
import type { DeploymentId } from './ids.js';
import type { Log } from './log.js';
import { createRequest, updateRequest, type Tracker } from './service.js';
import type { Connection } from './settings.js';

/** The id of a deployment a dry run would have created: `{id}` in the URLs it prints. */
export const PLACEHOLDER_ID: DeploymentId = Object.freeze({ text: '{id}', numeric: false });

export function dryRunTracker({ baseUrl, apiKey }: Connection, log: Log): Tracker {
  return {
    create(body) {
      log.info(requestLines(createRequest(baseUrl, apiKey, body)));
      return Promise.resolve(PLACEHOLDER_ID);
    },
    update(id, status) {
      const request = updateRequest(baseUrl, apiKey, id, status);
      // Not URL-encoded, so that it reads as the placeholder it is.
      const url = id === PLACEHOLDER_ID ? `${baseUrl.href}deployment/{id}` : request.url.href;
      log.info(requestLines(request, url));
      return Promise.resolve();
    },
  };
}

/** The lines that show one request: method and URL, headers (the key as ***), the body. */
function requestLines(request: HttpRequest, url = request.url.href): string[] {
  const headers = Object.entries(request.headers).map(([name, value]) =>
    name === 'x-api-key' ? `${name}: ***` : `${name}: ${value}`,
  );
  const body = JSON.stringify(JSON.parse(request.body), null, 2).split('\n');
  return ['Dry run: would send', `${request.method} ${url}`, ...headers, ...body];
}
