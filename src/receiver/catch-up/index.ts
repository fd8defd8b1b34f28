// The senders catch-up can read, each enabled by its own API variables (none set: no catch-up for it):
// read as the receiver starts, so that a mistake stops it before anything listens.
import type { Store } from '../store/store.js';
import { argocdCatchUpPass, describeArgoCdPass } from './argocd.js';
import { readArgoCdCatchUp } from './argocd-config.js';
import type { CatchUpSource } from './runner.js';

export { startCatchUp, type CatchUpRunner } from './runner.js';

type Env = Record<string, string | undefined>;

/** Each enabled sender's pass, given the store it gets into; throws a ConfigError naming the variable at fault. */
export function readCatchUp(env: Env): (store: Store) => CatchUpSource[] {
  const argocd = readArgoCdCatchUp(env);
  return (store) =>
    argocd === undefined
      ? []
      : [
          {
            name: 'argocd',
            pass: async () => {
              const pass = await argocdCatchUpPass(argocd, { store, marks: store, env });
              return { ...pass, line: describeArgoCdPass(argocd, pass) };
            },
          },
        ];
}
