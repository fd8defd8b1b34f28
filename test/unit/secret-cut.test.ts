// cutter: a long text (a service's 64 KiB answer) is cleaned only as far as its cut can show, with
// a margin, and still shows no part of the key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleaner, cutter, secretForms } from '../../src/core/secret.ts';
import { shorten } from '../../src/core/text.ts';

const KEY = 'k3y-5f2b9c-Secret';
const HIDDEN = '*** (not shown: it held the API key in an escaped form)';
/** What cutter reads of a text past the cut, for KEY: 64 × (its length + 16), twice. */
const READ_PAST_CUT = 2 * 64 * (KEY.length + 16);

describe('cutter', () => {
  const cut = cutter(KEY);
  const clean = cleaner(KEY);

  it('is clean-then-shorten for a text within what it reads', () => {
    for (const text of ['short', `a ${KEY} b`, 'x'.repeat(2000 + READ_PAST_CUT), `\u0007${KEY}`.repeat(50)]) {
      expect(cut(text, 2000, '…')).toBe(shorten(clean(text), 2000, '…'));
    }
  });

  it('cuts a long text where asked, with its mark, the key scrubbed', () => {
    const text = `${KEY} ${'x'.repeat(5000)} ${'y'.repeat(100_000)}`;
    expect(cut(text, 10, ' (cut)')).toBe('*** xxxxxx (cut)');
  });

  it('hides a form of the key that the cut itself splits', () => {
    const text = `${'x'.repeat(1995)}${encodeURIComponent(KEY)}${'y'.repeat(100_000)}`;
    expect(cut(text, 2000)).toBe(`${'x'.repeat(1995)}***yy…`);
  });

  it('hides an escaped form of the key before the cut, also in a long text', () => {
    const escaped = KEY.replace(/-/g, '&#45;');
    expect(cut(`key ${escaped} ${'y'.repeat(100_000)}`, 50)).toBe(HIDDEN);
  });

  it('reads no further than the margin past the cut: an escaped key far beyond it does not hide the text', () => {
    // What makes a long answer cheap: the key in the text's far end is never looked for, and never shown.
    const text = `${'x'.repeat(2000 + READ_PAST_CUT)} ${KEY.replace(/-/g, '&#45;')}`;
    expect(clean(text)).toBe(HIDDEN);
    expect(cut(text, 2000)).toBe(`${'x'.repeat(2000)}…`);
  });

  it('hides an escaped key that lies past the cut but within the margin', () => {
    const escaped = KEY.replace(/-/g, '&#45;');
    const text = `${'x'.repeat(3000)} ${escaped} ${'y'.repeat(100_000)}`;
    expect(cut(text, 2000)).toBe(HIDDEN);
  });

  it('never shows the head of a form of the key that the slice it reads cuts in two', () => {
    // The part read (2000 + READ_PAST_CUT characters) ends 16 characters into a copy of the key, and
    // the 301 copies before it shrink to *** so far that those 16 characters would come within the
    // cut: they are never shown, the whole text is cleaned instead.
    const head = `${KEY.repeat(301)}${'x'.repeat(1091)}${KEY.slice(0, 16)}`;
    expect(head).toHaveLength(2000 + READ_PAST_CUT);
    const text = `${head}${KEY.slice(16)}${'y'.repeat(100_000)}`;
    expect(cut(text, 2000)).toBe(`${'*'.repeat(903)}${'x'.repeat(1091)}***yyy…`);
  });

  it("cleans the whole text when the key's copies shrink the part read below the cut", () => {
    const text = `${`${KEY} `.repeat(500)}${'z'.repeat(100_000)}`;
    expect(cut(text, 2000)).toBe(`${'*** '.repeat(500)}…`);
  });

  it('never shows 6 characters of the key, wherever its forms stand in a long text (property)', () => {
    const forms = secretForms(KEY);
    const piece = fc.oneof(
      fc.constantFrom(...forms),
      fc.string({ maxLength: 40 }),
      fc.integer({ min: 1, max: 6000 }).map((length) => 'x'.repeat(length)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.integer({ min: 1, max: 3000 }), (pieces, max) => {
        const shown = cut(pieces.join(''), max);
        for (let at = 0; at + 6 <= KEY.length; at++) expect(shown).not.toContain(KEY.slice(at, at + 6));
      }),
      { numRuns: 200 },
    );
  });
});
