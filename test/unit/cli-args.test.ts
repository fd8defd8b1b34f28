// The command line's grammar, in-process: which command, each flag's value (the next argument,
// whatever it looks like, but `--`), help only where a flag stands, the command after `--`, and
// every usage error's words.
import { describe, expect, it } from 'vitest';
import { COMMAND_FLAGS, parseCommandLine, UsageError, type Invocation } from '../../src/cli/args.ts';

const FIELDS = ['--artifact-id', '42'];

function parsed(argv: string[]) {
  const invocation = parseCommandLine(argv);
  if (!('command' in invocation)) throw new Error(`not a command: ${JSON.stringify(invocation)}`);
  return invocation;
}

/** The usage error's line, or a failure where there is none. */
function refused(argv: string[]): { line: string; command: string | undefined } {
  try {
    parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    expect(error.name).toBe('UsageError');
    expect(error.line).toBe(`${error.message} ${error.hint}`);
    return { line: error.line, command: error.command };
  }
  throw new Error(`not refused: ${JSON.stringify(argv)}`);
}

describe('help and version', () => {
  it.each<[string[], Invocation]>([
    [[], { help: undefined }],
    [['--help'], { help: undefined }],
    [['-h'], { help: undefined }],
    [['help'], { help: undefined }],
    [['help', 'record'], { help: 'record' }],
    [['--version'], { version: true }],
    [['-V'], { version: true }],
    [['start', '--help'], { help: 'start' }],
    [['start', ...FIELDS, '-h'], { help: 'start' }],
    // Help wins over what else is wrong, where a flag stands.
    [['start', '--bogus', 'x', '--help'], { help: 'start' }],
    [['run', '--help', '--', 'x'], { help: 'run' }],
    // Help comes first: what follows it is not read.
    [['--help', 'record'], { help: undefined }],
    [['-h', 'bogus'], { help: undefined }],
  ])('%j', (argv, expected) => {
    expect(parseCommandLine(argv)).toStrictEqual(expected);
  });

  it('a value that reads -h or --help is a value, and a --help after `--` the command’s', () => {
    expect(parsed(['record', '--status', 'success', '--description', '-h']).settings.description).toBe('-h');
    expect(parsed(['record', '--status', 'success', '--description', '--help']).settings.description).toBe('--help');
    expect(parsed(['record', '--status', 'success', '--description=--help']).settings.description).toBe('--help');
    expect(parsed(['run', '--artifact-id', '42', '--', 'deploy', '--help']).wrapped).toEqual(['deploy', '--help']);
  });

  it('help for an unknown command is refused', () => {
    expect(refused(['help', 'deploy'])).toEqual({
      line: "unknown command 'deploy'. See `report-deployment --help`.",
      command: undefined,
    });
  });
});

describe('commands', () => {
  it.each([
    [['deploy'], "unknown command 'deploy'. See `report-deployment --help`."],
    [
      ['--artifact-id', '42'],
      "unknown command '--artifact-id' (a command comes first: run, start, finish, record, context, serve, deliveries). See `report-deployment --help`.",
    ],
  ])('%j is refused', (argv, line) => {
    expect(refused(argv).line).toBe(line);
  });

  it('each command takes its own flags', () => {
    expect(COMMAND_FLAGS.context.settings).toEqual(COMMAND_FLAGS.start.settings);
    expect(COMMAND_FLAGS.finish.settings).not.toContain('artifact-id');
    expect(COMMAND_FLAGS.record.own).toEqual(['json', 'exit-code']);
  });
});

describe('flag values, by the grammar', () => {
  it.each([['-5'], ['--help'], ['-h'], ['--dry-run'], ['-'], ['=x'], ['a b']])(
    'the next argument %j is the value, whatever it looks like',
    (value) => {
      const args = parsed(['finish', '--deployment-id', value, '--exit-code', '0']);
      expect(args.settings['deployment-id']).toBe(value);
      expect(args.exitCode).toBe(0);
    },
  );

  it('--flag=value, with = in the value, and an empty one', () => {
    const args = parsed(['start', '--artifact-id=4=2', '--description=', '--version=v=1']);
    expect(args.settings).toEqual({ 'artifact-id': '4=2', description: '', version: 'v=1' });
  });

  it('a list flag keeps every value, one a line; another flag its last', () => {
    const args = parsed([
      'start',
      '--artifact-id',
      '1',
      '--artifact-name=a',
      '--artifact-id',
      '2',
      '--user',
      'x',
      '--user',
      'y',
    ]);
    expect(args.settings).toEqual({ 'artifact-id': '1\n2', 'artifact-name': 'a', user: 'y' });
  });

  it('switches are on when given, and json is its own', () => {
    const args = parsed(['start', ...FIELDS, '--dry-run', '--fail-on-error', '--allow-insecure-http', '--json']);
    expect(args.settings).toEqual({
      'artifact-id': '42',
      'dry-run': 'true',
      'fail-on-error': 'true',
      'allow-insecure-http': 'true',
    });
    expect(args.json).toBe(true);
    expect(parsed(['start', ...FIELDS]).json).toBe(false);
  });

  it.each([
    [['start', '--user'], '--user needs a value. See `report-deployment start --help`.'],
    [['start', '--user', '--'], '--user needs a value. See `report-deployment start --help`.'],
    [
      ['start', '--version'],
      "--version needs a value (the deployed version; `report-deployment --version` shows this tool's own). See `report-deployment start --help`.",
    ],
    [
      ['start', '--dry-run=yes'],
      '--dry-run takes no value: give it alone to turn it on. See `report-deployment start --help`.',
    ],
    [
      ['start', '--json=1'],
      '--json takes no value: give it alone to turn it on. See `report-deployment start --help`.',
    ],
    [['start', '--artefact-id', '7'], "unknown flag '--artefact-id' for start. See `report-deployment start --help`."],
    [['start', '-x'], "unknown flag '-x' for start. See `report-deployment start --help`."],
    [['start', '--status', 'x'], "unknown flag '--status' for start. See `report-deployment start --help`."],
    [['finish', '--json'], "unknown flag '--json' for finish. See `report-deployment finish --help`."],
    [['start', '--artefact-id=7'], "unknown flag '--artefact-id' for start. See `report-deployment start --help`."],
    [['start', '-x=1'], "unknown flag '-x' for start. See `report-deployment start --help`."],
    [['start', '-xjson'], "unknown flag '-xjson' for start. See `report-deployment start --help`."],
    [['run', '--json', '--', 'x'], "unknown flag '--json' for run. See `report-deployment run --help`."],
    [
      ['start', `--${'x'.repeat(200)}`],
      `unknown flag '--${'x'.repeat(98)}…' for start. See \`report-deployment start --help\`.`,
    ],
    [
      ['start', '--api-key=rd-test-key-on-the-command-line'],
      '--api-key is no flag: the key is read only from the environment, never from the command line. Set DEPLOY_TRACKER_API_KEY (in a CI, from a secret variable).',
    ],
    [['start', 'x'], "unexpected argument 'x' (start takes flags only). See `report-deployment start --help`."],
    [['start', '-'], "unexpected argument '-' (start takes flags only). See `report-deployment start --help`."],
    [['start', '--', 'x'], 'start runs no command: nothing goes after `--`. See `report-deployment start --help`.'],
    [['start', '--'], 'start runs no command: nothing goes after `--`. See `report-deployment start --help`.'],
  ])('%j is refused', (argv, line) => {
    expect(refused(argv)).toEqual({ line, command: argv[0] });
  });

  it('the first problem is said, the others after it not', () => {
    expect(refused(['start', '--a', '--b']).line).toBe(
      "unknown flag '--a' for start. See `report-deployment start --help`.",
    );
    expect(refused(['start', 'x', '--b']).line).toMatch(/^unexpected argument 'x'/);
  });
});

describe('run and its command', () => {
  it('takes everything after `--` as the command, flags of its own and `--` included', () => {
    const args = parsed(['run', ...FIELDS, '--', './deploy.sh', '--', '-c', 'x']);
    expect(args.wrapped).toEqual(['./deploy.sh', '--', '-c', 'x']);
    expect(args.settings).toEqual({ 'artifact-id': '42' });
  });

  it.each([
    [
      ['run', ...FIELDS, './deploy.sh', '-c', 'x'],
      "unexpected argument './deploy.sh': the command to run goes after `--`. Put `--` before it: `report-deployment run [flags] -- ./deploy.sh -c x`.",
    ],
    [
      ['run', 'kubectl', 'apply', '--', 'x'],
      "unexpected argument 'kubectl': the command to run goes after `--`. Put `--` before it: `report-deployment run [flags] -- kubectl apply -- x`.",
    ],
    [
      ['run', 'x'.repeat(150)],
      `unexpected argument '${'x'.repeat(100)}…': the command to run goes after \`--\`. Put \`--\` before it: \`report-deployment run [flags] -- ${'x'.repeat(100)}…\`.`,
    ],
    // What follows a forgotten `--` is the command's, its --help too.
    [
      ['run', './deploy.sh', '--help'],
      "unexpected argument './deploy.sh': the command to run goes after `--`. Put `--` before it: `report-deployment run [flags] -- ./deploy.sh --help`.",
    ],
    [
      ['run', ...FIELDS],
      'no command to run: give it after `--`, e.g. `report-deployment run --artifact-id 42 -- ./deploy.sh`. See `report-deployment run --help`.',
    ],
    [
      ['run', ...FIELDS, '--'],
      'no command to run: give it after `--`, e.g. `report-deployment run --artifact-id 42 -- ./deploy.sh`. See `report-deployment run --help`.',
    ],
  ])('%j is refused', (argv, line) => {
    expect(refused(argv)).toEqual({ line, command: 'run' });
  });

  it('run takes --deployment-id, given empty too', () => {
    expect(parsed(['run', '--deployment-id', '', '--', 'x']).settings).toEqual({ 'deployment-id': '' });
  });
});

describe('flags given empty', () => {
  it.each([
    [
      ['record', ...FIELDS, '--status', ''],
      '--status is empty (was the variable given to it unset?): give SUCCEEDED or FAILED (or success, failure, cancelled), or --exit-code N instead. See `report-deployment record --help`.',
    ],
    [
      ['finish', '--deployment-id', '7', '--status='],
      '--status is empty (was the variable given to it unset?): give SUCCEEDED or FAILED (or success, failure, cancelled), or --exit-code N instead. See `report-deployment finish --help`.',
    ],
    [
      ['start', ...FIELDS, '--environment', ''],
      "--environment is empty (was the variable given to it unset?): name the environment as the service does, or leave the flag out for the service's default. See `report-deployment start --help`.",
    ],
  ])('%j is refused', (argv, line) => {
    expect(refused(argv).line).toBe(line);
  });

  it('the other fields given empty stay empty (their defaults stand in), and so does finish --deployment-id', () => {
    expect(parsed(['start', ...FIELDS, '--user', '', '--version=']).settings).toEqual({
      'artifact-id': '42',
      user: '',
      version: '',
    });
    expect(parsed(['finish', '--deployment-id', '', '--exit-code', '1']).settings).toEqual({ 'deployment-id': '' });
  });
});

describe('record and finish: a status or an exit code', () => {
  it.each([
    [['record', '--exit-code', '0'], 0],
    [['record', '--exit-code', '255'], 255],
    [['finish', '--deployment-id', '1', '--exit-code', '007'], 7],
  ])('%j', (argv, code) => {
    expect(parsed(argv).exitCode).toBe(code);
  });

  it.each([
    [
      ['record', '--exit-code', '256'],
      "--exit-code must be a process's exit code, 0 to 255 (e.g. `--exit-code $?`), got '256'.",
    ],
    [
      ['record', '--exit-code', '1000'],
      "--exit-code must be a process's exit code, 0 to 255 (e.g. `--exit-code $?`), got '1000'.",
    ],
    [
      ['record', '--exit-code', '-1'],
      "--exit-code must be a process's exit code, 0 to 255 (e.g. `--exit-code $?`), got '-1'.",
    ],
    [
      ['record', '--exit-code', ''],
      "--exit-code must be a process's exit code, 0 to 255 (e.g. `--exit-code $?`), got ''.",
    ],
    [
      ['record', '--exit-code', '1 '],
      "--exit-code must be a process's exit code, 0 to 255 (e.g. `--exit-code $?`), got '1 '.",
    ],
    [
      ['record', '--exit-code', ' 1'],
      "--exit-code must be a process's exit code, 0 to 255 (e.g. `--exit-code $?`), got ' 1'.",
    ],
    [['record', '--status', 'x', '--exit-code', '1'], 'record takes --status or --exit-code, not both.'],
    [
      ['record'],
      'record needs --status SUCCEEDED or FAILED (or success, failure, cancelled), or --exit-code N (e.g. `--exit-code $?`).',
    ],
    ...['STARTED', 'started', ' Started '].map((status): [string[], string] => [
      ['record', '--status', status],
      'record records a finished deployment: give --status SUCCEEDED or FAILED, or use start (then finish) for one under way.',
    ]),
    [['finish', '--status', 'success'], 'finish needs --deployment-id: the id(s) `start` printed.'],
    [
      ['finish', '--deployment-id', '1'],
      'finish needs --status SUCCEEDED or FAILED (or success, failure, cancelled), or --exit-code N (e.g. `--exit-code $?`).',
    ],
  ])('%j is refused', (argv, message) => {
    expect(refused(argv).line).toBe(`${message} See \`report-deployment ${argv[0]} --help\`.`);
  });

  it('start and context need neither', () => {
    expect(parsed(['start']).exitCode).toBeUndefined();
    expect(parsed(['context', '--json']).json).toBe(true);
  });
});
