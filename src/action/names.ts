// What only the action has: its two internal inputs, its outputs and its state key, named once.

export const Internal = {
  // Not for users: action.yml defaults them to `${{ job.status }}` and `${{ job.check_run_id }}`,
  // which the runner evaluates again for the post step.
  JobStatus: 'job-status',
  JobCheckRunId: 'job-check-run-id',
} as const;

export const Outputs = {
  DeploymentId: 'deployment-id',
  DeploymentIds: 'deployment-ids',
  Status: 'status',
} as const;

export const State = {
  /** What the main step hands to the post step (handoff.ts), as one JSON value. */
  Handoff: 'handoff',
} as const;
