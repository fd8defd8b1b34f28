// The post step as @github/local-action runs it: an entry that exports `run()`.
export { post as run } from '../../src/action/index.ts';
