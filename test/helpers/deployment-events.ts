// The `deployment_status` and `deployment` events of test/fixtures/deployment-status/, and the run
// GitHub starts for each: the event, and the GITHUB_* variables it sets for that run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { codeBlocks, markdownFiles } from './markdown.ts';
import type { JobOptions } from './run-action.ts';
import { ROOT } from './run-action.ts';

/** Each fixture, and the run's GITHUB_REF: the ref in full for a branch or a tag, '' for a commit. */
export const RUN_REFS = {
  'vercel-success': '',
  'netlify-failure': 'refs/heads/feature/login',
  'app-error': 'refs/heads/main',
  'tag-ref-success': 'refs/tags/v1.4.0',
  'sha-ref-success': '',
  'payload-string': 'refs/heads/release/3.0',
  queued: 'refs/heads/main',
  pending: 'refs/heads/main',
  in_progress: 'refs/heads/main',
  inactive: 'refs/heads/main',
  'deployment-created': 'refs/heads/main',
} as const;

export type FixtureName = keyof typeof RUN_REFS;

/** A fixture's payload, fresh each call (a test may change it). */
export function fixture(name: FixtureName): Record<string, unknown> {
  const path = join(ROOT, 'test', 'fixtures', 'deployment-status', `${name}.json`);
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

interface EventShape {
  deployment?: { sha?: unknown };
  sender?: { login?: unknown };
  repository?: { full_name?: unknown };
}

/**
 * The run GitHub starts for `payload`: the event, and the variables GitHub sets for it (the
 * deployment's commit, its ref, the sender as actor) in a workflow `Record deployments`, job `record`.
 */
export function deploymentRun(
  payload: Record<string, unknown>,
  githubRef: string,
  eventName = 'deployment' in payload && 'deployment_status' in payload ? 'deployment_status' : 'deployment',
): Pick<JobOptions, 'event' | 'env'> {
  const shape = payload as EventShape;
  const string = (value: unknown) => (typeof value === 'string' ? value : '');
  const sender = string(shape.sender?.login);
  const refName = githubRef.replace(/^refs\/(heads|tags)\//, '');
  return {
    event: { name: eventName, payload },
    env: {
      GITHUB_SHA: string(shape.deployment?.sha),
      GITHUB_REF: githubRef,
      GITHUB_REF_NAME: refName,
      GITHUB_REF_TYPE: githubRef.startsWith('refs/tags/') ? 'tag' : 'branch',
      GITHUB_ACTOR: sender,
      GITHUB_TRIGGERING_ACTOR: sender,
      GITHUB_REPOSITORY: string(shape.repository?.full_name),
      GITHUB_WORKFLOW: 'Record deployments',
      GITHUB_JOB: 'record',
    },
  };
}

/** The run of a fixture, as GitHub starts it. */
export function fixtureRun(name: FixtureName): Pick<JobOptions, 'event' | 'env'> {
  return deploymentRun(fixture(name), RUN_REFS[name]);
}

interface Step {
  uses?: string;
  with?: Record<string, string>;
}

/** The `with:` of the step of examples/deployment-status.yml that uses this action, as written. */
export function exampleWith(): Record<string, string> {
  const workflow = parseYaml(readFileSync(join(ROOT, 'examples', 'deployment-status.yml'), 'utf8')) as {
    jobs: Record<string, { steps: Step[] }>;
  };
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const step = steps.find((candidate) => candidate.uses?.startsWith('acme/report-deployment@'));
  if (!step?.with) throw new Error('examples/deployment-status.yml: no step uses acme/report-deployment');
  return step.with;
}

/** The `with:` of the docs' YAML fragment (a list of steps) whose step sets `input`, as written. */
export function readmeWith(input: string): Record<string, string> {
  for (const file of markdownFiles()) {
    for (const block of codeBlocks(file).filter((candidate) => candidate.lang === 'yaml')) {
      const parsed = parseYaml(block.text) as unknown;
      if (!Array.isArray(parsed)) continue;
      const step = (parsed as Step[]).find((candidate) => candidate.with && input in candidate.with);
      if (step?.with) return step.with;
    }
  }
  throw new Error(`no step fragment of the docs sets '${input}'`);
}
