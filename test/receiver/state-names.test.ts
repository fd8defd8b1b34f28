// A state named like a property every object has (`__proto__`, `constructor`, `toString`) is no
// state a source knows: it records nothing, rather than a status that is no status. Found by the
// sources' property test (a GitLab status `__proto__`).
import { describe, expect, it } from 'vitest';
import { github } from '../../src/receiver/sources/github.ts';
import { gitlab } from '../../src/receiver/sources/gitlab.ts';
import { githubDelivery, gitlabDelivery } from './helpers/deliveries.ts';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe.each([
  ['github', github, (state: string) => githubDelivery(state, 1)],
  ['gitlab', gitlab, (state: string) => gitlabDelivery(state)],
] as const)('the %s source', (_name, source, delivery) => {
  it.each(NAMES)('records nothing for the state %s', (state) => {
    const { headers, body } = delivery(state);
    expect(source.parse({ headers, body, now: Date.now() })).toMatchObject({ verdict: 'ignored' });
  });
});
