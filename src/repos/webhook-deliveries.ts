import { sql } from 'kysely';
import type { WebhookEventType } from '../db/schema/index.js';
import { newId } from '../lib/ids.js';
import { type Claimed, claimDue, type Lease, leasedQueue, leaseHeld } from './queue/leased-queue.js';
import { WEBHOOK_DELIVERIES } from './queue/tables.js';
import type { DbOrTrx } from './types.js';

/**
 * Webhook deliveries: the leased queue on `webhook_deliveries` (a worker holds a delivery while
 * it is `SENDING` with `locked_by` = it), and the recording of each attempt.
 */

export interface ClaimedDelivery {
  webhook_id: string;
  event_id: string;
  /** This attempt's number (1 for the first). */
  attempts: number;
  created_at: Date;
  type: WebhookEventType;
  data: Record<string, unknown>;
  event_created_at: Date;
  url: string;
  secret_enc: string;
}

/**
 * The claim answers each delivery with its event and endpoint: due deliveries (`PENDING` and
 * due, or `SENDING` under an expired lease, whose worker died mid-send) are marked `SENDING`
 * for the worker, the attempt counted.
 */
function claimDeliveries(db: DbOrTrx, lease: Lease, limit: number): Promise<Claimed<ClaimedDelivery>> {
  return claimDue<ClaimedDelivery>(db, WEBHOOK_DELIVERIES, lease, limit, {
    select: (d) => sql`${d.col('webhook_id')}, ${d.col('event_id')}, ${d.col('attempts')}, ${d.col('created_at')}, ${d.col('taken_over')},
        e.type, e.data, e.created_at AS event_created_at, w.url, w.secret_enc
      FROM ${d.from} JOIN webhook_events AS e ON e.id = ${d.col('event_id')} JOIN webhooks AS w ON w.id = ${d.col('webhook_id')}`,
  });
}

export const deliveryQueue = leasedQueue(WEBHOOK_DELIVERIES, claimDeliveries);

export interface AttemptOutcome {
  delivered: boolean;
  responseStatus: number | null;
  error: string | null;
  /** When not delivered: the next try, or null to give up (FAILED). */
  retryAt: Date | null;
}

/**
 * Records an attempt and the delivery's next state in one statement, only while `workerId`
 * still holds the lease (a worker that lost it records nothing: the holder sends again).
 * Returns whether it was recorded.
 */
export async function recordAttempt(db: DbOrTrx, delivery: ClaimedDelivery, workerId: string, outcome: AttemptOutcome, now: Date): Promise<boolean> {
  const status = outcome.delivered ? 'DELIVERED' : outcome.retryAt ? 'PENDING' : 'FAILED';
  const { rows } = await sql<{ n: number }>`
    WITH d AS (
      UPDATE webhook_deliveries
      SET status = ${status}::text, run_at = coalesce(${outcome.retryAt}::timestamptz, run_at),
          locked_by = NULL, locked_until = NULL, updated_at = ${now}::timestamptz
      WHERE webhook_id = ${delivery.webhook_id}::text AND event_id = ${delivery.event_id}::text
        AND ${leaseHeld(WEBHOOK_DELIVERIES, workerId)}
      RETURNING webhook_id, event_id, attempts
    ),
    a AS (
      INSERT INTO webhook_attempts (id, webhook_id, event_id, attempt, status, response_status, error, at)
      SELECT ${newId(now.getTime())}::text, d.webhook_id, d.event_id, d.attempts, ${outcome.delivered ? 'DELIVERED' : 'FAILED'}::text,
             ${outcome.responseStatus}::int, ${outcome.error}::text, ${now}::timestamptz
      FROM d
    )
    SELECT count(*)::int AS n FROM d`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}
