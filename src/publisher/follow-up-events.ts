import type { FollowUpRow } from '../db/schema/index.js';
import type { DbOrTrx } from '../repos/types.js';
import { writeFollowUpEvent } from '../repos/webhook-outbox.js';

/**
 * The two places a follow-up reply's outcome becomes final. Each is called once per follow-up,
 * inside the transaction that records the outcome and only when this worker still held the
 * lease, so the webhook event written here commits with the change it reports (or not at all).
 */

/** The follow-up is now PUBLISHED; `followUp` is the row as saved (network id, permalink, publishedAt). */
export async function onFollowUpPublished(trx: DbOrTrx, followUp: FollowUpRow, now: Date): Promise<void> {
  await writeFollowUpEvent(trx, 'follow_up.published', followUp, null, now);
}

/** The follow-up is now FAILED for good; `error` is what the API shows. */
export async function onFollowUpFailed(trx: DbOrTrx, followUp: FollowUpRow, error: { code: string; message: string }, now: Date): Promise<void> {
  await writeFollowUpEvent(trx, 'follow_up.failed', followUp, error, now);
}
