import type { AppContext } from '../context.js';
import type { PostRow, ProviderRow } from '../db/schema/index.js';
import { type PlatformAccount, PublishError, type PublishedRef } from './platform.js';

/** From stored rows to what the network clients take; shared by the publisher and the services. */

export function decryptAccount(ctx: Pick<AppContext, 'secrets'>, provider: ProviderRow): PlatformAccount {
  const open = (value: string | null) => (value ? ctx.secrets.decrypt(value) : null);
  return {
    providerId: provider.id,
    providerUserId: provider.provider_user_id,
    username: provider.username,
    accessToken: open(provider.access_token_enc),
    refreshToken: open(provider.refresh_token_enc),
    tokenExpiresAt: provider.token_expires_at,
    serviceUrl: provider.service_url,
  };
}

/** The network reference of a published post; a thread is PUBLISHED only when all its posts are. */
export function publishedRef(post: PostRow | undefined): PublishedRef {
  if (!post?.network_post_id) throw new PublishError('permanent', 'POST_NOT_PUBLISHED', 'The thread has a post that was never published.');
  return { networkPostId: post.network_post_id, cid: post.network_cid, permalink: post.permalink };
}
