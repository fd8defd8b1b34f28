// The action's bundle: one for both steps, so that they share its chunks (undici's above all) in
// dist/. The build writes dist/main/index.js and dist/post/index.js, which each require this bundle
// and run one step.
import { run as runMain } from './main.js';
import { run as runPost } from './post.js';
import { runStep } from './step.js';

export const main = (): Promise<void> => runStep(runMain);
export const post = (): Promise<void> => runStep(runPost);
