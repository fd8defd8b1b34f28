// `npm run test:shell`: the tests that need tools beyond Node and npm (NEEDS_SHELL_TOOLS in
// vitest.config.ts: dash, BusyBox, ShellCheck, unshare), with the same settings as `npm test`.
import { defineConfig } from 'vitest/config';
import base, { NEEDS_SHELL_TOOLS } from './vitest.config.ts';

export default defineConfig({
  test: {
    ...base.test,
    projects: [{ extends: true, test: { name: 'shell', include: NEEDS_SHELL_TOOLS, provide: { cliSubject: 'npm' } } }],
  },
});
