// The command line at its edges (issue 20's classes 5, 6, 8 to 11 and 13; issue 19's user in every
// CI and `context`; issue 21's messages), each on the CLI as `npm pack` ships it: git that hangs or
// refuses, a pipe where TeamCity names a file, flags given empty or holding `-h`, ids that begin
// with `-`, a proxy URL with a path, invisible characters in `context --json`, the words of every
// message.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.ts';
import {
  cliSubject,
  fixtureCommand,
  INSTALL_TIMEOUT_MS,
  installedCli,
  installedSea,
  runCli,
} from '../helpers/run-cli.ts';
import { TEST_CA_PATH, tlsFixture } from '../helpers/tls-fixtures.ts';

beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

const fake = useFakeService();
const FIELDS = ['--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main'];
const env = (extra: Record<string, string> = {}) => ({
  DEPLOY_TRACKER_URL: fake.service.url,
  DEPLOY_TRACKER_API_KEY: fake.service.apiKey,
  ...extra,
});

const root = mkdtempSync(join(tmpdir(), 'report-deployment-edges-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
/** A fresh folder in no git repository. */
function folder(): string {
  const dir = join(root, `f${(folders += 1)}`);
  mkdirSync(dir);
  return dir;
}

/** What git runs with in these tests: no configuration of this machine's. */
const gitEnv = () => ({
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: join(root, 'no-gitconfig'),
  GIT_CEILING_DIRECTORIES: root,
});

/** A repository with one commit by `author`; its folder and the commit. */
function repository(author: string): { dir: string; sha: string } {
  const dir = folder();
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...gitEnv() } }).trim();
  git('init', '-q', '-b', 'main');
  git('-c', `user.name=${author}`, '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', 'x');
  return { dir, sha: git('rev-parse', 'HEAD') };
}

/** The subject's PATH (the executable's has no Node) with a `git` first that is this shell script. */
function pathWithGit(script: string): string {
  const bin = folder();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  const path = cliSubject() === 'sea' ? installedSea().path : process.env.PATH;
  return `${bin}:${path ?? ''}`;
}
/** A git stuck as on a hung network mount: it ignores SIGTERM, and a child of it holds its pipes open. */
const HANGING_GIT = "trap '' TERM\nsleep 60";

describe('git never holds the command (#5)', () => {
  it('run --timeout-seconds 1 with a git that hangs: the command starts within the deadline, and the CLI ends with it', async () => {
    const started = Date.now();
    const result = await runCli(
      ['run', '--artifact-id', '42', '--timeout-seconds', '1', '--', ...fixtureCommand('exit.cjs', '0')],
      { env: env({ PATH: pathWithGit(HANGING_GIT) }), cwd: folder(), killAfterMs: 8_000 },
    );

    expect(result.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(result.messages).toContain(
      'error: --commit-sha is not set, and no CI variable or git repository here gives a commit (git gave no answer before the deadline). Set `--commit-sha`.',
    );
    expect(fake.service.requests).toEqual([]);
  });

  it('start with a git that hangs: a configuration error at the deadline, exit 2, nothing sent', async () => {
    const result = await runCli(['start', '--artifact-id', '42', '--timeout-seconds', '1'], {
      env: env({ PATH: pathWithGit(HANGING_GIT) }),
      cwd: folder(),
      killAfterMs: 6_000,
    });

    expect(result.exitCode).toBe(2);
    expect(result.messages[0]).toBe(
      'error: --commit-sha is not set, and no CI variable or git repository here gives a commit (git gave no answer before the deadline). Set `--commit-sha`.',
    );
    expect(fake.service.requests).toEqual([]);
  });

  it("git's refusal of a repository it does not trust: its gist in the error, its words in debug", async () => {
    const { dir } = repository('Ada');
    const result = await runCli(['start', '--artifact-id', '42'], {
      env: env({ ...gitEnv(), GIT_TEST_ASSUME_DIFFERENT_OWNER: '1', DEPLOY_TRACKER_DEBUG: '1' }),
      cwd: dir,
    });

    expect(result.exitCode).toBe(2);
    expect(result.messages).toContain(
      `error: --commit-sha is not set, and no CI variable or git repository here gives a commit (git: detected dubious ownership in repository at '${dir}'). Set \`--commit-sha\`.`,
    );
    expect(result.messages).toContainEqual(
      expect.stringMatching(new RegExp(`^ +git: fatal: detected dubious ownership in repository at '${dir}'$`)),
    );
  });
});

describe('no file read without a bound (#6)', () => {
  it("TeamCity's configuration properties file a pipe: context answers at once, and takes nothing from it", async () => {
    const dir = folder();
    const pipe = join(dir, 'config.properties');
    execFileSync('mkfifo', [pipe]);
    const build = join(dir, 'build.properties');
    writeFileSync(build, `teamcity.configuration.properties.file=${pipe}\n`);

    const result = await runCli(['context', '--json', ...FIELDS.slice(0, 2)], {
      env: env({ TEAMCITY_VERSION: '2024.1', TEAMCITY_BUILD_PROPERTIES_FILE: build, BUILD_VCS_NUMBER: 'c0ffee' }),
      cwd: dir,
      killAfterMs: 8_000,
    });

    expect(result.signal).toBeNull();
    const shown = JSON.parse(result.stdout) as Record<string, { value: string } | null>;
    expect(shown.ci?.value).toBe('TeamCity');
    expect(shown.branch).toBeNull();
  });

  it("the branch from TeamCity's properties files where they are regular files", async () => {
    const dir = folder();
    const configuration = join(dir, 'config.properties');
    writeFileSync(configuration, 'teamcity.build.branch=release/7\n');
    const build = join(dir, 'build.properties');
    writeFileSync(build, `teamcity.configuration.properties.file=${configuration}\n`);

    const result = await runCli(['record', '--status', 'success', '--artifact-id', '42'], {
      env: env({ TEAMCITY_VERSION: '2024.1', TEAMCITY_BUILD_PROPERTIES_FILE: build, BUILD_VCS_NUMBER: 'c0ffee' }),
      cwd: dir,
    });

    expect(result.exitCode).toBe(0);
    expect(fake.service.requests[0]?.body).toMatchObject({
      branch: 'release/7',
      commitSha: 'c0ffee',
      user: 'TeamCity',
    });
  });
});

describe('a flag given empty (#8)', () => {
  it.each([
    ['record', ['record', '--status', '', ...FIELDS]],
    ['finish', ['finish', '--deployment-id', '7', '--status', '']],
    ['finish --fail-on-error', ['finish', '--deployment-id', '7', '--status=', '--fail-on-error']],
  ])('--status "" is a usage error for %s: exit 2, nothing sent', async (_label, args) => {
    const result = await runCli(args, { env: env() });

    expect(result.exitCode).toBe(2);
    expect(result.messages).toEqual([
      'error: --status is empty (was the variable given to it unset?): give SUCCEEDED or FAILED (or success, failure, cancelled), or --exit-code N instead. See `report-deployment ' +
        args[0] +
        ' --help`.',
    ]);
    expect(fake.service.requests).toEqual([]);
  });

  it('--environment "" is a usage error (it would record to Production); the other fields given empty take their defaults', async () => {
    const environment = await runCli(['start', ...FIELDS, '--environment', ''], { env: env() });
    const version = await runCli(['start', ...FIELDS, '--version', '', '--description', ''], { env: env() });

    expect(environment.exitCode).toBe(2);
    expect(environment.messages[0]).toMatch(/^error: --environment is empty \(was the variable given to it unset\?\)/);
    expect(version.exitCode).toBe(0);
    expect(fake.service.requests).toHaveLength(1);
    expect(fake.service.requests[0]?.body).toMatchObject({ version: 'c0ffee', environment: 'Production' });
  });

  it('run --environment "" (a CI variable left unset) records nothing, says why, and still runs the command', async () => {
    const result = await runCli(['run', ...FIELDS, '--environment', '', '--', ...fixtureCommand('exit.cjs', '3')], {
      env: env(),
    });

    expect(result.exitCode).toBe(3);
    expect(result.messages).toEqual([
      "error: --environment is empty (was the variable given to it unset?): name the environment as the service does, or leave the flag out for the service's default.",
      '       Nothing is recorded; the command runs.',
    ]);
    expect(fake.service.requests).toEqual([]);
  });

  it('finish --deployment-id "" is still the hand-off of a start that recorded none', async () => {
    const result = await runCli(['finish', '--deployment-id', '', '--exit-code', '0', '--fail-on-error'], {
      env: env(),
    });

    expect(result.exitCode).toBe(0);
    expect(result.messages[0]).toMatch(/^warning: --deployment-id is an empty list/);
  });
});

describe('a value is a value (#9, #10)', () => {
  it.each(['-h', '--help', '-5', '--dry-run'])('--description %s records it as the description', async (value) => {
    const result = await runCli(['record', '--status', 'success', ...FIELDS, '--description', value], { env: env() });

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('1\n');
    expect(fake.service.requests[0]?.body).toMatchObject({ description: value });
  });

  it('run --description "-h" runs the command; a --help after `--` is the command\'s', async () => {
    const result = await runCli(
      ['run', ...FIELDS, '--description', '-h', '--', ...fixtureCommand('exit.cjs', '3', '--help')],
      {
        env: env(),
      },
    );

    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe('');
    expect(fake.service.requests[0]?.body).toMatchObject({ description: '-h' });
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['STARTED', 'FAILED']);
  });

  it.each([
    ['-5', '"-5"'],
    ['--help', '"--help"'],
    ['-h', '"-h"'],
  ])('start prints the id %s, and finish --deployment-id "$ID" finishes it', async (id, json) => {
    await fake.restart({ ids: () => json });

    const start = await runCli(['start', ...FIELDS], { env: env() });
    const finish = await runCli(['finish', '--deployment-id', start.stdout.trim(), '--exit-code', '0'], { env: env() });

    expect(start.stdout).toBe(`${id}\n`);
    expect(finish.exitCode).toBe(0);
    expect(finish.messages).toEqual([`Deployment ${id} set to SUCCEEDED.`]);
    expect(fake.received()).toEqual(['POST /deployment', `PATCH /deployment/${id}`]);
  });

  it('a value flag followed by `--` has no value: `--` always ends the flags', async () => {
    const result = await runCli(['run', ...FIELDS, '--deployment-id', '--', 'true'], { env: env() });

    expect(result.exitCode).toBe(2);
    expect(result.messages).toEqual(['error: --deployment-id needs a value. See `report-deployment run --help`.']);
  });
});

describe('a proxy URL with a path (#11)', () => {
  let proxy: ForwardProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it('is taken as curl takes it, its path and query ignored: the deployment is recorded through it', async () => {
    proxy = await startForwardProxy({ hosts: { 'tracker.test': '127.0.0.1' } });
    const result = await runCli(['record', '--status', 'success', ...FIELDS, '--allow-insecure-http'], {
      env: env({
        DEPLOY_TRACKER_URL: `http://tracker.test:${fake.service.port}/`,
        HTTP_PROXY: `${proxy.url}/some/path?q=1#f`,
      }),
    });

    expect(result.exitCode).toBe(0);
    expect(result.stderr).not.toMatch(/bug|\n\s+at /);
    expect(proxy.seen).toEqual([`tracker.test:${fake.service.port}`]);
    expect(fake.received()).toEqual(['POST /deployment']);
  });
});

describe('an https proxy on an IP address (#13)', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it("prints no DeprecationWarning: no TLS server name is set to the proxy's address", async () => {
    const { key, cert } = tlsFixture('server');
    server = createServer({ key, cert }, (socket) => {
      socket.on('data', () => socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'));
    });
    await new Promise<void>((listening) => server?.listen(0, '127.0.0.1', listening));
    const { port } = server.address() as { port: number };

    const result = await runCli(['record', '--status', 'success', ...FIELDS, '--retries', '0'], {
      env: env({
        DEPLOY_TRACKER_URL: 'https://tracker.test/api',
        HTTPS_PROXY: `https://127.0.0.1:${port}`,
        NODE_EXTRA_CA_CERTS: TEST_CA_PATH,
      }),
    });

    expect(result.exitCode).toBe(0);
    // The proxy was reached over TLS (its certificate names 127.0.0.1), and refused the tunnel.
    expect(result.messages).toEqual([
      `warning: Could not record the deployment of artifact 42: the proxy HTTPS_PROXY (https://127.0.0.1:${port}) would not connect to tracker.test (HTTP 502)`,
    ]);
    expect(result.stderr).not.toContain('DeprecationWarning');
  });
});

describe('context --json: every invisible character escaped (#13)', () => {
  it('U+0085, U+009B, DEL, U+202E, U+2028, a zero-width joiner and a tag: none raw, the same values once parsed', async () => {
    const description = 'a\u0085b\u009bc\u007fd\u202ee\u2028f\u200dg\u{e0041}h\u00a0i\u3164j';
    const result = await runCli(['context', '--json', ...FIELDS, '--description', description], { env: env() });

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^[\x20-\x7e\n]*$/);
    expect(result.stdout).toContain(
      '"value": "a\\u0085b\\u009bc\\u007fd\\u202ee\\u2028f\\u200dg\\udb40\\udc41h\\u00a0i\\u3164j"',
    );
    expect((JSON.parse(result.stdout) as { description: { value: string } }).description.value).toBe(description);
  });
});

describe('a user in every CI (issue 19, item 6)', () => {
  const jenkins = {
    JENKINS_URL: 'https://jenkins.example.com/',
    BUILD_URL: 'https://jenkins.example.com/job/shop/42/',
  };

  it("stock Jenkins (no Build User Vars): the deployed commit's author", async () => {
    const { dir, sha } = repository('Grace Hopper');
    const result = await runCli(['context', '--json', '--artifact-id', '42'], {
      env: env({ ...gitEnv(), ...jenkins, GIT_COMMIT: sha, GIT_BRANCH: 'origin/main' }),
      cwd: dir,
    });

    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      user: { value: 'Grace Hopper', source: `git (author of ${sha})` },
      problems: [],
    });
  });

  it("CircleCI, a push by someone without an account, the commit not in git: the CI's own name, recorded", async () => {
    const result = await runCli(['start', '--artifact-id', '42'], {
      env: env({ CI: 'true', CIRCLECI: 'true', CIRCLE_SHA1: 'c0ffee'.repeat(6).slice(0, 40), CIRCLE_BRANCH: 'main' }),
      cwd: folder(),
    });

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('1\n');
    expect(fake.service.requests[0]?.body).toMatchObject({ user: 'CircleCI' });
  });

  it('--user still wins', async () => {
    const { dir, sha } = repository('Grace Hopper');
    const result = await runCli(['record', '--status', 'success', '--artifact-id', '42', '--user', 'ops'], {
      env: env({ ...gitEnv(), ...jenkins, GIT_COMMIT: sha, GIT_BRANCH: 'origin/main' }),
      cwd: dir,
    });

    expect(result.exitCode).toBe(0);
    expect(fake.service.requests[0]?.body).toMatchObject({ user: 'ops' });
  });
});

describe('context is start without sending (issue 19, item 7)', () => {
  it('shows every field start would send, the artifacts, type and status included', async () => {
    const result = await runCli(['context', '--json', ...FIELDS, '--artifact-name', 'shop-web'], { env: env() });

    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      artifacts: [
        { value: '42', source: '--artifact-id' },
        { value: 'shop-web', source: '--artifact-name' },
      ],
      type: { value: 'SIMPLE' },
      status: { value: 'STARTED' },
      problems: [],
    });
    expect(fake.service.requests).toEqual([]);
  });

  it('refuses exactly where start would: the same messages, exit 2', async () => {
    const args = ['--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main', '--retries', '99'];
    const start = await runCli(['start', ...args], { env: env() });
    const context = await runCli(['context', ...args], { env: env() });

    expect(start.exitCode).toBe(2);
    expect(context.exitCode).toBe(2);
    expect(context.messages).toEqual(start.messages);
    expect(context.stdout).toMatch(/^artifact +\(none\)$/m);
    expect(fake.service.requests).toEqual([]);
  });

  it('without a key: the warning start gives, exit 0', async () => {
    const result = await runCli(['context', ...FIELDS], { env: { DEPLOY_TRACKER_URL: fake.service.url } });

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^key +\(none\)$/m);
    expect(result.messages.at(-1)).toMatch(/^warning: DEPLOY_TRACKER_API_KEY is not set, so nothing is recorded/);
  });

  it("--help lists only the flags that mean something to it, and says start's others change nothing", async () => {
    const help = await runCli(['context', '--help']);
    const same = await runCli(['context', ...FIELDS, '--fail-on-error', '--dry-run'], { env: env() });

    expect(help.stdout).not.toMatch(/^ +--(fail-on-error|dry-run) /m);
    expect(help.stdout).toContain("start's --fail-on-error and --dry-run are taken, and change nothing here.");
    expect(same.exitCode).toBe(0);
  });
});

describe('what the CLI says (issue 21)', () => {
  it('an unknown flag: one line, one hint, prefixed as every line', async () => {
    const result = await runCli(['start', ...FIELDS, '--artefact-id', '7'], { env: env() });

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      "report-deployment: error: unknown flag '--artefact-id' for start. See `report-deployment start --help`.\n",
    );
  });

  it('a forgotten `--`: the hint puts the command after it', async () => {
    const result = await runCli(['run', ...FIELDS, './deploy.sh', '-c', 'x'], { env: env() });

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      "report-deployment: error: unexpected argument './deploy.sh': the command to run goes after `--`. Put `--` before it: `report-deployment run [flags] -- ./deploy.sh -c x`.\n",
    );
  });

  it('--help documents record --json, DEPLOY_TRACKER_DEBUG, and that run --dry-run still runs the command', async () => {
    const record = await runCli(['record', '--help']);
    const run = await runCli(['run', '--help']);

    expect(record.stdout).toContain('--json prints {"deploymentIds":[...],"status":...}');
    for (const help of [record, run]) expect(help.stdout).toContain('DEPLOY_TRACKER_DEBUG=1');
    expect(run.stdout).toContain(
      '--dry-run                 print the requests instead of sending them (the key as ***); the command still runs',
    );
  });

  it("run --dry-run says, in the dry run's own line, that the command runs all the same", async () => {
    const result = await runCli(['run', ...FIELDS, '--dry-run', '--', ...fixtureCommand('exit.cjs', '0')], {
      env: env(),
    });

    expect(result.exitCode).toBe(0);
    expect(result.messages).toContain('Dry run: nothing was sent; the command runs all the same.');
    expect(fake.service.requests).toEqual([]);
  });
});

describe('a commit author of white space alone (issue 27, item 6)', () => {
  it.each([
    ['U+00A0', '\u00a0'],
    ['U+3000 and U+FEFF', '\u3000\ufeff'],
  ])("author %s under a CI that names no user: recorded, by the CI's name", async (_label, author) => {
    const { dir, sha } = repository(author);
    const jenkins = { JENKINS_URL: 'https://ci/', GIT_COMMIT: sha, GIT_BRANCH: 'main', ...gitEnv() };
    const record = await runCli(['record', '--artifact-id', '42', '--status', 'SUCCEEDED'], {
      cwd: dir,
      env: env(jenkins),
    });
    const run = await runCli(['run', '--artifact-id', '42', '--', ...fixtureCommand('exit.cjs', '0')], {
      cwd: dir,
      env: env(jenkins),
    });

    expect(record.exitCode).toBe(0);
    expect(run.exitCode).toBe(0);
    expect([...fake.service.deployments.values()].map((deployment) => deployment.body.user)).toEqual([
      'Jenkins',
      'Jenkins',
    ]);
  });
});

describe('a working directory deleted by an earlier step (issue 27, item 7)', () => {
  /** The CLI started in a folder that is deleted just before: `cd DIR && rmdir DIR && exec report-deployment ...`. */
  const inDeletedFolder = (args: string[], extra: Record<string, string> = {}) => {
    const dir = folder();
    return runCli(args, { env: env(extra), through: ['sh', '-c', 'cd "$0" && rmdir "$0" && exec "$@"', dir] });
  };
  const statuses = () => [...fake.service.deployments.values()].map((deployment) => deployment.statuses);

  it('every field given: run, start and record record as anywhere; context shows them; no bug said', async () => {
    const run = await inDeletedFolder(['run', ...FIELDS, '--', ...fixtureCommand('exit.cjs', '3')]);
    const start = await inDeletedFolder(['start', ...FIELDS]);
    const record = await inDeletedFolder(['record', ...FIELDS, '--status', 'SUCCEEDED']);
    const context = await inDeletedFolder(['context', ...FIELDS, '--json']);

    expect(run.exitCode).toBe(3);
    expect(start.exitCode).toBe(0);
    expect(start.stdout).toBe('2\n');
    expect(record.exitCode).toBe(0);
    expect(context.exitCode).toBe(0);
    expect((JSON.parse(context.stdout) as { commitSha: unknown }).commitSha).toEqual({
      value: 'c0ffee',
      source: '--commit-sha',
    });
    expect(statuses()).toEqual([['STARTED', 'FAILED'], ['STARTED'], ['SUCCEEDED']]);
    for (const result of [run, start, record, context]) expect(result.stderr).not.toMatch(/bug|uv_cwd|ENOENT/);
  });

  it('a field only git could give: a configuration error that names the folder gone, and the flag (run still runs)', async () => {
    const record = await inDeletedFolder(['record', '--artifact-id', '42', '--user', 'alice', '--status', 'SUCCEEDED']);
    const run = await inDeletedFolder([
      'run',
      '--artifact-id',
      '42',
      '--user',
      'alice',
      '--',
      ...fixtureCommand('exit.cjs', '0'),
    ]);
    const why =
      '--commit-sha is not set, and no CI variable or git repository here gives a commit (the working directory no longer exists: it was deleted, or moved). Set `--commit-sha`.';

    expect(record.exitCode).toBe(2);
    expect(record.stderr).toContain(why);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain(why);
    expect(run.stderr).toContain('Nothing is recorded; the command runs.');
    expect(fake.service.requests).toEqual([]);
    for (const result of [record, run]) expect(result.stderr).not.toMatch(/bug|uv_cwd/);
  });
});

describe('NODE_TLS_REJECT_UNAUTHORIZED=0 (issue 27, item 3)', () => {
  const refusal =
    "Environment variable NODE_TLS_REJECT_UNAUTHORIZED is '0', which turns off the check of the service's certificate";

  it('refused before any request, where the certificate would not be trusted otherwise: record exits 2, run runs its command unrecorded', async () => {
    await fake.restart({ tls: tlsFixture('server') });
    const record = await runCli(['record', ...FIELDS, '--status', 'SUCCEEDED'], {
      env: env({ NODE_TLS_REJECT_UNAUTHORIZED: '0' }),
    });
    const run = await runCli(['run', ...FIELDS, '--', ...fixtureCommand('exit.cjs', '0')], {
      env: env({ NODE_TLS_REJECT_UNAUTHORIZED: '0' }),
    });

    expect(record.exitCode).toBe(2);
    expect(record.stderr).toContain(refusal);
    expect(record.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain(refusal);
    expect(run.stderr).toContain('Nothing is recorded; the command runs.');
    expect(fake.service.requests).toEqual([]);
    // Node's own warning, which names a --trace-warnings the tool does not have, is never reached.
    for (const result of [record, run]) expect(result.stderr).not.toMatch(/trace-warnings|Warning:/);
  });

  it('any other value, or a service over plain http, is left alone', async () => {
    const http = await runCli(['record', ...FIELDS, '--status', 'SUCCEEDED', '--allow-insecure-http'], {
      env: env({ NODE_TLS_REJECT_UNAUTHORIZED: '0' }),
    });
    await fake.restart({ tls: tlsFixture('server') });
    const checked = await runCli(['record', ...FIELDS, '--status', 'SUCCEEDED'], {
      env: env({ NODE_TLS_REJECT_UNAUTHORIZED: '1', NODE_EXTRA_CA_CERTS: TEST_CA_PATH }),
    });

    expect(http.exitCode).toBe(0);
    expect(checked.exitCode).toBe(0);
    expect(fake.service.deployments.get('1')?.statuses).toEqual(['SUCCEEDED']);
  });
});
