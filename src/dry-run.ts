// dry-run: print the requests the step would send, exactly as built for sending, but for the key.
import type { DeploymentStatus } from './constants.js';
import type { HttpRequest } from './http.js';
import type { Connection } from './inputs.js';
import type { Log } from './log.js';
import type { Plan } from './plan.js';
import { createRequest, updateRequest, type DeploymentId } from './service.js';
import { deploymentsText } from './step.js';

export function printDryRun(plan: Plan, connection: Connection, log: Log): void {
  const { baseUrl, apiKey } = connection;
  if (plan.kind === 'create') {
    plan.bodies.forEach((body) => printRequest(createRequest(baseUrl, apiKey, body), log));
    if (plan.finishInPost) log.info('Dry run: the post step would set these deployments from the job status.');
  } else if (plan.kind === 'update') {
    plan.ids.forEach((id) => printRequest(updateRequest(baseUrl, apiKey, id, plan.status), log));
  } else {
    log.info(`Dry run: the post step would set ${deploymentsText(plan.ids)} from the job status.`);
  }
  log.info('Dry run: nothing was sent.');
}

/** The post step's requests; `ids` may be placeholders for deployments a dry-run main step did not create. */
export function printDryRunFinish(
  ids: DeploymentId[],
  status: DeploymentStatus,
  connection: Connection,
  log: Log,
): void {
  ids.forEach((id) => printRequest(updateRequest(connection.baseUrl, connection.apiKey, id, status), log));
  log.info('Dry run: nothing was sent.');
}

function printRequest(request: HttpRequest, log: Log): void {
  const headers = Object.entries(request.headers).map(([name, value]) =>
    name === 'x-api-key' ? `${name}: ***` : `${name}: ${value}`,
  );
  const body = JSON.stringify(JSON.parse(request.body), null, 2);
  log.info(['Dry run: would send', `${request.method} ${request.url.href}`, ...headers, body].join('\n'));
}
