import type { ColumnType } from 'kysely';

type WebhookDeliveryStatus = 'PENDING' | 'SENDING' | 'DELIVERED' | 'FAILED';

/** One event to one endpoint: a job claimed with a lease, retried with backoff until a 2xx or give-up. */
export interface WebhookDeliveriesTable {
  webhook_id: string;
  event_id: string;
  status: WebhookDeliveryStatus;
  /** Claims so far: the attempt number of the one in flight. */
  attempts: ColumnType<number, number | undefined, number>;
  run_at: Date;
  locked_by: string | null;
  locked_until: Date | null;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: Date;
}
