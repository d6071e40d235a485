import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { ConflictError } from '../../errors/index.js';
import type { IfMatch } from '../../lib/etag.js';
import { decideThread } from '../../repos/approvals.js';
import { assertIfMatch } from './edit-rules.js';
import { requireAccessibleThread } from './thread-access.js';
import { getVersionedThread } from './threads.js';

/**
 * Approve or reject a PENDING thread (decisions.md "Teams"; the editor role is checked by the
 * route's access entry). If-Match is honoured; a thread not pending is a 409 and nothing changes.
 * An approved thread whose time has passed is published at once: the publisher is woken.
 */
export async function decideApproval(
  ctx: AppContext,
  account: AccountRow,
  threadId: string,
  decision: { state: 'APPROVED' | 'REJECTED'; note: string | null },
  ifMatch?: IfMatch,
) {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    assertIfMatch(thread, ifMatch);
    const decided = thread.approval_state === 'PENDING' && (await decideThread(trx, thread.id, { ...decision, by: account.email }, now));
    if (!decided) {
      throw new ConflictError('NOT_PENDING', `Thread ${threadId} is not waiting for approval (its approval is ${thread.approval_state ?? 'not asked'}).`);
    }
  });
  if (decision.state === 'APPROVED') ctx.scheduleSignal.ring();
  return getVersionedThread(ctx, account, threadId);
}
