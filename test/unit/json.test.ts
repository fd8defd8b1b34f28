import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonText, parseJsonLosslessly } from '../../src/core/json.ts';

describe('jsonText', () => {
  it('is what JSON.stringify makes of any parsed JSON value', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const value: unknown = JSON.parse(text);
        expect(jsonText(value, Infinity)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('keeps the digits of a lossless number, and writes what JSON has no word for as null', () => {
    expect(jsonText(parseJsonLosslessly('[9007199254740993,1e400,"a"]'), Infinity)).toBe(
      '[9007199254740993,1e400,"a"]',
    );
    expect(jsonText([Infinity, undefined], Infinity)).toBe('[null,null]');
  });

  it('writes a value nested 100000 levels deep without recursion, and stops near its limit', () => {
    const deep: unknown = JSON.parse(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const text = jsonText(deep, 50);
    expect(text).toBe(`{"a":${'['.repeat(45)}`);
    expect(jsonText(deep, Infinity)).toHaveLength(200_006);
  });
});
