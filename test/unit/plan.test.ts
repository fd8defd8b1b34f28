import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config-error.ts';
import type { GitHubContext } from '../../src/context.ts';
import { needsContext, planMain } from '../../src/plan.ts';
import { readSettings } from '../../src/settings.ts';

const context: GitHubContext = {
  eventName: 'push',
  payload: {},
  env: {
    GITHUB_SHA: 'sha1',
    GITHUB_ACTOR: 'alice',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_REPOSITORY: 'a/b',
    GITHUB_RUN_ID: '1',
  },
  checkRunId: '7',
};

function plan(inputs: Record<string, string>, ctx = context) {
  const settings = readSettings(
    (name) =>
      ({ 'api-key': 'k', 'base-url': 'https://t.example', 'timeout-seconds': '10', retries: '3', ...inputs })[name] ??
      '',
    {},
  );
  return planMain(settings, needsContext(settings) ? ctx : undefined);
}

describe('planMain', () => {
  it('creates one deployment per artifact, STARTED and finished in post without a status', () => {
    const result = plan({ 'artifact-id': '1', 'artifact-name': 'web' });
    expect(result).toMatchObject({ kind: 'create', status: 'STARTED', finishInPost: true });
    expect(
      result.kind === 'create' && result.bodies.map((b) => ('artifactId' in b ? b.artifactId : b.artifactName)),
    ).toEqual([1, 'web']);
  });

  it('creates a finished deployment with a status', () => {
    expect(plan({ 'artifact-id': '1', status: 'failure' })).toMatchObject({
      kind: 'create',
      status: 'FAILED',
      finishInPost: false,
    });
  });

  it.each([
    [
      { 'deployment-id': '5', status: 'success' },
      { kind: 'update', status: 'SUCCEEDED', ids: [{ text: '5', numeric: false }] },
    ],
    [{ 'deployment-id': '[5]' }, { kind: 'finish-in-post', ids: [{ text: '5', numeric: true }] }],
    [
      { 'deployment-id': '[]', status: 'success' },
      { kind: 'nothing', reason: 'no-ids' },
    ],
    [{ 'deployment-id': '[]' }, { kind: 'nothing', reason: 'no-ids' }],
    [
      { 'artifact-id': '1', status: 'skipped' },
      { kind: 'nothing', reason: 'skipped' },
    ],
    [
      { 'deployment-id': '5', status: 'Skipped' },
      { kind: 'nothing', reason: 'skipped' },
    ],
  ])('%o plans %o', (inputs, expected) => {
    expect(plan(inputs)).toEqual(expected);
  });

  it('needs the GitHub context only to create', () => {
    const read = (inputs: Record<string, string>) =>
      readSettings(
        (name) =>
          ({ 'api-key': 'k', 'base-url': 'https://t.example', 'timeout-seconds': '10', retries: '3', ...inputs })[
            name
          ] ?? '',
        {},
      );
    expect(needsContext(read({ 'artifact-id': '1' }))).toBe(true);
    expect(needsContext(read({ 'artifact-id': '1', status: 'skipped' }))).toBe(false);
    expect(needsContext(read({ 'deployment-id': '1' }))).toBe(false);
  });

  it('names every required field that has no value', () => {
    const error = (() => {
      try {
        plan({ 'artifact-id': '1' }, { ...context, env: {} });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).lines).toEqual([
      "Input 'commit-sha' is empty and GITHUB_SHA gives no default (not on a GitHub runner?). Set `commit-sha`.",
      "Input 'user' is empty and GITHUB_ACTOR gives no default (not on a GitHub runner?). Set `user`.",
      "Input 'branch' is empty and GITHUB_REF gives no default (not on a GitHub runner?). Set `branch`.",
    ]);
  });
});
