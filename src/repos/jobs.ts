import { type Insertable, sql, type Updateable } from 'kysely';
import type { JobRow, JobsTable } from '../db/schema/index.js';
import type { PostNetworkState } from './posts.js';
import { type DbOrTrx, withoutTakeoverFlag } from './types.js';

/**
 * Follow-up job rows (repost, plug, analytics). A worker holds a job while it is RUNNING under
 * its name (`whereLeaseHeld`, the one definition); every end of a run is guarded by it.
 */

// biome-ignore lint/suspicious/noExplicitAny: Kysely's where() overloads differ per builder; this helper only chains two calls.
function whereLeaseHeld<QB extends { where: any }>(qb: QB, workerId: string): QB {
  return qb.where('locked_by', '=', workerId).where('status', '=', 'RUNNING');
}

/** Adds jobs; one of each kind per thread (a repeat adds nothing). */
export async function insertJobsOnce(trx: DbOrTrx, jobs: Insertable<JobsTable>[]): Promise<void> {
  if (jobs.length === 0) return;
  await trx
    .insertInto('jobs')
    .values(jobs)
    .onConflict((oc) => oc.columns(['thread_id', 'kind']).doNothing())
    .execute();
}

/**
 * Claims up to `limit` due jobs for `workerId` in one statement, as claimDueThreads does for
 * threads: the CTE locks due rows with SKIP LOCKED (concurrent workers take disjoint sets) and
 * the UPDATE marks them RUNNING under a lease. A job whose lease ran out (its worker crashed) is
 * due again: such a claim is a takeover, counted in `takeovers`.
 */
export async function claimDueJobs(db: DbOrTrx, workerId: string, now: Date, leaseUntil: Date, limit: number): Promise<{ rows: JobRow[]; takeovers: number }> {
  const claimed = await sql<JobRow & { taken_over: boolean }>`
    WITH due AS (
      SELECT id, status = 'RUNNING' AS taken_over FROM jobs
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
    RETURNING j.*, due.taken_over`.execute(db);
  return withoutTakeoverFlag(claimed.rows);
}

/** Jobs due now (PENDING with run_at at or before `now`): the queue depth gauge. */
export async function countDueJobs(db: DbOrTrx, now: Date): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', 'PENDING')
    .where('run_at', '<=', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Extends the lease while `workerId` still holds it; false when it was lost to another worker. */
export async function renewJobLease(db: DbOrTrx, id: string, workerId: string, until: Date): Promise<boolean> {
  const result = await whereLeaseHeld(db.updateTable('jobs').set({ locked_until: until }).where('id', '=', id), workerId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The heartbeat: extends every job lease `workerId` holds. */
export async function renewJobLeasesOf(db: DbOrTrx, workerId: string, until: Date): Promise<void> {
  await whereLeaseHeld(db.updateTable('jobs').set({ locked_until: until }), workerId).execute();
}

/** Ends a run: applies `changes` and releases the lease, only while `workerId` holds it. */
export async function releaseJob(db: DbOrTrx, id: string, workerId: string, changes: Updateable<JobsTable>, now: Date): Promise<void> {
  await whereLeaseHeld(
    db
      .updateTable('jobs')
      .set({ ...changes, locked_by: null, locked_until: null, updated_at: now })
      .where('id', '=', id),
    workerId,
  ).execute();
}

/**
 * Compare-and-set of the plug's container, under the job's lease (extended by the same
 * statement): saves `next` only if the saved container is still `expected` and no network post
 * id is saved yet.
 */
export async function adoptJobContainer(
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
      .updateTable('jobs')
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

/** A network fact about the plug's saved container: true whoever learnt it. */
export async function recordJobFacts(db: DbOrTrx, id: string, progress: PostNetworkState, now: Date): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ network_post_id: progress.networkPostId, network_cid: progress.cid, updated_at: now })
    .where('id', '=', id)
    .where('network_container_id', 'is not distinct from', progress.containerId)
    .execute();
}

export async function saveJobPublished(
  db: DbOrTrx,
  id: string,
  ref: { networkPostId: string; cid: string | null; permalink: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ network_post_id: ref.networkPostId, network_cid: ref.cid, permalink: ref.permalink, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** The next moment a job becomes claimable (due, or a lease that runs out); null when none. */
export async function nextJobDueAt(db: DbOrTrx): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    SELECT least(
      (SELECT min(run_at) FROM jobs WHERE status = 'PENDING'),
      (SELECT min(locked_until) FROM jobs WHERE status = 'RUNNING')
    ) AS at`.execute(db);
  return rows[0]?.at ?? null;
}
