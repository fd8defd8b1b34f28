import { describe, expect, it } from 'vitest';
import { idFromJson, idProblem, idsJson } from '../../src/core/ids.ts';
import { JsonNumber, parseJsonLosslessly } from '../../src/core/json.ts';
import { deploymentsText } from '../../src/core/outcome.ts';

describe('ids kept exactly', () => {
  it('parses numbers without losing a digit, and writes them back the same', () => {
    const parsed = parseJsonLosslessly('{"success":true,"id":9007199254740993,"n":[1.50,2e3]}') as Record<
      string,
      unknown
    >;
    expect(idFromJson(parsed.id)).toEqual({ text: '9007199254740993', numeric: true });
    expect(parsed.success).toBe(true);
    expect(JSON.stringify(parsed)).toBe('{"success":true,"id":9007199254740993,"n":[1.50,2e3]}');
    expect(String(new JsonNumber('12'))).toBe('12');
  });

  it('takes strings and numbers as ids, nothing else', () => {
    expect(idFromJson('a1')).toEqual({ text: 'a1', numeric: false });
    expect(idFromJson(null)).toBeUndefined();
    expect(idFromJson({})).toBeUndefined();
    expect(idFromJson(true)).toBeUndefined();
  });

  it('writes the deployment-ids output as the service gave them', () => {
    expect(
      idsJson([
        { text: '9007199254740993', numeric: true },
        { text: 'a"b', numeric: false },
      ]),
    ).toBe('[9007199254740993,"a\\"b"]');
    expect(idsJson([])).toBe('[]');
  });

  it('says "deployment" or "deployments"', () => {
    expect(deploymentsText([{ text: '7', numeric: true }])).toBe('deployment 7');
    expect(
      deploymentsText([
        { text: '7', numeric: true },
        { text: 'x', numeric: false },
      ]),
    ).toBe('deployments 7, x');
  });
});

describe('idProblem', () => {
  it.each([
    ['1', undefined],
    ['3f2c9a1e-8b7d-4c6e-9f0a-1b2c3d4e5f60', undefined],
    ['a/b c', undefined],
    ['x'.repeat(128), undefined],
    ['', 'is empty'],
    ['  ', 'is empty'],
    ['x'.repeat(129), 'is 129 characters long (at most 128)'],
    ['1\n::error::x', 'holds control characters'],
    ['1\r2', 'holds control characters'],
    ['a\u202eb', 'holds control characters'],
    ['a\u2028b', 'holds control characters'],
    ['.', "is '.', which is no deployment but a path"],
    ['..', "is '..', which is no deployment but a path"],
    ['a\ud800b', 'is not valid Unicode text'],
    [' a-b', 'has white space at its ends, which a later job would not read back'],
    ['a-b\u00a0', 'has white space at its ends, which a later job would not read back'],
    ['7,8', 'holds a comma, which a later job would read as two ids'],
    ['[7]', "starts with '[', which a later job would read as a JSON array"],
    ['a[7]', undefined],
  ])('%j: %s', (text, problem) => {
    expect(idProblem(text)).toBe(problem);
  });
});
