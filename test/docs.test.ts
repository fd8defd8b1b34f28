// The docs say what the code says and hold together: the generated tables match their sources
// (action.yml, src/ci/), no measured figure is copied out of docs/performance.md, and every link and
// anchor in every Markdown file leads somewhere.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCiTable, type Provider } from '../scripts/ci-table.ts';
import { renderFile, renderReadme, sections } from '../scripts/docs.ts';
import { PROVIDERS } from '../src/ci/detect.ts';
import {
  anchorsOf,
  linksOf,
  markdownFiles,
  readDoc,
  relativeTo,
  REPOSITORY_BLOB,
  REPOSITORY_HOME,
  slug,
  type Link,
} from './helpers/markdown.ts';
import { ROOT } from './helpers/run-action.ts';

const actionYml = () => readFileSync(join(ROOT, 'action.yml'), 'utf8');

describe('the generated tables (run `npm run docs` to fix)', () => {
  const all = sections(actionYml(), PROVIDERS);

  it.each([...new Set(all.map((section) => section.file))])('%s says what its sources say', (file) => {
    const text = readDoc(file);
    expect(text).toBe(renderFile(file, text, all));
  });

  it('README: the inputs and outputs of action.yml', () => {
    const readme = readDoc('README.md');
    expect(readme).toBe(renderReadme(readme, actionYml()));
    expect(readme).toContain("| `api-key` | yes |  | The service's API key");
  });

  it('the CI table has a row for each CI the command line reads, with every variable it reads', () => {
    const table = all.find((section) => section.file === 'docs/cli.md')?.text ?? '';
    const rows = table.split('\n').slice(2);
    expect(rows.map((row) => /^\| \[?([^\]|(]+?)\]?(?:\([^)]*\))? \(/.exec(row)?.[1])).toEqual(
      PROVIDERS.map((provider) => provider.name),
    );
    // What the README's hand-written table once left out.
    for (const variable of [
      'GITLAB_USER_NAME',
      'CI_PIPELINE_URL',
      'ghprbSourceBranch',
      'gitlabSourceBranch',
      'BUILD_BUILDURI',
      'BUILD_REQUESTEDFOREMAIL',
      'BITBUCKET_COMMIT',
      'BUILDKITE_BUILD_AUTHOR',
    ]) {
      expect(table).toContain(`\`${variable}`);
    }
  });

  it("the CI table is read from a provider's code: order, fallbacks, built values, prefixes, detection", () => {
    const provider: Provider = {
      name: 'Example CI',
      detect: (env) => Boolean(env.EX_CI) || Boolean(env.EX_OTHER),
      values(env) {
        const at = (name: string) => env[name] ?? '';
        const from = (value: string, ...names: string[]) =>
          value ? { value, source: `Example CI (${names.join(', ')})` } : undefined;
        const first = (...names: string[]) => {
          const name = names.find((candidate) => at(candidate));
          return name ? from(at(name), name) : undefined;
        };
        const ref = at('EX_REF');
        return {
          commitSha: first('EX_PR_SHA', 'EX_SHA'),
          // A condition on another variable: EX_BRANCH counts only without EX_PR.
          branch: first('EX_HEAD_BRANCH') ?? (at('EX_PR') ? undefined : first('EX_BRANCH')),
          version: ref.startsWith('refs/tags/') ? from(ref.slice('refs/tags/'.length), 'EX_REF') : undefined,
          link: at('EX_URL') && at('EX_JOB') ? from(`${at('EX_URL')}#${at('EX_JOB')}`, 'EX_URL', 'EX_JOB') : undefined,
        };
      },
    };
    expect(renderCiTable([provider]).split('\n')[2]).toBe(
      '| Example CI (`EX_CI` or `EX_OTHER`) | `EX_PR_SHA`, `EX_SHA` | `EX_HEAD_BRANCH`, `EX_BRANCH` | `EX_REF` without `refs/tags/` | none | `EX_URL#EX_JOB` | none |',
    );
  });
});

/** Ratios and milliseconds: what `npm run bench` measures. */
const MEASURED = [/\b\d+(?:\.\d+)?(?:[-–]\d+(?:\.\d+)?)?x\b/g, /\b\d+(?:\.\d+)?(?:[-–]\d+(?:\.\d+)?)?\s?ms\b/g];
/** Seconds and sizes too: CONTRIBUTING.md has no limits of the action to state in them. */
const MEASURED_IN_CONTRIBUTING = [
  ...MEASURED,
  /\b\d+(?:\.\d+)?(?:[-–]\d+(?:\.\d+)?)?\s?s\b/g,
  /\b\d[\d,.]*\s?(?:bytes|KB|KiB|MB|MiB)\b/g,
];

/** The figures in `text` outside code, except a budget or a rule (after ≤, <, ≥, >, "at most", "less than"). */
function figures(text: string, patterns: RegExp[]): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return patterns.flatMap((pattern) =>
    [...prose.matchAll(pattern)]
      .filter((match) => !/(?:[≤<≥>]|at most|less than)\s*$/.test(prose.slice(0, match.index)))
      .map((match) => match[0]),
  );
}

describe('measured figures live in docs/performance.md (`npm run bench`), nowhere else', () => {
  const files = markdownFiles().filter((file) => file !== 'docs/performance.md');

  it('covers every Markdown file of the repository', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'CHANGELOG.md',
        'CONTRIBUTING.md',
        'README.md',
        'docs/cli.md',
        'docs/reliability-and-security.md',
        'npm/README.md',
      ]),
    );
  });

  it.each(files)('%s quotes none', (file) => {
    expect(figures(readDoc(file), file === 'CONTRIBUTING.md' ? MEASURED_IN_CONTRIBUTING : MEASURED)).toEqual([]);
  });

  it('the check finds a figure, and lets a budget be', () => {
    expect(readDoc('CONTRIBUTING.md')).toContain('[docs/performance.md](docs/performance.md)');
    expect(figures('main 2.08x, 181 ms; dist/ 984,200 bytes; build ~7 s', MEASURED_IN_CONTRIBUTING)).toEqual([
      '2.08x',
      '181 ms',
      '7 s',
      '984,200 bytes',
    ]);
    expect(
      figures('main ≤ 2.2x, goes if less than 5 ms, `1.5x` in code, dist/ ≤ 1 MB', MEASURED_IN_CONTRIBUTING),
    ).toEqual([]);
  });
});

it("docs/performance.md is the generated file, with a row for each reach CONTRIBUTING.md's table links to", () => {
  const generated = readDoc('docs/performance.md');
  const contributing = readDoc('CONTRIBUTING.md');
  const linked = [...contributing.matchAll(/\(docs\/performance\.md#(reach-[\w-]+)\)/g)].map((match) => match[1]);
  const rows = [...generated.matchAll(/<a id="(reach-[\w-]+)"><\/a>/g)].map((match) => match[1]);

  expect(generated).toMatch(/^# Performance figures\n\n<!-- Generated by `npm run bench` \(scripts\/bench\.ts\)/);
  expect(linked).toEqual(['reach-undici-by-path', 'reach-undici-http2', 'reach-core-aliases']);
  expect(rows).toEqual(linked);
});

/**
 * What is wrong with a link, if anything: a file of the repository that is not there, or an anchor
 * its Markdown does not define. Links into this repository on GitHub (as npm's page must give them)
 * are checked as the files they name; other sites are not fetched.
 */
function brokenLink(link: Link, read: (file: string) => string | undefined): string | undefined {
  let target = link.target;
  let file: string;
  const blob = REPOSITORY_BLOB.exec(target);
  const home = REPOSITORY_HOME.exec(target);
  if (blob) {
    file = blob[1] ?? '';
    target = blob[2] ?? '';
  } else if (home) {
    file = 'README.md';
    // `#readme` is the front page's own anchor for the README's box.
    target = home[1] === '#readme' ? '' : (home[1] ?? '');
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    return undefined;
  } else {
    const [path = '', ...rest] = target.split('#');
    file = path ? relativeTo(join(link.file, '..'), decodeURI(path)) : link.file;
    target = rest.length ? `#${rest.join('#')}` : '';
  }
  const where = `${link.file}:${link.line} ${link.target}`;
  if (file.startsWith('..')) return `${where}: outside the repository`;
  const text = read(file);
  if (text === undefined) return `${where}: no such file`;
  if (!target.startsWith('#') || target === '#') return undefined;
  if (!file.endsWith('.md')) return `${where}: an anchor in a file that is not Markdown`;
  const anchor = decodeURIComponent(target.slice(1));
  return anchorsOf(text).has(anchor) ? undefined : `${where}: ${file} has no anchor #${anchor}`;
}

/** A file's text; '' for a folder; undefined where nothing is. */
function readRepositoryFile(file: string): string | undefined {
  const path = join(ROOT, file);
  if (!existsSync(path)) return undefined;
  return statSync(path).isDirectory() ? '' : readFileSync(path, 'utf8');
}

describe('links', () => {
  it.each(markdownFiles())('%s: every relative link and #anchor leads somewhere', (file) => {
    expect(
      linksOf(file)
        .map((link) => brokenLink(link, readRepositoryFile))
        .filter(Boolean),
    ).toEqual([]);
  });

  it("npm's page links only by full URL: npm resolves no relative link", () => {
    const links = linksOf('npm/README.md');
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !/^https:\/\//.test(link.target))).toEqual([]);
  });

  it('the check finds a missing file, a missing anchor and a link out of the repository, and reads anchors as GitHub makes them', () => {
    const docs: Record<string, string> = {
      'docs/a.md': [
        '# A page',
        '## `run`: wrap it, (then) finish',
        '## Repeat',
        '## Repeat',
        '<a id="row-1"></a>',
        '```md',
        '## not a heading',
        '[in code](missing.md)',
        '```',
        '[ok](#run-wrap-it-then-finish) [ok](#repeat-1) [ok](#row-1) [ok](../README.md) [ok](b.md#b)',
        '[bad](#repeat-2) [bad](c.md) [bad](b.md#nope) [bad](../../x.md) [ok](https://example.com/x#y)',
        '[ok](https://github.com/acme/report-deployment/blob/main/docs/b.md#b)',
        '[bad](https://github.com/acme/report-deployment/blob/main/docs/b.md#c) `[in code](missing.md)`',
      ].join('\n'),
      'docs/b.md': '# B',
      'README.md': '# Readme',
    };
    const problems = linksOf('docs/a.md', docs['docs/a.md'])
      .map((link) => brokenLink(link, (file) => docs[file]))
      .filter(Boolean);
    expect(problems).toEqual([
      'docs/a.md:11 #repeat-2: docs/a.md has no anchor #repeat-2',
      'docs/a.md:11 c.md: no such file',
      'docs/a.md:11 b.md#nope: docs/b.md has no anchor #nope',
      'docs/a.md:11 ../../x.md: outside the repository',
      'docs/a.md:13 https://github.com/acme/report-deployment/blob/main/docs/b.md#c: docs/b.md has no anchor #c',
    ]);
    expect(slug("No workflow command but the action's own")).toBe('no-workflow-command-but-the-actions-own');
    expect(slug('Deployments (`deployment_status`)')).toBe('deployments-deployment_status');
  });
});

describe("the README's test commands", () => {
  it('are the suites .ci/run runs, in its order, each an npm script', () => {
    const readme = readDoc('README.md');
    const block = /## Try it\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = [...block.matchAll(/^npm (?:run )?(test\S*) /gm)].map((match) => match[1] as string);
    const suites = [...readFileSync(join(ROOT, '.ci/run'), 'utf8').matchAll(/^\s*suite (\S+)$/gm)].map(
      (match) => match[1],
    );
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts;
    expect(commands).toEqual(['test', 'test:soak', 'test:shell', 'test:kube', 'test:image']);
    expect(suites).toEqual(commands);
    expect(commands.filter((command) => !(command in scripts))).toEqual([]);
  });
});
