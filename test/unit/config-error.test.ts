// Bad configuration as one error: every problem found, one line each, whoever prints it.
import { describe, expect, it } from 'vitest';
import { ConfigError, ProblemCollector } from '../../src/core/config-error.ts';

describe('ConfigError', () => {
  it('prints as a ConfigError, one problem a line, wherever it is shown whole', () => {
    const error = new ConfigError([
      { subject: "Input 'retries'", text: 'must be a whole number.' },
      { subject: "Input 'status'", text: 'is empty.' },
    ]);
    expect(String(error)).toBe("ConfigError: Input 'retries' must be a whole number.\nInput 'status' is empty.");
    expect(error.lines).toEqual(["Input 'retries' must be a whole number.", "Input 'status' is empty."]);
  });
});

describe('ProblemCollector', () => {
  it("collects each reader's problems, gives the fallback for them, and throws them all at once", () => {
    const problems = new ProblemCollector();
    expect(problems.error()).toBeUndefined();
    expect(() => problems.throwIfAny()).not.toThrow();
    expect(problems.read(() => 1, 0)).toBe(1);
    expect(
      problems.read(() => {
        throw new ConfigError('--a', 'is bad.');
      }, 0),
    ).toBe(0);
    problems.add('--b', 'is worse.');
    expect(() => problems.throwIfAny()).toThrow(ConfigError);
    expect(() => problems.throwIfAny()).toThrow('--a is bad.\n--b is worse.');
    expect(problems.error()?.lines).toEqual(['--a is bad.', '--b is worse.']);
  });

  it('lets any other error through as it is: a bug is not a configuration problem', () => {
    const bug = new TypeError('x is undefined');
    const problems = new ProblemCollector();
    expect(() =>
      problems.read(() => {
        throw bug;
      }, 0),
    ).toThrow(bug);
    expect(problems.error()).toBeUndefined();
  });
});
