import type { Updateable } from 'kysely';
import type { FollowUpRow, FollowUpsTable, ProviderRow } from '../db/schema/index.js';
import { ContainerNotReady, LeaseLostError, type PublishError, type PublishedRef } from '../networks/platform.js';
import { followUpQueue } from '../repos/follow-ups.js';
import { markProviderExpired } from '../repos/providers.js';
import type { DbOrTrx } from '../repos/types.js';
import { runDue } from './claim.js';
import type { PublishDeps } from './deps.js';
import { asPublishError, lastError } from './failures.js';
import { onFollowUpFailed, onFollowUpPublished } from './follow-up-events.js';
import { type JobTarget, loadThreadTarget, publishedRef } from './jobs/target.js';
import { fencedProgress, queueProgressStore } from './lease.js';
import { backoffMs, MAX_ATTEMPTS } from './publish-thread.js';

/**
 * Follow-up replies (decisions.md "Follow-up replies"): each row is published once, at its
 * `run_at`, as a reply to its thread's last post (root: the first post), with the guarantees of
 * a thread's posts. The row is claimed with a lease like a thread; the reply is published under
 * the row's own UUIDv7 id (Bluesky derives its record key from it) and each step's network
 * state is saved on the row through `fencedProgress`, so a retry (after a crash, a lost answer,
 * a takeover) finishes that same reply and a worker that lost its lease never posts another.
 * Failures follow publishing's rules: transient → backoff (publish-thread's), FAILED after
 * MAX_ATTEMPTS claims; permanent → FAILED; auth → FAILED and the provider EXPIRED.
 */

/** Claims a batch of due follow-ups and publishes them one by one; returns how many were claimed. */
export function runDueFollowUps(deps: PublishDeps, limit: number): Promise<number> {
  return runDue(deps, followUpQueue, limit, (row) => runClaimedFollowUp(deps, row), { what: 'follow-up reply', ids: (row) => ({ followUpId: row.id }) });
}

async function runClaimedFollowUp(deps: PublishDeps, row: FollowUpRow): Promise<void> {
  let target: JobTarget | null = null;
  try {
    target = await loadThreadTarget(deps, row.thread_id);
    // The thread was deleted since the claim; the follow-up went with it.
    if (!target) return;
    const published = await publishReply(deps, row, target);
    await markPublished(deps, row, published);
  } catch (err) {
    // Another worker holds the follow-up now and finishes it; this one must not record an outcome.
    if (err instanceof LeaseLostError) deps.ctx.logger.info({ followUpId: row.id }, err.message);
    else if (err instanceof ContainerNotReady) await comeBackAt(deps, row, err.retryAt);
    else await failOrRetry(deps, row, err, target?.provider ?? null);
  }
}

async function publishReply(deps: PublishDeps, row: FollowUpRow, target: JobTarget): Promise<PublishedRef> {
  const replyTo = { root: publishedRef(target.posts[0]), parent: publishedRef(target.posts.at(-1)) };
  const saved = { containerId: row.network_container_id, networkPostId: row.network_post_id, cid: row.network_cid };
  const fenced = fencedProgress(queueProgressStore(deps, followUpQueue, row, row.id), saved);
  await fenced.confirmLease();
  return target.platform.publishPost({
    account: target.account,
    post: { id: row.id, text: row.text, topic: null, media: row.media, spoilerRanges: [], isSpoilerMedia: false, writtenAt: row.created_at },
    replyTo,
    progress: saved,
    ...fenced,
    comeBackLater: { containerSavedAt: row.network_container_at },
  });
}

/**
 * The network is still processing the reply's saved container (a video, or a carousel's
 * items): the row goes back PENDING, due at `retryAt`, the claim not counted, and the next
 * claim resumes on the same container (as a thread's post does, publish-thread.ts).
 */
async function comeBackAt(deps: PublishDeps, row: FollowUpRow, retryAt: Date): Promise<void> {
  await followUpQueue.handBack(deps.ctx.db, row, deps.workerId, deps.ctx.clock.now(), { run_at: retryAt });
}

function release(deps: PublishDeps, row: FollowUpRow, changes: Updateable<FollowUpsTable>, trx: DbOrTrx = deps.ctx.db): Promise<FollowUpRow | undefined> {
  return followUpQueue.release(trx, row, deps.workerId, changes, deps.ctx.clock.now());
}

async function markPublished(deps: PublishDeps, row: FollowUpRow, ref: PublishedRef): Promise<void> {
  const { ctx } = deps;
  const changes: Updateable<FollowUpsTable> = {
    status: 'PUBLISHED',
    network_post_id: ref.networkPostId,
    network_cid: ref.cid,
    permalink: ref.permalink,
    published_at: ctx.clock.now(),
    last_error: null,
    error_code: null,
    error_message: null,
  };
  await ctx.db.transaction().execute(async (trx) => {
    const saved = await release(deps, row, changes, trx);
    if (saved) await onFollowUpPublished(trx, saved, ctx.clock.now());
  });
}

async function markFailed(deps: PublishDeps, row: FollowUpRow, error: PublishError): Promise<void> {
  const { ctx } = deps;
  const shown = { code: error.code, message: error.message };
  const changes: Updateable<FollowUpsTable> = {
    status: 'FAILED',
    error_code: shown.code,
    error_message: shown.message,
    last_error: lastError(error),
  };
  await ctx.db.transaction().execute(async (trx) => {
    const saved = await release(deps, row, changes, trx);
    if (saved) await onFollowUpFailed(trx, saved, shown, ctx.clock.now());
  });
}

/**
 * A run that threw: transient errors come back after publishing's backoff until MAX_ATTEMPTS,
 * permanent ones fail it, and an auth error also marks the provider EXPIRED (only while it still
 * holds the token the run was sent with). Anything not a PublishError counts as transient.
 */
async function failOrRetry(deps: PublishDeps, row: FollowUpRow, err: unknown, provider: ProviderRow | null): Promise<void> {
  const { ctx } = deps;
  const error = asPublishError(err);
  ctx.logger.warn(
    { followUpId: row.id, threadId: row.thread_id, kind: error.kind, code: error.code, attempts: row.attempts },
    `follow-up reply failed: ${error.message}`,
  );
  if (error.kind === 'transient' && row.attempts < MAX_ATTEMPTS) {
    const runAt = new Date(ctx.clock.now().getTime() + backoffMs(row.attempts, error.options.retryAfterMs));
    await release(deps, row, { status: 'PENDING', run_at: runAt, last_error: lastError(error) });
    return;
  }
  if (error.kind === 'auth' && provider) await markProviderExpired(ctx.db, provider.id, provider.access_token_enc, ctx.clock.now());
  await markFailed(deps, row, error);
}
