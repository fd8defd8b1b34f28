// The tables the docs hold that the code already says, written from it so that the two cannot drift
// (as actions/checkout does for its inputs): `npm run docs` rewrites them between their markers, and
// test/docs.test.ts fails when one differs.
// - README.md: the action's inputs and outputs, from action.yml;
// - docs/cli.md and npm/README.md: the CI variables the command line reads, from src/ci/
//   (scripts/ci-table.ts runs the code's own tables to learn them).
import { readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { parse } from 'yaml';
import { renderCiTable, type Provider } from './ci-table.ts';

interface ActionYaml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

const START = (name: string, from: string) => `<!-- ${name}:start (generated from ${from} by npm run docs) -->`;
const END = (name: string) => `<!-- ${name}:end -->`;

export function renderTables(actionYml: string): { inputs: string; outputs: string } {
  const action = parse(actionYml) as ActionYaml;
  const cell = (text: string) =>
    text
      .trim()
      .replace(/\s*\n\s*/g, ' ')
      .replaceAll('|', '\\|');
  const inputs = [
    '| input | required | default | description |',
    '|---|---|---|---|',
    ...Object.entries(action.inputs).map(
      ([name, input]) =>
        `| \`${name}\` | ${input.required ? 'yes' : 'no'} | ${input.default ? `\`${input.default}\`` : ''} | ${cell(input.description)} |`,
    ),
  ].join('\n');
  const outputs = [
    '| output | description |',
    '|---|---|',
    ...Object.entries(action.outputs).map(([name, output]) => `| \`${name}\` | ${cell(output.description)} |`),
  ].join('\n');
  return { inputs, outputs };
}

/** Where the repository's files are for a reader of npm's page, which resolves no relative link. */
export const REPOSITORY_FILES = 'https://github.com/acme/report-deployment/blob/main';

/** The CI table for a page at `file`: its link to the action's defaults relative, or absolute on npm. */
export function renderCiVariables(providers: readonly Provider[], file: string): string {
  const defaults = 'docs/defaults-and-decisions.md#defaults-from-the-github-context';
  const href = file.startsWith('npm/')
    ? `${REPOSITORY_FILES}/${defaults}`
    : file.startsWith('docs/')
      ? defaults.slice('docs/'.length)
      : defaults;
  return renderCiTable(providers, { fixed: { 'GitHub Actions': { cell: 'as the action', href } } });
}

/** A generated section: which file, its marker's name, what it is generated from, its text. */
export interface Section {
  file: string;
  name: string;
  from: string;
  text: string;
}

/** Every generated section of the docs. */
export function sections(actionYml: string, providers: readonly Provider[]): Section[] {
  const { inputs, outputs } = renderTables(actionYml);
  return [
    { file: 'README.md', name: 'inputs', from: 'action.yml', text: inputs },
    { file: 'README.md', name: 'outputs', from: 'action.yml', text: outputs },
    ...['docs/cli.md', 'npm/README.md'].map((file) => ({
      file,
      name: 'ci-variables',
      from: 'src/ci',
      text: renderCiVariables(providers, file),
    })),
  ];
}

/** `text` (the file `file`) with its generated sections replaced. */
export function renderFile(file: string, text: string, all: Section[]): string {
  let result = text;
  for (const section of all.filter((candidate) => candidate.file === file)) {
    const start = result.indexOf(START(section.name, section.from));
    const end = result.indexOf(END(section.name));
    if (start < 0 || end < start) {
      throw new Error(`${file} lacks the markers ${START(section.name, section.from)} ... ${END(section.name)}`);
    }
    result = `${result.slice(0, start)}${START(section.name, section.from)}\n${section.text}\n${result.slice(end)}`;
  }
  return result;
}

/** The README with its generated sections replaced (the inputs and outputs tables). */
export function renderReadme(readme: string, actionYml: string): string {
  return renderFile('README.md', readme, sections(actionYml, []));
}

/**
 * src/ci/detect.ts's providers, loaded by plain Node: src/ names its imports `.js` as the bundler
 * wants them, so a `.js` that does not exist is looked for as `.ts`.
 */
async function loadProviders(root: string): Promise<readonly Provider[]> {
  registerHooks({
    resolve(specifier, context, next) {
      try {
        return next(specifier, context);
      } catch (error) {
        if (/^\.\.?\/.*\.js$/.test(specifier)) return next(specifier.replace(/\.js$/, '.ts'), context);
        throw error;
      }
    },
  });
  const detect = (await import(join(root, 'src', 'ci', 'detect.ts'))) as { PROVIDERS: readonly Provider[] };
  return detect.PROVIDERS;
}

if (import.meta.main) {
  const root = join(import.meta.dirname, '..');
  const all = sections(readFileSync(join(root, 'action.yml'), 'utf8'), await loadProviders(root));
  for (const file of new Set(all.map((section) => section.file))) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    const updated = renderFile(file, text, all);
    if (updated !== text) writeFileSync(path, updated);
    console.log(updated === text ? `${file}: up to date.` : `${file}: tables rewritten.`);
  }
}
