// One delivery into the SQLite store, inside the caller's transaction: a duplicate by either of its
// ids stores nothing; a new one stores its ids and its events, and answers what it skipped.
import type { DeploymentEvent } from '../event.js';
import type { Queries } from './sqlite-queries.js';
import { idsOf, type AcceptResult, type NewDelivery } from './store.js';

/** `addEvent` queues an event, or answers why it is skipped (and writes nothing for it). */
export function acceptOne(
  queries: Queries,
  delivery: NewDelivery,
  at: number,
  addEvent: (event: DeploymentEvent) => string | undefined,
): AcceptResult {
  const { source, deliveryId, events } = delivery;
  const ids = idsOf(delivery);
  if (ids.some((id) => queries.hasDelivery.get(source, id) !== undefined)) return { kind: 'duplicate' };
  for (const id of ids) queries.insertDelivery.run(source, id, at);
  const skipped: Array<{ event: DeploymentEvent; reason: string }> = [];
  for (const event of events) {
    const reason = addEvent(event);
    if (reason) skipped.push({ event, reason });
  }
  // A delivery with nothing to send leaves no item (its ids stay, for deduplication): the reasons
  // are in this answer, which the server logs. One with something to send keeps them as items.
  if (skipped.length < events.length) {
    for (const { event, reason } of skipped) {
      const fields = JSON.stringify(event.fields);
      queries.insertItem.run(
        source,
        deliveryId,
        event.key,
        event.status,
        fields,
        'skipped',
        null,
        reason,
        at,
        at,
        delivery.via ?? 'live',
      );
    }
  }
  return {
    kind: 'stored',
    skipped: skipped.map(({ event, reason }) => ({ key: event.key, status: event.status, reason })),
  };
}
