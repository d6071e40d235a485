import type { Selectable } from 'kysely';

/** One sending of an event to an endpoint: what the deliveries list shows. */
export interface WebhookAttemptsTable {
  id: string;
  webhook_id: string;
  event_id: string;
  attempt: number;
  status: 'DELIVERED' | 'FAILED';
  /** The HTTP status answered; null when none came (timeout, refused connection, refused address). */
  response_status: number | null;
  error: string | null;
  at: Date;
}
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
