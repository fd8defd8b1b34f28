import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { renderReadme } from '../scripts/docs.ts';
import { ROOT } from './run-action.ts';

it('README tables say what action.yml says (run `npm run docs` to fix)', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  expect(readme).toBe(renderReadme(readme, readFileSync(join(ROOT, 'action.yml'), 'utf8')));
  expect(readme).toContain("| `api-key` | yes |  | The service's API key");
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

it('README.md and CONTRIBUTING.md quote no measured figure: those live in docs/performance.md (`npm run bench`)', () => {
  const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

  expect(figures(read('README.md'), MEASURED)).toEqual([]);
  expect(figures(read('CONTRIBUTING.md'), MEASURED_IN_CONTRIBUTING)).toEqual([]);
  expect(read('CONTRIBUTING.md')).toContain('[docs/performance.md](docs/performance.md)');
  // The check itself: a figure is found, a budget is not.
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
