// The tests' API keys look like real ones. The log masks every occurrence of the key: with the key
// `k`, every k of an output is masked, so a message that quotes a random folder's name fails now and
// then, and a check that the key is never shown checks nothing (issue 31).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/run-action.ts';

/** A key of one to three characters, as a setting, an input, a variable, a header or a flag. */
const TINY_KEY = /(?:\bapiKey|API_KEY|'api-key'|'x-api-key'): '[^']{1,3}'|--api-key=[^'\s]{1,3}'/g;

const testFiles = () =>
  readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.startsWith('fixtures') && path !== 'keys.test.ts')
    .map((path) => join('test', path));

describe('the API keys of the tests', () => {
  it('are none of one to three characters', () => {
    const tiny = testFiles().flatMap((path) =>
      [...readFileSync(join(ROOT, path), 'utf8').matchAll(TINY_KEY)].map((match) => `${path}: ${match[0]}`),
    );
    expect(tiny).toEqual([]);
  });

  it('the check finds each form', () => {
    const forms = [
      "apiKey: 'k'",
      "DEPLOY_TRACKER_API_KEY: 'key'",
      "'api-key': 'k'",
      "'x-api-key': 'k'",
      "'--api-key=k'",
    ];
    expect(forms.map((form) => form.match(TINY_KEY)?.length)).toEqual([1, 1, 1, 1, 1]);
    expect("apiKey: 'rd-test-key-5d1c0f6a9b2e', 'api-key': ''".match(TINY_KEY)).toBeNull();
  });
});
