// Entry of the main step (runs.main). Kept thin: all behaviour lives in ../main.ts.
import { run } from '../main.js';
import { reportUnexpected } from '../step.js';

await run().catch(reportUnexpected);
