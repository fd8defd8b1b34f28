// Bad configuration: it always fails the step, before any request is sent, and names what to fix.

/** What a problem is about: one input, inputs of which one is needed, or an environment variable. */
export type Subject = { input: string } | { inputs: readonly string[] } | { variable: string };

export interface Problem {
  subject: Subject;
  /** What is wrong and how to fix it, after the subject: "is empty. Set it …". */
  text: string;
}

export class ConfigError extends Error {
  readonly problems: readonly Problem[];

  constructor(subject: Subject, text: string);
  constructor(problems: readonly Problem[]);
  constructor(subjectOrProblems: Subject | readonly Problem[], text = '') {
    const problems = Array.isArray(subjectOrProblems)
      ? (subjectOrProblems as readonly Problem[])
      : [{ subject: subjectOrProblems as Subject, text }];
    super(problems.map(problemText).join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
  }

  /** Each problem, one line each (a problem's own text is one line). */
  get lines(): string[] {
    return this.problems.map(problemText);
  }
}

function problemText({ subject, text }: Problem): string {
  if ('input' in subject) return `Input '${subject.input}' ${text}`;
  if ('inputs' in subject) return `Input ${subject.inputs.map((name) => `'${name}'`).join(' or ')} ${text}`;
  return `Environment variable ${subject.variable} ${text}`;
}

/** Runs every reader, collecting their problems, so that one run names every bad input at once. */
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

  add(subject: Subject, text: string): void {
    this.problems.push({ subject, text });
  }

  /** Throws one ConfigError naming every problem found, if any. */
  throwIfAny(): void {
    if (this.problems.length) throw new ConfigError(this.problems);
  }
}
