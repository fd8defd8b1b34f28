// The words the core needs from a face (the action, the CLI) to write its messages in that face's
// terms: the core names no input, flag or variable of its own. Each face builds one `Words` object
// and hands it to the core with its settings (SettingSource.words); a new face adds one more.
import type { SettingName } from './constants.js';

export interface Words {
  /** How a message names a setting: "Input 'retries'", "--retries"; several: "Input 'a' or 'b'". */
  setting(...names: SettingName[]): string;
  /** How to give a setting a value, for a hint: "`allow-insecure-http: true`", "`--allow-insecure-http`". */
  assignment(name: SettingName, value?: string): string;
  /** The setting that gives the service's address, in a hint: "`base-url`", "DEPLOY_TRACKER_URL". */
  serviceAddress: string;
  /** What would finish a deployment it recorded: "this action". */
  tool: string;
  /** What records one batch of deployments, at most Limits.idsPerStep: "step". */
  unit: string;
  /** After a status word it refuses: what to do instead, a sentence. */
  statusHint: string;
  /** The step or command that starts a deployment: "the main step". */
  starter: string;
  /** The one that finishes what was left open: "the post step". */
  finisher: string;
  /** What it finishes them from: "the job status". */
  finishFrom: string;
  /** When: "when the job ends". */
  finishWhen: string;
  /** Who records a deployment given a state that is not final, once it has one, and why not now. */
  notFinalYet: string;
  /** What goes on after a dry run's start all the same, where something does: "the command runs all the same". */
  dryRunGoesOn?: string;
}
