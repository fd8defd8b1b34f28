// The CLI's commands in-process (main() from src/, test/helpers/cli-in-process.ts), against the fake
// service: what `context`, `start`, `record` and `finish` print and send, their exit codes, the
// settings as each command reads them, and every command's --help. The packed CLI is judged by
// test/cli/; these reach the mutants of src/cli/ (vitest.stryker.config.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedArgs } from '../../src/cli/args.ts';
import { jsonText } from '../../src/cli/context.ts';
import { helpText } from '../../src/cli/help.ts';
import { attemptTimeoutMs, commandFlags, createsDeployments, readCommand } from '../../src/cli/settings.ts';
import { CLI_WORDS, cliSettings, RUN_WORDS } from '../../src/cli/source.ts';
import { ConfigError } from '../../src/core/config-error.ts';
import { describeStart } from '../../src/core/outcome.ts';
import type { Plan } from '../../src/core/plan.ts';
import { runCliInProcess } from '../helpers/cli-in-process.ts';
import { startFakeService, type FakeService } from '../helpers/fake-service.ts';

const FIELDS = ['--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main'];
/** No git repository for git to find, and no configuration of this machine's. */
const NO_GIT = { GIT_DIR: '/nonexistent/.git', GIT_CONFIG_NOSYSTEM: '1', PATH: process.env.PATH ?? '' };

let service: FakeService;
beforeEach(async () => {
  service = await startFakeService();
});
afterEach(async () => {
  await service.close();
});
const env = (extra: Record<string, string> = {}) => ({
  ...NO_GIT,
  DEPLOY_TRACKER_URL: service.url,
  DEPLOY_TRACKER_API_KEY: service.apiKey,
  ...extra,
});
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

const root = mkdtempSync(join(tmpdir(), 'cli-commands-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('context', () => {
  it('the table: each field, its source, the artifacts, type and status; nothing sent', async () => {
    const result = await runCliInProcess(
      ['context', ...FIELDS, '--artifact-name', 'shop', '--type', 'simple', '--description', 'a\nb'],
      env(),
    );

    expect(result.exitCode).toBe(0);
    expect(lines(result.stdout)).toEqual([
      `service      ${service.url}  (DEPLOY_TRACKER_URL)`,
      'key          (set, not shown)  (DEPLOY_TRACKER_API_KEY)',
      'ci           (none)  (no CI variables found)',
      'artifact     42  (--artifact-id)',
      'artifact     shop  (--artifact-name)',
      'version      c0ffee  (the commit)',
      "environment  Production  (the service's default environment)",
      'commitSha    c0ffee  (--commit-sha)',
      'user         alice  (--user)',
      'branch       main  (--branch)',
      'changelog    (none)',
      'description  a\\nb  (--description)',
      'link         (none)',
      'type         SIMPLE  (--type)',
      'status       STARTED  (start records it so; finish or run sets how it ended)',
    ]);
    expect(result.stderr).toBe('');
    expect(service.requests).toEqual([]);
  });

  it('--json: the same, as one object; the CI named, the key scrubbed from every value', async () => {
    const result = await runCliInProcess(
      ['context', '--json', '--artifact-id', '42', '--description', `key ${service.apiKey}`, '--base-url', service.url],
      env({ GITLAB_CI: 'true', CI_COMMIT_SHA: 'abc', CI_COMMIT_BRANCH: 'main', GITLAB_USER_LOGIN: 'gl' }),
    );

    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      service: { value: service.url, source: '--base-url' },
      key: { value: '(set, not shown)', source: 'DEPLOY_TRACKER_API_KEY' },
      ci: { value: 'GitLab CI', source: 'its variables' },
      artifacts: [{ value: '42', source: '--artifact-id' }],
      version: { value: 'abc', source: 'the commit' },
      environment: { value: 'Production', source: "the service's default environment" },
      commitSha: { value: 'abc', source: 'GitLab CI (CI_COMMIT_SHA)' },
      user: { value: 'gl', source: 'GitLab CI (GITLAB_USER_LOGIN)' },
      branch: { value: 'main', source: 'GitLab CI (CI_COMMIT_BRANCH)' },
      changelog: null,
      description: { value: 'key ***', source: '--description' },
      link: null,
      type: { value: 'SIMPLE', source: 'the only type the service takes' },
      status: { value: 'STARTED', source: 'start records it so; finish or run sets how it ended' },
      problems: [],
    });
    expect(result.stdout.endsWith('}\n')).toBe(true);
  });

  it("refuses where start would: start's messages, exit 2; the table shows what could be read", async () => {
    const args = ['--commit-sha', 'c0ffee', '--retries', 'x', '--description', 'd'];
    const start = await runCliInProcess(['start', ...args], env());
    const context = await runCliInProcess(['context', ...args, '--json'], env());

    expect(start.exitCode).toBe(2);
    expect(context.exitCode).toBe(2);
    expect(context.stderr).toBe(start.stderr);
    // The user is the OS account's here (git has none).
    expect(lines(start.stderr)).toEqual([
      "report-deployment: error: --retries must be a whole number from 0 to 10, got 'x'.",
      'report-deployment:        --artifact-id or --artifact-name must be set: name the deployed artifact by its id or its name in the tracking service (a comma- or newline-separated list for several), or set `--deployment-id` to update an existing deployment.',
      'report-deployment:        --branch is not set, and no CI variable or git repository here gives a branch. Set `--branch`.',
    ]);
    const shown = JSON.parse(context.stdout) as Record<string, unknown>;
    expect(shown.artifacts).toEqual([]);
    expect(shown.description).toEqual({ value: 'd', source: '--description' });
    expect(shown.problems).toEqual(
      lines(start.stderr).map((line) => line.replace(/^report-deployment: (error: | {7})/, '')),
    );
    expect(service.requests).toEqual([]);
  });

  it('the table says (none) for an artifact not given, a service and a key not set', async () => {
    const result = await runCliInProcess(['context', '--commit-sha', 'c', '--user', 'u', '--branch', 'b'], NO_GIT);

    expect(result.exitCode).toBe(2);
    expect(lines(result.stdout).slice(0, 4)).toEqual([
      'service      (none)',
      'key          (none)',
      'ci           (none)  (no CI variables found)',
      'artifact     (none)',
    ]);
  });

  it.each([[[]], [['--json']]])(
    'a service URL with credentials %o: shown without them, as start refuses it (exit 2)',
    async (json) => {
      const result = await runCliInProcess(['context', ...FIELDS, ...json], {
        ...env(),
        DEPLOY_TRACKER_URL: 'https://bob:hunter2@tracker.example.com/api',
      });

      expect(result.exitCode).toBe(2);
      expect(result.stdout).toContain('https://***@tracker.example.com/api');
      expect(result.stdout + result.stderr).not.toContain('hunter2');
    },
  );

  it("without a key: start's warning, exit 0, also with --fail-on-error (context sends nothing)", async () => {
    const result = await runCliInProcess(['context', ...FIELDS, '--fail-on-error'], {
      ...NO_GIT,
      DEPLOY_TRACKER_URL: service.url,
    });

    expect(result.exitCode).toBe(0);
    expect(lines(result.stderr)).toEqual([
      "report-deployment: warning: DEPLOY_TRACKER_API_KEY is not set, so nothing is recorded. Set it to the key from the service's settings page (in a CI, from a secret variable; a protected variable is withheld from unprotected branches).",
    ]);
  });

  it('in a GitHub Actions run: step, a row a runner would read as a command is printed inert', async () => {
    const result = await runCliInProcess(
      ['context', ...FIELDS, '--description', '##[error]x'],
      env({ GITHUB_ACTIONS: 'true', GITHUB_SHA: 'c0ffee' }),
    );

    expect(result.commands).toEqual([]);
    expect(result.stdout).toMatch(
      /^::stop-commands::([0-9a-f-]+)\ndescription {2}##\[error\]x {2}\(--description\)\n::\1::$/m,
    );
    expect(result.stdout).toContain('\nuser         alice  (--user)\n');
  });

  it('elsewhere, the same row as it is', async () => {
    const result = await runCliInProcess(['context', ...FIELDS, '--description', '##[error]x'], env());

    expect(result.stdout).not.toContain('::stop-commands::');
    expect(result.stdout).toContain('\ndescription  ##[error]x  (--description)\n');
  });
});

describe("context --json's text", () => {
  it.each([
    ['C1 controls and DEL', 'a\u0085\u009b\u007f', '"a\\u0085\\u009b\\u007f"'],
    ['bidi and zero-width characters', '\u202e\u2066\u200b\u200d\ufeff', '"\\u202e\\u2066\\u200b\\u200d\\ufeff"'],
    ['line and paragraph separators', '\u2028\u2029', '"\\u2028\\u2029"'],
    ['spaces other than the space', '\u00a0\u3000 ', '"\\u00a0\\u3000 "'],
    ['fillers and variation selectors', '\u3164\u115f\ufe0f', '"\\u3164\\u115f\\ufe0f"'],
    ['a tag above U+FFFF, as its surrogates', '\u{e0041}', '"\\udb40\\udc41"'],
    ['C0 controls, as JSON writes them', '\n\t\u0001', '"\\n\\t\\u0001"'],
    ['printable text as it is', 'é 日本 ✓ 😀', '"é 日本 ✓ 😀"'],
    ['a GitHub command', '##[error]x', '"##\\u005berror]x"'],
    ['an Azure command', '##vso[task.x]y', '"##vso\\u005btask.x]y"'],
  ])('%s', (_label, value, written) => {
    expect(jsonText(value)).toBe(written);
    expect(JSON.parse(jsonText(value))).toBe(value);
  });

  it('keeps the layout: two spaces a level, a line a member', () => {
    expect(jsonText({ a: [1], b: null })).toBe('{\n  "a": [\n    1\n  ],\n  "b": null\n}');
  });
});

describe('start, record and finish', () => {
  it('record prints the id; --json the object; finish prints nothing', async () => {
    const record = await runCliInProcess(['record', '--status', 'success', ...FIELDS], env());
    const json = await runCliInProcess(['record', '--exit-code', '3', ...FIELDS, '--json'], env());
    const finish = await runCliInProcess(['finish', '--deployment-id', '1', '--exit-code', '0'], env());

    expect([record.stdout, json.stdout, finish.stdout]).toEqual([
      '1\n',
      '{"deploymentIds":[2],"status":"FAILED"}\n',
      '',
    ]);
    expect([record.exitCode, json.exitCode, finish.exitCode]).toEqual([0, 0, 0]);
    expect(service.deployments.get('1')?.statuses).toEqual(['SUCCEEDED', 'SUCCEEDED']);
  });

  it('recorded with --fail-on-error: exit 0', async () => {
    const result = await runCliInProcess(['start', ...FIELDS, '--fail-on-error'], env());

    expect([result.exitCode, result.stdout]).toEqual([0, '1\n']);
  });

  it('a configuration error: said, exit 2, nothing sent', async () => {
    const result = await runCliInProcess(['start', ...FIELDS, '--timeout-seconds', '0'], env());

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      "report-deployment: error: --timeout-seconds must be a number of seconds above 0 and at most 600, got '0'.\n",
    );
    expect(service.requests).toEqual([]);
  });

  it('a service that refuses: a warning, exit 0; with --fail-on-error an error, exit 1', async () => {
    service.fail('POST', { status: 400, body: { detail: 'no' } }, { status: 400, body: { detail: 'no' } });
    const open = await runCliInProcess(['start', ...FIELDS], env());
    const strict = await runCliInProcess(['start', ...FIELDS, '--fail-on-error'], env());

    expect([open.exitCode, strict.exitCode]).toEqual([0, 1]);
    expect(open.stderr).toBe(
      'report-deployment: warning: Could not record the deployment of artifact 42: HTTP 400: no\n',
    );
    expect(strict.stderr).toBe(
      'report-deployment: error: Could not record the deployment of artifact 42: HTTP 400: no\n',
    );
  });

  it('a redirect: says to set the variable the address came from, in the CLI’s words', async () => {
    service.fail('POST', { status: 308, body: '', headers: { location: 'https://elsewhere.example/' } });
    const result = await runCliInProcess(['start', ...FIELDS], env());

    expect(result.stderr).toBe(
      "report-deployment: warning: Could not record the deployment of artifact 42: HTTP 308: a redirect, which is not followed (the API key would go along); it points to 'https://elsewhere.example/'. Set DEPLOY_TRACKER_URL to the service's own address.\n",
    );
  });

  it('no key: exit 0; with --fail-on-error, 1; finish too', async () => {
    const noKey = { ...NO_GIT, DEPLOY_TRACKER_URL: service.url };
    const results = [
      await runCliInProcess(['start', ...FIELDS], noKey),
      await runCliInProcess(['start', ...FIELDS, '--fail-on-error'], noKey),
      await runCliInProcess(['finish', '--deployment-id', '1', '--status', 'failure', '--fail-on-error'], noKey),
    ];

    expect(results.map((result) => result.exitCode)).toEqual([0, 1, 1]);
    // --json still says, on stdout, that no deployment was recorded.
    const json = await runCliInProcess(['start', ...FIELDS, '--fail-on-error', '--json'], noKey);
    expect([json.exitCode, json.stdout]).toEqual([1, '{"deploymentIds":[],"status":""}\n']);
    // Said as what it is for the exit code: a warning, or with --fail-on-error an error.
    expect(results.map((result) => /^report-deployment: (\w+):/.exec(result.stderr)?.[1])).toEqual([
      'warning',
      'error',
      'error',
    ]);
    expect(service.requests).toEqual([]);
  });

  it('finish of an empty id: the warning, exit 0 (--fail-on-error too)', async () => {
    const result = await runCliInProcess(
      ['finish', '--deployment-id', '', '--exit-code', '1', '--fail-on-error'],
      env(),
    );

    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^report-deployment: warning: --deployment-id is an empty list/);
  });

  it('an id that Azure Pipelines would run is not printed, and not kept', async () => {
    await service.close();
    service = await startFakeService({ ids: () => JSON.stringify('##vso[task.complete]x') });
    const result = await runCliInProcess(['start', ...FIELDS, '--fail-on-error'], env());

    expect(result.stdout).toBe('');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('would be read as a logging command by Azure Pipelines or TeamCity');
  });

  it('a usage error: one line, exit 2', async () => {
    const result = await runCliInProcess(['start', '--bogus'], env());

    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      "report-deployment: error: unknown flag '--bogus' for start. See `report-deployment start --help`.\n",
    );
  });
});

describe("a command's settings", () => {
  const args = (
    command: ParsedArgs['command'],
    settings: ParsedArgs['settings'] = {},
    exitCode?: number,
  ): ParsedArgs => ({
    command,
    settings,
    json: false,
    exitCode,
    wrapped: [],
  });

  it('each command folds its status in', () => {
    expect(commandFlags(args('start', { user: 'u' }))).toEqual({ user: 'u', status: 'STARTED' });
    expect(commandFlags(args('context'))).toEqual({ status: 'STARTED' });
    expect(commandFlags(args('record', {}, 0))).toEqual({ status: 'SUCCEEDED' });
    expect(commandFlags(args('record', {}, 2))).toEqual({ status: 'FAILED' });
    expect(commandFlags(args('record', { status: 'failure' }))).toEqual({ status: 'failure' });
    expect(commandFlags(args('run'))).toEqual({});
    expect(commandFlags(args('finish', { 'deployment-id': '' }, 0))).toEqual({
      'deployment-id': '[]',
      status: 'SUCCEEDED',
    });
    expect(commandFlags(args('finish', { 'deployment-id': '5' }, 1))).toEqual({
      'deployment-id': '5',
      status: 'FAILED',
    });
    // run's hand-off too (it was read as no flag, and reported a bug).
    expect(commandFlags(args('run', { 'deployment-id': '' }))).toEqual({ 'deployment-id': '[]' });
  });

  it('which commands create deployments', () => {
    expect(
      ['start', 'record', 'context', 'run', 'finish'].map((command) => createsDeployments(args(command as 'run'))),
    ).toEqual([true, true, true, true, false]);
    expect(createsDeployments(args('run', { 'deployment-id': '7' }))).toBe(false);
    expect(createsDeployments(args('run', { 'deployment-id': '' }))).toBe(false);
  });

  it.each([
    [undefined, 10_000],
    ['2', 2_000],
    ['0.5', 500],
    ['600', 600_000],
    ['601', 10_000],
    ['0', 10_000],
    ['-1', 10_000],
    ['x', 10_000],
  ])('one attempt’s timeout for --timeout-seconds %s: %i ms', (seconds, ms) => {
    expect(attemptTimeoutMs(args('run', seconds === undefined ? {} : { 'timeout-seconds': seconds }))).toBe(ms);
  });

  it('readCommand: the settings and request, the CI only where deployments are created', async () => {
    const log = { info: () => {}, warning: () => {}, debug: () => {}, clean: (line: string) => line };
    const created = await readCommand(
      args('start', { 'artifact-id': '42', 'commit-sha': 'c', user: 'u', branch: 'b' }),
      env(),
      log,
    );
    const finished = await readCommand(args('finish', { 'deployment-id': '7' }, 0), env(), log);

    expect(created.ci?.name).toBeUndefined();
    expect(created.ci?.defaults).toBeDefined();
    expect(created.request.fields?.user).toEqual({ value: 'u', source: '--user' });
    expect(created.settings.words.tool).toBe('report-deployment');
    expect(finished.ci).toBeUndefined();
    expect(finished.request.status).toBe('SUCCEEDED');
    await expect(readCommand(args('start'), env(), log)).rejects.toBeInstanceOf(ConfigError);
  });

  it("readCommand's deadline is one attempt's timeout by default: a git that hangs is given up then", async () => {
    const bin = join(root, 'hanging-git');
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), "#!/bin/sh\ntrap '' TERM\nsleep 30\n", { mode: 0o755 });
    const log = { info: () => {}, warning: () => {}, debug: () => {}, clean: (line: string) => line };
    const started = performance.now();
    const reading = readCommand(
      args('start', { 'artifact-id': '1', 'timeout-seconds': '0.3' }),
      { ...env(), PATH: `${bin}:${process.env.PATH ?? ''}` },
      log,
    );

    await expect(reading).rejects.toThrow('(git gave no answer before the deadline)');
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe("the CLI's settings and words", () => {
  it('names each setting as its flag; the service by where it came from', () => {
    expect(cliSettings({}, {}).words.setting('base-url')).toBe('--base-url (or DEPLOY_TRACKER_URL)');
    expect(cliSettings({}, { DEPLOY_TRACKER_URL: 'https://x' }).words.setting('base-url')).toBe('DEPLOY_TRACKER_URL');
    expect(cliSettings({ 'base-url': '' }, { DEPLOY_TRACKER_URL: 'https://x' }).words.setting('base-url')).toBe(
      '--base-url',
    );
    expect(cliSettings({}, {}).words.setting('api-key', 'user')).toBe('DEPLOY_TRACKER_API_KEY or --user');
  });

  it('reads the service from the flag over DEPLOY_TRACKER_URL, the key only from DEPLOY_TRACKER_API_KEY, defaults otherwise', () => {
    const source = cliSettings(
      { 'base-url': 'https://flag', 'api-key': 'rd-flag-key-never-read' },
      { DEPLOY_TRACKER_URL: 'https://env', DEPLOY_TRACKER_API_KEY: 'rd-test-key-5e0a7c3b9f12' },
    );
    expect([source.get('base-url'), source.get('api-key'), source.get('retries'), source.get('user')]).toEqual([
      'https://flag',
      'rd-test-key-5e0a7c3b9f12',
      '3',
      '',
    ]);
    const bare = cliSettings({}, {});
    expect([bare.get('base-url'), bare.get('api-key')]).toEqual(['', '']);
    expect(cliSettings({}, { DEPLOY_TRACKER_URL: 'https://env' }).get('base-url')).toBe('https://env');
  });

  it('an empty key is a warning, and how to give a setting a value', () => {
    const source = cliSettings({}, {});
    expect(source.emptyKey()).toEqual({
      warning:
        "DEPLOY_TRACKER_API_KEY is not set, so nothing is recorded. Set it to the key from the service's settings page (in a CI, from a secret variable; a protected variable is withheld from unprotected branches).",
    });
    expect(source.words.assignment('dry-run', 'true')).toBe('`--dry-run`');
    expect(source.words.assignment('retries', '2')).toBe('`--retries 2`');
    expect(source.words.assignment('user')).toBe('`--user`');
    expect(source.words.assignment('api-key', 'x')).toBe('DEPLOY_TRACKER_API_KEY');
    expect(source.words).toBe(CLI_WORDS);
  });

  it("speaks of itself as a command, and run's dry run goes on", () => {
    expect(CLI_WORDS).toMatchObject({
      tool: 'report-deployment',
      unit: 'command',
      statusHint: 'Or give --exit-code N, e.g. `--exit-code $?`.',
    });
    expect(CLI_WORDS.setting('api-key', 'retries')).toBe('DEPLOY_TRACKER_API_KEY or --retries');
    expect([CLI_WORDS.starter, CLI_WORDS.finisher, CLI_WORDS.finishFrom, CLI_WORDS.finishWhen]).toEqual([
      'report-deployment',
      'report-deployment',
      "the command's exit status",
      'when it ends',
    ]);
    expect(CLI_WORDS.dryRunGoesOn).toBeUndefined();
    expect(RUN_WORDS).toEqual({ ...CLI_WORDS, dryRunGoesOn: 'the command runs all the same' });
  });

  it("run's dry run says the command runs all the same, at every start that sends nothing", () => {
    const id = { text: '7', numeric: false };
    const plans: Plan[] = [
      { kind: 'create', status: 'STARTED', bodies: [], finishLater: true },
      { kind: 'finish-later', ids: [id] },
      { kind: 'update', status: 'FAILED', ids: [id] },
    ];
    const options = (words: typeof CLI_WORDS) => ({ dryRun: true, startedAt: 0, words });
    for (const plan of plans) {
      expect(describeStart(plan, {}, options(RUN_WORDS)).lines.at(-1)?.text).toBe(
        'Dry run: nothing was sent; the command runs all the same.',
      );
      expect(describeStart(plan, {}, options(CLI_WORDS)).lines.at(-1)?.text).toBe('Dry run: nothing was sent.');
    }
  });

  it("record --status pending (a GitHub deployment state that is not final): nothing sent, in the CLI's words", async () => {
    const result = await runCliInProcess(['record', '--status', 'pending', ...FIELDS], env());

    expect(result.exitCode).toBe(0);
    expect(lines(result.stderr)).toEqual([
      "report-deployment: Nothing recorded: the deployment is 'pending', not a final state. Record it once it has ended, with `--status` success, failure or error (a STARTED record now would stay unfinished beside that one).",
    ]);
    expect(service.requests).toEqual([]);
  });

  it('in messages: 101 artifacts in one command, and a refused status word', async () => {
    const many = Array.from({ length: 101 }, (_, index) => String(index + 1)).join(',');
    const result = await runCliInProcess(
      ['record', '--status', 'done', '--artifact-id', many, ...FIELDS.slice(2)],
      env(),
    );

    expect(lines(result.stderr)).toEqual([
      "report-deployment: error: --status must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped, or a GitHub deployment's state), got 'done'. Or give --exit-code N, e.g. `--exit-code $?`.",
      'report-deployment:        --artifact-id or --artifact-name name 101 artifacts; one command records at most 100. Split them over several commands.',
    ]);
  });
});

describe('--help', () => {
  it.each(['run', 'start', 'finish', 'record', 'context'] as const)(
    '%s: its usage, the service, DEPLOY_TRACKER_DEBUG',
    async (command) => {
      const result = await runCliInProcess([command, '--help'], {});
      expect(result.stdout).toBe(helpText(command));
      expect(result.stdout).toMatch(new RegExp(`^Usage: report-deployment ${command} `));
      expect(result.stdout).toContain('--base-url URL            the service');
      expect(result.stdout).toContain('DEPLOY_TRACKER_API_KEY    the API key: only from the environment, never a flag');
      expect(result.stdout).toContain('--timeout-seconds N       each request attempt');
      expect(result.stdout).toContain('--retries N               further attempts');
      expect(result.stdout).toContain('--allow-insecure-http     allow http://');
      expect(result.stdout).toContain('DEPLOY_TRACKER_DEBUG=1    debug lines on stderr');
      expect(result.stdout.endsWith('\n')).toBe(true);
    },
  );

  it('the flags that send: everywhere but context; what --dry-run does for each', () => {
    for (const command of ['start', 'finish', 'record'] as const) {
      expect(helpText(command)).toContain('--fail-on-error           exit 1 when the service');
      expect(helpText(command)).toContain(
        '--dry-run                 print the requests instead of sending them (the key as ***)\n',
      );
    }
    expect(helpText('run')).toContain(
      '--dry-run                 print the requests instead of sending them (the key as ***); the command still runs',
    );
    expect(helpText('context')).not.toMatch(/^ +--(fail-on-error|dry-run)/m);
    expect(helpText('context')).toContain(
      '(the key would travel in clear)\n  DEPLOY_TRACKER_DEBUG=1    debug lines on stderr',
    );
    expect(helpText('context')).toContain("start's --fail-on-error and --dry-run are taken, and change nothing here.");
  });

  it('the fields where a command creates deployments, with how values are read', () => {
    for (const command of ['run', 'start', 'record', 'context'] as const) {
      expect(helpText(command)).toContain('--artifact-id ID          the artifact');
      expect(helpText(command)).toContain("A flag's value is the next argument, whatever it looks like");
    }
    expect(helpText('finish')).not.toContain('--artifact-id');
  });

  it('what each command prints and its exit codes', () => {
    expect(helpText('record')).toContain('--json prints {"deploymentIds":[...],"status":...}');
    expect(helpText('start')).toContain('--json prints {"deploymentIds":[...],"status":...}');
    expect(helpText('finish')).toContain('It prints nothing on stdout.');
    for (const command of ['start', 'finish', 'record'] as const) {
      expect(helpText(command)).toContain('Exit codes: 0 recorded, or not recorded with a warning (fail-open)');
    }
    expect(helpText('context')).toContain('Exit codes: 0 start would send this');
    expect(helpText('run')).toContain('The exit code is the command');
  });

  it('the overview: every command, and where the key and the service come from', () => {
    const text = helpText(undefined);
    expect(text).toMatch(/^report-deployment: records each deployment/);
    for (const command of [
      'run [flags] --',
      'start [flags]',
      'finish --deployment-id',
      'record --status',
      'context [flags]',
    ]) {
      expect(text).toContain(`  ${command}`);
    }
    expect(text).toContain('DEPLOY_TRACKER_DEBUG=1');
    expect(text.endsWith('\n')).toBe(true);
  });
});
