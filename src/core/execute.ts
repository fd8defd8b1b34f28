// Carrying out a plan: the service calls it needs (none for nothing, or for what is finished later).
import type { Log } from './log.js';
import type { Plan } from './plan.js';
import { createAll, setStatusAll, type CreateResult, type UpdateResult } from './service.js';
import type { CommonSettings } from './settings.js';
import { withTracker } from './tracker.js';

export interface PlanResults {
  created?: CreateResult[];
  updated?: UpdateResult[];
}

export async function execute(plan: Plan, { connection, dryRun }: CommonSettings, log: Log): Promise<PlanResults> {
  switch (plan.kind) {
    case 'create':
      return { created: await withTracker(connection, log, dryRun, (tracker) => createAll(tracker, plan.bodies)) };
    case 'update':
      return {
        updated: await withTracker(connection, log, dryRun, (tracker) => setStatusAll(tracker, plan.ids, plan.status)),
      };
    default:
      return {};
  }
}
