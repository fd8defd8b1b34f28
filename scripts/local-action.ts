// `npm run local-action`: runs the action's source (its two steps, scripts/local-action/) with
// @github/local-action, taking its inputs from .env (or the committed .env.example), against the
// embedded fake service started at the loopback address INPUT_BASE-URL names.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { startFakeService } from '../test/helpers/fake-service.ts';

const root = join(import.meta.dirname, '..');
const envFile = existsSync(join(root, '.env')) ? '.env' : '.env.example';
const env = parseEnv(readFileSync(join(root, envFile), 'utf8'));
const baseUrl = new URL(env['INPUT_BASE-URL'] ?? '');
if (!['127.0.0.1', 'localhost'].includes(baseUrl.hostname) || !baseUrl.port) {
  console.error(`${envFile}: INPUT_BASE-URL must be a loopback address with a port, for the embedded fake service.`);
  process.exit(2);
}

const service = await startFakeService({
  apiKey: env['INPUT_API-KEY'] ?? '',
  prefix: baseUrl.pathname,
  port: Number(baseUrl.port),
});
console.log(`Fake service at ${service.url}; inputs from ${envFile}`);
try {
  const localAction = join(root, 'node_modules', '.bin', 'local-action');
  const args = ['run', root, 'scripts/local-action/main.ts', envFile, '--post', 'scripts/local-action/post.ts'];
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(localAction, args, { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', resolve);
  });
  console.log('\n== what the service received');
  for (const request of service.requests)
    console.log(`${request.method} ${request.path} ${JSON.stringify(request.body)}`);
  for (const deployment of service.deployments.values()) {
    console.log(`Deployment ${deployment.id}: ${deployment.statuses.join(' -> ')}`);
  }
  process.exitCode = exitCode ?? 1;
} finally {
  await service.close();
}
