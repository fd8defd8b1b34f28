// The receiver's docs as a platform engineer follows them, literally. The commands that need only this
// machine run as written: `report-deployment serve` (the packed CLI) against the fake service, each
// quick start of docs/receiver.md (```sh receiver-quick-start blocks, run by sh with curl and
// openssl) with only the receiver's port put in place of 127.0.0.1:8080 and the secrets from the
// environment, as the docs say, then `report-deployment deliveries`. The commands that need a cluster
// or a host's systemd (kubectl, helm, flux, argocd, systemctl) cannot run here: what they name is
// checked instead (the files and paths they use exist, the names agree with the examples, which
// test/kube renders and test/receiver/* parse against their schemas).
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { examplePins } from '../../scripts/release/examples.ts';
import { startFakeService, type FakeService } from '../helpers/fake-service.ts';
import { readDoc } from '../helpers/markdown.ts';
import { RETAIN_MS, tooOld } from '../../src/receiver/retention.ts';
import { SOURCE_ENV } from './helpers/deliveries.ts';
import { ROOT } from '../helpers/run-action.ts';
import { INSTALL_TIMEOUT_MS, installedCli, runCli, type CliResult } from '../helpers/run-cli.ts';

const run = promisify(execFile);
const RECEIVER_DOC = readDoc('docs/receiver.md');
const POSTGRES_DOC = readDoc('docs/receiver-postgres.md');
const DOCUMENTED_ADDRESS = '127.0.0.1:8080';

/** The fenced blocks whose info string is `sh <marker>`, in order. */
function marked(text: string, marker: string): string[] {
  return [...text.matchAll(new RegExp(`^\`\`\`sh ${marker}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(
    (match) => match[1] ?? '',
  );
}
/** Every fenced `sh` block of a doc, whatever its marker. */
const shellBlocks = (text: string) =>
  [...text.matchAll(/^```sh[^\n]*\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
const example = (...path: string[]) => join(ROOT, 'examples', 'receiver', ...path);
const pinned = () => [...new Set(examplePins(ROOT).flatMap(({ pins }) => pins.map((pin) => pin.version)))];

describe('docs/receiver.md: a first deployment per source, run as written', () => {
  let fake: FakeService;
  let changed = () => {};
  let receiver: ChildProcess | undefined;
  let served: Promise<CliResult> | undefined;
  let port = 0;
  let state: string;
  const env = () => ({
    DEPLOY_TRACKER_URL: fake.url,
    DEPLOY_TRACKER_API_KEY: fake.apiKey,
    ...SOURCE_ENV,
    // The default store, away from this machine's own.
    XDG_STATE_HOME: state,
  });

  beforeAll(async () => {
    installedCli();
    state = mkdtempSync(join(tmpdir(), 'receiver-docs-'));
    fake = await startFakeService({ onChange: () => changed() });
    // `report-deployment serve`, as the docs start it, on a port the kernel picks.
    let listening: (port: number) => void = () => {};
    const announced = new Promise<number>((resolve) => (listening = resolve));
    const serving = runCli(['serve', '--listen', '127.0.0.1:0'], {
      env: env(),
      killAfterMs: 120_000,
      onSpawn: (child) => {
        receiver = child;
        let seen = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          const found = /listening on \S+:(\d+) /.exec(seen)?.[1];
          if (found) listening(Number(found));
        });
      },
    });
    served = serving;
    port = await Promise.race([announced, serving.then((result) => Promise.reject(new Error(result.stderr)))]);
  }, INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    receiver?.kill('SIGTERM');
    if (served !== undefined) expect((await served).exitCode).toBe(0);
    await fake?.close();
    rmSync(state, { recursive: true, force: true });
  });

  /** Until `done` holds of the service's deployments (each change looked at, no polling). */
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      changed = () => done() && resolve();
      changed();
    });

  const blocks = marked(RECEIVER_DOC, 'receiver-quick-start');

  it('has one quick start per source, each posting to its route on the documented address', () => {
    expect(blocks.map((block) => /\/webhooks\/(\w+)/.exec(block)?.[1])).toEqual(['github', 'gitlab', 'argocd', 'flux']);
    for (const block of blocks) expect(block).toContain(`http://${DOCUMENTED_ADDRESS}/webhooks/`);
    // The secrets are the variables `serve` reads, never written in the doc.
    for (const value of Object.values(SOURCE_ENV)) expect(RECEIVER_DOC).not.toContain(value);
  });

  it.each([
    ['github', 0, 'stored\n'],
    ['gitlab', 1, 'stored\n'],
    ['argocd', 2, 'stored\n'],
    ['flux', 3, 'stored\nstored\n'],
  ] as const)('%s: the block, run by sh, records shop-web to Production, SUCCEEDED', async (_source, index, answer) => {
    const before = fake.deployments.size;
    const block = (blocks[index] ?? '').replaceAll(DOCUMENTED_ADDRESS, `127.0.0.1:${port}`);
    const { stdout, stderr } = await run('sh', ['-euc', block], {
      env: { PATH: process.env.PATH ?? '', ...SOURCE_ENV },
      timeout: 20_000,
    });
    expect({ stdout, stderr }).toEqual({ stdout: answer, stderr: '' });
    const recorded = () => [...fake.deployments.values()].slice(before);
    await until(() => recorded().some((deployment) => deployment.statuses.at(-1) === 'SUCCEEDED'));
    expect(recorded()).toHaveLength(1);
    expect(recorded()[0]?.body).toMatchObject({
      artifactName: 'shop-web',
      environment: 'Production',
      commitSha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
    });
  });

  it("says what a sender's own test is answered for one that has not deployed within the retention window, and what to do", () => {
    const steps = RECEIVER_DOC.slice(
      RECEIVER_DOC.indexOf('Then from each sender itself'),
      RECEIVER_DOC.indexOf('### On a host'),
    );
    // The receiver's own answer to a delivery older than the window.
    const answer = tooOld(0, RETAIN_MS) as string;
    expect(answer).toContain(', older than the 7-day retention window');
    for (const [sender, time, remedy] of [
      ['GitLab', '`status_changed_at`', 'deploy the project once, or use the copy-paste block above'],
      ['Argo CD', '`finishedAt`', 'sync it once, or use the copy-paste block above'],
    ] as const) {
      const said = steps.split('\n- ').find((item) => item.startsWith(sender)) ?? '';
      expect(said).toContain(time);
      expect(said.replace(/\s+/g, ' ')).toMatch(/202 ignored.* older than the 7-day retention window/);
      expect(said.replace(/\s+/g, ' ')).toContain(remedy);
    }
  });

  it('GitLab: a status that records nothing is answered 202 ignored, a payload of the wrong shape 200, as documented', async () => {
    const post = async (body: unknown) => {
      const response = await fetch(`http://127.0.0.1:${port}/webhooks/gitlab`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-gitlab-event': 'Deployment Hook',
          'x-gitlab-token': SOURCE_ENV.GITLAB_WEBHOOK_TOKEN,
          'x-gitlab-instance': 'https://gitlab.example.com',
        },
        body: JSON.stringify(body),
      });
      return [response.status, (await response.text()).split(':')[0]];
    };
    const blocked = { object_kind: 'deployment', status: 'blocked', deployment_id: 7, project: { id: 1 } };
    expect(await post(blocked)).toEqual([202, 'ignored']);
    expect(await post({ ...blocked, status: 'success', project: 'not an object' })).toEqual([
      200,
      'not a delivery this receiver can record',
    ]);
    expect(RECEIVER_DOC).toContain('nothing (answered `202 ignored`, with the reason)');
    expect(RECEIVER_DOC).toContain('`200 not a delivery this receiver can record: ...`');
  });

  it('`report-deployment deliveries`, as written, finds the store serve uses and nothing held or failed', async () => {
    const result = await runCli(['deliveries'], { env: env() });
    expect([result.exitCode, result.stdout, result.messages]).toEqual([0, '', ['no delivery is held or failed']]);
  });
});

describe('the commands that need a cluster or systemd, checked against what they name', () => {
  it('Kubernetes: the trees applied exist, and the Secret made is the one they read, with their keys', () => {
    const block = shellBlocks(RECEIVER_DOC).find((text) => text.includes('kubectl apply -k')) ?? '';
    const [, tree] = /kubernetes\/(\w+)\?ref=v([\d.]+)'/.exec(block) ?? [];
    expect(tree).toBe('base');
    expect(block).toContain(`?ref=v${pinned()[0]}'`);
    expect(existsSync(example('kubernetes', 'base', 'kustomization.yaml'))).toBe(true);
    expect(RECEIVER_DOC).toContain('apply `.../kubernetes/postgres?ref=v');
    expect(existsSync(example('kubernetes', 'postgres', 'kustomization.yaml'))).toBe(true);
    const deployment = parseYaml(readFileSync(example('kubernetes', 'base', 'deployment.yaml'), 'utf8')) as {
      metadata: { name: string; namespace: string };
      spec: {
        template: {
          spec: {
            containers: {
              env: { name: string; valueFrom?: { secretKeyRef: { name: string; optional?: boolean } } }[];
            }[];
          };
        };
      };
    };
    const refs = deployment.spec.template.spec.containers[0]!.env.filter((variable) => variable.valueFrom);
    const secretNames = new Set(refs.map((variable) => variable.valueFrom!.secretKeyRef.name));
    expect(block).toContain(
      `kubectl -n ${deployment.metadata.namespace} create secret generic ${[...secretNames][0]} \\`,
    );
    expect(secretNames.size).toBe(1);
    // Every required key is given; the rest are the sources' (optional).
    const given = [...block.matchAll(/--from-literal=(\w+)=/g)].map((match) => match[1]);
    const required = refs
      .filter((variable) => !variable.valueFrom!.secretKeyRef.optional)
      .map((variable) => variable.name);
    expect(given).toEqual(expect.arrayContaining(required));
    expect(given.every((name) => refs.some((variable) => variable.name === name))).toBe(true);
    expect(block).toContain(`rollout status deployment/${deployment.metadata.name}`);
  });

  it('systemd: the install steps put each file where the unit reads it, and deliveries finds the unit’s store', () => {
    const unit = readFileSync(example('report-deployment-serve.service'), 'utf8');
    const setting = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(unit)?.[1];
    const block = shellBlocks(RECEIVER_DOC).find((text) => text.includes('systemctl daemon-reload')) ?? '';
    const binary = setting('ExecStart')?.split(' ')[0];
    expect(block).toContain(`install -m 0755 report-deployment-linux-x64 ${binary}\n`);
    expect(block).toContain(`install -m 0600 /dev/null ${setting('EnvironmentFile')}\n`);
    expect(block).toMatch(new RegExp(`^useradd --system .* ${setting('User')}$`, 'm'));
    expect(setting('Group')).toBe(setting('User'));
    expect(setting('DynamicUser')).toBeUndefined();
    expect(block).toContain(
      'install -m 0644 report-deployment-serve.service /etc/systemd/system/report-deployment-serve.service',
    );
    expect(block).toContain('systemctl enable --now report-deployment-serve\n');
    const store = `/var/lib/${setting('StateDirectory')}/receiver.sqlite`;
    expect(RECEIVER_DOC).toContain(`sudo -u ${setting('User')} report-deployment deliveries --store ${store}`);
    // The move to PostgreSQL stops the unit by its name, and reads its store as its user.
    expect(POSTGRES_DOC).toContain('sudo systemctl stop report-deployment-serve\n');
    expect(POSTGRES_DOC).toContain(`sudo -u ${setting('User')} report-deployment deliveries import --from ${store}`);
    expect(POSTGRES_DOC).not.toMatch(/systemctl \w+ report-deployment\s/);
  });

  it('Flux: the Secret made first is the one the Provider reads, with its key', () => {
    const block = shellBlocks(RECEIVER_DOC).find((text) => text.includes('report-deployment-webhook')) ?? '';
    expect(block).toContain(
      'create secret generic report-deployment-webhook \\\n  --from-literal=token="$FLUX_WEBHOOK_KEY"',
    );
    expect(block).toContain('apply -f flux.yaml');
    const flux = readFileSync(example('flux.yaml'), 'utf8');
    expect(flux).toContain('secretRef:\n    name: report-deployment-webhook');
  });

  it('Argo CD: the patch and the Helm values name files that exist', () => {
    expect(RECEIVER_DOC).toContain('--patch-file argocd-notifications-cm.yaml');
    expect(RECEIVER_DOC).toContain('-f argocd-helm-values.yaml');
    expect(existsSync(example('argocd-notifications-cm.yaml'))).toBe(true);
    expect(existsSync(example('argocd-helm-values.yaml'))).toBe(true);
  });

  it('docs/receiver-postgres.md: `docker run` gives the service’s address and key, the database, and the release’s image', () => {
    const block = shellBlocks(POSTGRES_DOC).find((text) => text.startsWith('docker run')) ?? '';
    const variables = [...block.matchAll(/-e (\w+)/g)].map((match) => match[1]);
    expect(variables).toEqual([
      'DEPLOY_TRACKER_URL',
      'DEPLOY_TRACKER_API_KEY',
      'DATABASE_URL',
      'GITHUB_WEBHOOK_SECRET',
    ]);
    expect(block.trim().endsWith(`ghcr.io/acme/report-deployment:${pinned()[0]}`)).toBe(true);
  });

  it('the npx line runs a pinned version, the one the examples name', () => {
    const lines = RECEIVER_DOC.split('\n').filter((line) => line.includes('npx '));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toContain(`npx --yes report-deployment@${pinned()[0]} serve`);
  });
});
