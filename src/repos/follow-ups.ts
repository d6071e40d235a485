import { type Insertable, type RawBuilder, sql } from 'kysely';
import type { FollowUpRow, FollowUpsTable } from '../db/schema/index.js';
import { type CteRef, cte, cteRef } from './cte.js';
import { leasedQueue } from './queue/leased-queue.js';
import { FOLLOW_UPS } from './queue/tables.js';
import type { DbOrTrx } from './types.js';

/**
 * Follow-up reply rows. The row is its own job: the leased queue on `follow_ups` (a worker
 * holds it while it is PUBLISHING under its name; every change a worker makes is guarded by it).
 */

export const followUpQueue = leasedQueue(FOLLOW_UPS);

export async function insertFollowUp(trx: DbOrTrx, row: Insertable<FollowUpsTable>): Promise<void> {
  await trx.insertInto('follow_ups').values(row).execute();
}

export async function countFollowUps(db: DbOrTrx, threadId: string): Promise<number> {
  const row = await db
    .selectFrom('follow_ups')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('thread_id', '=', threadId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A thread's follow-ups by `dueAt` (unscheduled ones last), then creation. */
export function listFollowUps(db: DbOrTrx, threadId: string): Promise<FollowUpRow[]> {
  return db
    .selectFrom('follow_ups')
    .selectAll()
    .where('thread_id', '=', threadId)
    .orderBy(sql`due_at ASC NULLS LAST`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Locked (FOR UPDATE): the claim skips it until the caller's transaction ends. */
export function findFollowUpForUpdate(trx: DbOrTrx, threadId: string, id: string): Promise<FollowUpRow | undefined> {
  return trx.selectFrom('follow_ups').selectAll().where('thread_id', '=', threadId).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Locks every follow-up of the thread (the claim skips them) and returns them. */
export function lockFollowUpsOf(trx: DbOrTrx, threadId: string): Promise<FollowUpRow[]> {
  return trx.selectFrom('follow_ups').selectAll().where('thread_id', '=', threadId).forUpdate().execute();
}

/**
 * A FAILED follow-up is due again at `dueAt`, with a fresh count of attempts. Its saved network
 * state (container, post id) is kept: the publisher resumes from it, so a reply that did go out
 * before the failure is found, not sent twice.
 */
export async function resetFollowUpForRetry(trx: DbOrTrx, id: string, dueAt: Date, now: Date): Promise<void> {
  await trx
    .updateTable('follow_ups')
    .set({
      status: 'PENDING',
      due_at: dueAt,
      run_at: dueAt,
      attempts: 0,
      locked_by: null,
      locked_until: null,
      last_error: null,
      error_code: null,
      error_message: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'FAILED')
    .execute();
}

export async function deleteFollowUp(trx: DbOrTrx, id: string): Promise<void> {
  await trx.deleteFrom('follow_ups').where('id', '=', id).execute();
}

/**
 * Gives the thread's unscheduled follow-ups their due time: the thread's last post's
 * `published_at` plus each one's delay. Run in the statement that marks the thread PUBLISHED
 * (followUpsDue), and on its own when one is created for a thread already published.
 */
export async function scheduleFollowUps(trx: DbOrTrx, threadId: string, now: Date): Promise<void> {
  const thread = cteRef<{ id: string }>('thread');
  await sql`WITH ${cte('thread', sql`SELECT id FROM threads WHERE id = ${threadId}`)}, ${followUpsDue(thread, now)} SELECT 1`.execute(trx);
}

/**
 * `follow_ups_due AS (UPDATE …)`: the due time of `thread`'s unscheduled follow-ups, from its last
 * post's publish time. With `lastPublishedNow`, the statement itself publishes the last post at
 * `now` (it cannot see that change: one snapshot), so a last post not yet published counts as now.
 */
export function followUpsDue(thread: CteRef<{ id: string }>, now: Date, lastPublishedNow = false): RawBuilder<unknown> {
  const lastAt = lastPublishedNow ? sql`coalesce(last.published_at, ${now}::timestamptz)` : sql`last.published_at`;
  return cte(
    'follow_ups_due',
    sql`
    UPDATE follow_ups AS f
    SET due_at = ${lastAt} + make_interval(mins => f.delay_minutes),
        run_at = ${lastAt} + make_interval(mins => f.delay_minutes),
        updated_at = ${now}::timestamptz
    FROM ${thread.from} CROSS JOIN LATERAL (SELECT published_at FROM posts WHERE thread_id = ${thread.col('id')} ORDER BY post_order DESC LIMIT 1) AS last
    WHERE f.thread_id = ${thread.col('id')} AND f.due_at IS NULL AND f.status = 'PENDING' AND ${lastAt} IS NOT NULL`,
  );
}
