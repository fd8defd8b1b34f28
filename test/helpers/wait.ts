// Waiting for a thing that has no event to wait on (a row in a store, a file, a process's state):
// asked again and again, within a deadline, so that a test never sleeps a guessed time.

export interface WaitOptions {
  /** How long to ask before giving up. */
  timeoutMs: number;
  /** How long between two questions (20 ms unless said). */
  everyMs?: number;
  /** What is waited for, for the error at the deadline. */
  what?: string;
}

/** Resolves once `done()` holds (it may answer a promise); rejects at the deadline, saying what it waited for. */
export async function waitFor(done: () => boolean | Promise<boolean>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (!(await done())) {
    if (Date.now() >= deadline)
      throw new Error(`Still waiting after ${options.timeoutMs} ms for ${options.what ?? 'the condition'}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 20));
  }
}
