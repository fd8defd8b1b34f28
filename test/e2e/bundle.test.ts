// What a step of the built dist/ loads: only what its path needs (CONTRIBUTING.md, Performance).
// Structure, not time: the times are `npm run bench`'s. What the stand-ins answer, and what the
// dependencies read from them, is pinned by test/deps/.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeService } from '../helpers/fixture.ts';
import { ROOT, runJob, runStep } from '../helpers/run-action.ts';

const fake = useFakeService();
const bundled = (files: string[] = []) =>
  files.filter((file) => file.startsWith(join(ROOT, 'dist'))).map((file) => file.slice(ROOT.length + 1));

describe('what each step loads', () => {
  it('a post step with nothing to send loads no undici, no http2, no tls, no crypto', async () => {
    const { main } = await runJob({ inputs: fake.inputs({ status: 'success' }) });

    const post = await runStep('post', { inputs: fake.inputs(), probe: true }, main.state);

    expect(post.exitCode).toBe(0);
    expect(bundled(post.probe?.files)).toEqual(['dist/post/index.js', 'dist/index.js', 'dist/node-crypto.js']);
    expect(post.probe?.builtins.filter((name) => /^(http2|tls|crypto|https)$/.test(name))).toEqual([]);
  });

  it('a step that sends to an http:// service loads undici, but neither http2 nor tls', async () => {
    const main = await runStep('main', { inputs: fake.inputs(), probe: true }, {});

    expect(main.exitCode).toBe(0);
    expect(main.probe?.builtins.filter((name) => /^(http2|tls)$/.test(name))).toEqual([]);
    expect(bundled(main.probe?.files).length).toBeGreaterThan(3);
    expect(fake.service.deployments.size).toBe(1);
  });
});
