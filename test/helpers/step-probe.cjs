// Preloaded (`node --require`) into a step that a test (or the benchmark) looks into: at exit, into
// the file STEP_PROBE_FILE names, the process's CPU time, its peak resident memory (KiB), the Node
// builtins it loaded and the files it required.
'use strict';
const { readFileSync, writeFileSync } = process.getBuiltinModule('node:fs');

/**
 * This program's own peak: Linux's VmHWM starts anew at exec, while getrusage's maxrss carries the
 * peak of the process that spawned it (a test runner far bigger than a step).
 */
function peakKiB() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // Not Linux: maxrss, which may over-report.
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  // First, so that what follows is not counted: user and system time of all its threads, in ms.
  const { user, system } = process.cpuUsage();
  const builtins = process.moduleLoadList
    .filter((name) => name.startsWith('NativeModule '))
    .map((name) => name.slice(13));
  const probe = { cpuMs: (user + system) / 1000, maxRssKiB: peakKiB(), builtins, files: Object.keys(require.cache) };
  writeFileSync(process.env.STEP_PROBE_FILE, JSON.stringify(probe));
});
