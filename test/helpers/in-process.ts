// Runs the action's steps from src/ inside the test process, in the environment the runner would
// give them (prepareStep: the same INPUT_*, GITHUB_*, files and state as the end-to-end runs), and
// reads what they leave as the runner would (collectStep). Milliseconds a step instead of a process
// start: for property tests and tables. The end-to-end tests judge the built dist/.
import { run as runMain } from '../../src/action/main.ts';
import { run as runPost } from '../../src/action/post.ts';
import { runStep } from '../../src/action/step.ts';
import { collectStep, prepareStep, type JobOptions, type StepResult } from './run-action.ts';

export async function runJobInProcess(options: JobOptions): Promise<{ main: StepResult; post: StepResult }> {
  const main = await runStepInProcess('main', options, {});
  const post = await runStepInProcess('post', options, main.state);
  return { main, post };
}

export async function runStepInProcess(
  stage: 'main' | 'post',
  options: JobOptions,
  state: Record<string, string>,
): Promise<StepResult> {
  const step = prepareStep(stage, options, state);
  const { stdout: out } = process;
  const saved = { env: process.env, write: out.write.bind(out), exitCode: process.exitCode };
  let stdout = '';
  const started = performance.now();
  try {
    process.env = step.env;
    process.exitCode = undefined;
    out.write = (chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    };
    await runStep(stage === 'main' ? runMain : runPost);
    const exitCode = typeof process.exitCode === 'number' ? process.exitCode : 0;
    return collectStep(step, { exitCode, stdout, stderr: '', durationMs: performance.now() - started });
  } finally {
    process.env = saved.env;
    out.write = saved.write;
    process.exitCode = saved.exitCode;
    step.remove();
  }
}
