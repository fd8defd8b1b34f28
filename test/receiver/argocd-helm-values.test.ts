// The Argo CD example for a Helm install (examples/receiver/argocd-helm-values.yaml): the argo-cd
// chart's `notifications` values, rendered by the chart into argocd-notifications-cm as
// templates/argocd-notifications/configmap.yaml does (notifiers, templates and triggers key by key,
// subscriptions as YAML), must hold what argocd-notifications-cm.yaml holds, key for key.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ROOT } from '../helpers/run-action.ts';

const read = (file: string) => parseYaml(readFileSync(join(ROOT, 'examples', 'receiver', file), 'utf8')) as never;
const configMap = read('argocd-notifications-cm.yaml') as { data: Record<string, string> };
const values = read('argocd-helm-values.yaml') as {
  notifications: {
    enabled: boolean;
    notifiers: Record<string, string>;
    templates: Record<string, string>;
    triggers: Record<string, string>;
    subscriptions: unknown[];
  };
};

describe('the Argo CD Helm values', () => {
  it('enable notifications and give the chart the ConfigMap’s service, templates, triggers and subscription', () => {
    const { enabled, notifiers, templates, triggers, subscriptions } = values.notifications;
    expect(enabled).toBe(true);
    const { subscriptions: subscribed, ...keys } = configMap.data;
    expect({ ...notifiers, ...templates, ...triggers }).toEqual(keys);
    expect(Object.keys(notifiers).every((key) => key.startsWith('service.'))).toBe(true);
    expect(Object.keys(templates).every((key) => key.startsWith('template.'))).toBe(true);
    expect(Object.keys(triggers).every((key) => key.startsWith('trigger.'))).toBe(true);
    expect(subscriptions).toEqual(parseYaml(subscribed ?? ''));
  });

  it('hold no token: the chart’s notifications secret gets it from the command line', () => {
    expect(JSON.stringify(values)).not.toMatch(/"secret"|report-deployment-token"/);
    expect(values.notifications.notifiers['service.webhook.report-deployment']).toContain(
      'Bearer $report-deployment-token',
    );
  });
});
