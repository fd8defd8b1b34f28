// The runner emulation itself: action.yml read with the runner's schema, defaults and `with:`
// evaluated with GitHub's evaluator and only the contexts the runner allows, per step.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  evaluateExpression,
  evaluateToString,
  INPUT_DEFAULT_CONTEXT,
  readActionManifest,
  readStepWith,
  STEP_WITH_CONTEXT,
} from './helpers/github-templates.ts';
import {
  ACTION,
  DEFAULT_CHECK_RUN_ID,
  inputVariableName,
  parseFileCommand,
  ROOT,
  stepInputs,
  type JobOptions,
} from './helpers/run-action.ts';

const ACTION_YML = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const BASE = { 'api-key': 'rd-test-key-6c2f9a1e0d73', 'base-url': 'http://127.0.0.1:1/api', 'artifact-id': '42' };

/**
 * Where the internal `job-status` input's default sits in an action.yml, found as the runner reads
 * the file (its parser's range for the token), not by its text: `${{job.status}}` and
 * `${{ job.status }}` are the same default to the runner. Throws unless the default means job.status.
 */
function jobStatusDefault(yml: string): { at: string; replacedBy(expression: string): string } {
  const token = readActionManifest('action.yml', yml).inputs.get('job-status')?.default;
  const range = token?.range;
  if (!token || !range || range.start.line !== range.end.line)
    throw new Error('action.yml: no one-line job-status default');
  const lines = yml.split('\n');
  const index = range.start.line - 1;
  const line = lines[index] ?? '';
  if (evaluateToString(token, INPUT_DEFAULT_CONTEXT, { job: { status: 'probe' } }) !== 'probe') {
    const text = line.slice(range.start.column - 1, range.end.column - 1);
    throw new Error(`action.yml: the job-status default is not job.status: ${text}`);
  }
  return {
    at: `Line: ${range.start.line}, Col: ${range.start.column}`,
    replacedBy: (expression) =>
      lines
        .with(index, `${line.slice(0, range.start.column - 1)}${expression}${line.slice(range.end.column - 1)}`)
        .join('\n'),
  };
}

const JOB_STATUS = jobStatusDefault(ACTION_YML);
/** Where the job-status default's value starts in action.yml, as the parser reports it. */
const JOB_STATUS_DEFAULT = JOB_STATUS.at;
/** action.yml with the internal `job-status` input's default replaced. */
const withJobStatusDefault = (expression: string): string => JOB_STATUS.replacedBy(expression);

describe('the contexts GitHub allows', () => {
  it('in an action input default: github, strategy, matrix, job, runner and hashFiles (the runner action schema)', () => {
    expect(INPUT_DEFAULT_CONTEXT).toEqual({
      names: ['github', 'strategy', 'matrix', 'job', 'runner'],
      functions: [{ name: 'hashFiles', minArgs: 1, maxArgs: 255 }],
    });
  });

  it("in a workflow step's with: also env, steps, secrets, needs, inputs and vars", () => {
    expect([...STEP_WITH_CONTEXT.names].sort()).toEqual([
      'env',
      'github',
      'inputs',
      'job',
      'matrix',
      'needs',
      'runner',
      'secrets',
      'steps',
      'strategy',
      'vars',
    ]);
  });
});

describe('reading action.yml as the runner does', () => {
  it('reads this action: node24, main and post, the internal inputs as expressions', () => {
    expect(ACTION.runs).toEqual({
      using: 'node24',
      main: 'dist/main/index.js',
      post: 'dist/post/index.js',
      postIf: 'always()',
    });
    expect([...ACTION.inputs.keys()]).toContain('job-status');
    expect(ACTION.inputs.get('api-key')?.required).toBe(true);
    expect(ACTION.inputs.get('status')?.required).toBe(false);
    const retries = ACTION.inputs.get('retries')?.default;
    expect(retries && evaluateToString(retries, INPUT_DEFAULT_CONTEXT, {})).toBe('3');
  });

  it.each([
    ['env.DEPLOY_STATUS', 'env'],
    ['secrets.TOKEN', 'secrets'],
    ['steps.deploy.outcome', 'steps'],
    ['inputs.status', 'inputs'],
    ['needs.build.result', 'needs'],
    ['vars.STATUS', 'vars'],
  ])('refuses a default that reads ${{ %s }}, a context the runner does not allow there', (expression, context) => {
    expect(() => readActionManifest('action.yml', withJobStatusDefault(`\${{ ${expression} }}`))).toThrow(
      new Error(
        `action.yml is not an action the runner accepts:\n  action.yml (${JOB_STATUS_DEFAULT}): Unrecognized named-value: '${context}'`,
      ),
    );
  });

  it('refuses an unclosed expression and an unknown function', () => {
    expect(() => readActionManifest('action.yml', withJobStatusDefault('${{ job.status'))).toThrow(
      'The expression is not closed',
    );
    expect(() => readActionManifest('action.yml', withJobStatusDefault('${{ nope(job.status) }}'))).toThrow(
      "Unrecognized function: 'nope'",
    );
  });

  it.each(['${{job.status}}', '${{ github.sha }}-${{ runner.os }}', "${{ hashFiles('x') }}", '${{ matrix.env }}'])(
    'accepts a default of %s',
    (expression) => {
      expect(readActionManifest('action.yml', withJobStatusDefault(expression)).inputs.has('job-status')).toBe(true);
    },
  );

  it('finds the job-status default by parsing action.yml, however the expression is spaced', () => {
    const compact = withJobStatusDefault('${{job.status}}');
    const found = jobStatusDefault(compact);
    expect(found.at).toBe(JOB_STATUS_DEFAULT);
    expect(found.replacedBy('${{ env.X }}')).toBe(withJobStatusDefault('${{ env.X }}'));
    expect(() => jobStatusDefault(withJobStatusDefault('${{ github.sha }}'))).toThrow(
      'the job-status default is not job.status',
    );
  });

  it('refuses what is not an action: a runs without main, a sequence of inputs', () => {
    expect(() => readActionManifest('a.yml', 'name: x\ndescription: y\nruns:\n  using: node24\n')).toThrow(
      'a.yml is not an action the runner accepts',
    );
    expect(() =>
      readActionManifest('a.yml', 'name: x\ndescription: y\ninputs: [a]\nruns:\n  using: node24\n  main: m.js\n'),
    ).toThrow('a.yml is not an action the runner accepts');
  });
});

describe('the inputs a step gets', () => {
  const job = (extra: Partial<JobOptions> = {}): JobOptions => ({ inputs: BASE, ...extra });

  it('given inputs and the evaluated defaults, job.status per step', () => {
    const options = job({ mainJobStatus: 'failure', jobStatus: 'cancelled' });
    expect(stepInputs('main', options)).toEqual({
      ...BASE,
      type: 'SIMPLE',
      'fail-on-error': 'false',
      'timeout-seconds': '10',
      retries: '3',
      'allow-insecure-http': 'false',
      'dry-run': 'false',
      'job-status': 'failure',
      'job-check-run-id': DEFAULT_CHECK_RUN_ID,
    });
    expect(stepInputs('post', options)['job-status']).toBe('cancelled');
  });

  it("job.status is 'success' in both steps unless set", () => {
    expect(stepInputs('main', job())['job-status']).toBe('success');
    expect(stepInputs('post', job())['job-status']).toBe('success');
  });

  it('evaluates ${{job.status}} without spaces in a default as the runner does', () => {
    const action = readActionManifest('action.yml', withJobStatusDefault('${{job.status}}'));
    expect(stepInputs('post', job({ jobStatus: 'failure' }), undefined, action)['job-status']).toBe('failure');
    expect(stepInputs('main', job({ mainJobStatus: 'cancelled' }), undefined, action)['job-status']).toBe('cancelled');
  });

  it('evaluates a default mixing text and expressions', () => {
    const action = readActionManifest('action.yml', withJobStatusDefault("'${{ github.repository }}:${{job.status}}'"));
    expect(stepInputs('post', job({ jobStatus: 'failure' }), undefined, action)['job-status']).toBe(
      'acme/shop:failure',
    );
  });

  it("job.check_run_id is a number, and '' where the runner has none (older GHES)", () => {
    expect(stepInputs('main', job({ checkRunId: '77' }))['job-check-run-id']).toBe('77');
    expect(stepInputs('main', job({ checkRunId: '' }))['job-check-run-id']).toBe('');
    expect(evaluateExpression('job.check_run_id', INPUT_DEFAULT_CONTEXT, { job: { check_run_id: 77 } }).kind).toBe(
      4 /* Kind.Number */,
    );
  });

  it('passes a job status it was given as text through unchanged (an unevaluated default, as a test plays it)', () => {
    expect(stepInputs('post', job({ jobStatus: '${{ job.status }}' }))['job-status']).toBe('${{ job.status }}');
  });

  it('evaluates with: expressions from the steps context the test gives', () => {
    const inputs = stepInputs(
      'main',
      job({
        inputs: { ...BASE, status: '${{ steps.deploy.outcome }}', version: '${{ steps.build.outputs.version }}' },
        contexts: { steps: { deploy: { outcome: 'failure' }, build: { outputs: { version: '2.4.0' } } } },
      }),
    );
    expect(inputs.status).toBe('failure');
    expect(inputs.version).toBe('2.4.0');
  });

  it('evaluates with: expressions from job, secrets, env, matrix, needs, vars, inputs and github', () => {
    const inputs = stepInputs(
      'main',
      job({
        inputs: {
          'api-key': '${{ secrets.DEPLOY_TRACKER_API_KEY }}',
          'base-url': '${{ vars.TRACKER_URL }}/api',
          'artifact-id': '${{ needs.build.outputs.artifact }}',
          environment: '${{ matrix.environment }}',
          status: '${{job.status}}',
          description: 'Deploy of ${{ github.sha }} by ${{ github.actor }} to ${{ env.REGION }} (${{ inputs.reason }})',
          'dry-run': "${{ github.event_name == 'pull_request' }}",
        },
        mainJobStatus: 'failure',
        env: { GITHUB_ACTOR: 'bob' },
        event: { name: 'pull_request', payload: {} },
        contexts: {
          secrets: { DEPLOY_TRACKER_API_KEY: 'secret-key' },
          vars: { TRACKER_URL: 'https://tracker.example.com' },
          needs: { build: { outputs: { artifact: '7' }, result: 'success' } },
          matrix: { environment: 'Staging' },
          env: { REGION: 'eu-west' },
          inputs: { reason: 'hotfix' },
        },
      }),
    );
    expect(inputs).toMatchObject({
      'api-key': 'secret-key',
      'base-url': 'https://tracker.example.com/api',
      'artifact-id': '7',
      environment: 'Staging',
      status: 'failure',
      description: 'Deploy of a1b2c3d4e5f60718293a4b5c6d7e8f9012345678 by bob to eu-west (hotfix)',
      'dry-run': 'true',
    });
  });

  it('reads what a context does not have as empty, as the runner does', () => {
    expect(stepInputs('main', job({ inputs: { ...BASE, version: '${{ steps.nope.outputs.v }}' } })).version).toBe('');
  });

  it('refuses a with: expression naming an unknown context, an input action.yml lacks, and job.status in contexts', () => {
    expect(() => stepInputs('main', job({ inputs: { ...BASE, version: '${{ jobs.status }}' } }))).toThrow(
      "Unrecognized named-value: 'jobs'",
    );
    expect(() => stepInputs('main', job({ inputs: { ...BASE, stauts: 'FAILED' } }))).toThrow(
      "action.yml has no input 'stauts'",
    );
    expect(() => stepInputs('main', job({ contexts: { job: { status: 'failure' } } }))).toThrow(
      'Set job.status with jobStatus / mainJobStatus',
    );
  });

  it('keeps with: values that look like numbers, booleans or YAML as the text they are', () => {
    const tokens = readStepWith({ a: '42', b: 'true', c: '- x', d: 'a: b', e: '' });
    expect([...tokens].map(([name, token]) => [name, evaluateToString(token, STEP_WITH_CONTEXT, {})])).toEqual([
      ['a', '42'],
      ['b', 'true'],
      ['c', '- x'],
      ['d', 'a: b'],
      ['e', ''],
    ]);
  });

  it('names each input INPUT_<NAME> as the runner does', () => {
    expect(inputVariableName('job-status')).toBe('INPUT_JOB-STATUS');
    expect(inputVariableName('my input')).toBe('INPUT_MY_INPUT');
  });
});

describe("a step's file commands, as the runner reads them", () => {
  const block = (name: string, value: string, delimiter = 'ghadelimiter_1') =>
    `${name}<<${delimiter}\n${value}\n${delimiter}\n`;

  it('keeps the last value of a name written again (the runner sets a dictionary entry per block)', () => {
    expect(parseFileCommand(block('handoff', '[1]') + block('other', 'x') + block('handoff', '[1,2]', 'd2'))).toEqual({
      handoff: '[1,2]',
      other: 'x',
    });
  });

  it('stops at a block whose delimiter never comes (a step killed while writing), keeping the values before it', () => {
    expect(parseFileCommand(`${block('handoff', '[1]')}handoff<<d3\n[1,2`)).toEqual({ handoff: '[1]' });
  });

  it('reads a value of several lines, and an empty one', () => {
    expect(parseFileCommand(block('a', 'one\ntwo') + block('b', ''))).toEqual({ a: 'one\ntwo', b: '' });
  });
});
