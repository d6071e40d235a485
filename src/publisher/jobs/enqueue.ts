import type { Insertable } from 'kysely';
import type { JobsTable, ThreadJobKind } from '../../db/schema/index.js';
import { newId } from '../../lib/ids.js';
import { insertJobsOnce } from '../../repos/jobs.js';
import { firstPostPublishedAt } from '../../repos/posts.js';
import { type CompletedThread, type DbOrTrx, findThread } from '../../repos/threads.js';
import { nextAnalyticsRun, PLUG_FIRST_CHECK_MS, spreadOf } from './schedule.js';

const HOUR = 3_600_000;

/**
 * Enqueues a just-published thread's follow-up jobs: analytics always, a repost when the thread
 * asked for one, a plug when it recorded one. Called in the transaction that marks the thread
 * PUBLISHED, so they exist if and only if it is; ON CONFLICT keeps a repeat from adding more.
 */
export async function enqueueFollowUpJobs(trx: DbOrTrx, threadId: string, now: Date): Promise<void> {
  const thread = await findThread(trx, threadId);
  if (!thread) throw new Error(`thread ${threadId} not found`);
  await enqueueJobsOfPublishedThread(trx, { thread, firstPostPublishedAt: await firstPostPublishedAt(trx, threadId) }, now);
}

/** The same, for a thread whose row and first post's time the caller already holds (one statement). */
export async function enqueueJobsOfPublishedThread(trx: DbOrTrx, completed: CompletedThread, now: Date): Promise<void> {
  const { thread } = completed;
  const threadId = thread.id;
  const firstPublishedAt = completed.firstPostPublishedAt ?? now;
  const publishedAt = thread.published_at ?? now;

  const jobs: Insertable<JobsTable>[] = [];
  const analyticsId = newId(now.getTime());
  jobs.push(newJob(analyticsId, 'ANALYTICS', threadId, nextAnalyticsRun(publishedAt, publishedAt, spreadOf(analyticsId))!, now));
  if (thread.auto_repost_delay_hours !== null) {
    const runAt = new Date(firstPublishedAt.getTime() + thread.auto_repost_delay_hours * HOUR);
    jobs.push(newJob(newId(now.getTime()), 'REPOST', threadId, runAt, now));
  }
  if (thread.auto_plug_text !== null && thread.auto_plug_min_likes !== null) {
    jobs.push(newJob(newId(now.getTime()), 'PLUG', threadId, new Date(firstPublishedAt.getTime() + PLUG_FIRST_CHECK_MS), now));
  }
  await insertJobsOnce(trx, jobs);
}

function newJob(id: string, kind: ThreadJobKind, threadId: string, runAt: Date, now: Date): Insertable<JobsTable> {
  return {
    id,
    kind,
    thread_id: threadId,
    provider_id: null,
    status: 'PENDING',
    run_at: runAt,
    locked_by: null,
    locked_until: null,
    last_error: null,
    network_container_id: null,
    network_post_id: null,
    network_cid: null,
    permalink: null,
    created_at: now,
    updated_at: now,
  };
}
