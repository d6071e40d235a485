import { type Insertable, type RawBuilder, sql, type Updateable } from 'kysely';
import type { FollowUpRow, FollowUpsTable } from '../db/schema/index.js';
import type { PostNetworkState } from './posts.js';
import { type DbOrTrx, withoutTakeoverFlag } from './types.js';

/**
 * Follow-up reply rows. The row is its own job: a worker holds it while it is PUBLISHING under
 * its name (`whereLeaseHeld`, the one definition); every change a worker makes is guarded by it.
 */

// biome-ignore lint/suspicious/noExplicitAny: Kysely's where() overloads differ per builder; this helper only chains two calls.
function whereLeaseHeld<QB extends { where: any }>(qb: QB, workerId: string): QB {
  return qb.where('locked_by', '=', workerId).where('status', '=', 'PUBLISHING');
}

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

export async function deleteFollowUp(trx: DbOrTrx, id: string): Promise<void> {
  await trx.deleteFrom('follow_ups').where('id', '=', id).execute();
}

/**
 * Gives the thread's unscheduled follow-ups their due time: the thread's last post's
 * `published_at` plus each one's delay. Called in the transaction that marks the thread
 * PUBLISHED (as followUpsDueCte), and when one is created for a thread already published.
 */
export async function scheduleFollowUps(trx: DbOrTrx, threadId: string, now: Date): Promise<void> {
  await sql`WITH src AS (SELECT id FROM threads WHERE id = ${threadId}), ${followUpsDueCte(now)} SELECT 1`.execute(trx);
}

/**
 * The same as a data-modifying CTE for the thread in `src`, written into the statement that
 * marks it PUBLISHED (repos/threads.ts completeThread): due from its last post's publish time.
 */
export function followUpsDueCte(now: Date): RawBuilder<unknown> {
  return sql`follow_ups_due AS (
    UPDATE follow_ups AS f
    SET due_at = last.published_at + make_interval(mins => f.delay_minutes),
        run_at = last.published_at + make_interval(mins => f.delay_minutes),
        updated_at = ${now}::timestamptz
    FROM src CROSS JOIN LATERAL (SELECT published_at FROM posts WHERE thread_id = src.id ORDER BY post_order DESC LIMIT 1) AS last
    WHERE f.thread_id = src.id AND f.due_at IS NULL AND f.status = 'PENDING' AND last.published_at IS NOT NULL
  )`;
}

/**
 * Claims up to `limit` due follow-ups for `workerId` in one statement, as claimDueThreads does
 * for threads: the CTE locks due rows with SKIP LOCKED and the UPDATE marks them PUBLISHING
 * under a lease. One whose lease ran out (its worker crashed) is due again: a takeover.
 */
export async function claimDueFollowUps(
  db: DbOrTrx,
  workerId: string,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<{ rows: FollowUpRow[]; takeovers: number }> {
  const claimed = await sql<FollowUpRow & { taken_over: boolean }>`
    WITH due AS (
      SELECT id, status = 'PUBLISHING' AS taken_over FROM follow_ups
      WHERE (status = 'PENDING' AND run_at <= ${now})
         OR (status = 'PUBLISHING' AND locked_until < ${now})
      ORDER BY run_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE follow_ups AS f
    SET status = 'PUBLISHING', locked_by = ${workerId}, locked_until = ${leaseUntil},
        attempts = f.attempts + 1, updated_at = ${now}
    FROM due WHERE f.id = due.id
    RETURNING f.*, due.taken_over`.execute(db);
  return withoutTakeoverFlag(claimed.rows);
}

/** Extends the lease while `workerId` still holds it; false when it was lost to another worker. */
export async function renewFollowUpLease(db: DbOrTrx, id: string, workerId: string, until: Date): Promise<boolean> {
  const result = await whereLeaseHeld(db.updateTable('follow_ups').set({ locked_until: until }).where('id', '=', id), workerId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The heartbeat: extends every follow-up lease `workerId` holds. */
export async function renewFollowUpLeasesOf(db: DbOrTrx, workerId: string, until: Date): Promise<void> {
  await whereLeaseHeld(db.updateTable('follow_ups').set({ locked_until: until }), workerId).execute();
}

/** Ends a run: applies `changes` and releases the lease, only while `workerId` holds it. The row as saved; undefined when not held. */
export function releaseFollowUp(db: DbOrTrx, id: string, workerId: string, changes: Updateable<FollowUpsTable>, now: Date): Promise<FollowUpRow | undefined> {
  return whereLeaseHeld(
    db
      .updateTable('follow_ups')
      .set({ ...changes, locked_by: null, locked_until: null, updated_at: now })
      .where('id', '=', id),
    workerId,
  )
    .returningAll()
    .executeTakeFirst();
}

/**
 * Compare-and-set of the reply's container, under the lease (extended by the same statement):
 * saves `next` only if the saved container is still `expected` and no network post id is saved.
 */
export async function adoptFollowUpContainer(
  db: DbOrTrx,
  id: string,
  workerId: string,
  expected: string | null,
  next: PostNetworkState,
  leaseUntil: Date,
  now: Date,
): Promise<boolean> {
  const saved = await whereLeaseHeld(
    db
      .updateTable('follow_ups')
      .set({
        network_container_id: next.containerId,
        network_post_id: next.networkPostId,
        network_cid: next.cid,
        locked_until: leaseUntil,
        updated_at: now,
      })
      .where('id', '=', id),
    workerId,
  )
    .where('network_container_id', 'is not distinct from', expected)
    .where('network_post_id', 'is', null)
    .executeTakeFirst();
  return saved.numUpdatedRows > 0n;
}

/** A network fact about the saved container: true whoever learnt it. */
export async function recordFollowUpFacts(db: DbOrTrx, id: string, progress: PostNetworkState, now: Date): Promise<void> {
  await db
    .updateTable('follow_ups')
    .set({ network_post_id: progress.networkPostId, network_cid: progress.cid, updated_at: now })
    .where('id', '=', id)
    .where('network_container_id', 'is not distinct from', progress.containerId)
    .execute();
}

/** The next moment a follow-up becomes claimable (due, or a lease that runs out); null when none. */
export async function nextFollowUpDueAt(db: DbOrTrx): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    SELECT least(
      (SELECT min(run_at) FROM follow_ups WHERE status = 'PENDING'),
      (SELECT min(locked_until) FROM follow_ups WHERE status = 'PUBLISHING')
    ) AS at`.execute(db);
  return rows[0]?.at ?? null;
}
