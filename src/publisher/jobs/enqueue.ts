import { newId } from '../../lib/ids.js';
import { type FollowUpJobsPlan, insertFollowUpJobs } from '../../repos/jobs.js';
import { findThread } from '../../repos/threads.js';
import type { DbOrTrx } from '../../repos/types.js';
import { nextAnalyticsRun, PLUG_FIRST_CHECK_MS, spreadOf } from './schedule.js';

/**
 * The follow-up jobs a published thread gets: analytics always, a repost when the thread asks
 * for one, a plug when it records one (repos/jobs.ts followUpJobs writes them, in the statement
 * that marks the thread PUBLISHED). `publishedAt` is the thread's publish time: the first
 * analytics refresh counts from it; the repost and the plug count from the first post's.
 */
export function followUpJobsPlan(publishedAt: Date, now: Date): FollowUpJobsPlan {
  const analyticsId = newId(now.getTime());
  return {
    analytics: { id: analyticsId, runAt: nextAnalyticsRun(publishedAt, publishedAt, spreadOf(analyticsId))! },
    repost: { id: newId(now.getTime()) },
    plug: { id: newId(now.getTime()), firstCheckMs: PLUG_FIRST_CHECK_MS },
  };
}

/** Enqueues a published thread's follow-up jobs on their own. */
export async function enqueueFollowUpJobs(db: DbOrTrx, threadId: string, now: Date): Promise<void> {
  const thread = await findThread(db, threadId);
  if (!thread) throw new Error(`thread ${threadId} not found`);
  await insertFollowUpJobs(db, threadId, followUpJobsPlan(thread.published_at ?? now, now), now);
}
