// @actions/github's Context, without the rest of that package: its index also builds octokit (with a
// second @actions/http-client and undici 6) only to read the event name and payload. Context is
// imported by file because the package does not export it on its own.
export { Context } from '../node_modules/@actions/github/lib/context.js';
