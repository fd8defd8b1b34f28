// Hostile values for the property tests of both faces: text built to hurt (line breaks, workflow
// commands, markup, escapes, odd Unicode; sometimes long), and the key they must never show.
import fc from 'fast-check';

export const KEY = 'k3y-"\\é-5f2b9c';
/** The key as services escape it, beyond what the log names: HTML's named entities, upper-case \\u escapes. */
export const ESCAPED_KEYS = [
  KEY.replace('"', '&quot;'),
  JSON.stringify(KEY).slice(1, -1).replace('é', '\\u00E9'),
  KEY.replace('"', '&amp;quot;'),
];

const FRAGMENTS = [
  '\n',
  '\r',
  '\r\n',
  '\u0085',
  '\u2028',
  '\u202e',
  '\u001b[31m',
  '\t',
  '::',
  '::error::pwned',
  '::add-mask::x',
  '::stop-commands::t0k',
  '::t0k::',
  '::set-output name=a::b',
  '##[add-mask]x',
  '##[error]y',
  '%',
  '%0A',
  '%25',
  '<',
  '>',
  '&',
  '"',
  "'",
  '<img src=x>',
  '\n\n# Heading\n\n',
  '![b](https://evil.example/b.png)',
  '\\',
  '\ud800',
  '\udfff',
  'é',
  '😀',
  '..',
  '.',
  '/',
  '?',
  '#',
  ' ',
];

/** Text built to hurt: line breaks, workflow commands, markup, escapes, odd Unicode; sometimes long. */
export function hostileText(extra: string[] = []): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...FRAGMENTS, ...extra) },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  );
  return fc.oneof(
    { weight: 8, arbitrary: fc.array(piece, { maxLength: 10 }).map((parts) => parts.join('')) },
    { weight: 1, arbitrary: fc.constantFrom(...FRAGMENTS, ...extra).map((text) => text.repeat(3000)) },
  );
}

/** What an environment variable can carry (no NUL, well-formed Unicode), as the runner passes an input. */
export const inputText = hostileText().map((text) => text.replaceAll('\0', '').toWellFormed());

/** An object whose own toString is no function: String() on it throws. */
export const poisoned = fc.constant({ toString: 1, valueOf: 2 });
