import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { ConflictError, UpstreamError } from '../../errors/index.js';
import { NETWORKS } from '../../networks/index.js';
import { PublishError } from '../../networks/platform.js';
import { refreshPostsAnalytics } from '../../networks/post-analytics.js';
import { decryptAccount } from '../../networks/rows.js';
import { listPosts } from '../../repos/posts.js';
import { getProvider, markProviderExpired } from '../../repos/providers.js';
import { requireAccessibleThread } from '../threads/thread-access.js';
import type { ThreadView } from '../threads/thread-views.js';
import { getThread } from '../threads/threads.js';

/**
 * Refresh now: fetches the analytics of the thread's published posts from the network at once
 * (the same per-post refresh as the ANALYTICS job, whose schedule is left as it was) and answers
 * Get Thread's view. A post the network refuses for good is skipped as the job skips it. A
 * network failure answers 502 and keeps the stored analytics; a refused token turns the
 * provider EXPIRED through the one place that does it (markProviderExpired).
 */
export async function refreshThreadAnalytics(ctx: AppContext, account: AccountRow, threadId: string): Promise<ThreadView> {
  const thread = await requireAccessibleThread(ctx.db, account, threadId);
  const posts = (await listPosts(ctx.db, thread.id)).filter((p) => p.status === 'PUBLISHED' && p.network_post_id !== null);
  if (posts.length === 0) throw new ConflictError('NOT_PUBLISHED', 'No post of this thread is published yet; there are no analytics to fetch.');
  const provider = await getProvider(ctx.db, thread.provider_id);
  if (provider.status !== 'ACTIVE') {
    throw new ConflictError(
      'CONFLICT',
      `The ${provider.kind} account @${provider.username} is ${provider.status.toLowerCase()}; reconnect it to fetch analytics.`,
    );
  }
  const platform = (await ctx.network()).platforms[provider.kind];
  if (!platform) throw new ConflictError('CONFLICT', `${provider.kind} is not configured on this server.`);
  try {
    const result = await refreshPostsAnalytics(ctx, { platform, account: decryptAccount(ctx, provider), posts });
    if (result.refused && result.refreshed === 0) throw result.refused;
  } catch (err) {
    // The network clients turn every network failure into a PublishError; anything else (the database) is ours.
    if (!(err instanceof PublishError)) throw err;
    if (err.kind === 'auth') await markProviderExpired(ctx.db, provider.id, provider.access_token_enc, ctx.clock.now());
    ctx.logger.warn({ threadId: thread.id, err }, 'refreshing analytics failed');
    throw new UpstreamError(`${NETWORKS[provider.kind].name} did not answer with the analytics: ${reason(err)}`, { cause: err });
  }
  return getThread(ctx, account, thread.id);
}

function reason(err: PublishError): string {
  if (err.kind === 'auth') return 'the account’s token was refused; reconnect it.';
  if (err.kind === 'permanent') return 'the network refused every post of the thread.';
  return 'it could not be reached; try again.';
}
