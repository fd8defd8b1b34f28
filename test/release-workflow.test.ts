// .github/workflows/release.yml cannot run here (it needs GitHub, Sigstore and npm), so what makes it
// safe is read from it: the order of its jobs, each job's permissions (the least each needs), that
// nothing is published before every check and every file is in place, that each executable is built
// and smoke-tested on a runner of its own platform and ships with install.sh, that the container image is
// built as CI builds it and pushed, attested and verified by jobs that run none of it before its tags
// move (and which tags each version moves, run here on a repository of tags), that its scripts are
// valid bash taking values only from the environment, and that each scripts/release.ts command it
// runs exists. test/workflows.test.ts parses and lints it as every workflow, and checks its pins.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMANDS } from '../scripts/release.ts';
import { buildArgs, CONTEXT_DIR, DOCKERFILE, type ImageArch } from '../scripts/image.ts';
import { SEA_LICENSES, SEA_PLATFORMS, seaName } from '../scripts/sea.ts';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

interface Job {
  needs?: string | string[];
  'runs-on': string;
  strategy?: { matrix: { include: { name: string; runner: string }[] } };
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  environment?: string;
  outputs?: Record<string, string>;
  steps: Step[];
}

interface Workflow {
  on: {
    push: { tags: string[] };
    workflow_dispatch: { inputs: Record<string, { required: boolean; type: string }> };
  };
  permissions: Record<string, string>;
  concurrency: { group: string; 'cancel-in-progress': boolean };
  defaults: { run: { shell: string } };
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const ROOT = join(import.meta.dirname, '..');
const workflow = parse(readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8')) as Workflow;
const jobs = workflow.jobs;
const job = (name: string): Job => {
  const found = jobs[name];
  if (!found) throw new Error(`release.yml has no job ${name}`);
  return found;
};
const needs = (name: string) => [job(name).needs ?? []].flat();
const scripts = (name: string) =>
  job(name)
    .steps.map((step) => step.run)
    .filter((run) => run !== undefined);
const allScripts = Object.keys(jobs).flatMap(scripts);

/** The only actions a job that can mint an OIDC token may use: GitHub's, pinned, none of ours. */
const MINTING_ACTIONS = ['actions/download-artifact', 'actions/attest', 'actions/setup-node'];

/** Every job `name` waits for, directly or not. */
function upstream(name: string): string[] {
  const seen = new Set<string>();
  const visit = (job: string) => {
    for (const need of needs(job)) {
      if (!seen.has(need)) {
        seen.add(need);
        visit(need);
      }
    }
  };
  visit(name);
  return [...seen].sort();
}

describe('the workflows that run a pull request’s code', () => {
  it.each(['ci.yml', 'check-dist.yml'])('%s keeps no checkout credentials on disk for it', (file) => {
    const other = parse(readFileSync(join(ROOT, '.github/workflows', file), 'utf8')) as Workflow & { on: unknown };
    expect(Object.keys(other.on as object)).toContain('pull_request');
    const checkouts = Object.values(other.jobs).flatMap((job) =>
      job.steps.filter((step) => step.uses?.startsWith('actions/checkout@')),
    );
    expect(checkouts.length).toBeGreaterThan(0);
    for (const checkout of checkouts) expect(checkout.with?.['persist-credentials']).toBe(false);
  });
});

describe('release.yml', () => {
  it('runs for a version tag, or by hand for a version', () => {
    expect(workflow.on.push).toEqual({ tags: ['v*.*.*'] });
    expect(workflow.on.workflow_dispatch.inputs).toEqual({
      version: expect.objectContaining({ required: true, type: 'string' }) as unknown,
    });
    expect(workflow.env.VERSION).toBe('${{ inputs.version || github.ref_name }}');
    // One release at a time, never cancelled halfway (a draft without its files, a half-moved tag).
    expect(workflow.concurrency).toEqual({ group: 'release', 'cancel-in-progress': false });
    expect(workflow.defaults.run.shell).toBe('bash'); // -e and pipefail: `check | tee` fails when check does
  });

  it('grants no permission but the ones each job needs', () => {
    expect(workflow.permissions).toEqual({});
    expect(Object.fromEntries(Object.entries(jobs).map(([name, job]) => [name, job.permissions]))).toEqual({
      check: { contents: 'read' },
      executables: { contents: 'read' },
      build: { contents: 'read' },
      attest: { 'id-token': 'write', attestations: 'write' },
      image: { contents: 'read' },
      'image-publish': { packages: 'write', 'id-token': 'write', attestations: 'write' },
      draft: { contents: 'write' },
      npm: { contents: 'read', attestations: 'read', 'id-token': 'write' },
      publish: { contents: 'write' },
      'major-tag': { contents: 'write' },
      'image-tags': { packages: 'write', attestations: 'read' },
      verify: { contents: 'read', attestations: 'read' },
    });
  });

  it('publishes nothing before the checks pass and every file is attached to the draft', () => {
    expect(Object.fromEntries(Object.keys(jobs).map((name) => [name, upstream(name)]))).toEqual({
      check: [],
      executables: ['check'],
      build: ['check', 'executables'],
      attest: ['build', 'check', 'executables'],
      image: ['build', 'check', 'executables'],
      'image-publish': ['build', 'check', 'executables', 'image'],
      draft: ['attest', 'build', 'check', 'executables', 'image', 'image-publish'],
      npm: ['attest', 'build', 'check', 'draft', 'executables', 'image', 'image-publish'],
      publish: ['attest', 'build', 'check', 'draft', 'executables', 'image', 'image-publish', 'npm'],
      'major-tag': ['attest', 'build', 'check', 'draft', 'executables', 'image', 'image-publish', 'npm', 'publish'],
      'image-tags': ['attest', 'build', 'check', 'draft', 'executables', 'image', 'image-publish', 'npm', 'publish'],
      verify: ['attest', 'build', 'check', 'draft', 'executables', 'image', 'image-publish', 'npm', 'publish'],
    });
    const check = scripts('check').join('\n');
    for (const command of ['npm ci', 'npm run lint', 'npm run typecheck', 'npm run build', 'npm test']) {
      expect(check).toContain(command);
    }
    expect(check).toContain('git diff --exit-code --stat -- dist');
    expect(scripts('draft').join('\n')).toMatch(/gh release create "\$TAG" --draft --verify-tag /);
    expect(scripts('draft').join('\n')).toContain('gh release upload "$TAG" out/* --clobber');
    expect(scripts('publish').join('\n')).toContain('gh release edit "$TAG" --draft=false');
    // The draft is the only job that creates or changes a release before publish.
    for (const name of [
      'check',
      'executables',
      'build',
      'attest',
      'image',
      'image-publish',
      'npm',
      'major-tag',
      'image-tags',
      'verify',
    ]) {
      expect(scripts(name).join('\n'), name).not.toMatch(/gh release (create|upload|edit)/);
    }
  });

  it('attests every file the release ships, and npm publishes the attested one', () => {
    const attest = job('attest').steps.find((step) => step.uses?.startsWith('actions/attest@'));
    expect(attest?.with).toEqual({
      'subject-path': [
        'out/report-deployment-action-${{ env.VERSION }}.tar.gz',
        'out/report-deployment-${{ env.VERSION }}.tgz',
        ...SEA_PLATFORMS.map(({ platform, arch }) => `out/${seaName(platform, arch)}`),
        `out/${SEA_LICENSES}`,
        'out/install.sh',
        // What install.sh trusts: attested too.
        'out/SHA256SUMS',
        '',
      ].join('\n'),
    });
    expect(scripts('npm').join('\n')).toContain(
      'npm publish "$file" --ignore-scripts --access public --provenance --tag "$NPM_TAG"',
    );
    expect(scripts('npm').join('\n')).toContain('file="out/report-deployment-$VERSION.tgz"');
    // Checked against SHA256SUMS before it is published.
    const publish = scripts('npm').find((script) => script.includes('npm publish')) ?? '';
    expect(publish.indexOf('sha256sum --check --strict SHA256SUMS')).toBeGreaterThan(-1);
    expect(publish.indexOf('sha256sum --check')).toBeLessThan(publish.indexOf('npm publish'));
    expect(job('npm').environment).toBe('npm');
    expect(scripts('npm')[0]).toBe('printf \'%s\\n\' 11.5.1 "$(npm --version)" | sort --version-sort --check=quiet');
  });

  it('builds each executable on a runner of its own platform, checks it there, and hands it on', () => {
    const executables = job('executables');
    const runners: Record<string, string> = {
      'linux-x64': 'ubuntu-latest',
      'linux-arm64': 'ubuntu-24.04-arm',
      'darwin-arm64': 'macos-latest',
      'darwin-x64': 'macos-15-intel',
      'win-x64.exe': 'windows-latest',
    };
    const legs = executables.strategy?.matrix.include ?? [];
    // Each leg's ASSET is the name scripts/sea.ts gives that platform's executable.
    expect(legs.map((leg) => `report-deployment-${leg.name}`)).toEqual(
      SEA_PLATFORMS.map(({ platform, arch }) => seaName(platform, arch)),
    );
    expect(Object.fromEntries(legs.map((leg) => [leg.name, leg.runner]))).toEqual(runners);
    expect(executables['runs-on']).toBe('${{ matrix.runner }}');
    expect(executables.env).toEqual({
      VERSION: '${{ needs.check.outputs.version }}',
      ASSET: 'report-deployment-${{ matrix.name }}',
    });
    const run = scripts('executables').join('\n');
    expect(run).toContain('npm run build -- sea\n');
    expect(run).toContain('test -f "build/$ASSET"');
    expect(run).toContain('node scripts/sea-smoke.ts "build/$ASSET" "$VERSION"');
    const signature = executables.steps.find((step) => step.run?.startsWith('codesign'));
    expect(signature).toMatchObject({
      if: "runner.os == 'macOS'",
      run: 'codesign --verify --strict --verbose=2 "build/$ASSET"',
    });
    const upload = executables.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with).toMatchObject({ name: 'executable-${{ matrix.name }}', path: 'build/${{ env.ASSET }}' });
    const download = job('build').steps.find((step) => step.uses?.startsWith('actions/download-artifact@'));
    expect(download?.with).toEqual({ pattern: 'executable-*', path: 'out', 'merge-multiple': true });
  });

  it('puts every executable, their licenses and install.sh into SHA256SUMS, and verifies each as users do', () => {
    const build = scripts('build').join('\n');
    for (const { platform, arch } of SEA_PLATFORMS) {
      expect(build).toMatch(
        new RegExp(
          `for name in .*\\b${seaName(platform, arch).replace('report-deployment-', '').replace('.', '\\.')}\\b`,
        ),
      );
    }
    expect(build).toContain(
      `(cd out && sha256sum -- *.tar.gz *.tgz report-deployment-{linux,darwin,win}-* ${SEA_LICENSES} install.sh | tee SHA256SUMS)`,
    );
    const verify = scripts('verify').join('\n');
    expect(verify).toContain('(cd out && sha256sum --check --strict SHA256SUMS)');
    expect(verify).toContain(
      `for file in out/*.tar.gz out/*.tgz out/report-deployment-{linux,darwin,win}-* out/${SEA_LICENSES} out/install.sh out/SHA256SUMS; do`,
    );
    expect(verify).toMatch(/\| *\n? *sh -s -- --dir "\$RUNNER_TEMP\/bin"/);
    expect(verify).toContain('test "$("$RUNNER_TEMP/bin/report-deployment" --version)" = "${TAG#v}"');
  });

  it("ships the executables' licenses, written from the CLI that npm run package built", () => {
    const build = scripts('build').join('\n');
    const licenses = `node scripts/sea.ts licenses out/${SEA_LICENSES}\n`;
    expect(build).toContain(licenses);
    // After the CLI's build (npm run package), before the checksums.
    expect(build.indexOf('npm run package')).toBeLessThan(build.indexOf(licenses));
    expect(build.indexOf(licenses)).toBeLessThan(build.indexOf('sha256sum'));
    // Its name is none of the executables' (the verify loop's glob would take it twice).
    expect(SEA_LICENSES).not.toMatch(/^report-deployment-(linux|darwin|win)-/);
  });

  it('writes the version and the executables’ SHA-256 into the install.sh it ships, and nothing else', () => {
    const lines = scripts('build').join('\n').split('\n');
    const from = lines.findIndex((line) => line.trim().startsWith('sums=$(cd out'));
    const to = lines.findIndex((line) => line.trim().startsWith('grep -qx "pinned_sizes='));
    const pin = lines.slice(from, to + 1);
    expect(pin.filter((line) => line.includes('out/install.sh'))).toHaveLength(4);
    const work = mkdtempSync(join(tmpdir(), 'report-deployment-release-'));
    try {
      mkdirSync(join(work, 'out'));
      const executables = SEA_PLATFORMS.map(({ platform, arch }) => seaName(platform, arch));
      for (const name of executables) writeFileSync(join(work, 'out', name), `the ${name}\n`);
      writeFileSync(join(work, 'out', SEA_LICENSES), 'not an executable\n');
      const ran = spawnSync(
        'bash',
        ['--noprofile', '--norc', '-euo', 'pipefail', '-c', `cp "$ROOT/install.sh" .\n${pin.join('\n')}`],
        {
          cwd: work,
          env: { PATH: process.env.PATH ?? '', ROOT, VERSION: '1.2.3' },
          encoding: 'utf8',
        },
      );
      expect(ran.stderr).toBe('');
      expect(ran.status).toBe(0);
      const original = readFileSync(join(ROOT, 'install.sh'), 'utf8').split('\n');
      const pinned = readFileSync(join(work, 'out', 'install.sh'), 'utf8').split('\n');
      // In the order the shell lists them: report-deployment-{linux,darwin,win}-*.
      const sums = ['linux', 'darwin', 'win']
        .flatMap((os) => executables.filter((name) => name.startsWith(`report-deployment-${os}-`)).sort())
        .map((name) => `${createHash('sha256').update(`the ${name}\n`).digest('hex')} ${name}`)
        .join(' ');
      const sizes = ['linux', 'darwin', 'win']
        .flatMap((os) => executables.filter((name) => name.startsWith(`report-deployment-${os}-`)).sort())
        .map((name) => `${Buffer.byteLength(`the ${name}\n`)} ${name}`)
        .join(' ');
      expect(pinned.filter((line, index) => line !== original[index])).toEqual([
        "pinned_version='1.2.3'",
        `pinned_sums='${sums}'`,
        `pinned_sizes='${sizes}'`,
      ]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('moves the major tag only where release.ts says, from where it was', () => {
    const [decide, move] = job('major-tag').steps.slice(-2);
    expect(decide?.run).toBe('node scripts/release.ts major "$VERSION" | tee -a "$GITHUB_OUTPUT"');
    expect(move?.if).toBe("steps.major.outputs.move == 'true'");
    expect(move?.run).toContain('git push --force-with-lease="refs/tags/$MAJOR:$FROM" origin "refs/tags/$MAJOR"');
  });

  it('keeps the token out of every checkout but the one that pushes the major tag', () => {
    for (const [name, job] of Object.entries(jobs)) {
      const checkout = job.steps.find((step) => step.uses?.startsWith('actions/checkout@'));
      if (checkout) expect(checkout.with?.['persist-credentials'], name).toBe(name === 'major-tag' ? undefined : false);
    }
  });

  it('runs no project code and no install script in a job that can mint an OIDC token', () => {
    const minting = Object.entries(jobs).filter(([, job]) => job.permissions?.['id-token'] === 'write');
    expect(minting.map(([name]) => name).sort()).toEqual(['attest', 'image-publish', 'npm']);
    for (const [name, job] of minting) {
      // No checkout: no file of the project's to run; only these actions.
      const actions = job.steps.flatMap((step) => (step.uses ? [step.uses.split('@')[0]] : []));
      expect(
        actions.filter((action) => !MINTING_ACTIONS.includes(action ?? '')),
        name,
      ).toEqual([]);
      for (const script of scripts(name)) {
        expect(script, name).not.toMatch(
          /\bnode\b|\bnpx\b|\bnpm (ci|install|i|run|test|exec|pack|rebuild)\b|scripts\//,
        );
        for (const publish of script.match(/npm publish[^\n]*/g) ?? []) expect(publish).toContain('--ignore-scripts');
      }
    }
  });

  it('attests in a job of its own, and publishes to npm only once the attestation verifies', () => {
    expect(job('attest').steps.map((step) => step.uses?.split('@')[0] ?? 'run')).toEqual([
      'actions/download-artifact',
      'run',
      'actions/attest',
    ]);
    expect(scripts('attest')).toEqual(['(cd out && sha256sum --check --strict SHA256SUMS)']);
    expect(scripts('build').join('\n')).not.toContain('attest');
    expect(upstream('npm')).toContain('attest');
    const publish = scripts('npm').find((script) => script.includes('npm publish')) ?? '';
    const verify = publish.indexOf('gh attestation verify "$file" --repo "$GITHUB_REPOSITORY"');
    expect(verify).toBeGreaterThan(-1);
    expect(publish).toContain('--signer-workflow "$GITHUB_REPOSITORY/.github/workflows/release.yml"');
    expect(verify).toBeLessThan(publish.indexOf('npm publish'));
    // The dist-tag is decided where project code may run, before.
    expect(job('npm').env?.NPM_TAG).toBe('${{ needs.check.outputs.npm-tag }}');
    expect(scripts('check').join('\n')).toContain('node scripts/release.ts npm-tag "$VERSION"');
  });

  it('builds the image as CI does, from the release’s own executables, in a job that cannot publish', () => {
    const image = job('image');
    expect(needs('image')).toEqual(['check', 'build']);
    expect(image.env).toEqual({ VERSION: '${{ needs.check.outputs.version }}', SHA: '${{ needs.check.outputs.sha }}' });
    const download = image.steps.find((step) => step.uses?.startsWith('actions/download-artifact@'));
    expect(download?.with).toEqual({ name: 'release-files', path: 'out' });
    const build = scripts('image').join('\n');
    // The release's files, checked, then the pinned packages and the Dockerfile CI's test builds.
    expect(build.indexOf('(cd out && sha256sum --check --strict SHA256SUMS)')).toBeGreaterThan(-1);
    expect(build.indexOf('sha256sum --check')).toBeLessThan(build.indexOf('node scripts/image.ts'));
    expect(build).toContain('node scripts/image.ts fetch amd64 arm64\n');
    expect(build).toContain(
      'node scripts/image.ts context amd64=out/report-deployment-linux-x64 arm64=out/report-deployment-linux-arm64',
    );
    expect(build).toContain('--licenses out/report-deployment-licenses.txt');
    // The very build `npm run image` and `npm run test:image` make (scripts/image.ts buildArgs), word for word.
    const command = /buildah build (?:[^\\\n]|\\\n)*/.exec(build)?.[0] ?? '';
    const words = command
      .replace(/\\\n\s*/g, ' ')
      .replaceAll('"', '')
      .split(/\s+/);
    const expected = buildArgs({
      tag: 'localhost/report-deployment:$arch',
      version: '$VERSION',
      revision: '$SHA',
      arch: '$arch' as ImageArch,
    }).map((word) => (word === DOCKERFILE || word === CONTEXT_DIR ? relative(ROOT, word) : word));
    expect(words).toEqual(['buildah', ...expected]);
    expect(build).toMatch(/buildah build --network none --platform "linux\/\$arch" /);
    expect(build).toContain('--file examples/receiver/container/Dockerfile');
    expect(build).toContain(
      'test "$(podman run --rm --network none localhost/report-deployment:amd64 --version)" = "$VERSION"',
    );
    expect(build).toContain(
      'buildah manifest push --all localhost/report-deployment:release oci-archive:image/report-deployment-image.tar',
    );
    // Nothing here can log in or push.
    expect(build).not.toMatch(/login|skopeo|GH_TOKEN|push.*docker:/);
    const upload = image.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with).toMatchObject({ name: 'image', path: 'image/' });
  });

  it('pushes the image as X.Y.Z, attests its digest, verifies it, and names it in the release notes', () => {
    const publish = job('image-publish');
    expect(publish.steps.map((step) => step.uses?.split('@')[0] ?? 'run')).toEqual([
      'actions/download-artifact',
      'run',
      'actions/attest',
      'run',
    ]);
    const [, push, attest, verify] = publish.steps;
    expect(push?.run).toContain('(cd image && sha256sum --check --strict SHA256SUMS)');
    expect(push?.run).toContain(
      'skopeo copy --all --preserve-digests --digestfile "$RUNNER_TEMP/digest" \\\n' +
        '  oci-archive:image/report-deployment-image.tar "docker://$IMAGE:$VERSION"',
    );
    expect(attest?.with).toEqual({
      'subject-name': '${{ env.IMAGE }}',
      'subject-digest': '${{ steps.push.outputs.digest }}',
      'push-to-registry': true,
    });
    expect(verify?.run).toContain('gh attestation verify "oci://$IMAGE@$DIGEST" --repo "$GITHUB_REPOSITORY"');
    expect(verify?.run).toContain('--signer-workflow "$GITHUB_REPOSITORY/.github/workflows/release.yml"');
    expect(publish.outputs).toEqual({ digest: '${{ steps.push.outputs.digest }}' });
    // The draft's notes carry the digest.
    expect(job('draft').env?.IMAGE_DIGEST).toBe('${{ needs.image-publish.outputs.digest }}');
    expect(scripts('draft').join('\n')).toContain('docker pull $IMAGE@$IMAGE_DIGEST');
    // Only the two image jobs touch the registry.
    const pushing = Object.keys(jobs).filter((name) => /skopeo copy|docker login/.test(scripts(name).join('\n')));
    expect(pushing.sort()).toEqual(['image-publish', 'image-tags']);
  });

  it('writes the image’s name and digest into the draft’s notes, after the CHANGELOG section', () => {
    const [script] = scripts('draft');
    const work = mkdtempSync(join(tmpdir(), 'report-deployment-draft-'));
    try {
      // Stand-ins for node (release.ts notes) and gh, on a PATH of their own.
      mkdirSync(join(work, 'bin'));
      mkdirSync(join(work, 'out'));
      writeFileSync(join(work, 'bin', 'node'), '#!/bin/sh\necho "The CHANGELOG section."\n', { mode: 0o755 });
      writeFileSync(join(work, 'bin', 'gh'), '#!/bin/sh\n[ "$2" = view ] && exit 1\nexit 0\n', { mode: 0o755 });
      const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script ?? ''], {
        cwd: work,
        env: {
          PATH: `${join(work, 'bin')}:${process.env.PATH ?? ''}`,
          RUNNER_TEMP: work,
          TAG: 'v1.1.0',
          VERSION: '1.1.0',
          GITHUB_REPOSITORY: 'acme/report-deployment',
          IMAGE: 'ghcr.io/acme/report-deployment',
          IMAGE_DIGEST: `sha256:${'c'.repeat(64)}`,
        },
        encoding: 'utf8',
      });
      expect(ran.stderr).toBe('');
      expect(ran.status).toBe(0);
      const digest = `sha256:${'c'.repeat(64)}`;
      expect(readFileSync(join(work, 'notes.md'), 'utf8')).toBe(
        [
          'The CHANGELOG section.',
          '',
          `The receiver's container image, for linux/amd64 and linux/arm64: \`ghcr.io/acme/report-deployment:1.1.0\`, digest \`${digest}\`.`,
          '',
          '```sh',
          `docker pull ghcr.io/acme/report-deployment@${digest}`,
          `gh attestation verify oci://ghcr.io/acme/report-deployment@${digest} --repo acme/report-deployment`,
          '```',
          '',
        ].join('\n'),
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('moves the image’s X.Y and X after the release is published, only once its attestation verifies', () => {
    const tags = job('image-tags');
    expect(needs('image-tags')).toEqual(['check', 'image-publish', 'publish']);
    expect(tags.steps.filter((step) => step.uses)).toEqual([]);
    const [script] = scripts('image-tags');
    const verify = script?.indexOf('gh attestation verify "oci://$IMAGE@$DIGEST"') ?? -1;
    expect(verify).toBeGreaterThan(-1);
    expect(verify).toBeLessThan(script?.indexOf('skopeo copy') ?? -1);
    expect(script).toContain('skopeo copy --all --preserve-digests "docker://$IMAGE@$DIGEST" "docker://$IMAGE:$tag"');
    expect(tags.env?.IMAGE_TAGS).toBe('${{ needs.check.outputs.image-tags }}');
  });

  it.each([
    ['2.0.0', '2.0.0 2.0 2'],
    ['1.2.1', '1.2.1 1.2 1'],
    ['1.1.5', '1.1.5 1.1'], // a backport: 1 stays on 1.2.1
    ['1.0.0', '1.0.0 1.0'],
    ['2.1.0-rc.1', '2.1.0-rc.1'], // a pre-release moves nothing
  ])('tags the image of %s as %s, its name in lower case', (version, expected) => {
    const step = job('check').steps.find((candidate) => candidate.id === 'image');
    const work = mkdtempSync(join(tmpdir(), 'report-deployment-image-tags-'));
    try {
      const git = (...args: string[]) => spawnSync('git', args, { cwd: work, encoding: 'utf8' });
      git('init', '--quiet');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '--allow-empty', '-m', 'one');
      for (const tag of [
        'v1.0.0',
        'v1.1.0',
        'v1.1.5',
        'v1.2.0',
        'v1.2.1',
        'v2.0.0',
        'v2.1.0-rc.1',
        'v10.0.0',
        'v1.20.0-rc.1',
      ])
        git('tag', tag);
      const output = join(work, 'output');
      const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step?.run ?? ''], {
        cwd: work,
        env: {
          PATH: process.env.PATH ?? '',
          RELEASE_VERSION: version,
          GITHUB_REPOSITORY: 'Acme/Report-Deployment',
          GITHUB_OUTPUT: output,
        },
        encoding: 'utf8',
      });
      expect(ran.stderr).toBe('');
      expect(ran.status).toBe(0);
      expect(readFileSync(output, 'utf8')).toBe(`image=ghcr.io/acme/report-deployment\ntags=${expected}\n`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    expect(step?.env).toEqual({ RELEASE_VERSION: '${{ steps.release.outputs.version }}' });
  });

  it('puts no expression into a script: values reach them through the environment', () => {
    expect(allScripts.filter((script) => script.includes('${{'))).toEqual([]);
  });

  it('has scripts bash can read', () => {
    for (const script of allScripts) {
      const result = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8', timeout: 10_000 });
      expect(result.stderr, script).toBe('');
      expect(result.status, script).toBe(0);
    }
  });

  it('runs only commands scripts/release.ts has', () => {
    const used = allScripts.flatMap((script) =>
      [...script.matchAll(/node scripts\/release\.ts ([\w-]+)/g)].map((match) => match[1]),
    );
    expect([...new Set(used)].sort()).toEqual(['at-least', 'check', 'latest', 'major', 'notes', 'npm-tag']);
    expect(used.filter((command) => !(COMMANDS as readonly string[]).includes(command ?? ''))).toEqual([]);
  });
});
