// The README's inputs and outputs tables, written from action.yml (as actions/checkout does), so
// that the two cannot drift: `npm run docs` rewrites them, and a test fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

interface ActionYaml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

const START = (name: string) => `<!-- ${name}:start (generated from action.yml by npm run docs) -->`;
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

/** The README with its generated sections replaced. */
export function renderReadme(readme: string, actionYml: string): string {
  const tables = renderTables(actionYml);
  let text = readme;
  for (const [name, table] of Object.entries(tables)) {
    const start = text.indexOf(START(name));
    const end = text.indexOf(END(name));
    if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${START(name)} ... ${END(name)}`);
    text = `${text.slice(0, start)}${START(name)}\n${table}\n${text.slice(end)}`;
  }
  return text;
}

if (import.meta.main) {
  const root = join(import.meta.dirname, '..');
  const readmePath = join(root, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const updated = renderReadme(readme, readFileSync(join(root, 'action.yml'), 'utf8'));
  if (updated !== readme) writeFileSync(readmePath, updated);
  console.log(updated === readme ? 'README.md tables are up to date.' : 'README.md tables rewritten from action.yml.');
}
