// `npm start`: both faces in one command, against an embedded fake of the service. First the action:
// its main step, then its post step, run the way the runner runs them (dist/), in a made-up GitHub
// run (test/helpers/run-action.ts's). Then the CLI as the npm package ships it, wrapping a command
// (`report-deployment run -- ...`). Before each, it prints the command line it runs; then what that
// printed, stdout and stderr in the order they came; at the end what the service received and where
// each deployment ended. Last, against the embedded fake only, the receiver (`report-deployment
// serve`) taking GitHub, GitLab, Argo CD and Flux deliveries, each proved as its sender proves it
// (GitHub and Flux sign the body; GitLab sends its secret token, Argo CD a bearer token).
//
// With DEPLOY_TRACKER_URL and DEPLOY_TRACKER_API_KEY set, it talks to that service instead, and
// records two made-up deployments there (artifact DEMO_ARTIFACT_ID, default 42): so it asks for
// `npm start -- --real` first.
import { startFakeService, type FakeService } from '../test/helpers/fake-service.ts';
import type { ChildProcess } from 'node:child_process';
import { ACTION, DEFAULT_ENV, runStep, type JobOptions, type StepResult } from '../test/helpers/run-action.ts';
import { runCli } from '../test/helpers/run-cli.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  argocdDelivery,
  fluxDelivery,
  githubDelivery,
  gitlabDelivery,
  SOURCE_ENV,
  type SourceDelivery,
} from '../test/receiver/helpers/deliveries.ts';

const realUrl = process.env.DEPLOY_TRACKER_URL;
const realKey = process.env.DEPLOY_TRACKER_API_KEY;
const jobStatus = process.env.DEMO_JOB_STATUS ?? 'success';
const artifactId = process.env.DEMO_ARTIFACT_ID ?? '42';
const environment = process.env.DEMO_ENVIRONMENT ?? 'Production';

if (realUrl && !realKey) {
  console.error('DEPLOY_TRACKER_URL is set but DEPLOY_TRACKER_API_KEY is not: set both to talk to a real service.');
  process.exit(2);
}
if (realUrl && !process.argv.includes('--real')) {
  console.error(
    `DEPLOY_TRACKER_URL is set: the demo would record two made-up deployments of artifact ${artifactId} to ${environment} at ${realUrl}.\n` +
      'Run `npm start -- --real` to do that, or unset DEPLOY_TRACKER_URL to use the embedded fake service.',
  );
  process.exit(2);
}

/** Called whenever the fake service records something: the receiver's part waits on it. */
let changed: () => void = () => undefined;
const service: FakeService | undefined = realUrl ? undefined : await startFakeService({ onChange: () => changed() });
const baseUrl = realUrl ?? (service as FakeService).url;
const apiKey = realKey ?? (service as FakeService).apiKey;
console.log(realUrl ? `Service: ${realUrl}` : `Service: embedded fake at ${baseUrl}`);

try {
  console.log('\n# The GitHub Action');
  const github = DEFAULT_ENV;
  console.log(
    `The GitHub context is made up (test/helpers/run-action.ts): a push to ${github.GITHUB_REF_NAME} of ${github.GITHUB_REPOSITORY} ` +
      `by ${github.GITHUB_ACTOR}, commit ${github.GITHUB_SHA?.slice(0, 7)}, run ${github.GITHUB_RUN_NUMBER} of workflow ` +
      `${github.GITHUB_WORKFLOW}: GITHUB_* variables and an event file as a runner gives them, the inputs as INPUT_*.`,
  );
  const job: JobOptions = {
    inputs: { 'api-key': apiKey, 'base-url': baseUrl, 'artifact-id': artifactId, environment },
    event: { name: 'push', payload: { compare: 'https://github.com/acme/shop/compare/0123456...a1b2c3d' } },
    jobStatus,
  };
  console.log(`\n$ node ${ACTION.runs.main}    # the main step, as the runner starts it`);
  const main = await runStep('main', job, {});
  printStep(main);
  console.log(`\n$ node ${ACTION.runs.post}    # the post step, when the job ends (job status: ${jobStatus})`);
  const post = await runStep('post', job, main.state);
  printStep(post);

  console.log('\n# The CLI: report-deployment run -- <command>');
  const command = [process.execPath, '-e', "console.log('deploying shop-web...'); setTimeout(() => {}, 300)"];
  const args = [
    'run',
    ...['--artifact-id', artifactId, '--environment', environment],
    ...['--commit-sha', 'a1b2c3d', '--user', 'demo', '--branch', 'main'],
    '--',
    ...command,
  ];
  const shown = ['report-deployment', ...args.slice(0, -command.length), 'node', '-e', '"..."'];
  console.log(`DEPLOY_TRACKER_URL=${baseUrl} DEPLOY_TRACKER_API_KEY=*** \\\n$ ${shown.join(' ')}`);
  const lines: string[] = [];
  const cli = await runCli(args, {
    env: { DEPLOY_TRACKER_URL: baseUrl, DEPLOY_TRACKER_API_KEY: apiKey },
    onSpawn: (child) => inOrder(child, lines),
  });
  for (const line of lines) console.log(`  ${line}`);
  console.log(`  (exit code ${cli.exitCode})`);

  const receiverCode = service ? await receiver(service) : 0;

  if (service) {
    console.log('\n== what the service received');
    for (const request of service.requests)
      console.log(`${request.method} ${request.path} ${JSON.stringify(request.body)}`);
    for (const deployment of service.deployments.values()) {
      console.log(`\nDeployment ${deployment.id}: ${deployment.statuses.join(' -> ')}`);
    }
  }
  process.exitCode = main.exitCode || post.exitCode || cli.exitCode || receiverCode || 0;
} finally {
  await service?.close();
}

/** `report-deployment serve` against the fake: three deliveries, each a start then its end. */
async function receiver(fake: FakeService): Promise<number> {
  console.log('\n# The receiver: report-deployment serve');
  const dir = mkdtempSync(join(tmpdir(), 'report-deployment-demo-'));
  const args = ['serve', '--listen', '127.0.0.1:0', '--store', join(dir, 'receiver.sqlite')];
  const secrets = Object.keys(SOURCE_ENV)
    .map((name) => `${name}=***`)
    .join(' ');
  console.log(
    `DEPLOY_TRACKER_URL=${fake.url} DEPLOY_TRACKER_API_KEY=*** ${secrets} \\\n$ report-deployment ${args.join(' ')}`,
  );
  const lines: string[] = [];
  let listening: (port: number) => void = () => undefined;
  const port = new Promise<number>((resolve) => (listening = resolve));
  let child: ChildProcess | undefined;
  const run = runCli(args, {
    env: { DEPLOY_TRACKER_URL: fake.url, DEPLOY_TRACKER_API_KEY: fake.apiKey, ...SOURCE_ENV },
    killAfterMs: 60_000,
    onSpawn: (spawned) => {
      child = spawned;
      inOrder(spawned, lines);
      let seen = '';
      spawned.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const found = /listening on \S+:(\d+) /.exec(seen)?.[1];
        if (found) listening(Number(found));
      });
    },
  });
  const at = await Promise.race([port, run.then(() => undefined)]);
  if (at === undefined) {
    for (const line of lines) console.log(`  ${line}`);
    return (await run).exitCode ?? 1;
  }
  const before = fake.deployments.size;
  // Each with what proves it: a signature of the body, or a token the sender sends as it is.
  const deliveries: [string, SourceDelivery][] = [
    ['GitHub deployment_status queued, signed', githubDelivery('queued', 7001)],
    ['GitHub deployment_status success, signed', githubDelivery('success', 7001)],
    ['GitLab deployment running, secret token', gitlabDelivery('running', 7002)],
    ['GitLab deployment success, secret token', gitlabDelivery('success', 7002)],
    ['Argo CD on-sync-running, bearer token', argocdDelivery('running')],
    ['Argo CD on-deployed, bearer token', argocdDelivery('deployed')],
    ['Flux Kustomization Progressing, signed', fluxDelivery('progressing')],
    ['Flux Kustomization ReconciliationSucceeded, signed', fluxDelivery('succeeded')],
  ];
  for (const [what, delivery] of deliveries) {
    const response = await fetch(`http://127.0.0.1:${at}${delivery.path}`, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
    });
    console.log(`  POST ${delivery.path} (${what}) -> ${response.status} ${(await response.text()).trim()}`);
  }
  // Until the four deployments have ended in the service (bounded: the receiver's own kill timer).
  const ended = () =>
    [...fake.deployments.values()].slice(before).filter((deployment) => deployment.statuses.length === 2).length === 4;
  await new Promise<void>((resolve) => {
    changed = () => ended() && resolve();
    changed();
    void run.then(() => resolve());
  });
  child?.kill('SIGTERM');
  const result = await run;
  console.log("  (the receiver's log)");
  for (const line of lines) console.log(`  ${line}`);
  console.log(`  (exit code ${result.exitCode}, after SIGTERM)`);
  rmSync(dir, { recursive: true, force: true });
  return ended() ? (result.exitCode ?? 1) : 1;
}

function printStep(step: StepResult): void {
  for (const line of step.stdout.split('\n')) {
    if (line && !line.startsWith('::add-mask::') && !line.startsWith('::save-state') && !line.startsWith('::debug')) {
      console.log(`  ${line}`);
    }
  }
  if (Object.keys(step.outputs).length) console.log(`  outputs: ${JSON.stringify(step.outputs)}`);
  console.log(`  (exit code ${step.exitCode})`);
}

/** The child's stdout and stderr lines into `lines`, in the order they arrive, each marked. */
function inOrder(child: ChildProcess, lines: string[]): void {
  for (const [stream, mark] of [
    [child.stdout, "(the command's stdout) "],
    [child.stderr, ''],
  ] as const) {
    let partial = '';
    stream?.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts.filter(Boolean).map((line) => `${mark}${line}`));
    });
    stream?.on('end', () => partial && lines.push(`${mark}${partial}`));
  }
}
