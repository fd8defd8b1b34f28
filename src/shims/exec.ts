// Stand-in for `@actions/exec`, which @actions/core imports only for core.platform.getDetails(), a
// call this action never makes. The bundler maps that import here (`paths` in src/tsconfig.json), so
// @actions/exec and @actions/io are neither in the entry nor evaluated when a step starts; each
// function loads the real module (its own chunk) on first use and forwards to it.
import type * as Real from '../../node_modules/@actions/exec/lib/exec.js';

let realModule: Promise<typeof Real> | undefined;
/** The real @actions/exec (by file: its package name is mapped to this stand-in). */
const loadReal = () => (realModule ??= import('../../node_modules/@actions/exec/lib/exec.js'));

export async function exec(...args: Parameters<typeof Real.exec>): ReturnType<typeof Real.exec> {
  return (await loadReal()).exec(...args);
}

export async function getExecOutput(
  ...args: Parameters<typeof Real.getExecOutput>
): ReturnType<typeof Real.getExecOutput> {
  return (await loadReal()).getExecOutput(...args);
}
