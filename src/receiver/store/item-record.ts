// An item's row as an SQL store keeps it, and the record the `deliveries` command shows of it.
import type { DeploymentStatus } from '../../core/constants.js';
import type { SourceName } from '../event.js';
import type { ItemRecord, ItemState, Via } from './store.js';

export interface ItemRow {
  id: number;
  source: SourceName;
  delivery_id: string;
  key: string;
  status: DeploymentStatus;
  fields: string;
  state: ItemState;
  via: Via | null;
  attempts: number;
  first_failed_at: number | null;
  next_at: number | null;
  error: string | null;
  note: string | null;
  received_at: number;
  updated_at: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function toRecord(row: ItemRow & { service_id: string | null }): ItemRecord {
  return {
    id: Number(row.id),
    source: row.source,
    deliveryId: row.delivery_id,
    key: row.key,
    status: row.status,
    state: row.state,
    via: row.via ?? 'live',
    serviceId: row.service_id ?? null,
    error: row.error,
    note: row.note,
    attempts: Number(row.attempts),
    receivedAt: iso(Number(row.received_at)),
    updatedAt: iso(Number(row.updated_at)),
    nextAttemptAt: row.state === 'pending' && row.next_at !== null ? iso(Number(row.next_at)) : null,
  };
}
