import type { AppContext } from '../context.js';
import type { AccountRow } from '../db/schema/index.js';
import { listPosts } from '../repos/posts.js';
import { rescheduleThread } from '../repos/threads.js';
import { assertAllPostsReady } from './edit-rules.js';
import { requireAccessibleThread } from './threads.js';
import { takeNextFreeInstant } from './time-slots.js';

/**
 * Moves a draft or a scheduled READY thread to its provider's next free time slot; answers as
 * Reschedule does. The thread's own instant counts as free, so a thread already at the first
 * free instant stays there.
 */
export async function queueThread(ctx: AppContext, account: AccountRow, threadId: string) {
  const now = ctx.clock.now();
  const result = await ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    const posts = await listPosts(trx, thread.id);
    assertAllPostsReady(
      thread,
      posts.map((p) => p.status),
      'Queueing',
    );
    const postsUpdated = posts.length;
    const scheduledAt = await takeNextFreeInstant(trx, thread.provider_id, now, thread.id);
    await rescheduleThread(trx, thread.id, scheduledAt, now);
    return { threadId: thread.id, scheduledAt: scheduledAt.toISOString(), postsUpdated };
  });
  ctx.scheduleSignal.ring();
  return result;
}
