// `--help`: what each command does, its flags, and the exit codes.
import type { CommandName } from './args.js';
import type { ReceiverCommandName } from './receiver-args.js';

/**
 * The service's flags. `dryRun`: what --dry-run does for the command; `context` sends nothing, so
 * neither it nor --fail-on-error means anything there.
 */
function service(dryRun?: string): string {
  const sending = dryRun
    ? `
  --fail-on-error           exit 1 when the service cannot be reached or refuses (default: a warning)
  --dry-run                 ${dryRun}`
    : '';
  return `Service:
  --base-url URL            the service's address (or DEPLOY_TRACKER_URL), e.g. https://tracker.example.com/api
  DEPLOY_TRACKER_API_KEY    the API key: only from the environment, never a flag
  --timeout-seconds N       each request attempt's timeout (default 10, at most 600)
  --retries N               further attempts after a transient failure (default 3, at most 10)
  --allow-insecure-http     allow http:// to a host other than loopback (the key would travel in clear)${sending}
  DEPLOY_TRACKER_DEBUG=1    debug lines on stderr: what git and the CI said, each attempt (the key never shown)`;
}

const DRY_RUN = 'print the requests instead of sending them (the key as ***)';

const FIELDS = `Deployment (each defaults from the CI's variables, else git, else the OS):
  --artifact-id ID          the artifact's id in the service; repeat, or a comma list, for several
  --artifact-name NAME      or its name (one of the two is needed)
  --environment NAME        as named in the service (default Production)
  --version V               default: the tag on a tag build, else the commit
  --commit-sha SHA          --user NAME      --branch NAME
  --changelog TEXT|URL      --description TEXT   --link URL (default: the CI job's page)
  --type SIMPLE
A flag's value is the next argument, whatever it looks like (--description "-h" is a description),
or --flag=VALUE. --status and --environment given empty are errors (an unset variable?); the other
fields given empty take their defaults.`;

const EXIT = `Exit codes: 0 recorded, or not recorded with a warning (fail-open); 1 not recorded with
--fail-on-error; 2 a usage or configuration error (nothing sent).`;

const COMMANDS: Record<CommandName, string> = {
  run: `Usage: report-deployment run [flags] -- <command> [args...]

Records the deployment STARTED, runs <command> (directly, no shell; its stdin, stdout and stderr are
its own), then records SUCCEEDED (exit 0) or FAILED (any other exit, a signal, a command that
cannot start). SIGINT, SIGTERM and SIGHUP reach the command once: passed on when sent to the CLI
alone, not when its process group got them too (Ctrl-C, GNU timeout, a CI stopping the job); to a
command in a process group of its own (setsid), passed on unless sent to each process. An
interrupted run is recorded FAILED at once, then as the command ends (exit 0: SUCCEEDED).

The exit code is the command's: its own, 128+N when it died of signal N (of SIGINT, SIGTERM or
SIGHUP, the CLI dies too, so a script running it stops), 127 when it was not found, 126 when it
could not be run. Reporting never changes it (a service that is down, a
missing key, a bad setting: a message on stderr), except that --fail-on-error turns a success into
1 when the deployment was not recorded. Only a usage error stops before the command runs.
--deployment-id IDS finishes existing deployments from the command's exit instead of creating.

${FIELDS}

${service('print the requests instead of sending them (the key as ***); the command still runs')}`,
  start: `Usage: report-deployment start [flags]

Records the deployment STARTED and prints its id on stdout, one a line (several artifacts, several
ids), nothing else: ID=$(report-deployment start ...). --json prints {"deploymentIds":[...],"status":...}.
Finish it later with: report-deployment finish --deployment-id "$ID" --exit-code $?

${FIELDS}

${service(DRY_RUN)}

${EXIT}`,
  finish: `Usage: report-deployment finish --deployment-id IDS (--status STATUS | --exit-code N)

Sets the status of deployments recorded earlier. IDS: one id, a comma list, or a JSON array (as
start --json prints); an empty one is a warning (the start recorded none), exit 0. STATUS:
SUCCEEDED, FAILED, STARTED, or success / failure / cancelled; --exit-code 0 is SUCCEEDED, any
other FAILED. It prints nothing on stdout.

${service(DRY_RUN)}

${EXIT}`,
  record: `Usage: report-deployment record (--status STATUS | --exit-code N) [flags]

Records a deployment that has already ended, in one request, and prints its id on stdout (one a
line, for several artifacts); --json prints {"deploymentIds":[...],"status":...}. STATUS: SUCCEEDED
or FAILED (or success, failure, cancelled; skipped records nothing); --exit-code 0 is SUCCEEDED,
any other FAILED.

${FIELDS}

${service(DRY_RUN)}

${EXIT}`,
  context: `Usage: report-deployment context [flags] [--json]

What \`start\` with the same flags would do, without sending anything: every field it would send
(the artifacts, type and status included) and where each comes from (a flag, which CI's variable,
git, the OS), the service's address and whether a key is set. It refuses where start would, with
the same messages and exit code 2. --json prints it as one JSON object, every invisible character
escaped. start's --fail-on-error and --dry-run are taken, and change nothing here.

${FIELDS}

${service()}

Exit codes: 0 start would send this, or record nothing with a warning; 2 a usage or configuration
error (start would stop there).`,
};

export function helpText(command: CommandName | undefined): string {
  if (command) return `${COMMANDS[command]}\n`;
  return `report-deployment: records each deployment in the Deployment Tracking Service, from any CI or a terminal.

Usage: report-deployment <command> [flags]

Commands:
  run [flags] -- <command> [args...]   record STARTED, run the command, record how it ended
  start [flags]                         record STARTED; print the id(s)
  finish --deployment-id IDS --status S | --exit-code N
                                        set the status of deployments recorded with start
  record --status S | --exit-code N [flags]
                                        record a deployment that has already ended
  context [flags]                       show what would be recorded, and where each value comes from
  serve [--listen HOST:PORT] [--store PATH] [--mapping FILE]
                                        receive GitHub's (and other sources') webhooks, record each deployment
  deliveries [retry ID... | resolve ID --deployment-id N] [--store PATH]
                                        list the receiver's held and failed deliveries; send or settle them

Flags carry the GitHub Action's input names (--artifact-id, --environment, --version, ...).
The service: --base-url or DEPLOY_TRACKER_URL; the key: DEPLOY_TRACKER_API_KEY only.
DEPLOY_TRACKER_DEBUG=1 adds debug lines on stderr (the key never shown).

report-deployment <command> --help    a command's flags
report-deployment --version           this tool's version
`;
}

const RECEIVER: Record<ReceiverCommandName, string> = {
  serve: `Usage: report-deployment serve [--listen HOST:PORT] [--store PATH] [--mapping FILE] [flags]

Receives webhooks and records each deployment they describe (docs/receiver.md). A source is enabled
by its secret, from the environment only: GITHUB_WEBHOOK_SECRET (POST /webhooks/github),
GITLAB_WEBHOOK_TOKEN and/or GITLAB_WEBHOOK_SIGNING_TOKEN (/webhooks/gitlab), ARGOCD_WEBHOOK_TOKEN
(/webhooks/argocd), FLUX_WEBHOOK_KEY (/webhooks/flux); each at least 16 characters. A delivery is
checked, stored, then answered 2xx; a worker records it in the service. GET /healthz, /readyz,
/metrics. SIGTERM, SIGINT or SIGHUP: stops taking deliveries and exits 0 within 10 s.

  --listen HOST:PORT        default 127.0.0.1:8080 (loopback, behind a TLS proxy); 0.0.0.0:8080 in a container
  --store PATH              the SQLite file (default: $STATE_DIRECTORY/receiver.sqlite under systemd,
                            else $XDG_STATE_HOME or ~/.local/state, /report-deployment/receiver.sqlite)
  --store postgres://...    a PostgreSQL database that several receivers share (the default where
                            DATABASE_URL names one; PG* variables fill in what the URL leaves out)
  --mapping FILE            artifact and environment per source object (YAML)
  --retry-hours N           how long a transient failure of the service is retried (default 24)
  --catch-up-seconds N      how often senders whose API variables are set (GITHUB_HOOKS with
                            GITHUB_TOKEN or a GitHub App's key; GITLAB_HOOKS with GITLAB_TOKEN;
                            ARGOCD_SERVER with ARGOCD_AUTH_TOKEN) are asked what the receiver
                            missed (default 300)
  --base-url URL            the service's address (or DEPLOY_TRACKER_URL)
  DEPLOY_TRACKER_API_KEY    the API key: only from the environment, required
  --timeout-seconds N       each request's timeout (default 10)
  --allow-insecure-http     allow http:// to a host other than loopback

Exit codes: 0 stopped by SIGTERM or SIGINT; 2 a usage or configuration error.`,
  deliveries: `Usage: report-deployment deliveries [--state S] [--json] [--limit N] [--store PATH]
       report-deployment deliveries retry ID... [--store PATH]
       report-deployment deliveries resolve ID --deployment-id N [--store PATH]
       report-deployment deliveries import --from FILE --store postgres://...

Lists the receiver's deployment events (default: held and failed), also while it runs.
  --store PATH|URL          the store \`serve\` uses: its SQLite file, or its PostgreSQL URL
  --state S                 held, failed, pending, sending, done, skipped (comma-separated), or all
  --json                    an array of objects (id, source, deliveryId, key, status, state,
                            serviceId, error, note, attempts, receivedAt, updatedAt, nextAttemptAt,
                            via: live or catch-up)
  --limit N                 list at most N items, oldest first (default 1000; a cut list says so on stderr)
retry: a held or failed item is sent again (a held create may then be recorded twice: check first).
resolve: a held create did reach the service, as deployment N; its later events update N.
import: moves a stopped receiver's SQLite store (its queue, held creates, deployments' ids) into an
empty PostgreSQL store (docs/receiver-postgres.md).

Exit codes: 0 done; 1 an item could not be retried or resolved, or the list could not be written;
2 a usage or configuration error.`,
};

export function receiverHelp(command: ReceiverCommandName): string {
  return `${RECEIVER[command]}\n`;
}
