// Carrying out a plan: the service calls it needs (none for nothing, or for what is finished later).
import type { Log } from './log.js';
import type { Plan } from './plan.js';
import { createAll, setStatusAll, type CreateAllOptions, type CreateResult, type UpdateResult } from './service.js';
import type { CommonSettings } from './settings.js';
import { withTracker } from './tracker.js';

export interface PlanResults {
  created?: CreateResult[];
  updated?: UpdateResult[];
}

/**
 * `options` are for creates (createAll's): a signal that a cancelled run aborts (no further create
 * starts), and each deployment as soon as it is created (to hand it on before the end). Updates
 * always all go out: one not sent would leave a deployment unfinished.
 */
export async function execute(
  plan: Plan,
  settings: CommonSettings,
  log: Log,
  options: CreateAllOptions = {},
): Promise<PlanResults> {
  switch (plan.kind) {
    case 'create':
      return {
        created: await withTracker(settings, log, settings.dryRun, (tracker) =>
          createAll(tracker, plan.bodies, options),
        ),
      };
    case 'update':
      return {
        updated: await withTracker(settings, log, settings.dryRun, (tracker) =>
          setStatusAll(tracker, plan.ids, plan.status),
        ),
      };
    default:
      return {};
  }
}
