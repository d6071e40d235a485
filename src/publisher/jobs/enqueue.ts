import { type RawBuilder, sql } from 'kysely';
import { newId } from '../../lib/ids.js';
import { firstPostPublishedAt } from '../../repos/posts.js';
import { type DbOrTrx, findThread } from '../../repos/threads.js';
import { nextAnalyticsRun, PLUG_FIRST_CHECK_MS, spreadOf } from './schedule.js';

/**
 * A data-modifying CTE, `jobs AS (INSERT …)`, that enqueues the follow-up jobs of the thread in
 * `src` (a CTE with the thread's columns and `first_post_published_at`): analytics always, a
 * repost when the thread asks for one, a plug when it records one. Written into the statement
 * that marks the thread PUBLISHED (repos/threads.ts completeThread), so they exist if and only
 * if it is, at no extra round trip; ON CONFLICT keeps a repeat from adding more. `publishedAt`
 * is the thread's publish time (the first analytics refresh counts from it); the repost and the
 * plug count from the first post's, read from `src`.
 */
export function followUpJobsCte(publishedAt: Date, now: Date): RawBuilder<unknown> {
  const analyticsId = newId(now.getTime());
  const analyticsAt = nextAnalyticsRun(publishedAt, publishedAt, spreadOf(analyticsId))!;
  const firstAt = sql`coalesce(src.first_post_published_at, ${now}::timestamptz)`;
  return sql`jobs AS (
      INSERT INTO jobs (id, kind, thread_id, status, run_at, created_at, updated_at)
      SELECT j.id, j.kind, src.id, 'PENDING', j.run_at, ${now}::timestamptz, ${now}::timestamptz
      FROM src CROSS JOIN LATERAL (VALUES
        (${analyticsId}::text, 'ANALYTICS', ${analyticsAt}::timestamptz),
        (${newId(now.getTime())}::text, 'REPOST', ${firstAt} + src.auto_repost_delay_hours * interval '1 hour'),
        (${newId(now.getTime())}::text, 'PLUG',
          CASE WHEN src.auto_plug_text IS NOT NULL AND src.auto_plug_min_likes IS NOT NULL
               THEN ${firstAt} + ${PLUG_FIRST_CHECK_MS}::int * interval '1 millisecond' END)
      ) AS j (id, kind, run_at)
      WHERE j.run_at IS NOT NULL
      ON CONFLICT (thread_id, kind) DO NOTHING
    )`;
}

/** Enqueues a published thread's follow-up jobs on their own (the statement above, alone). */
export async function enqueueFollowUpJobs(db: DbOrTrx, threadId: string, now: Date): Promise<void> {
  const thread = await findThread(db, threadId);
  if (!thread) throw new Error(`thread ${threadId} not found`);
  const first = await firstPostPublishedAt(db, threadId);
  await sql`
    WITH src AS (SELECT t.*, ${first}::timestamptz AS first_post_published_at FROM threads AS t WHERE t.id = ${threadId}),
    ${followUpJobsCte(thread.published_at ?? now, now)}
    SELECT 1`.execute(db);
}
