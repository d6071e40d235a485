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
