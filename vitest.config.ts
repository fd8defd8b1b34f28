import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the built action; each is bounded by its own kill timer.
    testTimeout: 30_000,
    // Never pick up proxy settings of the machine running the tests.
    env: { HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '', NO_PROXY: '', no_proxy: '' },
  },
});
