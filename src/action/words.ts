// The action's words for the core's messages (core/words.ts): its settings are inputs, a step records,
// and the post step finishes from the job status.
import type { Words } from '../core/words.js';

export const ACTION_WORDS: Words = {
  setting: (...names) => `Input ${names.map((name) => `'${name}'`).join(' or ')}`,
  assignment: (name, value) => (value === undefined ? `\`${name}\`` : `\`${name}: ${value}\``),
  serviceAddress: '`base-url`',
  tool: 'this action',
  unit: 'step',
  statusHint: 'Leave it empty to start the deployment here and finish it when the job ends.',
  starter: 'the main step',
  finisher: 'the post step',
  finishFrom: 'the job status',
  finishWhen: 'when the job ends',
  notFinalYet:
    'A workflow on `deployment_status` records it once its state is success, failure or error (a STARTED record now would stay unfinished beside that one).',
};
