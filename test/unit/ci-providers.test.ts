// The seven CIs the CLI reads itself, each as a table from its documented variables: a push build,
// a merge or pull request build, a tag build, and one whose variables are missing or empty. Run in a
// folder that is no git repository, so every value here comes from the variables; where they name
// no user, the CI's own name stands in (a table leaves that user out).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withoutRemote } from '../../src/ci/jenkins.ts';
import { contextOf, freshDir } from './ci-context.ts';

const dir = freshDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SHA = '0123456789abcdef0123456789abcdef01234567';
const HEAD_SHA = 'fedcba9876543210fedcba9876543210fedcba98';

type Table = [label: string, env: Record<string, string>, values: Record<string, string>][];

async function expectValues(name: string, env: Record<string, string>, values: Record<string, string>) {
  const seen = await contextOf(env, dir);
  expect(seen.name).toBe(name);
  expect(seen.values).toEqual({ user: name, ...values });
  if (!values.user) expect(seen.sources.user).toMatch(/^the CI's name \(neither its variables nor git name a user/);
  return seen;
}

describe('GitHub Actions', () => {
  const base = {
    GITHUB_ACTIONS: 'true',
    GITHUB_SHA: SHA,
    GITHUB_ACTOR: 'alice',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_RUN_ID: '77',
    GITHUB_RUN_NUMBER: '12',
    GITHUB_RUN_ATTEMPT: '2',
    GITHUB_WORKFLOW: 'Deploy',
    GITHUB_JOB: 'ship',
  };
  // No job.check_run_id outside the action: the link is the run attempt's page.
  const link = 'https://github.com/acme/shop/actions/runs/77/attempts/2';
  const table: Table = [
    [
      'push to a branch',
      { ...base, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main', GITHUB_TRIGGERING_ACTOR: 'bob' },
      {
        commitSha: SHA,
        branch: 'main',
        user: 'bob',
        link,
        description: 'Deploy #12 (attempt 2), job ship, on push',
      },
    ],
    [
      'pull request without an event file',
      {
        ...base,
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_REF: 'refs/pull/3/merge',
        GITHUB_HEAD_REF: 'feat/login',
      },
      {
        commitSha: SHA,
        branch: 'feat/login',
        user: 'alice',
        link,
        description: 'Deploy #12 (attempt 2), job ship, on pull_request',
      },
    ],
    [
      'tag push',
      { ...base, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/tags/v1.2.3', GITHUB_REF_NAME: 'v1.2.3' },
      {
        commitSha: SHA,
        version: 'v1.2.3',
        branch: 'v1.2.3',
        user: 'alice',
        link,
        description: 'Deploy #12 (attempt 2), job ship, on push',
      },
    ],
    ['variables missing', { GITHUB_ACTIONS: 'true', GITHUB_SHA: '', GITHUB_ACTOR: '' }, { description: 'workflow' }],
  ];
  it.each(table)('%s', async (_label, env, values) => {
    await expectValues('GitHub Actions', env, values);
  });

  it("names a variable as every CI's are, and reads the pull request's head from the event file", async () => {
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { head: { sha: HEAD_SHA, ref: 'feat/x' } } }));
    const seen = await contextOf(
      { ...base, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event, GITHUB_REF: 'refs/pull/3/merge' },
      dir,
    );
    expect(seen.values).toMatchObject({ commitSha: HEAD_SHA, branch: 'feat/x', user: 'alice' });
    expect(seen.sources).toMatchObject({
      commitSha: "the pull request's head (event)",
      user: 'GitHub Actions (GITHUB_ACTOR)',
      link: "the run attempt's page",
    });
    expect(seen.warnings).toEqual([]);
  });

  it('says once that an event file it cannot read leaves the variables alone', async () => {
    const seen = await contextOf(
      { ...base, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main', GITHUB_EVENT_PATH: join(dir, 'none.json') },
      dir,
    );
    expect(seen.values.branch).toBe('main');
    expect(seen.warnings).toEqual([
      'The event file (GITHUB_EVENT_PATH) does not exist: the defaults come from the GITHUB_* variables alone.',
    ]);
  });
});

describe('GitLab CI', () => {
  const base = {
    GITLAB_CI: 'true',
    CI: 'true',
    CI_COMMIT_SHA: SHA,
    GITLAB_USER_LOGIN: 'alice',
    GITLAB_USER_NAME: 'Alice Example',
    CI_JOB_URL: 'https://gitlab.com/acme/shop/-/jobs/456',
    CI_PIPELINE_URL: 'https://gitlab.com/acme/shop/-/pipelines/123',
    CI_PIPELINE_ID: '123',
    CI_JOB_NAME: 'deploy',
  };
  const common = {
    user: 'alice',
    link: 'https://gitlab.com/acme/shop/-/jobs/456',
    description: 'GitLab CI pipeline 123, job deploy',
  };
  const table: Table = [
    [
      'branch pipeline',
      { ...base, CI_COMMIT_BRANCH: 'main', CI_COMMIT_REF_NAME: 'main' },
      { commitSha: SHA, branch: 'main', ...common },
    ],
    [
      'merged results pipeline: the source branch and its head',
      {
        ...base,
        CI_COMMIT_REF_NAME: 'refs/merge-requests/7/merge',
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feat/login',
        CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
        CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: HEAD_SHA,
      },
      { commitSha: HEAD_SHA, branch: 'feat/login', ...common },
    ],
    [
      'merge request pipeline (source branch SHA empty)',
      {
        ...base,
        CI_COMMIT_REF_NAME: 'feat/login',
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feat/login',
        CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: '',
      },
      { commitSha: SHA, branch: 'feat/login', ...common },
    ],
    [
      'external pull request pipeline',
      { ...base, CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_NAME: 'feat/gh', CI_COMMIT_BRANCH: '' },
      { commitSha: SHA, branch: 'feat/gh', ...common },
    ],
    [
      'tag pipeline: the branch is the tag, never CI_COMMIT_REF_NAME',
      { ...base, CI_COMMIT_TAG: 'v1.2.3', CI_COMMIT_REF_NAME: 'v1.2.3' },
      { commitSha: SHA, version: 'v1.2.3', branch: 'v1.2.3', ...common },
    ],
    [
      'no login, no job URL',
      { ...base, GITLAB_USER_LOGIN: '', CI_JOB_URL: '', CI_COMMIT_BRANCH: 'main' },
      {
        commitSha: SHA,
        branch: 'main',
        user: 'Alice Example',
        link: 'https://gitlab.com/acme/shop/-/pipelines/123',
        description: 'GitLab CI pipeline 123, job deploy',
      },
    ],
    ['variables missing', { GITLAB_CI: 'true', CI_COMMIT_SHA: '', CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: '' }, {}],
  ];
  it.each(table)('%s', async (_label, env, values) => {
    await expectValues('GitLab CI', env, values);
  });

  it('names each value by its variable', async () => {
    const seen = await contextOf({ ...base, CI_COMMIT_TAG: 'v1', CI_COMMIT_REF_NAME: 'v1' }, dir);
    expect(seen.sources).toEqual({
      commitSha: 'GitLab CI (CI_COMMIT_SHA)',
      version: 'GitLab CI (CI_COMMIT_TAG)',
      branch: 'GitLab CI (CI_COMMIT_TAG)',
      user: 'GitLab CI (GITLAB_USER_LOGIN)',
      link: 'GitLab CI (CI_JOB_URL)',
      description: 'GitLab CI (CI_PIPELINE_ID, CI_JOB_NAME)',
    });
  });
});

describe('Jenkins', () => {
  const base = {
    JENKINS_URL: 'https://ci.example.com/',
    BUILD_URL: 'https://ci.example.com/job/shop/42/',
    JOB_NAME: 'shop',
    BUILD_NUMBER: '42',
  };
  const common = { link: 'https://ci.example.com/job/shop/42/', description: 'Jenkins job shop, build 42' };
  const table: Table = [
    [
      'freestyle build of a branch (git plugin, Build User Vars)',
      { ...base, GIT_COMMIT: SHA, GIT_BRANCH: 'origin/main', BUILD_USER_ID: 'alice', BUILD_USER: 'Alice Example' },
      { commitSha: SHA, branch: 'main', user: 'alice', ...common },
    ],
    [
      'multibranch pull request: CHANGE_BRANCH, not BRANCH_NAME',
      {
        ...base,
        GIT_COMMIT: SHA,
        BRANCH_NAME: 'PR-24',
        CHANGE_ID: '24',
        CHANGE_BRANCH: 'feat/login',
        CHANGE_TARGET: 'main',
        CHANGE_AUTHOR: 'bob',
      },
      { commitSha: SHA, branch: 'feat/login', user: 'bob', ...common },
    ],
    [
      'GitHub pull request builder: the head, not the merge commit',
      {
        ...base,
        GIT_COMMIT: SHA,
        GIT_BRANCH: 'origin/pr/24/merge',
        ghprbActualCommit: HEAD_SHA,
        ghprbSourceBranch: 'feat/x',
      },
      { commitSha: HEAD_SHA, branch: 'feat/x', ...common },
    ],
    [
      'multibranch tag build: BRANCH_NAME is the tag',
      { ...base, GIT_COMMIT: SHA, BRANCH_NAME: 'v1.2.3', TAG_NAME: 'v1.2.3' },
      { commitSha: SHA, version: 'v1.2.3', branch: 'v1.2.3', ...common },
    ],
    [
      'multibranch branch build',
      { ...base, GIT_COMMIT: SHA, BRANCH_NAME: 'release/2' },
      { commitSha: SHA, branch: 'release/2', ...common },
    ],
    [
      'pull request without CHANGE_BRANCH: no branch rather than PR-24',
      { ...base, GIT_COMMIT: SHA, BRANCH_NAME: 'PR-24', CHANGE_ID: '24' },
      { commitSha: SHA, ...common },
    ],
    ['variables missing (no git plugin, no URL configured)', { JENKINS_URL: 'https://ci.example.com/' }, {}],
  ];
  it.each(table)('%s', async (_label, env, values) => {
    await expectValues('Jenkins', env, values);
  });

  it.each([
    ['origin/main', 'main'],
    ['origin/feat/origin/x', 'feat/origin/x'],
    ['refs/remotes/origin/feat/x', 'feat/x'],
    ['refs/remotes/upstream/main', 'main'],
    ['feat/origin/x', 'feat/origin/x'],
    ['upstream/main', 'upstream/main'],
    ['main', 'main'],
    ['refs/heads/main', 'refs/heads/main'],
    ['origin/', ''],
  ])('GIT_BRANCH %s is the branch %j', async (gitBranch, branch) => {
    expect(withoutRemote(gitBranch)).toBe(branch);
    const seen = await contextOf({ ...base, GIT_COMMIT: SHA, GIT_BRANCH: gitBranch }, dir);
    expect(seen.values.branch).toBe(branch || undefined);
  });

  it('names itself as the user where nothing names one, and says where a user would come from', async () => {
    const seen = await contextOf({ ...base, GIT_COMMIT: SHA }, dir);
    expect([seen.values.user, seen.sources.user]).toEqual([
      'Jenkins',
      "the CI's name (neither its variables nor git name a user; Jenkins names the user who started a build with the Build User Vars plugin's BUILD_USER_ID)",
    ]);
  });
});

describe('CircleCI', () => {
  const base = {
    CIRCLECI: 'true',
    CI: 'true',
    CIRCLE_SHA1: SHA,
    CIRCLE_USERNAME: 'alice',
    CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/shop/88',
    CIRCLE_BUILD_NUM: '88',
    CIRCLE_JOB: 'deploy',
  };
  const common = {
    user: 'alice',
    link: 'https://circleci.com/gh/acme/shop/88',
    description: 'CircleCI job deploy, build 88',
  };
  const table: Table = [
    ['branch build', { ...base, CIRCLE_BRANCH: 'main' }, { commitSha: SHA, branch: 'main', ...common }],
    [
      'pull request build: CIRCLE_BRANCH is its own branch',
      { ...base, CIRCLE_BRANCH: 'feat/login', CIRCLE_PULL_REQUEST: 'https://github.com/acme/shop/pull/9' },
      { commitSha: SHA, branch: 'feat/login', ...common },
    ],
    [
      'tag build',
      { ...base, CIRCLE_TAG: 'v1.2.3' },
      { commitSha: SHA, version: 'v1.2.3', branch: 'v1.2.3', ...common },
    ],
    [
      'scheduled pipeline: no user',
      { ...base, CIRCLE_BRANCH: 'main', CIRCLE_USERNAME: '' },
      { commitSha: SHA, branch: 'main', link: common.link, description: common.description },
    ],
    ['variables missing', { CIRCLECI: 'true' }, {}],
  ];
  it.each(table)('%s', async (_label, env, values) => {
    await expectValues('CircleCI', env, values);
  });
});

describe('Buildkite', () => {
  const base = {
    BUILDKITE: 'true',
    CI: 'true',
    BUILDKITE_COMMIT: SHA,
    BUILDKITE_BUILD_CREATOR: 'Alice Example',
    BUILDKITE_BUILD_CREATOR_EMAIL: 'alice@example.com',
    BUILDKITE_BUILD_AUTHOR: 'Bob Author',
    BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/shop/builds/1514',
    BUILDKITE_JOB_ID: '0190-abcd',
    BUILDKITE_PIPELINE_SLUG: 'shop',
    BUILDKITE_BUILD_NUMBER: '1514',
    BUILDKITE_LABEL: ':rocket: Deploy',
  };
  const common = {
    user: 'Alice Example',
    link: 'https://buildkite.com/acme/shop/builds/1514#0190-abcd',
    description: 'Buildkite pipeline shop, build 1514, step :rocket: Deploy',
  };
  const table: Table = [
    ['branch build', { ...base, BUILDKITE_BRANCH: 'main' }, { commitSha: SHA, branch: 'main', ...common }],
    [
      'pull request build: BUILDKITE_BRANCH is its own branch',
      {
        ...base,
        BUILDKITE_BRANCH: 'feat/login',
        BUILDKITE_PULL_REQUEST: '12',
        BUILDKITE_PULL_REQUEST_BASE_BRANCH: 'main',
      },
      { commitSha: SHA, branch: 'feat/login', ...common },
    ],
    [
      'tag build: BUILDKITE_BRANCH holds the tag',
      { ...base, BUILDKITE_BRANCH: 'v1.2.3', BUILDKITE_TAG: 'v1.2.3' },
      { commitSha: SHA, version: 'v1.2.3', branch: 'v1.2.3', ...common },
    ],
    [
      'a build created by hand: BUILDKITE_COMMIT is HEAD',
      { ...base, BUILDKITE_COMMIT: 'HEAD', BUILDKITE_BRANCH: 'main' },
      { branch: 'main', ...common },
    ],
    [
      'no job id, no creator',
      { ...base, BUILDKITE_BRANCH: 'main', BUILDKITE_JOB_ID: '', BUILDKITE_BUILD_CREATOR: '' },
      {
        commitSha: SHA,
        branch: 'main',
        user: 'alice@example.com',
        link: 'https://buildkite.com/acme/shop/builds/1514',
        description: common.description,
      },
    ],
    ['variables missing', { BUILDKITE: 'true', BUILDKITE_JOB_ID: '0190-abcd' }, {}],
  ];
  it.each(table)('%s', async (_label, env, values) => {
    await expectValues('Buildkite', env, values);
  });

  it('names the link by both its variables', async () => {
    const seen = await contextOf({ ...base, BUILDKITE_BRANCH: 'main' }, dir);
    expect(seen.sources.link).toBe('Buildkite (BUILDKITE_BUILD_URL, BUILDKITE_JOB_ID)');
  });
});

describe('Azure Pipelines', () => {
  const base = {
    TF_BUILD: 'True',
    BUILD_SOURCEVERSION: SHA,
    BUILD_REQUESTEDFOR: 'Alice Example',
    BUILD_REQUESTEDFOREMAIL: 'alice@example.com',
    SYSTEM_COLLECTIONURI: 'https://dev.azure.com/fabrikam/',
    SYSTEM_TEAMPROJECT: 'Shop',
    BUILD_BUILDID: '314',
    BUILD_DEFINITIONNAME: 'shop-ci',
    BUILD_BUILDNUMBER: '20240101.3',
    SYSTEM_JOBDISPLAYNAME: 'Deploy',
  };
  const common = {
    user: 'Alice Example',
    link: 'https://dev.azure.com/fabrikam/Shop/_build/results?buildId=314',
    description: 'Azure Pipelines pipeline shop-ci, run 20240101.3, job Deploy',
  };
  const table: Table = [
    [
      'branch build: the whole branch name, not BUILD_SOURCEBRANCHNAME',
      { ...base, BUILD_SOURCEBRANCH: 'refs/heads/feature/tools', BUILD_SOURCEBRANCHNAME: 'tools' },
      { commitSha: SHA, branch: 'feature/tools', ...common },
    ],
    [
      'pull request build (Azure Repos): its source branch and head',
      {
        ...base,
        BUILD_SOURCEBRANCH: 'refs/pull/1/merge',
        SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/feat/login',
        SYSTEM_PULLREQUEST_TARGETBRANCH: 'refs/heads/main',
        SYSTEM_PULLREQUEST_SOURCECOMMITID: HEAD_SHA,
      },
      { commitSha: HEAD_SHA, branch: 'feat/login', ...common },
    ],
    [
      'pull request build (GitHub repository): a bare source branch',
      { ...base, BUILD_SOURCEBRANCH: 'refs/pull/1/merge', SYSTEM_PULLREQUEST_SOURCEBRANCH: 'feat/gh' },
      { commitSha: SHA, branch: 'feat/gh', ...common },
    ],
    [
      'tag build',
      { ...base, BUILD_SOURCEBRANCH: 'refs/tags/v1.2.3' },
      { commitSha: SHA, version: 'v1.2.3', branch: 'v1.2.3', ...common },
    ],
    [
      'a project name with a space, a collection URI without its slash',
      {
        ...base,
        BUILD_SOURCEBRANCH: 'refs/heads/main',
        SYSTEM_TEAMPROJECT: 'My Shop',
        SYSTEM_COLLECTIONURI: 'https://tfs.example.com/DefaultCollection',
      },
      {
        ...common,
        commitSha: SHA,
        branch: 'main',
        link: 'https://tfs.example.com/DefaultCollection/My%20Shop/_build/results?buildId=314',
      },
    ],
    [
      'no build id: no link; no display name: the e-mail',
      { ...base, BUILD_SOURCEBRANCH: 'refs/heads/main', BUILD_BUILDID: '', BUILD_REQUESTEDFOR: '' },
      { commitSha: SHA, branch: 'main', user: 'alice@example.com', description: common.description },
    ],
    ['variables missing', { TF_BUILD: 'True', BUILD_SOURCEBRANCH: '' }, {}],
  ];
  it.each(table)('%s', async (_label, env, values) => {
    await expectValues('Azure Pipelines', env, values);
  });

  it('is detected by BUILD_BUILDURI too, as env-ci detects it', async () => {
    const seen = await contextOf({ BUILD_BUILDURI: 'vstfs:///Build/Build/314', BUILD_SOURCEVERSION: SHA }, dir);
    expect(seen.name).toBe('Azure Pipelines');
    expect(seen.sources.commitSha).toBe('Azure Pipelines (BUILD_SOURCEVERSION)');
  });
});

describe('Bitbucket Pipelines', () => {
  const base = {
    CI: 'true',
    BITBUCKET_BUILD_NUMBER: '42',
    BITBUCKET_COMMIT: SHA,
    BITBUCKET_REPO_FULL_NAME: 'acme/shop',
    BITBUCKET_STEP_TRIGGERER_UUID: '{8f1e2d3c-0000-4000-8000-000000000001}',
  };
  const common = {
    user: '{8f1e2d3c-0000-4000-8000-000000000001}',
    link: 'https://bitbucket.org/acme/shop/pipelines/results/42',
    description: 'Bitbucket Pipelines build 42',
  };
  const table: Table = [
    ['branch pipeline', { ...base, BITBUCKET_BRANCH: 'main' }, { commitSha: SHA, branch: 'main', ...common }],
    [
      'pull request pipeline: BITBUCKET_BRANCH is its source branch',
      { ...base, BITBUCKET_BRANCH: 'feat/login', BITBUCKET_PR_ID: '5', BITBUCKET_PR_DESTINATION_BRANCH: 'main' },
      { commitSha: SHA, branch: 'feat/login', ...common },
    ],
    [
      'tag pipeline',
      { ...base, BITBUCKET_TAG: 'v1.2.3' },
      { commitSha: SHA, version: 'v1.2.3', branch: 'v1.2.3', ...common },
    ],
    [
      'no repository name: no link',
      { ...base, BITBUCKET_BRANCH: 'main', BITBUCKET_REPO_FULL_NAME: '' },
      { commitSha: SHA, branch: 'main', user: common.user, description: common.description },
    ],
    ['variables missing', { BITBUCKET_BUILD_NUMBER: '42' }, { description: 'Bitbucket Pipelines build 42' }],
  ];
  it.each(table)('%s', async (_label, env, values) => {
    await expectValues('Bitbucket Pipelines', env, values);
  });
});

describe('which CI', () => {
  it.each([
    ['an empty mark is no mark', { GITLAB_CI: '', JENKINS_URL: 'https://ci.example.com/' }, 'Jenkins'],
    ['JENKINS_URL set in another CI names that CI', { GITLAB_CI: 'true', JENKINS_URL: 'https://j/' }, 'GitLab CI'],
    ['none: outside any CI', { CI: 'false' }, undefined],
  ])('%s', async (_label, env, name) => {
    expect((await contextOf(env, dir)).name).toBe(name);
  });

  it('says what is missing, and which setting gives it', async () => {
    const seen = await contextOf({ GITLAB_CI: 'true' }, dir);
    expect(seen.missing('commitSha')).toBe(
      'is not set, and no CI variable or git repository here gives a commit. Set `--commit-sha`.',
    );
    expect(seen.missing('branch')).toBe(
      'is not set, and no CI variable or git repository here gives a branch. Set `--branch`.',
    );
    // Never the user: the CI's name stands in.
    expect([seen.values.user, seen.sources.user]).toEqual([
      'GitLab CI',
      "the CI's name (neither its variables nor git name a user)",
    ]);
  });
});

describe('each value named by the variables it came from', () => {
  it.each<[string, Record<string, string>, Record<string, string>]>([
    [
      'Azure Pipelines: a pull request from Azure Repos, the run page',
      {
        TF_BUILD: 'True',
        SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/feat',
        BUILD_SOURCEBRANCH: 'refs/tags/v1',
        SYSTEM_COLLECTIONURI: 'https://dev.azure.com/o',
        SYSTEM_TEAMPROJECT: 'p',
        BUILD_BUILDID: '7',
      },
      {
        branch: 'Azure Pipelines (SYSTEM_PULLREQUEST_SOURCEBRANCH)',
        version: 'Azure Pipelines (BUILD_SOURCEBRANCH)',
        link: 'Azure Pipelines (SYSTEM_COLLECTIONURI, SYSTEM_TEAMPROJECT, BUILD_BUILDID)',
      },
    ],
    [
      'Azure Pipelines: a branch',
      { TF_BUILD: 'True', BUILD_SOURCEBRANCH: 'refs/heads/main' },
      { branch: 'Azure Pipelines (BUILD_SOURCEBRANCH)' },
    ],
    [
      'Bitbucket Pipelines: detected by its commit alone, the link by both its variables',
      { BITBUCKET_COMMIT: SHA, BITBUCKET_REPO_FULL_NAME: 'a/b' },
      { commitSha: 'Bitbucket Pipelines (BITBUCKET_COMMIT)' },
    ],
    [
      'Bitbucket Pipelines: the link',
      { BITBUCKET_BUILD_NUMBER: '3', BITBUCKET_REPO_FULL_NAME: 'a/b' },
      {
        link: 'Bitbucket Pipelines (BITBUCKET_REPO_FULL_NAME, BITBUCKET_BUILD_NUMBER)',
        description: 'Bitbucket Pipelines (BITBUCKET_BUILD_NUMBER)',
      },
    ],
    [
      'Buildkite: a tag build, the build page without a job, the commit author',
      {
        BUILDKITE: 'true',
        BUILDKITE_COMMIT: SHA,
        BUILDKITE_TAG: 'v1',
        BUILDKITE_BRANCH: 'v1',
        BUILDKITE_BUILD_URL: 'https://b/1',
        BUILDKITE_BUILD_AUTHOR: 'Ann',
      },
      {
        commitSha: 'Buildkite (BUILDKITE_COMMIT)',
        version: 'Buildkite (BUILDKITE_TAG)',
        branch: 'Buildkite (BUILDKITE_TAG)',
        user: 'Buildkite (BUILDKITE_BUILD_AUTHOR)',
        link: 'Buildkite (BUILDKITE_BUILD_URL)',
      },
    ],
    [
      'Buildkite: a branch',
      { BUILDKITE: 'true', BUILDKITE_BRANCH: 'main' },
      { branch: 'Buildkite (BUILDKITE_BRANCH)' },
    ],
    [
      'GitLab CI: the user by e-mail alone',
      { GITLAB_CI: 'true', GITLAB_USER_EMAIL: 'a@b' },
      { user: 'GitLab CI (GITLAB_USER_EMAIL)' },
    ],
    [
      'Jenkins: a GitLab merge request, a tag, the Build User Vars name',
      { JENKINS_URL: 'https://j/', gitlabSourceBranch: 'feat', TAG_NAME: 'v2', BUILD_USER: 'Ann' },
      { branch: 'Jenkins (gitlabSourceBranch)', version: 'Jenkins (TAG_NAME)', user: 'Jenkins (BUILD_USER)' },
    ],
    [
      'Jenkins: the git plugin’s local branch',
      { JENKINS_URL: 'https://j/', GIT_LOCAL_BRANCH: 'main' },
      { branch: 'Jenkins (GIT_LOCAL_BRANCH)' },
    ],
  ])('%s', async (_label, env, sources) => {
    const seen = await contextOf(env, dir);
    expect(seen.sources).toMatchObject(sources);
  });

  it('Azure Pipelines: no link without its project', async () => {
    const seen = await contextOf(
      { TF_BUILD: 'True', SYSTEM_COLLECTIONURI: 'https://dev.azure.com/o', BUILD_BUILDID: '7' },
      dir,
    );
    expect(seen.values.link).toBeUndefined();
  });

  it.each(['zz' + SHA, SHA + 'zz', 'x'.repeat(64), 'a', 'HEAD'])('Buildkite: %s is no commit', async (commit) => {
    const seen = await contextOf({ BUILDKITE: 'true', BUILDKITE_COMMIT: commit }, dir);
    expect(seen.values.commitSha).toBeUndefined();
  });
});
