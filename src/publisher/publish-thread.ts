import type { AppContext } from '../context.js';
import type { ProviderRow, ThreadRow } from '../db/schema/index.js';
import { LeaseLostError, type Platforms, PublishError, type PublishedRef } from '../platforms/platform.js';
import { decryptAccount } from '../platforms/rows.js';
import { followUpsDueCte } from '../repos/follow-ups.js';
import { failPost, markPostPublished as markPostRowPublished, recordPostFacts, releasePublishingPosts } from '../repos/posts.js';
import { getProvider, markProviderExpired } from '../repos/providers.js';
import {
  adoptContainerWhileLeaseHeld,
  completeThread as completeThreadRow,
  failThread as failThreadRow,
  loadThreadPosts,
  type PostAggregate,
  releaseThreadToReady,
} from '../repos/threads.js';
import { renewLease } from './claim.js';
import { followUpJobsCte } from './jobs/enqueue.js';
import { fencedProgress, type LeasedProgressStore, LeaseWatch } from './lease.js';

export interface PublishDeps {
  ctx: AppContext;
  platforms: Platforms;
  workerId: string;
  /** True once the worker shuts down: it finishes the post in flight, then hands its work back. */
  stopping?: () => boolean;
}

export const MAX_ATTEMPTS = 12;

function refOf(post: PostAggregate['post']): PublishedRef {
  return { networkPostId: post.network_post_id!, cid: post.network_cid, permalink: post.permalink };
}

/**
 * Publishes a claimed thread post by post, in order, each a reply to the one before. Every
 * network id is written the moment it is known, so whoever resumes (a retry, or another worker
 * after this one crashed) continues after the last published post instead of repeating it.
 * While it runs, the worker's heartbeat keeps the lease; if the lease is lost all the same (a
 * long pause), the fencing of `fencedProgress` stops this worker before it can publish twice.
 */
export async function publishClaimedThread(deps: PublishDeps, thread: ThreadRow): Promise<void> {
  const { ctx } = deps;
  const { leaseMs } = ctx.config.publisher;
  const renew = () => renewLease(ctx.db, thread.id, deps.workerId, ctx.clock.now(), leaseMs);
  // The claim set the lease: it counts as confirmed from then on (see LeaseWatch).
  const lease = new LeaseWatch(renew, () => ctx.clock.now().getTime(), leaseMs, thread.locked_until ? thread.locked_until.getTime() - leaseMs : null);
  try {
    await publishPosts(deps, thread, lease);
  } catch (err) {
    if (!(err instanceof LeaseLostError)) throw err;
    ctx.logger.info({ threadId: thread.id }, 'another worker took the thread over; this one stops');
  }
}

async function publishPosts(deps: PublishDeps, thread: ThreadRow, lease: LeaseWatch): Promise<void> {
  const { ctx } = deps;
  const [provider, posts] = await Promise.all([getProvider(ctx.db, thread.provider_id), loadThreadPosts(ctx.db, thread.id)]);
  const platform = deps.platforms[provider.kind];
  if (provider.status !== 'ACTIVE') {
    return failThread(
      deps,
      thread,
      firstUnpublished(posts),
      new PublishError(
        'auth',
        `PROVIDER_${provider.status}`,
        `The ${provider.kind} account @${provider.username} is ${provider.status.toLowerCase()}; reconnect it, then retry.`,
      ),
    );
  }
  if (!platform) {
    return failThread(
      deps,
      thread,
      firstUnpublished(posts),
      new PublishError('permanent', 'NETWORK_NOT_CONFIGURED', `Publishing to ${provider.kind} is not configured on this server.`),
    );
  }
  const account = decryptAccount(ctx, provider);
  let root: PublishedRef | null = null;
  let parent: PublishedRef | null = null;
  for (const { post, media, spoilerRanges } of posts) {
    if (post.status === 'PUBLISHED') {
      parent = refOf(post);
      root ??= parent;
      continue;
    }
    if (deps.stopping?.()) return handBackThread(deps, thread);
    const saved = { containerId: post.network_container_id, networkPostId: post.network_post_id, cid: post.network_cid };
    const fenced = fencedProgress(postProgressStore(deps, thread.id, post.id, lease), saved);
    await fenced.confirmLease();
    let published: PublishedRef;
    ctx.metrics.publishAttempt(provider.kind);
    try {
      published = await platform.publishPost({
        account,
        post: {
          id: post.id,
          text: post.content,
          topic: post.topic,
          media: media.map((m) => ({ url: m.url, altText: m.alt_text })),
          spoilerRanges,
          isSpoilerMedia: post.is_spoiler_media,
          writtenAt: post.created_at,
        },
        replyTo: root && parent ? { root, parent } : null,
        progress: saved,
        ...fenced,
      });
    } catch (err) {
      if (err instanceof LeaseLostError) throw err;
      return failOrRetry(deps, thread, provider, post.id, err);
    }
    ctx.metrics.publishSuccess(provider.kind);
    // Lateness is measured on the first post: when the thread's readers first see it.
    if (!root && thread.scheduled_at) ctx.metrics.publishLateness(provider.kind, (ctx.clock.now().getTime() - thread.scheduled_at.getTime()) / 1000);
    await markPostPublished(ctx, post.id, published);
    // Progress, for /readyz: a long thread is not a stalled publisher.
    ctx.metrics.publisherTick();
    parent = published;
    root ??= published;
  }
  await completeThread(deps, thread);
}

function firstUnpublished(posts: PostAggregate[]): string | null {
  return posts.find((p) => p.post.status !== 'PUBLISHED')?.post.id ?? null;
}

/** A post row's network state, fenced by the thread's lease (see fencedProgress). */
function postProgressStore(deps: PublishDeps, threadId: string, postId: string, lease: LeaseWatch): LeasedProgressStore {
  const { ctx } = deps;
  return {
    what: `thread ${threadId}`,
    renew: () => lease.confirm(),
    adoptContainer: async (expected, next) => {
      const now = ctx.clock.now();
      const adopted = await adoptContainerWhileLeaseHeld(
        ctx.db,
        threadId,
        deps.workerId,
        { id: postId, expected, next },
        now,
        new Date(now.getTime() + ctx.config.publisher.leaseMs),
      );
      if (adopted) lease.confirmedAt(now.getTime());
      return adopted;
    },
    recordFacts: (progress) => recordPostFacts(ctx.db, postId, progress, ctx.clock.now()),
  };
}

function markPostPublished(ctx: AppContext, postId: string, ref: PublishedRef): Promise<void> {
  return markPostRowPublished(ctx.db, postId, ref, ctx.clock.now());
}

// The follow-up jobs (analytics, auto-repost, auto-plug) are enqueued, and the follow-up replies
// get their due time, in the statement that marks the thread PUBLISHED: they exist (are due) if
// and only if the thread is PUBLISHED, whatever crashes.
async function completeThread(deps: PublishDeps, thread: ThreadRow): Promise<void> {
  const now = deps.ctx.clock.now();
  await completeThreadRow(deps.ctx.db, thread.id, deps.workerId, now, [followUpJobsCte(now, now), followUpsDueCte(now)]);
}

/** Exponential backoff with ±25 % jitter, at least what the network asked for. */
export function backoffMs(attempts: number, retryAfterMs = 0, random = Math.random): number {
  const base = Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
  return Math.max(retryAfterMs, Math.round(base * (0.75 + random() * 0.5)));
}

async function failOrRetry(deps: PublishDeps, thread: ThreadRow, provider: ProviderRow, postId: string, err: unknown): Promise<void> {
  const error =
    err instanceof PublishError
      ? err
      : new PublishError('transient', 'UNEXPECTED', err instanceof Error ? err.message : String(err), { outcomeUnknown: true, cause: err });
  deps.ctx.logger.warn({ threadId: thread.id, postId, kind: error.kind, code: error.code, attempts: thread.attempts }, `publish failed: ${error.message}`);
  deps.ctx.metrics.publishFailure(provider.kind, error.kind);
  if (error.kind === 'transient' && thread.attempts < MAX_ATTEMPTS) return scheduleRetry(deps, thread, error);
  if (error.kind === 'auth') await markProviderExpired(deps.ctx.db, provider.id, provider.access_token_enc, deps.ctx.clock.now());
  return failThread(deps, thread, postId, error);
}

function scheduleRetry(deps: PublishDeps, thread: ThreadRow, error: PublishError): Promise<void> {
  const next = new Date(deps.ctx.clock.now().getTime() + backoffMs(thread.attempts, error.options.retryAfterMs));
  return releaseToReady(deps, thread, { next_attempt_at: next, last_error: `${error.code}: ${error.message}` });
}

/**
 * A worker that shuts down gives its thread back, due at once and without counting the
 * attempt, so the next worker resumes after the last published post without waiting for the
 * lease to run out.
 */
export function handBackThread(deps: PublishDeps, thread: ThreadRow): Promise<void> {
  deps.ctx.logger.info({ threadId: thread.id }, 'shutting down: the thread is handed back to be resumed');
  return releaseToReady(deps, thread, { attempts: Math.max(0, thread.attempts - 1) });
}

async function releaseToReady(
  deps: PublishDeps,
  thread: ThreadRow,
  changes: { next_attempt_at?: Date; last_error?: string; attempts?: number },
): Promise<void> {
  const now = deps.ctx.clock.now();
  await deps.ctx.db.transaction().execute(async (trx) => {
    if (await releaseThreadToReady(trx, thread.id, deps.workerId, changes, now)) await releasePublishingPosts(trx, thread.id, now);
  });
}

async function failThread(deps: PublishDeps, thread: ThreadRow, postId: string | null, error: PublishError): Promise<void> {
  const now = deps.ctx.clock.now();
  await deps.ctx.db.transaction().execute(async (trx) => {
    if (!(await failThreadRow(trx, thread.id, deps.workerId, { code: error.code, message: error.message }, now))) return;
    await releasePublishingPosts(trx, thread.id, now);
    if (postId) await failPost(trx, postId, error, now);
  });
}
