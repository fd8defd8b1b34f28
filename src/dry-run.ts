// dry-run: what each step would send, exactly as built for sending but for the key, and nothing sent.
import type { DeploymentStatus } from './constants.js';
import type { Handoff } from './handoff.js';
import type { HttpRequest } from './http.js';
import { deploymentsText } from './ids.js';
import type { MainPlan } from './plan.js';
import type { MainOutcome, PostOutcome } from './report.js';
import { createRequest, updateRequest } from './service.js';
import type { Connection } from './settings.js';

/** What the main step would send, and what it hands the post step (which shows its own requests). */
export function dryRunMain(plan: Exclude<MainPlan, { kind: 'nothing' }>, connection: Connection): MainOutcome {
  const { baseUrl, apiKey } = connection;
  const outcome = (lines: string[], status: DeploymentStatus | '', handoff: Handoff): MainOutcome => ({
    kind: 'dry-run',
    lines,
    status,
    handoff,
  });
  switch (plan.kind) {
    case 'finish-in-post':
      return outcome([`Dry run: the post step would set ${deploymentsText(plan.ids)} from the job status.`], '', {
        kind: 'finish-dry-run',
        count: plan.ids.length,
        ids: plan.ids,
      });
    case 'update':
      return outcome(
        plan.ids.flatMap((id) => requestLines(updateRequest(baseUrl, apiKey, id, plan.status))),
        plan.status,
        { kind: 'nothing', reason: 'updated', status: plan.status },
      );
    case 'create': {
      const lines = plan.bodies.flatMap((body) => requestLines(createRequest(baseUrl, apiKey, body)));
      if (!plan.finishInPost)
        return outcome(lines, plan.status, { kind: 'nothing', reason: 'status-given', status: plan.status });
      lines.push('Dry run: the post step would set these deployments from the job status.');
      return outcome(lines, plan.status, { kind: 'finish-dry-run', count: plan.bodies.length });
    }
  }
}

/** What the post step would send: one update per id, or one shown for the deployments a dry-run main step did not create. */
export function dryRunPost(
  handoff: Extract<Handoff, { kind: 'finish' | 'finish-dry-run' }>,
  status: DeploymentStatus,
  connection: Connection,
): PostOutcome {
  const { baseUrl, apiKey } = connection;
  if (handoff.ids) {
    return {
      kind: 'dry-run',
      lines: handoff.ids.flatMap((id) => requestLines(updateRequest(baseUrl, apiKey, id, status))),
    };
  }
  // A dry-run main step created none: one update is shown, for each of the deployments.
  const example = updateRequest(baseUrl, apiKey, { text: 'id', numeric: false }, status);
  const url = `${baseUrl.href}deployment/{id}`;
  const count = handoff.kind === 'finish-dry-run' ? handoff.count : 0;
  const each = count === 1 ? 'the deployment' : `each of the ${count} deployments`;
  return {
    kind: 'dry-run',
    lines: [...requestLines(example, url), `({id} stands for the id of ${each} the main step would have created.)`],
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
