import { type RawBuilder, sql } from 'kysely';
import type { DbOrTrx } from './types.js';

/** Rows one statement deletes at most: a sweep after a long pause deletes in steps, never in one long lock. */
const BATCH = 5_000;

export interface Retention {
  webhookDays: number;
  emailDays: number;
  idempotencyMs: number;
}

export interface Purged {
  webhookEvents: number;
  emails: number;
  idempotencyKeys: number;
}

const DAY_MS = 86_400_000;

/** Deletes `statement`'s rows batch by batch until a batch comes back short; returns how many went. */
async function inBatches(db: DbOrTrx, statement: (limit: number) => RawBuilder<unknown>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = (await statement(BATCH).execute(db)).rows.length;
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/**
 * What is past its keeping (docs/configuration.md, "Retention"): webhook events older than
 * `webhookDays` whose deliveries have all ended (their deliveries and attempts go with them),
 * emails older than `emailDays` that were sent, failed, skipped or taken into a digest, and
 * idempotency keys past their lifetime. Nothing still to be done is touched.
 */
export async function purgeExpired(db: DbOrTrx, now: Date, retention: Retention): Promise<Purged> {
  const webhookCut = new Date(now.getTime() - retention.webhookDays * DAY_MS);
  const emailCut = new Date(now.getTime() - retention.emailDays * DAY_MS);
  const keyCut = new Date(now.getTime() - retention.idempotencyMs);
  const webhookEvents = await inBatches(
    db,
    (limit) => sql`
      DELETE FROM webhook_events WHERE id IN (
        SELECT e.id FROM webhook_events AS e
         WHERE e.created_at < ${webhookCut}
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries AS d WHERE d.event_id = e.id AND d.status IN ('PENDING', 'SENDING'))
         ORDER BY e.created_at LIMIT ${limit})
      RETURNING 1`,
  );
  const emails = await inBatches(
    db,
    (limit) => sql`
      DELETE FROM email_notifications WHERE id IN (
        SELECT id FROM email_notifications
         WHERE created_at < ${emailCut}
           AND (status IN ('SENT', 'FAILED', 'SKIPPED') OR (status = 'DAILY' AND digest_id IS NOT NULL))
         ORDER BY created_at LIMIT ${limit})
      RETURNING 1`,
  );
  const idempotencyKeys = await inBatches(
    db,
    (limit) => sql`
      DELETE FROM idempotency_records WHERE (account_id, key) IN (
        SELECT account_id, key FROM idempotency_records WHERE created_at < ${keyCut} ORDER BY created_at LIMIT ${limit})
      RETURNING 1`,
  );
  return { webhookEvents, emails, idempotencyKeys };
}
