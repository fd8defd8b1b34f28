// Finding a command by its bare name on PATH, as a POSIX shell does (Windows: windows.ts).
import { accessSync, constants as fs, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

/**
 * A bare command name found on PATH as a shell finds it: the first executable file of that name. Done
 * here rather than by libuv, whose search never returns for a PATH entry of 4096 bytes or more (the
 * command would never start, and the CLI would wait on it for ever). A name with a slash is left to
 * spawn. Not found: ENOENT (127); found but not executable: EACCES (126).
 */
export function resolveCommand(command: string, path: string): string {
  if (command.includes('/')) return command;
  let denied = false;
  for (const dir of path.split(delimiter)) {
    const candidate = dir ? join(dir, command) : resolve(command);
    try {
      // A name longer than a file system takes fails here (ENAMETOOLONG): not where the command is.
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, fs.X_OK);
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EACCES') denied = true;
    }
  }
  throw Object.assign(new Error(`spawn ${command} ${denied ? 'EACCES' : 'ENOENT'}`), {
    code: denied ? 'EACCES' : 'ENOENT',
  });
}
