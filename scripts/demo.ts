// `npm start`: both faces in one command, against an embedded fake of the service. First the action:
// its main step, then its post step, run the way the runner runs them (dist/). Then the CLI as npm
// pack ships it, wrapping a command (`report-deployment run -- ...`). It prints each one's log, what
// the service received and where each deployment ended.
//
// With DEPLOY_TRACKER_URL and DEPLOY_TRACKER_API_KEY set, it talks to that service instead, and
// records two made-up deployments there (artifact DEMO_ARTIFACT_ID, default 42): so it asks for
// `npm start -- --real` first.
import { startFakeService, type FakeService } from '../test/fake-service.ts';
import { runJob, type StepResult } from '../test/run-action.ts';
import { runCli } from '../test/run-cli.ts';

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

const service: FakeService | undefined = realUrl ? undefined : await startFakeService();
const baseUrl = realUrl ?? (service as FakeService).url;
const apiKey = realKey ?? (service as FakeService).apiKey;
console.log(realUrl ? `Service: ${realUrl}` : `Service: embedded fake at ${baseUrl}`);

try {
  console.log('\n# The GitHub Action');
  const { main, post } = await runJob({
    inputs: { 'api-key': apiKey, 'base-url': baseUrl, 'artifact-id': artifactId, environment },
    event: { name: 'push', payload: { compare: 'https://github.com/acme/shop/compare/0123456...a1b2c3d' } },
    jobStatus,
  });
  printStep('main step', main);
  printStep(`post step (job status: ${jobStatus})`, post);

  console.log('\n# The CLI: report-deployment run -- <command>');
  const command = [process.execPath, '-e', "console.log('deploying shop-web...'); setTimeout(() => {}, 300)"];
  const cli = await runCli(
    [
      'run',
      '--artifact-id',
      artifactId,
      '--environment',
      environment,
      '--commit-sha',
      'a1b2c3d',
      '--user',
      'demo',
      '--branch',
      'main',
      '--',
      ...command,
    ],
    { env: { DEPLOY_TRACKER_URL: baseUrl, DEPLOY_TRACKER_API_KEY: apiKey } },
  );
  console.log(`== report-deployment run: exit code ${cli.exitCode}`);
  for (const line of cli.stdout.split('\n').filter(Boolean)) console.log(`  (the command's stdout) ${line}`);
  for (const line of cli.stderr.split('\n').filter(Boolean)) console.log(`  ${line}`);

  if (service) {
    console.log('\n== what the service received');
    for (const request of service.requests)
      console.log(`${request.method} ${request.path} ${JSON.stringify(request.body)}`);
    for (const deployment of service.deployments.values()) {
      console.log(`\nDeployment ${deployment.id}: ${deployment.statuses.join(' -> ')}`);
    }
  }
  process.exitCode = main.exitCode || post.exitCode || cli.exitCode || 0;
} finally {
  await service?.close();
}

function printStep(title: string, step: StepResult): void {
  console.log(`\n== ${title}: exit code ${step.exitCode}`);
  for (const line of step.stdout.split('\n')) {
    if (line && !line.startsWith('::add-mask::') && !line.startsWith('::save-state') && !line.startsWith('::debug')) {
      console.log(`  ${line}`);
    }
  }
  if (Object.keys(step.outputs).length) console.log(`  outputs: ${JSON.stringify(step.outputs)}`);
}
