import { sql } from 'kysely';
import type { WebhookEventType } from '../db/schema/index.js';
import { newId } from '../lib/ids.js';
import type { DbOrTrx } from './types.js';

/**
 * Webhook deliveries as claimable jobs: the claim, lease, heartbeat and hand-back of threads,
 * follow-ups and jobs, on `webhook_deliveries`. A worker holds a delivery while it is `SENDING`
 * with `locked_by` = it.
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
 * One statement: due deliveries (`PENDING` and due, or `SENDING` under an expired lease, whose
 * worker died mid-send) are locked `FOR UPDATE SKIP LOCKED` and marked `SENDING` for `workerId`,
 * the attempt counted; each comes back with its event and endpoint.
 */
export async function claimDueDeliveries(db: DbOrTrx, workerId: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
  const { rows } = await sql<ClaimedDelivery>`
    WITH due AS (
      SELECT webhook_id, event_id FROM webhook_deliveries
      WHERE status IN ('PENDING', 'SENDING') AND run_at <= ${now}::timestamptz
        AND (status = 'PENDING' OR locked_until <= ${now}::timestamptz)
      ORDER BY run_at
      LIMIT ${limit}::int
      FOR UPDATE SKIP LOCKED
    )
    UPDATE webhook_deliveries AS d
    SET status = 'SENDING', locked_by = ${workerId}::text, locked_until = ${leaseUntil}::timestamptz,
        attempts = d.attempts + 1, updated_at = ${now}::timestamptz
    FROM due, webhook_events AS e, webhooks AS w
    WHERE d.webhook_id = due.webhook_id AND d.event_id = due.event_id AND e.id = d.event_id AND w.id = d.webhook_id
    RETURNING d.webhook_id, d.event_id, d.attempts, d.created_at, e.type, e.data, e.created_at AS event_created_at, w.url, w.secret_enc`.execute(db);
  return rows;
}

/** The heartbeat: extends every delivery lease `workerId` holds. */
export async function renewDeliveryLeasesOf(db: DbOrTrx, workerId: string, until: Date): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ locked_until: until }).where('status', '=', 'SENDING').where('locked_by', '=', workerId).execute();
}

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
        AND status = 'SENDING' AND locked_by = ${workerId}::text
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

/** A worker that stops hands a claimed, unsent delivery back: due at once, the claim not counted. */
export async function handBackDelivery(db: DbOrTrx, delivery: ClaimedDelivery, workerId: string, now: Date): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ status: 'PENDING', attempts: eb('attempts', '-', 1), locked_by: null, locked_until: null, run_at: now, updated_at: now }))
    .where('webhook_id', '=', delivery.webhook_id)
    .where('event_id', '=', delivery.event_id)
    .where('status', '=', 'SENDING')
    .where('locked_by', '=', workerId)
    .execute();
}

/** The next moment a delivery becomes claimable (due, or its lease runs out); null when none is pending. */
export async function nextDeliveryDueAt(db: DbOrTrx): Promise<Date | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select(sql<Date | null>`min(CASE WHEN status = 'SENDING' THEN greatest(run_at, locked_until) ELSE run_at END)`.as('next'))
    .where('status', 'in', ['PENDING', 'SENDING'])
    .executeTakeFirst();
  return row?.next ? new Date(row.next) : null;
}
