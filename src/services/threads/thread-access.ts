import type { AccountRow, ThreadRow } from '../../db/schema/index.js';
import { NotFoundError } from '../../errors/index.js';
import { findThread } from '../../repos/threads.js';
import type { DbOrTrx } from '../../repos/types.js';
import { canAccess } from '../accounts/accounts.js';

/** A thread the caller may see; any other (or none) is "not found". */
export async function requireAccessibleThread(db: DbOrTrx, account: AccountRow, threadId: string, options: { forUpdate?: boolean } = {}): Promise<ThreadRow> {
  const thread = await findThread(db, threadId, options);
  if (!thread || !(await canAccess(db, account.id, thread))) throw new NotFoundError(`Thread ${threadId}`);
  return thread;
}

/**
 * Who approves, rejects or comments, and which threads they reach: a member (signed with their
 * email) or a review link's reviewer (the name they gave; only the link's threads). The approval
 * and comment services take either, so both follow the same rules and fire the same events.
 */
export interface Actor {
  name: string;
  /** The member's account; null for a reviewer. */
  accountId: string | null;
  /** The thread if this actor may reach it, else NotFoundError. */
  thread(db: DbOrTrx, threadId: string, options?: { forUpdate?: boolean }): Promise<ThreadRow>;
}

export function memberActor(account: AccountRow): Actor {
  return { name: account.email, accountId: account.id, thread: (db, threadId, options) => requireAccessibleThread(db, account, threadId, options) };
}
