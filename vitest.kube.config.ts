// `npm run test:kube`: the tests that need kubectl (NEEDS_KUBECTL in vitest.config.ts: `kubectl
// kustomize` renders the receiver's Kubernetes examples), with the same settings as `npm test`.
import { defineConfig } from 'vitest/config';
import base, { NEEDS_KUBECTL } from './vitest.config.ts';

export default defineConfig({
  test: {
    ...base.test,
    projects: [{ extends: true, test: { name: 'kube', include: NEEDS_KUBECTL, provide: { cliSubject: 'npm' } } }],
  },
});
