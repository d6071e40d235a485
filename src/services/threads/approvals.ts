import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { ConflictError } from '../../errors/index.js';
import type { IfMatch } from '../../lib/etag.js';
import { decideThread } from '../../repos/approvals.js';
import { assertIfMatch } from './edit-rules.js';
import { type Actor, memberActor } from './thread-access.js';
import { getVersionedThread } from './threads.js';

type Decision = { state: 'APPROVED' | 'REJECTED'; note: string | null };

/**
 * Records an approval or rejection of a PENDING thread by `actor` (a member or a review link's
 * reviewer), with its event. If-Match is honoured; a thread not pending is a 409 and nothing
 * changes. An approved thread whose time has passed is published at once: the publisher is woken.
 */
export async function recordDecision(ctx: AppContext, actor: Actor, threadId: string, decision: Decision, ifMatch?: IfMatch): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const thread = await actor.thread(trx, threadId, { forUpdate: true });
    assertIfMatch(thread, ifMatch);
    const decided = thread.approval_state === 'PENDING' && (await decideThread(trx, thread.id, { ...decision, by: actor.name }, now));
    if (!decided) {
      throw new ConflictError('NOT_PENDING', `Thread ${threadId} is not waiting for approval (its approval is ${thread.approval_state ?? 'not asked'}).`);
    }
  });
  if (decision.state === 'APPROVED') ctx.scheduleSignal.ring();
}

/** A member's decision (decisions.md "Teams"; the editor role is checked by the route's access entry). */
export async function decideApproval(ctx: AppContext, account: AccountRow, threadId: string, decision: Decision, ifMatch?: IfMatch) {
  await recordDecision(ctx, memberActor(account), threadId, decision, ifMatch);
  return getVersionedThread(ctx, account, threadId);
}
