// The CLI's log and the logging commands of CIs other than GitHub Actions: Azure Pipelines' `##vso[`
// and TeamCity's `##teamcity[`, which their agents find anywhere in a line and run, with no way to
// stop them. The `[` is shown as `\u005b` in every environment; GitHub's own handling stays as it is.
import { describe, expect, it } from 'vitest';
import { holdsForeignCommand, openCliLog } from '../../src/cli/log.ts';
import { runCliInProcess } from '../helpers/cli-in-process.ts';
import { startFakeService } from '../helpers/fake-service.ts';
import { azureCommandIn, foreignCommandLines } from '../helpers/foreign-commands.ts';

/** What the log writes for `say`, in `env`. */
function printed(env: Record<string, string>, say: (log: ReturnType<typeof openCliLog>) => void): string {
  let text = '';
  const log = openCliLog('s3cret-key', env, (chunk) => (text += chunk));
  say(log);
  return text;
}

const AZURE = { TF_BUILD: 'True' };
const TEAMCITY = { TEAMCITY_VERSION: '2025.07.2 (build 197379)' };

describe('Azure Pipelines and TeamCity logging commands in a value', () => {
  it.each([
    [
      '##vso[ at the start of the value',
      '##vso[task.setvariable variable=x]y',
      '##vso\\u005btask.setvariable variable=x]y',
    ],
    [
      '##vso[ in the middle',
      'HTTP 422: bad ##vso[task.complete result=Failed]done',
      'HTTP 422: bad ##vso\\u005btask.complete result=Failed]done',
    ],
    ['##vso[ after a line break', 'first\n##vso[task.setsecret]x', 'first\\n##vso\\u005btask.setsecret]x'],
    ['##vso[ after \\r', 'first\r##vso[task.setsecret]x', 'first\\r##vso\\u005btask.setsecret]x'],
    [
      '##teamcity[ at the start',
      "##teamcity[buildStatus status='FAILURE']",
      "##teamcity\\u005bbuildStatus status='FAILURE']",
    ],
    [
      '##teamcity[ in the middle',
      "branch x##teamcity[buildStatus status='FAILURE']",
      "branch x##teamcity\\u005bbuildStatus status='FAILURE']",
    ],
    [
      '##teamcity[ after a line break',
      "a\n##teamcity[setParameter name='x' value='y']",
      "a\\n##teamcity\\u005bsetParameter name='x' value='y']",
    ],
    ['both, twice', '##vso[a.b]##vso[c.d]##teamcity[m]', '##vso\\u005ba.b]##vso\\u005bc.d]##teamcity\\u005bm]'],
    // The agent's IndexOf is culture-sensitive: a combining grapheme joiner or a variation selector
    // inside does not hide the prefix from it, so the `[` is escaped all the same.
    ['ignorable characters inside', '#\u034f#vso\ufe0f[task.complete]x', '#\u034f#vso\ufe0f\\u005btask.complete]x'],
  ])('%s: the `[` is shown as \\u005b', (_, value, shown) => {
    for (const env of [{}, AZURE, TEAMCITY]) {
      expect(printed(env, (log) => log.warning(`HTTP 422: ${value}`))).toBe(
        `report-deployment: warning: HTTP 422: ${shown}\n`,
      );
    }
  });

  it("`##VSO[` is left as it is: the agent's IndexOf is case-sensitive, it runs nothing", () => {
    const text = printed(AZURE, (log) => log.info('##VSO[task.setvariable variable=x]y'));
    expect(text).toBe('report-deployment: ##VSO[task.setvariable variable=x]y\n');
    expect(foreignCommandLines(text)).toEqual([]);
  });

  it('a zero-width character between is shown escaped already: nothing left for the agent to find', () => {
    const text = printed(AZURE, (log) => log.info('##\u200bvso[task.complete result=Failed]'));
    expect(text).toBe('report-deployment: ##\\u200bvso[task.complete result=Failed]\n');
    expect(foreignCommandLines(text)).toEqual([]);
  });

  it('every line of a message, the indented ones too', () => {
    const text = printed(AZURE, (log) => log.error(['##vso[a.b]x', "##teamcity[m 'v']"]));
    expect(text).toBe(
      "report-deployment: error: ##vso\\u005ba.b]x\nreport-deployment:        ##teamcity\\u005bm 'v']\n",
    );
    expect(foreignCommandLines(text)).toEqual([]);
  });

  it('clean, for text shown elsewhere, escapes the same way', () => {
    const log = openCliLog('', AZURE, () => undefined);
    expect(log.clean('x ##vso[task.setvariable variable=x]y')).toBe('x ##vso\\u005btask.setvariable variable=x]y');
  });

  it("inside GitHub Actions too, and GitHub's stop-commands still wrap a `##[` line", () => {
    const text = printed({ GITHUB_ACTIONS: 'true' }, (log) => log.info('##[error]x ##vso[task.complete]y'));
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^::stop-commands::[0-9a-f-]{36}$/);
    expect(lines[1]).toBe('report-deployment: ##[error]x ##vso\\u005btask.complete]y');
    expect(lines[2]).toBe(`::${lines[0]?.slice('::stop-commands::'.length)}::`);
  });

  it('the escape is what the agent would have run, shown: an Azure command parser finds none', () => {
    const value = '##vso[task.setvariable variable=DEPLOYED]evil';
    expect(azureCommandIn(value)).toEqual({ area: 'task', event: 'setvariable', data: 'evil' });
    expect(azureCommandIn(printed(AZURE, (log) => log.info(value)))).toBeUndefined();
  });
});

describe('what the CLI prints on stdout', () => {
  it('context --json: the `[` escaped as JSON allows, the values the same once parsed', async () => {
    const branch = "feature/##vso[task.setvariable variable=x]y##teamcity[m 'v']";
    const result = await runCliInProcess(['context', '--json', '--branch', branch], { ...AZURE });
    expect(foreignCommandLines(result.stdout)).toEqual([]);
    expect(result.stdout).toContain(
      '"value": "feature/##vso\\u005btask.setvariable variable=x]y##teamcity\\u005bm \'v\']"',
    );
    expect((JSON.parse(result.stdout) as { branch: { value: string } }).branch.value).toBe(branch);
  });

  it('start: an id a CI would read as a command is not printed, but said to be not kept', async () => {
    const service = await startFakeService({ ids: () => JSON.stringify('##vso[task.setvariable variable=ID]x') });
    try {
      const result = await runCliInProcess(
        ['start', '--artifact-id', '42', '--commit-sha', 'c0ffee', '--user', 'alice', '--branch', 'main'],
        { ...AZURE, DEPLOY_TRACKER_URL: service.url, DEPLOY_TRACKER_API_KEY: service.apiKey },
      );
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        'report-deployment: warning: Could not record the deployment of artifact 42: the deployment id the service returned would be read as a logging command by Azure Pipelines or TeamCity, so it is not kept (the service may have recorded a deployment this command cannot finish)\n',
      );
      expect(result.exitCode).toBe(0);
    } finally {
      await service.close();
    }
  });
});

describe('the key in the CLI log', () => {
  it('is scrubbed from the text as shown, as in the action: a key holding the text \\u0007, echoed with a raw BEL, is *** and the rest of the line stays', () => {
    let text = '';
    const log = openCliLog('Ab\\u0007Cd-123', {}, (chunk) => (text += chunk));
    log.warning('key Ab\u0007Cd-123, and a bell \u0007');
    expect(text).toBe('report-deployment: warning: key ***, and a bell \\u0007\n');
  });
});

describe('what the log shows where', () => {
  it('a line the GitHub runner would run is shown inert inside GitHub Actions only', () => {
    expect(printed({}, (log) => log.info('##[error]x'))).toBe('report-deployment: ##[error]x\n');
    expect(printed({ GITHUB_ACTIONS: 'true' }, (log) => log.info('##[error]x'))).toMatch(
      /^::stop-commands::[-0-9a-f]+\nreport-deployment: ##\[error\]x\n::[-0-9a-f]+::\n$/,
    );
  });

  it.each([
    [{ DEPLOY_TRACKER_DEBUG: '1' }, true],
    [{ RUNNER_DEBUG: '1' }, true],
    [{ RUNNER_DEBUG: '', DEPLOY_TRACKER_DEBUG: '' }, false],
    [{ RUNNER_DEBUG: 'true' }, false],
  ])('debug lines with %o: %s', (env, shown) => {
    expect(printed(env, (log) => log.debug('details'))).toBe(shown ? 'report-deployment: debug: details\n' : '');
  });

  it('holdsForeignCommand sees a command spelled with an invisible character inside', () => {
    expect(holdsForeignCommand('##v\u200dso[task.complete]')).toBe(true);
    expect(holdsForeignCommand('##vso(x)')).toBe(false);
  });
});
