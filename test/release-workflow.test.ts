// .github/workflows/release.yml cannot run here (it needs GitHub, Sigstore and npm), so what makes it
// safe is read from it: the order of its jobs, each job's permissions (the least each needs), that
// nothing is published before every check and every file is in place, that its scripts are valid
// bash taking values only from the environment, and that each scripts/release.ts command it runs
// exists. test/workflows.test.ts parses and lints it as every workflow, and checks its pins.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMANDS } from '../scripts/release.ts';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  environment?: string;
  outputs?: Record<string, string>;
  steps: Step[];
}

interface Workflow {
  on: {
    push: { tags: string[] };
    workflow_dispatch: { inputs: Record<string, { required: boolean; type: string }> };
  };
  permissions: Record<string, string>;
  concurrency: { group: string; 'cancel-in-progress': boolean };
  defaults: { run: { shell: string } };
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const ROOT = join(import.meta.dirname, '..');
const workflow = parse(readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8')) as Workflow;
const jobs = workflow.jobs;
const job = (name: string): Job => {
  const found = jobs[name];
  if (!found) throw new Error(`release.yml has no job ${name}`);
  return found;
};
const needs = (name: string) => [job(name).needs ?? []].flat();
const scripts = (name: string) =>
  job(name)
    .steps.map((step) => step.run)
    .filter((run) => run !== undefined);
const allScripts = Object.keys(jobs).flatMap(scripts);

/** Every job `name` waits for, directly or not. */
function upstream(name: string): string[] {
  const seen = new Set<string>();
  const visit = (job: string) => {
    for (const need of needs(job)) {
      if (!seen.has(need)) {
        seen.add(need);
        visit(need);
      }
    }
  };
  visit(name);
  return [...seen].sort();
}

describe('release.yml', () => {
  it('runs for a version tag, or by hand for a version', () => {
    expect(workflow.on.push).toEqual({ tags: ['v*.*.*'] });
    expect(workflow.on.workflow_dispatch.inputs).toEqual({
      version: expect.objectContaining({ required: true, type: 'string' }) as unknown,
    });
    expect(workflow.env.VERSION).toBe('${{ inputs.version || github.ref_name }}');
    // One release at a time, never cancelled halfway (a draft without its files, a half-moved tag).
    expect(workflow.concurrency).toEqual({ group: 'release', 'cancel-in-progress': false });
    expect(workflow.defaults.run.shell).toBe('bash'); // -e and pipefail: `check | tee` fails when check does
  });

  it('grants no permission but the ones each job needs', () => {
    expect(workflow.permissions).toEqual({});
    expect(Object.fromEntries(Object.entries(jobs).map(([name, job]) => [name, job.permissions]))).toEqual({
      check: { contents: 'read' },
      build: { contents: 'read', 'id-token': 'write', attestations: 'write' },
      draft: { contents: 'write' },
      npm: { contents: 'read', 'id-token': 'write' },
      publish: { contents: 'write' },
      'major-tag': { contents: 'write' },
      verify: { contents: 'read', attestations: 'read' },
    });
  });

  it('publishes nothing before the checks pass and every file is attached to the draft', () => {
    expect(Object.fromEntries(Object.keys(jobs).map((name) => [name, upstream(name)]))).toEqual({
      check: [],
      build: ['check'],
      draft: ['build', 'check'],
      npm: ['build', 'check', 'draft'],
      publish: ['build', 'check', 'draft', 'npm'],
      'major-tag': ['build', 'check', 'draft', 'npm', 'publish'],
      verify: ['build', 'check', 'draft', 'npm', 'publish'],
    });
    const check = scripts('check').join('\n');
    for (const command of ['npm ci', 'npm run lint', 'npm run typecheck', 'npm run build', 'npm test']) {
      expect(check).toContain(command);
    }
    expect(check).toContain('git diff --exit-code --stat -- dist');
    expect(scripts('draft').join('\n')).toMatch(/gh release create "\$TAG" --draft --verify-tag /);
    expect(scripts('draft').join('\n')).toContain('gh release upload "$TAG" out/* --clobber');
    expect(scripts('publish').join('\n')).toContain('gh release edit "$TAG" --draft=false');
    // The draft is the only job that creates or changes a release before publish.
    for (const name of ['check', 'build', 'npm', 'major-tag', 'verify']) {
      expect(scripts(name).join('\n'), name).not.toMatch(/gh release (create|upload|edit)/);
    }
  });

  it('attests the two files the release ships, and npm publishes the attested one', () => {
    const attest = job('build').steps.find((step) => step.uses?.startsWith('actions/attest@'));
    expect(attest?.with).toEqual({
      'subject-path':
        'out/report-deployment-action-${{ env.VERSION }}.tar.gz\nout/report-deployment-${{ env.VERSION }}.tgz\n',
    });
    expect(scripts('npm').join('\n')).toContain(
      'npm publish "out/$name-$VERSION.tgz" --access public --provenance --tag "$tag"',
    );
    expect(job('npm').environment).toBe('npm');
    expect(scripts('npm')[0]).toBe('node scripts/release.ts at-least "$(npm --version)" 11.5.1');
  });

  it('moves the major tag only where release.ts says, from where it was', () => {
    const [decide, move] = job('major-tag').steps.slice(-2);
    expect(decide?.run).toBe('node scripts/release.ts major "$VERSION" | tee -a "$GITHUB_OUTPUT"');
    expect(move?.if).toBe("steps.major.outputs.move == 'true'");
    expect(move?.run).toContain('git push --force-with-lease="refs/tags/$MAJOR:$FROM" origin "refs/tags/$MAJOR"');
  });

  it('keeps the token out of every checkout but the one that pushes the major tag', () => {
    for (const [name, job] of Object.entries(jobs)) {
      const checkout = job.steps.find((step) => step.uses?.startsWith('actions/checkout@'));
      expect(checkout?.with?.['persist-credentials'], name).toBe(name === 'major-tag' ? undefined : false);
    }
  });

  it('puts no expression into a script: values reach them through the environment', () => {
    expect(allScripts.filter((script) => script.includes('${{'))).toEqual([]);
  });

  it('has scripts bash can read', () => {
    for (const script of allScripts) {
      const result = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8', timeout: 10_000 });
      expect(result.stderr, script).toBe('');
      expect(result.status, script).toBe(0);
    }
  });

  it('runs only commands scripts/release.ts has', () => {
    const used = allScripts.flatMap((script) =>
      [...script.matchAll(/node scripts\/release\.ts ([\w-]+)/g)].map((match) => match[1]),
    );
    expect([...new Set(used)].sort()).toEqual(['at-least', 'check', 'latest', 'major', 'notes', 'npm-tag']);
    expect(used.filter((command) => !(COMMANDS as readonly string[]).includes(command ?? ''))).toEqual([]);
  });
});
