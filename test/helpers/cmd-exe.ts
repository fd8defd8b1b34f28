// A model of how cmd.exe reads a command line, as far as it decides what runs, after the phases
// jeb and dbenham found by experiment ("How does the Windows Command Interpreter (CMD.EXE) parse
// scripts?"), and of how a program built with Microsoft's C runtime splits its command line into
// arguments. Enough to check, on any OS, that what the CLI hands cmd.exe runs one command and gives
// the batch file's program back the arguments it was given. Where the model is unsure it errs on the
// side of finding a second command.

type Env = Record<string, string>;

/** What cmd.exe read: the text left once carets and percents are done, and the operators it found. */
export interface CmdReading {
  text: string;
  /** `&`, `|`, `<`, `>` or a line break outside quotes and unescaped: a second command, or a redirection. */
  operators: string[];
}

/**
 * Phase 1 on a command line (`cmd /c`): `%name%` and `%name:~start,length%` expand where `name` is
 * a variable (names read in any case); anything else is left as it is, and the scan goes on from
 * the character after the `%` (so that its closing `%` may open another variable).
 */
export function percentOnCommandLine(line: string, env: Env): string {
  let out = '';
  for (let i = 0; i < line.length;) {
    const end = line[i] === '%' ? line.indexOf('%', i + 1) : -1;
    const value = end > i ? expand(line.slice(i + 1, end), env) : undefined;
    if (value === undefined) {
      out += line[i];
      i += 1;
    } else {
      out += value;
      i = end + 1;
    }
  }
  return out;
}

function expand(spec: string, env: Env): string | undefined {
  const [name = '', modifier] = spec.split(/:(.*)/s);
  const key = Object.keys(env).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  if (name === '' || key === undefined) return undefined;
  const value = env[key] ?? '';
  if (modifier === undefined) return value;
  const substring = /^~(-?\d*),(-?\d*)$/.exec(modifier);
  // Other modifiers (replacements): the whole value, the harsher guess.
  if (!substring) return value;
  const from = Number(substring[1] || '0');
  const start = from < 0 ? Math.max(0, value.length + from) : from;
  const length = Number(substring[2] || '0');
  return value.slice(start, length < 0 ? value.length + length : start + length);
}

/** Phase 2: quotes toggle, `^` escapes the next character outside them, and operators are found. */
export function specialCharacters(line: string): CmdReading {
  let text = '';
  const operators: string[] = [];
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === '^') {
      i += 1;
      text += line[i] ?? '';
      continue;
    } else if (!quoted && /[&|<>\n]/.test(char)) operators.push(char);
    text += char;
  }
  return { text, operators };
}

/** The arguments a program built with Microsoft's C runtime (2008 and later) reads from `line`. */
export function crtArguments(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  const blank = () => line[i] === ' ' || line[i] === '\t';
  for (;;) {
    while (i < line.length && blank()) i++;
    if (i >= line.length) return args;
    let arg = '';
    let quoted = false;
    while (i < line.length && (quoted || !blank())) {
      const char = line[i];
      if (char === '\\') {
        let end = i;
        while (line[end] === '\\') end++;
        const count = end - i;
        if (line[end] === '"') {
          arg += '\\'.repeat(Math.floor(count / 2));
          // An odd backslash escapes the quote; an even run leaves it to open or close.
          if (count % 2 === 1) {
            arg += '"';
            end += 1;
          }
        } else {
          arg += '\\'.repeat(count);
        }
        i = end;
      } else if (char === '"') {
        // Inside quotes, `""` is one literal quote, and the quoting goes on.
        if (quoted && line[i + 1] === '"') {
          arg += '"';
          i += 2;
        } else {
          quoted = !quoted;
          i += 1;
        }
      } else {
        arg += char;
        i += 1;
      }
    }
    args.push(arg);
  }
}

/**
 * What happens to `cmd.exe /c "<line>"` starting a batch file that passes its arguments on with
 * `%*` (as npm.cmd does: `node npm-cli.js %*`): cmd.exe's reading of the line, the batch file's
 * reading of its own line, and the arguments its program gets.
 */
export function runBatch(line: string, env: Env): { outer: CmdReading; inner: CmdReading; args: string[] } {
  const outer = specialCharacters(percentOnCommandLine(line, env));
  // The batch file's own name is the first, quoted, token; `%*` is the rest of the line as read.
  const script = /^"[^"]*"/.exec(outer.text)?.[0] ?? '';
  const star = outer.text.slice(script.length).replace(/^ /, '');
  // Phase 1 in a batch file puts `%*` in place without scanning what it put there again.
  const inner = specialCharacters(`node npm-cli.js ${star}`);
  return { outer, inner, args: crtArguments(inner.text).slice(2) };
}
