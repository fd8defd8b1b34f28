import { describe, expect, it } from 'vitest';
import { githubDefaults, type GitHubContext } from '../../src/ci/github.ts';
import { ConfigError } from '../../src/core/config-error.ts';
import { plan as planFor } from '../../src/core/plan.ts';
import { readSettingsAndRequest } from '../../src/core/request.ts';
import { sourceOf } from './source.ts';

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

const base = {
  'api-key': 'rd-test-key-0b8e4d7c2a61',
  'base-url': 'https://t.example',
  'timeout-seconds': '10',
  retries: '3',
};

function read(inputs: Record<string, string>, ctx = context, asked = { defaults: 0 }) {
  return readSettingsAndRequest(sourceOf({ ...base, ...inputs }), {}, () => {
    asked.defaults++;
    return githubDefaults(ctx);
  });
}

function plan(inputs: Record<string, string>, ctx = context) {
  const { settings, request } = read(inputs, ctx);
  return planFor(settings, request);
}

describe('plan', () => {
  it('creates one deployment per artifact, STARTED and finished in post without a status', () => {
    const result = plan({ 'artifact-id': '1', 'artifact-name': 'web' });
    expect(result).toMatchObject({ kind: 'create', status: 'STARTED', finishLater: true });
    expect(
      result.kind === 'create' && result.bodies.map((b) => ('artifactId' in b ? b.artifactId : b.artifactName)),
    ).toEqual([1, 'web']);
  });

  it('creates a finished deployment with a status', () => {
    expect(plan({ 'artifact-id': '1', status: 'failure' })).toMatchObject({
      kind: 'create',
      status: 'FAILED',
      finishLater: false,
    });
  });

  it.each([
    [
      { 'deployment-id': '5', status: 'success' },
      { kind: 'update', status: 'SUCCEEDED', ids: [{ text: '5', numeric: false }] },
    ],
    [{ 'deployment-id': '[5]' }, { kind: 'finish-later', ids: [{ text: '5', numeric: true }] }],
    [
      { 'deployment-id': '[]', status: 'success' },
      { kind: 'nothing', reason: 'no-ids' },
    ],
    [{ 'deployment-id': '[]' }, { kind: 'nothing', reason: 'no-ids' }],
    [
      { 'artifact-id': '1', status: 'skipped' },
      { kind: 'nothing', reason: 'skipped', word: 'skipped' },
    ],
    [
      { 'deployment-id': '5', status: 'Skipped' },
      { kind: 'nothing', reason: 'skipped', word: 'skipped' },
    ],
  ])('%o plans %o', (inputs, expected) => {
    expect(plan(inputs)).toEqual(expected);
  });

  it('records nothing, in the words of the place, where it implies the deployment has no state yet', () => {
    const source = {
      ...sourceOf({ ...base, 'artifact-id': '1' }),
      impliedStatus: () => ({ nothing: 'No state yet.' }),
    };
    const { settings, request } = readSettingsAndRequest(source, {}, () => githubDefaults(context));
    expect(planFor(settings, request)).toEqual({ kind: 'nothing', reason: 'not-yet', why: 'No state yet.' });
  });

  it('reads the defaults only to create', () => {
    const asked = (inputs: Record<string, string>) => {
      const count = { defaults: 0 };
      read(inputs, context, count);
      return count.defaults;
    };
    expect(asked({ 'artifact-id': '1' })).toBe(1);
    expect(asked({ 'artifact-id': '1', status: 'skipped' })).toBe(0);
    expect(asked({ 'deployment-id': '1' })).toBe(0);
  });

  it('records nothing, with the warning the face gave, where the key is withheld', () => {
    const { settings, request } = readSettingsAndRequest(
      sourceOf({ ...base, 'api-key': '', 'artifact-id': '1' }, { warning: 'no secrets here' }),
      {},
      () => githubDefaults(context),
    );
    expect(planFor(settings, request)).toEqual({ kind: 'nothing', reason: 'no-key', warning: 'no secrets here' });
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
