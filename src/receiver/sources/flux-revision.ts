// What a Flux revision says of the deployment: its commit, its branch and its version. Flux writes a
// source's revision as `<name>@<algorithm>:<digest>` (Flux 2: `main@sha1:<sha>`, `v1.2.0@sha1:<sha>`,
// an OCI artifact's `<tag>@sha256:<digest>`, a bare commit's `sha1:<sha>`), `<branch>/<sha>` before
// Flux 2.0, and a HelmRelease's chart version as it is (`1.2.3`, or `1.2.3@sha256:<digest>` for an
// OCI chart).

interface RevisionFacts {
  commitSha: string;
  branch: string;
  version: string;
}

/** A version, as a tag or a chart names it: `v1.2`, `1.2.3`, `2.0.0-rc.1`. */
const VERSION = /^v?\d+(\.\d+)+([-+][0-9A-Za-z.+-]*)?$/;

/**
 * The commit is the digest (a Git SHA-1 as its hex; any other algorithm as `algorithm:hex`, an OCI
 * digest above all). The branch is the revision's name: Flux does not say whether it is a branch or
 * a tag, so a tag is recorded as the branch, as the action does on a tag build; a revision with no
 * name records its commit as the branch. The version is the name where it is a version, else the
 * commit. `origin`, the source revision an OCI artifact was built from (`originRevision`), gives the
 * commit and branch where it is a Git revision.
 */
export function revisionFacts(revision: string, origin = ''): RevisionFacts {
  const own = splitRevision(revision);
  const source = origin ? splitRevision(origin) : undefined;
  // The Git revision deployed: the revision itself, or the one an OCI artifact was built from.
  const git = own.algorithm === 'sha1' ? own : source?.algorithm === 'sha1' ? source : undefined;
  const commitSha = git ? git.digest : own.algorithm ? `${own.algorithm}:${own.digest}` : revision;
  return {
    commitSha,
    // An OCI tag or a chart version is no branch: with no Git revision, the commit is recorded.
    branch: git?.name || commitSha,
    version: VERSION.test(own.name) ? own.name : own.algorithm ? commitSha : revision,
  };
}

interface Split {
  name: string;
  algorithm: string;
  digest: string;
}

function splitRevision(revision: string): Split {
  const modern = /^(?:(.*)@)?(sha1|sha256|sha384|sha512):([0-9a-f]+)$/.exec(revision);
  if (modern) return { name: stripRef(modern[1] ?? ''), algorithm: modern[2] as string, digest: modern[3] as string };
  const legacy = /^(.+)\/([0-9a-f]{40})$/.exec(revision);
  if (legacy) return { name: stripRef(legacy[1] as string), algorithm: 'sha1', digest: legacy[2] as string };
  return { name: revision, algorithm: '', digest: '' };
}

function stripRef(name: string): string {
  return name.replace(/^refs\/(heads|tags)\//, '');
}
