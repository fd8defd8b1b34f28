import { describe, expect, it } from 'vitest';
import { decodeHandoff, encodeHandoff, type Handoff } from '../../src/action/handoff.ts';

describe('handoff', () => {
  it.each<Handoff>([
    {
      dryRun: false,
      ids: [
        { text: '9007199254740993', numeric: true },
        { text: 'a-1', numeric: false },
      ],
      startedAt: 1700000000000,
    },
    { dryRun: true, count: 3 },
    { dryRun: true, count: 1, ids: [{ text: '9007199254740993', numeric: true }] },
    // The most one step records (Limits.idsPerStep), as a count and as ids.
    { dryRun: true, count: 100 },
    {
      dryRun: false,
      ids: Array.from({ length: 100 }, (_, index) => ({ text: String(index + 1), numeric: true })),
      startedAt: 1,
    },
    { note: 'Nothing to finish: the main step could not update the deployment.' },
    { note: '' },
    // The longest note read back (NOTE_LENGTH); 1001 is refused below.
    { note: 'x'.repeat(1000) },
  ])('%o round-trips', (handoff) => {
    expect(decodeHandoff(encodeHandoff(handoff))).toEqual(handoff);
  });

  it('keeps a big numeric id exactly', () => {
    const text = encodeHandoff({ dryRun: false, ids: [{ text: '9007199254740993', numeric: true }], startedAt: 5 });
    expect(text).toBe('{"kind":"finish","ids":[9007199254740993],"startedAt":5}');
  });

  it('is "none" when the main step saved nothing', () => {
    expect(decodeHandoff('')).toEqual({ none: true });
  });

  it.each([
    ['[1]', 'it is not an object'],
    ['not json', 'it is not JSON'],
    ['null', 'it is not an object'],
    ['{"kind":"explode"}', 'it names no known kind'],
    ['{"kind":"finish","ids":"1"}', 'its ids are no list of deployment ids'],
    ['{"kind":"finish","ids":[]}', 'its ids are no list of deployment ids'],
    ['{"kind":"finish","ids":[{}]}', 'it holds a value that is no deployment id'],
    ['{"kind":"finish","ids":[".."]}', 'it holds a value that is no deployment id'],
    ['{"kind":"finish","ids":["1\\n::error::x"]}', 'it holds a value that is no deployment id'],
    [`{"kind":"finish","ids":[${'1,'.repeat(100)}1]}`, 'its ids are no list of deployment ids'],
    ['{"kind":"finish-dry-run","count":"lots"}', 'its count is no number of deployments'],
    ['{"kind":"finish-dry-run","count":1e9}', 'its count is no number of deployments'],
    ['{"kind":"finish-dry-run","count":101}', 'its count is no number of deployments'],
    ['{"kind":"finish-dry-run","count":0}', 'its count is no number of deployments'],
    ['{"kind":"finish-dry-run","count":-1}', 'its count is no number of deployments'],
    ['{"kind":"finish-dry-run","count":2.5}', 'its count is no number of deployments'],
    ['{"kind":"nothing","note":7}', 'it gives no note'],
    [`{"kind":"nothing","note":"${'x'.repeat(1001)}"}`, 'it gives no note'],
    ['{"kind":"finish-dry-run","count":{"toString":1}}', 'its count is no number of deployments'],
    ['{"kind":"finish-dry-run","count":2,"ids":[".."]}', 'it holds a value that is no deployment id'],
  ])('state %s is unreadable: %s', (text, problem) => {
    expect(decodeHandoff(text)).toEqual({ unreadable: problem });
  });

  it('takes junk start times as unknown, not as a crash', () => {
    expect(decodeHandoff('{"kind":"finish","ids":[1],"startedAt":{"toString":1}}')).toMatchObject({ startedAt: 0 });
    for (const startedAt of ['0', '-5', '1e400', '-1e400']) {
      expect(decodeHandoff(`{"kind":"finish","ids":[1],"startedAt":${startedAt}}`)).toMatchObject({ startedAt: 0 });
    }
    expect(decodeHandoff('{"kind":"finish","ids":[1],"startedAt":0.5}')).toMatchObject({ startedAt: 0.5 });
    expect(decodeHandoff('{"kind":"finish","ids":[1],"startedAt":"soon"}')).toEqual({
      dryRun: false,
      ids: [{ text: '1', numeric: true }],
      startedAt: 0,
    });
  });
});
