import type { AppContext } from '../context.js';
import type { AccountRow } from '../db/schema/index.js';
import { scheduleThreadAt } from '../repos/time-slots.js';
import { assertAllPostsReady, requireAccessibleThread } from './threads.js';
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
    const postsUpdated = await assertAllPostsReady(trx, thread, 'Queueing');
    const scheduledAt = await takeNextFreeInstant(trx, thread.provider_id, now, thread.id);
    await scheduleThreadAt(trx, thread.id, scheduledAt, now);
    return { threadId: thread.id, scheduledAt: scheduledAt.toISOString(), postsUpdated };
  });
  ctx.scheduleSignal.ring();
  return result;
}
