import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLog } from '../../src/action/log.ts';
import { looksLikeCommand, showControls } from '../../src/core/log.ts';
import { cleaner, holdsSecret, scrubber, secretForms } from '../../src/core/secret.ts';

let printed: string[];
beforeEach(() => {
  printed = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(
      ...String(chunk)
        .split(/\r?\n/)
        .filter((line) => line !== ''),
    );
    return true;
  });
  delete process.env.RUNNER_DEBUG;
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe('showControls', () => {
  it.each([
    ['plain', 'plain'],
    ['a\nb', 'a\\nb'],
    ['a\r\nb', 'a\\r\\nb'],
    ['tab\tstays', 'tab\tstays'],
    ['esc\u001b[31m', 'esc\\u001b[31m'],
    ['bidi\u202e', 'bidi\\u202e'],
    ['line\u2028sep', 'line\\u2028sep'],
    ['nul\u0000', 'nul\\u0000'],
    // A format character beyond the BMP (a language tag) in the \u{…} form.
    ['tag\u{E0041}', 'tag\\u{e0041}'],
  ])('%j -> %j', (text, shown) => {
    expect(showControls(text)).toBe(shown);
  });
});

describe('looksLikeCommand', () => {
  it.each([
    ['::error::x', true],
    ['   ::add-mask::x', true],
    ['\u3000::warning::x', true],
    ['text ##[add-mask]x', true],
    ['text :: not at start', false],
    ['##[ at start', true],
    ['plain', false],
  ])('%j: %s', (line, expected) => {
    expect(looksLikeCommand(line)).toBe(expected);
  });
});

describe('secretForms', () => {
  it('covers the key as is, JSON-escaped, URL-encoded and HTML-escaped, longest first', () => {
    expect(secretForms('k"é&')).toEqual([
      'k%22%C3%A9%26',
      'k&#34;é&#38;',
      'k\\"\\u00e9&',
      'k%22%E9%26',
      'k\\"é&',
      'k"é&',
    ]);
    expect(secretForms('')).toEqual([]);
  });

  it("covers the key's bytes percent-encoded in Latin-1 as well as UTF-8, and form-encoded", () => {
    expect(secretForms('é b~')).toEqual(expect.arrayContaining(['%C3%A9%20b~', '%E9%20b~', '%C3%A9+b%7E', '%E9+b%7E']));
    expect(scrubber('é b~')('key=%E9+b%7E&x=1')).toBe('key=***&x=1');
  });
});

describe('the key in forms no list names', () => {
  it.each([
    ['a named HTML entity', 'Ab&Cd-123', 'Invalid key Ab&amp;Cd-123'],
    ['&quot;', 'Ab"x-123', 'key Ab&quot;x-123 refused'],
    ['upper-case \\u escapes', 'Abé-123', 'key Ab\\u00E9-123'],
    ["PHP's \\/", 'Ab/Cd-123', 'key Ab\\/Cd-123'],
    ['escaped twice', 'Ab&Cd-123', 'key Ab&amp;amp;Cd-123'],
    ['URL-encoded in lower case', 'Abé-123', 'key=Ab%c3%a9-123'],
    ['Latin-1 percent-encoding in lower case', 'Abé-123', 'key=Ab%e9-123'],
    ['form-encoding of another kind (Python quote_plus)', 'Ab c~1', 'key=Ab+c~1'],
    ['HTML5 named entities beyond the five of XML', 'Ab_c.é$1', 'key Ab&lowbar;c&period;&eacute;&dollar;1'],
    ['an HTML5 named entity without its ;', 'Abé-123', 'key Ab&eacute-123'],
    ['an HTML5 named entity in a JSON string', 'Ab[c]-1', 'key Ab&lsqb;c&rsqb;-1'],
  ])('hides text that holds it in %s', (_, key, text) => {
    expect(scrubber(key)(text)).toBe('*** (not shown: it held the API key in an escaped form)');
  });

  // HTML's character references, each kind: the five named ones of XML, decimal and hexadecimal
  // references (hex digits in either case, `x` or `X`, leading zeros up to 7 decimal / 6 hex digits),
  // and code points beyond the BMP (a key as given is scrubbed even where it is refused).
  it.each([
    ['named', 'A<b>\'c&"d-1', 'key A&lt;b&gt;&apos;c&amp;&quot;d-1 refused'],
    ['&lt; alone', 'A<b-123', 'key A&lt;b-123'],
    ['&gt; alone', 'A>b-123', 'key A&gt;b-123'],
    ['&apos; alone', "A'b-123", 'key A&apos;b-123'],
    ['decimal', 'Ab<c-123', 'key &#65;&#98;&#60;c-123'],
    ['decimal, 7 digits', 'Ab<c-123', 'key A&#0000098;&#0000060;c-123'],
    ['hex in upper case', 'Ab<c-123', 'key &#x41;b&#X3C;c-123'],
    ['hex in lower case', 'Ab<c-123', 'key A&#x62;&#x3c;c-123'],
    ['hex, 6 digits', 'Ab<c-123', 'key A&#x000062;&#x00003C;c-123'],
    ['an astral code point in hex', 'Ab\u{1F600}-123', 'key Ab&#x1F600;-123'],
    ['an astral code point in lower-case hex', 'Ab\u{1F600}-123', 'key Ab&#x1f600;-123'],
    ['an astral code point in decimal', 'Ab\u{1F600}-123', 'key Ab&#128512;-123'],
    ['the last code point, U+10FFFF', 'Ab\u{10FFFF}-123', 'key Ab&#x10FFFF;-123 and Ab&#1114111;-123'],
  ])('hides the key written with %s character references', (_, key, text) => {
    expect(scrubber(key)(text)).toBe('*** (not shown: it held the API key in an escaped form)');
  });

  it('leaves a character reference beyond U+10FFFF as it is: neither thrown on nor read as another character', () => {
    // 0x110041 and 1114177 are 'A' (0x41) past the last code point: a reading that wraps would reveal the key.
    const text = 'key &#x110041;b-123, &#1114177;b-123, &#x110000; &#1114112; &#99999999;';
    expect(scrubber('Ab-123')(text)).toBe(text);
    expect(cleaner('Ab-123')(text)).toBe(text);
    expect(scrubber('Ab\u{10FFFF}-123')('key Ab&#x110000;-123')).toBe('key Ab&#x110000;-123');
  });

  it('leaves character references that do not spell the key as they are', () => {
    const text = 'Tom &lt;&amp;&gt; Jerry &apos;&quot; &#65;&#x42;&#X43; &#x1F600; A&#98;-12 b-123';
    expect(scrubber('Ab-123')(text)).toBe(text);
    expect(cleaner('Ab-123')(text)).toBe(text);
  });

  it("hides the key spelled by the log's own escaping: a key holding the text \\u0007, echoed with a raw BEL", () => {
    const key = 'Ab\\u0007Cd-123';
    const clean = cleaner(key);
    expect(scrubber(key)('key Ab\u0007Cd-123')).toBe('*** (not shown: it held the API key in an escaped form)');
    expect(clean('key Ab\u0007Cd-123')).toBe('key ***');
    expect(clean('bell \u0007, and Ab')).toBe('bell \\u0007, and Ab');
  });

  it('hides a key with a C1 control character wherever the log would show it', () => {
    const key = 'Ab\u0085Cd-123';
    expect(cleaner(key)('key Ab\u0085Cd-123 and Ab\\u0085Cd-123')).toBe('key *** and ***');
  });

  it('hides JSON that spells the key once unescaped and shown as the log shows it', () => {
    const key = 'A"b\\u0007Cd-123';
    expect(cleaner(key)(JSON.stringify({ key: 'A"b\u0007Cd-123' }))).toBe(
      '*** (not shown: it held the API key in an escaped form)',
    );
  });

  it('does not show a text that could be read in more ways than it tries (64)', () => {
    const readable = '%25E9 x %E9 x + x %252B x &amp;amp;';
    expect(scrubber('Aé b-123')(readable)).toBe(readable);
    expect(scrubber('Aé b-123')(`${readable} x \\\\\\\\u0007`)).toBe(
      '*** (not shown: it held the API key in an escaped form)',
    );
  });

  it('does not show a text read in exactly 64 ways, the text itself counted', () => {
    // Found by search: its distinct readings, itself included, are exactly 64 (the cap is reached, not passed).
    expect(scrubber('Aé b-123')('%E9 x + x &amp;amp; x \\\\u0041 x %2541')).toBe(
      '*** (not shown: it held the API key in an escaped form)',
    );
  });

  it('reads at most 4 escapings in a row: deeper ones of a text without the key count no reading against it', () => {
    // At 4 levels these readings stay under the 64 a text may have; read on, they would pass it.
    const readable = '%25E9 x %E9 x + x %252B x &amp;amp; &amp;amp;amp;amp;amp;';
    expect(scrubber('Aé b-123')(readable)).toBe(readable);
  });

  it('leaves text without the key as it is, entities and all', () => {
    expect(scrubber('Ab&Cd-123')('Tom &amp; Jerry %41 \\u0041')).toBe('Tom &amp; Jerry %41 \\u0041');
  });

  it('finds an id that holds a key of 6 characters or more in any form, a shorter key only as the whole id', () => {
    expect(holdsSecret('x-key-12345-y', 'key-12345')).toBe(true);
    expect(holdsSecret('key%2D12345', 'key-12345')).toBe(true);
    expect(holdsSecret('12', '1')).toBe(false);
    expect(holdsSecret('1', '1')).toBe(true);
    // Exactly 6 characters: found anywhere.
    expect(holdsSecret('x-key-12-y', 'key-12')).toBe(true);
    expect(holdsSecret('x-key-1-y', 'key-1')).toBe(false);
    // No key, no secret: not even an empty id.
    expect(holdsSecret('1', '')).toBe(false);
    expect(holdsSecret('', '')).toBe(false);
  });

  // A key that no header can carry (a line break, a form feed) is refused, but scrubbed as given.
  it('hides each line of a key, never an empty or blank one', () => {
    expect(scrubber('Ab-123\n')('hello Ab-123 x')).toBe('hello *** x');
    expect(scrubber('Ab-123\n  \nCd-456')('a  b, Cd-456')).toBe('a  b, ***');
  });

  it.each([
    ['\\b', 'A/b\bc/d-1', 'A\\/b\\bc\\/d-1'],
    ['\\f', 'A/b\fc/d-1', 'A\\/b\\fc\\/d-1'],
    ['\\n', 'A/b\nc/d-1', 'A\\/b\\nc\\/d-1'],
    ['\\r', 'A/b\rc/d-1', 'A\\/b\\rc\\/d-1'],
    ['\\t', 'A/b\tc/d-1', 'A\\/b\\tc\\/d-1'],
  ])("hides a key spelled with JSON's %s next to PHP's \\/", (_, key, text) => {
    expect(scrubber(key)(text)).toBe('*** (not shown: it held the API key in an escaped form)');
  });

  it('lists the percent-encodings of the key byte for byte', () => {
    // A byte below 0x10 is two hex digits (%09), and a form the list names is replaced in place.
    expect(scrubber('Ab\tcd-123')('x=Ab%09cd-123&y')).toBe('x=***&y');
    // A key wholly of Latin-1 letters: its Latin-1 bytes are a form too, and read twice over.
    expect(scrubber('ÀÉÎÕÜé')('k=%C0%C9%CE%D5%DC%E9&y')).toBe('k=***&y');
    expect(scrubber('ÀÉÎÕÜé')('k=%25C0%25C9%25CE%25D5%25DC%25E9')).toBe(
      '*** (not shown: it held the API key in an escaped form)',
    );
  });

  it('never takes the Latin-1 bytes of a character beyond Latin-1 for the key', () => {
    // Buffer's latin1 keeps only the low byte of '€' (U+20AC): %AC, which is '¬', not the key.
    expect(scrubber('Ab€-123')('Ab%AC-123')).toBe('Ab%AC-123');
    expect(scrubber('Abé€-1')('Ab%E9%AC-1')).toBe('Ab%E9%AC-1');
  });

  it('reads `+` as a space only for a key with a space, and also as itself', () => {
    expect(scrubber('a+b c-1')('key a+b%20c-1')).toBe('*** (not shown: it held the API key in an escaped form)');
    expect(scrubber('a+b-123')('key a+b%2d123')).toBe('*** (not shown: it held the API key in an escaped form)');
  });
});

describe('openLog', () => {
  it('masks the key first, then never prints it in any form', () => {
    const log = openLog('s3cr"et');
    log.info(['echo s3cr"et', 'json s3cr\\"et', 'url s3cr%22et']);
    log.warning('warn s3cr"et');
    expect(printed).toEqual([
      '::add-mask::s3cr&#34;et',
      '::add-mask::s3cr%2522et',
      '::add-mask::s3cr\\"et',
      '::add-mask::s3cr"et',
      'echo ***',
      'json ***',
      'url ***',
      '::warning::warn ***',
    ]);
  });

  it('prints a value as one line, and a line that looks like a command between stop-commands', () => {
    const log = openLog('');
    log.info(['id 1\n::error::injected', '::add-mask::x', 'x ##[set-output name=a]b']);
    expect(printed[0]).toBe('id 1\\n::error::injected');
    expect(printed[1]).toMatch(/^::stop-commands::[0-9a-f-]{36}$/);
    expect(printed[2]).toBe('::add-mask::x');
    expect(printed[3]).toBe(`::${printed[1]?.slice('::stop-commands::'.length)}::`);
    expect(printed[4]).toMatch(/^::stop-commands::/);
    expect(printed[4]).not.toBe(printed[1]);
    expect(printed[5]).toBe('x ##[set-output name=a]b');
  });

  it('escapes annotations as one command, several lines in its message', () => {
    const log = openLog('');
    log.warning(['first', 'second %0A\r']);
    log.fail('failed');
    expect(printed).toEqual(['::warning::first%0Asecond %250A\\r', '::error::failed']);
    expect(process.exitCode).toBe(1);
  });

  it('prints debug lines only with debug logging on', () => {
    const log = openLog('');
    log.debug('hidden');
    const made: string[] = [];
    log.debug(() => (made.push('hidden'), 'hidden'));
    process.env.RUNNER_DEBUG = '1';
    log.debug('shown');
    log.debug(() => (made.push('shown too'), ['shown too']));
    expect(printed).toEqual(['::debug::shown', '::debug::shown too']);
    // A debug line that costs to make (an answer cleaned of the key) is made only when it is shown.
    expect(made).toEqual(['shown too']);
  });
});
