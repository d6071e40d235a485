import type { FollowUpRow } from '../db/schema/index.js';
import type { DbOrTrx } from '../repos/types.js';

/**
 * The two places a follow-up reply's outcome becomes final. Each is called once per follow-up,
 * inside the transaction that records the outcome and only when this worker still held the
 * lease, so an event written here commits with the change it reports (or not at all).
 *
 * WEBHOOKS: `follow_up.published` and `follow_up.failed` are to be written here (decisions.md,
 * "Events: webhooks"; `data`: followUpId, threadId, providerId, teamId, and `error` when
 * failed; the thread row, read with `trx`, gives providerId and teamId). Nothing is written yet.
 */

/** The follow-up is now PUBLISHED; `followUp` is the row as saved (network id, permalink, publishedAt). */
export async function onFollowUpPublished(_trx: DbOrTrx, _followUp: FollowUpRow): Promise<void> {}

/** The follow-up is now FAILED for good; `error` is what the API shows. */
export async function onFollowUpFailed(_trx: DbOrTrx, _followUp: FollowUpRow, _error: { code: string; message: string }): Promise<void> {}
