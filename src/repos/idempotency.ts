import type { Selectable } from 'kysely';
import type { IdempotencyRecordsTable } from '../db/schema/index.js';
import type { DbOrTrx } from './types.js';

/** How long an Idempotency-Key holds its answer (decisions.md): a retry within it gets the same answer. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/**
 * Idempotency-Key records: one per account and key, kept for `ttlMs`. A record with
 * response_status 0 is a claim whose transaction has not stored its response yet.
 */

export type IdempotencyRecord = Selectable<IdempotencyRecordsTable>;

/** The record for this key written within the last `ttlMs`. */
export function findRecentIdempotencyRecord(db: DbOrTrx, accountId: string, key: string, now: Date, ttlMs: number): Promise<IdempotencyRecord | undefined> {
  return db
    .selectFrom('idempotency_records')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('created_at', '>=', new Date(now.getTime() - ttlMs))
    .executeTakeFirst();
}

/**
 * Claims the key inside the caller's transaction: an expired record is removed first, then the
 * key is inserted. A concurrent claim of the same key blocks on the primary key until this
 * transaction ends. Returns null when claimed, otherwise the record that holds the key.
 */
export async function claimIdempotencyKey(
  trx: DbOrTrx,
  accountId: string,
  key: string,
  requestHash: string,
  now: Date,
  ttlMs: number,
): Promise<IdempotencyRecord | null> {
  await trx
    .deleteFrom('idempotency_records')
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('created_at', '<', new Date(now.getTime() - ttlMs))
    .execute();
  const inserted = await trx
    .insertInto('idempotency_records')
    .values({ account_id: accountId, key, request_hash: requestHash, response_status: 0, response_body: JSON.stringify(null), created_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (inserted) return null;
  return trx.selectFrom('idempotency_records').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirstOrThrow();
}

export async function saveIdempotentResponse(trx: DbOrTrx, accountId: string, key: string, status: number, body: unknown): Promise<void> {
  await trx
    .updateTable('idempotency_records')
    .set({ response_status: status, response_body: JSON.stringify(body) })
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .execute();
}
