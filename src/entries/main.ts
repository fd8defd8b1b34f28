// Entry of the main step (runs.main). Kept thin: all behaviour lives in ../main.ts.
import { run } from '../main.js';
import { runStep } from '../step.js';

await runStep(run);
