import type { JobRow, PostRow, ProviderRow, ThreadRow } from '../../db/schema/index.js';
import { type Platform, type PlatformAccount, PublishError } from '../../networks/platform.js';
import { decryptAccount } from '../../networks/rows.js';
import { listPosts } from '../../repos/posts.js';
import { getProvider } from '../../repos/providers.js';
import { findThread } from '../../repos/threads.js';
import type { PublishDeps } from '../deps.js';

export { publishedRef } from '../../networks/rows.js';

/** The account a job works for, and the network to call. */
export interface ProviderTarget {
  /** As read before any network call: an auth failure expires it only if it still holds this token. */
  provider: ProviderRow;
  platform: Platform;
  account: PlatformAccount;
}

/** What a thread job works on: its thread, the thread's posts in order, and its account. */
export interface JobTarget extends ProviderTarget {
  thread: ThreadRow;
  posts: PostRow[];
}

/**
 * Loads a job's account. A provider that is not ACTIVE, or a network this server does not
 * publish to, stops the job: there is nothing to retry until someone reconnects.
 */
export async function loadProviderTarget(deps: PublishDeps, providerId: string): Promise<ProviderTarget> {
  const { ctx } = deps;
  const provider = await getProvider(ctx.db, providerId);
  if (provider.status !== 'ACTIVE') {
    throw new PublishError(
      'permanent',
      `PROVIDER_${provider.status}`,
      `The ${provider.kind} account @${provider.username} is ${provider.status.toLowerCase()}.`,
    );
  }
  const platform = deps.platforms[provider.kind];
  if (!platform) throw new PublishError('permanent', 'NETWORK_NOT_CONFIGURED', `Publishing to ${provider.kind} is not configured on this server.`);
  return { provider, platform, account: decryptAccount(ctx, provider) };
}

/**
 * Loads a claimed thread job's thread and account. Null when the thread is gone (deleted since
 * the claim; the job row went with it).
 */
export function loadJobTarget(deps: PublishDeps, job: JobRow): Promise<JobTarget | null> {
  return job.thread_id === null ? Promise.resolve(null) : loadThreadTarget(deps, job.thread_id);
}

/** A thread's posts and account, for a thread job or a follow-up reply. Null when the thread is gone. */
export async function loadThreadTarget(deps: PublishDeps, threadId: string): Promise<JobTarget | null> {
  const { ctx } = deps;
  const thread = await findThread(ctx.db, threadId);
  if (!thread) return null;
  const target = await loadProviderTarget(deps, thread.provider_id);
  const posts = await listPosts(ctx.db, thread.id);
  return { ...target, thread, posts };
}
