// Bad configuration: it stops before any request is sent, and names what to fix.

interface Problem {
  /** What it is about, as a message names it: "Input 'retries'", "--retries", "Environment variable HTTPS_PROXY". */
  subject: string;
  /** What is wrong and how to fix it, after the subject: "is empty. Set it …". One line. */
  text: string;
}

export class ConfigError extends Error {
  readonly problems: readonly Problem[];

  constructor(subject: string, text: string);
  constructor(problems: readonly Problem[]);
  constructor(subjectOrProblems: string | readonly Problem[], text = '') {
    const problems = typeof subjectOrProblems === 'string' ? [{ subject: subjectOrProblems, text }] : subjectOrProblems;
    super(problems.map(problemText).join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
  }

  /** Each problem, one line each. */
  get lines(): string[] {
    return this.problems.map(problemText);
  }
}

function problemText({ subject, text }: Problem): string {
  return `${subject} ${text}`;
}

/** Runs every reader, collecting their problems, so that one run names every bad setting at once. */
export class ProblemCollector {
  private readonly problems: Problem[] = [];

  /** The reader's value, or `fallback` when it found a problem (recorded). */
  read<T>(reader: () => T, fallback: T): T {
    try {
      return reader();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.problems.push(...error.problems);
      return fallback;
    }
  }

  add(subject: string, text: string): void {
    this.problems.push({ subject, text });
  }

  /** One ConfigError naming every problem found; undefined when there is none. */
  error(): ConfigError | undefined {
    return this.problems.length ? new ConfigError(this.problems) : undefined;
  }

  /** Throws one ConfigError naming every problem found, if any. */
  throwIfAny(): void {
    const error = this.error();
    if (error) throw error;
  }
}
