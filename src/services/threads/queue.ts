import type { AppContext } from '../../context.js';
import type { AccountRow, ThreadRow } from '../../db/schema/index.js';
import type { IfMatch } from '../../lib/etag.js';
import type { DbOrTrx } from '../../repos/types.js';
import { moveThread } from './threads.js';
import { takeNextFreeInstant } from './time-slots.js';

/**
 * Where the queue puts a thread already saved, in the caller's transaction (which holds the
 * thread row and, from here on, the provider's queue): the provider's next free instant, the
 * thread's own instant counting as free, so a thread already at the first free instant stays
 * there. 400 at `queue` when there is none within 366 days.
 */
export function queuedInstantFor(trx: DbOrTrx, thread: ThreadRow, now: Date): Promise<Date> {
  return takeNextFreeInstant(trx, thread.provider_id, now, thread.id);
}

/** Moves a draft or a scheduled READY thread to its provider's next free time slot; answers as Reschedule does. */
export function queueThread(ctx: AppContext, account: AccountRow, threadId: string, ifMatch?: IfMatch) {
  return moveThread(ctx, account, threadId, ifMatch, 'Queueing', queuedInstantFor);
}
