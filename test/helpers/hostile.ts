// Hostile values for the property tests of both faces: text built to hurt (line breaks, workflow
// commands and other CIs' logging commands, markup, escapes, odd Unicode; sometimes long), and the
// key they must never show.
import fc from 'fast-check';

// A key with what escapes differently everywhere: a quote, backslashes, a Latin-1 letter, a space, a
// plus, and the text `\u0007` (which a log's own escaping spells from a raw BEL).
export const KEY = 'k3y-"\\é 5f\\u0007+b9c';
/** Latin-1 percent-encoding of `text`, in lower case, everything but letters and digits encoded. */
const latin1Lower = (text: string) =>
  [...text].map((c) => (/[a-z0-9]/i.test(c) ? c : `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)).join('');
/**
 * The key as services escape it, beyond the forms the log names (secretForms): HTML's named
 * entities (also HTML5's, and escaped twice), upper-case \\u escapes, percent-encoding of its Latin-1
 * bytes in lower case, Python's quote_plus, and a raw BEL where the key holds the text `\u0007`.
 */
export const ESCAPED_KEYS = [
  KEY.replace('"', '&quot;'),
  JSON.stringify(KEY).slice(1, -1).replace('é', '\\u00E9'),
  KEY.replace('"', '&amp;quot;'),
  KEY.replace('"', '&QUOT;').replaceAll('\\', '&bsol;').replace('é', '&eacute').replace('+', '&plus;'),
  latin1Lower(KEY),
  'k3y-%22%5C%C3%A9+5f%5Cu0007%2Bb9c',
  KEY.replace('\\u0007', '\u0007'),
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
  // Azure Pipelines' and TeamCity's logging commands, whole and in parts: the agents find them
  // anywhere in a line; Azure's also with ignorable characters (a combining grapheme joiner) inside,
  // not in upper case.
  '##vso[task.setvariable variable=x]y',
  '##vso[task.complete result=Failed]',
  '##VSO[task.setsecret]z',
  "##teamcity[buildStatus status='FAILURE']",
  '##vso',
  '##teamcity',
  '[',
  '\u034f',
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

/** Text built to hurt: line breaks, CI commands, markup, escapes, odd Unicode; sometimes long. */
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

/** Every text field of a deployment, by its setting's name (the action's input, the CLI's flag), each hostile. */
export const hostileFields = fc.record({
  version: inputText,
  environment: inputText,
  branch: inputText,
  user: inputText,
  'commit-sha': inputText,
  changelog: inputText,
  description: inputText,
  link: inputText,
  'artifact-name': inputText,
});

/** An object whose own toString is no function: String() on it throws. */
export const poisoned = fc.constant({ toString: 1, valueOf: 2 });
