// The senders catch-up can read, each enabled by its own API variables (none set: no catch-up for it):
// read as the receiver starts, so that a mistake stops it before anything listens.
import type { MapEvents } from '../server.js';
import type { AcceptResult, NewDelivery, Store } from '../store/store.js';
import { argocdCatchUpPass, describeArgoCdPass } from './argocd.js';
import { readArgoCdCatchUp } from './argocd-config.js';
import { githubCatchUpPass } from './github.js';
import { gitlabCatchUpPass } from './gitlab.js';
import { readGitLabCatchUp } from './gitlab-config.js';
import { readGithubCatchUp } from './github-config.js';
import type { CatchUpSource, PassReport } from './runner.js';

export { startCatchUp, type CatchUpRunner } from './runner.js';

type Env = Record<string, string | undefined>;

interface Receiver {
  store: Store;
  /** The mapping file's artifact and environment, as the webhook routes apply them. */
  mapEvents: MapEvents | undefined;
  /** Something was stored: the worker starts on it now. */
  stored: () => void;
}

/** Each enabled sender's pass, given the receiver it gets into; throws a ConfigError naming the variable at fault. */
export function readCatchUp(env: Env): (receiver: Receiver) => CatchUpSource[] {
  const argocd = readArgoCdCatchUp(env);
  const github = readGithubCatchUp(env);
  const gitlab = readGitLabCatchUp(env);
  return ({ store, mapEvents, stored }) => {
    // What a pass finds goes in as a webhook's delivery would: mapped, stored, and the worker woken.
    const accept = async (delivery: NewDelivery): Promise<AcceptResult> => {
      const events = mapEvents ? mapEvents(delivery.source, delivery.events) : delivery.events;
      const result = await store.accept({ ...delivery, events, via: 'catch-up' });
      if (result.kind === 'stored') stored();
      return result;
    };
    // One replica at a time runs a sender's pass (on PostgreSQL; SQLite has one receiver).
    const alone = (name: CatchUpSource['name'], pass: () => Promise<PassReport>) => async (): Promise<PassReport> => {
      let report: PassReport | undefined;
      const ran = await store.exclusive(`catch-up:${name}`, async () => {
        report = await pass();
      });
      return ran && report
        ? report
        : { found: 0, fetched: 0, line: `${name} catch-up: another receiver runs this pass`, elsewhere: true };
    };
    const sources: CatchUpSource[] = [];
    if (github)
      sources.push({
        name: 'github',
        pass: alone('github', () =>
          githubCatchUpPass(github, { holds: (source, id) => store.holds(source, id), accept, env }),
        ),
      });
    if (gitlab)
      sources.push({
        name: 'gitlab',
        pass: alone('gitlab', () =>
          gitlabCatchUpPass(gitlab, { holds: (source, id) => store.holds(source, id), accept, env }),
        ),
      });
    if (argocd)
      sources.push({
        name: 'argocd',
        pass: alone('argocd', async () => {
          const pass = await argocdCatchUpPass(argocd, { store: { accept }, marks: store, env });
          return { ...pass, line: describeArgoCdPass(argocd, pass) };
        }),
      });
    return sources;
  };
}
