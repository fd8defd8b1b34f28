// Runs the CLI's main() from src/ inside the test process, its stdout and stderr captured: for
// property tests and tables (milliseconds a run). The end-to-end tests judge the packed CLI
// (test/run-cli.ts).
import { main } from '../src/cli/index.ts';
import { readRunnerOutput, type RunnerCommand } from './runner-commands.ts';

export interface InProcessCliResult {
  exitCode: number;
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
    out.write = (chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    };
    err.write = (chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    };
    // The exit code as main() sets it; the test process goes on.
    await main('0.0.0-test', argv, env, () => undefined);
    const exitCode = typeof process.exitCode === 'number' ? process.exitCode : 0;
    const commands = [...readRunnerOutput(stdout).commands, ...readRunnerOutput(stderr).commands];
    return { exitCode, stdout, stderr, commands, durationMs: performance.now() - started };
  } finally {
    out.write = saved.out;
    err.write = saved.err;
    process.exitCode = saved.exitCode;
  }
}
