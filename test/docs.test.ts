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
