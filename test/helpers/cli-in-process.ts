// Runs the CLI's main() from src/ inside the test process, its stdout and stderr captured: for
// property tests and tables (milliseconds a run). The end-to-end tests judge the packed CLI
// (test/helpers/run-cli.ts).
import { main } from '../../src/cli/index.ts';
import { readRunnerOutput, type RunnerCommand } from './runner-commands.ts';

export interface InProcessCliResult {
  exitCode: number;
  /** The stop signal main() would end the process by (a run whose command died of it). */
  signal: string | undefined;
  stdout: string;
  stderr: string;
  commands: RunnerCommand[];
  durationMs: number;
}

export async function runCliInProcess(argv: string[], env: Record<string, string>): Promise<InProcessCliResult> {
  const { stdout: out, stderr: err } = process;
  const saved = { out: out.write.bind(out), err: err.write.bind(err), exitCode: process.exitCode };
  let stdout = '';
  let stderr = '';
  const started = performance.now();
  try {
    process.exitCode = undefined;
    // As a stream does: a write's callback once it is handed over (main waits for the output's last).
    out.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
      stdout += String(chunk);
      const done = rest.find((argument) => typeof argument === 'function') as (() => void) | undefined;
      if (done) queueMicrotask(done);
      return true;
    };
    err.write = (chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    };
    // The exit code as main() sets it, and the signal it would end by; the test process goes on.
    let signal: string | undefined;
    await main('0.0.0-test', argv, env, (_code, by) => void (signal = by));
    const exitCode = typeof process.exitCode === 'number' ? process.exitCode : 0;
    const commands = [...readRunnerOutput(stdout).commands, ...readRunnerOutput(stderr).commands];
    return { exitCode, signal, stdout, stderr, commands, durationMs: performance.now() - started };
  } finally {
    out.write = saved.out;
    err.write = saved.err;
    process.exitCode = saved.exitCode;
  }
}
