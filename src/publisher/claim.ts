import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { ThreadRow } from '../db/schema/index.js';

/**
 * Claims up to `limit` due threads for `workerId` in one statement, graphile-worker style: the
 * CTE locks due rows with SKIP LOCKED (so concurrent workers take disjoint sets), the UPDATE
 * marks them PUBLISHING with a lease. A thread whose lease ran out (its worker crashed) is due
 * again. The transaction commits before any network call is made.
 */
export async function claimDueThreads(db: Db, workerId: string, now: Date, leaseMs: number, limit: number): Promise<ThreadRow[]> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  return db.transaction().execute(async (trx) => {
    const claimed = await sql<ThreadRow>`
      WITH due AS (
        SELECT id FROM threads
        WHERE scheduled_at IS NOT NULL AND scheduled_at <= ${now}
          AND (
            (status = 'READY' AND (next_attempt_at IS NULL OR next_attempt_at <= ${now}))
            OR (status = 'PUBLISHING' AND locked_until < ${now})
          )
        ORDER BY scheduled_at, id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE threads AS t
      SET status = 'PUBLISHING', locked_by = ${workerId}, locked_until = ${leaseUntil},
          attempts = t.attempts + 1, updated_at = ${now}
      FROM due WHERE t.id = due.id
      RETURNING t.*`.execute(trx);
    const ids = claimed.rows.map((r) => r.id);
    if (ids.length) {
      await trx
        .updateTable('posts')
        .set({ status: 'PUBLISHING', updated_at: now })
        .where('thread_id', 'in', ids)
        .where('status', 'in', ['READY', 'PUBLISHING'])
        .execute();
    }
    return claimed.rows;
  });
}

/**
 * The worker's heartbeat: extends every lease it holds, the thread being published, the threads
 * claimed with it and waiting their turn, and the jobs it runs.
 */
export async function renewWorkerLeases(db: Db, workerId: string, now: Date, leaseMs: number): Promise<void> {
  const until = new Date(now.getTime() + leaseMs);
  await db.updateTable('threads').set({ locked_until: until }).where('locked_by', '=', workerId).where('status', '=', 'PUBLISHING').execute();
  await db.updateTable('jobs').set({ locked_until: until }).where('locked_by', '=', workerId).where('status', '=', 'RUNNING').execute();
}

/** Extends the lease while a worker still holds it; false when it was lost to another worker. */
export async function renewLease(db: Db, threadId: string, workerId: string, now: Date, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable('threads')
    .set({ locked_until: new Date(now.getTime() + leaseMs) })
    .where('id', '=', threadId)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'PUBLISHING')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The next moment anything becomes claimable: a scheduled thread, a retry after backoff, a
 * follow-up job, or a lease that runs out. Null when nothing is pending. The idle loop sleeps
 * until then (at most one poll interval), so a thread goes out at its second, not at a poll.
 */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    SELECT least(
      (SELECT min(scheduled_at) FROM threads WHERE status = 'READY' AND scheduled_at IS NOT NULL AND next_attempt_at IS NULL),
      (SELECT min(greatest(scheduled_at, next_attempt_at)) FROM threads WHERE status = 'READY' AND scheduled_at IS NOT NULL AND next_attempt_at IS NOT NULL),
      (SELECT min(locked_until) FROM threads WHERE status = 'PUBLISHING'),
      (SELECT min(run_at) FROM jobs WHERE status = 'PENDING'),
      (SELECT min(locked_until) FROM jobs WHERE status = 'RUNNING')
    ) AS at`.execute(db);
  return rows[0]?.at ?? null;
}
