// Each face hands the core its own words (src/core/words.ts): the core's messages hold none of a
// face's terms, so that a new face adds one Words object and nothing else.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ACTION_WORDS } from '../../src/action/words.ts';
import { CLI_WORDS, cliWords, RUN_WORDS } from '../../src/cli/source.ts';
import type { Words } from '../../src/core/words.ts';
import { ROOT } from '../helpers/run-action.ts';

const CORE = join(ROOT, 'src', 'core');

/** Every string and template text written in the core's code (its comments aside). */
function coreStrings(): string[] {
  return readdirSync(CORE)
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) => {
      const source = ts.createSourceFile(name, readFileSync(join(CORE, name), 'utf8'), ts.ScriptTarget.Latest);
      const found: string[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text);
        ts.forEachChild(node, visit);
      };
      visit(source);
      return found;
    });
}

/** A face's own terms: its phrases, and how it names and assigns a setting (the product's name aside). */
function termsOf(words: Words): string[] {
  const phrases = Object.values(words).filter((value): value is string => typeof value === 'string');
  return [...phrases, words.setting('retries'), words.assignment('retries', '2')].filter(
    (term) => term.length > 7 && term !== 'report-deployment',
  );
}

describe("the faces' words", () => {
  it("the core's code holds none of them: each face hands its own", () => {
    const strings = coreStrings();
    const faces = { action: ACTION_WORDS, cli: CLI_WORDS, run: RUN_WORDS, cliFromEnv: cliWords('DEPLOY_TRACKER_URL') };
    const held = Object.entries(faces).flatMap(([face, words]) =>
      termsOf(words)
        .filter((term) => strings.some((text) => text.includes(term)))
        .map((term) => `${face}: ${term}`),
    );

    expect(strings.length).toBeGreaterThan(100);
    expect(held).toEqual([]);
  });
});
