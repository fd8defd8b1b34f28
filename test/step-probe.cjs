// Preloaded (`node --require`) into a step that a test looks into: at exit, into the file
// STEP_PROBE_FILE names, the process's peak resident memory (KiB), the Node builtins it loaded and
// the files it required.
'use strict';
const { writeFileSync } = process.getBuiltinModule('node:fs');

process.on('exit', () => {
  const builtins = process.moduleLoadList
    .filter((name) => name.startsWith('NativeModule '))
    .map((name) => name.slice(13));
  const probe = { maxRssKiB: process.resourceUsage().maxRSS, builtins, files: Object.keys(require.cache) };
  writeFileSync(process.env.STEP_PROBE_FILE, JSON.stringify(probe));
});
