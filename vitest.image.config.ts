// `npm run test:image`: the container image's tests (NEEDS_IMAGE_TOOLS in vitest.config.ts: buildah,
// podman, runc), with the same settings as `npm test`. They need the executable (`npm run build -- sea`)
// and the image's Debian packages (`node scripts/image.ts fetch`): .ci/run makes both first.
import { defineConfig } from 'vitest/config';
import base, { NEEDS_IMAGE_TOOLS } from './vitest.config.ts';

export default defineConfig({
  test: {
    ...base.test,
    // One container at a time: they share the test's own image storage.
    maxWorkers: 1,
    projects: [{ extends: true, test: { name: 'image', include: NEEDS_IMAGE_TOOLS } }],
  },
});
