import type { JobRow, PostRow, ProviderRow, ThreadRow } from '../../db/schema/index.js';
import { type Platform, type PlatformAccount, PublishError, type PublishedRef } from '../../platforms/platform.js';
import { listPosts } from '../../repos/posts.js';
import { getProvider } from '../../repos/providers.js';
import { findThread } from '../../repos/threads.js';
import { decryptAccount, type PublishDeps } from '../publish-thread.js';

/** What a job works on: its thread, the thread's posts in order, and the network to call. */
export interface JobTarget {
  thread: ThreadRow;
  /** As read before any network call: an auth failure expires it only if it still holds this token. */
  provider: ProviderRow;
  posts: PostRow[];
  platform: Platform;
  account: PlatformAccount;
}

/**
 * Loads a claimed job's thread and account. Null when the thread is gone (deleted since the
 * claim; the job row went with it). A provider that is not ACTIVE, or a network this server
 * does not publish to, stops the job: there is nothing to retry until someone reconnects.
 */
export function loadJobTarget(deps: PublishDeps, job: JobRow): Promise<JobTarget | null> {
  return loadThreadTarget(deps, job.thread_id);
}

/** A thread's posts and account, for a job or a follow-up reply (see loadJobTarget). */
export async function loadThreadTarget(deps: PublishDeps, threadId: string): Promise<JobTarget | null> {
  const { ctx } = deps;
  const thread = await findThread(ctx.db, threadId);
  if (!thread) return null;
  const provider = await getProvider(ctx.db, thread.provider_id);
  if (provider.status !== 'ACTIVE') {
    throw new PublishError(
      'permanent',
      `PROVIDER_${provider.status}`,
      `The ${provider.kind} account @${provider.username} is ${provider.status.toLowerCase()}.`,
    );
  }
  const platform = deps.platforms[provider.kind];
  if (!platform) throw new PublishError('permanent', 'NETWORK_NOT_CONFIGURED', `Publishing to ${provider.kind} is not configured on this server.`);
  const posts = await listPosts(ctx.db, thread.id);
  return { thread, provider, posts, platform, account: decryptAccount(ctx, provider) };
}

/** The network reference of a published post; a thread is PUBLISHED only when all its posts are. */
export function publishedRef(post: PostRow | undefined): PublishedRef {
  if (!post?.network_post_id) throw new PublishError('permanent', 'POST_NOT_PUBLISHED', 'The thread has a post that was never published.');
  return { networkPostId: post.network_post_id, cid: post.network_cid, permalink: post.permalink };
}
