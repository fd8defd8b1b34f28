// Hostile environments as a test subject: whatever the variables hold (control characters, lone
// surrogates, "undefined", refs, very long values), readCiContext never throws, every default is a
// non-empty string with a source, and no value says "undefined" that no variable said.
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readCiContext } from '../../src/ci/detect.ts';
import { FieldNames } from '../../src/core/deployment.ts';
import { isBlank } from '../../src/core/text.ts';
import { contextOf, freshDir } from './ci-context.ts';

const dir = freshDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The variables something reads: each CI's marks and values, env-ci's, git's and the OS user's. */
const NAMES = [
  'CI',
  'GITHUB_ACTIONS',
  'GITHUB_EVENT_NAME',
  'GITHUB_EVENT_PATH',
  'GITHUB_SHA',
  'GITHUB_REF',
  'GITHUB_REF_NAME',
  'GITHUB_HEAD_REF',
  'GITHUB_ACTOR',
  'GITHUB_TRIGGERING_ACTOR',
  'GITHUB_SERVER_URL',
  'GITHUB_REPOSITORY',
  'GITHUB_RUN_ID',
  'GITHUB_RUN_ATTEMPT',
  'GITHUB_WORKFLOW',
  'GITLAB_CI',
  'CI_COMMIT_SHA',
  'CI_MERGE_REQUEST_SOURCE_BRANCH_SHA',
  'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME',
  'CI_COMMIT_BRANCH',
  'CI_COMMIT_TAG',
  'GITLAB_USER_LOGIN',
  'CI_JOB_URL',
  'CI_PIPELINE_ID',
  'CI_JOB_NAME',
  'JENKINS_URL',
  'GIT_COMMIT',
  'GIT_BRANCH',
  'BRANCH_NAME',
  'CHANGE_ID',
  'CHANGE_BRANCH',
  'TAG_NAME',
  'BUILD_USER_ID',
  'BUILD_URL',
  'CIRCLECI',
  'CIRCLE_SHA1',
  'CIRCLE_BRANCH',
  'CIRCLE_TAG',
  'CIRCLE_USERNAME',
  'CIRCLE_BUILD_URL',
  'BUILDKITE',
  'BUILDKITE_COMMIT',
  'BUILDKITE_BRANCH',
  'BUILDKITE_TAG',
  'BUILDKITE_BUILD_URL',
  'BUILDKITE_JOB_ID',
  'TF_BUILD',
  'BUILD_BUILDURI',
  'BUILD_SOURCEBRANCH',
  'SYSTEM_PULLREQUEST_SOURCEBRANCH',
  'SYSTEM_COLLECTIONURI',
  'SYSTEM_TEAMPROJECT',
  'BUILD_BUILDID',
  'BUILD_REQUESTEDFOR',
  'BITBUCKET_BUILD_NUMBER',
  'BITBUCKET_COMMIT',
  'BITBUCKET_BRANCH',
  'BITBUCKET_TAG',
  'BITBUCKET_REPO_FULL_NAME',
  'BITBUCKET_STEP_TRIGGERER_UUID',
  'TRAVIS',
  'TRAVIS_COMMIT',
  'TRAVIS_BRANCH',
  'TRAVIS_TAG',
  'TRAVIS_PULL_REQUEST',
  'TRAVIS_PULL_REQUEST_BRANCH',
  'TRAVIS_BUILD_WEB_URL',
  'CIRRUS_CI',
  'CIRRUS_TASK_ID',
  'TEAMCITY_VERSION',
  'TEAMCITY_BUILD_PROPERTIES_FILE',
  'GIT_DIR',
  'PATH',
  'USER',
  'USERNAME',
];

const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '',
    'true',
    'false',
    'undefined',
    'HEAD',
    'refs/tags/',
    'refs/heads/',
    'refs/pull/1/merge',
    'origin/',
    'refs/remotes/origin/',
    '/',
    '/dev/null',
    dir,
    '\u0000',
    '\uD800',
    '\n::error::x',
    '%E0%A4%A',
  ),
  fc.string({ unit: 'binary', minLength: 1001, maxLength: 1100 }),
  fc.stringMatching(/^[0-9a-f]{40}$/),
  // White space of every kind alone (U+00A0, U+2028, U+3000, U+FEFF...): no value.
  fc.stringMatching(/^[\p{White_Space}\u200b\u2060\ufeff\u3164]{1,4}$/u),
);

const environments = fc.dictionary(fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 12 })), hostile, {
  maxKeys: 30,
});

describe('readCiContext with hostile variables', () => {
  it('never throws; every default is a string with more than white space, and a source', async () => {
    await fc.assert(
      fc.asyncProperty(environments, async (env) => {
        const warnings: unknown[] = [];
        const log = { warning: (text: unknown) => void warnings.push(text), debug: () => {} };
        const context = await readCiContext(env, { cwd: dir, log });
        expect(context.name === undefined || (typeof context.name === 'string' && context.name !== '')).toBe(true);
        const saidUndefined = Object.values(env).some((value) => value.includes('undefined'));
        for (const [field, sourced] of Object.entries(context.defaults.values)) {
          expect(FieldNames).toContain(field);
          expect(typeof sourced.value).toBe('string');
          expect(isBlank(sourced.value)).toBe(false);
          expect(typeof sourced.source).toBe('string');
          expect(sourced.source).not.toBe('');
          if (!saidUndefined) expect(sourced.value).not.toContain('undefined');
        }
        for (const field of ['commitSha', 'branch', 'user'] as const) {
          expect(context.defaults.missing(field)).toMatch(/^is not set, .* Set `--[a-z-]+`\.$/);
        }
        for (const warning of warnings) expect(typeof warning).toBe('string');
      }),
      { numRuns: 100 },
    );
  });

  it('a variable of white space alone is none: GITHUB_ACTOR as a line break gives the next source', async () => {
    const log = { warning: () => {}, debug: () => {} };
    const context = await readCiContext(
      { CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_ACTOR: '\n', GITHUB_TRIGGERING_ACTOR: ' \t' },
      { cwd: dir, log },
    );
    expect(context.defaults.values.user?.value.trim()).toBeTruthy();
    expect(context.defaults.values.user?.source).not.toMatch(/GITHUB_(TRIGGERING_)?ACTOR/);
  });

  it('passes a value with control characters, or a long one, on as it is', async () => {
    const branch = `feat/\u001b[31m\n${'x'.repeat(5000)}`;
    const user = 'a\u0000b\u202Ec';
    const seen = await contextOf({ GITLAB_CI: 'true', CI_COMMIT_BRANCH: branch, GITLAB_USER_LOGIN: user }, dir);
    expect(seen.values).toEqual({ branch, user });
  });

  it('encodes a lone surrogate in an Azure project name instead of throwing', async () => {
    const seen = await contextOf(
      {
        TF_BUILD: 'True',
        SYSTEM_COLLECTIONURI: 'https://dev.azure.com/fabrikam/',
        SYSTEM_TEAMPROJECT: 'a\uD800b',
        BUILD_BUILDID: '7',
      },
      dir,
    );
    expect(seen.values.link).toBe('https://dev.azure.com/fabrikam/a%EF%BF%BDb/_build/results?buildId=7');
  });

  it('reads only strings from what it is given', async () => {
    const env = { GITLAB_CI: 'true', CI_COMMIT_SHA: 42, CI_COMMIT_BRANCH: 'main' } as unknown as Record<string, string>;
    const seen = await contextOf(env, dir);
    expect(seen.values).toEqual({ branch: 'main', user: 'GitLab CI' });
  });
});
