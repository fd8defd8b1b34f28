// Every setting a deployment report takes, and every limit it keeps, named once (as actions/cache
// names its inputs). A setting's name is the action's input name and the CLI's flag (`--name`).

export const Settings = {
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
} as const;

export type SettingName = (typeof Settings)[keyof typeof Settings];

/** The value a setting has when it is not given (action.yml declares the same; a test checks). */
export const SettingDefaults: Partial<Record<SettingName, string>> = {
  [Settings.Type]: 'SIMPLE',
  [Settings.FailOnError]: 'false',
  [Settings.TimeoutSeconds]: '10',
  [Settings.Retries]: '3',
  [Settings.AllowInsecureHttp]: 'false',
  [Settings.DryRun]: 'false',
};

export type DeploymentStatus = 'STARTED' | 'SUCCEEDED' | 'FAILED';

/** The only deployment type the service accepts. */
export const DeploymentType = 'SIMPLE';
/** The environment the service creates for every account. */
export const DefaultEnvironment = 'Production';

/** Every bound kept, whatever the settings or the service send (README: Limits). */
export const Limits = {
  /** Artifacts, or deployment ids, in one step or command. */
  idsPerStep: 100,
  /** Requests to the service in flight at once. */
  requestsInFlight: 8,
  /** Characters of one deployment id; a longer one is a protocol error. */
  idLength: 128,
  /** Bytes of the event file read (GitHub's own payloads are at most 25 MB); a larger one is not read. */
  eventFileBytes: 25 * 1024 * 1024,
  /** Bytes of an answer that are read; the rest is never read. */
  answerBytes: 64 * 1024,
  /** Characters of the service's `detail` (or of an answer, in the debug log) shown in a message. */
  detailLength: 2000,
  /** Entries of a validation `detail` array shown in a message. */
  detailEntries: 20,
  /** Characters of one validation entry, or a redirect's address, shown in a message. */
  detailEntryLength: 300,
  /** Characters of a value (an input, a header) quoted in a message. */
  quotedValueLength: 100,
  /** Characters of one value shown in a job summary cell. */
  summaryCellLength: 200,
  /** Bytes of the values this action puts in a step's job summary, its fixed markup aside (the runner takes at most 1 MiB). */
  summaryBytes: 256 * 1024,
  /** Timeout of one attempt, in seconds. */
  timeoutSeconds: 600,
  /** Further attempts of one request. */
  retries: 10,
  /** The longest `Retry-After` honoured: a reporter must not hold a deployment job for minutes. */
  retryAfterMs: 10_000,
  /** The first and the longest backoff before a retry (before the jitter). */
  backoffBaseMs: 500,
  backoffCapMs: 8_000,
} as const;
