// How a command is found and started on Windows, as cmd and PowerShell users expect, with no shell
// between the CLI and the command where none is needed. Pure, so that it is tested on any OS.
// - Found through PATH and PATHEXT (`npm` is npm.cmd), in PATH's folders only: not in the current
//   folder first as cmd.exe does (PowerShell does not either), so that a checkout's own `git.cmd`
//   never stands in for git. `.\deploy` finds deploy.cmd there, as in cmd.
// - An .exe or .com starts directly (Node quotes its arguments for it).
// - Anything else (a .cmd or .bat above all) only starts through cmd.exe, which Node refuses to do
//   unasked since CVE-2024-27980: every argument is then written so that neither cmd.exe nor the
//   batch file's own `%*` (npm.cmd passes its arguments on with it) ever reads a second command or a
//   variable in it. The rules are Rust's (std's make_bat_command_line after CVE-2024-24576): quote
//   any argument holding more than letters, digits and `#$*+-./:?@\_`, write a `"` inside as `""`,
//   a `%` as `%%cd:~,%` (an empty substring of %cd% between the `%` and the rest), and refuse a line
//   break, which no quoting carries through cmd.exe. cross-spawn's caret escaping protects the first
//   reading only: in the batch file's `%*`, an argument holding `"` then `&` runs a second command.

/** How to start the command: a program and its arguments, the latter as a command line of their own when `verbatim`. */
interface WindowsStart {
  file: string;
  args: string[];
  /** The arguments are already a command line (cmd.exe's): Node must not quote them again. */
  verbatim: boolean;
}

/** A command cmd.exe cannot be given safely: its reason, for the log. */
export class UnsafeForCmd extends Error {}

type Env = Record<string, string | undefined>;

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** `name` in `env` as Windows reads it: the case of a variable's name does not matter. */
export function envValue(env: Env, name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.entries(env).find(([key]) => key.toLowerCase() === lower)?.[1];
}

/**
 * The file `command` names: as given where it holds a folder, else in the first folder of PATH
 * holding it, each with the PATHEXT extensions tried after it (before them where it has one of its
 * own). Throws ENOENT where there is none.
 */
export function findOnWindows(command: string, env: Env, isFile: (path: string) => boolean): string {
  const extensions = (envValue(env, 'PATHEXT') ?? DEFAULT_PATHEXT).split(';').filter((ext) => ext !== '');
  const tried = /\.[^.\\/]+$/.test(command) ? ['', ...extensions] : extensions;
  const folders = /[\\/]|^[A-Za-z]:/.test(command)
    ? ['']
    : (envValue(env, 'PATH') ?? '')
        .split(';')
        .map((folder) => folder.replace(/^"(.*)"$/, '$1'))
        .filter((folder) => folder !== '');
  for (const folder of folders) {
    const base = folder === '' ? command : `${folder.replace(/[\\/]+$/, '')}\\${command}`;
    for (const ext of tried) {
      if (isFile(base + ext)) return base + ext;
    }
  }
  throw Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' });
}

/** How to start `file` (findOnWindows's) with `args`. Throws UnsafeForCmd for an argument cmd.exe cannot carry. */
export function windowsStart(file: string, args: readonly string[], env: Env): WindowsStart {
  if (/\.(?:exe|com)$/i.test(file)) return { file, args: [...args], verbatim: false };
  if (/["\r\n\0]|\\$/.test(file)) throw new UnsafeForCmd(`cmd.exe cannot start a file named '${file}'`);
  const line = [`"${file}"`, ...args.map(batchArgument)].join(' ');
  // /d: no AutoRun command of the registry; /e:ON for the %cd:~,% substring; /v:OFF: `!` is text.
  return {
    file: envValue(env, 'ComSpec') ?? 'cmd.exe',
    args: ['/e:ON', '/v:OFF', '/d', '/c', `"${line}"`],
    verbatim: true,
  };
}

/** One argument of a batch file, as cmd.exe and then the batch file's `%*` read it back. */
export function batchArgument(arg: string): string {
  if (/[\r\n\0]/.test(arg)) {
    throw new UnsafeForCmd('an argument holds a line break, which cmd.exe cannot pass to a batch file');
  }
  const quoted = arg === '' || arg.endsWith('\\') || /[^A-Za-z0-9#$*+\-./:?@\\_\u0080-\uffff]|[\p{Cc}]/u.test(arg);
  let text = '';
  let backslashes = 0;
  for (const char of arg) {
    if (char === '\\') {
      backslashes += 1;
    } else {
      // Backslashes before a `"` are doubled, and the `"` written `""`.
      if (char === '"') text += '\\'.repeat(backslashes) + '"';
      else if (char === '%') text += '%%cd:~,';
      backslashes = 0;
    }
    text += char;
  }
  // Backslashes before the closing quote are doubled too.
  return quoted ? `"${text}${'\\'.repeat(backslashes)}"` : text;
}
