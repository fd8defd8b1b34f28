// start, finish, record, context, --help and --version, as npm pack ships them: what goes to stdout
// (the ids alone), what to stderr, the exit codes, and flags over everything.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { azureCommandIn, azureCommandLines } from '../helpers/foreign-commands.ts';
import { INSTALL_TIMEOUT_MS, installedCli, runCli } from '../helpers/run-cli.ts';

// Packed and installed once, before any test's own time starts.
beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

const fake = useFakeService();
const FIELDS = ['--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main'];
const env = (extra: Record<string, string> = {}) => ({
  DEPLOY_TRACKER_URL: fake.service.url,
  DEPLOY_TRACKER_API_KEY: fake.service.apiKey,
  ...extra,
});

describe('start, then finish in another invocation', () => {
  it('start prints the ids alone on stdout; finish takes them, with --exit-code', async () => {
    const start = await runCli(['start', ...FIELDS, '--artifact-name', 'shop-web'], { env: env() });
    const finish = await runCli(
      ['finish', '--deployment-id', start.stdout.trim().split('\n').join(','), '--exit-code', '1'],
      {
        env: env(),
      },
    );

    // In the artifacts' order, whichever create reached the fake first (it numbers them as they come).
    const deployments = [...fake.service.deployments.values()];
    const byId = deployments.find((deployment) => deployment.body.artifactId === 42)?.id;
    const byName = deployments.find((deployment) => deployment.body.artifactName === 'shop-web')?.id;
    expect([byId, byName].map(String).toSorted()).toEqual(['1', '2']);
    expect(start.exitCode).toBe(0);
    expect(start.stdout).toBe(`${byId}\n${byName}\n`);
    expect(start.messages).toEqual([
      `Recorded deployment ${byId}: artifact 42 version c0ffee to Production (STARTED).`,
      `Recorded deployment ${byName}: artifact 'shop-web' version c0ffee to Production (STARTED).`,
    ]);
    expect(finish.exitCode).toBe(0);
    expect(finish.stdout).toBe('');
    expect(finish.messages).toEqual([`Deployments ${byId}, ${byName} set to FAILED.`]);
    expect([...fake.service.deployments.values()].map((deployment) => deployment.statuses)).toEqual([
      ['STARTED', 'FAILED'],
      ['STARTED', 'FAILED'],
    ]);
  });

  it('start --json; finish takes the JSON array, and a status word of the action', async () => {
    await fake.restart({ ids: () => '9007199254740993' });

    const start = await runCli(['start', ...FIELDS, '--json'], { env: env() });
    const ids = (JSON.parse(start.stdout.replace(/(\d{16,})/g, '"$1"')) as { deploymentIds: string[] }).deploymentIds;
    const finish = await runCli(['finish', '--deployment-id', `[${ids.join(',')}]`, '--status', 'success'], {
      env: env(),
    });

    expect(start.stdout).toBe('{"deploymentIds":[9007199254740993],"status":"STARTED"}\n');
    expect(finish.exitCode).toBe(0);
    expect(fake.received()).toEqual(['POST /deployment', 'PATCH /deployment/9007199254740993']);
  });

  it('a start that recorded nothing leaves the id empty; finish of an empty id is a warning, exit 0', async () => {
    fake.service.fail('POST', { status: 400, body: { detail: 'no such artifact' } });

    const start = await runCli(['start', ...FIELDS], { env: env() });
    const finish = await runCli(['finish', '--deployment-id', start.stdout.trim(), '--exit-code', '0'], { env: env() });

    expect(start.exitCode).toBe(0);
    expect(start.stdout).toBe('');
    expect(start.messages).toEqual([
      'warning: Could not record the deployment of artifact 42: HTTP 400: no such artifact',
    ]);
    expect(finish.exitCode).toBe(0);
    expect(finish.messages).toEqual([
      'warning: --deployment-id is an empty list: the job that started the deployment recorded none (see its log), so there is nothing to update.',
    ]);
    expect(fake.received()).toEqual(['POST /deployment']);
  });
});

describe('record', () => {
  it('records a finished deployment in one request and prints its id', async () => {
    const result = await runCli(['record', '--status', 'FAILED', ...FIELDS, '--environment', 'Staging'], {
      env: env(),
    });

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('1\n');
    expect(fake.service.requests[0]?.body).toEqual({
      artifactId: 42,
      version: 'c0ffee',
      environment: 'Staging',
      commitSha: 'c0ffee',
      user: 'alice',
      branch: 'main',
      type: 'SIMPLE',
      status: 'FAILED',
    });
  });

  it('dry run: prints the request on stderr, the key as ***; sends nothing; stdout empty', async () => {
    const result = await runCli(['record', '--status', 'success', ...FIELDS, '--dry-run'], { env: env() });

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.messages.slice(0, 6)).toEqual([
      'Dry run: would send',
      `POST ${fake.service.url}/deployment`,
      'content-type: application/json',
      'accept: application/json',
      'accept-encoding: identity',
      'x-api-key: ***',
    ]);
    expect(result.messages.at(-1)).toBe('Dry run: nothing was sent.');
    expect(fake.service.requests).toEqual([]);
  });
});

describe('exit codes', () => {
  it('0 failed open, 1 with --fail-on-error, 2 for a usage or configuration error (nothing sent)', async () => {
    fake.service.fail('POST', { status: 503, body: { detail: 'maintenance' } });
    const openly = await runCli(['record', '--status', 'success', ...FIELDS, '--retries', '0'], { env: env() });
    fake.service.fail('POST', { status: 503, body: { detail: 'maintenance' } });
    const strictly = await runCli(['record', '--status', 'success', ...FIELDS, '--retries', '0', '--fail-on-error'], {
      env: env(),
    });
    const sent = fake.service.requests.length;
    const usage = await runCli(['record', ...FIELDS], { env: env() });
    const config = await runCli(['record', '--status', 'done', ...FIELDS, '--base-url', 'ftp://x'], { env: env() });

    expect([openly.exitCode, strictly.exitCode, usage.exitCode, config.exitCode]).toEqual([0, 1, 2, 2]);
    expect(openly.messages).toEqual(['warning: Could not record the deployment of artifact 42: HTTP 503: maintenance']);
    expect(strictly.messages).toEqual(['error: Could not record the deployment of artifact 42: HTTP 503: maintenance']);
    expect(usage.messages).toEqual([
      'error: record needs --status SUCCEEDED or FAILED (or success, failure, cancelled), or --exit-code N (e.g. `--exit-code $?`). See `report-deployment record --help`.',
    ]);
    expect(config.messages).toEqual([
      "error: --base-url must be an http(s) URL, got 'ftp://x'. Use e.g. `https://tracker.example.com/api`.",
      "       --status must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped, or a GitHub deployment's state), got 'done'. Or give --exit-code N, e.g. `--exit-code $?`.",
    ]);
    expect(fake.service.requests).toHaveLength(sent);
  });

  it('no key: a warning and nothing sent, exit 0; 1 with --fail-on-error', async () => {
    const open = await runCli(['start', ...FIELDS], { env: { DEPLOY_TRACKER_URL: fake.service.url } });
    const strict = await runCli(['start', ...FIELDS, '--fail-on-error'], {
      env: { DEPLOY_TRACKER_URL: fake.service.url },
    });

    expect([open.exitCode, strict.exitCode]).toEqual([0, 1]);
    expect(open.stdout).toBe('');
    expect(fake.service.requests).toEqual([]);
  });

  it('the key is never a flag: --api-key points to DEPLOY_TRACKER_API_KEY, and its value is never shown', async () => {
    const spaced = await runCli(['start', ...FIELDS, '--api-key', 'k-secret-1'], { env: env() });
    const joined = await runCli(['record', '--api-key=k-secret-2', '--status', 'success', ...FIELDS], { env: env() });

    expect([spaced.exitCode, joined.exitCode]).toEqual([2, 2]);
    for (const result of [spaced, joined]) {
      expect(result.messages).toEqual([
        'error: --api-key is no flag: the key is read only from the environment, never from the command line. Set DEPLOY_TRACKER_API_KEY (in a CI, from a secret variable).',
      ]);
      expect(result.stderr).not.toMatch(/k-secret/);
    }
    expect(fake.service.requests).toEqual([]);
  });
});

describe('context, --help, --version', () => {
  let repo: string | undefined;
  afterEach(() => {
    if (repo) rmSync(repo, { recursive: true, force: true });
    repo = undefined;
  });

  it('context shows each field and its source, git outside CI, flags over everything; sends nothing', async () => {
    repo = mkdtempSync(join(tmpdir(), 'report-deployment-git-'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
    git('init', '-q', '-b', 'feature/login');
    git('-c', 'user.name=Grace', '-c', 'user.email=g@example.com', 'commit', '-q', '--allow-empty', '-m', 'x');
    git('config', 'user.name', 'Grace Hopper');
    const sha = git('rev-parse', 'HEAD');

    const result = await runCli(['context', '--artifact-id', '42', '--environment', 'Staging', '--json'], {
      env: env(),
      cwd: repo,
    });

    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      service: { value: fake.service.url, source: 'DEPLOY_TRACKER_URL' },
      key: { value: '(set, not shown)', source: 'DEPLOY_TRACKER_API_KEY' },
      ci: { value: '(none)' },
      commitSha: { value: sha, source: 'git' },
      branch: { value: 'feature/login', source: 'git' },
      user: { value: 'Grace Hopper' },
      version: { value: sha, source: 'the commit' },
      environment: { value: 'Staging', source: '--environment' },
      problems: [],
    });
    expect(result.stdout).not.toContain(fake.service.apiKey);
    expect(fake.service.requests).toEqual([]);
  });

  it('--help and --version go to stdout, exit 0; a command’s --help lists its flags', async () => {
    const help = await runCli(['--help']);
    const runHelp = await runCli(['run', '--help']);
    const version = await runCli(['--version']);

    expect([help.exitCode, runHelp.exitCode, version.exitCode]).toEqual([0, 0, 0]);
    expect(help.stdout).toMatch(/^report-deployment: records each deployment/);
    expect(runHelp.stdout).toMatch(/^Usage: report-deployment run \[flags\] -- <command> \[args\.\.\.\]/);
    expect(runHelp.stdout).toContain('--artifact-id ID');
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('in Azure Pipelines (TF_BUILD=True), whose agent runs `##vso[` found anywhere in stdout or stderr', () => {
  it.each([
    ['start', 422],
    ['record', 500],
  ])(
    '%s, the service answering %i with a detail that holds ##vso[: shown, never a command',
    async (command, status) => {
      const detail = '##vso[task.setvariable variable=DEPLOYED]evil';
      fake.service.fail('POST', { status, body: { detail } });
      const args = [command, ...FIELDS, '--retries', '0', ...(command === 'record' ? ['--status', 'success'] : [])];

      const result = await runCli(args, { env: env({ TF_BUILD: 'True' }) });

      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.messages).toEqual([
        `warning: Could not record the deployment of artifact 42: HTTP ${status}: ##vso\\u005btask.setvariable variable=DEPLOYED]evil`,
      ]);
      // As the agent reads each line (test/helpers/foreign-commands.ts, ported from its Command.cs).
      expect(result.stderr.split('\n').map(azureCommandIn).filter(Boolean)).toEqual([]);
      expect(azureCommandLines(result.stderr)).toEqual([]);
    },
  );
});
