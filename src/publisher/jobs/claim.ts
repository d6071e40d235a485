import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { JobRow } from '../../db/schema/index.js';

/**
 * Claims up to `limit` due jobs for `workerId` in one statement, as claimDueThreads does for
 * threads: the CTE locks due rows with SKIP LOCKED (concurrent workers take disjoint sets) and
 * the UPDATE marks them RUNNING under a lease. A job whose lease ran out (its worker crashed) is
 * due again. The statement commits before any network call is made.
 */
export async function claimDueJobs(db: Db, workerId: string, now: Date, leaseMs: number, limit: number): Promise<JobRow[]> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const claimed = await sql<JobRow>`
    WITH due AS (
      SELECT id FROM jobs
      WHERE (status = 'PENDING' AND run_at <= ${now})
         OR (status = 'RUNNING' AND locked_until < ${now})
      ORDER BY run_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE jobs AS j
    SET status = 'RUNNING', locked_by = ${workerId}, locked_until = ${leaseUntil},
        attempts = j.attempts + 1, updated_at = ${now}
    FROM due WHERE j.id = due.id
    RETURNING j.*`.execute(db);
  return claimed.rows;
}

/** Extends the lease while this worker still holds it; false when it was lost to another worker. */
export async function renewJobLease(db: Db, jobId: string, workerId: string, now: Date, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ locked_until: new Date(now.getTime() + leaseMs) })
    .where('id', '=', jobId)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'RUNNING')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
