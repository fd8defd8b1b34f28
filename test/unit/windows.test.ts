// Finding and starting `run`'s command on Windows, tested on any OS with the platform injected: PATH
// and PATHEXT as cmd and PowerShell read them, and every argument of a batch file written so that
// neither cmd.exe nor the batch file's own `%*` ever reads a second command in it, whatever it holds
// (a model of cmd.exe's reading: test/helpers/cmd-exe.ts), while its program gets the argument back as it was.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchArgument, envValue, findOnWindows, UnsafeForCmd, windowsStart } from '../../src/cli/windows.ts';
import { crtArguments, percentOnCommandLine, runBatch, specialCharacters } from '../helpers/cmd-exe.ts';

const FILES = new Set([
  // npm's own folder holds `npm`, a shell script for Git Bash, beside npm.cmd.
  'C:\\Program Files\\nodejs\\npm',
  'C:\\x.y\\run',
  'C:\\x.y\\run.cmd',
  'C:deploy.cmd',
  'release.cmd',
  'C:\\Tools\\deploy.exe',
  'C:\\Program Files\\nodejs\\npm.cmd',
  'C:\\Program Files\\nodejs\\node.exe',
  'C:\\Scripts\\deploy.bat',
  'C:\\Scripts\\deploy.sh',
  'C:\\work\\.\\release.cmd',
  'C:\\work\\build\\tool.CMD',
]);
// Windows' file systems ignore case.
const isFile = (path: string) => [...FILES].some((file) => file.toLowerCase() === path.toLowerCase());
const ENV = { Path: 'C:\\Tools;"C:\\Program Files\\nodejs";C:\\Scripts\\', PATHEXT: '.COM;.EXE;.BAT;.CMD' };

describe('findOnWindows', () => {
  it.each([
    ['npm', 'C:\\Program Files\\nodejs\\npm.CMD'],
    ['node', 'C:\\Program Files\\nodejs\\node.EXE'],
    ['deploy', 'C:\\Tools\\deploy.EXE'],
    ['deploy.bat', 'C:\\Scripts\\deploy.bat'],
    ['deploy.sh', 'C:\\Scripts\\deploy.sh'],
    ['C:\\work\\.\\release', 'C:\\work\\.\\release.CMD'],
    ['C:\\work\\build\\tool.CMD', 'C:\\work\\build\\tool.CMD'],
  ])('%s is %s', (command, file) => {
    expect(findOnWindows(command, ENV, isFile)).toBe(file);
  });

  it('reads PATH and PATHEXT in any case, and PATHEXT’s own default without it', () => {
    expect(findOnWindows('npm', { PATH: 'C:\\Program Files\\nodejs' }, isFile)).toBe(
      'C:\\Program Files\\nodejs\\npm.CMD',
    );
    expect(findOnWindows('node', { path: 'C:\\Program Files\\nodejs', pathExt: '.exe' }, isFile)).toBe(
      'C:\\Program Files\\nodejs\\node.exe',
    );
    expect(() => findOnWindows('npm', { path: 'C:\\Program Files\\nodejs', pathExt: '.exe' }, isFile)).toThrow();
  });

  it.each([
    ['a name on no folder of PATH', 'missing', ENV],
    ['a file of the current folder (never searched, as in PowerShell)', 'release', { ...ENV, Path: '' }],
    ['an extension PATHEXT does not list', 'deploy', { Path: 'C:\\Scripts', PATHEXT: '.EXE' }],
  ])('throws ENOENT for %s', (_, command, env) => {
    expect(() => findOnWindows(command, env, isFile)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it.each([
    [
      'an empty PATHEXT entry never tries the name alone',
      'npm',
      { Path: 'C:\\Program Files\\nodejs', PATHEXT: ';.EXE;.CMD;' },
      'C:\\Program Files\\nodejs\\npm.CMD',
    ],
    ['a dot in a folder is no extension', 'C:\\x.y\\run', ENV, 'C:\\x.y\\run.CMD'],
    ['a drive-relative name is a path', 'C:deploy', ENV, 'C:deploy.CMD'],
    ['a PATH entry’s trailing separators', 'deploy.bat', { Path: 'C:\\Scripts\\\\' }, 'C:\\Scripts\\deploy.bat'],
  ])('%s', (_, command, env, file) => {
    expect(findOnWindows(command, env, isFile)).toBe(file);
  });

  it('an empty PATH entry is not the current folder', () => {
    expect(() => findOnWindows('release', { Path: ';C:\\Tools;' }, isFile)).toThrow(
      expect.objectContaining({ code: 'ENOENT', message: 'spawn release ENOENT' }),
    );
  });

  it('envValue reads a variable’s name in any case', () => {
    expect(envValue({ ComSpec: 'C:\\Windows\\system32\\cmd.exe' }, 'COMSPEC')).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(envValue({}, 'ComSpec')).toBeUndefined();
  });
});

describe('windowsStart', () => {
  it('starts an .exe or .com directly: Node quotes its arguments', () => {
    expect(windowsStart('C:\\Tools\\deploy.exe', ['a b', '"c"'], ENV)).toEqual({
      file: 'C:\\Tools\\deploy.exe',
      args: ['a b', '"c"'],
      verbatim: false,
    });
    expect(windowsStart('C:\\T\\x.COM', [], ENV).verbatim).toBe(false);
  });

  it('starts a batch file through cmd.exe (ComSpec), with no AutoRun, extensions on, delayed expansion off', () => {
    const start = windowsStart('C:\\Program Files\\nodejs\\npm.cmd', ['run', 'deploy'], {
      COMSPEC: 'C:\\Windows\\System32\\cmd.exe',
    });
    expect(start).toEqual({
      file: 'C:\\Windows\\System32\\cmd.exe',
      args: ['/e:ON', '/v:OFF', '/d', '/c', '""C:\\Program Files\\nodejs\\npm.cmd" run deploy"'],
      verbatim: true,
    });
    expect(windowsStart('C:\\x\\y.bat', [], {}).file).toBe('cmd.exe');
  });

  it.each([
    ['a line break', ['a\nb']],
    ['a carriage return', ['a\rb']],
    ['a NUL', ['a\0b']],
  ])('refuses an argument holding %s: cmd.exe cannot carry it to a batch file', (_, args) => {
    expect(() => windowsStart('C:\\x\\y.cmd', args, {})).toThrow(UnsafeForCmd);
  });

  it.each(['C:\\a"b\\y.cmd', 'C:\\x\\y\\'])('refuses a batch file named %s', (file) => {
    expect(() => windowsStart(file, [], {})).toThrow(new UnsafeForCmd(`cmd.exe cannot start a file named '${file}'`));
  });

  it('an .exe inside a name is no .exe: tool.exe.cmd is a batch file', () => {
    expect(windowsStart('C:\\x\\tool.exe.cmd', [], {}).verbatim).toBe(true);
  });
});

describe('batchArgument', () => {
  it.each([
    ['deploy', 'deploy'],
    ['--env=prod', '"--env=prod"'],
    ['C:\\path\\x', 'C:\\path\\x'],
    ['', '""'],
    ['a b', '"a b"'],
    ['a"b', '"a""b"'],
    ['a\\"b', '"a\\\\""b"'],
    ['ends\\', '"ends\\\\"'],
    ['100%', '"100%%cd:~,%"'],
    ['é', 'é'],
    ['a&calc', '"a&calc"'],
  ])('%j is written %j', (arg, written) => {
    expect(batchArgument(arg)).toBe(written);
  });
});

/** A line as windowsStart gives it to cmd.exe: inside `/c "…"`, whose outer quotes cmd.exe strips. */
function lineFor(args: string[]): string {
  const command = windowsStart('C:\\Program Files\\nodejs\\npm.cmd', args, {}).args.at(-1) as string;
  return command.slice(1, -1);
}

describe('no argument ever runs a second command through cmd.exe, and every one arrives as it was', () => {
  // Characters cmd.exe, the batch file or the C runtime read specially, variables (A always holds an
  // operator), and the rest of Unicode.
  const special = fc.constantFrom(
    ...'"\\%^&|<>()!:~, \t=;@*?$#\u0085\u00a0é'.split(''),
    '%A%',
    '%cd%',
    '%%',
    '%A:~0,1%',
  );
  const argument = fc.string({ unit: fc.oneof(special, fc.string({ unit: 'grapheme', maxLength: 1 })), maxLength: 12 });
  const hostileEnv = fc
    .dictionary(
      fc.stringMatching(/^[A-Za-z_]{1,6}$/),
      fc.string({ unit: fc.constantFrom(...'&|<>"^% a'.split('')), maxLength: 6 }),
    )
    .map((env) => ({ ...env, A: '&calc', cd: 'C:\\work' }));

  it('holds for any arguments and any environment (cmd.exe’s own %cd% included)', () => {
    fc.assert(
      fc.property(
        fc.array(
          argument.filter((arg) => !/[\r\n\0]/.test(arg)),
          { maxLength: 5 },
        ),
        hostileEnv,
        (args, env) => {
          const { outer, inner, args: received } = runBatch(lineFor(args), env);
          expect(outer.operators).toEqual([]);
          expect(inner.operators).toEqual([]);
          expect(received).toEqual(args);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('BatBadBut: a quote then `&` (what caret escaping lets through in the batch file’s %*) stays an argument', () => {
    for (const arg of ['a"&calc', '\\"&calc', '"&calc&"', '%PATH%&calc', '^"&calc']) {
      const { outer, inner, args } = runBatch(lineFor([arg]), { PATH: '&calc', cd: 'C:\\work' });
      expect([...outer.operators, ...inner.operators]).toEqual([]);
      expect(args).toEqual([arg]);
    }
  });
});

describe('the model of cmd.exe (test/helpers/cmd-exe.ts) finds what it must', () => {
  it('expands variables, and an undefined one is left as it is', () => {
    expect(percentOnCommandLine('a%X%b%Y%c', { x: '1' })).toBe('a1b%Y%c');
    expect(percentOnCommandLine('%%cd:~,%', { cd: 'C:\\w' })).toBe('%');
    expect(percentOnCommandLine('%cd:~1,2%', { cd: 'C:\\w' })).toBe(':\\');
  });

  it('finds an operator outside quotes, not inside them nor after a caret', () => {
    expect(specialCharacters('a & b').operators).toEqual(['&']);
    expect(specialCharacters('"a & b"').operators).toEqual([]);
    expect(specialCharacters('a ^& b')).toEqual({ text: 'a & b', operators: [] });
    expect(specialCharacters('"a\\"&calc"').operators).toEqual(['&']);
  });

  it('reads arguments as the C runtime does', () => {
    expect(crtArguments('p "a b" c\\\\"d e" "x""y" \\"q')).toEqual(['p', 'a b', 'c\\d e', 'x"y', '"q']);
  });
});
