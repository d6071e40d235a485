import type { ColumnType } from 'kysely';
import type { WebhookEventType } from './webhooks.js';

/** The outbox: one row per event, written in the transaction of the change it reports. */
export interface WebhookEventsTable {
  /** UUIDv7; the `id` of the body, the same on every attempt. */
  id: string;
  type: WebhookEventType;
  /** The workspace the event belongs to, as (account_id, team_id) of the row that changed. */
  account_id: string;
  team_id: string | null;
  data: ColumnType<Record<string, unknown>, string, never>;
  created_at: ColumnType<Date, Date | string, never>;
}
