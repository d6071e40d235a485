import type { AppContext } from '../context.js';
import type { ProviderRow, ThreadRow } from '../db/schema/index.js';
import { isSkeinId } from '../lib/ids.js';
import {
  ContainerNotReady,
  LeaseLostError,
  type Platform,
  type PlatformAccount,
  type PostOptions,
  PublishError,
  type PublishedRef,
  type QuoteTarget,
} from '../networks/platform.js';
import { decryptAccount } from '../networks/rows.js';
import * as postsRepo from '../repos/posts.js';
import { getProvider, markProviderExpired } from '../repos/providers.js';
import { continueSeries } from '../repos/series.js';
import * as threadQueueRepo from '../repos/thread-queue.js';
import { loadThreadPosts, type PostAggregate, type PublishWork } from '../repos/threads.js';
import type { DbOrTrx } from '../repos/types.js';
import { renewLease } from './claim.js';
import type { PublishDeps } from './deps.js';
import { asPublishError, lastError } from './failures.js';
import { followUpJobsPlan } from './jobs/enqueue.js';
import { fencedProgress, LeaseWatch, queueProgressStore } from './lease.js';

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
export async function publishClaimedThread(deps: PublishDeps, thread: ThreadRow, work?: PublishWork): Promise<void> {
  const { ctx } = deps;
  const { leaseMs } = ctx.config.publisher;
  const renew = () => renewLease(deps, threadQueueRepo.threadQueue, thread);
  // The claim set the lease: it counts as confirmed from then on (see LeaseWatch).
  const lease = new LeaseWatch(renew, () => ctx.clock.now().getTime(), leaseMs, thread.locked_until ? thread.locked_until.getTime() - leaseMs : null);
  try {
    await publishPosts(deps, thread, lease, work);
  } catch (err) {
    if (!(err instanceof LeaseLostError)) throw err;
    ctx.logger.info({ threadId: thread.id }, 'another worker took the thread over; this one stops');
  }
}

/** The thread's provider and posts: read with the claim's other threads (`work`), else on their own. */
async function workOf(ctx: AppContext, thread: ThreadRow, work: PublishWork | undefined): Promise<PublishWork> {
  if (work) return work;
  const [provider, posts] = await Promise.all([getProvider(ctx.db, thread.provider_id), loadThreadPosts(ctx.db, thread.id)]);
  return { provider, posts };
}

async function publishPosts(deps: PublishDeps, thread: ThreadRow, lease: LeaseWatch, work: PublishWork | undefined): Promise<void> {
  const { ctx } = deps;
  const { provider, posts } = await workOf(ctx, thread, work);
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
  /** The last post, published: recorded by the statement that completes the thread (see completeThread). */
  let lastPost: LastPost | undefined;
  for (const [index, { post, media, spoilerRanges }] of posts.entries()) {
    if (post.status === 'PUBLISHED') {
      parent = refOf(post);
      root ??= parent;
      continue;
    }
    if (deps.stopping?.()) return handBackThread(deps, thread);
    const saved = { containerId: post.network_container_id, networkPostId: post.network_post_id, cid: post.network_cid };
    const fenced = fencedProgress(queueProgressStore(deps, threadQueueRepo.threadQueue, thread, post.id, lease), saved);
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
          linkPreview: post.link_preview,
          writtenAt: post.created_at,
          options: await optionsOf(ctx, thread, post),
        },
        replyTo: root && parent ? { root, parent } : null,
        progress: saved,
        ...fenced,
        comeBackLater: { containerSavedAt: post.network_container_at },
      });
    } catch (err) {
      if (err instanceof LeaseLostError) throw err;
      if (err instanceof ContainerNotReady) return comeBackAt(deps, thread, err.retryAt);
      return failOrRetry(deps, thread, provider, post.id, err);
    }
    ctx.metrics.publishSuccess(provider.kind);
    // Lateness is measured on the first post: when the thread's readers first see it.
    if (!root && thread.scheduled_at) ctx.metrics.publishLateness(provider.kind, (ctx.clock.now().getTime() - thread.scheduled_at.getTime()) / 1000);
    if (index === posts.length - 1) lastPost = { id: post.id, ref: published };
    else await markPostPublished(ctx, post.id, published);
    // Progress, for /readyz: a long thread is not a stalled publisher.
    ctx.metrics.publisherTick();
    parent = published;
    root ??= published;
  }
  if (root && platform.afterThread && !(await finishThread(deps, thread, provider, platform.afterThread.bind(platform), account, root))) return;
  await completeThread(deps, thread, lastPost);
}

/**
 * The network's last step once every post is out (see Platform.afterThread), before the thread
 * is recorded as published so a crash repeats it. A transient failure retries the thread (its
 * posts are all found published, nothing is sent again); any other leaves the posts as they are
 * and the thread is completed all the same. False when the thread was given back for a retry.
 */
async function finishThread(
  deps: PublishDeps,
  thread: ThreadRow,
  provider: ProviderRow,
  afterThread: NonNullable<Platform['afterThread']>,
  account: PlatformAccount,
  root: PublishedRef,
): Promise<boolean> {
  try {
    await afterThread(account, root, { replyControl: thread.reply_control, quotesDisabled: thread.quotes_disabled });
    return true;
  } catch (err) {
    const error = asPublishError(err);
    deps.ctx.logger.warn({ threadId: thread.id, kind: error.kind, code: error.code }, `the thread's last step on ${provider.kind} failed: ${error.message}`);
    if (error.kind !== 'transient' || thread.attempts >= MAX_ATTEMPTS) return true;
    await scheduleRetry(deps, thread, error);
    return false;
  }
}

type LastPost = { id: string; ref: PublishedRef };

/** The post's network options, its quote of a Skein post resolved to that post's network reference now. */
async function optionsOf(ctx: AppContext, thread: ThreadRow, post: PostAggregate['post']): Promise<PostOptions> {
  return {
    replyControl: thread.reply_control,
    quotesDisabled: thread.quotes_disabled,
    quote: post.quote === null ? null : await quoteTarget(ctx, post.quote),
    poll: post.poll,
    langs: post.langs,
    contentWarning: post.content_warning,
  };
}

async function quoteTarget(ctx: AppContext, quote: string): Promise<QuoteTarget> {
  if (!isSkeinId(quote)) return { networkPostId: quote, cid: null };
  const quoted = await postsRepo.findQuotedPost(ctx.db, quote);
  if (quoted?.status !== 'PUBLISHED' || quoted.network_post_id === null) {
    throw new PublishError('permanent', 'QUOTE_NOT_FOUND', `The quoted post ${quote} is no longer a published post; edit the quote, then retry.`);
  }
  return { networkPostId: quoted.network_post_id, cid: quoted.network_cid };
}

function firstUnpublished(posts: PostAggregate[]): string | null {
  return posts.find((p) => p.post.status !== 'PUBLISHED')?.post.id ?? null;
}

function markPostPublished(ctx: AppContext, postId: string, ref: PublishedRef): Promise<void> {
  return postsRepo.markPostPublished(ctx.db, postId, ref, ctx.clock.now());
}

// The follow-up jobs (analytics, auto-repost, auto-plug) are enqueued, and the follow-up replies
// get their due time, in the statement that marks the thread PUBLISHED; the last post is marked
// PUBLISHED by that statement too (one round trip, see repos/thread-queue.ts completeThread).
// A repeating thread's next occurrence is made in the same transaction as the completion
// (repos/series.ts), so a crash leaves both or neither; its last post is recorded before that
// transaction, as every other post, so a failed next occurrence never rolls back what went out.
// The schedule signal then wakes the publisher for it.
async function completeThread(deps: PublishDeps, thread: ThreadRow, lastPost: LastPost | undefined): Promise<void> {
  const now = deps.ctx.clock.now();
  if (thread.repeat_every === null) {
    await threadQueueRepo.completeThread(deps.ctx.db, thread.id, deps.workerId, now, followUpJobsPlan(now, now), lastPost);
    return;
  }
  if (lastPost) await markPostPublished(deps.ctx, lastPost.id, lastPost.ref);
  const next = await deps.ctx.db.transaction().execute(async (trx) => {
    const completed = await threadQueueRepo.completeThread(trx, thread.id, deps.workerId, now, followUpJobsPlan(now, now));
    return completed ? continueSeries(trx, thread, now) : null;
  });
  if (next) deps.ctx.scheduleSignal.ring();
}

/** Exponential backoff with ±25 % jitter, at least what the network asked for. */
export function backoffMs(attempts: number, retryAfterMs = 0, random = Math.random): number {
  const base = Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
  return Math.max(retryAfterMs, Math.round(base * (0.75 + random() * 0.5)));
}

async function failOrRetry(deps: PublishDeps, thread: ThreadRow, provider: ProviderRow, postId: string, err: unknown): Promise<void> {
  const error = asPublishError(err);
  deps.ctx.logger.warn({ threadId: thread.id, postId, kind: error.kind, code: error.code, attempts: thread.attempts }, `publish failed: ${error.message}`);
  deps.ctx.metrics.publishFailure(provider.kind, error.kind);
  if (error.kind === 'transient' && thread.attempts < MAX_ATTEMPTS) return scheduleRetry(deps, thread, error);
  if (error.kind === 'auth') await markProviderExpired(deps.ctx.db, provider.id, provider.access_token_enc, deps.ctx.clock.now());
  return failThread(deps, thread, postId, error);
}

function scheduleRetry(deps: PublishDeps, thread: ThreadRow, error: PublishError): Promise<void> {
  const next = new Date(deps.ctx.clock.now().getTime() + backoffMs(thread.attempts, error.options.retryAfterMs));
  return release(deps, thread, (trx, now) =>
    threadQueueRepo.threadQueue.release(trx, thread, deps.workerId, { status: 'READY', next_attempt_at: next, last_error: lastError(error) }, now),
  );
}

/**
 * A worker that shuts down gives its thread back, due at once and without counting the
 * attempt, so the next worker resumes after the last published post without waiting for the
 * lease to run out.
 */
function handBackThread(deps: PublishDeps, thread: ThreadRow): Promise<void> {
  deps.ctx.logger.info({ threadId: thread.id }, 'shutting down: the thread is handed back to be resumed');
  return release(deps, thread, (trx, now) => threadQueueRepo.threadQueue.handBack(trx, thread, deps.workerId, now));
}

/**
 * The network is still processing the post's saved container (a video): the thread goes back
 * to the queue, due again at `retryAt`, the claim not counted, so no worker sits waiting for
 * minutes. The container stays saved, and the next claim (by any worker) looks at it again.
 */
function comeBackAt(deps: PublishDeps, thread: ThreadRow, retryAt: Date): Promise<void> {
  return release(deps, thread, (trx, now) => threadQueueRepo.threadQueue.handBack(trx, thread, deps.workerId, now, { next_attempt_at: retryAt }));
}

/** The thread goes back to READY through `toReady` and, if this worker still held it, its PUBLISHING posts too. */
async function release(deps: PublishDeps, thread: ThreadRow, toReady: (trx: DbOrTrx, now: Date) => Promise<unknown>): Promise<void> {
  const now = deps.ctx.clock.now();
  await deps.ctx.db.transaction().execute(async (trx) => {
    if (await toReady(trx, now)) await postsRepo.releasePublishingPosts(trx, thread.id, now);
  });
}

async function failThread(deps: PublishDeps, thread: ThreadRow, postId: string | null, error: PublishError): Promise<void> {
  const now = deps.ctx.clock.now();
  const next = await deps.ctx.db.transaction().execute(async (trx) => {
    if (!(await threadQueueRepo.failThread(trx, thread.id, deps.workerId, { code: error.code, message: error.message }, now))) return null;
    await postsRepo.releasePublishingPosts(trx, thread.id, now);
    if (postId) await postsRepo.failPost(trx, postId, error, now);
    // A FAILED occurrence does not stop its series.
    return continueSeries(trx, thread, now);
  });
  if (next) deps.ctx.scheduleSignal.ring();
}
