// What each face says of what happened, worded once in the core: every case of starting, finishing
// and being cancelled, as the action words it (the CLI's words: test/unit/cli-commands.test.ts).
import { describe, expect, it } from 'vitest';
import { ACTION_WORDS } from '../../src/action/words.ts';
import type { CreateBody } from '../../src/core/deployment.ts';
import { textId } from '../../src/core/ids.ts';
import { describeCancel, describeFinish, describeStart } from '../../src/core/outcome.ts';
import type { Plan } from '../../src/core/plan.ts';

const body = (artifactId: number): CreateBody => ({
  artifactId,
  version: '1.2.0',
  environment: 'Production',
  commitSha: 'abc1234',
  user: 'alice',
  branch: 'main',
  type: 'SIMPLE',
  status: 'STARTED',
});
const ids = [textId('7'), textId('8')];
const create = (finishLater: boolean): Plan => ({
  kind: 'create',
  status: finishLater ? 'STARTED' : 'SUCCEEDED',
  bodies: [body(1), body(2)],
  finishLater,
});
const update: Plan = { kind: 'update', status: 'SUCCEEDED', ids };
const start = (plan: Plan, results: Parameters<typeof describeStart>[1] = {}, dryRun = false) =>
  describeStart(plan, results, { dryRun, startedAt: 1000, words: ACTION_WORDS });
const finish = (
  results: Parameters<typeof describeFinish>[1],
  options: { startedAt?: number; dryRun?: boolean; placeholders?: number } = {},
) => describeFinish('SUCCEEDED', results, { dryRun: false, startedAt: 0, words: ACTION_WORDS, ...options });
const text = (lines: { text: string }[]) => lines.map((line) => line.text);

describe('describeCancel: what a cancelled run does with each plan', () => {
  it.each<[string, Plan, string]>([
    [
      'creates to finish later',
      create(true),
      'The run is being cancelled: no further deployment is created; those already sent are waited for, and the post step sets each one created from the job status.',
    ],
    [
      'creates with a status',
      create(false),
      'The run is being cancelled: no further deployment is created; those already sent are waited for.',
    ],
    [
      'updates',
      update,
      'The run is being cancelled: every deployment is still set to SUCCEEDED, so that none is left unfinished.',
    ],
    [
      'ids to finish later',
      { kind: 'finish-later', ids },
      'The run is being cancelled: the main step sends nothing, and ends as it would.',
    ],
    [
      'nothing',
      { kind: 'nothing', reason: 'no-ids' },
      'The run is being cancelled: the main step sends nothing, and ends as it would.',
    ],
  ])('%s', (_, plan, said) => {
    expect(describeCancel(plan, ACTION_WORDS)).toBe(said);
  });
});

describe('describeStart: nothing to record, and why', () => {
  it.each<[string, Plan, { text: string; warning: boolean }, string, string]>([
    [
      'a skipped status',
      { kind: 'nothing', reason: 'skipped', word: 'skipped' },
      { text: "Nothing recorded: status is 'skipped', so nothing was deployed.", warning: false },
      'Deployment not recorded: skipped',
      "Nothing to finish: status was 'skipped', so nothing was recorded.",
    ],
    [
      'an empty list of ids',
      { kind: 'nothing', reason: 'no-ids' },
      {
        text: "Input 'deployment-id' is an empty list: the job that started the deployment recorded none (see its log), so there is nothing to update.",
        warning: true,
      },
      'No deployment to update',
      "Nothing to finish: Input 'deployment-id' was an empty list.",
    ],
    [
      'no key',
      { kind: 'nothing', reason: 'no-key', warning: 'No API key: nothing is recorded.' },
      { text: 'No API key: nothing is recorded.', warning: true },
      'Deployment not recorded: no API key',
      'Nothing to finish: without an API key nothing was recorded.',
    ],
  ])('%s', (_, plan, line, heading, note) => {
    expect(start(plan)).toEqual({
      lines: [line],
      failures: [],
      summary: { heading, lines: [line.text] },
      recorded: [],
      ids: [],
      status: '',
      open: { note },
    });
  });
});

describe('describeStart: updates', () => {
  it('all set: the line, the summary, the ids and the status', () => {
    expect(start(update, { updated: [{ id: ids[0]! }, { id: ids[1]! }] })).toEqual({
      lines: [{ text: 'Deployments 7, 8 set to SUCCEEDED.' }],
      failures: [],
      summary: { heading: '2 deployments updated', lines: ['Deployments 7, 8 set to SUCCEEDED.'] },
      recorded: [],
      ids,
      status: 'SUCCEEDED',
      open: { note: 'Nothing to finish: the main step already set the deployment status to SUCCEEDED.' },
    });
  });

  it('one of one set: a heading without a count', () => {
    const one: Plan = { kind: 'update', status: 'FAILED', ids: [ids[0]!] };
    expect(start(one, { updated: [{ id: ids[0]! }] }).summary).toEqual({
      heading: 'Deployment updated',
      lines: ['Deployment 7 set to FAILED.'],
    });
  });

  it('none set: only the failures, and no status', () => {
    const failure = ['HTTP 503', 'detail: down'];
    expect(
      start(update, {
        updated: [
          { id: ids[0]!, failure },
          { id: ids[1]!, failure },
        ],
      }),
    ).toEqual({
      lines: [],
      failures: [
        ['Could not set deployment 7 to SUCCEEDED: HTTP 503', 'detail: down'],
        ['Could not set deployment 8 to SUCCEEDED: HTTP 503', 'detail: down'],
      ],
      summary: { heading: '0 of 2 deployments updated', lines: [] },
      recorded: [],
      ids: [],
      status: '',
      open: { note: 'Nothing to finish: the main step could not update the deployment.' },
    });
  });

  it('a dry run sends nothing, and leaves nothing to finish', () => {
    expect(start(update, {}, true)).toEqual({
      lines: [{ text: 'Dry run: nothing was sent.' }],
      failures: [],
      recorded: [],
      ids: [],
      status: 'SUCCEEDED',
      open: { note: 'Nothing to finish: the main step already set the deployment status to SUCCEEDED.' },
    });
  });
});

describe('describeStart: creates', () => {
  it('all recorded: a heading that counts them', () => {
    const created = [body(1), body(2)].map((b, index) => ({ body: b, id: ids[index]! }));
    const report = start(create(false), { created });
    expect(report.summary).toEqual({ heading: '2 deployments recorded', lines: [] });
    expect(text(report.lines)).toEqual([
      'Recorded deployment 7: artifact 1 version 1.2.0 to Production (SUCCEEDED).',
      'Recorded deployment 8: artifact 2 version 1.2.0 to Production (SUCCEEDED).',
    ]);
    expect(report.open).toEqual({
      note: 'Nothing to finish: the main step was given status SUCCEEDED, so the job status is not reported.',
    });
  });

  it.each([
    [
      true,
      ['Dry run: the post step would set these deployments from the job status.', 'Dry run: nothing was sent.'],
      { dryRun: true, count: 2 },
    ],
    [
      false,
      ['Dry run: nothing was sent.'],
      { note: 'Nothing to finish: the main step was given status SUCCEEDED, so the job status is not reported.' },
    ],
  ])('a dry run (to finish later: %s) sends nothing', (finishLater, lines, open) => {
    const report = start(create(finishLater), {}, true);
    expect(text(report.lines)).toEqual(lines);
    expect(report).toMatchObject({ ids: [], recorded: [], failures: [], open });
  });

  it('a dry run of ids to finish later says who would set them', () => {
    expect(start({ kind: 'finish-later', ids }, {}, true)).toEqual({
      lines: [
        { text: 'Dry run: the post step would set deployments 7, 8 from the job status.' },
        { text: 'Dry run: nothing was sent.' },
      ],
      failures: [],
      recorded: [],
      ids: [],
      status: '',
      open: { dryRun: true, ids, count: 2 },
    });
  });
});

describe('describeFinish', () => {
  it.each([
    [1, '({id} stands for the id of the deployment the main step would have created.)'],
    [3, '({id} stands for the id of each of the 3 deployments the main step would have created.)'],
  ])('a dry run with %i placeholder id(s) says what {id} stands for', (placeholders, line) => {
    expect(text(finish([], { dryRun: true, placeholders }).lines)).toEqual([line, 'Dry run: nothing was sent.']);
  });

  it('a dry run with real ids: nothing sent, nothing recorded', () => {
    expect(finish([{ id: ids[0]! }], { dryRun: true })).toEqual({
      lines: [{ text: 'Dry run: nothing was sent.' }],
      failures: [],
      recorded: [],
      ids: [],
      status: '',
    });
  });

  it('says how long the deployment took where its start is known, and nothing of it where not', () => {
    expect(text(finish([{ id: ids[0]! }], { startedAt: Date.now() - 192_000 }).lines)).toEqual([
      'Deployment 7 set to SUCCEEDED after 3m 12s.',
    ]);
    expect(finish([{ id: ids[0]! }], { startedAt: 0 })).toMatchObject({
      lines: [{ text: 'Deployment 7 set to SUCCEEDED.' }],
      summary: { heading: 'Deployment succeeded', lines: ['Deployment 7 set to SUCCEEDED.'] },
      ids: [ids[0]],
      status: 'SUCCEEDED',
    });
  });

  it('none set: the failures, no line, no status', () => {
    expect(finish([{ id: ids[0]!, failure: ['HTTP 500'] }])).toEqual({
      lines: [],
      failures: [['Could not set deployment 7 to SUCCEEDED: HTTP 500']],
      summary: { heading: 'Deployment status not fully reported', lines: [] },
      recorded: [],
      ids: [],
      status: '',
    });
  });
});
