// Runs after the action's own post step: did the fake service see the whole lifecycle?
import { readFileSync } from 'node:fs';

const state = JSON.parse(readFileSync(process.env['INPUT_STATE-FILE'], 'utf8'));
const expected = process.env['INPUT_EXPECT-STATUSES'].split(',').map((status) => status.trim());
for (const request of state.requests) console.log(`${request.method} ${request.path} ${JSON.stringify(request.body)}`);

const problems = [];
if (state.deployments.length !== 1) problems.push(`expected 1 deployment, found ${state.deployments.length}`);
const statuses = state.deployments[0]?.statuses ?? [];
if (statuses.join() !== expected.join())
  problems.push(`expected statuses ${expected.join(' -> ')}, got ${statuses.join(' -> ')}`);
if (problems.length) {
  console.log(`::error::Self-test failed: ${problems.join('; ')}`);
  process.exitCode = 1;
} else {
  console.log(`Self-test passed: deployment ${state.deployments[0].id} went ${statuses.join(' -> ')}.`);
}
