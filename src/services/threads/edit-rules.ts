import type { FollowUpRow, PostRow, PublishStatus, ThreadRow } from '../../db/schema/index.js';
import { ConflictError, PreconditionFailedError } from '../../errors/index.js';
import { type IfMatch, ifMatchAllows } from '../../lib/etag.js';

/**
 * Which states allow which change, in one place. Callers hold the thread row locked (FOR
 * UPDATE, the lock the publisher's claim takes), so the state they check cannot change under
 * them.
 */

/** A publish is in flight while a worker holds an unexpired lease on the thread. */
function publishInFlight(thread: ThreadRow, now: Date): boolean {
  return thread.status === 'PUBLISHING' && thread.locked_until !== null && thread.locked_until > now;
}

/**
 * Every change to a thread: with `If-Match`, only the version the client read. Checked on the
 * locked row, so no change can land between the check and the write.
 */
export function assertIfMatch(thread: ThreadRow, condition: IfMatch | undefined): void {
  if (condition && !ifMatchAllows(condition, thread.version)) throw new PreconditionFailedError(`Thread ${thread.id}`);
}

/** Delete: refused only while a worker publishes the thread. */
export function assertDeletable(thread: ThreadRow, now: Date): void {
  if (publishInFlight(thread, now)) {
    throw new ConflictError('PUBLISH_IN_PROGRESS', 'This thread is being published right now; try again when it is done.');
  }
}

/**
 * Delete a follow-up, or the thread that has it: refused while a worker publishes the follow-up
 * (PUBLISHING under a live lease). A published one may go: Skein's record only.
 */
export function assertFollowUpDeletable(followUp: FollowUpRow, now: Date): void {
  if (followUp.status === 'PUBLISHING' && followUp.locked_until !== null && followUp.locked_until > now) {
    throw new ConflictError('PUBLISH_IN_PROGRESS', 'A follow-up of this thread is being published right now; try again when it is done.');
  }
}

/** Reschedule and Edit Thread: the thread and every post of it READY (nothing published yet). */
export function assertAllPostsReady(thread: ThreadRow, postStatuses: PublishStatus[], action: string): void {
  if (thread.status !== 'READY' || postStatuses.some((s) => s !== 'READY')) {
    throw new ConflictError('NOT_EDITABLE', `${action} needs every post of the thread to be READY (not yet published).`);
  }
}

/** Edit Single Post: a READY post of a READY thread, or of a FAILED one (at rest, fixed before a retry). */
export function assertPostEditable(thread: ThreadRow, post: PostRow): void {
  if (post.status !== 'READY') throw new ConflictError('NOT_EDITABLE', `Only a READY post can be edited; this one is ${post.status}.`);
  if (thread.status !== 'READY' && thread.status !== 'FAILED') {
    throw new ConflictError('NOT_EDITABLE', `The thread is ${thread.status}; its posts cannot be edited now.`);
  }
}

/** Retry: only a FAILED thread. */
export function assertRetryable(thread: ThreadRow): void {
  if (thread.status !== 'FAILED') throw new ConflictError('NOT_EDITABLE', `Only a FAILED thread can be retried; this one is ${thread.status}.`);
}

export function assertFollowUpRetryable(row: { status: string }): void {
  if (row.status !== 'FAILED') throw new ConflictError('NOT_EDITABLE', `Only a FAILED follow-up can be retried; this one is ${row.status}.`);
}

/**
 * A READY post may still be on its way out: an earlier attempt saved a Threads container or sent
 * a Bluesky write and its outcome is not known yet (the publisher finds out at its next attempt).
 * Editing it then would publish the old text, or lose track of the post that went out.
 */
export function assertNotSentYet(posts: Array<{ post_order: number; network_container_id: string | null; network_post_id: string | null }>): void {
  const sent = posts.find((p) => p.network_container_id !== null || p.network_post_id !== null);
  if (sent) {
    throw new ConflictError(
      'NOT_EDITABLE',
      `Post ${sent.post_order} may already be on the network: an earlier attempt to publish it is not confirmed yet. Skein finds out at its next attempt to publish the thread; until then it cannot be edited.`,
    );
  }
}
