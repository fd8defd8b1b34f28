// The few questions the release asks git, in the repository at `cwd`. Tags are always read as
// refs/tags/<name> and dereferenced to their commit (an annotated tag names a tag object).
import { execFileSync } from 'node:child_process';

export class Git {
  readonly cwd: string;

  constructor(cwd: string) {
    this.cwd = cwd;
  }

  /** git's output, trimmed; throws (with git's message) when git fails. */
  run(args: string[]): string {
    try {
      return execFileSync('git', args, {
        cwd: this.cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 30_000,
      }).trim();
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr?.trim();
      throw new Error(`git ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`, { cause: error });
    }
  }

  /** The commit `ref` names, or undefined when it names none. */
  commitOf(ref: string): string | undefined {
    try {
      return this.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]) || undefined;
    } catch {
      return undefined;
    }
  }

  head(): string {
    const head = this.commitOf('HEAD');
    if (!head) throw new Error(`${this.cwd} has no commit checked out`);
    return head;
  }

  /** The commit a tag names, or undefined when there is no such tag. */
  tagCommit(tag: string): string | undefined {
    return this.commitOf(`refs/tags/${tag}`);
  }

  /** The object a ref holds as it is (an annotated tag's own id), or '' when there is no such ref. */
  refValue(ref: string): string {
    try {
      return this.run(['rev-parse', '--verify', '--quiet', '--end-of-options', ref]);
    } catch {
      return '';
    }
  }

  /** Every tag that names a commit, with that commit. */
  tagCommits(): Map<string, string> {
    const tags = new Map<string, string>();
    const listing = this.run([
      'for-each-ref',
      '--format=%(refname:strip=2) %(objecttype) %(objectname) %(*objecttype) %(*objectname)',
      'refs/tags/',
    ]);
    for (const line of listing.split('\n').filter(Boolean)) {
      const [name = '', type, id = '', peeledType, peeled = ''] = line.split(' ');
      if (type === 'commit') tags.set(name, id);
      else if (peeledType === 'commit') tags.set(name, peeled);
      else if (peeledType === 'tag') {
        // A tag of a tag: let git peel it all the way.
        const commit = this.tagCommit(name);
        if (commit) tags.set(name, commit);
      }
    }
    return tags;
  }

  /** The remote-tracking branches (`origin/main`) whose history holds `commit`. */
  remoteBranchesContaining(commit: string): string[] {
    return this.run(['for-each-ref', '--format=%(refname:strip=2)', `--contains=${commit}`, 'refs/remotes/'])
      .split('\n')
      .filter((name) => name && !name.endsWith('/HEAD'));
  }
}
