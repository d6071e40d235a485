import { type RawBuilder, sql } from 'kysely';
import { type CteRef, cte, cteRef } from './cte.js';
import { leasedQueue } from './queue/leased-queue.js';
import { JOBS } from './queue/tables.js';
import type { DbOrTrx } from './types.js';

/**
 * Follow-up job rows (repost, plug, analytics, followers): the leased queue on `jobs` (a worker
 * holds a job while it is RUNNING under its name; every end of a run is guarded by it), and
 * the enqueueing of a published thread's jobs.
 */

export const jobQueue = leasedQueue(JOBS);

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

/** The plug's reply is out: its network id, CID and permalink. */
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

/**
 * The ids and times of a published thread's follow-up jobs, as the publisher's schedule
 * (publisher/jobs/schedule.ts) decides them; the repost's and the plug's times count from the
 * first post's publish time, which the statement reads.
 */
export interface FollowUpJobsPlan {
  analytics: { id: string; runAt: Date };
  repost: { id: string };
  /** The plug's first likes check comes this long after the first post was published. */
  plug: { id: string; firstCheckMs: number };
}

/** What the follow-up jobs read of their thread. */
export interface ThreadForJobs {
  id: string;
  auto_repost_delay_hours: number | null;
  auto_plug_text: string | null;
  auto_plug_min_likes: number | null;
  first_post_published_at: Date | null;
}

/**
 * A data-modifying CTE, `jobs AS (INSERT …)`, that enqueues the follow-up jobs of `thread`:
 * analytics always, a repost when the thread asks for one, a plug when it records one. Written
 * into the statement that marks the thread PUBLISHED (thread-queue.ts completeThread), so they
 * exist if and only if it is, at no extra round trip; ON CONFLICT keeps a repeat from adding more.
 */
export function followUpJobs(thread: CteRef<ThreadForJobs>, plan: FollowUpJobsPlan, now: Date): RawBuilder<unknown> {
  const firstAt = sql`coalesce(${thread.col('first_post_published_at')}, ${now}::timestamptz)`;
  return cte(
    'jobs',
    sql`
      INSERT INTO jobs (id, kind, thread_id, status, run_at, created_at, updated_at)
      SELECT j.id, j.kind, ${thread.col('id')}, 'PENDING', j.run_at, ${now}::timestamptz, ${now}::timestamptz
      FROM ${thread.from} CROSS JOIN LATERAL (VALUES
        (${plan.analytics.id}::text, 'ANALYTICS', ${plan.analytics.runAt}::timestamptz),
        (${plan.repost.id}::text, 'REPOST', ${firstAt} + ${thread.col('auto_repost_delay_hours')} * interval '1 hour'),
        (${plan.plug.id}::text, 'PLUG',
          CASE WHEN ${thread.col('auto_plug_text')} IS NOT NULL AND ${thread.col('auto_plug_min_likes')} IS NOT NULL
               THEN ${firstAt} + ${plan.plug.firstCheckMs}::int * interval '1 millisecond' END)
      ) AS j (id, kind, run_at)
      WHERE j.run_at IS NOT NULL
      ON CONFLICT (thread_id, kind) DO NOTHING`,
  );
}

/** Enqueues a published thread's follow-up jobs on their own (the CTE above, alone). */
export async function insertFollowUpJobs(db: DbOrTrx, threadId: string, plan: FollowUpJobsPlan, now: Date): Promise<void> {
  const thread = cteRef<ThreadForJobs>('thread');
  await sql`
    WITH ${cte(
      'thread',
      sql`SELECT t.id, t.auto_repost_delay_hours, t.auto_plug_text, t.auto_plug_min_likes,
            (SELECT p.published_at FROM posts AS p WHERE p.thread_id = t.id ORDER BY p.post_order LIMIT 1) AS first_post_published_at
          FROM threads AS t WHERE t.id = ${threadId}`,
    )},
    ${followUpJobs(thread, plan, now)}
    SELECT 1`.execute(db);
}
