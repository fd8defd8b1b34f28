// The workflow run's context from @actions/github, without the rest of that package: its index also
// builds octokit (with a second @actions/http-client and undici 6) only to read the event name and
// payload. Context is imported by file because the package does not export it on its own.
import { Context } from '../node_modules/@actions/github/lib/context.js';

/** As `context` from '@actions/github': read from GITHUB_EVENT_PATH and GITHUB_* when this module loads. */
export const context = new Context();
