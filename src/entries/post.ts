// Entry of the post step (runs.post). Kept thin: all behaviour lives in ../post.ts.
import { run } from '../post.js';
import { runStep } from '../step.js';

await runStep(run);
