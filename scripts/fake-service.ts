// The fake service as a process of its own, for the CI self-test that runs the action with
// `uses: ./` on a real runner: `node scripts/fake-service.ts --port 8787 --prefix /api
// --api-key KEY --state-file FILE`. After every answer it writes what it received and each
// deployment's statuses to FILE. Stops on SIGTERM/SIGINT, or by itself after --max-seconds.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startFakeService, type FakeService } from '../test/helpers/fake-service.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    prefix: { type: 'string', default: '' },
    'api-key': { type: 'string', default: 'self-test-key' },
    'state-file': { type: 'string' },
    'max-seconds': { type: 'string', default: '900' },
  },
});

const service: FakeService = await startFakeService({
  port: Number(values.port),
  prefix: values.prefix,
  apiKey: values['api-key'],
  onChange: writeState,
});
writeState();
console.log(`Fake Deployment Tracking Service listening at ${service.url}`);

function writeState(): void {
  if (!values['state-file']) return;
  const deployments = [...service.deployments.values()].map(({ id, body, statuses }) => ({ id, body, statuses }));
  const requests = service.requests.map(({ method, path, body }) => ({ method, path, body }));
  writeFileSync(values['state-file'], JSON.stringify({ requests, deployments }, null, 2));
}

const stop = () => void service.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setTimeout(stop, Number(values['max-seconds']) * 1000).unref();
