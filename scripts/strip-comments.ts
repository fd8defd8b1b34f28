// Comments out of the bundle: dist/ is read by machines, and the bundled packages' comments (undici's
// above all) were a sixth of it. Our own code is compiled without comments (src/tsconfig.json); this
// takes them out of what the bundler copies from node_modules. Legal comments (`/*!`, @license,
// @preserve) stay; every package's license is in dist/licenses.txt as well.
//
// Safe by construction and checked: comments are found by a real parser (acorn), a comment alone on
// its line goes with its line, any other becomes a space, or a line break where it held one (a line
// break decides where JavaScript inserts semicolons). The result must have the same tokens, with a
// line break between the same two tokens, as the input: that is the same program. Else this throws.
import { parse, type Comment, type Token } from 'acorn';

const LEGAL = /^\/\*!|@license|@preserve/;
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** `code` (a CommonJS script) without its comments; throws if the result were another program. */
export function stripComments(code: string): string {
  const comments: Comment[] = [];
  const before = tokensOf(code, comments);
  let result = '';
  let at = 0;
  for (const { start, end } of comments) {
    const text = code.slice(start, end);
    if (LEGAL.test(text)) continue;
    const lineStart = code.lastIndexOf('\n', start - 1) + 1;
    const newline = code.indexOf('\n', end);
    const lineEnd = newline < 0 ? code.length : newline + 1;
    const alone =
      lineStart >= at && /^[ \t]*$/.test(code.slice(lineStart, start)) && /^[ \t]*\n?$/.test(code.slice(end, lineEnd));
    if (alone) {
      result += code.slice(at, lineStart);
      at = lineEnd;
    } else {
      result += code.slice(at, start) + (LINE_BREAK.test(text) ? '\n' : ' ');
      at = end;
    }
  }
  result += code.slice(at);
  const after = tokensOf(result, []);
  if (!sameProgram(code, before, result, after)) throw new Error('stripComments: the result is another program');
  return result;
}

function tokensOf(code: string, comments: Comment[]): Token[] {
  const tokens: Token[] = [];
  parse(code, {
    ecmaVersion: 'latest',
    sourceType: 'script',
    allowReturnOutsideFunction: true,
    allowHashBang: true,
    onComment: comments,
    onToken: tokens,
  });
  return tokens;
}

/** The same tokens, and a line break between the same neighbours (where a semicolon may be inserted). */
function sameProgram(code: string, before: Token[], result: string, after: Token[]): boolean {
  if (before.length !== after.length) return false;
  return before.every((token, index) => {
    const other = after[index] as Token;
    if (code.slice(token.start, token.end) !== result.slice(other.start, other.end)) return false;
    const next = before[index + 1];
    const otherNext = after[index + 1];
    if (!next || !otherNext) return true;
    return (
      LINE_BREAK.test(code.slice(token.end, next.start)) === LINE_BREAK.test(result.slice(other.end, otherNext.start))
    );
  });
}
