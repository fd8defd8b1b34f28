// Every input, output and state key of the action, named once (as actions/cache does).

export const Inputs = {
  ApiKey: 'api-key',
  BaseUrl: 'base-url',
  ArtifactId: 'artifact-id',
  ArtifactName: 'artifact-name',
  Version: 'version',
  Environment: 'environment',
  CommitSha: 'commit-sha',
  User: 'user',
  Branch: 'branch',
  Changelog: 'changelog',
  Description: 'description',
  Link: 'link',
  Type: 'type',
  Status: 'status',
  DeploymentId: 'deployment-id',
  FailOnError: 'fail-on-error',
  TimeoutSeconds: 'timeout-seconds',
  Retries: 'retries',
  AllowInsecureHttp: 'allow-insecure-http',
  DryRun: 'dry-run',
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
  /** JSON array of the ids the post step finishes from the job status. */
  PendingIds: 'pending-ids',
  /** In a dry run: how many deployments the post step would finish. */
  DryRunPending: 'dry-run-pending',
  /** Why the post step has nothing to do, in words for its log. */
  PostNote: 'post-note',
  /** Epoch milliseconds when the main step ran, for the job's duration. */
  StartedAt: 'started-at',
} as const;

export const DeploymentStatuses = ['STARTED', 'SUCCEEDED', 'FAILED'] as const;
export type DeploymentStatus = (typeof DeploymentStatuses)[number];

/** The only deployment type the service accepts. */
export const DeploymentType = 'SIMPLE';
/** The environment the service creates for every account. */
export const DefaultEnvironment = 'Production';
