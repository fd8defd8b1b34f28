// `npm start`: the whole lifecycle in one command. Runs the built action's main step, then its post
// step, the way the runner does, against an embedded fake of the service (or, with
// DEPLOY_TRACKER_URL and DEPLOY_TRACKER_API_KEY set, against that service), and prints what the
// service received and where the deployment ended.
import { startFakeService, type FakeService } from '../test/fake-service.ts';
import { runJob, type StepResult } from '../test/run-action.ts';

const realUrl = process.env.DEPLOY_TRACKER_URL;
const realKey = process.env.DEPLOY_TRACKER_API_KEY;
const jobStatus = process.env.DEMO_JOB_STATUS ?? 'success';

if (realUrl && !realKey) {
  console.error('DEPLOY_TRACKER_URL is set but DEPLOY_TRACKER_API_KEY is not: set both to talk to a real service.');
  process.exit(2);
}

const service: FakeService | undefined = realUrl ? undefined : await startFakeService();
const baseUrl = realUrl ?? (service as FakeService).url;
console.log(realUrl ? `Service: ${realUrl}` : `Service: embedded fake at ${baseUrl}`);

try {
  const { main, post } = await runJob({
    inputs: {
      'api-key': realKey ?? (service as FakeService).apiKey,
      'base-url': baseUrl,
      'artifact-id': process.env.DEMO_ARTIFACT_ID ?? '42',
      environment: process.env.DEMO_ENVIRONMENT ?? 'Production',
    },
    event: { name: 'push', payload: { compare: 'https://github.com/acme/shop/compare/0123456...a1b2c3d' } },
    jobStatus,
  });
  printStep('main step', main);
  printStep(`post step (job status: ${jobStatus})`, post);
  if (service) {
    console.log('\n== what the service received');
    for (const request of service.requests)
      console.log(`${request.method} ${request.path} ${JSON.stringify(request.body)}`);
    for (const deployment of service.deployments.values()) {
      console.log(`\nDeployment ${deployment.id}: ${deployment.statuses.join(' -> ')}`);
    }
  }
  process.exitCode = main.exitCode || post.exitCode || 0;
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
