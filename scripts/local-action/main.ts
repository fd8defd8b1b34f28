// The main step as @github/local-action runs it: an entry that exports `run()`.
export { main as run } from '../../src/action/index.ts';
