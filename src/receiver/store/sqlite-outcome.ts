// What became of a claimed item, written to the SQLite store: the item's new state, and the key's
// service id and recorded status.
import type { ItemRow } from './item-record.js';
import type { Queries } from './sqlite-queries.js';
import type { Outcome, Work } from './store.js';

export function applyOutcome(queries: Queries, work: Work, outcome: Outcome, at: number): void {
  const row = queries.item.get(work.item.id) as unknown as ItemRow;
  const failedAt = row.first_failed_at ?? at;
  switch (outcome.kind) {
    case 'created':
      queries.setService.run(outcome.serviceId.text, outcome.serviceId.numeric ? 1 : 0, row.status, work.key);
      queries.setItem.run(
        'done',
        row.attempts,
        row.first_failed_at,
        null,
        null,
        `created as ${outcome.serviceId.text}`,
        at,
        row.id,
      );
      break;
    case 'updated':
      queries.setRecorded.run(row.status, work.key);
      queries.setItem.run('done', row.attempts, row.first_failed_at, null, null, null, at, row.id);
      break;
    case 'skipped':
      queries.setItem.run('skipped', row.attempts, row.first_failed_at, null, null, outcome.reason, at, row.id);
      break;
    case 'retry':
      queries.setItem.run(
        'pending',
        row.attempts + 1,
        outcome.notItsFault ? null : failedAt,
        outcome.at,
        outcome.error,
        null,
        at,
        row.id,
      );
      break;
    case 'held':
      queries.setItem.run('held', row.attempts + 1, failedAt, null, outcome.error, null, at, row.id);
      break;
    case 'failed':
      queries.setItem.run('failed', row.attempts + 1, failedAt, null, outcome.error, null, at, row.id);
      break;
  }
}
