// The build's comment stripping (scripts/strip-comments.ts): comments out, the program unchanged.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { parse, type Comment } from 'acorn';
import { describe, expect, it } from 'vitest';
import { stripComments } from '../scripts/strip-comments.ts';
import { ROOT } from './helpers/run-action.ts';

describe('stripComments', () => {
  it('takes a comment alone on its line with its line, and leaves a space for one between tokens', () => {
    expect(stripComments('const a = 1;\n  // why\n  /**\n   * doc\n   */\nconst b = a/**/+/* x */2; // end\n')).toBe(
      'const a = 1;\nconst b = a + 2;  \n',
    );
  });

  it('keeps legal comments, and comment-like text in strings, templates and regular expressions', () => {
    const code = [
      '/*! keep */',
      '/* @license MIT */',
      'const s = "/* not */ // not";',
      'const t = `// not ${1 /* gone */} /* not */`;',
      'const r = /\\/\\/ not/g;',
      '',
    ].join('\n');
    expect(stripComments(code)).toBe(code.replace('1 /* gone */', '1  '));
  });

  it('keeps a line break a comment held where JavaScript inserts a semicolon there', () => {
    const code = 'module.exports = function f() { return /* a\n*/ 1 }';
    const stripped = stripComments(code);
    expect(stripped).toBe('module.exports = function f() { return \n 1 }');
    const run = (text: string): unknown => {
      const module = { exports: (): unknown => 'unset' };
      runInNewContext(text, { module });
      return module.exports();
    };
    expect(run(stripped)).toBe(run(code));
    expect(run(stripped)).toBeUndefined();
  });

  it('refuses what is not JavaScript', () => {
    expect(() => stripComments('const = ;')).toThrow(SyntaxError);
  });
});

describe('dist/', () => {
  it("holds no comment in the bundler's output but legal ones", () => {
    const dist = join(ROOT, 'dist');
    const bundle = readdirSync(dist).filter((file) => /^(\d+\.)?index\.js$/.test(file));
    expect(bundle).toContain('index.js');
    expect(bundle.length).toBeGreaterThan(1);
    for (const file of bundle) {
      const comments: Comment[] = [];
      parse(readFileSync(join(dist, file), 'utf8'), {
        ecmaVersion: 'latest',
        sourceType: 'script',
        allowReturnOutsideFunction: true,
        onComment: comments,
      });
      expect(comments.filter((comment) => !/^!|@license|@preserve/.test(comment.value))).toEqual([]);
    }
  });
});
