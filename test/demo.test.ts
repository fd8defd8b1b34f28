// `npm start` (scripts/demo.ts), as a newcomer reads it: each command line before what it printed,
// in the order things happened, and where the made-up GitHub context comes from.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { INSTALL_TIMEOUT_MS, installedCli } from './helpers/run-cli.ts';
import { ROOT } from './helpers/run-action.ts';

beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

it('npm start shows each command line, then its output, in the order things happen', () => {
  const env = { ...process.env };
  delete env.DEPLOY_TRACKER_URL;
  delete env.DEPLOY_TRACKER_API_KEY;
  const output = execFileSync(process.execPath, [join(ROOT, 'scripts', 'demo.ts')], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const order = [
    'The GitHub context is made up (test/helpers/run-action.ts): a push to main of acme/shop by alice',
    '$ node dist/main/index.js',
    'Recorded deployment 1:',
    '$ node dist/post/index.js',
    'Deployment 1 set to SUCCEEDED',
    '$ report-deployment run --artifact-id 42 --environment Production',
    'report-deployment: Recorded deployment 2:',
    "(the command's stdout) deploying shop-web...",
    'report-deployment: Deployment 2 set to SUCCEEDED',
    '$ report-deployment serve --listen 127.0.0.1:0',
    'POST /webhooks/github (GitHub deployment_status queued, signed) -> 202 stored',
    'POST /webhooks/gitlab (GitLab deployment success, secret token) -> 202 stored',
    'POST /webhooks/argocd (Argo CD on-deployed, bearer token) -> 202 stored',
    'POST /webhooks/flux (Flux Kustomization ReconciliationSucceeded, signed) -> 202 stored',
    "(the receiver's log)",
    '(exit code 0, after SIGTERM)',
    '== what the service received',
  ];
  const positions = order.map((text) => output.indexOf(text));

  expect(positions.filter((position) => position < 0)).toEqual([]);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
  // The receiver's four deployments (one per source), each from its start to its end, as the other two.
  expect(output.match(/^Deployment \d+: STARTED -> SUCCEEDED$/gm)).toHaveLength(6);
  // Argo CD and GitLab send a token, which proves no body: the demo does not call them signed.
  expect(output).not.toMatch(/\((?:Argo CD|GitLab)[^)]*signed\)/);
  expect(output).toContain('"artifactName":"guestbook"');
  expect(output).toContain('"user":"Flux"');
});
